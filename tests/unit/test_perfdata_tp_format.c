// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde_perfdata_reader__tp_format(): a tracepoint event's format from the
 * recording's TRACING_DATA by the attr's id (file and pipe), else from
 * tracefs by name when the id there agrees (a fake tree through
 * SONDE_TRACEFS_ROOT), its print evaluator per %pS namer, kept by the
 * reader; a corrupt TRACING_DATA, which must give a clear answer
 * (offset, SONDE_TP_BAD_TRACING_DATA, -SONDE_ERR_FORMAT) and no crash;
 * and the profile's trace key, from a reader and without one.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sonde/sonde.h"
#include "sonde/perfdata.h"
#include "sonde/perfdata_reader.h"
#include "sonde/tracefs.h"
#include "tracefs_dir.h"

static char dir[] = "/tmp/sonde-tpf-XXXXXX";
static char path[300];

/* A format file: fields a (u32 at 8) and f (u64 at 16). */
static int format_text(char *buf, size_t size, const char *name, int id, const char *pfmt)
{
	return snprintf(buf, size,
			"name: %s\nID: %d\nformat:\n"
			"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
			"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
			"\tfield:unsigned int a;\toffset:8;\tsize:4;\tsigned:0;\n"
			"\tfield:unsigned long f;\toffset:16;\tsize:8;\tsigned:0;\n\n"
			"print fmt: %s\n", name, id, pfmt);
}

/* The raw data of one record: a = 5, f = 0x1010. */
static const uint8_t *raw_rec(void)
{
	static uint8_t r[24];
	uint32_t a = 5;
	uint64_t f = 0x1010;

	memcpy(r + 8, &a, 4);
	memcpy(r + 16, &f, 8);
	return r;
}

struct blob {
	uint8_t b[4096];
	size_t len;
};

static void put(struct blob *b, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		b->b[b->len++] = (uint8_t)(v >> (8 * i));
}

static void put_s(struct blob *b, const char *s)
{
	memcpy(b->b + b->len, s, strlen(s) + 1);
	b->len += strlen(s) + 1;
}

/*
 * TRACING_DATA holding test:t1 (ID 7) in system "test" and, unless
 * @corrupt, test:t4 (ID 10) in system "more"; corrupt, that second
 * system claims a format longer than the blob.
 */
static void make_blob(struct blob *b, bool corrupt)
{
	static const uint8_t magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a',
					   'c', 'i', 'n', 'g' };
	char text[1024];
	int n;

	memset(b, 0, sizeof(*b));
	memcpy(b->b, magic, 10);
	b->len = 10;
	put_s(b, "0.6");
	put(b, 0, 1);		/* little endian */
	put(b, 8, 1);
	put(b, 4096, 4);
	put_s(b, "header_page");
	put(b, 0, 8);
	put_s(b, "header_event");
	put(b, 0, 8);
	put(b, 0, 4);		/* ftrace formats */
	put(b, 2, 4);		/* systems */
	put_s(b, "test");
	put(b, 1, 4);
	n = format_text(text, sizeof(text), "t1", 7, "\"a=%u f=%pS\", REC->a, (void *)REC->f");
	put(b, (uint64_t)n, 8);
	memcpy(b->b + b->len, text, (size_t)n);
	b->len += (size_t)n;
	put_s(b, "more");
	put(b, 1, 4);
	n = format_text(text, sizeof(text), "t4", 10, "\"t4 a=%u\", REC->a");
	put(b, corrupt ? 1ULL << 40 : (uint64_t)n, 8);
	memcpy(b->b + b->len, text, (size_t)n);
	b->len += (size_t)n;
	put(b, 0, 4);
	put(b, 0, 4);
	put(b, 0, 8);
}

static void write_format(const char *name, int id, const char *pfmt)
{
	char root[400], text[1024];
	int n;

	snprintf(root, sizeof(root), "%s/tracefs", dir);
	n = format_text(text, sizeof(text), name, id, pfmt);
	assert_int_equal(tracefs_format_write(root, "test", name, text, (size_t)n), 0);
}

static int setup(void **state)
{
	char d[400];

	(void)state;
	strcpy(dir, "/tmp/sonde-tpf-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/t.data", dir);
	/* This machine's tracefs: t2 with the recorded id, t3 with another. */
	write_format("t2", 8, "\"t2 a=%u\", REC->a");
	write_format("t3", 99, "\"t3 a=%u\", REC->a");
	snprintf(d, sizeof(d), "%s/tracefs", dir);
	setenv("SONDE_TRACEFS_ROOT", d, 1);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return tracefs_dir_remove(dir);
}

static void tp_attr(struct sonde_perf_event_attr *a, uint64_t id)
{
	tp_attr_init(a, id, SONDE_PERF_SAMPLE_IDENTIFIER | SONDE_PERF_SAMPLE_IP |
			    SONDE_PERF_SAMPLE_TID | SONDE_PERF_SAMPLE_TIME |
			    SONDE_PERF_SAMPLE_RAW);
	a->sample_id_all = 1;
}

