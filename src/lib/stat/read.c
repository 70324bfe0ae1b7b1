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
#include "stat/aggr.h"
#include "stat/read.h"

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

static int init_threads(struct stat_reader *r, struct sonde_evlist *list)
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

static int init_cpus(struct stat_reader *r, struct sonde_evlist *list)
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
	if (r->mode == STAT_AGGR_CORE || r->mode == STAT_AGGR_DIE ||
	    r->mode == STAT_AGGR_SOCKET)
		ret = stat_topo_read(&topo, getenv("SONDE_SYSFS_ROOT"), cpus,
				     n);
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

int stat_reader_init(struct stat_reader *r, enum stat_aggr_mode mode,
		     struct sonde_evlist *list, int nr_events)
{
	int err;

	memset(r, 0, sizeof(*r));
	r->mode = mode;
	r->nr_events = nr_events;
	err = r->mode == STAT_AGGR_THREAD ? init_threads(r, list) :
					    init_cpus(r, list);
	if (err)
		return err;
	r->prev = calloc((size_t)(r->nr_aggr * nr_events) + 1,
			 sizeof(*r->prev));
	return r->prev ? 0 : -ENOMEM;
}

void stat_reader_free(struct stat_reader *r)
{
	free(r->aggr);
	free(r->unit_of);
	free(r->prev);
	memset(r, 0, sizeof(*r));
}

int stat_reader_read(struct stat_reader *r, struct sonde_evlist *list,
		     bool delta, bool no_scale, struct stat_count *out)
{
	int nc = sonde_cpu_map__nr(sonde_evlist__cpus(list));
	int nt = sonde_thread_map__nr(sonde_evlist__threads(list));
	size_t cells = (size_t)(r->nr_aggr * r->nr_events);
	struct stat_raw *sum = calloc(cells + 1, sizeof(*sum));

	if (!sum)
		return -ENOMEM;
	for (int e = 0; e < r->nr_events; e++) {
		struct sonde_evsel *evsel = sonde_evlist__evsel(list, e);

		if (!sonde_evsel__supported(evsel))
			continue;
		for (int c = 0; c < nc; c++) {
			for (int t = 0; t < nt; t++) {
				int u = r->unit_of[r->mode == STAT_AGGR_THREAD ?
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
			struct stat_count *o = &out[i];

			if (delta) {
				struct stat_raw *p = &r->prev[i];

				sum[i].val -= p->val;
				sum[i].ena -= p->ena;
				sum[i].run -= p->run;
				*p = now;
			}
			memset(o, 0, sizeof(*o));
			if (!sonde_evsel__supported(sonde_evlist__evsel(list, e))) {
				o->status = STAT_NOT_SUPPORTED;
				continue;
			}
			o->ena = sum[i].ena;
			o->run = sum[i].run;
			if (!o->run || !o->ena) {
				o->status = STAT_NOT_COUNTED;
				continue;
			}
			o->status = STAT_OK;
			o->val = sum[i].val;
			if (!no_scale && o->run < o->ena)
				o->val = sum[i].val * (double)o->ena /
					 (double)o->run;
		}
	}
	free(sum);
	return 0;
}
