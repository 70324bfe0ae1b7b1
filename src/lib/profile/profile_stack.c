// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Stacks and frames of a profile: one sample resolved for `script`,
 * every distinct stack with its weight for exporters, and merging the
 * groups of one profile into another (diffs).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "profile_priv.h"

/* Stack ids are handed out on first use; priv marks stacks that have one. */
static const char stack_id_mark;

static uint32_t stack_id(struct sonde_profile *p, struct prof_stack *st)
{
	if (st->transient) /* not kept: no number to find it by again */
		st->priv2 = UINT32_MAX;
	else if (st->priv != &stack_id_mark) {
		st->priv = (void *)&stack_id_mark;
		st->priv2 = p->nr_stack_ids++;
	}
	return (uint32_t)st->priv2;
}

const struct sonde_profile_stack *sonde_profile__sample_stack(struct sonde_profile *p, int ev,
							      const struct sonde_record *rec)
{
	struct sample_view s;
	struct prof_thread *t;
	struct prof_stack *st;
	int ei;

	if (!p || !rec || rec->type != SONDE_PERF_RECORD_SAMPLE) {
		errno = EINVAL;
		return NULL;
	}
	if (ev < 0 || ev >= p->nr_evs)
		prof_sync_reader(p); /* a pipe's new events */
	ei = prof_route(p, ev, rec);
	if (ei < 0) {
		errno = ENOENT;
		return NULL;
	}
	sample_view_of(&p->evs[ei].fmt, p->evs[ei].period0, &rec->sample, &s);
	t = prof_thread_findnew(p->m, (int32_t)s.pid, (int32_t)s.tid);
	st = prof_sample_stack(p->stacks, p->reader, p->evs[ei].fmt.sample_type, t, rec->misc, &s,
			      p->callchains);
	prof_stacks_finish(p->stacks); /* its frames are read right away */
	stack_id(p, st);
	return (const struct sonde_profile_stack *)st;
}

const char *sonde_profile__sample_comm(struct sonde_profile *p, int32_t pid, int32_t tid)
{
	return prof_thread_findnew(p->m, pid, tid)->comm;
}

uint32_t sonde_profile_stack__id(const struct sonde_profile_stack *st)
{
	return (uint32_t)((const struct prof_stack *)st)->priv2;
}

uint32_t sonde_profile_stack__nr_frames(const struct sonde_profile_stack *st)
{
	return ((const struct prof_stack *)st)->nr_frames;
}

const struct sonde_profile_frame *sonde_profile_stack__frame(const struct sonde_profile_stack *st,
							     uint32_t i)
{
	const struct prof_stack *s = (const struct prof_stack *)st;

	return i < s->nr_frames ? (const struct sonde_profile_frame *)&s->frames[i] : NULL;
}

const struct sonde_profile_frame *sonde_profile_stack__self(const struct sonde_profile_stack *st)
{
	return (const struct sonde_profile_frame *)&((const struct prof_stack *)st)->self;
}

#define FR(f) ((const struct prof_frame *)(f))

const char *sonde_profile_frame__sym(const struct sonde_profile_frame *f)
{
	return FR(f)->sym ? FR(f)->sym->name : NULL;
}

uint64_t sonde_profile_frame__sym_offset(const struct sonde_profile_frame *f)
{
	const struct prof_frame *fr = FR(f);

	if (!fr->sym)
		return 0;
	if (fr->sym_off1)
		return fr->sym_off1 - 1;
	return (fr->dso ? prof_dso_vaddr(fr->dso, fr->addr) : fr->addr) - fr->sym->start;
}

const char *sonde_profile_frame__dso(const struct sonde_profile_frame *f)
{
	return FR(f)->dso ? FR(f)->dso->name : NULL;
}

const char *sonde_profile_frame__dso_short(const struct sonde_profile_frame *f)
{
	return FR(f)->dso ? FR(f)->dso->short_name : NULL;
}

uint64_t sonde_profile_frame__ip(const struct sonde_profile_frame *f)
{
	return FR(f)->ip;
}

