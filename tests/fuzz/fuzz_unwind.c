// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Fuzzes the DWARF unwinder with hostile samples: registers and a stack
 * copy taken from the input, unwound through this process's own modules
 * (a perf.data file is untrusted input). Also the callchain walker.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include "sonde/sonde.h"
#include "sonde/unwind.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct sonde_unwinder *uw;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t regs[24], ips[64], k[16], u[16], ip;
	struct sonde_unwind_sample s = { 0 };
	struct sonde_callchain_iter it;
	size_t nk, nu;
	int ctx;

	sonde_set_print(NULL);
	if (!uw) {
		uw = sonde_unwinder__new(getpid(), NULL);
		sonde_unwinder__add_proc_maps(uw, getpid());
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
	s.stack = data + 8 + sizeof(regs);
	s.stack_size = size - 8 - sizeof(regs);
	s.tid = 1;
	sonde_unwinder__unwind(uw, &s, ips, 64);

	sonde_callchain_iter__init(&it, (const uint64_t *)(const void *)data,
				   size / 8);
	while (sonde_callchain_iter__next(&it, &ip, &ctx))
		;
	sonde_callchain__split((const uint64_t *)(const void *)data, size / 8,
			       k, 16, &nk, u, 16, &nu);
	return 0;
}
