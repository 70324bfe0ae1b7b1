// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde_evspec_list__apply_terms(): the sampling terms and modifiers on a
 * tool's attr (what perf record's evsel__apply_config_terms does), and
 * perf's branch-mode names. The golden comparison with perf record -vv is
 * tests/cli/test_record_terms.sh; this covers what that cannot: lbr,
 * branch_type, aux terms, groups, the reset of a global -g, errors.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>
#include "sonde/sonde.h"

static struct sonde_evspec_list *L;

static const struct sonde_perf_event_attr *apply(const char *spec, size_t i,
						  uint64_t sample_type, int want)
{
	static struct sonde_perf_event_attr a;

	sonde_evspec_list__free(L);
	L = NULL;
	assert_int_equal(sonde_evspec_list__parse(spec, &L, NULL), 0);
	a = *sonde_evspec_list__attr(L, i);
	a.sample_type = sample_type;
	a.inherit = 1;
	assert_int_equal(sonde_evspec_list__apply_terms(L, i, &a, NULL), want);
	return &a;
}

#define BASE (SONDE_PERF_SAMPLE_IP | SONDE_PERF_SAMPLE_TID)

static void test_callgraph(void **state)
{
	const struct sonde_perf_event_attr *a;

	a = apply("task-clock/call-graph=lbr/", 0, BASE, 0);
	assert_int_equal(a->sample_type, BASE | SONDE_PERF_SAMPLE_CALLCHAIN |
			 SONDE_PERF_SAMPLE_BRANCH_STACK);
	assert_int_equal(a->branch_sample_type,
			 SONDE_PERF_SAMPLE_BRANCH_USER |
			 SONDE_PERF_SAMPLE_BRANCH_CALL_STACK |
			 SONDE_PERF_SAMPLE_BRANCH_NO_FLAGS |
			 SONDE_PERF_SAMPLE_BRANCH_NO_CYCLES |
			 SONDE_PERF_SAMPLE_BRANCH_HW_INDEX);
	/* A tool's -g (here dwarf) is replaced by the event's own choice. */
	{
		struct sonde_perf_event_attr t = { .sample_type = BASE |
			SONDE_PERF_SAMPLE_CALLCHAIN | SONDE_PERF_SAMPLE_REGS_USER |
			SONDE_PERF_SAMPLE_STACK_USER, .sample_regs_user = 0xff,
			.sample_stack_user = 8192, .exclude_callchain_user = 1 };

		sonde_evspec_list__free(L);
		assert_int_equal(sonde_evspec_list__parse("task-clock/call-graph=no/",
							  &L, NULL), 0);
		assert_int_equal(sonde_evspec_list__apply_terms(L, 0, &t, NULL), 0);
		assert_int_equal(t.sample_type, BASE);
		assert_int_equal(t.sample_stack_user, 0);
		assert_int_equal(t.exclude_callchain_user, 0);
	}
#if defined(__x86_64__)
	/* dwarf: mmap_data only on the event that carries the side-band. */
	{
		SONDE_OPTS(sonde_evspec_apply_opts, o, .track = true);
		struct sonde_perf_event_attr t;

		a = apply("task-clock/call-graph=dwarf,stack-size=100/", 0, BASE, 0);
		assert_int_equal(a->sample_stack_user, 104);
		assert_int_equal(a->mmap_data, 0);
		t = *sonde_evspec_list__attr(L, 0);
		assert_int_equal(sonde_evspec_list__apply_terms(L, 0, &t, &o), 0);
		assert_int_equal(t.mmap_data, 1);
	}
#endif
	apply("task-clock/call-graph=bogus/", 0, BASE, -EINVAL);
	apply("task-clock/call-graph=dwarf,stack-size=x/", 0, BASE, -EINVAL);
	apply("task-clock/max-stack=x/", 0, BASE, -EINVAL);
	apply("task-clock/max-stack=70000/", 0, BASE, -EINVAL);
}

