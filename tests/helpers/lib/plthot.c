// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Library half of plt_workload: its calls to labs() go through its own
 * PLT. Built without crt files (no _init before .plt to overlap the stubs).
 */
#include <stdlib.h>

long plt_hot(long n);

long plt_hot(long n)
{
	long s = 0;

	for (long i = 0; i < n; i++)
		s += labs(i - n / 2);
	return s;
}
