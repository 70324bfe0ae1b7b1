// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Event lists on the real kernel with software events (page-faults,
 * task-clock, context-switches, cpu-clock per CPU), and through the seam
 * for what this machine cannot show (multiplexing, partial-open rollback,
 * unsupported events).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "sonde/sonde.h"
#include "cgroup_dir.h"

static struct sonde_perf_event_attr sw(uint64_t config)
{
	struct sonde_perf_event_attr a = {
		.type = SONDE_PERF_TYPE_SOFTWARE,
		.size = sizeof(a),
		.config = config,
	};
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return a;
}

static volatile uint64_t sink;

static void spin(long n)
{
	for (long i = 0; i < n; i++)
		sink += (uint64_t)i;
}

/* Opens @l or skips the test (printing why) when software events fail. */
static void open_or_skip(struct sonde_evlist *l,
			 const struct sonde_evlist_open_opts *o)
{
	int ret = sonde_evlist__open(l, o);

	if (ret) {
		struct sonde_evsel *e = sonde_evlist__evsel(l, 0);

		printf("SKIP: cannot open software events here: %s\n",
		       sonde_evsel__open_error(e));
		sonde_evlist__free(l);
		skip();
	}
}

/*
 * sonde_event_open() learns a kernel's gaps only from EINVAL and E2BIG;
 * the fake kernels here fail with EMFILE, ENOENT and EACCES, so no case
 * inherits a made-up kernel from another and none needs that cache reset.
 */
static int setup(void **state)
{
	sonde_set_print(NULL);
	sonde_sys_set_ops(NULL);
	return 0;
}

