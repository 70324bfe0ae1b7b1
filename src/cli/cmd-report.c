// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde report: options, loading and aggregation. Samples are first summed
 * per (event, thread keys, hash-consed stack); each distinct group is then
 * expanded once into hist entries (self, children) and call graph tries,
 * so --children costs per distinct stack rather than per sample.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "builtin.h"
#include "options.h"
#include "cmd-report.h"
#include "progress.h"

/* perf.data size from which loading shows a progress bar on a terminal. */
#define PROGRESS_MIN_BYTES (64u << 20)

struct sgroup {
	int attr;
	const char *comm;
	int32_t pid, tid, cpu;
	struct anl_stack *st;
	uint64_t period, nr;
	uint64_t seq; /* first sample: entries are created in time order */
};

/* Stack groups, allocated in blocks: one per distinct stack and thread keys. */
#define SGROUP_BLOCK 4096

struct sgroup_block {
	struct sgroup_block *prev;
	size_t used;
	struct sgroup v[SGROUP_BLOCK];
};

struct gtab {
	struct hashtab tab; /* of struct sgroup */
	struct sgroup_block *blocks;
	struct sgroup *last;
};

/* Call graph nodes, allocated in blocks and freed with the report. */
#define CNODE_BLOCK 4096

struct cnode_pool {
	struct cnode_pool *prev;
	size_t used;
	struct cnode v[CNODE_BLOCK];
};

/*
 * A node with this many children gets its children indexed in rp->kids;
 * fewer are scanned, which costs less than hashing.
 */
#define CNODE_INDEX_MIN 2

static const char *const key_names[RK_MAX] = {
	"comm", "pid", "tid", "dso", "sym", "cpu", "srcline",
};

static int parse_sort(struct report *rp)
{
	char *copy = strdup(rp->sort), *tok, *save = NULL;

	if (!copy)
		return -ENOMEM;
	rp->nr_keys = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int k = -1;

		while (*tok == ' ')
			tok++;
		if (!strcmp(tok, "overhead") || !strcmp(tok, "overhead_children"))
			continue;
		if (!strcmp(tok, "symbol"))
			tok = "sym";
		if (!strcmp(tok, "command"))
			tok = "comm";
		for (int i = 0; i < RK_MAX; i++)
			if (!strcmp(tok, key_names[i]))
				k = i;
		if (k < 0) {
			fprintf(stderr, "sonde report: --sort: unknown key '%s' (known: comm, pid, tid, dso, sym, cpu, srcline)\n",
				tok);
			free(copy);
			return -EINVAL;
		}
		if (rp->nr_keys < RK_MAX)
			rp->keys[rp->nr_keys++] = (enum rkey)k;
		if (k == RK_PID) /* perf's "pid" key is the thread: tid:comm */
			rp->need_pid = rp->need_tid = true;
		if (k == RK_TID)
			rp->need_tid = true;
		if (k == RK_CPU)
			rp->need_cpu = true;
	}
	free(copy);
	if (!rp->nr_keys) {
		fprintf(stderr, "sonde report: --sort: no keys given\n");
		return -EINVAL;
	}
	return 0;
}

static bool has_key(const struct report *rp, enum rkey k)
{
	for (int i = 0; i < rp->nr_keys; i++)
		if (rp->keys[i] == k)
			return true;
	return false;
}

static int split_list(const char *s, char ***out, int *nr)
{
	char *copy, *tok, *save = NULL;

	if (!s)
		return 0;
	copy = strdup(s);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char **n = realloc(*out, (*nr + 1) * sizeof(**out));

		if (!n) {
			free(copy);
			return -ENOMEM;
		}
		*out = n;
		n[(*nr)++] = strdup(tok);
	}
	free(copy);
	return 0;
}

static int parse_int_list(const char *what, const char *s, int32_t **out, int *nr)
{
	char **items = NULL;
	int n = 0, err = split_list(s, &items, &n);

	for (int i = 0; i < n && !err; i++) {
		char *end;
		long v = strtol(items[i], &end, 10);

		if (*end || end == items[i]) {
			fprintf(stderr, "sonde report: --%s: '%s' is not a number\n", what, items[i]);
			err = -EINVAL;
			break;
		}
		*out = realloc(*out, (*nr + 1) * sizeof(**out));
		if (!*out)
			return -ENOMEM;
		(*out)[(*nr)++] = (int32_t)v;
	}
	for (int i = 0; i < n; i++)
		free(items[i]);
	free(items);
	return err;
}

static bool str_in(char **list, int nr, const char *s)
{
	for (int i = 0; i < nr; i++)
		if (!strcmp(list[i], s))
			return true;
	return false;
}

static bool int_in(const int32_t *list, int nr, int32_t v)
{
	for (int i = 0; i < nr; i++)
		if (list[i] == v)
			return true;
	return false;
}

