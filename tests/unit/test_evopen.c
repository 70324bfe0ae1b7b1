// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde_event_open() through the public API on both libraries: on this
 * machine's kernel (descriptors close on exec, a kernel that knows every
 * feature asked gets one system call), and on simulated kernels of the
 * 2.6.32, 3.7, 4.14 and 5.12 eras (through the syscall seam; installing
 * one forgets what the last taught). The error messages, which read
 * fixture files through a private seam: test_evopen_internal.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "sonde/sonde.h"
#include "sonde/evopen.h"
#include "fake_kernel.h"

#define BIT(f) (1ULL << (f))

/*
 * What modern_attr() asks that each era's kernel lacks: the features
 * after 4.14, plus those after 3.7, plus those after 2.6.32.
 */
#define LACKS_4_14 (BIT(SONDE_ATTR_FEAT_READ_LOST) | BIT(SONDE_ATTR_FEAT_BUILD_ID) | \
	BIT(SONDE_ATTR_FEAT_TEXT_POKE) | BIT(SONDE_ATTR_FEAT_CGROUP) | \
	BIT(SONDE_ATTR_FEAT_KSYMBOL) | BIT(SONDE_ATTR_FEAT_BPF_EVENT))
#define LACKS_3_7 (LACKS_4_14 | \
	BIT(SONDE_ATTR_FEAT_NAMESPACES) | BIT(SONDE_ATTR_FEAT_CONTEXT_SWITCH) | \
	BIT(SONDE_ATTR_FEAT_CLOCKID) | BIT(SONDE_ATTR_FEAT_COMM_EXEC) | \
	BIT(SONDE_ATTR_FEAT_CLOEXEC) | BIT(SONDE_ATTR_FEAT_SAMPLE_IDENTIFIER) | \
	BIT(SONDE_ATTR_FEAT_MMAP2))
#define LACKS_2_6_32 (LACKS_3_7 | \
	BIT(SONDE_ATTR_FEAT_EXCLUDE_GUEST) | BIT(SONDE_ATTR_FEAT_SAMPLE_ID_ALL))


/* An attr asking for everything a 6.x kernel offers a counting user. */
static struct sonde_perf_event_attr modern_attr(void)
{
	struct sonde_perf_event_attr a = {
		.type = SONDE_PERF_TYPE_SOFTWARE,
		.size = sizeof(a),
		.config = SONDE_PERF_COUNT_SW_TASK_CLOCK,
		.sample_type = SONDE_PERF_SAMPLE_IDENTIFIER | SONDE_PERF_SAMPLE_TID,
		.read_format = SONDE_PERF_FORMAT_TOTAL_TIME_ENABLED |
			       SONDE_PERF_FORMAT_ID | SONDE_PERF_FORMAT_LOST,
	};
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.sample_id_all = 1;
	a.exclude_guest = 1;
	a.mmap2 = 1;
	a.comm = 1;
	a.comm_exec = 1;
	a.use_clockid = 1;
	a.clockid = 1; /* CLOCK_MONOTONIC */
	a.context_switch = 1;
	a.namespaces = 1;
	a.ksymbol = 1;
	a.bpf_event = 1;
	a.cgroup = 1;
	a.text_poke = 1;
	a.build_id = 1;
	return a;
}

static void test_real_kernel_cloexec(void **state)
{
	struct sonde_perf_event_attr a = {
		.type = SONDE_PERF_TYPE_SOFTWARE,
		.config = SONDE_PERF_COUNT_SW_TASK_CLOCK,
	};
	int fd;

	a.exclude_kernel = 1;
	sonde_sys_set_ops(NULL);
	fd = sonde_event_open(&a, 0, -1, -1, 0);
	if (fd < 0) {
		printf("SKIP: task-clock does not open here (%d)\n", fd);
		skip();
	}
	assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	assert_int_equal(a.size, sizeof(a));
	close(fd);
	assert_int_equal(sonde_event_open_missing(), 0);
}

static int real_calls;

