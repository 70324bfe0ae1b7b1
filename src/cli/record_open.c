// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde record: the attrs perf would use, one fd per event x CPU x thread
 * (negotiated with the kernel), one ring per CPU shared through SET_OUTPUT,
 * and the drain pass that moves records from the rings to the writer.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "evname.h"
#include "record_cli.h"

/* x86-64 user registers for DWARF unwinding: all but ds/es/fs/gs. */
#define REGS_USER_MASK 0xff0fffULL

/* The library says why and what to change; we add which event. */
static void explain_open_error(const struct rec_event *e,
			       const struct sonde_evsel *bad)
{
	fprintf(stderr, "sonde record: cannot open '%s' on CPU %d: %s\n",
		e->name, sonde_evsel__open_cpu(bad), sonde_evsel__open_error(bad));
}

static bool no_pmu(int err)
{
	return err == ENOENT || err == ENODEV || err == EOPNOTSUPP ||
	       err == ENXIO || err == EINVAL;
}

void rec_setup_attrs(struct rec_state *s)
{
	struct rec_opts *o = s->o;
	bool multi = o->evs.nr > 1;
	size_t track = 0;

	/*
	 * Overwrite mode: the side-band (COMM/MMAP/FORK) would be overwritten
	 * along with old samples, leaving the snapshot unsymbolizable; a
	 * dummy event carries it in a normal ring instead (added last).
	 */
	if (o->overwrite || o->track_last)
		track = o->evs.nr - 1;

	for (size_t i = 0; i < o->evs.nr; i++) {
		struct rec_event *e = &o->evs.ev[i];
		struct sonde_perf_event_attr *a = &e->attr;
		bool leader = e->leader == (int)i;

		a->size = sizeof(*a);
		a->sample_type = SONDE_PERF_SAMPLE_IP | SONDE_PERF_SAMPLE_TID |
				 SONDE_PERF_SAMPLE_TIME | SONDE_PERF_SAMPLE_PERIOD;
		if (multi)
			a->sample_type |= SONDE_PERF_SAMPLE_IDENTIFIER;
		if (o->all_cpus || o->cpus)
			a->sample_type |= SONDE_PERF_SAMPLE_CPU;
		if (a->type == SONDE_PERF_TYPE_TRACEPOINT) {
			a->sample_type |= SONDE_PERF_SAMPLE_RAW;
			if (!e->period_set)
				a->sample_period = o->period ? o->period : 1;
		} else if (e->probe_target && !e->period_set && !e->freq_set) {
			/* A probe, like a tracepoint: every hit unless -c. */
			a->freq = 0;
			a->sample_period = o->period ? o->period : 1;
		} else if (e->period_set) {
			a->freq = 0; /* the spec's period= wins */
		} else if (e->freq_set) {
			a->freq = 1;
		} else if (o->period) {
			a->sample_period = o->period;
		} else {
			a->freq = 1;
			a->sample_freq = o->freq;
		}
		if (o->callchain)
			a->sample_type |= SONDE_PERF_SAMPLE_CALLCHAIN;
		if (o->call_graph && !strncmp(o->call_graph, "dwarf", 5)) {
			unsigned long sz = 8192;

			if (o->call_graph[5] == ',')
				sz = strtoul(o->call_graph + 6, NULL, 0);
			a->sample_type |= SONDE_PERF_SAMPLE_CALLCHAIN |
					  SONDE_PERF_SAMPLE_REGS_USER |
					  SONDE_PERF_SAMPLE_STACK_USER;
			a->sample_regs_user = REGS_USER_MASK;
			a->sample_stack_user = (uint32_t)sz;
			a->exclude_callchain_user = 1;
		}
		if (o->clockid >= 0) {
			a->use_clockid = 1;
			a->clockid = o->clockid;
		}
		if (o->branch_stack) {
			a->sample_type |= SONDE_PERF_SAMPLE_BRANCH_STACK;
			a->branch_sample_type = o->branch_stack;
		}
		a->sample_id_all = 1;
		/* LOST: the kernel's per-event drop count, saved at the end. */
		a->read_format = SONDE_PERF_FORMAT_ID | SONDE_PERF_FORMAT_LOST;
		a->exclude_guest = 1;
		/* The kernel maps no per-thread ring of an inherited event. */
		a->inherit = s->per_task && o->inherit && !o->per_thread;
		/*
		 * perf 6.1's evsel__config() times samples only with inherit,
		 * CPUs or per-CPU rings (or -T, which sonde lacks): per-thread
		 * rings of a task have none of them.
		 */
		if (o->per_thread && !a->inherit)
			a->sample_type &= ~(uint64_t)SONDE_PERF_SAMPLE_TIME;
		a->write_backward = o->overwrite && i != track;
		/*
		 * Wake at a quarter full rather than the kernel's half: more
		 * headroom before LOST when samples are large (DWARF) or the
		 * ring is small, for a few more wakeups.
		 */
		a->watermark = 1;
		a->wakeup_watermark = (uint32_t)(s->data_pages * (size_t)sysconf(_SC_PAGESIZE) / 4);
		if (leader) {
			a->disabled = 1;
			/* Only task events can wait for the exec. */
			a->enable_on_exec = s->workload_target && s->per_task;
		}
		if (i == track) {
			/* Side-band once, on one event only. */
			a->mmap = a->comm = a->task = 1;
			a->mmap2 = a->comm_exec = 1;
			/* DWARF: .eh_frame lives in non-exec segments, see those. */
			a->mmap_data = o->call_graph && !strncmp(o->call_graph, "dwarf", 5);
			a->build_id = getenv("SONDE_NO_BUILDID") ? 0 : 1;
			a->context_switch = o->switch_events;
			/*
			 * Kernel symbols that come and go (BPF programs,
			 * trampolines): the profile names samples in them from
			 * these records, as perf does from its own. Kernels
			 * before 5.1 lose the bit in the open's fallback.
			 */
			a->ksymbol = 1;
		}
		/* The event's own terms and :S/:P last, as perf does. */
		if (e->spec) {
			SONDE_OPTS(sonde_evspec_apply_opts, ao, .track = i == track);

			sonde_evspec_list__apply_terms(e->spec, e->spec_idx, a, &ao);
		}
	}
}

