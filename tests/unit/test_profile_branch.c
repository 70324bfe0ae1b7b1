// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde_profile__sample_branches(): a sample's branch stack resolved on
 * records built by hand (PERF_SAMPLE_BRANCH_STACK as record -b writes it,
 * with and without hw_idx), and on a generated perf.data through a
 * reader; and the histogram of branches (opts.branches, perf report's
 * branch mode): rows, counts, order, filters and type statistics. Symbols
 * come from a JIT map file (/tmp/perf-PID.map) so that names and
 * addresses are the test's own, whatever the machine.
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

	memset(b, 0xff, sizeof(b));
	assert_int_equal(sonde_profile__sample_branches(p, 0, &rec, b, 3), 3);
	assert_int_equal(b[2].reserved[0] | b[2].reserved[1], 0); /* room: zeroed */
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

/* ---- the histogram of branches ---- */

static const struct sonde_perf_event_attr brattr = {
	.size = sizeof(struct sonde_perf_event_attr),
	.sample_type = ST_IP | ST_TID | ST_TIME | ST_PERIOD | ST_BRANCH_STACK,
	.sample_period = 10,
	.branch_sample_type = SONDE_PERF_SAMPLE_BRANCH_ANY,
};

static struct sonde_profile *branch_profile(const enum sonde_profile_key *keys, size_t nr)
{
	SONDE_OPTS(sonde_profile_opts, o, .branches = true, .keys = keys, .nr_keys = nr);

	return pf_live_profile(&o, &brattr, "cycles");
}

/* One sample of thread @tid at @time with branches @e. */
static int add_branches(struct sonde_profile *p, int tid, uint64_t time,
			struct sonde_perf_branch_entry *e, uint64_t nr)
{
	struct sonde_record rec;

	memset(&rec, 0, sizeof(rec));
	rec.type = SONDE_PERF_RECORD_SAMPLE;
	rec.misc = SONDE_PERF_RECORD_MISC_USER;
	rec.sample.sample_type = brattr.sample_type;
	rec.sample.ip = F_A + 0x14;
	rec.sample.pid = (uint32_t)pid;
	rec.sample.tid = (uint32_t)tid;
	rec.sample.time = time;
	rec.sample.period = 10;
	rec.sample.branch.nr = nr;
	rec.sample.branch.entries = e;
	return sonde_profile__add_record(p, 0, &rec);
}

static struct sonde_perf_branch_entry typed(uint64_t from, uint64_t to, unsigned type)
{
	struct sonde_perf_branch_entry e = entry(from, to);

	e.type = type & 15;
	return e;
}

static const char *row_sym(struct sonde_profile *p, size_t i, bool to)
{
	const struct sonde_profile_branch *b =
		sonde_profile_branch_entry__branch(sonde_profile__branch_entry(p, 0, i));

	return sonde_profile_frame__sym(to ? b->to : b->from);
}