static void test_other_terms(void **state)
{
	const struct sonde_perf_event_attr *a;

	a = apply("task-clock/branch_type=any_call/", 0, BASE, 0);
	assert_int_equal(a->sample_type, BASE | SONDE_PERF_SAMPLE_BRANCH_STACK);
	assert_int_equal(a->branch_sample_type, SONDE_PERF_SAMPLE_BRANCH_ANY_CALL);
	apply("task-clock/branch_type=sideways/", 0, BASE, -EINVAL);
	a = apply("task-clock/aux-output/", 0, BASE, 0);
	assert_int_equal(a->aux_output, 1);
	a = apply("task-clock/aux-sample-size=4096/", 0, BASE, 0);
	assert_int_equal(a->aux_sample_size, 4096);
	assert_true(a->sample_type & SONDE_PERF_SAMPLE_AUX);
	/* aux-action: the AUX tracer's pause/resume bits (Linux 6.13). */
	a = apply("task-clock/aux-action=start-paused/", 0, BASE, 0);
	assert_int_equal(a->aux_start_paused, 1);
	assert_int_equal(a->aux_pause | a->aux_resume, 0);
	a = apply("task-clock/aux-action=pause/", 0, BASE, 0);
	assert_int_equal(a->aux_pause, 1);
	assert_int_equal(a->aux_start_paused | a->aux_resume, 0);
	a = apply("task-clock/aux-action=resume/", 0, BASE, 0);
	assert_int_equal(a->aux_resume, 1);
	assert_int_equal(a->aux_action, 4);
	apply("task-clock/aux-action=sideways/", 0, BASE, -EINVAL);
	a = apply("task-clock/overwrite/", 0, BASE, 0);
	assert_int_equal(a->write_backward, 1);
	a = apply("task-clock/no-inherit/", 0, BASE, 0);
	assert_int_equal(a->inherit, 0);
	a = apply("task-clock/inherit=0/", 0, BASE, 0);
	assert_int_equal(a->inherit, 0);
	/* No terms: the attr is left alone. */
	a = apply("task-clock", 0, BASE, 0);
	assert_int_equal(a->sample_type, BASE);
	assert_int_equal(a->inherit, 1);
	assert_int_equal(sonde_evspec_list__apply_terms(L, 5, (void *)a, NULL),
			 -EINVAL);
}

static void test_modifiers(void **state)
{
	const struct sonde_perf_event_attr *a;

	a = apply("task-clock:S", 0, BASE, 0);
	assert_int_equal(a->sample_type, BASE | SONDE_PERF_SAMPLE_READ |
			 SONDE_PERF_SAMPLE_ID);
	assert_int_equal(a->read_format & SONDE_PERF_FORMAT_GROUP, 0);
	assert_int_equal(a->inherit, 1);
	/* In a group: a group read, and no inherit (as perf). */
	a = apply("{task-clock,page-faults}:S", 1, BASE, 0);
	assert_true(a->read_format & SONDE_PERF_FORMAT_GROUP);
	assert_true(a->sample_type & SONDE_PERF_SAMPLE_READ);
	assert_int_equal(a->inherit, 0);
	a = apply("task-clock:P", 0, BASE, 0);
	assert_int_equal(a->precise_ip, 3);
	a = apply("{task-clock,page-faults}:W", 0, BASE, 0);
	assert_int_equal(a->sample_type, BASE);
	assert_true(sonde_evspec_list__flags(L, 0) & SONDE_EVSPEC_WEAK_GROUP);
}

static void test_branch_names(void **state)
{
	uint64_t m;

	assert_int_equal(sonde_branch_sample_type__parse("any,u", &m), 0);
	assert_int_equal(m, SONDE_PERF_SAMPLE_BRANCH_ANY |
			 SONDE_PERF_SAMPLE_BRANCH_USER);
	/* Privilege levels alone: plain any (perf 6.1 drops the levels). */
	assert_int_equal(sonde_branch_sample_type__parse("k", &m), 0);
	assert_int_equal(m, SONDE_PERF_SAMPLE_BRANCH_ANY);
	assert_int_equal(sonde_branch_sample_type__parse("stack,save_type", &m), 0);
	assert_int_equal(m, SONDE_PERF_SAMPLE_BRANCH_CALL_STACK |
			 SONDE_PERF_SAMPLE_BRANCH_TYPE_SAVE);
	/* Names perf 6.1 does not know. */
	assert_int_equal(sonde_branch_sample_type__parse("hw_index", &m), -EINVAL);
	assert_int_equal(sonde_branch_sample_type__parse("call_stack", &m), -EINVAL);
	assert_int_equal(sonde_branch_sample_type__parse("any,nope", &m), -EINVAL);
	assert_int_equal(sonde_branch_sample_type__parse(NULL, &m), -EINVAL);
}

static int teardown(void **state)
{
	sonde_evspec_list__free(L);
	L = NULL;
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_callgraph),
		cmocka_unit_test(test_other_terms),
		cmocka_unit_test(test_modifiers),
		cmocka_unit_test(test_branch_names),
	};

	return cmocka_run_group_tests(tests, NULL, teardown);
}