static void test_page_faults_of_fresh_pages(void **state)
{
	struct sonde_evlist *l = sonde_evlist__new();
	struct sonde_perf_event_attr a = sw(SONDE_PERF_COUNT_SW_PAGE_FAULTS);
	long page = sysconf(_SC_PAGESIZE);
	const int n = 64;
	struct sonde_count c;
	char *p;

	assert_int_equal(sonde_evlist__add(l, &a, "page-faults", -1), 0);
	open_or_skip(l, NULL);
	p = mmap(NULL, (size_t)(n * page), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(p != MAP_FAILED);
	assert_int_equal(sonde_evlist__enable(l), 0);
	for (int i = 0; i < n; i++)
		p[i * page] = 1;
	assert_int_equal(sonde_evlist__disable(l), 0);
	assert_int_equal(sonde_evsel__read(sonde_evlist__evsel(l, 0), 0, 0, &c), 0);
	assert_true(c.val >= (uint64_t)n);
	assert_true(c.ena > 0 && c.ena == c.run);
	assert_false(c.flags & SONDE_COUNT_SCALED);
	munmap(p, (size_t)(n * page));
	sonde_evlist__free(l);
}

static void test_enable_disable_reset(void **state)
{
	struct sonde_evlist *l = sonde_evlist__new();
	struct sonde_perf_event_attr a = sw(SONDE_PERF_COUNT_SW_TASK_CLOCK);
	struct sonde_evsel *e;
	struct sonde_count c0, c1, c2, c3;

	sonde_evlist__add(l, &a, "task-clock", -1);
	open_or_skip(l, NULL);
	e = sonde_evlist__evsel(l, 0);
	/* Opened disabled: nothing counts yet. */
	spin(200000);
	assert_int_equal(sonde_evsel__read(e, 0, 0, &c0), 0);
	assert_int_equal(c0.val, 0);
	sonde_evlist__enable(l);
	spin(2000000);
	sonde_evlist__disable(l);
	sonde_evsel__read(e, 0, 0, &c1);
	assert_true(c1.val > 0);
	spin(2000000);
	sonde_evsel__read(e, 0, 0, &c2);
	assert_int_equal(c2.val, c1.val);
	assert_int_equal(sonde_evlist__reset(l), 0);
	sonde_evsel__read(e, 0, 0, &c3);
	assert_int_equal(c3.val, 0);
	/* Per-event switches as well. */
	assert_int_equal(sonde_evsel__enable(e), 0);
	spin(1000000);
	assert_int_equal(sonde_evsel__disable(e), 0);
	sonde_evsel__read(e, 0, 0, &c3);
	assert_true(c3.val > 0);
	assert_int_equal(sonde_evsel__reset(e), 0);
	sonde_evsel__read(e, 0, 0, &c3);
	assert_int_equal(c3.val, 0);
	sonde_evlist__free(l);
}

static void test_prctl_switch(void **state)
{
	struct sonde_evlist *l = sonde_evlist__new();
	struct sonde_perf_event_attr a = sw(SONDE_PERF_COUNT_SW_TASK_CLOCK);
	struct sonde_evsel *e;
	struct sonde_count c1, c2, c3;

	a.disabled = 0;
	sonde_evlist__add(l, &a, "task-clock", -1);
	open_or_skip(l, NULL);
	e = sonde_evlist__evsel(l, 0);
	assert_int_equal(sonde_task_events_disable(), 0);
	sonde_evsel__read(e, 0, 0, &c1);
	spin(2000000);
	sonde_evsel__read(e, 0, 0, &c2);
	assert_int_equal(c1.val, c2.val);
	assert_int_equal(sonde_task_events_enable(), 0);
	spin(2000000);
	sonde_evsel__read(e, 0, 0, &c3);
	assert_true(c3.val > c2.val);
	sonde_evlist__free(l);
}

static void test_group_read_ids(void **state)
{
	struct sonde_evlist *l = sonde_evlist__new();
	struct sonde_perf_event_attr a = sw(SONDE_PERF_COUNT_SW_TASK_CLOCK);
	struct sonde_perf_event_attr b = sw(SONDE_PERF_COUNT_SW_PAGE_FAULTS);
	struct sonde_perf_event_attr c = sw(SONDE_PERF_COUNT_SW_CONTEXT_SWITCHES);
	struct sonde_count v[4], one;
	uint64_t id;
	int n;

	/* Switches happen in the kernel: :u would always read 0. */
	c.exclude_kernel = 0;
	a.read_format = SONDE_PERF_FORMAT_GROUP | SONDE_PERF_FORMAT_ID;
	b.read_format = a.read_format;
	c.read_format = a.read_format;
	assert_int_equal(sonde_evlist__add(l, &a, "task-clock", -1), 0);
	assert_int_equal(sonde_evlist__add(l, &b, "page-faults", 0), 1);
	assert_int_equal(sonde_evlist__add(l, &c, "cs", 0), 2);
	/* A member cannot lead. */
	assert_int_equal(sonde_evlist__add(l, &c, "bad", 1), -EINVAL);
	assert_int_equal(sonde_evsel__leader(sonde_evlist__evsel(l, 2)), 0);
	open_or_skip(l, NULL);
	sonde_evlist__enable(l);
	spin(1000000);
	{
		char *p = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		memset(p, 1, 1 << 20);
		munmap(p, 1 << 20);
	}
	usleep(1000);
	sonde_evlist__disable(l);
	n = sonde_evsel__read_group(sonde_evlist__evsel(l, 0), 0, 0, v, 4);
	assert_int_equal(n, 3);
	for (int i = 0; i < 3; i++) {
		struct sonde_evsel *e = sonde_evlist__evsel(l, i);

		assert_int_equal(sonde_evsel__id(e, 0, 0, &id), 0);
		assert_int_equal(v[i].id, id);
		/* A member's own read picks its entry out of the group. */
		assert_int_equal(sonde_evsel__read(e, 0, 0, &one), 0);
		assert_int_equal(one.id, id);
	}
	assert_true(v[0].val > 0);
	assert_true(v[1].val > 0);
	assert_true(v[2].val > 0); /* usleep switched out */
	/* The group was enabled as one: same times. */
	assert_int_equal(v[0].ena, v[1].ena);
	sonde_evlist__free(l);
}

static void test_child_enable_on_exec(void **state)
{
	struct sonde_evlist *l = sonde_evlist__new();
	struct sonde_perf_event_attr a = sw(SONDE_PERF_COUNT_SW_TASK_CLOCK);
	char *argv[] = { "/bin/sh", "-c", "i=0; while [ $i -lt 2000 ]; do i=$((i+1)); done", NULL };
	struct sonde_count c;
	pid_t pid;
	int st;

	sonde_evlist__add(l, &a, "task-clock", -1);
	pid = sonde_evlist__prepare_workload(l, argv);
	assert_true(pid > 0);
	assert_int_equal(sonde_thread_map__pid(sonde_evlist__threads(l), 0), pid);
	open_or_skip(l, NULL);
	assert_true(sonde_evsel__attr(sonde_evlist__evsel(l, 0))->enable_on_exec);
	/* Forked and waiting, but not exec'd: nothing counted yet. */
	usleep(20000);
	assert_int_equal(sonde_evsel__read_total(sonde_evlist__evsel(l, 0), &c), 0);
	assert_int_equal(c.val, 0);
	assert_int_equal(c.ena, 0);
	assert_int_equal(sonde_evlist__start_workload(l), 0);
	assert_int_equal(sonde_evlist__wait_workload(l, &st), 0);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_int_equal(sonde_evsel__read_total(sonde_evlist__evsel(l, 0), &c), 0);
	assert_true(c.val > 0);
	sonde_evlist__free(l);
}

static void test_child_exec_failure_and_stdio(void **state)
{
	struct sonde_evlist *l = sonde_evlist__new();
	char *bad[] = { "/nonexistent/sonde-no-such-command", NULL };
	char tmpl[] = "/tmp/sonde-stdio-XXXXXX";
	char *echo[] = { "/bin/sh", "-c", "echo child-output", NULL };
	char buf[64] = { 0 };
	int fd, saved, st;

	assert_true(sonde_evlist__prepare_workload(l, bad) > 0);
	assert_int_equal(sonde_evlist__start_workload(l), -ENOENT);
	assert_int_equal(sonde_evlist__wait_workload(l, &st), 0);
	assert_int_equal(WEXITSTATUS(st), 127);
	sonde_evlist__free(l);

	/* A never-started child is reaped by free (no zombie left). */
	l = sonde_evlist__new();
	assert_true(sonde_evlist__prepare_workload(l, echo) > 0);
	sonde_evlist__free(l);

	/* The child writes to our stdout, whatever it is. */
	fd = mkstemp(tmpl);
	fflush(stdout);
	saved = dup(1);
	dup2(fd, 1);
	l = sonde_evlist__new();
	assert_true(sonde_evlist__prepare_workload(l, echo) > 0);
	assert_int_equal(sonde_evlist__start_workload(l), 0);
	assert_int_equal(sonde_evlist__wait_workload(l, &st), 0);
	dup2(saved, 1);
	close(saved);
	sonde_evlist__free(l);
	assert_true(pread(fd, buf, sizeof(buf) - 1, 0) > 0);
	assert_string_equal(buf, "child-output\n");
	close(fd);
	unlink(tmpl);
}

/* The recorder's child: its own signals back, stdout onto stderr. */
static void test_workload_opts(void **state)
{
	char *argv[] = { "/bin/sh", "-c",
			 "echo to-stdout; kill -PIPE $$; echo not-reached", NULL };
	SONDE_OPTS(sonde_workload_opts, wo, .default_signals = true,
		   .stdout_to_stderr = true);
	struct sonde_workload_opts bad = { .sz = 1 };
	struct sonde_evlist *l = sonde_evlist__new();
	char buf[64] = "";
	int p[2], saved, st = 0;
	ssize_t n;

	assert_non_null(l);
	assert_int_equal(sonde_evlist__prepare_workload_opts(l, argv, &bad), -EINVAL);
	assert_int_equal(pipe(p), 0);
	saved = dup(STDERR_FILENO);
	signal(SIGPIPE, SIG_IGN); /* as record does for itself */
	dup2(p[1], STDERR_FILENO);
	assert_true(sonde_evlist__prepare_workload_opts(l, argv, &wo) > 0);
	dup2(saved, STDERR_FILENO);
	close(saved);
	close(p[1]);
	assert_int_equal(sonde_evlist__start_workload(l), 0);
	assert_int_equal(sonde_evlist__wait_workload(l, &st), 0);
	signal(SIGPIPE, SIG_DFL);
	n = read(p[0], buf, sizeof(buf) - 1);
	close(p[0]);
	assert_true(n > 0);
	/* stdout went to stderr; the SIGPIPE the parent ignores killed it. */
	assert_string_equal(buf, "to-stdout\n");
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGPIPE);
	sonde_evlist__free(l);
}

