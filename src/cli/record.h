/* SPDX-License-Identifier: LGPL-2.1-only */
/* sonde record: state shared by cmd-record*.c and record-*.c. */
#ifndef SONDE_CLI_RECORD_H
#define SONDE_CLI_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "sonde/sonde.h"

struct rec_event {
	struct sonde_perf_event_attr attr;
	char *name;
	int leader;       /* index of the group leader (itself if none) */
	int nr_members;   /* > 1 on a group leader */
	bool period_set;  /* the spec fixed the period (period= term) */
	bool freq_set;    /* the spec fixed the frequency (freq= term) */
	int *fds;         /* [cpu_idx * nr_threads + thread_idx] */
	uint64_t *ids;
	size_t nr_ids;
};

struct rec_events {
	struct rec_event *ev;
	size_t nr;
	char **tracepoints; /* "sys:name" of the tracepoint events */
	size_t nr_tracepoints;
};

/*
 * Parses an -e list with sonde_evspec_list__parse() into @evs (appending).
 * Prints "sonde record: event syntax error ..." with a marker on error.
 */
int rec_events_parse(struct rec_events *evs, const char *spec);
void rec_events_free(struct rec_events *evs);

#endif /* SONDE_CLI_RECORD_H */
