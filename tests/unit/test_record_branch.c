// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde record -b through a simulated kernel: this VM has no LBR, so the
 * syscall seam opens the real software event without its branch stack
 * (remembering what record asked for) and hands record an anonymous ring
 * holding what a kernel with LBR would write there: the workload's COMM
 * and MMAP2 (this test binary's own text) and samples with branch stacks
 * between functions of this file. The file record writes must carry the
 * branch attr, the BRANCH_STACK feature and the samples, resolved by
 * sonde_profile__sample_branches() and, where perf is installed, by
 * perf script the same way.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "sonde/sonde.h"
#include "sonde/sys.h"
#include "builtin.h"

#define NR_SAMPLES 5

__attribute__((noinline, used)) int branch_fn_caller(int x);
__attribute__((noinline, used)) int branch_fn_callee(int x);

__attribute__((noinline, used)) int branch_fn_callee(int x)
{
	return x * 3 + 1;
}

__attribute__((noinline, used)) int branch_fn_caller(int x)
{
	return branch_fn_callee(x) + branch_fn_callee(x + 1);
}

static struct {
	struct sonde_perf_event_attr asked; /* record's attr, branch stack and all */
	int branch_opens;
	int branch_fds[256];
	int nr_branch_fds;
	pid_t pid;
	bool planted;
	/* this binary's text, as /proc/self/maps has it */
	uint64_t start, end, pgoff;
	char path[4096];
} sim;

static int sim_open(struct sonde_perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		    unsigned long flags)
{
	struct sonde_perf_event_attr a = *attr;
	int fd;

	if (a.sample_type & SONDE_PERF_SAMPLE_BRANCH_STACK) {
		sim.asked = *attr;
		sim.branch_opens++;
		a.sample_type &= ~(uint64_t)SONDE_PERF_SAMPLE_BRANCH_STACK;
		a.branch_sample_type = 0;
	}
	fd = (int)syscall(SYS_perf_event_open, &a, pid, cpu, group_fd, flags);
	if (fd >= 0 && (attr->sample_type & SONDE_PERF_SAMPLE_BRANCH_STACK) &&
	    sim.nr_branch_fds < 256) {
		sim.branch_fds[sim.nr_branch_fds++] = fd;
		if (pid > 0)
			sim.pid = pid;
	}
	return fd;
}

static bool is_branch_fd(int fd)
{
	for (int i = 0; i < sim.nr_branch_fds; i++)
		if (sim.branch_fds[i] == fd)
			return true;
	return false;
}

/* Appends @rec, encoded as record's attr lays it out, at data_head. */
static void put(struct sonde_perf_event_mmap_page *pc, size_t data_size,
		const struct sonde_record_fmt *fmt, const struct sonde_record *rec)
{
	unsigned char *data = (unsigned char *)pc + sysconf(_SC_PAGESIZE);
	_Alignas(8) unsigned char buf[1024];
	int n = sonde_record__encode(fmt, rec, buf, sizeof(buf));

	assert_true(n > 0);
	for (int i = 0; i < n; i++)
		data[(pc->data_head + (uint64_t)i) & (data_size - 1)] = buf[i];
	pc->data_head += (uint64_t)n;
}

static struct sonde_perf_branch_entry br(uint64_t from, uint64_t to, int type, int cycles,
					  bool pred)
{
	struct sonde_perf_branch_entry e;

	memset(&e, 0, sizeof(e));
	e.from = from;
	e.to = to;
	e.type = (uint64_t)type & 15;
	e.cycles = (uint64_t)cycles & 0xffff;
	e.predicted = pred;
	e.mispred = !pred;
	return e;
}

/* What a kernel with LBR would have written for the workload. */
static void plant(struct sonde_perf_event_mmap_page *pc, size_t data_size, int fd)
{
	const uint64_t caller = (uintptr_t)&branch_fn_caller, callee = (uintptr_t)&branch_fn_callee;
	struct sonde_perf_branch_entry e[3] = {
		br(caller + 4, callee, SONDE_PERF_BR_CALL, 7, true),
		br(callee + 2, caller + 9, SONDE_PERF_BR_RET, 2, false),
		br(caller + 12, callee, SONDE_PERF_BR_CALL, 0, true),
	};
	struct sonde_record_fmt fmt;
	struct sonde_record rec;
	struct timespec ts;
	uint64_t id = 0, t;

	assert_int_equal(sonde_record_fmt__from_attr(&fmt, &sim.asked), 0);
	assert_int_equal(ioctl(fd, SONDE_PERF_EVENT_IOC_ID, &id), 0);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	t = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;

	memset(&rec, 0, sizeof(rec));
	rec.sample_id.pid = rec.sample_id.tid = (uint32_t)sim.pid;
	rec.sample_id.time = t;
	rec.sample_id.id = rec.sample_id.identifier = id;
	rec.type = SONDE_PERF_RECORD_COMM;
	rec.misc = SONDE_PERF_RECORD_MISC_COMM_EXEC;
	rec.comm.pid = rec.comm.tid = (uint32_t)sim.pid;
	rec.comm.comm = "brwork";
	put(pc, data_size, &fmt, &rec);
	rec.type = SONDE_PERF_RECORD_MMAP2;
	rec.misc = SONDE_PERF_RECORD_MISC_USER;
	rec.mmap.pid = rec.mmap.tid = (uint32_t)sim.pid;
	rec.mmap.addr = sim.start;
	rec.mmap.len = sim.end - sim.start;
	rec.mmap.pgoff = sim.pgoff;
	rec.mmap.prot = PROT_READ | PROT_EXEC;
	rec.mmap.flags = MAP_PRIVATE;
	rec.mmap.filename = sim.path;
	put(pc, data_size, &fmt, &rec);
	for (int i = 0; i < NR_SAMPLES; i++) {
		memset(&rec, 0, sizeof(rec));
		rec.type = SONDE_PERF_RECORD_SAMPLE;
		rec.misc = SONDE_PERF_RECORD_MISC_USER;
		rec.sample.sample_type = sim.asked.sample_type;
		rec.sample.identifier = rec.sample.id = id;
		rec.sample.ip = callee + 1;
		rec.sample.pid = rec.sample.tid = (uint32_t)sim.pid;
		rec.sample.time = t + 1000 * (uint64_t)(i + 1);
		rec.sample.period = 100000;
		rec.sample.branch.nr = 3;
		rec.sample.branch.hw_idx = 2;
		rec.sample.branch.entries = e;
		put(pc, data_size, &fmt, &rec);
	}
}

static void *sim_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	void *p;
	long page = sysconf(_SC_PAGESIZE);

	if (!is_branch_fd(fd) || off)
		return mmap(addr, len, prot, flags, fd, off);
	p = mmap(addr, len, prot | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p != MAP_FAILED && !sim.planted && sim.pid > 0) {
		sim.planted = true;
		plant(p, len - (size_t)page, fd);
	}
	return p;
}

