/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * A simulated perf_event mmap page for the self-read tests, through the
 * syscall seam (this machine has no PMU): open gives /dev/null, mmap the
 * page below, rdpmc and rdtsc the values a test sets, read(2) a fixed
 * read_format. setup() opens one instructions event and maps its page;
 * shared by test_selfmon.c and test_selfmon_internal.c.
 */
#ifndef SONDE_TEST_FAKE_SELFMON_H
#define SONDE_TEST_FAKE_SELFMON_H

#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "sonde/sonde.h"

static union {
	struct sonde_perf_event_mmap_page pc;
	char bytes[4096];
} page __attribute__((aligned(4096)));

static int rdpmc_calls, read_calls;
static unsigned int rdpmc_counter;
static uint64_t rdpmc_value;
static uint64_t tsc_value;
static bool bump_lock_once;

static int fake_open(struct sonde_perf_event_attr *a, pid_t pid, int cpu,
		     int group_fd, unsigned long flags)
{
	return open("/dev/null", O_RDONLY | O_CLOEXEC);
}

static void *fake_mmap(void *addr, size_t len, int prot, int flags, int fd,
		       off_t off)
{
	return &page;
}

static int fake_munmap(void *addr, size_t len)
{
	return 0;
}

/* The kernel updates the page while we read: first pass must retry. */
static uint64_t fake_rdpmc(unsigned int counter)
{
	rdpmc_calls++;
	rdpmc_counter = counter;
	if (bump_lock_once) {
		bump_lock_once = false;
		page.pc.offset = 5000;
		page.pc.lock++;
	}
	return rdpmc_value;
}

static ssize_t fake_read(int fd, void *buf, size_t n)
{
	uint64_t v[] = { 77, 300, 300, 9 };

	read_calls++;
	memcpy(buf, v, sizeof(v));
	return sizeof(v);
}

static uint64_t fake_tsc(void)
{
	return tsc_value;
}

static struct sonde_evlist *list;

static int setup(void **state)
{
	struct sonde_sys_ops ops = {
		.perf_event_open = fake_open, .mmap = fake_mmap,
		.munmap = fake_munmap, .rdpmc = fake_rdpmc, .read = fake_read,
		.rdtsc = fake_tsc,
	};
	struct sonde_perf_event_attr a = {
		.type = SONDE_PERF_TYPE_HARDWARE,
		.config = SONDE_PERF_COUNT_HW_INSTRUCTIONS,
	};

	sonde_sys_set_ops(&ops);
	memset(&page, 0, sizeof(page));
	page.pc.cap_bit0_is_deprecated = 1; /* every kernel since 3.12 */
	rdpmc_calls = read_calls = 0;
	bump_lock_once = false;
	list = sonde_evlist__new();
	sonde_evlist__add(list, &a, "instructions", -1);
	assert_int_equal(sonde_evlist__open(list, NULL), 0);
	assert_int_equal(sonde_evsel__mmap_self(sonde_evlist__evsel(list, 0)), 0);
	return 0;
}

static int teardown(void **state)
{
	sonde_evlist__free(list);
	sonde_sys_set_ops(NULL);
	return 0;
}

#endif /* SONDE_TEST_FAKE_SELFMON_H */
