// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The ioctl wrappers and open flags: on a simulated kernel each wrapper must
 * send its request with its argument the way the kernel reads it (value,
 * pointer to value, string, struct); on the real kernel PERIOD, ID,
 * SET_FILTER on a tracepoint, QUERY_BPF, MODIFY_ATTRIBUTES on a breakpoint,
 * and FD_NO_GROUP / FD_OUTPUT must do what the man page says.
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
#include "sonde/sonde.h"
#include "fake_kernel.h"

static struct {
	int fd;
	unsigned long req;
	unsigned long arg;
	uint64_t period;          /* *(u64 *)arg for PERIOD */
	char filter[64];          /* string for SET_FILTER */
	uint32_t query_len;       /* QUERY_BPF ids_len seen */
	uint64_t bp_addr;         /* MODIFY_ATTRIBUTES attr->bp_addr */
	int calls;
	int fail;                 /* errno to fail with */
} io;

static int fake_ioctl(int fd, unsigned long req, unsigned long arg)
{
	io.calls++;
	io.fd = fd;
	io.req = req;
	io.arg = arg;
	if (io.fail) {
		errno = io.fail;
		return -1;
	}
	switch (req) {
	case SONDE_PERF_EVENT_IOC_PERIOD:
		memcpy(&io.period, (void *)arg, 8);
		break;
	case SONDE_PERF_EVENT_IOC_SET_FILTER:
		snprintf(io.filter, sizeof(io.filter), "%s", (const char *)arg);
		break;
	case SONDE_PERF_EVENT_IOC_ID:
		*(uint64_t *)arg = 777;
		break;
	case SONDE_PERF_EVENT_IOC_QUERY_BPF: {
		uint32_t *q = (uint32_t *)arg;

		/* Three programs attached: fill what fits, ENOSPC if short. */
		io.query_len = q[0];
		q[1] = 3;
		for (uint32_t i = 0; i < q[0] && i < 3; i++)
			q[2 + i] = 100 + i;
		if (q[0] && q[0] < 3) {
			errno = ENOSPC;
			return -1;
		}
		break;
	}
	case SONDE_PERF_EVENT_IOC_MODIFY_ATTRIBUTES:
		io.bp_addr = ((const struct sonde_perf_event_attr *)arg)->bp_addr;
		break;
	}
	return 0;
}

static int setup(void **state)
{
	struct sonde_sys_ops ops = { .perf_event_open = fake_era_open,
				     .ioctl = fake_ioctl };

	fake_kernel_install(&era_4_14); /* then add the ioctl hook */
	memset(&io, 0, sizeof(io));
	sonde_sys_set_ops(&ops);
	return 0;
}

static int teardown(void **state)
{
	sonde_sys_set_ops(NULL);
	return 0;
}

static void test_requests(void **state)
{
	struct sonde_perf_event_attr bp = { .type = SONDE_PERF_TYPE_BREAKPOINT,
					    .bp_addr = 0xabc };
	uint32_t ids[8];
	uint64_t id = 0;

	assert_int_equal(sonde_perf_event_ioc_enable(5, true), 0);
	assert_int_equal(io.req, SONDE_PERF_EVENT_IOC_ENABLE);
	assert_int_equal(io.arg, SONDE_PERF_IOC_FLAG_GROUP);
	assert_int_equal(io.fd, 5);
	assert_int_equal(sonde_perf_event_ioc_disable(5, false), 0);
	assert_int_equal(io.req, SONDE_PERF_EVENT_IOC_DISABLE);
	assert_int_equal(io.arg, 0);
	assert_int_equal(sonde_perf_event_ioc_reset(5, true), 0);
	assert_int_equal(io.req, SONDE_PERF_EVENT_IOC_RESET);

	assert_int_equal(sonde_perf_event_ioc_refresh(5, 3), 0);
	assert_int_equal(io.req, SONDE_PERF_EVENT_IOC_REFRESH);
	assert_int_equal(io.arg, 3);

	assert_int_equal(sonde_perf_event_ioc_period(5, 123456789012ULL), 0);
	assert_int_equal(io.req, SONDE_PERF_EVENT_IOC_PERIOD);
	assert_int_equal(io.period, 123456789012ULL);

	assert_int_equal(sonde_perf_event_ioc_set_output(5, 9), 0);
	assert_int_equal(io.req, SONDE_PERF_EVENT_IOC_SET_OUTPUT);
	assert_int_equal(io.arg, 9);
	assert_int_equal(sonde_perf_event_ioc_set_output(5, -1), 0);
	assert_int_equal((int)io.arg, -1);

	assert_int_equal(sonde_perf_event_ioc_set_filter(5, "prev_pid == 1"), 0);
	assert_int_equal(io.req, SONDE_PERF_EVENT_IOC_SET_FILTER);
	assert_string_equal(io.filter, "prev_pid == 1");

	assert_int_equal(sonde_perf_event_ioc_id(5, &id), 0);
	assert_int_equal(id, 777);

	assert_int_equal(sonde_perf_event_ioc_set_bpf(5, 11), 0);
	assert_int_equal(io.req, SONDE_PERF_EVENT_IOC_SET_BPF);
	assert_int_equal(io.arg, 11);

	assert_int_equal(sonde_perf_event_ioc_pause_output(5, true), 0);
	assert_int_equal(io.req, SONDE_PERF_EVENT_IOC_PAUSE_OUTPUT);
	assert_int_equal(io.arg, 1);
	assert_int_equal(sonde_perf_event_ioc_pause_output(5, false), 0);
	assert_int_equal(io.arg, 0);

	assert_int_equal(sonde_perf_event_ioc_query_bpf(5, ids, 8), 3);
	assert_int_equal(io.query_len, 8);
	assert_int_equal(ids[0], 100);
	assert_int_equal(ids[2], 102);
	/* Too short: the count says so, the first ones are filled. */
	memset(ids, 0, sizeof(ids));
	assert_int_equal(sonde_perf_event_ioc_query_bpf(5, ids, 2), 3);
	assert_int_equal(ids[1], 101);
	assert_int_equal(ids[2], 0);
	assert_int_equal(sonde_perf_event_ioc_query_bpf(5, NULL, 0), 3);

	assert_int_equal(sonde_perf_event_ioc_modify_attributes(5, &bp), 0);
	assert_int_equal(io.req, SONDE_PERF_EVENT_IOC_MODIFY_ATTRIBUTES);
	assert_int_equal(io.bp_addr, 0xabc);
}

