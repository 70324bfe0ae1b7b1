// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The histogram's fast sort (profile_sort.c) against qsort_r() with
 * perf's comparison: the same order for every sort order it ranks, in
 * both modes and call graph orders, on entries that tie on weight, depth
 * and self across three comms, objects and no object, symbols and bare
 * addresses (where perf's rules are no total order, so the two sorts
 * must also make the same comparisons).
 * Static-only: it compares prof_sort_entries() with perf's comparison
 * (prof_entry_cmp) on internal entries; the public API sees the result only.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "profile_priv.h"
#include "profile_fixture.h"

/* A deterministic mix of ips: symbols, an object's bare addresses, no object. */
static uint64_t pick_ip(uint32_t *seed)
{
	uint32_t r;

	*seed = *seed * 1103515245u + 12345u;
	r = *seed >> 8;
	switch (r % 4) {
	case 0:
		return F_MAIN + (r / 4) % 0x40 * 4; /* one of the symbols */
	case 1:
		return F_A + (r / 4) % 0x300 * 4; /* fa..fc: symbols */
	case 2:
		return BASE + 0x800 + (r / 4) % 0x40 * 8; /* in the map, no symbol */
	default:
		return 0x10000 + (r / 4) % 0x20 * 8; /* in no map at all */
	}
}

static void gen_ties(struct pdgen *g)
{
	uint32_t seed = 7;

	memset(g, 0, sizeof(*g));
	pdg_file_begin(g, ST_IP | ST_TID | ST_TIME | ST_PERIOD | ST_CALLCHAIN, 100);
	pdg_comm(g, (uint32_t)pid, (uint32_t)pid, "work", 0);
	pdg_comm(g, (uint32_t)pid, (uint32_t)pid + 1, "other", 0);
	pdg_comm(g, (uint32_t)pid, (uint32_t)pid + 2, "aaa", 0);
	pdg_mmap(g, (uint32_t)pid, BASE, 0x1000, 0, "//anon", 0);
	for (int i = 0; i < 3000; i++) {
		uint64_t chain[5];
		unsigned nr = 1 + (unsigned)(i * 7 % 5);

		for (unsigned k = 0; k < nr; k++)
			chain[k] = pick_ip(&seed);
		/* periods of 100 or 200: most entries tie on weight */
		pdg_sample(g, (uint32_t)pid, (uint32_t)pid + (uint32_t)(i % 3), 1 + (uint64_t)i,
			   chain[0], i % 5 ? 100 : 200, chain, nr);
	}
	pdg_file_end(g, 1, 3000);
}

static int seq_cmp(const void *pa, const void *pb)
{
	const struct sonde_profile_entry *a = *(struct sonde_profile_entry *const *)pa;
	const struct sonde_profile_entry *b = *(struct sonde_profile_entry *const *)pb;

	return (a->seq > b->seq) - (a->seq < b->seq);
}

/* One sort order, mode and call graph order: both sorts agree. */
static void check(struct pdgen *g, const enum sonde_profile_key *keys, size_t nr_keys,
		  bool children, bool caller)
{
	SONDE_OPTS(sonde_profile_opts, po, .keys = keys, .nr_keys = nr_keys, .callchains = true,
		   .call_trees = true, .caller_order = caller);
	struct sonde_profile *p = sonde_profile__new(&po);
	struct sonde_perfdata_reader *r = sonde_perfdata_reader__open_mem(g->buf, g->len, NULL);
	struct sonde_profile_entry **fast, **slow;
	size_t n;

	assert_non_null(p);
	assert_non_null(r);
	assert_true(sonde_profile__add_reader(p, r) >= 0);
	sonde_profile__set_children(p, children);
	n = sonde_profile__nr_entries(p, 0);
	assert_true(n >= 3);
	fast = malloc(n * sizeof(*fast));
	slow = malloc(n * sizeof(*slow));
	assert_non_null(fast);
	assert_non_null(slow);
	/* the shown entries in creation order: what both sorts start from */
	for (size_t i = 0; i < n; i++)
		fast[i] = (struct sonde_profile_entry *)sonde_profile__entry(p, 0, i);
	qsort(fast, n, sizeof(*fast), seq_cmp);
	memcpy(slow, fast, n * sizeof(*fast));
	assert_true(prof_sort_entries(p, fast, n));
	qsort_r(slow, n, sizeof(*slow), prof_entry_cmp, p);
	for (size_t i = 0; i < n; i++)
		assert_ptr_equal(fast[i], slow[i]);
	/* and the profile's own order is that one */
	for (size_t i = 0; i < n; i++)
		assert_ptr_equal(sonde_profile__entry(p, 0, i), slow[i]);
	free(fast);
	free(slow);
	sonde_profile__free(p);
	sonde_perfdata_reader__free(r);
}

static void test_same_order(void **state)
{
	static const enum sonde_profile_key orders[][3] = {
		{ SONDE_PROFILE_KEY_COMM, SONDE_PROFILE_KEY_DSO, SONDE_PROFILE_KEY_SYM },
		{ SONDE_PROFILE_KEY_SYM, SONDE_PROFILE_KEY_DSO, SONDE_PROFILE_KEY_COMM },
		{ SONDE_PROFILE_KEY_DSO, SONDE_PROFILE_KEY_SYM },
		{ SONDE_PROFILE_KEY_SYM },
		{ SONDE_PROFILE_KEY_COMM },
	};
	static const size_t nr[] = { 3, 3, 2, 1, 1 };
	struct pdgen g;

	(void)state;
	gen_ties(&g);
	for (size_t o = 0; o < sizeof(nr) / sizeof(nr[0]); o++)
		for (int mode = 0; mode < 4; mode++)
			check(&g, orders[o], nr[o], mode & 1, mode & 2);
	free(g.buf);
}

/* A key it does not rank: the profile's qsort_r() sorts. */
static void test_other_keys(void **state)
{
	static const enum sonde_profile_key keys[] = { SONDE_PROFILE_KEY_PID,
						       SONDE_PROFILE_KEY_SYM };
	SONDE_OPTS(sonde_profile_opts, po, .keys = keys, .nr_keys = 2, .callchains = true);
	struct sonde_profile *p = sonde_profile__new(&po);
	struct sonde_profile_entry *e[1];

	(void)state;
	assert_non_null(p);
	assert_false(prof_sort_entries(p, e, 0));
	sonde_profile__free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_order),
		cmocka_unit_test(test_other_keys),
	};
	return cmocka_run_group_tests(tests, pf_setup, pf_teardown);
}
