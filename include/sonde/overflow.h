/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * Overflow notification (perf_event_open(2), "Overflow handling"): a signal
 * on every wakeup of a sampling event through F_SETOWN_EX / F_SETSIG /
 * O_ASYNC, with POLL_IN while the event runs and POLL_HUP when its
 * event_limit (PERF_EVENT_IOC_REFRESH) is used up, and the synchronous
 * SIGTRAP of attr.sigtrap with attr.sig_data handed back in the siginfo.
 */
#ifndef SONDE_OVERFLOW_H
#define SONDE_OVERFLOW_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "sonde/common.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sonde_overflow_signal_opts {
	size_t sz;
	/* Signal to send; 0 means SIGIO. A real-time signal queues one
	 * siginfo per overflow, where SIGIO coalesces. */
	int signo;
	/* Thread that receives it (F_OWNER_TID); 0 means the calling thread. */
	pid_t tid;
	size_t : 0;
};
#define sonde_overflow_signal_opts__last_field tid

/**
 * @brief **sonde_overflow_signal__setup()** makes the kernel signal the
 * owner thread each time sampling event @p fd wakes up (every
 * wakeup_events samples, or wakeup_watermark bytes): O_ASYNC on the fd,
 * F_SETSIG with the signal, F_SETOWN_EX with F_OWNER_TID. The siginfo then
 * carries si_fd = @p fd and si_code POLL_IN, or POLL_HUP once an
 * event_limit set by sonde_perf_event_ioc_refresh() runs out. Install the
 * handler (SA_SIGINFO) before enabling the event. Thread-safe.
 * @return 0, or -errno (-EINVAL for a bad signal or opts).
 */
SONDE_API int
sonde_overflow_signal__setup(int fd,
			     const struct sonde_overflow_signal_opts *opts);

/**
 * @brief **sonde_overflow_signal__clear()** stops the signals: O_ASYNC off
 * and the owner cleared. @return 0 or -errno.
 */
SONDE_API int sonde_overflow_signal__clear(int fd);

/* What a perf signal said, decoded from its siginfo_t. */
struct sonde_overflow_info {
	int signo;
	int code;           /* POLL_IN, POLL_HUP (overflow) or TRAP_PERF */
	int fd;             /* POLL_*: the event fd (si_fd), else -1 */
	bool sigtrap;       /* SIGTRAP with TRAP_PERF: attr.sigtrap fired */
	uint64_t sig_data;  /* TRAP_PERF: attr.sig_data (si_perf_data) */
	uint32_t perf_type; /* TRAP_PERF: attr.type (si_perf_type, 5.14+) */
	uint32_t perf_flags;/* TRAP_PERF: si_perf_flags (TRAP_PERF_FLAG_ASYNC) */
	uint64_t addr;      /* TRAP_PERF: si_addr (breakpoint: the address) */
	/* Room for fields to come; the library zeroes it. */
	uint64_t reserved[2];
};

/* si_code of a SIGTRAP sent for attr.sigtrap (asm-generic/siginfo.h). */
#define SONDE_TRAP_PERF 6
/* si_perf_flags bit: the signal was sent asynchronously (from IRQ work). */
#define SONDE_TRAP_PERF_FLAG_ASYNC (1u << 31)

/**
 * @brief **sonde_overflow_info__decode()** reads a handler's @p si.
 * Async-signal-safe.
 * @return 1 when it is a perf signal (POLL_IN/POLL_HUP with si_fd, or
 * SIGTRAP/TRAP_PERF) with @p out filled, 0 when it is some other signal,
 * -EINVAL on NULL arguments.
 */
SONDE_API int sonde_overflow_info__decode(const siginfo_t *si,
					  struct sonde_overflow_info *out);

#ifdef __cplusplus
}
#endif
#endif /* SONDE_OVERFLOW_H */
