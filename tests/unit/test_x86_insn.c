// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde_x86_insn__decode(): lengths of x86 instructions by the rules of
 * the kernel's decoder that perf 6.1 walks code with. The 64-bit cases
 * were checked against perf script -F brstackinsn (tests/cli/test_branch.sh
 * compares whole walks); they cover each part of an instruction
 * (prefixes, REX, VEX/EVEX, opcode maps, ModRM, SIB, displacement,
 * immediates), the decoder's own rules where they differ from the CPU's,
 * its failures, and perf's idea of a branch.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "sonde/insn.h"

struct vec {
	const char *what;
	bool is64;
	uint8_t n;	/* bytes given */
	uint8_t b[16];
	int want;	/* the length, or -errno */
	bool branch;
};

#define X64(what, want, br, ...) { what, true, sizeof((uint8_t[]){ __VA_ARGS__ }), { __VA_ARGS__ }, want, br }
#define X32(what, want, br, ...) { what, false, sizeof((uint8_t[]){ __VA_ARGS__ }), { __VA_ARGS__ }, want, br }

static const struct vec vecs[] = {
	/* one-byte opcodes, ModRM, SIB, displacements */
	X64("push %rbp", 1, false, 0x55),
	X64("mov %rsp,%rbp", 3, false, 0x48, 0x89, 0xe5),
	X64("sub $0x20,%rsp", 4, false, 0x48, 0x83, 0xec, 0x20),
	X64("mov 0x8(%r12),%rdi (SIB, disp8)", 5, false, 0x49, 0x8b, 0x7c, 0x24, 0x08),
	X64("lea 0x0(,%rax,4),%rdx (SIB base 5: disp32)", 8, false, 0x48, 0x8d, 0x14, 0x85, 0, 0, 0, 0),
	X64("mov 0x1234(%rip),%eax", 6, false, 0x8b, 0x05, 0x34, 0x12, 0, 0),
	X64("mov %eax,0x10000(%rbx) (disp32)", 6, false, 0x89, 0x83, 0, 0, 1, 0),
	X64("movabs $imm64,%rax (REX.W Iv)", 10, false, 0x48, 0xb8, 1, 2, 3, 4, 5, 6, 7, 8),
	X64("mov $imm32,%eax", 5, false, 0xb8, 1, 2, 3, 4),
	X64("mov $imm16,%ax (66 Iv)", 4, false, 0x66, 0xb8, 1, 2),
	X64("movabs 0x..,%al (moffset 8)", 9, false, 0xa0, 1, 2, 3, 4, 5, 6, 7, 8),
	X64("addr32 mov 0x..,%al (moffset 4)", 6, false, 0x67, 0xa0, 1, 2, 3, 4),
	X64("testb $1,(%rax) (group 3 /0: imm8)", 3, false, 0xf6, 0x00, 0x01),
	X64("notb (%rax) (group 3 /2: none)", 2, false, 0xf6, 0x10),
	X64("testl $imm32,(%rax) (group 3 /1)", 6, false, 0xf7, 0x08, 1, 2, 3, 4),
	X64("movw $imm16,(%rax) (66, group 11 Iz)", 5, false, 0x66, 0xc7, 0x00, 1, 2),
	X64("enter $16,$0 (Iw + Ib)", 4, false, 0xc8, 0x10, 0x00, 0x00),
	X64("fldl (%rax) (x87)", 2, false, 0xdd, 0x00),
	/* prefixes */
	X64("nopw %cs:0x0(%rax,%rax,1)", 10, false, 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0, 0, 0, 0),
	X64("66 66 66 repeated prefixes count again", 4, false, 0x66, 0x66, 0x66, 0x90, 0x90),
	X64("a fifth distinct prefix is the opcode", 5, false, 0x26, 0x2e, 0x36, 0x3e, 0x64, 0x90),
	X64("REX then REX: the second is the opcode", 2, false, 0x48, 0x48, 0x90),
	X64("f3 0f b8: popcnt (ModRM)", 5, false, 0xf3, 0x48, 0x0f, 0xb8, 0xc0),
	X64("0f b8 without f3: jmpe, no operands", 2, false, 0x0f, 0xb8, 0xc0),
	X64("66 prefix to a jump: still rel32 (f64)", 6, true, 0x66, 0xe9, 1, 2, 3, 4),
	/* escapes and variants */
	X64("movsd (%rax),%xmm0 (f2 0f 10)", 4, false, 0xf2, 0x0f, 0x10, 0x00),
	X64("cvtsi2sd %rax,%xmm0 (f2 REX 0f 2a)", 5, false, 0xf2, 0x48, 0x0f, 0x2a, 0xc0),
	X64("66 0f 52: no such variant, no operands", 3, false, 0x66, 0x0f, 0x52, 0xc0),
	X64("0f ff (ud0): no operands in the map", 2, false, 0x0f, 0xff, 0xc0),
	X64("psrlw $5,%xmm0 (66 0f 71 /2 Ib)", 5, false, 0x66, 0x0f, 0x71, 0xd0, 0x05),
	X64("f3 0f 71 /2: no such variant, no Ib", 4, false, 0xf3, 0x0f, 0x71, 0xd0, 0x05),
	X64("pshufb %xmm1,%xmm0 (66 0f 38 00)", 5, false, 0x66, 0x0f, 0x38, 0x00, 0xc1),
	X64("roundsd $4,(%rax),%xmm0 (66 0f 3a 0b Ib)", 6, false, 0x66, 0x0f, 0x3a, 0x0b, 0x00, 0x04),
	X64("0f 38 0c without VEX: no operands", 3, false, 0x0f, 0x38, 0x0c, 0xc0),
	X64("andn without VEX: refused", -EINVAL, false, 0x0f, 0x38, 0xf2, 0xc0),
	X64("endbr64 (f3 0f 1e fa)", 4, false, 0xf3, 0x0f, 0x1e, 0xfa),
	/* VEX and EVEX */
	X64("vmovdqu (%rsi),%ymm0 (VEX2)", 4, false, 0xc5, 0xfe, 0x6f, 0x06),
	X64("vpxor %ymm0,%ymm0,%ymm0 (VEX2 66)", 4, false, 0xc5, 0xfd, 0xef, 0xc0),
	X64("vpshufb %ymm1,%ymm2,%ymm3 (VEX3 map 2)", 5, false, 0xc4, 0xe2, 0x6d, 0x00, 0xd9),
	X64("vpalignr $8 (VEX3 map 3 Ib)", 6, false, 0xc4, 0xe3, 0x6d, 0x0f, 0xd9, 0x08),
	X64("andn %rax,%rbx,%rcx (VEX3 map 2)", 5, false, 0xc4, 0xe2, 0xe0, 0xf2, 0xc8),
	X64("vzeroupper", 3, false, 0xc5, 0xf8, 0x77),
	X64("vpsrlw $5 (VEX 66 0f 71 /2)", 5, false, 0xc5, 0xf9, 0x71, 0xd0, 0x05),
	X64("VEX 0f 71 /2 without 66: refused", -EINVAL, false, 0xc5, 0xf8, 0x71, 0xd0, 0x05),
	X64("vmovdqu64 (%rsi),%zmm0 (EVEX)", 6, false, 0x62, 0xf1, 0xfe, 0x48, 0x6f, 0x06),
	X64("vmovdqu8 needs EVEX: VEX refused", -EINVAL, false, 0xc5, 0xfb, 0x6f, 0x06),
	X64("VEX map 0: refused", -EINVAL, false, 0xc4, 0xe0, 0x78, 0x10, 0xc0),
	X64("VEX on a non-VEX opcode: refused", -EINVAL, false, 0xc5, 0xf8, 0x0f, 0xc0),
	X64("a VEX group member without a VEX form: refused", -EINVAL, false, 0xc5, 0xf8, 0xc7, 0x08),
	X64("vaddph (EVEX map 5)", 6, false, 0x62, 0xf5, 0x7c, 0x48, 0x58, 0xc1),
	/* branches, as perf's arch_is_branch() sees them */
	X64("call rel32", 5, true, 0xe8, 1, 2, 3, 4),
	X64("jmp rel8", 2, true, 0xeb, 0x10),
	X64("jle rel8", 2, true, 0x7e, 0x16),
	X64("jne rel32", 6, true, 0x0f, 0x85, 1, 2, 3, 4),
	X64("ret", 1, true, 0xc3),
	X64("ret $8", 3, true, 0xc2, 0x08, 0x00),
	X64("call *0x..(%rip) (ff /2)", 6, true, 0xff, 0x15, 1, 2, 3, 4),
	X64("jmp *%rax (ff /4)", 2, true, 0xff, 0xe0),
	X64("push (%rax) (ff /6): no branch", 2, false, 0xff, 0x30),
	X64("syscall", 2, true, 0x0f, 0x05),
	X64("int3", 1, true, 0xcc),
	X64("loop", 2, true, 0xe2, 0xfe),
	X64("vmlaunch", 3, true, 0x0f, 0x01, 0xc2),
	X64("xgetbv (0f 01 d0): no branch", 3, false, 0x0f, 0x01, 0xd0),
	/* Xen's and KVM's emulate prefix belong to the next instruction */
	X64("ud2; .ascii \"xen\"; cpuid", 7, false, 0x0f, 0x0b, 'x', 'e', 'n', 0x0f, 0xa2),
	X64("ud2 alone", 2, false, 0x0f, 0x0b, 'x', 'e'),
	/* the bytes run out */
	X64("no bytes", -ENODATA, false, 0x90),
	X64("a prefix alone", -ENODATA, false, 0x66),
	X64("ModRM missing", -ENODATA, false, 0x48, 0x89),
	X64("imm32 cut", -ENODATA, false, 0xb8, 1, 2, 3),
	X64("VEX cut", -ENODATA, false, 0xc4, 0xe2),
	X64("16 bytes of prefixes: past 15", -ENODATA, false, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
	    0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x90),
	X64("far call: ptr16:32", 7, true, 0x9a, 1, 2, 3, 4, 5, 6),
	X64("far call with REX.W: no ptr16:64", -EINVAL, false, 0x48, 0x9a, 1, 2, 3, 4, 5, 6, 7, 8),
	/* 32-bit mode */
	X32("inc %eax (no REX)", 1, false, 0x40),
	X32("les: c4 with mod != 11 is not VEX", 2, false, 0xc4, 0x00),
	X32("c4 with mod 11 is VEX", 5, false, 0xc4, 0xe2, 0x6d, 0x00, 0xd9),
	X32("mov 0x1234,%eax (moffset 4)", 5, false, 0xa1, 0x34, 0x12, 0, 0),
	X32("16-bit addressing: disp16 (67, mod 0 rm 6)", 5, false, 0x67, 0x8b, 0x06, 0x34, 0x12),
	X32("16-bit addressing: no SIB", 3, false, 0x67, 0x8b, 0x04, 0x90),
	X32("far jmp ptr16:16 (66)", 6, true, 0x66, 0xea, 1, 2, 3, 4),
};

