// SPDX-License-Identifier: LGPL-2.1-only
/*
 * perf_event_attr bits and open arguments whose whole effect is what the
 * kernel does with them, checked on the running kernel through sonde's
 * open, ring and record decoder: the pid/cpu pairs of perf_event_open(2),
 * exclude_user/exclude_kernel, exclude_callchain_kernel/user,
 * wakeup_events and watermark, task and inherit_stat on an inherited
 * event (FORK, EXIT, READ at a child's exit), mmap_data, context_switch
 * (SWITCH on a task, SWITCH_CPU_WIDE on a CPU), cgroup with PERF_SAMPLE_CGROUP (a
 * CGROUP record whose id the samples of its tasks carry). Each skips with
 * the reason where the machine lacks what it needs (a second CPU,
 * tracepoints, cgroup2, permission).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "sonde/sonde.h"
#include "cgroup_dir.h"

static volatile uint64_t sink;

static void burn(long n)
{
	for (long i = 0; i < n; i++)
		sink += (uint64_t)i;
}

static bool pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) == 0;
}

static void unpin(void)
{
	cpu_set_t set;
	long n = sysconf(_SC_NPROCESSORS_CONF);

	CPU_ZERO(&set);
	for (long i = 0; i < n && i < CPU_SETSIZE; i++)
		CPU_SET((int)i, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static int open_or_skip(struct sonde_perf_event_attr *a, pid_t pid, int cpu,
			const char *what)
{
	char why[160];
	int fd = sonde_event_open(a, pid, cpu, -1, 0);

	if (fd < 0) {
		printf("SKIP: %s: %s\n", what, sonde_strerror(fd, why, sizeof(why)));
		skip();
	}
	return fd;
}

static uint64_t read_value(int fd)
{
	uint64_t v = ~0ULL;

	assert_int_equal(read(fd, &v, sizeof(v)), (ssize_t)sizeof(v));
	return v;
}

static struct sonde_perf_event_attr task_clock(void)
{
	struct sonde_perf_event_attr a = {
		.type = SONDE_PERF_TYPE_SOFTWARE,
		.config = SONDE_PERF_COUNT_SW_TASK_CLOCK,
		.size = sizeof(a),
	};
	return a;
}

/*
 * pid 0 / cpu N counts this thread only while it runs on CPU N; pid > 0
 * with cpu -1 or N counts that task; pid -1 with cpu -1 is refused.
 * (pid -1 with cpu N, system-wide: test_evlist test_system_wide_around_child.)
 */
static void test_pid_cpu_pairs(void **state)
{
	struct sonde_perf_event_attr a = task_clock();
	int self_cpu0, self_any, child_any, child_cpu0, child_cpu1, go[2];
	pid_t child;
	int status;

	(void)state;
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2 || !pin(1)) {
		printf("SKIP: pid/cpu pairs: needs two online CPUs to run on\n");
		skip();
	}
	self_cpu0 = open_or_skip(&a, 0, 0, "task-clock on cpu 0");
	self_any = sonde_event_open(&a, 0, -1, -1, 0);
	assert_true(self_any >= 0);
	burn(20000000);
	/* Ran on CPU 1 only: the CPU 0 event never ran. */
	assert_int_equal(read_value(self_cpu0), 0);
	assert_true(read_value(self_any) > 0);
	assert_true(pin(0));
	burn(20000000);
	assert_true(read_value(self_cpu0) > 0);
	unpin();

	/* A child held back until its events are open, then run on CPU 0. */
	assert_int_equal(pipe(go), 0);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		char c;

		close(go[1]);
		if (read(go[0], &c, 1) != 1 || !pin(0))
			_exit(1);
		burn(20000000);
		_exit(0);
	}
	close(go[0]);
	child_any = sonde_event_open(&a, child, -1, -1, 0);
	child_cpu0 = sonde_event_open(&a, child, 0, -1, 0);
	child_cpu1 = sonde_event_open(&a, child, 1, -1, 0);
	assert_true(child_any >= 0 && child_cpu0 >= 0 && child_cpu1 >= 0);
	assert_int_equal(write(go[1], "g", 1), 1);
	close(go[1]);
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_true(read_value(child_any) > 0);
	assert_true(read_value(child_cpu0) > 0);
	/* The child ran on CPU 1 at most until its pin: far less than on 0. */
	assert_true(read_value(child_cpu1) < read_value(child_cpu0));

	/* Every task on every CPU: no such target. */
	assert_int_equal(sonde_event_open(&a, -1, -1, -1, 0), -EINVAL);
	close(self_cpu0);
	close(self_any);
	close(child_any);
	close(child_cpu0);
	close(child_cpu1);
}

