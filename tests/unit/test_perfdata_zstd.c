// SPDX-License-Identifier: LGPL-2.1-only
/*
 * COMPRESSED / COMPRESSED2 records (perf record -z) on images built in
 * memory: records compressed the way perf does it (one zstd stream, flushed
 * per push, cut into records at arbitrary points, so records straddle
 * COMPRESSED records), both byte orders and formats, time ordering across
 * rounds; and damage: a corrupt block, a window too large, a size bomb, a
 * record cut at the end, impossible records inside, a bad data_size. Each
 * is reported with the COMPRESSED record's offset after the records before
 * it were delivered.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <zstd.h>
#include "sonde/sonde.h"
#include "pdgen.h"
#include "pdseen.h"

#define ST_BASIC ((1u << 0) | (1u << 1) | (1u << 2) | (1u << 8))

/* The records of test_perfdata_read's build(), as one uncompressed stream. */
static void inner_basic(struct pdgen *in, bool swap, bool with_rounds)
{
	memset(in, 0, sizeof(*in));
	in->swap = swap;
	in->sample_type = ST_BASIC;
	pdg_comm(in, 42, 42, "worker", 1);
	pdg_mmap(in, 42, 0x400000, 0x10000, 0, "/nonexistent/prog", 2);
	pdg_sample(in, 42, 42, 30, 0x401000, 1000, NULL, 0);
	pdg_sample(in, 42, 42, 10, 0x401010, 1000, NULL, 0);
	if (with_rounds)
		pdg_round(in);
	pdg_sample(in, 42, 43, 20, 0x401020, 1000, NULL, 0);
	pdg_sample(in, 42, 42, 40, 0x401030, 1000, NULL, 0);
	if (with_rounds)
		pdg_round(in);
	pdg_sample(in, 42, 42, 35, 0x401040, 1000, NULL, 0);
}

/* Compresses @n bytes into the stream @cc and flushes (perf's per push). */
static size_t zflush(ZSTD_CCtx *cc, const void *src, size_t n, uint8_t *dst, size_t cap)
{
	ZSTD_inBuffer i = { src, n, 0 };
	ZSTD_outBuffer o = { dst, cap, 0 };
	size_t left;

	do {
		left = ZSTD_compressStream2(cc, &o, &i, ZSTD_e_flush);
		assert_false(ZSTD_isError(left));
	} while (left || i.pos < i.size);
	return o.pos;
}

static uint8_t *zstream(const void *src, size_t n, size_t *out_len)
{
	ZSTD_CCtx *cc = ZSTD_createCCtx();
	size_t cap = ZSTD_compressBound(n) + 64;
	uint8_t *dst = malloc(cap);

	assert_non_null(cc);
	assert_non_null(dst);
	ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, 1);
	*out_len = zflush(cc, src, n, dst, cap);
	ZSTD_freeCCtx(cc);
	return dst;
}

/* One COMPRESSED (or COMPRESSED2, 8-byte padded) record. */
static size_t pdg_compressed(struct pdgen *g, const uint8_t *p, size_t n, bool v2)
{
	size_t at = g->len;

	if (v2) {
		size_t sz = (16 + n + 7) / 8 * 8;
		static const uint8_t zero[8];

		pdg_32(g, 83);
		pdg_16(g, 0);
		pdg_16(g, (uint16_t)sz);
		pdg_64(g, n);
		pdg_bytes(g, p, n);
		pdg_bytes(g, zero, sz - 16 - n);
	} else {
		pdg_32(g, 81);
		pdg_16(g, 0);
		pdg_16(g, (uint16_t)(8 + n));
		pdg_bytes(g, p, n);
	}
	return at;
}

/* HEADER_FEATURE(COMPRESSED) for pipe mode. */
static void pdg_comp_feature(struct pdgen *g, uint32_t type, uint32_t mmap_len)
{
	pdg_32(g, 80);
	pdg_16(g, 0);
	pdg_16(g, 16 + 20);
	pdg_64(g, 27);
	pdg_32(g, 1); /* version */
	pdg_32(g, type);
	pdg_32(g, 1); /* level */
	pdg_32(g, 9); /* ratio */
	pdg_32(g, mmap_len);
}

