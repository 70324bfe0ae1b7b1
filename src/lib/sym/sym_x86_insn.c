// SPDX-License-Identifier: LGPL-2.1-only
/*
 * x86 instruction lengths (sonde/insn.h), by the rules of the kernel's
 * instruction decoder that perf 6.1 walks code with in script -F
 * brstackinsn, so that sonde splits code where perf does:
 *
 * - prefixes: a run of legacy prefixes (a repeated one counts again, a
 *   fifth distinct one ends the run and is the opcode), the last one of
 *   which (0x66, 0xf3, 0xf2) picks the opcode's variant; then REX in
 *   64-bit mode; then VEX (0xc4, 0xc5) or EVEX (0x62), which in 32-bit
 *   mode only when the next byte's mod bits are 11;
 * - an opcode's operands come from a map of the opcodes (below) that
 *   tells, per opcode and variant, whether a ModRM byte and which
 *   immediate follow, and which VEX forms exist. An opcode the map has no
 *   operands for has none, whatever the CPU says (0x0f 0xff is 2 bytes);
 * - VEX: the variant is VEX.pp, the map VEX.mmmmm (EVEX: 3 bits); a form
 *   the map does not allow is rejected, as is a VEX-only opcode without;
 * - the two "emulate" prefixes of Xen and KVM (ud2 + "xen"/"kvm") belong
 *   to the instruction they precede.
 *
 * The tables are spans of opcodes with one attribute set each, per map;
 * a variant opcode has four (none, 0x66, 0xf3, 0xf2), and only opcode
 * groups whose members add an immediate or a VEX form are listed.
 */
#include <errno.h>
#include <string.h>
#include "sonde/insn.h"

/* Attribute bits. */
enum {
	A_MODRM = 1 << 0,
	/* bits 1-3: immediate kind */
	A_SCND = 1 << 4,     /* a second, 1-byte immediate (enter) */
	A_MOFF = 1 << 5,     /* an address-sized memory offset */
	A_F64 = 1 << 6,	     /* 64-bit operands in 64-bit mode */
	A_VEXOK = 1 << 7,    /* has a VEX form */
	A_VEXONLY = 1 << 8,  /* only a VEX (or EVEX) form */
	A_EVEXONLY = 1 << 9, /* only an EVEX form */
	A_VAR = 1 << 10,     /* operands differ by the last prefix */
	/* bits 11-15: group */
};

enum { IMM_B = 1, IMM_W, IMM_D, IMM_Q, IMM_PTR, IMM_Z, IMM_V };

#define IMM(k) ((uint16_t)((k) << 1))
#define IMM_KIND(a) (((a) >> 1) & 7)
#define GRP(n) ((uint16_t)((n) << 11))
#define GRP_ID(a) (((a) >> 11) & 31)

#define M A_MODRM
#define Ib IMM(IMM_B)
#define Iw IMM(IMM_W)
#define Iz IMM(IMM_Z)
#define Iv IMM(IMM_V)
#define Ap IMM(IMM_PTR)
#define VO A_VEXOK
#define VX (A_VEXOK | A_VEXONLY)
#define EV (A_VEXOK | A_EVEXONLY)

/* The opcode groups: the ModRM reg field picks the member. */
enum {
	G1 = 1, G1A, G2, G3_1, G3_2, G4, G5, G6, G7, G8, G9, G10, G11A, G11B,
	G12, G13, G14, G15, G16, G17, G18, G19, G20, G21, GP, GPDLK, GRNG,
};

/* Opcodes @lo..@hi: a[0] without a prefix, a[1..3] the 0x66, 0xf3, 0xf2 variants. */
struct span {
	uint8_t lo, hi;
	uint16_t a[4];
};

#define S(lo, hi, x) { lo, hi, { (uint16_t)(x), 0, 0, 0 } }
#define SV(lo, hi, x, p66, pf3, pf2) \
	{ lo, hi, { (uint16_t)((x) | A_VAR), (uint16_t)(p66), (uint16_t)(pf3), (uint16_t)(pf2) } }