/*
 * The paranoid fallback held: label the event as perf does (cycles:u) and
 * say it once for the whole session.
 */
static void fell_back_to_user(struct rec_state *s, struct rec_event *e)
{
	char *n = evname_with_u(e->name);

	if (n) {
		free(e->name);
		e->name = n;
	}
	if (!s->o->quiet && !s->user_only_said)
		fprintf(stderr, "Warning:\nkernel.perf_event_paranoid forbids kernel samples: falling back to user space only (:u)\n");
	s->user_only_said = true;
}

/* @s->o's events on the target, opened as they are. */
static int open_list(struct rec_state *s)
{
	struct rec_opts *o = s->o;
	SONDE_OPTS(sonde_evlist_open_opts, oo, .exact_attrs = true);
	struct sonde_thread_map *threads;
	struct sonde_cpu_map *cpus;
	int err;

	for (size_t i = sonde_evlist__nr(s->list); i < o->evs.nr; i++) {
		struct rec_event *e = &o->evs.ev[i];
		int r = sonde_evlist__add(s->list, &e->attr, e->name,
					  e->leader == (int)i ? -1 : e->leader);

		if (r < 0)
			return r;
		/* :W: a group that does not open together opens one by one. */
		if (e->leader == (int)i && e->spec &&
		    (sonde_evspec_list__flags(e->spec, e->spec_idx) &
		     SONDE_EVSPEC_WEAK_GROUP) &&
		    (r = sonde_evsel__set_weak_group(
				sonde_evlist__evsel(s->list, r), true)) < 0)
			return r;
	}
	/* --per-thread: on any CPU, one ring per thread (perf's dummy map). */
	cpus = o->per_thread && s->per_task ? sonde_cpu_map__new_any() :
	       sonde_cpu_map__new(o->cpus);
	threads = s->per_task ?
		  sonde_thread_map__new_array(s->tids, (int)s->nr_tids) :
		  sonde_thread_map__new_any();
	if (!cpus || !threads) {
		err = -errno;
		sonde_cpu_map__free(cpus);
		sonde_thread_map__free(threads);
		return err;
	}
	sonde_evlist__set_maps(s->list, cpus, threads);
	return sonde_evlist__open(s->list, &oo);
}

/*
 * A weak group split by the open is no group in the file either: take the
 * leaders the list ended with, for GROUP_DESC and the attrs.
 */
