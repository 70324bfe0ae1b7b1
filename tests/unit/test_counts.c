// SPDX-License-Identifier: LGPL-2.1-only
/* read_format decoding, scaling and aggregation of counter values. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include "sonde/sonde.h"
#include "fake_kernel.h"

#define ENA SONDE_PERF_FORMAT_TOTAL_TIME_ENABLED
#define RUN SONDE_PERF_FORMAT_TOTAL_TIME_RUNNING
#define ID SONDE_PERF_FORMAT_ID
#define LOST SONDE_PERF_FORMAT_LOST
#define GROUP SONDE_PERF_FORMAT_GROUP

static void test_single_all_fields(void **state)
{
	uint64_t buf[] = { 1000, 400, 200, 77, 3 };
	struct sonde_count c;

	assert_int_equal(sonde_count__decode(buf, sizeof(buf),
					     ENA | RUN | ID | LOST, &c, 1), 1);
	assert_int_equal(c.val, 1000);
	assert_int_equal(c.ena, 400);
	assert_int_equal(c.run, 200);
	assert_int_equal(c.id, 77);
	assert_int_equal(c.lost, 3);
	/* Multiplexed half the time: scaled doubles. */
	assert_int_equal(c.scaled, 2000);
	assert_true(c.flags & SONDE_COUNT_SCALED);
}

static void test_single_subsets(void **state)
{
	uint64_t buf[] = { 5, 9 };
	struct sonde_count c;

	assert_int_equal(sonde_count__decode(buf, 16, ID, &c, 1), 1);
	assert_int_equal(c.val, 5);
	assert_int_equal(c.id, 9);
	assert_int_equal(c.ena, 0);
	assert_int_equal(c.scaled, 5);
	assert_int_equal(c.flags, 0);
	/* Truncated: format says 2 words, buffer has 1. */
	assert_int_equal(sonde_count__decode(buf, 8, ID, &c, 1),
			 -SONDE_ERR_FORMAT);
}

static void test_group(void **state)
{
	uint64_t buf[] = { 3, 100, 100, 10, 1, 0, 20, 2, 0, 30, 3, 5 };
	struct sonde_count c[3];

	assert_int_equal(sonde_count__decode(buf, sizeof(buf),
					     GROUP | ENA | RUN | ID | LOST, c, 3), 3);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(c[i].val, 10 * (i + 1));
		assert_int_equal(c[i].id, i + 1);
		assert_int_equal(c[i].ena, 100);
		assert_int_equal(c[i].flags, 0);
	}
	assert_int_equal(c[2].lost, 5);
	/* Fewer slots than members: count still reported. */
	assert_int_equal(sonde_count__decode(buf, sizeof(buf),
					     GROUP | ENA | RUN | ID | LOST, c, 1), 3);
	/* nr larger than the buffer can hold. */
	buf[0] = 1000;
	assert_int_equal(sonde_count__decode(buf, sizeof(buf),
					     GROUP | ENA | RUN | ID | LOST, c, 3),
			 -SONDE_ERR_FORMAT);
	buf[0] = 4;
	assert_int_equal(sonde_count__decode(buf, sizeof(buf),
					     GROUP | ENA | RUN | ID | LOST, c, 3),
			 -SONDE_ERR_FORMAT);
}

static void test_scale_edges(void **state)
{
	struct sonde_count c = { .val = 10, .ena = 100, .run = 0 };
	struct sonde_count big = { .val = UINT64_MAX / 2, .ena = 4, .run = 2 };
	struct sonde_count sum = { 0 }, a = { .val = 10, .ena = 100, .run = 50 },
			   b = { .val = 30, .ena = 100, .run = 100 };

	sonde_count__scale(&c);
	assert_true(c.flags & SONDE_COUNT_NOT_COUNTED);
	assert_int_equal(c.scaled, 0);
	/* No overflow in val * ena. */
	sonde_count__scale(&big);
	assert_int_equal(big.scaled, (UINT64_MAX / 2) * 2);
	sonde_count__add(&sum, &a);
	sonde_count__add(&sum, &b);
	assert_int_equal(sum.val, 40);
	assert_int_equal(sum.ena, 200);
	assert_int_equal(sum.run, 150);
	assert_int_equal(sum.scaled, 40 * 200 / 150);
	assert_true(sum.flags & SONDE_COUNT_SCALED);
}

/*
 * A pinned event the PMU cannot keep on reads end of file (the fake
 * kernel's fds are /dev/null, which reads that too): -ENODATA, not a
 * corrupt read, and stat shows it not counted.
 */
static void test_pinned_error_state(void **state)
{
	struct sonde_perf_event_attr a = {
		.type = SONDE_PERF_TYPE_HARDWARE,
		.size = sizeof(a),
		.pinned = 1,
		.read_format = ENA | RUN,
	};
	struct sonde_evlist *l = sonde_evlist__new();
	struct sonde_stat_reader *r;
	struct sonde_stat_count out[1];
	struct sonde_count c;

	(void)state;
	fake_kernel_install(&era_5_12);
	assert_non_null(l);
	assert_int_equal(sonde_evlist__add(l, &a, "pinned", -1), 0);
	assert_int_equal(sonde_evlist__set_maps(l, sonde_cpu_map__new_any(),
						sonde_thread_map__new_self()), 0);
	assert_int_equal(sonde_evlist__open(l, NULL), 0);
	assert_int_equal(sonde_evsel__read(sonde_evlist__evsel(l, 0), 0, 0, &c),
			 -ENODATA);
	assert_int_equal(sonde_evsel__read_total(sonde_evlist__evsel(l, 0), &c),
			 -ENODATA);
	r = sonde_stat_reader__new(l, SONDE_STAT_AGGR_GLOBAL, 1);
	assert_non_null(r);
	assert_int_equal(sonde_stat_reader__read(r, l, 0, out), 0);
	assert_int_equal(out[0].status, SONDE_STAT_NOT_COUNTED);
	sonde_stat_reader__free(r);
	sonde_evlist__free(l);
	sonde_sys_set_ops(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_single_all_fields),
		cmocka_unit_test(test_single_subsets),
		cmocka_unit_test(test_group),
		cmocka_unit_test(test_scale_edges),
		cmocka_unit_test(test_pinned_error_state),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