/* One-byte opcodes (prefixes, REX, VEX and 0x0f are taken before the map). */
static const struct span map1[] = {
	S(0x00, 0x03, M), S(0x04, 0x04, Ib), S(0x05, 0x05, Iz),
	S(0x08, 0x0b, M), S(0x0c, 0x0c, Ib), S(0x0d, 0x0d, Iz),
	S(0x10, 0x13, M), S(0x14, 0x14, Ib), S(0x15, 0x15, Iz),
	S(0x18, 0x1b, M), S(0x1c, 0x1c, Ib), S(0x1d, 0x1d, Iz),
	S(0x20, 0x23, M), S(0x24, 0x24, Ib), S(0x25, 0x25, Iz),
	S(0x28, 0x2b, M), S(0x2c, 0x2c, Ib), S(0x2d, 0x2d, Iz),
	S(0x30, 0x33, M), S(0x34, 0x34, Ib), S(0x35, 0x35, Iz),
	S(0x38, 0x3b, M), S(0x3c, 0x3c, Ib), S(0x3d, 0x3d, Iz),
	S(0x62, 0x63, M), /* bound (32-bit, not EVEX), movsxd */
	S(0x68, 0x68, Iz), S(0x69, 0x69, M | Iz), S(0x6a, 0x6a, Ib), S(0x6b, 0x6b, M | Ib),
	S(0x70, 0x7f, Ib),
	S(0x80, 0x80, GRP(G1) | M | Ib), S(0x81, 0x81, GRP(G1) | M | Iz),
	S(0x82, 0x83, GRP(G1) | M | Ib),
	S(0x84, 0x8e, M), S(0x8f, 0x8f, GRP(G1A) | M),
	S(0x9a, 0x9a, Ap),
	S(0xa0, 0xa3, A_MOFF),
	S(0xa8, 0xa8, Ib), S(0xa9, 0xa9, Iz),
	S(0xb0, 0xb7, Ib), S(0xb8, 0xbf, Iv),
	S(0xc0, 0xc1, GRP(G2) | M | Ib), S(0xc2, 0xc2, Iw),
	S(0xc4, 0xc5, M), /* les, lds (32-bit, not VEX) */
	S(0xc6, 0xc6, GRP(G11A) | M | Ib), S(0xc7, 0xc7, GRP(G11B) | M | Iz),
	S(0xc8, 0xc8, Iw | A_SCND), S(0xca, 0xca, Iw), S(0xcd, 0xcd, Ib),
	S(0xd0, 0xd3, GRP(G2) | M), S(0xd4, 0xd5, Ib),
	S(0xd8, 0xdf, M), /* x87 */
	S(0xe0, 0xe7, Ib), S(0xe8, 0xe9, Iz | A_F64), S(0xea, 0xea, Ap), S(0xeb, 0xeb, Ib),
	S(0xf6, 0xf6, GRP(G3_1) | M), S(0xf7, 0xf7, GRP(G3_2) | M),
	S(0xfe, 0xfe, GRP(G4) | M), S(0xff, 0xff, GRP(G5) | M),
};

#define MV (M | VO)
#define MVB (M | VO | Ib)