static void sync_groups(struct rec_state *s)
{
	struct rec_opts *o = s->o;

	for (size_t i = 0; i < o->evs.nr; i++)
		o->evs.ev[i].nr_members = 0;
	for (size_t i = 0; i < o->evs.nr; i++) {
		struct rec_event *e = &o->evs.ev[i];
		int lead = sonde_evsel__leader(sonde_evlist__evsel(s->list,
								   (int)i));

		if (lead >= 0)
			e->leader = lead;
		o->evs.ev[e->leader].nr_members++;
	}
}

/* The first event that failed to open, or -1. */
static int failed_event(struct rec_state *s)
{
	for (int i = 0; i < sonde_evlist__nr(s->list); i++)
		if (sonde_evsel__open_errno(sonde_evlist__evsel(s->list, i)))
			return i;
	return -1;
}

int rec_open_events(struct rec_state *s)
{
	struct rec_opts *o = s->o;
	bool *fell = calloc(o->evs.nr ? o->evs.nr : 1, sizeof(*fell));
	int err, i;

	if (!fell)
		return -ENOMEM;
	for (;;) {
		struct rec_event *e;
		const struct sonde_evsel *bad;

		err = open_list(s);
		if (!err)
			break;
		i = failed_event(s);
		if (i < 0)
			goto out;
		e = &o->evs.ev[i];
		bad = sonde_evlist__evsel(s->list, i);
		err = -sonde_evsel__open_errno(bad);
		if (e->attr.type == SONDE_PERF_TYPE_HARDWARE &&
		    e->attr.config == 0 && no_pmu(-err)) {
			/* perf's fallback when there is no PMU; -q silences
			 * it, as in perf. */
			if (!o->quiet)
				fprintf(stderr, "Warning:\nThe cycles event is not supported, falling back to cpu-clock\n");
			e->attr.type = SONDE_PERF_TYPE_SOFTWARE;
			e->attr.config = SONDE_PERF_COUNT_SW_CPU_CLOCK;
			free(e->name);
			e->name = strdup("cpu-clock");
		} else if ((err == -EACCES || err == -EPERM) && s->per_task &&
			   !e->attr.exclude_kernel && !e->attr.exclude_user) {
			/* perf's fallback under perf_event_paranoid 2, said
			 * only once the user-only open proves kernel samples
			 * were the cause. */
			fell[i] = true;
			e->attr.exclude_kernel = 1;
			e->attr.exclude_hv = 1;
		} else if ((err == -EINVAL || err == -EOPNOTSUPP) &&
			   e->attr.precise_ip && e->spec &&
			   (sonde_evspec_list__flags(e->spec, e->spec_idx) &
			    SONDE_EVSPEC_PRECISE_MAX)) {
			/* :P asks for the highest level that opens. */
			e->attr.precise_ip--;
		} else {
			if (fell[i]) {
				/* Refused either way (seccomp, a sandbox):
				 * not paranoid's doing. */
				e->attr.exclude_kernel = 0;
				e->attr.exclude_hv = 0;
			}
			explain_open_error(e, bad);
			goto out;
		}
		err = sonde_evsel__set_attr(sonde_evlist__evsel(s->list, i),
					    &e->attr);
		if (err)
			goto out;
	}
	for (i = 0; i < (int)o->evs.nr; i++)
		if (fell[i])
			fell_back_to_user(s, &o->evs.ev[i]);
	free(fell);
	fell = NULL;
	sync_groups(s);
	/* The attrs as the kernel took them, and every fd's id for the file. */
	for (i = 0; i < (int)o->evs.nr; i++) {
		struct sonde_evsel *ev = sonde_evlist__evsel(s->list, i);
		struct rec_event *e = &o->evs.ev[i];
		int nc = sonde_cpu_map__nr(sonde_evlist__cpus(s->list));
		int nt = sonde_thread_map__nr(sonde_evlist__threads(s->list));

		e->attr = *sonde_evsel__attr(ev);
		if (e->filter && (err = sonde_evsel__set_filter(ev, e->filter))) {
			fprintf(stderr, "sonde record: failed to set filter \"%s\" on event %s with %d (%s)%s\n",
				e->filter, e->name, -err, strerror(-err),
				err == -EINVAL ? ": the kernel could not parse it (field names are in the tracepoint's format file)" : "");
			return err;
		}
		e->ids = calloc((size_t)nc * (size_t)nt, sizeof(uint64_t));
		if (!e->ids)
			return -ENOMEM;
		for (int c = 0; c < nc; c++)
			for (int t = 0; t < nt; t++)
				if (!sonde_evsel__id(ev, c, t, &e->ids[e->nr_ids]))
					e->nr_ids++;
	}
	return 0;
out:
	free(fell);
	return err;
}

