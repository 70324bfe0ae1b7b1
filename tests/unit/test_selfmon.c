// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The self-read through the public API on both libraries: of a real
 * software event (no PMU index, so read(2) it is), and the rdpmc path on a
 * simulated mmap page with rdpmc and the TSC through the seam (this machine
 * has no PMU): sign extension, the seqlock retry, time extrapolation for
 * multiplexed counters, cap_user_time_short, and the fallbacks to read(2).
 * A build without an rdpmc reader: test_selfmon_internal.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "sonde/sonde.h"
#include "fake_selfmon.h"

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

static void test_rdpmc_sign_extension(void **state)
{
	struct sonde_count c;

	page.pc.cap_user_rdpmc = 1;
	page.pc.index = 3;
	page.pc.offset = 1000;
	page.pc.pmc_width = 48;
	page.pc.time_enabled = page.pc.time_running = 400;
	/* -256 in 48 bits. */
	rdpmc_value = (1ULL << 48) - 256;
	assert_int_equal(sonde_evsel__read_self(sonde_evlist__evsel(list, 0), &c), 1);
	assert_int_equal(rdpmc_counter, 2); /* index - 1 */
	assert_int_equal(c.val, 744);
	assert_int_equal(c.ena, 400);
	assert_int_equal(c.scaled, 744);
	assert_int_equal(read_calls, 0);
	/* A positive value is not extended. */
	rdpmc_value = 0x7fffffffffULL;
	sonde_evsel__read_self(sonde_evlist__evsel(list, 0), &c);
	assert_int_equal(c.val, 1000 + 0x7fffffffffULL);
}

static void test_seqlock_retry(void **state)
{
	struct sonde_count c;

	page.pc.cap_user_rdpmc = 1;
	page.pc.index = 1;
	page.pc.offset = 10;
	page.pc.pmc_width = 48;
	page.pc.lock = 4;
	rdpmc_value = 100;
	bump_lock_once = true;
	assert_int_equal(sonde_evsel__read_self(sonde_evlist__evsel(list, 0), &c), 1);
	assert_int_equal(rdpmc_calls, 2);
	/* The value from the consistent second pass, not 10 + 100. */
	assert_int_equal(c.val, 5100);
}

static void test_multiplexed_time(void **state)
{
	struct sonde_count c;
	uint64_t delta = 100 + (5000 >> 10) * 2048 + (((5000 & 1023) * 2048) >> 10);

	page.pc.cap_user_rdpmc = 1;
	page.pc.cap_user_time = 1;
	page.pc.index = 2;
	page.pc.offset = 0;
	page.pc.pmc_width = 48;
	page.pc.time_enabled = 1000;
	page.pc.time_running = 500;
	page.pc.time_shift = 10;
	page.pc.time_mult = 2048;
	page.pc.time_offset = 100;
	tsc_value = 5000;
	rdpmc_value = 1060;
	assert_int_equal(sonde_evsel__read_self(sonde_evlist__evsel(list, 0), &c), 1);
	assert_int_equal(delta, 10100);
	assert_int_equal(c.ena, 1000 + delta);
	assert_int_equal(c.run, 500 + delta);
	assert_true(c.flags & SONDE_COUNT_SCALED);
	assert_int_equal(c.scaled, 1060 * (1000 + delta) / (500 + delta));

	/* cap_user_time_short: the TSC is folded onto time_cycles. */
	page.pc.cap_user_time_short = 1;
	page.pc.time_cycles = 1000;
	page.pc.time_mask = 0xffff;
	tsc_value = 0x12345678;
	{
		uint64_t cyc = 1000 + ((0x12345678ULL - 1000) & 0xffff);
		uint64_t d = 100 + (cyc >> 10) * 2048 + (((cyc & 1023) * 2048) >> 10);

		sonde_evsel__read_self(sonde_evlist__evsel(list, 0), &c);
		assert_int_equal(c.ena, 1000 + d);
	}
}

/*
 * Times equal (never multiplexed) are as stale as unequal ones: the page
 * holds them as of the last schedule-in, 0 for a counter scheduled in
 * once. They must be brought up to date all the same.
 */
