// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The Firefox Profiler's processed profile format as samply writes it
 * (fxprof-processed-profile: meta version 24, preprocessedProfileVersion
 * 49, each thread with its own stringArray): one thread per profiled
 * thread, its samples in time order (ms from the first sample) over a
 * stack tree of frames, functions and the objects they are in. Needs the
 * profile's timeline (sonde_profile_opts.timeline).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export_priv.h"
#include "profile_priv.h"

#define FF_VERSION 24
#define FF_PREPROCESSED_VERSION 49

enum { CAT_OTHER, CAT_USER, CAT_KERNEL };

/* Dense indexes for distinct triples of integers. */
struct tmap {
	struct hashtab t;
	uint64_t (*k)[3];
	size_t nr;
};

static bool tmap_eq(const void *val, const void *key, void *ctx)
{
	const struct tmap *m = ctx;

	return !memcmp(m->k[(uintptr_t)val - 1], key, sizeof(m->k[0]));
}

/* The index of (a, b, c); *added tells a new one. -ENOMEM on failure. */
static int64_t tmap_get(struct tmap *m, uint64_t a, uint64_t b, uint64_t c, bool *added)
{
	uint64_t key[3] = { a, b, c };
	uint64_t h = hashtab_mix(hashtab_mix(hashtab_mix(0, a), b), c);
	void *v;

	if (!m->nr)
		hashtab_init(&m->t);
	v = hashtab_find(&m->t, h, tmap_eq, key, m);
	*added = !v;
	if (v)
		return (int64_t)((uintptr_t)v - 1);
	if (!(m->nr & (m->nr - 1))) {
		uint64_t(*n)[3] = realloc(m->k, (m->nr ? m->nr * 2 : 1) * sizeof(*n));

		if (!n)
			return -ENOMEM;
		m->k = n;
	}
	memcpy(m->k[m->nr], key, sizeof(key));
	if (hashtab_insert(&m->t, h, (void *)(uintptr_t)(m->nr + 1)))
		return -ENOMEM;
	return (int64_t)m->nr++;
}

static void tmap_free(struct tmap *m)
{
	hashtab_free(&m->t);
	free(m->k);
	memset(m, 0, sizeof(*m));
}

/* A growable column of integers (-1 prints null). */
struct col {
	int64_t *v;
	size_t nr, cap;
};

