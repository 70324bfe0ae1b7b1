// SPDX-License-Identifier: LGPL-2.1-only
/*
 * TSC <-> perf time through the mmap page: the man page's formulas on a
 * simulated page (plain and cap_user_time_short, round trip, refusals),
 * and on the real kernel a sample's TIME must fall between the converted
 * rdtsc readings taken before and after it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "sonde/sonde.h"

static union {
	struct sonde_perf_event_mmap_page pc;
	char bytes[4096];
} page;

static void test_formulas(void **state)
{
	uint64_t t, c;

	memset(&page, 0, sizeof(page));
	assert_int_equal(sonde_mmap_page__tsc_to_time(&page.pc, 1, &t), -EOPNOTSUPP);
	page.pc.cap_user_time_zero = 1;
	page.pc.time_zero = 1000000;
	page.pc.time_mult = 1500; /* 1500/1024 ns per cycle */
	page.pc.time_shift = 10;
	assert_int_equal(sonde_mmap_page__tsc_to_time(&page.pc, 2048, &t), 0);
	assert_int_equal(t, 1000000 + 2 * 1500);
	assert_int_equal(sonde_mmap_page__tsc_to_time(&page.pc, 1000, &t), 0);
	assert_int_equal(t, 1000000 + (1000 * 1500 >> 10));
	/* Round trip, within one cycle. */
	assert_int_equal(sonde_mmap_page__tsc_to_time(&page.pc, 123456789, &t), 0);
	assert_int_equal(sonde_mmap_page__time_to_tsc(&page.pc, t, &c), 0);
	assert_true(c <= 123456789 && 123456789 - c <= 1);
	/* A narrow counter: folded onto time_cycles first. */
	page.pc.cap_user_time_short = 1;
	page.pc.time_cycles = 0x10000;
	page.pc.time_mask = 0xffff;
	assert_int_equal(sonde_mmap_page__tsc_to_time(&page.pc, 0x12345, &t), 0);
	assert_int_equal(t, 1000000 + ((uint64_t)(0x10000 + 0x2345) >> 10) * 1500 +
			 ((((uint64_t)0x12345 & 1023) * 1500) >> 10));
	{
		/* The fields themselves, as AUXTRACE_INFO stores them. */
		struct sonde_time_conv tc;
		static const uint8_t zero[sizeof(tc.reserved)];

		memset(&tc, 0xff, sizeof(tc));
		assert_int_equal(sonde_mmap_page__time_conv(&page.pc, &tc), 0);
		/* The room for fields to come reads zero, whatever was there. */
		assert_memory_equal(tc.reserved, zero, sizeof(zero));
		assert_int_equal(tc.time_zero, 1000000);
		assert_int_equal(tc.time_mult, 1500);
		assert_int_equal(tc.time_shift, 10);
		assert_true(tc.cap_user_time_short);
		assert_int_equal(tc.time_cycles, 0x10000);
		assert_int_equal(tc.time_mask, 0xffff);
		assert_int_equal(sonde_mmap_page__time_conv(&page.pc, NULL), -EINVAL);
		page.pc.cap_user_time_zero = 0;
		assert_int_equal(sonde_mmap_page__time_conv(&page.pc, &tc), -EOPNOTSUPP);
		page.pc.cap_user_time_zero = 1;
	}
	assert_int_equal(sonde_mmap_page__tsc_to_time(&page.pc, 5, NULL), -EINVAL);
	assert_int_equal(sonde_mmap_page__tsc_to_time(NULL, 5, &t), -EINVAL);
	page.pc.time_mult = 0;
	assert_int_equal(sonde_mmap_page__tsc_to_time(&page.pc, 5, &t), -EOPNOTSUPP);
}

#if defined(__x86_64__) || defined(__i386__)
static uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

static volatile unsigned long sink;

static void test_real_sample_time(void **state)
{
	struct sonde_perf_event_attr a = {
		.size = sizeof(a),
		.type = SONDE_PERF_TYPE_SOFTWARE,
		.config = SONDE_PERF_COUNT_SW_TASK_CLOCK,
		.sample_period = 100000,
		.sample_type = SONDE_PERF_SAMPLE_IP | SONDE_PERF_SAMPLE_TIME,
		.exclude_kernel = 1,
		.disabled = 1,
	};
	const struct sonde_perf_event_header *ev;
	uint64_t c0, c1, t0, t1, st = 0;
	struct sonde_ring *r;
	int fd = sonde_event_open(&a, 0, -1, -1, 0);

	if (fd < 0)
		skip();
	r = sonde_ring__new(fd, NULL);
	assert_non_null(r);
	if (!sonde_ring__control(r)->cap_user_time_zero) {
		print_message("skip: no cap_user_time_zero here (TSC not usable "
			      "for perf time)\n");
		sonde_ring__free(r);
		close(fd);
		skip();
	}
	c0 = rdtsc();
	sonde_perf_event_ioc_enable(fd, false);
	for (int i = 0; i < 2000000; i++)
		sink += (unsigned long)i;
	sonde_perf_event_ioc_disable(fd, false);
	c1 = rdtsc();
	sonde_ring__read_init(r);
	while (sonde_ring__read_event(r, &ev) == 1)
		if (ev->type == SONDE_PERF_RECORD_SAMPLE && !st)
			memcpy(&st, (const char *)(ev + 1) + 8, 8); /* ip, time */
	sonde_ring__read_done(r);
	assert_true(st != 0);
	assert_int_equal(sonde_mmap_page__tsc_to_time(sonde_ring__control(r), c0, &t0), 0);
	assert_int_equal(sonde_mmap_page__tsc_to_time(sonde_ring__control(r), c1, &t1), 0);
	assert_true(t0 <= st);
	assert_true(st <= t1);
	sonde_ring__free(r);
	close(fd);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_formulas),
#if defined(__x86_64__) || defined(__i386__)
		cmocka_unit_test(test_real_sample_time),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