static void test_unmultiplexed_time(void **state)
{
	struct sonde_count c;
	uint64_t delta = 100 + (5000 >> 10) * 2048 + (((5000 & 1023) * 2048) >> 10);

	page.pc.cap_user_rdpmc = 1;
	page.pc.cap_user_time = 1;
	page.pc.index = 2;
	page.pc.pmc_width = 48;
	page.pc.time_enabled = page.pc.time_running = 0;
	page.pc.time_shift = 10;
	page.pc.time_mult = 2048;
	page.pc.time_offset = 100;
	tsc_value = 5000;
	rdpmc_value = 1060;
	assert_int_equal(sonde_evsel__read_self(sonde_evlist__evsel(list, 0), &c), 1);
	assert_int_equal(c.ena, delta);
	assert_int_equal(c.run, delta);
	assert_int_equal(c.scaled, 1060);
	assert_false(c.flags & SONDE_COUNT_SCALED);

	page.pc.time_enabled = page.pc.time_running = 1000;
	sonde_evsel__read_self(sonde_evlist__evsel(list, 0), &c);
	assert_int_equal(c.ena, 1000 + delta);
	assert_int_equal(c.run, 1000 + delta);
}

static void test_fallbacks_to_read(void **state)
{
	struct sonde_count c;

	/* rdpmc not allowed. */
	page.pc.cap_user_rdpmc = 0;
	page.pc.index = 2;
	assert_int_equal(sonde_evsel__read_self(sonde_evlist__evsel(list, 0), &c), 0);
	assert_int_equal(read_calls, 1);
	assert_int_equal(c.val, 77);
	assert_int_equal(c.id, 9);
	/* Allowed, but the event is not on the PMU right now. */
	page.pc.cap_user_rdpmc = 1;
	page.pc.index = 0;
	assert_int_equal(sonde_evsel__read_self(sonde_evlist__evsel(list, 0), &c), 0);
	assert_int_equal(read_calls, 2);
	assert_int_equal(rdpmc_calls, 0);
	/*
	 * A 3.4-3.11 page: cap_bit0 (cap_usr_time and cap_usr_rdpmc in one
	 * bit), no cap_bit0_is_deprecated. Even bits that look set are not
	 * trusted.
	 */
	page.pc.index = 2;
	page.pc.cap_bit0 = 1;
	page.pc.cap_bit0_is_deprecated = 0;
	assert_int_equal(sonde_evsel__read_self(sonde_evlist__evsel(list, 0), &c), 0);
	assert_int_equal(read_calls, 3);
	assert_int_equal(rdpmc_calls, 0);
	page.pc.cap_bit0_is_deprecated = 1;
	assert_int_equal(sonde_evsel__read_self(sonde_evlist__evsel(list, 0), &c), 1);
	assert_int_equal(rdpmc_calls, 1);
}

/*
 * The TSC is a seam hook: one given is used, one left NULL is the real one.
 * No fixture: replacing its table would unmap the fake page for real.
 */
static void test_tsc_through_seam(void **state)
{
	struct sonde_sys_ops ops = { .rdtsc = fake_tsc };

	/* rdtsc took a reserved slot: the table keeps its 12-hook size. */
	assert_int_equal(sizeof(ops), 12 * sizeof(void (*)(void)));
	sonde_sys_set_ops(&ops);
	assert_ptr_equal(sonde_sys_ops()->rdtsc, fake_tsc);
	ops.rdtsc = NULL;
	sonde_sys_set_ops(&ops);
	assert_ptr_not_equal(sonde_sys_ops()->rdtsc, fake_tsc);
#if defined(__x86_64__) || defined(__i386__)
	/* This build has the x86 reader: it fills an unset hook. */
	assert_non_null(sonde_sys_ops()->rdtsc);
#else
	assert_null(sonde_sys_ops()->rdtsc);
#endif
	sonde_sys_set_ops(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_software_event),
		cmocka_unit_test_setup_teardown(test_rdpmc_sign_extension, setup, teardown),
		cmocka_unit_test_setup_teardown(test_seqlock_retry, setup, teardown),
		cmocka_unit_test_setup_teardown(test_multiplexed_time, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unmultiplexed_time, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fallbacks_to_read, setup, teardown),
		cmocka_unit_test(test_tsc_through_seam),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
