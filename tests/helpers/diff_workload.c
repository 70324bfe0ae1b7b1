// SPDX-License-Identifier: LGPL-2.1-only
/*
 * A workload whose profile changes on purpose, for sonde diff:
 *   diff_workload PERCENT [milliseconds]
 * spends about PERCENT of its time in shifted() and the rest in steady()
 * (default 400 ms), in slices of 1 ms so both show over the whole run.
 */
#include <stdlib.h>
#include <time.h>
#include "workload.h"

static volatile unsigned long sink;

/* Spins until @until (ms). */
NOIPA void shifted(double until)
{
	volatile unsigned long slot = 0;

	while (now_ms() < until)
		for (int i = 0; i < 1000; i++)
			slot += i * 3 + (slot >> 2);
	sink += slot;
}

NOIPA void steady(double until)
{
	volatile unsigned long slot = 1;

	while (now_ms() < until)
		for (int i = 0; i < 1000; i++)
			slot ^= slot * 5 + i;
	sink += slot;
}

int main(int argc, char **argv)
{
	double pct = argc > 1 ? atof(argv[1]) : 50, ms = argc > 2 ? atof(argv[2]) : 400;
	double end = now_ms() + ms;

	if (pct < 0 || pct > 100)
		return 2;
	while (now_ms() < end) {
		double t = now_ms();

		shifted(t + pct / 100.0);
		steady(t + 1.0);
		asm volatile("");
	}
	return 0;
}