static void begin(struct pdgen *g, bool pipe, bool swap)
{
	memset(g, 0, sizeof(*g));
	g->swap = swap;
	if (pipe)
		pdg_pipe_begin(g, ST_BASIC, 1000);
	else
		pdg_file_begin(g, ST_BASIC, 1000);
}

static void end(struct pdgen *g)
{
	if (!g->pipe)
		pdg_file_end(g, 10, 40);
}

static struct sonde_perfdata_reader *open_img(struct pdgen *g)
{
	struct sonde_perfdata_reader *r = sonde_perfdata_reader__open_mem(g->buf, g->len, NULL);

	assert_non_null(r);
	return r;
}

/* Records the reader met, as perf report --stats counts them (the
 * rounds inside COMPRESSED records included). */
static uint64_t nr_compressed(const struct sonde_perfdata_reader *r)
{
	return sonde_perfdata_reader__nr_records(r, SONDE_PERF_RECORD_COMPRESSED) +
	       sonde_perfdata_reader__nr_records(r, SONDE_PERF_RECORD_COMPRESSED2);
}

static uint64_t nr_rounds(const struct sonde_perfdata_reader *r)
{
	return sonde_perfdata_reader__nr_records(r, SONDE_PERF_RECORD_FINISHED_ROUND);
}

static const uint64_t want_times[] = { 1, 2, 10, 20, 30, 35, 40 };

static void check_times(const struct pdg_seen *s)
{
	assert_int_equal(s->n, 7);
	for (int i = 0; i < 7; i++)
		assert_int_equal(s->times[i], want_times[i]);
}

/*
 * The whole stream cut into COMPRESSED records at @cuts (offsets into the
 * compressed bytes), with FINISHED_ROUND records outside after each.
 */
static void check_cuts(bool pipe, bool swap, bool v2, const size_t *cuts, int nr_cuts)
{
	struct pdgen in, g;
	struct sonde_perfdata_reader *r;
	struct pdg_seen s;
	size_t zlen, prev = 0;
	uint8_t *z;

	inner_basic(&in, swap, false);
	z = zstream(in.buf, in.len, &zlen);
	begin(&g, pipe, swap);
	for (int i = 0; i <= nr_cuts; i++) {
		size_t to = i < nr_cuts ? cuts[i] : zlen;

		if (to > zlen)
			to = zlen;
		if (to < prev)
			continue;
		pdg_compressed(&g, z + prev, to - prev, v2);
		prev = to;
	}
	end(&g);
	r = open_img(&g);
	assert_int_equal(pdg_drain(r, &s), 0);
	assert_null(sonde_perfdata_reader__error(r));
	/* No rounds: everything sorted at the end. */
	check_times(&s);
	sonde_perfdata_reader__free(r);
	free(g.buf);
	free(in.buf);
	free(z);
}

/* perf's shape: samples compressed per push, rounds between, in either order. */
static void check_pushes(bool pipe, bool swap, bool v2)
{
	struct pdgen in, g;
	struct sonde_perfdata_reader *r;
	struct pdg_seen s;
	ZSTD_CCtx *cc = ZSTD_createCCtx();
	uint8_t buf[4096];
	size_t n, comp_at[3];
	/* COMM 40, MMAP 80, samples 40 bytes. Pushes end inside records:
	 * the 1st in the sample at time 10, the 2nd in the one at 40. */
	size_t cut1, cut2;

	inner_basic(&in, swap, false);
	cut1 = 40 + 80 + 40 + 13;
	cut2 = cut1 + 27 + 40 + 3;
	begin(&g, pipe, swap);
	n = zflush(cc, in.buf, cut1, buf, sizeof(buf));
	comp_at[0] = pdg_compressed(&g, buf, n, v2);
	pdg_round(&g);
	n = zflush(cc, in.buf + cut1, cut2 - cut1, buf, sizeof(buf));
	comp_at[1] = pdg_compressed(&g, buf, n, v2);
	pdg_round(&g);
	n = zflush(cc, in.buf + cut2, in.len - cut2, buf, sizeof(buf));
	comp_at[2] = pdg_compressed(&g, buf, n, v2);
	end(&g);
	ZSTD_freeCCtx(cc);

	r = open_img(&g);
	assert_int_equal(pdg_drain(r, &s), 0);
	assert_null(sonde_perfdata_reader__error(r));
	check_times(&s);
	assert_int_equal(nr_compressed(r), 3);
	assert_int_equal(nr_rounds(r), 2);
	/* Offsets name the COMPRESSED record that completed each record. */
	assert_int_equal(s.offsets[0], comp_at[0]); /* COMM */
	assert_int_equal(s.offsets[2], comp_at[1]); /* time 10, straddled */
	assert_int_equal(s.offsets[3], comp_at[1]); /* time 20 */
	assert_int_equal(s.offsets[4], comp_at[0]); /* time 30 */
	assert_int_equal(s.offsets[5], comp_at[2]); /* time 35 */
	assert_int_equal(s.offsets[6], comp_at[2]); /* time 40, straddled */
	/* Pointers stay valid until close, in host order. */
	for (int i = 0; i < s.n; i++) {
		uint16_t size;

		memcpy(&size, (const uint8_t *)s.hdrs[i] + 6, 2);
		assert_int_equal(size, i == 1 ? 80 : 40);
	}
	sonde_perfdata_reader__free(r);
	free(g.buf);
	free(in.buf);
}

