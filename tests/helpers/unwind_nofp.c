// SPDX-License-Identifier: LGPL-2.1-only
/*
 * DWARF unwinder test subject, built WITHOUT frame pointers (see the
 * Makefile rule), so only .eh_frame can unwind it. Call tree:
 * main -> uw_outer -> uw_middle -> uw_inner (spins). Prints "ready" once
 * running, then spins for argv[1] ms (default 2000).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "workload.h"

volatile unsigned long uw_sink;

__attribute__((noinline)) void uw_inner(double end)
{
	/* Locals live on the stack so the CFA moves. */
	volatile unsigned long scratch[8] = { 0 };

	while (now_ms() < end)
		for (int i = 0; i < 100000; i++)
			scratch[i & 7] += (unsigned long)i;
	uw_sink += scratch[3];
}

__attribute__((noinline)) void uw_middle(double end)
{
	volatile int pad[5] = { 1, 2, 3, 4, 5 };

	uw_inner(end);
	uw_sink += (unsigned long)pad[2];	/* not a tail call */
}

__attribute__((noinline)) void uw_outer(double end)
{
	volatile long pad[3] = { 7, 8, 9 };

	uw_middle(end);
	uw_sink += (unsigned long)pad[1];
}

int main(int argc, char **argv)
{
	double ms = argc > 1 ? atof(argv[1]) : 2000;

	printf("ready\n");
	fflush(stdout);
	uw_outer(now_ms() + ms);
	return 0;
}
