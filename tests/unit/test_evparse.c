// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Event-spec parser: attrs (the perf 6.1 semantics pinned by the golden
 * file are spot-checked here too), names, groups, flags, PMU terms and
 * aliases over a fake sysfs, tracepoints over a fake tracefs, and errors.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdint.h>
#include "sonde/sonde.h"
#include "fake_tree.h"

static struct sonde_evspec_list *parse_ok(const char *spec)
{
	SONDE_OPTS(sonde_evspec_opts, o, .sysfs_root = fake_sysfs,
		   .tracefs_root = fake_tracefs);
	struct sonde_evspec_list *l = NULL;
	struct sonde_parse_error err;
	int ret = sonde_evspec_list__parse_opts(spec, &o, &l, &err);

	if (ret)
		fail_msg("'%s' failed at %d: %s", spec, err.column, err.message);
	assert_non_null(l);
	return l;
}

/* Parses a bad spec; returns the error column, checks the message. */
static int parse_bad(const char *spec, const char *msg_part)
{
	SONDE_OPTS(sonde_evspec_opts, o, .sysfs_root = fake_sysfs,
		   .tracefs_root = fake_tracefs);
	struct sonde_evspec_list *l = (void *)1;
	struct sonde_parse_error err;
	int ret = sonde_evspec_list__parse_opts(spec, &o, &l, &err);

	if (!ret)
		fail_msg("'%s' was accepted", spec);
	assert_true(ret < 0);
	assert_null(l);
	if (!strstr(err.message, msg_part))
		fail_msg("'%s': message '%s' lacks '%s'", spec, err.message, msg_part);
	return err.column;
}

static int setup(void **state)
{
	fake_tree_build();
	sonde_set_print(NULL);
	return 0;
}

static int teardown(void **state)
{
	fake_tree_remove();
	return 0;
}

#define A(l, i) sonde_evspec_list__attr(l, i)

static void test_symbols(void **state)
{
	static const struct { const char *spec; uint32_t type; uint64_t config; } t[] = {
		{ "cycles", 0, 0 }, { "cpu-cycles", 0, 0 }, { "instructions", 0, 1 },
		{ "cache-references", 0, 2 }, { "cache-misses", 0, 3 },
		{ "branches", 0, 4 }, { "branch-instructions", 0, 4 },
		{ "branch-misses", 0, 5 }, { "bus-cycles", 0, 6 },
		{ "stalled-cycles-frontend", 0, 7 }, { "idle-cycles-frontend", 0, 7 },
		{ "stalled-cycles-backend", 0, 8 }, { "idle-cycles-backend", 0, 8 },
		{ "ref-cycles", 0, 9 },
		{ "cpu-clock", 1, 0 }, { "task-clock", 1, 1 }, { "page-faults", 1, 2 },
		{ "faults", 1, 2 }, { "context-switches", 1, 3 }, { "cs", 1, 3 },
		{ "cpu-migrations", 1, 4 }, { "migrations", 1, 4 },
		{ "minor-faults", 1, 5 }, { "major-faults", 1, 6 },
		{ "alignment-faults", 1, 7 }, { "emulation-faults", 1, 8 },
		{ "dummy", 1, 9 }, { "bpf-output", 1, 10 }, { "cgroup-switches", 1, 11 },
		{ "duration_time", 1, 9 },
		{ "L1-dcache-load-misses", 3, 0x10000 }, { "L1-icache-loads", 3, 0x1 },
		{ "LLC-loads", 3, 0x2 }, { "LLC-store-misses", 3, 0x10102 },
		{ "dTLB-load-misses", 3, 0x10003 }, { "iTLB-loads", 3, 0x4 },
		{ "branch-loads", 3, 0x5 }, { "branch-load-misses", 3, 0x10005 },
		{ "node-loads", 3, 0x6 }, { "node-prefetch-misses", 3, 0x10206 },
		{ "L1-data-write-refs", 3, 0x100 }, { "L2-speculative-read-misses", 3, 0x10202 },
		{ "Instruction-TLB-read-access", 3, 0x4 }, { "L1-dcache-loads-stores", 3, 0 },
		{ "LLC-misses-loads", 3, 0x10002 }, { "L1-dcache", 3, 0 },
		{ "r1a8", 4, 0x1a8 }, { "rABCDEF", 4, 0xabcdef }, { "r0", 4, 0 },
		{ "rffffffffffffffff", 4, ~0ULL },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct sonde_evspec_list *l = parse_ok(t[i].spec);

		assert_int_equal(sonde_evspec_list__count(l), 1);
		if (A(l, 0)->type != t[i].type || A(l, 0)->config != t[i].config)
			fail_msg("%s: type %u config %#llx", t[i].spec, A(l, 0)->type,
				 (unsigned long long)A(l, 0)->config);
		assert_int_equal(A(l, 0)->size, sizeof(struct sonde_perf_event_attr));
		assert_int_equal(A(l, 0)->exclude_guest, 1);
		assert_string_equal(sonde_evspec_list__name(l, 0), t[i].spec);
		sonde_evspec_list__free(l);
	}
}

