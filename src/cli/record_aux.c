// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde record with an AUX area tracer (intel_pt, intel_bts, cs_etm,
 * arm_spe_N, hisi_ptt*), as perf record does it: the AUX event first (its
 * fd owns each ring, and the AUX area hangs off the ring), a dummy:u event
 * for the side band, an AUX area per ring, the AUXTRACE_INFO record before
 * any data, and each pass's new AUX bytes as AUXTRACE records (intel_bts:
 * whole branch records only, as perf stores them). -S reads
 * the areas (mapped for overwrite) only on SIGUSR2 and, with -Se, at the
 * end; --aux-sample has the AUX event's group members sample its area
 * instead (PERF_SAMPLE_AUX), and the areas themselves are not stored.
 * A full-trace tracer the kernel stopped on a full area is enabled again
 * after each read of its area.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif
#include "record_cli.h"

/* perf's limits: a sample is at most 64 KiB, 4 KiB left for the rest. */
#define MAX_AUX_SAMPLE (60 * 1024)
#define DEFAULT_AUX_SAMPLE 4096

struct rec_aux {
	int ev;                /* the AUX event's index in o->evs */
	int type;              /* enum sonde_auxtrace_type by its PMU */
	const char *pmu;       /* its PMU's name (owned by the spec list) */
	bool snapshot;         /* -S */
	bool snapshot_on_exit; /* -Se */
	size_t snapshot_size;  /* bytes per area per snapshot */
	size_t alignment;      /* whole records of this size (intel_bts) */
	size_t asked_size;     /* -S's size as given (0: none) */
	size_t ref_size;       /* intel_pt's snapshot reference buffer */
	size_t snapshot_tail;  /* where a wrapped snapshot area shows it */
	bool sample;           /* --aux-sample or aux-sample-size terms */
	uint32_t sample_size;  /* --aux-sample's size, 0 without it */
	uint64_t bytes;        /* AUX data written */
	uint64_t records;
	bool *read_ring;       /* by ring: this pass read its area */
	int nr_rings;
};

static long page_size(void)
{
	long psz = sysconf(_SC_PAGESIZE);

	return psz > 0 ? psz : 4096;
}

/* perf's "privileged": may lock as much ring memory as it wants. */
static bool privileged(void)
{
	long paranoid;

	return geteuid() == 0 ||
	       (!sonde_perf_sysctl__read(SONDE_SYSCTL_PARANOID, &paranoid) &&
		paranoid < 0);
}

/* The one event of an AUX area tracer, or -1; -2 when there are more. */
static int find_aux_event(const struct rec_events *evs, int *type)
{
	int found = -1;

	for (size_t i = 0; i < evs->nr; i++) {
		const struct rec_event *e = &evs->ev[i];
		const char *pmu = e->spec ? sonde_evspec_list__pmu(e->spec, e->spec_idx) : NULL;
		int t = pmu ? sonde_pmu_name__auxtrace_type(pmu) : -ENOENT;

		if (t < 0)
			continue;
		if (found >= 0)
			return -2;
		found = (int)i;
		*type = t;
	}
	return found;
}

/*
 * The AUX event's group to the front, as perf does: the first event of
 * each CPU owns that CPU's ring, and the AUX area is the owner's.
 * Returns the AUX event's new index, or -ENOMEM.
 */
static int aux_group_first(struct rec_events *evs, int aux)
{
	int lead = evs->ev[aux].leader;
	size_t n = evs->nr, k = 0;
	struct rec_event *ne = calloc(n, sizeof(*ne));
	int *to = calloc(n, sizeof(*to));

	if (!ne || !to) {
		free(ne);
		free(to);
		return -ENOMEM;
	}
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < n; i++)
			if ((evs->ev[i].leader == lead) == (pass == 0)) {
				to[i] = (int)k;
				ne[k++] = evs->ev[i];
			}
	for (size_t i = 0; i < n; i++)
		ne[i].leader = to[ne[i].leader];
	free(evs->ev);
	evs->ev = ne;
	aux = to[aux];
	free(to);
	return aux;
}

/*
 * perf puts an event with an aux-sample-size term into the AUX event's
 * group when it can: the AUX event leads a group and every event from it
 * to this one is alone or already in that group.
 */