/* 0x0f xx (VEX map 1). */
static const struct span map0f[] = {
	S(0x00, 0x00, GRP(G6) | M), S(0x01, 0x01, GRP(G7) | M),
	S(0x02, 0x03, M), S(0x0d, 0x0d, GRP(GP) | M), S(0x0f, 0x0f, M | Ib),
	SV(0x10, 0x12, MV, MV, MV, MV), SV(0x13, 0x13, MV, MV, 0, 0),
	SV(0x14, 0x15, MV, MV, 0, 0), SV(0x16, 0x16, MV, MV, MV, 0),
	SV(0x17, 0x17, MV, MV, 0, 0), S(0x18, 0x18, GRP(G16) | M),
	SV(0x1a, 0x1b, M, M, M, M), S(0x1c, 0x1c, GRP(G20) | M), S(0x1e, 0x1e, GRP(G21) | M),
	S(0x1f, 0x1f, M), S(0x20, 0x23, M),
	SV(0x28, 0x29, MV, MV, 0, 0), SV(0x2a, 0x2a, M, M, MV, MV), SV(0x2b, 0x2b, MV, MV, 0, 0),
	SV(0x2c, 0x2d, M, M, MV, MV), SV(0x2e, 0x2f, MV, MV, 0, 0),
	S(0x40, 0x40, M), SV(0x41, 0x42, MV, MV, 0, 0), S(0x43, 0x43, M),
	SV(0x44, 0x47, MV, MV, 0, 0), S(0x48, 0x49, M), SV(0x4a, 0x4b, MV, MV, 0, 0),
	S(0x4c, 0x4f, M),
	SV(0x50, 0x50, MV, MV, 0, 0), SV(0x51, 0x51, MV, MV, MV, MV),
	SV(0x52, 0x53, MV, 0, MV, 0), SV(0x54, 0x57, MV, MV, 0, 0),
	SV(0x58, 0x5a, MV, MV, MV, MV), SV(0x5b, 0x5b, MV, MV, MV, 0),
	SV(0x5c, 0x5f, MV, MV, MV, MV),
	SV(0x60, 0x6b, M, MV, 0, 0), SV(0x6c, 0x6d, 0, MV, 0, 0), SV(0x6e, 0x6e, M, MV, 0, 0),
	SV(0x6f, 0x6f, M, MV, MV, M | EV),
	SV(0x70, 0x70, M | Ib, MVB, MVB, MVB),
	S(0x71, 0x71, GRP(G12) | M), S(0x72, 0x72, GRP(G13) | M), S(0x73, 0x73, GRP(G14) | M),
	SV(0x74, 0x76, M, MV, 0, 0), S(0x77, 0x77, VO),
	SV(0x78, 0x79, MV, M | EV, M | EV, M | EV), SV(0x7a, 0x7b, 0, M | EV, M | EV, M | EV),
	SV(0x7c, 0x7d, 0, MV, 0, MV), SV(0x7e, 0x7e, M, MV, MV, 0),
	SV(0x7f, 0x7f, M, MV, MV, M | EV),
	S(0x80, 0x8f, Iz | A_F64),
	SV(0x90, 0x91, MV, MV, 0, 0), SV(0x92, 0x93, MV, MV, 0, MV), S(0x94, 0x97, M),
	SV(0x98, 0x99, MV, MV, 0, 0), S(0x9a, 0x9f, M),
	S(0xa3, 0xa3, M), S(0xa4, 0xa4, M | Ib), S(0xa5, 0xa5, M),
	S(0xa6, 0xa6, GRP(GPDLK) | M), S(0xa7, 0xa7, GRP(GRNG) | M),
	S(0xab, 0xab, M), S(0xac, 0xac, M | Ib), S(0xad, 0xad, M),
	S(0xae, 0xae, GRP(G15) | M), S(0xaf, 0xb7, M),
	SV(0xb8, 0xb8, 0, 0, M, 0), S(0xb9, 0xb9, GRP(G10) | M), S(0xba, 0xba, GRP(G8) | M | Ib),
	S(0xbb, 0xbb, M), SV(0xbc, 0xbd, M, M, M, M), S(0xbe, 0xc1, M),
	SV(0xc2, 0xc2, MVB, MVB, MVB, MVB), S(0xc3, 0xc3, M),
	SV(0xc4, 0xc5, M | Ib, MVB, 0, 0), SV(0xc6, 0xc6, MVB, MVB, 0, 0),
	S(0xc7, 0xc7, GRP(G9) | M),
	SV(0xd0, 0xd0, 0, MV, 0, MV), SV(0xd1, 0xd5, M, MV, 0, 0), SV(0xd6, 0xd6, 0, MV, M, M),
	SV(0xd7, 0xe5, M, MV, 0, 0), SV(0xe6, 0xe6, 0, MV, MV, MV), SV(0xe7, 0xef, M, MV, 0, 0),
	SV(0xf0, 0xf0, 0, 0, 0, MV), SV(0xf1, 0xfe, M, MV, 0, 0),
};