struct mods_case {
	const char *spec;
	/* u k h H G I precise pinned exclusive */
	unsigned eu, ek, eh, eH, eG, eI, prec, pin, excl;
};

static void check_mods(const struct mods_case *c, const struct sonde_perf_event_attr *a)
{
	if (a->exclude_user != c->eu || a->exclude_kernel != c->ek ||
	    a->exclude_hv != c->eh || a->exclude_host != c->eH ||
	    a->exclude_guest != c->eG || a->exclude_idle != c->eI ||
	    a->precise_ip != c->prec || a->pinned != c->pin ||
	    a->exclusive != c->excl)
		fail_msg("%s: u%u k%u h%u H%u G%u I%u p%u D%u e%u", c->spec,
			 (unsigned)a->exclude_user, (unsigned)a->exclude_kernel,
			 (unsigned)a->exclude_hv, (unsigned)a->exclude_host,
			 (unsigned)a->exclude_guest, (unsigned)a->exclude_idle,
			 (unsigned)a->precise_ip, (unsigned)a->pinned,
			 (unsigned)a->exclusive);
}

static void test_modifiers(void **state)
{
	/* Each row observed from perf 6.1 stat -vv. */
	static const struct mods_case t[] = {
		{ "cycles", 0, 0, 0, 0, 1, 0, 0, 0, 0 },
		{ "cycles:u", 0, 1, 1, 0, 1, 0, 0, 0, 0 },
		{ "cycles:k", 1, 0, 1, 0, 0, 0, 0, 0, 0 },
		{ "cycles:h", 1, 1, 0, 0, 0, 0, 0, 0, 0 },
		{ "cycles:uk", 0, 0, 1, 0, 1, 0, 0, 0, 0 },
		{ "cycles:G", 0, 0, 0, 1, 0, 0, 0, 0, 0 },
		{ "cycles:H", 0, 0, 0, 0, 1, 0, 0, 0, 0 },
		{ "cycles:GH", 0, 0, 0, 0, 0, 0, 0, 0, 0 },
		{ "cycles:Gu", 0, 1, 1, 1, 0, 0, 0, 0, 0 },
		{ "cycles:pG", 0, 0, 0, 1, 0, 0, 1, 0, 0 },
		{ "cycles:I", 0, 0, 0, 0, 0, 1, 0, 0, 0 },
		{ "cycles:ppp", 0, 0, 0, 0, 1, 0, 3, 0, 0 },
		{ "cycles:upp", 0, 1, 1, 0, 1, 0, 2, 0, 0 },
		{ "cycles:P", 0, 0, 0, 0, 0, 0, 0, 0, 0 },
		{ "cycles:D", 0, 0, 0, 0, 0, 0, 0, 1, 0 },
		{ "cycles:e", 0, 0, 0, 0, 0, 0, 0, 0, 1 },
		{ "cycles:", 0, 0, 0, 0, 1, 0, 0, 0, 0 },
		{ "cycles:ukhGHpppPSDIWeb", 0, 0, 0, 0, 0, 1, 3, 1, 1 },
		{ "mem:0x10:rw:k", 1, 0, 1, 0, 0, 0, 0, 0, 0 },
		{ "cpu/event=1/u", 0, 1, 1, 0, 1, 0, 0, 0, 0 },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct sonde_evspec_list *l = parse_ok(t[i].spec);

		check_mods(&t[i], A(l, 0));
		sonde_evspec_list__free(l);
	}
}

