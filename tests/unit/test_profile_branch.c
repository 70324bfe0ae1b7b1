// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde_profile__sample_branches(): a sample's branch stack resolved on
 * records built by hand (PERF_SAMPLE_BRANCH_STACK as record -b writes it,
 * with and without hw_idx), and on a generated perf.data through a
 * reader. Symbols come from a JIT map file (/tmp/perf-PID.map) so that
 * names and addresses are the test's own, whatever the machine.
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

#define UNMAPPED 0x1234ULL

static struct sonde_perf_branch_entry entry(uint64_t from, uint64_t to)
{
	struct sonde_perf_branch_entry e;

	memset(&e, 0, sizeof(e));
	e.from = from;
	e.to = to;
	return e;
}

static void test_records(void **state)
{
	struct sonde_perf_event_attr attr = { 0 };
	struct sonde_perf_branch_entry e[3];
	struct sonde_profile_branch b[3];
	struct sonde_profile *p;
	struct sonde_record rec;

	(void)state;
	attr.size = sizeof(attr);
	attr.sample_type = ST_IP | ST_TID | ST_PERIOD | ST_BRANCH_STACK;
	attr.sample_period = 10;
	attr.branch_sample_type = SONDE_PERF_SAMPLE_BRANCH_ANY;
	p = pf_live_profile(NULL, &attr, "cycles");

	e[0] = entry(F_A + 0x10, F_B);
	e[0].predicted = 1;
	e[0].cycles = 7;
	e[0].type = SONDE_PERF_BR_CALL;
	e[1] = entry(F_B + 0x20, F_A + 0x14);
	e[1].mispred = 1;
	e[1].type = SONDE_PERF_BR_RET;
	e[2] = entry(F_MAIN + 8, UNMAPPED);
	e[2].in_tx = e[2].abort = 1;
	memset(&rec, 0, sizeof(rec));
	rec.type = SONDE_PERF_RECORD_SAMPLE;
	rec.misc = SONDE_PERF_RECORD_MISC_USER;
	rec.sample.sample_type = attr.sample_type;
	rec.sample.ip = F_A + 0x14;
	rec.sample.pid = rec.sample.tid = (uint32_t)pid;
	rec.sample.period = 10;
	rec.sample.branch.nr = 3;
	rec.sample.branch.entries = e;

	/* How many there are, without room for any. */
	assert_int_equal(sonde_profile__sample_branches(p, 0, &rec, NULL, 0), 3);
	assert_int_equal(sonde_profile__sample_branches(p, 0, &rec, NULL, 1), -EINVAL);
	/* Room for fewer: the first ones, the count of all. */
	memset(b, 0, sizeof(b));
	assert_int_equal(sonde_profile__sample_branches(p, 0, &rec, b, 1), 3);
	assert_string_equal(sonde_profile_frame__sym(b[0].from), "fa");
	assert_null(b[1].from);

	assert_int_equal(sonde_profile__sample_branches(p, 0, &rec, b, 3), 3);
	assert_string_equal(sonde_profile_frame__sym(b[0].from), "fa");
	assert_int_equal(sonde_profile_frame__sym_offset(b[0].from), 0x10);
	assert_string_equal(sonde_profile_frame__sym(b[0].to), "fb");
	assert_int_equal(sonde_profile_frame__sym_offset(b[0].to), 0);
	assert_int_equal(sonde_profile_frame__ip(b[0].to), F_B);
	assert_int_equal(b[0].entry.from, F_A + 0x10);
	assert_int_equal(b[0].entry.predicted, 1);
	assert_int_equal(b[0].entry.cycles, 7);
	assert_int_equal(b[0].entry.type, SONDE_PERF_BR_CALL);
	assert_string_equal(sonde_profile_frame__sym(b[1].from), "fb");
	assert_string_equal(sonde_profile_frame__sym(b[1].to), "fa");
	assert_int_equal(b[1].entry.mispred, 1);
	assert_int_equal(b[1].entry.type, SONDE_PERF_BR_RET);
	assert_string_equal(sonde_profile_frame__sym(b[2].from), "main");
	assert_non_null(sonde_profile_frame__dso(b[2].from));
	/* An address no map holds: no object, no function, the raw address. */
	assert_null(sonde_profile_frame__sym(b[2].to));
	assert_null(sonde_profile_frame__dso(b[2].to));
	assert_int_equal(sonde_profile_frame__ip(b[2].to), UNMAPPED);
	assert_int_equal(b[2].entry.in_tx, 1);
	assert_int_equal(b[2].entry.abort, 1);
	assert_int_equal(sonde_profile_frame__kind(b[0].from) & SONDE_PROFILE_FRAME_KERNEL, 0);

	/* Resolving is not counting. */
	assert_int_equal(sonde_profile__nr_entries(p, 0), 0);

	/* Not a sample, an unknown event. */
	rec.type = SONDE_PERF_RECORD_COMM;
	assert_int_equal(sonde_profile__sample_branches(p, 0, &rec, b, 3), -EINVAL);
	rec.type = SONDE_PERF_RECORD_SAMPLE;
	assert_int_equal(sonde_profile__sample_branches(p, 5, &rec, b, 3), -ENOENT);
	assert_int_equal(sonde_profile__sample_branches(NULL, 0, &rec, b, 3), -EINVAL);
	sonde_profile__free(p);

	/* An event without branch stacks has none. */
	attr.sample_type &= ~(uint64_t)ST_BRANCH_STACK;
	p = pf_live_profile(NULL, &attr, "cycles");
	rec.sample.sample_type = attr.sample_type;
	assert_int_equal(sonde_profile__sample_branches(p, 0, &rec, b, 3), 0);
	sonde_profile__free(p);
}

