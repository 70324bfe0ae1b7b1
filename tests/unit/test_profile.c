// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde_profile on generated perf.data images (pdgen.h) and on records
 * built by hand: histogram (self, children, sort keys), call trees with
 * thresholds, filters, the distinct stacks with their weights, merge and
 * subtract. Symbols come from a JIT map file (/tmp/perf-PID.map) so that
 * names and addresses are the test's own, whatever the machine.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "sonde/sonde.h"
#include "profile_fixture.h"

/* A profile of the generated file with these opts and filter. */
static struct sonde_profile *load(const struct sonde_profile_opts *po,
				  const struct sonde_profile_filter *pf,
				  struct sonde_perfdata_reader **rp, struct pdgen *g)
{
	struct sonde_profile *p = sonde_profile__new(po);
	struct sonde_perfdata_reader *r;

	pf_gen_file(g);
	r = sonde_perfdata_reader__open_mem(g->buf, g->len, NULL);
	assert_non_null(p);
	assert_non_null(r);
	assert_int_equal(sonde_profile__set_filter(p, pf), 0);
	assert_true(sonde_profile__add_reader(p, r) >= 0);
	*rp = r;
	return p;
}

/* Frees what load() made: @p, its reader @r and @g's image under it. */
static void unload(struct sonde_profile *p, struct sonde_perfdata_reader *r,
		   struct pdgen *g)
{
	sonde_profile__free(p);
	sonde_perfdata_reader__free(r);
	free(g->buf);
}

/* The entry of event 0 whose symbol is @sym (NULL: the one without). */
static const struct sonde_profile_entry *find(struct sonde_profile *p, const char *sym)
{
	size_t n = sonde_profile__nr_entries(p, 0);

	for (size_t i = 0; i < n; i++) {
		const struct sonde_profile_entry *e = sonde_profile__entry(p, 0, i);
		const char *s = sonde_profile_entry__sym(e);

		if (sym ? s && !strcmp(s, sym) : !s)
			return e;
	}
	return NULL;
}

static void test_self_histogram(void **state)
{
	static const enum sonde_profile_key keys[] = { SONDE_PROFILE_KEY_DSO,
						       SONDE_PROFILE_KEY_SYM };
	SONDE_OPTS(sonde_profile_opts, po, .keys = keys, .nr_keys = 2);
	struct sonde_perfdata_reader *r;
	struct sonde_profile_event_stats st;
	struct pdgen g;
	struct sonde_profile *p = load(&po, NULL, &r, &g);
	const struct sonde_profile_entry *e;
	char tid[64];

	(void)state;
	assert_int_equal(sonde_profile__nr_events(p), 1);
	assert_int_equal(sonde_profile__event_stats(p, 0, &st), 0);
	assert_int_equal(st.samples, 6);
	assert_int_equal(st.period, 650);
	assert_int_equal(st.filtered_period, 650);
	/* Sorted by self: fc 350, fa 200, fb 100; main has no self. */
	assert_int_equal(sonde_profile__nr_entries(p, 0), 3);
	e = sonde_profile__entry(p, 0, 0);
	assert_string_equal(sonde_profile_entry__sym(e), "fc");
	assert_int_equal(sonde_profile_entry__self(e), 350);
	assert_int_equal(sonde_profile_entry__samples(e), 4);
	assert_false(sonde_profile_entry__kernel(e));
	snprintf(tid, sizeof(tid), "[JIT] tid %d", pid);
	assert_string_equal(sonde_profile_entry__dso_short(e), tid);
	assert_string_equal(sonde_profile_entry__dso(e), map_path);
	assert_string_equal(sonde_profile_entry__sym(sonde_profile__entry(p, 0, 1)), "fa");
	assert_string_equal(sonde_profile_entry__sym(sonde_profile__entry(p, 0, 2)), "fb");
	assert_null(sonde_profile__entry(p, 0, 3));
	assert_null(find(p, "main"));
	/* No call trees unless asked for. */
	assert_null(sonde_profile_entry__tree(e));
	unload(p, r, &g);
}

static void test_children_and_keys(void **state)
{
	static const enum sonde_profile_key keys[] = { SONDE_PROFILE_KEY_COMM,
						       SONDE_PROFILE_KEY_SYM };
	SONDE_OPTS(sonde_profile_opts, po, .keys = keys, .nr_keys = 2, .callchains = true);
	struct sonde_perfdata_reader *r;
	struct pdgen g;
	struct sonde_profile *p = load(&po, NULL, &r, &g);
	size_t n;

	(void)state;
	sonde_profile__set_children(p, true);
	/* work: main 600, fa 600, fb 400, fc 300; other: main 50, fc 50. */
	n = sonde_profile__nr_entries(p, 0);
	assert_int_equal(n, 6);
	for (size_t i = 0; i < n; i++) {
		const struct sonde_profile_entry *e = sonde_profile__entry(p, 0, i);
		const char *comm = sonde_profile_entry__comm(e), *sym = sonde_profile_entry__sym(e);
		uint64_t c = sonde_profile_entry__children(e), s = sonde_profile_entry__self(e);

		if (!strcmp(comm, "other")) {
			assert_int_equal(c, 50);
			assert_int_equal(s, !strcmp(sym, "fc") ? 50 : 0);
			assert_true(i >= 4);
		} else if (!strcmp(sym, "main")) {
			assert_int_equal(c, 600);
			assert_int_equal(s, 0);
		} else if (!strcmp(sym, "fa")) {
			assert_int_equal(c, 600);
			assert_int_equal(s, 200);
		} else if (!strcmp(sym, "fb")) {
			assert_int_equal(c, 400);
			assert_int_equal(i, 2);
		} else {
			assert_string_equal(sym, "fc");
			assert_int_equal(c, 300);
			assert_int_equal(i, 3);
		}
	}
	/* Back to self: the histogram is made again. */
	sonde_profile__set_children(p, false);
	assert_int_equal(sonde_profile__nr_entries(p, 0), 4);
	unload(p, r, &g);
}

static size_t kids(const struct sonde_profile_node *n, uint64_t min,
		   const struct sonde_profile_node **v)
{
	return sonde_profile_node__children(n, min, SONDE_PROFILE_BY_WEIGHT, v, 8);
}

