// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The self-read of a real software event, through the public API on both
 * libraries: no PMU index, so read(2) it is. The rdpmc path on a simulated
 * mmap page: test_selfmon_internal.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include "sonde/sonde.h"

static volatile uint64_t selfmon_sink;

static void test_real_software_event(void **state)
{
	struct sonde_evlist *l;
	struct sonde_perf_event_attr a = {
		.type = SONDE_PERF_TYPE_SOFTWARE,
		.config = SONDE_PERF_COUNT_SW_TASK_CLOCK,
	};
	struct sonde_count c;

	a.exclude_kernel = 1;
	l = sonde_evlist__new();
	sonde_evlist__add(l, &a, "task-clock", -1);
	if (sonde_evlist__open(l, NULL)) {
		printf("SKIP: task-clock does not open here\n");
		sonde_evlist__free(l);
		skip();
	}
	assert_int_equal(sonde_evsel__mmap_self(sonde_evlist__evsel(l, 0)), 0);
	for (int i = 0; i < 1000000; i++)
		selfmon_sink += (uint64_t)i;
	/* Software events have no PMU index: read(2) it is. */
	assert_int_equal(sonde_evsel__read_self(sonde_evlist__evsel(l, 0), &c), 0);
	assert_true(c.val > 0);
	sonde_evlist__free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_software_event),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
