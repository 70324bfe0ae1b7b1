// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The /proc maps synthesizer's time limit (sonde_synth_opts'
 * proc_map_timeout_ns, sonde record --proc-map-timeout), as perf 6.1's:
 * after each line read, past the limit, that line's MMAP2 is written
 * marked PROC_MAP_PARSE_TIMEOUT and the process's other lines are not;
 * report then warns as perf report does. Time is the seam's clock_ns,
 * which these tests drive: one millisecond per reading.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "sonde/sonde.h"
#include "builtin.h"
#include "cli_run.h"

static uint64_t fake_now, clock_calls;

/* A clock that moves one millisecond each time it is read. */
static uint64_t step_clock(void)
{
	clock_calls++;
	return fake_now += 1000000;
}

static void use_step_clock(void)
{
	struct sonde_sys_ops ops = *sonde_sys_ops();

	ops.clock_ns = step_clock;
	fake_now = clock_calls = 0;
	sonde_sys_set_ops(&ops);
}

struct maps_seen {
	int mmap2, marked;
	bool last_marked; /* the marked one came last */
};

/* The MMAP2 records of process @pid in @path. */
static struct maps_seen maps_of(const char *path, pid_t pid)
{
	struct sonde_perfdata_reader *r = sonde_perfdata_reader__open(path, NULL);
	struct maps_seen seen = { 0 };
	struct sonde_perfdata_record rec;
	struct sonde_record_fmt fmt;
	struct sonde_record d;

	assert_non_null(r);
	assert_int_equal(sonde_record_fmt__from_attr(&fmt, sonde_perfdata_reader__attr(r, 0)), 0);
	while (sonde_perfdata_reader__next(r, &rec) > 0) {
		bool marked;

		if (rec.type != SONDE_PERF_RECORD_MMAP2 ||
		    sonde_record__decode(&fmt, rec.hdr, rec.size, &d) || d.mmap.pid != (uint32_t)pid)
			continue;
		marked = d.misc & SONDE_PERF_RECORD_MISC_PROC_MAP_PARSE_TIMEOUT;
		seen.mmap2++;
		seen.marked += marked;
		seen.last_marked = marked;
	}
	sonde_perfdata_reader__free(r);
	return seen;
}

static pid_t timed_out_pid;
static int nr_timeouts;

static void on_timeout(pid_t pid, void *ctx)
{
	assert_ptr_equal(ctx, &nr_timeouts);
	timed_out_pid = pid;
	nr_timeouts++;
}

/* This process's maps through a writer, with @timeout_ns. */
static void synth_self(const char *path, uint64_t timeout_ns)
{
	struct sonde_perf_event_attr a = {
		.size = sizeof(a),
		.type = SONDE_PERF_TYPE_SOFTWARE,
		.config = SONDE_PERF_COUNT_SW_CPU_CLOCK,
		.sample_type = SONDE_PERF_SAMPLE_IP | SONDE_PERF_SAMPLE_TID,
		.sample_period = 1000,
		.sample_id_all = 1,
		.mmap = 1,
		.mmap2 = 1,
	};
	SONDE_OPTS(sonde_synth_opts, so, .no_build_ids = true, .proc_map_timeout_ns = timeout_ns,
		   .on_timeout = on_timeout, .ctx = &nr_timeouts);
	struct sonde_perfdata_writer *w = sonde_perfdata_writer__new(path, NULL);

	assert_non_null(w);
	assert_int_equal(sonde_perfdata_writer__add_event(w, &a, "cpu-clock"), 0);
	assert_int_equal(sonde_perfdata_writer__begin(w), 0);
	assert_int_equal(sonde_perfdata_writer__synth_process(w, &a, getpid(), &so), 0);
	assert_int_equal(sonde_perfdata_writer__finish(w), 0);
}

static const char timeout_text[] =
	"Warning:\n1 map information files for pre-existing threads were\n"
	"not processed, if there are samples for addresses they\n"
	"will not be resolved, you may find out which are these\n"
	"threads by running with -v and redirecting the output\n"
	"to a file.\nThe time limit to process proc map is too short?\n"
	"Increase it by --proc-map-timeout\n";

