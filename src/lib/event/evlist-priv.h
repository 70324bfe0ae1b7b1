/* SPDX-License-Identifier: LGPL-2.1-only */
/* The parsed event list behind struct sonde_evspec_list (private). */
#ifndef SONDE_EVLIST_PRIV_H
#define SONDE_EVLIST_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include "sonde/abi.h"

struct ev_kv {
	char *key;
	char *val;
};

struct evspec {
	struct sonde_perf_event_attr attr;
	char *name;
	char *pmu;
	char *cpumask;
	char *unit;
	double scale;
	unsigned int flags;
	int leader;
	/* perf's evsel->exclude_GH: a G or H modifier was seen */
	bool exclude_GH;
	/* config began as the PMU's default: terms replace the bits they
	 * name instead of adding to them, as in perf */
	bool pmu_default;
	struct ev_kv *terms;
	size_t nr_terms;
	/* kprobe_func / uprobe_path that attr.config1 points to */
	char *probe_target;
};

struct sonde_evspec_list {
	struct evspec *ev;
	size_t nr;
	size_t cap;
};

#endif /* SONDE_EVLIST_PRIV_H */
