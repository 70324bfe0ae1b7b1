// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The histogram's sort, fast: perf's order of entries (profile_hist.c's
 * prof_entry_cmp()) from numbers made once per entry. With many distinct
 * stacks most entries tie on weight, depth and self, so nearly every
 * comparison went on to the keys, reading two far apart entries and
 * comparing names: three quarters of the sort's time on one recording.
 * Here the keys of the usual sort orders (comm, dso, symbol) become
 * ranks packed into one 128-bit number per entry.
 *
 * The merge sort is glibc's qsort (a top-down merge sort: halves of
 * n / 2 and the rest, the left element taken on a tie), step for step:
 * perf's rules are no total order when entries of two comms tie, so the
 * result depends on which comparisons are made, and this one makes the
 * ones qsort made before.
 */
#include <stdlib.h>
#include <string.h>
#include "profile_priv.h"

/* One entry as the comparison reads it. */
struct sort_rec {
	uint64_t v, self;
	uint64_t key_hi, key_lo; /* the keys, as one number in key order */
	uint32_t comm_id;	 /* one per comm pointer (the depth rule) */
	uint32_t depth;
	uint64_t walk; /* the last tie-break (profile_walk.c) */
};

struct sorter {
	const struct sort_rec *rec;
	bool children, caller;
};

/* prof_entry_cmp() of entries @a and @b (indexes of records in seq order). */
static inline int rec_cmp(const struct sorter *s, uint32_t a, uint32_t b)
{
	const struct sort_rec *x = &s->rec[a], *y = &s->rec[b];

	if (x->v != y->v)
		return x->v > y->v ? -1 : 1;
	if (s->children && x->comm_id == y->comm_id && x->depth != y->depth)
		return (x->depth > y->depth) == s->caller ? -1 : 1;
	if (s->children && x->self != y->self)
		return x->self > y->self ? -1 : 1;
	if (x->key_hi != y->key_hi)
		return x->key_hi < y->key_hi ? -1 : 1;
	if (x->key_lo != y->key_lo)
		return x->key_lo < y->key_lo ? -1 : 1;
	return x->walk < y->walk ? -1 : x->walk > y->walk;
}

static void merge_sort(const struct sorter *s, uint32_t *v, size_t n, uint32_t *tmp)
{
	size_t n1 = n / 2, n2 = n - n1, i = 0, j = 0, k = 0;
	uint32_t *b = v + n1;

	if (n <= 1)
		return;
	merge_sort(s, v, n1, tmp);
	merge_sort(s, b, n2, tmp);
	while (i < n1 && j < n2)
		tmp[k++] = rec_cmp(s, v[i], b[j]) <= 0 ? v[i++] : b[j++];
	/* what is left of the right half is in place already */
	while (i < n1)
		tmp[k++] = v[i++];
	memcpy(v, tmp, k * sizeof(*v));
}

/* ---- the keys as ranks ---- */

/* A distinct value of one key, and where it stands in the ranker's array. */
struct distinct {
	const void *ptr;
	uint32_t at;
};

struct ranker {
	struct hashtab tab; /* ptr -> its struct distinct */
	struct distinct *v;
	size_t nr, cap;
	const void *last; /* entries of one object come in runs: no lookup */
	long last_at;
	int (*cmp)(const void *a, const void *b); /* names, for qsort */
	uint32_t *rank;	  /* per value in v, once ranked */
	uint32_t nr_ranks;
};

static int comm_name_cmp(const void *pa, const void *pb)
{
	const char *a = ((const struct distinct *)pa)->ptr, *b = ((const struct distinct *)pb)->ptr;

	return strcmp(a ? a : "", b ? b : "");
}

/* perf's cmp_null(): no object after every named one. */
static int dso_name_cmp(const void *pa, const void *pb)
{
	const struct prof_dso *a = ((const struct distinct *)pa)->ptr;
	const struct prof_dso *b = ((const struct distinct *)pb)->ptr;

	if (!a || !b)
		return !a - !b;
	return a == b ? 0 : strcmp(a->short_name, b->short_name);
}