static void test_errors(void **state)
{
	int calls;

	assert_int_equal(sonde_perf_event_ioc_refresh(5, 0), -EINVAL);
	assert_int_equal(sonde_perf_event_ioc_set_filter(5, NULL), -EINVAL);
	assert_int_equal(sonde_perf_event_ioc_id(5, NULL), -EINVAL);
	assert_int_equal(sonde_perf_event_ioc_query_bpf(5, NULL, 4), -EINVAL);
	assert_int_equal(sonde_perf_event_ioc_modify_attributes(5, NULL),
			 -EINVAL);
	assert_int_equal(sonde_perf_event_ioc_enable(-1, false), -EBADF);
	calls = io.calls;
	assert_int_equal(io.calls, calls);

	io.fail = ENOTTY;
	assert_int_equal(sonde_perf_event_ioc_period(5, 1), -ENOTTY);
	assert_int_equal(errno, ENOTTY);
	io.fail = EACCES;
	assert_int_equal(sonde_perf_event_ioc_query_bpf(5, NULL, 0), -EACCES);
}

static void test_evsel_wide(void **state)
{
	struct sonde_evlist *l = sonde_evlist__new();
	struct sonde_cpu_map *cpus = sonde_cpu_map__new("0-1");
	struct sonde_thread_map *thr = sonde_thread_map__new_any();
	struct sonde_perf_event_attr a = { .type = SONDE_PERF_TYPE_SOFTWARE,
					   .size = sizeof(a) };
	struct sonde_evsel *e;

	assert_non_null(l);
	assert_int_equal(sonde_evlist__add(l, &a, "x", -1), 0);
	assert_int_equal(sonde_evlist__set_maps(l, cpus, thr), 0);
	e = sonde_evlist__evsel(l, 0);
	assert_int_equal(sonde_evsel__set_filter(e, "a == 1"), -EBADF);
	assert_int_equal(sonde_evlist__open(l, NULL), 0);
	io.calls = 0;
	assert_int_equal(sonde_evsel__set_filter(e, "a == 1"), 0);
	assert_int_equal(io.calls, 2); /* one per CPU */
	assert_string_equal(io.filter, "a == 1");
	assert_int_equal(sonde_evsel__set_period(e, 4000), 0);
	assert_int_equal(io.period, 4000);
	assert_int_equal(sonde_evsel__refresh(e, 2), 0);
	assert_int_equal(io.arg, 2);
	assert_int_equal(sonde_evsel__refresh(e, 0), -EINVAL);
	sonde_evlist__free(l); /* owns the maps */
}

