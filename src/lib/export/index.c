// SPDX-License-Identifier: LGPL-2.1-only
/* Dense indexes for distinct string pairs (export_priv.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "export_priv.h"

struct pair {
	const char *a, *b;
};

static bool same(const char *x, const char *y)
{
	return x == y || (x && y && !strcmp(x, y));
}

static bool pair_eq(const void *val, const void *key, void *ctx)
{
	const struct export_index *ix = ctx;
	const struct pair *k = key;
	size_t i = (uintptr_t)val - 1;

	return same(ix->a[i], k->a) && same(ix->b[i], k->b);
}

int64_t export_index_get(struct export_index *ix, const char *a, const char *b)
{
	struct pair k = { a, b };
	uint64_t h = hashtab_mix(a ? hashtab_bytes_hash(a, strlen(a)) : 0, b ? hashtab_bytes_hash(b, strlen(b)) : 0);
	void *v;

	if (!ix->nr)
		hashtab_init(&ix->t); /* a zeroed index is an empty one */
	v = hashtab_find(&ix->t, h, pair_eq, &k, ix);
	if (v)
		return (int64_t)((uintptr_t)v - 1);
	if (!(ix->nr & (ix->nr - 1))) { /* 0, 1, 2, 4, ...: double */
		size_t cap = ix->nr ? ix->nr * 2 : 1;
		const char **na = realloc(ix->a, cap * sizeof(*na));

		if (!na)
			return -ENOMEM;
		ix->a = na;
		na = realloc(ix->b, cap * sizeof(*na));
		if (!na)
			return -ENOMEM;
		ix->b = na;
	}
	ix->a[ix->nr] = a;
	ix->b[ix->nr] = b;
	if (hashtab_insert(&ix->t, h, (void *)(uintptr_t)(ix->nr + 1)))
		return -ENOMEM;
	return (int64_t)ix->nr++;
}

void export_index_free(struct export_index *ix)
{
	hashtab_free(&ix->t);
	free(ix->a);
	free(ix->b);
	memset(ix, 0, sizeof(*ix));
}
