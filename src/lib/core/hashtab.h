/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * The one hash table of libsonde (private). Open addressing with linear
 * probing over a power-of-two slot array that doubles at 3/4 load. A slot
 * holds the caller's 64-bit hash and a pointer to the caller's entry, so
 * entries live wherever the caller keeps them (an arena, an array) and the
 * table never allocates per entry; growing needs no rehash callback.
 *
 * The caller supplies the hash and, per lookup, the equality: either as a
 * callback (hashtab_find) or inline, by walking the slots whose stored hash
 * matches (hashtab_probe_*), which keeps hot compares free of calls.
 * Entries are never NULL. Not thread safe: one table, one thread at a time.
 */
#ifndef SONDE_CORE_HASHTAB_H
#define SONDE_CORE_HASHTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hashtab_slot {
	uint64_t hash;
	void *val; /* NULL: empty */
};

struct hashtab {
	struct hashtab_slot *slots; /* NULL until the first insert */
	size_t mask;		    /* slots - 1 */
	size_t count;
	unsigned shift;		    /* 64 - log2(slots): home = fib(hash) >> shift */
};

/* Does @val (an entry in the table) hold @key? */
typedef bool (*hashtab_eq_fn)(const void *val, const void *key, void *ctx);

/* Mixes @v into @h; a building block for callers' hash functions. */
static inline uint64_t hashtab_mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	h *= 0xff51afd7ed558ccdULL;
	return h ^ (h >> 32);
}

/* FNV-1a over @n bytes (strings by their length: interning). */
uint64_t hashtab_bytes_hash(const void *p, size_t n);

/*
 * Fibonacci hashing takes the slot from the product's high bits, so hashes
 * that differ only in their high bits (addresses) still spread.
 */
static inline size_t hashtab_home(const struct hashtab *t, uint64_t hash)
{
	return (size_t)((hash * 0x9e3779b97f4a7c15ULL) >> t->shift) & t->mask;
}

/* An empty table (so is a zeroed struct); nothing to free until the first insert. */
static inline void hashtab_init(struct hashtab *t)
{
	t->slots = NULL;
	t->mask = 0;
	t->count = 0;
	t->shift = 64;
}

/* Frees the slot array (not the entries) and leaves an empty table. */
void hashtab_free(struct hashtab *t);

/* Forgets every entry but keeps the slot array, for a table refilled to its old size. */
void hashtab_clear(struct hashtab *t);

static inline size_t hashtab_count(const struct hashtab *t)
{
	return t->count;
}

/* Room for @n entries without growing. 0, or -ENOMEM (table unchanged). */
int hashtab_reserve(struct hashtab *t, size_t n);

/*
 * Adds @val (not NULL) under @hash; does not look for an equal entry first.
 * 0, or -ENOMEM when the table could not grow (@val is not added).
 */
int hashtab_insert(struct hashtab *t, uint64_t hash, void *val);

/* The entry under @hash for which @eq(entry, @key, @ctx) holds, or NULL. */
void *hashtab_find(const struct hashtab *t, uint64_t hash, hashtab_eq_fn eq, const void *key,
		   void *ctx);

/* Removes and returns the entry hashtab_find() would return, or NULL. */
void *hashtab_remove(struct hashtab *t, uint64_t hash, hashtab_eq_fn eq, const void *key,
		     void *ctx);

/*
 * Inline lookups: the entries stored under @hash, in probe order.
 *
 *	struct hashtab_probe p;
 *	for (e = hashtab_probe_first(t, h, &p); e; e = hashtab_probe_next(t, &p))
 *		if (same(e, key)) return e;
 *
 * The table must not change during the walk.
 */
struct hashtab_probe {
	uint64_t hash;
	size_t pos;
};

static inline void *hashtab_probe_next(const struct hashtab *t, struct hashtab_probe *p)
{
	if (!t->slots)
		return NULL;
	for (;;) {
		const struct hashtab_slot *s = &t->slots[p->pos];

		p->pos = (p->pos + 1) & t->mask;
		if (!s->val)
			return NULL;
		if (s->hash == p->hash)
			return s->val;
	}
}

static inline void *hashtab_probe_first(const struct hashtab *t, uint64_t hash,
					struct hashtab_probe *p)
{
	p->hash = hash;
	p->pos = t->slots ? hashtab_home(t, hash) : 0;
	return hashtab_probe_next(t, p);
}

/*
 * Every entry, in slot order (not insertion order: sort when order shows).
 * Start with *@pos = 0; NULL at the end. The table must not change.
 */
static inline void *hashtab_next(const struct hashtab *t, size_t *pos)
{
	if (!t->slots)
		return NULL;
	for (; *pos <= t->mask; (*pos)++)
		if (t->slots[*pos].val)
			return t->slots[(*pos)++].val;
	return NULL;
}

#endif /* SONDE_CORE_HASHTAB_H */
