// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde_evlist__mmap(): one ring per CPU (or per thread) shared through
 * SET_OUTPUT, overwrite rings apart, the poll set and its hang-ups, on
 * real software events (skipped with the reason where they cannot open).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sonde/sonde.h"

static volatile uint64_t sink;

static void spin(long n)
{
	for (long i = 0; i < n; i++)
		sink += (uint64_t)i;
}

/* A sampling software event: IDENTIFIER first, so records name it. */
static struct sonde_perf_event_attr sampler(uint64_t config)
{
	struct sonde_perf_event_attr a = {
		.type = SONDE_PERF_TYPE_SOFTWARE,
		.size = sizeof(a),
		.config = config,
		.sample_period = 100000, /* ns of cpu-clock / task-clock */
		.sample_type = SONDE_PERF_SAMPLE_IDENTIFIER |
			       SONDE_PERF_SAMPLE_IP | SONDE_PERF_SAMPLE_CPU,
	};

	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return a;
}

static void open_or_skip(struct sonde_evlist *l)
{
	/* The kernel maps no per-thread ring of an inherited event. */
	SONDE_OPTS(sonde_evlist_open_opts, oo, .no_inherit = true);
	int ret = sonde_evlist__open(l, &oo);

	if (ret) {
		printf("SKIP: cannot open software sampling events here: %s\n",
		       sonde_evsel__open_error(sonde_evlist__evsel(l, 0)));
		sonde_evlist__free(l);
		skip();
	}
}

/* Index of the event whose id is @id, or -1. */
static int event_of(struct sonde_evlist *l, uint64_t id)
{
	const struct sonde_cpu_map *c = sonde_evlist__cpus(l);
	const struct sonde_thread_map *t = sonde_evlist__threads(l);

	for (int i = 0; i < sonde_evlist__nr(l); i++)
		for (int ci = 0; ci < sonde_cpu_map__nr(c); ci++)
			for (int ti = 0; ti < sonde_thread_map__nr(t); ti++) {
				uint64_t v;

				if (!sonde_evsel__id(sonde_evlist__evsel(l, i),
						     ci, ti, &v) && v == id)
					return i;
			}
	return -1;
}

/* Counts the samples of each event in ring @r; checks CPU == @cpu (>= 0). */
static void count_samples(struct sonde_evlist *l, struct sonde_ring *r,
			  int cpu, unsigned *per_event)
{
	const struct sonde_perf_event_header *ev;

	assert_true(sonde_ring__read_init(r) >= 0);
	while (sonde_ring__read_event(r, &ev) == 1) {
		const uint64_t *body = (const void *)(ev + 1);
		int idx;

		if (ev->type != SONDE_PERF_RECORD_SAMPLE)
			continue;
		idx = event_of(l, body[0]);
		assert_true(idx >= 0);
		per_event[idx]++;
		if (cpu >= 0)
			assert_int_equal((uint32_t)body[2], (uint32_t)cpu);
	}
	sonde_ring__read_done(r);
}

/* The calling thread on any CPU: one ring for both events. */
static void test_per_thread_shared_ring(void **state)
{
	struct sonde_perf_event_attr a = sampler(SONDE_PERF_COUNT_SW_CPU_CLOCK);
	struct sonde_perf_event_attr b = sampler(SONDE_PERF_COUNT_SW_TASK_CLOCK);
	struct sonde_evlist *l = sonde_evlist__new();
	SONDE_OPTS(sonde_evlist_mmap_opts, mo, .data_pages = 8);
	unsigned per_event[2] = { 0 };

	assert_non_null(l);
	assert_int_equal(sonde_evlist__add(l, &a, "cpu-clock", -1), 0);
	assert_int_equal(sonde_evlist__add(l, &b, "task-clock", -1), 1);
	open_or_skip(l);
	assert_int_equal(sonde_evlist__mmap(l, &mo), 0);
	assert_int_equal(sonde_evlist__nr_rings(l), 1);
	assert_int_equal(sonde_evlist__nr_polled(l), 2);
	assert_int_equal(sonde_ring__data_size(sonde_evlist__ring(l, 0)),
			 8 * (size_t)sysconf(_SC_PAGESIZE));
	assert_int_equal(sonde_evlist__enable(l), 0);
	spin(20000000);
	assert_int_equal(sonde_evlist__disable(l), 0);
	count_samples(l, sonde_evlist__ring(l, 0), -1, per_event);
	/* Both events wrote into the one ring. */
	assert_true(per_event[0] > 0);
	assert_true(per_event[1] > 0);
	assert_null(sonde_evlist__ring(l, 1));
	sonde_evlist__free(l);
}

