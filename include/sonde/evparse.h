/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * Event specifications as perf users write them ("cycles:u",
 * "{task-clock,page-faults}:k", "msr/tsc/", "sched:sched_switch",
 * "mem:0x1000/8:w", "r1a8") turned into the perf_event_attr Linux perf 6.1
 * would build for them.
 */
#ifndef SONDE_EVPARSE_H
#define SONDE_EVPARSE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "sonde/common.h"
#include "sonde/abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A parse failure: where and why (public value struct). */
struct sonde_parse_error {
	int column;        /* 0-based byte offset into the spec */
	char message[256]; /* what was expected / what is wrong */
	char spec[256];    /* the spec (truncated) for sonde_parse_error__format */
	/* Room for fields to come; the library zeroes it. */
	uint64_t reserved[2];
};

/**
 * @brief **sonde_parse_error__format()** renders @p err as perf does:
 * `event syntax error: 'SPEC'`, then a line with `\___ MESSAGE` whose
 * backslash sits under the failing column.
 * @return the length written (as snprintf), @p buf always terminated.
 */
SONDE_API int sonde_parse_error__format(const struct sonde_parse_error *err,
					char *buf, size_t size);

/* Modifiers that are not attr bits (the consumer applies them). */
enum sonde_evspec_flags {
	SONDE_EVSPEC_PRECISE_MAX = 1 << 0, /* P: highest precise_ip that opens */
	SONDE_EVSPEC_SAMPLE_READ = 1 << 1, /* S: PERF_SAMPLE_READ */
	SONDE_EVSPEC_WEAK_GROUP = 1 << 2,  /* W: split the group if it fails */
	SONDE_EVSPEC_BPF_COUNTER = 1 << 3, /* b: count with BPF */
	SONDE_EVSPEC_PERIOD_SET = 1 << 4,  /* period= term given */
	SONDE_EVSPEC_FREQ_SET = 1 << 5,    /* freq= term given */
};

struct sonde_evspec_list; /* opaque */

struct sonde_evspec_opts {
	size_t sz;
	const char *sysfs_root;   /* default "/sys" or $SONDE_SYSFS_ROOT */
	const char *tracefs_root; /* default: sonde_tracefs__root() */
	/*
	 * Turns the SYMBOL of "uprobe:PATH:SYMBOL" into the file offset the
	 * uprobe PMU wants (0 or -errno); called during the parse. NULL:
	 * only numeric offsets ("uprobe:PATH:0x1130") parse.
	 * sonde_symcache__probe_offset() fits, with a symcache as @p ctx.
	 */
	int (*probe_resolve)(const char *path, const char *symbol,
			     uint64_t *offset, void *ctx);
	void *probe_ctx;
	size_t : 0;
};
#define sonde_evspec_opts__last_field probe_ctx

/**
 * @brief **sonde_evspec_list__parse()** parses a comma list of event specs
 * (groups allowed). On failure @p err (may be NULL) says where and why.
 * PMUs are read from sysfs only when the spec names one or an alias;
 * a tracepoint makes it find tracefs (mounting it when root and missing).
 * @return 0 with *@p out set (free with sonde_evspec_list__free()), or
 * -SONDE_ERR_PARSE (bad spec), -ENOENT (unknown PMU/tracepoint, also
 * described in @p err), -ENOMEM.
 */
SONDE_API int sonde_evspec_list__parse(const char *spec,
				       struct sonde_evspec_list **out,
				       struct sonde_parse_error *err);

/**
 * @brief **sonde_evspec_list__parse_opts()** is sonde_evspec_list__parse()
 * with the sysfs/tracefs roots taken from @p opts.
 */
SONDE_API int sonde_evspec_list__parse_opts(const char *spec,
					    const struct sonde_evspec_opts *opts,
					    struct sonde_evspec_list **out,
					    struct sonde_parse_error *err);

/** @brief **sonde_evspec_list__free()** frees; NULL is fine. */
SONDE_API void sonde_evspec_list__free(struct sonde_evspec_list *l);

/** @brief **sonde_evspec_list__count()** @return the number of events. */
SONDE_API size_t sonde_evspec_list__count(const struct sonde_evspec_list *l);

/**
 * @brief **sonde_evspec_list__attr()** @return event @p i's attr (size set;
 * only the spec-derived fields filled), or NULL when out of range.
 * Owned by @p l, valid until sonde_evspec_list__free().
 */
