/* SPDX-License-Identifier: LGPL-2.1-only */
/* sonde report: state shared by loading/aggregation and printing. */
#ifndef SONDE_CLI_REPORT_CLI_H
#define SONDE_CLI_REPORT_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include "sonde/perfdata_reader.h"
#include "sonde/profile.h"
#include "outbuf.h"
#include "profile_load.h"

/* The sort keys are the profile's (sonde/profile.h). */
#define RK_COMM SONDE_PROFILE_KEY_COMM
#define RK_PID SONDE_PROFILE_KEY_PID
#define RK_TID SONDE_PROFILE_KEY_TID
#define RK_DSO SONDE_PROFILE_KEY_DSO
#define RK_SYM SONDE_PROFILE_KEY_SYM
#define RK_CPU SONDE_PROFILE_KEY_CPU
#define RK_SRCLINE SONDE_PROFILE_KEY_SRCLINE
#define RK_MAX SONDE_PROFILE_KEY_MAX

struct report_branch;

struct report {
	/* options */
	const char *input;
	const char *sort;
	const char *graph;
	double percent_limit;
	bool no_children, children_flag, stdio, json, header, header_only, stats;
	bool force, tui, quiet;
	bool inline_frames; /* --no-inline clears it */
	bool cache;		/* --no-cache (--no-kallsyms-cache) clears it */
	const char *kallsyms;	/* --kallsyms FILE */
	const char *vmlinux;	/* -k/--vmlinux FILE */
	bool show_info; /* -I: the full feature sections in --header */
	bool buildid_list;
	const char *percentage;
	bool relative;
	bool elide[RK_MAX]; /* column filtered to one value: hidden */
	bool one_value[RK_MAX]; /* filtered to one value: named above the table */
	int max_stack;

	enum sonde_profile_key keys[RK_MAX];
	int nr_keys;
	/* the tracepoint fields --sort names, one per FIELD key in keys */
	const char *fspecs[RK_MAX];
	int nr_fspecs;
	char *sort_copy; /* the --sort text fields[] points into */

	/* call graph display */
	bool graph_on;	    /* print call graphs */
	bool graph_caller;  /* caller order (outermost first) */
	bool graph_fractal; /* percentages relative to the parent */
	enum { REPORT_GRAPH_TREE, REPORT_GRAPH_FLAT, REPORT_GRAPH_FOLDED } graph_mode;
	double graph_threshold; /* percent */
	/* What a call graph line shows, perf's -g value: percent (default),
	 * period, or count (samples; what flame graph tools add up). */
	enum { GRAPH_VALUE_PERCENT, GRAPH_VALUE_PERIOD, GRAPH_VALUE_COUNT } graph_value;
	bool graph_set;
	bool graph_order_set; /* -g named caller or callee */
	int pid_comm_width;   /* --sort pid: the command part of tid:comm */

	/* the filter options, their parsed lists, the reader and profile */
	struct prof_load ld;

	/* state */
	struct sonde_perfdata_reader *r; /* ld.r and ld.p, for the printers */
	struct sonde_profile *prof;
	bool children;	/* effective children mode */
	bool have_callchains;
	struct outbuf out;
	const char *load_error;
	/* --branch-stack: 1 asked, 0 --no-branch-stack, -1 if the file has them */
	int branch_mode;
	bool branch_history; /* --branch-history: branches start the call graphs */
	struct report_branch *branch; /* the branch histogram in branch mode */
	/* --mem-mode: samples weigh their weight, the memory keys */
	bool mem_mode;
	char mem_sort[512];	  /* the sort it took, as its header says it */
	const char *parent;	  /* -p: the parent key's regex */
	uint64_t time_quantum;	  /* --time-quantum, ns (0: perf's 100 ms) */
	/*
	 * --sort's output fields: perf shows them as columns where they
	 * stand among the keys (before keys[at]): sample, period, the
	 * self weight by cpumode, and without children mode overhead_children
	 * (an N/A column).
	 */
	struct {
		enum { RF_SAMPLE, RF_PERIOD, RF_CHILDREN, RF_SYS, RF_USR, RF_GUEST_SYS,
		       RF_GUEST_USR, RF_NR } kind;
		int at;
	} fields[RF_NR];
	int nr_fields;
	/*
	 * The weights' places in the order (sonde_profile_opts): perf puts
	 * the self weight first unless --sort's text holds "overhead"
	 * anywhere (a substring test), the children weight before it unless
	 * it holds "overhead_children", and the output fields named in the
	 * list where they stand; the columns it does not name sort last.
	 */
	int self_at, children_at, samples_at, mode_at[4];
	int nr_placed; /* how many of them are placed */
	bool no_keys; /* --sort named output fields only: one row */
};

int report_parse_graph(struct report *rp, const char *arg);
void report_print(struct report *rp);
void report_print_json(struct report *rp);
void report_print_header(struct report *rp);
void report_print_buildids(struct report *rp);
void report_print_stats(struct report *rp);

/* Shared by the table (report_print.c) and --json (report_json.c). */
/* The event's counts; zeros for an event the profile never saw. */
struct sonde_profile_event_stats report_event_stats(struct report *rp, int attr);
/* Whether output field @f has a column (overhead_children: --no-children). */
bool report_field_shown(const struct report *rp, int f);
/* The tracepoint field columns of key @i in event @attr's table, into @cols. */
int report_field_cols(const struct report *rp, int attr, int i, int *cols, int max);

#endif /* SONDE_CLI_REPORT_CLI_H */