/* A sample of event id @id with raw_rec()'s data (RAW padded to 8 bytes). */
struct tp_sample {
	struct sonde_perf_event_header h;
	uint64_t id, ip;
	uint32_t pid, tid;
	uint64_t time;
	uint32_t raw_size;
	uint8_t raw[28];
};

static void fill_sample(struct tp_sample *s, uint64_t id, uint64_t time)
{
	memset(s, 0, sizeof(*s));
	s->h.type = SONDE_PERF_RECORD_SAMPLE;
	s->h.misc = SONDE_PERF_RECORD_MISC_KERNEL;
	s->h.size = sizeof(*s);
	s->id = id;
	s->ip = 0xffffffff81000000ULL;
	s->pid = s->tid = 42;
	s->time = time;
	s->raw_size = sizeof(s->raw);
	memcpy(s->raw, raw_rec(), 24);
}

/*
 * Events: 0 test:t1 (in the blob), 1 test:t2 (tracefs only), 2 test:t3
 * (tracefs has another id), 3 task-clock (no tracepoint), 4 more:t4; one
 * sample of each tracepoint (sample id 100 + index).
 */
static void write_perfdata(bool pipe, const struct blob *b)
{
	SONDE_OPTS(sonde_perfdata_writer_opts, o, .pipe = pipe);
	struct sonde_perfdata_writer *w = sonde_perfdata_writer__new(path, &o);
	static const char *const names[] = { "test:t1", "test:t2", "test:t3" };
	static const uint64_t ids[] = { 7, 8, 9 };
	struct sonde_perf_event_attr a;
	struct tp_sample smp;

	assert_non_null(w);
	for (int i = 0; i < 3; i++) {
		tp_attr(&a, ids[i]);
		assert_int_equal(sonde_perfdata_writer__add_event(w, &a, names[i]), i);
	}
	tp_attr(&a, 0);
	a.type = SONDE_PERF_TYPE_SOFTWARE;
	assert_int_equal(sonde_perfdata_writer__add_event(w, &a, "task-clock"), 3);
	tp_attr(&a, 10);
	assert_int_equal(sonde_perfdata_writer__add_event(w, &a, "more:t4"), 4);
	for (int i = 0; i < 5; i++) {
		uint64_t id = 100 + (uint64_t)i;

		assert_int_equal(sonde_perfdata_writer__add_ids(w, i, &id, 1), 0);
	}
	if (b->len)
		assert_int_equal(sonde_perfdata_writer__set_tracing_data(w, b->b, b->len), 0);
	assert_int_equal(sonde_perfdata_writer__begin(w), 0);
	for (int i = 0; i < 5; i++) {
		if (i == 3)
			continue;
		fill_sample(&smp, 100 + (uint64_t)i, 1000 + (uint64_t)i);
		assert_int_equal(sonde_perfdata_writer__write(w, &smp.h), 0);
	}
	assert_int_equal(sonde_perfdata_writer__finish(w), 0);
}

static struct sonde_perfdata_reader *open_read_all(void)
{
	struct sonde_perfdata_reader *r = sonde_perfdata_reader__open(path, NULL);
	struct sonde_perfdata_record rec;

	assert_non_null(r);
	/* A pipe's attrs and TRACING_DATA come as records. */
	while (sonde_perfdata_reader__next(r, &rec) > 0)
		;
	assert_int_equal(sonde_perfdata_reader__nr_attrs(r), 5);
	return r;
}

static void expect_text(const struct sonde_tp_print *p, const char *want)
{
	char buf[128];

	assert_non_null(p);
	assert_int_equal(sonde_tp_print__format(p, raw_rec(), 24, buf, sizeof(buf)),
			 (int)strlen(want));
	assert_string_equal(buf, want);
}

static const char *name_addr(void *ctx, uint64_t addr, uint64_t *off)
{
	(void)ctx;
	*off = addr - 0x1000;
	return "handler";
}

