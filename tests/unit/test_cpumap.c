// SPDX-License-Identifier: LGPL-2.1-only
/*
 * CPU maps and thread maps through the public API on both libraries: the
 * machine's real online CPUs, and CPU lists ("0-3,5") checked against a
 * made-up online list ("0-7,9") in a fake sysfs ($SONDE_SYSFS_ROOT).
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
#include <sys/stat.h>
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

/* A fake sysfs whose devices/system/cpu/online says "0-7,9". */
static char root[64], online[128];

static void mkdir_in(const char *rel)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	assert_int_equal(mkdir(path, 0755), 0);
}

static int setup(void **state)
{
	FILE *f;

	strcpy(root, "/tmp/sonde-online-XXXXXX");
	assert_non_null(mkdtemp(root));
	mkdir_in("devices");
	mkdir_in("devices/system");
	mkdir_in("devices/system/cpu");
	snprintf(online, sizeof(online), "%s/devices/system/cpu/online", root);
	f = fopen(online, "w");
	assert_non_null(f);
	fputs("0-7,9\n", f);
	fclose(f);
	setenv("SONDE_SYSFS_ROOT", root, 1);
	sonde_set_print(NULL);
	return 0;
}

static int teardown(void **state)
{
	static const char *const dirs[] = { "devices/system/cpu",
					    "devices/system", "devices", "" };
	char path[128];

	unsetenv("SONDE_SYSFS_ROOT");
	unlink(online);
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", root, dirs[i]);
		rmdir(path);
	}
	return 0;
}

static void test_parse_ranges(void **state)
{
	char err[160];
	struct sonde_cpu_map *m = sonde_cpu_map__parse("0-3,5", err, sizeof(err));
	int want[] = { 0, 1, 2, 3, 5 };

	assert_non_null(m);
	assert_int_equal(sonde_cpu_map__nr(m), 5);
	for (int i = 0; i < 5; i++)
		assert_int_equal(sonde_cpu_map__cpu(m, i), want[i]);
	assert_int_equal(sonde_cpu_map__cpu(m, 5), -EINVAL);
	sonde_cpu_map__free(m);
	/* Duplicates and overlaps collapse, order is ascending. */
	m = sonde_cpu_map__parse("5,1-2,2,0", err, sizeof(err));
	assert_int_equal(sonde_cpu_map__nr(m), 4);
	assert_int_equal(sonde_cpu_map__cpu(m, 3), 5);
	sonde_cpu_map__free(m);
	/* NULL = every online CPU. */
	m = sonde_cpu_map__parse(NULL, err, sizeof(err));
	assert_int_equal(sonde_cpu_map__nr(m), 9);
	assert_int_equal(sonde_cpu_map__cpu(m, 8), 9);
	sonde_cpu_map__free(m);
}

static void expect_error(const char *list, int err_no, const char *msg)
{
	char err[160];

	errno = 0;
	assert_null(sonde_cpu_map__parse(list, err, sizeof(err)));
	assert_int_equal(errno, err_no);
	if (!strstr(err, msg)) {
		printf("'%s': got \"%s\", want \"%s\"\n", list, err, msg);
		fail();
	}
}

static void test_parse_errors(void **state)
{
	expect_error("8", ERANGE, "CPU 8 is not online");
	expect_error("0-9", ERANGE, "CPU 8 is not online");
	expect_error("99999", ERANGE, "column 1: CPU 99999 is beyond");
	expect_error("1,x", EINVAL, "column 3: expected a CPU number");
	expect_error("3-1", EINVAL, "goes backwards");
	expect_error("1-", EINVAL, "column 3: expected the end of the range");
	expect_error("1,", EINVAL, "column 3: expected a CPU number after ','");
	expect_error("1;2", EINVAL, "column 2: expected ',' or '-'");
	expect_error("-1", EINVAL, "column 1");
	/* No online list at all. */
	setenv("SONDE_SYSFS_ROOT", "/nonexistent", 1);
	expect_error("0", ENOENT, "cannot read online CPUs");
	setenv("SONDE_SYSFS_ROOT", root, 1);
}

/*
 * The online list follows $SONDE_SYSFS_ROOT as the PMUs do: the message
 * names the file read, and an empty root means /sys.
 */
static void test_online_under_sysfs_root(void **state)
{
	struct sonde_cpu_map *m;

	setenv("SONDE_SYSFS_ROOT", "/nonexistent", 1);
	expect_error(NULL, ENOENT,
		     "cannot read online CPUs from /nonexistent/devices/system/cpu/online");
	setenv("SONDE_SYSFS_ROOT", "", 1);
	m = sonde_cpu_map__new(NULL);
	assert_non_null(m);
	assert_int_equal(sonde_cpu_map__nr(m), sysconf(_SC_NPROCESSORS_ONLN));
	sonde_cpu_map__free(m);
	setenv("SONDE_SYSFS_ROOT", root, 1);
	m = sonde_cpu_map__new("9");
	assert_non_null(m);
	assert_int_equal(sonde_cpu_map__cpu(m, 0), 9);
	sonde_cpu_map__free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_online),
		cmocka_unit_test(test_thread_maps),
		cmocka_unit_test_setup_teardown(test_parse_ranges, setup, teardown),
		cmocka_unit_test_setup_teardown(test_parse_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_online_under_sysfs_root, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
