// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde report's and sonde script's warnings about what a recording could not keep, on
 * files written here: MMAP2 records marked PROC_MAP_PARSE_TIMEOUT (perf's
 * synthesizer gave up reading a process's maps) and AUX records flagged
 * TRUNCATED / PARTIAL / COLLISION. The text must be perf 6.1's, on perf's
 * conditions; where perf is installed, perf report on the same file
 * prints the same blocks.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sonde/sonde.h"
#include "builtin.h"
#include "cli_run.h"

static char path[64];

/* One MMAP2 record of process 100 at @addr, with @misc. */
static void put_mmap2(struct sonde_perfdata_writer *w,
		      const struct sonde_record_fmt *fmt, uint64_t addr,
		      uint16_t misc, const char *file)
{
	_Alignas(8) unsigned char buf[256];
	struct sonde_record r;

	memset(&r, 0, sizeof(r));
	r.type = SONDE_PERF_RECORD_MMAP2;
	r.misc = misc;
	r.mmap.pid = r.mmap.tid = 100;
	r.mmap.addr = addr;
	r.mmap.len = 0x1000;
	r.mmap.prot = 5;
	r.mmap.flags = 2;
	r.mmap.filename = file;
	r.sample_id.pid = r.sample_id.tid = 100;
	assert_true(sonde_record__encode(fmt, &r, buf, sizeof(buf)) > 0);
	assert_int_equal(sonde_perfdata_writer__write(w, (void *)buf), 0);
}

static void put_sample(struct sonde_perfdata_writer *w,
		       const struct sonde_record_fmt *fmt, uint64_t time)
{
	_Alignas(8) unsigned char buf[256];
	struct sonde_record r;

	memset(&r, 0, sizeof(r));
	r.type = SONDE_PERF_RECORD_SAMPLE;
	r.misc = SONDE_PERF_RECORD_MISC_USER;
	r.sample.sample_type = fmt->sample_type;
	r.sample.ip = 0x401000;
	r.sample.pid = r.sample.tid = 100;
	r.sample.time = time;
	r.sample.period = 1;
	assert_true(sonde_record__encode(fmt, &r, buf, sizeof(buf)) > 0);
	assert_int_equal(sonde_perfdata_writer__write(w, (void *)buf), 0);
}

/* An AUX record of 100 with @flags. */
static void put_aux(struct sonde_perfdata_writer *w, const struct sonde_record_fmt *fmt,
		    uint64_t flags)
{
	_Alignas(8) unsigned char buf[256];
	struct sonde_record r;

	memset(&r, 0, sizeof(r));
	r.type = SONDE_PERF_RECORD_AUX;
	r.aux.aux_offset = 0;
	r.aux.aux_size = 4096;
	r.aux.flags = flags;
	r.sample_id.pid = r.sample_id.tid = 100;
	assert_true(sonde_record__encode(fmt, &r, buf, sizeof(buf)) > 0);
	assert_int_equal(sonde_perfdata_writer__write(w, (void *)buf), 0);
}

static uint64_t aux_flags[8];
static int nr_aux;

/* A file: @timeouts MMAP2 records of 3 marked, aux_flags' AUX records, a few samples. */
static void write_file(int timeouts)
{
	const char *argv[] = { "sonde", "record", NULL };
	SONDE_OPTS(sonde_perfdata_writer_opts, o, .cmdline = argv);
	struct sonde_perf_event_attr a = {
		.size = sizeof(a),
		.type = SONDE_PERF_TYPE_SOFTWARE,
		.config = SONDE_PERF_COUNT_SW_TASK_CLOCK,
		.sample_type = SONDE_PERF_SAMPLE_IP | SONDE_PERF_SAMPLE_TID |
			       SONDE_PERF_SAMPLE_TIME | SONDE_PERF_SAMPLE_PERIOD,
		.sample_period = 1,
		.sample_id_all = 1,
		.mmap = 1,
		.mmap2 = 1,
	};
	struct sonde_perfdata_writer *w = sonde_perfdata_writer__new(path, &o);
	struct sonde_record_fmt fmt;

	assert_non_null(w);
	assert_int_equal(sonde_record_fmt__from_attr(&fmt, &a), 0);
	assert_int_equal(sonde_perfdata_writer__add_event(w, &a, "task-clock"), 0);
	assert_int_equal(sonde_perfdata_writer__begin(w), 0);
	for (int i = 0; i < 3; i++)
		put_mmap2(w, &fmt, 0x400000 + 0x10000 * (uint64_t)i,
			  (uint16_t)(SONDE_PERF_RECORD_MISC_USER |
				     (i < timeouts ? SONDE_PERF_RECORD_MISC_PROC_MAP_PARSE_TIMEOUT : 0)),
			  "/bin/true");
	for (int i = 0; i < nr_aux; i++)
		put_aux(w, &fmt, aux_flags[i]);
	for (int i = 0; i < 5; i++)
		put_sample(w, &fmt, 1000 + (uint64_t)i);
	assert_int_equal(sonde_perfdata_writer__finish_round(w), 0);
	assert_int_equal(sonde_perfdata_writer__finish(w), 0);
}

static const char timeout_text[] =
	"Warning:\n2 map information files for pre-existing threads were\n"
	"not processed, if there are samples for addresses they\n"
	"will not be resolved, you may find out which are these\n"
	"threads by running with -v and redirecting the output\n"
	"to a file.\nThe time limit to process proc map is too short?\n"
	"Increase it by --proc-map-timeout\n";

static void make_dir(char *dir)
{
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/t.data", dir);
}

/* @cmd's stderr on the file holds @want; perf's (@perf_cmd) too. */
static void check_warns(int (*cmd)(int, const char **), const char *const *args,
			const char *perf_cmd, const char *want)
{
	char *ours = cr_run(cmd, args, path, 2), *theirs;

	if (!strstr(ours, want))
		fail_msg("%s says: '%s'", args[0], ours);
	theirs = cr_perf(perf_cmd, path, true);
	if (theirs) {
		if (!strstr(theirs, want))
			fail_msg("%s says otherwise: %s", perf_cmd, theirs);
		free(theirs);
	} else {
		print_message("SKIP (part): perf is not installed, no comparison\n");
	}
	free(ours);
}

static const char *const report_args[] = { "report", "--stdio", NULL };
static const char *const script_args[] = { "script", NULL };

/*
 * A file with MMAP2 records marked PROC_MAP_PARSE_TIMEOUT gets perf's
 * warning from @cmd, as from @perf_cmd; a file without them, none.
 */
static void proc_map_timeout_case(int (*cmd)(int, const char **), const char *const *args,
				  const char *perf_cmd)
{
	char dir[] = "/tmp/sonde-warn-XXXXXX";
	char *ours;

	make_dir(dir);
	nr_aux = 0;
	write_file(2);
	check_warns(cmd, args, perf_cmd, timeout_text);
	/* Nothing marked: no warning. */
	write_file(0);
	ours = cr_run(cmd, args, path, 2);
	assert_null(strstr(ours, "map information files"));
	free(ours);
	unlink(path);
	rmdir(dir);
}

static void test_proc_map_timeout(void **state)
{
	(void)state;
	proc_map_timeout_case(cmd_report, report_args, "perf report --stdio");
}

/* perf script prints what perf report prints, at the end of its output. */
static void test_script_proc_map_timeout(void **state)
{
	(void)state;
	proc_map_timeout_case(cmd_script, script_args, "perf script");
}

static void test_script_aux(void **state)
{
	char dir[] = "/tmp/sonde-warn-XXXXXX";
	char *ours;

	(void)state;
	make_dir(dir);
	aux_flags[0] = SONDE_PERF_AUX_FLAG_TRUNCATED;
	aux_flags[1] = SONDE_PERF_AUX_FLAG_PARTIAL | SONDE_PERF_AUX_FLAG_COLLISION;
	aux_flags[2] = 0;
	nr_aux = 3;
	write_file(0);
	check_warns(cmd_script, script_args, "perf script",
		    "Warning:\nAUX data lost 1 times out of 3!\n\n");
	check_warns(cmd_script, script_args, "perf script",
		    "Warning:\nAUX data had gaps in it 1 times out of 3!\n\n"
		    "Are you running a KVM guest in the background?");
	check_warns(cmd_script, script_args, "perf script",
		    "Warning:\nAUX data detected collision  1 times out of 3!\n\n");
	/* report says the same (test_record_aux checks it on a recording) */
	check_warns(cmd_report, report_args, "perf report --stdio",
		    "Warning:\nAUX data lost 1 times out of 3!\n\n");
	/* No flag: nothing said. */
	aux_flags[0] = aux_flags[1] = 0;
	write_file(0);
	ours = cr_run(cmd_script, script_args, path, 2);
	assert_null(strstr(ours, "AUX data"));
	free(ours);
	nr_aux = 0;
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_proc_map_timeout),
		cmocka_unit_test(test_script_proc_map_timeout),
		cmocka_unit_test(test_script_aux),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
