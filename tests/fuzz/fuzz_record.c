// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Fuzz the record codec. Input: 8 control bytes choosing the layout
 *   [0..3] sample_type (u32, bits past the known ones dropped)
 *   [4]    read_format
 *   [5]    bit 0 sample_id_all, bit 1 BRANCH_HW_INDEX, bit 2 BRANCH_COUNTERS,
 *          bits 3-4 mmap2_build_id
 *   [6]    popcount of sample_regs_user, [7] popcount of sample_regs_intr
 * then one record. A record that decodes must re-encode to the same size,
 * decode again, and re-encode to the same bytes; swapping must not crash.
 * Seeds: SONDE_WRITE_CORPUS=dir build/tests/test_record.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/sonde.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t low_bits(unsigned int n)
{
	n %= 65;
	return n == 64 ? ~0ULL : (1ULL << n) - 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sonde_record_fmt fmt = { 0 };
	struct sonde_record r, r2;
	uint8_t *rec, *out, *out2;
	uint32_t st;
	size_t len;
	int n, n2;

	sonde_set_print(NULL);
	if (size < 8)
		return 0;
	memcpy(&st, data, 4);
	fmt.sample_type = st & (SONDE_PERF_SAMPLE_MAX - 1);
	fmt.read_format = data[4] & (SONDE_PERF_FORMAT_MAX - 1);
	fmt.sample_id_all = data[5] & 1;
	fmt.branch_sample_type =
		(data[5] & 2 ? SONDE_PERF_SAMPLE_BRANCH_HW_INDEX : 0) |
		(data[5] & 4 ? SONDE_PERF_SAMPLE_BRANCH_COUNTERS : 0);
	fmt.mmap2_build_id = (uint8_t)((data[5] >> 3) & 3);
	fmt.sample_regs_user = low_bits(data[6]);
	fmt.sample_regs_intr = low_bits(data[7]);
	len = size - 8;
	/* An exact-size copy so any over-read trips ASan. */
	rec = malloc(len ? len : 1);
	if (!rec)
		return 0;
	memcpy(rec, data + 8, len);

	{
		struct sonde_sample_id sid;
		uint64_t id;

		(void)sonde_record__id(&fmt, rec, len, &id);
		(void)sonde_record__sample_id(&fmt, rec, len, &sid);
	}
	if (sonde_record__decode(&fmt, rec, len, &r) == 0) {
		n = sonde_record__encode(&fmt, &r, NULL, 0);
		if (n != r.size)
			abort();
		out = malloc((size_t)n);
		out2 = malloc((size_t)n);
		if (!out || !out2)
			abort();
		if (sonde_record__encode(&fmt, &r, out, (size_t)n) != n)
			abort();
		if (sonde_record__decode(&fmt, out, (size_t)n, &r2) != 0)
			abort();
		n2 = sonde_record__encode(&fmt, &r2, out2, (size_t)n);
		if (n2 != n || memcmp(out, out2, (size_t)n))
			abort();
		free(out);
		free(out2);
	}
	/* Swapping is a walk of its own over writable bytes. */
	if (sonde_record__swap(&fmt, rec, len) == 0 &&
	    sonde_record__decode(&fmt, rec, len, &r) != 0)
		abort();
	free(rec);
	return 0;
}
