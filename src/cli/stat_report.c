// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Printing for `sonde stat`: picks one of the twin printers (plain, CSV,
 * JSON) once, leaves out the rows perf leaves out, and adds the header,
 * interval column headers and footer around the table.
 */
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "stat_cli.h"

void stat_report_init(struct stat_report *rep, FILE *out,
		      const struct stat_opts *o)
{
	memset(rep, 0, sizeof(*rep));
	rep->out = out;
	rep->o = o;
	rep->cfg.out = out;
	rep->cfg.run_count = o->run_count;
	rep->cfg.interval = o->interval_ms > 0;
	if (o->json) {
		rep->print = stat_print_json;
	} else if (o->csv_sep) {
		rep->print = stat_print_csv;
		rep->cfg.csv_sep = o->csv_sep;
	} else {
		rep->print = stat_print_plain;
		rep->cfg.color = isatty(fileno(out));
		/* -B (the default) groups digits the way the locale does. */
		if (o->big_num) {
			static char sep[8];

			setlocale(LC_NUMERIC, "");
			snprintf(sep, sizeof(sep), "%s",
				 localeconv()->thousands_sep);
			setlocale(LC_NUMERIC, "C");
			rep->cfg.thousands_sep = sep;
		}
	}
}

/*
 * The table without the rows that are not shown: stalled cycles from the
 * default set when the CPU cannot count them (perf leaves them out).
 */
static void emit(struct stat_report *rep, const struct stat_events *ev,
		 const struct sonde_stat_reader *r, const struct sonde_stat_count *counts,
		 double wall_ns)
{
	int n = ev->nr, shown = 0, nr_aggr = sonde_stat_reader__nr_aggr(r);
	struct sonde_stat_event *events = calloc((size_t)n + 1, sizeof(*events));
	struct sonde_stat_count *cells = calloc((size_t)(n * nr_aggr) + 1,
						sizeof(*cells));
	int *keep = calloc((size_t)n + 1, sizeof(int));
	struct sonde_stat_table t;

	if (!events || !cells || !keep)
		goto out;
	for (int e = 0; e < n; e++) {
		bool any = false;

		for (int u = 0; u < nr_aggr; u++)
			any |= counts[u * n + e].status != SONDE_STAT_NOT_SUPPORTED;
		if (!any && ev->evs[e].hide_unsupported)
			continue;
		events[shown] = ev->evs[e].ev;
		events[shown].cgroup = rep->o->cgroup;
		keep[shown++] = e;
	}
	for (int u = 0; u < nr_aggr; u++)
		for (int s = 0; s < shown; s++)
			cells[u * shown + s] = counts[u * n + keep[s]];
	t = (struct sonde_stat_table){
		.sz = sizeof(t), .mode = sonde_stat_reader__mode(r),
		.nr_events = shown, .events = events,
		.nr_aggr = nr_aggr, .aggr = sonde_stat_reader__aggr(r), .counts = cells,
		.wall_ns = wall_ns,
	};
	rep->print(&rep->cfg, &t);
out:
	free(events);
	free(cells);
	free(keep);
}

void stat_report_table(struct stat_report *rep, const struct stat_events *ev,
		       const struct sonde_stat_reader *r,
		       const struct sonde_stat_count *counts, double wall_ns)
{
	emit(rep, ev, r, counts, wall_ns);
}

void stat_report_interval(struct stat_report *rep,
			  const struct stat_events *ev,
			  const struct sonde_stat_reader *r,
			  const struct sonde_stat_count *counts, double ts,
			  double wall_ns)
{
	/* perf repeats the column header every 25 intervals. */
	if (rep->print == stat_print_plain && rep->intervals_printed % 25 == 0)
		stat_print_interval_header(rep->out, sonde_stat_reader__mode(r));
	rep->intervals_printed++;
	rep->cfg.ts = ts;
	emit(rep, ev, r, counts, wall_ns);
	fflush(rep->out);
}

void stat_report_header(struct stat_report *rep)
{
	const struct stat_opts *o = rep->o;
	struct stat_target_desc d = {
		.pid = o->pid, .tid = o->tid,
		.cpu_list = o->system_wide ? NULL : o->cpu_list,
		.system_wide = o->system_wide,
		.argc = o->argc, .argv = o->argv,
	};

	if (rep->print != stat_print_plain || o->interval_ms)
		return;
	stat_print_header(rep->out, &d, o->run_count);
}

void stat_report_footer(struct stat_report *rep, const struct stat_footer *f)
{
	if (rep->print != stat_print_plain || rep->o->interval_ms)
		return;
	stat_print_footer(rep->out, f);
}