static void test_system_wide_around_child(void **state)
{
	struct sonde_evlist *l = sonde_evlist__new();
	struct sonde_perf_event_attr a = sw(SONDE_PERF_COUNT_SW_CPU_CLOCK);
	char *argv[] = { "/bin/sh", "-c", "exit 3", NULL };
	struct sonde_count c;
	int st;

	a.exclude_kernel = 0;
	sonde_evlist__add(l, &a, "cpu-clock", -1);
	assert_int_equal(sonde_evlist__target_cpus(l, "0"), 0);
	assert_true(sonde_evlist__prepare_workload(l, argv) > 0);
	/* `stat -a -- cmd`: the CPU target stays. */
	assert_int_equal(sonde_thread_map__pid(sonde_evlist__threads(l), 0), -1);
	open_or_skip(l, NULL);
	assert_false(sonde_evsel__attr(sonde_evlist__evsel(l, 0))->enable_on_exec);
	sonde_evlist__enable(l);
	assert_int_equal(sonde_evlist__start_workload(l), 0);
	assert_int_equal(sonde_evlist__wait_workload(l, &st), 0);
	sonde_evlist__disable(l);
	assert_int_equal(WEXITSTATUS(st), 3);
	assert_int_equal(sonde_evsel__read_total(sonde_evlist__evsel(l, 0), &c), 0);
	assert_true(c.val > 0);
	sonde_evlist__free(l);
}

