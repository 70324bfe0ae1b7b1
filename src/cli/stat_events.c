// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The events `sonde stat` counts: perf's default set, or every -e spec
 * through the library's parser, with the role each plays in the metrics.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/abi.h"
#include "sonde/evctl.h"
#include "sonde/evlist.h"
#include "sonde/evparse.h"
#include "sonde/symbols.h"
#include "stat_cli.h"

/* perf stat's defaults up to 6.14; cpu-clock replaces task-clock with -a. */
#define DEFAULT_EVENTS \
	"context-switches,cpu-migrations,page-faults,cycles," \
	"stalled-cycles-frontend,stalled-cycles-backend,instructions," \
	"branches,branch-misses"

static enum sonde_stat_kind hw_cache_kind(uint64_t config)
{
	unsigned int id = config & 0xff, op = (config >> 8) & 0xff;
	unsigned int res = (config >> 16) & 0xff;
	static const enum sonde_stat_kind access[] = {
		[SONDE_PERF_COUNT_HW_CACHE_L1D] = SONDE_STAT_K_L1D_LOADS,
		[SONDE_PERF_COUNT_HW_CACHE_L1I] = SONDE_STAT_K_L1I_LOADS,
		[SONDE_PERF_COUNT_HW_CACHE_LL] = SONDE_STAT_K_LLC_LOADS,
		[SONDE_PERF_COUNT_HW_CACHE_DTLB] = SONDE_STAT_K_DTLB_LOADS,
		[SONDE_PERF_COUNT_HW_CACHE_ITLB] = SONDE_STAT_K_ITLB_LOADS,
	};
	static const enum sonde_stat_kind miss[] = {
		[SONDE_PERF_COUNT_HW_CACHE_L1D] = SONDE_STAT_K_L1D_LOAD_MISSES,
		[SONDE_PERF_COUNT_HW_CACHE_L1I] = SONDE_STAT_K_L1I_LOAD_MISSES,
		[SONDE_PERF_COUNT_HW_CACHE_LL] = SONDE_STAT_K_LLC_LOAD_MISSES,
		[SONDE_PERF_COUNT_HW_CACHE_DTLB] = SONDE_STAT_K_DTLB_LOAD_MISSES,
		[SONDE_PERF_COUNT_HW_CACHE_ITLB] = SONDE_STAT_K_ITLB_LOAD_MISSES,
	};

	if (op != SONDE_PERF_COUNT_HW_CACHE_OP_READ ||
	    id > SONDE_PERF_COUNT_HW_CACHE_ITLB || (config >> 24))
		return SONDE_STAT_K_OTHER;
	if (res == SONDE_PERF_COUNT_HW_CACHE_RESULT_ACCESS)
		return access[id];
	if (res == SONDE_PERF_COUNT_HW_CACHE_RESULT_MISS)
		return miss[id];
	return SONDE_STAT_K_OTHER;
}

/* The role of an event in the derived metrics, from its attr alone. */
static enum sonde_stat_kind kind_of(const struct sonde_perf_event_attr *a)
{
	/* Extended hardware types carry a PMU id in the high config bits. */
	uint64_t hw = a->config & SONDE_PERF_HW_EVENT_MASK;

	switch (a->type) {
	case SONDE_PERF_TYPE_SOFTWARE:
		if (a->config == SONDE_PERF_COUNT_SW_TASK_CLOCK)
			return SONDE_STAT_K_TASK_CLOCK;
		if (a->config == SONDE_PERF_COUNT_SW_CPU_CLOCK)
			return SONDE_STAT_K_CPU_CLOCK;
		return SONDE_STAT_K_OTHER;
	case SONDE_PERF_TYPE_HARDWARE:
		switch (hw) {
		case SONDE_PERF_COUNT_HW_CPU_CYCLES: return SONDE_STAT_K_CYCLES;
		case SONDE_PERF_COUNT_HW_INSTRUCTIONS: return SONDE_STAT_K_INSTRUCTIONS;
		case SONDE_PERF_COUNT_HW_BRANCH_INSTRUCTIONS: return SONDE_STAT_K_BRANCHES;
		case SONDE_PERF_COUNT_HW_BRANCH_MISSES: return SONDE_STAT_K_BRANCH_MISSES;
		case SONDE_PERF_COUNT_HW_STALLED_CYCLES_FRONTEND:
			return SONDE_STAT_K_STALLED_FE;
		case SONDE_PERF_COUNT_HW_STALLED_CYCLES_BACKEND:
			return SONDE_STAT_K_STALLED_BE;
		case SONDE_PERF_COUNT_HW_CACHE_REFERENCES:
			return SONDE_STAT_K_CACHE_REFS;
		case SONDE_PERF_COUNT_HW_CACHE_MISSES:
			return SONDE_STAT_K_CACHE_MISSES;
		default:
			return SONDE_STAT_K_OTHER;
		}
	case SONDE_PERF_TYPE_HW_CACHE:
		return hw_cache_kind(hw);
	default:
		return SONDE_STAT_K_OTHER;
	}
}

