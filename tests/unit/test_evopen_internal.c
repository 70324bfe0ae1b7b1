// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde_open_error_describe() for each errno perf_event_open(2) can return,
 * through a simulated kernel (the syscall seam); test_evopen.c opens on
 * the real kernel and on simulated kernels of the 2.6.32 to 5.12 eras
 * through the public API on both libraries.
 * Static-only: the messages read /proc and sysfs fixture files named
 * through count_priv.h's evopen_set_paths() (perf_event_paranoid, Seccomp,
 * perf_event_max_stack, perf_event_max_sample_rate, the PMU directory);
 * no public option points them elsewhere.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include "sonde/sonde.h"
#include "sonde/evopen.h"
#include "count_priv.h"
#include "fake_kernel.h"

/* ---- error messages, each errno through the seam ---- */

static char tmpdir[64];

static void write_file(const char *name, const char *text, char *path,
		       size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int msg_setup(void **state)
{
	static char p1[128], p2[128], p3[128], p4[128];
	struct evopen_paths paths;

	fake_kernel_case_setup(state);
	strcpy(tmpdir, "/tmp/sonde-evopen-XXXXXX");
	assert_non_null(mkdtemp(tmpdir));
	write_file("paranoid", "2\n", p1, sizeof(p1));
	write_file("status", "Name:\ttest\nSeccomp:\t0\n", p2, sizeof(p2));
	write_file("max_stack", "127\n", p3, sizeof(p3));
	write_file("max_rate", "100000\n", p4, sizeof(p4));
	paths = (struct evopen_paths){ .paranoid = p1, .status = p2,
		.max_stack = p3, .max_rate = p4, .pmu_dir = tmpdir };
	evopen_set_paths(&paths);
	return 0;
}

static int msg_teardown(void **state)
{
	static const char *const names[] = { "paranoid", "status",
					     "max_stack", "max_rate" };
	struct evopen_paths real = {
		.paranoid = "/proc/sys/kernel/perf_event_paranoid",
		.status = "/proc/self/status",
		.max_stack = "/proc/sys/kernel/perf_event_max_stack",
		.max_rate = "/proc/sys/kernel/perf_event_max_sample_rate",
		.pmu_dir = "/sys/bus/event_source/devices",
	};
	char path[128];

	for (size_t i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/%s", tmpdir, names[i]);
		unlink(path);
	}
	rmdir(tmpdir);
	evopen_set_paths(&real);
	return fake_kernel_case_teardown(state);
}

static void set_file(const char *name, const char *text)
{
	char path[128];

	write_file(name, text, path, sizeof(path));
}

/* Open through a kernel that fails with @err; describe the result. */
static int fail_open(int err, struct sonde_perf_event_attr *a, pid_t pid,
		     int cpu, char *msg, size_t len)
{
	int ret;

	fake_kernel_install(&era_4_14);
	fk.force_errno = err;
	ret = sonde_event_open(a, pid, cpu, -1, 0);
	assert_int_equal(ret, -err);
	return sonde_open_error_describe(ret, a, pid, cpu, msg, len);
}

static struct sonde_perf_event_attr hw_attr(void)
{
	struct sonde_perf_event_attr a = {
		.type = SONDE_PERF_TYPE_HARDWARE,
		.size = sizeof(a),
		.config = SONDE_PERF_COUNT_HW_INSTRUCTIONS,
	};
	return a;
}

/* A breakpoint of @bp_type on @len bytes at @addr. */
static struct sonde_perf_event_attr bp_attr(uint32_t bp_type, uint64_t addr,
					    uint64_t len)
{
	struct sonde_perf_event_attr a = {
		.type = SONDE_PERF_TYPE_BREAKPOINT,
		.size = sizeof(a),
		.bp_type = bp_type,
		.bp_addr = addr,
		.bp_len = len,
	};
	return a;
}

#define HAS(s) do { if (!strstr(msg, s)) { \
	printf("message lacks \"%s\": %s\n", s, msg); fail(); } } while (0)

static void test_msg_eacces_kernel(void **state)
{
	struct sonde_perf_event_attr a = hw_attr();
	char msg[1024];

	set_file("paranoid", "2\n");
	fail_open(EACCES, &a, 0, -1, msg, sizeof(msg));
	HAS("perf_event_paranoid is 2");
	HAS("counting kernel code");
	HAS("sysctl -w kernel.perf_event_paranoid=1");
	HAS("CAP_PERFMON");
	HAS("CAP_SYS_ADMIN");
	HAS(":u");
}