/* A perf.data written with the library's codec: decoded, then resolved. */
static void test_file(void **state)
{
	struct sonde_perf_event_attr attr = { 0 };
	struct sonde_perf_branch_entry e[2];
	struct sonde_record_fmt fmt;
	struct sonde_record rec;
	struct pdgen g = { 0 };
	struct sonde_perfdata_reader *r;
	struct sonde_perfdata_record pr;
	struct sonde_profile *p;
	struct sonde_profile_branch b[2];
	uint8_t buf[512];
	int n, seen = 0;

	(void)state;
	attr.size = sizeof(attr);
	attr.sample_type = ST_IP | ST_TID | ST_TIME | ST_PERIOD | ST_BRANCH_STACK;
	attr.branch_sample_type = SONDE_PERF_SAMPLE_BRANCH_ANY | SONDE_PERF_SAMPLE_BRANCH_HW_INDEX;
	assert_int_equal(sonde_record_fmt__from_attr(&fmt, &attr), 0);

	pdg_file_begin(&g, attr.sample_type, 100);
	pdg_set64(&g, 104 + 72, attr.branch_sample_type);
	pdg_comm(&g, (uint32_t)pid, (uint32_t)pid, "work", 1);
	pdg_mmap(&g, (uint32_t)pid, BASE, 0x1000, 0, "//anon", 1);
	e[0] = entry(F_B + 4, F_A + 0x20);
	e[0].type = SONDE_PERF_BR_RET;
	e[1] = entry(F_A + 0x1c, F_B);
	e[1].type = SONDE_PERF_BR_CALL;
	e[1].cycles = 3;
	memset(&rec, 0, sizeof(rec));
	rec.type = SONDE_PERF_RECORD_SAMPLE;
	rec.misc = SONDE_PERF_RECORD_MISC_USER;
	rec.sample.sample_type = attr.sample_type;
	rec.sample.ip = F_A + 0x20;
	rec.sample.pid = rec.sample.tid = (uint32_t)pid;
	rec.sample.time = 2;
	rec.sample.period = 100;
	rec.sample.branch.nr = 2;
	rec.sample.branch.hw_idx = 1;
	rec.sample.branch.entries = e;
	n = sonde_record__encode(&fmt, &rec, buf, sizeof(buf));
	assert_true(n > 0);
	pdg_bytes(&g, buf, (size_t)n);
	pdg_file_end(&g, 1, 2);

	r = sonde_perfdata_reader__open_mem(g.buf, g.len, NULL);
	assert_non_null(r);
	p = sonde_profile__new(NULL);
	assert_non_null(p);
	while (sonde_perfdata_reader__next(r, &pr) > 0) {
		struct sonde_record d;

		if (pr.type != SONDE_PERF_RECORD_SAMPLE) {
			sonde_profile__add_perfdata_record(p, r, &pr);
			continue;
		}
		assert_int_equal(sonde_record__decode(&fmt, pr.hdr, pr.size, &d), 0);
		assert_int_equal(d.sample.branch.hw_idx, 1);
		assert_int_equal(sonde_profile__sample_branches(p, pr.attr_idx, &d, b, 2), 2);
		assert_string_equal(sonde_profile_frame__sym(b[0].from), "fb");
		assert_string_equal(sonde_profile_frame__sym(b[0].to), "fa");
		assert_int_equal(sonde_profile_frame__sym_offset(b[0].to), 0x20);
		assert_int_equal(b[0].entry.type, SONDE_PERF_BR_RET);
		assert_string_equal(sonde_profile_frame__sym(b[1].from), "fa");
		assert_int_equal(b[1].entry.cycles, 3);
		seen++;
	}
	assert_int_equal(seen, 1);
	sonde_profile__free(p);
	sonde_perfdata_reader__free(r);
	free(g.buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_file),
	};

	return cmocka_run_group_tests(tests, pf_setup, pf_teardown);
}
