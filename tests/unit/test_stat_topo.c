// SPDX-License-Identifier: LGPL-2.1-only
/*
 * CPU topology from a fabricated sysfs tree, and the units built on it.
 * Static-only: it asserts stat_topo_read()'s per-CPU fields and
 * stat_aggr_build()'s units directly; the public sonde_stat_reader reads
 * the same tree ($SONDE_SYSFS_ROOT) but shows unit ids and names only.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sonde/stat.h"
#include "stat_priv.h"

static char root[64];

static void put(int cpu, const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/topology",
		 root, cpu);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = 0;
		mkdir(path, 0755);
		*p = '/';
	}
	mkdir(path, 0755);
	strcat(path, "/");
	strcat(path, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* devices/system/node/nodeN/cpuM, and the files beside the node dirs. */
static void put_node(int node, int cpu)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/devices/system/node", root);
	mkdir(path, 0755);
	snprintf(path + strlen(path), sizeof(path) - strlen(path), "/node%d",
		 node);
	mkdir(path, 0755);
	snprintf(path + strlen(path), sizeof(path) - strlen(path), "/cpu%d",
		 cpu);
	mkdir(path, 0755);
}

/*
 * Two sockets; socket 1 has two dies; CPU 5 has no die_id (old kernel).
 * NUMA nodes cut across the sockets: node 0 holds CPUs 0, 1, 4, 5 and
 * node 1 CPUs 2, 3, 6, 7; CPU 9 is in none.
 */