int report_parse_graph(struct report *rp, const char *arg)
{
	char *copy, *tok, *save = NULL;

	rp->graph_set = true;
	rp->graph_on = true;
	if (!arg || !*arg)
		return 0;
	copy = strdup(arg);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *end;
		double v;

		if (!strcmp(tok, "graph") || !strcmp(tok, "fractal")) {
			rp->graph_fractal = tok[0] == 'f';
			rp->graph_mode = REPORT_GRAPH_TREE;
		} else if (!strcmp(tok, "flat") || !strcmp(tok, "folded")) {
			rp->graph_fractal = false;
			rp->graph_mode = tok[2] == 'a' ? REPORT_GRAPH_FLAT : REPORT_GRAPH_FOLDED;
		}
		else if (!strcmp(tok, "none"))
			rp->graph_on = false;
		else if (!strcmp(tok, "caller") || !strcmp(tok, "callee")) {
			rp->graph_caller = tok[5] == 'r';
			rp->graph_order_set = true;
		}
		else if (!strcmp(tok, "function"))
			; /* perf's default sort key for callchain entries */
		else if (!strcmp(tok, "percent"))
			rp->graph_value = GRAPH_VALUE_PERCENT;
		else if (!strcmp(tok, "period"))
			rp->graph_value = GRAPH_VALUE_PERIOD;
		else if (!strcmp(tok, "count"))
			rp->graph_value = GRAPH_VALUE_COUNT;
		else if ((v = strtod(tok, &end)), end != tok && !*end)
			rp->graph_threshold = v;
		else {
			fprintf(stderr, "sonde report: -g: unknown element '%s' (expected graph|fractal|flat|folded|none, a threshold, caller|callee, percent|period|count)\n",
				tok);
			free(copy);
			return -EINVAL;
		}
	}
	free(copy);
	return 0;
}

/*
 * Like perf, --percent-limit also becomes the call graph threshold; a -g
 * threshold given after it wins, since options apply in order.
 */
static int percent_limit_cb(const struct option *opt, const char *arg, bool unset)
{
	struct report *rp = opt->value;
	char *end;
	double v;

	if (unset) {
		rp->percent_limit = 0;
		return 0;
	}
	v = strtod(arg, &end);
	if (end == arg || *end || v < 0 || v > 100) {
		fprintf(stderr, "sonde report: --percent-limit: '%s' is not a percentage (0-100)\n", arg);
		return -EINVAL;
	}
	rp->percent_limit = v;
	rp->graph_threshold = v;
	return 0;
}

static int graph_cb(const struct option *opt, const char *arg, bool unset)
{
	struct report *rp = opt->value;

	if (unset) {
		rp->graph_set = true;
		rp->graph_on = false;
		return 0;
	}
	return report_parse_graph(rp, arg);
}

/* ---- aggregation ---- */

static struct sgroup *group_get(struct gtab *g, int attr, const char *comm, int32_t pid,
				int32_t tid, int32_t cpu, struct anl_stack *st)
{
	struct sgroup *s = g->last;
	struct hashtab_probe probe;
	uint64_t h;

	if (s && s->st == st && s->comm == comm && s->pid == pid && s->tid == tid &&
	    s->cpu == cpu && s->attr == attr)
		return s;
	h = hashtab_mix(hashtab_mix(hashtab_mix((uintptr_t)st, (uintptr_t)comm),
				    ((uint64_t)(uint32_t)pid << 32) | (uint32_t)tid),
			((uint64_t)(uint32_t)cpu << 32) | (uint32_t)attr);
	for (s = hashtab_probe_first(&g->tab, h, &probe); s;
	     s = hashtab_probe_next(&g->tab, &probe))
		if (s->st == st && s->comm == comm && s->pid == pid && s->tid == tid &&
		    s->cpu == cpu && s->attr == attr)
			break;
	if (!s) {
		if (!g->blocks || g->blocks->used == SGROUP_BLOCK) {
			struct sgroup_block *b = malloc(sizeof(*b));

			if (!b)
				abort();
			b->prev = g->blocks;
			b->used = 0;
			g->blocks = b;
		}
		s = &g->blocks->v[g->blocks->used++];
		memset(s, 0, sizeof(*s));
		s->attr = attr;
		s->comm = comm;
		s->pid = pid;
		s->tid = tid;
		s->cpu = cpu;
		s->st = st;
		s->seq = hashtab_count(&g->tab);
		if (hashtab_insert(&g->tab, h, s))
			abort();
	}
	g->last = s;
	return s;
}

static volatile sig_atomic_t stop_reading;

static void on_stop(int sig)
{
	(void)sig;
	stop_reading = 1;
}

