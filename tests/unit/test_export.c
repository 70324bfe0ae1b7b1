// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde_profile__export() on a generated perf.data image (pdgen.h) whose
 * symbols come from a JIT map: folded text to the byte, pprof decoded
 * back from its gzip and protobuf wire format, speedscope's and firefox's
 * per-thread samples and weights, and the errors: bad options, a format
 * without a differential view, a write callback that fails.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "sonde/sonde.h"
#include "profile_fixture.h"

struct fixture {
	struct pdgen g;
	struct sonde_perfdata_reader *r;
	struct sonde_profile *p;
};

/* A per-thread profile (comm, pid, tid keys) of the generated file. */
static void load(struct fixture *f, bool timeline)
{
	static const enum sonde_profile_key keys[] = {
		SONDE_PROFILE_KEY_COMM, SONDE_PROFILE_KEY_PID, SONDE_PROFILE_KEY_TID,
	};
	SONDE_OPTS(sonde_profile_opts, po, .keys = keys, .nr_keys = 3, .callchains = true,
		   .timeline = timeline);

	pf_gen_file(&f->g);
	f->p = sonde_profile__new(&po);
	f->r = sonde_perfdata_reader__open_mem(f->g.buf, f->g.len, NULL);
	assert_non_null(f->p);
	assert_non_null(f->r);
	assert_int_equal(sonde_profile__add_reader(f->p, f->r), 6);
}

static void unload(struct fixture *f)
{
	sonde_profile__free(f->p);
	sonde_perfdata_reader__free(f->r);
	free(f->g.buf);
}

struct mem {
	char *buf;
	size_t len;
	int fail_after; /* calls that succeed before one fails; -1 never */
};

static int write_mem(void *ctx, const void *buf, size_t len)
{
	struct mem *m = ctx;

	if (m->fail_after == 0)
		return -EIO;
	if (m->fail_after > 0)
		m->fail_after--;
	m->buf = realloc(m->buf, m->len + len + 1);
	memcpy(m->buf + m->len, buf, len);
	m->len += len;
	m->buf[m->len] = 0;
	return 0;
}

static struct mem export(struct sonde_profile *p, enum sonde_export_format fmt, int *ret)
{
	struct mem m = { .fail_after = -1 };

	*ret = sonde_profile__export(p, fmt, write_mem, &m, NULL);
	return m;
}

static void test_folded(void **state)
{
	struct fixture f;
	struct mem m;
	int ret;

	(void)state;
	load(&f, false);
	m = export(f.p, SONDE_EXPORT_FOLDED, &ret);
	assert_int_equal(ret, 0);
	assert_string_equal(m.buf, "other;main;fc 1\n"
				   "work;main;fa 1\n"
				   "work;main;fa;fb 1\n"
				   "work;main;fa;fb;fc 3\n");
	free(m.buf);
	unload(&f);
}

/* ---- a protobuf reader, enough for profile.proto ---- */

static uint64_t varint(const uint8_t **p, const uint8_t *end)
{
	uint64_t v = 0;

	for (int s = 0; *p < end && s < 64; s += 7) {
		uint8_t b = *(*p)++;

		v |= (uint64_t)(b & 0x7f) << s;
		if (!(b & 0x80))
			return v;
	}
	fail_msg("truncated varint");
	return 0;
}

/* Calls @fn per field of the message [p, end). */
static void fields(const uint8_t *p, const uint8_t *end,
		   void (*fn)(unsigned field, uint64_t v, const uint8_t *b, size_t n, void *arg),
		   void *arg)
{
	while (p < end) {
		uint64_t key = varint(&p, end), v = 0, n = 0;
		const uint8_t *b = NULL;

		if ((key & 7) == 0) {
			v = varint(&p, end);
		} else if ((key & 7) == 2) {
			n = varint(&p, end);
			assert_true(n <= (uint64_t)(end - p));
			b = p;
			p += n;
		} else {
			fail_msg("wire type %u", (unsigned)(key & 7));
		}
		fn((unsigned)(key >> 3), v, b, (size_t)n, arg);
	}
}