static void test_trees(void **state)
{
	static const enum sonde_profile_key keys[] = { SONDE_PROFILE_KEY_SYM };
	SONDE_OPTS(sonde_profile_opts, po, .keys = keys, .nr_keys = 1, .callchains = true,
		   .call_trees = true, .caller_order = true);
	SONDE_OPTS(sonde_profile_opts, callee, .keys = keys, .nr_keys = 1, .callchains = true,
		   .call_trees = true);
	struct sonde_perfdata_reader *r;
	struct pdgen g;
	struct sonde_profile *p = load(&po, NULL, &r, &g);
	const struct sonde_profile_node *v[8], *root, *a;

	(void)state;
	sonde_profile__set_children(p, true);
	/* Caller order from main: main -> fa (600) -> {fb 400 -> fc 300}, main -> fc 50. */
	root = sonde_profile_entry__tree(find(p, "main"));
	assert_non_null(root);
	assert_null(sonde_profile_node__parent(root));
	assert_int_equal(kids(root, 0, v), 1);
	assert_string_equal(sonde_profile_node__sym(v[0]), "main");
	assert_int_equal(sonde_profile_node__total(v[0]), 650);
	assert_int_equal(kids(v[0], 0, v), 2);
	assert_string_equal(sonde_profile_node__sym(v[0]), "fa");
	assert_string_equal(sonde_profile_node__sym(v[1]), "fc");
	a = v[0];
	assert_int_equal(sonde_profile_node__total(a), 600);
	assert_int_equal(sonde_profile_node__self(a), 200);
	assert_int_equal(sonde_profile_node__total(v[1]), 50);
	/* The same in samples (-g ...,count): each counted once. */
	assert_int_equal(sonde_profile_node__nr_total(root), 6);
	assert_int_equal(sonde_profile_node__nr_total(a), 5);
	assert_int_equal(sonde_profile_node__nr_self(a), 1);
	assert_int_equal(sonde_profile_node__nr_total(v[1]), 1);
	/* Thresholds: fb (400) passes 400, not 401. */
	assert_int_equal(kids(a, 400, v), 1);
	assert_string_equal(sonde_profile_node__sym(v[0]), "fb");
	assert_ptr_equal(sonde_profile_node__parent(v[0]), a);
	assert_int_equal(kids(a, 401, v), 0);
	assert_int_equal(sonde_profile_entry__depth(find(p, "main")), 4);
	unload(p, r, &g);

	/* Callee order, self mode: fc's tree starts at fc and goes out. */
	p = load(&callee, NULL, &r, &g);
	root = sonde_profile_entry__tree(find(p, "fc"));
	assert_int_equal(kids(root, 0, v), 1);
	assert_string_equal(sonde_profile_node__sym(v[0]), "fc");
	assert_int_equal(kids(v[0], 0, v), 2);
	assert_string_equal(sonde_profile_node__sym(v[0]), "fb"); /* 300 */
	assert_string_equal(sonde_profile_node__sym(v[1]), "main"); /* 50 */
	assert_int_equal(sonde_profile_node__total(v[0]), 300);
	/* By address every child, highest first: main (F_MAIN) after fb. */
	{
		const struct sonde_profile_node *fc = sonde_profile_node__parent(v[0]);

		assert_int_equal(sonde_profile_node__children(fc, 1000, SONDE_PROFILE_BY_ADDR_DESC,
							      v, 8), 2);
		assert_string_equal(sonde_profile_node__sym(v[0]), "fb");
		assert_string_equal(sonde_profile_node__sym(v[1]), "main");
	}
	unload(p, r, &g);
}

/* Every node's total is its self plus its children's; each child knows it. */
static size_t check_tree(const struct sonde_profile_node *n)
{
	size_t nr = sonde_profile_node__nr_children(n), count = 1;
	const struct sonde_profile_node **v = calloc(nr + 1, sizeof(*v));
	uint64_t sum = 0, nr_sum = 0;

	assert_non_null(v);
	assert_int_equal(sonde_profile_node__children(n, 0, SONDE_PROFILE_BY_ADDR_DESC, v, nr),
			 nr);
	for (size_t i = 0; i < nr; i++) {
		assert_ptr_equal(sonde_profile_node__parent(v[i]), n);
		sum += sonde_profile_node__total(v[i]);
		nr_sum += sonde_profile_node__nr_total(v[i]);
		count += check_tree(v[i]);
	}
	assert_int_equal(sonde_profile_node__total(n), sonde_profile_node__self(n) + sum);
	assert_int_equal(sonde_profile_node__nr_total(n), sonde_profile_node__nr_self(n) + nr_sum);
	free(v);
	return count;
}

/* A tree's shape in one number: its nodes' totals and depths mixed. */
static uint64_t tree_sig(const struct sonde_profile_node *n, uint64_t depth)
{
	size_t nr = sonde_profile_node__nr_children(n);
	const struct sonde_profile_node **v = calloc(nr + 1, sizeof(*v));
	uint64_t h = sonde_profile_node__total(n) * 1000003u + depth * 31u +
		     sonde_profile_node__ip(n);

	assert_non_null(v);
	sonde_profile_node__children(n, 0, SONDE_PROFILE_BY_ADDR_DESC, v, nr);
	for (size_t i = 0; i < nr; i++)
		h = h * 6364136223846793005u + tree_sig(v[i], depth + 1);
	free(v);
	return h;
}

/*
 * Trees of thousands of nodes (the node array grows, and is moved, many
 * times while they are built), wide ones (their children are indexed)
 * and frames without a symbol (matched by ip): links and weights hold.
 * Each tree is made at its first query: the trees asked first stay where
 * they are while the others are made, and asked in another order (a
 * second profile of the same records) they come out the same.
 */
