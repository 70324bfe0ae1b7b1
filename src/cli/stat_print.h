/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * What `sonde stat` prints: the table of counts (<sonde/stat.h>) in three
 * printers with identical signatures (plain text, CSV, JSON Lines), with
 * perf's header and footer around it. The command's printers, like
 * report's; the unit tests fill tables by hand.
 */
#ifndef SONDE_CLI_STAT_PRINT_H
#define SONDE_CLI_STAT_PRINT_H

#include <stdbool.h>
#include <stdio.h>
#include "sonde/stat.h"

/* ---- Printers ---------------------------------------------------------- */

struct stat_print_cfg {
	FILE *out;
	const char *csv_sep;       /* CSV printer: the -x separator */
	const char *thousands_sep; /* plain: -B grouping ("" or NULL: none) */
	int run_count;             /* -r N (>1 prints the noise) */
	bool interval;             /* prefix every line with ts */
	double ts;                 /* seconds since start (interval mode) */
	bool color;                /* plain: colour the bad ratios */
};

typedef void (*stat_print_fn)(const struct stat_print_cfg *cfg,
			      const struct sonde_stat_table *t);

/* The twins: same table, same config, three formats. */
void stat_print_plain(const struct stat_print_cfg *cfg,
		      const struct sonde_stat_table *t);
void stat_print_csv(const struct stat_print_cfg *cfg,
		    const struct sonde_stat_table *t);
void stat_print_json(const struct stat_print_cfg *cfg,
		     const struct sonde_stat_table *t);

/* The column header perf prints every 25 intervals (plain text only). */
void stat_print_interval_header(FILE *out, enum sonde_stat_aggr_mode mode);

/* What the counts are of, for the plain header line. */
struct stat_target_desc {
	const char *pid;   /* "process id '...'" */
	const char *tid;   /* "thread id '...'" */
	const char *cpu_list; /* "CPU(s) ..." */
	bool system_wide;
	int argc;
	const char *const *argv; /* the workload */
};

void stat_print_header(FILE *out, const struct stat_target_desc *d,
		       int run_count);

struct stat_footer {
	int run_count;
	double wall_mean_s, wall_stddev_s;
	bool show_rusage; /* a forked workload: user and sys times */
	double user_s, sys_s;
};

void stat_print_footer(FILE *out, const struct stat_footer *f);

/* ---- Helpers shared by the printers ------------------------------------ */

/* Running mean and variance (Welford), for -r. */
struct stat_stats {
	double n, mean, m2;
};

void stat_stats_update(struct stat_stats *s, double v);
/* Standard deviation of the mean. */
double stat_stats_stddev_mean(const struct stat_stats *s);
/* stddev of the mean as a percentage of the mean (0 when mean is 0). */
double stat_stats_rel_pct(const struct stat_stats *s);

/* "%.*f" of @v into @buf, digits grouped by @sep ("" or NULL: none). */
void stat_format_grouped(char *buf, size_t size, double v, int prec,
			 const char *sep);

/* The row label text of unit @a for CSV/plain ("CPU0", "S0-D0-C1", ...). */
void stat_aggr_label(char *buf, size_t size, enum sonde_stat_aggr_mode mode,
		     const struct sonde_stat_aggr *a);


/*
 * perf prints -A event-major (every CPU of one event, then the next event)
 * and every other aggregation unit-major (all events of one unit, then the
 * next unit). Row @i of the table in that order.
 */
static inline void stat_row_at(const struct sonde_stat_table *t, int i, int *ev,
			       int *aggr)
{
	if (t->mode == SONDE_STAT_AGGR_NONE) {
		*ev = i / t->nr_aggr;
		*aggr = i % t->nr_aggr;
	} else {
		*aggr = i / t->nr_events;
		*ev = i % t->nr_events;
	}
}

#define stat_for_each_row(t, ev, aggr)                                     \
	for (int stat_i_ = 0, ev = 0, aggr = 0;                            \
	     stat_i_ < (t)->nr_events * (t)->nr_aggr &&                     \
	     (stat_row_at((t), stat_i_, &ev, &aggr), 1);                    \
	     stat_i_++)

/* "%6lu.%09lu" + @sep: the interval timestamp as perf prints it. */
void stat_print_ts(FILE *out, double ts, const char *sep);

static inline double stat_event_scale(const struct sonde_stat_event *e)
{
	return e->scale ? e->scale : 1.0;
}

#endif /* SONDE_CLI_STAT_PRINT_H */
