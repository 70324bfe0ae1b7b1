// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde_evlist__read_records() and sonde_evlist__lost_samples() on real
 * software events: every record handed once, the MMAP2 build-id mark
 * repaired when the tracking event did not ask for build ids, and the
 * kernel's lost-sample counts turned into LOST_SAMPLES records.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "sonde/sonde.h"

static volatile uint64_t sink;

static void spin(long n)
{
	for (long i = 0; i < n; i++)
		sink += (uint64_t)i;
}

static struct sonde_perf_event_attr sampler(uint64_t period)
{
	struct sonde_perf_event_attr a = {
		.type = SONDE_PERF_TYPE_SOFTWARE,
		.size = sizeof(a),
		.config = SONDE_PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = period,
		.sample_type = SONDE_PERF_SAMPLE_IDENTIFIER |
			       SONDE_PERF_SAMPLE_IP | SONDE_PERF_SAMPLE_CPU,
		.read_format = SONDE_PERF_FORMAT_ID,
	};

	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.sample_id_all = 1;
	return a;
}

/* The calling thread, mapped with @pages data pages; NULL after a skip. */
static struct sonde_evlist *open_self(const struct sonde_perf_event_attr *a,
				      size_t pages)
{
	SONDE_OPTS(sonde_evlist_open_opts, oo, .no_inherit = true);
	SONDE_OPTS(sonde_evlist_mmap_opts, mo, .data_pages = pages);
	struct sonde_evlist *l = sonde_evlist__new();
	int ret;

	assert_non_null(l);
	assert_int_equal(sonde_evlist__add(l, a, "cpu-clock", -1), 0);
	ret = sonde_evlist__open(l, &oo);
	if (ret) {
		printf("SKIP: cannot open a sampling cpu-clock here: %s\n",
		       sonde_evsel__open_error(sonde_evlist__evsel(l, 0)));
		sonde_evlist__free(l);
		return NULL;
	}
	assert_int_equal(sonde_evlist__mmap(l, &mo), 0);
	return l;
}

struct seen {
	unsigned samples, mmap2, mmap2_marked, lost_samples, other;
	uint64_t lost;
	int stop_after; /* > 0: return 7 at that record */
};

static int on_record(const struct sonde_perf_event_header *ev, void *ctx)
{
	struct seen *s = ctx;

	switch (ev->type) {
	case SONDE_PERF_RECORD_SAMPLE:
		s->samples++;
		break;
	case SONDE_PERF_RECORD_MMAP2:
		s->mmap2++;
		if (ev->misc & SONDE_PERF_RECORD_MISC_MMAP_BUILD_ID)
			s->mmap2_marked++;
		break;
	case SONDE_PERF_RECORD_LOST_SAMPLES: {
		uint64_t v;

		memcpy(&v, ev + 1, 8);
		s->lost_samples++;
		s->lost += v;
		break;
	}
	default:
		s->other++;
	}
	if (s->stop_after && s->samples + s->mmap2 == (unsigned)s->stop_after)
		return 7;
	return 0;
}

static void test_samples_handed_once(void **state)
{
	struct sonde_perf_event_attr a = sampler(100000);
	struct sonde_evlist *l = open_self(&a, 16);
	struct seen s = { 0 };
	int64_t n;

	if (!l)
		skip();
	sonde_evlist__enable(l);
	spin(20000000);
	sonde_evlist__disable(l);
	n = sonde_evlist__read_records(l, NULL, on_record, &s);
	assert_true(n > 0);
	assert_int_equal(n, s.samples + s.other);
	assert_true(s.samples > 0);
	/* The pass published data_tail: nothing is handed twice. */
	memset(&s, 0, sizeof(s));
	assert_int_equal(sonde_evlist__read_records(l, NULL, on_record, &s), 0);
	sonde_evlist__free(l);
}

static void test_callback_stops_the_pass(void **state)
{
	struct sonde_perf_event_attr a = sampler(100000);
	struct sonde_evlist *l = open_self(&a, 16);
	struct seen s = { .stop_after = 2 };

	if (!l)
		skip();
	sonde_evlist__enable(l);
	spin(20000000);
	sonde_evlist__disable(l);
	assert_int_equal(sonde_evlist__read_records(l, NULL, on_record, &s), 7);
	assert_int_equal(s.samples, 2);
	sonde_evlist__free(l);
}

struct tails {
	const struct sonde_perf_event_mmap_page *pc;
	uint64_t seen[64];
	unsigned nr;
};

static int on_record_tail(const struct sonde_perf_event_header *ev, void *ctx)
{
	struct tails *t = ctx;

	(void)ev;
	if (t->nr < 64)
		t->seen[t->nr++] = __atomic_load_n(&t->pc->data_tail, __ATOMIC_ACQUIRE);
	return 0;
}

/*
 * Each record's space is given back once the callback returns, not at the
 * end of the pass: a callback that blocks (write(2)) must not hold the
 * whole ring while the kernel keeps writing.
 */
static void test_space_released_per_record(void **state)
{
	struct sonde_perf_event_attr a = sampler(100000);
	struct sonde_evlist *l = open_self(&a, 16);
	struct tails t = { 0 };

	if (!l)
		skip();
	t.pc = sonde_ring__control(sonde_evlist__ring(l, 0));
	sonde_evlist__enable(l);
	spin(20000000);
	sonde_evlist__disable(l);
	assert_true(sonde_evlist__read_records(l, NULL, on_record_tail, &t) > 2);
	assert_true(t.nr > 2);
	for (unsigned i = 1; i < t.nr; i++)
		assert_true(t.seen[i] > t.seen[i - 1]);
	sonde_evlist__free(l);
}