/* Privilege context: events only feed metrics of the same context. */
static unsigned int ctx_of(const struct sonde_perf_event_attr *a)
{
	return (unsigned int)a->exclude_user | a->exclude_kernel << 1 |
	       a->exclude_hv << 2 | a->exclude_idle << 3 |
	       a->exclude_host << 4 | a->exclude_guest << 5;
}

/*
 * What -d, -dd and -ddd append, after the default set or the -e events,
 * as perf 6.1's detailed_attrs, very_detailed_attrs and
 * very_very_detailed_attrs.
 */
static const char *const detailed_events[] = {
	"L1-dcache-loads,L1-dcache-load-misses,LLC-loads,LLC-load-misses",
	("L1-icache-loads,L1-icache-load-misses,dTLB-loads,dTLB-load-misses,"
	 "iTLB-loads,iTLB-load-misses"),
	"L1-dcache-prefetches,L1-dcache-prefetch-misses",
};

/* Appends every event of @spec to @list and @out. */
enum origin { FROM_USER, FROM_DEFAULTS, FROM_DETAILED };

static int add_spec(const char *spec, const char *filter, enum origin from,
		    struct sonde_evlist *list, struct stat_events *out)
{
	struct sonde_parse_error perr;
	struct sonde_evspec_list *l = NULL;
	size_t n;
	int base = sonde_evlist__nr(list), err;
	SONDE_OPTS(sonde_evspec_opts, po,
		   .probe_resolve = sonde_symcache__probe_offset);

	memset(&perr, 0, sizeof(perr));
	err = sonde_evspec_list__parse_opts(spec, &po, &l, &perr);
	if (err) {
		char msg[1024];

		/* The formatted error quotes the spec, control bytes escaped. */
		if (sonde_parse_error__format(&perr, msg, sizeof(msg)) > 0 &&
		    msg[0])
			fprintf(stderr, "sonde stat: bad event:\n%s\n", msg);
		else
			fprintf(stderr, "sonde stat: bad event: %s\n",
				strerror(err < 0 ? -err : err));
		return err < 0 ? err : -err;
	}
	n = sonde_evspec_list__count(l);
	for (size_t i = 0; i < n; i++) {
		struct sonde_perf_event_attr attr = *sonde_evspec_list__attr(l, i);
		const char *name = sonde_evspec_list__name(l, i);
		int leader = sonde_evspec_list__leader(l, i);
		struct stat_ev *e;
		const char *unit = NULL;
		double scale;
		int idx;

		e = realloc(out->evs, (size_t)(out->nr + 1) * sizeof(*out->evs));
		if (!e) {
			err = -ENOMEM;
			goto out;
		}
		out->evs = e;
		e = &out->evs[out->nr];
		memset(e, 0, sizeof(*e));
		/* Counting reads the group totals: no sampling bits. */
		attr.read_format = 0;
		/*
		 * Opened disabled and enabled whole: a member that joins a
		 * group already running would miss counts until the group's
		 * next schedule-in.
		 */
		attr.disabled = 1;
		idx = sonde_evlist__add(list, &attr, name,
					leader >= 0 && (size_t)leader != i ?
					base + leader : -1);
		/* :W on a leader: split the group rather than fail. */
		if (idx >= 0 && (leader < 0 || (size_t)leader == i) &&
		    (sonde_evspec_list__flags(l, i) & SONDE_EVSPEC_WEAK_GROUP))
			idx = sonde_evsel__set_weak_group(
				sonde_evlist__evsel(list, idx), true) < 0 ? -EINVAL : idx;
		/* A probe's path/function string must outlive the spec list. */
		if (idx >= 0 && sonde_evspec_list__probe_target(l, i))
			idx = sonde_evsel__set_probe_target(
				sonde_evlist__evsel(list, idx),
				sonde_evspec_list__probe_target(l, i));
		if (idx < 0) {
			fprintf(stderr, "sonde stat: cannot add event '%s': %s\n",
				name, strerror(-idx));
			err = idx;
			goto out;
		}
		e->name = strdup(name);
		if (!e->name) {
			err = -ENOMEM;
			goto out;
		}
		out->nr++;
		e->ev.name = e->name;
		e->ev.kind = kind_of(&attr);
		e->ev.ctx = ctx_of(&attr);
		scale = sonde_evspec_list__scale(l, i, &unit);
		e->ev.unit = unit ? unit : "";
		e->ev.scale = scale;
		/* perf shows the clocks in msec whatever the PMU says. */
		if (e->ev.kind == SONDE_STAT_K_TASK_CLOCK ||
		    e->ev.kind == SONDE_STAT_K_CPU_CLOCK) {
			e->ev.unit = "msec";
			e->ev.scale = 1e-6;
		}
		/* perf's --filter: the tracepoints of the -e before it. */
		if (attr.type == SONDE_PERF_TYPE_TRACEPOINT)
			e->filter = filter;
		e->implicit = from != FROM_USER;
		e->hide_unsupported = from == FROM_DEFAULTS &&
				      (e->ev.kind == SONDE_STAT_K_STALLED_FE ||
				       e->ev.kind == SONDE_STAT_K_STALLED_BE);
	}
	err = 0;
out:
	sonde_evspec_list__free(l);
	return err;
}

