// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The library's one hash table: insert, find, remove, growth, collisions.
 * Static-only: hashtab_*() (core_priv.h) is internal; the public tables
 * only use it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core_priv.h"

struct item {
	uint64_t key;
	int present; /* in the table, per the test's own bookkeeping */
};

static bool item_eq(const void *val, const void *key, void *ctx)
{
	(void)ctx;
	return ((const struct item *)val)->key == *(const uint64_t *)key;
}

static uint64_t good_hash(uint64_t k)
{
	return hashtab_mix(0, k);
}

static struct item *find(struct hashtab *t, uint64_t (*hash)(uint64_t), uint64_t k)
{
	return hashtab_find(t, hash(k), item_eq, &k, NULL);
}

static void test_empty(void **state)
{
	struct hashtab t;
	uint64_t k = 1;
	struct hashtab_probe p;
	size_t pos = 0;

	hashtab_init(&t);
	assert_int_equal(hashtab_count(&t), 0);
	assert_null(hashtab_find(&t, 5, item_eq, &k, NULL));
	assert_null(hashtab_remove(&t, 5, item_eq, &k, NULL));
	assert_null(hashtab_probe_first(&t, 5, &p));
	assert_null(hashtab_next(&t, &pos));
	hashtab_free(&t);
	hashtab_free(&t); /* a freed table is an empty one */
}

static void test_insert_find_remove(void **state)
{
	struct item a = { 10 }, b = { 20 }, c = { 30 };
	struct hashtab t;

	hashtab_init(&t);
	assert_int_equal(hashtab_insert(&t, good_hash(10), &a), 0);
	assert_int_equal(hashtab_insert(&t, good_hash(20), &b), 0);
	assert_int_equal(hashtab_count(&t), 2);
	assert_ptr_equal(find(&t, good_hash, 10), &a);
	assert_ptr_equal(find(&t, good_hash, 20), &b);
	assert_null(find(&t, good_hash, 30));
	assert_ptr_equal(hashtab_remove(&t, good_hash(10), item_eq, &a.key, NULL), &a);
	assert_null(find(&t, good_hash, 10));
	assert_null(hashtab_remove(&t, good_hash(10), item_eq, &a.key, NULL));
	assert_ptr_equal(find(&t, good_hash, 20), &b);
	assert_int_equal(hashtab_insert(&t, good_hash(30), &c), 0);
	assert_int_equal(hashtab_count(&t), 2);
	assert_ptr_equal(find(&t, good_hash, 30), &c);
	hashtab_free(&t);
}

/* Every hash the same: the table still finds each by equality. */
static uint64_t same_hash(uint64_t k)
{
	(void)k;
	return 42;
}

/* Hashes that differ only in high bits (addresses of one object). */
static uint64_t high_hash(uint64_t k)
{
	return k << 40;
}

static void check_many(uint64_t (*hash)(uint64_t), size_t n)
{
	struct item *items = calloc(n, sizeof(*items));
	struct hashtab t;
	size_t seen = 0, pos = 0;
	struct item *it;

	assert_non_null(items);
	hashtab_init(&t);
	for (size_t i = 0; i < n; i++) {
		items[i].key = i * 7 + 3;
		assert_int_equal(hashtab_insert(&t, hash(items[i].key), &items[i]), 0);
		items[i].present = 1;
	}
	assert_int_equal(hashtab_count(&t), n);
	/* Grown by load: at most 3/4 full, a power of two. */
	assert_true(t.mask + 1 >= n + n / 3);
	assert_int_equal((t.mask + 1) & t.mask, 0);
	for (size_t i = 0; i < n; i++)
		assert_ptr_equal(find(&t, hash, items[i].key), &items[i]);
	assert_null(find(&t, hash, 1)); /* 1 is no i * 7 + 3 */
	/* Remove every third; the others stay reachable past the holes. */
	for (size_t i = 0; i < n; i += 3) {
		assert_ptr_equal(hashtab_remove(&t, hash(items[i].key), item_eq, &items[i].key, NULL),
				 &items[i]);
		items[i].present = 0;
	}
	for (size_t i = 0; i < n; i++) {
		if (items[i].present)
			assert_ptr_equal(find(&t, hash, items[i].key), &items[i]);
		else
			assert_null(find(&t, hash, items[i].key));
	}
	/* Iteration visits each present entry exactly once. */
	while ((it = hashtab_next(&t, &pos))) {
		assert_int_equal(it->present, 1);
		it->present = 2;
		seen++;
	}
	assert_int_equal(seen, hashtab_count(&t));
	assert_int_equal(seen, n - (n + 2) / 3);
	hashtab_free(&t);
	free(items);
}

static void test_collisions(void **state)
{
	check_many(same_hash, 300);
}

