// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The histogram of a profile: every sample group expanded into entries by
 * the sort keys (self to the sampled function, children to each caller
 * once per stack) and sorted the way perf report sorts them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "profile_priv.h"

static uint64_t key_hash(const struct prof_key *k)
{
	uint64_t h = prof_mix((uintptr_t)k->comm, (uint64_t)(uint32_t)k->ev);

	h = prof_mix(h, ((uint64_t)(uint32_t)k->pid << 32) | (uint32_t)k->tid);
	h = prof_mix(h, (uint64_t)(uint32_t)k->cpu);
	h = prof_mix(h, (uintptr_t)k->dso_id);
	h = prof_mix(h, k->sym ? k->sym_start ^ (uintptr_t)k->sym_iname : k->addr);
	return prof_mix(h, (uintptr_t)k->srcline ^ (uintptr_t)k->x);
}

static bool key_eq(const struct prof_key *a, const struct prof_key *b)
{
	return a->ev == b->ev && a->comm == b->comm && a->pid == b->pid &&
	       a->tid == b->tid && a->cpu == b->cpu && a->dso_id == b->dso_id &&
	       !a->sym == !b->sym && a->sym_start == b->sym_start && a->sym_end == b->sym_end &&
	       a->sym_iname == b->sym_iname && a->addr == b->addr && a->srcline == b->srcline &&
	       a->x == b->x;
}

/* mode_self[]'s index of a cpumode (header misc & 7); -1: perf splits no such. */
static int prof_mode_index(unsigned cpumode)
{
	switch (cpumode) {
	case SONDE_PERF_RECORD_MISC_KERNEL:
		return 0;
	case SONDE_PERF_RECORD_MISC_USER:
		return 1;
	case SONDE_PERF_RECORD_MISC_GUEST_KERNEL:
		return 2;
	case SONDE_PERF_RECORD_MISC_GUEST_USER:
		return 3;
	default:
		return -1;
	}
}

/* perf's srcline: the line table's answer, else sym+offset or dso[addr], "??:0" outside any object. */
static const char *srcline(struct sonde_profile *p, struct prof_dso *dso,
			   const struct prof_sym *sym, uint64_t addr)
{
	char buf[512];
	const char *sl = dso && !dso->kernel ? prof_dso_srcline(p->m, dso, addr) : NULL;

	if (sl)
		return sl;
	if (sym)
		snprintf(buf, sizeof(buf), "%s+%" PRIu64, sym->name,
			 (dso ? prof_dso_vaddr(dso, addr) : addr) - sym->start);
	else if (dso)
		snprintf(buf, sizeof(buf), "%s[%" PRIx64 "]", dso->short_name, addr);
	else
		snprintf(buf, sizeof(buf), "??:0");
	return prof_intern(p->m, buf, strlen(buf));
}

/*
 * The comm perf sizes the comm and pid columns by: thread__comm_len() of
 * the entry's first sample's thread, its comm when output asks (the last
 * one). A group from another profile (no thread here) keeps its own comm.
 */
static const char *group_thread_comm(struct sonde_profile *p, const struct prof_group *g)
{
	if (!g->th_pid && !g->th_tid)
		return g->comm;
	return prof_thread_findnew(p->m, g->th_pid, g->th_tid)->comm;
}

