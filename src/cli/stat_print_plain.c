// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The human-readable stat printer, column for column what perf 6.1 prints
 * (people diff the two and scripts cut columns out of it).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "sonde/stat.h"
#include "stat_print.h"

/* perf's widths: value, event name, metric column. */
#define VALUE_WIDTH 18
#define NAME_WIDTH 32
#define NAME_WIDTH_NC 25 /* perf pads <not counted> rows' names less */
#define METRIC_LEN 35

static const char *const colors[] = {
	[SONDE_STAT_COLOR_NONE] = "",
	[SONDE_STAT_COLOR_YELLOW] = "\033[33m",
	[SONDE_STAT_COLOR_MAGENTA] = "\033[35m",
	[SONDE_STAT_COLOR_RED] = "\033[31m",
};

static void print_prefix(const struct stat_print_cfg *cfg,
			 const struct sonde_stat_table *t, int aggr)
{
	const struct sonde_stat_aggr *a = &t->aggr[aggr];
	FILE *out = cfg->out;

	if (cfg->interval)
		stat_print_ts(out, cfg->ts, " ");
	switch (t->mode) {
	case SONDE_STAT_AGGR_NONE:
		fprintf(out, "CPU%-7d ", a->cpu);
		break;
	case SONDE_STAT_AGGR_CORE:
		fprintf(out, "S%d-D%d-C%-8d %4d ", a->socket, a->die, a->core,
			a->nr);
		break;
	case SONDE_STAT_AGGR_DIE:
		fprintf(out, "S%d-D%-8d %4d ", a->socket, a->die, a->nr);
		break;
	case SONDE_STAT_AGGR_SOCKET:
		fprintf(out, "S%-5d %4d ", a->socket, a->nr);
		break;
	case SONDE_STAT_AGGR_NODE:
		fprintf(out, "N%-5d %4d ", a->node, a->nr);
		break;
	case SONDE_STAT_AGGR_THREAD:
		fprintf(out, "%16s-%-8d ", a->comm, (int)a->tid);
		break;
	case SONDE_STAT_AGGR_GLOBAL:
		break;
	}
}

static void print_metric(const struct stat_print_cfg *cfg,
			 const struct sonde_stat_metric *m)
{
	char val[64];
	int n;

	if (!m->shown || !m->unit) {
		fprintf(cfg->out, "%-*s", METRIC_LEN, "");
		return;
	}
	sonde_stat_metric__format(m, val, sizeof(val));
	n = 3 + (int)strlen(val);
	if (cfg->color && m->color != SONDE_STAT_COLOR_NONE)
		fprintf(cfg->out, " # %s%s\033[m", colors[m->color], val);
	else
		fprintf(cfg->out, " # %s", val);
	fprintf(cfg->out, " %-*s", METRIC_LEN - n - 1 > 0 ?
		METRIC_LEN - n - 1 : 0, m->unit);
}

static void print_tail(const struct stat_print_cfg *cfg,
		       const struct sonde_stat_count *c)
{
	if (cfg->run_count > 1 && c->noise_pct)
		fprintf(cfg->out, "  ( +-%6.2f%% )", c->noise_pct);
	if (c->run != c->ena)
		fprintf(cfg->out, "  (%.2f%%)", 100.0 * (double)c->run /
						 (double)c->ena);
	fputc('\n', cfg->out);
}

static void print_row(const struct stat_print_cfg *cfg,
		      const struct sonde_stat_table *t, int aggr, int ev,
		      int unit_width)
{
	const struct sonde_stat_event *e = &t->events[ev];
	const struct sonde_stat_count *c = sonde_stat_table__cell(t, aggr, ev);
	struct sonde_stat_metric m[2];
	FILE *out = cfg->out;
	int nm;

	print_prefix(cfg, t, aggr);
	if (c->status != SONDE_STAT_OK) {
		fprintf(out, "%*s %-*s %-*s", VALUE_WIDTH,
			c->status == SONDE_STAT_NOT_SUPPORTED ? "<not supported>" :
							  "<not counted>",
			unit_width, e->unit ? e->unit : "",
			NAME_WIDTH_NC, e->name);
		if (e->cgroup)
			fprintf(out, " %s", e->cgroup);
		fprintf(out, "%-*s", METRIC_LEN, "");
		print_tail(cfg, c);
		return;
	}
	{
		double scale = stat_event_scale(e);
		char num[128];

		stat_format_grouped(num, sizeof(num), c->val * scale,
				    floor(scale) != scale ? 2 : 0,
				    cfg->thousands_sep);
		fprintf(out, "%*s %-*s %-*s", VALUE_WIDTH, num, unit_width,
			e->unit ? e->unit : "", NAME_WIDTH, e->name);
	}
	if (e->cgroup)
		fprintf(out, " %s", e->cgroup);
	nm = sonde_stat_table__metrics(t, aggr, ev, m);
	print_metric(cfg, &m[0]);
	if (nm > 1) {
		/* A continuation line: the metric under the metric. */
		fputc('\n', out);
		print_prefix(cfg, t, aggr);
		fprintf(out, "%*s", VALUE_WIDTH + 1 + unit_width + 1 +
			NAME_WIDTH, "");
		print_metric(cfg, &m[1]);
	}
	print_tail(cfg, c);
}

void stat_print_plain(const struct stat_print_cfg *cfg,
		      const struct sonde_stat_table *t)
{
	int unit_width = 4;

	for (int e = 0; e < t->nr_events; e++) {
		int l = t->events[e].unit ? (int)strlen(t->events[e].unit) : 0;

		if (l > unit_width)
			unit_width = l;
	}
	stat_for_each_row(t, ev, aggr)
		print_row(cfg, t, aggr, ev, unit_width);
}
