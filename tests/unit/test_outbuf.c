// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The output buffer's formatting (script prints a time, an address and a
 * period per sample through it, report a padded cell per column): the
 * same text as printf for every digit count, padding and the extremes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "outbuf.h"

/* 0, then each power of ten and of sixteen, one less and one more, and the top. */
static size_t values(uint64_t *v)
{
	size_t n = 0;

	v[n++] = 0;
	for (uint64_t p = 1; p <= UINT64_MAX / 10; p *= 10) {
		v[n++] = p - 1;
		v[n++] = p;
		v[n++] = p + 1;
		v[n++] = p * 7 + 3;
	}
	for (int sh = 0; sh < 64; sh += 4) {
		v[n++] = ((uint64_t)1 << sh) - 1;
		v[n++] = (uint64_t)1 << sh;
		v[n++] = ((uint64_t)0xab << sh) | 0x5;
	}
	v[n++] = UINT64_MAX;
	v[n++] = UINT64_MAX - 1;
	v[n++] = 0x00007f54b666d92bULL;
	return n;
}

/* What @o holds since @from, as a string. */
static const char *since(struct outbuf *o, size_t from)
{
	static char s[128];
	size_t n = o->len - from;

	assert_true(n < sizeof(s));
	memcpy(s, o->buf + from, n);
	s[n] = 0;
	return s;
}

static void test_decimal(void **state)
{
	uint64_t v[256];
	size_t n = values(v);
	struct outbuf o;
	char want[64];

	(void)state;
	ob_init_mem(&o);
	for (size_t i = 0; i < n; i++) {
		size_t at = o.len;

		ob_dec(&o, v[i]);
		snprintf(want, sizeof(want), "%" PRIu64, v[i]);
		assert_string_equal(since(&o, at), want);
		for (int w = 0; w <= 22; w += 3) {
			at = o.len;
			ob_dec_zpad(&o, v[i], w);
			snprintf(want, sizeof(want), "%0*" PRIu64, w, v[i]);
			assert_string_equal(since(&o, at), want);
			if (v[i] > INT64_MAX)
				continue;
			at = o.len;
			ob_dec_pad(&o, -(int64_t)v[i], w, true);
			snprintf(want, sizeof(want), "%*" PRId64, w, -(int64_t)v[i]);
			assert_string_equal(since(&o, at), want);
			at = o.len;
			ob_dec_pad(&o, (int64_t)v[i], w, false);
			snprintf(want, sizeof(want), "%-*" PRId64, w, (int64_t)v[i]);
			assert_string_equal(since(&o, at), want);
		}
	}
	ob_free(&o);
}

static void test_hex(void **state)
{
	uint64_t v[256];
	size_t n = values(v);
	struct outbuf o;
	char want[64];

	(void)state;
	ob_init_mem(&o);
	for (size_t i = 0; i < n; i++)
		for (int w = 0; w <= 20; w += 4) {
			size_t at = o.len;

			ob_hex(&o, v[i], w);
			snprintf(want, sizeof(want), "%*" PRIx64, w, v[i]);
			assert_string_equal(since(&o, at), want);
		}
	ob_free(&o);
}

static void test_pad_str(void **state)
{
	static const char *const strs[] = { "", "x", "liblzma.so.5.4.1", "[kernel.kallsyms]" };
	struct outbuf o;
	char want[64];

	(void)state;
	ob_init_mem(&o);
	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		for (int w = 0; w <= 24; w++) {
			size_t at = o.len;

			ob_pad_str(&o, strs[i], w, false);
			snprintf(want, sizeof(want), "%-*s", w, strs[i]);
			assert_string_equal(since(&o, at), want);
			at = o.len;
			ob_pad_str(&o, strs[i], w, true);
			snprintf(want, sizeof(want), "%*s", w, strs[i]);
			assert_string_equal(since(&o, at), want);
		}
	ob_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decimal),
		cmocka_unit_test(test_hex),
		cmocka_unit_test(test_pad_str),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