static void make_key(struct sonde_profile *p, const struct prof_group *g,
		     const struct prof_frame *fr, struct prof_key *k)
{
	const bool *has = p->keys;

	memset(k, 0, sizeof(*k));
	k->ev = g->ev;
	/*
	 * pid shows as pid:comm; perf's pid key is the thread alone, shown
	 * with its last comm, so without a comm key a thread is one entry.
	 */
	if (has[SONDE_PROFILE_KEY_COMM])
		k->comm = g->comm;
	else if (has[SONDE_PROFILE_KEY_PID])
		k->comm = group_thread_comm(p, g);
	else
		k->comm = NULL;
	k->pid = g->tid; /* the pid key is the thread, as in perf */
	k->tid = g->tid;
	k->cpu = g->cpu;
	k->level = fr->kernel ? 'k' : '.';
	if (has[SONDE_PROFILE_KEY_DSO])
		k->dso = fr->dso;
	if (has[SONDE_PROFILE_KEY_SYM]) {
		k->sym = fr->sym;
		if (!fr->sym)
			k->addr = fr->dso ? fr->addr : fr->ip;
		k->dso = fr->dso; /* a symbol belongs to its object */
		if (!has[SONDE_PROFILE_KEY_DSO] && fr->sym)
			k->dso = NULL;
	}
	if (has[SONDE_PROFILE_KEY_SRCLINE])
		k->srcline = srcline(p, fr->dso, fr->sym, fr->addr);
	if (!has[SONDE_PROFILE_KEY_SYM] && fr->sym)
		k->sym = NULL;
	k->dso_id = k->dso ? k->dso->short_key : NULL;
	/* perf's sort__sym_cmp tells a symbol's object apart without a dso key */
	if (has[SONDE_PROFILE_KEY_SYM] && !k->dso_id && k->sym && fr->dso)
		k->dso_id = fr->dso->short_key;
	if (k->sym) {
		k->sym_start = k->sym->start;
		k->sym_end = k->sym->end;
		k->sym_iname = k->sym->inlined ? k->sym->name : NULL;
	}
	k->x = p->kx_frame ? prof_keys_frame(p, g, fr) : g->x;
}

static struct sonde_profile_entry *entry_new(struct sonde_profile *p)
{
	size_t b = p->nr_ents / PROF_ENTRY_BLOCK;

	if (p->nr_ents % PROF_ENTRY_BLOCK == 0) {
		if (b == p->cap_ent_blocks) {
			size_t cap = b ? 2 * b : 16;
			struct sonde_profile_entry **v = realloc(p->ent_blocks, cap * sizeof(*v));

			if (!v)
				abort();
			p->ent_blocks = v;
			p->cap_ent_blocks = cap;
		}
		p->ent_blocks[b] = hugearena_alloc(&p->ent_mem,
						   PROF_ENTRY_BLOCK * sizeof(*p->ent_blocks[b]));
		if (!p->ent_blocks[b])
			abort();
	}
	return prof_entry_at(p, p->nr_ents);
}

static struct sonde_profile_entry *entry_get(struct sonde_profile *p, const struct prof_group *g,
					     const struct prof_key *k)
{
	uint64_t h = key_hash(k);
	struct hashtab_probe probe;
	struct sonde_profile_entry *e;

	for (e = hashtab_probe_first(&p->ents, h, &probe); e;
	     e = hashtab_probe_next(&p->ents, &probe))
		if (key_eq(&e->k, k))
			return e;
	e = entry_new(p);
	memset(e, 0, sizeof(*e));
	if (hashtab_insert(&p->ents, h, e))
		abort();
	e->k = *k;
	e->seq = p->nr_ents++;
	e->owner = p;
	if (k->comm)
		e->thread_comm = group_thread_comm(p, g);
	return e;
}

static bool str_in(char *const *list, size_t nr, const char *s)
{
	for (size_t i = 0; i < nr; i++)
		if (!strcmp(list[i], s))
			return true;
	return false;
}

static bool dso_sym_visible(const struct sonde_profile *p, const struct prof_dso *dso,
			    const struct prof_sym *sym)
{
	if (p->nr_f_dso) {
		const char *dn = dso ? dso->short_name : "[unknown]";
		const char *ln = dso ? dso->name : "[unknown]";

		if (!str_in(p->f_dso, p->nr_f_dso, dn) && !str_in(p->f_dso, p->nr_f_dso, ln))
			return false;
	}
	if (p->nr_f_sym) {
		if (!sym || !str_in(p->f_sym, p->nr_f_sym, sym->name))
			return false;
	}
	return true;
}

