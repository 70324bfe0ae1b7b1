// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The profile's FIELD keys (perf's dynamic sort keys), through the public
 * API alone: columns per (event, field) with perf's widths, entries told
 * apart by the field's bytes and ordered as perf's memcmp orders them,
 * texts from the print fmt's word or (/raw, or a field it does not
 * print) the value alone, trace_fields, and the refusals: opts that do
 * not pair keys and names, a name matching no field when the reader is
 * set. Formats come from a fake tracefs (SONDE_TRACEFS_ROOT).
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
#include "sonde/sonde.h"
#include "sonde/perfdata.h"
#include "sonde/perfdata_reader.h"
#include "tracefs_dir.h"

static char dir[] = "/tmp/sonde-tpfields-XXXXXX";

/* test:tf, ID 8: a string, a signed int the print fmt shows, a long it does not. */
static const char format[] =
	"name: tf\nID: 8\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:char name[8];\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield:int val;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned long ptr;\toffset:24;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"name=%s val=%d\", REC->name, REC->val\n";

static int setup(void **state)
{
	(void)state;
	strcpy(dir, "/tmp/sonde-tpfields-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	if (tracefs_format_write(dir, "test", "tf", format, strlen(format)))
		return -1;
	setenv("SONDE_TRACEFS_ROOT", dir, 1);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return tracefs_dir_remove(dir);
}

static void tp_attr(struct sonde_perf_event_attr *a)
{
	tp_attr_init(a, 8, SONDE_PERF_SAMPLE_IDENTIFIER | SONDE_PERF_SAMPLE_IP |
			   SONDE_PERF_SAMPLE_TID | SONDE_PERF_SAMPLE_RAW);
}

/* Samples: ("aa", 1) three times, ("bb", 300), ("aa", 2); ptr 0x1000. */
static void add_samples(struct sonde_profile *p)
{
	static const struct {
		const char *name;
		int32_t val;
	} v[] = { { "aa", 1 }, { "aa", 1 }, { "bb", 300 }, { "aa", 1 }, { "aa", 2 } };
	struct sonde_perf_event_attr a;
	const uint64_t id = 100, ptr = 0x1000;

	tp_attr(&a);
	assert_int_equal(sonde_profile__add_event(p, &a, &id, 1, "test:tf"), 0);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		uint8_t raw[32] = { 0 };
		struct sonde_record rec;

		memcpy(raw + 8, v[i].name, strlen(v[i].name));
		memcpy(raw + 16, &v[i].val, 4);
		memcpy(raw + 24, &ptr, 8);
		memset(&rec, 0, sizeof(rec));
		rec.type = SONDE_PERF_RECORD_SAMPLE;
		rec.misc = SONDE_PERF_RECORD_MISC_KERNEL;
		rec.sample.sample_type = a.sample_type;
		rec.sample.id = id;
		rec.sample.ip = 0xffffffff81000000ULL;
		rec.sample.pid = rec.sample.tid = 42;
		rec.sample.period = 1;
		rec.sample.raw.data = raw;
		rec.sample.raw.size = sizeof(raw);
		assert_int_equal(sonde_profile__add_record(p, 0, &rec), 1);
	}
}

static struct sonde_profile *profile(const enum sonde_profile_key *keys, size_t nr_keys,
				     const char *const *fields, size_t nr_fields)
{
	SONDE_OPTS(sonde_profile_opts, po, .keys = keys, .nr_keys = nr_keys, .fields = fields,
		   .nr_fields = nr_fields);
	struct sonde_profile *p = sonde_profile__new(&po);

	assert_non_null(p);
	add_samples(p);
	return p;
}

static void expect_field(const struct sonde_profile *p, int i, const char *name, int key,
			 int width, bool raw)
{
	struct sonde_profile_field f;

	assert_int_equal(sonde_profile__field(p, i, &f), 0);
	assert_string_equal(f.name, name);
	assert_int_equal(f.ev, 0);
	assert_int_equal(f.key, key);
	assert_int_equal(f.width, width);
	assert_int_equal(f.raw, raw);
}

/* Entry @i's text in column @col, and its sample count. */
static void expect_row(struct sonde_profile *p, size_t i, int col, const char *text,
		       uint64_t samples)
{
	const struct sonde_profile_entry *e = sonde_profile__entry(p, 0, i);

	assert_non_null(e);
	assert_string_equal(sonde_profile_entry__field(e, col), text);
	assert_int_equal(sonde_profile_entry__samples(e), samples);
}

