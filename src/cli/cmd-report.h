/* SPDX-License-Identifier: LGPL-2.1-only */
/* sonde report: state shared by loading/aggregation and printing. */
#ifndef SONDE_CLI_CMD_REPORT_H
#define SONDE_CLI_CMD_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include "anl.h"
#include "hashtab.h"
#include "outbuf.h"
#include "sample-slice.h"

enum rkey {
	RK_COMM,
	RK_PID,
	RK_TID,
	RK_DSO,
	RK_SYM,
	RK_CPU,
	RK_SRCLINE,
	RK_MAX,
};

/* One node of a hist entry's call graph (uncompressed trie). */
struct cnode {
	const struct anl_sym *sym; /* match by symbol when known ... */
	struct anl_dso *dso;
	uint64_t ip;		   /* ... else by raw ip */
	uint64_t addr;
	uint64_t hit;		   /* period of chains ending here */
	uint64_t cumul;		   /* hit + everything below (kept by chain_add) */
	uint64_t nr_hit, nr_cumul; /* the same in samples, for -g ...,count */
	struct cnode *child, *sibling;
	struct cnode *parent;	   /* NULL for an entry's root */
	uint32_t nr_children;
};

struct hkey {
	int attr;
	const char *comm;
	int32_t pid, tid, cpu;
	struct anl_dso *dso;
	const struct anl_sym *sym;
	uint64_t addr; /* when sym is NULL (or for srcline) */
	const char *srcline;
	char level;    /* 'k' or '.' */
	/*
	 * Identity, as perf compares entries: objects by short name, symbols
	 * by address range (inlined ones by name too), so the same binary
	 * at two paths, or two copies of a library, make one entry.
	 */
	const char *dso_id;
	uint64_t sym_start, sym_end;
	const char *sym_iname;
};

struct cnode_pool;

struct hentry {
	struct hkey k;
	uint64_t self, children;
	uint64_t nr_self;
	uint32_t max_depth; /* longest call graph path (children ordering) */
	uint64_t seq;	     /* creation order: deterministic last tie-break */
	struct cnode *chain; /* root (no symbol), NULL without -g */
	uint64_t expanded;   /* last stack group counted here (+1): one count each */
};

struct report {
	/* options */
	const char *input;
	const char *sort;
	const char *graph;
	const char *comms, *pids, *tids, *dsos, *syms, *cpus, *time;
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
	bool elide[RK_MAX]; /* column filtered to one value: shown above the table */
	int max_stack;

	enum rkey keys[RK_MAX];
	int nr_keys;
	bool need_pid, need_tid, need_cpu;

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

	/* filters */
	char **f_comm, **f_dso, **f_sym;
	int nr_f_comm, nr_f_dso, nr_f_sym;
	int32_t *f_pid, *f_tid;
	int nr_f_pid, nr_f_tid;
	struct sample_slice slice; /* --time, -C */

	/* state */
	struct sonde_perfdata_reader *r;
	struct anl_machine *m;
	struct anl_stacks *stacks;
	bool children;	/* effective children mode */
	bool have_callchains;
	uint64_t *nr_samples; /* per attr, before filters */
	uint64_t *nr_filtered_samples, *period_filtered;
	uint64_t *period_all; /* before filters: --percentage absolute */
	uint64_t *lost_samples; /* per attr, from LOST_SAMPLES records */
	struct hashtab ents;	/* of struct hentry, by hkey */
	size_t nr_ents;
	struct hashtab kids;	/* children of wide call graph nodes, by parent + frame */
	struct cnode_pool *cnodes; /* every call graph node, freed at once */
	struct hentry **sorted;
	struct outbuf out;
	const char *load_error;
};

int report_parse_graph(struct report *rp, const char *arg);
void report_print(struct report *rp);
void report_print_json(struct report *rp);
void report_print_header(struct report *rp);
void report_print_buildids(struct report *rp);
void report_print_stats(struct report *rp);
const char *report_srcline(struct report *rp, struct anl_dso *dso, const struct anl_sym *sym,
			   uint64_t addr);

#endif /* SONDE_CLI_CMD_REPORT_H */
