/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * What the test workloads share: a monotonic clock in milliseconds for
 * their timed loops, and NOIPA, which keeps gcc -O2 from inlining or
 * cloning the functions whose frames the tests look for.
 */
#ifndef SONDE_TEST_WORKLOAD_H
#define SONDE_TEST_WORKLOAD_H

#include <time.h>

#define NOIPA __attribute__((noipa, noinline))

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

#endif /* SONDE_TEST_WORKLOAD_H */
