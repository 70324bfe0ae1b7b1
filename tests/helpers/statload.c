// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Deterministic workloads for the stat tests, one per first argument:
 *   pages N [SLEEP_MS]  touch N fresh pages (N page faults), then sleep
 *   sleeps K            sleep 1 ms K times (about K context switches)
 *   spin MS             burn the CPU for MS milliseconds
 *   echo                copy stdin to stdout
 *   exit N              exit with status N
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "workload.h"

static void sleep_ms(long ms)
{
	struct timespec d = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&d, NULL);
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";
	long n = argc > 2 ? atol(argv[2]) : 0;

	if (!strcmp(what, "pages")) {
		long page = sysconf(_SC_PAGESIZE);
		char *m = mmap(NULL, (size_t)(n * page), PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (m == MAP_FAILED)
			return 1;
		/* One fault per page: no huge pages, no fault-around. */
		madvise(m, (size_t)(n * page), MADV_NOHUGEPAGE);
		for (long i = 0; i < n; i++)
			m[i * page] = 1;
		if (argc > 3)
			sleep_ms(atol(argv[3]));
		return 0;
	}
	if (!strcmp(what, "sleeps")) {
		for (long i = 0; i < n; i++)
			sleep_ms(1);
		return 0;
	}
	if (!strcmp(what, "spin")) {
		double end = now_ms() + (double)n;
		volatile unsigned long x = 0;

		while (now_ms() < end)
			x++;
		return 0;
	}
	if (!strcmp(what, "echo")) {
		int c;

		while ((c = getchar()) != EOF)
			putchar(c);
		return 0;
	}
	if (!strcmp(what, "exit"))
		return (int)n;
	fprintf(stderr, "usage: statload pages N [MS] | sleeps K | spin MS | "
		"echo | exit N\n");
	return 2;
}
