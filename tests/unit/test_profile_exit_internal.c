// SPDX-License-Identifier: LGPL-2.1-only
/*
 * What a live profile holds of the processes that exited: the threads
 * and processes made and not released (prof_stats) stay bounded however
 * many short-lived processes come and go, whether their tids return
 * within the exit grace or long after it; with the dso_size key (which
 * reads a stack's process maps when the histogram is built) the
 * processes stay, their threads still go.
 * Static-only: the machine's counts of held threads and processes are
 * internal (profile_priv.h); no public call reports them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "sonde/sonde.h"
#include "profile_priv.h"
#include "exit_feed.h"

#define NS 1000000000ULL

static const struct prof_stats *stats(struct sonde_profile *p)
{
	return prof_machine_stats(p->m);
}

static void test_bounded_by_tid_reuse(void **state)
{
	struct sonde_profile *p = ef_profile();

	(void)state;
	/* Every tid back within the grace: its FORK releases the old one. */
	ef_feed(p, 0, 3000, NS, NS / 100);
	/* EF_TIDS processes, their threads and the parent (tid 1, pid 1). */
	assert_int_equal(stats(p)->threads, EF_TIDS + 1);
	assert_int_equal(stats(p)->procs, EF_TIDS + 1);
	sonde_profile__free(p);
}

static void test_bounded_by_grace(void **state)
{
	struct sonde_profile *p = ef_profile();

	(void)state;
	/* One process a second: the grace keeps the last ten or eleven. */
	ef_feed(p, 0, 3000, NS, NS);
	assert_in_range(stats(p)->threads, 1, 12 + 1);
	assert_in_range(stats(p)->procs, 1, 12 + 1);
	sonde_profile__free(p);
}

static void test_dso_size_keeps_procs(void **state)
{
	static const enum sonde_profile_key keys[] = { SONDE_PROFILE_KEY_DSO_SIZE };
	SONDE_OPTS(sonde_profile_opts, po, .keys = keys, .nr_keys = 1);
	struct sonde_perf_event_attr a = { .size = sizeof(a), .sample_type = EF_ST };
	struct sonde_profile *p = sonde_profile__new(&po);

	(void)state;
	assert_non_null(p);
	assert_int_equal(sonde_profile__add_event(p, &a, NULL, 0, "ev"), 0);
	ef_feed(p, 0, 300, NS, NS);
	assert_in_range(stats(p)->threads, 1, 12 + 1);
	assert_true(stats(p)->procs >= 300);
	/* Every process's map is still there for its stacks: 0x1000 bytes. */
	assert_int_equal(sonde_profile__nr_entries(p, 0), 1);
	assert_int_equal(sonde_profile_entry__samples(sonde_profile__entry(p, 0, 0)), 600);
	sonde_profile__free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bounded_by_tid_reuse),
		cmocka_unit_test(test_bounded_by_grace),
		cmocka_unit_test(test_dso_size_keeps_procs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