bool prof_entry_visible(const struct sonde_profile *p, const struct prof_key *k)
{
	return dso_sym_visible(p, k->dso, k->sym);
}

/* An entry's key holds the filtered object and symbol, or only the
 * samples that reached it can tell. */
static bool entry_shown(const struct sonde_profile *p, const struct sonde_profile_entry *e)
{
	if (!p->children && ((p->nr_f_dso && !p->keys[SONDE_PROFILE_KEY_DSO]) ||
			     (p->nr_f_sym && !p->keys[SONDE_PROFILE_KEY_SYM])))
		return e->shown;
	return prof_entry_visible(p, &e->k);
}

/*
 * A path to add to an entry's call tree: the frames of @g's stack from
 * @from, toward the outermost caller in caller order, else to the sample.
 * The paths are sorted by entry once every group is expanded; a tree is
 * built from its entry's paths at its first query (most entries of a
 * profile with many distinct stacks are below every threshold that shows
 * a graph), into one array, so that its nodes are near each other.
 */
struct prof_tree_job {
	const struct prof_frame *frames; /* the group's stack's: a job reaches
					 * both without a load to wait for */
	const struct prof_group *g;
	uint32_t ent; /* the entry's seq */
	int16_t from, count; /* a stack has at most 127 * 8 + 8 frames */
};

struct tree_jobs {
	struct prof_tree_job *v;
	size_t nr, cap;
};

static void job_add(struct sonde_profile *p, struct tree_jobs *j, const struct prof_group *g,
		    struct sonde_profile_entry *e, int from)
{
	int n = (int)g->st->nr_frames;
	int count = p->caller ? from + 1 : n - from;

	if (j->nr == j->cap) /* jobs_bound() is one */
		abort();
	j->v[j->nr++] = (struct prof_tree_job){ g->st->frames, g, (uint32_t)e->seq,
						(int16_t)from, (int16_t)count };
	/* the sort's tie-break needs it before any tree is built */
	if ((uint32_t)count > e->max_depth)
		e->max_depth = (uint32_t)count;
}

/*
 * The most jobs expand_group() makes of groups @v: one for the sample's
 * own entry, and in children mode one per frame. Known before, the array
 * is made once, at its size, instead of doubling (each copy a fresh
 * round of page faults).
 */
static size_t jobs_bound(const struct sonde_profile *p, struct prof_group *const *v, size_t n)
{
	size_t nr = 0;

	if (!p->trees || !p->have_callchains)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (v[i]->st->nr_frames)
			nr += p->children ? 1 + (size_t)v[i]->st->nr_frames : 1;
	return nr;
}

static void expand_group(struct sonde_profile *p, const struct prof_group *g,
			 struct tree_jobs *jobs)
{
	const struct prof_stack *st = g->st;
	int n = (int)st->nr_frames;
	uint64_t mark = g->seq + 1;
	struct prof_key k0;
	struct sonde_profile_entry *e0;
	struct prof_event *ev = &p->evs[g->ev];
	char level;
	bool tree = p->trees && p->have_callchains, self_visible;