static int sym_name_cmp(const void *pa, const void *pb)
{
	const struct prof_sym *a = ((const struct distinct *)pa)->ptr;
	const struct prof_sym *b = ((const struct distinct *)pb)->ptr;

	return a == b ? 0 : strcmp(a->name, b->name);
}

static bool ptr_eq(const void *val, const void *key, void *ctx)
{
	(void)ctx;
	return ((const struct distinct *)val)->ptr == key;
}

/* The index in r->v of @ptr's value, added when new; -1 out of memory. */
static long ranker_add(struct ranker *r, const void *ptr)
{
	uint64_t h = hashtab_mix(0, (uintptr_t)ptr);
	struct distinct *d;

	if (r->nr && ptr == r->last)
		return r->last_at;
	d = hashtab_find(&r->tab, h, ptr_eq, ptr, NULL);
	if (d) {
		r->last = ptr;
		return r->last_at = d - r->v;
	}
	if (r->nr == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 64;
		struct distinct *v = realloc(r->v, cap * sizeof(*v));

		if (!v)
			return -1;
		/* the table points into the array: index it again */
		r->v = v;
		r->cap = cap;
		hashtab_clear(&r->tab);
		for (size_t i = 0; i < r->nr; i++)
			if (hashtab_insert(&r->tab, hashtab_mix(0, (uintptr_t)v[i].ptr), &v[i]))
				return -1;
	}
	r->v[r->nr] = (struct distinct){ ptr, (uint32_t)r->nr };
	if (hashtab_insert(&r->tab, h, &r->v[r->nr]))
		return -1;
	r->last = ptr;
	return r->last_at = (long)r->nr++;
}

/* Ranks the distinct values by name (equal names, equal ranks) into r->rank. */
static bool ranker_finish(struct ranker *r)
{
	struct distinct *sorted = malloc((r->nr + 1) * sizeof(*sorted));

	r->rank = malloc((r->nr + 1) * sizeof(*r->rank));
	if (!sorted || !r->rank) {
		free(sorted);
		return false;
	}
	r->nr_ranks = 0;
	if (!r->nr) { /* no entry has one (no symbols at all) */
		free(sorted);
		return true;
	}
	memcpy(sorted, r->v, r->nr * sizeof(*sorted));
	qsort(sorted, r->nr, sizeof(*sorted), r->cmp);
	for (size_t i = 0; i < r->nr; i++) {
		if (i && r->cmp(&sorted[i - 1], &sorted[i]))
			r->nr_ranks++;
		r->rank[sorted[i].at] = r->nr_ranks;
	}
	r->nr_ranks++;
	free(sorted);
	return true;
}

static void ranker_free(struct ranker *r)
{
	hashtab_free(&r->tab);
	free(r->v);
	free(r->rank);
}

/* Bits to tell @n values apart. */
static unsigned bits_for(uint32_t n)
{
	unsigned b = 0;

	while (b < 32 && ((uint64_t)1 << b) < n)
		b++;
	return b;
}

/* Appends @bits bits of @v below the number so far (at most 128 in all). */
static void key_push(struct sort_rec *r, uint64_t v, unsigned bits)
{
	if (bits == 64) {
		r->key_hi = r->key_lo;
		r->key_lo = v;
	} else if (bits) {
		r->key_hi = (r->key_hi << bits) | (r->key_lo >> (64 - bits));
		r->key_lo = (r->key_lo << bits) | v;
	}
}

/* Is every sort key one this file ranks (no more than one of each)? */
static bool keys_ranked(const struct sonde_profile *p)
{
	bool seen[SONDE_PROFILE_KEY_MAX] = { false };

	if (p->keyed) /* the weights among the keys */
		return false;

	for (int i = 0; i < p->nr_keys; i++) {
		enum sonde_profile_key k = p->order[i];

		if ((k != SONDE_PROFILE_KEY_COMM && k != SONDE_PROFILE_KEY_DSO &&
		     k != SONDE_PROFILE_KEY_SYM) || seen[k])
			return false;
		seen[k] = true;
	}
	return true;
}

/*
 * The ranks of every entry's comm (by name; comm_id by pointer), dso and
 * symbol (by name; no symbol: flagged, tied). false when out
 * of memory or when they take more than 128 bits. Until the ranks are
 * known, each record holds the indexes of its values in the rankers:
 * comm's in v, dso's in self, the symbol's in key_lo (key_hi: has one).
 */
