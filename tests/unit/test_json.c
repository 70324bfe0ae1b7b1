// SPDX-License-Identifier: LGPL-2.1-only
/* The streaming JSON writer: commas, nesting, escaping, numbers, asserts. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "json.h"

struct buf {
	char *data;
	size_t len;
	FILE *f;
	struct json_writer *w;
};

static void buf_open(struct buf *b)
{
	memset(b, 0, sizeof(*b));
	b->f = open_memstream(&b->data, &b->len);
	assert_non_null(b->f);
	b->w = json_new(b->f);
	assert_non_null(b->w);
}

/* Destroys the writer and returns what it wrote (caller frees). */
static char *buf_close(struct buf *b)
{
	json_destroy(&b->w);
	assert_null(b->w);
	fclose(b->f);
	return b->data;
}

static void test_compact_nesting_and_commas(void **state)
{
	struct buf b;
	char *s;

	buf_open(&b);
	json_begin_object(b.w);
	json_string_field(b.w, "event", "task-clock");
	json_uint_field(b.w, "counter-value", 18446744073709551615ULL);
	json_int_field(b.w, "neg", -42);
	json_bool_field(b.w, "t", true);
	json_bool_field(b.w, "f", false);
	json_null_field(b.w, "n");
	json_array_field(b.w, "a");
	json_int(b.w, 1);
	json_begin_object(b.w);
	json_end_object(b.w);
	json_begin_array(b.w);
	json_end_array(b.w);
	json_string(b.w, NULL);
	json_end_array(b.w);
	json_object_field(b.w, "o");
	json_double_field(b.w, "d", 0.5);
	json_end_object(b.w);
	assert_int_equal(json_depth(b.w), 1);
	json_end_object(b.w);
	assert_int_equal(json_depth(b.w), 0);
	s = buf_close(&b);
	assert_string_equal(s,
		"{\"event\":\"task-clock\","
		"\"counter-value\":18446744073709551615,\"neg\":-42,"
		"\"t\":true,\"f\":false,\"n\":null,"
		"\"a\":[1,{},[],null],\"o\":{\"d\":0.5}}\n");
	free(s);
}

/* Several top-level values: one per line (JSON Lines). */
static void test_top_level_lines(void **state)
{
	struct buf b;
	char *s;

	buf_open(&b);
	for (int i = 0; i < 3; i++) {
		json_begin_object(b.w);
		json_int_field(b.w, "i", i);
		json_end_object(b.w);
	}
	json_int(b.w, 7);
	s = buf_close(&b);
	assert_string_equal(s, "{\"i\":0}\n{\"i\":1}\n{\"i\":2}\n7\n");
	free(s);
}

static void test_pretty(void **state)
{
	struct buf b;
	char *s;

	buf_open(&b);
	json_pretty(b.w, 2);
	json_begin_object(b.w);
	json_string_field(b.w, "k", "v");
	json_array_field(b.w, "a");
	json_int(b.w, 1);
	json_int(b.w, 2);
	json_end_array(b.w);
	json_array_field(b.w, "e");
	json_end_array(b.w);
	json_end_object(b.w);
	s = buf_close(&b);
	assert_string_equal(s, "{\n  \"k\": \"v\",\n  \"a\": [\n    1,\n    2\n"
			       "  ],\n  \"e\": []\n}\n");
	free(s);
}