/* perf's default keys: rows by count, then comm, dso_from, symbol_from, symbol_to, cycles. */
static void test_hist_default(void **state)
{
	struct sonde_profile *p = branch_profile(NULL, 0);
	struct sonde_perf_branch_entry s1[3], s2[2];
	struct sonde_profile_branch_stats st;
	const struct sonde_profile_branch_entry *r;

	(void)state;
	s1[0] = typed(F_A + 0x10, F_B, SONDE_PERF_BR_CALL);
	s1[0].cycles = 7;
	s1[1] = typed(F_B + 0x20, F_A + 0x14, SONDE_PERF_BR_RET);
	s1[2] = typed(F_MAIN + 8, F_A, SONDE_PERF_BR_COND);
	s2[0] = typed(F_A + 0x18, F_B + 4, SONDE_PERF_BR_COND); /* same functions as s1[0] */
	s2[0].cycles = 7;
	s2[1] = typed(F_B + 0x24, F_A + 0x14, SONDE_PERF_BR_UNKNOWN); /* = s1[1] by the keys */
	assert_int_equal(add_branches(p, pid, 1, s1, 3), 1);
	assert_int_equal(add_branches(p, pid, 2, s2, 2), 1);
	assert_int_equal(add_branches(p, pid, 3, s2, 1), 1);

	/* Branch mode makes no usual histogram. */
	assert_int_equal(sonde_profile__nr_entries(p, 0), 0);
	assert_int_equal(sonde_profile__nr_branch_entries(p, 0), 3);
	r = sonde_profile__branch_entry(p, 0, 0);
	assert_int_equal(sonde_profile_branch_entry__count(r), 3);
	assert_string_equal(row_sym(p, 0, false), "fa");
	assert_string_equal(row_sym(p, 0, true), "fb");
	/* A row shows its first branch: the address and flags of s1[0]. */
	assert_int_equal(sonde_profile_branch_entry__branch(r)->entry.from, F_A + 0x10);
	assert_int_equal(sonde_profile_branch_entry__branch(r)->entry.cycles, 7);
	assert_string_equal(sonde_profile_branch_entry__comm(r), "work");
	assert_false(sonde_profile_branch_entry__kernel(r));
	/* No srcline key: none looked up. */
	assert_null(sonde_profile_branch_entry__srcline(r, false));
	assert_int_equal(sonde_profile_branch_entry__count(sonde_profile__branch_entry(p, 0, 1)), 2);
	assert_string_equal(row_sym(p, 1, false), "fb");
	/* Equal counts: perf's symbol_from order, the higher start first. */
	assert_int_equal(sonde_profile_branch_entry__count(sonde_profile__branch_entry(p, 0, 2)), 1);
	assert_string_equal(row_sym(p, 2, false), "main");
	assert_null(sonde_profile__branch_entry(p, 0, 3));

	/*
	 * perf's statistics count each branch by its row's first branch: the
	 * RET row's second branch (type unknown) counts as a RET.
	 */
	assert_int_equal(sonde_profile__branch_stats(p, 0, &st), 0);
	assert_int_equal(st.branches, 6);
	assert_int_equal(st.shown_branches, 6);
	assert_int_equal(st.types[SONDE_PERF_BR_CALL], 3);
	assert_int_equal(st.types[SONDE_PERF_BR_RET], 2);
	assert_int_equal(st.types[SONDE_PERF_BR_COND], 1);
	assert_int_equal(st.cond_fwd, 1); /* main+8 to fa: forward */
	assert_int_equal(st.cond_bwd, 0);
	assert_int_equal(sonde_profile__branch_stats(p, 1, &st), -EINVAL);
	sonde_profile__free(p);

	/* A usual profile has no branch rows. */
	p = pf_live_profile(NULL, &brattr, "cycles");
	assert_int_equal(add_branches(p, pid, 1, s1, 3), 1);
	assert_int_equal(sonde_profile__nr_branch_entries(p, 0), 0);
	assert_int_equal(sonde_profile__nr_entries(p, 0), 1);
	assert_int_equal(sonde_profile__branch_stats(p, 0, &st), 0);
	assert_int_equal(st.branches, 0);
	sonde_profile__free(p);
}

/*
 * The time slice drops branches; the tid filter hides rows by the thread
 * of their first branch, as perf does, and the totals keep them.
 */
static void test_hist_filters(void **state)
{
	static const enum sonde_profile_key keys[] = { SONDE_PROFILE_KEY_SYM_TO };
	struct sonde_profile *p = branch_profile(keys, 1);
	struct sonde_profile_time_range tr = { 10, 100 };
	int32_t tid = pid;
	SONDE_OPTS(sonde_profile_filter, f, .tids = &tid, .nr_tids = 1, .times = &tr, .nr_times = 1);
	struct sonde_perf_branch_entry e[2];
	struct sonde_profile_branch_stats st;

	(void)state;
	assert_int_equal(sonde_profile__set_filter(p, &f), 0);
	e[0] = typed(F_A, F_B, SONDE_PERF_BR_CALL);
	e[1] = typed(F_B, F_MAIN, SONDE_PERF_BR_RET);
	assert_int_equal(add_branches(p, pid + 1, 20, e, 2), 1); /* rows fb, main: hidden */
	assert_int_equal(add_branches(p, pid, 30, e, 1), 1);	  /* counts in the hidden fb row */
	assert_int_equal(add_branches(p, pid, 5, e + 1, 1), 0);	  /* before the slice */
	e[1].to = F_A;
	assert_int_equal(add_branches(p, pid, 40, e + 1, 1), 1); /* a row fa, shown */
	assert_int_equal(sonde_profile__branch_stats(p, 0, &st), 0);
	assert_int_equal(st.branches, 4);
	assert_int_equal(st.shown_branches, 1);
	assert_int_equal(sonde_profile__nr_branch_entries(p, 0), 1);
	assert_string_equal(row_sym(p, 0, true), "fa");
	sonde_profile__free(p);
}