struct pp {
	int samples, strings, types, locations, functions, mappings;
	uint64_t value_sum[2];
	bool has_fc, has_duration;
	int max_lines;
};

static void on_sample(unsigned field, uint64_t v, const uint8_t *b, size_t n, void *arg)
{
	struct pp *pp = arg;
	int i = 0;

	(void)v;
	if (field != 2) /* packed values: [samples, period] */
		return;
	for (const uint8_t *q = b; q < b + n; i++)
		pp->value_sum[i < 2 ? i : 1] += varint(&q, b + n);
	assert_int_equal(i, 2);
}

static void on_location(unsigned field, uint64_t v, const uint8_t *b, size_t n, void *arg)
{
	int *lines = arg;

	(void)v, (void)b, (void)n;
	if (field == 4)
		(*lines)++;
}

static void on_profile(unsigned field, uint64_t v, const uint8_t *b, size_t n, void *arg)
{
	struct pp *pp = arg;
	int lines = 0;

	switch (field) {
	case 1:
		pp->types++;
		break;
	case 2:
		pp->samples++;
		fields(b, b + n, on_sample, pp);
		break;
	case 3:
		pp->mappings++;
		break;
	case 4:
		pp->locations++;
		fields(b, b + n, on_location, &lines);
		if (lines > pp->max_lines)
			pp->max_lines = lines;
		break;
	case 5:
		pp->functions++;
		break;
	case 6:
		pp->strings++;
		if (n == 2 && !memcmp(b, "fc", 2))
			pp->has_fc = true;
		break;
	case 10:
		pp->has_duration = v == 5000;
		break;
	}
}

static void test_pprof(void **state)
{
	SONDE_OPTS(sonde_export_opts, eo, .time_ns = 1700000000000000000ULL, .duration_ns = 5000);
	struct mem m = { .fail_after = -1 };
	struct pp pp = { 0 };
	struct fixture f;
	uint8_t out[1 << 16];
	z_stream z = { 0 };

	(void)state;
	load(&f, false);
	assert_int_equal(sonde_profile__export(f.p, SONDE_EXPORT_PPROF, write_mem, &m, &eo), 0);
	assert_true(m.len > 18 && (uint8_t)m.buf[0] == 0x1f && (uint8_t)m.buf[1] == 0x8b);
	assert_int_equal(inflateInit2(&z, 15 + 16), Z_OK);
	z.next_in = (Bytef *)m.buf;
	z.avail_in = (uInt)m.len;
	z.next_out = out;
	z.avail_out = sizeof(out);
	assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
	fields(out, out + z.total_out, on_profile, &pp);
	inflateEnd(&z);
	assert_int_equal(pp.types, 2);
	assert_int_equal(pp.samples, 4); /* per thread and distinct stack */
	assert_int_equal(pp.value_sum[0], 6);
	assert_int_equal(pp.value_sum[1], 650);
	assert_int_equal(pp.functions, 4);
	assert_int_equal(pp.mappings, 1);
	assert_true(pp.locations >= 4);
	assert_int_equal(pp.max_lines, 1); /* no inlined functions here */
	assert_true(pp.has_fc);
	assert_true(pp.has_duration);
	free(m.buf);
	unload(&f);
}

static void test_speedscope(void **state)
{
	struct fixture f;
	struct mem m;
	int ret;

	(void)state;
	load(&f, false);
	m = export(f.p, SONDE_EXPORT_SPEEDSCOPE, &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(m.buf, "\"$schema\":\"https://www.speedscope.app/file-format-schema.json\""));
	/* work: c<-b<-a<-main (300), b<-a<-main (100), a<-main (200), root first */
	assert_non_null(strstr(m.buf, "\"endValue\":600,\"samples\":[[0,1,2,3],[0,1,2],[0,1]],\"weights\":[300,100,200]"));
	assert_non_null(strstr(m.buf, "\"endValue\":50,\"samples\":[[0,3]],\"weights\":[50]"));
	free(m.buf);
	unload(&f);
}

