/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * The one path from a perf.data file to a profile for the commands that
 * view profiles (report, export, diff): the input opened with the same
 * messages, report's sample filters parsed and checked once (--time and
 * -C by sample_slice.c, as script does), the profile made with them, and
 * the records read with a progress bar for big files. script opens its
 * input here too.
 */
#ifndef SONDE_CLI_PROFILE_LOAD_H
#define SONDE_CLI_PROFILE_LOAD_H

#include <stdbool.h>
#include <stdint.h>
#include "sonde/perfdata_reader.h"
#include "sonde/profile.h"
#include "sample_slice.h"

/* The filters as parsed from the options; the profile copies them. */
struct prof_filters {
	char **comms, **dsos, **syms;
	size_t nr_comms, nr_dsos, nr_syms;
	int32_t *pids, *tids, *cpus;
	size_t nr_pids, nr_tids, nr_cpus;
	struct sonde_profile_time_range *times;
	size_t nr_times;
	struct sample_slice slice; /* --time, -C as given */
};

struct prof_load {
	/* options, as report takes them */
	const char *comms, *pids, *tids, *dsos, *syms, *cpus, *time;
	bool check_owner; /* refuse a file of another user, as report does without -f */
	bool quiet; /* no progress bar */
	/* prof_load()'s profile: its keys (NULL: comm, pid, tid, so stacks
	 * stay per thread) and whether it keeps a timeline */
	const enum sonde_profile_key *keys;
	size_t nr_keys;
	bool timeline;
	bool self_only; /* the sampled addresses only, no callchains */
	/* what was parsed and loaded */
	struct prof_filters f;
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
 * The steps, in order; errors are printed with @cmd ("sonde report")
 * first. prof_load_parse() reads the filter options (0 or -errno: an
 * option error); prof_load_open() opens @path into pl->r (0 or -errno);
 * prof_load_resolve() checks -C and places percent --time slices once
 * the file is open (0 or -errno); prof_load_new_profile() makes pl->p
 * with the filters (0 or -errno: -ENOMEM, -EINVAL for options the
 * profile refuses; not printed); prof_load_read() feeds
 * it every record, and @each (may be NULL) after it (the reader's 0 or
 * negative error, not printed).
 */
int prof_load_parse(struct prof_load *pl, const char *cmd);
int prof_load_open(struct prof_load *pl, const char *cmd, const char *path);
int prof_load_resolve(struct prof_load *pl, const char *cmd, const char *path);
int prof_load_new_profile(struct prof_load *pl, const struct sonde_profile_opts *po);
int prof_load_read(struct prof_load *pl,
		   void (*each)(void *arg, const struct sonde_perfdata_record *rec), void *arg);

/*
 * All of them with prof_load()'s profile, a problem in the file a
 * warning. @return 0, 1 (the file) or 129 (an option).
 */
int prof_load(struct prof_load *pl, const char *cmd, const char *path);
void prof_load_free(struct prof_load *pl);

/*
 * The input of a command that reads perf.data (report's messages, also
 * for script): NULL with the reason printed.
 */
struct sonde_perfdata_reader *prof_open_input(const char *cmd, const char *path,
					      bool check_owner);

#endif /* SONDE_CLI_PROFILE_LOAD_H */
