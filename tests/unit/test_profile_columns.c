// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde_profile__add_column(): perf diff's table of a baseline and
 * several files. Three profiles of the hand-made file (profile_fixture.h),
 * each of another time slice, so that each has rows the others lack:
 *   baseline [5, 7): fa 200, fc 50
 *   column 1 [1, 5): fc 300, fb 100
 *   column 2 [3, 5): fc 100, fb 100
 * The columns pair with the baseline's entries by the sort keys, rows
 * that only columns have join the histogram, and the columns' profiles
 * may go before the histogram is read.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/sonde.h"
#include "profile_fixture.h"

struct loaded {
	struct pdgen g;
	struct sonde_perfdata_reader *r;
	struct sonde_profile *p;
};

/* A profile of the fixture's samples in [@start, @end), keyed by symbol. */
static void load(struct loaded *l, uint64_t start, uint64_t end)
{
	static const enum sonde_profile_key keys[] = { SONDE_PROFILE_KEY_SYM };
	SONDE_OPTS(sonde_profile_opts, po, .keys = keys, .nr_keys = 1, .callchains = true,
		   .call_trees = true);
	const struct sonde_profile_time_range slice[] = { { start, end } };
	SONDE_OPTS(sonde_profile_filter, pf, .times = slice, .nr_times = 1);

	pf_gen_file(&l->g);
	l->p = sonde_profile__new(&po);
	l->r = sonde_perfdata_reader__open_mem(l->g.buf, l->g.len, NULL);
	assert_non_null(l->p);
	assert_non_null(l->r);
	assert_int_equal(sonde_profile__set_filter(l->p, &pf), 0);
	assert_true(sonde_profile__add_reader(l->p, l->r) >= 0);
}

static void unload(struct loaded *l)
{
	sonde_profile__free(l->p);
	sonde_perfdata_reader__free(l->r);
	free(l->g.buf);
}

/* The entry of event 0 whose symbol is @sym, or NULL. */
static const struct sonde_profile_entry *find(struct sonde_profile *p, const char *sym)
{
	size_t n = sonde_profile__nr_entries(p, 0);

	for (size_t i = 0; i < n; i++) {
		const struct sonde_profile_entry *e = sonde_profile__entry(p, 0, i);
		const char *s = sonde_profile_entry__sym(e);

		if (s && !strcmp(s, sym))
			return e;
	}
	return NULL;
}

/* @sym's weights in columns 0, 1 and 2, and its samples in them. */
static void expect(struct sonde_profile *p, const char *sym, uint64_t w0, uint64_t w1,
		   uint64_t w2, uint64_t n0, uint64_t n1, uint64_t n2)
{
	const struct sonde_profile_entry *e = find(p, sym);

	assert_non_null(e);
	assert_int_equal(sonde_profile_entry__column(e, 0), w0);
	assert_int_equal(sonde_profile_entry__self(e), w0);
	assert_int_equal(sonde_profile_entry__column(e, 1), w1);
	assert_int_equal(sonde_profile_entry__column(e, 2), w2);
	assert_int_equal(sonde_profile_entry__column_samples(e, 0), n0);
	assert_int_equal(sonde_profile_entry__column_samples(e, 1), n1);
	assert_int_equal(sonde_profile_entry__column_samples(e, 2), n2);
}

static void test_columns(void **state)
{
	struct loaded base, one, two;
	struct sonde_profile_event_stats st;
	const struct sonde_profile_entry *e;

	(void)state;
	load(&base, 5, 7);
	load(&one, 1, 5);
	load(&two, 3, 5);
	assert_int_equal(sonde_profile__nr_columns(base.p, 0), 1);
	assert_int_equal(sonde_profile__nr_columns(base.p, 1), 0);
	assert_int_equal(sonde_profile__add_column(base.p, 0, base.p, 0), -EINVAL);
	assert_int_equal(sonde_profile__add_column(NULL, 0, one.p, 0), -EINVAL);
	assert_int_equal(sonde_profile__add_column(base.p, 1, one.p, 0), -EINVAL);
	assert_int_equal(sonde_profile__add_column(base.p, 0, one.p, 1), -EINVAL);
	assert_int_equal(sonde_profile__add_column(base.p, 0, one.p, -1), -EINVAL);

	/* Read before a column and after each: the histogram is made again. */
	assert_int_equal(sonde_profile__nr_entries(base.p, 0), 2);
	assert_int_equal(sonde_profile__add_column(base.p, 0, one.p, 0), 1);
	assert_int_equal(sonde_profile__nr_entries(base.p, 0), 3);
	assert_int_equal(sonde_profile__add_column(base.p, 0, two.p, 0), 2);
	assert_int_equal(sonde_profile__nr_columns(base.p, 0), 3);
	/* The columns keep what they need: their profiles may go. */
	unload(&one);
	unload(&two);

	/* fa only in the baseline, fc in all three, fb in both columns only. */
	assert_int_equal(sonde_profile__nr_entries(base.p, 0), 3);
	expect(base.p, "fa", 200, 0, 0, 1, 0, 0);
	expect(base.p, "fc", 50, 300, 100, 1, 3, 1);
	expect(base.p, "fb", 0, 100, 100, 0, 1, 1);
	/* by the baseline's own weight; what it lacks after */
	assert_string_equal(sonde_profile_entry__sym(sonde_profile__entry(base.p, 0, 0)), "fa");
	assert_string_equal(sonde_profile_entry__sym(sonde_profile__entry(base.p, 0, 1)), "fc");
	assert_string_equal(sonde_profile_entry__sym(sonde_profile__entry(base.p, 0, 2)), "fb");
	e = find(base.p, "fb");
	assert_int_equal(sonde_profile_entry__column(e, 3), 0);
	assert_int_equal(sonde_profile_entry__column(e, -1), 0);
	/* Columns weigh self only: the trees stay the baseline's. */
	assert_true(!sonde_profile_entry__tree(e) ||
		    !sonde_profile_node__nr_children(sonde_profile_entry__tree(e)));
	assert_int_equal(sonde_profile_node__total(sonde_profile_entry__tree(find(base.p, "fc"))),
			 50);

	/* Each column's totals, the baseline's untouched. */
	assert_int_equal(sonde_profile__column_stats(base.p, 0, 0, &st), 0);
	assert_int_equal(st.samples, 2);
	assert_int_equal(st.period, 250);
	assert_int_equal(st.filtered_period, 250);
	assert_int_equal(sonde_profile__column_stats(base.p, 0, 1, &st), 0);
	assert_int_equal(st.samples, 4);
	assert_int_equal(st.period, 400);
	assert_int_equal(st.filtered_samples, 4);
	assert_int_equal(st.filtered_period, 400);
	assert_int_equal(sonde_profile__column_stats(base.p, 0, 2, &st), 0);
	assert_int_equal(st.period, 200);
	assert_int_equal(st.filtered_period, 200);
	assert_int_equal(sonde_profile__column_stats(base.p, 0, 3, &st), -EINVAL);
	assert_int_equal(sonde_profile__column_stats(base.p, 1, 0, &st), -EINVAL);
	assert_int_equal(sonde_profile__column_stats(base.p, 0, -1, &st), -EINVAL);
	assert_int_equal(sonde_profile__event_stats(base.p, 0, &st), 0);
	assert_int_equal(st.period, 250);
	unload(&base);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_columns),
	};

	return cmocka_run_group_tests(tests, pf_setup, pf_teardown);
}