static void test_firefox(void **state)
{
	struct fixture f;
	struct mem m;
	int ret;

	(void)state;
	load(&f, false);
	m = export(f.p, SONDE_EXPORT_FIREFOX, &ret);
	assert_int_equal(ret, -EINVAL); /* needs the timeline */
	free(m.buf);
	unload(&f);

	load(&f, true);
	m = export(f.p, SONDE_EXPORT_FIREFOX, &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(m.buf, "\"preprocessedProfileVersion\":49"));
	assert_non_null(strstr(m.buf, "\"version\":24"));
	/* stacks main(0) <- a(1) <- b(2) <- c(3); times in ms from the first sample */
	assert_non_null(strstr(m.buf, "\"samples\":{\"length\":5,\"weightType\":\"samples\",\"weight\":null,\"stack\":[3,3,3,2,1],\"time\":[0,0.000001,0.000002,0.000003,0.000004]}"));
	assert_non_null(strstr(m.buf, "\"samples\":{\"length\":1,"));
	/* the second thread belongs to the process its main thread names */
	assert_non_null(strstr(m.buf, "\"name\":\"other\",\"isMainThread\":false"));
	assert_non_null(strstr(strstr(m.buf, "\"name\":\"other\""), "\"processName\":\"work\""));
	free(m.buf);
	unload(&f);
}

/*
 * The firefox text of a profile of @n samples of one stack at times @t0 +
 * @dt[i] ns, in the main thread (@tid_off[i] 0, comm "work") or another
 * (1, comm "other"); @tid_off NULL: all in the main one. Freed by the caller.
 */
static char *firefox_of_times(uint64_t t0, const uint64_t *dt, const int *tid_off, int n)
{
	static const enum sonde_profile_key keys[] = {
		SONDE_PROFILE_KEY_COMM, SONDE_PROFILE_KEY_PID, SONDE_PROFILE_KEY_TID,
	};
	SONDE_OPTS(sonde_profile_opts, po, .keys = keys, .nr_keys = 3, .callchains = true,
		   .timeline = true);
	const uint64_t a[] = { F_A + 8, F_MAIN + 8 };
	struct sonde_perfdata_reader *r;
	struct sonde_profile *p;
	struct pdgen g;
	struct mem m;
	uint64_t last = 0;
	int ret;

	memset(&g, 0, sizeof(g));
	pdg_file_begin(&g, ST_IP | ST_TID | ST_TIME | ST_PERIOD | ST_CALLCHAIN, 100);
	pdg_comm(&g, (uint32_t)pid, (uint32_t)pid, "work", 0);
	if (tid_off)
		pdg_comm(&g, (uint32_t)pid, (uint32_t)pid + 1, "other", 0);
	pdg_mmap(&g, (uint32_t)pid, BASE, 0x1000, 0, "//anon", 0);
	for (int i = 0; i < n; i++) {
		pdg_sample(&g, (uint32_t)pid, (uint32_t)(pid + (tid_off ? tid_off[i] : 0)),
			   t0 + dt[i], a[0], 100, a, 2);
		if (dt[i] > last)
			last = dt[i];
	}
	pdg_file_end(&g, t0, t0 + last);
	p = sonde_profile__new(&po);
	r = sonde_perfdata_reader__open_mem(g.buf, g.len, NULL);
	assert_non_null(p);
	assert_non_null(r);
	assert_int_equal(sonde_profile__add_reader(p, r), n);
	m = export(p, SONDE_EXPORT_FIREFOX, &ret);
	assert_int_equal(ret, 0);
	sonde_profile__free(p);
	sonde_perfdata_reader__free(r);
	free(g.buf);
	return m.buf;
}

