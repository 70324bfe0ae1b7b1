// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Call trees of histogram entries: one trie of frames per entry, each
 * path weighed by the samples that took it; children listed by weight
 * (perf's graph order) or by address (perf's flat order).
 */
#include <stdlib.h>
#include <string.h>
#include "profile_priv.h"

/*
 * What a path's frame matches nodes on: its symbol when known, else its
 * ip; with branch history, always its object and ip (perf's
 * CCKEY_ADDRESS: the object is compared in node_match()).
 */
static bool frame_by_ip(const struct sonde_profile *p, const struct prof_frame *fr)
{
	return p->branch_history || !fr->sym;
}

static uintptr_t frame_key(const struct sonde_profile *p, const struct prof_frame *fr)
{
	return frame_by_ip(p, fr) ? (uintptr_t)fr->ip : (uintptr_t)fr->sym;
}

static struct sonde_profile_node *rel(const struct sonde_profile_node *n, int32_t off)
{
	return off ? (struct sonde_profile_node *)(uintptr_t)(n + off) : NULL;
}

/*
 * A node with this many children gets its children indexed in p->kids;
 * fewer are scanned, which costs less than hashing.
 */
#define NODE_INDEX_MIN 2

/* A child's key in p->kids: its parent's index and what it matches on. */
static uint64_t kid_hash(size_t parent, uintptr_t key, bool by_ip)
{
	return hashtab_mix(hashtab_mix(parent, key), by_ip);
}

/* A new node's index; the array doubles (a big one is moved, not copied). */
static size_t node_new(struct sonde_profile *p)
{
	if (p->nr_nodes == p->cap_nodes) {
		size_t cap = p->cap_nodes ? p->cap_nodes * 2 : 256;
		struct sonde_profile_node *v;

		if (cap > INT32_MAX) /* offsets between nodes are 32-bit */
			abort();
		v = realloc(p->node_v, cap * sizeof(*v));
		if (!v)
			abort();
		p->node_v = v;
		if (p->branch_history) { /* the nodes' branch counts, beside them */
			uint32_t *b = realloc(p->node_br, cap * sizeof(*b));

			if (!b)
				abort();
			memset(b + p->cap_nodes, 0, (cap - p->cap_nodes) * sizeof(*b));
			p->node_br = b;
		}
		p->cap_nodes = cap;
	}
	memset(&p->node_v[p->nr_nodes], 0, sizeof(*p->node_v));
	return p->nr_nodes++;
}

static bool node_match(const struct sonde_profile *p, const struct sonde_profile_node *c,
		       uintptr_t key, bool by_ip, const struct prof_frame *fr)
{
	return c->key == key && c->by_ip == by_ip && (!p->branch_history || c->fr->dso == fr->dso);
}

/* The index of the child of node @n that @fr continues into, or 0 (never a child). */
static size_t child_find(struct sonde_profile *p, size_t n, const struct prof_frame *fr)
{
	const struct sonde_profile_node *v = p->node_v, *c;
	uintptr_t key = frame_key(p, fr);
	bool by_ip = frame_by_ip(p, fr);
	struct hashtab_probe probe;
	void *k;

	if (v[n].nr_children < NODE_INDEX_MIN) {
		for (c = rel(&v[n], v[n].child); c; c = rel(c, c->sibling))
			if (node_match(p, c, key, by_ip, fr))
				return (size_t)(c - v);
		return 0;
	}
	for (k = hashtab_probe_first(&p->kids, kid_hash(n, key, by_ip), &probe); k;
	     k = hashtab_probe_next(&p->kids, &probe)) {
		size_t i = (size_t)(uintptr_t)k - 1;

		if (rel(&v[i], v[i].parent) == &v[n] && node_match(p, &v[i], key, by_ip, fr))
			return i;
	}
	return 0;
}

static void kid_index(struct sonde_profile *p, size_t n, size_t c)
{
	const struct sonde_profile_node *k = &p->node_v[c];

	if (hashtab_insert(&p->kids, kid_hash(n, k->key, k->by_ip), (void *)(uintptr_t)(c + 1)))
		abort();
}