	/* Self goes to the sample's own symbol, not to what is inlined there. */
	make_key(p, g, &st->self, &k0);
	level = k0.level;
	/*
	 * --dsos and --symbols keep a sample by its own object and symbol, as
	 * perf's machine__resolve() does, whether or not they are sort keys
	 * (without them the key holds neither). Children mode keeps to the
	 * entries' keys: perf's entries there take the filter bits of the
	 * sample that made them first, an order this profile does not keep.
	 */
	self_visible = p->children ? prof_entry_visible(p, &k0)
				   : dso_sym_visible(p, st->self.dso, st->self.sym);
	if (!self_visible && !p->children)
		return;
	e0 = entry_get(p, g, &k0);
	e0->self += g->period;
	e0->nr_self += g->nr;
	e0->base_self += g->base_period;
	e0->base_nr_self += g->base_nr;
	if (prof_mode_index(g->cpumode) >= 0) /* perf's he_stat__add_cpumode_period() */
		e0->mode_self[prof_mode_index(g->cpumode)] += g->period;
	if (self_visible) {
		e0->shown = 1;
		ev->stats.filtered_samples += g->nr;
		ev->stats.filtered_period += g->period;
		ev->base_stats.filtered_samples += g->base_nr;
		ev->base_stats.filtered_period += g->base_period;
	}
	if (p->columns)
		prof_columns_expand(p, g, e0, self_visible);
	/* A stack only the baseline has: its self weight is all there is. */
	if (!g->period && !g->nr)
		return;
	/* The sample's whole chain: outermost first in caller order. */
	if (tree && n) /* branch history's chain may be empty: no path */
		job_add(p, jobs, g, e0, p->caller ? n - 1 : 0);
	if (!p->children)
		return;
	e0->children += g->period;
	e0->expanded = mark;
	if (g->x && !prof_keys_dedup(p, g->x))
		mark = 0; /* perf counts such a sample at every frame */
	/*
	 * In display order, like perf: outermost caller first in caller order,
	 * so a recursive function gets the graph of its first occurrence.
	 * Callchain entries without a symbol are keyed by their raw ip and
	 * inherit the privilege level of the frame before them.
	 */
	for (int step = 0; step < n; step++) {
		int i = p->caller ? n - 1 - step : step;
		const struct prof_frame *fr = &st->frames[i];
		struct prof_key k;
		struct sonde_profile_entry *e;

		make_key(p, g, fr, &k);
		if (fr->dso)
			level = fr->kernel ? 'k' : '.';
		k.level = level;
		if (!fr->sym && p->keys[SONDE_PROFILE_KEY_SYM])
			k.addr = fr->ip;
		e = entry_get(p, g, &k);
		/* A recursive stack counts once per entry, as in perf. */
		if (e->expanded == mark && mark)
			continue;
		e->expanded = mark;
		e->children += g->period;
		/* From this caller down to the sample, or up to the outermost. */
		if (tree)
			job_add(p, jobs, g, e, i);
	}
}

/* Adds the paths of jobs [@from, @to) (one entry's) to its tree. */
static void run_jobs(struct sonde_profile *p, struct sonde_profile_entry *e, size_t from,
		     size_t to)
{
	const struct prof_tree_job *v = p->jobs;

	for (size_t i = from; i < to; i++) {
		const struct prof_group *g = v[i].g;

		if (i + 8 < to) { /* the groups and stacks of a tree are far apart */
			__builtin_prefetch(v[i + 8].g);
			__builtin_prefetch(v[i + 8].frames + v[i + 8].from);
		}
		prof_tree_add(p, e, v[i].frames, p->branch_history ? prof_chain_hops(g->st) : NULL,
			      v[i].from, p->caller ? -1 : 1, v[i].count, g->period, g->nr);
	}
}

/*
 * Sorts the jobs by entry (a counting sort, stable, so each tree sees its
 * paths in the order expand_group() made them and comes out as if they
 * had been added right away) into p->jobs, p->job_start[seq] the first
 * of entry seq's. Branch history's trees are built right away (their
 * branch counts sit beside the nodes of one array); the others at their
 * first query.
 */