static void test_escaping(void **state)
{
	struct buf b;
	char *s;
	const char raw[] = "q\"b\\s/\n\t\r\x01\x1f\x7f \xc3\xa9 \xe2\x82\xac"
			   " \xf0\x9f\x98\x80 bad:\xff\xc3 over:\xc0\xaf"
			   " sur:\xed\xa0\x80";

	buf_open(&b);
	json_begin_array(b.w);
	json_string(b.w, raw);
	/* Embedded NUL through the length form. */
	json_string_len(b.w, "a\0b", 3);
	json_stringf(b.w, "%s=%d", "x", 5);
	json_end_array(b.w);
	json_begin_object(b.w);
	json_int_field(b.w, "na\"me\n", 1);
	json_end_object(b.w);
	s = buf_close(&b);
	assert_string_equal(s,
		"[\"q\\\"b\\\\s/\\u000a\\u0009\\u000d\\u0001\\u001f\\u007f "
		"\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 bad:\\ufffd\\ufffd "
		"over:\\ufffd\\ufffd sur:\\ufffd\\ufffd\\ufffd\","
		"\"a\\u0000b\",\"x=5\"]\n"
		"{\"na\\\"me\\u000a\":1}\n");
	free(s);
}

static void test_long_stringf(void **state)
{
	struct buf b;
	char *s, big[1000];

	memset(big, 'z', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	buf_open(&b);
	json_stringf(b.w, "<%s>", big);
	s = buf_close(&b);
	assert_int_equal(strlen(s), 1 + 1 + 999 + 1 + 1 + 1);
	assert_memory_equal(s, "\"<zzz", 5);
	free(s);
}

static void test_numbers(void **state)
{
	struct buf b;
	char *s;

	buf_open(&b);
	json_begin_array(b.w);
	json_double(b.w, 0.1);
	json_double(b.w, 1.0 / 3.0);
	json_double(b.w, 1e300);
	json_double(b.w, -2.5);
	json_double(b.w, NAN);
	json_double(b.w, INFINITY);
	json_double(b.w, -INFINITY);
	json_double_prec(b.w, 12.345678, 2);
	json_double_prec(b.w, -0.001, 2);
	json_double_prec(b.w, NAN, 2);
	json_double_prec(b.w, 3.0, 0);
	json_int(b.w, INT64_MIN);
	json_end_array(b.w);
	s = buf_close(&b);
	assert_string_equal(s, "[0.1,0.3333333333333333,1e+300,-2.5,"
			       "null,null,null,12.35,0.00,null,3,"
			       "-9223372036854775808]\n");
	/* The shortest form still reads back to the same double. */
	assert_true(strtod("0.3333333333333333", NULL) == 1.0 / 3.0);
	free(s);
}

/* Runs @fn in a child and reports whether it died of SIGABRT (an assert). */
static bool aborts(void (*fn)(struct json_writer *w))
{
	pid_t pid = fork();
	int status;

	assert_true(pid >= 0);
	if (pid == 0) {
		FILE *devnull = fopen("/dev/null", "w");
		struct json_writer *w = json_new(devnull);

		/* Keep the expected assertion message out of the test log. */
		if (!freopen("/dev/null", "w", stderr))
			_exit(3);
		fn(w);
		json_destroy(&w);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

static void unbalanced(struct json_writer *w) { json_begin_object(w); }
static void value_without_name(struct json_writer *w)
{
	json_begin_object(w);
	json_int(w, 1);
}
static void name_in_array(struct json_writer *w)
{
	json_begin_array(w);
	json_name(w, "x");
}
static void wrong_end(struct json_writer *w)
{
	json_begin_object(w);
	json_end_array(w);
}
static void end_at_top(struct json_writer *w) { json_end_object(w); }
static void dangling_name(struct json_writer *w)
{
	json_begin_object(w);
	json_name(w, "x");
	json_end_object(w);
}
static void balanced(struct json_writer *w)
{
	json_begin_object(w);
	json_end_object(w);
}

static void test_misuse_asserts(void **state)
{
	assert_true(aborts(unbalanced));
	assert_true(aborts(value_without_name));
	assert_true(aborts(name_in_array));
	assert_true(aborts(wrong_end));
	assert_true(aborts(end_at_top));
	assert_true(aborts(dangling_name));
	/* The control: correct use does not abort. */
	assert_false(aborts(balanced));
	json_destroy(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compact_nesting_and_commas),
		cmocka_unit_test(test_top_level_lines),
		cmocka_unit_test(test_pretty),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_long_stringf),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_misuse_asserts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
