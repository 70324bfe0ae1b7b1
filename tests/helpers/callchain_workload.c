// SPDX-License-Identifier: LGPL-2.1-only
/*
 * A workload with a known call tree for sampling tests:
 *   main -> run_a -> run_b -> leaf_burn   (about 3/4 of the time)
 *   main -> run_a -> leaf_spin            (about 1/4)
 * noipa keeps gcc -O2 from inlining or cloning, the volatile stack slot
 * keeps each leaf's frame, and the empty asm after each call stops tail
 * calls, so frame-pointer and DWARF unwinding both see every level.
 * Usage: callchain_workload [milliseconds] [threads]   (default 500, 1)
 *        callchain_workload -n ITERATIONS [threads]: fixed work, prints
 *        "elapsed_ms N" on stderr (for overhead benchmarks)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "workload.h"

static volatile unsigned long sink;

NOIPA void leaf_burn(unsigned n)
{
	volatile unsigned long slot = 0;

	for (unsigned i = 0; i < n; i++)
		slot += i * 7 + (slot >> 3);
	sink += slot;
}

NOIPA void leaf_spin(unsigned n)
{
	volatile unsigned long slot = 1;

	for (unsigned i = 0; i < n; i++)
		slot ^= slot * 13 + i;
	sink += slot;
}

NOIPA void run_b(unsigned n)
{
	leaf_burn(n);
	asm volatile("");
}

NOIPA void run_a(unsigned n)
{
	run_b(n * 3);
	asm volatile("");
	leaf_spin(n);
	asm volatile("");
}

static long ms = 500;
static long iterations; /* fixed work instead of fixed time when > 0 */

static void *thread_main(void *arg)
{
	double end = now_ms() + (double)ms;

	(void)arg;
	if (iterations) {
		for (long i = 0; i < iterations; i++) {
			run_a(20000);
			asm volatile("");
		}
		return NULL;
	}
	while (now_ms() < end) {
		run_a(20000);
		asm volatile("");
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = 1;
	pthread_t tid[16];
	double t0;

	if (argc > 2 && !strcmp(argv[1], "-n")) {
		iterations = atol(argv[2]);
		argv++;
		argc--;
	} else if (argc > 1) {
		ms = atol(argv[1]);
	}
	if (argc > 2)
		threads = atoi(argv[2]);
	t0 = now_ms();
	if (threads < 1 || threads > 16)
		threads = 1;
	for (int i = 1; i < threads; i++)
		pthread_create(&tid[i], NULL, thread_main, NULL);
	thread_main(NULL);
	asm volatile("");
	for (int i = 1; i < threads; i++)
		pthread_join(tid[i], NULL);
	if (iterations)
		fprintf(stderr, "elapsed_ms %.3f\n", now_ms() - t0);
	return 0;
}