static void test_high_bit_hashes(void **state)
{
	check_many(high_hash, 5000);
}

static void test_many_keys(void **state)
{
	check_many(good_hash, 200000);
}

/* The inline probe yields each entry stored under the hash, and only those. */
static void test_probe(void **state)
{
	struct item v[5] = { { 1 }, { 2 }, { 3 }, { 4 }, { 5 } };
	struct hashtab t;
	struct hashtab_probe p;
	int mask = 0;

	hashtab_init(&t);
	for (int i = 0; i < 5; i++)
		assert_int_equal(hashtab_insert(&t, i < 3 ? 7 : 8, &v[i]), 0);
	for (struct item *e = hashtab_probe_first(&t, 7, &p); e; e = hashtab_probe_next(&t, &p))
		mask |= 1 << (e->key - 1);
	assert_int_equal(mask, 7);
	mask = 0;
	for (struct item *e = hashtab_probe_first(&t, 8, &p); e; e = hashtab_probe_next(&t, &p))
		mask |= 1 << (e->key - 1);
	assert_int_equal(mask, 24);
	assert_null(hashtab_probe_first(&t, 9, &p));
	hashtab_free(&t);
}

/* Random inserts and removes against a plain array as the reference. */
static void test_random_against_reference(void **state)
{
	enum { N = 4096 };
	static struct item items[N];
	struct hashtab t;
	uint64_t rng = 0x1234567;

	hashtab_init(&t);
	for (int i = 0; i < N; i++)
		items[i] = (struct item){ .key = (uint64_t)i };
	for (int step = 0; step < 100000; step++) {
		struct item *it;

		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		it = &items[rng % N];
		/* Few hash values: long probe runs that removal must keep intact. */
		if (it->present) {
			assert_ptr_equal(hashtab_remove(&t, it->key % 61, item_eq, &it->key, NULL), it);
			it->present = 0;
		} else {
			assert_null(hashtab_find(&t, it->key % 61, item_eq, &it->key, NULL));
			assert_int_equal(hashtab_insert(&t, it->key % 61, it), 0);
			it->present = 1;
		}
		if (step % 9973 == 0)
			for (int i = 0; i < N; i++)
				assert_ptr_equal(hashtab_find(&t, items[i].key % 61, item_eq,
							      &items[i].key, NULL),
						 items[i].present ? &items[i] : NULL);
	}
	hashtab_free(&t);
}

static void test_reserve_and_bytes_hash(void **state)
{
	struct hashtab t;
	size_t slots;
	static struct item items[1000];

	hashtab_init(&t);
	assert_int_equal(hashtab_reserve(&t, 1000), 0);
	slots = t.mask + 1;
	for (int i = 0; i < 1000; i++) {
		items[i].key = (uint64_t)i;
		assert_int_equal(hashtab_insert(&t, good_hash((uint64_t)i), &items[i]), 0);
	}
	assert_int_equal(t.mask + 1, slots); /* reserved: no growth */
	hashtab_free(&t);
	assert_true(hashtab_bytes_hash("abc", 3) == hashtab_bytes_hash("abcd", 3));
	assert_true(hashtab_bytes_hash("abc", 3) != hashtab_bytes_hash("abd", 3));
	assert_true(hashtab_bytes_hash("", 0) != hashtab_bytes_hash("a", 1));
}

/* Cleared: nothing found, the slots kept, and it fills again. */
static void test_clear(void **state)
{
	struct hashtab t;
	size_t slots;
	static struct item items[100];
	struct hashtab_probe p;

	hashtab_init(&t);
	hashtab_clear(&t); /* empty, never allocated: a no-op */
	assert_null(t.slots);
	for (int i = 0; i < 100; i++) {
		items[i].key = (uint64_t)i;
		assert_int_equal(hashtab_insert(&t, good_hash((uint64_t)i), &items[i]), 0);
	}
	slots = t.mask + 1;
	hashtab_clear(&t);
	assert_int_equal(hashtab_count(&t), 0);
	assert_int_equal(t.mask + 1, slots);
	for (int i = 0; i < 100; i++)
		assert_null(hashtab_probe_first(&t, good_hash((uint64_t)i), &p));
	assert_int_equal(hashtab_insert(&t, good_hash(7), &items[7]), 0);
	assert_ptr_equal(hashtab_probe_first(&t, good_hash(7), &p), &items[7]);
	assert_int_equal(hashtab_count(&t), 1);
	hashtab_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_insert_find_remove),
		cmocka_unit_test(test_collisions),
		cmocka_unit_test(test_high_bit_hashes),
		cmocka_unit_test(test_many_keys),
		cmocka_unit_test(test_probe),
		cmocka_unit_test(test_random_against_reference),
		cmocka_unit_test(test_reserve_and_bytes_hash),
		cmocka_unit_test(test_clear),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