/*
 * Unprivileged rings count against kernel.perf_event_mlock_kb (KiB per
 * CPU, plus RLIMIT_MEMLOCK): say its value, an -m that fits one
 * ring per CPU, and what lifts the limit.
 */
static void explain_mlock(size_t pages)
{
	long kb = -1, psz = sysconf(_SC_PAGESIZE);
	size_t fit = 1;
	FILE *f = fopen("/proc/sys/kernel/perf_event_mlock_kb", "r");

	if (f) {
		if (fscanf(f, "%ld", &kb) != 1)
			kb = -1;
		fclose(f);
	}
	if (psz <= 0)
		psz = 4096;
	if (kb < 0) {
		fprintf(stderr, "sonde record: %zu pages are over the locked-memory limit for perf rings (kernel.perf_event_mlock_kb); use -m with fewer pages or run with CAP_IPC_LOCK\n",
			pages);
		return;
	}
	/* Each ring is its data pages plus one header page. */
	while ((fit * 2 + 1) * (size_t)psz <= (size_t)kb * 1024)
		fit *= 2;
	fprintf(stderr, "sonde record: kernel.perf_event_mlock_kb is %ld (KiB per CPU), which holds -m %zu per CPU (RLIMIT_MEMLOCK may allow a little more); use a smaller -m, raise it (`sysctl -w kernel.perf_event_mlock_kb=%zu`), or run with CAP_IPC_LOCK\n",
		kb, fit, (pages + 1) * (size_t)psz / 1024);
}

int rec_setup_rings(struct rec_state *s)
{
	SONDE_OPTS(sonde_evlist_mmap_opts, mo, .data_pages = s->data_pages,
		   .aux_pages = s->aux ? s->aux_pages : 0,
		   .aux_overwrite = s->aux_overwrite);
	int err = sonde_evlist__mmap(s->list, &mo);

	if (err) {
		fprintf(stderr, "sonde record: cannot map a %zu-page ring buffer: %s\n",
			s->data_pages, strerror(-err));
		if (err == -EPERM)
			explain_mlock(s->data_pages);
	}
	return err ? err : rec_aux_mapped(s);
}

void rec_enable_events(struct rec_state *s, bool on)
{
	if (on)
		sonde_evlist__enable(s->list);
	else
		sonde_evlist__disable(s->list);
}

static int write_record(const struct sonde_perf_event_header *ev, void *ctx)
{
	struct rec_state *s = ctx;

	if (s->bids)
		(void)sonde_buildid_hits__note(s->bids, ev);
	return sonde_perfdata_writer__write(s->w, ev);
}

static int look_record(const struct sonde_perf_event_header *ev, void *ctx)
{
	struct rec_state *s = ctx;

	if (s->bids)
		(void)sonde_buildid_hits__note(s->bids, ev);
	return 0;
}

static int write_span(const struct iovec *iov, int iovcnt, void *ctx)
{
	struct rec_state *s = ctx;

	return sonde_perfdata_writer__writev(s->w, iov, iovcnt);
}

/*
 * One pass over the rings; the overwrite ones only for a snapshot. The
 * records go to the file straight from the rings, as perf writes them:
 * at high rates of large (DWARF) samples, copying them first cost CPU
 * the drain could not spare.
 */
size_t rec_drain(struct rec_state *s, bool snapshot)
{
	SONDE_OPTS(sonde_evlist_push_opts, po, .snapshot = snapshot,
		   .look = s->bids ? look_record : NULL);
	int64_t n = sonde_evlist__push_records(s->list, &po, write_span, s);

	if (n < 0)
		s->werr = (int)n;
	rec_aux_read(s, snapshot);
	if (!s->werr)
		s->werr = sonde_perfdata_writer__finish_round(s->w);
	return n > 0 ? (size_t)n : 0;
}

/*
 * The kernel counts per event the samples it could not write (read_format
 * LOST, Linux 6.0+), including those dropped while an overwrite ring was
 * paused: save them as LOST_SAMPLES records, as perf does.
 */
void rec_save_lost_counts(struct rec_state *s)
{
	int n = sonde_evlist__lost_samples(s->list, write_record, s);

	if (n < 0)
		s->werr = n;
	if (!s->werr)
		s->werr = sonde_perfdata_writer__finish_round(s->w);
}