uint64_t sonde_profile_frame__addr(const struct sonde_profile_frame *f)
{
	return FR(f)->addr;
}

unsigned int sonde_profile_frame__kind(const struct sonde_profile_frame *f)
{
	const struct prof_frame *fr = FR(f);
	unsigned int k = 0;

	if (fr->kernel)
		k |= SONDE_PROFILE_FRAME_KERNEL;
	if (fr->dso && fr->dso->jit)
		k |= SONDE_PROFILE_FRAME_JIT;
	if (fr->sym && fr->sym->inlined)
		k |= SONDE_PROFILE_FRAME_INLINED;
	if (fr->unwound)
		k |= SONDE_PROFILE_FRAME_UNWOUND;
	return k;
}

const char *sonde_profile_frame__srcline(struct sonde_profile *p,
					 const struct sonde_profile_frame *f)
{
	const struct prof_frame *fr = FR(f);

	return fr->dso ? prof_dso_srcline(p->m, fr->dso, fr->addr) : NULL;
}

const char *sonde_profile__kernel_sym(struct sonde_profile *p, uint64_t addr, uint64_t *start)
{
	const struct prof_sym *sym = prof_dso_find_sym(p->m, prof_kernel_dso(p->m), addr);

	if (sym && start)
		*start = sym->start;
	return sym ? sym->name : NULL;
}

/* One stack's weight summed over its groups. */
struct stack_sum {
	struct prof_stack *st;
	uint64_t weight, nr;
};

static uint64_t stack_ptr_hash(const struct prof_stack *st)
{
	return prof_mix((uintptr_t)st, 0);
}

int sonde_profile__foreach_stack(struct sonde_profile *p, int ev, sonde_profile__stack_fn fn,
				 void *arg)
{
	struct hashtab by_stack; /* of struct stack_sum */
	struct stack_sum *sums;
	struct prof_group **v;
	size_t n, nr_sums = 0;
	int ret = 0;

	if (!p || !fn || ev < 0 || ev >= p->nr_evs)
		return -EINVAL;
	prof_stacks_finish(p->stacks);
	v = prof_groups_sorted(p, &n);
	sums = malloc((n + 1) * sizeof(*sums));
	if (!sums) {
		free(v);
		return -ENOMEM;
	}
	hashtab_init(&by_stack);
	for (size_t i = 0; i < n; i++) {
		uint64_t h = stack_ptr_hash(v[i]->st);
		struct hashtab_probe probe;
		struct stack_sum *sum;

		if (v[i]->ev != ev || (!v[i]->period && !v[i]->nr))
			continue;
		for (sum = hashtab_probe_first(&by_stack, h, &probe); sum;
		     sum = hashtab_probe_next(&by_stack, &probe))
			if (sum->st == v[i]->st)
				break;
		if (!sum) {
			sum = &sums[nr_sums];
			if (hashtab_insert(&by_stack, h, sum)) {
				ret = -ENOMEM;
				goto out;
			}
			nr_sums++;
			sum->st = v[i]->st;
			sum->weight = sum->nr = 0;
		}
		sum->weight += v[i]->period;
		sum->nr += v[i]->nr;
	}
	for (size_t i = 0; i < nr_sums && !ret; i++) {
		stack_id(p, sums[i].st);
		ret = fn((const struct sonde_profile_stack *)sums[i].st, sums[i].weight, sums[i].nr,
			 arg);
	}
out:
	hashtab_free(&by_stack);
	free(sums);
	free(v);
	return ret;
}

/* ---- merging ---- */

