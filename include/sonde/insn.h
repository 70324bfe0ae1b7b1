/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * x86 instruction lengths: where each instruction of a run of code bytes
 * starts and ends, with no disassembly. This is what perf's script -F
 * brstackinsn walks code with (the kernel's instruction decoder, which
 * perf 6.1 builds in): sonde_x86_insn__decode() follows that decoder's
 * rules, including where they differ from the CPU's (an opcode the
 * decoder's map has no operands for decodes without them), so that a walk
 * over code splits it where perf's does.
 *
 * Pure functions of the bytes given: thread-safe, no allocation, and safe
 * on any input (no read past @len).
 */
#ifndef SONDE_INSN_H
#define SONDE_INSN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sonde/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The longest x86 instruction, in bytes. */
#define SONDE_X86_MAX_INSN 15

/* One decoded instruction (sonde_x86_insn__decode()). */
struct sonde_x86_insn {
	uint8_t length;	   /* bytes, prefixes to immediates: 1..15 */
	uint8_t nr_prefixes; /* legacy prefix bytes (0x66, 0xf3, 0x2e, ...) */
	uint8_t rex;	   /* the REX prefix (64-bit mode), 0 if none */
	uint8_t vex;	   /* bytes of a VEX (2, 3) or EVEX (4) prefix, 0 if none */
	uint8_t nr_opcode; /* opcode bytes: 1, 2 (0x0f xx) or 3 (0x0f 0x38/0x3a xx) */
	uint8_t opcode[3];
	bool has_modrm;
	uint8_t modrm;
	/*
	 * A jump, call, return, interrupt or system call: what perf's
	 * arch_is_branch() calls a branch (never a VEX-encoded one).
	 */
	bool branch;
	/* Room for fields to come; the decoder zeroes it. */
	uint8_t reserved[5];
};

/**
 * @brief **sonde_x86_insn__decode()** decodes the instruction at the start
 * of @p buf, @p len bytes of which may be read (at most 15 are), in 64-bit
 * (@p is64) or 32-bit mode, into @p out.
 * @return 0; -ENODATA when the instruction does not end within @p len
 * bytes (or 15); -EINVAL for bytes the decoder rejects (a VEX or EVEX
 * form of an opcode that has none, a VEX-only opcode without VEX, a
 * far pointer operand with REX.W, NULL arguments). @p out is zeroed on
 * failure.
 */
SONDE_API int sonde_x86_insn__decode(const void *buf, size_t len, bool is64,
				     struct sonde_x86_insn *out);

#ifdef __cplusplus
}
#endif
#endif /* SONDE_INSN_H */
