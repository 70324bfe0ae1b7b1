// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde list [GLOB...]: every event this machine offers, by category, each
 * opened once (and closed at once) through the syscall seam so the ones
 * that cannot count here are marked with the reason. --json prints one
 * object per event (JSON Lines); --attr SPEC prints the attrs sonde would
 * open, in the layout of perf's -vv dump.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "list_probe.h"
#include "builtin.h"
#include "options.h"
#include "sonde/sonde.h"
#include "json.h"

enum cat {
	CAT_HW, CAT_SW, CAT_CACHE, CAT_PMU, CAT_TP, CAT_RAW, CAT_BP,
};

static const char *const cat_label[] = {
	[CAT_HW] = "Hardware event",
	[CAT_SW] = "Software event",
	[CAT_CACHE] = "Hardware cache event",
	[CAT_PMU] = "Kernel PMU event",
	[CAT_TP] = "Tracepoint event",
	[CAT_RAW] = "Raw hardware event descriptor",
	[CAT_BP] = "Hardware breakpoint",
};

static const char *const cat_key[] = {
	[CAT_HW] = "hw", [CAT_SW] = "sw", [CAT_CACHE] = "cache",
	[CAT_PMU] = "pmu", [CAT_TP] = "tracepoint", [CAT_RAW] = "raw",
	[CAT_BP] = "breakpoint",
};

struct list_state {
	bool json;
	struct json_writer *jw;
	bool probe;
	const char **globs;
	int nr_globs;
	int shown;
	/*
	 * Closing a tracepoint event waits for an RCU grace period (~30 ms),
	 * so tracepoints are probed once and the answer reused (ftrace:*
	 * events, which differ, are probed each).
	 */
	bool tp_probed;
	int tp_result;
};

/* ---- output ---- */

static int keyword_cat(const char *g)
{
	static const struct { const char *w; enum cat c; } kw[] = {
		{ "hw", CAT_HW }, { "hardware", CAT_HW }, { "sw", CAT_SW },
		{ "software", CAT_SW }, { "cache", CAT_CACHE },
		{ "hwcache", CAT_CACHE }, { "pmu", CAT_PMU },
		{ "tracepoint", CAT_TP }, { "raw", CAT_RAW },
		{ "breakpoint", CAT_BP }, { "bp", CAT_BP },
	};

	for (size_t i = 0; i < sizeof(kw) / sizeof(kw[0]); i++)
		if (!strcmp(g, kw[i].w))
			return (int)kw[i].c;
	return -1;
}

/* perf list's filter: a category keyword, a glob, or a word in the name. */
static bool wanted(const struct list_state *st, enum cat c, const char *name)
{
	if (!st->nr_globs)
		return true;
	for (int i = 0; i < st->nr_globs; i++) {
		const char *g = st->globs[i];
		int k = keyword_cat(g);

		if (k >= 0) {
			if (k == (int)c)
				return true;
			continue;
		}
		if (!fnmatch(g, name, 0))
			return true;
		if (!strpbrk(g, "*?[") && strstr(name, g))
			return true;
	}
	return false;
}

static void emit(struct list_state *st, enum cat c, const char *name,
		 const char *alias, const char *pmu,
		 const struct sonde_perf_event_attr *attr)
{
	char shown[256], buf[160];
	const char *reason = NULL;
	int err = 0;

	if (!wanted(st, c, name) && !(alias && wanted(st, c, alias)))
		return;
	if (attr && st->probe && c == CAT_TP && strncmp(name, "ftrace:", 7)) {
		if (!st->tp_probed) {
			st->tp_result = sonde_perf_event_attr__probe(attr);
			st->tp_probed = true;
		}
		err = st->tp_result;
		if (err)
			reason = sonde_perf_event_attr__probe_reason(err, buf, sizeof(buf));
	} else if (attr && st->probe) {
		err = sonde_perf_event_attr__probe(attr);
		if (err)
			reason = sonde_perf_event_attr__probe_reason(err, buf, sizeof(buf));
	}
	st->shown++;
	if (st->json) {
		struct json_writer *w = st->jw;

		json_begin_object(w);
		json_string_field(w, "event", name);
		if (alias)
			json_string_field(w, "alias", alias);
		json_string_field(w, "category", cat_key[c]);
		if (pmu)
			json_string_field(w, "pmu", pmu);
		if (attr) {
			json_uint_field(w, "type", attr->type);
			json_uint_field(w, "config", attr->config);
			if (st->probe)
				json_bool_field(w, "supported", !err);
			else
				json_null_field(w, "supported");
		}
		if (reason)
			json_string_field(w, "reason", reason);
		json_end_object(w);
		return;
	}
	if (alias)
		snprintf(shown, sizeof(shown), "%s OR %s", name, alias);
	else
		snprintf(shown, sizeof(shown), "%s", name);
	printf("  %-50s [%s]", shown, cat_label[c]);
	if (reason)
		printf(" <not supported: %s>", reason);
	putchar('\n');
}

