/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * The pieces of `sonde stat`, one job per file:
 *   stat.c      options, checks, the run loop
 *   stat_events.c   the event list (default set or -e) and each event's role
 *   stat_target.c   what to count: workload, pid, tid, CPUs, cgroup
 *   stat_wait.c     waiting for the end, intervals and signals
 *   stat_report.c   header, table and footer in the chosen format
 *   stat-print-*.c  the printers (plain, CSV, JSON) and their helpers
 * on the library's counting session API (<sonde/stat.h>: counters into
 * the table, derived metrics).
 */
#ifndef SONDE_CLI_STAT_H
#define SONDE_CLI_STAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>
#include "sonde/stat.h"
#include "stat_print.h"

struct sonde_evlist;

struct stat_opts {
	const char *event_specs[64]; /* each -e */
	char *event_filters[64];     /* --filter after each -e, or NULL */
	int nr_specs;
	const char *pid, *tid, *cpu_list, *cgroup;
	bool system_wide;
	bool no_aggr, per_thread, per_core, per_die, per_socket, per_node;
	bool no_scale, json, big_num, no_inherit;
	int detailed; /* -d count: 1 L1/LLC, 2 + L1i/TLB, 3 + prefetch */
	int run_count;
	unsigned int interval_ms, interval_count;
	int delay_ms;
	const char *output, *csv_sep;
	int argc; /* the workload, after "--" */
	const char **argv;
	enum sonde_stat_aggr_mode mode;
};

/* One event as stat shows it, parallel to the evlist's evsels. */
struct stat_ev {
	struct sonde_stat_event ev; /* name, unit, scale, kind, ctx for the table */
	char *name;           /* owns ev.name */
	bool hide_unsupported; /* default stalled-cycles: left out, as perf */
	bool implicit;         /* default set or -d: no "cannot count" warning */
	const char *filter;    /* --filter for this tracepoint, or NULL */
};

struct stat_events {
	int nr;
	struct stat_ev *evs;
};

/* stat_events.c */
int stat_events_build(const struct stat_opts *o, struct sonde_evlist *list,
		      struct stat_events *out);
void stat_events_free(struct stat_events *e);
/* Sets each tracepoint's --filter on the open list; prints failures. */
int stat_events_set_filters(const struct stat_events *e,
			    struct sonde_evlist *list);

/* Set once the library has explained a failure (no second message). */
extern bool stat_lib_warned;

/* The most ids one -p/-t list may name. */
#define STAT_MAX_TASKS 256

/*
 * stat_target.c: points @list at the target; prints the error itself.
 * The ids of -p/-t go to @ids (room for STAT_MAX_TASKS), their count to
 * @nr_ids (0 for other targets).
 */
int stat_target_setup(const struct stat_opts *o, struct sonde_evlist *list,
		      pid_t *ids, int *nr_ids);
/* Forks the workload (waiting to exec); returns its pid or -1. */
pid_t stat_workload_prepare(const struct stat_opts *o,
			    struct sonde_evlist *list);
/* Lets it exec; prints why it could not and returns -errno then. */
int stat_workload_start(const struct stat_opts *o, struct sonde_evlist *list);

/* stat_wait.c */
struct stat_wait {
	pid_t child;         /* -1: no workload */
	pid_t watch[STAT_MAX_TASKS]; /* -p/-t: stop when all are gone */
	int nr_watch;
	int status;          /* the child's wait status */
	bool child_done;
	struct rusage *ru;   /* the child's rusage (may be NULL) */
	int stop_signal;     /* SIGINT/SIGTERM that ended the wait, or 0 */
};

/* Blocks SIGINT, SIGTERM and SIGCHLD so the wait can take them in order. */
void stat_signals_block(void);
void stat_signals_restore(void);

/*
 * Waits for the workload to end, the watched task to go, or a signal;
 * with @interval_ms calls @tick(arg) at every interval and stops when it
 * returns false.
 */
int stat_wait(struct stat_wait *w, unsigned int interval_ms,
	      bool (*tick)(void *arg), void *arg);

/* stat_report.c */
struct stat_report {
	FILE *out;
	const struct stat_opts *o;
	stat_print_fn print;
	struct stat_print_cfg cfg;
	int intervals_printed;
};

void stat_report_init(struct stat_report *rep, FILE *out,
		      const struct stat_opts *o);
/* A table with the hidden rows (unsupported default stalled cycles) gone. */
void stat_report_table(struct stat_report *rep, const struct stat_events *ev,
		       const struct sonde_stat_reader *r,
		       const struct sonde_stat_count *counts, double wall_ns);
void stat_report_interval(struct stat_report *rep,
			  const struct stat_events *ev,
			  const struct sonde_stat_reader *r,
			  const struct sonde_stat_count *counts, double ts,
			  double wall_ns);
void stat_report_header(struct stat_report *rep);
void stat_report_footer(struct stat_report *rep, const struct stat_footer *f);

#endif /* SONDE_CLI_STAT_H */