/*
 * A pipe is reported at its end, like perf; Ctrl-C (or SIGTERM) ends the
 * reading early and reports what arrived (perf 6.1 prints an empty report
 * then). The handler is one-shot: a second signal kills as usual. No
 * SA_RESTART, so that a read blocked on the pipe is interrupted.
 */
static void stop_on_signals(struct report *rp)
{
	struct sigaction sa = { 0 };

	if (!pdr_streaming(rp->r))
		return;
	sa.sa_handler = on_stop;
	sa.sa_flags = SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	/* A signal the parent ignores (a background job's SIGINT) stays so. */
	for (int sig = SIGINT; sig; sig = sig == SIGINT ? SIGTERM : 0) {
		struct sigaction old;

		if (!sigaction(sig, NULL, &old) && old.sa_handler != SIG_IGN)
			sigaction(sig, &sa, NULL);
	}
	pdr_set_stop_flag(rp->r, &stop_reading);
}

static int load(struct report *rp, struct gtab *g)
{
	struct sonde_perfdata_record rec;
	int nr = 0, err;
	struct progress bar;
	uint64_t n = 0;

	/* Files that load in well under a second get no bar. */
	progress_start(&bar, "Loading", sonde_perfdata_reader__data_size(rp->r),
		       !rp->quiet &&
		       sonde_perfdata_reader__data_size(rp->r) > PROGRESS_MIN_BYTES);

	while ((err = sonde_perfdata_reader__next(rp->r, &rec)) > 0) {
		const struct pdr_attr *a;
		struct pdr_sample smp;
		struct anl_thread *t;
		struct anl_stack *st;
		struct sgroup *grp;
		int ai;

		if (bar.on && !(++n & 0xffff))
			progress_update(&bar, sonde_perfdata_reader__progress(rp->r));
		if (rec.type != SONDE_PERF_RECORD_SAMPLE) {
			anl_machine_process(rp->m, rp->r, &rec);
			if (rec.type == SONDE_PERF_RECORD_LOST_SAMPLES && rec.size >= 16) {
				ai = rec.attr_idx >= 0 ? rec.attr_idx : 0;
				if (ai < PDR_MAX_ATTRS)
					rp->lost_samples[ai] +=
						pdr_h64((const uint8_t *)rec.hdr + 8);
			}
			continue;
		}
		ai = rec.attr_idx >= 0 ? rec.attr_idx : 0;
		a = pdr_attr_get(rp->r, ai);
		if (!a)
			continue;
		nr = sonde_perfdata_reader__nr_attrs(rp->r);
		if (ai >= nr)
			continue;
		if (pdr_parse_sample(rp->r, a, (const uint8_t *)rec.hdr, rec.size, &smp))
			continue;
		/*
		 * --time and -C choose the samples the report is about: the
		 * totals (and so the shares) are of the slice, as in perf;
		 * --pid, --tid, --comm only hide rows of the whole.
		 */
		if (!slice_keep(&rp->slice, smp.time, smp.cpu))
			continue;
		rp->nr_samples[ai]++;
		rp->period_all[ai] += smp.period;
		if (rp->nr_f_pid && !int_in(rp->f_pid, rp->nr_f_pid, (int32_t)smp.pid))
			continue;
		if (rp->nr_f_tid && !int_in(rp->f_tid, rp->nr_f_tid, (int32_t)smp.tid))
			continue;
		t = anl_thread_findnew(rp->m, (int32_t)smp.pid, (int32_t)smp.tid);
		if (rp->nr_f_comm && !str_in(rp->f_comm, rp->nr_f_comm, t->comm))
			continue;
		if (a->attr.sample_type & SONDE_PERF_SAMPLE_CALLCHAIN)
			rp->have_callchains = true;
		st = anl_sample_stack(rp->stacks, rp->r, a, t, rec.misc, &smp,
				      rp->children || rp->graph_on);
		grp = group_get(g, ai, t->comm, rp->need_pid ? t->pid : 0,
				rp->need_tid ? t->tid : 0, rp->need_cpu ? (int32_t)smp.cpu : 0, st);
		grp->period += smp.period;
		grp->nr++;
	}
	progress_finish(&bar);
	return err;
}

/* Growable per-attr counters: pipe files add attrs while streaming. */
static int ensure_counters(struct report *rp, int nr)
{
	rp->nr_samples = calloc((size_t)nr, sizeof(uint64_t));
	rp->nr_filtered_samples = calloc((size_t)nr, sizeof(uint64_t));
	rp->period_filtered = calloc((size_t)nr, sizeof(uint64_t));
	rp->period_all = calloc((size_t)nr, sizeof(uint64_t));
	rp->lost_samples = calloc((size_t)nr, sizeof(uint64_t));
	return rp->nr_samples && rp->nr_filtered_samples && rp->period_filtered &&
	       rp->period_all && rp->lost_samples ? 0 : -ENOMEM;
}