/* Links node @c first among @n's children (the print order), indexed when wide. */
static void child_link(struct sonde_profile *p, size_t n, size_t c)
{
	struct sonde_profile_node *v = p->node_v;
	ptrdiff_t first = v[n].child ? (ptrdiff_t)n + v[n].child : (ptrdiff_t)c;

	v[c].sibling = (int32_t)(first - (ptrdiff_t)c);
	v[c].parent = (int32_t)((ptrdiff_t)n - (ptrdiff_t)c);
	v[n].child = (int32_t)((ptrdiff_t)c - (ptrdiff_t)n);
	if (++v[n].nr_children == NODE_INDEX_MIN) {
		for (const struct sonde_profile_node *k = &v[c]; k; k = rel(k, k->sibling))
			kid_index(p, n, (size_t)(k - v));
	} else if (v[n].nr_children > NODE_INDEX_MIN) {
		kid_index(p, n, c);
	}
}

/* Adds one path (frames[from] stepping by dir, count frames) with weight. */
void prof_tree_add(struct sonde_profile *p, struct sonde_profile_entry *e,
		   const struct prof_frame *frames, const struct prof_hop *hops, int from, int dir,
		   int count, uint64_t period, uint64_t nr)
{
	size_t n;

	if (!e->root)
		e->root = (uint32_t)node_new(p) + 1;
	n = e->root - 1;
	p->node_v[n].cumul += period;
	p->node_v[n].nr_cumul += nr;
	for (int i = 0, idx = from; i < count; i++, idx += dir) {
		const struct prof_frame *fr = &frames[idx];
		size_t c = child_find(p, n, fr);
		bool made = !c;

		if (!c) {
			c = node_new(p);
			p->node_v[c].key = frame_key(p, fr);
			p->node_v[c].by_ip = frame_by_ip(p, fr);
			p->node_v[c].fr = fr;
			child_link(p, n, c);
		}
		if (hops)
			prof_chain_count(p, &p->node_v[c], fr, hops, idx, nr, made);
		/* the path runs through every node on it; self is what stays */
		p->node_v[c].cumul += period;
		p->node_v[c].nr_cumul += nr;
		n = c;
	}
	if ((uint32_t)count > e->max_depth)
		e->max_depth = (uint32_t)count;
}

void prof_tree_next_entry(struct sonde_profile *p)
{
	/* Only the tree being built is looked up: a small index stays in cache. */
	hashtab_free(&p->kids);
}

void prof_trees_done(struct sonde_profile *p, struct sonde_profile_entry **ents, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		if (ents[i] && ents[i]->root)
			ents[i]->chain = &p->node_v[ents[i]->root - 1];
}

/* Built trees, one after another; a tree never spans two chunks. */
struct prof_node_chunk {
	struct prof_node_chunk *prev;
	size_t used, cap;
	struct sonde_profile_node v[];
};

/*
 * The first chunk holds this many nodes (768 kB: a small profile's
 * trees); the later ones at least a huge page's worth (core_priv.h).
 */
#define NODE_CHUNK_FIRST 16384
#define NODE_CHUNK_MIN ((((size_t)2 << 20) - sizeof(struct prof_node_chunk)) / \
			sizeof(struct sonde_profile_node))

static size_t node_chunk_bytes(size_t cap)
{
	return sizeof(struct prof_node_chunk) + cap * sizeof(struct sonde_profile_node);
}

void prof_tree_begin(struct sonde_profile *p, size_t max)
{
	struct prof_node_chunk *c = p->node_chunks;

	if (!c || c->cap - c->used < max) {
		/* room never written to costs no memory: the rest of a
		 * chunk made for a bound holds the trees that follow */
		size_t min = c ? NODE_CHUNK_MIN : NODE_CHUNK_FIRST;
		size_t cap = max > min ? max : min;

		c = hugemem_alloc(node_chunk_bytes(cap));
		if (!c)
			abort();
		c->prev = p->node_chunks;
		c->used = 0;
		c->cap = cap;
		p->node_chunks = c;
	}
	p->node_v = &c->v[c->used];
	p->nr_nodes = 0;
	p->cap_nodes = max;
}

struct sonde_profile_node *prof_tree_keep(struct sonde_profile *p,
					  const struct sonde_profile_entry *e)
{
	struct sonde_profile_node *root = e->root ? &p->node_v[e->root - 1] : NULL;

	p->node_chunks->used += p->nr_nodes;
	p->node_v = NULL;
	p->nr_nodes = p->cap_nodes = 0;
	return root;
}