/*
 * The ring of the next test is anonymous memory (through the syscall
 * seam): the kernel's data pages are not writable, and a planted record
 * must not race with the kernel's own.
 */
static void *anon_mmap(void *addr, size_t len, int prot, int flags, int fd,
		       off_t off)
{
	(void)fd; (void)off; (void)flags;
	return mmap(addr, len, prot | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
}

/* Plants an MMAP2 record with the build-id mark and publishes it by moving
 * data_head, as the kernel would. */
static void plant_mmap2(struct sonde_ring *r)
{
	struct sonde_perf_event_mmap_page *pc = sonde_ring__control(r);
	unsigned char *data = (unsigned char *)pc + sysconf(_SC_PAGESIZE);
	uint64_t head = pc->data_head;
	_Alignas(8) unsigned char rec[128];
	struct sonde_perf_event_header h = {
		.type = SONDE_PERF_RECORD_MMAP2,
		.misc = SONDE_PERF_RECORD_MISC_USER |
			SONDE_PERF_RECORD_MISC_MMAP_BUILD_ID,
		.size = sizeof(rec),
	};

	memset(rec, 0, sizeof(rec));
	memcpy(rec, &h, sizeof(h));
	strcpy((char *)rec + 8 + 64, "/usr/lib/libx.so");
	memcpy(data + (head & (sonde_ring__data_size(r) - 1)), rec, sizeof(rec));
	__atomic_store_n(&pc->data_head, head + sizeof(rec), __ATOMIC_RELEASE);
}

static struct sonde_evlist *open_self_anon(const struct sonde_perf_event_attr *a)
{
	static struct sonde_sys_ops ops;

	ops = *sonde_sys_ops();
	ops.mmap = anon_mmap;
	sonde_sys_set_ops(&ops);
	return open_self(a, 16);
}

static void test_mmap2_build_id_mark_repaired(void **state)
{
	struct sonde_perf_event_attr a = sampler(100000);
	struct sonde_evlist *l;
	struct seen s = { 0 };

	a.mmap2 = 1; /* the tracking event, opened without build_id */
	l = open_self_anon(&a);
	if (!l)
		skip();
	plant_mmap2(sonde_evlist__ring(l, 0));
	assert_int_equal(sonde_evlist__read_records(l, NULL, on_record, &s), 1);
	assert_int_equal(s.mmap2, 1);
	assert_int_equal(s.mmap2_marked, 0);
	sonde_evlist__free(l);

	/* Opened with build_id: the mark is the kernel's word, kept. */
	a.build_id = 1;
	l = open_self_anon(&a);
	if (!l)
		skip();
	memset(&s, 0, sizeof(s));
	plant_mmap2(sonde_evlist__ring(l, 0));
	assert_int_equal(sonde_evlist__read_records(l, NULL, on_record, &s), 1);
	assert_int_equal(s.mmap2_marked, 1);
	sonde_evlist__free(l);
}

/* A 1-page ring never read fills up: the kernel counts what it drops. */
static void test_lost_samples_records(void **state)
{
	struct sonde_perf_event_attr a = sampler(20000);
	struct sonde_evlist *l;
	struct seen s = { 0 };
	struct sonde_count c;
	int n;

	a.read_format |= SONDE_PERF_FORMAT_LOST;
	l = open_self(&a, 1);
	if (!l)
		skip(); /* Linux < 6.0 has no PERF_FORMAT_LOST */
	sonde_evlist__enable(l);
	spin(100000000);
	sonde_evlist__disable(l);
	assert_int_equal(sonde_evsel__read(sonde_evlist__evsel(l, 0), 0, 0, &c), 0);
	if (!c.lost) {
		printf("SKIP: the kernel dropped no sample into a full 1-page ring\n");
		sonde_evlist__free(l);
		skip();
	}
	n = sonde_evlist__lost_samples(l, on_record, &s);
	assert_int_equal(n, 1);
	assert_int_equal(s.lost_samples, 1);
	assert_true(s.lost >= c.lost);
	sonde_evlist__free(l);

	/* Without PERF_FORMAT_LOST there is nothing to say. */
	a.read_format = SONDE_PERF_FORMAT_ID;
	l = open_self(&a, 1);
	if (!l)
		skip();
	sonde_evlist__enable(l);
	spin(20000000);
	sonde_evlist__disable(l);
	assert_int_equal(sonde_evlist__lost_samples(l, on_record, &s), 0);
	sonde_evlist__free(l);
}

static void test_misuse(void **state)
{
	struct sonde_perf_event_attr a = sampler(100000);
	struct sonde_evlist *l = sonde_evlist__new();
	struct seen s = { 0 };

	assert_non_null(l);
	assert_int_equal(sonde_evlist__add(l, &a, "cpu-clock", -1), 0);
	assert_int_equal(sonde_evlist__read_records(l, NULL, on_record, &s), -EINVAL);
	assert_int_equal(sonde_evlist__read_records(NULL, NULL, on_record, &s), -EINVAL);
	assert_int_equal(sonde_evlist__lost_samples(NULL, on_record, &s), -EINVAL);
	/* Not open: no fd to read, nothing lost. */
	assert_int_equal(sonde_evlist__lost_samples(l, on_record, &s), 0);
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
		cmocka_unit_test_setup(test_samples_handed_once, setup),
		cmocka_unit_test_setup(test_callback_stops_the_pass, setup),
		cmocka_unit_test_setup(test_space_released_per_record, setup),
		cmocka_unit_test_setup(test_mmap2_build_id_mark_repaired, setup),
		cmocka_unit_test_setup(test_lost_samples_records, setup),
		cmocka_unit_test_setup(test_misuse, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