static void test_msg_eperm_system_wide(void **state)
{
	struct sonde_perf_event_attr a = hw_attr();
	char msg[1024];

	a.exclude_kernel = 1;
	set_file("paranoid", "1\n");
	fail_open(EPERM, &a, -1, 0, msg, sizeof(msg));
	HAS("perf_event_paranoid is 1");
	HAS("system-wide");
	HAS("perf_event_paranoid=0");
	set_file("paranoid", "4\n");
	fail_open(EACCES, &a, 0, -1, msg, sizeof(msg));
	HAS("is 4");
	HAS("forbids unprivileged use");
	set_file("paranoid", "2\n");
}

static void test_msg_enospc_eintr_efault(void **state)
{
	struct sonde_perf_event_attr a = bp_attr(SONDE_HW_BREAKPOINT_W, 0x1000, 8);
	char msg[1024];

	fail_open(ENOSPC, &a, 0, -1, msg, sizeof(msg));
	HAS("no free hardware breakpoint slot");
	HAS("0x1000");
	HAS("debug registers");
	a = hw_attr();
	fail_open(ENOSPC, &a, 0, -1, msg, sizeof(msg));
	HAS("hardware event (type 0");
	HAS("ENOSPC");
	fail_open(EINTR, &a, 0, -1, msg, sizeof(msg));
	HAS("interrupted by a signal");
	HAS("call it again");
	fail_open(EFAULT, &a, 0, -1, msg, sizeof(msg));
	HAS("could not read the attr");
	sonde_open_error_describe(EFAULT, NULL, 0, -1, msg, sizeof(msg));
	HAS("attr.size claims");
}

/*
 * The man page's other errors: EBADF (group_fd, cgroup fd), EINTR for a
 * uprobe ftrace holds, ENOSYS for user stacks, E2BIG for sizes out of
 * range, EINVAL for pid -1 with cpu -1 and pinned members, EPERM for a
 * breakpoint on a kernel address.
 */
static void test_msg_man_page_cases(void **state)
{
	struct sonde_perf_event_attr a = hw_attr();
	char msg[1024];

	(void)state;
	fail_open(EBADF, &a, 0, -1, msg, sizeof(msg));
	HAS("group_fd");
	HAS("PERF_FLAG_PID_CGROUP");
	fail_open(EINVAL, &a, -1, -1, msg, sizeof(msg));
	HAS("pid -1 with cpu -1");
	assert_null(strstr(msg, "config"));
	a.pinned = 1;
	fail_open(EINVAL, &a, 0, -1, msg, sizeof(msg));
	HAS("pinned is allowed on a group leader only");
	a = hw_attr();
	a.exclusive = 1;
	fail_open(EINVAL, &a, 0, -1, msg, sizeof(msg));
	HAS("exclusive is allowed on a group leader only");
	a = hw_attr();
	a.__reserved_1 = 1;
	fail_open(EINVAL, &a, 0, -1, msg, sizeof(msg));
	HAS("reserved flag bits");
	a = hw_attr();
	a.read_format = 1ULL << 9;
	fail_open(EINVAL, &a, 0, -1, msg, sizeof(msg));
	HAS("read_format 0x200 has unknown bits");
	a = hw_attr();
	fail_open(ENFILE, &a, 0, -1, msg, sizeof(msg));
	HAS("fs.file-max");
	a = hw_attr();
	a.sample_type = SONDE_PERF_SAMPLE_STACK_USER;
	fail_open(ENOSYS, &a, 0, -1, msg, sizeof(msg));
	HAS("PERF_SAMPLE_STACK_USER");
	assert_null(strstr(msg, "CONFIG_PERF_EVENTS"));
	a = hw_attr();
	a.type = SONDE_PERF_TYPE_TRACEPOINT;
	fail_open(EINTR, &a, 0, -1, msg, sizeof(msg));
	HAS("ftrace");
	a = hw_attr();
	fail_open(EINTR, &a, 0, -1, msg, sizeof(msg));
	assert_null(strstr(msg, "ftrace"));
	a.size = 32;
	assert_true(sonde_open_error_describe(-E2BIG, &a, 0, -1, msg, sizeof(msg)) > 0);
	HAS("smaller than the first published");
	a.size = 1u << 20;
	assert_true(sonde_open_error_describe(-E2BIG, &a, 0, -1, msg, sizeof(msg)) > 0);
	HAS("larger than a page");
	a = bp_attr(SONDE_HW_BREAKPOINT_W,
		    sizeof(long) == 8 ? 0xffffffff81000000ULL : 0xc1000000ULL, 4);
	fail_open(EPERM, &a, 0, -1, msg, sizeof(msg));
	HAS("kernel address");
	HAS("CAP_SYS_ADMIN");
}