static volatile int stop_worker;

static void *worker(void *arg)
{
	(void)arg;
	while (!stop_worker)
		spin(10000);
	return NULL;
}

static void test_pid_all_threads_and_tid(void **state)
{
	struct sonde_evlist *l = sonde_evlist__new();
	struct sonde_perf_event_attr a = sw(SONDE_PERF_COUNT_SW_TASK_CLOCK);
	struct sonde_count c;
	pthread_t th;
	int nt;

	stop_worker = 0;
	pthread_create(&th, NULL, worker, NULL);
	sonde_evlist__add(l, &a, "task-clock", -1);
	assert_int_equal(sonde_evlist__target_pid(l, getpid()), 0);
	nt = sonde_thread_map__nr(sonde_evlist__threads(l));
	assert_true(nt >= 2);
	open_or_skip(l, NULL);
	for (int t = 0; t < nt; t++)
		assert_true(sonde_evsel__fd(sonde_evlist__evsel(l, 0), 0, t) >= 0);
	sonde_evlist__enable(l);
	usleep(30000);
	sonde_evlist__disable(l);
	assert_int_equal(sonde_evsel__read_total(sonde_evlist__evsel(l, 0), &c), 0);
	/* The worker spun for most of 30 ms. */
	assert_true(c.val > 1000000);
	sonde_evlist__free(l);
	stop_worker = 1;
	pthread_join(th, NULL);

	l = sonde_evlist__new();
	sonde_evlist__add(l, &a, "task-clock", -1);
	assert_int_equal(sonde_evlist__target_tid(l, gettid()), 0);
	open_or_skip(l, NULL);
	sonde_evlist__enable(l);
	spin(1000000);
	sonde_evlist__disable(l);
	assert_int_equal(sonde_evsel__read_total(sonde_evlist__evsel(l, 0), &c), 0);
	assert_true(c.val > 0);
	sonde_evlist__free(l);

	l = sonde_evlist__new();
	assert_int_equal(sonde_evlist__target_pid(l, 0x3ffffff0), -ESRCH);
	sonde_evlist__free(l);
}

