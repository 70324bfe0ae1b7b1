// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The library's opts validation (OPTS_VALID, OPTS_GET), beside
 * test_common.c, which runs on both libraries.
 * Static-only: the macros live in core_priv.h; each public function
 * applies them to its own opts struct, this tests them on one of its own.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "sonde/sonde.h"
#include "core_priv.h"

struct demo_opts {
	size_t sz;
	int a;
	int b;
	size_t : 0;
};
#define demo_opts__last_field b

static void test_opts_validation(void **state)
{
	struct {
		struct demo_opts o;
		int newer_field;
	} big = { .o = { .sz = sizeof(big), .a = 1 } };
	SONDE_OPTS(demo_opts, o, .a = 5);
	struct demo_opts *none = NULL, *po = &o, *pbig = &big.o;

	assert_int_equal(o.sz, sizeof(struct demo_opts));
	assert_int_equal(o.a, 5);
	assert_true(OPTS_VALID(po, demo_opts));
	assert_true(OPTS_VALID(none, demo_opts));
	assert_int_equal(OPTS_GET(none, a, 42), 42);
	/* A newer caller that left its new field zero is fine... */
	assert_true(OPTS_VALID(pbig, demo_opts));
	/* ...but one that set it is refused. */
	big.newer_field = 3;
	sonde_set_print(NULL);
	assert_false(OPTS_VALID(pbig, demo_opts));
	/* sz smaller than the sz field itself is refused. */
	o.sz = 2;
	assert_false(OPTS_VALID(po, demo_opts));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_opts_validation),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