/* The rules of sigtrap, remove_on_exec and inherit_thread (Linux 5.13). */
static void test_msg_sigtrap_rules(void **state)
{
	struct sonde_perf_event_attr a = {
		.type = SONDE_PERF_TYPE_SOFTWARE,
		.size = sizeof(a),
		.config = SONDE_PERF_COUNT_SW_DUMMY,
		.sample_period = 1,
		.sigtrap = 1,
	};
	char msg[1024];

	fail_open(EINVAL, &a, 0, -1, msg, sizeof(msg));
	HAS("sigtrap needs remove_on_exec");
	a.remove_on_exec = 1;
	fail_open(EINVAL, &a, -1, 0, msg, sizeof(msg));
	HAS("sigtrap needs a task");
	a.sigtrap = 0;
	a.enable_on_exec = 1;
	fail_open(EINVAL, &a, 0, -1, msg, sizeof(msg));
	HAS("remove_on_exec and enable_on_exec contradict");
	a.enable_on_exec = 0;
	a.remove_on_exec = 0;
	a.inherit_thread = 1;
	fail_open(EINVAL, &a, 0, -1, msg, sizeof(msg));
	HAS("set inherit too");
}

static void test_msg_seccomp_and_enosys(void **state)
{
	struct sonde_perf_event_attr a = hw_attr();
	char msg[1024];

	set_file("status", "Name:\tx\nSeccomp:\t2\nSeccomp_filters:\t1\n");
	fail_open(EPERM, &a, 0, -1, msg, sizeof(msg));
	HAS("seccomp");
	HAS("blocked in this container");
	set_file("status", "Name:\tx\nSeccomp:\t0\n");
	fail_open(EPERM, &a, 0, -1, msg, sizeof(msg));
	assert_null(strstr(msg, "seccomp"));
	fail_open(ENOSYS, &a, 0, -1, msg, sizeof(msg));
	HAS("container");
	HAS("CONFIG_PERF_EVENTS");
}

static void test_msg_not_supported(void **state)
{
	struct sonde_perf_event_attr a = hw_attr();
	char msg[1024], dir[160];

	/* tmpdir has no "cpu" PMU directory: like this VM. */
	fail_open(ENOENT, &a, 0, -1, msg, sizeof(msg));
	HAS("not supported by this CPU or kernel");
	HAS("no hardware PMU");
	fail_open(EOPNOTSUPP, &a, 0, -1, msg, sizeof(msg));
	HAS("feature this CPU or kernel does not support");
	snprintf(dir, sizeof(dir), "%s/cpu", tmpdir);
	mkdir(dir, 0755);
	fail_open(ENODEV, &a, -1, 1, msg, sizeof(msg));
	HAS("not supported");
	HAS("cpu 1");
	assert_null(strstr(msg, "no hardware PMU"));
	rmdir(dir);
}

static void test_msg_emfile(void **state)
{
	struct sonde_perf_event_attr a = hw_attr();
	struct rlimit rl, low;
	char msg[1024], want[64];

	getrlimit(RLIMIT_NOFILE, &rl);
	fail_open(EMFILE, &a, 0, -1, msg, sizeof(msg));
	snprintf(want, sizeof(want), "is %llu", (unsigned long long)rl.rlim_cur);
	HAS("RLIMIT_NOFILE");
	HAS(want);
	HAS("ulimit -");
	/* Soft below hard: raising the soft limit is the advice. */
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max > 64) {
		low = rl;
		low.rlim_cur = 64;
		assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
		fail_open(EMFILE, &a, 0, -1, msg, sizeof(msg));
		setrlimit(RLIMIT_NOFILE, &rl);
		snprintf(want, sizeof(want), "ulimit -n %llu",
			 (unsigned long long)rl.rlim_max);
		HAS("is 64");
		HAS(want);
	}
}

