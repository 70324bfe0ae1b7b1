// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Call trees of histogram entries: one trie of frames per entry, each
 * path weighed by the samples that took it; children listed by weight
 * (perf's graph order) or by address (perf's flat order).
 */
#include <stdlib.h>
#include <string.h>
#include "profile_priv.h"

static bool frame_match(const struct sonde_profile *p, const struct sonde_profile_node *n,
			const struct anl_frame *fr)
{
	if (p->branch_history) /* perf's CCKEY_ADDRESS */
		return n->dso == fr->dso && n->ip == fr->ip;
	if (n->sym && fr->sym)
		return n->sym == fr->sym;
	return !n->sym && !fr->sym && n->ip == fr->ip;
}

/* What a node is matched by (its hash key): the function, else the address. */
static const struct anl_sym *match_sym(const struct sonde_profile *p, const struct anl_sym *sym)
{
	return p->branch_history ? NULL : sym;
}

/*
 * A node with this many children gets its children indexed in p->kids;
 * fewer are scanned, which costs less than hashing.
 */
#define NODE_INDEX_MIN 2

/* A child's key in p->kids: its parent and what frame_match() compares. */
static uint64_t kid_hash(const struct sonde_profile_node *parent, const struct anl_sym *sym,
			 uint64_t ip)
{
	return hashtab_mix(hashtab_mix((uintptr_t)parent, sym ? (uintptr_t)sym : ip), !sym);
}

static struct prof_node_pool *pool_new(size_t cap)
{
	struct prof_node_pool *pool =
		malloc(sizeof(*pool) + cap * sizeof(struct sonde_profile_node));

	if (!pool)
		abort();
	pool->used = 0;
	pool->cap = cap;
	return pool;
}

static struct sonde_profile_node *node_new(struct sonde_profile *p)
{
	struct prof_node_pool *pool = p->nodes;

	if (!pool || pool->used == pool->cap) {
		size_t cap = pool ? pool->cap * 2 : PROF_NODE_BLOCK_MIN;

		pool = pool_new(cap < PROF_NODE_BLOCK_MAX ? cap : PROF_NODE_BLOCK_MAX);
		pool->prev = p->nodes;
		p->nodes = pool;
	}
	return memset(&pool->v[pool->used++], 0, sizeof(struct sonde_profile_node));
}

/* The child of @n that @fr continues into, or NULL. */
static struct sonde_profile_node *child_find(struct sonde_profile *p,
					     struct sonde_profile_node *n,
					     const struct anl_frame *fr)
{
	struct hashtab_probe probe;
	struct sonde_profile_node *c;

	if (n->nr_children < NODE_INDEX_MIN) {
		for (c = n->child; c; c = c->sibling)
			if (frame_match(p, c, fr))
				return c;
		return NULL;
	}
	for (c = hashtab_probe_first(&p->kids, kid_hash(n, match_sym(p, fr->sym), fr->ip), &probe);
	     c; c = hashtab_probe_next(&p->kids, &probe))
		if (c->parent == n && frame_match(p, c, fr))
			return c;
	return NULL;
}

/* Links @c first among @n's children (the print order), indexed when wide. */
static void child_link(struct sonde_profile *p, struct sonde_profile_node *n,
		       struct sonde_profile_node *c)
{
	c->sibling = n->child;
	c->parent = n;
	n->child = c;
	if (++n->nr_children == NODE_INDEX_MIN) {
		for (struct sonde_profile_node *k = n->child; k; k = k->sibling)
			if (hashtab_insert(&p->kids, kid_hash(n, match_sym(p, k->sym), k->ip), k))
				abort();
	} else if (n->nr_children > NODE_INDEX_MIN) {
		if (hashtab_insert(&p->kids, kid_hash(n, match_sym(p, c->sym), c->ip), c))
			abort();
	}
}

