// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The self weight split by the samples' cpumode (perf's sys, usr, guest
 * sys, guest usr), the weights placed among the keys (opts.self_at ...
 * guest_usr_at, as perf's --sort names "overhead" and the other output
 * fields) and a profile without keys (one row), on samples fed as a live
 * ring's records.
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

static const struct sonde_perf_event_attr attr = {
	.size = sizeof(attr),
	.sample_type = ST_IP | ST_TID | ST_PERIOD | ST_CALLCHAIN,
};

/* One sample of thread @tid at @ip called from main, taken in @cpumode, weighing @period. */
static void add_tid(struct sonde_profile *p, uint32_t tid, uint16_t cpumode, uint64_t ip,
		    uint64_t period)
{
	uint64_t chain[2] = { (uint64_t)-512 /* PERF_CONTEXT_USER */, F_MAIN + 4 };
	struct sonde_record rec;

	memset(&rec, 0, sizeof(rec));
	rec.type = SONDE_PERF_RECORD_SAMPLE;
	rec.misc = cpumode;
	rec.sample.sample_type = attr.sample_type;
	rec.sample.ip = ip;
	rec.sample.pid = (uint32_t)pid;
	rec.sample.tid = tid;
	rec.sample.period = period;
	rec.sample.callchain.nr = 2;
	rec.sample.callchain.ips = chain;
	assert_int_equal(sonde_profile__add_record(p, 0, &rec), 1); /* counted */
}

static void add(struct sonde_profile *p, uint16_t cpumode, uint64_t ip, uint64_t period)
{
	add_tid(p, (uint32_t)pid, cpumode, ip, period);
}

/* Thread "work": 10 kernel + 25 user; thread "other": 20 kernel + 10 user. */
static struct sonde_profile *two_comms(const struct sonde_profile_opts *po)
{
	struct sonde_profile *p = pf_live_profile(po, &attr, "ev");
	struct sonde_record rec;

	memset(&rec, 0, sizeof(rec));
	rec.type = SONDE_PERF_RECORD_COMM;
	rec.comm.pid = (uint32_t)pid;
	rec.comm.tid = (uint32_t)pid + 1;
	rec.comm.comm = "other";
	assert_int_equal(sonde_profile__add_record(p, 0, &rec), 0);
	add(p, SONDE_PERF_RECORD_MISC_KERNEL, 0xffffffff81000000ULL, 10);
	add(p, SONDE_PERF_RECORD_MISC_USER, F_C + 8, 25);
	add_tid(p, (uint32_t)pid + 1, SONDE_PERF_RECORD_MISC_KERNEL, 0xffffffff81000000ULL, 20);
	add_tid(p, (uint32_t)pid + 1, SONDE_PERF_RECORD_MISC_USER, F_A + 8, 10);
	return p;
}

static const char *comm_at(struct sonde_profile *p, size_t i)
{
	return sonde_profile_entry__comm(sonde_profile__entry(p, 0, i));
}

/* User samples: fc 15, fa 30, both called from main. */
static struct sonde_profile *two_syms(const struct sonde_profile_opts *po)
{
	struct sonde_profile *p = pf_live_profile(po, &attr, "ev");

	add(p, SONDE_PERF_RECORD_MISC_USER, F_C + 8, 15);
	add(p, SONDE_PERF_RECORD_MISC_USER, F_A + 8, 30);
	return p;
}

static const char *sym_at(struct sonde_profile *p, size_t i)
{
	const char *s = sonde_profile_entry__sym(sonde_profile__entry(p, 0, i));

	return s ? s : "(none)";
}

static void test_cpumode_split(void **state)
{
	static const enum sonde_profile_key keys[] = { SONDE_PROFILE_KEY_COMM };
	SONDE_OPTS(sonde_profile_opts, po, .keys = keys, .nr_keys = 1);
	struct sonde_profile *p = pf_live_profile(&po, &attr, "ev");
	const struct sonde_profile_entry *e;

	(void)state;
	add(p, SONDE_PERF_RECORD_MISC_KERNEL, F_C + 8, 10);
	add(p, SONDE_PERF_RECORD_MISC_USER, F_A + 8, 20);
	add(p, SONDE_PERF_RECORD_MISC_USER, F_C + 8, 1);
	add(p, SONDE_PERF_RECORD_MISC_GUEST_KERNEL, F_C + 8, 4);
	add(p, SONDE_PERF_RECORD_MISC_GUEST_USER, F_C + 8, 8);
	add(p, SONDE_PERF_RECORD_MISC_HYPERVISOR, F_C + 8, 100);
	assert_int_equal(sonde_profile__nr_entries(p, 0), 1);
	e = sonde_profile__entry(p, 0, 0);
	assert_int_equal(sonde_profile_entry__self(e), 143);
	assert_int_equal(sonde_profile_entry__self_cpumode(e, SONDE_PERF_RECORD_MISC_KERNEL), 10);
	assert_int_equal(sonde_profile_entry__self_cpumode(e, SONDE_PERF_RECORD_MISC_USER), 21);
	assert_int_equal(sonde_profile_entry__self_cpumode(e, SONDE_PERF_RECORD_MISC_GUEST_KERNEL),
			 4);
	assert_int_equal(sonde_profile_entry__self_cpumode(e, SONDE_PERF_RECORD_MISC_GUEST_USER),
			 8);
	/* perf splits no other cpumode */
	assert_int_equal(sonde_profile_entry__self_cpumode(e, SONDE_PERF_RECORD_MISC_HYPERVISOR),
			 0);
	assert_int_equal(sonde_profile_entry__self_cpumode(e, 0), 0);
	assert_int_equal(sonde_profile_entry__self_cpumode(e, 99), 0);
	sonde_profile__free(p);
}

