// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Byte order helpers the record walker needs beyond plain integer swaps:
 * bit-fields. A compiler for a big-endian machine allocates bit-fields from
 * the most significant bit, one for a little-endian machine from the least,
 * so after swapping the word each field must also move to its mirrored
 * position (keeping its own bit order, so multi-bit fields stay intact).
 */
#include "record_priv.h"

/*
 * @v was laid out by the other byte order's compiler and has been swapped
 * to a host integer; return it laid out by the host's. @widths lists the
 * fields from the first declared, and must add up to @bits.
 */
uint64_t bitfield_mirror(uint64_t v, unsigned int bits, const uint8_t *widths,
			 size_t n, bool to_foreign)
{
	uint64_t out = 0;
	unsigned int o = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned int w = widths[i];
		uint64_t mask = w == 64 ? ~0ULL : (1ULL << w) - 1;
		unsigned int far = bits - o - w;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		bool from_far = !to_foreign; /* big-endian fields start far */
#else
		bool from_far = to_foreign;
#endif
		if (from_far)
			out |= ((v >> far) & mask) << o;
		else
			out |= ((v >> o) & mask) << far;
		o += w;
	}
	return out;
}

/* struct sonde_perf_branch_entry's flag word, in declaration order. */
static const uint8_t branch_flag_widths[] = { 1, 1, 1, 1, 16, 4, 2, 4, 3, 31 };

void branch_flags_swap(uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	v = bitfield_mirror(__builtin_bswap64(v), 64, branch_flag_widths,
			    ARRAY_SIZE(branch_flag_widths), false);
	memcpy(p, &v, 8);
}

uint64_t branch_flags_to_foreign(uint64_t host)
{
	return __builtin_bswap64(bitfield_mirror(host, 64, branch_flag_widths,
						 ARRAY_SIZE(branch_flag_widths),
						 true));
}

/* perf_event_attr's flag word: 15 single bits, precise_ip, 21 bits, rest. */
static const uint8_t attr_flag_widths[] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 26,
};
static const uint8_t attr_aux_action_widths[] = { 1, 1, 1, 29 };

enum attr_kind { A16, A32, A64, AFLAGS, AAUX };

static const struct {
	uint16_t off;
	uint8_t kind;
} attr_layout[] = {
	{ 0, A32 }, { 4, A32 }, { 8, A64 }, { 16, A64 }, { 24, A64 },
	{ 32, A64 }, { 40, AFLAGS }, { 48, A32 }, { 52, A32 }, { 56, A64 },
	{ 64, A64 }, { 72, A64 }, { 80, A64 }, { 88, A32 }, { 92, A32 },
	{ 96, A64 }, { 104, A32 }, { 108, A16 }, { 110, A16 }, { 112, A32 },
	{ 116, AAUX }, { 120, A64 }, { 128, A64 },
};

int sonde_perf_event_attr__swap(void *attr, size_t size)
{
	if (!attr || size < SONDE_PERF_ATTR_SIZE_VER0)
		return lib_err(SONDE_ERR_FORMAT);
	attr_swap(attr, size, false);
	return 0;
}

/* Bit-field words: swap bytes then move fields, or the reverse. */
static uint64_t flags_conv(uint64_t v, unsigned int bits, const uint8_t *widths,
			   size_t n, bool to_foreign)
{
	if (to_foreign) {
		v = bitfield_mirror(v, bits, widths, n, true);
		return bits == 64 ? __builtin_bswap64(v) :
				    __builtin_bswap32((uint32_t)v);
	}
	v = bits == 64 ? __builtin_bswap64(v) : __builtin_bswap32((uint32_t)v);
	return bitfield_mirror(v, bits, widths, n, false);
}

void attr_swap(uint8_t *p, size_t size, bool to_foreign)
{
	for (size_t i = 0; i < ARRAY_SIZE(attr_layout); i++) {
		uint8_t *f = p + attr_layout[i].off;
		uint64_t v64;
		uint32_t v32;
		uint16_t v16;

		switch (attr_layout[i].kind) {
		case A16:
			if (attr_layout[i].off + 2u > size)
				return;
			memcpy(&v16, f, 2);
			v16 = __builtin_bswap16(v16);
			memcpy(f, &v16, 2);
			break;
		case A32:
		case AAUX:
			if (attr_layout[i].off + 4u > size)
				return;
			memcpy(&v32, f, 4);
			if (attr_layout[i].kind == AAUX)
				v32 = (uint32_t)flags_conv(v32, 32,
					attr_aux_action_widths,
					ARRAY_SIZE(attr_aux_action_widths),
					to_foreign);
			else
				v32 = __builtin_bswap32(v32);
			memcpy(f, &v32, 4);
			break;
		default:
			if (attr_layout[i].off + 8u > size)
				return;
			memcpy(&v64, f, 8);
			if (attr_layout[i].kind == AFLAGS)
				v64 = flags_conv(v64, 64, attr_flag_widths,
						 ARRAY_SIZE(attr_flag_widths),
						 to_foreign);
			else
				v64 = __builtin_bswap64(v64);
			memcpy(f, &v64, 8);
			break;
		}
	}
}