static void test_cpu_clock_per_cpu(void **state)
{
	struct sonde_evlist *l = sonde_evlist__new();
	struct sonde_perf_event_attr a = sw(SONDE_PERF_COUNT_SW_CPU_CLOCK);
	struct sonde_count total, per, sum = { 0 };
	int nc;

	a.exclude_kernel = 0;
	sonde_evlist__add(l, &a, "cpu-clock", -1);
	assert_int_equal(sonde_evlist__target_cpus(l, NULL), 0);
	nc = sonde_cpu_map__nr(sonde_evlist__cpus(l));
	assert_int_equal(nc, sysconf(_SC_NPROCESSORS_ONLN));
	open_or_skip(l, NULL);
	sonde_evlist__enable(l);
	usleep(20000);
	sonde_evlist__disable(l);
	for (int i = 0; i < nc; i++) {
		assert_int_equal(sonde_evsel__read_cpu(sonde_evlist__evsel(l, 0),
						       i, &per), 0);
		/* cpu-clock ticks on every CPU, idle or not. */
		assert_true(per.val > 1000000);
		sonde_count__add(&sum, &per);
	}
	assert_int_equal(sonde_evsel__read_total(sonde_evlist__evsel(l, 0),
						 &total), 0);
	assert_int_equal(total.val, sum.val);
	sonde_evlist__free(l);

	l = sonde_evlist__new();
	assert_int_equal(sonde_evlist__target_cpus(l, "0,9999"), -ERANGE);
	assert_int_equal(sonde_evlist__target_cpus(l, "0-"), -EINVAL);
	sonde_evlist__free(l);
}

static void test_cgroup_target(void **state)
{
	char path[600], procs[640];
	struct sonde_evlist *l = sonde_evlist__new();
	struct sonde_perf_event_attr a = sw(SONDE_PERF_COUNT_SW_CPU_CLOCK);
	struct sonde_count c;
	pid_t child;
	int ret, st;

	assert_int_equal(sonde_evlist__target_cgroup(l, "/tmp", NULL),
			 -EMEDIUMTYPE);
	assert_int_equal(sonde_evlist__target_cgroup(l, "/nonexistent", NULL),
			 -ENOENT);
	/*
	 * The root cgroup is never "scheduled in" (perf shows <not counted>
	 * too): make a child group under our cgroup2 group and run in it.
	 */
	ret = own_cgroup2(path, sizeof(path));
	if (!ret) {
		size_t n = strlen(path);

		snprintf(path + n, sizeof(path) - n, "/sonde-test-%d", getpid());
		ret = mkdir(path, 0755) ? -errno : 0;
	}
	if (ret) {
		printf("SKIP: cannot make a cgroup2 group here (%d)\n", ret);
		sonde_evlist__free(l);
		skip();
	}
	assert_int_equal(sonde_evlist__target_cgroup(l, path, NULL), 0);
	a.exclude_kernel = 0;
	sonde_evlist__add(l, &a, "cpu-clock", -1);
	ret = sonde_evlist__open(l, NULL);
	if (ret) {
		printf("SKIP: cgroup events do not open here: %s\n",
		       sonde_evsel__open_error(sonde_evlist__evsel(l, 0)));
		sonde_evlist__free(l);
		rmdir(path);
		skip();
	}
	sonde_evlist__enable(l);
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", path);
	child = fork();
	if (child == 0) {
		FILE *f = fopen(procs, "w");

		if (!f || fprintf(f, "%d\n", getpid()) < 0 || fclose(f))
			_exit(2);
		spin(20000000);
		_exit(0);
	}
	waitpid(child, &st, 0);
	sonde_evlist__disable(l);
	assert_int_equal(WEXITSTATUS(st), 0);
	assert_int_equal(sonde_evsel__read_total(sonde_evlist__evsel(l, 0), &c), 0);
	sonde_evlist__free(l);
	rmdir(path);
	/* The child ran in that cgroup, so it counted. */
	assert_true(c.ena > 0);
	assert_true(c.val > 1000000);
}

/* ---- through the seam ---- */

static int fk_open_fds, fk_opens, fk_fail_at, fk_fail_errno;

static int counting_open(struct sonde_perf_event_attr *a, pid_t pid, int cpu,
			 int group_fd, unsigned long flags)
{
	fk_opens++;
	if ((fk_fail_at && fk_opens == fk_fail_at) ||
	    (a->type == SONDE_PERF_TYPE_HARDWARE && fk_fail_errno)) {
		errno = fk_fail_errno ? fk_fail_errno : EMFILE;
		return -1;
	}
	fk_open_fds++;
	return open("/dev/null", O_RDONLY | O_CLOEXEC);
}

