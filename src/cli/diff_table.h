/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * perf diff's table for sonde diff: the entries of one event of a
 * baseline profile, the files paired with it as its columns
 * (sonde_profile__add_column()), each file's column computed (delta-abs,
 * delta, ratio, wdiff), ordered and printed as perf diff 6.1 does, with
 * its period (-p) and formula (-F) columns.
 */
#ifndef SONDE_CLI_DIFF_TABLE_H
#define SONDE_CLI_DIFF_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "outbuf.h"
#include "sonde/sonde.h"

#define DIFF_MAX_KEYS 8

/* perf diff's -c: what a file's column shows and the rows sort by. */
enum diff_compute {
	DIFF_DELTA_ABS, /* share in the file minus share in the baseline, biggest change first */
	DIFF_DELTA,	/* the same, most grown first */
	DIFF_RATIO,	/* the file's period over the baseline's */
	DIFF_WDIFF,	/* the file's period times w2 minus the baseline's times w1 */
};

/* One file's side of a row. */
struct diff_side {
	bool has;	 /* the file has samples there: perf's pair */
	uint64_t period;
	double value;	 /* the computed column */
};

/* One entry of the baseline's histogram. */
struct diff_row {
	char *cell[DIFF_MAX_KEYS]; /* the key columns' text */
	bool has_base;		   /* the baseline has samples there */
	uint64_t base_period;
	struct diff_side *side;	   /* by file (0 unused) */
};

struct diff_table {
	/* what to show: the caller's */
	enum sonde_profile_key keys[DIFF_MAX_KEYS];
	size_t nr_keys;
	bool hide[DIFF_MAX_KEYS]; /* keys filtered to one value: no column, as in perf */
	enum diff_compute compute;
	int64_t w1, w2;		  /* wdiff's weights */
	bool period, formula;	  /* -p, -F */
	bool baseline_only;	  /* -b: the entries the baseline and a file have */
	unsigned int order;	  /* -o: the file whose column sorts first; 0 none */
	size_t nr_files;	  /* the baseline (0) and the files it is paired with */
	const char *const *paths; /* for the list perf prints beyond two files */
	/* one event's, set before diff_table_add() */
	const int *cols;	  /* each file's column in the baseline's histogram
				   * by file index, 0: the file lacks the event */
	uint64_t base_total;	  /* the baseline's total period (shares, deltas) */
	uint64_t *totals;	  /* each file's, by file index (nr_files of them) */
	/* the rows */
	struct diff_row *rows;
	size_t nr, cap;
};

/* Allocates the totals once nr_files is set. 0 or -ENOMEM. */
int diff_table_init(struct diff_table *t);
/*
 * Adds entry @e of the baseline as a row: its own samples and period,
 * and each file's in the file's column. 0 or -ENOMEM.
 */
int diff_table_add(struct diff_table *t, const struct sonde_profile_entry *e);
/* Computes, orders and prints the rows under the event's header. */
void diff_table_print(struct diff_table *t, const char *event, bool first, struct outbuf *ob);
/* Drops the rows (for the next event); diff_table_free() drops all. */
void diff_table_clear(struct diff_table *t);
void diff_table_free(struct diff_table *t);

#endif /* SONDE_CLI_DIFF_TABLE_H */