/* @fr of another machine, resolved again in @m's objects. */
static void import_frame(struct prof_machine *m, const struct prof_frame *fr,
			 struct prof_frame *out)
{
	*out = *fr;
	out->sym = NULL;
	out->dso = NULL;
	out->sym_off1 = 0; /* the symbol is looked up again */
	if (!fr->dso)
		return;
	out->dso = prof_dso_findnew(m, fr->dso->name, strlen(fr->dso->name), fr->dso->kernel);
	if (fr->dso->ksym && out->dso != prof_kernel_dso(m)) {
		/* Its symbols were the records' of the other file: taken along. */
		out->dso->ksym = out->dso->loaded = true;
		if (fr->sym)
			out->sym = prof_ksym_add(m, out->dso, fr->sym->start, fr->sym->end,
						prof_intern(m, fr->sym->name, strlen(fr->sym->name)));
		return;
	}
	if (!fr->sym)
		return;
	if (fr->sym->inlined) {
		/* The function it was inlined into, then the inline's symbol. */
		const struct prof_sym *base = prof_dso_find_sym(m, out->dso, fr->addr);

		if (base)
			out->sym = prof_inline_sym(m, out->dso, base,
						  prof_intern(m, fr->sym->name,
							     strlen(fr->sym->name)));
		return;
	}
	out->sym = prof_dso_find_sym(m, out->dso, fr->addr);
}

static uint64_t frames_hash(const struct prof_frame *self, const struct prof_frame *v, uint32_t n)
{
	uint64_t h = prof_mix((uintptr_t)self->sym, self->ip);

	for (uint32_t i = 0; i < n; i++)
		h = prof_mix(prof_mix(h, (uintptr_t)v[i].sym), v[i].ip ^ (uintptr_t)v[i].dso);
	return h ^ n;
}

static bool frame_eq(const struct prof_frame *a, const struct prof_frame *b)
{
	return a->dso == b->dso && a->sym == b->sym && a->ip == b->ip && a->addr == b->addr &&
	       a->kernel == b->kernel && a->unwound == b->unwound;
}

static bool frames_eq(const struct prof_stack *a, const struct prof_stack *b)
{
	if (a->nr_frames != b->nr_frames || !frame_eq(&a->self, &b->self))
		return false;
	for (uint32_t i = 0; i < a->nr_frames; i++)
		if (!frame_eq(&a->frames[i], &b->frames[i]))
			return false;
	return true;
}

struct import_ctx {
	struct prof_machine *m;
	struct hashtab by_frames; /* stacks of dst by content (frames_hash) */
};

static uint64_t stack_hash(const struct prof_stack *st)
{
	return frames_hash(&st->self, st->frames, st->nr_frames);
}

static void content_add(struct import_ctx *c, struct prof_stack *st)
{
	uint64_t h = stack_hash(st);
	struct hashtab_probe probe;
	struct prof_stack *e;

	for (e = hashtab_probe_first(&c->by_frames, h, &probe); e;
	     e = hashtab_probe_next(&c->by_frames, &probe))
		if (e == st)
			return;
	/* Room was reserved for every stack: this cannot fail. */
	(void)hashtab_insert(&c->by_frames, h, st);
}

static void content_add_cb(struct prof_stack *st, void *arg)
{
	content_add(arg, st);
}

/* The stack of @dst standing for @src's @st (made once). */
static struct prof_stack *import_stack(struct import_ctx *c, const struct prof_stack *st)
{
	struct prof_stack tmp = { 0 }, *s;
	struct hashtab_probe probe;
	uint64_t h;

	tmp.nr_frames = st->nr_frames;
	tmp.frames = prof_alloc(c->m, (st->nr_frames + 1) * sizeof(*tmp.frames));
	for (uint32_t k = 0; k < st->nr_frames; k++)
		import_frame(c->m, &st->frames[k], &tmp.frames[k]);
	import_frame(c->m, &st->self, &tmp.self);
	h = stack_hash(&tmp);
	for (s = hashtab_probe_first(&c->by_frames, h, &probe); s;
	     s = hashtab_probe_next(&c->by_frames, &probe))
		if (frames_eq(s, &tmp))
			return s;
	s = prof_alloc(c->m, sizeof(*s));
	*s = tmp;
	(void)hashtab_insert(&c->by_frames, h, s); /* reserved, as above */
	return s;
}

/* A stack of the merged profile and the one it was imported as. */
struct stack_import {
	const struct prof_stack *src;
	struct prof_stack *dst;
};

