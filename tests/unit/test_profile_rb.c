// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The red-black (profile_rb.c) tree behind perf's row orders: after every
 * insertion the tree is a valid red-black tree (a black root, no red node
 * with a red child, one black height) and walks in the order the caller's
 * comparison chose; and it rotates as the kernel's rbtree does, which
 * decides what a lookup with a comparison that is not an order meets.
 * Static-only: prof_rb_*() is the profile layer's internal tree.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdint.h>
#include <stdlib.h>
#include "profile_priv.h"

struct item {
	struct prof_rb rb;
	unsigned key;
};

static struct item *item_of(struct prof_rb *n)
{
	return (struct item *)((char *)n - offsetof(struct item, rb));
}

/* The black height below @n, -1 if the rules are broken there. */
static int check(const struct prof_rb *n, const struct prof_rb *parent)
{
	int l, r;

	if (!n)
		return 1;
	if (n->parent != parent)
		return -1;
	if (n->red && ((n->left && n->left->red) || (n->right && n->right->red)))
		return -1;
	l = check(n->left, n);
	r = check(n->right, n);
	if (l < 0 || r < 0 || l != r)
		return -1;
	return l + !n->red;
}

static void insert(struct prof_rb_root *t, struct item *it)
{
	struct prof_rb **link = &t->top, *parent = NULL;

	while (*link) {
		parent = *link;
		link = it->key < item_of(parent)->key ? &parent->left : &parent->right;
	}
	prof_rb_insert(t, &it->rb, parent, link);
}

static void test_random(void **state)
{
	enum { N = 2000 };
	struct item *v = calloc(N, sizeof(*v));
	struct prof_rb_root t = { NULL };
	uint32_t x = 12345;
	unsigned prev = 0, n = 0;

	(void)state;
	assert_non_null(v);
	for (int i = 0; i < N; i++) {
		x = x * 1103515245u + 12345u;
		v[i].key = (x >> 8) % 500; /* with duplicates: they go right */
		insert(&t, &v[i]);
		assert_false(t.top->red);
		assert_true(check(t.top, NULL) > 0);
	}
	for (struct prof_rb *p = prof_rb_first(&t); p; p = prof_rb_next(p), n++) {
		assert_true(item_of(p)->key >= prev);
		prev = item_of(p)->key;
	}
	assert_int_equal(n, N);
	free(v);
}

/*
 * Ascending keys 1..7, worked by the kernel's rules: rotations at 1, 3
 * and 5 and two recolorings leave 2 at the root, 1 and a red 4 under it,
 * 3 and 6 under 4, 5 and 7 red under 6.
 */
static void test_shape(void **state)
{
	struct item v[7];
	struct prof_rb_root t = { NULL };

	(void)state;
	for (int i = 0; i < 7; i++) {
		v[i].key = (unsigned)i + 1;
		insert(&t, &v[i]);
	}
	assert_int_equal(item_of(t.top)->key, 2);
	assert_int_equal(item_of(t.top->left)->key, 1);
	assert_int_equal(item_of(t.top->right)->key, 4);
	assert_int_equal(item_of(t.top->right->left)->key, 3);
	assert_int_equal(item_of(t.top->right->right)->key, 6);
	assert_true(t.top->right->red);
	assert_false(t.top->right->right->red);
	assert_true(t.top->right->right->left->red);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_shape),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