static void sort_jobs(struct sonde_profile *p, struct tree_jobs *j)
{
	struct sonde_profile_entry **ents;
	size_t *start;

	if (!j->nr) {
		hugemem_free(j->v, j->cap * sizeof(*j->v));
		return;
	}
	p->nr_job_start = p->nr_ents + 1;
	start = hugemem_alloc(p->nr_job_start * sizeof(*start));
	p->jobs = hugemem_alloc(j->nr * sizeof(*p->jobs));
	if (!start || !p->jobs)
		abort();
	for (size_t i = 0; i < j->nr; i++)
		start[j->v[i].ent + 1]++;
	for (size_t i = 0; i < p->nr_ents; i++)
		start[i + 1] += start[i];
	for (size_t i = 0; i < j->nr; i++)
		p->jobs[start[j->v[i].ent]++] = j->v[i];
	hugemem_free(j->v, j->cap * sizeof(*j->v));
	j->v = NULL;
	/* start[i] is now the end of entry i's jobs: shift it to the start */
	memmove(start + 1, start, p->nr_ents * sizeof(*start));
	start[0] = 0;
	p->job_start = start;
	p->nr_jobs = j->nr;
	if (!p->branch_history)
		return;
	ents = malloc(p->nr_ents * sizeof(*ents));
	if (!ents)
		abort();
	for (size_t i = 0; i < p->nr_ents; i++)
		ents[i] = prof_entry_at(p, i);
	for (size_t i = 0; i < p->nr_ents; i++) {
		run_jobs(p, ents[i], start[i], start[i + 1]);
		prof_tree_next_entry(p);
	}
	prof_trees_done(p, ents, p->nr_ents);
	free(ents);
	prof_jobs_free(p);
}

void prof_jobs_free(struct sonde_profile *p)
{
	hugemem_free(p->jobs, p->nr_jobs * sizeof(*p->jobs));
	p->jobs = NULL;
	hugemem_free(p->job_start, p->nr_job_start * sizeof(*p->job_start));
	p->job_start = NULL;
	p->nr_jobs = p->nr_job_start = 0;
}

/* Builds entry @e's tree from its jobs, once. */
static void tree_build(struct sonde_profile *p, struct sonde_profile_entry *e)
{
	size_t from = p->job_start[e->seq], to = p->job_start[e->seq + 1];

	size_t max = 1; /* the root, then a node at most per frame */

	if (from == to)
		return;
	for (size_t i = from; i < to; i++)
		max += (size_t)p->jobs[i].count;
	prof_tree_begin(p, max);
	run_jobs(p, e, from, to);
	prof_tree_next_entry(p);
	e->chain = prof_tree_keep(p, e);
}

void prof_hist_free(struct sonde_profile *p)
{
	hugearena_free(&p->ent_mem);
	free(p->ent_blocks);
	p->ent_blocks = NULL;
	p->cap_ent_blocks = 0;
	hashtab_free(&p->ents);
	prof_jobs_free(p);
	prof_trees_free(p);
	prof_columns_reset(p, false);
	p->nr_ents = 0;
	for (int i = 0; i < p->nr_evs; i++) {
		free(p->evs[i].sorted);
		p->evs[i].sorted = NULL;
		p->evs[i].nr_sorted = 0;
	}
}

void prof_hist_build(struct sonde_profile *p)
{
	struct prof_group **v;
	struct tree_jobs jobs = { 0 };
	size_t n;

	if (!p->dirty)
		return;
	p->dirty = false;
	prof_stacks_finish(p->stacks);
	prof_hist_free(p);
	for (int i = 0; i < p->nr_evs; i++) {
		p->evs[i].stats.filtered_samples = 0;
		p->evs[i].stats.filtered_period = 0;
		p->evs[i].base_stats.filtered_samples = 0;
		p->evs[i].base_stats.filtered_period = 0;
	}
	v = prof_groups_sorted(p, &n);
	jobs.cap = jobs_bound(p, v, n);
	if (jobs.cap && !(jobs.v = hugemem_alloc(jobs.cap * sizeof(*jobs.v))))
		abort();
	for (size_t i = 0; i < n; i++)
		if (v[i]->period || v[i]->nr || v[i]->base_period || v[i]->base_nr ||
		    (p->columns && prof_columns_group(p, v[i])))
			expand_group(p, v[i], &jobs);
	free(v);
	sort_jobs(p, &jobs);
}

