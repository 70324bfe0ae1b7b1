/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * One event of an event list: its attr, its fds (one per CPU x thread of
 * the list's maps), and the reads, ioctls and fast self-reads on them.
 */
#ifndef SONDE_EVSEL_H
#define SONDE_EVSEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sonde/common.h"
#include "sonde/abi.h"
#include "sonde/counts.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sonde_evsel;

/** @brief **sonde_evsel__attr()** @return the attr: as added before open,
 * as the kernel accepted it after (see sonde_event_open()).
 * Owned by the event's list, valid until sonde_evlist__free().
 */
SONDE_API const struct sonde_perf_event_attr *
sonde_evsel__attr(const struct sonde_evsel *evsel);

/** @brief **sonde_evsel__name()** @return the name given to
 * sonde_evlist__add() (never NULL).
 * Owned by the event's list, valid until sonde_evlist__free().
 */
SONDE_API const char *sonde_evsel__name(const struct sonde_evsel *evsel);

/** @brief **sonde_evsel__idx()** @return the position in its list. */
SONDE_API int sonde_evsel__idx(const struct sonde_evsel *evsel);

/** @brief **sonde_evsel__leader()** @return the index of its group leader
 * (its own index when it leads or stands alone). */
SONDE_API int sonde_evsel__leader(const struct sonde_evsel *evsel);

/**
 * @brief **sonde_evsel__supported()** after sonde_evlist__open() with
 * keep_unsupported: false when this event could not be opened.
 * @return true when open (or not yet tried).
 */
SONDE_API bool sonde_evsel__supported(const struct sonde_evsel *evsel);

/** @brief **sonde_evsel__open_errno()** @return the positive errno of the
 * failed open of this event, 0 when none failed. */
SONDE_API int sonde_evsel__open_errno(const struct sonde_evsel *evsel);

/** @brief **sonde_evsel__open_error()** @return the message explaining
 * the failed open (sonde_open_error_describe()), "" when none failed.
 * Owned by the event's list, valid until sonde_evlist__free().
 */
SONDE_API const char *sonde_evsel__open_error(const struct sonde_evsel *evsel);

/**
 * @brief **sonde_evsel__set_attr()** replaces the attr of an event that is
 * not open (copied; size 0 means sizeof), e.g. to retry a failed open with
 * a fallback (cpu-clock for cycles, user space only).
 * @return 0, or -errno (-EBUSY while open).
 */
SONDE_API int sonde_evsel__set_attr(struct sonde_evsel *evsel,
				    const struct sonde_perf_event_attr *attr);

/** @brief **sonde_evsel__open_cpu()** @return the CPU on which the open
 * failed, -1 when on any CPU or when none failed. */
SONDE_API int sonde_evsel__open_cpu(const struct sonde_evsel *evsel);

/** @brief **sonde_evsel__fd()** @return the fd for CPU index @p cpu_idx
 * and thread index @p thread_idx, or -1 (not open / out of range). */
SONDE_API int sonde_evsel__fd(const struct sonde_evsel *evsel, int cpu_idx,
			      int thread_idx);

/**
 * @brief **sonde_evsel__id()** asks the kernel for the event id of one fd
 * (PERF_EVENT_IOC_ID).
 * @return 0 with *@p id set, or -errno.
 */
SONDE_API int sonde_evsel__id(const struct sonde_evsel *evsel, int cpu_idx,
			      int thread_idx, uint64_t *id);

/**
 * @brief **sonde_evsel__read()** reads one fd and decodes it. For a group
 * read (read_format GROUP) this event's own entry is returned.
 * @return 0, or -errno (-EBADF when that fd is not open; -ENODATA when
 * the kernel reads end of file: a pinned event it could not schedule,
 * in error state until enabled again).
 */
SONDE_API int sonde_evsel__read(const struct sonde_evsel *evsel, int cpu_idx,
				int thread_idx, struct sonde_count *c);

/**
 * @brief **sonde_evsel__read_group()** reads a leader opened with
 * read_format GROUP: one entry per member, leader first, into @p out.
 * @return the number of members (may exceed @p n), or -errno.
 */
SONDE_API int sonde_evsel__read_group(const struct sonde_evsel *leader,
				      int cpu_idx, int thread_idx,
				      struct sonde_count *out, size_t n);

/**
 * @brief **sonde_evsel__read_total()** sums every open fd of the event
 * (all CPUs and threads) and scales the sum by enabled/running.
 * @return 0, or -errno.
 */
SONDE_API int sonde_evsel__read_total(const struct sonde_evsel *evsel,
				      struct sonde_count *sum);

/**
 * @brief **sonde_evsel__read_cpu()** sums the threads of CPU index
 * @p cpu_idx (per-CPU display) and scales the sum.
 * @return 0, or -errno.
 */
SONDE_API int sonde_evsel__read_cpu(const struct sonde_evsel *evsel,
				    int cpu_idx, struct sonde_count *sum);

/** @brief **sonde_evsel__enable()** PERF_EVENT_IOC_ENABLE on every fd of
 * this event alone. @return 0 or -errno. */
SONDE_API int sonde_evsel__enable(const struct sonde_evsel *evsel);

/** @brief **sonde_evsel__disable()** PERF_EVENT_IOC_DISABLE on every fd.
 * @return 0 or -errno. */
SONDE_API int sonde_evsel__disable(const struct sonde_evsel *evsel);

/** @brief **sonde_evsel__reset()** PERF_EVENT_IOC_RESET on every fd.
 * @return 0 or -errno. */
SONDE_API int sonde_evsel__reset(const struct sonde_evsel *evsel);

/**
 * @brief **sonde_evsel__mmap_self()** maps the first page of the event's
 * first fd, for sonde_evsel__read_self(). Unmapped by sonde_evlist__close().
 * @return 0, or -errno.
 */
SONDE_API int sonde_evsel__mmap_self(struct sonde_evsel *evsel);

/**
 * @brief **sonde_evsel__read_self()** reads the event counting the calling
 * thread without a system call when the kernel allows it (x86-64 rdpmc
 * through the mmap page seqlock, times extrapolated from the TSC), else
 * with read(2). Needs sonde_evsel__mmap_self() first for the fast path.
 * @return 1 when read by rdpmc, 0 when by read(2), or -errno.
 */
SONDE_API int sonde_evsel__read_self(const struct sonde_evsel *evsel,
				     struct sonde_count *c);

#ifdef __cplusplus
}
#endif
#endif /* SONDE_EVSEL_H */
