// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The stat printers and derived metrics, driven from fabricated counts.
 * Expected lines are perf 6.1's own output on this kind of machine with the
 * numbers swapped for ones of the same width, so a column drifting by one
 * space fails here.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stat_print.h"

struct cap {
	char *data;
	size_t len;
	FILE *f;
};

static FILE *cap_open(struct cap *c)
{
	memset(c, 0, sizeof(*c));
	c->f = open_memstream(&c->data, &c->len);
	assert_non_null(c->f);
	return c->f;
}

static char *cap_close(struct cap *c)
{
	fclose(c->f);
	return c->data;
}

#define CLOCK(n, k) { .name = (n), .unit = "msec", .scale = 1e-6, .kind = (k) }
#define EV(n, k) { .name = (n), .unit = "", .kind = (k) }
#define OK(v, r) { .status = SONDE_STAT_OK, .val = (v), .ena = (r), .run = (r) }
#define NS { .status = SONDE_STAT_NOT_SUPPORTED }

static const struct sonde_stat_aggr global_aggr[] = { { .nr = 1 } };

/* perf stat -e task-clock,page-faults,cycles -- true */
static const struct sonde_stat_event basic_ev[] = {
	CLOCK("task-clock", SONDE_STAT_K_TASK_CLOCK),
	EV("page-faults", SONDE_STAT_K_OTHER),
	EV("cycles", SONDE_STAT_K_CYCLES),
};
static const struct sonde_stat_count basic_counts[] = {
	OK(415209, 415209), OK(49, 415209), NS,
};
static const struct sonde_stat_table basic = {
	.sz = sizeof(struct sonde_stat_table),
	.mode = SONDE_STAT_AGGR_GLOBAL, .nr_events = 3, .events = basic_ev,
	.nr_aggr = 1, .aggr = global_aggr, .counts = basic_counts,
	.wall_ns = 814000,
};

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static char *print(stat_print_fn fn, const struct sonde_stat_table *t,
		   const struct stat_print_cfg *tmpl)
{
	struct stat_print_cfg cfg = { .csv_sep = ",", .run_count = 1 };
	struct cap c;

	if (tmpl)
		cfg = *tmpl;
	cfg.out = cap_open(&c);
	fn(&cfg, t);
	return cap_close(&c);
}

static void test_plain_global(void **state)
{
	char *s = print(stat_print_plain, &basic, NULL);

	assert_string_equal(s,
"              0.42 msec task-clock                       #    0.510 CPUs utilized          \n"
"                49      page-faults                      #  118.013 K/sec                  \n"
"   <not supported>      cycles                                                      \n");
	free(s);
}

static void test_csv_global(void **state)
{
	struct stat_print_cfg cfg = { .csv_sep = ";", .run_count = 1 };
	char *s = print(stat_print_csv, &basic, NULL);

	assert_string_equal(s,
		"0.42,msec,task-clock,415209,100.00,0.510,CPUs utilized\n"
		"49,,page-faults,415209,100.00,118.013,K/sec\n"
		"<not supported>,,cycles,0,100.00,,\n");
	free(s);
	s = print(stat_print_csv, &basic, &cfg);
	assert_string_equal(s,
		"0.42;msec;task-clock;415209;100.00;0.510;CPUs utilized\n"
		"49;;page-faults;415209;100.00;118.013;K/sec\n"
		"<not supported>;;cycles;0;100.00;;\n");
	free(s);
}

static void test_json_global(void **state)
{
	char *s = print(stat_print_json, &basic, NULL);

	assert_string_equal(s,
		"{\"counter-value\":0.415209,\"unit\":\"msec\",\"event\":\"task-clock\","
		"\"event-runtime\":415209,\"pcnt-running\":100.00,"
		"\"metric-value\":0.510085,\"metric-unit\":\"CPUs utilized\"}\n"
		"{\"counter-value\":49,\"unit\":\"\",\"event\":\"page-faults\","
		"\"event-runtime\":415209,\"pcnt-running\":100.00,"
		"\"metric-value\":118.012856,\"metric-unit\":\"K/sec\"}\n"
		"{\"counter-value\":\"<not supported>\",\"unit\":\"\",\"event\":\"cycles\","
		"\"event-runtime\":0,\"pcnt-running\":100.00,"
		"\"metric-value\":null,\"metric-unit\":\"\"}\n");
	free(s);
}

