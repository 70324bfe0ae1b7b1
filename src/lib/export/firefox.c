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
	const struct prof_group *g0;   /* its first sample's: names the thread */
	size_t first, nr_samples;      /* its samples in ff_threads.order */
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
		char *p = export_room(x, EXPORT_U64_MAX + 1), *q;

		if (!p)
			return;
		q = p;
		if (i)
			*q++ = ',';
		if (c->v[i] < 0) {
			memcpy(q, "null", 4);
			q += 4;
		} else {
			q = export_fmt_u64(q, (uint64_t)c->v[i]);
		}
		export_commit(x, (size_t)(q - p));
	}
	export_put(x, "]", 1);
}

/* A column of @n copies of @v. */
static void put_same(const struct export_ctx *x, const char *name, const char *v, size_t n)
{
	size_t len = strlen(v);

	export_printf(x, ",\"%s\":[", name);
	for (size_t i = 0; i < n; i++) {
		char *p = export_room(x, len + 1);

		if (!p)
			return;
		if (i)
			*p++ = ',';
		memcpy(p, v, len);
		export_commit(x, len + (i > 0));
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
 * A sample group's stack in its thread's stack table, and that index as
 * text with the comma before it: a million samples copy a few thousand
 * numbers.
 */
struct ff_gstack {
	uint32_t thread; /* its thread + 1; 0 not seen yet; UINT32_MAX not shown */
	uint32_t stack;
	uint8_t len;
	char txt[11];
};

/* The profile's samples as the threads' tables and sample lists. */
struct ff_threads {
	struct ff_thread *v;
	size_t nr;	 /* made in v */
	struct tmap ids; /* (pid, tid) -> index in v */
	struct ff_gstack *memo; /* by sample group creation number */
	struct bigalloc order;	/* uint32_t timeline indexes, thread by thread,
				 * each thread's in time order */
	uint64_t t0;		/* the first sample's time */
};

/* Samples written between two checks for room in the output buffer. */
#define FF_BATCH 4096

/*
 * The samples of thread @t as the stack column: each one's stack index,
 * in batches of room, each copied with its comma (the first one's left
 * out after).
 */
static void put_stacks(const struct export_ctx *x, const struct sonde_profile *p,
		       const struct ff_threads *th, const struct ff_thread *t)
{
	const uint32_t *ord = (const uint32_t *)th->order.p + t->first;
	const struct prof_tl *tl = p->tl;

	for (size_t i = 0; i < t->nr_samples;) {
		size_t end = t->nr_samples - i < FF_BATCH ? t->nr_samples : i + FF_BATCH;
		char *b = export_room(x, (end - i) * sizeof(th->memo->txt)), *q;

		if (!b)
			return;
		q = b;
		for (; i < end; i++) {
			const struct ff_gstack *m = &th->memo[tl[ord[i]].group];

			memcpy(q, m->txt, sizeof(m->txt));
			q += m->len;
		}
		if (end <= FF_BATCH) { /* the first batch: no comma before the first */
			memmove(b, b + 1, (size_t)(q - b - 1));
			q--;
		}
		export_commit(x, (size_t)(q - b));
	}
}

/* Adds one to the @len - 1 digits after @txt's comma; false when they are all 9s. */
static bool ms_inc(char *txt, size_t len)
{
	char *d = txt + len - 1;

	for (; *d == '9'; d--)
		*d = '0';
	if (d == txt) /* 99...9: one digit more, left to the caller */
		return false;
	(*d)++;
	return true;
}

/*
 * The samples' times, in ms from the first sample, in batches as the
 * stacks. The whole milliseconds change every few samples: their digits
 * are made once, mostly by counting up the ones before.
 */
static void put_times(const struct export_ctx *x, const struct sonde_profile *p,
		      const struct ff_threads *th, const struct ff_thread *t)
{
	const uint32_t *ord = (const uint32_t *)th->order.p + t->first;
	char ms_txt[1 + EXPORT_U64_MAX]; /* ",<ms>" */
	size_t ms_len = 0;
	uint64_t ms_now = UINT64_MAX;
	struct prof_tl_clock clk;

	prof_tl_clock_init(&clk, p);
	ms_txt[0] = ',';
	for (size_t i = 0; i < t->nr_samples;) {
		size_t end = t->nr_samples - i < FF_BATCH ? t->nr_samples : i + FF_BATCH;
		/* a sample: the comma and ms, then "." and 6 digits written as 8 */
		char *b = export_room(x, (end - i) * (sizeof(ms_txt) + 8)), *q;

		if (!b)
			return;
		q = b;
		for (; i < end; i++) {
			uint64_t ns = prof_tl_time(&clk, p, ord[i]) - th->t0, ms = ns / 1000000;

			if (ms != ms_now) {
				if (!ms_len || ms != ms_now + 1 || !ms_inc(ms_txt, ms_len))
					ms_len = (size_t)(export_fmt_u64(ms_txt + 1, ms) - ms_txt);
				ms_now = ms;
			}
			memcpy(q, ms_txt, sizeof(ms_txt));
			q = export_fmt_ms_frac(q + ms_len, (uint32_t)(ns % 1000000));
		}
		if (end <= FF_BATCH) {
			memmove(b, b + 1, (size_t)(q - b - 1));
			q--;
		}
		export_commit(x, (size_t)(q - b));
	}
}

/* Thread @t's tables and samples; @first: the first thread written. */
static void put_thread(struct sonde_profile *p, const struct export_ctx *x,
		       const struct ff_threads *th, const struct ff_thread *t, bool first)
{
	const struct prof_group *g0 = t->g0;

	export_puts(x, first ? "{" : ",{");
	put_tables(x, t);
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
	export_printf(x, ",\"samples\":{\"length\":%zu,\"weightType\":\"samples\",\"weight\":null,\"stack\":[",
		      t->nr_samples);
	put_stacks(x, p, th, t);
	export_puts(x, "],\"time\":[");
	put_times(x, p, th, t);
	export_puts(x, "]}}");
}

/* Threads by (pid, tid), as samply lists them. */
static int cmp_thread_key(const void *pa, const void *pb, void *ctx)
{
	const struct tmap *m = ctx;
	const uint64_t *a = m->k[*(const uint32_t *)pa], *b = m->k[*(const uint32_t *)pb];

	if ((int32_t)a[0] != (int32_t)b[0])
		return (int32_t)a[0] < (int32_t)b[0] ? -1 : 1;
	if ((int32_t)a[1] != (int32_t)b[1])
		return (int32_t)a[1] < (int32_t)b[1] ? -1 : 1;
	return 0;
}

/* The thread of @g + 1, a new one made on first sight. 0 on ENOMEM. */
static uint32_t thread_of(struct ff_threads *th, const struct prof_group *g)
{
	bool added;
	int64_t k = tmap_get(&th->ids, (uint64_t)(uint32_t)g->pid, (uint64_t)(uint32_t)g->tid, 0,
			     &added);

	if (k < 0 || k >= UINT32_MAX - 1)
		return 0;
	if (!added)
		return (uint32_t)k + 1;
	if (!(th->nr & (th->nr - 1))) { /* 0, 1, 2, 4, ...: double */
		struct ff_thread *v = realloc(th->v, (th->nr ? 2 * th->nr : 1) * sizeof(*v));

		if (!v)
			return 0;
		th->v = v;
	}
	memset(&th->v[th->nr++], 0, sizeof(th->v[k]));
	return (uint32_t)k + 1;
}

/*
 * Two passes over the samples of event x->ev that report would count.
 * The first gives each thread, once per sample group, the group's stack
 * in its tables, and counts each thread's samples; the second lists the
 * samples thread by thread in th->order, one huge-page block sized once.
 */
static int by_thread(struct sonde_profile *p, const struct export_ctx *x, struct ff_threads *th)
{
	struct prof_tl_clock clk;
	struct prof_group **gv;
	uint32_t *order;
	size_t ng, at = 0;

	if (p->tl_overflow || p->nr_tl > UINT32_MAX)
		return -EOVERFLOW;
	th->memo = calloc(prof_nr_groups(p) + 1, sizeof(*th->memo));
	th->t0 = UINT64_MAX;
	if (!th->memo)
		return -ENOMEM;
	gv = prof_groups_sorted(p, &ng);
	prof_tl_clock_init(&clk, p);
	for (size_t i = 0; i < p->nr_tl; i++) {
		struct ff_gstack *m = &th->memo[p->tl[i].group];
		uint64_t time = prof_tl_time(&clk, p, i);

		if (!m->thread) {
			const struct prof_group *g = gv[p->tl[i].group];
			struct ff_thread *t;
			int64_t sk;

			m->thread = UINT32_MAX;
			if (g->ev != x->ev || !export_stack_visible(p, (const void *)g->st))
				continue;
			m->thread = thread_of(th, g);
			if (!m->thread)
				goto oom;
			t = &th->v[m->thread - 1];
			if (!t->g0)
				t->g0 = g;
			sk = group_stack(t, g);
			if (sk < 0 || sk >= UINT32_MAX)
				goto oom;
			m->stack = (uint32_t)sk;
			m->txt[0] = ',';
			m->len = (uint8_t)(export_fmt_u64(m->txt + 1, (uint64_t)sk) - m->txt);
		}
		if (m->thread == UINT32_MAX)
			continue;
		th->v[m->thread - 1].nr_samples++;
		if (time < th->t0)
			th->t0 = time;
	}
	free(gv);
	for (size_t k = 0; k < th->nr; k++) {
		if (th->v[k].oom)
			return -ENOMEM;
		th->v[k].first = at;
		at += th->v[k].nr_samples;
		th->v[k].nr_samples = 0; /* counted again as placed */
	}
	if (bigalloc_reserve(&th->order, at * sizeof(*order)))
		return -ENOMEM;
	order = th->order.p;
	for (size_t i = 0; i < p->nr_tl; i++) {
		const struct ff_gstack *m = &th->memo[p->tl[i].group];
		struct ff_thread *t;

		if (m->thread == UINT32_MAX)
			continue;
		t = &th->v[m->thread - 1];
		order[t->first + t->nr_samples++] = (uint32_t)i;
	}
	return 0;
oom:
	free(gv);
	return -ENOMEM;
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

static int noop_stack(const struct sonde_profile_stack *st, uint64_t w, uint64_t n, void *arg)
{
	(void)st, (void)w, (void)n, (void)arg;
	return 0;
}

int export_firefox(struct sonde_profile *p, const struct export_ctx *x)
{
	struct ff_threads th = { 0 };
	uint32_t *order = NULL;
	int ret;

	if (!p->timeline)
		return -EINVAL;
	/* Finishes the stacks (inline frames) and gives them ids. */
	ret = sonde_profile__foreach_stack(p, x->ev, noop_stack, NULL);
	if (!ret)
		ret = by_thread(p, x, &th);
	if (!ret && !(order = malloc((th.ids.nr + 1) * sizeof(*order))))
		ret = -ENOMEM;
	if (ret)
		goto out;
	for (uint32_t k = 0; k < th.ids.nr; k++)
		order[k] = k;
	qsort_r(order, th.ids.nr, sizeof(*order), cmp_thread_key, &th.ids);
	put_meta(x, p);
	export_puts(x, ",\"libs\":[],\"threads\":[");
	for (size_t k = 0; k < th.ids.nr; k++)
		put_thread(p, x, &th, &th.v[order[k]], k == 0);
	export_puts(x, "],\"pages\":[],\"profilerOverhead\":[],\"counters\":[]}\n");
out:
	for (size_t k = 0; k < th.nr; k++)
		thread_free(&th.v[k]);
	free(th.v);
	tmap_free(&th.ids);
	free(th.memo);
	bigalloc_free(&th.order);
	free(order);
	return ret;
}
