/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * The kernel.perf_event_* settings that decide what perf_event_open(2)
 * allows: who may open what (paranoid), how often and how deep samples may
 * be, how much ring memory an unprivileged user may lock, how much CPU
 * time the sampling interrupt may take.
 */
#ifndef SONDE_SYSCTL_H
#define SONDE_SYSCTL_H

#include "sonde/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Each names /proc/sys/kernel/perf_event_<name>. */
enum sonde_perf_sysctl {
	SONDE_SYSCTL_PARANOID,               /* perf_event_paranoid: -1..4 */
	SONDE_SYSCTL_MAX_SAMPLE_RATE,        /* perf_event_max_sample_rate, Hz */
	SONDE_SYSCTL_MAX_STACK,              /* perf_event_max_stack, frames */
	SONDE_SYSCTL_MAX_CONTEXTS_PER_STACK, /* perf_event_max_contexts_per_stack */
	SONDE_SYSCTL_MLOCK_KB,               /* perf_event_mlock_kb, per user */
	SONDE_SYSCTL_CPU_TIME_MAX_PERCENT,   /* perf_cpu_time_max_percent */
	SONDE_SYSCTL_MAX,
};

/**
 * @brief **sonde_perf_sysctl__read()** reads one setting into *@p val.
 * Thread-safe (but see sonde_perf_sysctl__set_dir()).
 * @return 0, or -errno: -ENOENT when the kernel lacks it (or has no perf
 * events), -EINVAL for an unknown @p which, -SONDE_ERR_FORMAT when the
 * file does not hold one integer.
 */
SONDE_API int sonde_perf_sysctl__read(enum sonde_perf_sysctl which, long *val);

/**
 * @brief **sonde_perf_sysctl__name()** the sysctl's name as sysctl(8)
 * spells it ("kernel.perf_event_paranoid").
 * @return a static string, NULL for an unknown @p which.
 */
SONDE_API const char *sonde_perf_sysctl__name(enum sonde_perf_sysctl which);

/**
 * @brief **sonde_perf_sysctl__set_dir()** reads the files from @p dir
 * instead of /proc/sys/kernel (tests, or a container's view); NULL
 * restores it. @p dir is copied. Not thread-safe: call it before readers.
 * @return 0, or -ENAMETOOLONG.
 */
SONDE_API int sonde_perf_sysctl__set_dir(const char *dir);

#ifdef __cplusplus
}
#endif
#endif /* SONDE_SYSCTL_H */
