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
#include "sonde/stat.h"
#include "stat_print.h"

static void print_keys(struct json_writer *w, const struct stat_print_cfg *cfg,
		       const struct sonde_stat_table *t, int aggr)
{
	const struct sonde_stat_aggr *a = &t->aggr[aggr];
	char label[64];

	if (cfg->interval)
		json_double_prec_field(w, "interval", cfg->ts, 9);
	stat_aggr_label(label, sizeof(label), t->mode, a);
	switch (t->mode) {
	case SONDE_STAT_AGGR_NONE:
		json_int_field(w, "cpu", a->cpu);
		break;
	case SONDE_STAT_AGGR_CORE:
		json_string_field(w, "core", label);
		json_int_field(w, "aggregate-number", a->nr);
		break;
	case SONDE_STAT_AGGR_DIE:
		json_string_field(w, "die", label);
		json_int_field(w, "aggregate-number", a->nr);
		break;
	case SONDE_STAT_AGGR_SOCKET:
		json_string_field(w, "socket", label);
		json_int_field(w, "aggregate-number", a->nr);
		break;
	case SONDE_STAT_AGGR_NODE:
		json_string_field(w, "node", label);
		json_int_field(w, "aggregate-number", a->nr);
		break;
	case SONDE_STAT_AGGR_THREAD:
		json_string_field(w, "thread", label);
		break;
	case SONDE_STAT_AGGR_GLOBAL:
		break;
	}
}

static void print_metric(struct json_writer *w, const struct sonde_stat_metric *m)
{
	if (m->shown && m->unit)
		json_double_prec_field(w, "metric-value", m->val, 6);
	else
		json_null_field(w, "metric-value");
	json_string_field(w, "metric-unit",
				m->shown && m->unit ? m->unit : "");
}

static void print_row(struct json_writer *w, const struct stat_print_cfg *cfg,
		      const struct sonde_stat_table *t, int aggr, int ev)
{
	const struct sonde_stat_event *e = &t->events[ev];
	const struct sonde_stat_count *c = sonde_stat_table__cell(t, aggr, ev);
	struct sonde_stat_metric m[2] = { 0 };
	int nm = 1;

	json_begin_object(w);
	print_keys(w, cfg, t, aggr);
	if (c->status == SONDE_STAT_OK) {
		double scale = stat_event_scale(e);

		if (floor(scale) == scale)
			json_uint_field(w, "counter-value",
					      (uint64_t)llround(c->val * scale));
		else
			json_double_prec_field(w, "counter-value",
						     c->val * scale, 6);
		nm = sonde_stat_table__metrics(t, aggr, ev, m);
	} else {
		json_string_field(w, "counter-value",
					c->status == SONDE_STAT_NOT_SUPPORTED ?
					"<not supported>" : "<not counted>");
	}
	json_string_field(w, "unit", e->unit ? e->unit : "");
	json_string_field(w, "event", e->name);
	if (e->cgroup)
		json_string_field(w, "cgroup", e->cgroup);
	if (cfg->run_count > 1)
		json_double_prec_field(w, "variance", c->noise_pct, 2);
	json_uint_field(w, "event-runtime", c->run);
	json_double_prec_field(w, "pcnt-running",
				     c->ena && c->run != c->ena ?
				     100.0 * (double)c->run / (double)c->ena :
				     100.0, 2);
	print_metric(w, &m[0]);
	json_end_object(w);
	if (nm > 1) {
		json_begin_object(w);
		print_keys(w, cfg, t, aggr);
		print_metric(w, &m[1]);
		json_end_object(w);
	}
}

void stat_print_json(const struct stat_print_cfg *cfg,
		     const struct sonde_stat_table *t)
{
	struct json_writer *w = json_new(cfg->out);

	if (!w)
		return;
	stat_for_each_row(t, ev, aggr)
		print_row(w, cfg, t, aggr, ev);
	json_destroy(&w);
}