static int counting_close(int fd)
{
	fk_open_fds--;
	return close(fd);
}

/* A multiplexed counter: the PMU ran it a quarter of the time. */
static ssize_t mux_read(int fd, void *buf, size_t n)
{
	uint64_t v[] = { 250, 4000, 1000, 42 };

	(void)fd;
	if (n < sizeof(v))
		return -1;
	memcpy(buf, v, sizeof(v));
	return sizeof(v);
}

static void install(void)
{
	struct sonde_sys_ops ops = {
		.perf_event_open = counting_open,
		.close = counting_close,
	};

	fk_open_fds = fk_opens = fk_fail_at = fk_fail_errno = 0;
	sonde_sys_set_ops(&ops);
}

static struct sonde_evlist *two_cpu_list(void)
{
	struct sonde_evlist *l = sonde_evlist__new();
	struct sonde_perf_event_attr a = sw(SONDE_PERF_COUNT_SW_TASK_CLOCK);
	struct sonde_perf_event_attr h = {
		.type = SONDE_PERF_TYPE_HARDWARE,
		.config = SONDE_PERF_COUNT_HW_INSTRUCTIONS,
	};

	sonde_evlist__add(l, &a, "task-clock", -1);
	sonde_evlist__add(l, &h, "instructions", -1);
	sonde_evlist__add(l, &a, "task-clock:2", -1);
	/* Two threads, no /proc needed. */
	{
		struct sonde_thread_map *t = sonde_thread_map__new_tid(1);
		struct sonde_thread_map *t2 = sonde_thread_map__new_pid(getpid());

		sonde_thread_map__free(t);
		sonde_evlist__set_maps(l, NULL, t2);
	}
	return l;
}

static void test_rollback_on_partial_failure(void **state)
{
	struct sonde_evlist *l = two_cpu_list();

	install();
	fk_fail_at = 3;
	fk_fail_errno = 0;
	assert_int_equal(sonde_evlist__open(l, NULL), -EMFILE);
	/* Everything opened before the failure was closed again. */
	assert_int_equal(fk_open_fds, 0);
	/* The event that failed says why, with the fd limit. */
	{
		int failed = 0;

		for (int i = 0; i < sonde_evlist__nr(l); i++) {
			struct sonde_evsel *e = sonde_evlist__evsel(l, i);

			if (sonde_evsel__open_errno(e) != EMFILE)
				continue;
			failed++;
			assert_non_null(strstr(sonde_evsel__open_error(e),
					       "RLIMIT_NOFILE"));
		}
		assert_int_equal(failed, 1);
	}
	sonde_evlist__free(l);
	sonde_sys_set_ops(NULL);
}

static void test_keep_unsupported(void **state)
{
	struct sonde_evlist *l = two_cpu_list();
	struct sonde_evsel *hw;

	install();
	fk_fail_errno = ENOENT;
	/* Default: all or nothing. */
	assert_int_equal(sonde_evlist__open(l, NULL), -ENOENT);
	assert_int_equal(fk_open_fds, 0);
	{
		SONDE_OPTS(sonde_evlist_open_opts, o, .keep_unsupported = true);

		assert_int_equal(sonde_evlist__open(l, &o), 0);
	}
	hw = sonde_evlist__evsel(l, 1);
	assert_false(sonde_evsel__supported(hw));
	assert_int_equal(sonde_evsel__open_errno(hw), ENOENT);
	assert_non_null(strstr(sonde_evsel__open_error(hw), "not supported"));
	assert_int_equal(sonde_evsel__fd(hw, 0, 0), -1);
	assert_true(sonde_evsel__supported(sonde_evlist__evsel(l, 0)));
	assert_true(sonde_evsel__supported(sonde_evlist__evsel(l, 2)));
	assert_true(sonde_evsel__fd(sonde_evlist__evsel(l, 2), 0, 0) >= 0);
	sonde_evlist__close(l);
	assert_int_equal(fk_open_fds, 0);
	sonde_evlist__free(l);
	sonde_sys_set_ops(NULL);
}

