// SPDX-License-Identifier: LGPL-2.1-only
/*
 * AUX areas of an event list behind a simulated kernel with a fake AUX
 * PMU (type 77): sonde_evlist__mmap() maps them on the rings that PMU
 * owns and none on the others (the kernel's EOPNOTSUPP),
 * sonde_evlist__read_aux() hands the new bytes per ring, wrapping, with
 * the ring's CPU, and the chunks written as AUXTRACE records make a file
 * perf reads.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "sonde/sonde.h"

#define AUX_PMU 77
#define MAXFD 1024

static struct {
	uint32_t type[MAXFD];
	unsigned char *base[MAXFD]; /* control page + data */
	unsigned char *aux[MAXFD];
	size_t aux_len[MAXFD];
	int aux_prot[MAXFD];
} fk;
static long psz;

static int fake_open(struct sonde_perf_event_attr *attr, pid_t pid, int cpu,
		     int group_fd, unsigned long flags)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	(void)pid; (void)cpu; (void)group_fd; (void)flags;
	if (fd < 0 || fd >= MAXFD) {
		errno = EMFILE;
		return -1;
	}
	fk.type[fd] = attr->type;
	return fd;
}

static int fake_ioctl(int fd, unsigned long req, unsigned long arg)
{
	if (req == SONDE_PERF_EVENT_IOC_ID)
		*(uint64_t *)arg = (uint64_t)fd;
	return 0;
}

static void *fake_mmap(void *addr, size_t len, int prot, int flags, int fd,
		       off_t off)
{
	void *p;

	(void)addr; (void)flags;
	/* rb_alloc_aux(): only a PMU with an AUX area takes one. */
	if (off && fk.type[fd] != AUX_PMU) {
		errno = EOPNOTSUPP;
		return MAP_FAILED;
	}
	p = aligned_alloc((size_t)psz, len);
	memset(p, 0, len);
	if (off) {
		fk.aux[fd] = p;
		fk.aux_len[fd] = len;
		fk.aux_prot[fd] = prot;
	} else {
		fk.base[fd] = p;
	}
	return p;
}

static int fake_munmap(void *addr, size_t len)
{
	(void)len;
	free(addr);
	return 0;
}

static const struct sonde_sys_ops fake_ops = {
	.perf_event_open = fake_open, .ioctl = fake_ioctl,
	.mmap = fake_mmap, .munmap = fake_munmap,
};

static int setup(void **state)
{
	(void)state;
	memset(&fk, 0, sizeof(fk));
	psz = sysconf(_SC_PAGESIZE);
	sonde_sys_set_ops(&fake_ops);
	sonde_set_print(NULL);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	sonde_sys_set_ops(NULL);
	return 0;
}

/* The fake AUX event and a dummy side-band event on CPUs 0 and 1. */
static struct sonde_evlist *aux_list(bool with_aux)
{
	struct sonde_perf_event_attr a = { .type = AUX_PMU, .size = sizeof(a) };
	struct sonde_evlist *l = sonde_evlist__new();

	assert_non_null(l);
	/* One sample layout for both, as perf wants of a file's events. */
	a.sample_type = SONDE_PERF_SAMPLE_IDENTIFIER | SONDE_PERF_SAMPLE_TID |
			SONDE_PERF_SAMPLE_TIME;
	a.sample_id_all = 1;
	if (with_aux)
		assert_int_equal(sonde_evlist__add(l, &a, "fake_pt//", -1), 0);
	a.type = SONDE_PERF_TYPE_SOFTWARE;
	a.config = SONDE_PERF_COUNT_SW_DUMMY;
	assert_true(sonde_evlist__add(l, &a, "dummy:u", -1) >= 0);
	assert_int_equal(sonde_evlist__target_cpus(l, "0-1"), 0);
	assert_int_equal(sonde_evlist__open(l, NULL), 0);
	return l;
}

/* What the simulated PMU wrote: @len bytes of pattern @seed at @head. */
static void pmu_writes(int fd, uint64_t tail, uint64_t len, unsigned seed)
{
	struct sonde_perf_event_mmap_page *pc = (void *)fk.base[fd];

	for (uint64_t i = 0; i < len; i++)
		fk.aux[fd][(tail + i) & (fk.aux_len[fd] - 1)] =
			(unsigned char)(seed + i);
	pc->aux_tail = tail;
	__atomic_store_n(&pc->aux_head, tail + len, __ATOMIC_RELEASE);
}