static void test_pushes(void **state)
{
	for (int m = 0; m < 8; m++)
		check_pushes(m & 1, m & 2, m & 4);
}

/* Every two-way cut of the compressed bytes, then one byte per record. */
static void test_every_cut(void **state)
{
	struct pdgen in;
	size_t zlen, cuts[512];
	uint8_t *z;

	inner_basic(&in, false, false);
	z = zstream(in.buf, in.len, &zlen);
	free(z);
	free(in.buf);
	assert_true(zlen < 512);
	for (size_t k = 0; k <= zlen; k++) {
		check_cuts(false, false, false, &k, 1);
		check_cuts(true, true, true, &k, 1);
	}
	for (size_t k = 0; k < zlen; k++)
		cuts[k] = k + 1;
	check_cuts(false, false, false, cuts, (int)zlen);
	check_cuts(false, true, true, cuts, (int)zlen);
}

/* Rounds inside the compressed data order records like rounds outside. */
static void test_rounds_inside(void **state)
{
	struct pdgen in, g;
	struct sonde_perfdata_reader *r;
	struct pdg_seen s;
	size_t zlen;
	uint8_t *z;

	inner_basic(&in, false, true);
	z = zstream(in.buf, in.len, &zlen);
	begin(&g, false, false);
	pdg_compressed(&g, z, zlen, false);
	end(&g);
	r = open_img(&g);
	assert_int_equal(pdg_drain(r, &s), 0);
	check_times(&s);
	assert_int_equal(nr_rounds(r), 2);
	sonde_perfdata_reader__free(r);
	free(g.buf);
	free(in.buf);
	free(z);
}

/* Compressed records are delivered in file order when asked. */
static void test_unordered(void **state)
{
	SONDE_OPTS(sonde_perfdata_reader_opts, o, .unordered = true);
	static const uint64_t file_order[] = { 1, 2, 30, 10, 20, 40, 35 };
	struct pdgen in, g;
	struct sonde_perfdata_reader *r;
	struct pdg_seen s;
	size_t zlen;
	uint8_t *z;

	inner_basic(&in, false, true);
	z = zstream(in.buf, in.len, &zlen);
	begin(&g, false, false);
	pdg_compressed(&g, z, zlen / 2, false);
	pdg_compressed(&g, z + zlen / 2, zlen - zlen / 2, false);
	end(&g);
	r = sonde_perfdata_reader__open_mem(g.buf, g.len, &o);
	assert_non_null(r);
	assert_int_equal(pdg_drain(r, &s), 0);
	assert_int_equal(s.n, 7);
	for (int i = 0; i < 7; i++)
		assert_int_equal(s.times[i], file_order[i]);
	sonde_perfdata_reader__free(r);
	free(g.buf);
	free(in.buf);
	free(z);
}

/*
 * Good COMPRESSED record (COMM, MMAP, two samples), then @bad_payload as
 * a second one (or, if NULL, @more compressed in the same stream), then a
 * plain sample that must not be reached.
 */
