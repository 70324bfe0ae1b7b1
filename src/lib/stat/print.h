/* SPDX-License-Identifier: LGPL-2.1-only */
/* Private to the stat printers: row order, timestamps, scales. */
#ifndef SONDE_STAT_PRINT_H
#define SONDE_STAT_PRINT_H

#include <stdio.h>
#include "stat/stat.h"

/*
 * perf prints -A event-major (every CPU of one event, then the next event)
 * and every other aggregation unit-major (all events of one unit, then the
 * next unit). Row @i of the table in that order.
 */
static inline void stat_row_at(const struct stat_table *t, int i, int *ev,
			       int *aggr)
{
	if (t->mode == STAT_AGGR_NONE) {
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

static inline double stat_event_scale(const struct stat_event *e)
{
	return e->scale ? e->scale : 1.0;
}

#endif /* SONDE_STAT_PRINT_H */