/* @a - @b, stopping at 0 */
static uint64_t sub0(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

static void stats_add(struct sonde_profile_event_stats *d,
		      const struct sonde_profile_event_stats *s, int factor)
{
	if (factor > 0) {
		d->samples += s->samples;
		d->period += s->period;
		d->lost_samples += s->lost_samples;
	} else {
		d->samples = sub0(d->samples, s->samples);
		d->period = sub0(d->period, s->period);
		d->lost_samples = sub0(d->lost_samples, s->lost_samples);
	}
}

static void weight_add(uint64_t *period, uint64_t *nr, const struct prof_group *g, int factor)
{
	if (factor > 0) {
		*period += g->period;
		*nr += g->nr;
	} else {
		*period = sub0(*period, g->period);
		*nr = sub0(*nr, g->nr);
	}
}

/* The event of @dst whose name is @name's, or -1. */
static int event_by_name(const struct sonde_profile *dst, const char *name)
{
	for (int i = 0; i < dst->nr_evs; i++)
		if (!strcmp(sonde_profile__event_name(dst, i), name))
			return i;
	return -1;
}

/*
 * @src's events in @dst (declared when missing): the same index, or with
 * @by_name the event of the same name. @map gets one index per src event.
 */
static int map_events(struct sonde_profile *dst, struct sonde_profile *src, bool by_name,
		      int *map)
{
	for (int i = 0; i < src->nr_evs; i++) {
		const struct prof_event *e = &src->evs[i];
		const char *name = sonde_profile__event_name(src, i);
		int j = by_name ? event_by_name(dst, name) : i < dst->nr_evs ? i : -1;

		if (j < 0)
			j = prof_event_new(dst, &e->attr, &e->fmt, e->ids, e->nr_ids, name);
		if (j < 0)
			return j;
		map[i] = j;
	}
	return 0;
}

/*
 * @src's samples times @factor into @dst's own weights, or (@as_base)
 * into its baseline weights, or into column @col; with @pair ({ src
 * event, dst event }) only that event's, into that one.
 */
static int merge(struct sonde_profile *dst, struct sonde_profile *src, int factor, bool as_base,
		 const int *pair, struct prof_column *col)
{
	struct import_ctx c = { 0 };
	struct hashtab imported; /* of struct stack_import, by src stack */
	struct stack_import *imp = NULL;
	struct prof_group **v;
	size_t n, nr_imp = 0;
	int *evmap;
	int ret;

	hashtab_init(&c.by_frames);
	hashtab_init(&imported);
	prof_stacks_finish(src->stacks);
	prof_stacks_finish(dst->stacks);
	evmap = calloc((size_t)src->nr_evs + 1, sizeof(*evmap));
	if (!evmap)
		return -ENOMEM;
	for (int i = 0; pair && i < src->nr_evs; i++)
		evmap[i] = i == pair[0] ? pair[1] : -1;
	ret = pair ? 0 : map_events(dst, src, as_base, evmap);
	if (ret < 0)
		goto out;
	for (int i = 0; i < src->nr_evs; i++) {
		struct prof_event *d;

		if (evmap[i] < 0)
			continue;
		d = &dst->evs[evmap[i]];

		stats_add(col ? &col->stats : as_base ? &d->base_stats : &d->stats,
			  &src->evs[i].stats, factor);
	}
	/*
	 * Room for every stack and group of dst plus every group of src: the
	 * table never grows, and growing could reorder stacks of equal content,
	 * whose first one an import must keep finding.
	 */
	c.m = dst->m;
	if (hashtab_reserve(&c.by_frames, prof_stacks_count(dst->stacks) + prof_nr_groups(dst) +
						  prof_nr_groups(src))) {
		ret = -ENOMEM;
		goto out;
	}
	prof_stacks_foreach(dst->stacks, content_add_cb, &c);
	/* and the stacks earlier merges brought, which only dst's groups hold */
	v = prof_groups_sorted(dst, &n);
	for (size_t i = 0; i < n; i++)
		content_add(&c, v[i]->st);
	free(v);
	v = prof_groups_sorted(src, &n);
	imp = malloc((n + 1) * sizeof(*imp));
	if (!imp || (col && prof_column_reserve(col, n))) {
		free(v);
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		const struct prof_group *g = v[i];
		uint64_t h = stack_ptr_hash(g->st);
		struct hashtab_probe probe;
		struct stack_import *e;
		struct prof_group *d;

		if (evmap[g->ev] < 0)
			continue;
		for (e = hashtab_probe_first(&imported, h, &probe); e;
		     e = hashtab_probe_next(&imported, &probe))
			if (e->src == g->st)
				break;
		if (!e) {
			e = &imp[nr_imp];
			if (hashtab_insert(&imported, h, e)) {
				ret = -ENOMEM;
				break;
			}
			nr_imp++;
			e->src = g->st;
			e->dst = import_stack(&c, g->st);
		}
		d = prof_group_get(dst, evmap[g->ev],
				   g->comm ? prof_intern(dst->m, g->comm, strlen(g->comm)) : NULL,
				   g->pid, g->tid, g->cpu, e->dst, NULL, g->cpumode, NULL);
		if (col) {
			if ((ret = prof_column_add(col, d, g->period, g->nr)))
				break;
		} else if (as_base)
			weight_add(&d->base_period, &d->base_nr, g, factor);
		else
			weight_add(&d->period, &d->nr, g, factor);
	}
	if (src->have_callchains && !as_base && !col)
		dst->have_callchains = true;
	dst->dirty = true;
	free(v);
out:
	hashtab_free(&c.by_frames);
	hashtab_free(&imported);
	free(imp);
	free(evmap);
	return ret;
}

int sonde_profile__merge(struct sonde_profile *dst, struct sonde_profile *src, int factor)
{
	if (!dst || !src || dst == src || !factor)
		return -EINVAL;
	return merge(dst, src, factor, false, NULL, NULL);
}

int sonde_profile__add_baseline(struct sonde_profile *p, struct sonde_profile *base)
{
	if (!p || !base || p == base)
		return -EINVAL;
	return merge(p, base, 1, true, NULL, NULL);
}

int sonde_profile__set_baseline(struct sonde_profile *p, int ev, struct sonde_profile *base,
				int base_ev)
{
	const int pair[2] = { base_ev, ev };
	struct prof_group **v;
	size_t n;

	if (!p || !base || p == base || ev < 0 || ev >= p->nr_evs || base_ev < 0 ||
	    base_ev >= base->nr_evs)
		return -EINVAL;
	/* the event's baseline so far goes: groups left with no weight at all
	 * make no entry */
	v = prof_groups_sorted(p, &n);
	for (size_t i = 0; i < n; i++)
		if (v[i]->ev == ev)
			v[i]->base_period = v[i]->base_nr = 0;
	free(v);
	memset(&p->evs[ev].base_stats, 0, sizeof(p->evs[ev].base_stats));
	p->dirty = true;
	return merge(p, base, 1, true, pair, NULL);
}

int sonde_profile__add_column(struct sonde_profile *p, int ev, struct sonde_profile *src,
			      int src_ev)
{
	const int pair[2] = { src_ev, ev };
	struct prof_event *e;
	struct prof_column *cols;
	int ret;

	if (!p || !src || p == src || ev < 0 || ev >= p->nr_evs || src_ev < 0 ||
	    src_ev >= src->nr_evs)
		return -EINVAL;
	e = &p->evs[ev];
	cols = realloc(e->cols, ((size_t)e->nr_cols + 1) * sizeof(*cols));
	if (!cols)
		return -ENOMEM;
	e->cols = cols;
	memset(&cols[e->nr_cols], 0, sizeof(*cols));
	hashtab_init(&cols[e->nr_cols].by_group);
	ret = merge(p, src, 1, false, pair, &cols[e->nr_cols]);
	if (ret) { /* no column: the groups the merge made weigh nothing */
		hashtab_free(&cols[e->nr_cols].by_group);
		free(cols[e->nr_cols].w);
		return ret;
	}
	p->columns = true;
	p->dirty = true;
	return ++e->nr_cols;
}