struct seen {
	int n;
	struct sonde_evlist_aux_chunk where[8];
	size_t len[8];
	unsigned char first[8];
	struct sonde_perfdata_writer *w;
};

static int on_chunk(const void *data, size_t len,
		    const struct sonde_evlist_aux_chunk *where, void *ctx)
{
	struct seen *s = ctx;
	struct sonde_perfdata_aux at = {
		.offset = where->offset, .idx = (uint32_t)where->ring,
		.tid = (uint32_t)where->tid, .cpu = (uint32_t)where->cpu,
	};

	assert_true(s->n < 8);
	s->where[s->n] = *where;
	s->len[s->n] = len;
	s->first[s->n] = *(const unsigned char *)data;
	s->n++;
	return s->w ? sonde_perfdata_writer__write_aux(s->w, data, len, &at) : 0;
}

static int refuse(const void *data, size_t len,
		  const struct sonde_evlist_aux_chunk *where, void *ctx)
{
	(void)data; (void)len; (void)where; (void)ctx;
	return -EIO;
}

/* Counts "AUXTRACE events:" in perf report --stats of @path; -1: no perf. */
static long perf_auxtrace_count(const char *path)
{
	char cmd[512], line[256];
	long n = 0;
	FILE *p;

	if (system("command -v perf >/dev/null 2>&1"))
		return -1;
	snprintf(cmd, sizeof(cmd), "perf report -f --stats -i %s 2>&1", path);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p))
		sscanf(line, " AUXTRACE events: %ld", &n);
	pclose(p);
	return n;
}

static void test_aux_rings_and_read(void **state)
{
	SONDE_OPTS(sonde_evlist_mmap_opts, mo, .data_pages = 1,
		   .aux_pages = 2);
	struct sonde_evlist *l;
	struct seen s = { 0 };
	char path[] = "/tmp/sonde-aux-XXXXXX";
	int fd0, fd1, tmp;
	long perf_n;

	(void)state;
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		printf("SKIP: needs two online CPUs\n");
		skip();
	}
	l = aux_list(true);
	assert_int_equal(sonde_evlist__mmap(l, &mo), 0);
	/* One ring per CPU, each owned by the AUX event: two AUX areas. */
	assert_int_equal(sonde_evlist__nr_rings(l), 2);
	assert_int_equal(sonde_evlist__nr_aux(l), 2);
	fd0 = sonde_evsel__fd(sonde_evlist__evsel(l, 0), 0, 0);
	fd1 = sonde_evsel__fd(sonde_evlist__evsel(l, 0), 1, 0);
	assert_int_equal(fk.aux_len[fd0], 2 * (size_t)psz);

	/* CPU 0: 100 bytes from the start; CPU 1: 300 across the wrap. */
	pmu_writes(fd0, 0, 100, 1);
	pmu_writes(fd1, 2 * (uint64_t)psz - 192, 300, 7);
	tmp = mkstemp(path);
	assert_true(tmp >= 0);
	close(tmp);
	s.w = sonde_perfdata_writer__new(path, NULL);
	assert_non_null(s.w);
	for (int i = 0; i < 2; i++)
		assert_true(sonde_perfdata_writer__add_event(s.w,
			sonde_evsel__attr(sonde_evlist__evsel(l, i)),
			sonde_evsel__name(sonde_evlist__evsel(l, i))) >= 0);
	assert_int_equal(sonde_perfdata_writer__begin(s.w), 0);
	{
		/* perf refuses AUXTRACE without an AUXTRACE_INFO first. */
		struct {
			struct sonde_perf_event_header h;
			uint32_t type, reserved;
		} info = { { SONDE_PERF_RECORD_AUXTRACE_INFO, 0, sizeof(info) },
			   0, 0 };

		assert_int_equal(sonde_perfdata_writer__write(s.w, &info.h), 0);
	}
	assert_int_equal(sonde_evlist__read_aux(l, on_chunk, &s), 400);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.where[0].cpu, 0);
	assert_int_equal(s.where[0].tid, -1);
	assert_int_equal(s.where[0].ring, 0);
	assert_int_equal(s.where[0].offset, 0);
	assert_int_equal(s.len[0], 100);
	assert_int_equal(s.first[0], 1);
	assert_int_equal(s.where[1].cpu, 1);
	assert_int_equal(s.where[1].offset, 2 * psz - 192);
	assert_int_equal(s.len[1], 192);
	assert_int_equal(s.first[1], 7);
	assert_int_equal(s.where[2].offset, 2 * psz);
	assert_int_equal(s.len[2], 108);
	assert_int_equal(s.first[2], (unsigned char)(7 + 192));
	/* The space is the PMU's again: nothing new on a second pass. */
	assert_int_equal(((struct sonde_perf_event_mmap_page *)fk.base[fd1])->aux_tail,
			 2 * psz + 108);
	assert_int_equal(sonde_evlist__read_aux(l, on_chunk, &s), 0);
	assert_int_equal(sonde_perfdata_writer__finish_round(s.w), 0);
	assert_int_equal(sonde_perfdata_writer__finish(s.w), 0);

	/* A pass the callback stops leaves the data for the next one. */
	s.w = NULL;
	s.n = 0;
	pmu_writes(fd0, 100, 8, 3);
	assert_int_equal(sonde_evlist__read_aux(l, refuse, &s), -EIO);
	assert_int_equal(((struct sonde_perf_event_mmap_page *)fk.base[fd0])->aux_tail, 100);
	assert_int_equal(sonde_evlist__read_aux(l, on_chunk, &s), 8);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.where[0].offset, 100);
	assert_int_equal(sonde_evlist__read_aux(l, NULL, NULL), -EINVAL);
	sonde_evlist__free(l);

	sonde_sys_set_ops(NULL);
	perf_n = perf_auxtrace_count(path);
	if (perf_n < 0)
		printf("SKIP (perf part): perf is not installed\n");
	else
		assert_int_equal(perf_n, 3);
	unlink(path);
}

