// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The flame tree of a profile: distinct stacks merged by frame into a
 * node table with parent indexes, strings and frames interned once, so
 * the pictures cost memory linear in distinct frames and merged nodes.
 * Hash table entries are indexes + 1 (entries must not be NULL, and the
 * arrays they index move when they grow).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "export_priv.h"

#define IDX(v) ((uint32_t)((uintptr_t)(v) - 1))
#define VAL(i) ((void *)((uintptr_t)(i) + 1))

static int grow(void **arr, uint32_t *cap, uint32_t need, size_t elem)
{
	uint32_t n = *cap ? *cap : 64;
	void *a;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	a = realloc(*arr, (size_t)n * elem);
	if (!a)
		return -ENOMEM;
	*arr = a;
	*cap = n;
	return 0;
}

static int intern(struct flame *fl, const char *s, uint32_t *out)
{
	uint64_t h;
	struct hashtab_probe pr;
	void *v;
	char *dup;

	if (!s || !*s) {
		*out = 0;
		return 0;
	}
	h = hashtab_bytes_hash(s, strlen(s));
	for (v = hashtab_probe_first(&fl->str_ht, h, &pr); v; v = hashtab_probe_next(&fl->str_ht, &pr))
		if (!strcmp(fl->strs[IDX(v)], s)) {
			*out = IDX(v);
			return 0;
		}
	if (grow((void **)&fl->strs, &fl->cap_strs, fl->nr_strs + 1, sizeof(*fl->strs)))
		return -ENOMEM;
	dup = strdup(s);
	if (!dup)
		return -ENOMEM;
	if (hashtab_insert(&fl->str_ht, h, VAL(fl->nr_strs))) {
		free(dup);
		return -ENOMEM;
	}
	fl->strs[fl->nr_strs] = dup;
	*out = fl->nr_strs++;
	return 0;
}

/* A frame is its function, object and kind; the source line is the first met. */
static int frame_by_text(struct flame *fl, const struct sonde_profile_frame *f, uint32_t *out)
{
	struct flame_frame k = { 0 };
	struct hashtab_probe pr;
	const char *sym = export_frame_name(f); /* as folded names it */
	uint64_t h;
	void *v;
	int err;

	k.kind = sonde_profile_frame__kind(f) &
		 (SONDE_PROFILE_FRAME_KERNEL | SONDE_PROFILE_FRAME_JIT | SONDE_PROFILE_FRAME_INLINED);
	err = intern(fl, sym, &k.name);
	if (!err)
		err = intern(fl, sonde_profile_frame__dso(f), &k.dso);
	if (err)
		return err;
	h = hashtab_mix(hashtab_mix(k.name, k.dso), k.kind);
	for (v = hashtab_probe_first(&fl->frame_ht, h, &pr); v;
	     v = hashtab_probe_next(&fl->frame_ht, &pr)) {
		const struct flame_frame *o = &fl->frames[IDX(v)];

		if (o->name == k.name && o->dso == k.dso && o->kind == k.kind) {
			*out = IDX(v);
			return 0;
		}
	}
	err = intern(fl, sonde_profile_frame__srcline(fl->p, f), &k.src);
	if (err)
		return err;
	if (grow((void **)&fl->frames, &fl->cap_frames, fl->nr_frames + 1, sizeof(*fl->frames)) ||
	    hashtab_insert(&fl->frame_ht, h, VAL(fl->nr_frames)))
		return -ENOMEM;
	fl->frames[fl->nr_frames] = k;
	*out = fl->nr_frames++;
	return 0;
}

static int frame_of(struct flame *fl, const struct sonde_profile_frame *f, uint32_t *out)
{
	const char *name = export_frame_name(f), *dso = sonde_profile_frame__dso(f);
	uint32_t kind = sonde_profile_frame__kind(f);
	uint64_t h = hashtab_mix(hashtab_mix((uintptr_t)name, (uintptr_t)dso), kind);
	struct hashtab_probe pr;
	struct flame_pkey *k;
	void *v;
	int err;

	for (v = hashtab_probe_first(&fl->pkey_ht, h, &pr); v; v = hashtab_probe_next(&fl->pkey_ht, &pr)) {
		k = &fl->pkeys[IDX(v)];
		if (k->name == name && k->dso == dso && k->kind == kind) {
			*out = k->frame;
			return 0;
		}
	}
	err = frame_by_text(fl, f, out);
	if (err)
		return err;
	if (grow((void **)&fl->pkeys, &fl->cap_pkeys, fl->nr_pkeys + 1, sizeof(*fl->pkeys)) ||
	    hashtab_insert(&fl->pkey_ht, h, VAL(fl->nr_pkeys)))
		return -ENOMEM;
	fl->pkeys[fl->nr_pkeys++] = (struct flame_pkey){ name, dso, kind, *out };
	return 0;
}

static int node_of(struct flame *fl, uint32_t parent, uint32_t frame, uint32_t *out)
{
	uint64_t h = hashtab_mix(parent, frame);
	struct hashtab_probe pr;
	struct flame_node *n;
	void *v;

	for (v = hashtab_probe_first(&fl->node_ht, h, &pr); v; v = hashtab_probe_next(&fl->node_ht, &pr))
		if (fl->nodes[IDX(v)].parent == parent && fl->nodes[IDX(v)].frame == frame) {
			*out = IDX(v);
			return 0;
		}
	if (grow((void **)&fl->nodes, &fl->cap_nodes, fl->nr_nodes + 1, sizeof(*fl->nodes)) ||
	    hashtab_insert(&fl->node_ht, h, VAL(fl->nr_nodes)))
		return -ENOMEM;
	n = &fl->nodes[fl->nr_nodes];
	memset(n, 0, sizeof(*n));
	n->parent = parent;
	n->frame = frame;
	n->depth = fl->nodes[parent].depth + 1;
	if (n->depth > fl->max_depth)
		fl->max_depth = n->depth;
	*out = fl->nr_nodes++;
	return 0;
}