/* ---- expansion into hist entries ---- */

static uint64_t hkey_hash(const struct hkey *k)
{
	uint64_t h = hashtab_mix((uintptr_t)k->comm, (uint64_t)(uint32_t)k->attr);

	h = hashtab_mix(h, ((uint64_t)(uint32_t)k->pid << 32) | (uint32_t)k->tid);
	h = hashtab_mix(h, (uint64_t)(uint32_t)k->cpu);
	h = hashtab_mix(h, (uintptr_t)k->dso_id);
	h = hashtab_mix(h, k->sym ? k->sym_start ^ (uintptr_t)k->sym_iname : k->addr);
	return hashtab_mix(h, (uintptr_t)k->srcline);
}

static bool hkey_eq(const struct hkey *a, const struct hkey *b)
{
	return a->attr == b->attr && a->comm == b->comm && a->pid == b->pid &&
	       a->tid == b->tid && a->cpu == b->cpu && a->dso_id == b->dso_id &&
	       !a->sym == !b->sym && a->sym_start == b->sym_start && a->sym_end == b->sym_end &&
	       a->sym_iname == b->sym_iname && a->addr == b->addr && a->srcline == b->srcline;
}

static void make_key(struct report *rp, const struct sgroup *g, const struct anl_frame *fr,
		     struct hkey *k)
{
	memset(k, 0, sizeof(*k));
	k->attr = g->attr;
	/* pid shows as pid:comm */
	k->comm = has_key(rp, RK_COMM) || has_key(rp, RK_PID) ? g->comm : NULL;
	k->pid = g->tid; /* RK_PID shows the thread, as in perf */
	k->tid = g->tid;
	k->cpu = g->cpu;
	k->level = fr->kernel ? 'k' : '.';
	if (has_key(rp, RK_DSO))
		k->dso = fr->dso;
	if (has_key(rp, RK_SYM)) {
		k->sym = fr->sym;
		if (!fr->sym)
			k->addr = fr->dso ? fr->addr : fr->ip;
		k->dso = fr->dso; /* a symbol belongs to its object */
		if (!has_key(rp, RK_DSO) && fr->sym)
			k->dso = NULL;
	}
	if (has_key(rp, RK_SRCLINE))
		k->srcline = report_srcline(rp, fr->dso, fr->sym, fr->addr);
	if (!has_key(rp, RK_SYM) && fr->sym)
		k->sym = NULL;
	k->dso_id = k->dso ? k->dso->short_key : NULL;
	if (k->sym) {
		k->sym_start = k->sym->start;
		k->sym_end = k->sym->end;
		k->sym_iname = k->sym->inlined ? k->sym->name : NULL;
	}
}

static struct hentry *entry_get(struct report *rp, const struct hkey *k)
{
	uint64_t h = hkey_hash(k);
	struct hashtab_probe probe;
	struct hentry *e;

	for (e = hashtab_probe_first(&rp->ents, h, &probe); e;
	     e = hashtab_probe_next(&rp->ents, &probe))
		if (hkey_eq(&e->k, k))
			return e;
	e = calloc(1, sizeof(*e));
	if (!e || hashtab_insert(&rp->ents, h, e))
		abort();
	e->k = *k;
	e->seq = rp->nr_ents++;
	return e;
}

static bool frame_match(const struct cnode *n, const struct anl_frame *fr)
{
	if (n->sym && fr->sym)
		return n->sym == fr->sym;
	return !n->sym && !fr->sym && n->ip == fr->ip;
}

/* A child's key in rp->kids: its parent and what frame_match() compares. */
static uint64_t kid_hash(const struct cnode *parent, const struct anl_sym *sym, uint64_t ip)
{
	return hashtab_mix(hashtab_mix((uintptr_t)parent, sym ? (uintptr_t)sym : ip), !sym);
}

static struct cnode *cnode_new(struct report *rp)
{
	struct cnode_pool *p = rp->cnodes;

	if (!p || p->used == CNODE_BLOCK) {
		p = malloc(sizeof(*p));
		if (!p)
			abort();
		p->prev = rp->cnodes;
		p->used = 0;
		rp->cnodes = p;
	}
	return memset(&p->v[p->used++], 0, sizeof(struct cnode));
}

/* The child of @n that @fr continues into, or NULL. */
static struct cnode *child_find(struct report *rp, struct cnode *n, const struct anl_frame *fr)
{
	struct hashtab_probe probe;
	struct cnode *c;

	if (n->nr_children < CNODE_INDEX_MIN) {
		for (c = n->child; c; c = c->sibling)
			if (frame_match(c, fr))
				return c;
		return NULL;
	}
	for (c = hashtab_probe_first(&rp->kids, kid_hash(n, fr->sym, fr->ip), &probe); c;
	     c = hashtab_probe_next(&rp->kids, &probe))
		if (c->parent == n && frame_match(c, fr))
			return c;
	return NULL;
}

