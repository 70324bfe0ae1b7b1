/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * PMU discovery from sysfs (/sys/bus/event_source/devices/<pmu>/): the type
 * id, the format terms that map a named field onto bits of config..config3,
 * the event aliases under events/ (with their .scale and .unit) and cpumask.
 * The text in sysfs is treated as untrusted input: every parser is bounded
 * and also takes a plain buffer, so it can be fuzzed and unit-tested.
 */
#ifndef SONDE_PMU_H
#define SONDE_PMU_H

#include <stdbool.h>
#include <stdint.h>
#include "sonde/common.h"
#include "sonde/abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which attr word a format term writes. */
enum sonde_pmu_config_field {
	SONDE_PMU_CONFIG = 0,
	SONDE_PMU_CONFIG1 = 1,
	SONDE_PMU_CONFIG2 = 2,
	SONDE_PMU_CONFIG3 = 3,
};

/* One format term, e.g. "umask" = config:8-15 (value struct). */
struct sonde_pmu_format {
	const char *name;
	enum sonde_pmu_config_field field;
	uint64_t bits; /* mask of the attr bits, filled low value bit first */
};

/* One event alias from events/<name>, e.g. "tsc" = "event=0x00". */
struct sonde_pmu_alias {
	const char *name;
	const char *terms;  /* the file's text, trimmed */
	const char *unit;   /* events/<name>.unit or NULL */
	double scale;       /* events/<name>.scale or 1.0 */
};

struct sonde_pmu;  /* opaque: one PMU */
struct sonde_pmus; /* opaque: every PMU under one sysfs root */

struct sonde_pmus_opts {
	size_t sz;
	/* Directory that holds bus/event_source/devices; default "/sys" or
	 * $SONDE_SYSFS_ROOT. */
	const char *sysfs_root;
	size_t : 0;
};
#define sonde_pmus_opts__last_field sysfs_root

/**
 * @brief **sonde_pmus__load()** reads every PMU under the sysfs root. A PMU
 * whose files are malformed is kept with what could be read (and a
 * pr_debug line); a missing devices directory gives an empty set.
 * @return the set (free with sonde_pmus__free()), or NULL with errno.
 */
SONDE_API struct sonde_pmus *sonde_pmus__load(const struct sonde_pmus_opts *opts);

/** @brief **sonde_pmus__free()** frees the set; NULL is fine. */
SONDE_API void sonde_pmus__free(struct sonde_pmus *pmus);

/** @brief **sonde_pmus__count()** @return the number of PMUs. */
SONDE_API size_t sonde_pmus__count(const struct sonde_pmus *pmus);

/**
 * @brief **sonde_pmus__get()** @return PMU @p i (sorted by name) or NULL.
 * Owned by the set, valid until sonde_pmus__free().
 */
SONDE_API const struct sonde_pmu *sonde_pmus__get(const struct sonde_pmus *pmus,
						  size_t i);

/**
 * @brief **sonde_pmus__find()** looks a PMU up by exact name, then by the
 * name with an "uncore_" prefix, as perf does.
 * @return the PMU or NULL (errno ENOENT).
 * Owned by the set, valid until sonde_pmus__free().
 */
SONDE_API const struct sonde_pmu *sonde_pmus__find(const struct sonde_pmus *pmus,
						   const char *name);

/**
 * @brief **sonde_pmu__name()** @return the directory name, e.g. "msr".
 * Owned by the set, valid until sonde_pmus__free().
 */
SONDE_API const char *sonde_pmu__name(const struct sonde_pmu *pmu);

/** @brief **sonde_pmu__type()** @return the attr.type id from sysfs. */
SONDE_API uint32_t sonde_pmu__type(const struct sonde_pmu *pmu);

/**
 * @brief **sonde_pmu__cpumask()** @return the cpumask text or NULL. Owned
 * by the set, valid until sonde_pmus__free().
 */
SONDE_API const char *sonde_pmu__cpumask(const struct sonde_pmu *pmu);

/** @brief **sonde_pmu__format_count()** @return number of format terms. */
SONDE_API size_t sonde_pmu__format_count(const struct sonde_pmu *pmu);

/**
 * @brief **sonde_pmu__format()** @return term @p i (sorted) or NULL. Owned
 * by the set, valid until sonde_pmus__free().
 */
SONDE_API const struct sonde_pmu_format *
sonde_pmu__format(const struct sonde_pmu *pmu, size_t i);

/**
 * @brief **sonde_pmu__find_format()** @return the named term or NULL. Owned
 * by the set, valid until sonde_pmus__free().
 */
SONDE_API const struct sonde_pmu_format *
sonde_pmu__find_format(const struct sonde_pmu *pmu, const char *name);

/** @brief **sonde_pmu__alias_count()** @return number of event aliases. */
SONDE_API size_t sonde_pmu__alias_count(const struct sonde_pmu *pmu);

/**
 * @brief **sonde_pmu__alias()** @return alias @p i (sorted) or NULL. Owned
 * by the set, valid until sonde_pmus__free().
 */
SONDE_API const struct sonde_pmu_alias *
sonde_pmu__alias(const struct sonde_pmu *pmu, size_t i);

/**
 * @brief **sonde_pmu__find_alias()** looks an alias up, ignoring case as
 * perf does. @return the alias or NULL.
 * Owned by the set, valid until sonde_pmus__free().
 */
SONDE_API const struct sonde_pmu_alias *
sonde_pmu__find_alias(const struct sonde_pmu *pmu, const char *name);

