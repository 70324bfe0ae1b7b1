// SPDX-License-Identifier: LGPL-2.1-only
/*
 * What `sonde stat` reads from an event list, behind a fake kernel: sums
 * per aggregation unit, multiplex scaling (running < enabled) and the
 * "(50.00%)" it prints, --no-scale, <not counted>, <not supported>, and
 * interval deltas.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sonde/sonde.h"
#include "stat_print.h"

#define FAKE_FD 2000
#define MAXFD 16

static struct {
	int opened;
	int fail_config;       /* attr.config that fails with ENOENT, or -1 */
	int cpu_of[MAXFD];
	uint64_t config_of[MAXFD];
	uint64_t ena, run;
	uint64_t bump;         /* added to every value (interval tests) */
	uint64_t (*value)(uint64_t config); /* overrides the formula below */
} fk;

static int fake_open(struct sonde_perf_event_attr *attr, pid_t pid, int cpu,
		     int group_fd, unsigned long flags)
{
	(void)pid; (void)group_fd; (void)flags;
	if ((int)attr->config == fk.fail_config) {
		errno = ENOENT;
		return -1;
	}
	if (fk.opened >= MAXFD) {
		errno = EMFILE;
		return -1;
	}
	fk.cpu_of[fk.opened] = cpu;
	fk.config_of[fk.opened] = attr->config;
	return FAKE_FD + fk.opened++;
}

static int fake_ioctl(int fd, unsigned long req, unsigned long arg)
{
	(void)fd; (void)req; (void)arg;
	return 0;
}

/* value = 100 * (cpu + 1) + 10 * config (+ bump), then ena, run, id. */
static ssize_t fake_read(int fd, void *buf, size_t len)
{
	int i = fd - FAKE_FD;
	uint64_t w[4];

	if (i < 0 || i >= fk.opened || len < sizeof(w)) {
		errno = EBADF;
		return -1;
	}
	w[0] = fk.value ? fk.value(fk.config_of[i]) :
		100 * (uint64_t)(fk.cpu_of[i] + 1) + 10 * fk.config_of[i] +
		fk.bump;
	w[1] = fk.ena;
	w[2] = fk.run;
	w[3] = 7;
	memcpy(buf, w, sizeof(w));
	return sizeof(w);
}

static int fake_close(int fd)
{
	return fd >= FAKE_FD && fd < FAKE_FD + MAXFD ? 0 : close(fd);
}

static const struct sonde_sys_ops fake_ops = {
	.perf_event_open = fake_open,
	.ioctl = fake_ioctl,
	.read = fake_read,
	.close = fake_close,
};

static int setup(void **state)
{
	memset(&fk, 0, sizeof(fk));
	fk.fail_config = -1;
	fk.ena = 1000;
	fk.run = 500;
	sonde_sys_set_ops(&fake_ops);
	sonde_set_print(NULL);
	return 0;
}

static int teardown(void **state)
{
	sonde_sys_set_ops(NULL);
	return 0;
}

/* Two software events (config 1 and 2) on CPUs 0 and 1. */
static struct sonde_evlist *open_list(void)
{
	SONDE_OPTS(sonde_evlist_open_opts, oo, .keep_unsupported = true);
	struct sonde_perf_event_attr a = { .type = SONDE_PERF_TYPE_SOFTWARE,
					   .size = sizeof(a) };
	struct sonde_evlist *l = sonde_evlist__new();

	assert_non_null(l);
	a.config = 1;
	assert_true(sonde_evlist__add(l, &a, "one", -1) >= 0);
	a.config = 2;
	assert_true(sonde_evlist__add(l, &a, "two", -1) >= 0);
	assert_int_equal(sonde_evlist__target_cpus(l, "0-1"), 0);
	assert_int_equal(sonde_evlist__open(l, &oo), 0);
	return l;
}

