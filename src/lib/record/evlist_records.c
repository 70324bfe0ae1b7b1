// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Records out of an event list's rings, repaired where the kernel gets
 * them wrong, and the kernel's per-event lost-sample counts as
 * LOST_SAMPLES records: what every writer of perf.data needs from a live
 * list, so no tool above has to know these details.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>
#include "sonde/evlist_records.h"
#include "sonde/evlist.h"
#include "sonde/evsel.h"
#include "sonde/counts.h"
#include "sonde/record.h"
#include "sonde/ring.h"
#include "core_priv.h"

/* The event that carries the side-band (MMAP2), or NULL. */
static const struct sonde_perf_event_attr *tracking_attr(struct sonde_evlist *l)
{
	for (int i = 0; i < sonde_evlist__nr(l); i++) {
		const struct sonde_perf_event_attr *a =
			sonde_evsel__attr(sonde_evlist__evsel(l, i));

		if (a && a->mmap2)
			return a;
	}
	return NULL;
}

/* True when the kernel marked @ev as it should not have (see the header). */
static bool needs_repair(const struct sonde_perf_event_attr *track,
			 const struct sonde_perf_event_header *ev)
{
	return ev->type == SONDE_PERF_RECORD_MMAP2 &&
	       (ev->misc & SONDE_PERF_RECORD_MISC_MMAP_BUILD_ID) &&
	       track && !track->build_id;
}

/* @ev repaired on a copy that lives until the next call on this thread. */
static const struct sonde_perf_event_header *
repaired(const struct sonde_perf_event_attr *track,
	 const struct sonde_perf_event_header *ev)
{
	static _Thread_local _Alignas(8) unsigned char copy[65536];

	memcpy(copy, ev, ev->size);
	sonde_record__fixup(track, copy, ev->size);
	return (const void *)copy;
}

/* Hands @ev to @fn, repaired on a copy when the kernel marked it wrong. */
static int hand_record(const struct sonde_perf_event_attr *track,
		       const struct sonde_perf_event_header *ev,
		       sonde_evlist_record_fn fn, void *ctx)
{
	return fn(needs_repair(track, ev) ? repaired(track, ev) : ev, ctx);
}

int64_t sonde_evlist__read_records(struct sonde_evlist *l,
				   const struct sonde_evlist_read_opts *opts,
				   sonde_evlist_record_fn fn, void *ctx)
{
	const struct sonde_perf_event_attr *track;
	bool snapshot;
	int64_t n = 0;
	int ret = 0;

	if (!l || !fn || !OPTS_VALID(opts, sonde_evlist_read_opts))
		return lib_err(EINVAL);
	if (!sonde_evlist__nr_rings(l))
		return lib_err(EINVAL);
	snapshot = OPTS_GET(opts, snapshot, false);
	track = tracking_attr(l);
	for (int i = 0; i < sonde_evlist__nr_rings(l) && !ret; i++) {
		struct sonde_ring *r = sonde_evlist__ring(l, i);
		const struct sonde_perf_event_header *ev;

		if (sonde_ring__overwrite(r) && !snapshot)
			continue;
		if (sonde_ring__read_init(r) <= 0) {
			sonde_ring__read_done(r);
			continue;
		}
		/*
		 * Each record's space goes back to the kernel once @fn is
		 * done with it: @fn may block (a writer's write()), and a
		 * ring held whole until the pass ends overflows meanwhile
		 * at high rates with large (DWARF) samples.
		 */
		while (!ret && sonde_ring__read_event(r, &ev) == 1) {
			ret = hand_record(track, ev, fn, ctx);
			sonde_ring__consume(r);
			n++;
		}
		sonde_ring__read_done(r);
	}
	return ret ? ret : n;
}

/* Stores the first @len pending bytes of @r through @span. */
static int store_run(struct sonde_ring *r, size_t len,
		     sonde_evlist_span_fn span, void *ctx)
{
	struct iovec iov[2];
	int n = sonde_ring__pending(r, len, iov);

	return n ? span(iov, n, ctx) : 0;
}

/*
 * One ring's pass for sonde_evlist__push_records(): runs of records are
 * stored from the ring's memory and their space given back only once
 * @span took them; a repaired record goes alone, from its copy, after the
 * run before it.
 */
