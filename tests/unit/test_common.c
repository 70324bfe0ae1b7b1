// SPDX-License-Identifier: LGPL-2.1-only
/* Error rendering, opts validation and the syscall seam's table. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>
#include "sonde/sonde.h"
#include "core_priv.h"

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

struct demo_opts {
	size_t sz;
	int a;
	int b;
	size_t : 0;
};
#define demo_opts__last_field b

static void test_opts_validation(void **state)
{
	struct {
		struct demo_opts o;
		int newer_field;
	} big = { .o = { .sz = sizeof(big), .a = 1 } };
	SONDE_OPTS(demo_opts, o, .a = 5);
	struct demo_opts *none = NULL, *po = &o, *pbig = &big.o;

	assert_int_equal(o.sz, sizeof(struct demo_opts));
	assert_int_equal(o.a, 5);
	assert_true(OPTS_VALID(po, demo_opts));
	assert_true(OPTS_VALID(none, demo_opts));
	assert_int_equal(OPTS_GET(none, a, 42), 42);
	/* A newer caller that left its new field zero is fine... */
	assert_true(OPTS_VALID(pbig, demo_opts));
	/* ...but one that set it is refused. */
	big.newer_field = 3;
	sonde_set_print(NULL);
	assert_false(OPTS_VALID(pbig, demo_opts));
	/* sz smaller than the sz field itself is refused. */
	o.sz = 2;
	assert_false(OPTS_VALID(po, demo_opts));
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
		cmocka_unit_test(test_opts_validation),
		cmocka_unit_test(test_seam_replace_and_restore),
		cmocka_unit_test(test_version),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