struct names_walk {
	struct list_state *st;
	enum cat c;
	const char *pmu;
};

static int emit_name(const struct sonde_event_name *ev, void *ctx)
{
	struct names_walk *w = ctx;
	struct sonde_perf_event_attr a = { .type = ev->type, .config = ev->config };

	emit(w->st, w->c, ev->name, ev->alias, w->pmu, &a);
	return 0;
}

static void list_symbols(struct list_state *st, uint32_t type, enum cat c,
			 const char *pmu)
{
	struct names_walk w = { .st = st, .c = c, .pmu = pmu };

	sonde_event_names__for_each(type, emit_name, &w);
}

static void list_pmus(struct list_state *st)
{
	struct sonde_pmus *pmus = sonde_pmus__load(NULL);

	for (size_t i = 0; i < sonde_pmus__count(pmus); i++) {
		const struct sonde_pmu *pmu = sonde_pmus__get(pmus, i);

		for (size_t k = 0; k < sonde_pmu__alias_count(pmu); k++) {
			const struct sonde_pmu_alias *al = sonde_pmu__alias(pmu, k);
			struct sonde_evspec_list *l = NULL;
			char spec[600];

			snprintf(spec, sizeof(spec), "%s/%s/", sonde_pmu__name(pmu),
				 al->name);
			if (!wanted(st, CAT_PMU, spec) && !wanted(st, CAT_PMU, al->name))
				continue;
			/* The parser applies the alias terms exactly as -e would. */
			if (sonde_evspec_list__parse(spec, &l, NULL)) {
				emit(st, CAT_PMU, spec, NULL, sonde_pmu__name(pmu), NULL);
				continue;
			}
			emit(st, CAT_PMU, spec, NULL, sonde_pmu__name(pmu),
			     sonde_evspec_list__attr(l, 0));
			sonde_evspec_list__free(l);
		}
	}
	sonde_pmus__free(pmus);
}

struct tp_walk {
	struct list_state *st;
	const char *root;
};

static int tp_cb(const char *sys, const char *name, void *vctx)
{
	struct tp_walk *w = vctx;
	char full[600];
	int64_t id;
	struct sonde_perf_event_attr a = { .type = SONDE_PERF_TYPE_TRACEPOINT };

	snprintf(full, sizeof(full), "%s:%s", sys, name);
	if (!wanted(w->st, CAT_TP, full))
		return 0;
	/*
	 * Plain text needs no id once the shared probe is done: skipping
	 * thousands of small reads halves the run.
	 */
	if (!w->st->json && (!w->st->probe || w->st->tp_probed) &&
	    strcmp(sys, "ftrace")) {
		emit(w->st, CAT_TP, full, NULL, "tracepoint", &a);
		return 0;
	}
	id = sonde_tracepoint__id(w->root, sys, name);
	if (id < 0) {
		emit(w->st, CAT_TP, full, NULL, "tracepoint", NULL);
		return 0;
	}
	a.config = (uint64_t)id;
	emit(w->st, CAT_TP, full, NULL, "tracepoint", &a);
	return 0;
}