static void test_unsupported_leader_cancels_members(void **state)
{
	struct sonde_evlist *l = sonde_evlist__new();
	struct sonde_perf_event_attr h = {
		.type = SONDE_PERF_TYPE_HARDWARE,
		.config = SONDE_PERF_COUNT_HW_CPU_CYCLES,
	};
	struct sonde_perf_event_attr a = sw(SONDE_PERF_COUNT_SW_TASK_CLOCK);
	SONDE_OPTS(sonde_evlist_open_opts, o, .keep_unsupported = true);

	install();
	fk_fail_errno = ENOENT;
	sonde_evlist__add(l, &h, "cycles", -1);
	sonde_evlist__add(l, &a, "task-clock", 0);
	sonde_evlist__add(l, &a, "alone", -1);
	assert_int_equal(sonde_evlist__open(l, &o), 0);
	assert_false(sonde_evsel__supported(sonde_evlist__evsel(l, 1)));
	assert_int_equal(sonde_evsel__open_errno(sonde_evlist__evsel(l, 1)),
			 ECANCELED);
	assert_true(sonde_evsel__supported(sonde_evlist__evsel(l, 2)));
	sonde_evlist__free(l);
	assert_int_equal(fk_open_fds, 0);
	sonde_sys_set_ops(NULL);
}

static void test_multiplexed_scaling(void **state)
{
	struct sonde_evlist *l = two_cpu_list();
	struct sonde_sys_ops ops = {
		.perf_event_open = counting_open,
		.close = counting_close,
		.read = mux_read,
	};
	struct sonde_count c, t;
	int nt;

	install();
	sonde_sys_set_ops(&ops);
	assert_int_equal(sonde_evlist__open(l, NULL), 0);
	assert_int_equal(sonde_evsel__read(sonde_evlist__evsel(l, 0), 0, 0, &c), 0);
	assert_int_equal(c.val, 250);
	assert_int_equal(c.scaled, 1000);
	assert_true(c.flags & SONDE_COUNT_SCALED);
	assert_int_equal(c.id, 42);
	nt = sonde_thread_map__nr(sonde_evlist__threads(l));
	assert_int_equal(sonde_evsel__read_total(sonde_evlist__evsel(l, 0), &t), 0);
	assert_int_equal(t.val, 250 * nt);
	assert_int_equal(t.scaled, 1000 * nt);
	assert_true(t.flags & SONDE_COUNT_SCALED);
	sonde_evlist__free(l);
	sonde_sys_set_ops(NULL);
}

/* A paranoid kernel: counting kernel code is refused. */
static int paranoid_open(struct sonde_perf_event_attr *a, pid_t pid, int cpu,
			 int group_fd, unsigned long flags)
{
	if (!a->exclude_kernel) {
		errno = EACCES;
		return -1;
	}
	return counting_open(a, pid, cpu, group_fd, flags);
}

static void test_user_fallback(void **state)
{
	struct sonde_evlist *l = sonde_evlist__new();
	struct sonde_perf_event_attr a = sw(SONDE_PERF_COUNT_SW_TASK_CLOCK);
	struct sonde_sys_ops ops = {
		.perf_event_open = paranoid_open,
		.close = counting_close,
	};
	SONDE_OPTS(sonde_evlist_open_opts, o, .user_fallback = true);

	install();
	sonde_sys_set_ops(&ops);
	a.exclude_kernel = 0;
	sonde_evlist__add(l, &a, "task-clock", -1);
	assert_int_equal(sonde_evlist__open(l, NULL), -EACCES);
	assert_non_null(strstr(sonde_evsel__open_error(sonde_evlist__evsel(l, 0)),
			       "perf_event_paranoid"));
	assert_int_equal(sonde_evlist__open(l, &o), 0);
	assert_true(sonde_evsel__attr(sonde_evlist__evsel(l, 0))->exclude_kernel);
	sonde_evlist__free(l);
	assert_int_equal(fk_open_fds, 0);
	sonde_sys_set_ops(NULL);
}