/* Links @c first among @n's children (the print order), indexed when wide. */
static void child_link(struct report *rp, struct cnode *n, struct cnode *c)
{
	c->sibling = n->child;
	c->parent = n;
	n->child = c;
	if (++n->nr_children == CNODE_INDEX_MIN) {
		for (struct cnode *k = n->child; k; k = k->sibling)
			if (hashtab_insert(&rp->kids, kid_hash(n, k->sym, k->ip), k))
				abort();
	} else if (n->nr_children > CNODE_INDEX_MIN) {
		if (hashtab_insert(&rp->kids, kid_hash(n, c->sym, c->ip), c))
			abort();
	}
}

/* Adds one path (frames[from] stepping by dir, count frames) with weight. */
static void chain_add(struct report *rp, struct hentry *e, const struct anl_frame *frames,
		      int from, int dir, int count, uint64_t period, uint64_t nr)
{
	struct cnode *n;

	if (!e->chain)
		e->chain = cnode_new(rp);
	n = e->chain;
	n->cumul += period;
	n->nr_cumul += nr;
	for (int i = 0, idx = from; i < count; i++, idx += dir) {
		const struct anl_frame *fr = &frames[idx];
		struct cnode *c = child_find(rp, n, fr);

		if (!c) {
			c = cnode_new(rp);
			c->sym = fr->sym;
			c->dso = fr->dso;
			c->ip = fr->ip;
			c->addr = fr->addr;
			child_link(rp, n, c);
		}
		c->cumul += period; /* the path runs through every node on it */
		c->nr_cumul += nr;
		n = c;
	}
	n->hit += period;
	n->nr_hit += nr;
	if ((uint32_t)count > e->max_depth)
		e->max_depth = (uint32_t)count;
}

static bool entry_visible(struct report *rp, const struct hkey *k)
{
	if (rp->nr_f_dso) {
		const char *dn = k->dso ? k->dso->short_name : "[unknown]";
		const char *ln = k->dso ? k->dso->name : "[unknown]";

		if (!str_in(rp->f_dso, rp->nr_f_dso, dn) && !str_in(rp->f_dso, rp->nr_f_dso, ln))
			return false;
	}
	if (rp->nr_f_sym) {
		if (!k->sym || !str_in(rp->f_sym, rp->nr_f_sym, k->sym->name))
			return false;
	}
	return true;
}

static void expand_group(struct report *rp, struct sgroup *g)
{
	const struct anl_stack *st = g->st;
	int n = (int)st->nr_frames;
	uint64_t mark = g->seq + 1;
	struct hkey k0;
	struct hentry *e0;
	char level;
	bool graph = rp->graph_on && rp->have_callchains;

	/* Self goes to the sample's own symbol, not to what is inlined there. */
	make_key(rp, g, &st->self, &k0);
	level = k0.level;
	if (!entry_visible(rp, &k0) && !rp->children)
		return;
	e0 = entry_get(rp, &k0);
	e0->self += g->period;
	e0->nr_self += g->nr;
	if (entry_visible(rp, &k0)) {
		rp->nr_filtered_samples[g->attr] += g->nr;
		rp->period_filtered[g->attr] += g->period;
	}
	/* The sample's whole chain: outermost first in caller order. */
	if (graph)
		chain_add(rp, e0, st->frames, rp->graph_caller ? n - 1 : 0,
			  rp->graph_caller ? -1 : 1, n, g->period, g->nr);
	if (!rp->children)
		return;
	e0->children += g->period;
	e0->expanded = mark;
	/*
	 * In display order, like perf: outermost caller first in caller order,
	 * so a recursive function gets the graph of its first occurrence.
	 * Callchain entries without a symbol are keyed by their raw ip and
	 * inherit the privilege level of the frame before them.
	 */
	for (int step = 0; step < n; step++) {
		int i = rp->graph_caller ? n - 1 - step : step;
		const struct anl_frame *fr = &st->frames[i];
		struct hkey k;
		struct hentry *e;

		make_key(rp, g, fr, &k);
		if (fr->dso)
			level = fr->kernel ? 'k' : '.';
		k.level = level;
		if (!fr->sym && has_key(rp, RK_SYM))
			k.addr = fr->ip;
		e = entry_get(rp, &k);
		/* A recursive stack counts once per entry, as in perf. */
		if (e->expanded == mark)
			continue;
		e->expanded = mark;
		e->children += g->period;
		/* From this caller down to the sample, or up to the outermost. */
		if (graph && rp->graph_caller)
			chain_add(rp, e, st->frames, i, -1, i + 1, g->period, g->nr);
		else if (graph)
			chain_add(rp, e, st->frames, i, 1, n - i, g->period, g->nr);
	}
}