static int add_specs(const struct stat_opts *o, struct sonde_evlist *list,
		     struct stat_events *out)
{
	int err;

	out->nr = 0;
	out->evs = NULL;
	if (o->nr_specs == 0) {
		bool cpu = o->system_wide || o->cpu_list;

		err = add_spec(cpu ? "cpu-clock" : "task-clock", NULL, FROM_DEFAULTS,
			       list, out);
		if (!err)
			err = add_spec(DEFAULT_EVENTS, NULL, FROM_DEFAULTS, list,
				       out);
		return err;
	}
	for (int i = 0; i < o->nr_specs; i++) {
		int first = out->nr;

		err = add_spec(o->event_specs[i], o->event_filters[i], FROM_USER,
			       list, out);
		if (err)
			return err;
		if (o->event_filters[i]) {
			bool tp = false;

			for (int e = first; e < out->nr; e++)
				tp |= out->evs[e].filter != NULL;
			if (!tp) {
				fprintf(stderr, "sonde stat: --filter option "
					"should follow a -e tracepoint option\n");
				return -EINVAL;
			}
		}
	}
	return 0;
}

int stat_events_build(const struct stat_opts *o, struct sonde_evlist *list,
		      struct stat_events *out)
{
	int err = add_specs(o, list, out);

	for (int d = 0; !err && d < o->detailed && d < 3; d++)
		err = add_spec(detailed_events[d], NULL, FROM_DETAILED, list,
			       out);
	return err;
}

int stat_events_set_filters(const struct stat_events *e,
			    struct sonde_evlist *list)
{
	for (int i = 0; i < e->nr; i++) {
		struct sonde_evsel *es = sonde_evlist__evsel(list, i);
		int err;

		if (!e->evs[i].filter || !sonde_evsel__supported(es))
			continue;
		err = sonde_evsel__set_filter(es, e->evs[i].filter);
		if (err) {
			/* perf's wording, then why the kernel refused. */
			fprintf(stderr, "sonde stat: failed to set filter \"%s\" "
				"on event %s with %d (%s)%s\n", e->evs[i].filter,
				e->evs[i].name, -err, strerror(-err),
				err == -EINVAL ? ": the kernel could not parse "
				"it (field names are in the tracepoint's format "
				"file)" : "");
			return err;
		}
	}
	return 0;
}

void stat_events_free(struct stat_events *e)
{
	for (int i = 0; i < e->nr; i++)
		free(e->evs[i].name);
	free(e->evs);
	e->evs = NULL;
	e->nr = 0;
}