static void list_tracepoints(struct list_state *st)
{
	char root[4096];
	struct tp_walk w = { .st = st, .root = root };

	if (sonde_tracefs__root(root, sizeof(root), true)) {
		if (!st->json && (!st->nr_globs || wanted(st, CAT_TP, "tracepoint")))
			printf("  (tracepoints: tracefs is not mounted and could not "
			       "be mounted; try as root: mount -t tracefs nodev "
			       "/sys/kernel/tracing)\n");
		return;
	}
	sonde_tracefs__for_each(root, NULL, NULL, tp_cb, &w);
}

static void list_syntax(struct list_state *st)
{
	emit(st, CAT_RAW, "rNNN", NULL, NULL, NULL);
	emit(st, CAT_RAW, "cpu/t1=v1[,t2=v2,t3 ...]/modifier", NULL, NULL, NULL);
	emit(st, CAT_BP, "mem:<addr>[/len][:access]", NULL, NULL, NULL);
}

static int print_attrs(const char *spec)
{
	struct sonde_evspec_list *l = NULL;
	struct sonde_parse_error perr;
	static const char dashes[] =
		"------------------------------------------------------------";
	int err = sonde_evspec_list__parse(spec, &l, &perr);

	if (err) {
		char buf[800];

		sonde_parse_error__format(&perr, buf, sizeof(buf));
		fprintf(stderr, "%s\n", buf);
		fprintf(stderr, "sonde list: bad event spec (see 'sonde list' for "
			"valid events)\n");
		return 1;
	}
	for (size_t i = 0; i < sonde_evspec_list__count(l); i++) {
		printf("%s\n", dashes);
		sonde_perf_event_attr__fprintf(stdout, sonde_evspec_list__attr(l, i));
		printf("%s\n", dashes);
	}
	sonde_evspec_list__free(l);
	return 0;
}

int cmd_list(int argc, const char **argv)
{
	struct list_state st = { .probe = true };
	const char *attr_spec = NULL;
	bool no_probe = false;
	const struct option opts[] = {
		OPT_BOOLEAN('j', "json", &st.json, "one JSON object per event"),
		OPT_STRING(0, "attr", &attr_spec, "SPEC",
			   "print the perf_event_attr of each event in SPEC, as perf -vv does"),
		OPT_BOOLEAN(0, "no-probe", &no_probe,
			    "do not open events to check they work here"),
		OPT_END(),
	};
	static const char *const usage[] = {
		"sonde list [--json] [--no-probe] [hw|sw|cache|pmu|tracepoint|raw|breakpoint|GLOB...]",
		"sonde list --attr SPEC",
		"sonde list 'uprobe:PATH[:GLOB]'",
		NULL,
	};
	int n = parse_options(argc, argv, opts, usage, 0);

	if (attr_spec)
		return print_attrs(attr_spec);
	if (n == 1 && list_probe_spec(argv[0]))
		return list_probes(argv[0]);
	st.probe = !no_probe;
	st.globs = argv;
	st.nr_globs = n;
	if (st.json)
		st.jw = json_new(stdout);
	else
		printf("\nList of pre-defined events (to be used in -e):\n\n");
	list_symbols(&st, SONDE_PERF_TYPE_HARDWARE, CAT_HW, NULL);
	list_symbols(&st, SONDE_PERF_TYPE_SOFTWARE, CAT_SW, "software");
	{
		struct sonde_perf_event_attr a = {
			.type = SONDE_PERF_TYPE_SOFTWARE,
			.config = SONDE_PERF_COUNT_SW_DUMMY,
		};

		emit(&st, CAT_SW, "duration_time", NULL, "software", &a);
	}
	list_symbols(&st, SONDE_PERF_TYPE_HW_CACHE, CAT_CACHE, NULL);
	list_pmus(&st);
	list_syntax(&st);
	list_tracepoints(&st);
	json_destroy(&st.jw);
	if (!st.shown && st.nr_globs) {
		fprintf(stderr, "sonde list: no event matches '%s'\n", argv[0]);
		return 1;
	}
	return 0;
}
