/* SPDX-License-Identifier: LGPL-2.1-only */
/* sonde record: state shared by record.c and record_*.c. */
#ifndef SONDE_CLI_RECORD_CLI_H
#define SONDE_CLI_RECORD_CLI_H

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
	char *probe_target; /* uprobe path / kprobe function: attr.config1 */
	char *filter;     /* --filter for a tracepoint, or NULL */
	const struct sonde_evspec_list *spec; /* its -e, for the terms */
	size_t spec_idx;  /* its index there */
	uint64_t *ids;    /* of every fd, for the file */
	size_t nr_ids;
};

struct rec_events {
	struct rec_event *ev;
	size_t nr;
	char **tracepoints; /* "sys:name" of the tracepoint events */
	size_t nr_tracepoints;
	size_t last_first;  /* first event of the last -e (for --filter) */
	struct sonde_evspec_list **specs; /* each -e, kept for its terms */
	size_t nr_specs;
};

/*
 * Parses an -e list with sonde_evspec_list__parse() into @evs (appending).
 * Prints "sonde record: event syntax error ..." with a marker on error.
 */
int rec_events_parse(struct rec_events *evs, const char *spec);
void rec_events_free(struct rec_events *evs);
/*
 * --filter EXPR for the tracepoints of the last -e (a second one is
 * joined with &&, as perf does). Prints why and returns -EINVAL when the
 * last -e has no tracepoint.
 */
int rec_events_add_filter(struct rec_events *evs, const char *filter);

/* Options of sonde record. */
struct rec_opts {
	const char *output;
	const char *pid;
	const char *tid;
	const char *cpus;
	const char *call_graph;
	const char *mmap_pages;
	unsigned int freq;
	const char *freq_str;
	uint64_t period;
	unsigned int proc_map_timeout; /* ms a process's /proc maps may take (perf's 500) */
	unsigned int realtime; /* -r: SCHED_FIFO priority of the recorder, 0: none */
	bool all_cpus;
	bool callchain;
	bool switch_events;
	uint64_t branch_stack; /* -b / -j: branch_sample_type, 0 = none */
	int clockid;           /* -k: the clock samples carry, -1 = perf's */
	bool inherit;
	bool per_thread;  /* --per-thread: a ring (and AUX area) per thread */
	bool overwrite;
	bool quiet;
	bool bad_event;   /* an -e did not parse (already reported) */
	int verbose;
	bool no_buildid;       /* -B: no HEADER_BUILD_ID, no cache */
	bool no_buildid_cache; /* -N: HEADER_BUILD_ID, but ~/.debug untouched */
	bool buildid_all;      /* every object mapped, not only those hit */
	const char *aux_snapshot; /* -S[OPTS]: "" without options, NULL unset */
	const char *aux_sample;   /* --aux-sample[=SIZE]: likewise */
	bool track_last;       /* the side band goes on the last event */
	struct rec_events evs;
};

/* One recording session. */
struct rec_state {
	struct rec_opts *o;
	int *cpus;
	size_t nr_cpus;
	pid_t *tids;
	size_t nr_tids;
	bool per_task;        /* pid != -1 */
	pid_t child;
	bool workload_target; /* the child is recorded, not just waited for */
	bool user_only_said;  /* the paranoid fallback was announced */
	/* The file -o was to replace, to tell it from ours after a failure. */
	unsigned long long prev_ino, prev_dev;
	/* The events on the target, their fds and rings. */
	struct sonde_evlist *list;
	struct sonde_perfdata_writer *w;
	unsigned long wakeups;
	int werr;
	size_t data_pages;
	struct sonde_buildid_hits *bids; /* objects hit by samples; NULL: not tracked */
	struct rec_aux *aux;   /* the AUX area tracer; NULL: none */
	size_t aux_pages;      /* AUX area pages per ring (-m ,N) */
	bool aux_overwrite;    /* AUX areas mapped for overwrite (-S) */
	bool stopping;         /* the last drain, after the events stopped */
};

/* record_target.c: what to record. */
/* The CPUs of @list (NULL: every online CPU), checked online; returns how
 * many, or -errno with the reason in @err. */
int rec_cpu_list(const char *list, int **out, char *err, size_t errlen);
int rec_add_tid(struct rec_state *s, pid_t tid);
int rec_add_pid_threads(struct rec_state *s, const char *list);
int rec_add_tid_list(struct rec_state *s, const char *list);

/* record_open.c: attrs, fds and rings. */
void rec_setup_attrs(struct rec_state *s);
int rec_open_events(struct rec_state *s);
int rec_setup_rings(struct rec_state *s);
void rec_enable_events(struct rec_state *s, bool on);
/* One pass over the rings; the overwrite ones only for a snapshot.
 * Returns the number of records read. */
size_t rec_drain(struct rec_state *s, bool snapshot);
void rec_save_lost_counts(struct rec_state *s);

/* record_file.c: creates the file, writes its start and the synthesized
 * records, then enables the events (the workload's wait for its exec).
 * Returns 0 or -errno (said on stderr). */
int rec_file_begin(struct rec_state *s, char **cmdline);

/*
 * record_buildid.c: the library's collector of the objects hit by
 * samples (sonde_buildid_hits), made for this recording's events and
 * options; NULL with errno on failure.
 */
struct sonde_buildid_hits *rec_bids_new(const struct rec_opts *o);
/* Its BUILD_ID entries into the file, and perf's build-id cache filled. */
void rec_bids_finish(struct sonde_buildid_hits *b, struct sonde_perfdata_writer *w,
		     bool fill_cache);

/*
 * record_aux.c: AUX area tracers (intel_pt, intel_bts, ...). _check()
 * after the options (finds the AUX event, moves its group first, adds the
 * dummy:u side-band event, sizes the areas; returns an exit status),
 * _attrs() after rec_setup_attrs(), _mapped() after the rings are mapped,
 * _begin() after the file's start (AUXTRACE_INFO), _read() in each drain
 * pass. All do nothing without an AUX event.
 */
struct rec_aux;
int rec_aux_check(struct rec_state *s);
int rec_aux_attrs(struct rec_state *s);
int rec_aux_mapped(struct rec_state *s);
int rec_aux_begin(struct rec_state *s);
void rec_aux_read(struct rec_state *s, bool snapshot);
void rec_aux_free(struct rec_aux *a);

#endif /* SONDE_CLI_RECORD_CLI_H */
