// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The incremental pipe reader (pdr_open_stream, the chunked-read seam):
 * the same records, offsets, times and errors as reading the whole image,
 * whatever the read sizes; records handed out round by round while the
 * stream is still open; memory held bounded by the queue, not the stream.
 * Static-only: it reads through pdr_open_stream(), the private seam that
 * sets every read's size; the public reader reads what a pipe gives.
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
#include "core_priv.h"
#include "perfdata_priv.h"
#include "pdgen.h"

#define ST_BASIC ((1u << 0) | (1u << 1) | (1u << 2) | (1u << 8))

/* An in-memory stream: reads of at most `step` bytes, up to `avail`. */
struct src {
	const uint8_t *buf;
	size_t len, pos, avail;
	size_t step;
	int fail_at; /* nonzero: read fails with EIO once pos reaches it */
	unsigned calls;
};

static ssize_t src_read(void *arg, void *buf, size_t n)
{
	struct src *s = arg;
	size_t end = s->avail ? s->avail : s->len;

	s->calls++;
	if (s->fail_at && s->pos >= (size_t)s->fail_at) {
		errno = EIO;
		return -1;
	}
	if (s->step && n > s->step)
		n = s->step;
	/* Vary the sizes a little: 1..step. */
	if (s->step > 1)
		n = 1 + (s->calls * 7919u) % n;
	if (n > end - s->pos)
		n = end - s->pos;
	memcpy(buf, s->buf + s->pos, n);
	s->pos += n;
	return (ssize_t)n;
}

struct rec {
	uint32_t type;
	uint16_t size;
	uint64_t offset, time;
	int attr_idx;
	uint32_t sum;
};

struct run {
	struct rec *v;
	size_t n, cap;
	int end; /* next()'s last return */
	char err[256];
};

static uint32_t sum(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 16777619u;
	return h;
}

static void drain(struct sonde_perfdata_reader *r, struct run *o)
{
	struct sonde_perfdata_record rec;
	int err;

	memset(o, 0, sizeof(*o));
	while ((err = sonde_perfdata_reader__next(r, &rec)) > 0) {
		if (o->n == o->cap) {
			o->cap = o->cap ? o->cap * 2 : 256;
			o->v = realloc(o->v, o->cap * sizeof(*o->v));
			assert_non_null(o->v);
		}
		o->v[o->n++] = (struct rec){ rec.type, rec.size, rec.offset, rec.time,
					     rec.attr_idx, sum(rec.hdr, rec.size) };
	}
	o->end = err;
	snprintf(o->err, sizeof(o->err), "%s", sonde_perfdata_reader__error(r) ?: "");
}

static void same(const struct run *a, const struct run *b)
{
	assert_int_equal(a->n, b->n);
	for (size_t i = 0; i < a->n; i++) {
		assert_int_equal(a->v[i].type, b->v[i].type);
		assert_int_equal(a->v[i].size, b->v[i].size);
		assert_int_equal(a->v[i].offset, b->v[i].offset);
		assert_int_equal(a->v[i].time, b->v[i].time);
		assert_int_equal(a->v[i].attr_idx, b->v[i].attr_idx);
		assert_int_equal(a->v[i].sum, b->v[i].sum);
	}
	assert_int_equal(a->end, b->end);
	assert_string_equal(a->err, b->err);
}

/* Whole image vs streamed with several read sizes (and unordered too). */
static void compare(const uint8_t *buf, size_t len)
{
	static const size_t steps[] = { 1, 3, 64, 4096, 0 };

	for (int unordered = 0; unordered < 2; unordered++) {
		SONDE_OPTS(sonde_perfdata_reader_opts, o, .unordered = unordered);
		struct sonde_perfdata_reader *r = sonde_perfdata_reader__open_mem(buf, len, &o);
		struct run whole;

		assert_non_null(r);
		drain(r, &whole);
		sonde_perfdata_reader__free(r);
		for (size_t k = 0; k < ARRAY_SIZE(steps); k++) {
			struct src s = { .buf = buf, .len = len, .step = steps[k] };
			struct run st;

			r = pdr_open_stream(src_read, &s, -1, steps[k], &o);
			assert_non_null(r);
			assert_int_equal(pdr_streaming(r), sonde_perfdata_reader__is_pipe(r));
			drain(r, &st);
			same(&whole, &st);
			free(st.v);
			sonde_perfdata_reader__free(r);
		}
		free(whole.v);
	}
}