static int counting_real_open(struct sonde_perf_event_attr *attr, pid_t pid,
			      int cpu, int group_fd, unsigned long flags)
{
	real_calls++;
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd,
			    flags);
}

static void test_real_kernel_no_dance(void **state)
{
	struct sonde_sys_ops ops = { .perf_event_open = counting_real_open };
	struct sonde_perf_event_attr a = modern_attr();
	int fd;

	/* This machine's kernel (6.x) knows everything modern_attr() asks. */
	a.cgroup = 0; /* needs CAP_SYS_ADMIN-style privileges on some setups */
	sonde_sys_set_ops(&ops);
	real_calls = 0;
	fd = sonde_event_open(&a, 0, -1, -1, 0);
	if (fd < 0) {
		printf("SKIP: modern attr does not open here (%d)\n", fd);
		skip();
	}
	close(fd);
	if (sonde_event_open_missing()) {
		printf("SKIP: this kernel lacks %#llx (older than the features)\n",
		       (unsigned long long)sonde_event_open_missing());
		skip();
	}
	assert_int_equal(real_calls, 1);
	assert_int_equal(a.size, sizeof(a));
}

static void check_second_open_is_direct(struct sonde_perf_event_attr *a,
					uint64_t missing)
{
	int fd;

	printf("%s era: first open took %d perf_event_open calls\n",
	       fk.era->name, fk.calls);
	/* The process remembers: one system call, same result. */
	fk.calls = 0;
	fd = sonde_event_open(a, 0, -1, -1, 0);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(fk.calls, 1);
	assert_int_equal(sonde_event_open_missing(), missing);
}

static void test_era_2_6_32(void **state)
{
	struct sonde_perf_event_attr a = modern_attr(), b = modern_attr();
	uint64_t want = LACKS_2_6_32;
	int fd;

	fake_kernel_install(&era_2_6_32);
	fd = sonde_event_open(&a, 0, -1, -1, 0);
	assert_true(fd >= 0);
	/* clockid sits past 64 bytes: gone with the E2BIG answer. */
	assert_int_equal(sonde_event_open_kernel_attr_size(), 64);
	assert_int_equal(fk.last.size, 64);
	assert_int_equal(a.size, 64);
	assert_false(a.use_clockid);
	assert_int_equal(a.clockid, 0);
	/* Replacements the old kernel understands. */
	assert_true(a.mmap);
	assert_false(a.mmap2);
	assert_int_equal(a.sample_type, SONDE_PERF_SAMPLE_ID | SONDE_PERF_SAMPLE_TID);
	assert_int_equal(a.read_format, SONDE_PERF_FORMAT_TOTAL_TIME_ENABLED |
					SONDE_PERF_FORMAT_ID);
	/* Not given up: what the era knew. */
	assert_true(a.disabled && a.exclude_kernel && a.comm);
	assert_false(fk.last_flags & SONDE_PERF_FLAG_FD_CLOEXEC);
	/* The fd still ends up close-on-exec. */
	assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
	assert_int_equal(sonde_event_open_missing(), want);
	check_second_open_is_direct(&b, want);
	assert_int_equal(b.size, 64);
}

static void test_era_3_7_strict_size(void **state)
{
	struct sonde_perf_event_attr a = modern_attr(), b = modern_attr();
	uint64_t want = LACKS_3_7;
	int fd;

	fake_kernel_install(&era_3_7);
	/* clockid 1 is at byte 92 < 96: fits, the kernel refuses the bit. */
	fd = sonde_event_open(&a, 0, -1, -1, 0);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(sonde_event_open_kernel_attr_size(), 96);
	assert_int_equal(a.size, 96);
	assert_true(a.sample_id_all && a.exclude_guest);
	assert_false(a.use_clockid || a.mmap2 || a.namespaces);
	assert_int_equal(sonde_event_open_missing(), want);
	check_second_open_is_direct(&b, want);
}