int flame_init(struct flame *fl)
{
	memset(fl, 0, sizeof(*fl));
	hashtab_init(&fl->str_ht);
	hashtab_init(&fl->frame_ht);
	hashtab_init(&fl->node_ht);
	hashtab_init(&fl->pkey_ht);
	if (grow((void **)&fl->strs, &fl->cap_strs, 1, sizeof(*fl->strs)) ||
	    grow((void **)&fl->nodes, &fl->cap_nodes, 1, sizeof(*fl->nodes)) ||
	    !(fl->strs[0] = strdup(""))) {
		flame_free(fl);
		return -ENOMEM;
	}
	fl->nr_strs = 1;
	memset(&fl->nodes[0], 0, sizeof(fl->nodes[0]));
	fl->nr_nodes = 1;
	return 0;
}

void flame_free(struct flame *fl)
{
	for (uint32_t i = 0; i < fl->nr_strs; i++)
		free(fl->strs[i]);
	free(fl->strs);
	free(fl->frames);
	free(fl->nodes);
	hashtab_free(&fl->str_ht);
	hashtab_free(&fl->frame_ht);
	hashtab_free(&fl->node_ht);
	free(fl->pkeys);
	hashtab_free(&fl->pkey_ht);
	free(fl->leaves);
	memset(fl, 0, sizeof(*fl));
}

static int set_leaf(struct flame *fl, uint32_t id, uint32_t node)
{
	uint32_t old = fl->cap_leaves;

	if (id == UINT32_MAX ||
	    grow((void **)&fl->leaves, &fl->cap_leaves, id + 1, sizeof(*fl->leaves)))
		return -ENOMEM;
	if (fl->cap_leaves > old)
		memset(fl->leaves + old, 0xff, (size_t)(fl->cap_leaves - old) * sizeof(*fl->leaves));
	fl->leaves[id] = node;
	if (id >= fl->nr_leaves)
		fl->nr_leaves = id + 1;
	return 0;
}

static int add_stack(const struct sonde_profile_stack *st, uint64_t weight, uint64_t samples,
		     void *arg)
{
	struct flame *fl = arg;
	uint32_t n = sonde_profile_stack__nr_frames(st), node = 0;

	/* Frame 0 is the innermost: walk from the outermost caller down. */
	for (uint32_t i = n; i-- > 0;) {
		uint32_t fr;
		int err = frame_of(fl, sonde_profile_stack__frame(st, i), &fr);

		if (!err)
			err = node_of(fl, node, fr, &node);
		if (err)
			return err;
	}
	fl->nodes[node].self[fl->col] += weight;
	fl->nodes[node].samples[fl->col] += samples;
	return fl->col ? 0 : set_leaf(fl, sonde_profile_stack__id(st), node);
}

int flame_add_profile(struct flame *fl, struct sonde_profile *p, int ev, int col)
{
	fl->p = p;
	fl->col = col;
	return sonde_profile__foreach_stack(p, ev, add_stack, fl);
}

void flame_finish(struct flame *fl)
{
	for (uint32_t i = 0; i < fl->nr_nodes; i++)
		for (int c = 0; c < 2; c++)
			fl->nodes[i].total[c] = fl->nodes[i].self[c],
			fl->nodes[i].total_samples[c] = fl->nodes[i].samples[c];
	for (uint32_t i = fl->nr_nodes; i-- > 1;) {
		struct flame_node *up = &fl->nodes[fl->nodes[i].parent];

		for (int c = 0; c < 2; c++) {
			up->total[c] += fl->nodes[i].total[c];
			up->total_samples[c] += fl->nodes[i].total_samples[c];
		}
	}
}

int flame_build(struct flame *fl, struct sonde_profile *p, int ev,
		struct sonde_profile *baseline, int base_ev)
{
	int err = flame_init(fl);

	if (err)
		return err;
	err = flame_add_profile(fl, p, ev, 0);
	if (!err && baseline)
		err = flame_add_profile(fl, baseline, base_ev, 1);
	if (err) {
		flame_free(fl);
		return err;
	}
	flame_finish(fl);
	return 0;
}

static int by_name(const void *a, const void *b, void *ctx)
{
	const struct flame *fl = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int c = strcmp(fl->strs[fl->frames[fl->nodes[x].frame].name],
		       fl->strs[fl->frames[fl->nodes[y].frame].name]);

	return c ? c : (x > y) - (x < y);
}

int flame_children(const struct flame *fl, uint32_t **first, uint32_t **kids)
{
	uint32_t n = fl->nr_nodes, *f = calloc((size_t)n + 1, sizeof(*f));
	uint32_t *k = malloc(((size_t)n + 1) * sizeof(*k));
	uint32_t *fill = malloc(((size_t)n + 1) * sizeof(*fill));

	if (!f || !k || !fill) {
		free(f);
		free(k);
		free(fill);
		return -ENOMEM;
	}
	for (uint32_t i = 1; i < n; i++)
		f[fl->nodes[i].parent + 1]++;
	for (uint32_t i = 0; i < n; i++)
		f[i + 1] += f[i];
	memcpy(fill, f, (size_t)n * sizeof(*fill));
	for (uint32_t i = 1; i < n; i++)
		k[fill[fl->nodes[i].parent]++] = i;
	free(fill);
	for (uint32_t i = 0; i < n; i++)
		if (f[i + 1] - f[i] > 1)
			qsort_r(k + f[i], f[i + 1] - f[i], sizeof(*k), by_name, (void *)fl);
	*first = f;
	*kids = k;
	return 0;
}
