// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Fuzzes the DWARF unwinder with hostile samples: registers and a stack
 * copy taken from the input, unwound through this process's own modules
 * (a perf.data file is untrusted input). Also the callchain walker.
 * Differential: the CFI fast path must give what libdwfl alone gives, so
 * every input is unwound both ways and any difference aborts. Stack words
 * tagged 0xaa in their top byte become addresses in real code, so that
 * walks go through several frames of real CFI.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sonde/sonde.h"
#include "sonde/unwind.h"
#include "unwind_priv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct sonde_unwinder *uw, *slow;
static uint64_t stack[65536 / 8];

static uint64_t anchor(uint64_t w)
{
	static const void *const code[] = {
		(const void *)LLVMFuzzerTestOneInput,
		(const void *)sonde_unwinder__unwind, (const void *)memcpy,
		(const void *)qsort,
	};

	return (uint64_t)(uintptr_t)code[w & 3] + ((w >> 8) & 0x3ff);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t regs[24], ips[64], ips2[64], k[16], u[16], ip;
	struct sonde_unwind_sample s = { 0 };
	struct sonde_callchain_iter it;
	size_t nk, nu;
	int ctx;

	sonde_set_print(NULL);
	if (!uw) {
		uw = sonde_unwinder__new(getpid(), NULL);
		sonde_unwinder__add_proc_maps(uw, getpid());
		slow = sonde_unwinder__new(getpid(), NULL);
		sonde_unwinder__add_proc_maps(slow, getpid());
		unwinder_set_mode(slow, UW_MODE_SLOW);
	}
	if (size < 8 + sizeof(regs))
		return 0;
	memcpy(&s.regs_mask, data, 8);
	memcpy(regs, data + 8, sizeof(regs));
	/* Point IP into real code now and then so CFI gets exercised. */
	if (data[0] & 1)
		regs[8] = (uint64_t)(uintptr_t)LLVMFuzzerTestOneInput +
			  (data[1] & 0x3f);
	s.abi = SONDE_PERF_SAMPLE_REGS_ABI_64;
	s.regs = regs;
	s.nr_regs = (uint32_t)__builtin_popcountll(s.regs_mask);
	if (s.nr_regs > 24)
		s.nr_regs = 24;
	s.stack_size = size - 8 - sizeof(regs);
	if (s.stack_size > sizeof(stack))
		s.stack_size = sizeof(stack);
	memcpy(stack, data + 8 + sizeof(regs), s.stack_size);
	for (size_t i = 0; i < s.stack_size / 8; i++)
		if (stack[i] >> 56 == 0xaa)
			stack[i] = anchor(stack[i]);
	s.stack = stack;
	s.tid = 1;
	{
		int n = sonde_unwinder__unwind(uw, &s, ips, 64);
		int n2 = sonde_unwinder__unwind(slow, &s, ips2, 64);

		if (n != n2 || (n > 0 && memcmp(ips, ips2, (size_t)n * 8)))
			abort();
	}

	sonde_callchain_iter__init(&it, (const uint64_t *)(const void *)data,
				   size / 8);
	while (sonde_callchain_iter__next(&it, &ip, &ctx))
		;
	sonde_callchain__split((const uint64_t *)(const void *)data, size / 8,
			       k, 16, &nk, u, 16, &nu);
	return 0;
}
