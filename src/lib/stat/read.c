// SPDX-License-Identifier: LGPL-2.1-only
/*
 * From counters to the printers' table: every fd read, summed into its
 * aggregation unit (CPU, core, die, socket, thread or everything), then
 * scaled for multiplexing as perf does (on the sums: val * ena / run).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/cpumap.h"
#include "sonde/evlist.h"
#include "sonde/threadmap.h"
#include "sonde/stat.h"
#include "core_priv.h"
#include "stat_priv.h"

/* Raw sums of one cell. */
struct stat_raw {
	double val;
	uint64_t ena, run;
};

struct sonde_stat_reader {
	enum sonde_stat_aggr_mode mode;
	int nr_events, nr_aggr;
	struct sonde_stat_aggr *aggr;
	int *unit_of;          /* unit of each cpu index (thread index) */
	int nr_idx;
	struct stat_raw *prev; /* delta reads: the last totals */
};

static void thread_comm(pid_t tid, char *buf, size_t size)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)tid);
	f = fopen(path, "re");
	if (!f || !fgets(buf, (int)size, f)) {
		snprintf(buf, size, "?");
	} else {
		buf[strcspn(buf, "\n")] = 0;
	}
	if (f)
		fclose(f);
}

static int init_threads(struct sonde_stat_reader *r, struct sonde_evlist *list)
{
	const struct sonde_thread_map *t = sonde_evlist__threads(list);
	int n = sonde_thread_map__nr(t);

	r->aggr = calloc((size_t)n, sizeof(*r->aggr));
	r->unit_of = calloc((size_t)n, sizeof(int));
	if (!r->aggr || !r->unit_of)
		return -ENOMEM;
	for (int i = 0; i < n; i++) {
		r->aggr[i].tid = sonde_thread_map__pid(t, i);
		r->aggr[i].nr = 1;
		r->aggr[i].cpu = -1;
		thread_comm(r->aggr[i].tid, r->aggr[i].comm,
			    sizeof(r->aggr[i].comm));
		r->unit_of[i] = i;
	}
	r->nr_aggr = n;
	r->nr_idx = n;
	return 0;
}

static int init_cpus(struct sonde_stat_reader *r, struct sonde_evlist *list)
{
	const struct sonde_cpu_map *m = sonde_evlist__cpus(list);
	int n = sonde_cpu_map__nr(m), *cpus, ret = 0;
	struct stat_topo topo = { 0 };

	cpus = calloc((size_t)n, sizeof(int));
	r->unit_of = calloc((size_t)n, sizeof(int));
	if (!cpus || !r->unit_of) {
		free(cpus);
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++)
		cpus[i] = sonde_cpu_map__cpu(m, i);
	if (r->mode == SONDE_STAT_AGGR_CORE || r->mode == SONDE_STAT_AGGR_DIE ||
	    r->mode == SONDE_STAT_AGGR_SOCKET || r->mode == SONDE_STAT_AGGR_NODE)
		ret = stat_topo_read(&topo, NULL, cpus, n);
	if (!ret)
		ret = stat_aggr_build(r->mode, &topo, cpus, n, &r->aggr,
				      r->unit_of);
	stat_topo_free(&topo);
	free(cpus);
	if (ret < 0)
		return ret;
	r->nr_aggr = ret;
	r->nr_idx = n;
	return 0;
}

struct sonde_stat_reader *sonde_stat_reader__new(struct sonde_evlist *list,
						 enum sonde_stat_aggr_mode mode,
						 int nr_events)
{
	struct sonde_stat_reader *r;
	int err;

	if (!list || nr_events < 0 || nr_events > sonde_evlist__nr(list) ||
	    mode < SONDE_STAT_AGGR_GLOBAL || mode > SONDE_STAT_AGGR_NODE)
		return lib_err_ptr(EINVAL);
	r = calloc(1, sizeof(*r));
	if (!r)
		return lib_err_ptr(ENOMEM);
	r->mode = mode;
	r->nr_events = nr_events;
	err = r->mode == SONDE_STAT_AGGR_THREAD ? init_threads(r, list) :
						  init_cpus(r, list);
	if (!err) {
		r->prev = calloc((size_t)(r->nr_aggr * nr_events) + 1,
				 sizeof(*r->prev));
		if (!r->prev)
			err = -ENOMEM;
	}
	if (err) {
		sonde_stat_reader__free(r);
		return lib_err_ptr(err);
	}
	return r;
}

