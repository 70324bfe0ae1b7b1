// SPDX-License-Identifier: LGPL-2.1-only
/* tracefs: ids, enumeration and the format-file parser (fake tree). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdint.h>
#include "sonde/sonde.h"
#include "fake_tree.h"

static int setup(void **state)
{
	fake_tree_build();
	sonde_set_print(NULL);
	return 0;
}

static int teardown(void **state)
{
	fake_tree_remove();
	return 0;
}

static void test_format_parse(void **state)
{
	struct sonde_tp_format *f;
	const struct sonde_tp_field *fl;

	f = sonde_tp_format__parse(fake_switch_format, strlen(fake_switch_format),
				   NULL);
	assert_non_null(f);
	assert_string_equal(sonde_tp_format__name(f), "sched_switch");
	assert_int_equal(sonde_tp_format__id(f), 372);
	assert_int_equal(sonde_tp_format__field_count(f), 7);
	fl = sonde_tp_format__field(f, 0);
	assert_string_equal(fl->name, "common_type");
	assert_string_equal(fl->type, "unsigned short");
	assert_true(fl->is_common);
	assert_int_equal(fl->size, 2);
	fl = sonde_tp_format__find_field(f, "prev_comm");
	assert_non_null(fl);
	assert_false(fl->is_common);
	assert_string_equal(fl->type, "char[16]");
	assert_int_equal(fl->array_len, 16);
	assert_int_equal(fl->offset, 8);
	assert_int_equal(fl->size, 16);
	fl = sonde_tp_format__find_field(f, "prev_pid");
	assert_true(fl->is_signed);
	assert_int_equal(fl->offset, 24);
	fl = sonde_tp_format__find_field(f, "name");
	assert_true(fl->is_dynamic);
	assert_false(fl->is_relative);
	assert_string_equal(fl->type, "__data_loc char[]");
	assert_int_equal(fl->array_len, 0);
	assert_null(sonde_tp_format__find_field(f, "nope"));
	assert_null(sonde_tp_format__field(f, 7));
	assert_string_equal(sonde_tp_format__print_fmt(f),
			    "\"prev_comm=%s prev_pid=%d\", REC->prev_comm, REC->prev_pid");
	sonde_tp_format__free(f);
	sonde_tp_format__free(NULL);
}

static void test_format_old_kernel(void **state)
{
	/* Before 2.6.35 there was no signed: key. */
	static const char old[] =
		"name: foo\nID: 7\nformat:\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\n\n"
		"\tfield special:u64 x;\toffset:8;\tsize:8;\n";
	struct sonde_tp_format *f = sonde_tp_format__parse(old, strlen(old), NULL);

	assert_non_null(f);
	assert_int_equal(sonde_tp_format__field_count(f), 2);
	assert_false(sonde_tp_format__field(f, 0)->is_signed);
	assert_string_equal(sonde_tp_format__field(f, 1)->name, "x");
	assert_null(sonde_tp_format__print_fmt(f));
	sonde_tp_format__free(f);
}

static void test_format_rejects(void **state)
{
	static const struct { const char *text; size_t off; } bad[] = {
		{ "name: x\nformat:\n\tfield:int a;\toffset:x;\tsize:4;\n", 17 },
		{ "name: x\nformat:\n\tfield:int a\toffset:0;\tsize:4;\n", 17 },
		{ "name: x\nformat:\n\tfield:int;\toffset:0;\tsize:4;\n", 17 },
		{ "name: x\ngarbage here\n", 8 },
		{ "name: x\n\tfield:int a;\toffset:0;\tsize:4;\n", 9 },
		{ "ID: 5\n", 6 },
		{ "name: x\nID: zz\n", 8 },
		{ "name: x\nformat:\n\tfield:int a;\toffset:99999999999;\tsize:4;\n", 17 },
	};
	size_t off;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		assert_null(sonde_tp_format__parse(bad[i].text, strlen(bad[i].text),
						   &off));
		assert_int_equal(errno, SONDE_ERR_PARSE);
		assert_int_equal(off, bad[i].off);
	}
	/* Truncated in the middle of a field line. */
	assert_null(sonde_tp_format__parse(fake_switch_format, 60, &off));
}

static void test_ids_and_walk(void **state)
{
	assert_int_equal(sonde_tracepoint__id(fake_tracefs, "sched", "sched_switch"), 372);
	assert_int_equal(sonde_tracepoint__id(fake_tracefs, "sched", "nope"), -ENOENT);
	assert_int_equal(sonde_tracepoint__id(fake_tracefs, "irq", "bad_id"),
			 -SONDE_ERR_FORMAT);
	assert_int_equal(sonde_tracepoint__id(fake_tracefs, "..", "x"), -EINVAL);
	assert_int_equal(sonde_tracepoint__id(fake_tracefs, "a/b", "x"), -EINVAL);

}

static int collect(const char *sys, const char *name, void *ctx)
{
	char *buf = ctx;

	strcat(buf, sys);
	strcat(buf, ":");
	strcat(buf, name);
	strcat(buf, " ");
	return 0;
}

static int stop_at_first(const char *sys, const char *name, void *ctx)
{
	(*(int *)ctx)++;
	return 42;
}

static void test_for_each(void **state)
{
	char buf[512] = "";
	int n = 0;

	assert_int_equal(sonde_tracefs__for_each(fake_tracefs, NULL, NULL, collect, buf), 0);
	assert_string_equal(buf, "irq:bad_id irq:irq_handler_entry sched:sched_swap_numa "
			    "sched:sched_switch sched:sched_wakeup ");
	buf[0] = '\0';
	assert_int_equal(sonde_tracefs__for_each(fake_tracefs, "sch*", "sched_sw*",
						 collect, buf), 0);
	assert_string_equal(buf, "sched:sched_swap_numa sched:sched_switch ");
	assert_int_equal(sonde_tracefs__for_each(fake_tracefs, NULL, NULL,
						 stop_at_first, &n), 42);
	assert_int_equal(n, 1);
	assert_true(sonde_tracefs__for_each("/nonexistent/x", NULL, NULL, collect, buf) < 0);
}

static void test_load_format(void **state)
{
	struct sonde_tp_format *f = sonde_tp_format__load(fake_tracefs, "sched",
							  "sched_switch");

	assert_non_null(f);
	assert_int_equal(sonde_tp_format__id(f), 372);
	sonde_tp_format__free(f);
	assert_null(sonde_tp_format__load(fake_tracefs, "sched", "sched_wakeup"));
	assert_int_equal(errno, ENOENT);
}

static void test_real_tracefs(void **state)
{
	char root[4096];
	struct sonde_tp_format *f;

	if (sonde_tracefs__root(root, sizeof(root), false)) {
		printf("SKIP: tracefs is not mounted here\n");
		skip();
	}
	f = sonde_tp_format__load(root, "sched", "sched_switch");
	if (!f) {
		printf("SKIP: no sched:sched_switch format readable (%d)\n", errno);
		skip();
	}
	assert_int_equal(sonde_tp_format__id(f),
			 sonde_tracepoint__id(root, "sched", "sched_switch"));
	assert_non_null(sonde_tp_format__find_field(f, "next_pid"));
	assert_true(sonde_tp_format__find_field(f, "common_pid")->is_common);
	sonde_tp_format__free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_parse),
		cmocka_unit_test(test_format_old_kernel),
		cmocka_unit_test(test_format_rejects),
		cmocka_unit_test(test_ids_and_walk),
		cmocka_unit_test(test_for_each),
		cmocka_unit_test(test_load_format),
		cmocka_unit_test(test_real_tracefs),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