static void test_no_aux_pmu(void **state)
{
	SONDE_OPTS(sonde_evlist_mmap_opts, mo, .data_pages = 1,
		   .aux_pages = 2);
	SONDE_OPTS(sonde_evlist_mmap_opts, bad, .data_pages = 1,
		   .aux_pages = 3);
	struct sonde_evlist *l;
	struct seen s = { 0 };

	(void)state;
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		printf("SKIP: needs two online CPUs\n");
		skip();
	}
	l = aux_list(false);
	assert_int_equal(sonde_evlist__mmap(l, &bad), -EINVAL);
	/* The kernel refuses AUX on software rings: plain rings, no error. */
	assert_int_equal(sonde_evlist__mmap(l, &mo), 0);
	assert_int_equal(sonde_evlist__nr_rings(l), 2);
	assert_int_equal(sonde_evlist__nr_aux(l), 0);
	assert_int_equal(sonde_evlist__read_aux(l, on_chunk, &s), 0);
	assert_int_equal(s.n, 0);
	sonde_evlist__munmap(l);
	assert_int_equal(sonde_evlist__nr_aux(l), 0);
	sonde_evlist__free(l);
}

struct spans {
	int n;
	struct sonde_evlist_aux_where where[4];
	struct sonde_aux_span sp[4];
};

static int on_span(const struct sonde_aux_span *sp,
		   const struct sonde_evlist_aux_where *where, void *ctx)
{
	struct spans *s = ctx;

	assert_true(s->n < 4);
	s->where[s->n] = *where;
	s->sp[s->n++] = *sp;
	return 0;
}