static int col_add(struct col *c, int64_t x)
{
	if (c->nr == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 64;
		int64_t *n = realloc(c->v, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		c->v = n;
		c->cap = cap;
	}
	c->v[c->nr++] = x;
	return 0;
}

/* One thread's tables. */
struct ff_thread {
	struct export_index strs;      /* stringArray */
	struct export_index res_ix;    /* resources by object */
	struct col res_name;
	struct export_index func_ix;   /* functions by name and object */
	struct col func_name, func_res;
	struct tmap frame_ix;	       /* frames by function, address, inline depth */
	struct col frame_addr, frame_depth, frame_func, frame_cat;
	struct tmap stack_ix;	       /* stacks by prefix and frame */
	struct col stack_prefix, stack_frame, stack_cat;
	bool oom;
};

static int64_t str_id(struct ff_thread *t, const char *s)
{
	int64_t i = export_index_get(&t->strs, s ? s : "", NULL);

	if (i < 0)
		t->oom = true;
	return i;
}

static int64_t func_id(struct ff_thread *t, const struct sonde_profile_frame *f)
{
	const char *name = export_frame_name(f), *dso = sonde_profile_frame__dso(f);
	size_t before = t->func_ix.nr;
	int64_t i = export_index_get(&t->func_ix, name, dso), r = -1;

	if (i < 0 || (size_t)i < before)
		return i;
	if (dso) {
		size_t rb = t->res_ix.nr;

		r = export_index_get(&t->res_ix, dso, NULL);
		if (r >= 0 && (size_t)r == rb) {
			const char *sh = sonde_profile_frame__dso_short(f);

			if (col_add(&t->res_name, str_id(t, sh ? sh : dso)))
				return -ENOMEM;
		}
	}
	if (col_add(&t->func_name, str_id(t, name)) || col_add(&t->func_res, r))
		return -ENOMEM;
	return i;
}

/* The stack index of a group's stack, built root first into the tree. */
static int64_t group_stack(struct ff_thread *t, const struct prof_group *g)
{
	const struct sonde_profile_stack *st = (const struct sonde_profile_stack *)g->st;
	uint32_t nf = sonde_profile_stack__nr_frames(st);
	int64_t prefix = -1;
	uint32_t depth = 0;
	bool added;

	for (uint32_t i = nf; i-- > 0;) {
		const struct sonde_profile_frame *f = sonde_profile_stack__frame(st, i);
		const struct sonde_profile_frame *outer = i + 1 < nf ? sonde_profile_stack__frame(st, i + 1) : NULL;
		unsigned int kind = sonde_profile_frame__kind(f);
		int64_t fn = func_id(t, f), fr, sk;
		int cat = kind & SONDE_PROFILE_FRAME_KERNEL ? CAT_KERNEL : CAT_USER;

		if (fn < 0)
			return -ENOMEM;
		/* Functions inlined at one address: depth 0 is the outermost. */
		if ((kind & SONDE_PROFILE_FRAME_INLINED) && outer &&
		    sonde_profile_frame__ip(outer) == sonde_profile_frame__ip(f))
			depth++;
		else
			depth = 0;
		fr = tmap_get(&t->frame_ix, (uint64_t)fn, sonde_profile_frame__addr(f), depth, &added);
		if (fr < 0)
			return -ENOMEM;
		if (added &&
		    (col_add(&t->frame_addr, (int64_t)sonde_profile_frame__addr(f)) ||
		     col_add(&t->frame_depth, depth) || col_add(&t->frame_func, fn) ||
		     col_add(&t->frame_cat, cat)))
			return -ENOMEM;
		sk = tmap_get(&t->stack_ix, (uint64_t)(prefix + 1), (uint64_t)fr, 0, &added);
		if (sk < 0)
			return -ENOMEM;
		if (added && (col_add(&t->stack_prefix, prefix) || col_add(&t->stack_frame, fr) ||
			      col_add(&t->stack_cat, cat)))
			return -ENOMEM;
		prefix = sk;
	}
	if (prefix < 0) { /* no frames at all: one unknown frame */
		int64_t fn = export_index_get(&t->func_ix, "[unknown]", NULL);

		if (fn < 0 || ((size_t)fn + 1 == t->func_ix.nr && t->func_name.nr < t->func_ix.nr &&
			       (col_add(&t->func_name, str_id(t, "[unknown]")) ||
				col_add(&t->func_res, -1))))
			return -ENOMEM;
		prefix = tmap_get(&t->frame_ix, (uint64_t)fn, UINT64_MAX, 0, &added);
		if (prefix < 0 || (added && (col_add(&t->frame_addr, -1) || col_add(&t->frame_depth, 0) ||
					     col_add(&t->frame_func, fn) || col_add(&t->frame_cat, CAT_OTHER))))
			return -ENOMEM;
		{
			int64_t fr = prefix;

			prefix = tmap_get(&t->stack_ix, 0, (uint64_t)fr, 0, &added);
			if (prefix < 0 || (added && (col_add(&t->stack_prefix, -1) ||
						     col_add(&t->stack_frame, fr) ||
						     col_add(&t->stack_cat, CAT_OTHER))))
				return -ENOMEM;
		}
	}
	return prefix;
}

static void thread_free(struct ff_thread *t)
{
	struct col *cols[] = {
		&t->res_name, &t->func_name, &t->func_res, &t->frame_addr, &t->frame_depth,
		&t->frame_func, &t->frame_cat, &t->stack_prefix, &t->stack_frame, &t->stack_cat,
	};

	export_index_free(&t->strs);
	export_index_free(&t->res_ix);
	export_index_free(&t->func_ix);
	tmap_free(&t->frame_ix);
	tmap_free(&t->stack_ix);
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		free(cols[i]->v);
	memset(t, 0, sizeof(*t));
}

/* ---- JSON ---- */

static void put_col(const struct export_ctx *x, const char *name, const struct col *c)
{
	export_printf(x, ",\"%s\":[", name);
	for (size_t i = 0; i < c->nr; i++) {
		if (i)
			export_put(x, ",", 1);
		if (c->v[i] < 0)
			export_puts(x, "null");
		else
			export_u64(x, (uint64_t)c->v[i]);
	}
	export_put(x, "]", 1);
}

/* A column of @n copies of @v. */
static void put_same(const struct export_ctx *x, const char *name, const char *v, size_t n)
{
	export_printf(x, ",\"%s\":[", name);
	for (size_t i = 0; i < n; i++) {
		if (i)
			export_put(x, ",", 1);
		export_puts(x, v);
	}
	export_put(x, "]", 1);
}

static void put_tables(const struct export_ctx *x, const struct ff_thread *t)
{
	size_t n = t->frame_func.nr;

	export_printf(x, "\"frameTable\":{\"length\":%zu", n);
	put_col(x, "address", &t->frame_addr);
	put_col(x, "inlineDepth", &t->frame_depth);
	put_col(x, "category", &t->frame_cat);
	put_same(x, "subcategory", "0", n);
	put_col(x, "func", &t->frame_func);
	put_same(x, "nativeSymbol", "null", n);
	put_same(x, "innerWindowID", "null", n);
	put_same(x, "implementation", "null", n);
	put_same(x, "line", "null", n);
	put_same(x, "column", "null", n);
	n = t->func_name.nr;
	export_printf(x, "},\"funcTable\":{\"length\":%zu", n);
	put_col(x, "name", &t->func_name);
	put_same(x, "isJS", "false", n);
	put_same(x, "relevantForJS", "false", n);
	put_col(x, "resource", &t->func_res);
	put_same(x, "fileName", "null", n);
	put_same(x, "lineNumber", "null", n);
	put_same(x, "columnNumber", "null", n);
	n = t->res_name.nr;
	export_printf(x, "},\"resourceTable\":{\"length\":%zu", n);
	put_same(x, "lib", "null", n);
	put_col(x, "name", &t->res_name);
	put_same(x, "host", "null", n);
	put_same(x, "type", "0", n);
	n = t->stack_frame.nr;
	export_printf(x, "},\"stackTable\":{\"length\":%zu", n);
	put_col(x, "prefix", &t->stack_prefix);
	put_col(x, "frame", &t->stack_frame);
	put_col(x, "category", &t->stack_cat);
	put_same(x, "subcategory", "0", n);
	export_puts(x, "},\"stringArray\":[");
	for (size_t i = 0; i < t->strs.nr; i++) {
		if (i)
			export_put(x, ",", 1);
		export_json_str(x, t->strs.a[i]);
	}
	export_put(x, "]", 1);
}

/*
 * The thread of samples tl[idx[from..to)]. @memo holds each sample
 * group's leaf stack once made (-1 before), by the group's creation
 * number: a group is one thread's.
 */
static int put_thread(struct sonde_profile *p, const struct export_ctx *x, const size_t *idx,
		      size_t from, size_t to, uint64_t t0, bool first, int64_t *memo)
{
	struct ff_thread t = { 0 };
	struct col stacks = { 0 };
	const struct prof_group *g0 = p->tl[idx[from]].g;
	int ret = -ENOMEM;

	for (size_t i = from; i < to; i++) {
		const struct prof_group *g = p->tl[idx[i]].g;
		int64_t s = memo[g->seq];

		if (s < 0)
			s = memo[g->seq] = group_stack(&t, g);
		if (s < 0 || col_add(&stacks, s))
			goto out;
	}
	if (t.oom)
		goto out;
	export_puts(x, first ? "{" : ",{");
	put_tables(x, &t);
	export_puts(x, ",\"markers\":{\"length\":0,\"category\":[],\"data\":[],\"endTime\":[],\"name\":[],\"phase\":[],\"startTime\":[]}");
	export_puts(x, ",\"name\":");
	export_json_str(x, g0->comm ? g0->comm : "");
	export_printf(x, ",\"isMainThread\":%s,\"nativeSymbols\":{\"length\":0,\"address\":[],\"functionSize\":[],\"libIndex\":[],\"name\":[]}",
		      g0->pid == g0->tid ? "true" : "false");
	export_printf(x, ",\"pausedRanges\":[],\"pid\":\"%d\",\"processName\":", g0->pid);
	/* the process is named by its main thread's command */
	export_json_str(x, g0->pid == g0->tid || g0->pid <= 0
				   ? (g0->comm ? g0->comm : "")
				   : sonde_profile__sample_comm(p, g0->pid, g0->pid));
	export_printf(x, ",\"processShutdownTime\":null,\"processStartupTime\":0,\"processType\":\"default\",\"registerTime\":0,\"tid\":%d,\"unregisterTime\":null",
		      g0->tid);
	export_printf(x, ",\"samples\":{\"length\":%zu,\"weightType\":\"samples\",\"weight\":null", to - from);
	put_col(x, "stack", &stacks);
	export_puts(x, ",\"time\":[");
	for (size_t i = from; i < to; i++) {
		if (i > from)
			export_put(x, ",", 1);
		export_ms(x, p->tl[idx[i]].time - t0);
	}
	export_puts(x, "]}}");
	ret = 0;
out:
	free(stacks.v);
	thread_free(&t);
	return ret;
}

/* The samples' thread numbers, by (pid, tid) in order; *nr_threads gets their count. */
static uint32_t *thread_numbers(const struct sonde_profile *p, const size_t *idx, size_t n,
				size_t *nr_threads)
{
	struct tmap threads = { 0 };
	uint32_t *num = malloc((n + 1) * sizeof(*num));
	/* each group's thread + 1: one hash lookup a group, not a sample */
	uint32_t *memo = calloc(prof_nr_groups(p) + 1, sizeof(*memo));
	uint32_t *rank = NULL;
	size_t nt;

	if (!num || !memo)
		goto fail;
	for (size_t i = 0; i < n; i++) {
		const struct prof_group *g = p->tl[idx[i]].g;
		bool added;
		int64_t t = (int64_t)memo[g->seq] - 1;

		if (t < 0) {
			t = tmap_get(&threads, (uint64_t)(uint32_t)g->pid, (uint64_t)(uint32_t)g->tid, 0,
				     &added);
			if (t < 0)
				goto fail;
			memo[g->seq] = (uint32_t)t + 1;
		}
		num[i] = (uint32_t)t;
	}
	free(memo);
	memo = NULL;
	/* Threads in (pid, tid) order, as samply lists them. */
	nt = threads.nr;
	rank = malloc((nt + 1) * sizeof(*rank));
	if (!rank)
		goto fail;
	for (size_t i = 0; i < nt; i++) {
		rank[i] = 0;
		for (size_t j = 0; j < nt; j++) /* few threads: a counting rank */
			if ((int32_t)threads.k[j][0] < (int32_t)threads.k[i][0] ||
			    ((int32_t)threads.k[j][0] == (int32_t)threads.k[i][0] &&
			     (int32_t)threads.k[j][1] < (int32_t)threads.k[i][1]))
				rank[i]++;
	}
	for (size_t i = 0; i < n; i++)
		num[i] = rank[num[i]];
	free(rank);
	tmap_free(&threads);
	*nr_threads = nt;
	return num;
fail:
	free(num);
	free(memo);
	tmap_free(&threads);
	return NULL;
}

/* Orders @idx by thread, in recording order within one (a counting sort). */
static int by_thread(const struct sonde_profile *p, size_t *idx, size_t n, size_t **starts,
		     size_t *nr_threads)
{
	uint32_t *num = thread_numbers(p, idx, n, nr_threads);
	size_t *out, *pos;

	if (!num)
		return -ENOMEM;
	out = malloc((n + 1) * sizeof(*out));
	pos = calloc(*nr_threads + 1, sizeof(*pos));
	if (!out || !pos) {
		free(num);
		free(out);
		free(pos);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		pos[num[i] + 1]++;
	for (size_t t = 0; t < *nr_threads; t++)
		pos[t + 1] += pos[t];
	*starts = malloc((*nr_threads + 1) * sizeof(**starts));
	if (!*starts) {
		free(num);
		free(out);
		free(pos);
		return -ENOMEM;
	}
	memcpy(*starts, pos, (*nr_threads + 1) * sizeof(*pos));
	for (size_t i = 0; i < n; i++)
		out[pos[num[i]]++] = idx[i];
	memcpy(idx, out, n * sizeof(*idx));
	free(num);
	free(out);
	free(pos);
	return 0;
}

static void put_meta(const struct export_ctx *x, struct sonde_profile *p)
{
	const struct sonde_perf_event_attr *a = &p->evs[x->ev].attr;
	double interval = 1.0;

	/* A clock event's period is its sampling interval. */
	if (!strcmp(export_period_unit(p, x->ev), "nanoseconds") && !a->freq && a->sample_period)
		interval = (double)a->sample_period / 1e6;
	else if (a->freq && a->sample_freq)
		interval = 1000.0 / (double)a->sample_freq;
	export_puts(x, "{\"meta\":{\"categories\":["
		       "{\"name\":\"Other\",\"color\":\"grey\",\"subcategories\":[\"Other\"]},"
		       "{\"name\":\"User\",\"color\":\"yellow\",\"subcategories\":[\"Other\"]},"
		       "{\"name\":\"Kernel\",\"color\":\"orange\",\"subcategories\":[\"Other\"]}]");
	export_puts(x, ",\"debug\":false,\"extensions\":{\"length\":0,\"baseURL\":[],\"id\":[],\"name\":[]}");
	export_printf(x, ",\"interval\":%.6f,\"preprocessedProfileVersion\":%d,\"processType\":0,\"product\":",
		      interval, FF_PREPROCESSED_VERSION);
	export_json_str(x, x->title);
	export_puts(x, ",\"sampleUnits\":{\"time\":\"ms\",\"eventDelay\":\"ms\",\"threadCPUDelta\":\"\\u00b5s\"}");
	export_printf(x, ",\"startTime\":%llu.%06llu,\"symbolicated\":true,\"pausedRanges\":[],\"version\":%d",
		      (unsigned long long)(x->opts.time_ns / 1000000),
		      (unsigned long long)(x->opts.time_ns % 1000000), FF_VERSION);
	export_puts(x, ",\"usesOnlyOneStackType\":true,\"doesNotUseFrameImplementation\":true,\"sourceCodeIsNotOnSearchfox\":true,\"markerSchema\":[]}");
}

int export_firefox(struct sonde_profile *p, const struct export_ctx *x)
{
	struct export_group *g;
	size_t *idx, *starts = NULL, n = 0, ng, nt = 0;
	int64_t *memo;
	uint64_t t0 = UINT64_MAX;
	int ret = 0;

	if (!p->timeline)
		return -EINVAL;
	/* Finishes the stacks (inline frames) and gives them ids. */
	g = export_groups(p, x, &ng);
	if (!g)
		return -ENOMEM;
	free(g);
	idx = malloc((p->nr_tl + 1) * sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	for (size_t i = 0; i < p->nr_tl; i++) {
		const struct prof_group *pg = p->tl[i].g;

		if (pg->ev != x->ev ||
		    !export_stack_visible(p, (const struct sonde_profile_stack *)pg->st))
			continue;
		idx[n++] = i;
		if (p->tl[i].time < t0)
			t0 = p->tl[i].time;
	}
	ret = by_thread(p, idx, n, &starts, &nt);
	if (ret) {
		free(idx);
		return ret;
	}
	put_meta(x, p);
	export_puts(x, ",\"libs\":[],\"threads\":[");
	memo = malloc((prof_nr_groups(p) + 1) * sizeof(*memo));
	if (!memo)
		ret = -ENOMEM;
	for (size_t i = 0; memo && i < prof_nr_groups(p); i++)
		memo[i] = -1;
	for (size_t t = 0; t < nt && !ret; t++)
		ret = put_thread(p, x, idx, starts[t], starts[t + 1], t0, t == 0, memo);
	free(memo);
	export_puts(x, "],\"pages\":[],\"profilerOverhead\":[],\"counters\":[]}\n");
	free(starts);
	free(idx);
	return ret;
}