static void test_trees_many(void **state)
{
	static const enum sonde_profile_key keys[] = { SONDE_PROFILE_KEY_SYM };
	SONDE_OPTS(sonde_profile_opts, po, .keys = keys, .nr_keys = 1, .callchains = true,
		   .call_trees = true, .caller_order = true);
	struct sonde_profile *p = sonde_profile__new(&po), *q = sonde_profile__new(&po);
	struct sonde_perfdata_reader *r;
	struct pdgen g = { 0 };
	size_t nodes = 0, n;
	uint64_t total = 0;
	const struct sonde_profile_node **roots;
	uint64_t *sigs;

	(void)state;
	pdg_file_begin(&g, ST_IP | ST_TID | ST_TIME | ST_PERIOD | ST_CALLCHAIN, 100);
	pdg_comm(&g, (uint32_t)pid, (uint32_t)pid, "work", 0);
	for (uint64_t i = 0; i < 3000; i++) {
		uint64_t chain[6];

		for (int d = 0; d < 6; d++) /* no map here: every frame by its ip */
			chain[d] = 0x500000 + ((i * (uint64_t)(d + 3)) % (uint64_t)(5 + 9 * d)) * 16;
		pdg_sample(&g, (uint32_t)pid, (uint32_t)pid, 1 + i, chain[0], 1 + i % 7, chain, 6);
		total += 1 + i % 7;
	}
	pdg_file_end(&g, 1, 3000);
	r = sonde_perfdata_reader__open_mem(g.buf, g.len, NULL);
	assert_non_null(p);
	assert_non_null(r);
	assert_true(sonde_profile__add_reader(p, r) >= 0);
	sonde_profile__set_children(p, true);
	n = sonde_profile__nr_entries(p, 0);
	assert_true(n > 20);
	roots = calloc(n, sizeof(*roots));
	sigs = calloc(n, sizeof(*sigs));
	assert_non_null(roots);
	assert_non_null(sigs);
	for (size_t i = 0; i < n; i++) {
		const struct sonde_profile_entry *e = sonde_profile__entry(p, 0, i);
		const struct sonde_profile_node *root = sonde_profile_entry__tree(e);

		assert_non_null(root);
		assert_null(sonde_profile_node__parent(root));
		assert_int_equal(sonde_profile_node__total(root), sonde_profile_entry__children(e));
		assert_true(sonde_profile_node__total(root) <= total);
		nodes += check_tree(root);
		roots[i] = root;
		sigs[i] = tree_sig(root, 0);
	}
	assert_true(nodes > 5000);
	for (size_t i = 0; i < n; i++) { /* made once, never moved */
		assert_ptr_equal(sonde_profile_entry__tree(sonde_profile__entry(p, 0, i)), roots[i]);
		assert_int_equal(tree_sig(roots[i], 0), sigs[i]);
	}
	assert_non_null(q);
	/* a second profile of the same records, its trees asked in reverse */
	sonde_profile__free(p);
	p = NULL;
	sonde_perfdata_reader__free(r);
	r = sonde_perfdata_reader__open_mem(g.buf, g.len, NULL);
	assert_non_null(r);
	assert_true(sonde_profile__add_reader(q, r) >= 0);
	sonde_profile__set_children(q, true);
	assert_int_equal(sonde_profile__nr_entries(q, 0), n);
	for (size_t i = n; i-- > 0;)
		assert_int_equal(tree_sig(sonde_profile_entry__tree(sonde_profile__entry(q, 0, i)), 0),
				 sigs[i]);
	free(roots);
	free(sigs);
	unload(q, r, &g);
}

static void test_filters(void **state)
{
	static const enum sonde_profile_key keys[] = { SONDE_PROFILE_KEY_SYM };
	SONDE_OPTS(sonde_profile_opts, po, .keys = keys, .nr_keys = 1);
	const char *other[] = { "other" };
	const char *fa[] = { "fa", "fb" };
	const int32_t tids[] = { pid + 1 };
	const struct sonde_profile_time_range times[] = { { .start = 2, .end = 5 } };
	/* The same slice as an array of two (read at the struct's stride). */
	const struct sonde_profile_time_range halves[] = {
		{ .start = 4, .end = 5 }, { .start = 2, .end = 4 },
	};
	const char *nodso[] = { "[kernel.kallsyms]" };
	SONDE_OPTS(sonde_profile_filter, by_comm, .comms = other, .nr_comms = 1);
	SONDE_OPTS(sonde_profile_filter, by_tid, .tids = tids, .nr_tids = 1);
	SONDE_OPTS(sonde_profile_filter, by_time, .times = times, .nr_times = 1);
	SONDE_OPTS(sonde_profile_filter, by_halves, .times = halves, .nr_times = 2);
	const struct sonde_profile_filter *by_times[] = { &by_time, &by_halves };
	SONDE_OPTS(sonde_profile_filter, by_sym, .syms = fa, .nr_syms = 2);
	SONDE_OPTS(sonde_profile_filter, by_dso, .dsos = nodso, .nr_dsos = 1);
	struct sonde_profile_event_stats st;
	struct sonde_perfdata_reader *r;
	struct pdgen g;
	struct sonde_profile *p;

	(void)state;
	p = load(&po, &by_comm, &r, &g);
	assert_int_equal(sonde_profile__nr_entries(p, 0), 1);
	assert_int_equal(sonde_profile_entry__self(find(p, "fc")), 50);
	sonde_profile__event_stats(p, 0, &st);
	assert_int_equal(st.samples, 6); /* before filters */
	assert_int_equal(st.filtered_period, 50);
	unload(p, r, &g);

	p = load(&po, &by_tid, &r, &g);
	assert_int_equal(sonde_profile_entry__self(find(p, "fc")), 50);
	assert_null(find(p, "fa"));
	unload(p, r, &g);

	/* [2, 5): two c<-b<-a samples and the b one. */
	for (size_t i = 0; i < 2; i++) {
		p = load(&po, by_times[i], &r, &g);
		assert_int_equal(sonde_profile_entry__self(find(p, "fc")), 200);
		assert_int_equal(sonde_profile_entry__self(find(p, "fb")), 100);
		assert_null(find(p, "fa"));
		/* The time slice is what the totals are of, as in perf. */
		sonde_profile__event_stats(p, 0, &st);
		assert_int_equal(st.samples, 3);
		assert_int_equal(st.period, 300);
		unload(p, r, &g);
	}
	/* Reserved room that is not zero is refused: a later field's place. */
	{
		struct sonde_profile_time_range used[] = { { .start = 2, .end = 5 } };
		SONDE_OPTS(sonde_profile_filter, by_used, .times = used, .nr_times = 1);

		used[0].reserved[1] = 1;
		p = sonde_profile__new(&po);
		assert_int_equal(sonde_profile__set_filter(p, &by_used), -EINVAL);
		used[0].reserved[1] = 0;
		assert_int_equal(sonde_profile__set_filter(p, &by_used), 0);
		sonde_profile__free(p);
	}

	p = load(&po, &by_sym, &r, &g);
	assert_int_equal(sonde_profile__nr_entries(p, 0), 2);
	assert_null(find(p, "fc"));
	sonde_profile__event_stats(p, 0, &st);
	assert_int_equal(st.filtered_period, 300);
	unload(p, r, &g);

	p = load(&po, &by_dso, &r, &g);
	assert_int_equal(sonde_profile__nr_entries(p, 0), 0);
	unload(p, r, &g);
}

struct seen {
	int n;
	uint64_t weight[8], samples[8];
	uint32_t frames[8];
	char top[8][16];
};

/* The first stack's frame count, top frame (top[0]) and own sample (top[1]); stops there. */
static int first_self(const struct sonde_profile_stack *st, uint64_t weight, uint64_t samples,
		      void *arg)
{
	struct seen *s = arg;
	const char *top = sonde_profile_frame__sym(sonde_profile_stack__frame(st, 0));
	const char *self = sonde_profile_frame__sym(sonde_profile_stack__self(st));

	(void)weight;
	(void)samples;
	s->frames[0] = sonde_profile_stack__nr_frames(st);
	snprintf(s->top[0], sizeof(s->top[0]), "%s", top ? top : "?");
	snprintf(s->top[1], sizeof(s->top[1]), "%s", self ? self : "?");
	s->n = 2;
	return 1;
}