static void test_msg_esrch_ebusy_eoverflow(void **state)
{
	struct sonde_perf_event_attr a = hw_attr();
	char msg[1024];

	fail_open(ESRCH, &a, 4242, -1, msg, sizeof(msg));
	HAS("4242");
	HAS("exited");
	fail_open(EBUSY, &a, 0, -1, msg, sizeof(msg));
	HAS("exclusive");
	a.sample_max_stack = 500;
	fail_open(EOVERFLOW, &a, 0, -1, msg, sizeof(msg));
	HAS("sample_max_stack 500");
	HAS("perf_event_max_stack (127)");
}

static void test_msg_einval_fields(void **state)
{
	struct sonde_perf_event_attr a = hw_attr();
	char msg[1024];

	a.freq = 1;
	a.sample_freq = 0;
	fail_open(EINVAL, &a, 0, -1, msg, sizeof(msg));
	HAS("sample_freq 0");
	a.sample_freq = 200000;
	fail_open(EINVAL, &a, 0, -1, msg, sizeof(msg));
	HAS("perf_event_max_sample_rate (100000)");
	a = hw_attr();
	a.precise_ip = 3;
	fail_open(EINVAL, &a, 0, -1, msg, sizeof(msg));
	HAS("precise_ip=3");
	a = hw_attr();
	a.sample_type = 1ULL << 40;
	fail_open(EINVAL, &a, 0, -1, msg, sizeof(msg));
	HAS("sample_type");
	a = hw_attr();
	a.config = 0x1234;
	fail_open(EINVAL, &a, 0, -1, msg, sizeof(msg));
	HAS("config 0x1234");
}

/* A breakpoint's config is unused: name its access and length instead. */
static void test_msg_einval_breakpoint(void **state)
{
	struct sonde_perf_event_attr a = bp_attr(SONDE_HW_BREAKPOINT_R, 0x1000,
						 SONDE_HW_BREAKPOINT_LEN_4);
	char msg[1024];

	(void)state;
	fail_open(EINVAL, &a, 0, -1, msg, sizeof(msg));
#if defined(__x86_64__) || defined(__i386__)
	HAS("cannot watch reads alone");
#endif
	assert_null(strstr(msg, "most likely config"));
	a.bp_type = SONDE_HW_BREAKPOINT_R | SONDE_HW_BREAKPOINT_X;
	fail_open(EINVAL, &a, 0, -1, msg, sizeof(msg));
	HAS("use x alone");
	a.bp_type = SONDE_HW_BREAKPOINT_W;
	a.bp_addr = 0x1001;
	fail_open(EINVAL, &a, 0, -1, msg, sizeof(msg));
	HAS("aligned to the length");
	HAS("0x1001");
}

static void test_msg_truncation(void **state)
{
	struct sonde_perf_event_attr a = hw_attr();
	char msg[16];
	int need;

	need = fail_open(EACCES, &a, 0, -1, msg, sizeof(msg));
	assert_true(need > (int)sizeof(msg));
	assert_int_equal(strlen(msg), sizeof(msg) - 1);
	assert_int_equal(sonde_open_error_describe(EACCES, &a, 0, -1, NULL, 0),
			 need);
	assert_int_equal(sonde_open_error_describe(EACCES, &a, 0, -1, NULL, 4),
			 -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_msg_eacces_kernel, msg_setup, msg_teardown),
		cmocka_unit_test_setup_teardown(test_msg_eperm_system_wide, msg_setup, msg_teardown),
		cmocka_unit_test_setup_teardown(test_msg_seccomp_and_enosys, msg_setup, msg_teardown),
		cmocka_unit_test_setup_teardown(test_msg_not_supported, msg_setup, msg_teardown),
		cmocka_unit_test_setup_teardown(test_msg_emfile, msg_setup, msg_teardown),
		cmocka_unit_test_setup_teardown(test_msg_enospc_eintr_efault, msg_setup, msg_teardown),
		cmocka_unit_test_setup_teardown(test_msg_man_page_cases, msg_setup, msg_teardown),
		cmocka_unit_test_setup_teardown(test_msg_sigtrap_rules, msg_setup, msg_teardown),
		cmocka_unit_test_setup_teardown(test_msg_esrch_ebusy_eoverflow, msg_setup, msg_teardown),
		cmocka_unit_test_setup_teardown(test_msg_einval_fields, msg_setup, msg_teardown),
		cmocka_unit_test_setup_teardown(test_msg_einval_breakpoint, msg_setup, msg_teardown),
		cmocka_unit_test_setup_teardown(test_msg_truncation, msg_setup, msg_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
