// SPDX-License-Identifier: LGPL-2.1-only
/* Grouping CPUs into aggregation units (per core, die, socket, node, CPU). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/stat.h"
#include "stat_priv.h"

static void unit_of(enum sonde_stat_aggr_mode mode, const struct stat_cpu_topo *c,
		    int cpu, struct sonde_stat_aggr *a)
{
	memset(a, 0, sizeof(*a));
	a->cpu = -1;
	a->socket = a->die = a->core = -1;
	a->node = -1;
	switch (mode) {
	case SONDE_STAT_AGGR_NONE:
		a->cpu = cpu;
		break;
	case SONDE_STAT_AGGR_CORE:
		a->core = c ? c->core : -1;
		/* fall through */
	case SONDE_STAT_AGGR_DIE:
		a->die = c ? c->die : -1;
		/* fall through */
	case SONDE_STAT_AGGR_SOCKET:
		a->socket = c ? c->socket : -1;
		break;
	case SONDE_STAT_AGGR_NODE:
		a->node = c ? c->node : -1;
		break;
	case SONDE_STAT_AGGR_GLOBAL:
	case SONDE_STAT_AGGR_THREAD:
		break;
	}
}

static int cmp_unit(const struct sonde_stat_aggr *x, const struct sonde_stat_aggr *y)
{
	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	if (x->socket != y->socket)
		return x->socket < y->socket ? -1 : 1;
	if (x->die != y->die)
		return x->die < y->die ? -1 : 1;
	if (x->core != y->core)
		return x->core < y->core ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return 0;
}

int stat_aggr_build(enum sonde_stat_aggr_mode mode, const struct stat_topo *t,
		    const int *cpus, int nr, struct sonde_stat_aggr **out, int *map)
{
	struct sonde_stat_aggr *units, u;
	int n = 0;

	*out = NULL;
	if (mode == SONDE_STAT_AGGR_THREAD)
		return -EINVAL;
	units = calloc(nr > 0 ? (size_t)nr : 1, sizeof(*units));
	if (!units)
		return -ENOMEM;
	if (mode == SONDE_STAT_AGGR_GLOBAL) {
		unit_of(mode, NULL, -1, &units[0]);
		units[0].nr = nr;
		for (int i = 0; i < nr; i++)
			map[i] = 0;
		*out = units;
		return 1;
	}
	/* Insertion into a sorted list: CPU counts are small. */
	for (int i = 0; i < nr; i++) {
		int pos;

		unit_of(mode, t ? stat_topo_find(t, cpus[i]) : NULL, cpus[i],
			&u);
		for (pos = 0; pos < n && cmp_unit(&units[pos], &u) < 0; pos++)
			;
		if (pos < n && cmp_unit(&units[pos], &u) == 0) {
			units[pos].nr++;
			continue;
		}
		memmove(&units[pos + 1], &units[pos],
			(size_t)(n - pos) * sizeof(*units));
		units[pos] = u;
		units[pos].nr = 1;
		n++;
	}
	/* Map after sorting: positions moved while inserting. */
	for (int i = 0; i < nr; i++) {
		unit_of(mode, t ? stat_topo_find(t, cpus[i]) : NULL, cpus[i],
			&u);
		for (int j = 0; j < n; j++) {
			if (cmp_unit(&units[j], &u) == 0) {
				map[i] = j;
				break;
			}
		}
	}
	*out = units;
	return n;
}