static void test_era_4_14_keeps_what_it_knows(void **state)
{
	struct sonde_perf_event_attr a = modern_attr(), b;
	uint64_t want = LACKS_4_14 | BIT(SONDE_ATTR_FEAT_WEIGHT_STRUCT) |
		BIT(SONDE_ATTR_FEAT_PAGE_SIZE);
	int fd;

	a.sample_type |= SONDE_PERF_SAMPLE_WEIGHT_STRUCT |
			 SONDE_PERF_SAMPLE_DATA_PAGE_SIZE;
	b = a;
	fake_kernel_install(&era_4_14);
	fd = sonde_event_open(&a, 0, -1, -1, 0);
	assert_true(fd >= 0);
	close(fd);
	/* Zero tail past 112 bytes: this era takes our full size. */
	assert_int_equal(a.size, sizeof(a));
	assert_true(a.use_clockid && a.clockid == 1 && a.mmap2 && a.comm_exec &&
		    a.context_switch && a.namespaces && a.sample_id_all);
	assert_true(fk.last_flags & SONDE_PERF_FLAG_FD_CLOEXEC);
	assert_int_equal(a.sample_type, SONDE_PERF_SAMPLE_IDENTIFIER |
			 SONDE_PERF_SAMPLE_TID | SONDE_PERF_SAMPLE_WEIGHT);
	assert_int_equal(sonde_event_open_missing(), want);
	check_second_open_is_direct(&b, want);
}

/*
 * @era lacks feature @feat, which @a needs: EOPNOTSUPP, the feature marked
 * missing and named (@name) in the message; then, known, refused without
 * a system call.
 */
static void check_refused(const struct fake_era *era, struct sonde_perf_event_attr *a,
			  enum sonde_attr_feature feat, const char *name)
{
	char msg[512];

	fake_kernel_install(era);
	assert_int_equal(sonde_event_open(a, 0, -1, -1, 0), -EOPNOTSUPP);
	assert_true(sonde_event_open_missing() & BIT(feat));
	sonde_open_error_describe(-EOPNOTSUPP, a, 0, -1, msg, sizeof(msg));
	assert_non_null(strstr(msg, name));
	fk.calls = 0;
	assert_int_equal(sonde_event_open(a, 0, -1, -1, 0), -EOPNOTSUPP);
	assert_int_equal(fk.calls, 0);
}

static void test_required_feature_not_dropped(void **state)
{
	struct sonde_perf_event_attr a = modern_attr();

	a.write_backward = 1;
	check_refused(&era_3_7, &a, SONDE_ATTR_FEAT_WRITE_BACKWARD, "write_backward");
}

static int nr_warnings;
static char last_warning[256];

__attribute__((format(printf, 2, 0)))
static int count_warnings(enum sonde_print_level level, const char *fmt,
			  va_list ap)
{
	if (level != SONDE_WARN)
		return 0;
	nr_warnings++;
	return vsnprintf(last_warning, sizeof(last_warning), fmt, ap);
}

/*
 * A 5.12 kernel refuses the 5.13 flags with EINVAL: inherit_thread and
 * remove_on_exec are given up (each said once per process), inherit stays.
 */
static void test_era_5_12_drops_5_13_flags(void **state)
{
	struct sonde_perf_event_attr a = modern_attr(), b;
	int fd;

	a.inherit = 1;
	a.inherit_thread = 1;
	a.remove_on_exec = 1;
	b = a;
	nr_warnings = 0;
	sonde_set_print(count_warnings);
	fake_kernel_install(&era_5_12);
	fd = sonde_event_open(&a, 0, -1, -1, 0);
	assert_true(fd >= 0);
	close(fd);
	assert_false(a.inherit_thread || a.remove_on_exec);
	assert_false(fk.last.inherit_thread || fk.last.remove_on_exec);
	/* What 5.12 knew is kept; READ_LOST (6.0) went too. */
	assert_true(a.inherit && a.build_id && a.use_clockid && a.text_poke);
	assert_int_equal(sonde_event_open_missing(),
			 BIT(SONDE_ATTR_FEAT_READ_LOST) |
			 BIT(SONDE_ATTR_FEAT_INHERIT_THREAD) |
			 BIT(SONDE_ATTR_FEAT_REMOVE_ON_EXEC));
	assert_int_equal(nr_warnings, 2);
	assert_non_null(strstr(last_warning, "lacks"));
	/* Known now: one call, and no second warning. */
	check_second_open_is_direct(&b, sonde_event_open_missing());
	assert_int_equal(nr_warnings, 2);
	sonde_set_print(NULL);
}