static void check_good(bool pipe)
{
	struct sonde_perfdata_reader *r;
	const struct sonde_tp_format *fmt, *fmt2;
	const struct sonde_tp_print *p, *p2, *ps;
	struct blob b;
	char err[128] = "x";
	SONDE_OPTS(sonde_perfdata_tp_opts, named, .sym = name_addr, .errbuf = err,
		   .errbuf_size = sizeof(err));

	make_blob(&b, false);
	write_perfdata(pipe, &b);
	r = open_read_all();
	assert_int_equal(sonde_perfdata_reader__is_pipe(r), pipe);

	/* The recording's own format, by id 7. */
	assert_int_equal(sonde_perfdata_reader__tp_format(r, 0, NULL, &fmt, &p),
			 SONDE_TP_RECORDED);
	assert_string_equal(sonde_tp_format__name(fmt), "t1");
	expect_text(p, "a=5 f=0x1010");
	/* Kept: the same format and evaluator again. */
	assert_int_equal(sonde_perfdata_reader__tp_format(r, 0, NULL, &fmt2, &p2),
			 SONDE_TP_RECORDED);
	assert_ptr_equal(fmt, fmt2);
	assert_ptr_equal(p, p2);
	/* Another %pS namer: the same format, its own evaluator. */
	assert_int_equal(sonde_perfdata_reader__tp_format(r, 0, &named, &fmt2, &ps),
			 SONDE_TP_RECORDED);
	assert_string_equal(err, "");
	assert_ptr_equal(fmt, fmt2);
	assert_ptr_not_equal(p, ps);
	expect_text(ps, "a=5 f=handler+0x10");
	/* The second system of the blob. */
	assert_int_equal(sonde_perfdata_reader__tp_format(r, 4, NULL, &fmt, &p),
			 SONDE_TP_RECORDED);
	expect_text(p, "t4 a=5");

	/* Not recorded: this machine's tracefs by name, the same id. */
	assert_int_equal(sonde_perfdata_reader__tp_format(r, 1, NULL, &fmt, NULL),
			 SONDE_TP_TRACEFS);
	assert_string_equal(sonde_tp_format__name(fmt), "t2");
	assert_int_equal(sonde_perfdata_reader__tp_format(r, 1, NULL, &fmt, &p),
			 SONDE_TP_TRACEFS);
	expect_text(p, "t2 a=5");
	/* tracefs numbers it otherwise: another kernel, not guessed at. */
	fmt = (const void *)1;
	assert_int_equal(sonde_perfdata_reader__tp_format(r, 2, NULL, &fmt, &p), -ENOENT);
	assert_null(fmt);
	assert_null(p);
	/* Not a tracepoint, no such event, bad arguments. */
	assert_int_equal(sonde_perfdata_reader__tp_format(r, 3, NULL, &fmt, &p), -EINVAL);
	assert_int_equal(sonde_perfdata_reader__tp_format(r, 5, NULL, &fmt, &p), -EINVAL);
	assert_int_equal(sonde_perfdata_reader__tp_format(r, -1, NULL, &fmt, &p), -EINVAL);
	assert_int_equal(sonde_perfdata_reader__tp_format(r, 0, NULL, NULL, &p), -EINVAL);
	assert_int_equal(sonde_perfdata_reader__tp_format(NULL, 0, NULL, &fmt, &p), -EINVAL);
	sonde_perfdata_reader__free(r);
}

static void test_file(void **state)
{
	(void)state;
	check_good(false);
}

static void test_pipe(void **state)
{
	(void)state;
	check_good(true);
}

/* A recording without TRACING_DATA: tracefs serves what it can. */
static void test_no_tracing_data(void **state)
{
	struct sonde_perfdata_reader *r;
	const struct sonde_tp_format *fmt;
	const struct sonde_tp_print *p;
	struct blob b = { .len = 0 };

	(void)state;
	write_perfdata(false, &b);
	r = open_read_all();
	assert_int_equal(sonde_perfdata_reader__tp_format(r, 0, NULL, &fmt, &p), -ENOENT);
	assert_int_equal(sonde_perfdata_reader__tp_format(r, 1, NULL, &fmt, &p),
			 SONDE_TP_TRACEFS);
	expect_text(p, "t2 a=5");
	sonde_perfdata_reader__free(r);
}

static void check_corrupt(bool pipe)
{
	struct sonde_perfdata_reader *r;
	const struct sonde_tp_format *fmt;
	const struct sonde_tp_print *p;
	struct blob b;
	char err[128];
	SONDE_OPTS(sonde_perfdata_tp_opts, o, .errbuf = err, .errbuf_size = sizeof(err));

	make_blob(&b, true);
	write_perfdata(pipe, &b);
	r = open_read_all();
	/* The format before the corrupt spot still serves, flagged. */
	assert_int_equal(sonde_perfdata_reader__tp_format(r, 0, &o, &fmt, &p),
			 SONDE_TP_RECORDED | SONDE_TP_BAD_TRACING_DATA);
	assert_non_null(strstr(err, "TRACING_DATA is corrupt at byte "));
	expect_text(p, "a=5 f=0x1010");
	/* Past it: this machine's, flagged. */
	assert_int_equal(sonde_perfdata_reader__tp_format(r, 1, &o, &fmt, &p),
			 SONDE_TP_TRACEFS | SONDE_TP_BAD_TRACING_DATA);
	expect_text(p, "t2 a=5");
	/* Lost with the corrupt part and not here: a format error. */
	err[0] = 0;
	assert_int_equal(sonde_perfdata_reader__tp_format(r, 4, &o, &fmt, &p),
			 -SONDE_ERR_FORMAT);
	assert_non_null(strstr(err, "corrupt"));
	assert_null(fmt);
	sonde_perfdata_reader__free(r);
}

