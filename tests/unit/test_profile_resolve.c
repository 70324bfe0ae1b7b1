// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The report model's stack cache (profile_resolve.c): equal samples share one
 * stack, anything that tells them apart (a callchain word, the address
 * space) does not; many distinct stacks are all found again; a bounded
 * cache keeps its first stacks and makes later ones transient, in one
 * scratch area that the next transient stack reuses. The profile's sample
 * groups of one stack.
 * Static-only: the stack cache (prof_stacks_*) and the profile's group
 * count are internal.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdint.h>
#include <stdlib.h>
#include "sonde/sonde.h"
#include "pdgen.h"
#include "profile_priv.h"

#define USER SONDE_PERF_RECORD_MISC_USER

static struct prof_stack *get(struct prof_stacks *c, struct prof_thread *t, uint64_t ip,
			     const uint64_t *chain, uint64_t nr)
{
	return prof_stack_get(c, NULL, t, USER, ip, (const uint8_t *)chain, nr);
}

static void test_hash_consing(void **state)
{
	struct prof_machine *m = prof_machine_new();
	struct prof_stacks *c = m ? prof_stacks_new(m, 0, false) : NULL;
	uint64_t a[3] = { 0x1000, 0x2000, 0x3000 }, b[3] = { 0x1000, 0x2000, 0x3001 };
	struct prof_thread *t1, *t2;
	struct prof_stack *s;

	assert_non_null(c);
	t1 = prof_thread_findnew(m, 10, 10);
	t2 = prof_thread_findnew(m, 20, 20);
	s = get(c, t1, 0x1000, a, 3);
	assert_non_null(s);
	assert_ptr_equal(get(c, t1, 0x1000, a, 3), s);
	assert_int_equal(prof_stacks_count(c), 1);
	assert_ptr_not_equal(get(c, t1, 0x1000, b, 3), s); /* last word differs */
	assert_ptr_not_equal(get(c, t1, 0x1000, a, 2), s); /* shorter chain */
	assert_ptr_not_equal(get(c, t2, 0x1000, a, 3), s); /* another process */
	assert_int_equal(prof_stacks_count(c), 4);
	assert_ptr_equal(get(c, t1, 0x1000, a, 3), s);
	/* The sample ip again at the chain's head is one frame, not two. */
	assert_int_equal(s->nr_frames, 3);
	assert_int_equal(s->frames[0].ip, 0x1000);
	assert_int_equal(s->frames[2].ip, 0x3000);
	prof_stacks_free(c);
	prof_machine_free(m);
}

static void test_many_distinct(void **state)
{
	enum { N = 50000 };
	struct prof_machine *m = prof_machine_new();
	struct prof_stacks *c = m ? prof_stacks_new(m, 0, false) : NULL;
	struct prof_stack **v = calloc(N, sizeof(*v));
	struct prof_thread *t;
	uint64_t chain[12];

	assert_non_null(c);
	assert_non_null(v);
	t = prof_thread_findnew(m, 10, 10);
	for (int pass = 0; pass < 2; pass++)
		for (uint64_t i = 0; i < N; i++) {
			struct prof_stack *s;

			/* Stacks sharing all but their innermost frames. */
			for (int d = 0; d < 12; d++)
				chain[d] = 0x400000 + (d < 2 ? i * 16 + (uint64_t)d : (uint64_t)d * 64);
			s = get(c, t, chain[0], chain, 12);
			if (!pass)
				v[i] = s;
			else
				assert_ptr_equal(s, v[i]);
		}
	assert_int_equal(prof_stacks_count(c), N);
	free(v);
	prof_stacks_free(c);
	prof_machine_free(m);
}