/* 0x0f 0x38 xx (VEX map 2). */
static const struct span map38[] = {
	SV(0x00, 0x0b, M, MV, 0, 0), SV(0x0c, 0x0f, 0, M | VX, 0, 0),
	SV(0x10, 0x10, 0, MV, M | EV, 0), SV(0x11, 0x12, 0, M | EV, M | EV, 0),
	SV(0x13, 0x13, 0, M | VX, M | EV, 0), SV(0x14, 0x15, 0, MV, M | EV, 0),
	SV(0x16, 0x16, 0, M | VX, 0, 0), SV(0x17, 0x17, 0, MV, 0, 0),
	SV(0x18, 0x1a, 0, M | VX, 0, 0), SV(0x1b, 0x1b, 0, M | EV, 0, 0),
	SV(0x1c, 0x1e, M, MV, 0, 0), SV(0x1f, 0x1f, 0, M | EV, 0, 0),
	SV(0x20, 0x25, 0, MV, M | EV, 0), SV(0x26, 0x27, 0, M | EV, M | EV, 0),
	SV(0x28, 0x2a, 0, MV, M | EV, 0), SV(0x2b, 0x2b, 0, MV, 0, 0),
	SV(0x2c, 0x2f, 0, M | VX, 0, 0),
	SV(0x30, 0x35, 0, MV, M | EV, 0), SV(0x36, 0x36, 0, M | VX, 0, 0),
	SV(0x37, 0x37, 0, MV, 0, 0), SV(0x38, 0x3a, 0, MV, M | EV, 0),
	SV(0x3b, 0x41, 0, MV, 0, 0), SV(0x42, 0x44, 0, M | EV, 0, 0),
	SV(0x45, 0x47, 0, M | VX, 0, 0),
	SV(0x49, 0x49, MV, MV, 0, MV), SV(0x4b, 0x4b, 0, MV, M | VX, MV),
	SV(0x4c, 0x4f, 0, M | EV, 0, 0),
	SV(0x50, 0x51, 0, MV, 0, 0), SV(0x52, 0x52, 0, MV, M | EV, M | EV),
	SV(0x53, 0x53, 0, MV, 0, M | EV), SV(0x54, 0x55, 0, M | EV, 0, 0),
	SV(0x58, 0x5a, 0, M | VX, 0, 0), SV(0x5b, 0x5b, 0, M | EV, 0, 0),
	SV(0x5c, 0x5c, 0, 0, MV, 0), SV(0x5e, 0x5e, MV, MV, MV, MV),
	SV(0x62, 0x66, 0, M | EV, 0, 0), SV(0x68, 0x68, 0, 0, 0, M | EV),
	SV(0x70, 0x71, 0, M | EV, 0, 0), SV(0x72, 0x72, 0, M | EV, M | EV, M | EV),
	SV(0x73, 0x73, 0, M | EV, 0, 0), SV(0x75, 0x77, 0, M | EV, 0, 0),
	SV(0x78, 0x79, 0, M | VX, 0, 0), SV(0x7a, 0x7f, 0, M | EV, 0, 0),
	SV(0x80, 0x82, 0, M, 0, 0), SV(0x83, 0x83, 0, M | EV, 0, 0),
	SV(0x88, 0x8b, 0, M | EV, 0, 0), SV(0x8c, 0x8c, 0, M | VX, 0, 0),
	SV(0x8d, 0x8d, 0, M | EV, 0, 0), SV(0x8e, 0x8e, 0, M | VX, 0, 0),
	SV(0x8f, 0x8f, 0, M | EV, 0, 0),
	SV(0x90, 0x93, 0, M | VX, 0, 0), SV(0x96, 0x99, 0, M | VX, 0, 0),
	SV(0x9a, 0x9b, 0, M | VX, 0, M | EV), SV(0x9c, 0x9f, 0, M | VX, 0, 0),
	SV(0xa0, 0xa3, 0, M | EV, 0, 0), SV(0xa6, 0xa9, 0, M | VX, 0, 0),
	SV(0xaa, 0xab, 0, M | VX, 0, M | EV), SV(0xac, 0xaf, 0, M | VX, 0, 0),
	SV(0xb4, 0xb5, 0, M | EV, 0, 0), SV(0xb6, 0xbf, 0, M | VX, 0, 0),
	SV(0xc4, 0xc4, 0, M | EV, 0, 0),
	S(0xc6, 0xc6, GRP(G18) | M), S(0xc7, 0xc7, GRP(G19) | M),
	SV(0xc8, 0xc8, M, M | EV, 0, 0), S(0xc9, 0xc9, M), SV(0xca, 0xcd, M, M | EV, 0, 0),
	SV(0xcf, 0xcf, 0, MV, 0, 0), SV(0xdb, 0xdf, 0, MV, 0, 0),
	SV(0xf0, 0xf1, M, M, 0, M), S(0xf2, 0xf2, M | VX), S(0xf3, 0xf3, GRP(G17) | M),
	SV(0xf5, 0xf5, M | VX, M, M | VX, M | VX), SV(0xf6, 0xf6, M, M, M, M | VX),
	SV(0xf7, 0xf7, M | VX, M | VX, M | VX, M | VX), SV(0xf8, 0xf8, 0, M, M, M),
	S(0xf9, 0xf9, M),
};

#define IVX (M | Ib | VX)
#define IEV (M | Ib | EV)