static bool make_recs(const struct sonde_profile *p, struct sonde_profile_entry *const *ents,
		      size_t n, struct sort_rec *rec)
{
	struct ranker comm = { .cmp = comm_name_cmp }, comm_ptr = { .cmp = NULL };
	struct ranker dso = { .cmp = dso_name_cmp }, sym = { .cmp = sym_name_cmp };
	unsigned cb, db, total = 0;
	bool ok = false;

	for (size_t i = 0; i < n; i++) {
		const struct prof_key *k = &ents[i]->k;
		long c = ranker_add(&comm, k->comm), cp = ranker_add(&comm_ptr, k->comm);
		long d = ranker_add(&dso, k->dso), s = k->sym ? ranker_add(&sym, k->sym) : 0;

		if (c < 0 || cp < 0 || d < 0 || s < 0)
			goto out;
		rec[i].v = (uint64_t)c;
		rec[i].comm_id = (uint32_t)cp;
		rec[i].self = (uint64_t)d;
		rec[i].key_lo = (uint64_t)s;
		rec[i].key_hi = k->sym != NULL;
	}
	if (!ranker_finish(&comm) || !ranker_finish(&dso) || !ranker_finish(&sym))
		goto out;
	cb = bits_for(comm.nr_ranks);
	db = bits_for(dso.nr_ranks);
	for (int i = 0; i < p->nr_keys; i++)
		total += p->order[i] == SONDE_PROFILE_KEY_COMM ? cb :
			 p->order[i] == SONDE_PROFILE_KEY_DSO  ? db :
								 1 + 64;
	if (total > 128)
		goto out;
	for (size_t i = 0; i < n; i++) {
		const struct sonde_profile_entry *e = ents[i];
		struct sort_rec *r = &rec[i];
		uint32_t comm_rank = comm.rank[r->v], dso_rank = dso.rank[r->self];
		bool has_sym = r->key_hi;
		/* none: sort__sym_sort() ties them, the walk decides */
		uint64_t sym_val = has_sym ? sym.rank[r->key_lo] : 0;

		r->v = p->children ? e->children : e->self;
		r->self = e->self;
		r->depth = e->max_depth;
		r->walk = e->walk;
		r->key_hi = r->key_lo = 0;
		for (int j = 0; j < p->nr_keys; j++) {
			switch (p->order[j]) {
			case SONDE_PROFILE_KEY_COMM:
				key_push(r, comm_rank, cb);
				break;
			case SONDE_PROFILE_KEY_DSO:
				key_push(r, dso_rank, db);
				break;
			default: /* the symbol's rank, or after every symbol a tie */
				key_push(r, !has_sym, 1);
				key_push(r, sym_val, 64);
				break;
			}
		}
	}
	ok = true;
out:
	ranker_free(&comm);
	ranker_free(&comm_ptr);
	ranker_free(&dso);
	ranker_free(&sym);
	return ok;
}

bool prof_sort_entries(const struct sonde_profile *p, struct sonde_profile_entry **ents,
		       size_t n)
{
	size_t rec_bytes = n * sizeof(struct sort_rec);
	struct sort_rec *rec;
	uint32_t *idx, *tmp;
	bool ok = false;

	if (!keys_ranked(p) || n > UINT32_MAX)
		return false;
	rec = hugemem_alloc(rec_bytes);
	idx = malloc(n * sizeof(*idx));
	tmp = malloc(n * sizeof(*tmp));
	if (rec && idx && tmp && make_recs(p, ents, n, rec)) {
		struct sorter s = { rec, p->children, p->caller };
		/* the records are done with: their room takes the result */
		struct sonde_profile_entry **out = (struct sonde_profile_entry **)(void *)rec;

		for (size_t i = 0; i < n; i++)
			idx[i] = (uint32_t)i;
		merge_sort(&s, idx, n, tmp);
		for (size_t i = 0; i < n; i++)
			out[i] = ents[idx[i]];
		memcpy(ents, out, n * sizeof(*ents));
		ok = true;
	}
	hugemem_free(rec, rec_bytes);
	free(idx);
	free(tmp);
	return ok;
}
