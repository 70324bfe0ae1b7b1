// SPDX-License-Identifier: LGPL-2.1-only
/*
 * A watchpoint that raises SIGTRAP in the thread that wrote: a hardware
 * breakpoint event (write access to one variable) opened with attr.sigtrap
 * (Linux 5.13+; it needs remove_on_exec) and attr.sig_data, whose value
 * the handler gets back in the siginfo (si_perf_data), with the address
 * written and the event type. Exits 77 with the reason when the kernel
 * cannot give that: no breakpoint slots, no sigtrap, or breakpoints that
 * open but never fire (as on some virtual machines).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sonde/sonde.h>

#define WRITES 5
#define COOKIE 0xc0ffeeULL

static volatile long watched;
static volatile sig_atomic_t traps, wrong;

static void on_trap(int sig, siginfo_t *si, void *uc)
{
	struct sonde_overflow_info in;

	(void)sig; (void)uc;
	if (sonde_overflow_info__decode(si, &in) == 1 && in.sigtrap &&
	    in.sig_data == COOKIE && in.addr == (uintptr_t)&watched &&
	    (in.perf_type == SONDE_PERF_TYPE_BREAKPOINT || in.perf_type == 0))
		traps++;
	else
		wrong++;
}

int main(void)
{
	struct sonde_perf_event_attr attr = {
		.size = sizeof(attr),
		.type = SONDE_PERF_TYPE_BREAKPOINT,
		.bp_type = SONDE_HW_BREAKPOINT_W,
		.bp_addr = (uintptr_t)&watched,
		.bp_len = SONDE_HW_BREAKPOINT_LEN_8,
		.sample_period = 1,
		.sample_type = SONDE_PERF_SAMPLE_ADDR,
		.exclude_kernel = 1,
		.exclude_hv = 1,
		.sigtrap = 1,
		.remove_on_exec = 1,
		.sig_data = COOKIE,
	};
	struct sigaction sa = { .sa_sigaction = on_trap, .sa_flags = SA_SIGINFO };
	uint64_t count = 0;
	int fd;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGTRAP, &sa, NULL);
	fd = sonde_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0) {
		char why[512];

		sonde_open_error_describe(fd, &attr, 0, -1, why, sizeof(why));
		printf("sigtrap_breakpoint: a write watchpoint with sigtrap does "
		       "not open here: %s\n", why);
		return 77;
	}
	for (int i = 0; i < WRITES; i++)
		watched = i;
	if (read(fd, &count, sizeof(count)) != sizeof(count))
		count = 0;
	close(fd);

	if (!traps && !wrong && !count) {
		printf("sigtrap_breakpoint: the breakpoint opened but never "
		       "fired (%d writes, count 0): this host does not deliver "
		       "debug-register hits (common in VMs)\n", WRITES);
		return 77;
	}
	printf("sigtrap_breakpoint: %d writes, %d SIGTRAPs with sig_data "
	       "%#llx at %p, count %llu, %d wrong\n", WRITES, (int)traps,
	       COOKIE, (void *)&watched, (unsigned long long)count, (int)wrong);
	return traps == WRITES && !wrong ? 0 : 1;
}