static void test_bounded(void **state)
{
	struct prof_machine *m = prof_machine_new();
	struct prof_stacks *c = m ? prof_stacks_new(m, 0, false) : NULL;
	struct prof_thread *t;
	struct prof_stack *s, *kept;
	uint64_t chain[2] = { 0x1000, 0x2000 };

	assert_non_null(c);
	t = prof_thread_findnew(m, 10, 10);
	prof_stacks_set_limit(c, 3);
	for (uint64_t i = 0; i < 3; i++) {
		chain[1] = 0x2000 + i;
		get(c, t, 0x1000, chain, 2);
	}
	kept = get(c, t, 0x1000, chain, 2); /* a hit */
	assert_int_equal(prof_stacks_count(c), 3);
	assert_false(kept->transient);
	assert_int_equal(kept->frames[1].ip, 0x2002);
	chain[1] = 0x3000;
	s = get(c, t, 0x1000, chain, 2); /* the fourth: transient, not kept */
	assert_true(s->transient);
	assert_int_equal(prof_stacks_count(c), 3);
	assert_int_equal(s->frames[1].ip, 0x3000);
	chain[1] = 0x3001;
	s = get(c, t, 0x1000, chain, 2); /* the next one reuses its memory */
	assert_true(s->transient);
	assert_int_equal(s->frames[1].ip, 0x3001);
	/* The kept ones stay as they were. */
	chain[1] = 0x2002;
	assert_ptr_equal(get(c, t, 0x1000, chain, 2), kept);
	assert_int_equal(kept->frames[1].ip, 0x2002);
	prof_stacks_free(c);
	prof_machine_free(m);
}

/*
 * The samples of one stack from five threads in turn (a stack keeps its
 * last two groups; the profile's table takes a stack's groups from its
 * third on): one group per thread whatever the order, each with its own
 * weight, and stacks of one or two threads never enter the table.
 */
static void test_groups_of_a_stack(void **state)
{
	static const enum sonde_profile_key keys[] = { SONDE_PROFILE_KEY_TID };
	SONDE_OPTS(sonde_profile_opts, po, .keys = keys, .nr_keys = 1, .callchains = true);
	struct sonde_profile *p = sonde_profile__new(&po);
	struct sonde_perfdata_reader *r;
	struct pdgen g = { 0 };
	uint64_t chain[3] = { 0x401000, 0x402000, 0x403000 }, t = 1;
	static const uint32_t order[] = { 1, 2, 1, 3, 2, 4, 1, 5, 5, 3, 4, 2, 1 };

	(void)state;
	assert_non_null(p);
	pdg_file_begin(&g, SONDE_PERF_SAMPLE_IP | SONDE_PERF_SAMPLE_TID | SONDE_PERF_SAMPLE_TIME |
				   SONDE_PERF_SAMPLE_PERIOD | SONDE_PERF_SAMPLE_CALLCHAIN,
		       1);
	for (uint32_t tid = 1; tid <= 5; tid++)
		pdg_comm(&g, 100, 100 + tid, "work", 0);
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		pdg_sample(&g, 100, 100 + order[i], t++, chain[0], order[i], chain, 3);
	/* two stacks of one and two threads */
	chain[2] = 0x404000;
	pdg_sample(&g, 100, 101, t++, chain[0], 1, chain, 3);
	chain[2] = 0x405000;
	pdg_sample(&g, 100, 101, t++, chain[0], 1, chain, 3);
	pdg_sample(&g, 100, 102, t++, chain[0], 2, chain, 3);
	pdg_sample(&g, 100, 101, t++, chain[0], 1, chain, 3);
	pdg_file_end(&g, 1, t);
	r = sonde_perfdata_reader__open_mem(g.buf, g.len, NULL);
	assert_non_null(r);
	assert_true(sonde_profile__add_reader(p, r) >= 0);
	assert_int_equal(prof_nr_groups(p), 5 + 1 + 2);
	assert_int_equal(hashtab_count(&p->groups), 5);
	assert_int_equal(sonde_profile__nr_entries(p, 0), 5);
	for (size_t i = 0; i < 5; i++) {
		const struct sonde_profile_entry *e = sonde_profile__entry(p, 0, i);
		int32_t tid = sonde_profile_entry__tid(e) - 100;
		uint64_t want = 0;

		for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++)
			want += order[k] == (uint32_t)tid ? (uint64_t)tid : 0;
		want += tid == 1 ? 3 : tid == 2 ? 2 : 0;
		assert_int_equal(sonde_profile_entry__self(e), want);
	}
	sonde_profile__free(p);
	sonde_perfdata_reader__free(r);
	free(g.buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hash_consing),
		cmocka_unit_test(test_many_distinct),
		cmocka_unit_test(test_bounded),
		cmocka_unit_test(test_groups_of_a_stack),
	};

	sonde_set_print(NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