/* ---- sorting ---- */

static const char *dso_name(const struct prof_key *k)
{
	return k->dso ? k->dso->short_name : "[unknown]";
}

/* Entries @a and @b by key @key alone, as perf's sort function for it. */
int prof_key_cmp1(const struct sonde_profile *p, enum sonde_profile_key key,
		    const struct sonde_profile_entry *a, const struct sonde_profile_entry *b)
{
	int c = 0;

	switch (key) {
	case SONDE_PROFILE_KEY_COMM: /* interned: one pointer per name */
		if (a->k.comm != b->k.comm)
			c = strcmp(a->k.comm ? a->k.comm : "", b->k.comm ? b->k.comm : "");
		break;
	case SONDE_PROFILE_KEY_PID:
		c = (a->k.pid > b->k.pid) - (a->k.pid < b->k.pid);
		break;
	case SONDE_PROFILE_KEY_TID:
		c = (a->k.tid > b->k.tid) - (a->k.tid < b->k.tid);
		break;
	case SONDE_PROFILE_KEY_CPU:
		c = (a->k.cpu > b->k.cpu) - (a->k.cpu < b->k.cpu);
		break;
	case SONDE_PROFILE_KEY_DSO:
		/* perf's cmp_null(): no object after every named one */
		if (!a->k.dso != !b->k.dso)
			c = a->k.dso ? -1 : 1;
		else if (a->k.dso != b->k.dso)
			c = strcmp(dso_name(&a->k), dso_name(&b->k));
		break;
	case SONDE_PROFILE_KEY_SYM:
		if (a->k.sym && b->k.sym)
			c = a->k.sym == b->k.sym ? 0 : strcmp(a->k.sym->name, b->k.sym->name);
		else if (a->k.sym || b->k.sym)
			c = a->k.sym ? -1 : 1;
		/* else none has a symbol: sort__sym_sort() ties them (the walk decides) */
		break;
	case SONDE_PROFILE_KEY_SRCLINE:
		c = strcmp(a->k.srcline, b->k.srcline);
		break;
	default:
		c = prof_keys_cmp(p, key, a, b);
		break;
	}
	return c;
}

static int key_cmp(const struct sonde_profile *p, const struct sonde_profile_entry *a,
		   const struct sonde_profile_entry *b)
{
	for (int i = 0; i < p->nr_keys; i++) {
		int c = prof_key_cmp1(p, p->order[i], a, b);

		if (c)
			return c;
	}
	return 0;
}

/*
 * perf's children weight compare. It breaks ties on the deepest call
 * graph: the deeper first in caller order (a caller above its callee),
 * the shallower in callee.
 */
static int children_cmp(const struct sonde_profile *p, const struct sonde_profile_entry *a,
			const struct sonde_profile_entry *b)
{
	if (a->children != b->children)
		return a->children > b->children ? -1 : 1;
	if (a->k.comm == b->k.comm && a->max_depth != b->max_depth)
		return (a->max_depth > b->max_depth) == p->caller ? -1 : 1;
	return 0;
}