/* 0x0f 0x3a xx (VEX map 3): every one takes an imm8. */
static const struct span map3a[] = {
	SV(0x00, 0x02, 0, IVX, 0, 0), SV(0x03, 0x03, 0, IEV, 0, 0),
	SV(0x04, 0x06, 0, IVX, 0, 0), SV(0x08, 0x08, MVB, MVB, 0, 0),
	SV(0x09, 0x09, 0, MVB, 0, 0), SV(0x0a, 0x0a, MVB, MVB, 0, 0),
	SV(0x0b, 0x0e, 0, MVB, 0, 0), SV(0x0f, 0x0f, M | Ib, MVB, 0, 0),
	SV(0x14, 0x17, 0, MVB, 0, 0), SV(0x18, 0x19, 0, IVX, 0, 0),
	SV(0x1a, 0x1b, 0, IEV, 0, 0), SV(0x1d, 0x1d, 0, IVX, 0, 0),
	SV(0x1e, 0x1f, 0, IEV, 0, 0), SV(0x20, 0x22, 0, MVB, 0, 0),
	SV(0x23, 0x23, 0, IEV, 0, 0), SV(0x25, 0x25, 0, IEV, 0, 0),
	SV(0x26, 0x27, IEV, IEV, 0, 0), SV(0x30, 0x33, 0, IVX, 0, 0),
	SV(0x38, 0x39, 0, IVX, 0, 0), SV(0x3a, 0x3b, 0, IEV, 0, 0),
	SV(0x3e, 0x3f, 0, IEV, 0, 0), SV(0x40, 0x42, 0, MVB, 0, 0),
	SV(0x43, 0x43, 0, IEV, 0, 0), SV(0x44, 0x44, 0, MVB, 0, 0),
	SV(0x46, 0x46, 0, IVX, 0, 0), SV(0x4a, 0x4b, 0, IVX, 0, 0),
	SV(0x4c, 0x4c, 0, MVB, 0, 0), SV(0x50, 0x51, 0, IEV, 0, 0),
	SV(0x54, 0x55, 0, IEV, 0, 0), SV(0x56, 0x57, IEV, IEV, 0, 0),
	SV(0x60, 0x63, 0, MVB, 0, 0), SV(0x66, 0x67, IEV, IEV, 0, 0),
	SV(0x70, 0x73, 0, IEV, 0, 0), SV(0xc2, 0xc2, IEV, 0, IEV, 0),
	S(0xcc, 0xcc, M | Ib), SV(0xce, 0xcf, 0, MVB, 0, 0), SV(0xdf, 0xdf, 0, MVB, 0, 0),
	SV(0xf0, 0xf0, 0, 0, M | Ib, IVX),
};

#define MEV (M | EV)

/* EVEX map 5 (FP16). */
static const struct span mapev5[] = {
	SV(0x10, 0x11, 0, 0, MEV, 0), SV(0x1d, 0x1d, MEV, MEV, 0, 0),
	SV(0x2a, 0x2a, 0, 0, MEV, 0), SV(0x2c, 0x2d, 0, 0, MEV, 0), S(0x2e, 0x2f, MEV),
	SV(0x51, 0x51, MEV, 0, MEV, 0), SV(0x58, 0x59, MEV, 0, MEV, 0),
	SV(0x5a, 0x5a, MEV, MEV, MEV, MEV), SV(0x5b, 0x5b, MEV, MEV, MEV, 0),
	SV(0x5c, 0x5f, MEV, 0, MEV, 0), SV(0x6e, 0x6e, 0, MEV, 0, 0),
	SV(0x78, 0x79, MEV, MEV, MEV, 0), SV(0x7a, 0x7a, 0, MEV, 0, MEV),
	SV(0x7b, 0x7b, 0, MEV, MEV, 0), SV(0x7c, 0x7c, MEV, MEV, 0, 0),
	SV(0x7d, 0x7d, MEV, MEV, MEV, MEV), SV(0x7e, 0x7e, 0, MEV, 0, 0),
};