static int push_ring(struct sonde_ring *r,
		     const struct sonde_perf_event_attr *track, size_t max,
		     sonde_evlist_record_fn look, sonde_evlist_span_fn span,
		     void *ctx, int64_t *n)
{
	const struct sonde_perf_event_header *ev;
	size_t run = 0;
	int ret = 0;

	while (!ret && sonde_ring__read_event(r, &ev) == 1) {
		(*n)++;
		if (needs_repair(track, ev)) {
			const struct sonde_perf_event_header *fix = repaired(track, ev);
			struct iovec one = {
				.iov_base = (void *)fix, .iov_len = fix->size,
			};

			ret = look ? look(fix, ctx) : 0;
			/* The run before it: pending holds it and @ev. */
			if (!ret && run)
				ret = store_run(r, run, span, ctx);
			if (!ret)
				ret = span(&one, 1, ctx);
			if (!ret)
				sonde_ring__consume(r);
			run = 0;
			continue;
		}
		ret = look ? look(ev, ctx) : 0;
		run += ev->size;
		if (!ret && run >= max) {
			ret = store_run(r, run, span, ctx);
			if (!ret)
				sonde_ring__consume(r);
			run = 0;
		}
	}
	if (!ret && run) {
		ret = store_run(r, run, span, ctx);
		if (!ret)
			sonde_ring__consume(r);
	}
	return ret;
}

int64_t sonde_evlist__push_records(struct sonde_evlist *l,
				   const struct sonde_evlist_push_opts *opts,
				   sonde_evlist_span_fn span, void *ctx)
{
	const struct sonde_perf_event_attr *track;
	sonde_evlist_record_fn look;
	bool snapshot;
	size_t max;
	int64_t n = 0;
	int ret = 0;

	if (!l || !span || !OPTS_VALID(opts, sonde_evlist_push_opts))
		return lib_err(EINVAL);
	if (!sonde_evlist__nr_rings(l))
		return lib_err(EINVAL);
	snapshot = OPTS_GET(opts, snapshot, false);
	look = OPTS_GET(opts, look, NULL);
	max = OPTS_GET(opts, max_span, 0);
	if (!max)
		max = SIZE_MAX; /* a pass never holds more than its ring */
	track = tracking_attr(l);
	for (int i = 0; i < sonde_evlist__nr_rings(l) && !ret; i++) {
		struct sonde_ring *r = sonde_evlist__ring(l, i);

		if (sonde_ring__overwrite(r) && !snapshot)
			continue;
		if (sonde_ring__read_init(r) <= 0) {
			sonde_ring__read_done(r);
			continue;
		}
		ret = push_ring(r, track, max, look, span, ctx, &n);
		/*
		 * After a failure the unstored records stay in a forward
		 * ring; an overwrite ring must resume its output either way.
		 */
		if (!ret || sonde_ring__overwrite(r))
			sonde_ring__read_done(r);
	}
	return ret ? ret : n;
}

int sonde_evlist__lost_samples(struct sonde_evlist *l,
			       sonde_evlist_record_fn fn, void *ctx)
{
	const struct sonde_cpu_map *cpus;
	const struct sonde_thread_map *threads;
	int n = 0, ret = 0;

	if (!l || !fn)
		return lib_err(EINVAL);
	cpus = sonde_evlist__cpus(l);
	threads = sonde_evlist__threads(l);
	for (int i = 0; i < sonde_evlist__nr(l) && !ret; i++) {
		struct sonde_evsel *e = sonde_evlist__evsel(l, i);
		const struct sonde_perf_event_attr *a = sonde_evsel__attr(e);
		struct sonde_record_fmt fmt;

		if (!(a->read_format & SONDE_PERF_FORMAT_LOST) ||
		    sonde_record_fmt__from_attr(&fmt, a))
			continue;
		for (int c = 0; c < sonde_cpu_map__nr(cpus) && !ret; c++) {
			for (int t = 0; t < sonde_thread_map__nr(threads) && !ret; t++) {
				struct sonde_record rec = {
					.type = SONDE_PERF_RECORD_LOST_SAMPLES,
				};
				_Alignas(8) unsigned char buf[256];
				struct sonde_count cnt;
				int len;

				if (sonde_evsel__read(e, c, t, &cnt) || !cnt.lost)
					continue;
				rec.lost_samples.lost = cnt.lost;
				rec.sample_id.id = rec.sample_id.identifier = cnt.id;
				rec.sample_id.cpu = (uint32_t)sonde_cpu_map__cpu(cpus, c);
				len = sonde_record__encode(&fmt, &rec, buf, sizeof(buf));
				if (len <= 0)
					continue;
				ret = fn((const void *)buf, ctx);
				n++;
			}
		}
	}
	return ret ? ret : n;
}
