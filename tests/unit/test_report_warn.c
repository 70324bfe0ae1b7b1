// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde report's warnings about what a recording could not keep, on
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

/* A file: @timeouts MMAP2 records of 3 marked, and a few samples. */
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
	for (int i = 0; i < 5; i++)
		put_sample(w, &fmt, 1000 + (uint64_t)i);
	assert_int_equal(sonde_perfdata_writer__finish_round(w), 0);
	assert_int_equal(sonde_perfdata_writer__finish(w), 0);
}

/* sonde report with @opt in this process: its standard error (malloc'd). */
static char *report_stderr(const char *opt)
{
	const char *argv[] = { "report", opt, "-f", "-i", path, NULL };
	char tmp[] = "/tmp/sonde-warn-err-XXXXXX";
	int fd = mkstemp(tmp), null = open("/dev/null", O_WRONLY), so, se;
	char *err;
	long len;
	FILE *f;

	assert_true(fd >= 0 && null >= 0);
	fflush(stdout);
	fflush(stderr);
	so = dup(1);
	se = dup(2);
	dup2(null, 1);
	dup2(fd, 2);
	assert_int_equal(cmd_report(5, argv), 0);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(so);
	close(se);
	close(null);
	close(fd);
	f = fopen(tmp, "r");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	err = calloc(1, (size_t)len + 1);
	assert_int_equal(fread(err, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	unlink(tmp);
	return err;
}

/* perf report's standard error on @path (malloc'd), or NULL without perf. */
static char *perf_stderr(const char *opt)
{
	char cmd[256], buf[4096];
	size_t n, len = 0;
	char *out = calloc(1, 1);
	FILE *p;

	if (system("command -v perf >/dev/null 2>&1"))
		return NULL;
	snprintf(cmd, sizeof(cmd), "perf report %s -f -i %s 2>&1 >/dev/null", opt, path);
	p = popen(cmd, "r");
	assert_non_null(p);
	while ((n = fread(buf, 1, sizeof(buf), p)) > 0) {
		out = realloc(out, len + n + 1);
		assert_non_null(out);
		memcpy(out + len, buf, n);
		len += n;
		out[len] = 0;
	}
	pclose(p);
	return out;
}

static const char timeout_text[] =
	"Warning:\n2 map information files for pre-existing threads were\n"
	"not processed, if there are samples for addresses they\n"
	"will not be resolved, you may find out which are these\n"
	"threads by running with -v and redirecting the output\n"
	"to a file.\nThe time limit to process proc map is too short?\n"
	"Increase it by --proc-map-timeout\n";

static void test_proc_map_timeout(void **state)
{
	char dir[] = "/tmp/sonde-warn-XXXXXX";
	char *ours, *theirs;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/t.data", dir);
	write_file(2);
	ours = report_stderr("--stdio");
	assert_non_null(strstr(ours, timeout_text));
	theirs = perf_stderr("--stdio");
	if (theirs) {
		if (!strstr(theirs, timeout_text))
			fail_msg("perf report says otherwise: %s", theirs);
		free(theirs);
	} else {
		print_message("SKIP (part): perf is not installed, no comparison\n");
	}
	free(ours);
	/* Nothing marked: no warning. */
	write_file(0);
	ours = report_stderr("--stdio");
	assert_null(strstr(ours, "map information files"));
	free(ours);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_proc_map_timeout),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
