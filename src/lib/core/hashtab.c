// SPDX-License-Identifier: LGPL-2.1-only
/* The one hash table: open addressing, linear probing, see core_priv.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core_priv.h"

#define HASHTAB_MIN_SLOTS 16

uint64_t hashtab_bytes_hash(const void *p, size_t n)
{
	return fnv1a64(FNV1A64_INIT, p, n);
}

/* The slots' bytes: hugemem_free() takes the size hugemem_alloc() got. */
static size_t slots_bytes(size_t cap)
{
	return cap * sizeof(struct hashtab_slot);
}

void hashtab_free(struct hashtab *t)
{
	if (t->slots)
		hugemem_free(t->slots, slots_bytes(t->mask + 1));
	hashtab_init(t);
}

void hashtab_clear(struct hashtab *t)
{
	if (t->slots && t->count)
		memset(t->slots, 0, (t->mask + 1) * sizeof(*t->slots));
	t->count = 0;
}

/* Slots for @n entries at no more than 3/4 load. */
static size_t slots_for(size_t n)
{
	size_t cap = HASHTAB_MIN_SLOTS;

	while (cap - cap / 4 < n) {
		if (cap > SIZE_MAX / 2 / sizeof(struct hashtab_slot))
			return 0;
		cap *= 2;
	}
	return cap;
}

static void place(struct hashtab *t, uint64_t hash, void *val)
{
	size_t i = hashtab_home(t, hash);

	while (t->slots[i].val)
		i = (i + 1) & t->mask;
	t->slots[i].hash = hash;
	t->slots[i].val = val;
}

int hashtab_reserve(struct hashtab *t, size_t n)
{
	size_t cap = slots_for(n), old_cap = t->slots ? t->mask + 1 : 0;
	struct hashtab old = *t;
	unsigned bits = 0;

	if (!cap)
		return -ENOMEM;
	if (cap <= old_cap)
		return 0;
	/* A big table takes huge pages: it is filled at random, every page soon. */
	t->slots = hugemem_alloc(slots_bytes(cap));
	if (!t->slots) {
		*t = old;
		return -ENOMEM;
	}
	hugemem_populate(t->slots, slots_bytes(cap));
	while (((size_t)1 << bits) < cap)
		bits++;
	t->mask = cap - 1;
	t->shift = 64 - bits;
	for (size_t i = 0; i < old_cap; i++)
		if (old.slots[i].val)
			place(t, old.slots[i].hash, old.slots[i].val);
	if (old.slots)
		hugemem_free(old.slots, slots_bytes(old_cap));
	return 0;
}

int hashtab_insert(struct hashtab *t, uint64_t hash, void *val)
{
	if (!t->slots || t->count + 1 > (t->mask + 1) - (t->mask + 1) / 4) {
		int err = hashtab_reserve(t, t->count + 1 > HASHTAB_MIN_SLOTS / 2 ?
						     2 * t->count : HASHTAB_MIN_SLOTS / 2);

		if (err)
			return err;
	}
	place(t, hash, val);
	t->count++;
	return 0;
}

/* The slot of the entry hashtab_find() returns, or SIZE_MAX. */
static size_t find_slot(const struct hashtab *t, uint64_t hash, hashtab_eq_fn eq,
			const void *key, void *ctx)
{
	size_t i;

	if (!t->slots)
		return SIZE_MAX;
	for (i = hashtab_home(t, hash); t->slots[i].val; i = (i + 1) & t->mask)
		if (t->slots[i].hash == hash && eq(t->slots[i].val, key, ctx))
			return i;
	return SIZE_MAX;
}

void *hashtab_find(const struct hashtab *t, uint64_t hash, hashtab_eq_fn eq, const void *key,
		   void *ctx)
{
	size_t i = find_slot(t, hash, eq, key, ctx);

	return i == SIZE_MAX ? NULL : t->slots[i].val;
}

/*
 * Backward-shift deletion: the entries after the hole move back when their
 * home lies at or before the hole (cyclically), so no tombstones pile up.
 */
void *hashtab_remove(struct hashtab *t, uint64_t hash, hashtab_eq_fn eq, const void *key,
		     void *ctx)
{
	size_t hole = find_slot(t, hash, eq, key, ctx), i;
	void *val;

	if (hole == SIZE_MAX)
		return NULL;
	val = t->slots[hole].val;
	for (i = (hole + 1) & t->mask; t->slots[i].val; i = (i + 1) & t->mask) {
		size_t home = hashtab_home(t, t->slots[i].hash);

		/* Moves back unless home lies in (hole, i]. */
		if (((i - home) & t->mask) >= ((i - hole) & t->mask)) {
			t->slots[hole] = t->slots[i];
			hole = i;
		}
	}
	t->slots[hole].val = NULL;
	t->slots[hole].hash = 0;
	t->count--;
	return val;
}
