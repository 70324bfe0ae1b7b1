/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * The records of a mapped event list, ready to store: one read pass over
 * every ring with the kernel's known record defects repaired, and the
 * samples the kernel counted as lost turned into LOST_SAMPLES records.
 */
#ifndef SONDE_EVLIST_RECORDS_H
#define SONDE_EVLIST_RECORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>
#include "sonde/common.h"
#include "sonde/abi.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sonde_evlist;

/*
 * Receives one record, valid only during the call. A non-zero return stops
 * the pass and is passed back to the caller.
 */
typedef int (*sonde_evlist_record_fn)(const struct sonde_perf_event_header *ev,
				      void *ctx);

struct sonde_evlist_read_opts {
	size_t sz;
	/* Read the overwrite (write_backward) rings too: a snapshot of their
	 * newest records. Default: forward rings only. */
	bool snapshot;
	size_t : 0;
};
#define sonde_evlist_read_opts__last_field snapshot

/**
 * @brief **sonde_evlist__read_records()** makes one read pass over every
 * ring of a list mapped with sonde_evlist__mmap() (CPU or thread order)
 * and hands each record to @p fn. A record the kernel got wrong is repaired
 * on a copy first: an MMAP2 record marked as carrying a build id although
 * the tracking event (the one with attr.mmap2) was opened without
 * attr.build_id still holds dev/inode, and perf would trust the mark (seen
 * on Linux 6.18 when another event on the machine asked for build ids).
 * A ring whose data cannot be right is skipped for the rest of the pass
 * (sonde_ring__read_event()); the data already handed stays valid.
 * Not thread-safe against other calls on the same list.
 * @return the number of records handed, or @p fn's non-zero value, or
 * -errno (-EINVAL: not mapped).
 */
SONDE_API int64_t sonde_evlist__read_records(struct sonde_evlist *list,
					     const struct sonde_evlist_read_opts *opts,
					     sonde_evlist_record_fn fn,
					     void *ctx);

/*
 * Stores a run of whole records, in stream order, held in @p iovcnt (1 or
 * 2) buffers: a ring's own memory, two where the run wraps the buffer end
 * (a record may be split between them), or the copy of a repaired record.
 * Valid only during the call. Return 0 once every byte is stored (the
 * ring space is given back then); non-zero stops the pass.
 */
typedef int (*sonde_evlist_span_fn)(const struct iovec *iov, int iovcnt,
				    void *ctx);

struct sonde_evlist_push_opts {
	size_t sz;
	/* As in sonde_evlist_read_opts. */
	bool snapshot;
	/*
	 * Store a run once it holds this many bytes and give its ring space
	 * back; 0: no limit, a ring's whole pass is one run, as perf writes
	 * it. Shorter runs give the kernel space back sooner but cost a
	 * write(2) each, which on ext4 outweighs the copy they save below
	 * some 64 KiB.
	 */
	size_t max_span;
	/*
	 * Sees each record (repaired, contiguous) before the run that holds
	 * it is stored, valid during the call; NULL: none. Non-zero stops
	 * the pass as @span's would.
	 */
	sonde_evlist_record_fn look;
	size_t : 0;
};
#define sonde_evlist_push_opts__last_field look

/**
 * @brief **sonde_evlist__push_records()** makes the pass of
 * sonde_evlist__read_records() without copying the records: runs of
 * records as the kernel wrote them reach @p span straight from the ring's
 * memory, and their space goes back to the kernel only after @p span
 * returned 0, so nothing is freed before it is stored. A record the
 * library repairs (the MMAP2 build-id mark) reaches @p span alone, from
 * its repaired copy, after the run before it. The bytes stored are those
 * read_records would hand, in the same order.
 * Not thread-safe against other calls on the same list.
 * @return the number of records passed, or the first non-zero value of
 * @p span or @p opts->look (the run not yet stored then stays in its ring
 * and a later pass passes it again), or -errno (-EINVAL: not mapped, no
 * @p span).
 */
SONDE_API int64_t sonde_evlist__push_records(struct sonde_evlist *list,
					     const struct sonde_evlist_push_opts *opts,
					     sonde_evlist_span_fn span,
					     void *ctx);

/**
 * @brief **sonde_evlist__lost_samples()** reads, for every fd of every
 * event opened with read_format PERF_FORMAT_LOST (Linux 6.0+), the
 * samples the kernel could not write into its ring (full, or paused for an
 * overwrite snapshot) and hands a PERF_RECORD_LOST_SAMPLES record for each
 * non-zero count to @p fn (sample_id: the event's id and the fd's CPU), as
 * perf record stores them at the end of a recording.
 * @return the number of records handed, @p fn's non-zero value, or -errno.
 */
SONDE_API int sonde_evlist__lost_samples(struct sonde_evlist *list,
					 sonde_evlist_record_fn fn, void *ctx);

#ifdef __cplusplus
}
#endif
#endif /* SONDE_EVLIST_RECORDS_H */
