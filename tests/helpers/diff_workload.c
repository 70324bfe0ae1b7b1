// SPDX-License-Identifier: LGPL-2.1-only
/*
 * A workload whose profile changes on purpose, for sonde diff:
 *   diff_workload PERCENT [milliseconds]
 * spends about PERCENT of its CPU time in shifted() and the rest in
 * steady() (default 400 ms of CPU), in slices of 1 ms so both show over
 * the whole run.
 *
 * The slices are counts of loop iterations, measured once per function
 * against the thread's CPU clock: what cpu-clock and task-clock sample. A
 * loaded host then changes how long the run takes, not its profile (with
 * wall-clock slices, time lost to preemption moved the shares, and the
 * total, between two recordings, and test_diff's ratios with them).
 */
#include <stdlib.h>
#include <time.h>
#include "workload.h"

static volatile unsigned long sink;

static double cpu_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

NOIPA void shifted(long n)
{
	volatile unsigned long slot = 0;

	for (long i = 0; i < n; i++)
		slot += (unsigned long)i * 3 + (slot >> 2);
	sink += slot;
}

NOIPA void steady(long n)
{
	volatile unsigned long slot = 1;

	for (long i = 0; i < n; i++)
		slot ^= slot * 5 + (unsigned long)i;
	sink += slot;
}

/* Iterations of @fn per millisecond of CPU, over 5 ms of it. */
static double per_ms(void (*fn)(long))
{
	double t0 = cpu_ms(), t;
	long n = 0;

	do {
		fn(10000);
		n += 10000;
	} while ((t = cpu_ms()) - t0 < 5);
	return n / (t - t0);
}

int main(int argc, char **argv)
{
	double pct = argc > 1 ? atof(argv[1]) : 50, ms = argc > 2 ? atof(argv[2]) : 400;
	double rs, rt;

	if (pct < 0 || pct > 100)
		return 2;
	rs = per_ms(shifted);
	rt = per_ms(steady);
	for (long slice = 0; slice < (long)ms; slice++) {
		shifted((long)(rs * pct / 100.0));
		steady((long)(rt * (100.0 - pct) / 100.0));
		__asm__ volatile("");
	}
	return 0;
}