static void aux_regroup(struct rec_events *evs, int aux)
{
	if (evs->ev[aux].leader != aux)
		return;
	for (size_t j = (size_t)aux + 1; j < evs->nr; j++) {
		const struct rec_event *e = &evs->ev[j];
		const char *t = e->spec ? sonde_evspec_list__term(e->spec, e->spec_idx,
								  "aux-sample-size") : NULL;
		bool ok = t && strtoull(t, NULL, 0);

		for (size_t k = (size_t)aux + 1; ok && k <= j; k++)
			ok = evs->ev[k].leader == aux ||
			     (evs->ev[k].leader == (int)k && evs->ev[k].nr_members <= 1);
		for (size_t k = (size_t)aux + 1; ok && k <= j; k++) {
			if (evs->ev[k].leader == aux)
				continue;
			evs->ev[k].leader = aux;
			evs->ev[aux].nr_members++;
		}
	}
}

/* -S[e][SIZE] / --snapshot[=[e][SIZE]]. */
static int parse_snapshot(struct rec_aux *a, const char *arg)
{
	char *end;
	unsigned long long sz;

	a->snapshot = true;
	if (*arg == 'e') {
		a->snapshot_on_exit = true;
		arg++;
	}
	if (!*arg)
		return 0;
	sz = strtoull(arg, &end, 0);
	if (*end || sz > SIZE_MAX) {
		fprintf(stderr, "sonde record: bad -S/--snapshot option '%s' (e to snapshot at the end too, then the size in bytes)\n",
			arg);
		return -EINVAL;
	}
	a->snapshot_size = a->asked_size = (size_t)sz;
	return 0;
}

