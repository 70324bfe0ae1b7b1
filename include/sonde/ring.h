/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * The perf ring buffer: one mmap of 1 + 2^n pages per event fd (per CPU or
 * per thread), optionally shared by further events through SET_OUTPUT, and
 * an optional AUX area. Records come out contiguous even when they wrap the
 * end of the buffer.
 *
 * Reading is a three-step pass, as the kernel's head/tail protocol wants:
 *
 *	sonde_ring__read_init(r);          // load data_head (acquire)
 *	while (sonde_ring__read_event(r, &ev) > 0)
 *		use(ev);                   // valid until the next call
 *	sonde_ring__read_done(r);          // publish data_tail (release)
 *
 * sonde_ring__pending() shows where the records handed so far lie in the
 * ring, so that they can be written out without a copy before
 * sonde_ring__consume() gives their space back.
 *
 * In overwrite mode (attr.write_backward = 1, read-only mapping) the kernel
 * never waits for us; read_init pauses the output and takes a snapshot of
 * the newest records, read_event hands them newest first, and read_done
 * resumes the output.
 */
#ifndef SONDE_RING_H
#define SONDE_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>
#include "sonde/common.h"
#include "sonde/abi.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sonde_ring;

struct sonde_ring_opts {
	size_t sz;
	/* Data pages, a power of two; 0 means 128 (perf's default 512 KiB). */
	size_t data_pages;
	/*
	 * Flight-recorder mode: the event was opened with write_backward = 1;
	 * the buffer is mapped read-only and read as a snapshot.
	 */
	bool overwrite;
	size_t : 0;
};
#define sonde_ring_opts__last_field overwrite

/**
 * @brief **sonde_ring__new()** maps the ring buffer of event @p fd
 * (1 control page + data pages) through the syscall seam.
 * @return the ring (free with sonde_ring__free()), or NULL with errno set:
 * EINVAL for a data_pages count that is not a power of two, EPERM when the
 * mapping exceeds kernel.perf_event_mlock_kb for an unprivileged user.
 */
SONDE_API struct sonde_ring *sonde_ring__new(int fd,
					     const struct sonde_ring_opts *opts);

/** @brief **sonde_ring__free()** unmaps the ring (and AUX area); NULL ok. */
SONDE_API void sonde_ring__free(struct sonde_ring *r);

/** @brief **sonde_ring__fd()** the fd whose buffer this is (for poll(2)). */
SONDE_API int sonde_ring__fd(const struct sonde_ring *r);

/** @brief **sonde_ring__overwrite()** true for a flight-recorder ring
 * (write_backward, read as snapshots). */
SONDE_API bool sonde_ring__overwrite(const struct sonde_ring *r);

/** @brief **sonde_ring__data_size()** size in bytes of the data area. */
SONDE_API size_t sonde_ring__data_size(const struct sonde_ring *r);

/**
 * @brief **sonde_ring__control()** the mmap control page (time conversion,
 * rdpmc index, raw data_head/data_tail).
 * The ring's own mapping, valid until sonde_ring__free().
 */
SONDE_API struct sonde_perf_event_mmap_page *
sonde_ring__control(const struct sonde_ring *r);

/**
 * @brief **sonde_ring__add_event()** redirects the records of event
 * @p fd into this ring (PERF_EVENT_IOC_SET_OUTPUT). The event must be on the
 * same CPU (or the same task, for per-thread rings) and use the same clock.
 * @return 0, or -errno (EINVAL: different CPU, clock or ring mode).
 */
SONDE_API int sonde_ring__add_event(struct sonde_ring *r, int fd);

/**
 * @brief **sonde_ring__read_init()** starts a read pass: loads data_head
 * with acquire ordering (overwrite mode: pauses the output first and finds
 * the range of the snapshot).
 * @return the number of bytes available in this pass, or -errno.
 */
SONDE_API int64_t sonde_ring__read_init(struct sonde_ring *r);

/**
 * @brief **sonde_ring__read_event()** hands the next record of the pass in
 * @p ev, contiguous in memory (records that wrap the buffer end are copied
 * into a bounce buffer). The pointer stays valid until the next call or
 * read_done.
 * @return 1 with a record, 0 when the pass is exhausted, -SONDE_ERR_FORMAT
 * when the buffer holds a record header that cannot be right (size < 8 or
 * past data_head): the rest of the pass is skipped, never misread.
 */