/* Multiplexed, never scheduled, and a cgroup name. */
static void test_multiplex_and_not_counted(void **state)
{
	static const struct sonde_stat_event ev[] = {
		CLOCK("task-clock", SONDE_STAT_K_TASK_CLOCK),
		{ .name = "context-switches", .unit = "",
		  .cgroup = "/sys/x" },
		EV("page-faults", SONDE_STAT_K_OTHER),
	};
	static const struct sonde_stat_count cnt[] = {
		OK(2000000, 2000000),
		{ .status = SONDE_STAT_OK, .val = 3000, .ena = 4000, .run = 1000 },
		{ .status = SONDE_STAT_NOT_COUNTED, .ena = 5000, .run = 0 },
	};
	static const struct sonde_stat_table t = {
		.sz = sizeof(struct sonde_stat_table),
		.mode = SONDE_STAT_AGGR_GLOBAL, .nr_events = 3, .events = ev,
		.nr_aggr = 1, .aggr = global_aggr, .counts = cnt,
		.wall_ns = 2000000,
	};
	char *s = print(stat_print_plain, &t, NULL);

	assert_string_equal(s,
"              2.00 msec task-clock                       #    1.000 CPUs utilized          \n"
"              3000      context-switches                 /sys/x #    1.500 M/sec                    (25.00%)\n"
"     <not counted>      page-faults                                                   (0.00%)\n");
	free(s);
	s = print(stat_print_csv, &t, NULL);
	assert_string_equal(s,
		"2.00,msec,task-clock,2000000,100.00,1.000,CPUs utilized\n"
		"3000,,context-switches,/sys/x,1000,25.00,1.500,M/sec\n"
		"<not counted>,,page-faults,0,0.00,,\n");
	free(s);
	s = print(stat_print_json, &t, NULL);
	assert_non_null(strstr(s, "\"counter-value\":3000,\"unit\":\"\","
				  "\"event\":\"context-switches\","
				  "\"cgroup\":\"/sys/x\",\"event-runtime\":1000,"
				  "\"pcnt-running\":25.00,"));
	assert_non_null(strstr(s, "\"counter-value\":\"<not counted>\""));
	free(s);
}

static void test_repeat_noise(void **state)
{
	static const struct sonde_stat_count cnt[] = {
		{ .status = SONDE_STAT_OK, .val = 480000, .ena = 480000,
		  .run = 480000, .noise_pct = 9.47 },
		{ .status = SONDE_STAT_OK, .val = 48, .ena = 480000, .run = 480000,
		  .noise_pct = 1.2 },
		NS,
	};
	struct sonde_stat_table t = basic;
	struct stat_print_cfg cfg = { .csv_sep = ",", .run_count = 3 };
	char *s;

	t.counts = cnt;
	t.wall_ns = 1000000;
	s = print(stat_print_plain, &t, &cfg);
	assert_string_equal(s,
"              0.48 msec task-clock                       #    0.480 CPUs utilized            ( +-  9.47% )\n"
"                48      page-faults                      #  100.000 K/sec                    ( +-  1.20% )\n"
"   <not supported>      cycles                                                      \n");
	free(s);
	s = print(stat_print_csv, &t, &cfg);
	assert_string_equal(s,
		"0.48,msec,task-clock,9.47%,480000,100.00,0.480,CPUs utilized\n"
		"48,,page-faults,1.20%,480000,100.00,100.000,K/sec\n"
		"<not supported>,,cycles,0.00%,0,100.00,,\n");
	free(s);
	s = print(stat_print_json, &t, &cfg);
	assert_non_null(strstr(s, "\"event\":\"task-clock\",\"variance\":9.47,"));
	free(s);
}

