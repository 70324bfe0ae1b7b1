/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * The count layer's private header, shared by src/lib/count and its tests:
 * the layout of event lists and their events, the self-monitoring read,
 * and the opener's feature test and the files its messages read.
 */
#ifndef SONDE_LIB_COUNT_PRIV_H
#define SONDE_LIB_COUNT_PRIV_H

#include <stdbool.h>
#include <sys/types.h>
#include "sonde/evlist.h"
#include "sonde/evopen.h"
#include "core_priv.h"

struct pollfd;
struct sonde_ring;

struct sonde_evsel {
	struct sonde_evlist *list;
	struct sonde_perf_event_attr attr;
	char *name;
	int idx;
	int leader;       /* index of the group leader (self when leading) */
	int group_pos;    /* position inside its group, leader = 0 */
	int nr_members;   /* leaders: members including itself */
	bool weak_group;  /* leaders: split the group when it does not open */
	bool unsupported;
	int open_errno;
	char *open_error;
	int open_cpu;     /* the CPU of the failed open, -1 = any */
	int *fds;         /* [cpu_idx * nr_threads + thread_idx], -1 = none */
	char *probe_target; /* attr.config1 of a probe event points here */
	void *mmap_page;  /* sonde_evsel__mmap_self() */
	size_t mmap_len;
};

struct sonde_evlist {
	struct sonde_evsel **evsels;
	int nr;
	struct sonde_cpu_map *cpus;
	struct sonde_thread_map *threads;
	bool open;
	/* Cgroup target: the directory fd passed as pid. */
	int cgroup_fd;
	/* Workload: the child, its go pipe, its exec-error pipe. */
	pid_t child;
	int go_fd;
	int err_fd;
	bool child_started;
	bool child_reaped;
	/* sonde_evlist__mmap(): the rings and every event fd to poll. */
	struct sonde_ring **rings;
	int nr_rings;
	int *ring_cpu;    /* per ring: its CPU, or -1 (per-thread ring) */
	pid_t *ring_tid;  /* per ring: its thread, or -1 (per-CPU ring) */
	bool *ring_aux;   /* per ring: an AUX area is mapped */
	int nr_aux;
	struct pollfd *pollfds;
	int nr_pollfds;
	int nr_hup;       /* poll entries dropped after POLLHUP/POLLERR */
};

/* fd slot of (cpu_idx, thread_idx). */
static inline int *evsel_fd_slot(const struct sonde_evsel *e, int cpu_idx,
				 int thread_idx)
{
	int nt = e->list->threads->nr;

	if (!e->fds || cpu_idx < 0 || cpu_idx >= e->list->cpus->nr ||
	    thread_idx < 0 || thread_idx >= nt)
		return NULL;
	return &e->fds[cpu_idx * nt + thread_idx];
}

void evsel_close(struct sonde_evsel *e);
void workload_cleanup(struct sonde_evlist *list);

/*
 * The self-monitoring read through an mmap page (seam rdpmc). Returns 1
 * when read by rdpmc, 0 when the page does not allow it (use read()).
 */
int selfmon_read(const volatile struct sonde_perf_event_mmap_page *pc,
		 struct sonde_count *c);

/* ---- opening ---- */

/* Whether @attr (with @flags) asks for feature @f. */
bool evopen_has_feature(const struct sonde_perf_event_attr *attr,
			unsigned long flags, enum sonde_attr_feature f);

/*
 * Files the error messages read; tests point them at fixtures. NULL keeps
 * the current path.
 */
struct evopen_paths {
	const char *paranoid;   /* /proc/sys/kernel/perf_event_paranoid */
	const char *status;     /* /proc/self/status (Seccomp:) */
	const char *max_stack;  /* /proc/sys/kernel/perf_event_max_stack */
	const char *max_rate;   /* /proc/sys/kernel/perf_event_max_sample_rate */
	const char *pmu_dir;    /* /sys/bus/event_source/devices */
};
void evopen_set_paths(const struct evopen_paths *p);
const struct evopen_paths *evopen_get_paths(void);

#endif /* SONDE_LIB_COUNT_PRIV_H */
