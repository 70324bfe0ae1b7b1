// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The histogram keys past perf's first seven (sonde_profile_entry__keys()):
 * a profile fed records built by hand that carry weight, data source,
 * addresses, transaction, cgroup and page sizes, grouped and ordered as
 * perf 6.1's sort functions do; --mem-mode's weighing; perf's names,
 * shortened ones included. Symbols come from the fixture's JIT map.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sonde/sonde.h"
#include "profile_fixture.h"

#define K(name) SONDE_PROFILE_KEY_##name
#define ST_MEM (ST_IP | ST_TID | ST_TIME | SONDE_PERF_SAMPLE_ADDR | ST_CPU | ST_PERIOD | \
		SONDE_PERF_SAMPLE_WEIGHT_STRUCT | SONDE_PERF_SAMPLE_DATA_SRC |              \
		SONDE_PERF_SAMPLE_TRANSACTION | SONDE_PERF_SAMPLE_PHYS_ADDR |               \
		SONDE_PERF_SAMPLE_CGROUP | SONDE_PERF_SAMPLE_DATA_PAGE_SIZE |               \
		SONDE_PERF_SAMPLE_CODE_PAGE_SIZE)

struct smp {
	uint64_t ip, time, addr, weight, data_src, txn, phys, cgroup, dps, cps;
	uint32_t cpu;
	uint16_t ins_lat;
};

static void add(struct sonde_profile *p, const struct smp *s)
{
	struct sonde_record rec;

	memset(&rec, 0, sizeof(rec));
	rec.type = SONDE_PERF_RECORD_SAMPLE;
	rec.misc = SONDE_PERF_RECORD_MISC_USER;
	rec.sample.sample_type = ST_MEM;
	rec.sample.ip = s->ip;
	rec.sample.pid = rec.sample.tid = (uint32_t)pid;
	rec.sample.time = s->time;
	rec.sample.addr = s->addr;
	rec.sample.cpu = s->cpu;
	rec.sample.period = 10;
	rec.sample.weight.var1_dw = (uint32_t)s->weight;
	rec.sample.weight.var2_w = s->ins_lat;
	rec.sample.data_src.val = s->data_src;
	rec.sample.transaction = s->txn;
	rec.sample.phys_addr = s->phys;
	rec.sample.cgroup = s->cgroup;
	rec.sample.data_page_size = s->dps;
	rec.sample.code_page_size = s->cps;
	assert_int_equal(sonde_profile__add_record(p, 0, &rec), 1);
}

static struct sonde_profile *new_profile(const enum sonde_profile_key *keys, size_t nr,
					 bool mem)
{
	struct sonde_perf_event_attr attr = { 0 };
	SONDE_OPTS(sonde_profile_opts, po, .keys = keys, .nr_keys = nr, .mem_mode = mem,
		   .time_quantum = 1000);

	attr.size = sizeof(attr);
	attr.sample_type = ST_MEM;
	attr.sample_period = 10;
	return pf_live_profile(&po, &attr, "mem-loads");
}

static struct sonde_profile_entry_keys keys_of(struct sonde_profile *p, size_t i)
{
	struct sonde_profile_entry_keys v;

	assert_int_equal(sonde_profile_entry__keys(sonde_profile__entry(p, 0, i), &v), 0);
	return v;
}

static const struct smp samples[] = {
	/* ip, time, addr, weight, data_src, txn, phys, cgroup, dps, cps, cpu, ins_lat */
	{ F_A + 4, 1500, 0x1000, 30, 0x68100142, 0, 0x5000, 7, 4096, 4096, 1, 5 },
	{ F_B + 4, 2500, 0x1040, 200, 0x68100242, 0x100000006, 0x6000, 7, 4096, 2097152, 0, 9 },
	{ F_A + 8, 2600, 0x1008, 30, 0x68100142, 0, 0x5008, 8, 2097152, 4096, 1, 5 },
	{ F_C + 4, 3700, 0x2000, 5, 0x68100142, 0x8, 0x7000, 7, 4096, 4096, 0, 1 },
};