/* -A, --per-core, --per-die, --per-socket, --per-thread row labels. */
static void test_aggr_labels(void **state)
{
	static const struct sonde_stat_event ev[] = {
		CLOCK("cpu-clock", SONDE_STAT_K_CPU_CLOCK),
		EV("page-faults", SONDE_STAT_K_OTHER),
	};
	static const struct sonde_stat_aggr cpus[] = {
		{ .cpu = 0, .nr = 1 }, { .cpu = 1, .nr = 1 },
	};
	static const struct sonde_stat_count cnt[] = {
		OK(102100000, 102100000), OK(80, 102100000),
		OK(102110000, 102110000), OK(2, 102110000),
	};
	struct sonde_stat_table t = {
		.sz = sizeof(struct sonde_stat_table),
		.mode = SONDE_STAT_AGGR_NONE, .nr_events = 2, .events = ev,
		.nr_aggr = 2, .aggr = cpus, .counts = cnt,
		.wall_ns = 102100000,
	};
	struct sonde_stat_aggr core[] = {
		{ .socket = 0, .die = 0, .core = 0, .nr = 1 },
		{ .socket = 0, .die = 0, .core = 1, .nr = 1 },
	};
	struct sonde_stat_aggr sock[] = { { .socket = 0, .die = 0, .nr = 2 } };
	struct sonde_stat_aggr thr[] = { { .tid = 8524, .comm = "sh", .nr = 1 } };
	char *s;

	s = print(stat_print_plain, &t, NULL);
	/* -A prints event-major: every CPU of cpu-clock first. */
	assert_string_equal(s,
"CPU0                   102.10 msec cpu-clock                        #    1.000 CPUs utilized          \n"
"CPU1                   102.11 msec cpu-clock                        #    1.000 CPUs utilized          \n"
"CPU0                       80      page-faults                      #  783.546 /sec                   \n"
"CPU1                        2      page-faults                      #   19.587 /sec                   \n");
	free(s);
	s = print(stat_print_csv, &t, NULL);
	assert_string_equal(s,
		"CPU0,102.10,msec,cpu-clock,102100000,100.00,1.000,CPUs utilized\n"
		"CPU1,102.11,msec,cpu-clock,102110000,100.00,1.000,CPUs utilized\n"
		"CPU0,80,,page-faults,102100000,100.00,783.546,/sec\n"
		"CPU1,2,,page-faults,102110000,100.00,19.587,/sec\n");
	free(s);
	s = print(stat_print_json, &t, NULL);
	assert_non_null(strstr(s, "{\"cpu\":1,\"counter-value\":2,"));
	free(s);

	t.mode = SONDE_STAT_AGGR_CORE;
	t.aggr = core;
	s = print(stat_print_plain, &t, NULL);
	/* Every other mode prints unit-major. */
	assert_string_equal(s,
"S0-D0-C0           1             102.10 msec cpu-clock                        #    1.000 CPUs utilized          \n"
"S0-D0-C0           1                 80      page-faults                      #  783.546 /sec                   \n"
"S0-D0-C1           1             102.11 msec cpu-clock                        #    1.000 CPUs utilized          \n"
"S0-D0-C1           1                  2      page-faults                      #   19.587 /sec                   \n");
	free(s);
	s = print(stat_print_csv, &t, NULL);
	assert_true(starts(s, "S0-D0-C0,1,102.10,msec,cpu-clock,102100000,"
				"100.00,1.000,CPUs utilized\n"));
	free(s);
	s = print(stat_print_json, &t, NULL);
	assert_true(starts(s, "{\"core\":\"S0-D0-C0\",\"aggregate-number\":1,"
				"\"counter-value\":102.100000,"));
	free(s);

	t.nr_aggr = 1;
	t.aggr = sock;
	t.mode = SONDE_STAT_AGGR_SOCKET;
	s = print(stat_print_plain, &t, NULL);
	assert_true(starts(s,
"S0        2             102.10 msec cpu-clock                        #    1.000 CPUs utilized          \n"));
	free(s);
	s = print(stat_print_csv, &t, NULL);
	assert_true(starts(s, "S0,2,102.10,msec,"));
	free(s);
	s = print(stat_print_json, &t, NULL);
	assert_true(starts(s, "{\"socket\":\"S0\",\"aggregate-number\":2,"));
	free(s);

	t.mode = SONDE_STAT_AGGR_DIE;
	s = print(stat_print_plain, &t, NULL);
	assert_true(starts(s, "S0-D0           2             102.10 msec"));
	free(s);
	s = print(stat_print_csv, &t, NULL);
	assert_true(starts(s, "S0-D0,2,102.10,msec,"));
	free(s);
	s = print(stat_print_json, &t, NULL);
	assert_true(starts(s, "{\"die\":\"S0-D0\",\"aggregate-number\":2,"));
	free(s);

	t.mode = SONDE_STAT_AGGR_THREAD;
	t.aggr = thr;
	s = print(stat_print_plain, &t, NULL);
	assert_true(starts(s,
"              sh-8524                 102.10 msec cpu-clock                        #    1.000 CPUs utilized          \n"));
	free(s);
	s = print(stat_print_csv, &t, NULL);
	assert_true(starts(s, "sh-8524,102.10,msec,"));
	free(s);
	s = print(stat_print_json, &t, NULL);
	assert_true(starts(s, "{\"thread\":\"sh-8524\",\"counter-value\":"));
	free(s);
}