static void test_global_scaled(void **state)
{
	struct sonde_evlist *l;
	struct sonde_stat_reader *r;
	struct sonde_stat_count c[2];
	static const struct sonde_stat_event ev[2] = {
		{ .name = "one", .unit = "" }, { .name = "two", .unit = "" },
	};
	struct stat_print_cfg cfg = { .run_count = 1, .csv_sep = "," };
	struct sonde_stat_table t;
	char *out = NULL;
	size_t len;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		printf("SKIP: needs two online CPUs\n");
		skip();
	}
	l = open_list();
	r = sonde_stat_reader__new(l, SONDE_STAT_AGGR_GLOBAL, 2);
	assert_non_null(r);
	assert_int_equal(sonde_stat_reader__nr_aggr(r), 1);
	assert_int_equal(sonde_stat_reader__read(r, l, 0, c), 0);
	/* one: (110 + 210) raw over 2 x 500 of 2 x 1000 ns -> x2 */
	assert_int_equal(c[0].status, SONDE_STAT_OK);
	assert_true(c[0].val == 640);
	assert_int_equal(c[0].ena, 2000);
	assert_int_equal(c[0].run, 1000);
	assert_true(c[1].val == 680);

	t = (struct sonde_stat_table){ .sz = sizeof(t), .mode = SONDE_STAT_AGGR_GLOBAL, .nr_events = 2,
				 .events = ev, .nr_aggr = 1, .aggr = sonde_stat_reader__aggr(r),
				 .counts = c };
	cfg.out = open_memstream(&out, &len);
	stat_print_plain(&cfg, &t);
	stat_print_csv(&cfg, &t);
	fclose(cfg.out);
	/* value(18) unit(4) name(32), a blank metric(35), the share */
	assert_non_null(strstr(out, "               640      one"
				    "                             "
				    "                                   "
				    "  (50.00%)\n"));
	assert_non_null(strstr(out, "640,,one,1000,50.00,,\n"));
	free(out);

	/* --no-scale: the raw sums. */
	assert_int_equal(sonde_stat_reader__read(r, l, SONDE_STAT_READ_NO_SCALE, c), 0);
	assert_true(c[0].val == 320);
	sonde_stat_reader__free(r);
	sonde_evlist__free(l);
}

static void test_per_cpu_and_not_counted(void **state)
{
	struct sonde_evlist *l;
	struct sonde_stat_reader *r;
	struct sonde_stat_count c[4];

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		printf("SKIP: needs two online CPUs\n");
		skip();
	}
	l = open_list();
	r = sonde_stat_reader__new(l, SONDE_STAT_AGGR_NONE, 2);
	assert_non_null(r);
	assert_int_equal(sonde_stat_reader__nr_aggr(r), 2);
	assert_int_equal(sonde_stat_reader__aggr(r)[1].cpu, 1);
	fk.run = fk.ena; /* not multiplexed */
	assert_int_equal(sonde_stat_reader__read(r, l, 0, c), 0);
	assert_true(c[0].val == 110); /* CPU0 one */
	assert_true(c[1].val == 120); /* CPU0 two */
	assert_true(c[2].val == 210); /* CPU1 one */
	/* Never on the PMU: <not counted>, no value. */
	fk.run = 0;
	assert_int_equal(sonde_stat_reader__read(r, l, 0, c), 0);
	assert_int_equal(c[0].status, SONDE_STAT_NOT_COUNTED);
	sonde_stat_reader__free(r);
	sonde_evlist__free(l);
}

static void test_unsupported_and_delta(void **state)
{
	struct sonde_evlist *l;
	struct sonde_stat_reader *r;
	struct sonde_stat_count c[2];

	fk.fail_config = 2; /* "two" cannot be opened */
	fk.run = fk.ena;
	l = open_list();
	r = sonde_stat_reader__new(l, SONDE_STAT_AGGR_GLOBAL, 2);
	assert_non_null(r);
	assert_int_equal(sonde_stat_reader__read(r, l, SONDE_STAT_READ_DELTA, c), 0);
	assert_int_equal(c[1].status, SONDE_STAT_NOT_SUPPORTED);
	assert_int_equal(c[0].status, SONDE_STAT_OK);
	/* The interval after: only what was counted since. */
	fk.bump = 5;
	fk.ena = 1500;
	fk.run = 1500;
	assert_int_equal(sonde_stat_reader__read(r, l, SONDE_STAT_READ_DELTA, c), 0);
	assert_int_equal(c[0].status, SONDE_STAT_OK);
	assert_true(c[0].val == 10); /* 5 per CPU */
	assert_int_equal(c[0].ena, 1000);
	/* Nothing ran in between: <not counted>, as perf prints it. */
	assert_int_equal(sonde_stat_reader__read(r, l, SONDE_STAT_READ_DELTA, c), 0);
	assert_int_equal(c[0].status, SONDE_STAT_NOT_COUNTED);
	sonde_stat_reader__free(r);
	sonde_evlist__free(l);
}

/* What the fake kernel counts for stat -dd's cache events, by config. */
static uint64_t cache_value(uint64_t config)
{
	switch (config) {
	case 1: return 1000000;                 /* task-clock: 1 ms */
	case 0x00000: return 4000;              /* L1-dcache-loads */
	case 0x10000: return 100;               /* L1-dcache-load-misses */
	case 0x00002: return 500;               /* LLC-loads */
	case 0x10002: return 125;               /* LLC-load-misses */
	case 0x00003: return 2000;              /* dTLB-loads */
	case 0x10003: return 300;               /* dTLB-load-misses */
	default: return 0;
	}
}

