// SPDX-License-Identifier: LGPL-2.1-only
/*
 * A live profile of many short-lived processes whose tids come back
 * (exit_feed.h): every sample, before and after its thread's EXIT,
 * resolves to its own process's comm and object, a reused tid to the new
 * process's, both when the tid returns within the exit grace (the FORK
 * releases the old thread) and long after it (the grace did); and the
 * histogram counts each (comm, object) pair exactly.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "sonde/sonde.h"
#include "exit_feed.h"

#define NS 1000000000ULL

static void test_exit_resolves(void **state)
{
	struct sonde_profile *p = ef_profile();
	size_t n;

	(void)state;
	/* Tids back after 5 s, then after 50 s (the grace is 10 s). */
	ef_feed(p, 0, 1750, NS, NS / 10);
	ef_feed(p, 1750, 3500, 1000 * NS, NS);
	n = sonde_profile__nr_entries(p, 0);
	assert_int_equal(n, 35);
	for (size_t i = 0; i < n; i++) {
		const struct sonde_profile_entry *e = sonde_profile__entry(p, 0, i);
		int c, o;

		assert_int_equal(sonde_profile_entry__samples(e), 200);
		assert_int_equal(sscanf(sonde_profile_entry__comm(e), "c%d", &c), 1);
		assert_int_equal(sscanf(sonde_profile_entry__dso(e), "/nonexistent/o%d", &o), 1);
		/* Process i has comm i % 7 and object i % 5: 100 of each pair. */
		assert_in_range(c, 0, 6);
		assert_in_range(o, 0, 4);
	}
	sonde_profile__free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exit_resolves),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
