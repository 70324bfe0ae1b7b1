// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The profile's sample groups seen per thread: the per-thread formats
 * (folded's comm, speedscope's and firefox's threads) read these, the
 * groups summed over CPUs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "export_priv.h"
#include "profile_priv.h"

struct grp {
	struct export_group g;
	uint32_t stack_id;
	uint64_t seq;
};

static int noop_stack(const struct sonde_profile_stack *st, uint64_t w, uint64_t n, void *arg)
{
	(void)st, (void)w, (void)n, (void)arg;
	return 0;
}

static bool str_in(char *const *list, size_t nr, const char *s)
{
	for (size_t i = 0; i < nr; i++)
		if (!strcmp(list[i], s))
			return true;
	return false;
}

bool export_stack_visible(const struct sonde_profile *p, const struct sonde_profile_stack *stack)
{
	const struct prof_frame *f = &((const struct prof_stack *)stack)->self;

	if (p->nr_f_dso) {
		const char *dn = f->dso ? f->dso->short_name : "[unknown]";
		const char *ln = f->dso ? f->dso->name : "[unknown]";

		if (!str_in(p->f_dso, p->nr_f_dso, dn) && !str_in(p->f_dso, p->nr_f_dso, ln))
			return false;
	}
	return !p->nr_f_sym || (f->sym && str_in(p->f_sym, p->nr_f_sym, f->sym->name));
}

static int cmp_thread(const struct grp *a, const struct grp *b)
{
	if (a->g.pid != b->g.pid)
		return a->g.pid < b->g.pid ? -1 : 1;
	if (a->g.tid != b->g.tid)
		return a->g.tid < b->g.tid ? -1 : 1;
	return 0;
}

/* Same thread, comm and stack together, first sample first. */
static int cmp_key(const void *pa, const void *pb)
{
	const struct grp *a = pa, *b = pb;
	int c = cmp_thread(a, b);

	if (c)
		return c;
	if (a->g.comm != b->g.comm)
		return (uintptr_t)a->g.comm < (uintptr_t)b->g.comm ? -1 : 1;
	if (a->stack_id != b->stack_id)
		return a->stack_id < b->stack_id ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int cmp_seq(const void *pa, const void *pb)
{
	const struct grp *a = pa, *b = pb;
	int c = cmp_thread(a, b);

	if (c)
		return c;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

struct export_group *export_groups(struct sonde_profile *p, const struct export_ctx *x,
				   size_t *nr)
{
	struct prof_group **v;
	struct export_group *out;
	struct grp *g;
	size_t n, k = 0, m = 0;

	*nr = 0;
	/* Gives every stack of the event its id and expands its inlines. */
	if (sonde_profile__foreach_stack(p, x->ev, noop_stack, NULL))
		return NULL;
	v = prof_groups_sorted(p, &n);
	g = malloc((n + 1) * sizeof(*g));
	if (!g) {
		free(v);
		errno = ENOMEM;
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		const struct prof_group *pg = v[i];
		const struct sonde_profile_stack *st = (const struct sonde_profile_stack *)pg->st;

		if (pg->ev != x->ev || (!pg->period && !pg->nr) || !export_stack_visible(p, (const struct sonde_profile_stack *)pg->st))
			continue;
		g[k++] = (struct grp){
			.g = { pg->comm, pg->pid, pg->tid, st, pg->period, pg->nr },
			.stack_id = sonde_profile_stack__id(st),
			.seq = pg->seq,
		};
	}
	free(v);
	qsort(g, k, sizeof(*g), cmp_key);
	for (size_t i = 0; i < k; i++) { /* sum the CPUs of one thread and stack */
		if (m && !cmp_thread(&g[m - 1], &g[i]) && g[m - 1].g.comm == g[i].g.comm &&
		    g[m - 1].stack_id == g[i].stack_id) {
			g[m - 1].g.weight += g[i].g.weight;
			g[m - 1].g.samples += g[i].g.samples;
		} else {
			g[m++] = g[i];
		}
	}
	qsort(g, m, sizeof(*g), cmp_seq);
	out = malloc((m + 1) * sizeof(*out));
	if (!out) {
		free(g);
		errno = ENOMEM;
		return NULL;
	}
	for (size_t i = 0; i < m; i++)
		out[i] = g[i].g;
	free(g);
	*nr = m;
	return out;
}

const char *export_period_unit(const struct sonde_profile *p, int ev)
{
	const struct sonde_perf_event_attr *a = &p->evs[ev].attr;

	if (a->type == SONDE_PERF_TYPE_SOFTWARE &&
	    (a->config == SONDE_PERF_COUNT_SW_CPU_CLOCK || a->config == SONDE_PERF_COUNT_SW_TASK_CLOCK))
		return "nanoseconds";
	return "count";
}
