// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Workload for the report/script agreement tests: a known call tree
 *   main -> work -> outer_a -> inner_a -> leaf_spin
 *                -> outer_b -> leaf_spin
 * run in one thread ("single"), in two extra threads ("threads"), or in a
 * forked child that execs this program again ("fork"). noipa functions,
 * volatile stack slots in leaves and an empty asm after each call keep the
 * frames at -O2.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "workload.h"

#define KEEP() __asm__ volatile("" ::: "memory")

static double ms_arg = 150;

NOIPA static uint64_t leaf_spin(unsigned n)
{
	volatile uint64_t slot = n;

	for (unsigned i = 0; i < 20000; i++)
		slot = slot * 6364136223846793005ULL + 1442695040888963407ULL;
	return slot;
}

NOIPA static uint64_t inner_a(unsigned n)
{
	uint64_t r = leaf_spin(n);

	KEEP();
	return r + 1;
}

NOIPA static uint64_t outer_a(unsigned n)
{
	uint64_t r = inner_a(n);

	KEEP();
	r += inner_a(n + 1);
	KEEP();
	return r;
}

NOIPA static uint64_t outer_b(unsigned n)
{
	uint64_t r = leaf_spin(n);

	KEEP();
	return r;
}

NOIPA static uint64_t work(double ms)
{
	double end = now_ms() + ms;
	uint64_t acc = 0;
	unsigned n = 0;

	while (now_ms() < end) {
		acc += outer_a(n++);
		KEEP();
		acc += outer_b(n++);
		KEEP();
	}
	return acc;
}

static void *thread_main(void *arg)
{
	(void)arg;
	return (void *)(uintptr_t)work(ms_arg);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "single";
	uint64_t r = 0;

	if (argc > 2)
		ms_arg = atof(argv[2]);
	if (!strcmp(mode, "threads")) {
		pthread_t t[2];

		for (int i = 0; i < 2; i++)
			pthread_create(&t[i], NULL, thread_main, NULL);
		r = work(ms_arg / 2);
		for (int i = 0; i < 2; i++)
			pthread_join(t[i], NULL);
	} else if (!strcmp(mode, "fork")) {
		pid_t pid = fork();
		char ms[32];

		snprintf(ms, sizeof(ms), "%g", ms_arg);
		if (pid == 0) {
			execl("/proc/self/exe", argv[0], "single", ms, (char *)NULL);
			_exit(127);
		}
		r = work(ms_arg / 2);
		waitpid(pid, NULL, 0);
	} else {
		r = work(ms_arg);
	}
	printf("%llu\n", (unsigned long long)(r & 1));
	return 0;
}