/* record shares one ring per CPU: the kernel needs a ring of its own for that. */
static int sim_ioctl(int fd, unsigned long req, unsigned long arg)
{
	if (req == SONDE_PERF_EVENT_IOC_SET_OUTPUT && is_branch_fd(fd))
		return 0;
	return ioctl(fd, req, arg);
}

/* This binary's executable mapping, for the MMAP2 the kernel would send. */
static int find_text(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	uintptr_t fn = (uintptr_t)&branch_fn_caller;
	char line[4352];

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e, o;
		int n = 0;

		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %n", &s, &e, &o, &n) < 3 || !n)
			continue;
		if (fn < s || fn >= e)
			continue;
		sim.start = s;
		sim.end = e;
		sim.pgoff = o;
		snprintf(sim.path, sizeof(sim.path), "%s", line + n);
		sim.path[strcspn(sim.path, "\n")] = 0;
		fclose(f);
		return sim.path[0] == '/' ? 0 : -1;
	}
	fclose(f);
	return -1;
}

static bool have_perf(void)
{
	return !system("command -v perf >/dev/null 2>&1");
}

static void test_record_b(void **state)
{
	char dir[] = "/tmp/sonde-brrec-XXXXXX", path[64], cmd[512], out[4096] = "";
	struct sonde_sys_ops ops = *sonde_sys_ops();
	const char *argv[] = { "record", "-q", "-b", "-e", "cpu-clock", "-c", "100000",
			       "-o", path, "--", "true", NULL };
	struct sonde_perfdata_reader *r;
	struct sonde_perfdata_record pr;
	const struct sonde_perf_event_attr *a;
	struct sonde_profile *p;
	int ret, samples = 0;
	FILE *f;

	(void)state;
	if (find_text()) {
		print_message("SKIP: cannot find this test's text mapping in /proc/self/maps\n");
		skip();
	}
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/br.data", dir);
	ops.perf_event_open = sim_open;
	ops.mmap = sim_mmap;
	ops.ioctl = sim_ioctl;
	sonde_sys_set_ops(&ops);
	ret = cmd_record(11, argv);
	sonde_sys_set_ops(NULL);
	if (ret && !sim.branch_opens) {
		print_message("SKIP: record could not open cpu-clock here (exit %d)\n", ret);
		unlink(path);
		rmdir(dir);
		skip();
	}
	assert_int_equal(ret, 0);
	/* What record asked of the kernel: perf's -b. */
	assert_true(sim.branch_opens > 0);
	assert_true(sim.asked.sample_type & SONDE_PERF_SAMPLE_BRANCH_STACK);
	assert_int_equal(sim.asked.branch_sample_type, SONDE_PERF_SAMPLE_BRANCH_ANY);
	assert_true(sim.planted);

	r = sonde_perfdata_reader__open(path, NULL);
	assert_non_null(r);
	a = sonde_perfdata_reader__attr(r, 0);
	assert_true(a->sample_type & SONDE_PERF_SAMPLE_BRANCH_STACK);
	assert_int_equal(a->branch_sample_type, SONDE_PERF_SAMPLE_BRANCH_ANY);
	assert_true(sonde_perfdata_reader__has_feature(r, SONDE_FEAT_BRANCH_STACK));
	p = sonde_profile__new(NULL);
	assert_non_null(p);
	while (sonde_perfdata_reader__next(r, &pr) > 0) {
		struct sonde_profile_branch b[4];
		struct sonde_record_fmt fmt;
		struct sonde_record d;

		if (pr.type != SONDE_PERF_RECORD_SAMPLE) {
			sonde_profile__add_perfdata_record(p, r, &pr);
			continue;
		}
		assert_int_equal(sonde_record_fmt__from_attr(&fmt, a), 0);
		assert_int_equal(sonde_record__decode(&fmt, pr.hdr, pr.size, &d), 0);
		if (d.sample.pid != (uint32_t)sim.pid)
			continue;
		assert_int_equal(sonde_profile__sample_branches(p, pr.attr_idx, &d, b, 4), 3);
		assert_string_equal(sonde_profile_frame__sym(b[0].from), "branch_fn_caller");
		assert_int_equal(sonde_profile_frame__sym_offset(b[0].from), 4);
		assert_string_equal(sonde_profile_frame__sym(b[0].to), "branch_fn_callee");
		assert_string_equal(sonde_profile_frame__sym(b[1].from), "branch_fn_callee");
		assert_int_equal(b[0].entry.cycles, 7);
		assert_int_equal(b[1].entry.type, SONDE_PERF_BR_RET);
		samples++;
	}
	assert_int_equal(samples, NR_SAMPLES);
	sonde_profile__free(p);
	sonde_perfdata_reader__free(r);

	if (have_perf()) {
		/* perf reads the same file the same way. */
		snprintf(cmd, sizeof(cmd), "perf script -i %s -F brstacksym 2>/dev/null | head -1", path);
		f = popen(cmd, "r");
		assert_non_null(f);
		if (!fgets(out, sizeof(out), f))
			out[0] = 0;
		pclose(f);
		assert_string_equal(out, "branch_fn_caller+0x4/branch_fn_callee+0x0/P/-/-/7/CALL "
					 "branch_fn_callee+0x2/branch_fn_caller+0x9/M/-/-/2/RET "
					 "branch_fn_caller+0xc/branch_fn_callee+0x0/P/-/-/0/CALL \n");
	} else {
		print_message("SKIP (part): perf is not installed, no comparison with perf script\n");
	}
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_b),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
