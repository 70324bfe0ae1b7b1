// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde_evlist__push_records() on a simulated kernel (fake_kernel.h's
 * perf_event_open, a ring in ordinary memory through the mmap seam):
 * runs of records reach the span callback as the ring holds them, one
 * buffer or two around the wrap; data_tail moves only after a run is
 * stored; a repaired MMAP2 goes alone from its copy; a failing store
 * keeps its run in the ring. End to end with the perf.data writer, while
 * the simulated kernel scribbles over every byte given back whenever the
 * writer is in writev(2) and writes come back short, the file is the one
 * sonde_evlist__read_records() and one write() per record produce.
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
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include "sonde/sonde.h"
#include "fake_kernel.h"

#define DATA_PAGES 32

static long psz;

/* ---- the simulated kernel: ids, a ring in memory ---- */

static int sim_ioctl(int fd, unsigned long req, unsigned long arg)
{
	if (req == SONDE_PERF_EVENT_IOC_ID)
		*(uint64_t *)arg = 100 + (uint64_t)fd;
	return 0;
}

static void *sim_mmap(void *addr, size_t len, int prot, int flags, int fd,
		      off_t off)
{
	(void)addr; (void)flags; (void)fd; (void)off; (void)prot;
	return mmap(NULL, len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

static int sim_munmap(void *addr, size_t len)
{
	return munmap(addr, len);
}

/* The tracking event (mmap2, no build_id) of the calling thread. */
static struct sonde_evlist *open_sim(void)
{
	struct sonde_sys_ops ops = { .perf_event_open = fake_era_open,
				     .ioctl = sim_ioctl, .mmap = sim_mmap,
				     .munmap = sim_munmap };
	SONDE_OPTS(sonde_evlist_open_opts, oo, .no_inherit = true);
	SONDE_OPTS(sonde_evlist_mmap_opts, mo, .data_pages = DATA_PAGES);
	struct sonde_perf_event_attr a = {
		.type = SONDE_PERF_TYPE_SOFTWARE,
		.size = sizeof(a),
		.config = SONDE_PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 100000,
		.sample_type = SONDE_PERF_SAMPLE_IP | SONDE_PERF_SAMPLE_TID |
			       SONDE_PERF_SAMPLE_TIME,
	};
	struct sonde_evlist *l;

	a.mmap2 = 1;
	a.sample_id_all = 1;
	fake_kernel_install(&era_5_12);
	sonde_sys_set_ops(&ops);
	l = sonde_evlist__new();
	assert_non_null(l);
	assert_int_equal(sonde_evlist__add(l, &a, "cpu-clock", -1), 0);
	assert_int_equal(sonde_evlist__open(l, &oo), 0);
	assert_int_equal(sonde_evlist__mmap(l, &mo), 0);
	assert_int_equal(sonde_evlist__nr_rings(l), 1);
	return l;
}

static struct sonde_ring *ring0(struct sonde_evlist *l)
{
	return sonde_evlist__ring(l, 0);
}

static unsigned char *ring_data(struct sonde_evlist *l)
{
	return (unsigned char *)sonde_ring__control(ring0(l)) + psz;
}

static size_t ring_size(struct sonde_evlist *l)
{
	return sonde_ring__data_size(ring0(l));
}

/* What the test planted, in stream order, and where each record starts. */
static unsigned char planted[DATA_PAGES * 65536];
static size_t planted_len;
static size_t rec_start[512];
static unsigned nr_recs;
static unsigned mmap2_at; /* index of the marked MMAP2 */

/* Writes @len bytes at stream position @pos, wrapping, as the kernel. */
static void put(struct sonde_evlist *l, uint64_t pos, const void *src,
		size_t len)
{
	size_t size = ring_size(l);

	for (size_t i = 0; i < len; i++)
		ring_data(l)[(pos + i) & (size - 1)] = ((const unsigned char *)src)[i];
}

/*
 * Fills the ring from stream position @start (tail and head there, as
 * after a few laps) with samples of many sizes and, a third of the way,
 * an MMAP2 the kernel marked as carrying a build id, up to @fill bytes.
 */
static void plant(struct sonde_evlist *l, uint64_t start, size_t fill)
{
	struct sonde_perf_event_mmap_page *pc = sonde_ring__control(ring0(l));
	_Alignas(8) unsigned char rec[2048];
	uint64_t head = start;

	pc->data_tail = start;
	planted_len = 0;
	nr_recs = 0;
	mmap2_at = ~0u;
	for (unsigned i = 0; ; i++) {
		struct sonde_perf_event_header h = {
			.type = SONDE_PERF_RECORD_SAMPLE,
			.misc = SONDE_PERF_RECORD_MISC_USER,
			.size = (uint16_t)(32 + 8 * (i * 37 % 200)),
		};

		if (mmap2_at == ~0u && planted_len > fill / 3) {
			h.type = SONDE_PERF_RECORD_MMAP2;
			h.misc |= SONDE_PERF_RECORD_MISC_MMAP_BUILD_ID;
			h.size = 128;
			mmap2_at = i;
		}
		if (planted_len + h.size > fill)
			break;
		memset(rec, 0, sizeof(rec));
		memcpy(rec, &h, sizeof(h));
		for (size_t b = 8; b < h.size; b++)
			rec[b] = (unsigned char)(i * 13 + b);
		if (h.type == SONDE_PERF_RECORD_MMAP2) {
			memset(rec + 8, 0, 120);
			strcpy((char *)rec + 8 + 64, "/usr/lib/libx.so");
		}
		put(l, head, rec, h.size);
		memcpy(planted + planted_len, rec, h.size);
		rec_start[nr_recs++] = planted_len;
		planted_len += h.size;
		head += h.size;
	}
	rec_start[nr_recs] = planted_len;
	__atomic_store_n(&pc->data_head, head, __ATOMIC_RELEASE);
}

/* ---- a span callback that checks the protocol ---- */

struct spans {
	struct sonde_evlist *l;
	uint64_t start;       /* stream position of the first planted byte */
	unsigned char got[DATA_PAGES * 65536];
	size_t len;           /* bytes stored */
	unsigned calls, two_bufs, lone_copy, looked;
	size_t longest;
	size_t last;          /* bytes of the previous call */
	unsigned fail_at;     /* 1-based call to fail with -EIO; 0: never */
	size_t look_len;      /* bytes seen by look, in order */
	unsigned char seen[DATA_PAGES * 65536];
};

static int on_span(const struct iovec *iov, int iovcnt, void *ctx)
{
	struct spans *s = ctx;
	const struct sonde_perf_event_mmap_page *pc = sonde_ring__control(ring0(s->l));
	const unsigned char *data = ring_data(s->l);
	size_t n = 0;

	s->calls++;
	assert_true(iovcnt == 1 || iovcnt == 2);
	/*
	 * Nothing is given back before its store returns: the bytes of this
	 * run (they start s->len bytes into the stream) are not behind
	 * data_tail.
	 */
	assert_true(__atomic_load_n(&pc->data_tail, __ATOMIC_ACQUIRE) <=
		    s->start + s->len);
	/*
	 * ...and what was stored before is given back run by run, not at
	 * the end of the pass (a repaired record's copy comes right after
	 * the run before it, which goes back with it).
	 */
	assert_true(__atomic_load_n(&pc->data_tail, __ATOMIC_ACQUIRE) >=
		    s->start + s->len - s->last);
	for (int i = 0; i < iovcnt; i++) {
		const unsigned char *b = iov[i].iov_base;
		bool in_ring = b >= data && b + iov[i].iov_len <= data + ring_size(s->l);

		/* A run is in the ring; only a repaired record is a copy. */
		if (!in_ring) {
			assert_int_equal(iovcnt, 1);
			s->lone_copy++;
		}
		n += iov[i].iov_len;
	}
	if (iovcnt == 2) {
		/* Around the wrap: the end of the area, then its start. */
		assert_ptr_equal((const unsigned char *)iov[0].iov_base +
				 iov[0].iov_len, data + ring_size(s->l));
		assert_ptr_equal(iov[1].iov_base, data);
		s->two_bufs++;
	}
	if (s->fail_at && s->calls == s->fail_at)
		return -EIO;
	for (int i = 0; i < iovcnt; i++) {
		memcpy(s->got + s->len, iov[i].iov_base, iov[i].iov_len);
		s->len += iov[i].iov_len;
	}
	if (n > s->longest)
		s->longest = n;
	s->last = n;
	return 0;
}

static int on_look(const struct sonde_perf_event_header *ev, void *ctx)
{
	struct spans *s = ctx;

	memcpy(s->seen + s->look_len, ev, ev->size);
	s->look_len += ev->size;
	s->looked++;
	return 0;
}

/* The planted stream with the MMAP2 mark repaired (cleared). */
static void want_repaired(unsigned char *want)
{
	uint16_t misc;

	memcpy(want, planted, planted_len);
	memcpy(&misc, want + rec_start[mmap2_at] + 4, 2);
	misc &= (uint16_t)~SONDE_PERF_RECORD_MISC_MMAP_BUILD_ID;
	memcpy(want + rec_start[mmap2_at] + 4, &misc, 2);
}

/*
 * At many start offsets: the stored bytes are the planted records, the
 * MMAP2 repaired; runs are in the ring (two buffers where they wrap),
 * at most max_span plus one record long; look saw every record once.
 */
static void test_runs_from_the_ring(void **state)
{
	static unsigned char want[DATA_PAGES * 65536];
	struct spans *s = calloc(1, sizeof(*s));
	struct sonde_evlist *l = open_sim();
	SONDE_OPTS(sonde_evlist_push_opts, po, .max_span = 3000,
		   .look = on_look);
	unsigned wraps = 0;

	(void)state;
	assert_non_null(s);
	for (uint64_t start = 0; start < ring_size(l); start += 8 * 61) {
		int64_t n;

		memset(s, 0, sizeof(*s));
		s->l = l;
		s->start = start + 7 * ring_size(l);
		plant(l, s->start, ring_size(l) - 512);
		n = sonde_evlist__push_records(l, &po, on_span, s);
		assert_int_equal(n, nr_recs);
		want_repaired(want);
		assert_int_equal(s->len, planted_len);
		assert_memory_equal(s->got, want, planted_len);
		assert_int_equal(s->looked, nr_recs);
		assert_int_equal(s->look_len, planted_len);
		assert_memory_equal(s->seen, want, planted_len);
		assert_int_equal(s->lone_copy, 1);
		assert_true(s->longest < 3000 + 2048);
		wraps += s->two_bufs;
		/* Everything stored: the whole pass is given back. */
		assert_int_equal(sonde_ring__control(ring0(l))->data_tail,
				 s->start + planted_len);
		/* Nothing left for the next pass. */
		memset(s, 0, sizeof(*s));
		s->l = l;
		assert_int_equal(sonde_evlist__push_records(l, &po, on_span, s), 0);
		assert_int_equal(s->calls, 0);
	}
	assert_true(wraps > 5);
	sonde_evlist__free(l);
	free(s);
}

/*
 * A store that fails keeps its run: data_tail stays where the stored
 * runs end, and the next pass hands the rest from there.
 */
static void test_failed_store_keeps_the_run(void **state)
{
	static unsigned char want[DATA_PAGES * 65536];
	struct spans *s = calloc(1, sizeof(*s));
	struct sonde_evlist *l = open_sim();
	SONDE_OPTS(sonde_evlist_push_opts, po, .max_span = 2000);
	size_t first;

	(void)state;
	assert_non_null(s);
	s->l = l;
	s->start = ring_size(l) - 1000;
	plant(l, s->start, ring_size(l) - 256);
	s->fail_at = 2;
	assert_int_equal(sonde_evlist__push_records(l, &po, on_span, s), -EIO);
	first = s->len;
	assert_true(first > 0 && first < planted_len);
	assert_int_equal(sonde_ring__control(ring0(l))->data_tail,
			 s->start + first);
	/* The next pass resumes with the run that failed. */
	s->fail_at = 0;
	assert_true(sonde_evlist__push_records(l, &po, on_span, s) > 0);
	want_repaired(want);
	assert_int_equal(s->len, planted_len);
	assert_memory_equal(s->got, want, planted_len);
	assert_int_equal(sonde_ring__control(ring0(l))->data_tail,
			 s->start + planted_len);
	/* No span callback, no list: refused. */
	assert_int_equal(sonde_evlist__push_records(l, NULL, NULL, s), -EINVAL);
	assert_int_equal(sonde_evlist__push_records(NULL, NULL, on_span, s), -EINVAL);
	sonde_evlist__free(l);
	free(s);
}

/* ---- end to end: the writer's writev(2) while the kernel writes ---- */

static struct {
	int fd;               /* the writer's fd, -1: pass through */
	struct sonde_evlist *l;
	size_t cap;           /* at most this much per call */
	unsigned calls, short_calls;
} wv = { .fd = -1 };

/*
 * Every byte of the ring not between data_tail and data_head is the
 * kernel's to write: scribble over it, as a busy kernel would, before
 * the write goes out. A byte given back too early reaches the file
 * scribbled.
 */
static void kernel_scribbles(void)
{
	const struct sonde_perf_event_mmap_page *pc = sonde_ring__control(ring0(wv.l));
	uint64_t tail = __atomic_load_n(&pc->data_tail, __ATOMIC_ACQUIRE);
	uint64_t head = pc->data_head;
	size_t size = ring_size(wv.l);

	for (uint64_t p = head; p < tail + size; p++)
		ring_data(wv.l)[p & (size - 1)] = 0xee;
}

/* Default visibility: libsonde.so's calls must reach it too. */
__attribute__((visibility("default")))
ssize_t writev(int fd, const struct iovec *iov, int iovcnt)
{
	struct iovec v[64];
	size_t want = 0, allow;
	ssize_t n;
	int k = 0;

	if (fd != wv.fd)
		return syscall(SYS_writev, fd, iov, iovcnt);
	wv.calls++;
	kernel_scribbles();
	for (int i = 0; i < iovcnt; i++)
		want += iov[i].iov_len;
	allow = want < wv.cap ? want : wv.cap;
	for (int i = 0; i < iovcnt && allow && k < 64; i++) {
		size_t take = iov[i].iov_len < allow ? iov[i].iov_len : allow;

		v[k].iov_base = iov[i].iov_base;
		v[k++].iov_len = take;
		allow -= take;
	}
	n = syscall(SYS_writev, fd, v, k);
	if (n > 0 && (size_t)n < want)
		wv.short_calls++;
	return n;
}

static int to_writer(const struct iovec *iov, int iovcnt, void *ctx)
{
	return sonde_perfdata_writer__writev(ctx, iov, iovcnt);
}

static int to_writer_one(const struct sonde_perf_event_header *ev, void *ctx)
{
	return sonde_perfdata_writer__write(ctx, ev);
}

static struct sonde_perfdata_writer *writer_on(int fd, struct sonde_evlist *l)
{
	struct sonde_perfdata_writer *w = sonde_perfdata_writer__new_fd(fd, NULL);

	assert_non_null(w);
	assert_true(sonde_perfdata_writer__add_event(w,
		sonde_evsel__attr(sonde_evlist__evsel(l, 0)), "cpu-clock") >= 0);
	assert_int_equal(sonde_perfdata_writer__begin(w), 0);
	return w;
}

static unsigned char *slurp(const char *p, size_t *len)
{
	struct stat sb;
	unsigned char *buf;
	int fd = open(p, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &sb), 0);
	buf = malloc((size_t)sb.st_size + 1);
	assert_non_null(buf);
	assert_int_equal(read(fd, buf, (size_t)sb.st_size), sb.st_size);
	close(fd);
	*len = (size_t)sb.st_size;
	return buf;
}

/*
 * Whole passes (the default), and runs that give space back mid-pass,
 * both large enough for the writer's direct writes and small.
 */
static void test_file_as_read_records_makes(void **state)
{
	static const size_t spans[] = { 0, 70000, 5000 };
	char dir[] = "/tmp/sonde-push-XXXXXX", ref[64], got[64];
	struct sonde_evlist *l = open_sim();
	uint64_t start = ring_size(l) * 3 + ring_size(l) / 2 + 40;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(ref, sizeof(ref), "%s/ref.data", dir);
	snprintf(got, sizeof(got), "%s/got.data", dir);
	for (size_t i = 0; i < sizeof(spans) / sizeof(spans[0]); i++) {
		SONDE_OPTS(sonde_evlist_push_opts, po, .max_span = spans[i]);
		struct sonde_perfdata_writer *w;
		unsigned char *a, *b;
		size_t la, lb;
		int fd;

		/* The reference: a copy per record, a write() each. */
		plant(l, start, ring_size(l) - 64);
		fd = open(ref, O_RDWR | O_CREAT | O_TRUNC, 0600);
		w = writer_on(fd, l);
		assert_int_equal(sonde_evlist__read_records(l, NULL, to_writer_one, w),
				 nr_recs);
		assert_int_equal(sonde_perfdata_writer__finish_round(w), 0);
		assert_int_equal(sonde_perfdata_writer__finish(w), 0);
		close(fd);

		/* Straight from the ring, the kernel busy, writes cut short. */
		plant(l, start, ring_size(l) - 64);
		fd = open(got, O_RDWR | O_CREAT | O_TRUNC, 0600);
		w = writer_on(fd, l);
		wv.fd = fd;
		wv.l = l;
		wv.cap = 1500;
		wv.calls = wv.short_calls = 0;
		assert_int_equal(sonde_evlist__push_records(l, &po, to_writer, w),
				 nr_recs);
		assert_int_equal(sonde_perfdata_writer__finish_round(w), 0);
		assert_int_equal(sonde_perfdata_writer__finish(w), 0);
		wv.fd = -1;
		close(fd);
		assert_true(wv.short_calls > 3);

		a = slurp(ref, &la);
		b = slurp(got, &lb);
		assert_int_equal(la, lb);
		assert_memory_equal(a, b, la);
		free(a);
		free(b);
	}
	unlink(ref);
	unlink(got);
	rmdir(dir);
	sonde_evlist__free(l);
}

static int setup(void **state)
{
	(void)state;
	psz = sysconf(_SC_PAGESIZE);
	sonde_set_print(NULL);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	wv.fd = -1;
	sonde_sys_set_ops(NULL);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_runs_from_the_ring, setup, teardown),
		cmocka_unit_test_setup_teardown(test_failed_store_keeps_the_run,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_file_as_read_records_makes,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
