// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The record codec's internals (record_priv.h), beside test_record.c,
 * which runs the codec through the public API on both libraries: the
 * other byte order written by the private foreign encoder and swapped
 * back, big-endian branch flags, and the fixed sample plans the reports
 * read the usual layouts with.
 * Static-only: record_encode_foreign(), branch_flags_swap() and
 * sample_plan_*() are internal; the public API offers none of them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/sonde.h"
#include "record_priv.h"
#include "record_case_check.h"
#include "record_fixtures.h"

/* The other byte order, swapped in place, must equal the host's encoding. */
static void test_swap_every_type(void **state)
{
	fx_build();
	for (int i = 0; i < nr_cases; i++) {
		const struct rec_case *c = &cases[i];
		uint8_t *buf, *f;
		int n;

		cname = c->name;
		buf = encode_alloc(c, &n);
		f = calloc(1, (size_t)n);
		assert_non_null(f);
		CHECK(record_encode_foreign(&c->fmt, &c->rec, f, (size_t)n) == n,
		      "foreign encode");
		/* The header alone (type != 0) always differs. */
		CHECK(memcmp(f, buf, (size_t)n), "foreign bytes equal host");
		CHECK(sonde_record__swap(&c->fmt, f, (size_t)n) == 0, "swap");
		CHECK(!memcmp(f, buf, (size_t)n), "swapped bytes differ");
		free(f);
		free(buf);
	}
}

/* Bit-fields from a big-endian writer land in the right host fields. */
static void test_bitfields_from_big_endian(void **state)
{
	uint8_t attr[SONDE_PERF_ATTR_SIZE_VER0] = { 0 };
	struct sonde_perf_event_attr a;
	struct sonde_perf_branch_entry e;
	uint8_t flags[8];
	uint64_t be;

	/*
	 * Big-endian allocation, MSB first: disabled is bit 63, precise_ip
	 * (value 2 = binary 10) occupies bits 48..47, sample_id_all bit 45,
	 * sigtrap (field 37) bit 26.
	 */
	be = (1ULL << 63) | (1ULL << 48) | (1ULL << 45) | (1ULL << 26);
	be = __builtin_bswap64(be); /* as big-endian bytes on this host */
	memcpy(attr + 40, &be, 8);
	attr[7] = SONDE_PERF_ATTR_SIZE_VER0; /* size, big-endian */
	attr[3] = 1;			      /* type 1 */
	assert_int_equal(sonde_perf_event_attr__swap(attr, sizeof(attr)), 0);
	memset(&a, 0, sizeof(a));
	memcpy(&a, attr, sizeof(attr));
	assert_int_equal(a.type, 1);
	assert_int_equal(a.size, SONDE_PERF_ATTR_SIZE_VER0);
	assert_int_equal(a.disabled, 1);
	assert_int_equal(a.inherit, 0);
	assert_int_equal(a.precise_ip, 2);
	assert_int_equal(a.sample_id_all, 1);
	assert_int_equal(a.sigtrap, 1);
	assert_int_equal(a.mmap, 0);
	assert_int_equal(sonde_perf_event_attr__swap(attr, 63), -SONDE_ERR_FORMAT);

	/* Branch flags: mispred bit 63, cycles (16 bits) at 59..44. */
	be = (1ULL << 63) | (0x1234ULL << 44) | (0x6ULL << 40);
	be = __builtin_bswap64(be);
	memcpy(flags, &be, 8);
	branch_flags_swap(flags);
	memset(&e, 0, sizeof(e));
	memcpy((uint8_t *)&e + 16, flags, 8);
	assert_int_equal(e.mispred, 1);
	assert_int_equal(e.predicted, 0);
	assert_int_equal(e.cycles, 0x1234);
	assert_int_equal(e.type, 6);
	assert_int_equal(e.priv, 0);
}

/*
 * The usual layouts (fixed fields, then at most a callchain) are read
 * straight from a plan: every subset of the fixed fields, with and without
 * a callchain, must decode to exactly the sample encoded (absent fields 0,
 * the rest of the struct cleared), and a record a word longer than its
 * fields must still be refused where the walk refuses it.
 */