static int on_stack(const struct sonde_profile_stack *st, uint64_t weight, uint64_t samples,
		    void *arg)
{
	struct seen *s = arg;
	const char *sym = sonde_profile_frame__sym(sonde_profile_stack__frame(st, 0));

	if (s->n == 8)
		return 1;
	s->weight[s->n] = weight;
	s->samples[s->n] = samples;
	s->frames[s->n] = sonde_profile_stack__nr_frames(st);
	snprintf(s->top[s->n], sizeof(s->top[0]), "%s", sym ? sym : "?");
	s->n++;
	return 0;
}

static void test_foreach_stack(void **state)
{
	SONDE_OPTS(sonde_profile_opts, po, .callchains = true);
	struct sonde_perfdata_reader *r;
	struct pdgen g;
	struct sonde_profile *p = load(&po, NULL, &r, &g);
	struct seen s = { 0 };

	(void)state;
	assert_int_equal(sonde_profile__foreach_stack(p, 0, on_stack, &s), 0);
	/* In first-seen order, with the samples' total period. */
	assert_int_equal(s.n, 4);
	assert_string_equal(s.top[0], "fc");
	assert_int_equal(s.weight[0], 300);
	assert_int_equal(s.samples[0], 3);
	assert_int_equal(s.frames[0], 4);
	assert_string_equal(s.top[1], "fb");
	assert_int_equal(s.weight[1], 100);
	assert_string_equal(s.top[2], "fa");
	assert_int_equal(s.weight[2], 200);
	assert_int_equal(s.frames[2], 2);
	assert_string_equal(s.top[3], "fc");
	assert_int_equal(s.weight[3], 50);
	assert_int_equal(sonde_profile__foreach_stack(p, 1, on_stack, &s), -EINVAL);
	/* A callback's non-zero return ends the walk with it. */
	s.n = 8;
	assert_int_equal(sonde_profile__foreach_stack(p, 0, on_stack, &s), 1);
	unload(p, r, &g);
}

/* max_stack: the frames kept per stack, bounded, never negative. */
static void test_max_stack(void **state)
{
	SONDE_OPTS(sonde_profile_opts, neg, .callchains = true, .max_stack = -1);
	SONDE_OPTS(sonde_profile_opts, two, .callchains = true, .max_stack = 2);
	SONDE_OPTS(sonde_profile_opts, huge, .callchains = true, .max_stack = 1 << 30);
	SONDE_OPTS(sonde_profile_opts, outer, .callchains = true, .caller_order = true,
		   .max_stack = 2);
	struct sonde_perfdata_reader *r;
	struct sonde_profile *p;
	struct pdgen g;
	struct seen s = { 0 };

	(void)state;
	errno = 0;
	assert_null(sonde_profile__new(&neg));
	assert_int_equal(errno, EINVAL);
	{
		/* The weights' places: within the keys (+1), -1 or 0; beyond: refused. */
		static const enum sonde_profile_key keys[] = { SONDE_PROFILE_KEY_COMM };
		SONDE_OPTS(sonde_profile_opts, far, .keys = keys, .nr_keys = 1, .self_at = 3);
		SONDE_OPTS(sonde_profile_opts, below, .keys = keys, .nr_keys = 1, .children_at = -2);
		SONDE_OPTS(sonde_profile_opts, ok, .keys = keys, .nr_keys = 1, .self_at = 2,
			   .children_at = -1);

		errno = 0;
		assert_null(sonde_profile__new(&far));
		assert_int_equal(errno, EINVAL);
		errno = 0;
		assert_null(sonde_profile__new(&below));
		assert_int_equal(errno, EINVAL);
		p = sonde_profile__new(&ok);
		assert_non_null(p);
		sonde_profile__free(p);
	}
	/* The sample's own frame and one caller. */
	p = load(&two, NULL, &r, &g);
	assert_int_equal(sonde_profile__foreach_stack(p, 0, on_stack, &s), 0);
	assert_int_equal(s.frames[0], 2);
	assert_int_equal(s.frames[2], 2);
	unload(p, r, &g);
	/*
	 * Caller order keeps the outermost two, as perf: fc<-fb<-fa<-main
	 * becomes fa<-main, fc stays the sample (its self row); fa<-main
	 * keeps its own frame.
	 */
	memset(&s, 0, sizeof(s));
	p = load(&outer, NULL, &r, &g);
	assert_int_equal(sonde_profile__foreach_stack(p, 0, first_self, &s), 1);
	assert_int_equal(s.frames[0], 2);
	assert_string_equal(s.top[0], "fa");
	assert_string_equal(s.top[1], "fc"); /* the sample's own */
	assert_int_equal(sonde_profile__foreach_stack(p, 0, on_stack, &s), 0);
	assert_int_equal(s.frames[3], 2); /* fb<-fa<-main: fa<-main */
	assert_string_equal(s.top[3], "fa");
	assert_int_equal(s.frames[4], 2); /* fa<-main whole */
	assert_string_equal(s.top[4], "fa");
	unload(p, r, &g);
	/* Beyond the bound: every frame there is, as by default. */
	memset(&s, 0, sizeof(s));
	p = load(&huge, NULL, &r, &g);
	assert_int_equal(sonde_profile__foreach_stack(p, 0, on_stack, &s), 0);
	assert_int_equal(s.frames[0], 4);
	assert_int_equal(s.frames[2], 2);
	unload(p, r, &g);
	assert_true(SONDE_PROFILE_MAX_FRAMES > SONDE_PERF_MAX_STACK_DEPTH);
}

static uint64_t self_of(struct sonde_profile *p, const char *sym)
{
	const struct sonde_profile_entry *e = find(p, sym);

	return e ? sonde_profile_entry__self(e) : 0;
}

