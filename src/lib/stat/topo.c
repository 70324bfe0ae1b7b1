// SPDX-License-Identifier: LGPL-2.1-only
/* CPU topology from sysfs, for --per-socket, --per-die and --per-core. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include "sonde/stat.h"
#include "topo.h"

/* One small integer file; -1 when it is missing or not a number. */
static int read_id(const char *root, int cpu, const char *name)
{
	char path[PATH_MAX], buf[32], *end;
	FILE *f;
	long v;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/topology/%s",
		 root, cpu, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	errno = 0;
	v = strtol(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n') || v < -1 ||
	    v > INT_MAX)
		return -1;
	return (int)v;
}

static int cmp_cpu(const void *a, const void *b)
{
	const struct stat_cpu_topo *x = a, *y = b;

	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

int stat_topo_read(struct stat_topo *t, const char *root, const int *cpus,
		   int nr)
{
	t->nr = 0;
	t->cpus = NULL;
	if (nr < 0)
		return -EINVAL;
	if (!root)
		root = "/sys";
	t->cpus = calloc(nr ? (size_t)nr : 1, sizeof(*t->cpus));
	if (!t->cpus)
		return -ENOMEM;
	for (int i = 0; i < nr; i++) {
		struct stat_cpu_topo *c = &t->cpus[i];

		c->cpu = cpus[i];
		c->socket = read_id(root, cpus[i], "physical_package_id");
		c->core = read_id(root, cpus[i], "core_id");
		c->die = read_id(root, cpus[i], "die_id");
		/* Kernels before 5.2 have no die_id: one die per package. */
		if (c->die < 0 && c->socket >= 0)
			c->die = 0;
	}
	t->nr = nr;
	qsort(t->cpus, (size_t)nr, sizeof(*t->cpus), cmp_cpu);
	return 0;
}

void stat_topo_free(struct stat_topo *t)
{
	if (!t)
		return;
	free(t->cpus);
	t->cpus = NULL;
	t->nr = 0;
}

const struct stat_cpu_topo *stat_topo_find(const struct stat_topo *t, int cpu)
{
	struct stat_cpu_topo key = { .cpu = cpu };

	if (!t->nr)
		return NULL;
	return bsearch(&key, t->cpus, (size_t)t->nr, sizeof(key), cmp_cpu);
}
