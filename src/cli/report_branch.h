/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * sonde report --branch-stack: perf's branch mode, the profile's histogram
 * of the branches in the samples' branch stacks (each taken branch counts
 * 1) by source and target, then perf's branch type statistics.
 */
#ifndef SONDE_CLI_REPORT_BRANCH_H
#define SONDE_CLI_REPORT_BRANCH_H

#include <stdbool.h>
#include "report_cli.h"

struct report_branch;

/* perf 6.1's keys when --sort is not given in branch mode. */
#define REPORT_BRANCH_SORT "comm,dso_from,symbol_from,symbol_to,cycles"

/* Does the file hold branch stacks (perf's branch mode by default)? */
bool report_branch_available(struct sonde_perfdata_reader *r);
/* Does --sort @sort name a key only branch mode has? */
bool report_branch_sort_named(const char *sort);
/* The keys of --sort @sort; NULL after saying why on stderr. */
struct report_branch *report_branch_new(const char *sort);
/* A profile of branches by those keys (@po: the one report makes). */
void report_branch_opts(const struct report_branch *rb, struct sonde_profile_opts *po);
void report_branch_print(struct report_branch *rb, struct report *rp);

/* --branch-history on a file without branch stacks or callchains: says so, -1. */
int report_branch_history_check(struct report *rp);

/* What follows a branch history node's name (perf's show_branchflag_count). */
enum branch_counts {
	BRANCH_COUNTS_NONE,
	BRANCH_COUNTS,	   /* the counts */
	BRANCH_COUNTS_CUT, /* cut to 63 characters, as perf's graph lines are */
};
/* "sym file.c:12 (CALL predicted:50.0%)" or "0x4010", as perf prints a node. */
void report_branch_node_name(struct report *rp, struct outbuf *o,
			     const struct sonde_profile_node *n, enum branch_counts counts);
void report_branch_free(struct report_branch *rb);

#endif /* SONDE_CLI_REPORT_BRANCH_H */
