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

struct sonde_synth_opts {
	size_t sz;
	/* Also non-executable file maps (MISC_MMAP_DATA): DWARF unwinding
	 * needs the segments holding .eh_frame. */
	bool data_maps;
	/* MMAP2 with device/inode instead of build ids read from the files. */
	bool no_build_ids;
	size_t : 0;
};
#define sonde_synth_opts__last_field no_build_ids

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

/**
 * @brief **sonde_kernel_build_id()** reads the running kernel's build id
 * from /sys/kernel/notes into @p id (up to @p size bytes).
 * @return its length, 0 when there is none, or -errno.
 */
SONDE_API int sonde_kernel_build_id(uint8_t *id, size_t size);

#ifdef __cplusplus
}
#endif
#endif /* SONDE_SYNTH_H */
