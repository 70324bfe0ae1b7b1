/* SPDX-License-Identifier: LGPL-2.1-only */
/* Private to libsonde and its tests: the per-process kernel feature cache. */
#ifndef SONDE_LIB_EVOPEN_H
#define SONDE_LIB_EVOPEN_H

#include <stdbool.h>
#include "sonde/evopen.h"

/* Forget what was learnt about the kernel (tests simulate several). */
void evopen_reset_cache(void);

/* Whether @attr (with @flags) asks for feature @f. */
bool evopen_has_feature(const struct sonde_perf_event_attr *attr,
			unsigned long flags, enum sonde_attr_feature f);

/*
 * Files the error messages read; tests point them at fixtures. NULL keeps
 * the current path.
 */
struct evopen_paths {
	const char *paranoid;   /* /proc/sys/kernel/perf_event_paranoid */
	const char *status;     /* /proc/self/status (Seccomp:) */
	const char *max_stack;  /* /proc/sys/kernel/perf_event_max_stack */
	const char *max_rate;   /* /proc/sys/kernel/perf_event_max_sample_rate */
	const char *pmu_dir;    /* /sys/bus/event_source/devices */
};
void evopen_set_paths(const struct evopen_paths *p);
const struct evopen_paths *evopen_get_paths(void);

#endif /* SONDE_LIB_EVOPEN_H */