static void test_field_and_raw(void **state)
{
	static const enum sonde_profile_key keys[] = { SONDE_PROFILE_KEY_FIELD,
						       SONDE_PROFILE_KEY_FIELD };
	static const char *const fields[] = { "name", "test:tf.ptr/raw" };
	struct sonde_profile *p = profile(keys, 2, fields, 2);

	(void)state;
	assert_int_equal(sonde_profile__nr_fields(p), 2);
	/* a string is its size wide, a number its hex digits and 0x */
	expect_field(p, 0, "name", 0, 8, false);
	expect_field(p, 1, "ptr", 1, 18, true);
	assert_int_equal(sonde_profile__nr_entries(p, 0), 2);
	expect_row(p, 0, 0, "aa", 4);
	expect_row(p, 0, 1, "0x1000", 4);
	expect_row(p, 1, 0, "bb", 1);
	assert_null(sonde_profile_entry__field(sonde_profile__entry(p, 0, 0), 2));
	assert_int_equal(sonde_profile__field(p, 2, &(struct sonde_profile_field){ 0 }), -EINVAL);
	sonde_profile__free(p);
}

/* Equal weights: perf's memcmp of the bytes, the larger first (300 = 2c 01 before 02). */
static void test_order(void **state)
{
	static const enum sonde_profile_key keys[] = { SONDE_PROFILE_KEY_FIELD };
	static const char *const raw[] = { "val/raw" }, *const word[] = { "%1.val" };
	struct sonde_profile *p = profile(keys, 1, raw, 1);

	(void)state;
	assert_int_equal(sonde_profile__nr_entries(p, 0), 3);
	expect_row(p, 0, 0, "1", 3);
	expect_row(p, 1, 0, "300", 1);
	expect_row(p, 2, 0, "2", 1);
	expect_field(p, 0, "val", 0, 10, true);
	sonde_profile__free(p);
	/* the print fmt's word "val=300" gives the same texts */
	p = profile(keys, 1, word, 1);
	expect_row(p, 1, 0, "300", 1);
	expect_field(p, 0, "val", 0, 10, false);
	sonde_profile__free(p);
}

/* trace_fields: every field after the common ones; ptr is no word of the print fmt. */
static void test_trace_fields(void **state)
{
	static const enum sonde_profile_key keys[] = { SONDE_PROFILE_KEY_COMM,
						       SONDE_PROFILE_KEY_FIELD };
	static const char *const fields[] = { "trace_fields" };
	struct sonde_profile *p = profile(keys, 2, fields, 1);

	(void)state;
	assert_int_equal(sonde_profile__nr_fields(p), 3);
	expect_field(p, 0, "name", 0, 8, false);
	expect_field(p, 1, "val", 0, 10, false);
	expect_field(p, 2, "ptr", 0, 18, false);
	expect_row(p, 0, 1, "1", 3);
	expect_row(p, 0, 2, "0x1000", 3);
	sonde_profile__free(p);
}

/* Names and FIELD keys pair one to one; a name must name a field. */
static void test_refused(void **state)
{
	static const enum sonde_profile_key one[] = { SONDE_PROFILE_KEY_FIELD };
	static const char *const good[] = { "val" }, *const bad[] = { "nope" };
	SONDE_OPTS(sonde_profile_opts, po, .keys = one, .nr_keys = 1);
	struct sonde_perfdata_writer *w;
	struct sonde_perfdata_reader *r;
	struct sonde_perf_event_attr a;
	struct sonde_profile *p;
	char path[400];
	uint64_t id = 100;

	(void)state;
	errno = 0;
	assert_null(sonde_profile__new(&po)); /* a key without its name */
	assert_int_equal(errno, EINVAL);
	po.fields = good;
	po.nr_fields = 1;
	po.nr_keys = 0;
	po.keys = NULL;
	assert_null(sonde_profile__new(&po)); /* a name without its key */
	/* Without a reader a name that matches nothing makes no column. */
	p = profile(one, 1, bad, 1);
	assert_int_equal(sonde_profile__nr_fields(p), 0);
	assert_int_equal(sonde_profile__nr_entries(p, 0), 1);
	sonde_profile__free(p);

	/* With one, setting it refuses the name: a file of test:tf. */
	snprintf(path, sizeof(path), "%s/t.data", dir);
	w = sonde_perfdata_writer__new(path, NULL);
	assert_non_null(w);
	tp_attr(&a);
	assert_int_equal(sonde_perfdata_writer__add_event(w, &a, "test:tf"), 0);
	assert_int_equal(sonde_perfdata_writer__add_ids(w, 0, &id, 1), 0);
	assert_int_equal(sonde_perfdata_writer__begin(w), 0);
	assert_int_equal(sonde_perfdata_writer__finish(w), 0);
	for (int i = 0; i < 2; i++) {
		r = sonde_perfdata_reader__open(path, NULL);
		assert_non_null(r);
		po.keys = one;
		po.nr_keys = 1;
		po.fields = i ? bad : good;
		p = sonde_profile__new(&po);
		assert_non_null(p);
		assert_int_equal(sonde_profile__set_reader(p, r), i ? -ENOENT : 0);
		assert_int_equal(sonde_profile__nr_fields(p), i ? 0 : 1);
		sonde_profile__free(p);
		sonde_perfdata_reader__free(r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_field_and_raw, setup, teardown),
		cmocka_unit_test_setup_teardown(test_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_trace_fields, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused, setup, teardown),
	};

	sonde_set_print(NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