int prof_order_new(struct sonde_profile *p, const struct sonde_profile_opts *o)
{
	const int at[PROF_NR_WEIGHTS] = {
		[PROF_W_SELF] = o->self_at, [PROF_W_CHILDREN] = o->children_at,
		[PROF_W_SAMPLES] = o->samples_at, [PROF_W_MODE + 0] = o->sys_at,
		[PROF_W_MODE + 1] = o->usr_at, [PROF_W_MODE + 2] = o->guest_sys_at,
		[PROF_W_MODE + 3] = o->guest_usr_at,
	};
	int placed = 0, key = 0;

	for (int w = 0; w < PROF_NR_WEIGHTS; w++) {
		if (at[w] < -1)
			return -EINVAL;
		placed += at[w] > 0;
		p->keyed |= at[w] != 0;
	}
	p->children_first = at[PROF_W_CHILDREN] == 0;
	p->self_first = at[PROF_W_SELF] == 0;
	p->nr_steps = p->nr_keys + placed;
	for (int i = 0; i < p->nr_steps; i++) {
		int w = 0, n = 0;

		for (int v = 0; v < PROF_NR_WEIGHTS; v++)
			if (at[v] == i + 1) {
				w = v;
				n++;
			}
		if (n > 1 || (!n && key == p->nr_keys))
			return -EINVAL; /* two at one place, or one past the end */
		p->steps[i] = n ? (struct prof_step){ -1, (enum prof_weight)w }
				: (struct prof_step){ (int)p->order[key++], PROF_W_SELF };
	}
	return 0;
}

static int u64_cmp_desc(uint64_t a, uint64_t b)
{
	return a == b ? 0 : a > b ? -1 : 1;
}

/*
 * The order when opts place weights among the keys: perf's when its
 * --sort names "overhead" or another output field, which then takes no
 * first place.
 */
static int keyed_cmp(const struct sonde_profile *p, const struct sonde_profile_entry *a,
		     const struct sonde_profile_entry *b)
{
	int c = p->children && p->children_first ? children_cmp(p, a, b) : 0;

	if (!c && p->self_first)
		c = u64_cmp_desc(a->self, b->self);

	for (int i = 0; !c && i < p->nr_steps; i++) {
		const struct prof_step *s = &p->steps[i];

		if (s->key >= 0)
			c = prof_key_cmp1(p, (enum sonde_profile_key)s->key, a, b);
		else if (s->w == PROF_W_SELF)
			c = u64_cmp_desc(a->self, b->self);
		else if (s->w == PROF_W_CHILDREN)
			c = p->children ? children_cmp(p, a, b) : 0;
		else if (s->w == PROF_W_SAMPLES)
			c = u64_cmp_desc(a->nr_self, b->nr_self);
		else
			c = u64_cmp_desc(a->mode_self[s->w - PROF_W_MODE],
					 b->mode_self[s->w - PROF_W_MODE]);
	}
	if (!c)
		c = key_cmp(p, a, b);
	if (c)
		return c;
	return a->walk < b->walk ? -1 : a->walk > b->walk;
}

int prof_entry_cmp(const void *pa, const void *pb, void *arg)
{
	const struct sonde_profile *p = arg;
	const struct sonde_profile_entry *a = *(const struct sonde_profile_entry *const *)pa;
	const struct sonde_profile_entry *b = *(const struct sonde_profile_entry *const *)pb;
	int c;

	if (p->keyed)
		return keyed_cmp(p, a, b);
	/* perf's default: the children weight (children mode), the self weight, the keys */
	c = p->children ? children_cmp(p, a, b) : 0;
	if (!c && a->self != b->self)
		c = a->self > b->self ? -1 : 1;
	if (!c)
		c = key_cmp(p, a, b);
	if (c)
		return c;
	return a->walk < b->walk ? -1 : a->walk > b->walk;
}

/* The visible entries of event @ei with weight, sorted (made once). */
static struct prof_event *sorted_event(struct sonde_profile *p, int ei)
{
	struct prof_event *ev;
	size_t n = 0;