SONDE_API const struct sonde_perf_event_attr *
sonde_evspec_list__attr(const struct sonde_evspec_list *l, size_t i);

/**
 * @brief **sonde_evspec_list__name()** @return the name perf shows for
 * event @p i ("task-clock", "cycles:u", "sched:sched_switch", "msr/tsc/").
 * Owned by @p l, valid until sonde_evspec_list__free().
 */
SONDE_API const char *sonde_evspec_list__name(const struct sonde_evspec_list *l,
					      size_t i);

/**
 * @brief **sonde_evspec_list__leader()** @return the index of event @p i's
 * group leader (@p i itself outside a group), or -EINVAL.
 */
SONDE_API int sonde_evspec_list__leader(const struct sonde_evspec_list *l,
					size_t i);

/**
 * @brief **sonde_evspec_list__pmu()** @return the sysfs PMU name of event
 * @p i ("cpu", "msr", "software", "tracepoint", "breakpoint"...) or NULL
 * for legacy hardware events on a machine without a core PMU.
 * Owned by @p l, valid until sonde_evspec_list__free().
 */
SONDE_API const char *sonde_evspec_list__pmu(const struct sonde_evspec_list *l,
					     size_t i);

/**
 * @brief **sonde_evspec_list__cpumask()** @return the PMU's cpumask text
 * (uncore PMUs count per socket, not per task) or NULL.
 * Owned by @p l, valid until sonde_evspec_list__free().
 */
SONDE_API const char *sonde_evspec_list__cpumask(const struct sonde_evspec_list *l,
						 size_t i);

/**
 * @brief **sonde_evspec_list__probe_target()** for a kprobe/uprobe PMU
 * event ("uprobe:PATH:SYMBOL[+OFF]", "uretprobe:PATH:SYMBOL",
 * "kprobe:SYMBOL[+OFF]", "kretprobe:SYMBOL"): the uprobe_path or
 * kprobe_func string that the attr's config1 points to (probe_offset is
 * config2). The string belongs to the list: an attr copied out of it
 * needs its own copy once the list is freed (sonde_evsel__set_probe_target()).
 * @return the string, or NULL for other events.
 */
SONDE_API const char *
sonde_evspec_list__probe_target(const struct sonde_evspec_list *l, size_t i);

/** @brief **sonde_evspec_list__flags()** @return enum sonde_evspec_flags. */
SONDE_API unsigned int sonde_evspec_list__flags(const struct sonde_evspec_list *l,
						size_t i);

/**
 * @brief **sonde_evspec_list__term()** @return the text of a term that is
 * not an attr field (call-graph, stack-size, max-stack, inherit,
 * no-inherit, overwrite, percore, metric-id, ...) given to event @p i, or
 * NULL when absent ("" for a term without value). The leader of a named
 * group ("name{a,b}") has the term "group" set to the name.
 * Owned by @p l, valid until sonde_evspec_list__free().
 */
SONDE_API const char *sonde_evspec_list__term(const struct sonde_evspec_list *l,
					      size_t i, const char *key);

/**
 * @brief **sonde_evspec_list__scale()** @return the sysfs .scale of a PMU
 * alias event (1.0 otherwise); @p unit (may be NULL) gets its .unit or "".
 */
SONDE_API double sonde_evspec_list__scale(const struct sonde_evspec_list *l,
					  size_t i, const char **unit);

struct sonde_evspec_apply_opts {
	size_t sz;
	/* This event carries the side-band records (perf's "track"): a
	 * dwarf call-graph term then also sets mmap_data. */
	bool track;
	size_t : 0;
};
#define sonde_evspec_apply_opts__last_field track

/**
 * @brief **sonde_evspec_list__apply_terms()** applies event @p i's terms
 * and modifiers that only a sampling tool acts on to @p attr, the attr the
 * tool built from sonde_evspec_list__attr() plus its own sampling setup,
 * as perf record does (evsel__apply_config_terms): call-graph=fp|dwarf[,N]
 * |lbr|no (replacing the tool's -g), stack-size, max-stack
 * (sample_max_stack; alone it means fp), inherit / no-inherit, overwrite
 * (write_backward) / no-overwrite, aux-output, aux-sample-size (with
 * PERF_SAMPLE_AUX), branch_type (PERF_SAMPLE_BRANCH_STACK), S (sample READ
 * and ID; a group reads as a group, without inherit) and P (precise_ip 3:
 * the opener steps down to the highest level that opens). W (a weak group)
 * changes no attr: the opener splits the group when it does not fit.
 * @return 0, -EINVAL for a bad term value, -EOPNOTSUPP for dwarf chains on
 * an architecture without a register set for them.
 */
