// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The order perf 6.1 leaves rows in that its output sort calls equal:
 * the walk of its entries tree (hists->entries_in, then the collapsed
 * tree when a key collapses, as comm does). That tree is built with
 * hist_entry__cmp(), which is no total order: sort__sym_cmp() compares
 * two rows without a symbol by address alone and any other pair by
 * object first, so where such a row lands depends on the tree's shape.
 * Here the entries go into a tree with the kernel's insertion rules, in
 * the order perf's samples first made them (their seq), by perf's own
 * comparisons; each entry keeps its place in the walk.
 */
#include <stdlib.h>
#include <string.h>
#include "profile_priv.h"

struct walk_node {
	struct prof_rb rb;
	struct sonde_profile_entry *e;
};

static int sign(int64_t v)
{
	return (v > 0) - (v < 0);
}

/* perf's sort__dso_cmp(L, R), on the interned short names. */
static int dso_cmp(const char *l, const char *r)
{
	if (!l || !r)
		return (int)prof_cmp_null(l, r);
	return l == r ? 0 : sign(strcmp(r, l));
}

/*
 * perf 6.1's sort__sym_cmp(): its test for a dso key
 * (!has(dso) || has(dso)) always holds, so the object always counts.
 */
static int entry_sym_cmp(const struct prof_key *l, const struct prof_key *r)
{
	int c;

	if (!l->sym && !r->sym)
		return sign((int64_t)(r->addr - l->addr));
	c = dso_cmp(l->dso_id, r->dso_id);
	return c ? c : sign(prof_sym_cmp(l->sym, r->sym));
}

/* hist_entry__cmp(@l, @r): the tree's node, then the entry going in. */
static int tree_cmp(const struct sonde_profile *p, const struct sonde_profile_entry *l,
		    const struct sonde_profile_entry *r)
{
	for (int i = 0; i < p->nr_keys; i++) {
		enum sonde_profile_key k = p->order[i];
		int c;

		/*
		 * The others compare as their output sort does, which perf's
		 * cmp functions write as (right - left): the opposite sign.
		 */
		if (k == SONDE_PROFILE_KEY_SYM)
			c = entry_sym_cmp(&l->k, &r->k);
		else
			c = -prof_key_cmp1(p, k, l, r);
		if (c)
			return c;
	}
	return 0;
}

/*
 * perf's walk down its tree (hists__findnew_entry(),
 * hists__collapse_insert_entry()). An entry perf would call equal to
 * one already there is one perf had merged; here it stays a row of its
 * own, after that one.
 */
static void tree_insert(const struct sonde_profile *p, struct prof_rb_root *t, struct walk_node *n)
{
	struct prof_rb **link = &t->top, *parent = NULL;

	while (*link) {
		const struct walk_node *x = (const struct walk_node *)(void *)*link;

		parent = *link;
		link = tree_cmp(p, x->e, n->e) < 0 ? &parent->left : &parent->right;
	}
	prof_rb_insert(t, &n->rb, parent, link);
}

void prof_walk_event(struct sonde_profile *p, int ei)
{
	struct walk_node *v, *w;
	struct prof_rb_root in = { NULL }, out = { NULL };
	size_t n = 0, k = 0;

	for (size_t i = 0; i < p->nr_ents; i++)
		n += prof_entry_at(p, i)->k.ev == ei;
	v = malloc((n ? n : 1) * sizeof(*v));
	w = malloc((n ? n : 1) * sizeof(*w));
	if (!v || !w) { /* out of memory: creation order */
		for (size_t i = 0; i < p->nr_ents; i++)
			prof_entry_at(p, i)->walk = prof_entry_at(p, i)->seq;
		free(v);
		free(w);
		return;
	}
	for (size_t i = 0; i < p->nr_ents; i++) {
		struct sonde_profile_entry *e = prof_entry_at(p, i);

		if (e->k.ev != ei)
			continue;
		v[k].e = e;
		tree_insert(p, &in, &v[k++]);
	}
	/* perf collapses only when a key has a collapse function: comm's */
	if (p->keys[SONDE_PROFILE_KEY_COMM]) {
		k = 0;
		for (struct prof_rb *x = prof_rb_first(&in); x; x = prof_rb_next(x)) {
			w[k].e = ((struct walk_node *)(void *)x)->e;
			tree_insert(p, &out, &w[k++]);
		}
	}
	k = 0;
	for (struct prof_rb *x = prof_rb_first(out.top ? &out : &in); x; x = prof_rb_next(x))
		((struct walk_node *)(void *)x)->e->walk = k++;
	free(v);
	free(w);
}
