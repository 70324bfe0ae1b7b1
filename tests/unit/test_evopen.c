// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde_event_open() on this machine's kernel, through the public API on
 * both libraries: descriptors close on exec, and a kernel that knows every
 * feature asked gets one system call. Simulated kernels and the error
 * messages: test_evopen_internal.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "sonde/sonde.h"
#include "sonde/evopen.h"

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

/* A fresh process has learnt nothing about the kernel: no reset needed. */
static int setup(void **state)
{
	sonde_set_print(NULL);
	return 0;
}

static int teardown(void **state)
{
	sonde_sys_set_ops(NULL);
	return 0;
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_real_kernel_cloexec, setup, teardown),
		cmocka_unit_test_setup_teardown(test_real_kernel_no_dance, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
