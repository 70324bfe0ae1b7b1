// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The bundled demo workload for `make demo`: three kinds of work with a
 * known share of CPU time each, under a known call tree, so a profile of it
 * has something to show. Marked noipa with an empty asm after each call so
 * gcc keeps the frames (and the tree) at -O2.
 *
 *   main -> run_demo -> checksum_pass  (~45%)
 *                    -> sort_pass      (~35%, partly in libc qsort)
 *                    -> prime_pass     (~20%)
 *
 *   demo [SCALE [PRIME_FACTOR]]
 *
 * PRIME_FACTOR (default 1) multiplies prime_pass's work, so two runs
 * differ in one function's share on purpose (the diff tests).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noipa, noinline))
#define KEEP_FRAME() __asm__ volatile("" ::: "memory")

static uint32_t data[1 << 14];

NOINLINE static uint32_t mix(uint32_t x)
{
	volatile uint32_t slot = x; /* keeps this leaf's frame */

	slot ^= slot >> 16;
	slot *= 0x7feb352dU;
	slot ^= slot >> 15;
	return slot;
}

NOINLINE static uint64_t checksum_pass(unsigned rounds)
{
	uint64_t sum = 0;

	for (unsigned r = 0; r < rounds; r++)
		for (size_t i = 0; i < sizeof(data) / sizeof(data[0]); i++) {
			sum += mix(data[i] + r);
			KEEP_FRAME();
		}
	return sum;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

NOINLINE static uint64_t sort_pass(unsigned rounds)
{
	static uint32_t copy[sizeof(data) / sizeof(data[0])];
	uint64_t acc = 0;

	for (unsigned r = 0; r < rounds; r++) {
		memcpy(copy, data, sizeof(copy));
		copy[r % (sizeof(copy) / sizeof(copy[0]))] ^= r;
		qsort(copy, sizeof(copy) / sizeof(copy[0]), sizeof(copy[0]), cmp_u32);
		KEEP_FRAME();
		acc += copy[r & 1023];
	}
	return acc;
}

NOINLINE static int is_prime(uint32_t n)
{
	volatile uint32_t slot = n;

	if (slot < 2)
		return 0;
	for (uint32_t d = 2; d * d <= slot; d++)
		if (slot % d == 0)
			return 0;
	return 1;
}

NOINLINE static uint64_t prime_pass(uint32_t limit)
{
	uint64_t count = 0;

	for (uint32_t n = 0; n < limit; n++) {
		count += is_prime(n);
		KEEP_FRAME();
	}
	return count;
}

NOINLINE static uint64_t run_demo(unsigned scale, unsigned prime_factor)
{
	uint64_t r = 0;

	r += checksum_pass(700 * scale);
	KEEP_FRAME();
	r += sort_pass(24 * scale);
	KEEP_FRAME();
	r += prime_pass(60000 * scale * prime_factor);
	KEEP_FRAME();
	return r;
}

int main(int argc, char **argv)
{
	unsigned scale = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 10;
	unsigned prime_factor = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 0) : 1;

	for (size_t i = 0; i < sizeof(data) / sizeof(data[0]); i++)
		data[i] = mix((uint32_t)i);
	printf("demo result %llu\n", (unsigned long long)run_demo(scale ? scale : 1, prime_factor ? prime_factor : 1));
	return 0;
}