/* Expands the groups in their creation (first sample) order, then frees them. */
static void free_groups(struct gtab *g, struct report *rp)
{
	size_t n = hashtab_count(&g->tab);
	struct sgroup **v = malloc((n + 1) * sizeof(*v));

	if (!v)
		abort();
	for (struct sgroup_block *b = g->blocks; b; b = b->prev)
		for (size_t i = 0; i < b->used; i++)
			v[b->v[i].seq] = &b->v[i];
	for (size_t i = 0; i < n; i++)
		expand_group(rp, v[i]);
	free(v);
	while (g->blocks) {
		struct sgroup_block *b = g->blocks;

		g->blocks = b->prev;
		free(b);
	}
	hashtab_free(&g->tab);
}

static void free_report(struct report *rp)
{
	size_t pos = 0;
	struct hentry *e;

	while ((e = hashtab_next(&rp->ents, &pos)))
		free(e);
	hashtab_free(&rp->ents);
	hashtab_free(&rp->kids);
	while (rp->cnodes) {
		struct cnode_pool *p = rp->cnodes;

		rp->cnodes = p->prev;
		free(p);
	}
	free(rp->sorted);
	for (int i = 0; i < rp->nr_f_comm; i++)
		free(rp->f_comm[i]);
	for (int i = 0; i < rp->nr_f_dso; i++)
		free(rp->f_dso[i]);
	for (int i = 0; i < rp->nr_f_sym; i++)
		free(rp->f_sym[i]);
	free(rp->f_comm);
	free(rp->f_dso);
	free(rp->f_sym);
	free(rp->f_pid);
	free(rp->f_tid);
	slice_free(&rp->slice);
	free(rp->nr_samples);
	free(rp->nr_filtered_samples);
	free(rp->period_filtered);
	free(rp->period_all);
	free(rp->lost_samples);
	anl_stacks_free(rp->stacks);
	anl_machine_free(rp->m);
	sonde_perfdata_reader__free(rp->r);
}