static struct sonde_perfdata_reader *with_bad_second(struct pdgen *g, const uint8_t *bad,
						     size_t bad_len, size_t *bad_at,
						     bool feature, uint32_t mmap_len,
						     const struct pdgen *more)
{
	struct pdgen in;
	ZSTD_CCtx *cc = ZSTD_createCCtx();
	uint8_t buf[65536];
	size_t n;

	memset(&in, 0, sizeof(in));
	in.sample_type = ST_BASIC;
	pdg_comm(&in, 42, 42, "worker", 1);
	pdg_mmap(&in, 42, 0x400000, 0x10000, 0, "/nonexistent/prog", 2);
	pdg_sample(&in, 42, 42, 10, 0x401000, 1000, NULL, 0);
	pdg_sample(&in, 42, 42, 11, 0x401000, 1000, NULL, 0);
	begin(g, true, false);
	if (feature)
		pdg_comp_feature(g, 1, mmap_len);
	n = zflush(cc, in.buf, in.len, buf, sizeof(buf));
	pdg_compressed(g, buf, n, false);
	if (!bad) {
		bad_len = zflush(cc, more->buf, more->len, buf, sizeof(buf));
		assert_true(bad_len < 60000);
		bad = buf;
	}
	*bad_at = pdg_compressed(g, bad, bad_len, false);
	pdg_sample(g, 42, 42, 50, 0x401000, 1000, NULL, 0);
	ZSTD_freeCCtx(cc);
	free(in.buf);
	return open_img(g);
}

static void expect_error(struct sonde_perfdata_reader *r, int before, size_t at,
			 const char *what)
{
	struct pdg_seen s;
	char want[64];
	const char *e;

	assert_true(pdg_drain(r, &s) < 0);
	assert_int_equal(s.n, before);
	e = sonde_perfdata_reader__error(r);
	assert_non_null(e);
	snprintf(want, sizeof(want), "byte offset %zu: ", at);
	if (!strstr(e, want) || !strstr(e, what))
		fail_msg("error \"%s\" lacks \"%s\" or \"%s\"", e, want, what);
}

/* A reserved block type where the next block should start. */
static void test_corrupt_block(void **state)
{
	static const uint8_t bad[] = { 0xff, 0xff, 0xff, 0x00, 0x01, 0x02 };
	struct pdgen g;
	size_t at;
	struct sonde_perfdata_reader *r = with_bad_second(&g, bad, sizeof(bad), &at, false, 0, NULL);

	expect_error(r, 4, at, "corrupt compressed data (zstd: ");
	sonde_perfdata_reader__free(r);
	free(g.buf);
}

/* Not zstd at all: the stream starts with garbage. */
static void test_not_zstd(void **state)
{
	struct pdgen g;
	size_t at;
	struct sonde_perfdata_reader *r;
	static const uint8_t junk[] = "this is not a zstd frame";

	begin(&g, false, false);
	pdg_sample(&g, 42, 42, 5, 0x401000, 1000, NULL, 0);
	at = pdg_compressed(&g, junk, sizeof(junk), false);
	end(&g);
	r = open_img(&g);
	expect_error(r, 1, at, "corrupt compressed data");
	sonde_perfdata_reader__free(r);
	free(g.buf);
}

/* A frame asking for a 2 GiB window is refused, not allocated. */
static void test_huge_window(void **state)
{
	/* magic, descriptor (no FCS, not single segment), window 2^31 */
	static const uint8_t frame[] = { 0x28, 0xb5, 0x2f, 0xfd, 0x00, 21 << 3,
					 0x01, 0x00, 0x00, 0x00 };
	struct pdgen g;
	size_t at;
	struct sonde_perfdata_reader *r;

	begin(&g, false, false);
	at = pdg_compressed(&g, frame, sizeof(frame), false);
	end(&g);
	r = open_img(&g);
	expect_error(r, 0, at, "corrupt compressed data (zstd: ");
	sonde_perfdata_reader__free(r);
	free(g.buf);
}

