// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The /proc maps synthesizer's time limit (sonde_synth_opts'
 * proc_map_timeout_ns), as perf 6.1's:
 * after each line read, past the limit, that line's MMAP2 is written
 * marked PROC_MAP_PARSE_TIMEOUT and the process's other lines are not;
 * report then warns as perf report does. Time is the seam's clock_ns,
 * which these tests drive: one millisecond per reading.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_synth_limit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