static int setup(void **state)
{
	static const int sock[] = { 0, 0, 0, 0, 1, 1, 1, 1 };
	static const int die[] = { 0, 0, 0, 0, 0, -2, 1, 1 };
	static const int core[] = { 0, 0, 1, 1, 0, 0, 0, 1 };
	char v[16];

	snprintf(root, sizeof(root), "/tmp/sonde-topo-XXXXXX");
	assert_non_null(mkdtemp(root));
	for (int c = 0; c < 8; c++) {
		snprintf(v, sizeof(v), "%d\n", sock[c]);
		put(c, "physical_package_id", v);
		snprintf(v, sizeof(v), "%d\n", core[c]);
		put(c, "core_id", v);
		if (die[c] != -2) {
			snprintf(v, sizeof(v), "%d\n", die[c]);
			put(c, "die_id", v);
		}
	}
	put(9, "core_id", "garbage\n");
	for (int c = 0; c < 8; c++)
		put_node((c / 2) % 2, c);
	{
		char path[256];
		FILE *f;

		snprintf(path, sizeof(path), "%s/devices/system/node/online",
			 root);
		f = fopen(path, "w");
		assert_non_null(f);
		fputs("0-1\n", f);
		fclose(f);
		snprintf(path, sizeof(path), "%s/devices/system/node/nodex",
			 root);
		mkdir(path, 0755);
	}
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_read(void **state)
{
	const int cpus[] = { 7, 5, 0, 9, 12 };
	struct stat_topo t;
	const struct stat_cpu_topo *c;

	assert_int_equal(stat_topo_read(&t, root, cpus, 5), 0);
	assert_int_equal(t.nr, 5);
	c = stat_topo_find(&t, 7);
	assert_non_null(c);
	assert_int_equal(c->socket, 1);
	assert_int_equal(c->die, 1);
	assert_int_equal(c->core, 1);
	assert_int_equal(c->node, 1);
	c = stat_topo_find(&t, 5);
	assert_int_equal(c->die, 0); /* no die_id: die 0 of its package */
	assert_int_equal(c->node, 0);
	/* Garbage and missing directories read as unknown (-1), no crash. */
	c = stat_topo_find(&t, 9);
	assert_int_equal(c->core, -1);
	assert_int_equal(c->socket, -1);
	assert_int_equal(c->node, -1); /* in no node */
	c = stat_topo_find(&t, 12);
	assert_int_equal(c->socket, -1);
	assert_int_equal(c->node, -1);
	assert_null(stat_topo_find(&t, 3));
	stat_topo_free(&t);
	stat_topo_free(&t);
	assert_int_equal(stat_topo_read(&t, root, cpus, -1), -22);
}

static void test_units(void **state)
{
	const int cpus[] = { 7, 6, 5, 4, 3, 2, 1, 0 };
	struct sonde_stat_aggr *u;
	struct stat_topo t;
	int map[8], n;

	assert_int_equal(stat_topo_read(&t, root, cpus, 8), 0);

	n = stat_aggr_build(SONDE_STAT_AGGR_SOCKET, &t, cpus, 8, &u, map);
	assert_int_equal(n, 2);
	assert_int_equal(u[0].socket, 0);
	assert_int_equal(u[0].nr, 4);
	assert_int_equal(u[1].socket, 1);
	assert_int_equal(map[0], 1); /* cpu 7 */
	assert_int_equal(map[7], 0); /* cpu 0 */
	free(u);

	n = stat_aggr_build(SONDE_STAT_AGGR_DIE, &t, cpus, 8, &u, map);
	assert_int_equal(n, 3);
	assert_int_equal(u[1].socket, 1);
	assert_int_equal(u[1].die, 0);
	assert_int_equal(u[1].nr, 2);
	assert_int_equal(u[2].die, 1);
	free(u);

	n = stat_aggr_build(SONDE_STAT_AGGR_CORE, &t, cpus, 8, &u, map);
	/* S0-D0-C0, S0-D0-C1, S1-D0-C0, S1-D1-C0, S1-D1-C1 */
	assert_int_equal(n, 5);
	assert_int_equal(u[0].nr, 2);
	assert_int_equal(u[2].nr, 2);
	assert_int_equal(u[3].nr, 1);
	assert_int_equal(map[0], 4); /* cpu 7: S1-D1-C1 */
	free(u);

	/* --per-node: by node first, whatever the sockets say. */
	n = stat_aggr_build(SONDE_STAT_AGGR_NODE, &t, cpus, 8, &u, map);
	assert_int_equal(n, 2);
	assert_int_equal(u[0].node, 0);
	assert_int_equal(u[0].nr, 4);
	assert_int_equal(u[0].socket, -1);
	assert_int_equal(u[1].node, 1);
	assert_int_equal(u[1].nr, 4);
	assert_int_equal(map[0], 1); /* cpu 7: node 1 */
	assert_int_equal(map[3], 0); /* cpu 4: node 0 */
	assert_int_equal(map[4], 1); /* cpu 3: node 1 */
	free(u);

	n = stat_aggr_build(SONDE_STAT_AGGR_NONE, NULL, cpus, 8, &u, map);
	assert_int_equal(n, 8);
	assert_int_equal(u[0].cpu, 0);
	assert_int_equal(map[0], 7);
	free(u);

	n = stat_aggr_build(SONDE_STAT_AGGR_GLOBAL, NULL, cpus, 8, &u, map);
	assert_int_equal(n, 1);
	assert_int_equal(u[0].nr, 8);
	free(u);

	assert_int_equal(stat_aggr_build(SONDE_STAT_AGGR_THREAD, &t, cpus, 8, &u,
					 map), -22);
	stat_topo_free(&t);
}

/* The real machine: every online CPU has a socket and a core. */
static void test_this_machine(void **state)
{
	const int cpus[] = { 0 };
	struct stat_topo t, same;

	if (access("/sys/devices/system/cpu/cpu0/topology/core_id", R_OK)) {
		printf("SKIP: no /sys/devices/system/cpu/cpu0/topology\n");
		skip();
	}
	assert_int_equal(stat_topo_read(&t, NULL, cpus, 1), 0);
	assert_true(t.cpus[0].socket >= 0);
	assert_true(t.cpus[0].core >= 0);
	assert_true(t.cpus[0].die >= 0);
	/* A kernel without NUMA has no node directory: node -1, as perf. */
	if (!access("/sys/devices/system/node/node0", F_OK))
		assert_true(t.cpus[0].node >= 0);
	else
		assert_int_equal(t.cpus[0].node, -1);
	/* An empty root is /sys, as for the PMUs and the online CPUs. */
	assert_int_equal(stat_topo_read(&same, "", cpus, 1), 0);
	assert_int_equal(same.cpus[0].socket, t.cpus[0].socket);
	assert_int_equal(same.cpus[0].core, t.cpus[0].core);
	assert_int_equal(same.cpus[0].die, t.cpus[0].die);
	assert_int_equal(same.cpus[0].node, t.cpus[0].node);
	stat_topo_free(&same);
	stat_topo_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_this_machine),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
