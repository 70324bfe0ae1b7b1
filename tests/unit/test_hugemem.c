// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Big tables on huge pages: zeroed, aligned, advised; the arena over them.
 * Static-only: hugemem_*() and hugearena_*() (core_priv.h) are internal
 * allocators.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core_priv.h"

#define MB ((size_t)1 << 20)

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

static bool all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* The VmFlags line of the mapping holding @p in /proc/self/smaps, or "". */
static void vm_flags(const void *p, char *out, size_t cap)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	bool in = false;

	out[0] = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2)
			in = (uintptr_t)p >= lo && (uintptr_t)p < hi;
		else if (in && !strncmp(line, "VmFlags:", 8)) {
			snprintf(out, cap, "%s", line + 8);
			break;
		}
	}
	fclose(f);
}

static void test_small_block(void **state)
{
	unsigned char *p = hugemem_alloc(1000);

	(void)state;
	assert_non_null(p);
	assert_true(all_zero(p, 1000));
	memset(p, 0xab, 1000);
	hugemem_free(p, 1000);
	hugemem_free(NULL, 5 * MB); /* nothing to free */
}

static void test_big_block(void **state)
{
	size_t n = 3 * MB + 123;
	unsigned char *p = hugemem_alloc(n);
	char flags[512];

	(void)state;
	assert_non_null(p);
	assert_true(all_zero(p, n));
	memset(p, 0x5a, n); /* every byte asked for is there */
	assert_int_equal(p[n - 1], 0x5a);
	if (!SANITIZED) {
		/* whole huge pages at a huge page boundary, advised */
		assert_int_equal((uintptr_t)p % (2 * MB), 0);
		vm_flags(p, flags, sizeof(flags));
		if (access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK) == 0)
			assert_non_null(strstr(flags, " hg"));
	}
	hugemem_free(p, n);
}

static void test_arena(void **state)
{
	struct hugearena a = { 0 }; /* a zeroed struct is an empty arena */
	unsigned char *v[200];
	size_t sz[200];

	(void)state;
	for (int i = 0; i < 200; i++) {
		sz[i] = (size_t)(i * 7919 % 60000) + 1;
		v[i] = hugearena_alloc(&a, sz[i]);
		assert_non_null(v[i]);
		assert_int_equal((uintptr_t)v[i] % 16, 0);
		assert_true(all_zero(v[i], sz[i]));
		memset(v[i], i + 1, sz[i]);
	}
	/* no two allocations overlap: each still holds its own byte */
	for (int i = 0; i < 200; i++) {
		assert_int_equal(v[i][0], (unsigned char)(i + 1));
		assert_int_equal(v[i][sz[i] - 1], (unsigned char)(i + 1));
	}
	/* bigger than any block made so far: a block of its own size */
	v[0] = hugearena_alloc(&a, 70 * MB);
	assert_non_null(v[0]);
	v[0][70 * MB - 1] = 1;
	/* reset keeps the newest block and hands it out again */
	hugearena_reset(&a);
	v[1] = hugearena_alloc(&a, 64);
	assert_ptr_equal(v[1], v[0]);
	hugearena_free(&a);
	assert_null(a.chunk);
	v[2] = hugearena_alloc(&a, 10);
	assert_non_null(v[2]);
	hugearena_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_block),
		cmocka_unit_test(test_big_block),
		cmocka_unit_test(test_arena),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