SONDE_API int sonde_ring__read_event(struct sonde_ring *r,
				     const struct sonde_perf_event_header **ev);

/**
 * @brief **sonde_ring__consume()** publishes data_tail up to the records
 * handed so far in this pass, without ending it, so the kernel may reuse
 * their space while the reader goes on (a reader that writes what it reads
 * can block in write() mid-pass; until the tail moves, the ring fills).
 * Records handed before the call must not be used after it. No effect in
 * overwrite mode.
 */
SONDE_API void sonde_ring__consume(struct sonde_ring *r);

/**
 * @brief **sonde_ring__pending()** the first @p len bytes (all of them
 * when fewer) of the records handed since the pass began or since the
 * last sonde_ring__consume(), where they lie in the ring: one buffer in
 * @p iov, or two where they wrap the end of the data area. A writer can
 * store them straight from the ring (writev(2)) and consume afterwards,
 * without copying them first. Bytes a bad record header made the pass
 * skip are never part of them.
 * The buffers are the ring's own memory, valid until the next consume or
 * read_done.
 * @return how many buffers were filled: 0 (nothing pending), 1 or 2.
 */
SONDE_API int sonde_ring__pending(const struct sonde_ring *r, size_t len,
				  struct iovec iov[2]);

/**
 * @brief **sonde_ring__read_done()** ends a pass: publishes data_tail with
 * release ordering so the kernel may reuse the space (overwrite mode:
 * resumes the output instead).
 */
SONDE_API void sonde_ring__read_done(struct sonde_ring *r);

/**
 * @brief **sonde_ring__pause()** stops (@p pause true) or resumes the
 * kernel's writes into the ring (PERF_EVENT_IOC_PAUSE_OUTPUT).
 * @return 0 or -errno.
 */
SONDE_API int sonde_ring__pause(struct sonde_ring *r, bool pause);

/**
 * @brief **sonde_ring__map_aux()** maps an AUX area of @p pages pages (a
 * power of two) after the data area: writes aux_offset/aux_size into the
 * control page and maps that range (read-only when @p overwrite).
 * @return 0 or -errno (EOPNOTSUPP/EINVAL from the kernel when the PMU has no
 * AUX support).
 */
SONDE_API int sonde_ring__map_aux(struct sonde_ring *r, size_t pages,
				  bool overwrite);

/**
 * @brief **sonde_ring__aux_read()** hands the AUX bytes between aux_tail and
 * aux_head (acquire) as at most two chunks (@p cb is called once per chunk
 * with its offset in the AUX stream), then publishes aux_tail (release)
 * unless @p cb returned non-zero.
 * @return bytes consumed, or -errno / the callback's negative value.
 */
SONDE_API int64_t sonde_ring__aux_read(struct sonde_ring *r,
				       int (*cb)(const void *data, size_t len,
						 uint64_t offset, void *ctx),
				       void *ctx);

/* One read of an AUX area (value struct): @size bytes of its stream from
 * position @offset, in one part or, where they wrap the area's end, two. */
struct sonde_aux_span {
	uint64_t offset;
	uint64_t size;          /* len[0] + len[1] */
	const void *data[2];    /* in the AUX mapping; data[1] NULL if unused */
	size_t len[2];
};

struct sonde_ring_aux_opts {
	size_t sz;
	/*
	 * Read an area mapped with @overwrite (sonde_ring__map_aux()) as a
	 * snapshot, as perf record -S does: aux_tail is left alone (the
	 * kernel ignores it in that mode) and the span is the bytes written
	 * since the previous snapshot, or the whole area, newest byte last,
	 * once it has wrapped (the head went back or moved by the area's size
	 * or more, or the PMU wrote near the area's end, which the kernel
	 * zeroes at mapping: see @snapshot_tail).
	 * Stop the AUX event around the read, or the PMU writes under it.
	 */
	bool snapshot;
	/* Snapshot: at most this many of the newest bytes; 0 = no limit. */
	size_t snapshot_size;
	/*
	 * The tracer writes records of this size (sonde_pmu_name__aux_alignment():
	 * intel_bts's 24-byte branch records); 0 or 1 = bytes. As perf does,
	 * the span's first part ends at its last whole record: the bytes
	 * after it are left out of the span but read all the same.
	 */
	size_t alignment;
	/*
	 * Snapshot: perf's intel_pt reference buffer of this many bytes
	 * (sonde_pmu__aux_snapshot_ref_size(); 0 = none, the rule above).
	 * Each snapshot then asks afresh whether the area wrapped: the head
	 * inside the area's last @snapshot_ref_size bytes, or those bytes
	 * unlike the copy the ring took at the previous snapshot (the bytes
	 * before the head then, as perf 6.1 takes them). Not wrapped: the
	 * bytes since the previous snapshot, across the area's end if need
	 * be. Taken at the ring's first snapshot; ignored unless smaller
	 * than the area.
	 */
	size_t snapshot_ref_size;
	/*
	 * Snapshot without a reference buffer: where written bytes show the
	 * PMU went all around the area. 0: its last 4 KiB (perf's intel_pt
	 * and intel_bts); N: its last N bytes, from the head on if the head
	 * lies among them (perf's cs_etm and arm_spe: 512,
	 * sonde_pmu_name__aux_snapshot_tail()).
	 */
	size_t snapshot_tail;
	size_t : 0;
};
#define sonde_ring_aux_opts__last_field snapshot_tail

