// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The output buffer's number printers (src/cli/outbuf.c, build/sonde-cli.a)
 * against printf's: every digit count and both ends of the ranges, padded
 * and not, in a buffer that starts nearly full so a number also crosses a
 * growth. script prints its times with ob_dec_zpad, report its counts with
 * ob_dec and ob_dec_pad: one wrong digit would change their output.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "outbuf.h"

/* The values: 0, each power of ten and its neighbours, the extremes. */
static size_t sample_values(uint64_t *v)
{
	size_t n = 0;
	uint64_t p = 1;

	v[n++] = 0;
	for (int i = 0; i < 20; i++) {
		v[n++] = p - 1;
		v[n++] = p;
		v[n++] = p + 1;
		v[n++] = p * 7 + 3;
		if (i < 19)
			p *= 10;
	}
	v[n++] = UINT64_MAX;
	v[n++] = UINT64_MAX - 1;
	v[n++] = (uint64_t)INT64_MAX;
	v[n++] = (uint64_t)INT64_MAX + 1;
	return n;
}

/* @o's text after the 250 filler bytes, as a string. */
static const char *printed(struct outbuf *o)
{
	static char text[512];

	assert_true(o->len >= 250 && o->len - 250 < sizeof(text));
	memcpy(text, o->buf + 250, o->len - 250);
	text[o->len - 250] = 0;
	return text;
}

/* A memory buffer of 256 bytes with 250 used: the number must grow it. */
static void start(struct outbuf *o)
{
	ob_init_mem(o);
	ob_reserve(o, 250);
	memset(o->buf, 'x', 250);
	o->len = 250;
}

static void test_dec(void **state)
{
	uint64_t v[128];
	size_t n = sample_values(v);
	char want[64];

	(void)state;
	for (size_t i = 0; i < n; i++) {
		struct outbuf o;

		start(&o);
		ob_dec(&o, v[i]);
		snprintf(want, sizeof(want), "%" PRIu64, v[i]);
		assert_string_equal(printed(&o), want);
		ob_free(&o);
	}
}

static void test_dec_zpad(void **state)
{
	static const int widths[] = { 0, 1, 3, 6, 9, 20, 21, 47, 48, 49, 60 };
	uint64_t v[128];
	size_t n = sample_values(v);
	char want[128];

	(void)state;
	for (size_t i = 0; i < n; i++)
		for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++) {
			struct outbuf o;

			start(&o);
			ob_dec_zpad(&o, v[i], widths[w]);
			snprintf(want, sizeof(want), "%0*" PRIu64, widths[w], v[i]);
			assert_string_equal(printed(&o), want);
			ob_free(&o);
		}
}

static void test_dec_pad(void **state)
{
	static const int widths[] = { 0, 1, 2, 5, 19, 20, 21, 30 };
	uint64_t v[128];
	size_t n = sample_values(v);
	char want[128];

	(void)state;
	for (size_t i = 0; i < n; i++)
		for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++)
			for (int neg = 0; neg < 2; neg++)
				for (int right = 0; right < 2; right++) {
					int64_t x = (int64_t)(v[i] & (uint64_t)INT64_MAX);
					struct outbuf o;

					if (neg)
						x = v[i] == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -x;
					start(&o);
					ob_dec_pad(&o, x, widths[w], right);
					snprintf(want, sizeof(want), right ? "%*" PRId64 : "%-*" PRId64,
						 widths[w], x);
					assert_string_equal(printed(&o), want);
					ob_free(&o);
				}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dec),
		cmocka_unit_test(test_dec_zpad),
		cmocka_unit_test(test_dec_pad),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
