/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * Every perf_event_open(2) ioctl on one event fd, as thin wrappers through
 * the syscall seam, and the same controls on every fd of an evsel.
 */
#ifndef SONDE_EVCTL_H
#define SONDE_EVCTL_H

#include <stdbool.h>
#include <stdint.h>
#include "sonde/common.h"
#include "sonde/abi.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sonde_evsel;

/*
 * The fd wrappers below return 0 (or the documented count) on success and
 * -errno on failure, with errno set as well. They only call ioctl(2)
 * through the seam and write errno, so they are async-signal-safe: an
 * overflow handler may call sonde_perf_event_ioc_refresh() (save and
 * restore errno around it, as for any call in a handler). Thread-safe.
 */

/** @brief **sonde_perf_event_ioc_enable()** PERF_EVENT_IOC_ENABLE; with
 * @p group the whole group of leader @p fd (PERF_IOC_FLAG_GROUP). */
SONDE_API int sonde_perf_event_ioc_enable(int fd, bool group);

/** @brief **sonde_perf_event_ioc_disable()** PERF_EVENT_IOC_DISABLE. */
SONDE_API int sonde_perf_event_ioc_disable(int fd, bool group);

/** @brief **sonde_perf_event_ioc_reset()** PERF_EVENT_IOC_RESET. */
SONDE_API int sonde_perf_event_ioc_reset(int fd, bool group);

/**
 * @brief **sonde_perf_event_ioc_refresh()** PERF_EVENT_IOC_REFRESH: adds
 * @p n to the event's overflow limit (event_limit) and enables it; the
 * kernel disables the event again (POLL_HUP) after @p n overflows. This is
 * how a self-sampling program re-arms from its signal handler. @p n must
 * be > 0 (the kernel refuses 0) and the event must sample.
 */
SONDE_API int sonde_perf_event_ioc_refresh(int fd, int n);

/** @brief **sonde_perf_event_ioc_period()** PERF_EVENT_IOC_PERIOD: a new
 * sample_period (or sample_freq for freq events), effective from the next
 * overflow. */
SONDE_API int sonde_perf_event_ioc_period(int fd, uint64_t period);

/** @brief **sonde_perf_event_ioc_set_output()** PERF_EVENT_IOC_SET_OUTPUT:
 * write @p fd's records into the ring of @p out_fd (-1: its own again). */
SONDE_API int sonde_perf_event_ioc_set_output(int fd, int out_fd);

/**
 * @brief **sonde_perf_event_ioc_set_filter()** PERF_EVENT_IOC_SET_FILTER:
 * a tracepoint filter in tracefs syntax ("common_pid == 1 && prev_prio <
 * 100"), or an address filter for AUX PMUs. The kernel copies @p filter;
 * a tracepoint event takes one filter (a second: -EEXIST).
 */
SONDE_API int sonde_perf_event_ioc_set_filter(int fd, const char *filter);

/** @brief **sonde_perf_event_ioc_id()** PERF_EVENT_IOC_ID into *@p id. */
SONDE_API int sonde_perf_event_ioc_id(int fd, uint64_t *id);

/** @brief **sonde_perf_event_ioc_set_bpf()** PERF_EVENT_IOC_SET_BPF:
 * attaches the BPF program @p prog_fd to a tracepoint/kprobe/uprobe event. */
SONDE_API int sonde_perf_event_ioc_set_bpf(int fd, int prog_fd);

/** @brief **sonde_perf_event_ioc_pause_output()**
 * PERF_EVENT_IOC_PAUSE_OUTPUT: stop (@p pause) or resume writing to the
 * ring; records that would have been written are lost. */
SONDE_API int sonde_perf_event_ioc_pause_output(int fd, bool pause);

/**
 * @brief **sonde_perf_event_ioc_query_bpf()** PERF_EVENT_IOC_QUERY_BPF:
 * the ids of the BPF programs attached to @p fd's tracepoint, up to
 * @p ids_len into @p ids (NULL with 0: only count them).
 * @return the number of programs attached (more than @p ids_len when
 * @p ids was too short; the first @p ids_len are filled), or -errno.
 */
SONDE_API int sonde_perf_event_ioc_query_bpf(int fd, uint32_t *ids,
					     uint32_t ids_len);

/**
 * @brief **sonde_perf_event_ioc_modify_attributes()**
 * PERF_EVENT_IOC_MODIFY_ATTRIBUTES: change an open event in place (the
 * kernel supports breakpoints: a new bp_addr, bp_len, bp_type). @p attr
 * must describe the same event type as the one opened.
 */
SONDE_API int
sonde_perf_event_ioc_modify_attributes(int fd,
				       const struct sonde_perf_event_attr *attr);

/*
 * The same on every open fd of an evsel (all CPUs and threads). They stop
 * at the first failure. Not thread-safe against sonde_evlist__close().
 */

/** @brief **sonde_evsel__set_filter()** SET_FILTER on every fd (perf's
 * `--filter`). @return 0 or -errno (-EBADF when not open). */
SONDE_API int sonde_evsel__set_filter(const struct sonde_evsel *evsel,
				      const char *filter);

/** @brief **sonde_evsel__set_period()** PERIOD on every fd.
 * @return 0 or -errno. */
SONDE_API int sonde_evsel__set_period(const struct sonde_evsel *evsel,
				      uint64_t period);

/** @brief **sonde_evsel__refresh()** REFRESH by @p n on every fd.
 * @return 0 or -errno. */
SONDE_API int sonde_evsel__refresh(const struct sonde_evsel *evsel, int n);

/**
 * @brief **sonde_evsel__set_probe_target()** gives a kprobe/uprobe PMU
 * event its own copy of the kprobe_func / uprobe_path string and points
 * attr.config1 at it, so the attr outlives the string it was built from
 * (sonde_evspec_list__probe_target()). Before open only.
 * @return 0, -EBUSY once open, -ENOMEM, -EINVAL.
 */
SONDE_API int sonde_evsel__set_probe_target(struct sonde_evsel *evsel,
					    const char *target);

/**
 * @brief **sonde_evsel__set_weak_group()** marks group leader @p evsel
 * weak (perf's :W): when a member cannot be opened in the group,
 * sonde_evlist__open() closes the group and opens its events one by one
 * instead of failing; each former member takes the leader's disabled and
 * enable_on_exec bits, so it starts when the group would have (and
 * sonde_evsel__leader() then names itself). Before open only.
 * @return 0, -EINVAL when @p evsel does not lead, -EBUSY once open.
 */
SONDE_API int sonde_evsel__set_weak_group(struct sonde_evsel *evsel, bool weak);

#ifdef __cplusplus
}
#endif
#endif /* SONDE_EVCTL_H */