/**
 * @brief **sonde_pmu__read_file()** reads the small text file @p rel under
 * the PMU's sysfs directory ("caps/mtc", "max_nonturbo_ratio"), trimmed,
 * into @p buf (NUL-terminated).
 * @return its length, or -errno (-ENOENT when the PMU has no such file,
 * -EFBIG when it does not fit @p size, -EINVAL for a path with "..").
 */
SONDE_API long sonde_pmu__read_file(const struct sonde_pmu *pmu,
				    const char *rel, char *buf, size_t size);

/**
 * @brief **sonde_pmu_name__auxtrace_type()** says whether the PMU named
 * @p name is an AUX area tracer and which, by name as perf does (the
 * kernel marks none in sysfs): intel_pt, intel_bts, cs_etm, arm_spe_N,
 * hisi_ptt*.
 * @return its enum sonde_auxtrace_type (> 0), or -ENOENT for a PMU that
 * is none of them, -EINVAL for NULL.
 */
SONDE_API int sonde_pmu_name__auxtrace_type(const char *name);

/**
 * @brief **sonde_pmu_name__aux_alignment()** the size of the records the
 * AUX area tracer named @p name writes, where perf stores only whole ones
 * (its auxtrace alignment): 24 for intel_bts (from, to, flags: one
 * branch), 0 for the others (a byte stream).
 * @return the size, 0, or -EINVAL for NULL.
 */
SONDE_API int sonde_pmu_name__aux_alignment(const char *name);

/**
 * @brief **sonde_pmu_name__aux_snapshot_tail()** how perf 6.1 tells a
 * wrapped snapshot area of the AUX area tracer named @p name, for
 * sonde_ring_aux_opts.snapshot_tail: 512 for cs_etm and arm_spe_N (written
 * bytes in the area's last 512 bytes past the head), 0 for the others (the
 * last 4 KiB).
 * @return 512 or 0 (also for NULL or a PMU that is no AUX area tracer).
 */
SONDE_API size_t sonde_pmu_name__aux_snapshot_tail(const char *name);

/**
 * @brief **sonde_pmu__aux_snapshot_ref_size()** the size of the reference
 * buffer perf 6.1 keeps per AUX area to tell a wrapped snapshot of
 * @p pmu's event (config @p config, an area of @p area_size bytes, record
 * -S @p snapshot_size, 0 when not given) in large areas, for
 * sonde_ring_aux_opts.snapshot_ref_size: for intel_pt with a snapshot size
 * over 64 KiB, two PSB periods (from the psb_period term) up to 256 KiB,
 * if less than the area and half the snapshot size.
 * @return the size, or 0 where perf keeps none (other PMUs, NULL).
 */
SONDE_API size_t sonde_pmu__aux_snapshot_ref_size(const struct sonde_pmu *pmu,
						  uint64_t config,
						  size_t area_size,
						  size_t snapshot_size);

struct sonde_cpu_map;

/**
 * @brief **sonde_pmu__aux_per_cpu_config()** adds to @p config what perf
 * 6.1 adds to the event of AUX area tracer @p pmu recorded in per-CPU
 * areas on @p cpus: for cs_etm the context ID (the config's own
 * contextid bits 14/15 if set, else the PMU's contextid term) and global
 * timestamps (bit 28), which the decoder needs to tell threads apart and
 * order the CPUs, once every CPU's ETM (its cpuN/trcidr/ files) is an
 * ETMv4 or ETE that has them (TRCIDR2 context ID sizes, TRCIDR0 TSSIZE).
 * On failure a message naming the CPU goes into @p err (may be NULL).
 * @return 0 with *@p config updated; -ENOENT for a PMU perf adds nothing
 * to; -EOPNOTSUPP when a CPU's ETM lacks them (perf then refuses to
 * record), -EIO for an unreadable register, -EINVAL.
 */
SONDE_API int sonde_pmu__aux_per_cpu_config(const struct sonde_pmu *pmu,
					    const struct sonde_cpu_map *cpus,
					    uint64_t *config, char *err,
					    size_t errlen);

/**
 * @brief **sonde_pmu__default_config()** the config perf starts an event
 * of @p pmu from before its terms (which then replace the bits they name
 * instead of adding to them): for intel_pt "tsc,mtc,mtc_period=P,
 * psb_period=Q,pt,branch", as far as the PMU's formats and caps (mtc,
 * mtc_periods, psb_cyc, psb_periods) allow, P and Q the allowed values
 * nearest 3. The event-spec parser applies it.
 * @return 0 with *@p config set, -ENOENT for a PMU without a default.
 */
SONDE_API int sonde_pmu__default_config(const struct sonde_pmu *pmu,
					uint64_t *config);

/**
 * @brief **sonde_pmu_format__parse()** parses the text of one format file
 * ("config:0-7,32-35", "config1:5", "config2") from a buffer that need not
 * be NUL-terminated. On success fills @p field and @p bits (name untouched).
 * @return 0, or -SONDE_ERR_PARSE on malformed text.
 */
SONDE_API int sonde_pmu_format__parse(const char *buf, size_t len,
				      enum sonde_pmu_config_field *field,
				      uint64_t *bits);

/**
 * @brief **sonde_pmu_format__apply()** scatters @p value into the bits of
 * @p fmt inside @p word (bits are ORed in, as perf does).
 * @return 0, or -ERANGE when @p value has more bits than the term holds.
 */
SONDE_API int sonde_pmu_format__apply(const struct sonde_pmu_format *fmt,
				      uint64_t value, uint64_t *word);

#ifdef __cplusplus
}
#endif
#endif /* SONDE_PMU_H */
