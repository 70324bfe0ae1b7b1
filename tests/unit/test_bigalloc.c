// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Big arrays in their own mappings: growth keeps contents, new bytes are
 * zero, huge alignment.
 * Static-only: bigalloc_*() (core_priv.h) is the library's own allocator for
 * big arrays; no public call hands one out.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core_priv.h"

#define MB ((size_t)1 << 20)

/* Is every byte of [@from, @to) of @b zero? */
static bool zero_from(const struct bigalloc *b, size_t from, size_t to)
{
	const unsigned char *c = b->p;

	for (size_t i = from; i < to; i++)
		if (c[i])
			return false;
	return true;
}

static void test_empty_and_small(void **state)
{
	struct bigalloc b = { 0 };

	(void)state;
	assert_int_equal(bigalloc_reserve(&b, 0), 0);
	assert_null(b.p);
	assert_int_equal(bigalloc_reserve(&b, 100), 0);
	assert_non_null(b.p);
	assert_true(b.size >= 100);
	assert_true(zero_from(&b, 0, b.size));
	bigalloc_free(&b);
	assert_null(b.p);
	assert_int_equal(b.size, 0);
	bigalloc_free(&b); /* twice is harmless */
}

/* Grown from a few pages through the 2 MB step to many MB: each value stays. */
static void test_growth_keeps_contents(void **state)
{
	struct bigalloc b = { 0 };
	size_t n = 0;

	(void)state;
	for (size_t want = 1000; want <= 3 * 1000 * 1000; want = want * 3 + 7) {
		uint32_t *v;
		size_t old = b.size;

		assert_int_equal(bigalloc_reserve(&b, want * sizeof(uint32_t)), 0);
		assert_true(b.size >= want * sizeof(uint32_t));
		assert_true(old == 0 || b.size == old || b.size >= 2 * old);
		assert_true(zero_from(&b, n * sizeof(uint32_t), b.size));
		v = b.p;
		for (size_t i = 0; i < n; i++)
			if (v[i] != (uint32_t)(i * 2654435761u))
				fail_msg("entry %zu lost when growing to %zu bytes", i, b.size);
		for (; n < want; n++)
			v[n] = (uint32_t)(n * 2654435761u);
		if (b.size >= 2 * MB) /* huge-page sized: aligned for THP */
			assert_int_equal((uintptr_t)b.p % (2 * MB), 0);
	}
	assert_true(b.size >= 8 * MB);
	bigalloc_free(&b);
}

static void test_reserve_within_keeps_block(void **state)
{
	struct bigalloc b = { 0 };
	void *p;
	size_t size;

	(void)state;
	assert_int_equal(bigalloc_reserve(&b, 3 * MB), 0);
	p = b.p;
	size = b.size;
	assert_int_equal(bigalloc_reserve(&b, size), 0);
	assert_ptr_equal(b.p, p);
	assert_int_equal(b.size, size);
	assert_int_equal(bigalloc_reserve(&b, SIZE_MAX), -ENOMEM);
	assert_ptr_equal(b.p, p); /* unchanged on failure */
	bigalloc_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_and_small),
		cmocka_unit_test(test_growth_keeps_contents),
		cmocka_unit_test(test_reserve_within_keeps_block),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
