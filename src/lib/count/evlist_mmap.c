// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The rings of an open event list: one ring per CPU (or per thread when the
 * list counts on any CPU), shared through PERF_EVENT_IOC_SET_OUTPUT by every
 * other event of that CPU or thread, as libperf's perf_evlist__mmap() does.
 * Events opened with write_backward get rings of their own (a ring is
 * either forward or overwrite), and the poll set holds every event fd.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/ring.h"
#include "count_priv.h"
#include "core_priv.h"

/* Ring slots: [unit * 2 + backward], unit = a CPU or a thread index. */
static int ring_slot(int unit, bool backward)
{
	return unit * 2 + (backward ? 1 : 0);
}

static int add_pollfd(struct sonde_evlist *l, int fd)
{
	l->pollfds[l->nr_pollfds].fd = fd;
	l->pollfds[l->nr_pollfds].events = POLLIN;
	l->pollfds[l->nr_pollfds].revents = 0;
	l->nr_pollfds++;
	return 0;
}

/*
 * Maps the ring of @fd in @slot (with an AUX area of @aux_pages when its
 * PMU has one: @has_aux), or redirects @fd into the slot's ring.
 */
static int map_fd(struct sonde_evlist *l, struct sonde_ring **slot, int fd,
		  size_t pages, bool backward, size_t aux_pages,
		  bool aux_overwrite, bool *has_aux)
{
	SONDE_OPTS(sonde_ring_opts, ro, .data_pages = pages,
		   .overwrite = backward);

	if (!*slot) {
		*slot = sonde_ring__new(fd, &ro);
		if (!*slot)
			return -errno;
		if (aux_pages && !backward) {
			int err = sonde_ring__map_aux(*slot, aux_pages,
						      aux_overwrite);

			/* The kernel's answer for a PMU without AUX. */
			if (err && err != -EOPNOTSUPP)
				return err;
			*has_aux = !err;
		}
	} else {
		int err = sonde_ring__add_event(*slot, fd);

		if (err)
			return err;
	}
	return add_pollfd(l, fd);
}

static void free_ring_info(struct sonde_evlist *l)
{
	free(l->rings);
	free(l->ring_cpu);
	free(l->ring_tid);
	free(l->ring_aux);
	l->rings = NULL;
	l->ring_cpu = NULL;
	l->ring_tid = NULL;
	l->ring_aux = NULL;
	l->nr_rings = 0;
	l->nr_aux = 0;
}