static void test_flags(void **state)
{
	struct sonde_evspec_list *l = parse_ok("cycles:PSWb,task-clock");

	assert_int_equal(sonde_evspec_list__flags(l, 0),
			 SONDE_EVSPEC_PRECISE_MAX | SONDE_EVSPEC_SAMPLE_READ |
			 SONDE_EVSPEC_WEAK_GROUP | SONDE_EVSPEC_BPF_COUNTER);
	assert_int_equal(sonde_evspec_list__flags(l, 1), 0);
	sonde_evspec_list__free(l);
}

static void test_groups(void **state)
{
	static const struct mods_case m[] = {
		/* group modifiers start from each member's bits */
		{ "k-leader", 0, 0, 1, 0, 1, 0, 0, 1, 0 },
		{ "member", 0, 1, 1, 0, 1, 0, 0, 0, 0 },
	};
	struct sonde_evspec_list *l = parse_ok("cs,{task-clock:k,page-faults}:uD,faults");

	assert_int_equal(sonde_evspec_list__count(l), 4);
	assert_int_equal(sonde_evspec_list__leader(l, 0), 0);
	assert_int_equal(sonde_evspec_list__leader(l, 1), 1);
	assert_int_equal(sonde_evspec_list__leader(l, 2), 1);
	assert_int_equal(sonde_evspec_list__leader(l, 3), 3);
	assert_int_equal(sonde_evspec_list__leader(l, 4), -EINVAL);
	check_mods(&m[0], A(l, 1)); /* D only on the leader */
	check_mods(&m[1], A(l, 2));
	/* Group modifiers are not part of the names perf shows. */
	assert_string_equal(sonde_evspec_list__name(l, 1), "task-clock:k");
	assert_string_equal(sonde_evspec_list__name(l, 2), "page-faults");
	assert_null(A(l, 4));
	assert_null(sonde_evspec_list__name(l, 4));
	sonde_evspec_list__free(l);
	l = parse_ok("{cycles}");
	assert_int_equal(sonde_evspec_list__leader(l, 0), 0);
	sonde_evspec_list__free(l);
}

static void test_terms(void **state)
{
	struct sonde_evspec_list *l;

	l = parse_ok("cpu-clock/period=1000,call-graph=dwarf,no-inherit/u");
	assert_int_equal(A(l, 0)->sample_period, 1000);
	assert_int_equal(A(l, 0)->freq, 0);
	assert_int_equal(A(l, 0)->exclude_kernel, 1);
	assert_true(sonde_evspec_list__flags(l, 0) & SONDE_EVSPEC_PERIOD_SET);
	assert_string_equal(sonde_evspec_list__term(l, 0, "call-graph"), "dwarf");
	assert_string_equal(sonde_evspec_list__term(l, 0, "no-inherit"), "");
	assert_null(sonde_evspec_list__term(l, 0, "stack-size"));
	assert_string_equal(sonde_evspec_list__name(l, 0),
			    "cpu-clock/period=1000,call-graph=dwarf,no-inherit/u");
	sonde_evspec_list__free(l);

	l = parse_ok("task-clock/freq=99,config1=7,config2=0x9,config3=3,name=tc/");
	assert_int_equal(A(l, 0)->sample_freq, 99);
	assert_int_equal(A(l, 0)->freq, 1);
	assert_int_equal(A(l, 0)->config1, 7);
	assert_int_equal(A(l, 0)->config2, 9);
	assert_int_equal(A(l, 0)->config3, 3);
	assert_true(sonde_evspec_list__flags(l, 0) & SONDE_EVSPEC_FREQ_SET);
	assert_string_equal(sonde_evspec_list__name(l, 0), "tc");
	sonde_evspec_list__free(l);
}

