// SPDX-License-Identifier: LGPL-2.1-only
/*
 * x86 length decoder (sonde/insn.h) on untrusted code bytes, as script -F
 * brstackinsn feeds it from object files: every offset of the input, in
 * both modes, decodes or fails with a known error, never reads past what
 * it is given, claims between 1 and 15 bytes within them, and gives the
 * same answer when more bytes follow (an instruction's end never depends
 * on the bytes after it).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/insn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	for (size_t off = 0; off < size && off < 4096; off++) {
		size_t left = size - off;

		for (int mode = 0; mode < 2; mode++) {
			struct sonde_x86_insn a, b;
			/* An exact copy: ASan catches a read past @left. */
			uint8_t *copy = malloc(left ? left : 1);
			int r, r2;

			if (!copy)
				return 0;
			memcpy(copy, data + off, left);
			r = sonde_x86_insn__decode(copy, left, mode, &a);
			if (r != 0 && r != -ENODATA && r != -EINVAL)
				abort();
			if (!r && (a.length < 1 || a.length > SONDE_X86_MAX_INSN || a.length > left))
				abort();
			if (!r && (a.nr_opcode < 1 || a.nr_opcode > 3))
				abort();
			if (r && a.length)
				abort(); /* zeroed on failure */
			/* The same instruction given only its own bytes. */
			if (!r) {
				r2 = sonde_x86_insn__decode(copy, a.length, mode, &b);
				if (r2 || b.length != a.length || b.branch != a.branch)
					abort();
			}
			free(copy);
		}
	}
	return 0;
}
