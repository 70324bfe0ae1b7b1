// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The exporters' private number formatting (export_priv.h), beside
 * test_export.c, which runs the formats through the public API on both
 * libraries.
 * Static-only: export_fmt_ms_frac() is internal to the export layer; the
 * public exports reach it only for the fractions a profile happens to hold.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "export_priv.h"

/* Every fraction of a millisecond against printf's digits, trailing zeros cut. */
static void test_fmt_ms_frac(void **state)
{
	char got[16], want[16];

	(void)state;
	assert_ptr_equal(export_fmt_ms_frac(got, 0), got);
	for (uint32_t f = 1; f < 1000000; f++) {
		char *end = export_fmt_ms_frac(got, f);
		size_t n = (size_t)snprintf(want, sizeof(want), ".%06u", f);

		while (want[n - 1] == '0')
			n--;
		if ((size_t)(end - got) != n || memcmp(got, want, n))
			fail_msg("%u: \"%.*s\", not \"%.*s\"", f, (int)(end - got), got, (int)n, want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fmt_ms_frac),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