static void test_pmu_terms(void **state)
{
	struct sonde_evspec_list *l;
	const char *unit;

	l = parse_ok("cpu/event=0x3c,umask=1,edge,cmask=2/");
	assert_int_equal(A(l, 0)->type, 4);
	assert_int_equal(A(l, 0)->config, 0x3c | 0x100 | (1 << 18) | (2 << 24));
	assert_string_equal(sonde_evspec_list__pmu(l, 0), "cpu");
	assert_string_equal(sonde_evspec_list__cpumask(l, 0), "0-1");
	sonde_evspec_list__free(l);

	l = parse_ok("cpu/ldlat=5,frontend=7,extra=2,split=0xb/");
	assert_int_equal(A(l, 0)->config1, 5);
	assert_int_equal(A(l, 0)->config2, 7);
	assert_int_equal(A(l, 0)->config3, 2);
	assert_int_equal(A(l, 0)->config, (1ULL << 32) | (1ULL << 33) | (1ULL << 41));
	sonde_evspec_list__free(l);

	/* config= assigns, format terms OR in: order matters as in perf. */
	l = parse_ok("cpu/config=1,event=2/,cpu/event=2,config=1/");
	assert_int_equal(A(l, 0)->config, 3);
	assert_int_equal(A(l, 1)->config, 1);
	sonde_evspec_list__free(l);

	/* sysfs alias with .scale/.unit, case-insensitive like perf. */
	l = parse_ok("cpu/MEM-LOADS,period=7/k");
	assert_int_equal(A(l, 0)->config, 0x1cd);
	assert_int_equal(A(l, 0)->config1, 3);
	assert_int_equal(A(l, 0)->sample_period, 7);
	assert_true(sonde_evspec_list__scale(l, 0, &unit) == 0.5);
	assert_string_equal(unit, "MiB");
	assert_string_equal(sonde_evspec_list__name(l, 0), "cpu/MEM-LOADS,period=7/k");
	sonde_evspec_list__free(l);

	/* A bare alias name opens on every PMU that has it. */
	l = parse_ok("mem-loads:u");
	assert_int_equal(sonde_evspec_list__count(l), 2);
	assert_string_equal(sonde_evspec_list__pmu(l, 0), "cpu");
	assert_string_equal(sonde_evspec_list__pmu(l, 1), "uncore_imc_0");
	assert_int_equal(A(l, 1)->type, 20);
	assert_int_equal(A(l, 1)->config, 4);
	assert_int_equal(A(l, 1)->exclude_kernel, 1);
	assert_string_equal(sonde_evspec_list__name(l, 1), "mem-loads:u");
	assert_string_equal(sonde_evspec_list__cpumask(l, 1), "0");
	sonde_evspec_list__free(l);

	l = parse_ok("imc_0/event=1/,cpu//");
	assert_string_equal(sonde_evspec_list__pmu(l, 0), "uncore_imc_0");
	assert_int_equal(A(l, 1)->config, 0);
	sonde_evspec_list__free(l);

	/* The hardware events name the core PMU when there is one. */
	l = parse_ok("cycles,task-clock");
	assert_string_equal(sonde_evspec_list__pmu(l, 0), "cpu");
	assert_string_equal(sonde_evspec_list__pmu(l, 1), "software");
	sonde_evspec_list__free(l);
}

/*
 * intel_pt starts from perf's default config (tsc, mtc with the allowed
 * mtc_period nearest 3, psb_period likewise, pt, branch); a term replaces
 * the bits it names instead of adding to them.
 */
