/* SPDX-License-Identifier: LGPL-2.1-only */
/* Grouping CPUs into the aggregation units that --per-X prints. */
#ifndef SONDE_STAT_AGGR_H
#define SONDE_STAT_AGGR_H

#include "stat/stat.h"

/*
 * Builds the units of @mode over the @nr CPUs in @cpus, sorted by socket,
 * die, core, cpu (the order perf prints), each with .nr = CPUs in it, and
 * sets map[i] to the unit of cpus[i]. @t may be NULL for GLOBAL and NONE.
 * Returns the number of units (*out to free()) or -errno. Not for THREAD.
 */
int stat_aggr_build(enum stat_aggr_mode mode, const struct stat_topo *t,
		    const int *cpus, int nr, struct stat_aggr **out, int *map);

#endif /* SONDE_STAT_AGGR_H */