/*
 * The timeline keeps the low half of each time and the high half where it
 * changes: times across 2^32 ns boundaries, forth and back, and two
 * threads that each see only some of the changes, come out whole.
 */
static void test_firefox_times_past_32_bits(void **state)
{
	static const uint64_t dt[] = { 0, 2000, 100, (1ull << 33) + 7, (1ull << 33) + 2000 };
	static const int thread[] = { 0, 1, 0, 1, 0 };
	char *text;

	(void)state;
	text = firefox_of_times((5ull << 32) - 1000, dt, thread, 5);
	/* in ms from the earliest */
	assert_non_null(strstr(text, "\"time\":[0,0.0001,8589.936592]"));
	assert_non_null(strstr(text, "\"time\":[0.002,8589.934599]"));
	free(text);
}

/*
 * Firefox's whole milliseconds are counted up from the sample before's
 * digits: across 9 -> 10 and 99 -> 100 (one digit more) and 1099 -> 1100.
 */
static void test_firefox_ms_digits(void **state)
{
	static const uint64_t us[] = { 0, 9500, 10500, 99500, 100500, 1099500, 1100500, 1101500 };
	uint64_t dt[sizeof(us) / sizeof(us[0])];
	char *text;

	(void)state;
	for (size_t i = 0; i < sizeof(us) / sizeof(us[0]); i++)
		dt[i] = us[i] * 1000;
	text = firefox_of_times(1000000000, dt, NULL, (int)(sizeof(dt) / sizeof(dt[0])));
	assert_non_null(strstr(text, "\"time\":[0,9.5,10.5,99.5,100.5,1099.5,1100.5,1101.5]"));
	free(text);
}

static size_t unbase64(const char *s, size_t n, uint8_t *out)
{
	static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	uint32_t v = 0;
	size_t len = 0;
	int bits = 0;

	for (size_t i = 0; i < n && s[i] != '='; i++) {
		v = v << 6 | (uint32_t)(strchr(abc, s[i]) - abc);
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[len++] = (uint8_t)(v >> bits);
		}
	}
	return len;
}

/*
 * The HTML page's timeline: null without the profile's timeline; else
 * the lanes (threads by pid, tid) and the columns: time deltas (all 0
 * here: the samples are 1..6 ns apart), lanes, and leaf numbers in the
 * page's depth-first order (children by name): main;fa 0, main;fa;fb 1,
 * main;fa;fb;fc 2, main;fc 3, in one plane of 2 bits.
 */
/* The page's timeline columns, inflated into @raw; their length. */
static size_t timeline_raw(const char *page, uint8_t *raw, size_t cap)
{
	uint8_t zb[4096];
	const char *b64 = strstr(page, "\"zlib\":\""), *end;
	z_stream z = { 0 };
	size_t n;

	assert_non_null(b64);
	b64 += 8;
	end = strchr(b64, '"');
	assert_true(end && (size_t)(end - b64) * 3 / 4 < sizeof(zb));
	n = unbase64(b64, (size_t)(end - b64), zb);
	assert_int_equal(inflateInit2(&z, 15), Z_OK); /* zlib */
	z.next_in = zb;
	z.avail_in = (uInt)n;
	z.next_out = raw;
	z.avail_out = (uInt)cap;
	assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
	inflateEnd(&z);
	return cap - z.avail_out;
}

/*
 * The HTML page's timeline: null without the profile's timeline; else
 * the lanes (threads by pid, tid) and the columns: time deltas (all 0
 * here: the samples are 1..6 ns apart), lanes, and leaf numbers in the
 * page's depth-first order (children by name): main;fa 0, main;fa;fb 1,
 * main;fa;fb;fc 2, main;fc 3, in one plane of 2 bits.
 */