static void test_synth_limit(void **state)
{
	char dir[] = "/tmp/sonde-pmt-XXXXXX", path[64];
	static const char *const report_args[] = { "report", "--stdio", NULL };
	struct maps_seen all, cut;
	char *err;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/t.data", dir);
	/* No limit: every executable map, nothing marked, the clock unread. */
	use_step_clock();
	nr_timeouts = 0;
	synth_self(path, 0);
	all = maps_of(path, getpid());
	assert_int_equal(clock_calls, 0);
	assert_int_equal(all.marked, 0);
	assert_int_equal(nr_timeouts, 0);
	assert_true(all.mmap2 >= 2);
	/*
	 * 3 ms: the start and three lines read within it, the fourth line
	 * past it (4 ms > 3 ms) written marked, whatever it maps, and the end.
	 */
	use_step_clock();
	synth_self(path, 3000000);
	sonde_sys_set_ops(NULL);
	cut = maps_of(path, getpid());
	assert_int_equal(clock_calls, 5);
	assert_int_equal(cut.marked, 1);
	assert_true(cut.last_marked);
	assert_true(cut.mmap2 <= 4 && cut.mmap2 < all.mmap2 + 1);
	assert_int_equal(nr_timeouts, 1);
	assert_int_equal(timed_out_pid, getpid());
	/* report warns about the process, as perf report does on the file. */
	err = cr_run(cmd_report, report_args, path, 2);
	assert_non_null(strstr(err, timeout_text));
	free(err);
	err = cr_perf("perf report --stdio", path, true);
	if (err) {
		assert_non_null(strstr(err, timeout_text));
		free(err);
	} else {
		print_message("SKIP (part): perf is not installed, no comparison\n");
	}
	unlink(path);
	rmdir(dir);
}

/* sonde record -p PID --proc-map-timeout MS [-q]: its exit and standard error. */
static int record_pid(const char *path, pid_t pid, const char *ms, bool quiet, char **err)
{
	char pidbuf[16], tmp[] = "/tmp/sonde-pmt-err-XXXXXX";
	const char *argv[16];
	int argc = 0, fd = mkstemp(tmp), se, ret;
	FILE *f;

	snprintf(pidbuf, sizeof(pidbuf), "%d", (int)pid);
	argv[argc++] = "record";
	if (quiet)
		argv[argc++] = "-q";
	if (ms) {
		argv[argc++] = "--proc-map-timeout";
		argv[argc++] = ms;
	}
	argv[argc++] = "-B";
	argv[argc++] = "-p";
	argv[argc++] = pidbuf;
	argv[argc++] = "-e";
	argv[argc++] = "cpu-clock";
	argv[argc++] = "-o";
	argv[argc++] = path;
	argv[argc++] = "--";
	argv[argc++] = "true";
	argv[argc] = NULL;
	assert_true(fd >= 0);
	fflush(stderr);
	se = dup(2);
	dup2(fd, 2);
	use_step_clock();
	ret = cmd_record(argc, argv);
	sonde_sys_set_ops(NULL);
	fflush(stderr);
	dup2(se, 2);
	close(se);
	close(fd);
	f = fopen(tmp, "r");
	assert_non_null(f);
	*err = cr_slurp(f);
	fclose(f);
	unlink(tmp);
	return ret;
}

static pid_t child;

/* The child pauses until killed here, even when an assertion failed. */
static int kill_child(void **state)
{
	int st;

	(void)state;
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, &st, 0);
	}
	child = 0;
	return 0;
}

static void test_record_option(void **state)
{
	char dir[] = "/tmp/sonde-pmt-XXXXXX", path[64], want[160], *err;
	struct maps_seen seen;
	int ret;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/r.data", dir);
	child = fork();
	assert_true(child >= 0);
	if (!child) {
		for (;;)
			pause();
	}
	ret = record_pid(path, child, "2", false, &err);
	if (ret && !strstr(err, "time out")) {
		print_message("SKIP: record could not sample process %d here (exit %d): %s\n",
			      (int)child, ret, err);
		free(err);
		unlink(path);
		rmdir(dir);
		skip();
	}
	assert_int_equal(ret, 0);
	/* perf record's own words, once for the process. */
	snprintf(want, sizeof(want),
		 "Reading /proc/%d/task/%d/maps time out. You may want to increase the time limit by --proc-map-timeout\n",
		 (int)child, (int)child);
	assert_non_null(strstr(err, want));
	assert_null(strstr(strstr(err, want) + strlen(want), "time out"));
	free(err);
	seen = maps_of(path, child);
	assert_int_equal(seen.marked, 1);
	assert_true(seen.last_marked);
	assert_true(seen.mmap2 <= 3);
	/* The default, 500 ms, is far from 2 ms a line here; -q says nothing. */
	assert_int_equal(record_pid(path, child, NULL, true, &err), 0);
	assert_string_equal(err, "");
	free(err);
	seen = maps_of(path, child);
	assert_int_equal(seen.marked, 0);
	assert_true(seen.mmap2 >= 2);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_synth_limit),
		cmocka_unit_test_teardown(test_record_option, kill_child),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