/* sigtrap asks for signals: never dropped silently, EOPNOTSUPP instead. */
static void test_era_5_12_refuses_sigtrap(void **state)
{
	struct sonde_perf_event_attr a = modern_attr();

	a.sigtrap = 1;
	a.remove_on_exec = 1;
	check_refused(&era_5_12, &a, SONDE_ATTR_FEAT_SIGTRAP, "sigtrap");
}

static void test_e2big_nonzero_field(void **state)
{
	struct sonde_perf_event_attr a = modern_attr();
	char msg[512];

	a.sig_data = 42;
	fake_kernel_install(&era_4_14);
	assert_int_equal(sonde_event_open(&a, 0, -1, -1, 0), -E2BIG);
	assert_int_equal(errno, E2BIG);
	assert_int_equal(sonde_event_open_kernel_attr_size(), 112);
	sonde_open_error_describe(E2BIG, &a, 0, -1, msg, sizeof(msg));
	assert_non_null(strstr(msg, "sig_data"));
	assert_non_null(strstr(msg, "112"));
}

static void test_invalid_config_marks_nothing(void **state)
{
	struct sonde_perf_event_attr a = modern_attr(), orig;
	char msg[512];

	a.config = 999;
	orig = a;
	fake_kernel_install(&era_4_14);
	fk.bad_config = 999;
	assert_int_equal(sonde_event_open(&a, 0, -1, -1, 0), -EINVAL);
	/* Every fallback was tried, none helped: nothing is blamed. */
	assert_int_equal(sonde_event_open_missing(), 0);
	assert_memory_equal(&a, &orig, sizeof(a));
	sonde_open_error_describe(EINVAL, &a, 0, -1, msg, sizeof(msg));
	assert_non_null(strstr(msg, "config 0x3e7"));
}

/*
 * A new seam is a new kernel: what the 2.6.32 era taught (no mmap2, a
 * 64-byte attr) must not cut what a 4.14 kernel, or the real one, gets.
 */
static void test_new_seam_forgets_kernel(void **state)
{
	struct sonde_perf_event_attr a = modern_attr(), b = modern_attr();
	int fd;

	fake_kernel_install(&era_2_6_32);
	fd = sonde_event_open(&a, 0, -1, -1, 0);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(sonde_event_open_missing(), LACKS_2_6_32);
	assert_int_equal(sonde_event_open_kernel_attr_size(), 64);

	fake_kernel_install(&era_4_14);
	assert_int_equal(sonde_event_open_missing(), 0);
	assert_int_equal(sonde_event_open_kernel_attr_size(), 0);
	fd = sonde_event_open(&b, 0, -1, -1, 0);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(b.size, sizeof(b));
	assert_true(b.mmap2 && b.use_clockid && fk.last.mmap2);
	assert_int_equal(sonde_event_open_missing(), LACKS_4_14);

	/* Back to the real calls: forgotten too. */
	sonde_sys_set_ops(NULL);
	assert_int_equal(sonde_event_open_missing(), 0);
}

/* Each case on a simulated kernel of its own (fake_kernel.h). */
#define KCASE(t) \
	cmocka_unit_test_setup_teardown(t, fake_kernel_case_setup, fake_kernel_case_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		KCASE(test_real_kernel_cloexec),
		KCASE(test_real_kernel_no_dance),
		KCASE(test_era_2_6_32),
		KCASE(test_era_3_7_strict_size),
		KCASE(test_era_4_14_keeps_what_it_knows),
		KCASE(test_required_feature_not_dropped),
		KCASE(test_era_5_12_drops_5_13_flags),
		KCASE(test_era_5_12_refuses_sigtrap),
		KCASE(test_e2big_nonzero_field),
		KCASE(test_invalid_config_marks_nothing),
		KCASE(test_new_seam_forgets_kernel),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