/* One span per ring (CPU 1's wraps: two parts); overwrite areas. */
static void test_aux_spans(void **state)
{
	SONDE_OPTS(sonde_evlist_mmap_opts, mo, .data_pages = 1, .aux_pages = 2);
	SONDE_OPTS(sonde_ring_aux_opts, snap, .snapshot = true);
	struct spans s = { 0 };
	struct sonde_evlist *l;
	int fd0, fd1;

	(void)state;
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		printf("SKIP: needs two online CPUs\n");
		skip();
	}
	l = aux_list(true);
	assert_int_equal(sonde_evlist__mmap(l, &mo), 0);
	fd0 = sonde_evsel__fd(sonde_evlist__evsel(l, 0), 0, 0);
	fd1 = sonde_evsel__fd(sonde_evlist__evsel(l, 0), 1, 0);
	assert_true(fk.aux_prot[fd0] & PROT_WRITE);
	pmu_writes(fd0, 0, 100, 1);
	pmu_writes(fd1, 2 * (uint64_t)psz - 192, 300, 7);
	assert_int_equal(sonde_evlist__read_aux_spans(l, NULL, on_span, &s), 400);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.where[0].cpu, 0);
	assert_int_equal(s.where[0].ring, 0);
	assert_int_equal(s.sp[0].size, 100);
	assert_int_equal(s.sp[0].len[1], 0);
	assert_int_equal(s.where[1].cpu, 1);
	assert_int_equal(s.where[1].tid, -1);
	assert_int_equal(s.sp[1].offset, 2 * psz - 192);
	assert_int_equal(s.sp[1].size, 300);
	assert_int_equal(s.sp[1].len[0], 192);
	assert_int_equal(s.sp[1].len[1], 108);
	assert_int_equal(*(const unsigned char *)s.sp[1].data[1], (unsigned char)(7 + 192));
	assert_int_equal(sonde_evlist__read_aux_spans(l, NULL, NULL, NULL), -EINVAL);
	sonde_evlist__free(l);

	/* aux_overwrite: the areas are mapped read-only (perf record -S). */
	mo.aux_overwrite = true;
	l = aux_list(true);
	assert_int_equal(sonde_evlist__mmap(l, &mo), 0);
	assert_int_equal(sonde_evlist__nr_aux(l), 2);
	fd0 = sonde_evsel__fd(sonde_evlist__evsel(l, 0), 0, 0);
	assert_int_equal(fk.aux_prot[fd0] & PROT_WRITE, 0);
	pmu_writes(fd0, 0, 64, 1);
	s.n = 0;
	assert_int_equal(sonde_evlist__read_aux_spans(l, &snap, on_span, &s), 64);
	assert_int_equal(s.n, 1);
	/* A snapshot leaves aux_tail to the PMU. */
	assert_int_equal(((struct sonde_perf_event_mmap_page *)fk.base[fd0])->aux_tail, 0);
	sonde_evlist__free(l);
}

/*
 * opts.alignment (intel_bts's 24-byte records): the span's first part
 * ends at its last whole record, the cut bytes are consumed all the same,
 * and a span with no whole record calls no one.
 */
static void test_aux_alignment(void **state)
{
	SONDE_OPTS(sonde_evlist_mmap_opts, mo, .data_pages = 1, .aux_pages = 2);
	SONDE_OPTS(sonde_ring_aux_opts, ro, .alignment = 24);
	struct spans s = { 0 };
	struct sonde_evlist *l;
	int fd1;

	(void)state;
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		printf("SKIP: needs two online CPUs\n");
		skip();
	}
	assert_int_equal(sonde_pmu_name__aux_alignment("intel_bts"), 24);
	assert_int_equal(sonde_pmu_name__aux_alignment("intel_pt"), 0);
	assert_int_equal(sonde_pmu_name__aux_alignment("cpu"), 0);
	assert_int_equal(sonde_pmu_name__aux_alignment(NULL), -EINVAL);
	l = aux_list(true);
	assert_int_equal(sonde_evlist__mmap(l, &mo), 0);
	fd1 = sonde_evsel__fd(sonde_evlist__evsel(l, 0), 1, 0);
	/* 200 bytes before the end (8 records and 8 bytes cut), 108 after it. */
	pmu_writes(fd1, 2 * (uint64_t)psz - 200, 308, 7);
	assert_int_equal(sonde_evlist__read_aux_spans(l, &ro, on_span, &s), 192 + 108);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.sp[0].offset, 2 * psz - 200);
	assert_int_equal(s.sp[0].len[0], 192);
	assert_int_equal(s.sp[0].len[1], 108);
	assert_int_equal(s.sp[0].size, 300);
	assert_int_equal(((struct sonde_perf_event_mmap_page *)fk.base[fd1])->aux_tail,
			 2 * psz + 108);
	/* 20 bytes: no whole record, nothing handed over, still consumed. */
	pmu_writes(fd1, 2 * (uint64_t)psz + 108, 20, 9);
	s.n = 0;
	assert_int_equal(sonde_evlist__read_aux_spans(l, &ro, on_span, &s), 0);
	assert_int_equal(s.n, 0);
	assert_int_equal(((struct sonde_perf_event_mmap_page *)fk.base[fd1])->aux_tail,
			 2 * psz + 128);
	sonde_evlist__free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_aux_rings_and_read, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_no_aux_pmu, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_aux_spans, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_aux_alignment, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