/* 2 MiB of samples: over the default bound, within one from HEADER_COMPRESSED. */
static void test_size_bomb(void **state)
{
	struct pdgen g, big;
	struct sonde_perfdata_reader *r;
	struct pdg_seen s;
	size_t at;
	int nr = 0;
	const char *e;

	memset(&big, 0, sizeof(big));
	big.sample_type = ST_BASIC;
	while (big.len < (2u << 20)) {
		pdg_sample(&big, 42, 42, 7, 0x401000, 1000, NULL, 0);
		nr++;
	}
	/* No HEADER_COMPRESSED: 1 MiB + slack. Records before the cut come out. */
	r = with_bad_second(&g, NULL, 0, &at, false, 0, &big);
	assert_true(pdg_drain(r, &s) < 0);
	assert_true(s.n > 4 + 1000);
	assert_true(s.n < 4 + nr);
	e = sonde_perfdata_reader__error(r);
	assert_non_null(e);
	assert_non_null(strstr(e, "expands past"));
	sonde_perfdata_reader__free(r);
	free(g.buf);

	/* A 1 MiB ring buffer still leaves 2 MiB out of bounds. */
	r = with_bad_second(&g, NULL, 0, &at, true, 1u << 20, &big);
	assert_true(pdg_drain(r, &s) < 0);
	assert_non_null(strstr(sonde_perfdata_reader__error(r), "ring buffer 1048576 bytes"));
	sonde_perfdata_reader__free(r);
	free(g.buf);

	/* perf record -m 2048 (8 MiB ring buffer): all of it is fine. */
	r = with_bad_second(&g, NULL, 0, &at, true, 8u << 20, &big);
	assert_int_equal(pdg_drain(r, &s), 0);
	assert_int_equal(s.n, 4 + nr + 1);
	assert_null(sonde_perfdata_reader__error(r));
	assert_true(sonde_perfdata_reader__has_feature(r, SONDE_FEAT_COMPRESSED));
	assert_int_equal(sonde_perfdata_reader__compressed(r)->type, 1);
	assert_int_equal(sonde_perfdata_reader__compressed(r)->ratio, 9);
	assert_int_equal(sonde_perfdata_reader__compressed(r)->mmap_len, 8u << 20);
	sonde_perfdata_reader__free(r);
	free(g.buf);
	free(big.buf);
}

/*
 * Many small records that each stay under the ring-buffer bound but add
 * up past 64 MiB at > 1000x: stopped by the whole-stream ratio.
 */
static void test_ratio_bomb(void **state)
{
	struct pdgen plain, g;
	struct sonde_perfdata_reader *r;
	ZSTD_CCtx *cc = ZSTD_createCCtx();
	static uint8_t buf[65536];
	size_t n, at[12];
	struct pdg_seen s;
	const char *e;

	/* 8 MiB of THREAD_MAP-typed filler: consumed, never queued. */
	memset(&plain, 0, sizeof(plain));
	while (plain.len < (8u << 20)) {
		static const uint8_t zero[65528 - 8];

		pdg_32(&plain, 73);
		pdg_16(&plain, 0);
		pdg_16(&plain, 65528);
		pdg_bytes(&plain, zero, sizeof(zero));
	}
	begin(&g, true, false);
	pdg_comp_feature(&g, 1, 256u << 20);
	for (int i = 0; i < 12; i++) {
		n = zflush(cc, plain.buf, plain.len, buf, sizeof(buf));
		assert_true(n < 4096);
		at[i] = pdg_compressed(&g, buf, n, false);
	}
	ZSTD_freeCCtx(cc);
	r = open_img(&g);
	assert_true(pdg_drain(r, &s) < 0);
	e = sonde_perfdata_reader__error(r);
	assert_non_null(e);
	assert_non_null(strstr(e, "expands more than 1000 times"));
	/* The first batch that would cross 64 MiB is refused. */
	{
		char want[48];
		size_t k = (64u << 20) / plain.len;

		snprintf(want, sizeof(want), "byte offset %zu:", at[k]);
		if (!strstr(e, want))
			fail_msg("\"%s\" is not at %s", e, want);
	}
	sonde_perfdata_reader__free(r);
	free(g.buf);
	free(plain.buf);
}

/* Not zstd per HEADER_COMPRESSED: refused by name. */
static void test_unknown_type(void **state)
{
	struct pdgen g;
	struct sonde_perfdata_reader *r;
	struct pdg_seen s;
	static const uint8_t any[] = { 1, 2, 3 };

	begin(&g, true, false);
	pdg_comp_feature(&g, 7, 1u << 20);
	pdg_compressed(&g, any, sizeof(any), false);
	r = open_img(&g);
	assert_true(pdg_drain(r, &s) < 0);
	assert_non_null(strstr(sonde_perfdata_reader__error(r), "compression type 7"));
	sonde_perfdata_reader__free(r);
	free(g.buf);
}

