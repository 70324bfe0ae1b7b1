// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The -j printer: one JSON object per line with perf's field names, but
 * numbers are JSON numbers (perf writes "counter-value" as a string). The
 * only strings where perf has numbers are the two sentinels
 * "<not counted>" and "<not supported>", kept as perf spells them.
 */
#include <math.h>
#include <stdio.h>
#include "json.h"
#include "stat/stat.h"
#include "stat/print.h"

static void print_keys(struct sonde_json *w, const struct stat_print_cfg *cfg,
		       const struct stat_table *t, int aggr)
{
	const struct stat_aggr *a = &t->aggr[aggr];
	char label[64];

	if (cfg->interval)
		sonde_json_double_prec_field(w, "interval", cfg->ts, 9);
	stat_aggr_label(label, sizeof(label), t->mode, a);
	switch (t->mode) {
	case STAT_AGGR_NONE:
		sonde_json_int_field(w, "cpu", a->cpu);
		break;
	case STAT_AGGR_CORE:
		sonde_json_string_field(w, "core", label);
		sonde_json_int_field(w, "aggregate-number", a->nr);
		break;
	case STAT_AGGR_DIE:
		sonde_json_string_field(w, "die", label);
		sonde_json_int_field(w, "aggregate-number", a->nr);
		break;
	case STAT_AGGR_SOCKET:
		sonde_json_string_field(w, "socket", label);
		sonde_json_int_field(w, "aggregate-number", a->nr);
		break;
	case STAT_AGGR_THREAD:
		sonde_json_string_field(w, "thread", label);
		break;
	case STAT_AGGR_GLOBAL:
		break;
	}
}

static void print_metric(struct sonde_json *w, const struct stat_metric *m)
{
	if (m->shown && m->unit)
		sonde_json_double_prec_field(w, "metric-value", m->val, 6);
	else
		sonde_json_null_field(w, "metric-value");
	sonde_json_string_field(w, "metric-unit",
				m->shown && m->unit ? m->unit : "");
}

static void print_row(struct sonde_json *w, const struct stat_print_cfg *cfg,
		      const struct stat_table *t, int aggr, int ev)
{
	const struct stat_event *e = &t->events[ev];
	const struct stat_count *c = stat_cell(t, aggr, ev);
	struct stat_metric m[2] = { 0 };
	int nm = 1;

	sonde_json_begin_object(w);
	print_keys(w, cfg, t, aggr);
	if (c->status == STAT_OK) {
		double scale = stat_event_scale(e);

		if (floor(scale) == scale)
			sonde_json_uint_field(w, "counter-value",
					      (uint64_t)llround(c->val * scale));
		else
			sonde_json_double_prec_field(w, "counter-value",
						     c->val * scale, 6);
		nm = stat_metrics(t, aggr, ev, m);
	} else {
		sonde_json_string_field(w, "counter-value",
					c->status == STAT_NOT_SUPPORTED ?
					"<not supported>" : "<not counted>");
	}
	sonde_json_string_field(w, "unit", e->unit ? e->unit : "");
	sonde_json_string_field(w, "event", e->name);
	if (e->cgroup)
		sonde_json_string_field(w, "cgroup", e->cgroup);
	if (cfg->run_count > 1)
		sonde_json_double_prec_field(w, "variance", c->noise_pct, 2);
	sonde_json_uint_field(w, "event-runtime", c->run);
	sonde_json_double_prec_field(w, "pcnt-running",
				     c->ena && c->run != c->ena ?
				     100.0 * (double)c->run / (double)c->ena :
				     100.0, 2);
	print_metric(w, &m[0]);
	sonde_json_end_object(w);
	if (nm > 1) {
		sonde_json_begin_object(w);
		print_keys(w, cfg, t, aggr);
		print_metric(w, &m[1]);
		sonde_json_end_object(w);
	}
}

void stat_print_json(const struct stat_print_cfg *cfg,
		     const struct stat_table *t)
{
	struct sonde_json *w = sonde_json_new(cfg->out);

	if (!w)
		return;
	stat_for_each_row(t, ev, aggr)
		print_row(w, cfg, t, aggr, ev);
	sonde_json_destroy(&w);
}