static void feed(struct sonde_profile *p)
{
	for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++)
		add(p, &samples[i]);
}

/* local_weight: one entry per weight, heaviest first (perf's order), each sample's own value */
static void test_weight(void **state)
{
	static const enum sonde_profile_key k[] = { K(LOCAL_WEIGHT) };
	struct sonde_profile *p = new_profile(k, 1, false);

	(void)state;
	feed(p);
	sonde_profile__set_children(p, false);
	assert_int_equal(sonde_profile__nr_entries(p, 0), 3);
	/* the weight 30 entry holds two samples (20 period) and leads on weight;
	 * the others tie on 10 and go by weight, descending */
	assert_int_equal(keys_of(p, 0).weight, 30);
	assert_int_equal(sonde_profile_entry__samples(sonde_profile__entry(p, 0, 0)), 2);
	assert_int_equal(keys_of(p, 1).weight, 200);
	assert_int_equal(keys_of(p, 2).weight, 5);
	sonde_profile__free(p);
}

/* the sample values of several keys at once, and the time quantum */
static void test_sample_values(void **state)
{
	static const enum sonde_profile_key k[] = { K(SYM), K(TRANSACTION), K(CGROUP), K(TIME),
						    K(CODE_PAGE_SIZE), K(INS_LAT), K(ADDR) };
	struct sonde_profile *p = new_profile(k, sizeof(k) / sizeof(k[0]), false);
	struct sonde_profile_entry_keys v;
	bool seen_b = false;

	(void)state;
	feed(p);
	sonde_profile__set_children(p, false);
	assert_int_equal(sonde_profile__nr_entries(p, 0), 4);
	for (size_t i = 0; i < 4; i++) {
		const struct sonde_profile_entry *e = sonde_profile__entry(p, 0, i);

		v = keys_of(p, i);
		assert_int_equal(v.time % 1000, 0);
		if (!strcmp(sonde_profile_entry__sym(e), "fb")) {
			seen_b = true;
			assert_int_equal(v.transaction, 0x100000006ULL);
			assert_int_equal(v.cgroup, 7);
			assert_null(v.cgroup_name); /* no CGROUP record named it */
			assert_int_equal(v.time, 2000);
			assert_int_equal(v.code_page_size, 2097152);
			assert_int_equal(v.ins_lat, 9);
			assert_int_equal(v.addr, F_B + 4);
		}
	}
	assert_true(seen_b);
	sonde_profile__free(p);
}

/*
 * cgroup_id from a NAMESPACES record whose links are not 8-byte aligned,
 * as in a pipe file after a FEATURE record of odd size: read, not loaded
 * through a misaligned pointer (which the SAN build stops on).
 */
static void test_cgroup_id_unaligned(void **state)
{
	static const enum sonde_profile_key k[] = { K(CGROUP_ID) };
	struct sonde_profile *p = new_profile(k, 1, false);
	uint64_t words[1 + 2 * 7];
	struct sonde_perf_ns_link_info l[7];
	struct sonde_record rec;

	(void)state;
	for (int i = 0; i < 7; i++)
		l[i] = (struct sonde_perf_ns_link_info){ .dev = 0x10 + (uint64_t)i,
							  .ino = 0xf000 + (uint64_t)i };
	memcpy((char *)words + 4, l, sizeof(l));
	memset(&rec, 0, sizeof(rec));
	rec.type = SONDE_PERF_RECORD_NAMESPACES;
	rec.namespaces.pid = rec.namespaces.tid = (uint32_t)pid;
	rec.namespaces.nr = 7;
	rec.namespaces.link = (const void *)((char *)words + 4);
	assert_true(sonde_profile__add_record(p, 0, &rec) >= 0);
	add(p, &samples[0]);
	sonde_profile__set_children(p, false);
	assert_int_equal(sonde_profile__nr_entries(p, 0), 1);
	/* the cgroup namespace's link, index 6 */
	assert_int_equal(keys_of(p, 0).cgroup_dev, 0x16);
	assert_int_equal(keys_of(p, 0).cgroup_ino, 0xf006);
	sonde_profile__free(p);
}