static void test_places(void **state)
{
	static const enum sonde_profile_key keys[] = { SONDE_PROFILE_KEY_COMM };
	SONDE_OPTS(sonde_profile_opts, by_self, .keys = keys, .nr_keys = 1, .sys_at = 2);
	SONDE_OPTS(sonde_profile_opts, by_sys, .keys = keys, .nr_keys = 1, .self_at = -1,
		   .sys_at = 1);
	SONDE_OPTS(sonde_profile_opts, by_usr, .keys = keys, .nr_keys = 1, .self_at = -1,
		   .sys_at = 2, .usr_at = 1);
	SONDE_OPTS(sonde_profile_opts, by_key, .keys = keys, .nr_keys = 1, .self_at = -1,
		   .sys_at = 2);
	SONDE_OPTS(sonde_profile_opts, same, .keys = keys, .nr_keys = 1, .self_at = 1,
		   .usr_at = 1);
	SONDE_OPTS(sonde_profile_opts, past, .keys = keys, .nr_keys = 1, .sys_at = 3);
	SONDE_OPTS(sonde_profile_opts, below, .keys = keys, .nr_keys = 1, .samples_at = -2);
	struct sonde_profile *p;
	const struct sonde_profile_entry *e;

	(void)state;
	p = two_comms(&by_self); /* the self weight first: work 35, other 30 */
	assert_string_equal(comm_at(p, 0), "work");
	e = sonde_profile__entry(p, 0, 0);
	assert_int_equal(sonde_profile_entry__self_cpumode(e, SONDE_PERF_RECORD_MISC_KERNEL), 10);
	assert_int_equal(sonde_profile_entry__self_cpumode(e, SONDE_PERF_RECORD_MISC_USER), 25);
	sonde_profile__free(p);
	p = two_comms(&by_sys); /* kernel first: other 20, work 10 */
	assert_string_equal(comm_at(p, 0), "other");
	assert_string_equal(comm_at(p, 1), "work");
	sonde_profile__free(p);
	p = two_comms(&by_usr); /* user first: work 25, other 10 */
	assert_string_equal(comm_at(p, 0), "work");
	sonde_profile__free(p);
	p = two_comms(&by_key); /* by name, the kernel weight after it */
	assert_string_equal(comm_at(p, 0), "other");
	assert_string_equal(comm_at(p, 1), "work");
	sonde_profile__free(p);
	/* two weights at one place, one past the keys, below -1 */
	errno = 0;
	assert_null(sonde_profile__new(&same));
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_null(sonde_profile__new(&past));
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_null(sonde_profile__new(&below));
	assert_int_equal(errno, EINVAL);
}

/* In children mode main (children 45, self 0) leads unless self is first. */
static void test_children_place(void **state)
{
	static const enum sonde_profile_key keys[] = { SONDE_PROFILE_KEY_SYM };
	SONDE_OPTS(sonde_profile_opts, children_first, .keys = keys, .nr_keys = 1,
		   .callchains = true, .children_at = 1, .self_at = 2);
	SONDE_OPTS(sonde_profile_opts, self_first, .keys = keys, .nr_keys = 1,
		   .callchains = true, .self_at = 1, .children_at = 2);
	struct sonde_profile *p;

	(void)state;
	p = two_syms(&children_first);
	sonde_profile__set_children(p, true);
	assert_string_equal(sym_at(p, 0), "main");
	assert_int_equal(sonde_profile_entry__children(sonde_profile__entry(p, 0, 0)), 45);
	sonde_profile__free(p);
	p = two_syms(&self_first);
	sonde_profile__set_children(p, true);
	assert_string_equal(sym_at(p, 0), "fa");
	assert_string_equal(sym_at(p, 2), "main");
	/* without children mode the children weight compares nothing */
	sonde_profile__set_children(p, false);
	assert_string_equal(sym_at(p, 0), "fa");
	assert_int_equal(sonde_profile__nr_entries(p, 0), 2);
	sonde_profile__free(p);
}

static void test_no_keys(void **state)
{
	static const enum sonde_profile_key keys[] = { SONDE_PROFILE_KEY_SYM };
	SONDE_OPTS(sonde_profile_opts, none, .no_keys = true, .callchains = true);
	SONDE_OPTS(sonde_profile_opts, both, .no_keys = true, .keys = keys, .nr_keys = 1);
	struct sonde_profile *p = two_comms(&none);
	const struct sonde_profile_entry *e;

	(void)state;
	assert_int_equal(sonde_profile__nr_entries(p, 0), 1);
	e = sonde_profile__entry(p, 0, 0);
	assert_int_equal(sonde_profile_entry__self(e), 65);
	assert_int_equal(sonde_profile_entry__samples(e), 4);
	assert_null(sonde_profile_entry__sym(e));
	assert_null(sonde_profile_entry__comm(e));
	assert_int_equal(sonde_profile_entry__self_cpumode(e, SONDE_PERF_RECORD_MISC_KERNEL), 30);
	/* every sample counts once in children mode too */
	sonde_profile__set_children(p, true);
	assert_int_equal(sonde_profile__nr_entries(p, 0), 1);
	assert_int_equal(sonde_profile_entry__children(sonde_profile__entry(p, 0, 0)), 65);
	sonde_profile__free(p);
	errno = 0;
	assert_null(sonde_profile__new(&both));
	assert_int_equal(errno, EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpumode_split),
		cmocka_unit_test(test_places),
		cmocka_unit_test(test_children_place),
		cmocka_unit_test(test_no_keys),
	};

	return cmocka_run_group_tests(tests, pf_setup, pf_teardown);
}
