// SPDX-License-Identifier: LGPL-2.1-only
/*
 * CPU lists ("0-3,5") checked against a made-up online list ("0-7,9"),
 * beside test_cpumap.c, which runs on both libraries.
 * Static-only: the online list is pointed at a file through core_priv.h's
 * cpumap_set_online_path(); no public option names it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sonde/sonde.h"
#include "core_priv.h"

static char online[64];

static int setup(void **state)
{
	FILE *f;

	strcpy(online, "/tmp/sonde-online-XXXXXX");
	assert_true(mkstemp(online) >= 0);
	f = fopen(online, "w");
	fputs("0-7,9\n", f);
	fclose(f);
	cpumap_set_online_path(online);
	sonde_set_print(NULL);
	return 0;
}

static int teardown(void **state)
{
	unlink(online);
	cpumap_set_online_path("/sys/devices/system/cpu/online");
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
	cpumap_set_online_path("/nonexistent/online");
	expect_error("0", ENOENT, "cannot read online CPUs");
	cpumap_set_online_path(online);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_ranges),
		cmocka_unit_test(test_parse_errors),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
