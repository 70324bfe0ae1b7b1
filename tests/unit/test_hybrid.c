// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Hybrid CPUs on a fake sysfs (cpu_core type 4, cpu_atom type 10, no cpu
 * PMU): a legacy hardware or cache event becomes one event per core type
 * with the PMU type in config bits 32..63 (PERF_PMU_TYPE_SHIFT); groups,
 * software events and non-hybrid machines are left alone.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "sonde/sonde.h"
#include "fake_tree.h"

static int setup(void **state)
{
	char cmd[600];

	fake_tree_build();
	snprintf(cmd, sizeof(cmd), "rm -rf %s/bus/event_source/devices/cpu",
		 fake_sysfs);
	if (system(cmd))
		return -1;
	fake_put("sys/bus/event_source/devices/cpu_core/type", "4\n");
	fake_put("sys/bus/event_source/devices/cpu_core/cpumask", "0-7\n");
	fake_put("sys/bus/event_source/devices/cpu_atom/type", "10\n");
	fake_put("sys/bus/event_source/devices/cpu_atom/cpumask", "8-15\n");
	return 0;
}

static int teardown(void **state)
{
	fake_tree_remove();
	return 0;
}

static struct sonde_evspec_list *parse(const char *spec)
{
	SONDE_OPTS(sonde_evspec_opts, o, .sysfs_root = fake_sysfs,
		   .tracefs_root = fake_tracefs);
	struct sonde_evspec_list *l = NULL;

	assert_int_equal(sonde_evspec_list__parse_opts(spec, &o, &l, NULL), 0);
	return l;
}

static void test_expand(void **state)
{
	struct sonde_evspec_list *l = parse("cycles:u,task-clock,L1-dcache-loads");
	const struct sonde_perf_event_attr *a;

	assert_int_equal(sonde_evspec_list__count(l), 5);
	a = sonde_evspec_list__attr(l, 0);
	assert_int_equal(a->type, SONDE_PERF_TYPE_HARDWARE);
	assert_int_equal(a->config, 4ULL << SONDE_PERF_PMU_TYPE_SHIFT);
	assert_int_equal(a->exclude_kernel, 1);
	assert_string_equal(sonde_evspec_list__name(l, 0), "cpu_core/cycles:u/");
	assert_string_equal(sonde_evspec_list__pmu(l, 0), "cpu_core");
	assert_string_equal(sonde_evspec_list__cpumask(l, 0), "0-7");
	a = sonde_evspec_list__attr(l, 1);
	assert_int_equal(a->config, 10ULL << SONDE_PERF_PMU_TYPE_SHIFT);
	assert_int_equal(a->exclude_kernel, 1);
	assert_string_equal(sonde_evspec_list__name(l, 1), "cpu_atom/cycles:u/");
	assert_string_equal(sonde_evspec_list__cpumask(l, 1), "8-15");
	assert_int_equal(sonde_evspec_list__leader(l, 1), 1);
	/* Software events have no core type. */
	assert_string_equal(sonde_evspec_list__name(l, 2), "task-clock");
	assert_int_equal(sonde_evspec_list__attr(l, 2)->config, 1);
	/* Cache events keep their id/op/result in the low bits. */
	a = sonde_evspec_list__attr(l, 3);
	assert_int_equal(a->type, SONDE_PERF_TYPE_HW_CACHE);
	assert_int_equal(a->config, 4ULL << SONDE_PERF_PMU_TYPE_SHIFT);
	assert_int_equal(sonde_evspec_list__attr(l, 4)->config,
			 10ULL << SONDE_PERF_PMU_TYPE_SHIFT);
	sonde_evspec_list__free(l);
}

static void test_group_left_alone(void **state)
{
	struct sonde_evspec_list *l = parse("{cycles,instructions}");

	assert_int_equal(sonde_evspec_list__count(l), 2);
	assert_int_equal(sonde_evspec_list__attr(l, 1)->config, 1);
	sonde_evspec_list__free(l);
}

static void test_not_hybrid(void **state)
{
	char cmd[1024];
	struct sonde_evspec_list *l;

	snprintf(cmd, sizeof(cmd), "rm -rf %s/bus/event_source/devices/cpu_core "
		 "%s/bus/event_source/devices/cpu_atom", fake_sysfs, fake_sysfs);
	assert_int_equal(system(cmd), 0);
	l = parse("cycles");
	assert_int_equal(sonde_evspec_list__count(l), 1);
	assert_int_equal(sonde_evspec_list__attr(l, 0)->config, 0);
	assert_string_equal(sonde_evspec_list__name(l, 0), "cycles");
	sonde_evspec_list__free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_expand, setup, teardown),
		cmocka_unit_test_setup_teardown(test_group_left_alone, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_hybrid, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
