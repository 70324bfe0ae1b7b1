// SPDX-License-Identifier: LGPL-2.1-only
/*
 * A uprobe target: probe_calls N [M] calls probe_target() exactly N times
 * (default 1000) and probe_other() once, so a uprobe on either counts a
 * number the test knows; then M close(987654) calls (EBADF), so a
 * syscalls:sys_enter_close filtered on that fd counts exactly M.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

volatile unsigned long probe_sink;

__attribute__((noinline, used)) void probe_target(unsigned long i)
{
	probe_sink += i;
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline, used)) void probe_other(void)
{
	probe_sink++;
	__asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
	long m = argc > 2 ? strtol(argv[2], NULL, 10) : 0;

	for (long i = 0; i < n; i++)
		probe_target((unsigned long)i);
	probe_other();
	for (long i = 0; i < m; i++)
		close(987654);
	return probe_sink == 0 && n > 0;
}