static void test_interval_prefix(void **state)
{
	static const struct sonde_stat_count cnt[] = {
		OK(720000, 720000), { .status = SONDE_STAT_NOT_COUNTED },
		NS,
	};
	struct sonde_stat_table t = basic;
	struct stat_print_cfg cfg = { .csv_sep = ",", .run_count = 1,
				      .interval = true, .ts = 0.100256021 };
	struct cap c;
	char *s;

	t.counts = cnt;
	t.wall_ns = 100e6;
	s = print(stat_print_plain, &t, &cfg);
	assert_string_equal(s,
"     0.100256021               0.72 msec task-clock                       #    0.007 CPUs utilized          \n"
"     0.100256021      <not counted>      page-faults                                                 \n"
"     0.100256021    <not supported>      cycles                                                      \n");
	free(s);
	s = print(stat_print_csv, &t, &cfg);
	assert_true(starts(s, "     0.100256021,0.72,msec,task-clock,720000,"
				"100.00,0.007,CPUs utilized\n"));
	free(s);
	s = print(stat_print_json, &t, &cfg);
	assert_true(starts(s, "{\"interval\":0.100256021,\"counter-value\":0.720000,"));
	free(s);

	cap_open(&c);
	stat_print_interval_header(c.f, SONDE_STAT_AGGR_GLOBAL);
	stat_print_interval_header(c.f, SONDE_STAT_AGGR_NONE);
	stat_print_interval_header(c.f, SONDE_STAT_AGGR_CORE);
	stat_print_interval_header(c.f, SONDE_STAT_AGGR_SOCKET);
	stat_print_interval_header(c.f, SONDE_STAT_AGGR_DIE);
	stat_print_interval_header(c.f, SONDE_STAT_AGGR_THREAD);
	s = cap_close(&c);
	assert_string_equal(s,
"#           time             counts unit events\n"
"#           time CPU                    counts unit events\n"
"#           time core            cpus             counts unit events\n"
"#           time socket cpus             counts unit events\n"
"#           time die          cpus             counts unit events\n"
"#           time             comm-pid                  counts unit events\n");
	free(s);
}