static void test_corrupt(void **state)
{
	(void)state;
	check_corrupt(false);
	check_corrupt(true);
}

/* Not a TRACING_DATA blob at all: nothing from it, no crash. */
static void test_garbage(void **state)
{
	struct sonde_perfdata_reader *r;
	const struct sonde_tp_format *fmt;
	const struct sonde_tp_print *p;
	struct blob b;

	(void)state;
	memset(&b, 0, sizeof(b));
	b.len = 64;
	memset(b.b, 0xff, b.len);
	write_perfdata(false, &b);
	r = open_read_all();
	assert_int_equal(sonde_perfdata_reader__tp_format(r, 0, NULL, &fmt, &p),
			 -SONDE_ERR_FORMAT);
	assert_int_equal(sonde_perfdata_reader__tp_format(r, 1, NULL, &fmt, &p),
			 SONDE_TP_TRACEFS | SONDE_TP_BAD_TRACING_DATA);
	sonde_perfdata_reader__free(r);
}

/* Event @ev's one histogram row's trace text, NULL without one. */
static const char *trace_of(struct sonde_profile *p, int ev)
{
	const struct sonde_profile_entry *e = sonde_profile__entry(p, ev, 0);
	struct sonde_profile_entry_keys k;

	if (!e)
		return "(no entry)";
	assert_int_equal(sonde_profile_entry__keys(e, &k), 0);
	return k.trace;
}

/* report's trace key: the reader's formats. */
static void test_profile_reader(void **state)
{
	static const enum sonde_profile_key keys[] = { SONDE_PROFILE_KEY_TRACE };
	SONDE_OPTS(sonde_profile_opts, po, .keys = keys, .nr_keys = 1);
	struct sonde_perfdata_reader *r;
	struct sonde_profile *p;
	struct blob b;

	(void)state;
	make_blob(&b, false);
	write_perfdata(false, &b);
	r = sonde_perfdata_reader__open(path, NULL);
	assert_non_null(r);
	p = sonde_profile__new(&po);
	assert_non_null(p);
	assert_int_equal(sonde_profile__add_reader(p, r), 4);
	assert_string_equal(trace_of(p, 0), "a=5 f=0x1010");
	assert_string_equal(trace_of(p, 1), "t2 a=5");
	assert_null(trace_of(p, 2));
	assert_string_equal(trace_of(p, 4), "t4 a=5");
	sonde_profile__free(p);
	sonde_perfdata_reader__free(r);
}

/* A profile fed by hand (a live ring): this machine's tracefs only. */
static void test_profile_live(void **state)
{
	static const enum sonde_profile_key keys[] = { SONDE_PROFILE_KEY_TRACE };
	SONDE_OPTS(sonde_profile_opts, po, .keys = keys, .nr_keys = 1);
	struct sonde_profile *p = sonde_profile__new(&po);
	struct sonde_perf_event_attr a;
	struct sonde_record rec;
	const uint64_t id1 = 100, id2 = 101;

	(void)state;
	assert_non_null(p);
	tp_attr(&a, 7); /* test:t1 is not in this tracefs */
	assert_int_equal(sonde_profile__add_event(p, &a, &id1, 1, "test:t1"), 0);
	tp_attr(&a, 8);
	assert_int_equal(sonde_profile__add_event(p, &a, &id2, 1, "test:t2"), 1);
	for (int ev = 0; ev < 2; ev++) {
		memset(&rec, 0, sizeof(rec));
		rec.type = SONDE_PERF_RECORD_SAMPLE;
		rec.misc = SONDE_PERF_RECORD_MISC_KERNEL;
		rec.sample.sample_type = a.sample_type;
		rec.sample.id = ev ? id2 : id1;
		rec.sample.ip = 0xffffffff81000000ULL;
		rec.sample.pid = rec.sample.tid = 42;
		rec.sample.period = 1;
		rec.sample.raw.data = raw_rec();
		rec.sample.raw.size = 24;
		assert_int_equal(sonde_profile__add_record(p, ev, &rec), 1);
	}
	assert_null(trace_of(p, 0));
	assert_string_equal(trace_of(p, 1), "t2 a=5");
	sonde_profile__free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pipe, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_tracing_data, setup, teardown),
		cmocka_unit_test_setup_teardown(test_corrupt, setup, teardown),
		cmocka_unit_test_setup_teardown(test_garbage, setup, teardown),
		cmocka_unit_test_setup_teardown(test_profile_reader, setup, teardown),
		cmocka_unit_test_setup_teardown(test_profile_live, setup, teardown),
	};

	sonde_set_print(NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
