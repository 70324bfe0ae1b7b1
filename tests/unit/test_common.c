// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Error rendering, the syscall seam's table and the version, through the
 * public API (opts validation, internal: test_common_internal.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>
#include "sonde/sonde.h"

static void test_strerror_both_kinds(void **state)
{
	char buf[128];

	assert_string_equal(sonde_strerror(-ENOENT, buf, sizeof(buf)),
			    "No such file or directory");
	assert_string_equal(sonde_strerror(SONDE_ERR_FORMAT, buf, sizeof(buf)),
			    "Corrupt or truncated data");
	assert_string_equal(sonde_strerror(-SONDE_ERR_PARSE, buf, sizeof(buf)),
			    "Malformed text");
	/* Truncation still terminates. */
	sonde_strerror(-ENOENT, buf, 5);
	assert_int_equal(strlen(buf), 4);
}

static int fake_open_calls;
static unsigned long fake_open_flags;

static int fake_open(struct sonde_perf_event_attr *attr, pid_t pid, int cpu,
		     int group_fd, unsigned long flags)
{
	fake_open_calls++;
	fake_open_flags = flags;
	errno = EACCES;
	return -1;
}

static void test_seam_replace_and_restore(void **state)
{
	struct sonde_sys_ops ops = { .perf_event_open = fake_open };
	struct sonde_perf_event_attr attr = { .size = sizeof(attr) };

	sonde_sys_set_ops(&ops);
	assert_ptr_equal(sonde_sys_ops()->perf_event_open, fake_open);
	/* Hooks left NULL fall back to the real calls. */
	assert_non_null(sonde_sys_ops()->read);
	assert_int_equal(sonde_perf_event_open(&attr, 0, -1, -1, 0), -EACCES);
	assert_int_equal(errno, EACCES);
	assert_int_equal(fake_open_calls, 1);
	/* Always CLOEXEC. */
	assert_true(fake_open_flags & SONDE_PERF_FLAG_FD_CLOEXEC);
	sonde_sys_set_ops(NULL);
	assert_ptr_not_equal(sonde_sys_ops()->perf_event_open, fake_open);
}

static void test_version(void **state)
{
	assert_string_equal(sonde_version_string(), SONDE_VERSION);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strerror_both_kinds),
		cmocka_unit_test(test_seam_replace_and_restore),
		cmocka_unit_test(test_version),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
