// SPDX-License-Identifier: LGPL-2.1-only
/*
 * CPU topology from sysfs, for --per-socket, --per-die and --per-core, and
 * the NUMA node of each CPU for --per-node.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sonde/stat.h"
#include "core_priv.h"
#include "stat_priv.h"

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

/*
 * The node of each CPU: nodeN/cpuM links, as perf's cpu__get_node() reads
 * them. CPUs in no node (or a kernel without NUMA) keep -1.
 */
static void read_nodes(struct stat_topo *t, const char *root)
{
	char path[PATH_MAX];
	struct dirent *d;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/devices/system/node", root);
	dir = opendir(path);
	if (!dir)
		return;
	while ((d = readdir(dir))) {
		char *end;
		long node;

		if (strncmp(d->d_name, "node", 4))
			continue;
		node = strtol(d->d_name + 4, &end, 10);
		if (end == d->d_name + 4 || *end || node < 0 || node > INT_MAX)
			continue;
		for (int i = 0; i < t->nr; i++) {
			snprintf(path, sizeof(path),
				 "%s/devices/system/node/%s/cpu%d", root,
				 d->d_name, t->cpus[i].cpu);
			if (!access(path, F_OK))
				t->cpus[i].node = (int)node;
		}
	}
	closedir(dir);
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
	root = sysfs_root(root);
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
		c->node = -1;
	}
	t->nr = nr;
	read_nodes(t, root);
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