/* Adds one path (frames[from] stepping by dir, count frames) with weight. */
void prof_tree_add(struct sonde_profile *p, struct sonde_profile_entry *e,
		   const struct anl_frame *frames, const struct prof_hop *hops, int from, int dir,
		   int count, uint64_t period, uint64_t nr)
{
	struct sonde_profile_node *n;

	if (!e->chain)
		e->chain = node_new(p);
	n = e->chain;
	n->cumul += period;
	n->nr_cumul += nr;
	for (int i = 0, idx = from; i < count; i++, idx += dir) {
		const struct anl_frame *fr = &frames[idx];
		struct sonde_profile_node *c = child_find(p, n, fr);
		bool made = !c;

		if (!c) {
			c = node_new(p);
			c->sym = fr->sym;
			c->dso = fr->dso;
			c->ip = fr->ip;
			child_link(p, n, c);
		}
		if (hops)
			prof_chain_count(p, c, fr, hops, idx, nr, made);
		c->cumul += period; /* the path runs through every node on it */
		c->nr_cumul += nr;
		n = c;
	}
	n->hit += period;
	n->nr_hit += nr;
	if ((uint32_t)count > e->max_depth)
		e->max_depth = (uint32_t)count;
}

void prof_tree_next_entry(struct sonde_profile *p)
{
	/* Only the tree being built is looked up: a small index stays in cache. */
	hashtab_free(&p->kids);
}

void prof_trees_free(struct sonde_profile *p)
{
	hashtab_free(&p->kids);
	prof_chain_nodes_reset(p);
	while (p->nodes) {
		struct prof_node_pool *pool = p->nodes;

		p->nodes = pool->prev;
		free(pool);
	}
}

/* Ties go by address: the function's, or the frame's where nodes are addresses. */
static uint64_t node_addr(const struct sonde_profile_node *n)
{
	return n->sym && !n->br ? n->sym->start : n->ip;
}

static int weight_cmp(const void *pa, const void *pb)
{
	const struct sonde_profile_node *a = *(const struct sonde_profile_node *const *)pa;
	const struct sonde_profile_node *b = *(const struct sonde_profile_node *const *)pb;
	uint64_t ka = node_addr(a), kb = node_addr(b);

	if (a->cumul != b->cumul)
		return a->cumul > b->cumul ? -1 : 1;
	return ka < kb ? 1 : ka > kb ? -1 : 0;
}

static int addr_desc_cmp(const void *pa, const void *pb)
{
	const struct sonde_profile_node *a = *(const struct sonde_profile_node *const *)pa;
	const struct sonde_profile_node *b = *(const struct sonde_profile_node *const *)pb;
	uint64_t ka = node_addr(a), kb = node_addr(b);

	return ka < kb ? 1 : ka > kb ? -1 : 0;
}

size_t sonde_profile_node__children(const struct sonde_profile_node *n, uint64_t min,
				    enum sonde_profile_order order,
				    const struct sonde_profile_node **buf, size_t cap)
{
	const struct sonde_profile_node **v;
	size_t k = 0;

	if (!n)
		return 0;
	v = malloc((n->nr_children + 1) * sizeof(*v));
	if (!v)
		return 0;
	for (const struct sonde_profile_node *c = n->child; c; c = c->sibling)
		if (order == SONDE_PROFILE_BY_ADDR_DESC || (c->cumul >= min && c->cumul))
			v[k++] = c;
	qsort(v, k, sizeof(*v), order == SONDE_PROFILE_BY_ADDR_DESC ? addr_desc_cmp : weight_cmp);
	for (size_t i = 0; i < k && i < cap; i++)
		buf[i] = v[i];
	free(v);
	return k;
}

size_t sonde_profile_node__nr_children(const struct sonde_profile_node *n)
{
	return n ? n->nr_children : 0;
}

const struct sonde_profile_node *sonde_profile_node__parent(const struct sonde_profile_node *n)
{
	return n ? n->parent : NULL;
}

uint64_t sonde_profile_node__self(const struct sonde_profile_node *n)
{
	return n->hit;
}

uint64_t sonde_profile_node__total(const struct sonde_profile_node *n)
{
	return n->cumul;
}

uint64_t sonde_profile_node__nr_self(const struct sonde_profile_node *n)
{
	return n->nr_hit;
}

uint64_t sonde_profile_node__nr_total(const struct sonde_profile_node *n)
{
	return n->nr_cumul;
}

const char *sonde_profile_node__sym(const struct sonde_profile_node *n)
{
	return n->sym ? n->sym->name : NULL;
}

bool sonde_profile_node__inlined(const struct sonde_profile_node *n)
{
	return n->sym && n->sym->inlined;
}

uint64_t sonde_profile_node__ip(const struct sonde_profile_node *n)
{
	return n->ip;
}

const char *sonde_profile_node__dso(const struct sonde_profile_node *n)
{
	return n->dso ? n->dso->name : NULL;
}