static void test_pmu_default_config(void **state)
{
	static const char *const pt[][2] = {
		{ "type", "8\n" }, { "format/pt", "config:0\n" },
		{ "format/tsc", "config:10\n" }, { "format/mtc", "config:9\n" },
		{ "format/branch", "config:13\n" },
		{ "format/mtc_period", "config:14-17\n" },
		{ "format/psb_period", "config:24-27\n" },
		{ "caps/mtc", "1\n" }, { "caps/mtc_periods", "249\n" },
		{ "caps/psb_cyc", "1\n" }, { "caps/psb_periods", "3f\n" },
	};
	/* mtc_periods 0x249: 0, 3, 6, 9 -> 3; psb_periods 0x3f: 0-5 -> 3. */
	const uint64_t dflt = 1 << 10 | 1 << 9 | 3ULL << 14 | 3ULL << 24 | 1 | 1 << 13;
	struct sonde_evspec_list *l;
	char rel[128];

	(void)state;
	for (size_t i = 0; i < sizeof(pt) / sizeof(pt[0]); i++) {
		snprintf(rel, sizeof(rel), "sys/bus/event_source/devices/intel_pt/%s",
			 pt[i][0]);
		fake_put(rel, pt[i][1]);
	}
	l = parse_ok("intel_pt//,intel_pt/tsc=0,mtc_period=1/,cpu/event=1/");
	assert_int_equal(A(l, 0)->type, 8);
	assert_int_equal(A(l, 0)->config, dflt);
	assert_int_equal(A(l, 1)->config, (dflt & ~(1ULL << 10 | 0xfULL << 14)) | 1ULL << 14);
	/* Other PMUs have no default: their terms OR in, as before. */
	assert_int_equal(A(l, 2)->config, 1);
	sonde_evspec_list__free(l);
}

static void test_tracepoints(void **state)
{
	struct sonde_evspec_list *l;

	l = parse_ok("sched:sched_switch:u,irq:irq_handler_entry");
	assert_int_equal(A(l, 0)->type, SONDE_PERF_TYPE_TRACEPOINT);
	assert_int_equal(A(l, 0)->config, 372);
	assert_int_equal(A(l, 0)->sample_period, 1);
	assert_int_equal(A(l, 0)->exclude_kernel, 1);
	assert_string_equal(sonde_evspec_list__name(l, 0), "sched:sched_switch");
	assert_int_equal(A(l, 1)->config, 100);
	sonde_evspec_list__free(l);

	l = parse_ok("sched:sched_sw*,s*:sched_wakeup/call-graph=fp/");
	assert_int_equal(sonde_evspec_list__count(l), 3);
	assert_string_equal(sonde_evspec_list__name(l, 0), "sched:sched_swap_numa");
	assert_string_equal(sonde_evspec_list__name(l, 1), "sched:sched_switch");
	assert_string_equal(sonde_evspec_list__name(l, 2), "sched:sched_wakeup");
	assert_string_equal(sonde_evspec_list__term(l, 2, "call-graph"), "fp");
	sonde_evspec_list__free(l);

	l = parse_ok("{sched:sched_switch,sched:sched_wakeup}:k");
	assert_int_equal(sonde_evspec_list__leader(l, 1), 0);
	assert_int_equal(A(l, 1)->exclude_user, 1);
	sonde_evspec_list__free(l);
}

static void test_breakpoints(void **state)
{
	static const struct { const char *spec; uint64_t addr; unsigned type; uint64_t len; } t[] = {
		{ "mem:0x1000", 0x1000, 3, 4 }, { "mem:4096", 0x1000, 3, 4 },
		{ "mem:0x1000/8", 0x1000, 3, 8 }, { "mem:0x1000/0", 0x1000, 3, 4 },
		{ "mem:0x1000:x", 0x1000, 4, 8 }, { "mem:0x1000/2:x", 0x1000, 4, 2 },
		{ "mem:0x1000:w", 0x1000, 2, 4 }, { "mem:0x1000:rwx", 0x1000, 7, 4 },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct sonde_evspec_list *l = parse_ok(t[i].spec);

		assert_int_equal(A(l, 0)->type, SONDE_PERF_TYPE_BREAKPOINT);
		assert_int_equal(A(l, 0)->bp_addr, t[i].addr);
		assert_int_equal(A(l, 0)->bp_type, t[i].type);
		assert_int_equal(A(l, 0)->bp_len, t[i].len);
		assert_int_equal(A(l, 0)->sample_period, 1);
		sonde_evspec_list__free(l);
	}
	{
		struct sonde_evspec_list *l = parse_ok("mem:0x1000/8:rw:u,mem:0x2000:w:k");

		/* perf's lexer stops the name at the '/' */
		assert_string_equal(sonde_evspec_list__name(l, 0), "mem:0x1000");
		assert_string_equal(sonde_evspec_list__name(l, 1), "mem:0x2000:w:k");
		sonde_evspec_list__free(l);
	}
}