/* The hardware metrics, with a PMU this machine lacks. */
static void test_hw_metrics(void **state)
{
	static const struct sonde_stat_event ev[] = {
		CLOCK("task-clock:u", SONDE_STAT_K_TASK_CLOCK),
		EV("cycles:u", SONDE_STAT_K_CYCLES),
		EV("stalled-cycles-frontend:u", SONDE_STAT_K_STALLED_FE),
		EV("stalled-cycles-backend:u", SONDE_STAT_K_STALLED_BE),
		EV("instructions:u", SONDE_STAT_K_INSTRUCTIONS),
		EV("branches:u", SONDE_STAT_K_BRANCHES),
		EV("branch-misses:u", SONDE_STAT_K_BRANCH_MISSES),
		EV("cache-references", SONDE_STAT_K_CACHE_REFS),
		EV("cache-misses", SONDE_STAT_K_CACHE_MISSES),
		EV("L1-dcache-loads", SONDE_STAT_K_L1D_LOADS),
		EV("L1-dcache-load-misses", SONDE_STAT_K_L1D_LOAD_MISSES),
	};
	static const struct sonde_stat_count cnt[] = {
		OK(83723452481.0, 1), OK(229570665834.0, 1),
		OK(22957066583.0, 1), OK(114785332917.0, 1),
		OK(313163853778.0, 1), OK(69704684856.0, 1),
		OK(2078861393.0, 1), OK(1000, 1), OK(125, 1),
		OK(0, 1), OK(5, 1),
	};
	struct sonde_stat_table t = {
		.sz = sizeof(struct sonde_stat_table),
		.mode = SONDE_STAT_AGGR_GLOBAL, .nr_events = 11, .events = ev,
		.nr_aggr = 1, .aggr = global_aggr, .counts = cnt,
		.wall_ns = 83409183620.0,
	};
	struct stat_print_cfg cfg = { .run_count = 1, .thousands_sep = ",",
				      .csv_sep = "," };
	struct sonde_stat_metric m[2];
	char *s;

	s = print(stat_print_plain, &t, &cfg);
	assert_string_equal(s,
"         83,723.45 msec task-clock:u                     #    1.004 CPUs utilized          \n"
"   229,570,665,834      cycles:u                         #    2.742 GHz                    \n"
"    22,957,066,583      stalled-cycles-frontend:u        #   10.00% frontend cycles idle   \n"
"   114,785,332,917      stalled-cycles-backend:u         #   50.00% backend cycles idle    \n"
"   313,163,853,778      instructions:u                   #    1.36  insn per cycle         \n"
"                                                         #    0.37  stalled cycles per insn\n"
"    69,704,684,856      branches:u                       #  832.559 M/sec                  \n"
"     2,078,861,393      branch-misses:u                  #    2.98% of all branches        \n"
"             1,000      cache-references                 #   11.944 /sec                   \n"
"               125      cache-misses                     #   12.500 % of all cache refs    \n"
"                 0      L1-dcache-loads                  #    0.000 /sec                   \n"
"                 5      L1-dcache-load-misses            #    0.00% of all L1-dcache accesses\n");
	free(s);
	/* CSV keeps the number, drops the padding and the percent sign. */
	s = print(stat_print_csv, &t, &cfg);
	assert_non_null(strstr(s, "\n313163853778,,instructions:u,1,100.00,1.36,"
				  "insn per cycle\n,,,,,0.37,"
				  "stalled cycles per insn\n"));
	assert_non_null(strstr(s, ",2.98,of all branches\n"));
	free(s);
	s = print(stat_print_json, &t, &cfg);
	assert_non_null(strstr(s, "\"metric-unit\":\"insn per cycle\"}\n"
				  "{\"metric-value\":0.366534,"
				  "\"metric-unit\":\"stalled cycles per insn\"}\n"));
	free(s);

	/* Colours only where perf has thresholds. */
	assert_int_equal(sonde_stat_table__metrics(&t, 0, 3, m), 1);
	assert_int_equal(m[0].color, SONDE_STAT_COLOR_YELLOW); /* 50 is not > 50 */
	assert_int_equal(sonde_stat_table__metrics(&t, 0, 2, m), 1);
	assert_int_equal(m[0].color, SONDE_STAT_COLOR_NONE);
	cfg.color = true;
	s = print(stat_print_plain, &t, &cfg);
	assert_non_null(strstr(s, "# \033[33m  50.00%\033[m backend cycles idle    \n"));
	free(s);
}