static void build(struct pdgen *g, bool swap, int rounds)
{
	memset(g, 0, sizeof(*g));
	g->swap = swap;
	pdg_pipe_begin(g, ST_BASIC, 1000);
	pdg_comm(g, 42, 42, "worker", 1);
	pdg_mmap(g, 42, 0x400000, 0x10000, 0, "/nonexistent/prog", 2);
	for (int k = 0; k < rounds; k++) {
		uint64_t t = 100 + (uint64_t)k * 10;

		pdg_sample(g, 42, 42, t + 5, 0x401000, 1000, NULL, 0);
		pdg_sample(g, 42, 42, t + 1, 0x401010, 1000, NULL, 0);
		pdg_sample(g, 42, 43, t + 12, 0x401020, 1000, NULL, 0); /* next round's time */
		pdg_round(g);
	}
	pdg_sample(g, 42, 42, 3, 0x401040, 1000, NULL, 0);
}

static void test_same_as_whole(void **state)
{
	struct pdgen g;

	(void)state;
	build(&g, false, 20);
	compare(g.buf, g.len);
	free(g.buf);
	build(&g, true, 20);
	compare(g.buf, g.len);
	free(g.buf);
}

/* Every committed sample file, through the seam. */
static void test_corpus(void **state)
{
	static const char *const files[] = {
		"perf_pipe.data", "perf_z_pipe.data", "gen_pipe_swapped.data",
		"gen_pipe_compressed2.data", "perf_file.data", "perf_z_file.data",
	};
	int done = 0;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		char path[256];
		uint8_t *buf = malloc(1 << 22);
		size_t n;
		FILE *f;

		snprintf(path, sizeof(path), "tests/fuzz/corpus/fuzz_perfdata/%s", files[i]);
		f = fopen(path, "rb");
		if (!f) {
			free(buf);
			continue;
		}
		n = fread(buf, 1, 1 << 22, f);
		fclose(f);
		compare(buf, n);
		free(buf);
		done++;
	}
	if (!done) {
		printf("SKIP: the fuzz corpus is not here (run from the source tree)\n");
		skip();
	}
}

/* Damage at every cut point: the same records and error as the whole image. */
static void test_cuts_and_damage(void **state)
{
	struct pdgen g;

	(void)state;
	build(&g, false, 4);
	for (size_t cut = 16; cut < g.len; cut += 5)
		compare(g.buf, cut);
	for (size_t at = g.data_off; at + 8 <= g.len; at += 8) {
		uint8_t *b = malloc(g.len);

		memcpy(b, g.buf, g.len);
		b[at + 6] = 3; /* size 3 or garbage size */
		b[at + 7] = 0;
		compare(b, g.len);
		free(b);
	}
	free(g.buf);
}

/*
 * Records of a round come out while the rest of the stream has not
 * arrived: perf's rule, a FINISHED_ROUND releases what is not newer than
 * the largest time seen at the marker before it.
 */
static void test_round_by_round(void **state)
{
	struct pdgen g;
	struct src s = { 0 };
	struct sonde_perfdata_reader *r;
	struct sonde_perfdata_record rec;
	size_t mark;
	int n = 0;

	(void)state;
	memset(&g, 0, sizeof(g));
	pdg_pipe_begin(&g, ST_BASIC, 1000);
	pdg_sample(&g, 1, 1, 20, 0x1000, 1, NULL, 0);
	pdg_sample(&g, 1, 1, 10, 0x1000, 1, NULL, 0);
	pdg_round(&g);
	pdg_sample(&g, 1, 1, 30, 0x1000, 1, NULL, 0);
	pdg_sample(&g, 1, 1, 15, 0x1000, 1, NULL, 0);
	pdg_round(&g);
	mark = g.len;
	pdg_sample(&g, 1, 1, 40, 0x1000, 1, NULL, 0);
	pdg_round(&g);
	s.buf = g.buf;
	s.len = g.len;
	s.avail = mark; /* the stream "stalls" here */
	r = pdr_open_stream(src_read, &s, -1, 0, NULL);
	assert_non_null(r);
	/* Round 2's marker releases times <= 20: 10, 15, 20. */
	for (uint64_t want = 10; want <= 20; want += 5) {
		assert_int_equal(sonde_perfdata_reader__next(r, &rec), 1);
		assert_int_equal(rec.time, want);
		n++;
	}
	assert_int_equal(n, 3);
	/* Handed out without reading on: a read now would meet the stall
	 * (EOF for this fake) and flush 30 early. */
	assert_true(s.pos <= mark);
	s.avail = 0;
	assert_int_equal(sonde_perfdata_reader__next(r, &rec), 1);
	assert_int_equal(rec.time, 30);
	assert_int_equal(sonde_perfdata_reader__next(r, &rec), 1);
	assert_int_equal(rec.time, 40);
	assert_int_equal(sonde_perfdata_reader__next(r, &rec), 0);
	sonde_perfdata_reader__free(r);
	free(g.buf);
}