static void test_html_timeline(void **state)
{
	/* leaves 2, 2, 2, 1, 0, 3 in 2 bits each, low first: 0x6a, 0x0c */
	const uint8_t want[] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0x6a, 0x0c };
	char lanes[128];
	uint8_t raw[64];
	const char *tl;
	struct fixture f;
	struct mem m;
	int ret;

	(void)state;
	load(&f, false);
	m = export(f.p, SONDE_EXPORT_HTML, &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(m.buf, "<script id=\"sonde-timeline\" type=\"application/json\">null</script>"));
	free(m.buf);
	unload(&f);

	load(&f, true);
	m = export(f.p, SONDE_EXPORT_HTML, &ret);
	assert_int_equal(ret, 0);
	tl = strstr(m.buf, "<script id=\"sonde-timeline\" type=\"application/json\">{");
	assert_non_null(tl);
	snprintf(lanes, sizeof(lanes), "\"lanes\":[[%d,%d,5,\"work\"],[%d,%d,1,\"other\"]]", pid, pid,
		 pid, pid + 1);
	assert_non_null(strstr(tl, "{\"samples\":6,\"t0us\":0,\"t1us\":0,\"leafPlanes\":[2],"));
	assert_non_null(strstr(tl, lanes));
	assert_int_equal(timeline_raw(tl, raw, sizeof(raw)), sizeof(want));
	assert_memory_equal(raw, want, sizeof(want));
	free(m.buf);
	unload(&f);
}

/*
 * 130 threads met in the reverse of their (pid, tid) order: the lanes
 * are listed by tid and the lane column says each sample's rank, two
 * varint bytes from 128 on.
 */
static void test_html_timeline_lanes(void **state)
{
	static const enum sonde_profile_key keys[] = {
		SONDE_PROFILE_KEY_COMM, SONDE_PROFILE_KEY_PID, SONDE_PROFILE_KEY_TID,
	};
	SONDE_OPTS(sonde_profile_opts, po, .keys = keys, .nr_keys = 3, .callchains = true,
		   .timeline = true);
	const uint64_t a[] = { F_A + 8, F_MAIN + 8 };
	const uint32_t nt = 130, base = (uint32_t)pid + 1000;
	struct sonde_perfdata_reader *r;
	struct sonde_profile *p;
	uint8_t raw[512], want[512];
	size_t nw = 0;
	char first[96];
	struct pdgen g;
	struct mem m;
	int ret;

	(void)state;
	memset(&g, 0, sizeof(g));
	pdg_file_begin(&g, ST_IP | ST_TID | ST_TIME | ST_PERIOD | ST_CALLCHAIN, 100);
	pdg_mmap(&g, (uint32_t)pid, BASE, 0x1000, 0, "//anon", 0);
	for (uint32_t k = 0; k < nt; k++) {
		pdg_comm(&g, (uint32_t)pid, base + nt - 1 - k, "w", 0);
		pdg_sample(&g, (uint32_t)pid, base + nt - 1 - k, 1 + k, a[0], 100, a, 2);
	}
	pdg_file_end(&g, 1, nt);
	p = sonde_profile__new(&po);
	r = sonde_perfdata_reader__open_mem(g.buf, g.len, NULL);
	assert_non_null(p);
	assert_non_null(r);
	assert_int_equal(sonde_profile__add_reader(p, r), (int)nt);
	m = export(p, SONDE_EXPORT_HTML, &ret);
	assert_int_equal(ret, 0);
	snprintf(first, sizeof(first), "\"leafPlanes\":[1],\"lanes\":[[%d,%u,1,\"w\"],[%d,%u,1,",
		 pid, base, pid, base + 1);
	assert_non_null(strstr(m.buf, first));
	memset(want, 0, nt); /* the times: all in one microsecond */
	nw = nt;
	for (uint32_t k = 0; k < nt; k++) {
		uint32_t rank = nt - 1 - k;

		if (rank >= 128)
			want[nw++] = (uint8_t)(rank | 0x80), want[nw++] = (uint8_t)(rank >> 7);
		else
			want[nw++] = (uint8_t)rank;
	}
	memset(want + nw, 0, (nt + 7) / 8); /* one leaf: a 1-bit plane of zeros */
	nw += (nt + 7) / 8;
	assert_int_equal(timeline_raw(m.buf, raw, sizeof(raw)), nw);
	assert_memory_equal(raw, want, nw);
	free(m.buf);
	sonde_profile__free(p);
	sonde_perfdata_reader__free(r);
	free(g.buf);
}