/* Rates scale to K, M and G; different contexts do not mix. */
static void test_rates_and_ctx(void **state)
{
	static const struct sonde_stat_event ev[] = {
		CLOCK("task-clock", SONDE_STAT_K_TASK_CLOCK),
		EV("a", SONDE_STAT_K_OTHER), EV("b", SONDE_STAT_K_OTHER),
		EV("c", SONDE_STAT_K_OTHER), EV("d", SONDE_STAT_K_OTHER),
		{ .name = "e:k", .unit = "", .ctx = 1 },
		{ .name = "ins:k", .unit = "", .ctx = 1,
		  .kind = SONDE_STAT_K_INSTRUCTIONS },
	};
	static const struct sonde_stat_count cnt[] = {
		OK(1e9, 1), OK(5, 1), OK(5e3, 1), OK(5e6, 1), OK(5e9, 1),
		OK(7, 1), OK(9, 1),
	};
	struct sonde_stat_table t = {
		.sz = sizeof(struct sonde_stat_table),
		.mode = SONDE_STAT_AGGR_GLOBAL, .nr_events = 7, .events = ev,
		.nr_aggr = 1, .aggr = global_aggr, .counts = cnt,
	};
	const char *units[] = { "/sec", "K/sec", "M/sec", "G/sec" };
	struct sonde_stat_metric m[2];
	char buf[32];

	/* No wall time: no CPUs utilized, but the line still pads. */
	assert_int_equal(sonde_stat_table__metrics(&t, 0, 0, m), 1);
	assert_false(m[0].shown);
	for (int i = 0; i < 4; i++) {
		sonde_stat_table__metrics(&t, 0, 1 + i, m);
		assert_string_equal(m[0].unit, units[i]);
		sonde_stat_metric__format(&m[0], buf, sizeof(buf));
		assert_string_equal(buf, "   5.000");
	}
	sonde_stat_table__metrics(&t, 0, 5, m);
	assert_false(m[0].shown);
	sonde_stat_table__metrics(&t, 0, 6, m);
	assert_false(m[0].shown);
	assert_string_equal(m[0].unit, "insn per cycle");
}

static void test_grouping(void **state)
{
	char buf[64];

	stat_format_grouped(buf, sizeof(buf), 2078861393, 0, ",");
	assert_string_equal(buf, "2,078,861,393");
	stat_format_grouped(buf, sizeof(buf), 83723.452481, 2, ",");
	assert_string_equal(buf, "83,723.45");
	stat_format_grouped(buf, sizeof(buf), 999, 0, ",");
	assert_string_equal(buf, "999");
	stat_format_grouped(buf, sizeof(buf), -1234567, 0, ".");
	assert_string_equal(buf, "-1.234.567");
	stat_format_grouped(buf, sizeof(buf), 1234567, 0, "");
	assert_string_equal(buf, "1234567");
	stat_format_grouped(buf, sizeof(buf), 1234567, 0, NULL);
	assert_string_equal(buf, "1234567");
	/* Truncation still terminates. */
	stat_format_grouped(buf, 6, 1234567, 0, ",");
	assert_string_equal(buf, "1,234");
}