/**
 * @brief **sonde_ring__aux_read_span()** hands the new AUX bytes (from
 * aux_tail to aux_head, acquire; at most the area's size, the newest, if
 * the PMU overran it) to @p cb as one span, then publishes aux_tail
 * (release) unless @p cb returned non-zero. With @p opts->snapshot, see
 * sonde_ring_aux_opts. The span's data is the AUX mapping itself: use it
 * inside @p cb only.
 * @p cb is not called when no byte is left to hand over.
 * @return bytes handed over, or -errno (-ENODEV without an AUX area) / the
 * callback's negative value (-ECANCELED for a positive one).
 */
SONDE_API int64_t
sonde_ring__aux_read_span(struct sonde_ring *r,
			  const struct sonde_ring_aux_opts *opts,
			  int (*cb)(const struct sonde_aux_span *span, void *ctx),
			  void *ctx);

/* The page's perf time <-> TSC conversion (value struct). */
struct sonde_time_conv {
	uint64_t time_zero;
	uint64_t time_cycles;  /* cap_user_time_short only */
	uint64_t time_mask;    /* cap_user_time_short only */
	uint32_t time_mult;
	uint16_t time_shift;
	bool cap_user_time_short;
	/* Room for fields to come (the caller allocates it); zeroed. */
	uint8_t reserved[1 + 4 * 8];
};
#ifndef __cplusplus
_Static_assert(sizeof(struct sonde_time_conv) == 64, "sonde_time_conv: ABI size");
#endif

/**
 * @brief **sonde_mmap_page__time_conv()** reads the conversion fields of
 * @p pc under its seqlock into @p tc (what perf stores in TIME_CONV and
 * in the AUXTRACE_INFO of TSC-based tracers). Thread-safe.
 * @return 0, or -errno as sonde_mmap_page__tsc_to_time().
 */
SONDE_API int
sonde_mmap_page__time_conv(const struct sonde_perf_event_mmap_page *pc,
			   struct sonde_time_conv *tc);

/**
 * @brief **sonde_mmap_page__tsc_to_time()** converts a time-stamp counter
 * reading @p cyc (rdtsc on x86) into perf time, the clock of sample TIME
 * fields when attr.use_clockid is not set, with the page's time_zero,
 * time_mult and time_shift (folded through time_cycles/time_mask when
 * cap_user_time_short), read under its seqlock. @p pc is any event's
 * first mmap page (sonde_ring__control()). Thread-safe.
 * @return 0 with *@p time set, -EOPNOTSUPP when the page lacks
 * cap_user_time_zero (no stable TSC, or not x86), -EAGAIN when the kernel
 * kept rewriting the page, -EINVAL.
 */
SONDE_API int
sonde_mmap_page__tsc_to_time(const struct sonde_perf_event_mmap_page *pc,
			     uint64_t cyc, uint64_t *time);

/**
 * @brief **sonde_mmap_page__time_to_tsc()** the inverse: the counter value
 * at perf time @p time (for cap_user_time_short pages, the low bits only).
 * @return 0 with *@p cyc set, or -errno as sonde_mmap_page__tsc_to_time().
 */
SONDE_API int
sonde_mmap_page__time_to_tsc(const struct sonde_perf_event_mmap_page *pc,
			     uint64_t time, uint64_t *cyc);

#ifdef __cplusplus
}
#endif
#endif /* SONDE_RING_H */
