/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * The stat layer's private header: CPU topology from sysfs, and grouping
 * CPUs into the aggregation units that --per-X prints.
 */
#ifndef SONDE_STAT_PRIV_H
#define SONDE_STAT_PRIV_H

#include "sonde/stat.h"

/* ---- CPU topology (sysfs) ---------------------------------------------- */

struct stat_cpu_topo {
	int cpu;
	int socket; /* physical_package_id */
	int die;    /* die_id, 0 where the kernel has none */
	int core;   /* core_id */
	int node;   /* NUMA node, -1 without /sys/devices/system/node */
};

struct stat_topo {
	int nr;
	struct stat_cpu_topo *cpus; /* sorted by cpu */
};

/*
 * Reads topology/{physical_package_id,die_id,core_id} of each CPU in
 * @cpus (nr entries) under @root (as sysfs_root(): NULL is
 * $SONDE_SYSFS_ROOT, and either unset or empty is /sys; tests pass a fake tree),
 * and the NUMA node whose devices/system/node/nodeN holds a cpuM entry.
 * A CPU without a topology directory (offline) gets socket/die/core -1.
 * Returns 0 or -errno; free with stat_topo_free().
 */
int stat_topo_read(struct stat_topo *t, const char *root, const int *cpus,
		   int nr);
void stat_topo_free(struct stat_topo *t);
/* The entry for @cpu, or NULL. */
const struct stat_cpu_topo *stat_topo_find(const struct stat_topo *t, int cpu);


/*
 * Builds the units of @mode over the @nr CPUs in @cpus, sorted by node, socket,
 * die, core, cpu (the order perf prints), each with .nr = CPUs in it, and
 * sets map[i] to the unit of cpus[i]. @t may be NULL for GLOBAL and NONE.
 * Returns the number of units (*out to free()) or -errno. Not for THREAD.
 */
int stat_aggr_build(enum sonde_stat_aggr_mode mode, const struct stat_topo *t,
		    const int *cpus, int nr, struct sonde_stat_aggr **out, int *map);

#endif /* SONDE_STAT_PRIV_H */