/* EVEX map 6 (FP16). */
static const struct span mapev6[] = {
	SV(0x13, 0x13, MEV, MEV, 0, 0), SV(0x2c, 0x2d, 0, MEV, 0, 0),
	SV(0x42, 0x43, 0, MEV, 0, 0), SV(0x4c, 0x4f, 0, MEV, 0, 0),
	SV(0x56, 0x57, 0, 0, MEV, MEV), SV(0x96, 0x9f, 0, MEV, 0, 0),
	SV(0xa6, 0xaf, 0, MEV, 0, 0), SV(0xb6, 0xbf, 0, MEV, 0, 0),
	SV(0xd6, 0xd7, 0, 0, MEV, MEV),
};

/* Group members that add an immediate or a VEX form: group, reg. */
struct member {
	uint8_t grp, reg;
	uint16_t a[4];
};

#define GM(g, r, x) { g, r, { (uint16_t)(x), 0, 0, 0 } }
#define GV(g, r, x, p66, pf3, pf2) \
	{ g, r, { (uint16_t)((x) | A_VAR), (uint16_t)(p66), (uint16_t)(pf3), (uint16_t)(pf2) } }

static const struct member members[] = {
	GM(G3_1, 0, M | Ib), GM(G3_1, 1, M | Ib),
	GM(G3_2, 0, M | Iz), GM(G3_2, 1, M | Iz),
	GM(G11A, 0, M | Ib), GM(G11A, 7, Ib),
	GM(G11B, 0, M | Iz), GM(G11B, 7, Iz),
	GV(G12, 2, M | Ib, MVB, 0, 0), GV(G12, 4, M | Ib, MVB, 0, 0), GV(G12, 6, M | Ib, MVB, 0, 0),
	GV(G13, 0, 0, IEV, 0, 0), GV(G13, 1, 0, IEV, 0, 0), GV(G13, 2, M | Ib, MVB, 0, 0),
	GV(G13, 4, M | Ib, MVB, 0, 0), GV(G13, 6, M | Ib, MVB, 0, 0),
	GV(G14, 2, M | Ib, MVB, 0, 0), GV(G14, 3, 0, MVB, 0, 0), GV(G14, 6, M | Ib, MVB, 0, 0),
	GV(G14, 7, 0, MVB, 0, 0),
	GV(G15, 2, MV, 0, M, 0), GV(G15, 3, MV, 0, M, 0),
	GM(G17, 1, M | VX), GM(G17, 2, M | VX), GM(G17, 3, M | VX),
	GV(G18, 1, 0, MEV, 0, 0), GV(G18, 2, 0, MEV, 0, 0), GV(G18, 5, 0, MEV, 0, 0),
	GV(G18, 6, 0, MEV, 0, 0),
	GV(G19, 1, 0, MEV, 0, 0), GV(G19, 2, 0, MEV, 0, 0), GV(G19, 5, 0, MEV, 0, 0),
	GV(G19, 6, 0, MEV, 0, 0),
};

#define NR(a) (sizeof(a) / sizeof((a)[0]))

/* The span of @map holding @op, or NULL. */
static const struct span *find(const struct span *map, size_t n, uint8_t op)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (op < map[mid].lo)
			hi = mid;
		else if (op > map[mid].hi)
			lo = mid + 1;
		else
			return &map[mid];
	}
	return NULL;
}

/* An escaped opcode's attributes: its variant when it has one for @pfx. */
static uint16_t map_attr(const struct span *map, size_t n, uint8_t op, int pfx)
{
	const struct span *s = find(map, n, op);

	if (!s)
		return 0;
	return (s->a[0] & A_VAR) && pfx ? s->a[pfx] : s->a[0];
}

/*
 * A VEX/EVEX opcode's attributes: map @m, VEX.pp @pp. Every variant but
 * a group's follows pp, whether or not the opcode has one.
 */
static uint16_t vex_attr(uint8_t op, unsigned m, unsigned pp)
{
	static const struct {
		const struct span *map;
		size_t n;
	} maps[7] = {
		[1] = { map0f, NR(map0f) }, [2] = { map38, NR(map38) }, [3] = { map3a, NR(map3a) },
		[5] = { mapev5, NR(mapev5) }, [6] = { mapev6, NR(mapev6) },
	};
	const struct span *s;

	if (m >= 7 || !maps[m].map)
		return 0;
	s = find(maps[m].map, maps[m].n, op);
	if (!s)
		return 0;
	return GRP_ID(s->a[0]) || !pp ? s->a[0] : s->a[pp];
}

