// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Spends time in PLT stubs: plt_hot() (build/helpers/libplthot.so) calls
 * labs() through its .plt in a loop. Run with LD_BIND_NOT=1 so that every
 * call takes the lazy-binding path through the stub (else the stub is one
 * jump that samples almost never hit).
 * Usage: plt_workload [ITERATIONS]
 */
#include <stdio.h>
#include <stdlib.h>

long plt_hot(long n);

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000;

	printf("%ld\n", plt_hot(n));
	return 0;
}