void prof_trees_free(struct sonde_profile *p)
{
	while (p->node_chunks) {
		struct prof_node_chunk *c = p->node_chunks;

		p->node_chunks = c->prev;
		hugemem_free(c, node_chunk_bytes(c->cap));
	}
	hashtab_free(&p->kids);
	prof_chain_nodes_reset(p);
	free(p->node_br);
	p->node_br = NULL;
	free(p->node_v);
	p->node_v = NULL;
	p->nr_nodes = p->cap_nodes = 0;
}

/*
 * perf's order of siblings, the one it keeps them in while adding paths
 * (match_chain() in its callchain.c), descending: inlined functions by
 * name; else by object, then by the function's address when both frames
 * have one, else by their ips. perf compares the objects' heap addresses,
 * which mostly follow the order it made them in (made_rank); no object
 * is lowest. Its sort by weight keeps equal weights in this order.
 */
static int tie_cmp(const struct sonde_profile_node *a, const struct sonde_profile_node *b)
{
	const struct prof_sym *sa = a->has_br ? NULL : a->fr->sym;
	const struct prof_sym *sb = b->has_br ? NULL : b->fr->sym;
	uint64_t ka, kb;

	if (sa && sb && (sa->inlined || sb->inlined) && sa->name && sb->name) {
		int c = strcmp(sa->name, sb->name);

		return c < 0 ? 1 : c > 0 ? -1 : 0;
	}
	ka = a->fr->dso ? (uint64_t)a->fr->dso->made_rank + 1 : 0;
	kb = b->fr->dso ? (uint64_t)b->fr->dso->made_rank + 1 : 0;
	if (ka == kb) {
		ka = sa && sb ? sa->start : a->fr->ip;
		kb = sa && sb ? sb->start : b->fr->ip;
	}
	return ka < kb ? 1 : ka > kb ? -1 : 0;
}

static int weight_cmp(const void *pa, const void *pb)
{
	const struct sonde_profile_node *a = *(const struct sonde_profile_node *const *)pa;
	const struct sonde_profile_node *b = *(const struct sonde_profile_node *const *)pb;

	if (a->cumul != b->cumul)
		return a->cumul > b->cumul ? -1 : 1;
	return tie_cmp(a, b);
}

static int addr_desc_cmp(const void *pa, const void *pb)
{
	return tie_cmp(*(const struct sonde_profile_node *const *)pa,
		       *(const struct sonde_profile_node *const *)pb);
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
	for (const struct sonde_profile_node *c = rel(n, n->child); c; c = rel(c, c->sibling))
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
	return n ? rel(n, n->parent) : NULL;
}

/* What ends at @n: its paths less those that go on into a child. */
static void node_self(const struct sonde_profile_node *n, uint64_t *period, uint64_t *nr)
{
	*period = n->cumul;
	*nr = n->nr_cumul;
	for (const struct sonde_profile_node *c = rel(n, n->child); c; c = rel(c, c->sibling)) {
		*period -= c->cumul;
		*nr -= c->nr_cumul;
	}
}

uint64_t sonde_profile_node__self(const struct sonde_profile_node *n)
{
	uint64_t period, nr;

	node_self(n, &period, &nr);
	return period;
}

uint64_t sonde_profile_node__total(const struct sonde_profile_node *n)
{
	return n->cumul;
}

uint64_t sonde_profile_node__nr_self(const struct sonde_profile_node *n)
{
	uint64_t period, nr;

	node_self(n, &period, &nr);
	return nr;
}

uint64_t sonde_profile_node__nr_total(const struct sonde_profile_node *n)
{
	return n->nr_cumul;
}

const char *sonde_profile_node__sym(const struct sonde_profile_node *n)
{
	return n->fr && n->fr->sym ? n->fr->sym->name : NULL;
}

bool sonde_profile_node__inlined(const struct sonde_profile_node *n)
{
	return n->fr && n->fr->sym && n->fr->sym->inlined;
}

uint64_t sonde_profile_node__ip(const struct sonde_profile_node *n)
{
	return n->fr ? n->fr->ip : 0;
}

const char *sonde_profile_node__dso(const struct sonde_profile_node *n)
{
	return n->fr && n->fr->dso ? n->fr->dso->name : NULL;
}
