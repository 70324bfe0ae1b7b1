// SPDX-License-Identifier: LGPL-2.1-only
/* sonde list's open probe, through the syscall seam (simulated kernels). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>
#include "sonde/sonde.h"

static struct sonde_perf_event_attr seen[4];
static int nr_open, nr_close, last_closed;
static int answers[4]; /* fd, or -errno */

static int fake_open(struct sonde_perf_event_attr *attr, pid_t pid, int cpu,
		     int group_fd, unsigned long flags)
{
	int r;

	assert_int_equal(pid, 0);
	assert_int_equal(cpu, -1);
	assert_int_equal(group_fd, -1);
	seen[nr_open] = *attr;
	r = answers[nr_open++];
	if (r < 0) {
		errno = -r;
		return -1;
	}
	return r;
}

static int fake_close(int fd)
{
	nr_close++;
	last_closed = fd;
	return 0;
}

static int setup_seam(void **state)
{
	struct sonde_sys_ops ops = { .perf_event_open = fake_open,
				     .close = fake_close };

	nr_open = nr_close = 0;
	last_closed = -1;
	memset(seen, 0, sizeof(seen));
	sonde_sys_set_ops(&ops);
	return 0;
}

static int restore_seam(void **state)
{
	sonde_sys_set_ops(NULL);
	return 0;
}

static const struct sonde_perf_event_attr spec = {
	.type = SONDE_PERF_TYPE_SOFTWARE, .config = 1, .sample_period = 1,
	.exclude_guest = 1,
};

static void test_opens_user_only_and_closes(void **state)
{
	answers[0] = 7;
	assert_int_equal(sonde_perf_event_attr__probe(&spec), 0);
	assert_int_equal(nr_open, 1);
	assert_int_equal(nr_close, 1);
	assert_int_equal(last_closed, 7);
	assert_int_equal(seen[0].exclude_kernel, 1);
	assert_int_equal(seen[0].exclude_hv, 1);
	assert_int_equal(seen[0].exclude_guest, 0);
	assert_int_equal(seen[0].disabled, 1);
	assert_int_equal(seen[0].sample_period, 0);
	assert_int_equal(seen[0].size, sizeof(struct sonde_perf_event_attr));
	assert_int_equal(seen[0].config, 1);
}

static void test_retries_without_exclusion(void **state)
{
	/* msr-like PMU: refuses exclude_kernel, opens plain. */
	answers[0] = -EINVAL;
	answers[1] = 9;
	assert_int_equal(sonde_perf_event_attr__probe(&spec), 0);
	assert_int_equal(nr_open, 2);
	assert_int_equal(seen[1].exclude_kernel, 0);
	assert_int_equal(seen[1].exclude_hv, 0);
	assert_int_equal(last_closed, 9);
}

static void test_keeps_most_telling_error(void **state)
{
	/* EACCES then EINVAL: the permission problem is what to report. */
	answers[0] = -EACCES;
	answers[1] = -EINVAL;
	assert_int_equal(sonde_perf_event_attr__probe(&spec), -EACCES);
	assert_int_equal(nr_close, 0);
}

static void test_enoent_no_retry(void **state)
{
	struct sonde_perf_event_attr hw = { .type = 0, .config = 0 };
	char buf[64];

	answers[0] = -ENOENT;
	assert_int_equal(sonde_perf_event_attr__probe(&hw), -ENOENT);
	assert_int_equal(nr_open, 1);
	assert_string_equal(sonde_perf_event_attr__probe_reason(-ENOENT, buf, sizeof(buf)),
			    "no such event on this machine");
	assert_non_null(strstr(sonde_perf_event_attr__probe_reason(EACCES, buf, sizeof(buf)),
			       "permission denied"));
	assert_string_equal(sonde_perf_event_attr__probe_reason(-E2BIG, buf, sizeof(buf)),
			    strerror(E2BIG));
}

static void test_tracepoint_keeps_kernel(void **state)
{
	struct sonde_perf_event_attr tp = { .type = SONDE_PERF_TYPE_TRACEPOINT,
					    .config = 372 };

	answers[0] = -EINVAL;
	assert_int_equal(sonde_perf_event_attr__probe(&tp), -EINVAL);
	/* Tracepoints fire in the kernel: never excluded, no retry. */
	assert_int_equal(nr_open, 1);
	assert_int_equal(seen[0].exclude_kernel, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_opens_user_only_and_closes, setup_seam, restore_seam),
		cmocka_unit_test_setup_teardown(test_retries_without_exclusion, setup_seam, restore_seam),
		cmocka_unit_test_setup_teardown(test_keeps_most_telling_error, setup_seam, restore_seam),
		cmocka_unit_test_setup_teardown(test_enoent_no_retry, setup_seam, restore_seam),
		cmocka_unit_test_setup_teardown(test_tracepoint_keeps_kernel, setup_seam, restore_seam),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
