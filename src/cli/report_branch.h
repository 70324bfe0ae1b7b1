/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * sonde report --branch-stack: perf's branch mode, a histogram of the
 * branches in the samples' branch stacks (each taken branch counts 1) by
 * source and target, then perf's branch type statistics.
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
/* The histogram for --sort @sort; NULL after saying why on stderr. */
struct report_branch *report_branch_new(const char *sort);
/* Counts the branches of one record if it is a sample the filters keep. */
void report_branch_add(struct report_branch *rb, struct report *rp,
		       const struct sonde_perfdata_record *rec);
void report_branch_print(struct report_branch *rb, struct report *rp);
void report_branch_free(struct report_branch *rb);

#endif /* SONDE_CLI_REPORT_BRANCH_H */