static void test_merge_subtract(void **state)
{
	static const enum sonde_profile_key keys[] = { SONDE_PROFILE_KEY_SYM };
	SONDE_OPTS(sonde_profile_opts, po, .keys = keys, .nr_keys = 1, .callchains = true,
		   .call_trees = true);
	const char *work[] = { "work" };
	SONDE_OPTS(sonde_profile_filter, only_work, .comms = work, .nr_comms = 1);
	struct sonde_perfdata_reader *r1, *r2;
	struct pdgen g1, g2;
	struct sonde_profile *a = load(&po, NULL, &r1, &g1);
	struct sonde_profile *b = load(&po, &only_work, &r2, &g2);
	struct sonde_profile_event_stats st;
	struct seen s = { 0 };
	const struct sonde_profile_node *v[8];

	(void)state;
	assert_int_equal(sonde_profile__merge(a, a, 1), -EINVAL);
	assert_int_equal(sonde_profile__merge(a, b, 0), -EINVAL);
	/* a + b: every "work" sample twice, "other" once. */
	assert_int_equal(sonde_profile__merge(a, b, 1), 0);
	assert_int_equal(self_of(a, "fc"), 650);
	assert_int_equal(self_of(a, "fa"), 400);
	sonde_profile__event_stats(a, 0, &st);
	assert_int_equal(st.samples, 12);
	/* The same stacks of two files are one stack and one tree path. */
	assert_int_equal(sonde_profile__foreach_stack(a, 0, on_stack, &s), 0);
	assert_int_equal(s.n, 4);
	assert_int_equal(s.weight[0], 600);
	assert_int_equal(kids(sonde_profile_entry__tree(find(a, "fc")), 0, v), 1);
	/* a - b - b: back to a, then "other" alone; nothing goes below 0. */
	assert_int_equal(sonde_profile__merge(a, b, -1), 0);
	assert_int_equal(self_of(a, "fc"), 350);
	assert_int_equal(sonde_profile__merge(a, b, -1), 0);
	assert_int_equal(self_of(a, "fc"), 50);
	assert_int_equal(sonde_profile__nr_entries(a, 0), 1);
	assert_int_equal(sonde_profile__merge(a, b, -1), 0);
	assert_int_equal(self_of(a, "fc"), 50);
	/* Into an empty profile: it takes the events with their names. */
	{
		struct sonde_profile *c = sonde_profile__new(&po);

		assert_int_equal(sonde_profile__merge(c, b, 1), 0);
		assert_int_equal(sonde_profile__nr_events(c), 1);
		assert_string_equal(sonde_profile__event_name(c, 0),
				    sonde_profile__event_name(b, 0));
		assert_int_equal(self_of(c, "fc"), 300);
		assert_int_equal(self_of(c, "fa"), 200);
		sonde_profile__free(c);
	}
	unload(a, r1, &g1);
	unload(b, r2, &g2);
}

/* What sonde diff reads: one profile's entries paired with a baseline's. */
static void test_baseline(void **state)
{
	static const enum sonde_profile_key keys[] = { SONDE_PROFILE_KEY_SYM };
	SONDE_OPTS(sonde_profile_opts, po, .keys = keys, .nr_keys = 1, .callchains = true,
		   .call_trees = true);
	const char *work[] = { "work" };
	SONDE_OPTS(sonde_profile_filter, only_work, .comms = work, .nr_comms = 1);
	struct sonde_perfdata_reader *r1, *r2;
	struct pdgen g1, g2;
	struct sonde_profile *a = load(&po, NULL, &r1, &g1);
	struct sonde_profile *b = load(&po, &only_work, &r2, &g2);
	struct sonde_profile *c = sonde_profile__new(&po);
	struct sonde_profile_event_stats st, base;
	const struct sonde_profile_entry *e;
	const struct sonde_profile_node *v[8];

	(void)state;
	assert_int_equal(sonde_profile__add_baseline(a, a), -EINVAL);
	assert_int_equal(sonde_profile__add_baseline(NULL, a), -EINVAL);
	/* c = a - b, two merges into one profile: the "other" samples (fc 50). */
	assert_int_equal(sonde_profile__merge(c, a, 1), 0);
	assert_int_equal(sonde_profile__merge(c, b, -1), 0);
	assert_int_equal(sonde_profile__nr_entries(c, 0), 1);
	assert_int_equal(sonde_profile__add_baseline(c, a), 0);
	/* Entries of either: fa and fb are the baseline's alone, and sort last. */
	assert_int_equal(sonde_profile__nr_entries(c, 0), 3);
	e = sonde_profile__entry(c, 0, 0);
	assert_string_equal(sonde_profile_entry__sym(e), "fc");
	assert_int_equal(sonde_profile_entry__self(e), 50);
	assert_int_equal(sonde_profile_entry__baseline(e), 350);
	e = sonde_profile__entry(c, 0, 1);
	assert_string_equal(sonde_profile_entry__sym(e), "fa");
	assert_int_equal(sonde_profile_entry__self(e), 0);
	assert_int_equal(sonde_profile_entry__samples(e), 0);
	assert_int_equal(sonde_profile_entry__baseline(e), 200);
	assert_true(sonde_profile_entry__baseline_samples(e) > 0);
	/* Totals apart; trees stay the profile's own. */
	sonde_profile__event_stats(a, 0, &st);
	assert_int_equal(sonde_profile__baseline_stats(c, 0, &base), 0);
	assert_int_equal(base.period, st.period);
	assert_int_equal(base.samples, st.samples);
	assert_int_equal(base.filtered_period, 650);
	sonde_profile__event_stats(c, 0, &st);
	assert_int_equal(st.filtered_period, 50);
	assert_int_equal(sonde_profile_node__total(sonde_profile_entry__tree(find(c, "fc"))), 50);
	assert_int_equal(kids(sonde_profile_entry__tree(find(c, "fa")), 0, v), 0);
	assert_int_equal(sonde_profile__baseline_stats(c, 1, &base), -EINVAL);
	/* A profile without a baseline reads 0. */
	assert_int_equal(sonde_profile__baseline_stats(a, 0, &base), 0);
	assert_int_equal(base.period, 0);
	assert_int_equal(sonde_profile_entry__baseline(find(a, "fc")), 0);
	sonde_profile__free(c);
	unload(a, r1, &g1);
	unload(b, r2, &g2);
}

/*
 * perf diff's pairing: one event with another whatever their names
 * (events matched by attr type and config), its baseline replaced, not
 * added to; the other events keep theirs.
 */
