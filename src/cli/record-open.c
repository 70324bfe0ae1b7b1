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
#include "record.h"

/* x86-64 user registers for DWARF unwinding: all but ds/es/fs/gs. */
#define REGS_USER_MASK 0xff0fffULL

/* The library says why and what to change; we add which event. */
static void explain_open_error(const struct rec_event *e, int err, int cpu,
			       pid_t tid)
{
	char msg[1024];

	if (err == ESRCH) {
		fprintf(stderr, "sonde record: thread %d no longer exists\n", (int)tid);
		return;
	}
	sonde_open_error_describe(err, &e->attr, tid, cpu, msg, sizeof(msg));
	fprintf(stderr, "sonde record: cannot open '%s' on CPU %d: %s\n",
		e->name, cpu, msg);
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
	if (o->overwrite)
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
		a->sample_id_all = 1;
		/* LOST: the kernel's per-event drop count, saved at the end. */
		a->read_format = SONDE_PERF_FORMAT_ID | SONDE_PERF_FORMAT_LOST;
		a->exclude_guest = 1;
		a->inherit = s->per_task && o->inherit;
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

int rec_open_events(struct rec_state *s)
{
	struct rec_opts *o = s->o;
	size_t nt = s->per_task ? s->nr_tids : 1;

	for (size_t i = 0; i < o->evs.nr; i++) {
		o->evs.ev[i].fds = malloc(s->nr_cpus * nt * sizeof(int));
		o->evs.ev[i].ids = calloc(s->nr_cpus * nt, sizeof(uint64_t));
		if (!o->evs.ev[i].fds || !o->evs.ev[i].ids)
			return -ENOMEM;
		for (size_t k = 0; k < s->nr_cpus * nt; k++)
			o->evs.ev[i].fds[k] = -1;
	}
	for (size_t c = 0; c < s->nr_cpus; c++) {
		for (size_t t = 0; t < nt; t++) {
			size_t k = c * nt + t;

			for (size_t i = 0; i < o->evs.nr; i++) {
				struct rec_event *e = &o->evs.ev[i];
				int gfd = e->leader == (int)i ? -1 :
					  o->evs.ev[e->leader].fds[k];
				pid_t tid = s->per_task ? s->tids[t] : -1;
				int fd, refused = 0;
retry:
				fd = sonde_event_open(&e->attr, tid,
							   s->cpus[c], gfd, 0);
				if (fd == -ESRCH && s->per_task && !s->workload_target)
					continue; /* thread exited meanwhile */
				if (fd < 0 && e->attr.type == SONDE_PERF_TYPE_HARDWARE &&
				    e->attr.config == 0 && no_pmu(-fd)) {
					/* perf's fallback when there is no PMU;
					 * -q silences it, as in perf. */
					if (!o->quiet)
						fprintf(stderr, "Warning:\nThe cycles event is not supported, falling back to cpu-clock\n");
					e->attr.type = SONDE_PERF_TYPE_SOFTWARE;
					e->attr.config = SONDE_PERF_COUNT_SW_CPU_CLOCK;
					free(e->name);
					e->name = strdup("cpu-clock");
					goto retry;
				}
				if ((fd == -EACCES || fd == -EPERM) && s->per_task &&
				    !refused && !e->attr.exclude_kernel &&
				    !e->attr.exclude_user) {
					/* perf's fallback under perf_event_paranoid
					 * 2, said only once the user-only open
					 * proves kernel samples were the cause. */
					refused = fd;
					e->attr.exclude_kernel = 1;
					e->attr.exclude_hv = 1;
					goto retry;
				}
				if (refused && fd >= 0) {
					fell_back_to_user(s, e);
				} else if (refused) {
					/* Refused either way (seccomp, a
					 * sandbox): not paranoid's doing. */
					e->attr.exclude_kernel = 0;
					e->attr.exclude_hv = 0;
					fd = refused;
				}
				if (fd < 0) {
					explain_open_error(e, -fd, s->cpus[c], tid);
					return fd;
				}
				e->fds[k] = fd;
				if (ioctl(fd, SONDE_PERF_EVENT_IOC_ID, &e->ids[e->nr_ids]) == 0)
					e->nr_ids++;
			}
		}
	}
	return 0;
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
	struct rec_opts *o = s->o;
	size_t nt = s->per_task ? s->nr_tids : 1;

	s->rings = calloc(2 * s->nr_cpus, sizeof(*s->rings));
	s->pfds = calloc(s->nr_cpus * nt * o->evs.nr + 1, sizeof(*s->pfds));
	if (!s->rings || !s->pfds)
		return -ENOMEM;
	for (size_t c = 0; c < s->nr_cpus; c++) {
		for (size_t t = 0; t < nt; t++) {
			for (size_t i = 0; i < o->evs.nr; i++) {
				int fd = o->evs.ev[i].fds[c * nt + t];
				bool back = o->evs.ev[i].attr.write_backward;
				struct sonde_ring **r = &s->rings[2 * c + back];
				SONDE_OPTS(sonde_ring_opts, ro,
					   .data_pages = s->data_pages,
					   .overwrite = back);

				if (fd < 0)
					continue;
				if (!*r) {
					*r = sonde_ring__new(fd, &ro);
					if (!*r) {
						int err = errno;

						fprintf(stderr, "sonde record: cannot map a %zu-page ring buffer: %s\n",
							s->data_pages, strerror(err));
						if (err == EPERM)
							explain_mlock(s->data_pages);
						return -err;
					}
				} else if (sonde_ring__add_event(*r, fd)) {
					fprintf(stderr, "sonde record: cannot share the ring of CPU %d: %s\n",
						s->cpus[c], strerror(errno));
					return -errno;
				}
				s->pfds[s->nr_pfds].fd = fd;
				s->pfds[s->nr_pfds].events = POLLIN;
				s->nr_pfds++;
			}
		}
	}
	return 0;
}

void rec_enable_events(struct rec_state *s, bool on)
{
	struct rec_opts *o = s->o;
	size_t nt = s->per_task ? s->nr_tids : 1;

	for (size_t i = 0; i < o->evs.nr; i++) {
		if (o->evs.ev[i].leader != (int)i)
			continue;
		for (size_t k = 0; k < s->nr_cpus * nt; k++)
			if (o->evs.ev[i].fds[k] >= 0)
				ioctl(o->evs.ev[i].fds[k],
				      on ? SONDE_PERF_EVENT_IOC_ENABLE :
					   SONDE_PERF_EVENT_IOC_DISABLE, 0);
	}
}

/*
 * A kernel record on its way to the file. Some kernels (seen on 6.18) mark
 * MMAP2 records with the build-id bit for an event opened without build_id
 * when another event on the machine asked for build ids; the body still
 * holds dev/inode, and perf trusts the bit. Repair such records on a copy.
 */
static int rec_write_kernel_record(struct rec_state *s,
				   const struct sonde_perf_event_header *ev)
{
	static _Alignas(8) unsigned char copy[65536];
	const struct sonde_perf_event_attr *track = NULL;

	if (s->bids)
		rec_bids_note(s->bids, ev);
	if (ev->type != SONDE_PERF_RECORD_MMAP2 ||
	    !(ev->misc & SONDE_PERF_RECORD_MISC_MMAP_BUILD_ID))
		return sonde_perfdata_writer__write(s->w, ev);
	for (size_t i = 0; i < s->o->evs.nr && !track; i++)
		if (s->o->evs.ev[i].attr.mmap2)
			track = &s->o->evs.ev[i].attr;
	if (!track || track->build_id)
		return sonde_perfdata_writer__write(s->w, ev);
	memcpy(copy, ev, ev->size);
	sonde_record__fixup(track, copy, ev->size);
	return sonde_perfdata_writer__write(s->w, (const void *)copy);
}

/* One pass over the rings; the overwrite ones only for a snapshot. */
void rec_drain(struct rec_state *s, bool snapshot)
{
	const struct sonde_perf_event_header *ev;

	for (size_t c = 0; c < 2 * s->nr_cpus; c++) {
		struct sonde_ring *r = s->rings[c];

		if (c % 2 && !snapshot)
			continue;
		if (!r || sonde_ring__read_init(r) <= 0) {
			if (r)
				sonde_ring__read_done(r);
			continue;
		}
		while (!s->werr && sonde_ring__read_event(r, &ev) == 1)
			s->werr = rec_write_kernel_record(s, ev);
		sonde_ring__read_done(r);
	}
	if (!s->werr)
		s->werr = sonde_perfdata_writer__finish_round(s->w);
}

/*
 * The kernel counts per event the samples it could not write (read_format
 * LOST, Linux 6.0+), including those dropped while an overwrite ring was
 * paused: save them as LOST_SAMPLES records, as perf does.
 */
void rec_save_lost_counts(struct rec_state *s)
{
	struct rec_opts *o = s->o;
	size_t nt = s->per_task ? s->nr_tids : 1;

	for (size_t i = 0; i < o->evs.nr && !s->werr; i++) {
		struct rec_event *e = &o->evs.ev[i];
		struct sonde_record_fmt fmt;

		if (!(e->attr.read_format & SONDE_PERF_FORMAT_LOST) ||
		    sonde_record_fmt__from_attr(&fmt, &e->attr))
			continue;
		for (size_t k = 0; k < s->nr_cpus * nt && !s->werr; k++) {
			uint64_t v[3];
			struct sonde_record rec = {
				.type = SONDE_PERF_RECORD_LOST_SAMPLES,
			};
			unsigned char buf[256];
			int n;

			if (e->fds[k] < 0 ||
			    read(e->fds[k], v, sizeof(v)) != (ssize_t)sizeof(v) || !v[2])
				continue;
			rec.lost_samples.lost = v[2];
			rec.sample_id.id = rec.sample_id.identifier = v[1];
			rec.sample_id.cpu = (uint32_t)s->cpus[k / nt];
			n = sonde_record__encode(&fmt, &rec, buf, sizeof(buf));
			if (n > 0)
				s->werr = sonde_perfdata_writer__write(s->w, (const void *)buf);
		}
	}
	if (!s->werr)
		s->werr = sonde_perfdata_writer__finish_round(s->w);
}