/*
 * perf's mispredict comparison says "differs", never which way: rows are
 * met or missed by the shape of perf's tree. Branches without flags,
 * predicted, mispredicted, then without flags again make two rows without
 * flags there (the last one is compared with the other two only).
 */
static void test_hist_not_an_order(void **state)
{
	static const enum sonde_profile_key keys[] = { SONDE_PROFILE_KEY_MISPREDICT };
	struct sonde_profile *p = branch_profile(keys, 1);
	struct sonde_perf_branch_entry e[4];
	size_t plain = 0;

	(void)state;
	for (int i = 0; i < 4; i++)
		e[i] = typed(F_A, F_B, SONDE_PERF_BR_CALL);
	e[1].predicted = 1;
	e[2].mispred = 1;
	for (int i = 0; i < 4; i++)
		assert_int_equal(add_branches(p, pid, 1, &e[i], 1), 1);
	assert_int_equal(sonde_profile__nr_branch_entries(p, 0), 4);
	for (size_t i = 0; i < 4; i++) {
		const struct sonde_perf_branch_entry *f =
			&sonde_profile_branch_entry__branch(sonde_profile__branch_entry(p, 0, i))->entry;

		plain += !f->predicted && !f->mispred;
	}
	assert_int_equal(plain, 2);
	sonde_profile__free(p);
}

/* Like perf, a row's srcline is looked up when a comparison needs it. */
static void test_hist_srcline(void **state)
{
	static const enum sonde_profile_key keys[] = { SONDE_PROFILE_KEY_SRCLINE_FROM,
						       SONDE_PROFILE_KEY_SRCLINE_TO };
	struct sonde_profile *p = branch_profile(keys, 2);
	struct sonde_perf_branch_entry e[3];
	int with_to = 0;

	(void)state;
	e[0] = typed(F_A + 4, F_B, SONDE_PERF_BR_CALL);
	e[1] = typed(F_B + 4, UNMAPPED, SONDE_PERF_BR_CALL);
	e[2] = typed(F_A + 4, F_MAIN, SONDE_PERF_BR_CALL); /* the same source as e[0] */
	assert_int_equal(add_branches(p, pid, 1, e, 3), 1);
	assert_int_equal(sonde_profile__nr_branch_entries(p, 0), 3);
	for (size_t i = 0; i < 3; i++) {
		const struct sonde_profile_branch_entry *r = sonde_profile__branch_entry(p, 0, i);
		const char *to = sonde_profile_branch_entry__srcline(r, true);

		/* No line table in a JIT map: perf's function+offset. */
		assert_non_null(sonde_profile_branch_entry__srcline(r, false));
		if (to) {
			with_to++;
			assert_true(!strcmp(to, "fb+0") || !strcmp(to, "main+0"));
		}
	}
	/* Only the rows with an equal source were compared by their target. */
	assert_int_equal(with_to, 2);
	sonde_profile__free(p);
}