/* A group member's attributes, with the group opcode's own (@attr). */
static uint16_t member_attr(uint16_t attr, uint8_t modrm, int pfx)
{
	unsigned g = GRP_ID(attr), reg = (modrm >> 3) & 7;
	uint16_t common = attr & (uint16_t)~GRP(31);

	for (size_t i = 0; i < NR(members); i++)
		if (members[i].grp == g && members[i].reg == reg) {
			const uint16_t *a = members[i].a;

			return (uint16_t)(((a[0] & A_VAR) && pfx ? a[pfx] : a[0]) | common);
		}
	return common;
}

static bool is_legacy_prefix(uint8_t c)
{
	switch (c) {
	case 0x26: case 0x2e: case 0x36: case 0x3e: case 0x64: case 0x65:
	case 0x66: case 0x67: case 0xf0: case 0xf2: case 0xf3:
		return true;
	default:
		return false;
	}
}

/* The variant a last prefix picks: 0x66 1, 0xf3 2, 0xf2 3, others none. */
static int prefix_variant(uint8_t last)
{
	return last == 0x66 ? 1 : last == 0xf3 ? 2 : last == 0xf2 ? 3 : 0;
}

/* perf's arch_is_branch() (from the kernel's LBR branch types), not for VEX. */
static bool is_branch(const struct sonde_x86_insn *x)
{
	uint8_t op = x->opcode[0], reg = (x->modrm >> 3) & 7;

	if (x->vex)
		return false;
	if (op == 0x0f) {
		uint8_t op2 = x->opcode[1];

		if (op2 == 0x01)
			return x->modrm == 0xc2 || x->modrm == 0xc3; /* vmlaunch, vmresume */
		return op2 == 0x05 || op2 == 0x07 || op2 == 0x34 || op2 == 0x35 ||
		       (op2 >= 0x80 && op2 <= 0x8f);
	}
	if ((op >= 0x70 && op <= 0x7f) || (op >= 0xe0 && op <= 0xe3) || (op >= 0xcc && op <= 0xcf))
		return true;
	switch (op) {
	case 0xc2: case 0xc3: case 0xca: case 0xcb: case 0xe8: case 0xe9: case 0xea: case 0xeb:
	case 0x9a:
		return true;
	case 0xff:
		return reg >= 2 && reg <= 5;
	default:
		return false;
	}
}

/* ud2 + "xen" / "kvm": emulation markers, part of the next instruction. */
static bool emulate_prefix(const uint8_t *b, size_t end)
{
	return end >= 5 && b[0] == 0x0f && b[1] == 0x0b &&
	       ((b[2] == 'x' && b[3] == 'e' && b[4] == 'n') ||
		(b[2] == 'k' && b[3] == 'v' && b[4] == 'm'));
}

static int fail(struct sonde_x86_insn *out, int err)
{
	memset(out, 0, sizeof(*out));
	return err;
}

/* The bytes of an immediate of @kind. 0 for none, -1 for none that fits. */
static int imm_size(unsigned kind, unsigned opnd)
{
	switch (kind) {
	case IMM_B: return 1;
	case IMM_W: return 2;
	case IMM_D: return 4;
	case IMM_Q: return 8;
	case IMM_PTR: return opnd == 2 ? 4 : opnd == 4 ? 6 : -1; /* no ptr16:64 */
	case IMM_Z: return opnd == 2 ? 2 : 4;
	case IMM_V: return (int)opnd;
	default: return 0;
	}
}