	if (!p || ei < 0 || ei >= p->nr_evs)
		return NULL;
	prof_hist_build(p);
	ev = &p->evs[ei];
	if (ev->sorted)
		return ev;
	ev->sorted = malloc((p->nr_ents + 1) * sizeof(*ev->sorted));
	if (!ev->sorted)
		return NULL;
	/*
	 * The tie rules (perf's) are not a total order, so the result depends
	 * on the input order: make that the creation order, not hash order,
	 * which moves with the addresses of symbols from run to run. Rows
	 * the rules call equal keep the order of perf's entries tree.
	 */
	prof_walk_event(p, ei);
	for (size_t i = 0; i < p->nr_ents; i++) {
		struct sonde_profile_entry *e = prof_entry_at(p, i);

		if (e->k.ev == ei && entry_shown(p, e) &&
		    ((p->children ? e->children : e->self) || e->base_self ||
		     (p->columns && prof_columns_entry(p, e))))
			ev->sorted[n++] = e;
	}
	if (!prof_sort_entries(p, ev->sorted, n))
		qsort_r(ev->sorted, n, sizeof(*ev->sorted), prof_entry_cmp, p);
	ev->nr_sorted = n;
	return ev;
}

size_t sonde_profile__nr_entries(struct sonde_profile *p, int ev)
{
	struct prof_event *e = sorted_event(p, ev);

	return e ? e->nr_sorted : 0;
}

const struct sonde_profile_entry *sonde_profile__entry(struct sonde_profile *p, int ev, size_t i)
{
	struct prof_event *e = sorted_event(p, ev);

	return e && i < e->nr_sorted ? e->sorted[i] : NULL;
}

/* ---- entry getters ---- */

uint64_t sonde_profile_entry__self(const struct sonde_profile_entry *e)
{
	return e->self;
}

uint64_t sonde_profile_entry__self_cpumode(const struct sonde_profile_entry *e, unsigned cpumode)
{
	int i = prof_mode_index(cpumode);

	return e && i >= 0 ? e->mode_self[i] : 0;
}

uint64_t sonde_profile_entry__children(const struct sonde_profile_entry *e)
{
	return e->children;
}

uint64_t sonde_profile_entry__samples(const struct sonde_profile_entry *e)
{
	return e->nr_self;
}

uint64_t sonde_profile_entry__baseline(const struct sonde_profile_entry *e)
{
	return e->base_self;
}

uint64_t sonde_profile_entry__baseline_samples(const struct sonde_profile_entry *e)
{
	return e->base_nr_self;
}

const char *sonde_profile_entry__comm(const struct sonde_profile_entry *e)
{
	return e->k.comm;
}

const char *sonde_profile_entry__thread_comm(const struct sonde_profile_entry *e)
{
	return e->thread_comm;
}

int32_t sonde_profile_entry__tid(const struct sonde_profile_entry *e)
{
	return e->k.tid;
}

int32_t sonde_profile_entry__cpu(const struct sonde_profile_entry *e)
{
	return e->k.cpu;
}

const char *sonde_profile_entry__dso(const struct sonde_profile_entry *e)
{
	return e->k.dso ? e->k.dso->name : NULL;
}

const char *sonde_profile_entry__dso_short(const struct sonde_profile_entry *e)
{
	return e->k.dso ? e->k.dso->short_name : NULL;
}

const char *sonde_profile_entry__sym(const struct sonde_profile_entry *e)
{
	return e->k.sym ? e->k.sym->name : NULL;
}

bool sonde_profile_entry__inlined(const struct sonde_profile_entry *e)
{
	return e->k.sym && e->k.sym->inlined;
}

uint64_t sonde_profile_entry__addr(const struct sonde_profile_entry *e)
{
	return e->k.addr;
}

bool sonde_profile_entry__kernel(const struct sonde_profile_entry *e)
{
	return e->k.level == 'k';
}

const char *sonde_profile_entry__srcline(const struct sonde_profile_entry *e)
{
	return e->k.srcline;
}

uint32_t sonde_profile_entry__depth(const struct sonde_profile_entry *e)
{
	return e->max_depth;
}

const struct sonde_profile_node *sonde_profile_entry__tree(const struct sonde_profile_entry *e)
{
	struct sonde_profile *p = e->owner;

	/* A query of one thread at a time: the tree is made at the first. */
	if (!e->chain && p->jobs)
		tree_build(p, (struct sonde_profile_entry *)(uintptr_t)e);
	return e->chain;
}