static void test_errors(void **state)
{
	assert_int_equal(parse_bad("cycles:q", "unknown modifier 'q'"), 7);
	assert_int_equal(parse_bad("cycles:uu", "Bad modifier"), 7);
	assert_int_equal(parse_bad("cycles:pppp", "at most 3 p"), 7);
	assert_int_equal(parse_bad("", "expected an event name"), 0);
	assert_int_equal(parse_bad("cycles,", "an event after ','"), 7);
	assert_int_equal(parse_bad("{cycles,", "expected an event name"), 8);
	assert_int_equal(parse_bad("{cycles", "not closed"), 0);
	assert_int_equal(parse_bad("{cycles,{instructions}}", "cannot nest"), 8);
	assert_int_equal(parse_bad("nope/event=1/", "Cannot find PMU `nope'"), 0);
	assert_int_equal(parse_bad("cpu/foo=1/", "unknown term 'foo' for pmu 'cpu'"), 4);
	assert_int_equal(parse_bad("cpu/umask=0x100/", "too big for format 'umask'"), 10);
	assert_int_equal(parse_bad("cpu/event=x/", "takes a number"), 10);
	assert_int_equal(parse_bad("cpu/event=/", "a term value"), 10);
	assert_int_equal(parse_bad("cpu/bad-alias/", "bad terms"), 4);
	assert_int_equal(parse_bad("cpu/event=1", "the closing '/'"), 11);
	assert_int_equal(parse_bad("cpu/event=1/:u", "modifiers follow"), 12);
	assert_int_equal(parse_bad("task-clock/period/", "needs a value"), 11);
	assert_int_equal(parse_bad("task-clock/umask=1/", "unknown term 'umask'"), 11);
	assert_int_equal(parse_bad("nosuch", "unknown event 'nosuch'"), 0);
	assert_int_equal(parse_bad("cs,Task-Clock", "did you mean 'task-clock'"), 3);
	assert_int_equal(parse_bad("r12345678901234567", "more than 16 hex digits"), 0);
	assert_int_equal(parse_bad("r0x1a8", "without 0x"), 0);
	assert_int_equal(parse_bad("x,sched:nope", "unknown event 'x'"), 0);
	assert_int_equal(parse_bad("cs,sched:nope", "unknown tracepoint 'sched:nope'"), 3);
	assert_int_equal(parse_bad("sched:zz*", "no tracepoint matches"), 0);
	assert_int_equal(parse_bad("sched:sched_switch/period=1/", "for a tracepoint"), 19);
	assert_int_equal(parse_bad("L1-icache-stores", "no such operation"), 0);
	assert_int_equal(parse_bad("mem:zz", "breakpoint address"), 4);
	assert_int_equal(parse_bad("mem:0x10:rr", "given twice"), 10);
	/* The wrong letter of the access, not "unknown modifier 'r'". */
	assert_int_equal(parse_bad("mem:0x1000:rwxq", "unknown breakpoint access 'q'"), 14);
	assert_int_equal(parse_bad("mem:0x10:r\x01", "unexpected byte 0x01"), 10);
	/* The bad digit of the address, not "unexpected '0'". */
	assert_int_equal(parse_bad("mem:0xzz", "'z' is not a digit"), 6);
	assert_int_equal(parse_bad("mem:99999999999999999999", "more than 64 bits"), 4);
	assert_int_equal(parse_bad("mem:0x1000/3", "expected 1, 2, 4 or 8"), 11);
	assert_int_equal(parse_bad("mem:0x10/", "breakpoint length"), 9);
	assert_int_equal(parse_bad("cycles/name=a b/", "expected ',' or the closing '/'"), 14);
	assert_int_equal(parse_bad("cycles cs", "expected ',' or the end"), 7);
	assert_int_equal(parse_bad("cycles\x01", "unexpected byte 0x01"), 6);
}