int sonde_x86_insn__decode(const void *buf, size_t len, bool is64, struct sonde_x86_insn *out)
{
	const uint8_t *b = buf;
	size_t end = len < SONDE_X86_MAX_INSN ? len : SONDE_X86_MAX_INSN, i = 0;
	unsigned opnd = 4, addr = is64 ? 8 : 4;
	uint8_t pfx[4], last = 0, v1 = 0, v2 = 0;
	int nb = 0, variant, n;
	uint16_t attr;

	if (!out)
		return -EINVAL;
	if (!b)
		return fail(out, -EINVAL);
	memset(out, 0, sizeof(*out));
	if (emulate_prefix(b, end))
		i = 5;
	for (;;) {
		bool seen = false;

		if (i >= end)
			return fail(out, -ENODATA);
		if (!is_legacy_prefix(b[i]))
			break;
		for (int k = 0; k < nb; k++)
			seen |= pfx[k] == b[i];
		if (!seen) {
			if (nb == 4)
				break; /* a fifth kind: the decoder takes it as the opcode */
			pfx[nb++] = b[i];
			if (b[i] == 0x67)
				addr ^= is64 ? 12 : 6; /* 8 <-> 4, 4 <-> 2 */
			else if (b[i] == 0x66)
				opnd ^= 6; /* 4 <-> 2 */
		}
		last = b[i++];
		out->nr_prefixes++;
	}
	if (is64 && (b[i] & 0xf0) == 0x40) {
		out->rex = b[i++];
		if (out->rex & 8)
			opnd = 8;
		if (i >= end)
			return fail(out, -ENODATA);
	}
	if (b[i] == 0xc4 || b[i] == 0xc5 || b[i] == 0x62) {
		if (i + 1 >= end)
			return fail(out, -ENODATA);
		v1 = b[i + 1];
		if (is64 || (v1 >> 6) == 3) {
			out->vex = b[i] == 0x62 ? 4 : b[i] == 0xc4 ? 3 : 2;
			if (i + out->vex > end)
				return fail(out, -ENODATA);
			v2 = out->vex == 2 ? v1 : b[i + 2];
			/* VEX.W; for EVEX the decoder reads it from the last byte. */
			if (is64 && out->vex != 2 && (b[i + (out->vex == 4 ? 3 : 2)] & 0x80))
				opnd = 8;
			i += out->vex;
		}
	}
	if (i >= end)
		return fail(out, -ENODATA);
	out->opcode[0] = b[i++];
	out->nr_opcode = 1;
	if (out->vex) {
		unsigned m = out->vex == 2 ? 1 : out->vex == 3 ? (v1 & 0x1f) : (v1 & 7);

		variant = (int)(v2 & 3);
		attr = vex_attr(out->opcode[0], m, (unsigned)variant);
		if (((attr & A_EVEXONLY) && out->vex != 4) || (!(attr & A_VEXOK) && !GRP_ID(attr)))
			return fail(out, -EINVAL);
	} else {
		variant = prefix_variant(last);
		if (out->opcode[0] != 0x0f) {
			const struct span *s = find(map1, NR(map1), out->opcode[0]);

			attr = s ? s->a[0] : 0;
		} else {
			if (i >= end)
				return fail(out, -ENODATA);
			out->opcode[out->nr_opcode++] = b[i++];
			if (out->opcode[1] == 0x38 || out->opcode[1] == 0x3a) {
				if (i >= end)
					return fail(out, -ENODATA);
				out->opcode[out->nr_opcode++] = b[i++];
				attr = out->opcode[1] == 0x38 ? map_attr(map38, NR(map38), out->opcode[2], variant)
							       : map_attr(map3a, NR(map3a), out->opcode[2], variant);
			} else {
				attr = map_attr(map0f, NR(map0f), out->opcode[1], variant);
			}
		}
		if (attr & (A_VEXONLY | A_EVEXONLY))
			return fail(out, -EINVAL);
	}
	if (attr & A_MODRM) {
		unsigned mod, rm, base = 0;

		if (i >= end)
			return fail(out, -ENODATA);
		out->has_modrm = true;
		out->modrm = b[i++];
		if (GRP_ID(attr)) {
			attr = member_attr(attr, out->modrm, variant);
			if (out->vex && !(attr & A_VEXOK))
				return fail(out, -EINVAL);
		}
		mod = out->modrm >> 6;
		rm = out->modrm & 7;
		if (addr != 2 && mod != 3 && rm == 4) { /* SIB */
			if (i >= end)
				return fail(out, -ENODATA);
			base = b[i++] & 7;
		}
		n = 0;
		if (mod == 1)
			n = 1;
		else if (mod == 3)
			n = 0;
		else if (addr == 2)
			n = (mod == 0 && rm == 6) || mod == 2 ? 2 : 0;
		else
			n = (mod == 0 && rm == 5) || mod == 2 || (mod == 0 && base == 5) ? 4 : 0;
		if (i + (size_t)n > end)
			return fail(out, -ENODATA);
		i += (size_t)n;
	}
	if (is64 && (attr & A_F64))
		opnd = 8;
	n = (attr & A_MOFF) ? (int)addr : imm_size(IMM_KIND(attr), opnd);
	if (n < 0)
		return fail(out, -EINVAL);
	if (attr & A_SCND)
		n++;
	if (i + (size_t)n > end)
		return fail(out, -ENODATA);
	i += (size_t)n;
	out->length = (uint8_t)i;
	out->branch = is_branch(out);
	return 0;
}