/* System-wide: one ring per CPU, every sample in its own CPU's ring. */
static void test_per_cpu_rings(void **state)
{
	struct sonde_perf_event_attr a = sampler(SONDE_PERF_COUNT_SW_CPU_CLOCK);
	struct sonde_perf_event_attr b = sampler(SONDE_PERF_COUNT_SW_CPU_CLOCK);
	struct sonde_evlist *l = sonde_evlist__new();
	unsigned per_event[2] = { 0 };
	int ncpu;

	assert_non_null(l);
	assert_int_equal(sonde_evlist__target_cpus(l, NULL), 0);
	assert_int_equal(sonde_evlist__add(l, &a, "a", -1), 0);
	assert_int_equal(sonde_evlist__add(l, &b, "b", -1), 1);
	open_or_skip(l);
	ncpu = sonde_cpu_map__nr(sonde_evlist__cpus(l));
	assert_int_equal(sonde_evlist__mmap(l, NULL), 0);
	assert_int_equal(sonde_evlist__nr_rings(l), ncpu);
	assert_int_equal(sonde_evlist__nr_polled(l), 2 * ncpu);
	/* Default size: 128 data pages, as perf. */
	assert_int_equal(sonde_ring__data_size(sonde_evlist__ring(l, 0)),
			 128 * (size_t)sysconf(_SC_PAGESIZE));
	assert_int_equal(sonde_evlist__enable(l), 0);
	spin(20000000);
	assert_int_equal(sonde_evlist__disable(l), 0);
	for (int i = 0; i < ncpu; i++)
		count_samples(l, sonde_evlist__ring(l, i),
			      sonde_cpu_map__cpu(sonde_evlist__cpus(l), i),
			      per_event);
	assert_true(per_event[0] > 0);
	assert_true(per_event[1] > 0);
	sonde_evlist__free(l);
}

/* write_backward events cannot share a forward ring: a ring of their own. */
static void test_overwrite_ring_apart(void **state)
{
	struct sonde_perf_event_attr a = sampler(SONDE_PERF_COUNT_SW_CPU_CLOCK);
	struct sonde_perf_event_attr b = sampler(SONDE_PERF_COUNT_SW_TASK_CLOCK);
	struct sonde_perf_event_attr c = sampler(SONDE_PERF_COUNT_SW_TASK_CLOCK);
	struct sonde_evlist *l = sonde_evlist__new();
	unsigned fwd[3] = { 0 }, back[3] = { 0 };
	struct sonde_ring *r0, *r1;

	b.write_backward = 1;
	c.write_backward = 1;
	assert_non_null(l);
	assert_int_equal(sonde_evlist__add(l, &a, "fwd", -1), 0);
	assert_int_equal(sonde_evlist__add(l, &b, "back", -1), 1);
	assert_int_equal(sonde_evlist__add(l, &c, "back2", -1), 2);
	open_or_skip(l);
	assert_int_equal(sonde_evlist__mmap(l, NULL), 0);
	assert_int_equal(sonde_evlist__nr_rings(l), 2);
	r0 = sonde_evlist__ring(l, 0);
	r1 = sonde_evlist__ring(l, 1);
	assert_false(sonde_ring__overwrite(r0));
	assert_true(sonde_ring__overwrite(r1));
	assert_int_equal(sonde_evlist__enable(l), 0);
	spin(20000000);
	assert_int_equal(sonde_evlist__disable(l), 0);
	count_samples(l, r0, -1, fwd);
	count_samples(l, r1, -1, back);
	assert_true(fwd[0] > 0);
	assert_int_equal(fwd[1] + fwd[2], 0);
	assert_int_equal(back[0], 0);
	/* Both backward events share the one overwrite ring. */
	assert_true(back[1] > 0);
	assert_true(back[2] > 0);
	sonde_evlist__free(l);
}