/* A long stream: the chunks alive stay few, whatever the length. */
static void test_bounded(void **state)
{
	struct pdgen g;
	struct src s = { 0 };
	struct sonde_perfdata_reader *r;
	struct sonde_perfdata_record rec;
	size_t max_chunks = 0, max_q = 0, n = 0;

	(void)state;
	build(&g, false, 60000); /* ~7.7 MB, 30 slabs' worth */
	s.buf = g.buf;
	s.len = g.len;
	r = pdr_open_stream(src_read, &s, -1, 0, NULL);
	assert_non_null(r);
	while (sonde_perfdata_reader__next(r, &rec) > 0) {
		n++;
		if (r->nr_chunks > max_chunks)
			max_chunks = r->nr_chunks;
		if (r->q_cap > max_q)
			max_q = r->q_cap;
	}
	assert_int_equal(n, 60000 * 3 + 3);
	assert_true(g.len > 20u * (256u << 10));
	assert_true(max_chunks <= 3);
	assert_true(max_q <= 4096);
	sonde_perfdata_reader__free(r);
	free(g.buf);
}

/* A read error: the records before it, then the error with its offset. */
static void test_read_error(void **state)
{
	struct pdgen g;
	struct src s = { 0 };
	struct sonde_perfdata_reader *r;
	struct run o;

	(void)state;
	build(&g, false, 100);
	s.buf = g.buf;
	s.len = g.len;
	s.step = 64;
	s.fail_at = (int)(g.len / 2);
	r = pdr_open_stream(src_read, &s, -1, 64, NULL);
	assert_non_null(r);
	drain(r, &o);
	assert_true(o.n > 50);
	assert_int_equal(o.end, -EIO);
	assert_non_null(strstr(o.err, "read error"));
	free(o.v);
	sonde_perfdata_reader__free(r);
	free(g.buf);
}

/* A pipe's TRACING_DATA blob outlives the window it streamed through. */
static void test_tracing_data(void **state)
{
	static const char blob[16] = "tracing-blob-01";
	struct pdgen g;
	struct sonde_perfdata_reader *r[2];
	struct src s = { 0 };
	struct run o[2];

	(void)state;
	memset(&g, 0, sizeof(g));
	pdg_pipe_begin(&g, ST_BASIC, 1000);
	pdg_32(&g, 66);
	pdg_16(&g, 0);
	pdg_16(&g, 12);
	pdg_32(&g, sizeof(blob));
	pdg_bytes(&g, blob, sizeof(blob));
	for (int i = 0; i < 20000; i++) /* several windows' worth after it */
		pdg_sample(&g, 1, 1, 100 + (uint64_t)i, 0x1000, 1, NULL, 0);
	s.buf = g.buf;
	s.len = g.len;
	r[0] = sonde_perfdata_reader__open_mem(g.buf, g.len, NULL);
	r[1] = pdr_open_stream(src_read, &s, -1, 0, NULL);
	for (int k = 0; k < 2; k++) {
		const void *td;
		size_t len;

		assert_non_null(r[k]);
		drain(r[k], &o[k]);
		assert_int_equal(o[k].n, 20000);
		assert_true(sonde_perfdata_reader__has_feature(r[k], SONDE_FEAT_TRACING_DATA));
		td = sonde_perfdata_reader__tracing_data(r[k], &len);
		assert_non_null(td);
		assert_int_equal(len, sizeof(blob));
		assert_memory_equal(td, blob, sizeof(blob));
	}
	same(&o[0], &o[1]);
	for (int k = 0; k < 2; k++) {
		free(o[k].v);
		sonde_perfdata_reader__free(r[k]);
	}
	/* Cut inside the blob: an error with the record's offset, no blob. */
	s = (struct src){ .buf = g.buf, .len = g.data_off + 12 + 5 };
	r[1] = pdr_open_stream(src_read, &s, -1, 0, NULL);
	assert_non_null(r[1]);
	drain(r[1], &o[1]);
	assert_true(o[1].end < 0);
	{
		size_t len;

		assert_null(sonde_perfdata_reader__tracing_data(r[1], &len));
	}
	free(o[1].v);
	sonde_perfdata_reader__free(r[1]);
	free(g.buf);
}

/* Garbage and a file-format image through the seam. */
static void test_not_pipe(void **state)
{
	static const uint8_t zeros[4096];
	struct src s = { .buf = zeros, .len = sizeof(zeros), .step = 16 };
	struct sonde_perfdata_reader *r;

	(void)state;
	r = pdr_open_stream(src_read, &s, -1, 16, NULL);
	assert_null(r);
	assert_int_equal(errno, SONDE_ERR_FORMAT);
	/* Stopped at the bad magic, not at the end. */
	assert_true(s.pos < sizeof(zeros));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_as_whole),
		cmocka_unit_test(test_corpus),
		cmocka_unit_test(test_cuts_and_damage),
		cmocka_unit_test(test_round_by_round),
		cmocka_unit_test(test_bounded),
		cmocka_unit_test(test_read_error),
		cmocka_unit_test(test_tracing_data),
		cmocka_unit_test(test_not_pipe),
	};

	sonde_set_print(NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
