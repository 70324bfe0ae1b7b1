/* SPDX-License-Identifier: LGPL-2.1-only */
/* CPU and thread maps: private layout, and test hooks. */
#ifndef SONDE_LIB_MAPS_H
#define SONDE_LIB_MAPS_H

#include <sys/types.h>
#include "sonde/cpumap.h"
#include "sonde/threadmap.h"

struct sonde_cpu_map {
	int nr;
	int cpu[];
};

struct sonde_thread_map {
	int nr;
	pid_t pid[];
};

/* Where the online CPU list is read ("/sys/devices/system/cpu/online"). */
void cpumap_set_online_path(const char *path);
/* Where /proc lives, for thread listing ("/proc"). */
void threadmap_set_proc_root(const char *path);

#endif
