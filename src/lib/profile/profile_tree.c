// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Call trees of histogram entries: one trie of frames per entry, each
 * path weighed by the samples that took it; children listed by weight
 * (perf's graph order) or by address (perf's flat order).
 */
#include <stdlib.h>
#include "profile_priv.h"

static bool frame_match(const struct sonde_profile_node *n, const struct anl_frame *fr)
{
	if (n->sym && fr->sym)
		return n->sym == fr->sym;
	return !n->sym && !fr->sym && n->ip == fr->ip;
}

/* Adds one path (frames[from] stepping by dir, count frames) with weight. */
void prof_tree_add(struct sonde_profile_entry *e, const struct anl_frame *frames, int from,
		   int dir, int count, uint64_t period)
{
	struct sonde_profile_node *n;

	if (!e->chain) {
		e->chain = calloc(1, sizeof(*e->chain));
		if (!e->chain)
			abort();
	}
	n = e->chain;
	for (int i = 0, idx = from; i < count; i++, idx += dir) {
		const struct anl_frame *fr = &frames[idx];
		struct sonde_profile_node *c;

		for (c = n->child; c; c = c->sibling)
			if (frame_match(c, fr))
				break;
		if (!c) {
			c = calloc(1, sizeof(*c));
			if (!c)
				abort();
			c->sym = fr->sym;
			c->dso = fr->dso;
			c->ip = fr->ip;
			c->addr = fr->addr;
			c->sibling = n->child;
			c->parent = n;
			n->child = c;
			n->nr_children++;
		}
		n = c;
	}
	n->hit += period;
	if ((uint32_t)count > e->max_depth)
		e->max_depth = (uint32_t)count;
}

static uint64_t cumul(struct sonde_profile_node *n, int depth)
{
	uint64_t c = n->hit;

	/* Paths are at most a stack long; the bound keeps recursion finite. */
	if (depth > SONDE_PERF_MAX_STACK_DEPTH * 8)
		return c;
	for (struct sonde_profile_node *k = n->child; k; k = k->sibling)
		c += cumul(k, depth + 1);
	n->cumul = c;
	return c;
}

void prof_tree_cumul(struct sonde_profile_entry *e)
{
	if (e->chain)
		cumul(e->chain, 0);
}

void prof_tree_free(struct sonde_profile_node *n)
{
	while (n) {
		struct sonde_profile_node *nx = n->sibling;

		prof_tree_free(n->child);
		free(n);
		n = nx;
	}
}

static uint64_t node_addr(const struct sonde_profile_node *n)
{
	return n->sym ? n->sym->start : n->ip;
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
