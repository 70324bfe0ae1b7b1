/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * Side-band records for what already runs: the kernel reports COMM, FORK
 * and MMAP only for what happens after an event is opened, so a recorder
 * that attaches to running tasks (or to itself) describes them from /proc,
 * as perf does, for their samples to symbolize.
 */
#ifndef SONDE_SYNTH_H
#define SONDE_SYNTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "sonde/common.h"
#include "sonde/abi.h"
#include "sonde/perfdata.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sonde_cpu_map;

struct sonde_synth_opts {
	size_t sz;
	/* Also non-executable file maps (MISC_MMAP_DATA): DWARF unwinding
	 * needs the segments holding .eh_frame. */
	bool data_maps;
	/* MMAP2 with device/inode instead of build ids read from the files. */
	bool no_build_ids;
	/*
	 * Give up a process's /proc/PID/maps once more than this many
	 * nanoseconds have passed since its reading began (perf's
	 * --proc-map-timeout): the MMAP2 of the line read then is written
	 * whatever it maps, marked PROC_MAP_PARSE_TIMEOUT, and the lines
	 * after it are not. 0: no limit. Measured on the seam's clock_ns
	 * (sonde/sys.h).
	 */
	uint64_t proc_map_timeout_ns;
	/* Told of each process given up (NULL: nobody), with @p ctx. */
	void (*on_timeout)(pid_t pid, void *ctx);
	void *ctx;
	size_t : 0;
};
#define sonde_synth_opts__last_field ctx

/**
 * @brief **sonde_perfdata_writer__synth_kernel()** writes to @p w the MMAP
 * record perf uses for the kernel text ("[kernel.kallsyms]_text", pid -1,
 * from _text to _etext of /proc/kallsyms). @p attr is the event that
 * carries side-band records: its sample_type shapes the sample_id trailer
 * (left zero).
 * @return 0 (also when kallsyms hides the addresses: nothing written), or
 * -errno from the writer.
 */
SONDE_API int
sonde_perfdata_writer__synth_kernel(struct sonde_perfdata_writer *w,
				    const struct sonde_perf_event_attr *attr);

/**
 * @brief **sonde_perfdata_writer__synth_process()** writes COMM for every
 * thread of process @p pid, FORK for its non-main threads, and MMAP2 for
 * its executable maps (with build ids read from the files, cached per
 * path), from /proc/PID.
 * @return 0 (also when the process is gone), or -errno.
 */
SONDE_API int
sonde_perfdata_writer__synth_process(struct sonde_perfdata_writer *w,
				     const struct sonde_perf_event_attr *attr,
				     pid_t pid, const struct sonde_synth_opts *opts);

/**
 * @brief **sonde_perfdata_writer__synth_all()** does
 * sonde_perfdata_writer__synth_process() for every process in /proc
 * (kernel threads get their COMM only).
 * @return 0 or -errno.
 */
SONDE_API int
sonde_perfdata_writer__synth_all(struct sonde_perfdata_writer *w,
				 const struct sonde_perf_event_attr *attr,
				 const struct sonde_synth_opts *opts);

struct sonde_auxtrace_info_opts {
	size_t sz;
	/* The AUX area event as opened: its type names the PMU (required). */
	const struct sonde_perf_event_attr *attr;
	/* A control page of the recording's rings (sonde_ring__control()):
	 * the TSC conversion; NULL or no cap_user_time_zero: none. */
	const struct sonde_perf_event_mmap_page *pc;
	/* The AUX areas are read as snapshots (overwrite mode, record -S). */
	bool snapshot;
	/* One AUX area per CPU (else per thread). */
	bool per_cpu;
	/* intel_pt: how context switches are recorded, perf's code (0 none,
	 * 1 sched:sched_switch, 2 switch events per task, 3 CPU-wide). */
	int have_sched_switch;
	/* intel_pt: the event's address filter, as set (NULL: none). */
	const char *filter;
	/* Where the PMUs are: NULL means $SONDE_SYSFS_ROOT or /sys. */
	const char *sysfs_root;
	/* cs_etm: the CPUs the AUX event was opened on, whose ETM registers
	 * go in; NULL or any-CPU (areas per thread): every online CPU. */
	const struct sonde_cpu_map *cpus;
	size_t : 0;
};
#define sonde_auxtrace_info_opts__last_field cpus

/**
 * @brief **sonde_perfdata_writer__synth_auxtrace_info()** writes to @p w
 * the AUXTRACE_INFO record perf needs before AUXTRACE records, for the AUX
 * area tracer whose PMU has @p opts->attr's type in sysfs, in perf 6.1's
 * layout for it: intel_pt (17 words and the filter string; TSC conversion,
 * config bits from the PMU's formats, CPUID 0x15, max_nonturbo_ratio),
 * intel_bts (6 words), arm_spe (2), hisi_ptt (1), cs_etm (header version
 * 1: 3 words, then per CPU of @p opts->cpus the ETE, ETMv4 or ETMv3
 * register block: magic, CPU, count, the config and trace ID, the ID
 * registers read from the PMU's cpuN/trcidr/ and cpuN/mgmt/ files, 0
 * where unreadable). Any other tracer
 * gets type SONDE_AUXTRACE_UNKNOWN and 7 words: PMU type,
 * time_shift, time_mult, time_zero, cap_user_time_zero, snapshot,
 * per-CPU, what only the recording machine knows; perf counts such data
 * but refuses to decode it. Marks the file as holding AUX data (the
 * AUXTRACE feature, perf's index of AUXTRACE records).
 * @return the type written (enum sonde_auxtrace_type, >= 0), or -errno:
 * -ENOENT when no AUX area tracer in sysfs has that PMU type, -E2BIG when
 * cs_etm's blocks do not fit one record (about 740 CPUs), -EINVAL.
 */