static void test_set_baseline(void **state)
{
	static const enum sonde_profile_key keys[] = { SONDE_PROFILE_KEY_SYM };
	SONDE_OPTS(sonde_profile_opts, po, .keys = keys, .nr_keys = 1, .callchains = true);
	const char *work[] = { "work" };
	SONDE_OPTS(sonde_profile_filter, only_work, .comms = work, .nr_comms = 1);
	struct sonde_perfdata_reader *r1, *r2;
	struct pdgen g1, g2;
	struct sonde_profile *a = load(&po, NULL, &r1, &g1);
	struct sonde_profile *b = load(&po, &only_work, &r2, &g2);
	struct sonde_profile *c = sonde_profile__new(&po);
	struct sonde_profile_event_stats base, st;
	const struct sonde_profile_entry *e;

	(void)state;
	assert_int_equal(sonde_profile__merge(c, b, 1), 0);
	assert_int_equal(sonde_profile__set_baseline(c, 0, c, 0), -EINVAL);
	assert_int_equal(sonde_profile__set_baseline(NULL, 0, a, 0), -EINVAL);
	assert_int_equal(sonde_profile__set_baseline(c, 1, a, 0), -EINVAL);
	assert_int_equal(sonde_profile__set_baseline(c, 0, a, 1), -EINVAL);
	assert_int_equal(sonde_profile__set_baseline(c, 0, a, 0), 0);
	assert_int_equal(sonde_profile_entry__baseline(find(c, "fc")), 350);
	/* again, from b: replaced (300), where add_baseline would make 650 */
	assert_int_equal(sonde_profile__set_baseline(c, 0, b, 0), 0);
	assert_int_equal(sonde_profile_entry__baseline(find(c, "fc")), 300);
	assert_int_equal(sonde_profile_entry__baseline(find(c, "fa")), 200);
	sonde_profile__event_stats(b, 0, &st);
	assert_int_equal(sonde_profile__baseline_stats(c, 0, &base), 0);
	assert_int_equal(base.period, st.period);
	/* A second event of another name takes a's first event: no event is
	 * made by name, and event 0 keeps b's baseline. */
	assert_int_equal(sonde_profile__add_event(c, sonde_perfdata_reader__attr(r1, 0), NULL, 0,
						  "renamed"), 1);
	assert_int_equal(sonde_profile__set_baseline(c, 1, a, 0), 0);
	assert_int_equal(sonde_profile__nr_events(c), 2);
	assert_int_equal(sonde_profile__nr_entries(c, 1), 3);
	for (size_t i = 0; i < 3; i++) { /* baseline only: all at self 0 */
		e = sonde_profile__entry(c, 1, i);
		if (!strcmp(sonde_profile_entry__sym(e), "fc"))
			break;
	}
	assert_string_equal(sonde_profile_entry__sym(e), "fc");
	assert_int_equal(sonde_profile_entry__self(e), 0);
	assert_int_equal(sonde_profile_entry__baseline(e), 350);
	assert_int_equal(sonde_profile_entry__baseline(find(c, "fc")), 300);
	assert_int_equal(sonde_profile_entry__self(find(c, "fc")), 300);
	sonde_profile__free(c);
	unload(a, r1, &g1);
	unload(b, r2, &g2);
}

/* Records built by hand, as from a live ring: routed by sample id. */
static void test_records(void **state)
{
	static const enum sonde_profile_key keys[] = { SONDE_PROFILE_KEY_CPU,
						       SONDE_PROFILE_KEY_SYM };
	SONDE_OPTS(sonde_profile_opts, po, .keys = keys, .nr_keys = 2, .callchains = true);
	const int32_t cpus[] = { 1 };
	SONDE_OPTS(sonde_profile_filter, cpu1, .cpus = cpus, .nr_cpus = 1);
	const int32_t bad_cpus[] = { 5000 };
	SONDE_OPTS(sonde_profile_filter, bad, .cpus = bad_cpus, .nr_cpus = 1);
	struct sonde_perf_event_attr attr = { 0 };
	const uint64_t ids1[] = { 11, 12 }, ids2[] = { 21 };
	struct sonde_profile *p = sonde_profile__new(&po);
	struct sonde_record rec;
	const struct sonde_profile_stack *st;
	const uint64_t chain[] = { (uint64_t)-512, F_B + 4, F_A + 4 };
	struct sonde_profile_event_stats es;

	(void)state;
	assert_non_null(p);
	assert_int_equal(sonde_profile__set_filter(p, &bad), -EINVAL);
	attr.size = sizeof(attr);
	attr.sample_type = ST_IP | ST_TID | ST_ID | ST_CPU | ST_PERIOD | ST_CALLCHAIN;
	attr.sample_period = 10;
	assert_int_equal(sonde_profile__add_event(p, &attr, ids1, 2, "first"), 0);
	assert_int_equal(sonde_profile__add_event(p, &attr, ids2, 1, "second"), 1);
	assert_string_equal(sonde_profile__event_name(p, 1), "second");

	pf_live_process(p, "live");

	pf_user_sample(&rec, attr.sample_type, F_C + 4, 7, chain, 3);
	rec.sample.id = 21;
	rec.sample.cpu = 1;
	assert_int_equal(sonde_profile__add_record(p, -1, &rec), 1);
	rec.sample.id = 12;
	rec.sample.cpu = 2;
	assert_int_equal(sonde_profile__add_record(p, -1, &rec), 1);
	rec.sample.id = 99;
	assert_int_equal(sonde_profile__add_record(p, -1, &rec), -ENOENT);

	assert_int_equal(sonde_profile__nr_entries(p, 0), 1);
	assert_int_equal(sonde_profile_entry__cpu(sonde_profile__entry(p, 0, 0)), 2);
	assert_int_equal(sonde_profile_entry__cpu(sonde_profile__entry(p, 1, 0)), 1);
	assert_string_equal(sonde_profile_entry__sym(sonde_profile__entry(p, 1, 0)), "fc");
	assert_int_equal(sonde_profile_entry__self(sonde_profile__entry(p, 1, 0)), 7);
	assert_string_equal(sonde_profile__sample_comm(p, pid, pid), "live");

	/* One sample's stack, not counted (script). */
	st = sonde_profile__sample_stack(p, 1, &rec);
	assert_non_null(st);
	assert_int_equal(sonde_profile_stack__nr_frames(st), 3);
	assert_string_equal(sonde_profile_frame__sym(sonde_profile_stack__frame(st, 2)), "fa");
	assert_int_equal(sonde_profile_frame__sym_offset(sonde_profile_stack__frame(st, 2)), 4);
	assert_int_equal(sonde_profile_frame__ip(sonde_profile_stack__frame(st, 0)), F_C + 4);
	assert_int_equal(sonde_profile_frame__kind(sonde_profile_stack__frame(st, 0)),
			 SONDE_PROFILE_FRAME_JIT);
	assert_null(sonde_profile_stack__frame(st, 3));
	sonde_profile__event_stats(p, 1, &es);
	assert_int_equal(es.samples, 1);
	sonde_profile__free(p);

	/* The cpu filter, and a fixed period when samples carry none. */
	p = sonde_profile__new(&po);
	assert_int_equal(sonde_profile__set_filter(p, &cpu1), 0);
	attr.sample_type &= ~(uint64_t)ST_PERIOD;
	assert_int_equal(sonde_profile__add_event(p, &attr, NULL, 0, "only"), 0);
	rec.sample.sample_type = attr.sample_type;
	rec.sample.cpu = 1;
	assert_int_equal(sonde_profile__add_record(p, -1, &rec), 1);
	rec.sample.cpu = 2;
	assert_int_equal(sonde_profile__add_record(p, -1, &rec), 0);
	assert_int_equal(sonde_profile__nr_entries(p, 0), 1);
	assert_int_equal(sonde_profile_entry__self(sonde_profile__entry(p, 0, 0)), 10);
	sonde_profile__free(p);
}