/* The stream ends inside a record: what was complete comes out. */
static void test_cut_record(void **state)
{
	struct pdgen in, g;
	struct sonde_perfdata_reader *r;
	size_t zlen, at;
	uint8_t *z;

	inner_basic(&in, false, false);
	z = zstream(in.buf, in.len - 20, &zlen);
	begin(&g, false, false);
	at = pdg_compressed(&g, z, zlen, false);
	end(&g);
	r = open_img(&g);
	/* Sorted at the end: 1, 2, 10, 20, 30, 40; the sample at 35 is cut. */
	expect_error(r, 6, at, "ends inside a record (20 bytes of it decoded)");
	sonde_perfdata_reader__free(r);
	free(g.buf);
	free(in.buf);
	free(z);
}

/* The file itself ends inside a COMPRESSED record. */
static void test_truncated_file(void **state)
{
	struct pdgen in, g;
	struct sonde_perfdata_reader *r;
	ZSTD_CCtx *cc = ZSTD_createCCtx();
	uint8_t buf[4096];
	size_t n, at;

	inner_basic(&in, false, false);
	begin(&g, true, false);
	n = zflush(cc, in.buf, 40 + 80, buf, sizeof(buf));
	pdg_compressed(&g, buf, n, false);
	n = zflush(cc, in.buf + 120, in.len - 120, buf, sizeof(buf));
	at = pdg_compressed(&g, buf, n, false);
	ZSTD_freeCCtx(cc);
	r = sonde_perfdata_reader__open_mem(g.buf, g.len - 5, NULL);
	assert_non_null(r);
	expect_error(r, 2, at, "file truncated");
	sonde_perfdata_reader__free(r);
	free(g.buf);
	free(in.buf);
}

/* Impossible records inside the compressed data. */
static void check_inner_bad(const struct pdgen *in, int before, const char *what)
{
	struct pdgen g;
	struct sonde_perfdata_reader *r;
	size_t zlen, at;
	uint8_t *z = zstream(in->buf, in->len, &zlen);

	begin(&g, false, false);
	at = pdg_compressed(&g, z, zlen, false);
	end(&g);
	r = open_img(&g);
	expect_error(r, before, at, what);
	sonde_perfdata_reader__free(r);
	free(g.buf);
	free(z);
}

static void test_inner_bad(void **state)
{
	struct pdgen in;

	memset(&in, 0, sizeof(in));
	in.sample_type = ST_BASIC;
	pdg_sample(&in, 42, 42, 10, 0x401000, 1000, NULL, 0);
	pdg_32(&in, 9);
	pdg_16(&in, 0);
	pdg_16(&in, 4);
	pdg_64(&in, 0);
	check_inner_bad(&in, 1, "decompressed record type 9 has size 4 (< 8)");

	in.len = 0;
	pdg_sample(&in, 42, 42, 10, 0x401000, 1000, NULL, 0);
	pdg_32(&in, 81);
	pdg_16(&in, 0);
	pdg_16(&in, 16);
	pdg_64(&in, 0);
	check_inner_bad(&in, 1, "record of type 81");
	free(in.buf);
}

static void test_bad_data_size(void **state)
{
	struct pdgen g;
	struct sonde_perfdata_reader *r;
	size_t at;

	begin(&g, false, false);
	pdg_sample(&g, 42, 42, 10, 0x401000, 1000, NULL, 0);
	at = g.len;
	pdg_32(&g, 83);
	pdg_16(&g, 0);
	pdg_16(&g, 24);
	pdg_64(&g, 9);
	pdg_64(&g, 0);
	end(&g);
	r = open_img(&g);
	expect_error(r, 1, at, "data_size 9 exceeds the record (24 bytes)");
	sonde_perfdata_reader__free(r);
	free(g.buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pushes),
		cmocka_unit_test(test_every_cut),
		cmocka_unit_test(test_rounds_inside),
		cmocka_unit_test(test_unordered),
		cmocka_unit_test(test_corrupt_block),
		cmocka_unit_test(test_not_zstd),
		cmocka_unit_test(test_huge_window),
		cmocka_unit_test(test_size_bomb),
		cmocka_unit_test(test_ratio_bomb),
		cmocka_unit_test(test_unknown_type),
		cmocka_unit_test(test_cut_record),
		cmocka_unit_test(test_truncated_file),
		cmocka_unit_test(test_inner_bad),
		cmocka_unit_test(test_bad_data_size),
	};

	sonde_set_print(NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