SONDE_API int
sonde_perfdata_writer__synth_auxtrace_info(struct sonde_perfdata_writer *w,
					   const struct sonde_auxtrace_info_opts *opts);

/**
 * @brief **sonde_kernel_build_id()** reads the running kernel's build id
 * from /sys/kernel/notes into @p id (up to @p size bytes).
 * @return its length, 0 when there is none, or -errno.
 */
SONDE_API int sonde_kernel_build_id(uint8_t *id, size_t size);

/*
 * The build ids of the objects a recording's samples hit, for the
 * writer's HEADER_BUILD_ID, as perf record lists them at its end
 * (perf_session__process_events() + dsos__hit_all()): the kernel, every
 * file mapped executable where a user sample's ip fell, and the vdso.
 * Fed with the records on their way to the file; the mappings come from
 * MMAP2 records (with the build id the kernel read, or the file's, read
 * at the end) and from /proc/PID/maps of processes that ran before.
 * Address spaces are not told apart: an object mapped where another
 * process had a hit is listed too, which costs a line and hides none.
 * Not thread-safe: one recording's records, from one thread.
 */
struct sonde_buildid_hits;
struct sonde_buildid_cache_opts;

struct sonde_buildid_hits_opts {
	size_t sz;
	/*
	 * attr.sample_type of every event of the recording: where a SAMPLE
	 * holds its ip. Events that disagree on it, or none given: samples
	 * mark nothing.
	 */
	const uint64_t *sample_types;
	size_t nr_sample_types;
	/* Every object mapped executable, hit or not (perf's --buildid-all). */
	bool all;
	/*
	 * Told, with @p ctx, of a hit object that could not be put in the
	 * build-id cache (-errno; a file changed during the recording,
	 * -ESTALE, is skipped silently). NULL: nobody.
	 */
	void (*on_cache_error)(const char *path, int err, void *ctx);
	void *ctx;
	size_t : 0;
};
#define sonde_buildid_hits_opts__last_field ctx

/**
 * @brief **sonde_buildid_hits__new()** makes an empty collector; @p opts
 * (may be NULL) is copied. The caller frees it with
 * sonde_buildid_hits__free().
 * @return the collector, or NULL with errno (EINVAL, ENOMEM).
 */
SONDE_API struct sonde_buildid_hits *
sonde_buildid_hits__new(const struct sonde_buildid_hits_opts *opts);

/** @brief **sonde_buildid_hits__free()** frees @p h (NULL: nothing). */
SONDE_API void sonde_buildid_hits__free(struct sonde_buildid_hits *h);

/**
 * @brief **sonde_buildid_hits__note()** looks at one record in the file's
 * layout (@p ev->size bytes): an executable MMAP2 adds a mapping, a
 * user-mode SAMPLE marks the object at its ip hit; others are ignored,
 * as are malformed ones. Nothing of @p ev is kept but copies.
 * @return 0, or -ENOMEM (that mapping is not tracked), -EINVAL.
 */
SONDE_API int sonde_buildid_hits__note(struct sonde_buildid_hits *h,
				       const struct sonde_perf_event_header *ev);

/**
 * @brief **sonde_buildid_hits__note_proc()** adds the executable file
 * mappings (and the vdso) of /proc/@p pid/maps: a process that ran before
 * the recording, whose MMAP2 records were synthesized. Deleted files are
 * left out: no build id can be read from them at the end.
 * @return 0, or -errno (the maps cannot be read: the process is gone).
 */
SONDE_API int sonde_buildid_hits__note_proc(struct sonde_buildid_hits *h, pid_t pid);

/**
 * @brief **sonde_buildid_hits__note_all_procs()** does
 * sonde_buildid_hits__note_proc() for every process in /proc, skipping
 * those gone meanwhile (a system-wide recording).
 * @return 0, or -errno (/proc unreadable, ENOMEM).
 */
SONDE_API int sonde_buildid_hits__note_all_procs(struct sonde_buildid_hits *h);

/**
 * @brief **sonde_buildid_hits__write()** adds to @p w's BUILD_ID feature
 * the running kernel's build id, then each hit object's (from its MMAP2
 * record, else read from the file; unreadable ones are left out), then
 * the vdso's when it was hit, in that order. With @p cache (NULL: none)
 * each is also put in perf's build-id cache. Call it before
 * sonde_perfdata_writer__finish().
 * @return 0 or -errno (the writer's first error).
 */
SONDE_API int sonde_buildid_hits__write(struct sonde_buildid_hits *h,
					struct sonde_perfdata_writer *w,
					const struct sonde_buildid_cache_opts *cache);

#ifdef __cplusplus
}
#endif
#endif /* SONDE_SYNTH_H */