/* --mem-mode: a sample weighs its weight; memory keys compare their own bits only */
static void test_mem_mode(void **state)
{
	static const enum sonde_profile_key k[] = { K(MEM), K(PHYS_DADDR), K(DATA_PAGE_SIZE) };
	static const enum sonde_profile_key lvl[] = { K(MEM) };
	struct sonde_profile_event_stats st;
	struct sonde_profile *p = new_profile(k, 3, true);

	(void)state;
	feed(p);
	assert_int_equal(sonde_profile__event_stats(p, 0, &st), 0);
	assert_int_equal(st.period, 30 + 200 + 30 + 5);
	assert_int_equal(sonde_profile__nr_entries(p, 0), 4);
	assert_int_equal(sonde_profile_entry__self(sonde_profile__entry(p, 0, 0)), 200);
	assert_int_equal(keys_of(p, 0).phys_addr, 0x6000);
	assert_int_equal(keys_of(p, 0).data_src.mem_lvl, (0x68100242 >> 5) & 0x3fff);
	sonde_profile__free(p);

	/* by level alone: the L1 hits (0x142) and the one LFB hit (0x242) */
	p = new_profile(lvl, 1, true);
	feed(p);
	assert_int_equal(sonde_profile__nr_entries(p, 0), 2);
	/* the weights decide: the LFB hit (200) before the three L1 hits (65) */
	assert_int_equal(keys_of(p, 0).data_src.mem_lvl, 0x12);
	assert_int_equal(sonde_profile_entry__self(sonde_profile__entry(p, 0, 0)), 200);
	assert_int_equal(keys_of(p, 1).data_src.mem_lvl, 0x0a);
	assert_int_equal(sonde_profile_entry__self(sonde_profile__entry(p, 0, 1)), 65);
	assert_int_equal(sonde_profile_entry__samples(sonde_profile__entry(p, 0, 1)), 3);
	sonde_profile__free(p);
}

/* the frame's keys: function size and the parent pattern */
static void test_frame_keys(void **state)
{
	static const enum sonde_profile_key k[] = { K(SYM_SIZE), K(PARENT) };
	struct sonde_perf_event_attr attr = { 0 };
	SONDE_OPTS(sonde_profile_opts, po, .keys = k, .nr_keys = 2, .callchains = true,
		   .parent = "^f[ab]$");
	const uint64_t chain[] = { (uint64_t)-512, F_C + 4, F_B + 8, F_A + 8, F_MAIN + 8 };
	struct sonde_profile *p;
	struct sonde_record rec;
	struct sonde_profile_entry_keys v;

	(void)state;
	attr.size = sizeof(attr);
	attr.sample_type = ST_IP | ST_TID | ST_PERIOD | ST_CALLCHAIN;
	attr.sample_period = 10;
	p = pf_live_profile(&po, &attr, "cycles");
	pf_user_sample(&rec, attr.sample_type, F_C + 4, 10, chain, 5);
	assert_int_equal(sonde_profile__add_record(p, 0, &rec), 1);
	assert_int_equal(sonde_profile__nr_entries(p, 0), 1);
	v = keys_of(p, 0);
	assert_true(v.has_sym);
	assert_int_equal(v.sym_size, 0x100);
	/* the first match from the sample outwards: fb, not fa */
	assert_string_equal(v.parent, "fb");
	sonde_profile__free(p);
}

/*
 * ipc_null beside a symbol key, without a dso key: perf's sort__sym_cmp
 * orders rows of equal weight by object name before symbol, so a row
 * without a symbol in "IPC.so" comes before fa of the JIT map ("[JIT]
 * tid PID"), though a row without a symbol goes last in one object.
 */