static void test_header_footer(void **state)
{
	const char *argv[] = { "sleep", "0.1" };
	struct stat_target_desc d = { .argc = 2, .argv = argv };
	struct stat_footer f = { .run_count = 1, .wall_mean_s = 0.102559080,
				 .show_rusage = true, .user_s = 0.002284,
				 .sys_s = 0 };
	struct cap c;
	char *s;

	cap_open(&c);
	stat_print_header(c.f, &d, 1);
	stat_print_header(c.f, &d, 3);
	d.pid = "4815";
	stat_print_header(c.f, &d, 1);
	d.pid = NULL;
	d.tid = "4816";
	stat_print_header(c.f, &d, 1);
	d.cpu_list = "0-1";
	stat_print_header(c.f, &d, 1);
	d.system_wide = true;
	stat_print_header(c.f, &d, 1);
	s = cap_close(&c);
	assert_string_equal(s,
		"\n Performance counter stats for 'sleep 0.1':\n\n"
		"\n Performance counter stats for 'sleep 0.1' (3 runs):\n\n"
		"\n Performance counter stats for process id '4815':\n\n"
		"\n Performance counter stats for thread id '4816':\n\n"
		"\n Performance counter stats for 'CPU(s) 0-1':\n\n"
		"\n Performance counter stats for 'system wide':\n\n");
	free(s);

	cap_open(&c);
	stat_print_footer(c.f, &f);
	f.show_rusage = false;
	stat_print_footer(c.f, &f);
	f.run_count = 3;
	f.wall_mean_s = 0.000995;
	f.wall_stddev_s = 0.0001209;
	stat_print_footer(c.f, &f);
	s = cap_close(&c);
	assert_string_equal(s,
		"\n       0.102559080 seconds time elapsed\n\n"
		"       0.002284000 seconds user\n"
		"       0.000000000 seconds sys\n\n\n"
		"\n       0.102559080 seconds time elapsed\n\n"
		"\n          0.000995 +- 0.000121 seconds time elapsed"
		"  ( +- 12.15% )\n\n");
	free(s);
}

/* A cell is counts[aggr * nr_events + ev]; what lies outside is refused. */
static void test_cell(void **state)
{
	static const struct sonde_stat_aggr two[] = { { .nr = 1 }, { .nr = 1 } };
	struct sonde_stat_table t = basic;
	struct sonde_stat_count cnt[6];
	static const int bad[][2] = { { -1, 0 }, { 2, 0 }, { 0, -1 }, { 0, 3 } };

	(void)state;
	t.nr_aggr = 2;
	t.aggr = two;
	t.counts = cnt;
	assert_ptr_equal(sonde_stat_table__cell(&t, 0, 0), &cnt[0]);
	assert_ptr_equal(sonde_stat_table__cell(&t, 0, 2), &cnt[2]);
	assert_ptr_equal(sonde_stat_table__cell(&t, 1, 1), &cnt[4]);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		assert_null(sonde_stat_table__cell(&t, bad[i][0], bad[i][1]));
		assert_int_equal(errno, EINVAL);
	}
	t.sz = offsetof(struct sonde_stat_table, counts); /* too old to have counts */
	assert_null(sonde_stat_table__cell(&t, 0, 0));
	t.sz = sizeof(t);
	t.counts = NULL;
	assert_null(sonde_stat_table__cell(&t, 0, 0));
	assert_null(sonde_stat_table__cell(NULL, 0, 0));
}

static void test_stats(void **state)
{
	struct stat_stats st = { 0 };

	assert_true(stat_stats_rel_pct(&st) == 0);
	stat_stats_update(&st, 10);
	assert_true(stat_stats_stddev_mean(&st) == 0);
	stat_stats_update(&st, 12);
	stat_stats_update(&st, 14);
	assert_true(st.mean == 12);
	/* sample stddev 2, of the mean 2/sqrt(3) */
	assert_true(stat_stats_stddev_mean(&st) > 1.1546 &&
		    stat_stats_stddev_mean(&st) < 1.1548);
	assert_true(stat_stats_rel_pct(&st) > 9.62 &&
		    stat_stats_rel_pct(&st) < 9.63);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_global),
		cmocka_unit_test(test_csv_global),
		cmocka_unit_test(test_json_global),
		cmocka_unit_test(test_multiplex_and_not_counted),
		cmocka_unit_test(test_repeat_noise),
		cmocka_unit_test(test_aggr_labels),
		cmocka_unit_test(test_interval_prefix),
		cmocka_unit_test(test_hw_metrics),
		cmocka_unit_test(test_rates_and_ctx),
		cmocka_unit_test(test_grouping),
		cmocka_unit_test(test_header_footer),
		cmocka_unit_test(test_cell),
		cmocka_unit_test(test_stats),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