static void test_error_format(void **state)
{
	SONDE_OPTS(sonde_evspec_opts, o, .sysfs_root = fake_sysfs);
	struct sonde_evspec_list *l = NULL;
	struct sonde_parse_error err;
	char buf[512];

	assert_int_equal(sonde_evspec_list__parse_opts("cycles:uu", &o, &l, &err),
			 -SONDE_ERR_PARSE);
	assert_int_equal(errno, SONDE_ERR_PARSE);
	sonde_parse_error__format(&err, buf, sizeof(buf));
	assert_string_equal(buf,
			    "event syntax error: 'cycles:uu'\n"
			    "                            \\___ Bad modifier: 'u' given twice");
	/* Tiny buffers stay terminated. */
	sonde_parse_error__format(&err, buf, 5);
	assert_string_equal(buf, "even");
	/* Control bytes of the spec never reach a terminal raw. */
	assert_int_equal(sonde_evspec_list__parse_opts("cs\x1b[31m", &o, &l, &err),
			 -SONDE_ERR_PARSE);
	sonde_parse_error__format(&err, buf, sizeof(buf));
	assert_string_equal(buf,
			    "event syntax error: 'cs?[31m'\n"
			    "                       \\___ unexpected byte 0x1b, expected ',' or the end of the spec");
	assert_int_equal(sonde_evspec_list__parse_opts(NULL, &o, &l, &err), -EINVAL);
	assert_int_equal(sonde_evspec_list__parse_opts("cycles", &o, NULL, NULL), -EINVAL);
}

static void test_long_inputs(void **state)
{
	SONDE_OPTS(sonde_evspec_opts, o, .sysfs_root = fake_sysfs);
	struct sonde_evspec_list *l = NULL;
	size_t n = 5000 * 3;
	char *spec = malloc(n + 1);

	/* 5000 events: more than the 4096 limit. */
	for (size_t i = 0; i < 5000; i++)
		memcpy(spec + i * 3, "cs,", 3);
	spec[n - 1] = '\0';
	assert_int_equal(sonde_evspec_list__parse_opts(spec, &o, &l, NULL), -E2BIG);
	spec[4000 * 3 - 1] = '\0';
	assert_int_equal(sonde_evspec_list__parse_opts(spec, &o, &l, NULL), 0);
	assert_int_equal(sonde_evspec_list__count(l), 4000);
	sonde_evspec_list__free(l);
	free(spec);
}

static char *print_attr(const struct sonde_perf_event_attr *a)
{
	char *buf = NULL;
	size_t sz = 0;
	FILE *f = open_memstream(&buf, &sz);

	assert_true(sonde_perf_event_attr__fprintf(f, a) > 0);
	fclose(f);
	return buf;
}

static void test_attr_print(void **state)
{
	struct sonde_perf_event_attr a = {
		.type = 1, .size = 128, .config = 0x9, .sample_period = 4000,
		.sample_type = SONDE_PERF_SAMPLE_IP | SONDE_PERF_SAMPLE_TID |
			       SONDE_PERF_SAMPLE_PERIOD | (1ULL << 40),
		.read_format = 4 | 16, .freq = 1, .exclude_guest = 1,
		.bp_addr = 0x1000, .branch_sample_type = 2 | 8,
		.wakeup_events = 1, .clockid = -1,
	};
	char *s = print_attr(&a);

	assert_string_equal(s,
		"perf_event_attr:\n"
		"  type                             1\n"
		"  size                             128\n"
		"  config                           0x9\n"
		"  { sample_period, sample_freq }   4000\n"
		"  sample_type                      IP|TID|PERIOD|0x10000000000\n"
		"  read_format                      ID|LOST\n"
		"  freq                             1\n"
		"  exclude_guest                    1\n"
		"  { wakeup_events, wakeup_watermark } 1\n"
		"  { bp_addr, config1 }             0x1000\n"
		"  branch_sample_type               KERNEL|ANY\n"
		"  clockid                          -1\n");
	free(s);
	assert_int_equal(sonde_perf_event_attr__fprintf(NULL, &a), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_symbols),
		cmocka_unit_test(test_modifiers),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_terms),
		cmocka_unit_test(test_pmu_terms),
		cmocka_unit_test(test_pmu_default_config),
		cmocka_unit_test(test_tracepoints),
		cmocka_unit_test(test_breakpoints),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_error_format),
		cmocka_unit_test(test_long_inputs),
		cmocka_unit_test(test_attr_print),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