static void test_ipc_null_objects(void **state)
{
	static const enum sonde_profile_key k[] = { K(IPC_NULL), K(SYM) };
	const uint64_t lib = 0x7e0000000000ULL;
	struct sonde_perf_event_attr attr = { 0 };
	SONDE_OPTS(sonde_profile_opts, po, .keys = k, .nr_keys = 2);
	const uint64_t ips[] = { F_A + 4, lib + 0x100 };
	struct sonde_profile *p;
	struct sonde_record rec;

	(void)state;
	attr.size = sizeof(attr);
	attr.sample_type = ST_IP | ST_TID | ST_PERIOD;
	attr.sample_period = 10;
	p = pf_live_profile(&po, &attr, "cpu-clock");
	pf_live_mmap(p, lib, "/nonexistent/IPC.so");
	for (size_t i = 0; i < 2; i++) {
		pf_user_sample(&rec, attr.sample_type, ips[i], 10, NULL, 0);
		assert_int_equal(sonde_profile__add_record(p, 0, &rec), 1);
	}
	sonde_profile__set_children(p, false);
	assert_int_equal(sonde_profile__nr_entries(p, 0), 2);
	assert_null(sonde_profile_entry__sym(sonde_profile__entry(p, 0, 0)));
	assert_string_equal(sonde_profile_entry__sym(sonde_profile__entry(p, 0, 1)), "fa");
	sonde_profile__free(p);
}

static void test_parse(void **state)
{
	(void)state;
	assert_int_equal(sonde_profile_key__parse("srcfile"), K(SRCFILE));
	assert_int_equal(sonde_profile_key__parse("srcf"), K(SRCFILE));
	assert_int_equal(sonde_profile_key__parse("sym"), K(SYM));
	assert_int_equal(sonde_profile_key__parse("SYMBOL_DADDR"), K(SYM_DADDR));
	assert_int_equal(sonde_profile_key__parse("weight"), K(WEIGHT));
	assert_int_equal(sonde_profile_key__parse("tid"), K(TID));
	/* perf's table order: "s" is symbol, "sa" a column of perf's, no key */
	assert_int_equal(sonde_profile_key__parse("s"), K(SYM));
	assert_int_equal(sonde_profile_key__parse("sample"), -EINVAL);
	assert_int_equal(sonde_profile_key__parse(""), -EINVAL);
	assert_int_equal(sonde_profile_key__parse("nosuchkey"), -EINVAL);
}

/* memory keys need mem_mode; branch and mem mode exclude each other */
static void test_refused(void **state)
{
	static const enum sonde_profile_key k[] = { K(TLB) };
	/* a named array: a compound literal in SONDE_OPTS's statement
	 * expression would end with it */
	static const enum sonde_profile_key parent[] = { K(PARENT) };
	SONDE_OPTS(sonde_profile_opts, po, .keys = k, .nr_keys = 1);
	SONDE_OPTS(sonde_profile_opts, both, .branches = true, .mem_mode = true);
	SONDE_OPTS(sonde_profile_opts, bad_re, .keys = parent, .nr_keys = 1, .parent = "(");

	(void)state;
	errno = 0;
	assert_null(sonde_profile__new(&po));
	assert_int_equal(errno, EINVAL);
	assert_null(sonde_profile__new(&both));
	assert_int_equal(errno, EINVAL);
	assert_null(sonde_profile__new(&bad_re));
	assert_int_equal(errno, EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_weight),	   cmocka_unit_test(test_sample_values),
		cmocka_unit_test(test_mem_mode),   cmocka_unit_test(test_frame_keys),
		cmocka_unit_test(test_parse),	   cmocka_unit_test(test_refused),
		cmocka_unit_test(test_cgroup_id_unaligned), cmocka_unit_test(test_ipc_null_objects),
	};

	return cmocka_run_group_tests(tests, pf_setup, pf_teardown);
}