static void test_api_misuse(void **state)
{
	struct sonde_evlist *l = sonde_evlist__new();
	struct sonde_perf_event_attr a = sw(SONDE_PERF_COUNT_SW_TASK_CLOCK);
	struct sonde_count c;

	assert_int_equal(sonde_evlist__open(l, NULL), -ENOENT);
	assert_int_equal(sonde_evlist__add(l, NULL, "x", -1), -EINVAL);
	assert_int_equal(sonde_evlist__add(l, &a, NULL, 5), -EINVAL);
	assert_int_equal(sonde_evlist__add(l, &a, NULL, -1), 0);
	assert_string_equal(sonde_evsel__name(sonde_evlist__evsel(l, 0)), "event0");
	assert_null(sonde_evlist__evsel(l, 1));
	assert_int_equal(sonde_evsel__read(sonde_evlist__evsel(l, 0), 0, 0, &c),
			 -EBADF);
	assert_int_equal(sonde_evlist__start_workload(l), -EINVAL);
	assert_int_equal(sonde_evlist__wait_workload(l, NULL), -ECHILD);
	sonde_evlist__free(NULL);
	sonde_evlist__free(l);
}

static void test_add_spec(void **state)
{
	struct sonde_evlist *l = sonde_evlist__new();
	struct sonde_perf_event_attr a = sw(SONDE_PERF_COUNT_SW_TASK_CLOCK);
	char err[512];
	int ret;

	sonde_evlist__add(l, &a, "first", -1);
	ret = sonde_evlist__add_spec(l, "task-clock,{page-faults,context-switches}",
				     err, sizeof(err));
#if defined(__has_include) && __has_include("sonde/evparse.h")
	assert_int_equal(ret, 3);
	assert_int_equal(sonde_evlist__nr(l), 4);
	assert_string_equal(sonde_evsel__name(sonde_evlist__evsel(l, 1)),
			    "task-clock");
	/* Group indices are shifted past the events already in the list. */
	assert_int_equal(sonde_evsel__leader(sonde_evlist__evsel(l, 1)), 1);
	assert_int_equal(sonde_evsel__leader(sonde_evlist__evsel(l, 2)), 2);
	assert_int_equal(sonde_evsel__leader(sonde_evlist__evsel(l, 3)), 2);
	assert_int_equal(sonde_evsel__attr(sonde_evlist__evsel(l, 3))->config,
			 SONDE_PERF_COUNT_SW_CONTEXT_SWITCHES);
	ret = sonde_evlist__add_spec(l, "task-clock,{", err, sizeof(err));
	assert_true(ret < 0);
	assert_true(strlen(err) > 0);
	assert_int_equal(sonde_evlist__nr(l), 4);
#else
	assert_int_equal(ret, -EOPNOTSUPP);
	assert_non_null(strstr(err, "without the event-spec parser"));
#endif
	sonde_evlist__free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_page_faults_of_fresh_pages, setup),
		cmocka_unit_test_setup(test_enable_disable_reset, setup),
		cmocka_unit_test_setup(test_prctl_switch, setup),
		cmocka_unit_test_setup(test_group_read_ids, setup),
		cmocka_unit_test_setup(test_child_enable_on_exec, setup),
		cmocka_unit_test_setup(test_child_exec_failure_and_stdio, setup),
		cmocka_unit_test_setup(test_workload_opts, setup),
		cmocka_unit_test_setup(test_system_wide_around_child, setup),
		cmocka_unit_test_setup(test_pid_all_threads_and_tid, setup),
		cmocka_unit_test_setup(test_cpu_clock_per_cpu, setup),
		cmocka_unit_test_setup(test_cgroup_target, setup),
		cmocka_unit_test_setup(test_rollback_on_partial_failure, setup),
		cmocka_unit_test_setup(test_keep_unsupported, setup),
		cmocka_unit_test_setup(test_unsupported_leader_cancels_members, setup),
		cmocka_unit_test_setup(test_multiplexed_scaling, setup),
		cmocka_unit_test_setup(test_user_fallback, setup),
		cmocka_unit_test_setup(test_api_misuse, setup),
		cmocka_unit_test_setup(test_add_spec, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