static size_t round_pow2(size_t n)
{
	size_t p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

/* perf's sizes: 4 MiB areas if privileged, else 128 KiB and 256 KiB rings. */
static int aux_sizes(struct rec_state *s, struct rec_aux *a)
{
	struct rec_opts *o = s->o;
	size_t psz = (size_t)page_size(), min;
	bool priv = privileged();

	if (!s->aux_pages && a->snapshot && a->snapshot_size)
		s->aux_pages = round_pow2((a->snapshot_size + psz - 1) / psz);
	if (!s->aux_pages)
		s->aux_pages = (priv ? 4096 * 1024 : 128 * 1024) / psz;
	if (!priv && !o->mmap_pages)
		s->data_pages = 256 * 1024 / psz;
	if (!s->aux_pages)
		s->aux_pages = 1;
	if (a->snapshot && !a->snapshot_size)
		a->snapshot_size = s->aux_pages * psz;
	if (a->snapshot_size > s->aux_pages * psz) {
		fprintf(stderr, "sonde record: snapshot size %zu must not be greater than the AUX area (%zu bytes; -m ,PAGES)\n",
			a->snapshot_size, s->aux_pages * psz);
		return -EINVAL;
	}
	min = a->snapshot ? 4096 : 8192;
	if (s->aux_pages * psz < min) {
		fprintf(stderr, "sonde record: the %s AUX area must be at least %zu KiB (-m ,PAGES)\n",
			a->pmu, min / 1024);
		return -EINVAL;
	}
	/* Samples copy from the area: it need not stop when full. */
	s->aux_overwrite = a->snapshot || o->aux_sample;
	return 0;
}

int rec_aux_check(struct rec_state *s)
{
	struct rec_opts *o = s->o;
	struct rec_aux *a;
	int type = 0, ev, err;

	ev = find_aux_event(&o->evs, &type);
	if (ev == -2) {
		fprintf(stderr, "sonde record: there may be only one AUX area event (intel_pt, intel_bts, cs_etm, arm_spe, hisi_ptt)\n");
		return 129;
	}
	if (ev < 0) {
		if (o->aux_snapshot || o->aux_sample) {
			fprintf(stderr, "sonde record: %s needs an AUX area event (-e intel_pt//, intel_bts//, cs_etm//, arm_spe_0//)\n",
				o->aux_snapshot ? "-S/--snapshot" : "--aux-sample");
			return 129;
		}
		return 0;
	}
	a = calloc(1, sizeof(*a));
	if (!a)
		return 1;
	s->aux = a;
	a->type = type;
	aux_regroup(&o->evs, ev);
	ev = aux_group_first(&o->evs, ev);
	if (ev < 0)
		return 1;
	a->ev = ev;
	a->pmu = sonde_evspec_list__pmu(o->evs.ev[ev].spec, o->evs.ev[ev].spec_idx);
	err = sonde_pmu_name__aux_alignment(a->pmu);
	a->alignment = err > 0 ? (size_t)err : 0;
	a->snapshot_tail = sonde_pmu_name__aux_snapshot_tail(a->pmu);
	if (ev) {
		fprintf(stderr, "sonde record: the AUX area event '%s' must lead its group: its fd holds the AUX area\n",
			o->evs.ev[ev].name);
		return 129;
	}
	/* perf's rule: its decoder takes intel_bts from one thread's area. */
	if (type == SONDE_AUXTRACE_INTEL_BTS && !o->per_thread) {
		fprintf(stderr, "sonde record: intel_bts does not support per-cpu recording: add --per-thread\n");
		return 129;
	}
	if (o->aux_snapshot && parse_snapshot(a, o->aux_snapshot))
		return 129;
	if (o->aux_sample && *o->aux_sample) {
		char *end;
		unsigned long sz = strtoul(o->aux_sample, &end, 0);

		if (*end || sz > UINT32_MAX) {
			fprintf(stderr, "sonde record: bad AUX area sampling option: '%s'\n",
				o->aux_sample);
			return 129;
		}
		a->sample_size = (uint32_t)sz;
	}
	if (o->aux_sample && !a->sample_size)
		a->sample_size = DEFAULT_AUX_SAMPLE;
	if (a->snapshot && o->aux_sample) {
		fprintf(stderr, "sonde record: -S/--snapshot and --aux-sample do not go together\n");
		return 129;
	}
	err = aux_sizes(s, a);
	if (err)
		return 129;
	/* The side band on a dummy event of its own, last (perf's dummy:u). */
	if (!o->overwrite && rec_events_parse(&o->evs, "dummy:u"))
		return 1;
	o->track_last = true;
	return 0;
}

/* --aux-sample and aux-sample-size terms, checked as perf checks them. */
static int aux_sample_attrs(struct rec_state *s)
{
	struct rec_events *evs = &s->o->evs;
	struct rec_aux *a = s->aux;
	bool any = false;

	for (size_t i = 0; i < evs->nr; i++) {
		struct rec_event *e = &evs->ev[i];
		bool leader = e->leader == (int)i;
		bool aux_leader = e->leader == a->ev;

		if (a->sample_size && !leader && aux_leader)
			e->attr.aux_sample_size = a->sample_size;
		if (!e->attr.aux_sample_size) {
			e->attr.sample_type &= ~(uint64_t)SONDE_PERF_SAMPLE_AUX;
			continue;
		}
		if (leader) {
			fprintf(stderr, "sonde record: cannot add AUX area sampling to %s\n",
				(int)i == a->ev ? "an AUX area event" : "a group leader");
			return -EINVAL;
		}
		if (e->attr.aux_sample_size > MAX_AUX_SAMPLE) {
			fprintf(stderr, "sonde record: AUX area sample size %u too big, max. %d\n",
				e->attr.aux_sample_size, MAX_AUX_SAMPLE);
			return -EINVAL;
		}
		if (!aux_leader) {
			fprintf(stderr, "sonde record: cannot add AUX area sampling to '%s': its group leader is not an AUX area event ({%s//,%s})\n",
				e->name, a->pmu, e->name);
			return -EINVAL;
		}
		e->attr.sample_type |= SONDE_PERF_SAMPLE_AUX;
		any = true;
	}
	if (s->o->aux_sample && !any) {
		fprintf(stderr, "sonde record: AUX area sampling requires an AUX area event group leader plus other events to which to add samples ({%s//,cycles})\n",
			a->pmu);
		return -EINVAL;
	}
	a->sample = any;
	return 0;
}

/* --per-thread on a task: an AUX area per thread, on any CPU. */
static bool per_thread_areas(const struct rec_state *s)
{
	return s->o->per_thread && s->per_task;
}

/*
 * cs_etm in per-CPU areas: context IDs and timestamps on, once each
 * CPU's ETM is known to have them, as perf does (it refuses otherwise).
 */
static int per_cpu_config(struct rec_state *s, struct sonde_perf_event_attr *attr)
{
	struct sonde_cpu_map *cpus = sonde_cpu_map__new(s->o->cpus);
	struct sonde_pmus *pmus = sonde_pmus__load(NULL);
	const struct sonde_pmu *pmu = pmus ? sonde_pmus__find(pmus, s->aux->pmu) : NULL;
	char err[256] = "";
	int r = pmu && cpus ?
		sonde_pmu__aux_per_cpu_config(pmu, cpus, &attr->config, err, sizeof(err)) :
		-ENOENT;

	sonde_cpu_map__free(cpus);
	sonde_pmus__free(pmus);
	if (r >= 0 || r == -ENOENT)
		return 0;
	fprintf(stderr, "sonde record: %s: %s; record per thread (--per-thread) or on other CPUs (-C)\n",
		s->aux->pmu, err[0] ? err : strerror(-r));
	return r;
}

int rec_aux_attrs(struct rec_state *s)
{
	struct rec_opts *o = s->o;
	struct rec_aux *a = s->aux;
	struct rec_event *aux, *track;

	if (!a) {
		/* aux-sample-size without an AUX event: nothing to sample. */
		for (size_t i = 0; i < o->evs.nr; i++)
			if (o->evs.ev[i].attr.aux_sample_size) {
				fprintf(stderr, "sonde record: '%s' samples an AUX area, but no AUX area event leads its group\n",
					o->evs.ev[i].name);
				return 129;
			}
		return 0;
	}
	aux = &o->evs.ev[a->ev];
	track = &o->evs.ev[o->evs.nr - 1];
	/* A tracer writes no samples: its period only keeps it running. */
	aux->attr.freq = 0;
	aux->attr.sample_period = 1;
	aux->attr.write_backward = 0;
	track->attr.freq = 0;
	track->attr.sample_period = 1;
	/*
	 * Per-CPU areas: the decoders take the CPU of ITRACE_START, AUX and
	 * switch records from their sample_id, the time of the side band.
	 * An area per thread (--per-thread) is one thread's trace: perf
	 * adds neither.
	 */
	if (!per_thread_areas(s)) {
		aux->attr.sample_type |= SONDE_PERF_SAMPLE_CPU;
		track->attr.sample_type |= SONDE_PERF_SAMPLE_CPU | SONDE_PERF_SAMPLE_TIME;
	}
	/* intel_pt in per-CPU areas tells threads apart by switch events. */
	if (a->type == SONDE_AUXTRACE_INTEL_PT && !per_thread_areas(s))
		track->attr.context_switch = 1;
	if (!per_thread_areas(s) && per_cpu_config(s, &aux->attr))
		return 1;
	if (aux_sample_attrs(s))
		return 129;
	if (a->sample)
		s->aux_overwrite = true;
	/*
	 * perf's intel_pt wakes the reader at a quarter of a full-trace area
	 * (aux_watermark; the kernel's default is half), for room to spare
	 * before the area fills and the tracer stops.
	 */
	if (a->type == SONDE_AUXTRACE_INTEL_PT && !a->snapshot && !a->sample) {
		size_t aw = s->aux_pages * (size_t)page_size() / 4;

		aux->attr.aux_watermark = aw > UINT32_MAX ? UINT32_MAX : (uint32_t)aw;
	}
	return 0;
}

int rec_aux_mapped(struct rec_state *s)
{
	if (!s->aux || sonde_evlist__nr_aux(s->list))
		return 0;
	fprintf(stderr, "sonde record: the kernel mapped no AUX area for '%s' (PMU %s): it is no AUX area tracer here\n",
		s->o->evs.ev[s->aux->ev].name, s->aux->pmu);
	return -EOPNOTSUPP;
}

/*
 * perf's intel_pt keeps a reference copy per area to tell a wrapped
 * snapshot when -S asks for more than 64 KiB (the event's config as
 * opened: its psb_period).
 */
static void snapshot_ref_size(struct rec_state *s, struct rec_aux *a)
{
	struct sonde_pmus *pmus;

	if (!a->snapshot || !a->asked_size)
		return;
	pmus = sonde_pmus__load(NULL);
	a->ref_size = sonde_pmu__aux_snapshot_ref_size(
		pmus ? sonde_pmus__find(pmus, a->pmu) : NULL,
		s->o->evs.ev[a->ev].attr.config,
		s->aux_pages * (size_t)page_size(), a->asked_size);
	sonde_pmus__free(pmus);
}

int rec_aux_begin(struct rec_state *s)
{
	struct rec_aux *a = s->aux;
	struct sonde_ring *r;
	int type;

	if (!a)
		return 0;
	snapshot_ref_size(s, a);
	r = sonde_evlist__ring(s->list, 0);
	{
		SONDE_OPTS(sonde_auxtrace_info_opts, io,
			   .attr = &s->o->evs.ev[a->ev].attr,
			   .pc = r ? sonde_ring__control(r) : NULL,
			   .snapshot = a->snapshot,
			   .per_cpu = sonde_cpu_map__nr(sonde_evlist__cpus(s->list)) > 0 &&
				      sonde_cpu_map__cpu(sonde_evlist__cpus(s->list), 0) >= 0,
			   .have_sched_switch = a->type != SONDE_AUXTRACE_INTEL_PT ||
						per_thread_areas(s) ? 0 :
						s->o->all_cpus ? 3 : 2,
			   .filter = s->o->evs.ev[a->ev].filter,
			   .cpus = sonde_evlist__cpus(s->list));

		type = sonde_perfdata_writer__synth_auxtrace_info(s->w, &io);
	}
	if (type < 0) {
		fprintf(stderr, "sonde record: cannot write the AUXTRACE_INFO record: %s\n",
			strerror(-type));
		return type;
	}
	if (type == SONDE_AUXTRACE_UNKNOWN && !s->o->quiet)
		fprintf(stderr, "Warning:\nsonde knows no perf layout for %s's AUXTRACE_INFO: the file holds the data, but perf will only count it (perf report --stats)\n",
			a->pmu);
	return 0;
}

/* What perf puts in an AUXTRACE record's reference: the TSC on x86. */
static uint64_t reference(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return __rdtsc();
#else
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
#endif
}

static int write_span(const struct sonde_aux_span *span,
		      const struct sonde_evlist_aux_where *where, void *ctx)
{
	struct rec_state *s = ctx;
	struct sonde_perfdata_aux at = {
		.offset = span->offset, .reference = reference(),
		.idx = (uint32_t)where->ring, .cpu = (uint32_t)where->cpu,
		/* Per-CPU areas of a task recording: perf says the task. */
		.tid = (uint32_t)(where->tid >= 0 || !s->per_task || !s->nr_tids ?
				  where->tid : s->tids[0]),
	};
	int err = sonde_perfdata_writer__write_aux_span(s->w, span, &at);

	if (!err) {
		s->aux->bytes += span->size;
		s->aux->records++;
	}
	if (!err && where->ring >= 0 && where->ring < s->aux->nr_rings)
		s->aux->read_ring[where->ring] = true;
	return err;
}

/*
 * The kernel disables a tracer that finds its area full
 * (perf_aux_output_begin()). Once a pass has read an area and given the
 * room back (aux_tail), start its tracer again on that ring's CPU, as
 * perf's read_finish does. The ring's fd is the AUX event's: its group
 * comes first.
 */
static void restart_read_tracers(struct rec_state *s)
{
	struct rec_aux *a = s->aux;

	for (int i = 0; i < a->nr_rings; i++) {
		struct sonde_ring *r = a->read_ring[i] ? sonde_evlist__ring(s->list, i) : NULL;

		a->read_ring[i] = false;
		if (r && !a->snapshot && !s->stopping)
			sonde_perf_event_ioc_enable(sonde_ring__fd(r), false);
	}
}

static void aux_event_enable(struct rec_state *s, bool on)
{
	struct sonde_evsel *e = sonde_evlist__evsel(s->list, s->aux->ev);

	if (on)
		sonde_evsel__enable(e);
	else
		sonde_evsel__disable(e);
}

void rec_aux_read(struct rec_state *s, bool snapshot)
{
	struct rec_aux *a = s->aux;
	SONDE_OPTS(sonde_ring_aux_opts, ro);
	int64_t n;

	if (!a || a->sample || s->werr)
		return;
	ro.alignment = a->alignment;
	if (a->snapshot) {
		if (!snapshot || (s->stopping && !a->snapshot_on_exit))
			return;
		ro.snapshot = true;
		ro.snapshot_size = a->snapshot_size;
		ro.snapshot_ref_size = a->ref_size;
		ro.snapshot_tail = a->snapshot_tail;
		/* The PMU would write under the copy: stop it meanwhile. */
		if (!s->stopping)
			aux_event_enable(s, false);
	}
	if (!a->read_ring) {
		a->nr_rings = sonde_evlist__nr_rings(s->list);
		a->read_ring = calloc(a->nr_rings > 0 ? (size_t)a->nr_rings : 1, sizeof(bool));
		if (!a->read_ring) {
			s->werr = -ENOMEM;
			return;
		}
	}
	n = sonde_evlist__read_aux_spans(s->list, &ro, write_span, s);
	if (a->snapshot && !s->stopping)
		aux_event_enable(s, true);
	restart_read_tracers(s);
	if (n < 0)
		s->werr = (int)n;
}

void rec_aux_free(struct rec_aux *a)
{
	if (a)
		free(a->read_ring);
	free(a);
}
