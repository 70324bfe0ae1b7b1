// SPDX-License-Identifier: LGPL-2.1-only
/*
 * CPU maps of the machine's real online CPUs and thread maps, through the
 * public API (CPU lists against a made-up online list: test_cpumap_internal.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <unistd.h>
#include "sonde/sonde.h"

static void test_real_online(void **state)
{
	struct sonde_cpu_map *m;

	m = sonde_cpu_map__new(NULL);
	assert_non_null(m);
	assert_int_equal(sonde_cpu_map__nr(m), sysconf(_SC_NPROCESSORS_ONLN));
	sonde_cpu_map__free(m);
	m = sonde_cpu_map__new_any();
	assert_int_equal(sonde_cpu_map__cpu(m, 0), -1);
	sonde_cpu_map__free(m);
}

static void *sleeper(void *arg)
{
	(void)arg;
	pause();
	return NULL;
}

static void test_thread_maps(void **state)
{
	struct sonde_thread_map *t;
	pthread_t th;
	bool found_main = false;

	assert_int_equal(pthread_create(&th, NULL, sleeper, NULL), 0);
	t = sonde_thread_map__new_pid(getpid());
	assert_non_null(t);
	assert_true(sonde_thread_map__nr(t) >= 2);
	for (int i = 0; i < sonde_thread_map__nr(t); i++)
		found_main |= sonde_thread_map__pid(t, i) == getpid();
	assert_true(found_main);
	sonde_thread_map__free(t);
	pthread_cancel(th);
	pthread_join(th, NULL);

	errno = 0;
	assert_null(sonde_thread_map__new_pid(0x3ffffff0));
	assert_int_equal(errno, ESRCH);
	t = sonde_thread_map__new_self();
	assert_int_equal(sonde_thread_map__pid(t, 0), 0);
	sonde_thread_map__free(t);
	t = sonde_thread_map__new_any();
	assert_int_equal(sonde_thread_map__pid(t, 0), -1);
	assert_int_equal(sonde_thread_map__pid(t, 1), -EINVAL);
	sonde_thread_map__free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_online),
		cmocka_unit_test(test_thread_maps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