/* Open flags other than CLOEXEC reach the kernel untouched. */
static void test_open_flags(void **state)
{
	struct sonde_perf_event_attr a = { .type = SONDE_PERF_TYPE_SOFTWARE,
					   .size = sizeof(a) };
	unsigned long want = SONDE_PERF_FLAG_FD_NO_GROUP |
			     SONDE_PERF_FLAG_FD_OUTPUT;
	int fd = sonde_event_open(&a, 0, -1, 3, want);

	assert_true(fd >= 0);
	assert_int_equal(fk.last_flags, want | SONDE_PERF_FLAG_FD_CLOEXEC);
	close(fd);
	fd = sonde_event_open(&a, 3, 0, -1, SONDE_PERF_FLAG_PID_CGROUP);
	assert_true(fd >= 0);
	assert_int_equal(fk.last_flags,
			 SONDE_PERF_FLAG_PID_CGROUP | SONDE_PERF_FLAG_FD_CLOEXEC);
	close(fd);
}

/* A PMU where event 0x77 opens alone but never inside a group. */
static int groupless_open(struct sonde_perf_event_attr *a, pid_t pid, int cpu,
			  int group_fd, unsigned long flags)
{
	(void)pid; (void)cpu; (void)flags;
	if (group_fd >= 0 && a->config == 0x77) {
		errno = EINVAL;
		return -1;
	}
	return open("/dev/null", O_RDONLY | O_CLOEXEC);
}

static int open_group(bool weak, struct sonde_evlist **out)
{
	struct sonde_sys_ops ops = { .perf_event_open = groupless_open };
	struct sonde_perf_event_attr a = { .type = SONDE_PERF_TYPE_RAW,
					   .size = sizeof(a), .config = 1 };
	struct sonde_evlist *l = sonde_evlist__new();

	sonde_sys_set_ops(&ops);
	assert_int_equal(sonde_evlist__add(l, &a, "lead", -1), 0);
	a.config = 0x77;
	assert_int_equal(sonde_evlist__add(l, &a, "member", 0), 1);
	a.config = 2;
	assert_int_equal(sonde_evlist__add(l, &a, "other", 0), 2);
	assert_int_equal(sonde_evlist__add(l, &a, "alone", -1), 3);
	if (weak)
		assert_int_equal(sonde_evsel__set_weak_group(
					 sonde_evlist__evsel(l, 0), true), 0);
	*out = l;
	return sonde_evlist__open(l, NULL);
}

static void test_weak_group(void **state)
{
	struct sonde_evlist *l;

	/* Strong: the group's failure is the list's. */
	assert_int_equal(open_group(false, &l), -EINVAL);
	sonde_evlist__free(l);

	/* Weak: every event of the group opens on its own. */
	assert_int_equal(open_group(true, &l), 0);
	for (int i = 0; i < 4; i++) {
		struct sonde_evsel *e = sonde_evlist__evsel(l, i);

		assert_int_equal(sonde_evsel__leader(e), i);
		assert_true(sonde_evsel__fd(e, 0, 0) >= 0);
	}
	assert_int_equal(sonde_evsel__set_weak_group(sonde_evlist__evsel(l, 0),
						     true), -EBUSY);
	sonde_evlist__free(l);

	/* The spec's :W reaches the evsel through add_spec. */
	{
		struct sonde_sys_ops ops = { .perf_event_open = groupless_open };

		sonde_sys_set_ops(&ops);
		l = sonde_evlist__new();
		assert_int_equal(sonde_evlist__add_spec(l, "{r1,r77}", NULL, 0), 2);
		assert_int_equal(sonde_evlist__open(l, NULL), -EINVAL);
		sonde_evlist__free(l);
		l = sonde_evlist__new();
		assert_int_equal(sonde_evlist__add_spec(l, "{r1,r77}:W", NULL, 0), 2);
		assert_int_equal(sonde_evlist__open(l, NULL), 0);
		assert_int_equal(sonde_evsel__leader(sonde_evlist__evsel(l, 1)), 1);
		/* Only a leader can be weak. */
		sonde_evlist__close(l);
		assert_int_equal(sonde_evsel__set_weak_group(sonde_evlist__evsel(l, 0),
							     false), 0);
		sonde_evlist__free(l);
		l = sonde_evlist__new();
		assert_int_equal(sonde_evlist__add_spec(l, "{r1,r2}", NULL, 0), 2);
		assert_int_equal(sonde_evsel__set_weak_group(sonde_evlist__evsel(l, 1),
							     true), -EINVAL);
		sonde_evlist__free(l);
	}
	sonde_sys_set_ops(NULL);
}

/* ---- real kernel ---- */

static int open_sw(int config, uint64_t period, int group_fd,
		   unsigned long flags)
{
	struct sonde_perf_event_attr a = {
		.type = SONDE_PERF_TYPE_SOFTWARE,
		.size = sizeof(a),
		.config = (uint64_t)config,
		.sample_period = period,
		.sample_type = SONDE_PERF_SAMPLE_IP,
		.exclude_kernel = 1,
	};

	return sonde_event_open(&a, 0, -1, group_fd, flags);
}