SONDE_API int
sonde_evspec_list__apply_terms(const struct sonde_evspec_list *l, size_t i,
			       struct sonde_perf_event_attr *attr,
			       const struct sonde_evspec_apply_opts *opts);

/**
 * @brief **sonde_branch_sample_type__parse()** reads perf's -j / branch_type
 * names, comma-separated (u, k, hv, any, any_call, any_ret, ind_call,
 * abort_tx, in_tx, no_tx, cond, ind_jmp, call, save_type, stack, priv)
 * into a branch_sample_type mask; privilege levels alone mean plain "any"
 * (the event's exclude bits then set the levels), as in perf 6.1.
 * @return 0, or -EINVAL for an unknown name.
 */
SONDE_API int sonde_branch_sample_type__parse(const char *str, uint64_t *mode);

/**
 * @brief **sonde_perf_event_attr__fprintf()** prints @p attr as perf 6.1's
 * -vv does: a `perf_event_attr:` line, then `  field    value` for every
 * non-zero field, with perf's field names and number formats.
 * @return characters written, or -errno.
 */
SONDE_API int sonde_perf_event_attr__fprintf(FILE *fp,
					     const struct sonde_perf_event_attr *attr);

/* Called per non-zero attr field: perf's name and its value as text. */
typedef void (*sonde_attr_field_fn)(void *ctx, const char *name,
				    const char *val);

/**
 * @brief **sonde_perf_event_attr__for_each_field()** calls @p fn for every
 * non-zero field of @p attr in perf's order, names and number formats (the
 * walk behind sonde_perf_event_attr__fprintf() and the "# event :" lines
 * of a perf.data header). The strings live until @p fn returns.
 * @return 0, or -EINVAL.
 */
SONDE_API int
sonde_perf_event_attr__for_each_field(const struct sonde_perf_event_attr *attr,
				      sonde_attr_field_fn fn, void *ctx);

/**
 * @brief **sonde_perf_event_attr__probe()** tells whether an event opens
 * here: opens a disabled counting copy of @p attr on the calling process
 * (any CPU) through the syscall seam and closes it at once. User space
 * only first (allowed at perf_event_paranoid 2); PMUs that refuse any
 * exclusion get a second try without.
 * @return 0 when it opens, else -errno of the failure that says most.
 */
SONDE_API int sonde_perf_event_attr__probe(const struct sonde_perf_event_attr *attr);

/**
 * @brief **sonde_perf_event_attr__probe_reason()** explains a probe
 * failure (@p err: -errno or errno) in a few words, for listings.
 * @return a static string or @p buf.
 */
SONDE_API const char *sonde_perf_event_attr__probe_reason(int err, char *buf,
							  size_t size);

/*
 * One symbolic event name the parser knows, as perf lists it. Filled by
 * the library and read through the pointer only: fields may be added at
 * the end.
 */
struct sonde_event_name {
	const char *name;  /* "cpu-cycles", "L1-dcache-load-misses" */
	const char *alias; /* a second spelling listed beside it ("cycles"), or NULL */
	uint32_t type;     /* SONDE_PERF_TYPE_HARDWARE, _SOFTWARE or _HW_CACHE */
	uint64_t config;
};

/* Called per name by sonde_event_names__for_each(); non-zero stops. */
typedef int (*sonde_event_name_fn)(const struct sonde_event_name *ev,
				   void *ctx);

/**
 * @brief **sonde_event_names__for_each()** calls @p fn for every symbolic
 * event of @p type (SONDE_PERF_TYPE_HARDWARE, _SOFTWARE or _HW_CACHE) in
 * the order perf lists them: hardware and software names with their alias,
 * cache events as cache-op and cache-op-misses for the ops each cache has.
 * The strings are valid until @p fn returns.
 * @return the callback's non-zero value, 0, or -EINVAL for another type.
 */
SONDE_API int sonde_event_names__for_each(uint32_t type, sonde_event_name_fn fn,
					  void *ctx);

#ifdef __cplusplus
}
#endif
#endif /* SONDE_EVPARSE_H */