/* Touches @n fresh pages: n user-mode page faults. */
static void fault_pages(int n)
{
	long psz = sysconf(_SC_PAGESIZE);
	volatile char *p = mmap(NULL, (size_t)(psz * n), PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	assert_true(p != MAP_FAILED);
	for (int i = 0; i < n; i++)
		p[(long)i * psz] = 1;
	munmap((void *)p, (size_t)(psz * n));
}

/* A user page fault is a user-mode event: exclude_user drops it. */
static void test_exclude_user_kernel(void **state)
{
	struct sonde_perf_event_attr a = {
		.type = SONDE_PERF_TYPE_SOFTWARE,
		.config = SONDE_PERF_COUNT_SW_PAGE_FAULTS_MIN,
		.size = sizeof(a),
		.disabled = 1,
	};
	int user, kernel;

	(void)state;
	a.exclude_kernel = 1;
	user = open_or_skip(&a, 0, -1, "minor-faults:u");
	a.exclude_kernel = 0;
	a.exclude_user = 1;
	kernel = open_or_skip(&a, 0, -1, "minor-faults:k");
	sonde_perf_event_ioc_enable(user, false);
	sonde_perf_event_ioc_enable(kernel, false);
	fault_pages(64);
	sonde_perf_event_ioc_disable(user, false);
	sonde_perf_event_ioc_disable(kernel, false);
	assert_true(read_value(user) >= 64);
	assert_int_equal(read_value(kernel), 0);
	close(user);
	close(kernel);
}

/* A ring on @fd; the records of one pass handed to @fn. */
static void drain(struct sonde_ring *r, const struct sonde_record_fmt *fmt,
		  void (*fn)(const struct sonde_record *, void *), void *ctx)
{
	const struct sonde_perf_event_header *ev;

	sonde_ring__read_init(r);
	while (sonde_ring__read_event(r, &ev) == 1) {
		struct sonde_record rec;

		assert_int_equal(sonde_record__decode(fmt, ev, ev->size, &rec), 0);
		fn(&rec, ctx);
	}
	sonde_ring__read_done(r);
}

static int64_t tracepoint(const char *sys, const char *name)
{
	char why[160];
	int64_t id = sonde_tracepoint__id(NULL, sys, name);

	if (id < 0) {
		printf("SKIP: tracepoint %s:%s: %s\n", sys, name,
		       sonde_strerror((int)id, why, sizeof(why)));
		skip();
	}
	return id;
}

static int64_t getppid_tracepoint(void)
{
	return tracepoint("syscalls", "sys_enter_getppid");
}

struct chains {
	int samples, with_kernel, with_user;
};

static void count_contexts(const struct sonde_record *r, void *ctx)
{
	struct chains *c = ctx;
	struct sonde_callchain_iter it;
	bool k = false, u = false;
	uint64_t ip;
	int where;

	if (r->type != SONDE_PERF_RECORD_SAMPLE)
		return;
	c->samples++;
	sonde_callchain_iter__init(&it, r->sample.callchain.ips, r->sample.callchain.nr);
	while (sonde_callchain_iter__next(&it, &ip, &where)) {
		k |= where == SONDE_CALLCHAIN_KERNEL;
		u |= where == SONDE_CALLCHAIN_USER;
	}
	c->with_kernel += k;
	c->with_user += u;
}

/*
 * raw_syscalls:sys_enter samples of 10 getppid() calls (and the ioctls
 * around them) with call chains: a TRACE_EVENT takes the kernel's own
 * registers, so its chain has a kernel part (syscalls:* events take the
 * user's and have none).
 */
static struct chains chains_of(bool no_kernel, bool no_user)
{
	struct sonde_perf_event_attr a = {
		.type = SONDE_PERF_TYPE_TRACEPOINT,
		.config = (uint64_t)tracepoint("raw_syscalls", "sys_enter"),
		.size = sizeof(a),
		.sample_period = 1,
		.sample_type = SONDE_PERF_SAMPLE_IP | SONDE_PERF_SAMPLE_CALLCHAIN,
		.disabled = 1,
		.exclude_callchain_kernel = no_kernel,
		.exclude_callchain_user = no_user,
	};
	struct sonde_record_fmt fmt;
	struct chains c = { 0 };
	struct sonde_ring *r;
	int fd = open_or_skip(&a, 0, -1, "raw_syscalls:sys_enter with call chains");

	assert_int_equal(sonde_record_fmt__from_attr(&fmt, &a), 0);
	r = sonde_ring__new(fd, NULL);
	assert_non_null(r);
	sonde_perf_event_ioc_enable(fd, false);
	for (int i = 0; i < 10; i++)
		sink += (uint64_t)getppid();
	sonde_perf_event_ioc_disable(fd, false);
	drain(r, &fmt, count_contexts, &c);
	sonde_ring__free(r);
	close(fd);
	return c;
}

/* A tracepoint fires in the kernel: its chain has both parts, until excluded. */
static void test_exclude_callchain(void **state)
{
	struct chains both, user_only, kernel_only;

	(void)state;
	both = chains_of(false, false);
	assert_true(both.samples >= 10);
	assert_int_equal(both.with_kernel, both.samples);
	assert_int_equal(both.with_user, both.samples);
	user_only = chains_of(true, false);
	assert_true(user_only.samples >= 10);
	assert_int_equal(user_only.with_kernel, 0);
	assert_int_equal(user_only.with_user, user_only.samples);
	kernel_only = chains_of(false, true);
	assert_true(kernel_only.samples >= 10);
	assert_int_equal(kernel_only.with_kernel, kernel_only.samples);
	assert_int_equal(kernel_only.with_user, 0);
}

static bool pollin(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

/*
 * wakeup_events N: POLLIN after N samples, not before; watermark with
 * wakeup_watermark B: POLLIN once more than B bytes wait, not before.
 * Samples of getppid() are 16 bytes (header and IP).
 */
static void test_wakeup_events_and_watermark(void **state)
{
	struct sonde_perf_event_attr a = {
		.type = SONDE_PERF_TYPE_TRACEPOINT,
		.config = (uint64_t)getppid_tracepoint(),
		.size = sizeof(a),
		.sample_period = 1,
		.sample_type = SONDE_PERF_SAMPLE_IP,
		.wakeup_events = 5,
	};
	struct sonde_ring *r;
	int fd;

	(void)state;
	fd = open_or_skip(&a, 0, -1, "syscalls:sys_enter_getppid");
	r = sonde_ring__new(fd, NULL);
	assert_non_null(r);
	for (int i = 0; i < 4; i++)
		sink += (uint64_t)getppid();
	assert_false(pollin(fd));
	sink += (uint64_t)getppid();
	assert_true(pollin(fd));
	sonde_ring__free(r);
	close(fd);

	a.wakeup_events = 0;
	a.watermark = 1;
	a.wakeup_watermark = 256;
	fd = sonde_event_open(&a, 0, -1, -1, 0);
	assert_true(fd >= 0);
	r = sonde_ring__new(fd, NULL);
	assert_non_null(r);
	for (int i = 0; i < 10; i++) /* 160 bytes */
		sink += (uint64_t)getppid();
	assert_false(pollin(fd));
	for (int i = 0; i < 30; i++) /* 640 bytes */
		sink += (uint64_t)getppid();
	assert_true(pollin(fd));
	sonde_ring__free(r);
	close(fd);
}

struct child_seen {
	pid_t child;
	int reads, forks, exits;
	uint64_t value;
};

static void child_records(const struct sonde_record *r, void *ctx)
{
	struct child_seen *s = ctx;

	if (r->type == SONDE_PERF_RECORD_READ && r->read.pid == (uint32_t)s->child) {
		s->reads++;
		s->value = r->read.values.value;
		assert_int_equal(r->read.tid, (uint32_t)s->child);
		assert_true(r->read.values.time_enabled >= r->read.values.time_running);
	}
	if (r->type == SONDE_PERF_RECORD_FORK && r->task.pid == (uint32_t)s->child)
		s->forks++;
	if (r->type == SONDE_PERF_RECORD_EXIT && r->task.pid == (uint32_t)s->child)
		s->exits++;
}

/*
 * One child that burns some CPU and exits, under an inherited task-clock.
 * The kernel maps no ring for an inherited event on every CPU (cpu -1):
 * parent and child stay on CPU 0 with the event.
 */
static struct child_seen run_child(bool inherit_stat)
{
	struct sonde_perf_event_attr a = task_clock();
	struct child_seen s = { 0 };
	struct sonde_record_fmt fmt;
	struct sonde_ring *r;
	int fd, status;

	a.inherit = 1;
	a.inherit_stat = inherit_stat;
	a.task = 1;
	a.sample_id_all = 1;
	a.sample_type = SONDE_PERF_SAMPLE_TID;
	a.read_format = SONDE_PERF_FORMAT_TOTAL_TIME_ENABLED |
			SONDE_PERF_FORMAT_TOTAL_TIME_RUNNING;
	if (!pin(0)) {
		printf("SKIP: inherit_stat: cannot run on cpu 0\n");
		skip();
	}
	fd = open_or_skip(&a, 0, 0, "inherited task-clock on cpu 0");
	assert_int_equal(sonde_record_fmt__from_attr(&fmt, &a), 0);
	r = sonde_ring__new(fd, NULL);
	assert_non_null(r);
	s.child = fork();
	assert_true(s.child >= 0);
	if (s.child == 0) {
		burn(5000000);
		_exit(0);
	}
	assert_int_equal(waitpid(s.child, &status, 0), s.child);
	unpin();
	drain(r, &fmt, child_records, &s);
	sonde_ring__free(r);
	close(fd);
	return s;
}

/*
 * task on an inherited event: FORK from the parent's event, EXIT from the
 * child's, both in the parent's ring. inherit_stat: the man page's READ
 * record of the child's counts at its exit (sync_child_event). Since
 * Linux 4.5 the exiting context is marked TASK_TOMBSTONE before its
 * events are detached, and sync_child_event() then writes nothing: on
 * such kernels the record is absent, and decoding it is proven on
 * fixtures (test_record); where a kernel writes it, it must be the
 * child's, once, with its CPU time.
 */
static void test_inherit_task_and_stat(void **state)
{
	struct child_seen with, without;

	(void)state;
	with = run_child(true);
	assert_int_equal(with.forks, 1);
	assert_int_equal(with.exits, 1);
	if (with.reads) {
		assert_int_equal(with.reads, 1);
		assert_true(with.value > 0); /* ns of the child's CPU time */
	} else {
		printf("note: this kernel writes no READ record at a child's exit "
		       "(TASK_TOMBSTONE, Linux 4.5+)\n");
	}
	without = run_child(false);
	assert_int_equal(without.forks, 1);
	assert_int_equal(without.exits, 1);
	assert_int_equal(without.reads, 0);
}

struct map_seen {
	const char *path;
	int data, exec;
};

static void map_records(const struct sonde_record *r, void *ctx)
{
	struct map_seen *s = ctx;

	if (r->type != SONDE_PERF_RECORD_MMAP2 || !r->mmap.filename ||
	    strcmp(r->mmap.filename, s->path))
		return;
	if (r->misc & SONDE_PERF_RECORD_MISC_MMAP_DATA)
		s->data++;
	else
		s->exec++;
	assert_int_equal(r->mmap.pid, (uint32_t)getpid());
}

/* mmap: PROT_EXEC mappings only; with mmap_data, the others too, marked. */
static struct map_seen maps_of(bool mmap_data)
{
	struct sonde_perf_event_attr a = {
		.type = SONDE_PERF_TYPE_SOFTWARE,
		.config = SONDE_PERF_COUNT_SW_DUMMY,
		.size = sizeof(a),
		.mmap = 1,
		.mmap2 = 1,
		.mmap_data = mmap_data,
	};
	struct map_seen s = { .path = "/proc/self/exe" };
	static char exe[4096];
	struct sonde_record_fmt fmt;
	struct sonde_ring *r;
	long psz = sysconf(_SC_PAGESIZE);
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int fd, file;
	void *d, *x;

	assert_true(n > 0);
	exe[n] = 0;
	s.path = exe;
	fd = open_or_skip(&a, 0, -1, "dummy side-band event");
	assert_int_equal(sonde_record_fmt__from_attr(&fmt, &a), 0);
	/* straight from the ring: the kernel sets MMAP2's build-id bit for
	 * every event while another one (a sonde record running beside this
	 * test) asks for build ids, over a maj/min/ino body */
	fmt.mmap2_build_id = SONDE_RECORD_BUILD_ID_OFF;
	r = sonde_ring__new(fd, NULL);
	assert_non_null(r);
	file = open(exe, O_RDONLY | O_CLOEXEC);
	assert_true(file >= 0);
	d = mmap(NULL, (size_t)psz, PROT_READ, MAP_PRIVATE, file, 0);
	x = mmap(NULL, (size_t)psz, PROT_READ | PROT_EXEC, MAP_PRIVATE, file, 0);
	assert_true(d != MAP_FAILED && x != MAP_FAILED);
	drain(r, &fmt, map_records, &s);
	munmap(d, (size_t)psz);
	munmap(x, (size_t)psz);
	close(file);
	sonde_ring__free(r);
	close(fd);
	return s;
}

static void test_mmap_data(void **state)
{
	struct map_seen exec_only, both;

	(void)state;
	exec_only = maps_of(false);
	assert_int_equal(exec_only.exec, 1);
	assert_int_equal(exec_only.data, 0);
	both = maps_of(true);
	assert_int_equal(both.exec, 1);
	assert_int_equal(both.data, 1);
}

struct switch_seen {
	uint32_t want, other_type; /* the record type expected, the other */
	int in, out, other;
};

static void switch_records(const struct sonde_record *r, void *ctx)
{
	struct switch_seen *s = ctx;

	if (r->type == s->other_type) {
		s->other++;
		return;
	}
	if (r->type != s->want)
		return;
	assert_true(r->has_sample_id);
	if (r->type == SONDE_PERF_RECORD_SWITCH_CPU_WIDE)
		assert_int_equal(r->sample_id.cpu, 0);
	else
		assert_int_equal(r->sample_id.tid, (uint32_t)gettid());
	if (r->misc & SONDE_PERF_RECORD_MISC_SWITCH_OUT)
		s->out++;
	else
		s->in++;
}

/* context_switch on a task's event: SWITCH records, both directions. */
static void test_switch_task(void **state)
{
	struct sonde_perf_event_attr a = {
		.type = SONDE_PERF_TYPE_SOFTWARE,
		.config = SONDE_PERF_COUNT_SW_DUMMY,
		.size = sizeof(a),
		.context_switch = 1,
		.sample_id_all = 1,
		.sample_type = SONDE_PERF_SAMPLE_TID,
		.disabled = 1,
	};
	struct switch_seen s = { .want = SONDE_PERF_RECORD_SWITCH,
				 .other_type = SONDE_PERF_RECORD_SWITCH_CPU_WIDE };
	struct sonde_record_fmt fmt;
	struct sonde_ring *r;
	int fd;

	(void)state;
	fd = open_or_skip(&a, 0, -1, "dummy event of this thread");
	assert_int_equal(sonde_record_fmt__from_attr(&fmt, &a), 0);
	r = sonde_ring__new(fd, NULL);
	assert_non_null(r);
	sonde_perf_event_ioc_enable(fd, false);
	for (int i = 0; i < 5; i++)
		usleep(1000); /* off CPU and back: switches out and in */
	sonde_perf_event_ioc_disable(fd, false);
	drain(r, &fmt, switch_records, &s);
	assert_true(s.out >= 5);
	assert_true(s.in >= 5);
	assert_int_equal(s.other, 0);
	sonde_ring__free(r);
	close(fd);
}

/* context_switch on a CPU-wide event: SWITCH_CPU_WIDE, both directions. */
static void test_switch_cpu_wide(void **state)
{
	struct sonde_perf_event_attr a = {
		.type = SONDE_PERF_TYPE_SOFTWARE,
		.config = SONDE_PERF_COUNT_SW_DUMMY,
		.size = sizeof(a),
		.context_switch = 1,
		.sample_id_all = 1,
		.sample_type = SONDE_PERF_SAMPLE_TID | SONDE_PERF_SAMPLE_CPU,
		.disabled = 1,
	};
	SONDE_OPTS(sonde_ring_opts, ro, .data_pages = 64);
	struct switch_seen s = { .want = SONDE_PERF_RECORD_SWITCH_CPU_WIDE,
				 .other_type = SONDE_PERF_RECORD_SWITCH };
	struct sonde_record_fmt fmt;
	struct sonde_ring *r;
	int fd;

	(void)state;
	fd = open_or_skip(&a, -1, 0, "CPU-wide dummy event on cpu 0");
	assert_int_equal(sonde_record_fmt__from_attr(&fmt, &a), 0);
	r = sonde_ring__new(fd, &ro);
	assert_non_null(r);
	if (!pin(0)) {
		printf("SKIP: SWITCH_CPU_WIDE: cannot run on cpu 0\n");
		skip();
	}
	sonde_perf_event_ioc_enable(fd, false);
	for (int i = 0; i < 5; i++)
		usleep(1000); /* off CPU and back: switches out and in */
	sonde_perf_event_ioc_disable(fd, false);
	unpin();
	drain(r, &fmt, switch_records, &s);
	assert_true(s.out >= 5);
	assert_true(s.in >= 5);
	assert_int_equal(s.other, 0);
	sonde_ring__free(r);
	close(fd);
}

struct cgroup_seen {
	const char *name; /* the new group's last path element */
	uint64_t id;      /* its CGROUP record's id, 0 before */
	pid_t child;
	uint64_t after; /* CLOCK_MONOTONIC ns once the child was moved */
	int records, samples, in_group;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* write pid into a cgroup.procs file; 0 or -errno */
static int move_to(const char *procs, pid_t pid)
{
	FILE *f = fopen(procs, "w");
	int err;

	if (!f)
		return -errno;
	err = fprintf(f, "%d\n", (int)pid) < 0 ? -EIO : 0;
	if (fclose(f) && !err)
		err = errno ? -errno : -EIO;
	return err;
}

static void cgroup_records(const struct sonde_record *r, void *ctx)
{
	struct cgroup_seen *s = ctx;

	if (r->type == SONDE_PERF_RECORD_CGROUP && r->cgroup.path) {
		const char *slash = strrchr(r->cgroup.path, '/');

		if (slash && !strcmp(slash + 1, s->name)) {
			s->records++;
			s->id = r->cgroup.id;
		}
	}
	if (r->type == SONDE_PERF_RECORD_SAMPLE && r->sample.pid == (uint32_t)s->child &&
	    r->sample.time >= s->after) {
		s->samples++;
		s->in_group += s->id && r->sample.cgroup == s->id;
	}
}

/*
 * cgroup: a new cgroup gives a CGROUP record (id and path); samples with
 * PERF_SAMPLE_CGROUP carry the id of their task's cgroup, which is that
 * record's id once a child has moved in (the man page's match).
 */
static void test_cgroup_record_and_sample(void **state)
{
	struct sonde_perf_event_attr a = task_clock();
	struct cgroup_seen s = { 0 };
	char dir[600], procs[640], name[64];
	struct sonde_record_fmt fmt;
	struct sonde_ring *r;
	int fd, go[2], status, moved;
	size_t n;

	(void)state;
	a.sample_period = 1000000; /* 1 ms of CPU */
	a.sample_type = SONDE_PERF_SAMPLE_TID | SONDE_PERF_SAMPLE_TIME | SONDE_PERF_SAMPLE_CGROUP;
	a.use_clockid = 1; /* sample times comparable with the move's */
	a.clockid = CLOCK_MONOTONIC;
	a.cgroup = 1;
	a.inherit = 1;
	a.sample_id_all = 1;
	a.disabled = 1;
	if (own_cgroup2(dir, sizeof(dir)) || !pin(0)) {
		printf("SKIP: cgroup records: no cgroup2 group of ours, or cpu 0\n");
		skip();
	}
	fd = open_or_skip(&a, 0, 0, "task-clock with cgroup records on cpu 0");
	assert_int_equal(sonde_record_fmt__from_attr(&fmt, &a), 0);
	r = sonde_ring__new(fd, NULL);
	assert_non_null(r);
	snprintf(name, sizeof(name), "sonde-cgrec-%d", getpid());
	s.name = name;
	n = strlen(dir);
	snprintf(dir + n, sizeof(dir) - n, "/%s", name);
	sonde_perf_event_ioc_enable(fd, false);
	if (mkdir(dir, 0755)) {
		printf("SKIP: cannot make cgroup2 group %s: %s\n", dir, strerror(errno));
		sonde_ring__free(r);
		close(fd);
		unpin();
		skip();
	}
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);
	assert_int_equal(pipe(go), 0);
	s.child = fork();
	assert_true(s.child >= 0);
	if (s.child == 0) {
		char c;

		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(3);
		burn(30000000);
		_exit(0);
	}
	close(go[0]);
	/* the parent moves the waiting child: a slow fopen in the child
	 * (sanitizers, a loaded host) could otherwise earn a sample before
	 * the move; only samples after the move must carry the group's id */
	moved = move_to(procs, s.child);
	s.after = now_ns();
	assert_int_equal(write(go[1], "g", 1), 1);
	close(go[1]);
	assert_int_equal(waitpid(s.child, &status, 0), s.child);
	sonde_perf_event_ioc_disable(fd, false);
	unpin();
	rmdir(dir);
	assert_true(WIFEXITED(status));
	if (moved) {
		printf("SKIP: cannot move a task into %s: %s\n", dir, strerror(-moved));
		sonde_ring__free(r);
		close(fd);
		skip();
	}
	assert_int_equal(WEXITSTATUS(status), 0);
	drain(r, &fmt, cgroup_records, &s);
	sonde_ring__free(r);
	close(fd);
	assert_int_equal(s.records, 1);
	assert_true(s.id != 0);
	assert_true(s.samples > 0);
	assert_int_equal(s.in_group, s.samples);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pid_cpu_pairs),
		cmocka_unit_test(test_exclude_user_kernel),
		cmocka_unit_test(test_exclude_callchain),
		cmocka_unit_test(test_wakeup_events_and_watermark),
		cmocka_unit_test(test_inherit_task_and_stat),
		cmocka_unit_test(test_mmap_data),
		cmocka_unit_test(test_switch_task),
		cmocka_unit_test(test_switch_cpu_wide),
		cmocka_unit_test(test_cgroup_record_and_sample),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