int cmd_report(int argc, const char **argv)
{
	struct report rp = {
		.input = "perf.data",
		.graph_threshold = 0.5,
		.inline_frames = true,
		.max_stack = SONDE_PERF_MAX_STACK_DEPTH,
		.cache = true,
	};
	bool no_children = false;
	const struct option opts[] = {
		OPT_STRING('i', "input", &rp.input, "file", "input file name (default perf.data, - for stdin)"),
		OPT_STRING('s', "sort", &rp.sort, "keys", "sort by keys: comm, pid, tid, dso, sym, cpu, srcline (default comm,dso,sym)"),
		OPT_BOOLEAN(0, "children", &rp.children_flag, "accumulate callchains of children into parent entries (default with callchains)"),
		OPT_BOOLEAN(0, "no-children", &no_children, "do not accumulate children: one Overhead column"),
		OPT_CALLBACK('g', "call-graph", &rp, "print_type,threshold,order,value",
			     "graph|fractal|flat|folded|none, threshold percent (0.5), caller|callee, percent|period|count", graph_cb),
		OPT_STRING(0, "percentage", &rp.percentage, "relative|absolute",
			   "percentages of filtered entries relative to what is shown, or to everything (default)"),
		OPT_CALLBACK(0, "percent-limit", &rp, "pct",
			     "hide entries (and call graph branches) below this percentage", percent_limit_cb),
		OPT_STRING('c', "comms", &rp.comms, "list", "only these commands (comma separated)"),
		OPT_STRING(0, "comm", &rp.comms, "list", "same as --comms"),
		OPT_STRING(0, "pid", &rp.pids, "list", "only these process ids"),
		OPT_STRING(0, "tid", &rp.tids, "list", "only these thread ids"),
		OPT_STRING('d', "dsos", &rp.dsos, "list", "only these shared objects"),
		OPT_STRING(0, "dso", &rp.dsos, "list", "same as --dsos"),
		OPT_STRING('S', "symbols", &rp.syms, "list", "only these symbols"),
		OPT_STRING(0, "sym", &rp.syms, "list", "same as --symbols"),
		OPT_STRING('C', "cpu", &rp.cpus, "list", "only samples on these CPUs (0-3,5)"),
		OPT_STRING(0, "time", &rp.time, "range", "time slice: start,end in seconds, or percent slices 10%-20%,..."),
		OPT_BOOLEAN(0, "header", &rp.header, "print the perf.data header before the report"),
		OPT_BOOLEAN(0, "header-only", &rp.header_only, "print only the perf.data header"),
		OPT_BOOLEAN(0, "buildid-list", &rp.buildid_list, "print the file's build ids as perf buildid-list does, and exit"),
		OPT_BOOLEAN('I', "show-info", &rp.show_info, "with --header: print the topology, cache and memory sections too"),
		OPT_BOOLEAN(0, "stats", &rp.stats, "print record counts per type only"),
		OPT_BOOLEAN(0, "json", &rp.json, "JSON output"),
		OPT_BOOLEAN(0, "stdio", &rp.stdio, "text output (the default)"),
		OPT_BOOLEAN(0, "tui", &rp.tui, "no TUI in sonde: says so, prints the --stdio text"),
		OPT_BOOLEAN('f', "force", &rp.force, "read a file owned by another user (not root)"),
		OPT_BOOLEAN('q', "quiet", &rp.quiet, "no progress bar or warnings"),
		OPT_BOOLEAN(0, "cache", &rp.cache, "keep kernel symbols and DWARF answers in ~/.cache/sonde between runs (default; --no-cache)"),
		OPT_BOOLEAN(0, "kallsyms-cache", &rp.cache, "same as --cache"),
		OPT_STRING(0, "kallsyms", &rp.kallsyms, "file",
			   "kernel symbols from this kallsyms file (the recorded kernel's)"),
		OPT_STRING('k', "vmlinux", &rp.vmlinux, "file",
			   "kernel symbols from this vmlinux (its build id must be the recorded one)"),
		OPT_INTEGER(0, "max-stack", &rp.max_stack, "n", "callchain depth to use (default 127)"),
		OPT_BOOLEAN(0, "inline", &rp.inline_frames, "show functions inlined at DWARF-unwound addresses (default; --no-inline)"),
		OPT_END(),
	};
	const char *const usage[] = { "sonde report [<options>]", NULL };
	struct gtab g = { 0 };
	int n, err, ret = 0;
	const char *open_error = NULL;

	n = parse_options(argc, argv, opts, usage, 0);
	if (n > 0) {
		fprintf(stderr, "sonde report: unexpected argument '%s'\n", argv[0]);
		return 129;
	}
	rp.no_children = no_children;
	/* Not silently: the user asked for something sonde does not have. */
	if (rp.tui && !rp.quiet && !rp.json)
		fprintf(stderr, "sonde report: --tui: sonde has no text user interface; printing the --stdio output\n");
	if (rp.percentage && strcmp(rp.percentage, "relative") && strcmp(rp.percentage, "absolute")) {
		fprintf(stderr, "sonde report: --percentage: expected relative or absolute, got '%s'\n",
			rp.percentage);
		return 129;
	}
	rp.relative = rp.percentage && !strcmp(rp.percentage, "relative");
	if (!rp.sort)
		rp.sort = "comm,dso,sym";
	if (parse_sort(&rp) || split_list(rp.comms, &rp.f_comm, &rp.nr_f_comm) ||
	    split_list(rp.dsos, &rp.f_dso, &rp.nr_f_dso) ||
	    split_list(rp.syms, &rp.f_sym, &rp.nr_f_sym) ||
	    parse_int_list("pid", rp.pids, &rp.f_pid, &rp.nr_f_pid) ||
	    parse_int_list("tid", rp.tids, &rp.f_tid, &rp.nr_f_tid) ||
	    slice_parse_cpus(&rp.slice, "sonde report", rp.cpus) ||
	    slice_parse_time(&rp.slice, "sonde report", rp.time)) {
		free_report(&rp);
		return 129;
	}
	/* Like perf: a key filtered to one value moves above the table. */
	rp.elide[RK_COMM] = rp.nr_f_comm == 1 && has_key(&rp, RK_COMM);
	rp.elide[RK_DSO] = rp.nr_f_dso == 1 && has_key(&rp, RK_DSO);
	rp.elide[RK_SYM] = rp.nr_f_sym == 1 && has_key(&rp, RK_SYM);
	{
		char ebuf[256] = "";
		SONDE_OPTS(sonde_perfdata_reader_opts, ro, .errbuf = ebuf, .errbuf_size = sizeof(ebuf),
			   .check_owner = !rp.force);

		rp.r = sonde_perfdata_reader__open(rp.input, &ro);
		if (!rp.r) {
			char buf[128];

			if (errno == SONDE_ERR_FORMAT)
				fprintf(stderr, "sonde report: %s: not a valid perf.data file: %s\n",
					rp.input, ebuf);
			else if (errno == EPERM && ebuf[0])
				fprintf(stderr, "sonde report: %s: %s\n", rp.input, ebuf);
			else
				fprintf(stderr, "sonde report: %s: %s\n", rp.input,
					errno == ENOENT ? "No such file (record one with `sonde record` or `perf record`, or pass -i FILE)"
							: sonde_strerror(errno, buf, sizeof(buf)));
			free_report(&rp);
			return 1;
		}
	}
	if (sonde_perfdata_reader__error(rp.r) && !rp.quiet) {
		open_error = sonde_perfdata_reader__error(rp.r);
		fprintf(stderr, "sonde report: warning: %s: %s\n", rp.input, open_error);
	}
	if (rp.header_only || rp.buildid_list) {
		struct sonde_perfdata_record rec;

		/*
		 * A pipe's features are records at its start, its build ids
		 * records at its end: read up to them.
		 */
		if (sonde_perfdata_reader__is_pipe(rp.r))
			while (sonde_perfdata_reader__next(rp.r, &rec) > 0 && rp.buildid_list)
				;
		ob_init_fd(&rp.out, 1);
		if (rp.buildid_list)
			report_print_buildids(&rp);
		else
			report_print_header(&rp);
		ob_flush(&rp.out);
		ob_free(&rp.out);
		free_report(&rp);
		return 0;
	}
	{
		/* The reader knows the span; sample-slice.c sees public API only. */
		struct slice_span span = { rp.r->first_sample_time, rp.r->last_sample_time,
					   pdr_streaming(rp.r) };

		if (slice_resolve(&rp.slice, "sonde report", rp.r, rp.input, &span) || ensure_counters(&rp, PDR_MAX_ATTRS)) {
			free_report(&rp);
			return 1;
		}
	}
	/* Children mode is the default when the file has callchains. */
	for (int i = 0; i < sonde_perfdata_reader__nr_attrs(rp.r); i++)
		if (sonde_perfdata_reader__attr(rp.r, i)->sample_type & SONDE_PERF_SAMPLE_CALLCHAIN)
			rp.have_callchains = true;
	if (sonde_perfdata_reader__is_pipe(rp.r))
		rp.have_callchains = true; /* attrs arrive later; decided again below */
	rp.children = rp.have_callchains && !rp.no_children;
	if (rp.children_flag)
		rp.children = true;
	if (!rp.graph_set)
		rp.graph_on = true;
	/* Like perf: caller order in children mode unless -g names one. */
	if (rp.children && !rp.graph_order_set)
		rp.graph_caller = true;
	if (rp.json)
		rp.graph_on = false;
	rp.m = anl_machine_new();
	if (rp.m && rp.cache)
		anl_machine_default_cache(rp.m);
	if (rp.m && anl_machine_set_kernel_symbols(rp.m, rp.kallsyms, rp.vmlinux)) {
		anl_machine_free(rp.m);
		rp.m = NULL;
	}
	rp.stacks = rp.m ? anl_stacks_new(rp.m, rp.max_stack + 1) : NULL;
	if (!rp.stacks) {
		fprintf(stderr, "sonde report: out of memory\n");
		free_report(&rp);
		return 1;
	}
	rp.have_callchains = false;
	anl_stacks_set_inline(rp.stacks, rp.inline_frames);
	anl_stacks_defer_inline(rp.stacks);
	stop_on_signals(&rp);
	err = load(&rp, &g);
	if (stop_reading && !rp.quiet)
		fprintf(stderr, "sonde report: %s: interrupted: reporting the %llu bytes read so far\n",
			rp.input, (unsigned long long)sonde_perfdata_reader__progress(rp.r));
	anl_stacks_finish(rp.stacks);
	if (sonde_perfdata_reader__is_pipe(rp.r) && !rp.have_callchains && !rp.children_flag)
		rp.children = false;
	if (err < 0) {
		rp.load_error = sonde_perfdata_reader__error(rp.r);
		/* A truncation found at open time was already warned about. */
		if (rp.load_error && open_error && !strcmp(rp.load_error, open_error))
			fprintf(stderr, "sonde report: %s: reporting the records before the problem\n",
				rp.input);
		else
			fprintf(stderr, "sonde report: %s: %s; reporting the records before it\n",
				rp.input, rp.load_error ? rp.load_error : "read error");
		ret = 1;
	}
	free_groups(&g, &rp);
	{
		struct anl_stats *st = anl_machine_stats(rp.m);
		uint64_t chunks = st->nr_records[SONDE_PERF_RECORD_LOST];

		/* perf says it too: the ring overflowed while recording. */
		if (chunks && !rp.quiet && !rp.stats)
			fprintf(stderr, "sonde report: warning: %s: %" PRIu64 " LOST record%s: %" PRIu64
				" records were dropped while recording (ring buffer full: record with a larger -m or a lower -F/-c rate)\n",
				rp.input, chunks, chunks == 1 ? "" : "s", st->lost);
	}
	ob_init_fd(&rp.out, 1);
	if (rp.stats)
		report_print_stats(&rp);
	else if (rp.json)
		report_print_json(&rp);
	else {
		if (rp.header)
			report_print_header(&rp);
		report_print(&rp);
	}
	ob_flush(&rp.out);
	ob_free(&rp.out);
	free_report(&rp);
	return ret;
}