/* A profile of event 0 that knows threads pid "work" and the JIT map. */
static struct sonde_profile *live_profile(const struct sonde_profile_opts *po,
					  struct sonde_perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->sample_type = ST_IP | ST_TID | ST_PERIOD | ST_CALLCHAIN;
	return pf_live_profile(po, attr, "ev");
}

/* A sample at @ip called from main+4. */
static void leaf_sample(struct sonde_record *rec, const struct sonde_perf_event_attr *attr,
			uint64_t ip, uint64_t *chain)
{
	chain[0] = (uint64_t)-512; /* PERF_CONTEXT_USER */
	chain[1] = F_MAIN + 4;
	memset(rec, 0, sizeof(*rec));
	rec->type = SONDE_PERF_RECORD_SAMPLE;
	rec->misc = SONDE_PERF_RECORD_MISC_USER;
	rec->sample.sample_type = attr->sample_type;
	rec->sample.ip = ip;
	rec->sample.pid = rec->sample.tid = (uint32_t)pid;
	rec->sample.period = 1;
	rec->sample.callchain.nr = 2;
	rec->sample.callchain.ips = chain;
}

/* The stack of a sample at @ip, checked frame by frame. */
static uint32_t stack_at(struct sonde_profile *p, const struct sonde_perf_event_attr *attr,
			 uint64_t ip, const char *sym)
{
	struct sonde_record rec;
	uint64_t chain[2];
	const struct sonde_profile_stack *st;

	leaf_sample(&rec, attr, ip, chain);
	st = sonde_profile__sample_stack(p, 0, &rec);
	assert_non_null(st);
	assert_int_equal(sonde_profile_stack__nr_frames(st), 2);
	assert_string_equal(sonde_profile_frame__sym(sonde_profile_stack__frame(st, 0)), sym);
	assert_string_equal(sonde_profile_frame__sym(sonde_profile_stack__frame(st, 1)), "main");
	return sonde_profile_stack__id(st);
}

static void test_max_stacks(void **state)
{
	SONDE_OPTS(sonde_profile_opts, po, .callchains = true, .max_stacks = 2);
	struct sonde_perf_event_attr attr;
	struct sonde_profile *p = live_profile(&po, &attr);
	struct sonde_record rec;
	uint64_t chain[2];
	uint32_t a;

	(void)state;
	/* The first two stacks are kept, and found again. */
	a = stack_at(p, &attr, F_A + 4, "fa");
	assert_int_equal(a, 0);
	assert_int_equal(stack_at(p, &attr, F_B + 4, "fb"), 1);
	/* A third is resolved for its sample only, and not numbered. */
	assert_int_equal(stack_at(p, &attr, F_C + 4, "fc"), UINT32_MAX);
	assert_int_equal(stack_at(p, &attr, F_C + 4, "fc"), UINT32_MAX);
	assert_int_equal(stack_at(p, &attr, F_A + 4, "fa"), a);

	/* A counted sample holds its stack: the bound no longer applies. */
	leaf_sample(&rec, &attr, F_C + 8, chain);
	assert_int_equal(sonde_profile__add_record(p, 0, &rec), 1);
	a = stack_at(p, &attr, F_A + 8, "fa");
	assert_int_not_equal(a, UINT32_MAX);
	stack_at(p, &attr, F_B + 8, "fb");
	assert_int_equal(stack_at(p, &attr, F_A + 8, "fa"), a);
	assert_int_equal(sonde_profile__nr_entries(p, 0), 1);
	assert_string_equal(sonde_profile_entry__sym(sonde_profile__entry(p, 0, 0)), "fc");
	sonde_profile__free(p);
}

/*
 * One stack sampled in three threads in turn, in runs and alternating: a
 * stack remembers its last groups (one per thread here), and each sample
 * must still count in its own thread's group.
 */
static void test_groups_of_one_stack(void **state)
{
	static const enum sonde_profile_key keys[] = { SONDE_PROFILE_KEY_COMM,
						       SONDE_PROFILE_KEY_TID,
						       SONDE_PROFILE_KEY_SYM };
	static const char order[] = "0101202122000111210120";
	SONDE_OPTS(sonde_profile_opts, po, .keys = keys, .nr_keys = 3, .callchains = true);
	struct sonde_perf_event_attr attr;
	struct sonde_profile *p = live_profile(&po, &attr);
	uint64_t want[3] = { 0 }, got[3] = { 0 };
	size_t n;

	(void)state;
	/* Threads of one name, told apart by their tids only. */
	for (uint32_t k = 1; k < 3; k++) {
		struct sonde_record rec;

		memset(&rec, 0, sizeof(rec));
		rec.type = SONDE_PERF_RECORD_COMM;
		rec.comm.pid = (uint32_t)pid;
		rec.comm.tid = (uint32_t)pid + k;
		rec.comm.comm = "work";
		assert_int_equal(sonde_profile__add_record(p, 0, &rec), 0);
	}
	for (const char *c = order; *c; c++) {
		struct sonde_record rec;
		uint64_t chain[2];
		int k = *c - '0';

		leaf_sample(&rec, &attr, F_B + 4, chain);
		rec.sample.tid = (uint32_t)pid + (uint32_t)k;
		rec.sample.period = 1ULL << (8 * k); /* each thread its own byte */
		want[k] += rec.sample.period;
		assert_int_equal(sonde_profile__add_record(p, 0, &rec), 1);
	}
	n = sonde_profile__nr_entries(p, 0);
	assert_int_equal(n, 3);
	for (size_t i = 0; i < n; i++) {
		const struct sonde_profile_entry *e = sonde_profile__entry(p, 0, i);
		int k = sonde_profile_entry__tid(e) - pid;

		assert_true(k >= 0 && k < 3);
		assert_string_equal(sonde_profile_entry__sym(e), "fb");
		assert_string_equal(sonde_profile_entry__comm(e), "work");
		got[k] += sonde_profile_entry__self(e);
	}
	assert_memory_equal(got, want, sizeof(got));
	sonde_profile__free(p);
}

static volatile uint64_t live_sink;
static volatile long live_ms = 150; /* not a constant: no clone of live_hot */

/* Spins for @ms of this thread's CPU time (what cpu-clock samples). */
static __attribute__((noinline)) void live_hot(long ms)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do {
		for (int i = 0; i < 100000; i++)
			live_sink += (uint64_t)i * 3;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
	__asm__ volatile("");
}

struct live_feed {
	struct sonde_profile *p;
	struct sonde_record_fmt fmt;
	int samples, counted;
};

