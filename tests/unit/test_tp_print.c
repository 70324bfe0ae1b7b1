// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The tracepoint print fmt evaluator (sonde_tp_print__*, the library's
 * public API that sonde script uses) on synthetic format files: operator precedence, casts, printf length modifiers,
 * __print_flags/__print_symbolic with perf's rules, strings, arrays,
 * kernel symbols, and the refusals (bad data, unknown helpers).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/sonde.h"

/* Fields: a (u32 @8), b (s64 @16), c (char[8] @24), s (__data_loc @32),
 * arr (u64[2] @40); 56 bytes of raw data. */
static const char *const fields =
	"name: t\nID: 7\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:unsigned int a;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:long b;\toffset:16;\tsize:8;\tsigned:1;\n"
	"\tfield:char c[8];\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:__data_loc char[] s;\toffset:32;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned long arr[2];\toffset:40;\tsize:16;\tsigned:0;\n\n"
	"print fmt: ";

static uint8_t raw[64];

static void set_raw(uint32_t a, int64_t b, const char *c, const char *s)
{
	uint32_t loc = (uint32_t)(strlen(s) + 1) << 16 | 56;
	uint64_t arr[2] = { 0x10, 0xffffffffffffffffULL };

	memset(raw, 0, sizeof(raw));
	memcpy(raw + 8, &a, 4);
	memcpy(raw + 16, &b, 8);
	strncpy((char *)raw + 24, c, 8);
	memcpy(raw + 32, &loc, 4);
	memcpy(raw + 40, arr, 16);
	memcpy(raw + 56, s, strlen(s) + 1);
}

static const char *sym(void *ctx, uint64_t addr, uint64_t *off)
{
	(void)ctx;
	if (addr < 0x1000 || addr >= 0x2000)
		return NULL;
	*off = addr - 0x1000;
	return "kfunc";
}

/* Renders @pf (the part after "print fmt: ") on raw; NULL if refused. */
static char *render(const char *pf, uint32_t size)
{
	static char out[512];
	char text[2048], small[4];
	struct sonde_tp_format *fmt;
	struct sonde_tp_print *p;
	int n;
	SONDE_OPTS(sonde_tp_print_opts, po, .sym = sym);

	snprintf(text, sizeof(text), "%s%s\n", fields, pf);
	fmt = sonde_tp_format__parse(text, strlen(text), NULL);
	assert_non_null(fmt);
	p = sonde_tp_print__new(fmt, &po);
	if (!p) {
		assert_int_equal(errno, SONDE_ERR_UNSUPPORTED);
		sonde_tp_format__free(fmt);
		return NULL;
	}
	memset(out, 'x', sizeof(out));
	n = sonde_tp_print__format(p, raw, size, out, sizeof(out));
	if (n >= 0) {
		/* snprintf's contract: the same length, truncated with a NUL */
		assert_int_equal(n, (int)strlen(out));
		assert_int_equal(sonde_tp_print__format(p, raw, size, small,
							sizeof(small)), n);
		assert_int_equal(strlen(small), n < 3 ? n : 3);
		assert_memory_equal(small, out, strlen(small));
		assert_int_equal(sonde_tp_print__format(p, raw, size, NULL, 0), n);
	}
	sonde_tp_print__free(p);
	sonde_tp_format__free(fmt);
	if (n < 0) {
		assert_int_equal(n, -SONDE_ERR_FORMAT);
		assert_string_equal(out, ""); /* nothing written on failure */
		return NULL;
	}
	return out;
}

static void test_basic(void **state)
{
	(void)state;
	set_raw(5, -3, "abc", "hello");
	assert_string_equal(render("\"a=%u b=%ld c=%s s=%s 100%%\", REC->a, "
				   "REC->b, REC->c, __get_str(s)", 64),
			    "a=5 b=-3 c=abc s=hello 100%");
	assert_string_equal(render("\"%03d|%-4s|%x|%c\", REC->a, REC->c, "
				   "REC->a * 3, REC->a + 60", 64),
			    "005|abc |f|A");
	/* C precedence: * before +, shifts before &, && and ?: last. */
	assert_string_equal(render("\"%d %d %d %s\", REC->a + 2 * 3, "
				   "1 << 4 & 0x30, (REC->a - 1) / 2 % 3, "
				   "REC->a > 4 && REC->b < 0 ? \"yes\" : \"no\"", 64),
			    "11 16 2 yes");
	assert_string_equal(render("\"%lu %lu\", REC->arr[0], REC->arr[1]", 64),
			    "16 18446744073709551615");
}