static void test_errors(void **state)
{
	struct mem m = { .fail_after = 0 };
	struct fixture f;
	struct {
		struct sonde_export_opts o;
		char more[8];
	} big;

	(void)state;
	load(&f, false);
	/* the write callback's error comes back */
	assert_int_equal(sonde_profile__export(f.p, SONDE_EXPORT_FOLDED, write_mem, &m, NULL), -EIO);
	free(m.buf);
	m = (struct mem){ .fail_after = -1 };
	assert_int_equal(sonde_profile__export(f.p, SONDE_EXPORT_FORMAT_MAX, write_mem, &m, NULL),
			 -EINVAL);
	assert_int_equal(sonde_profile__export(f.p, SONDE_EXPORT_FOLDED, NULL, &m, NULL), -EINVAL);
	{
		SONDE_OPTS(sonde_export_opts, eo, .event = 1);

		assert_int_equal(sonde_profile__export(f.p, SONDE_EXPORT_FOLDED, write_mem, &m, &eo),
				 -EINVAL);
	}
	{
		SONDE_OPTS(sonde_export_opts, eo, .baseline = f.p);

		assert_int_equal(sonde_profile__export(f.p, SONDE_EXPORT_PPROF, write_mem, &m, &eo),
				 -EOPNOTSUPP);
	}
	{
		/* the baseline has one event: its event 1 is refused */
		SONDE_OPTS(sonde_export_opts, eo, .baseline = f.p, .baseline_event = 1);

		assert_int_equal(sonde_profile__export(f.p, SONDE_EXPORT_SVG, write_mem, &m, &eo),
				 -EINVAL);
		eo.baseline_event = -1;
		assert_int_equal(sonde_profile__export(f.p, SONDE_EXPORT_HTML, write_mem, &m, &eo),
				 -EINVAL);
	}
	/* a newer caller's opts: zero past the known fields is fine, else not */
	memset(&big, 0, sizeof(big));
	big.o.sz = sizeof(big);
	assert_int_equal(sonde_profile__export(f.p, SONDE_EXPORT_FOLDED, write_mem, &m, &big.o), 0);
	big.more[3] = 1;
	assert_int_equal(sonde_profile__export(f.p, SONDE_EXPORT_FOLDED, write_mem, &m, &big.o),
			 -EINVAL);
	free(m.buf);
	unload(&f);
}

static void test_names(void **state)
{
	(void)state;
	for (int i = 0; i < SONDE_EXPORT_FORMAT_MAX; i++) {
		assert_int_equal(sonde_export_format__parse(sonde_export_format__name(i)), i);
		assert_non_null(sonde_export_format__file_name(i));
	}
	assert_string_equal(sonde_export_format__file_name(SONDE_EXPORT_PPROF), "perf.pb.gz");
	assert_int_equal(sonde_export_format__parse("nosuch"), -EINVAL);
	assert_int_equal(sonde_export_format__parse(NULL), -EINVAL);
	assert_null(sonde_export_format__name(SONDE_EXPORT_FORMAT_MAX));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_folded),
		cmocka_unit_test(test_pprof),
		cmocka_unit_test(test_speedscope),
		cmocka_unit_test(test_firefox),
		cmocka_unit_test(test_firefox_times_past_32_bits),
		cmocka_unit_test(test_firefox_ms_digits),
		cmocka_unit_test(test_html_timeline),
		cmocka_unit_test(test_html_timeline_lanes),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, pf_setup, pf_teardown);
}
