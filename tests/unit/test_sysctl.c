// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The kernel.perf_event_* getters: from a directory of made-up files
 * (values, whitespace, garbage, missing files) and from the real
 * /proc/sys/kernel, compared with a plain read of the same file.
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

static char tmpdir[64];

static void put(const char *name, const char *text)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	strcpy(tmpdir, "/tmp/sonde-sysctl-XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	sonde_perf_sysctl__set_dir(NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	return system(cmd);
}

static void test_fake_dir(void **state)
{
	long v = 0;

	put("perf_event_paranoid", "-1\n");
	put("perf_event_max_sample_rate", "  100000\n");
	put("perf_event_max_stack", "127\n");
	put("perf_event_max_contexts_per_stack", "8\n");
	put("perf_event_mlock_kb", "516\n");
	put("perf_cpu_time_max_percent", "25\n");
	assert_int_equal(sonde_perf_sysctl__set_dir(tmpdir), 0);

	assert_int_equal(sonde_perf_sysctl__read(SONDE_SYSCTL_PARANOID, &v), 0);
	assert_int_equal(v, -1);
	assert_int_equal(sonde_perf_sysctl__read(SONDE_SYSCTL_MAX_SAMPLE_RATE, &v), 0);
	assert_int_equal(v, 100000);
	assert_int_equal(sonde_perf_sysctl__read(SONDE_SYSCTL_MAX_STACK, &v), 0);
	assert_int_equal(v, 127);
	assert_int_equal(sonde_perf_sysctl__read(SONDE_SYSCTL_MAX_CONTEXTS_PER_STACK, &v), 0);
	assert_int_equal(v, 8);
	assert_int_equal(sonde_perf_sysctl__read(SONDE_SYSCTL_MLOCK_KB, &v), 0);
	assert_int_equal(v, 516);
	assert_int_equal(sonde_perf_sysctl__read(SONDE_SYSCTL_CPU_TIME_MAX_PERCENT, &v), 0);
	assert_int_equal(v, 25);
}

static void test_bad_input(void **state)
{
	char big[100];
	long v = 99;

	assert_int_equal(sonde_perf_sysctl__set_dir(tmpdir), 0);
	/* Missing: a kernel without the setting. */
	assert_int_equal(sonde_perf_sysctl__read(SONDE_SYSCTL_MLOCK_KB, &v), -ENOENT);
	put("perf_event_paranoid", "two\n");
	assert_int_equal(sonde_perf_sysctl__read(SONDE_SYSCTL_PARANOID, &v),
			 -SONDE_ERR_FORMAT);
	put("perf_event_paranoid", "2 3\n");
	assert_int_equal(sonde_perf_sysctl__read(SONDE_SYSCTL_PARANOID, &v),
			 -SONDE_ERR_FORMAT);
	put("perf_event_paranoid", "");
	assert_int_equal(sonde_perf_sysctl__read(SONDE_SYSCTL_PARANOID, &v),
			 -SONDE_ERR_FORMAT);
	memset(big, '1', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	put("perf_event_max_stack", big);
	assert_int_equal(sonde_perf_sysctl__read(SONDE_SYSCTL_MAX_STACK, &v),
			 -SONDE_ERR_FORMAT);
	assert_int_equal(v, 99);
	assert_int_equal(sonde_perf_sysctl__read(SONDE_SYSCTL_MAX, &v), -EINVAL);
	assert_int_equal(sonde_perf_sysctl__read(SONDE_SYSCTL_PARANOID, NULL), -EINVAL);
	assert_null(sonde_perf_sysctl__name(SONDE_SYSCTL_MAX));
	assert_string_equal(sonde_perf_sysctl__name(SONDE_SYSCTL_MLOCK_KB),
			    "kernel.perf_event_mlock_kb");
	{
		char longdir[400];

		memset(longdir, 'd', sizeof(longdir) - 1);
		longdir[sizeof(longdir) - 1] = '\0';
		assert_int_equal(sonde_perf_sysctl__set_dir(longdir), -ENAMETOOLONG);
	}
}

/* The real files agree with a plain read of /proc/sys/kernel. */
static void test_real(void **state)
{
	static const char *const files[] = {
		"perf_event_paranoid", "perf_event_max_sample_rate",
		"perf_event_max_stack", "perf_event_max_contexts_per_stack",
		"perf_event_mlock_kb", "perf_cpu_time_max_percent",
	};

	sonde_perf_sysctl__set_dir(NULL);
	for (int i = 0; i < SONDE_SYSCTL_MAX; i++) {
		char path[128];
		long want, got;
		FILE *f;

		snprintf(path, sizeof(path), "/proc/sys/kernel/%s", files[i]);
		f = fopen(path, "r");
		if (!f) {
			assert_int_equal(sonde_perf_sysctl__read(i, &got), -ENOENT);
			continue;
		}
		assert_int_equal(fscanf(f, "%ld", &want), 1);
		fclose(f);
		assert_int_equal(sonde_perf_sysctl__read(i, &got), 0);
		assert_int_equal(got, want);
		assert_string_equal(strchr(sonde_perf_sysctl__name(i), '.') + 1,
				    files[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fake_dir, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_input, setup, teardown),
		cmocka_unit_test(test_real),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