void sonde_stat_reader__free(struct sonde_stat_reader *r)
{
	if (!r)
		return;
	free(r->aggr);
	free(r->unit_of);
	free(r->prev);
	free(r);
}

int sonde_stat_reader__nr_aggr(const struct sonde_stat_reader *r)
{
	return r ? r->nr_aggr : 0;
}

const struct sonde_stat_aggr *sonde_stat_reader__aggr(const struct sonde_stat_reader *r)
{
	return r ? r->aggr : NULL;
}

enum sonde_stat_aggr_mode sonde_stat_reader__mode(const struct sonde_stat_reader *r)
{
	return r ? r->mode : SONDE_STAT_AGGR_GLOBAL;
}

int sonde_stat_reader__read(struct sonde_stat_reader *r, struct sonde_evlist *list,
			    unsigned int flags, struct sonde_stat_count *out)
{
	bool delta = flags & SONDE_STAT_READ_DELTA;
	bool no_scale = flags & SONDE_STAT_READ_NO_SCALE;
	int nc, nt;
	size_t cells;
	struct stat_raw *sum;

	if (!r || !list || !out || sonde_evlist__nr(list) < r->nr_events ||
	    (flags & ~(unsigned int)(SONDE_STAT_READ_DELTA | SONDE_STAT_READ_NO_SCALE)))
		return lib_err(EINVAL);
	nc = sonde_cpu_map__nr(sonde_evlist__cpus(list));
	nt = sonde_thread_map__nr(sonde_evlist__threads(list));
	/* The units were laid out for the list's maps when the reader was made. */
	if ((r->mode == SONDE_STAT_AGGR_THREAD ? nt : nc) != r->nr_idx)
		return lib_err(EINVAL);
	cells = (size_t)(r->nr_aggr * r->nr_events);
	sum = calloc(cells + 1, sizeof(*sum));
	if (!sum)
		return lib_err(ENOMEM);
	for (int e = 0; e < r->nr_events; e++) {
		struct sonde_evsel *evsel = sonde_evlist__evsel(list, e);

		if (!sonde_evsel__supported(evsel))
			continue;
		for (int c = 0; c < nc; c++) {
			for (int t = 0; t < nt; t++) {
				int u = r->unit_of[r->mode == SONDE_STAT_AGGR_THREAD ?
						   t : c];
				struct stat_raw *s = &sum[u * r->nr_events + e];
				struct sonde_count cnt;

				if (sonde_evsel__read(evsel, c, t, &cnt))
					continue;
				s->val += (double)cnt.val;
				s->ena += cnt.ena;
				s->run += cnt.run;
			}
		}
	}
	for (int u = 0; u < r->nr_aggr; u++) {
		for (int e = 0; e < r->nr_events; e++) {
			size_t i = (size_t)(u * r->nr_events + e);
			struct stat_raw now = sum[i];
			struct sonde_stat_count *o = &out[i];

			if (delta) {
				struct stat_raw *p = &r->prev[i];

				sum[i].val -= p->val;
				sum[i].ena -= p->ena;
				sum[i].run -= p->run;
				*p = now;
			}
			memset(o, 0, sizeof(*o));
			if (!sonde_evsel__supported(sonde_evlist__evsel(list, e))) {
				o->status = SONDE_STAT_NOT_SUPPORTED;
				continue;
			}
			o->ena = sum[i].ena;
			o->run = sum[i].run;
			if (!o->run || !o->ena) {
				o->status = SONDE_STAT_NOT_COUNTED;
				continue;
			}
			o->status = SONDE_STAT_OK;
			o->val = sum[i].val;
			if (!no_scale && o->run < o->ena)
				o->val = sum[i].val * (double)o->ena /
					 (double)o->run;
		}
	}
	free(sum);
	return 0;
}
