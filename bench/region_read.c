// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The cost of reading a group of 4 software events through the region API
 * (sonde_region__begin: one group read) against the bare read(2) of the
 * same kind of group on its leader: alternating blocks, medians, ratio
 * (target <= 1.1x).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sonde/sonde.h>

#define EVENTS 4
#define BLOCK 20000

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The peer: the same 4 events as one group, opened raw. */
static int open_group(void)
{
	static const uint64_t cfg[EVENTS] = {
		SONDE_PERF_COUNT_SW_TASK_CLOCK, SONDE_PERF_COUNT_SW_PAGE_FAULTS,
		SONDE_PERF_COUNT_SW_CONTEXT_SWITCHES,
		SONDE_PERF_COUNT_SW_CPU_MIGRATIONS,
	};
	int leader = -1;

	for (int i = 0; i < EVENTS; i++) {
		struct sonde_perf_event_attr a;
		int fd;

		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = SONDE_PERF_TYPE_SOFTWARE;
		a.config = cfg[i];
		a.read_format = SONDE_PERF_FORMAT_GROUP |
				SONDE_PERF_FORMAT_TOTAL_TIME_ENABLED |
				SONDE_PERF_FORMAT_TOTAL_TIME_RUNNING |
				SONDE_PERF_FORMAT_ID;
		fd = sonde_perf_event_open(&a, 0, -1, leader, 0);
		if (fd < 0)
			return -1;
		if (leader < 0)
			leader = fd;
	}
	return leader;
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 15;
	double *api = calloc((size_t)reps, sizeof(double));
	double *bare = calloc((size_t)reps, sizeof(double));
	uint64_t buf[3 + 2 * EVENTS];
	struct sonde_region *r;
	int leader;

	r = sonde_region__new("task-clock,page-faults,context-switches,"
			      "cpu-migrations", NULL);
	leader = open_group();
	if (!r || leader < 0 || !api || !bare) {
		printf("SKIP: cannot open software events here\n");
		return 0;
	}
	/* Alternate which goes first, so neither gains from the order. */
	for (int k = 0; k < reps; k++) {
		for (int half = 0; half < 2; half++) {
			bool use_api = (k + half) % 2 == 0;
			double t = now_ns();

			for (int i = 0; i < BLOCK; i++) {
				if (use_api ? sonde_region__begin(r) != 0 :
					      read(leader, buf, sizeof(buf)) <= 0)
					return 1;
			}
			t = (now_ns() - t) / BLOCK;
			if (use_api)
				api[k] = t;
			else
				bare[k] = t;
		}
	}
	qsort(api, (size_t)reps, sizeof(double), cmp);
	qsort(bare, (size_t)reps, sizeof(double), cmp);
	printf("group read of %d software events (%d blocks of %d): "
	       "API median %.0f ns, bare read(2) median %.0f ns\n",
	       EVENTS, reps, BLOCK, api[reps / 2], bare[reps / 2]);
	printf("ratio API/bare: %.2fx (target <= 1.1x)\n",
	       api[reps / 2] / bare[reps / 2]);
	sonde_region__free(r);
	free(api);
	free(bare);
	return 0;
}
