// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The per-event terms and modifiers that only mean something to a
 * sampling tool (perf's evsel__apply_config_terms and the sample_read /
 * precise_max parts of evsel__config), applied to the attr the tool has
 * built: call-graph, stack-size, max-stack, inherit/no-inherit,
 * overwrite/no-overwrite, aux-output, aux-sample-size, aux-action (newer
 * perf's: attr.aux_action, Linux 6.13), branch_type, and the S and P
 * modifiers. The parser keeps them aside (a counting tool
 * ignores them, as perf stat does); this is where they take effect.
 */
#include <stdlib.h>
#include <string.h>
#include "sonde/evparse.h"
#include "event_priv.h"
#include "core_priv.h"

/* perf's PERF_REGS_MASK: every user register the arch's unwinder knows. */
#if defined(__x86_64__)
#define ARCH_REGS_MASK 0xff0fffULL
#elif defined(__aarch64__)
#define ARCH_REGS_MASK ((1ULL << 33) - 1)
#else
#define ARCH_REGS_MASK 0ULL
#endif

#define DEFAULT_DWARF_DUMP 8192

static const struct {
	const char *name;
	uint64_t bits;
} branch_modes[] = {
	{ "u", SONDE_PERF_SAMPLE_BRANCH_USER },
	{ "k", SONDE_PERF_SAMPLE_BRANCH_KERNEL },
	{ "hv", SONDE_PERF_SAMPLE_BRANCH_HV },
	{ "any", SONDE_PERF_SAMPLE_BRANCH_ANY },
	{ "any_call", SONDE_PERF_SAMPLE_BRANCH_ANY_CALL },
	{ "any_ret", SONDE_PERF_SAMPLE_BRANCH_ANY_RETURN },
	{ "ind_call", SONDE_PERF_SAMPLE_BRANCH_IND_CALL },
	{ "abort_tx", SONDE_PERF_SAMPLE_BRANCH_ABORT_TX },
	{ "in_tx", SONDE_PERF_SAMPLE_BRANCH_IN_TX },
	{ "no_tx", SONDE_PERF_SAMPLE_BRANCH_NO_TX },
	{ "cond", SONDE_PERF_SAMPLE_BRANCH_COND },
	{ "ind_jmp", SONDE_PERF_SAMPLE_BRANCH_IND_JUMP },
	{ "call", SONDE_PERF_SAMPLE_BRANCH_CALL },
	{ "save_type", SONDE_PERF_SAMPLE_BRANCH_TYPE_SAVE },
	{ "stack", SONDE_PERF_SAMPLE_BRANCH_CALL_STACK },
	{ "priv", SONDE_PERF_SAMPLE_BRANCH_PRIV_SAVE },
};

int sonde_branch_sample_type__parse(const char *str, uint64_t *mode)
{
	uint64_t m = 0;
	const char *s = str;

	if (!str || !mode)
		return lib_err(EINVAL);
	while (*s) {
		size_t n = strcspn(s, ",");
		bool found = false;

		for (size_t i = 0; i < ARRAY_SIZE(branch_modes); i++) {
			if (strlen(branch_modes[i].name) == n &&
			    !strncmp(branch_modes[i].name, s, n)) {
				m |= branch_modes[i].bits;
				found = true;
			}
		}
		if (!found)
			return lib_err(EINVAL);
		s += n;
		if (*s == ',')
			s++;
	}
	/*
	 * Only privilege levels: any branch, and the levels from the event's
	 * exclude bits, as perf 6.1 does (it drops the levels given).
	 */
	if (!(m & ~(uint64_t)SONDE_PERF_SAMPLE_BRANCH_PLM_ALL))
		m = SONDE_PERF_SAMPLE_BRANCH_ANY;
	*mode = m;
	return 0;
}

static const char *term(const struct evspec *ev, const char *key)
{
	for (size_t k = 0; k < ev->nr_terms; k++)
		if (!strcmp(ev->terms[k].key, key))
			return ev->terms[k].val;
	return NULL;
}

/* A term's number; "" (a bare term) is @bare. False when not a number. */
static bool term_num(const char *v, uint64_t bare, uint64_t *out)
{
	char *end;

	if (!*v) {
		*out = bare;
		return true;
	}
	errno = 0;
	*out = strtoull(v, &end, 0);
	return !*end && !errno;
}

/* evsel__reset_callgraph: drop what a global -g set up. */
static void reset_callgraph(struct sonde_perf_event_attr *a)
{
	a->sample_type &= ~(uint64_t)SONDE_PERF_SAMPLE_CALLCHAIN;
	if (a->branch_sample_type & SONDE_PERF_SAMPLE_BRANCH_CALL_STACK) {
		a->sample_type &= ~(uint64_t)SONDE_PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type = 0;
	}
	if (a->sample_type & SONDE_PERF_SAMPLE_STACK_USER) {
		a->sample_type &= ~(uint64_t)(SONDE_PERF_SAMPLE_REGS_USER |
					      SONDE_PERF_SAMPLE_STACK_USER);
		a->sample_regs_user = 0;
		a->sample_stack_user = 0;
		a->exclude_callchain_user = 0;
	}
}

static int apply_callgraph(const struct evspec *ev,
			   struct sonde_perf_event_attr *a, bool track)
{
	const char *cg = term(ev, "call-graph"), *ss = term(ev, "stack-size"),
		   *ms = term(ev, "max-stack");
	uint64_t dump = 0, max = 0;

	if (!cg && !ss && !ms)
		return 0;
	if (ss && (!term_num(ss, 0, &dump) || dump > UINT32_MAX - 7))
		return -EINVAL;
	dump = (dump + 7) & ~7ULL;
	if (ms && (!term_num(ms, 0, &max) || max > UINT16_MAX))
		return -EINVAL;
	/* max-stack alone asks for frame-pointer chains of that depth. */
	if (max && !cg)
		cg = "fp";
	reset_callgraph(a);
	if (!cg || !strcmp(cg, "no"))
		return 0;
	if (!strcmp(cg, "fp")) {
		a->sample_type |= SONDE_PERF_SAMPLE_CALLCHAIN;
	} else if (!strncmp(cg, "dwarf", 5) && (!cg[5] || cg[5] == ',')) {
		uint64_t size = dump ? dump : DEFAULT_DWARF_DUMP;

		if (cg[5] == ',' && (!term_num(cg + 6, 0, &size) || !size ||
				     size > UINT32_MAX - 7))
			return -EINVAL;
		if (!ARCH_REGS_MASK)
			return -EOPNOTSUPP;
		size = (size + 7) & ~7ULL;
		/* perf samples the data address with per-event dwarf chains */
		a->sample_type |= SONDE_PERF_SAMPLE_CALLCHAIN |
				  SONDE_PERF_SAMPLE_REGS_USER |
				  SONDE_PERF_SAMPLE_STACK_USER |
				  SONDE_PERF_SAMPLE_ADDR |
				  SONDE_PERF_SAMPLE_DATA_SRC;
		a->sample_regs_user |= ARCH_REGS_MASK;
		a->sample_stack_user = (uint32_t)size;
		a->exclude_callchain_user = 1;
		if (track)
			a->mmap_data = 1;
	} else if (!strcmp(cg, "lbr")) {
		a->sample_type |= SONDE_PERF_SAMPLE_CALLCHAIN |
				  SONDE_PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type = SONDE_PERF_SAMPLE_BRANCH_USER |
					SONDE_PERF_SAMPLE_BRANCH_CALL_STACK |
					SONDE_PERF_SAMPLE_BRANCH_NO_FLAGS |
					SONDE_PERF_SAMPLE_BRANCH_NO_CYCLES |
					SONDE_PERF_SAMPLE_BRANCH_HW_INDEX;
	} else {
		return -EINVAL;
	}
	if (max)
		a->sample_max_stack = (uint16_t)max;
	return 0;
}

static int nr_members(const struct sonde_evspec_list *l, size_t leader)
{
	int n = 0;

	for (size_t k = 0; k < l->nr; k++)
		n += l->ev[k].leader == (int)leader;
	return n;
}

int sonde_evspec_list__apply_terms(const struct sonde_evspec_list *l, size_t i,
				   struct sonde_perf_event_attr *a,
				   const struct sonde_evspec_apply_opts *opts)
{
	const struct evspec *ev;
	const char *v;
	uint64_t n;
	int err;

	if (!l || i >= l->nr || !a || !OPTS_VALID(opts, sonde_evspec_apply_opts))
		return lib_err(EINVAL);
	ev = &l->ev[i];

	err = apply_callgraph(ev, a, OPTS_GET(opts, track, false));
	if (err)
		return lib_err(err);
	if ((v = term(ev, "inherit"))) {
		if (!term_num(v, 1, &n))
			return lib_err(EINVAL);
		a->inherit = n != 0;
	}
	if (term(ev, "no-inherit"))
		a->inherit = 0;
	if (term(ev, "overwrite"))
		a->write_backward = 1;
	if (term(ev, "no-overwrite"))
		a->write_backward = 0;
	if ((v = term(ev, "aux-output"))) {
		if (!term_num(v, 1, &n))
			return lib_err(EINVAL);
		a->aux_output = n != 0;
	}
	if ((v = term(ev, "aux-sample-size"))) {
		if (!term_num(v, 0, &n) || n > UINT32_MAX)
			return lib_err(EINVAL);
		a->aux_sample_size = (uint32_t)n;
		if (n)
			a->sample_type |= SONDE_PERF_SAMPLE_AUX;
	}
	/*
	 * Pause and resume an AUX tracer from an event of its group (Linux
	 * 6.13): newer perf's spelling. The kernel checks the grouping.
	 */
	if ((v = term(ev, "aux-action"))) {
		if (!strcmp(v, "start-paused"))
			a->aux_start_paused = 1;
		else if (!strcmp(v, "pause"))
			a->aux_pause = 1;
		else if (!strcmp(v, "resume"))
			a->aux_resume = 1;
		else
			return lib_err(EINVAL);
	}
	if ((v = term(ev, "branch_type"))) {
		err = sonde_branch_sample_type__parse(v, &n);
		if (err)
			return err;
		a->branch_sample_type = n;
		a->sample_type |= SONDE_PERF_SAMPLE_BRANCH_STACK;
	}
	if (ev->flags & SONDE_EVSPEC_SAMPLE_READ) {
		/* S: each sample carries the counts, the group's if in one. */
		a->sample_type |= SONDE_PERF_SAMPLE_READ | SONDE_PERF_SAMPLE_ID;
		if (nr_members(l, (size_t)ev->leader) > 1) {
			a->read_format |= SONDE_PERF_FORMAT_GROUP;
			a->inherit = 0;
		}
	}
	if (ev->flags & SONDE_EVSPEC_PRECISE_MAX)
		a->precise_ip = 3; /* the opener steps down to what opens */
	return 0;
}
