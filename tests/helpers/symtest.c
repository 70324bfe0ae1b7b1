// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Symbolizer test subject: global, static and weak-alias functions and a
 * zero-sized assembler label. Built PIE (symtest) and non-PIE
 * (symtest_nopie). Run, it spins through its functions for argv[1] ms.
 */
#include <stdlib.h>
#include <time.h>
#include "workload.h"

volatile unsigned long symtest_sink;

__attribute__((noinline)) static void symtest_static_leaf(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		symtest_sink += i * 3;
}

__attribute__((noinline)) void symtest_global_mid(unsigned long n)
{
	symtest_static_leaf(n);
	symtest_sink ^= n;
}

__attribute__((noinline)) void symtest_strong(unsigned long n)
{
	symtest_global_mid(n);
}

/* Same address, weaker binding: the table must prefer symtest_strong. */
void symtest_weak_alias(unsigned long n)
	__attribute__((weak, alias("symtest_strong")));

/* A label with no size: the symbolizer synthesizes one. */
__asm__(".text\n"
	".globl symtest_nosize\n"
	".type symtest_nosize, @function\n"
	"symtest_nosize:\n"
	"\tnop\n\tnop\n\tnop\n\tnop\n\tret\n");

int main(int argc, char **argv)
{
	double end = now_ms() + (argc > 1 ? atof(argv[1]) : 0);

	do
		symtest_weak_alias(10000);
	while (now_ms() < end);
	return 0;
}