/* The workload's fds hang up when it exits; then none is polled. */
static void test_poll_hangup(void **state)
{
	struct sonde_perf_event_attr a = sampler(SONDE_PERF_COUNT_SW_TASK_CLOCK);
	struct sonde_evlist *l = sonde_evlist__new();
	char *argv[] = { "true", NULL };
	int n = 0;

	assert_non_null(l);
	assert_true(sonde_evlist__prepare_workload(l, argv) > 0);
	assert_int_equal(sonde_evlist__add(l, &a, "task-clock", -1), 0);
	open_or_skip(l);
	assert_int_equal(sonde_evlist__mmap(l, NULL), 0);
	assert_int_equal(sonde_evlist__nr_polled(l), 1);
	assert_int_equal(sonde_evlist__start_workload(l), 0);
	assert_int_equal(sonde_evlist__wait_workload(l, NULL), 0);
	/* Bounded: the hang-up is there once the child is reaped. */
	while (sonde_evlist__nr_polled(l) && n++ < 10)
		assert_true(sonde_evlist__poll(l, 1000) >= 0);
	assert_int_equal(sonde_evlist__nr_polled(l), 0);
	sonde_evlist__free(l);
}

static void test_misuse(void **state)
{
	struct sonde_perf_event_attr a = sampler(SONDE_PERF_COUNT_SW_TASK_CLOCK);
	struct sonde_evlist *l = sonde_evlist__new();
	SONDE_OPTS(sonde_evlist_mmap_opts, bad, .data_pages = 3);

	assert_non_null(l);
	assert_int_equal(sonde_evlist__add(l, &a, "task-clock", -1), 0);
	assert_int_equal(sonde_evlist__mmap(l, NULL), -EBADF);
	assert_int_equal(sonde_evlist__poll(l, 0), -EINVAL);
	assert_int_equal(sonde_evlist__nr_rings(l), 0);
	open_or_skip(l);
	assert_int_equal(sonde_evlist__mmap(l, &bad), -EINVAL);
	assert_int_equal(sonde_evlist__nr_rings(l), 0);
	assert_int_equal(sonde_evlist__mmap(l, NULL), 0);
	assert_int_equal(sonde_evlist__mmap(l, NULL), -EBUSY);
	assert_int_equal(sonde_evlist__poll(l, 0), 0);
	sonde_evlist__munmap(l);
	assert_int_equal(sonde_evlist__nr_rings(l), 0);
	/* Mapped again after an unmap; close unmaps too. */
	assert_int_equal(sonde_evlist__mmap(l, NULL), 0);
	sonde_evlist__close(l);
	assert_int_equal(sonde_evlist__nr_rings(l), 0);
	sonde_evlist__munmap(NULL);
	assert_int_equal(sonde_evlist__nr_rings(NULL), 0);
	sonde_evlist__free(l);
}

static int setup(void **state)
{
	sonde_set_print(NULL);
	sonde_sys_set_ops(NULL);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_per_thread_shared_ring, setup),
		cmocka_unit_test_setup(test_per_cpu_rings, setup),
		cmocka_unit_test_setup(test_overwrite_ring_apart, setup),
		cmocka_unit_test_setup(test_poll_hangup, setup),
		cmocka_unit_test_setup(test_misuse, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