/* A record of the ring, decoded and added, as a live profiler would. */
static int live_add(const struct sonde_perf_event_header *ev, void *arg)
{
	struct live_feed *f = arg;
	struct sonde_record rec;
	int r;

	assert_int_equal(sonde_record__decode(&f->fmt, ev, ev->size, &rec), 0);
	r = sonde_profile__add_record(f->p, 0, &rec);
	assert_true(r >= 0);
	f->samples += rec.type == SONDE_PERF_RECORD_SAMPLE;
	f->counted += r;
	return 0;
}

/*
 * A profile fed from a real ring: this thread sampled by cpu-clock with
 * frame-pointer callchains while it spins in live_hot(), its maps described
 * by sonde_profile__synth_process() (the test binary was mapped before the
 * event opened), the ring's records decoded with sonde_record__decode().
 */
static void test_live_ring(void **state)
{
	static const enum sonde_profile_key keys[] = { SONDE_PROFILE_KEY_DSO, SONDE_PROFILE_KEY_SYM };
	SONDE_OPTS(sonde_profile_opts, po, .keys = keys, .nr_keys = 2, .callchains = true,
		   .call_trees = true);
	SONDE_OPTS(sonde_evlist_open_opts, oo, .no_inherit = true);
	SONDE_OPTS(sonde_evlist_mmap_opts, mo, .data_pages = 256);
	struct sonde_perf_event_attr a = {
		.type = SONDE_PERF_TYPE_SOFTWARE,
		.size = sizeof(a),
		.config = SONDE_PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 100000, /* 0.1 ms */
		.sample_type = ST_IP | ST_TID | ST_TIME | ST_PERIOD | ST_CALLCHAIN,
	};
	struct live_feed f = { 0 };
	const struct sonde_profile_entry *e, *top;
	const struct sonde_profile_node *kids[4];
	struct sonde_evlist *l;
	uint64_t total = 0;
	size_t n;

	(void)state;
	a.disabled = a.mmap = a.comm = a.sample_id_all = 1;
	a.exclude_hv = 1;
	l = sonde_evlist__new();
	assert_non_null(l);
	assert_int_equal(sonde_evlist__add(l, &a, "cpu-clock", -1), 0);
	if (sonde_evlist__open(l, &oo)) {
		printf("SKIP: cannot open a sampling cpu-clock here: %s\n",
		       sonde_evsel__open_error(sonde_evlist__evsel(l, 0)));
		sonde_evlist__free(l);
		skip();
	}
	assert_int_equal(sonde_evlist__mmap(l, &mo), 0);
	a = *sonde_evsel__attr(sonde_evlist__evsel(l, 0));
	assert_int_equal(sonde_record_fmt__from_attr(&f.fmt, &a), 0);

	f.p = sonde_profile__new(&po);
	assert_non_null(f.p);
	assert_int_equal(sonde_profile__add_event(f.p, &a, NULL, 0, "cpu-clock"), 0);
	assert_int_equal(sonde_profile__synth_kernel(f.p), 0);
	assert_int_equal(sonde_profile__synth_process(f.p, getpid(), NULL), 0);
	assert_int_equal(sonde_profile__synth_process(NULL, getpid(), NULL), -EINVAL);

	assert_int_equal(sonde_evlist__enable(l), 0);
	live_hot(live_ms);
	assert_int_equal(sonde_evlist__disable(l), 0);
	assert_true(sonde_evlist__read_records(l, NULL, live_add, &f) > 0);
	assert_true(f.samples >= 100); /* 1500 expected */
	assert_int_equal(f.counted, f.samples);

	/* The heaviest function is live_hot, called from this test. */
	n = sonde_profile__nr_entries(f.p, 0);
	assert_true(n > 0);
	top = sonde_profile__entry(f.p, 0, 0);
	for (size_t i = 0; i < n; i++) {
		e = sonde_profile__entry(f.p, 0, i);
		total += sonde_profile_entry__self(e);
	}
	assert_non_null(sonde_profile_entry__sym(top));
	assert_string_equal(sonde_profile_entry__sym(top), "live_hot");
	assert_true(sonde_profile_entry__self(top) * 2 > total);
	/* In this test's own binary, known from the synthesized MMAP2. */
	assert_non_null(sonde_profile_entry__dso(top));
	assert_non_null(strstr(sonde_profile_entry__dso(top), "test_profile"));
	assert_false(sonde_profile_entry__kernel(top));
	/* Its call tree: live_hot itself, then its caller. */
	assert_int_equal(sonde_profile_node__children(sonde_profile_entry__tree(top), 0,
						      SONDE_PROFILE_BY_WEIGHT, kids, 4), 1);
	assert_string_equal(sonde_profile_node__sym(kids[0]), "live_hot");
	assert_true(sonde_profile_node__children(kids[0], 0, SONDE_PROFILE_BY_WEIGHT, kids, 4) >= 1);
	assert_string_equal(sonde_profile_node__sym(kids[0]), "test_live_ring");

	sonde_profile__free(f.p);
	sonde_evlist__free(l);
}

static void test_opts(void **state)
{
	enum sonde_profile_key bad_key = SONDE_PROFILE_KEY_MAX;
	SONDE_OPTS(sonde_profile_opts, bad, .keys = &bad_key, .nr_keys = 1);
	struct {
		struct sonde_profile_opts o;
		uint64_t future;
	} big;

	(void)state;
	assert_int_equal(sonde_profile_key__parse("symbol"), SONDE_PROFILE_KEY_SYM);
	assert_int_equal(sonde_profile_key__parse("command"), SONDE_PROFILE_KEY_COMM);
	assert_int_equal(sonde_profile_key__parse("srcline"), SONDE_PROFILE_KEY_SRCLINE);
	assert_int_equal(sonde_profile_key__parse("nope"), -EINVAL);
	assert_null(sonde_profile__new(&bad));
	/* A newer caller's field this library does not know: refused if set. */
	memset(&big, 0, sizeof(big));
	big.o.sz = sizeof(big);
	sonde_profile__free(sonde_profile__new(&big.o));
	big.future = 1;
	assert_null(sonde_profile__new(&big.o));
	sonde_profile__free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_self_histogram),
		cmocka_unit_test(test_children_and_keys),
		cmocka_unit_test(test_trees),
		cmocka_unit_test(test_trees_many),
		cmocka_unit_test(test_filters),
		cmocka_unit_test(test_foreach_stack),
		cmocka_unit_test(test_max_stack),
		cmocka_unit_test(test_merge_subtract),
		cmocka_unit_test(test_baseline),
		cmocka_unit_test(test_set_baseline),
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_max_stacks),
		cmocka_unit_test(test_groups_of_one_stack),
		cmocka_unit_test(test_opts),
		cmocka_unit_test(test_live_ring),
	};

	return cmocka_run_group_tests(tests, pf_setup, pf_teardown);
}