static void test_hist_keys(void **state)
{
	static const enum sonde_profile_key sym[] = { SONDE_PROFILE_KEY_SYM };
	static const enum sonde_profile_key cyc[] = { SONDE_PROFILE_KEY_CYCLES };
	SONDE_OPTS(sonde_profile_opts, o, .branches = true, .keys = sym, .nr_keys = 1);
	SONDE_OPTS(sonde_profile_opts, u, .keys = cyc, .nr_keys = 1);

	(void)state;
	assert_int_equal(sonde_profile_key__parse("dso_from"), SONDE_PROFILE_KEY_DSO_FROM);
	assert_int_equal(sonde_profile_key__parse("symbol_to"), SONDE_PROFILE_KEY_SYM_TO);
	assert_int_equal(sonde_profile_key__parse("abort"), SONDE_PROFILE_KEY_ABORT);
	assert_int_equal(sonde_profile_key__parse("srcline_from"), SONDE_PROFILE_KEY_SRCLINE_FROM);
	assert_int_equal(sonde_profile_key__parse("ipc_lbr"), -EINVAL);
	/* A usual key in branch mode, a branch key outside it. */
	errno = 0;
	assert_null(sonde_profile__new(&o));
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_null(sonde_profile__new(&u));
	assert_int_equal(errno, EINVAL);
}

/* ---- branch history ---- */

static struct sonde_profile *history_profile(bool caller)
{
	SONDE_OPTS(sonde_profile_opts, o, .branch_history = true, .callchains = true,
		   .call_trees = true, .caller_order = caller);

	return pf_live_profile(&o, &brattr, "cycles");
}

/* The only child of @n (asserted). */
static const struct sonde_profile_node *only_child(const struct sonde_profile_node *n)
{
	const struct sonde_profile_node *c = NULL;

	assert_int_equal(sonde_profile_node__nr_children(n), 1);
	sonde_profile_node__children(n, 0, SONDE_PROFILE_BY_WEIGHT, &c, 1);
	assert_non_null(c);
	return c;
}

/*
 * Each branch adds its target, then its source, the oldest branch first
 * in caller order; nodes are addresses, and count what the branches said.
 */
static void test_history_paths(void **state)
{
	struct sonde_profile *p = history_profile(true);
	struct sonde_perf_branch_entry e[2];
	struct sonde_profile_node_branch c;
	const struct sonde_profile_node *n;
	const struct sonde_profile_entry *ent;

	(void)state;
	e[0] = typed(F_B + 0x20, F_A + 0x14, SONDE_PERF_BR_RET); /* newest */
	e[0].predicted = 1;
	e[0].cycles = 4;
	e[1] = typed(F_A + 0x10, F_B, SONDE_PERF_BR_CALL); /* oldest */
	e[1].cycles = 9;
	assert_int_equal(add_branches(p, pid, 1, e, 2), 1);
	assert_int_equal(add_branches(p, pid, 2, e, 2), 1);
	e[0].predicted = 0;
	assert_int_equal(add_branches(p, pid, 3, e, 2), 1);
	assert_true(sonde_profile__has_callchains(p));
	assert_int_equal(sonde_profile__nr_entries(p, 0), 1);
	ent = sonde_profile__entry(p, 0, 0);
	assert_string_equal(sonde_profile_entry__sym(ent), "fa"); /* the sample's ip */
	/* fb (the call's target), fa+0x10 (its source), fa+0x14, fb+0x20 */
	n = only_child(sonde_profile_entry__tree(ent));
	assert_int_equal(sonde_profile_node__ip(n), F_B);
	assert_int_equal(sonde_profile_node__branch(p, n, &c), 0);
	assert_true(c.target);
	assert_int_equal(c.branches, 3);
	assert_int_equal(c.types[SONDE_PERF_BR_CALL], 3);
	assert_int_equal(c.predicted, 0);
	n = only_child(n);
	assert_int_equal(sonde_profile_node__ip(n), F_A + 0x10);
	assert_int_equal(sonde_profile_node__branch(p, n, &c), 0);
	assert_false(c.target);
	assert_int_equal(c.cycles, 27);
	assert_int_equal(c.from_count, 2); /* perf leaves the first one out */
	n = only_child(n);
	assert_int_equal(sonde_profile_node__ip(n), F_A + 0x14);
	assert_int_equal(sonde_profile_node__branch(p, n, &c), 0);
	assert_true(c.target);
	assert_int_equal(c.predicted, 2);
	assert_int_equal(c.types[SONDE_PERF_BR_RET], 3);
	/* No line table in a JIT map: perf's "+offset" into the function. */
	assert_string_equal(sonde_profile_node__srcline(p, n), "+20");
	n = only_child(n);
	assert_int_equal(sonde_profile_node__ip(n), F_B + 0x20);
	assert_int_equal(sonde_profile_node__nr_children(n), 0);
	assert_int_equal(sonde_profile_node__total(n), 30);
	sonde_profile__free(p);

	/* Callee order: the newest branch first, each still target then source. */
	p = history_profile(false);
	e[0].predicted = 1;
	assert_int_equal(add_branches(p, pid, 1, e, 2), 1);
	n = only_child(sonde_profile_entry__tree(sonde_profile__entry(p, 0, 0)));
	assert_int_equal(sonde_profile_node__ip(n), F_A + 0x14);
	n = only_child(n);
	assert_int_equal(sonde_profile_node__ip(n), F_B + 0x20);
	n = only_child(n);
	assert_int_equal(sonde_profile_node__ip(n), F_B);
	sonde_profile__free(p);

	/* A usual tree has no branch counts. */
	p = pf_live_profile(NULL, &brattr, "cycles");
	assert_int_equal(sonde_profile__nr_entries(p, 0), 0);
	assert_int_equal(sonde_profile_node__branch(p, NULL, &c), -EINVAL);
	sonde_profile__free(p);
}

