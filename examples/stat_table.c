// SPDX-License-Identifier: LGPL-2.1-only
/*
 * What `sonde stat` does, in miniature, with libsonde's counting-session
 * API: open three software events on this process, run a little work,
 * read them into a table (<sonde/stat.h>) and print each count with the
 * metric perf would put after '#' ("CPUs utilized", "/sec").
 */
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <time.h>
#include <sonde/sonde.h>

#define NR 3

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* The measured loop writes here, so no compiler drops it. */
static volatile unsigned long sink;

int main(void)
{
	static const struct {
		const char *name;
		unsigned long long config;
		enum sonde_stat_kind kind;
	} evs[NR] = {
		{ "task-clock", SONDE_PERF_COUNT_SW_TASK_CLOCK, SONDE_STAT_K_TASK_CLOCK },
		{ "page-faults", SONDE_PERF_COUNT_SW_PAGE_FAULTS, SONDE_STAT_K_OTHER },
		{ "context-switches", SONDE_PERF_COUNT_SW_CONTEXT_SWITCHES, SONDE_STAT_K_OTHER },
	};
	struct sonde_stat_event events[NR] = { 0 };
	struct sonde_stat_count *cells = NULL;
	struct sonde_stat_reader *rd = NULL;
	struct sonde_evlist *list = sonde_evlist__new();
	struct sonde_stat_table t = { .sz = sizeof(t) };
	double t0, t1;
	int ret = 1, nr_aggr;

	if (!list)
		return 1;
	for (int i = 0; i < NR; i++) {
		struct sonde_perf_event_attr a = {
			.type = SONDE_PERF_TYPE_SOFTWARE, .config = evs[i].config,
			.disabled = 1, .exclude_kernel = 1, .exclude_hv = 1,
		};

		sonde_evlist__add(list, &a, evs[i].name, -1);
		events[i] = (struct sonde_stat_event){
			.name = evs[i].name, .kind = evs[i].kind,
			.unit = i == 0 ? "msec" : "", .scale = i == 0 ? 1e-6 : 0,
		};
	}
	if (sonde_evlist__open(list, NULL)) {
		printf("cannot count here: %s\n",
		       sonde_evsel__open_error(sonde_evlist__evsel(list, 0)));
		sonde_evlist__free(list);
		return 77;
	}
	rd = sonde_stat_reader__new(list, SONDE_STAT_AGGR_GLOBAL, NR);
	if (!rd)
		goto out;
	nr_aggr = sonde_stat_reader__nr_aggr(rd);
	cells = calloc((size_t)(nr_aggr * NR), sizeof(*cells));
	if (!cells)
		goto out;

	t0 = now_ns();
	sonde_evlist__enable(list);
	for (unsigned long i = 0; i < 20000000; i++)
		sink += i;
	{
		char *p = malloc(1 << 22);

		for (size_t i = 0; p && i < 1 << 22; i += 4096)
			p[i] = 1; /* a page fault per page */
		free(p);
	}
	sonde_evlist__disable(list);
	t1 = now_ns();

	if (sonde_stat_reader__read(rd, list, 0, cells))
		goto out;
	t.mode = sonde_stat_reader__mode(rd);
	t.nr_events = NR;
	t.events = events;
	t.nr_aggr = nr_aggr;
	t.aggr = sonde_stat_reader__aggr(rd);
	t.counts = cells;
	t.wall_ns = t1 - t0;
	for (int e = 0; e < NR; e++) {
		const struct sonde_stat_count *c = sonde_stat_table__cell(&t, 0, e);
		struct sonde_stat_metric m[2];
		char val[32];
		int n = sonde_stat_table__metrics(&t, 0, e, m);

		if (n < 1)
			goto out;
		if (c->status != SONDE_STAT_OK) {
			printf("%18s      %s\n", "<not counted>", events[e].name);
			continue;
		}
		sonde_stat_metric__format(&m[0], val, sizeof(val));
		printf("%18.*f %-5s %-18s # %s %s\n", events[e].scale ? 2 : 0,
		       c->val * (events[e].scale ? events[e].scale : 1),
		       events[e].unit, events[e].name, val,
		       m[0].unit ? m[0].unit : "");
	}
	ret = 0;
out:
	if (ret)
		perror("stat_table");
	free(cells);
	sonde_stat_reader__free(rd);
	sonde_evlist__free(list);
	return ret;
}
