// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Records out of an event list's rings, repaired where the kernel gets
 * them wrong, and the kernel's per-event lost-sample counts as
 * LOST_SAMPLES records: what every writer of perf.data needs from a live
 * list, so no tool above has to know these details.
 */
#include <errno.h>
#include <string.h>
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

/* Hands @ev to @fn, repaired on a copy when the kernel marked it wrong. */
static int hand_record(const struct sonde_perf_event_attr *track,
		       const struct sonde_perf_event_header *ev,
		       sonde_evlist_record_fn fn, void *ctx)
{
	static _Thread_local _Alignas(8) unsigned char copy[65536];

	if (ev->type != SONDE_PERF_RECORD_MMAP2 ||
	    !(ev->misc & SONDE_PERF_RECORD_MISC_MMAP_BUILD_ID) ||
	    !track || track->build_id)
		return fn(ev, ctx);
	memcpy(copy, ev, ev->size);
	sonde_record__fixup(track, copy, ev->size);
	return fn((const void *)copy, ctx);
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
