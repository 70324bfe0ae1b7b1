// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The columns of an event's histogram (sonde_profile__add_column()):
 * perf diff's files beside its baseline. A column's samples are merged
 * into the profile's own sample groups (profile_stack.c), so its entries
 * are the profile's entries, paired by the sort keys where the histogram
 * is made; its weights are kept apart, per group in a hash table, and
 * summed per entry as the histogram is made (profile_hist.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "profile_priv.h"

static uint64_t group_hash(const struct prof_group *g)
{
	return prof_mix((uintptr_t)g, 0);
}

static struct prof_colw *colw_find(const struct prof_column *c, const struct prof_group *g)
{
	struct hashtab_probe probe;
	struct prof_colw *w;

	for (w = hashtab_probe_first(&c->by_group, group_hash(g), &probe); w;
	     w = hashtab_probe_next(&c->by_group, &probe))
		if (w->g == g)
			return w;
	return NULL;
}

/* Records never move once the table points at them: room is made before. */
int prof_column_reserve(struct prof_column *c, size_t n)
{
	c->w = malloc((n ? n : 1) * sizeof(*c->w));
	if (!c->w)
		return -ENOMEM;
	c->cap_w = n;
	return hashtab_reserve(&c->by_group, n);
}

int prof_column_add(struct prof_column *c, const struct prof_group *g, uint64_t period,
		    uint64_t nr)
{
	struct prof_colw *w = colw_find(c, g);

	if (!w) {
		if (c->nr_w == c->cap_w)
			return -ENOMEM;
		w = &c->w[c->nr_w];
		*w = (struct prof_colw){ g, 0, 0 };
		if (hashtab_insert(&c->by_group, group_hash(g), w))
			return -ENOMEM;
		c->nr_w++;
	}
	w->period += period;
	w->nr += nr;
	return 0;
}

bool prof_columns_group(const struct sonde_profile *p, const struct prof_group *g)
{
	const struct prof_event *ev = &p->evs[g->ev];

	for (int k = 0; k < ev->nr_cols; k++) {
		const struct prof_colw *w = colw_find(&ev->cols[k], g);

		if (w && (w->period || w->nr))
			return true;
	}
	return false;
}

/* Entry weights by seq: room for entry @seq, the new part zeroed. */
static void ent_room(struct prof_column *c, size_t seq)
{
	size_t cap = c->cap_ent ? c->cap_ent : 1024;
	uint64_t *per, *nr;

	if (seq < c->cap_ent)
		return;
	while (cap <= seq)
		cap *= 2;
	per = realloc(c->ent_period, cap * sizeof(*per));
	if (per)
		c->ent_period = per;
	nr = per ? realloc(c->ent_nr, cap * sizeof(*nr)) : NULL;
	if (!nr) /* as the entries' own blocks: the histogram cannot be half made */
		abort();
	c->ent_nr = nr;
	memset(per + c->cap_ent, 0, (cap - c->cap_ent) * sizeof(*per));
	memset(nr + c->cap_ent, 0, (cap - c->cap_ent) * sizeof(*nr));
	c->cap_ent = cap;
}

void prof_columns_expand(struct sonde_profile *p, const struct prof_group *g,
			 const struct sonde_profile_entry *e, bool visible)
{
	struct prof_event *ev = &p->evs[g->ev];

	for (int k = 0; k < ev->nr_cols; k++) {
		struct prof_column *c = &ev->cols[k];
		const struct prof_colw *w = colw_find(c, g);

		if (!w || (!w->period && !w->nr))
			continue;
		ent_room(c, e->seq);
		c->ent_period[e->seq] += w->period;
		c->ent_nr[e->seq] += w->nr;
		if (visible) {
			c->stats.filtered_samples += w->nr;
			c->stats.filtered_period += w->period;
		}
	}
}

bool prof_columns_entry(const struct sonde_profile *p, const struct sonde_profile_entry *e)
{
	const struct prof_event *ev = &p->evs[e->k.ev];

	for (int k = 0; k < ev->nr_cols; k++)
		if (e->seq < ev->cols[k].cap_ent && ev->cols[k].ent_period[e->seq])
			return true;
	return false;
}

void prof_columns_reset(struct sonde_profile *p, bool all)
{
	for (int i = 0; i < p->nr_evs; i++) {
		struct prof_event *ev = &p->evs[i];

		for (int k = 0; k < ev->nr_cols; k++) {
			struct prof_column *c = &ev->cols[k];

			free(c->ent_period);
			free(c->ent_nr);
			c->ent_period = c->ent_nr = NULL;
			c->cap_ent = 0;
			c->stats.filtered_samples = c->stats.filtered_period = 0;
			if (all) {
				hashtab_free(&c->by_group);
				free(c->w);
			}
		}
		if (all) {
			free(ev->cols);
			ev->cols = NULL;
			ev->nr_cols = 0;
		}
	}
}

int sonde_profile__nr_columns(struct sonde_profile *p, int ev)
{
	if (!p || ev < 0 || ev >= p->nr_evs)
		return 0;
	return 1 + p->evs[ev].nr_cols;
}

int sonde_profile__column_stats(struct sonde_profile *p, int ev, int col,
				struct sonde_profile_event_stats *out)
{
	if (!p || !out || ev < 0 || ev >= p->nr_evs || col < 0 || col > p->evs[ev].nr_cols)
		return -EINVAL;
	if (!col)
		return sonde_profile__event_stats(p, ev, out);
	prof_hist_build(p);
	*out = p->evs[ev].cols[col - 1].stats;
	return 0;
}

/* Column @col of @e's event, or NULL. */
static const struct prof_column *entry_column(const struct sonde_profile_entry *e, int col)
{
	const struct prof_event *ev = &e->owner->evs[e->k.ev];

	if (col < 1 || col > ev->nr_cols || e->seq >= ev->cols[col - 1].cap_ent)
		return NULL;
	return &ev->cols[col - 1];
}

uint64_t sonde_profile_entry__column(const struct sonde_profile_entry *e, int col)
{
	const struct prof_column *c;

	if (!col)
		return e->self;
	c = entry_column(e, col);
	return c ? c->ent_period[e->seq] : 0;
}

uint64_t sonde_profile_entry__column_samples(const struct sonde_profile_entry *e, int col)
{
	const struct prof_column *c;

	if (!col)
		return e->nr_self;
	c = entry_column(e, col);
	return c ? c->ent_nr[e->seq] : 0;
}
