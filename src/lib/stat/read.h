/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * Reading an open event list into the stat printers' table: each fd summed
 * into its aggregation unit, then scaled for multiplexing. Internal to the
 * project (the CLI uses it; unit tests drive it through the syscall seam).
 */
#ifndef SONDE_STAT_READ_H
#define SONDE_STAT_READ_H

#include <stdbool.h>
#include <stdint.h>
#include "stat/stat.h"

struct sonde_evlist;

/* Raw sums of one cell. */
struct stat_raw {
	double val;
	uint64_t ena, run;
};

struct stat_reader {
	enum stat_aggr_mode mode;
	int nr_events, nr_aggr;
	struct stat_aggr *aggr;
	int *unit_of;          /* unit of each cpu index (thread index) */
	int nr_idx;
	struct stat_raw *prev; /* interval mode: the last totals */
};

/*
 * Sets up the units of @mode over the list's CPUs (topology read under
 * $SONDE_SYSFS_ROOT or /sys) or threads (--per-thread, comm from /proc).
 * Returns 0 or -errno; free with stat_reader_free().
 */
int stat_reader_init(struct stat_reader *r, enum stat_aggr_mode mode,
		     struct sonde_evlist *list, int nr_events);
void stat_reader_free(struct stat_reader *r);

/*
 * Reads every cell into @out ([aggr * nr_events + ev]); with @delta only
 * what was counted since the previous call. Multiplexed counts are scaled
 * to the time enabled unless @no_scale. Unsupported events are marked
 * <not supported>, events that never ran <not counted>.
 */
int stat_reader_read(struct stat_reader *r, struct sonde_evlist *list,
		     bool delta, bool no_scale, struct stat_count *out);

#endif /* SONDE_STAT_READ_H */
