// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The -x SEP printer, in perf 6.1's field order:
 *   [interval] [aggregation unit] [CPUs aggregated] value, unit, event,
 *   [cgroup], [noise%], run time, % running, metric value, metric unit
 * A second metric (stalled cycles per insn) gets its own line with the
 * same number of fields, the counter fields left empty.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "sonde/stat.h"
#include "stat_print.h"

static void print_prefix(const struct stat_print_cfg *cfg,
			 const struct sonde_stat_table *t, int aggr)
{
	const struct sonde_stat_aggr *a = &t->aggr[aggr];
	const char *sep = cfg->csv_sep;
	char label[64];

	if (cfg->interval)
		stat_print_ts(cfg->out, cfg->ts, sep);
	if (t->mode == SONDE_STAT_AGGR_GLOBAL)
		return;
	stat_aggr_label(label, sizeof(label), t->mode, a);
	fprintf(cfg->out, "%s%s", label, sep);
	if (t->mode == SONDE_STAT_AGGR_CORE || t->mode == SONDE_STAT_AGGR_DIE ||
	    t->mode == SONDE_STAT_AGGR_SOCKET || t->mode == SONDE_STAT_AGGR_NODE)
		fprintf(cfg->out, "%d%s", a->nr, sep);
}

/* The metric as perf's CSV has it: the bare number, then the unit. */
static void print_metric(const struct stat_print_cfg *cfg,
			 const struct sonde_stat_metric *m)
{
	const char *sep = cfg->csv_sep;
	char buf[64], *v, *end;

	if (!m->shown || !m->unit) {
		fprintf(cfg->out, "%s%s", sep, sep);
		return;
	}
	sonde_stat_metric__format(m, buf, sizeof(buf));
	for (v = buf; *v == ' '; v++)
		;
	end = v + (*v == '-');
	while (isdigit((unsigned char)*end) || *end == '.')
		end++;
	*end = 0;
	fprintf(cfg->out, "%s%s%s%s", sep, v, sep, m->unit);
}

static void print_row(const struct stat_print_cfg *cfg,
		      const struct sonde_stat_table *t, int aggr, int ev)
{
	const struct sonde_stat_event *e = &t->events[ev];
	const struct sonde_stat_count *c = sonde_stat_table__cell(t, aggr, ev);
	const char *sep = cfg->csv_sep;
	struct sonde_stat_metric m[2];
	FILE *out = cfg->out;
	int nm = 1;

	print_prefix(cfg, t, aggr);
	if (c->status == SONDE_STAT_OK) {
		double scale = stat_event_scale(e);

		fprintf(out, "%.*f", floor(scale) != scale ? 2 : 0,
			c->val * scale);
		nm = sonde_stat_table__metrics(t, aggr, ev, m);
	} else {
		fputs(c->status == SONDE_STAT_NOT_SUPPORTED ? "<not supported>" :
							"<not counted>", out);
		memset(m, 0, sizeof(m));
	}
	fprintf(out, "%s%s%s%s", sep, e->unit ? e->unit : "", sep, e->name);
	if (e->cgroup)
		fprintf(out, "%s%s", sep, e->cgroup);
	if (cfg->run_count > 1)
		fprintf(out, "%s%.2f%%", sep, c->noise_pct);
	fprintf(out, "%s%llu%s%.2f", sep, (unsigned long long)c->run, sep,
		c->ena && c->run != c->ena ?
			100.0 * (double)c->run / (double)c->ena : 100.0);
	print_metric(cfg, &m[0]);
	if (nm > 1) {
		int empty = 5 + (e->cgroup != NULL) + (cfg->run_count > 1);

		fputc('\n', out);
		print_prefix(cfg, t, aggr);
		/* value, unit, event, [cgroup], [noise], run, pcnt: empty */
		for (int i = 1; i < empty; i++)
			fputs(sep, out);
		print_metric(cfg, &m[1]);
	}
	fputc('\n', out);
}

void stat_print_csv(const struct stat_print_cfg *cfg,
		    const struct sonde_stat_table *t)
{
	stat_for_each_row(t, ev, aggr)
		print_row(cfg, t, aggr, ev);
}