/*
 * perf's remove_loops(): a repeated run of sources folds into one turn,
 * counted on the branch after it (a turn at the end has none to carry it).
 */
static void test_history_loops(void **state)
{
	struct sonde_profile *p = history_profile(true);
	struct sonde_perf_branch_entry e[6];
	struct sonde_profile_node_branch c;
	const struct sonde_profile_node *n;
	uint32_t depth = 0;

	(void)state;
	/* newest first: a call out of the loop, two turns of a two-branch
	 * loop, the call into it */
	e[0] = typed(F_A + 0x34, F_B, SONDE_PERF_BR_CALL);
	e[1] = typed(F_A + 0x30, F_A + 0x20, SONDE_PERF_BR_COND);
	e[2] = typed(F_A + 0x28, F_A + 0x2c, SONDE_PERF_BR_COND);
	e[3] = typed(F_A + 0x30, F_A + 0x20, SONDE_PERF_BR_COND);
	e[4] = typed(F_A + 0x28, F_A + 0x2c, SONDE_PERF_BR_COND);
	e[5] = typed(F_MAIN + 8, F_A, SONDE_PERF_BR_CALL);
	for (int i = 0; i < 6; i++)
		e[i].cycles = (uint16_t)(i + 1);
	assert_int_equal(add_branches(p, pid, 1, e, 6), 1);
	assert_int_equal(add_branches(p, pid, 2, e, 6), 1);
	/* main+8 -> fa, one turn of the loop, the call out: 4 branches */
	for (n = sonde_profile_entry__tree(sonde_profile__entry(p, 0, 0));
	     sonde_profile_node__nr_children(n); n = only_child(n))
		depth++;
	assert_int_equal(depth, 8);
	/* The call out's source counts the folded turn (e[2], e[1]'s cycles). */
	assert_int_equal(sonde_profile_node__ip(n), F_A + 0x34);
	assert_int_equal(sonde_profile_node__branch(p, n, &c), 0);
	assert_false(c.target);
	assert_int_equal(c.iters, 2);
	assert_int_equal(c.iter_cycles, 2 * (3 + 2));
	assert_int_equal(c.from_count, 1);
	sonde_profile__free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_hist_default),
		cmocka_unit_test(test_hist_filters),
		cmocka_unit_test(test_hist_not_an_order),
		cmocka_unit_test(test_hist_srcline),
		cmocka_unit_test(test_hist_keys),
		cmocka_unit_test(test_history_paths),
		cmocka_unit_test(test_history_loops),
	};

	return cmocka_run_group_tests(tests, pf_setup, pf_teardown);
}