/*
 * stat -d/-dd's derived metrics on counts read back from the kernel: each
 * miss event over its access event of the same cache, coloured as perf
 * colours them, and a rate for the access events.
 */
static void test_cache_metrics(void **state)
{
	static const char spec[] =
		"task-clock,L1-dcache-loads,L1-dcache-load-misses,LLC-loads,"
		"LLC-load-misses,dTLB-loads,dTLB-load-misses";
	static const enum sonde_stat_kind kinds[] = {
		SONDE_STAT_K_TASK_CLOCK, SONDE_STAT_K_L1D_LOADS,
		SONDE_STAT_K_L1D_LOAD_MISSES, SONDE_STAT_K_LLC_LOADS,
		SONDE_STAT_K_LLC_LOAD_MISSES, SONDE_STAT_K_DTLB_LOADS,
		SONDE_STAT_K_DTLB_LOAD_MISSES,
	};
	enum { N = sizeof(kinds) / sizeof(kinds[0]) };
	/* The metric each event's line gets. */
	static const struct {
		int event;
		const char *text, *unit;
		enum sonde_stat_color color;
	} want[] = {
		/* 100 of 4000 L1-dcache loads missed: 2.50%, no colour. */
		{ 2, "   2.50%", "of all L1-dcache accesses", SONDE_STAT_COLOR_NONE },
		/* 125 of 500 LLC loads: 25.00%, past perf's red line of 20%. */
		{ 4, "  25.00%", "of all LL-cache accesses", SONDE_STAT_COLOR_RED },
		/* 300 of 2000 dTLB loads: 15.00%, magenta (over 10%). */
		{ 6, "  15.00%", "of all dTLB cache accesses", SONDE_STAT_COLOR_MAGENTA },
		/* The access events are a rate over task-clock: 4000 in 1 ms. */
		{ 1, "   4.000", "M/sec", SONDE_STAT_COLOR_NONE },
	};
	SONDE_OPTS(sonde_evlist_open_opts, oo, .keep_unsupported = true);
	struct sonde_evspec_list *sl = NULL;
	struct sonde_stat_event ev[N];
	struct sonde_stat_count c[N];
	struct sonde_stat_metric m[2];
	struct sonde_stat_reader *r;
	struct sonde_stat_table t;
	struct sonde_evlist *l;
	char buf[32];

	(void)state;
	fk.value = cache_value;
	fk.run = fk.ena;
	assert_int_equal(sonde_evspec_list__parse(spec, &sl, NULL), 0);
	assert_int_equal(sonde_evspec_list__count(sl), N);
	l = sonde_evlist__new();
	assert_non_null(l);
	memset(ev, 0, sizeof(ev));
	for (int i = 0; i < N; i++) {
		assert_true(sonde_evlist__add(l, sonde_evspec_list__attr(sl, i),
					      sonde_evspec_list__name(sl, i),
					      -1) >= 0);
		ev[i].name = sonde_evspec_list__name(sl, i);
		ev[i].unit = "";
		ev[i].kind = kinds[i];
	}
	assert_int_equal(sonde_evlist__target_cpus(l, "0"), 0);
	assert_int_equal(sonde_evlist__open(l, &oo), 0);
	r = sonde_stat_reader__new(l, SONDE_STAT_AGGR_GLOBAL, N);
	assert_non_null(r);
	assert_int_equal(sonde_stat_reader__read(r, l, 0, c), 0);
	t = (struct sonde_stat_table){ .sz = sizeof(t),
		.mode = SONDE_STAT_AGGR_GLOBAL, .nr_events = N, .events = ev,
		.nr_aggr = 1, .aggr = sonde_stat_reader__aggr(r), .counts = c };

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_int_equal(sonde_stat_table__metrics(&t, 0, want[i].event, m), 1);
		sonde_stat_metric__format(&m[0], buf, sizeof(buf));
		assert_string_equal(buf, want[i].text);
		assert_string_equal(m[0].unit, want[i].unit);
		assert_int_equal(m[0].color, want[i].color);
	}

	/* No access count (not supported): a blank metric, as perf. */
	c[5].status = SONDE_STAT_NOT_SUPPORTED;
	sonde_stat_table__metrics(&t, 0, 6, m);
	assert_false(m[0].shown);
	sonde_stat_reader__free(r);
	sonde_evlist__free(l);
	sonde_evspec_list__free(sl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_global_scaled, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_per_cpu_and_not_counted,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_unsupported_and_delta,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_cache_metrics, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