static void test_vectors(void **state)
{
	int fails = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(vecs) / sizeof(vecs[0]); i++) {
		const struct vec *v = &vecs[i];
		struct sonde_x86_insn x;
		/* "no bytes" gives none at all */
		size_t n = strcmp(v->what, "no bytes") ? v->n : 0;
		int r = sonde_x86_insn__decode(v->b, n, v->is64, &x);
		int got = r ? r : x.length;

		if (got != v->want || (!r && x.branch != v->branch)) {
			print_error("%s: got %d (branch %d), want %d (branch %d)\n", v->what, got,
				    x.branch, v->want, v->branch);
			fails++;
		}
		if (r)
			assert_int_equal(x.length, 0);
	}
	assert_int_equal(fails, 0);
}

/* The parts of an instruction the decoder reports. */
static void test_fields(void **state)
{
	static const uint8_t movsd[] = { 0xf2, 0x48, 0x0f, 0x2a, 0xc0 };
	static const uint8_t vex[] = { 0xc4, 0xe2, 0x6d, 0x00, 0xd9 };
	struct sonde_x86_insn x;

	(void)state;
	assert_int_equal(sonde_x86_insn__decode(movsd, sizeof(movsd), true, &x), 0);
	assert_int_equal(x.nr_prefixes, 1);
	assert_int_equal(x.rex, 0x48);
	assert_int_equal(x.vex, 0);
	assert_int_equal(x.nr_opcode, 2);
	assert_int_equal(x.opcode[0], 0x0f);
	assert_int_equal(x.opcode[1], 0x2a);
	assert_true(x.has_modrm);
	assert_int_equal(x.modrm, 0xc0);
	assert_int_equal(sonde_x86_insn__decode(vex, sizeof(vex), true, &x), 0);
	assert_int_equal(x.vex, 3);
	assert_int_equal(x.nr_opcode, 1);
	assert_int_equal(x.opcode[0], 0x00);
	/* 15 bytes at most, whatever @len says. */
	{
		uint8_t b[20] = { 0x66, 0x66, 0x66, 0x66, 0x66, 0x48, 0xb8, 1, 2, 3, 4, 5, 6, 7, 8 };

		assert_int_equal(sonde_x86_insn__decode(b, sizeof(b), true, &x), 0);
		assert_int_equal(x.length, 15);
		memmove(b + 1, b, 15);
		assert_int_equal(sonde_x86_insn__decode(b, sizeof(b), true, &x), -ENODATA);
	}
	assert_int_equal(sonde_x86_insn__decode(NULL, 4, true, &x), -EINVAL);
	assert_int_equal(sonde_x86_insn__decode(movsd, 4, true, NULL), -EINVAL);
}

/* Every two-byte input decodes or fails cleanly, and never claims more bytes than given. */
static void test_exhaustive_short(void **state)
{
	uint8_t b[3];
	struct sonde_x86_insn x;

	(void)state;
	for (unsigned v = 0; v < 65536; v++) {
		b[0] = (uint8_t)v;
		b[1] = (uint8_t)(v >> 8);
		for (int mode = 0; mode < 2; mode++) {
			int r = sonde_x86_insn__decode(b, 2, mode, &x);

			assert_true(r == 0 || r == -ENODATA || r == -EINVAL);
			if (!r)
				assert_true(x.length >= 1 && x.length <= 2);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_exhaustive_short),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