int sonde_evlist__mmap(struct sonde_evlist *l,
		       const struct sonde_evlist_mmap_opts *opts)
{
	int nc, nt, units, err = 0;
	size_t pages, aux_pages;
	bool per_thread, *slot_aux, aux_ovw;
	struct sonde_ring **slots;

	if (!l || !OPTS_VALID(opts, sonde_evlist_mmap_opts))
		return lib_err(EINVAL);
	if (!l->open)
		return lib_err(EBADF);
	if (l->rings)
		return lib_err(EBUSY);
	pages = OPTS_GET(opts, data_pages, 0);
	aux_pages = OPTS_GET(opts, aux_pages, 0);
	aux_ovw = OPTS_GET(opts, aux_overwrite, false);
	if (aux_pages && (aux_pages & (aux_pages - 1)))
		return lib_err(EINVAL);
	nc = l->cpus->nr;
	nt = l->threads->nr;
	/* Any CPU (-1): the kernel needs one ring per thread. */
	per_thread = nc == 1 && l->cpus->cpu[0] < 0;
	units = per_thread ? nt : nc;
	slots = calloc((size_t)units * 2, sizeof(*slots));
	slot_aux = calloc((size_t)units * 2, sizeof(*slot_aux));
	l->pollfds = calloc((size_t)nc * (size_t)nt * (size_t)l->nr + 1,
			    sizeof(*l->pollfds));
	if (!slots || !slot_aux || !l->pollfds) {
		free(slots);
		free(slot_aux);
		free(l->pollfds);
		l->pollfds = NULL;
		return lib_err(ENOMEM);
	}
	l->nr_pollfds = 0;
	l->nr_hup = 0;
	for (int c = 0; c < nc && !err; c++) {
		for (int t = 0; t < nt && !err; t++) {
			for (int i = 0; i < l->nr && !err; i++) {
				struct sonde_evsel *e = l->evsels[i];
				bool back = e->attr.write_backward;
				int fd = e->fds ? e->fds[c * nt + t] : -1;

				if (fd < 0)
					continue;
				int s = ring_slot(per_thread ? t : c, back);

				err = map_fd(l, &slots[s], fd, pages, back,
					     aux_pages, aux_ovw, &slot_aux[s]);
				if (err)
					pr_debug("%s: ring of CPU %d: %s\n", e->name,
						 l->cpus->cpu[c], strerror(-err));
			}
		}
	}
	/* The used slots, in CPU (or thread) order, forward before backward. */
	l->rings = calloc((size_t)units * 2 + 1, sizeof(*l->rings));
	l->ring_cpu = calloc((size_t)units * 2 + 1, sizeof(*l->ring_cpu));
	l->ring_tid = calloc((size_t)units * 2 + 1, sizeof(*l->ring_tid));
	l->ring_aux = calloc((size_t)units * 2 + 1, sizeof(*l->ring_aux));
	l->nr_rings = 0;
	l->nr_aux = 0;
	if (!l->rings || !l->ring_cpu || !l->ring_tid || !l->ring_aux) {
		if (!err)
			err = -ENOMEM;
	} else {
		for (int s = 0; s < units * 2; s++) {
			int n = l->nr_rings, unit = s / 2;

			if (!slots[s])
				continue;
			l->rings[n] = slots[s];
			l->ring_cpu[n] = per_thread ? -1 : l->cpus->cpu[unit];
			l->ring_tid[n] = per_thread ? l->threads->pid[unit] : -1;
			l->ring_aux[n] = slot_aux[s];
			l->nr_aux += slot_aux[s];
			l->nr_rings++;
		}
	}
	free(slot_aux);
	if (err) {
		for (int s = 0; s < units * 2; s++)
			sonde_ring__free(slots[s]);
		free(slots);
		free_ring_info(l);
		free(l->pollfds);
		l->pollfds = NULL;
		l->nr_pollfds = 0;
		return lib_err(-err);
	}
	free(slots);
	return 0;
}

void sonde_evlist__munmap(struct sonde_evlist *l)
{
	if (!l)
		return;
	for (int i = 0; i < l->nr_rings; i++)
		sonde_ring__free(l->rings[i]);
	free_ring_info(l);
	free(l->pollfds);
	l->pollfds = NULL;
	l->nr_pollfds = 0;
}

int sonde_evlist__nr_rings(const struct sonde_evlist *l)
{
	return l ? l->nr_rings : 0;
}

struct sonde_ring *sonde_evlist__ring(const struct sonde_evlist *l, int idx)
{
	if (!l || idx < 0 || idx >= l->nr_rings)
		return lib_err_ptr(EINVAL);
	return l->rings[idx];
}

int sonde_evlist__poll(struct sonde_evlist *l, int timeout_ms)
{
	int n;

	if (!l || !l->pollfds)
		return lib_err(EINVAL);
	n = poll(l->pollfds, (nfds_t)l->nr_pollfds, timeout_ms);
	if (n < 0)
		return lib_err(errno);
	for (int i = 0; i < l->nr_pollfds; i++) {
		/* Its task is gone: stop watching it (poll skips fd < 0). */
		if (l->pollfds[i].fd >= 0 &&
		    (l->pollfds[i].revents & (POLLHUP | POLLERR))) {
			l->pollfds[i].fd = -l->pollfds[i].fd - 1;
			l->nr_hup++;
		}
	}
	return n;
}

int sonde_evlist__nr_polled(const struct sonde_evlist *l)
{
	return l && l->pollfds ? l->nr_pollfds - l->nr_hup : 0;
}

int sonde_evlist__nr_aux(const struct sonde_evlist *l)
{
	return l ? l->nr_aux : 0;
}