static void test_usual_layouts_read_straight(void **state)
{
	static const uint64_t fixed[] = {
		SONDE_PERF_SAMPLE_IDENTIFIER, SONDE_PERF_SAMPLE_IP, SONDE_PERF_SAMPLE_TID,
		SONDE_PERF_SAMPLE_TIME, SONDE_PERF_SAMPLE_ADDR, SONDE_PERF_SAMPLE_ID,
		SONDE_PERF_SAMPLE_STREAM_ID, SONDE_PERF_SAMPLE_CPU, SONDE_PERF_SAMPLE_PERIOD,
	};
	static const uint64_t ips[] = { SONDE_PERF_CONTEXT_USER, 0x401000, 0x402000 };
	uint8_t buf[256];

	for (unsigned int m = 0; m < 1u << 9; m++) {
		for (int chain = 0; chain < 3; chain++) {
			struct sonde_record_fmt fmt = { 0 };
			struct sonde_record in, d;
			struct sample_plan pl;
			uint64_t nr;
			int n;

			for (int b = 0; b < 9; b++)
				if (m & (1u << b))
					fmt.sample_type |= fixed[b];
			if (chain)
				fmt.sample_type |= SONDE_PERF_SAMPLE_CALLCHAIN;
			memset(&in, 0, sizeof(in));
			in.type = SONDE_PERF_RECORD_SAMPLE;
			in.sample.sample_type = fmt.sample_type;
			/* Distinct values, present or not: absent ones must read 0. */
			in.sample.identifier = 0x1111;
			in.sample.ip = 0x401234;
			in.sample.pid = 42;
			in.sample.tid = 43;
			in.sample.time = 123456789;
			in.sample.addr = 0xdead0000;
			in.sample.id = 0x2222;
			in.sample.stream_id = 0x3333;
			in.sample.cpu = 3;
			in.sample.cpu_res = 0;
			in.sample.period = 100000;
			if (chain) {
				in.sample.callchain.nr = chain == 1 ? 0 : 3;
				in.sample.callchain.ips = ips;
			}
			n = sonde_record__encode(&fmt, &in, buf, sizeof(buf) - 8);
			assert_true(n >= 8);
			sample_plan_make(&fmt, &pl);
			assert_true(pl.fixed);
			assert_true(sample_plan_fits(&pl, buf, (size_t)n, &nr));
			assert_int_equal(nr, in.sample.callchain.nr);
			memset(&d, 0xa5, sizeof(d));
			assert_int_equal(sonde_record__decode(&fmt, buf, (size_t)n, &d), 0);
			/* What the encoder did not write reads as 0 after decoding. */
			for (int b = 0; b < 9; b++) {
				if (m & (1u << b))
					continue;
				switch (b) {
				case 0: in.sample.identifier = 0; break;
				case 1: in.sample.ip = 0; break;
				case 2: in.sample.pid = in.sample.tid = 0; break;
				case 3: in.sample.time = 0; break;
				case 4: in.sample.addr = 0; break;
				case 5: in.sample.id = 0; break;
				case 6: in.sample.stream_id = 0; break;
				case 7: in.sample.cpu = 0; break;
				case 8: in.sample.period = 0; break;
				}
			}
			if (chain)
				in.sample.callchain.ips = (const uint64_t *)(const void *)
							  (buf + pl.chain + 8);
			if (memcmp(&d.sample, &in.sample, sizeof(in.sample)))
				fail_msg("sample_type %#llx chain %d decodes otherwise",
					 (unsigned long long)fmt.sample_type, chain);
			assert_int_equal(d.size, n);
			assert_false(d.has_sample_id);
			assert_null(d.err_what);
			/* A word more than the fields: the walk says what is left. */
			memset(buf + n, 0, 8);
			memcpy(buf + 6, &(uint16_t){ (uint16_t)(n + 8) }, 2);
			assert_false(sample_plan_fits(&pl, buf, (size_t)n + 8, &nr));
			expect_bad(&fmt, buf, (size_t)n + 8, (uint32_t)n, "bytes left");
		}
	}
	/* Any field past the usual ones: no plan, the walk reads it. */
	{
		struct sonde_record_fmt fmt = {
			.sample_type = SONDE_PERF_SAMPLE_IP | SONDE_PERF_SAMPLE_RAW,
		};
		struct sample_plan pl;

		sample_plan_make(&fmt, &pl);
		assert_false(pl.fixed);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_swap_every_type),
		cmocka_unit_test(test_bitfields_from_big_endian),
		cmocka_unit_test(test_usual_layouts_read_straight),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