static void test_real_period_id(void **state)
{
	int fd = open_sw(SONDE_PERF_COUNT_SW_TASK_CLOCK, 100000, -1, 0);
	uint64_t id = 0;

	if (fd < 0)
		skip();
	assert_int_equal(sonde_perf_event_ioc_period(fd, 50000), 0);
	assert_int_equal(sonde_perf_event_ioc_id(fd, &id), 0);
	assert_true(id > 0);
	/* A breakpoint-only ioctl on a software event is refused. */
	{
		struct sonde_perf_event_attr a = { .type = SONDE_PERF_TYPE_SOFTWARE,
						   .size = sizeof(a) };

		assert_true(sonde_perf_event_ioc_modify_attributes(fd, &a) < 0);
	}
	/* An ordinary event has no BPF programs; QUERY_BPF wants a tracepoint. */
	assert_true(sonde_perf_event_ioc_query_bpf(fd, NULL, 0) < 0);
	assert_int_equal(sonde_perf_event_ioc_set_bpf(fd, -1), -EBADF);
	close(fd);
}

/* FD_OUTPUT: the new event writes into the group fd's ring. */
static void test_real_fd_output(void **state)
{
	int lead = open_sw(SONDE_PERF_COUNT_SW_DUMMY, 1, -1, 0);
	struct sonde_ring *r;
	int fd, other;

	if (lead < 0)
		skip();
	r = sonde_ring__new(lead, NULL);
	assert_non_null(r);
	fd = open_sw(SONDE_PERF_COUNT_SW_DUMMY, 1, lead,
		     SONDE_PERF_FLAG_FD_OUTPUT | SONDE_PERF_FLAG_FD_NO_GROUP);
	assert_true(fd >= 0);
	/* Its output is already redirected: a second redirect to another
	 * ring is refused (EINVAL/EBUSY), and back to itself is fine. */
	other = open_sw(SONDE_PERF_COUNT_SW_DUMMY, 1, -1, 0);
	assert_true(other >= 0);
	assert_int_equal(sonde_perf_event_ioc_set_output(fd, lead), 0);
	close(other);
	close(fd);
	sonde_ring__free(r);
	close(lead);
}

static void test_real_tracepoint_filter(void **state)
{
	struct sonde_perf_event_attr a = { .type = SONDE_PERF_TYPE_TRACEPOINT,
					   .size = sizeof(a) };
	int64_t id = sonde_tracepoint__id(NULL, "sched", "sched_switch");
	int fd;

	if (id < 0) {
		print_message("skip: no tracefs sched:sched_switch (%d)\n",
			      (int)id);
		skip();
	}
	a.config = (uint64_t)id;
	fd = sonde_event_open(&a, -1, 0, -1, 0);
	if (fd < 0)
		skip();
	/* The kernel parses it: an unknown field is refused. */
	assert_true(sonde_perf_event_ioc_set_filter(fd, "no_such_field == 1") < 0);
	assert_int_equal(sonde_perf_event_ioc_set_filter(fd, "prev_pid != 0"), 0);
	/* No programs attached to a fresh tracepoint event. */
	assert_int_equal(sonde_perf_event_ioc_query_bpf(fd, NULL, 0), 0);
	close(fd);
}

static volatile long bp_word;

static void test_real_modify_breakpoint(void **state)
{
	static volatile long other_word;
	struct sonde_perf_event_attr a = {
		.type = SONDE_PERF_TYPE_BREAKPOINT,
		.size = sizeof(a),
		.bp_type = SONDE_HW_BREAKPOINT_W,
		.bp_addr = (uint64_t)(uintptr_t)&bp_word,
		.bp_len = SONDE_HW_BREAKPOINT_LEN_8,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	int fd = sonde_event_open(&a, 0, -1, -1, 0);

	if (fd < 0) {
		print_message("skip: breakpoint events do not open here (%d)\n",
			      fd);
		skip();
	}
	a.bp_addr = (uint64_t)(uintptr_t)&other_word;
	assert_int_equal(sonde_perf_event_ioc_modify_attributes(fd, &a), 0);
	/* Changing the type is not a modification the kernel allows. */
	a.type = SONDE_PERF_TYPE_SOFTWARE;
	assert_true(sonde_perf_event_ioc_modify_attributes(fd, &a) < 0);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_requests, setup, teardown),
		cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_evsel_wide, setup, teardown),
		cmocka_unit_test_setup_teardown(test_open_flags, setup, teardown),
		cmocka_unit_test(test_weak_group),
		cmocka_unit_test(test_real_period_id),
		cmocka_unit_test(test_real_fd_output),
		cmocka_unit_test(test_real_tracepoint_filter),
		cmocka_unit_test(test_real_modify_breakpoint),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
