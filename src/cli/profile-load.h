/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * A whole-stack profile of one perf.data file with report's sample
 * filters, for the commands that view profiles (export, diff).
 */
#ifndef SONDE_CLI_PROFILE_LOAD_H
#define SONDE_CLI_PROFILE_LOAD_H

#include <stdbool.h>
#include <stdint.h>
#include "sonde/perfdata_reader.h"
#include "sonde/profile.h"

struct prof_load {
	/* options, as report takes them */
	const char *comms, *pids, *tids, *dsos, *syms, *cpus, *time;
	/* the profile's keys (NULL: comm, pid, tid, so stacks stay per
	 * thread) and whether it keeps a timeline */
	const enum sonde_profile_key *keys;
	size_t nr_keys;
	bool timeline;
	bool self_only; /* the sampled addresses only, no callchains */
	/* what was loaded */
	struct sonde_perfdata_reader *r;
	struct sonde_profile *p;
	uint64_t first_ns, last_ns; /* first and last sample time, 0 unknown */
};

/* The filter options of report, for a command's option table. */
#define PROF_LOAD_OPTIONS(pl)                                                                  \
	OPT_STRING(0, "comm", &(pl)->comms, "comm[,comm...]", "only these commands"),          \
	OPT_STRING(0, "pid", &(pl)->pids, "pid[,pid...]", "only these processes"),             \
	OPT_STRING(0, "tid", &(pl)->tids, "tid[,tid...]", "only these threads"),               \
	OPT_STRING('d', "dsos", &(pl)->dsos, "dso[,dso...]", "only stacks sampled in these objects"), \
	OPT_STRING('S', "symbols", &(pl)->syms, "sym[,sym...]", "only stacks sampled in these functions"), \
	OPT_STRING('C', "cpu", &(pl)->cpus, "cpu-list", "only these CPUs (0-3,5)"),            \
	OPT_STRING(0, "time", &(pl)->time, "range", "time slice: start,end in seconds, or percent slices 10%-20%,...")

/*
 * Opens @path and reads it into pl->p with the filters. Errors are
 * printed, prefixed with @cmd. @return 0, 1 (the file) or 129 (an option).
 */
int prof_load(struct prof_load *pl, const char *cmd, const char *path);
void prof_load_free(struct prof_load *pl);

#endif /* SONDE_CLI_PROFILE_LOAD_H */