static void test_widths(void **state)
{
	(void)state;
	set_raw(0xffffffff, -1, "", "");
	/* %d takes an int: a u32 of all ones is -1, %u keeps 4294967295. */
	assert_string_equal(render("\"%d %u %ld %lld %Lu\", REC->a, REC->a, "
				   "REC->b, REC->b, (unsigned long long)REC->b", 64),
			    "-1 4294967295 -1 -1 18446744073709551615");
	/* Casts narrow and sign-extend as C does. */
	assert_string_equal(render("\"%ld %ld %lu\", (char)REC->a, "
				   "(unsigned short)REC->b, (unsigned int)REC->b", 64),
			    "-1 65535 4294967295");
	assert_string_equal(render("\"%p %p\", REC->b, REC->a - REC->a", 64),
			    "0xffffffffffffffff (nil)");
}

static void test_flags(void **state)
{
	const char *f = "\"%s\", __print_flags(REC->a, \"|\", { 0x1, \"A\" }, "
			"{ 0x2, \"B\" }, { 0x8, \"D\" })";
	const char *sym_fmt = "\"%s\", __print_symbolic(REC->a, { 0, \"zero\" }, "
			      "{ 2, \"two\" }, { 0, ((void *)0) })";

	(void)state;
	set_raw(0x3, 0, "", "");
	assert_string_equal(render(f, 64), "A|B");
	set_raw(0x19, 0, "", "");
	assert_string_equal(render(f, 64), "A|D|0x10");
	set_raw(0, 0, "", "");
	assert_string_equal(render(f, 64), "");
	assert_string_equal(render(sym_fmt, 64), "zero");
	set_raw(2, 0, "", "");
	assert_string_equal(render(sym_fmt, 64), "two");
	set_raw(5, 0, "", "");
	assert_string_equal(render(sym_fmt, 64), "0x5");
	/* Names the kernel did not resolve: -1, matching only a zero flags. */
	set_raw(0, 0, "", "");
	assert_string_equal(render("\"%s\", __print_flags(REC->a, \"|\", "
				   "{ I_DIRTY, \"I_DIRTY\" }, { I_NEW, \"I_NEW\" })", 64),
			    "I_DIRTY");
	assert_string_equal(render("\"%s\", __print_symbolic(REC->a, "
				   "{ HRTIMER_NORESTART, \"no\" })", 64), "no");
	/* sched_switch's prev_state, as the kernel writes it. */
	set_raw(0x101, 0, "", "");
	assert_string_equal(render(
		"\"%s%s\", (REC->a & ((((0x00000000 | 0x00000001 | 0x00000002) + 1) << 1) - 1)) ? "
		"__print_flags(REC->a & ((((0x00000000 | 0x00000001 | 0x00000002) + 1) << 1) - 1), "
		"\"|\", { 0x00000001, \"S\" }, { 0x00000002, \"D\" }) : \"R\", "
		"REC->a & (((0x00000000 | 0x00000001 | 0x00000002) + 1) << 1) ? \"+\" : \"\"", 64),
		"S");
	set_raw(0x8, 0, "", "");
	assert_string_equal(render(
		"\"%s%s\", (REC->a & 7) ? __print_flags(REC->a & 7, \"|\", "
		"{ 1, \"S\" }) : \"R\", REC->a & 8 ? \"+\" : \"\"", 64), "R+");
}

static void test_symbols(void **state)
{
	(void)state;
	set_raw(0, 0x1045, "", "");
	assert_string_equal(render("\"%pS %ps\", (void *)REC->b, REC->b", 64),
			    "kfunc+0x45 kfunc");
	set_raw(0, 0x3000, "", "");
	assert_string_equal(render("\"%pS\", REC->b", 64), "0x3000");
}

static void test_refusals(void **state)
{
	(void)state;
	set_raw(1, 0, "", "x");
	/* Helpers and pointer kinds it does not know: not compiled. */
	assert_null(render("\"%s\", __print_hex(REC->c, 8)", 64));
	assert_null(render("\"%pM\", REC->c", 64));
	assert_null(render("\"%d\", ENUM_NAME", 64));
	assert_null(render("\"%d %d\", REC->a", 64));
	assert_null(render("\"%d\", REC->nosuchfield", 64));
	assert_null(render("\"%d\", (REC->a", 64));
	/* Data it cannot evaluate: nothing written. */
	assert_null(render("\"%d\", REC->b / (REC->a - 1)", 64));
	assert_null(render("\"%d\", REC->c", 64));
	assert_null(render("\"%s\", REC->a", 64));
	assert_null(render("\"%lu\", REC->arr[2]", 64));
	assert_null(render("\"%ld\", REC->b", 20));
	assert_null(render("\"%s\", __get_str(s)", 57));
}

static void test_deep(void **state)
{
	char pf[600];
	size_t n = 0;

	(void)state;
	/* Nesting is bounded: 200 parentheses are refused, not a crash. */
	n += (size_t)snprintf(pf + n, sizeof(pf) - n, "\"%%d\", ");
	for (int i = 0; i < 200; i++)
		pf[n++] = '(';
	pf[n++] = '1';
	for (int i = 0; i < 200; i++)
		pf[n++] = ')';
	pf[n] = 0;
	assert_null(render(pf, 64));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_basic),
		cmocka_unit_test(test_widths),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_symbols),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_deep),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
