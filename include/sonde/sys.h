/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * The syscall seam. Every perf_event_open, ioctl, read, mmap, munmap, close,
 * prctl, rdpmc and rdtsc that libsonde performs goes through one table, so
 * tests (and curious users) can simulate kernels and PMUs the machine lacks.
 */
#ifndef SONDE_SYS_H
#define SONDE_SYS_H

#include <stdint.h>
#include <sys/types.h>
#include "sonde/common.h"
#include "sonde/abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Each hook follows the raw system call convention: -1 with errno set on
 * failure (mmap: MAP_FAILED). libsonde converts to -errno at its API edge.
 */
struct sonde_sys_ops {
	int (*perf_event_open)(struct sonde_perf_event_attr *attr, pid_t pid,
			       int cpu, int group_fd, unsigned long flags);
	int (*ioctl)(int fd, unsigned long request, unsigned long arg);
	ssize_t (*read)(int fd, void *buf, size_t count);
	void *(*mmap)(void *addr, size_t len, int prot, int flags, int fd,
		      off_t offset);
	int (*munmap)(void *addr, size_t len);
	int (*close)(int fd);
	int (*prctl)(int option, unsigned long arg2);
	/*
	 * Reads hardware counter @p counter (mmap page index - 1). NULL in
	 * the real table where this build has no reader for the architecture
	 * (all but x86 today): self-reads then use read(2) even when the
	 * mmap page sets cap_user_rdpmc.
	 */
	uint64_t (*rdpmc)(unsigned int counter);
	/*
	 * CLOCK_MONOTONIC now, in nanoseconds: the clock the /proc maps
	 * synthesizer's time limit (sonde_synth_opts) is measured on.
	 */
	uint64_t (*clock_ns)(void);
	/*
	 * Reads the time-stamp counter, the cycles an mmap page's time_offset,
	 * time_mult and time_shift convert (cap_user_time): rdtsc on x86. NULL
	 * in the real table where this build has no reader (all but x86):
	 * self-reads then use read(2) when the page asks for the time.
	 */
	uint64_t (*rdtsc)(void);
	/* Room for hooks to come: leave it NULL (the real calls). */
	void (*reserved[2])(void);
};

/**
 * @brief **sonde_sys_set_ops()** replaces the seam. NULL restores the real
 * system calls. Hooks left NULL in @p ops fall back to the real call. The
 * table is copied; @p ops need not outlive the call. Not thread-safe: set it
 * before opening events.
 * Each call, NULL included, also forgets what sonde_event_open() learnt
 * about the kernel (sonde_event_open_missing(),
 * sonde_event_open_kernel_attr_size()): a new table is a new kernel.
 */
SONDE_API void sonde_sys_set_ops(const struct sonde_sys_ops *ops);

/** @brief **sonde_sys_ops()** returns the table in force (never NULL; its
 * rdpmc and rdtsc may be NULL, see above).
 * The library's table or the one given to sonde_sys_set_ops(); not to be
 * freed.
 */
SONDE_API const struct sonde_sys_ops *sonde_sys_ops(void);

/** @brief raw **perf_event_open(2)** through the seam; -errno on failure. */
SONDE_API int sonde_perf_event_open(struct sonde_perf_event_attr *attr,
				    pid_t pid, int cpu, int group_fd,
				    unsigned long flags);

#ifdef __cplusplus
}
#endif
#endif /* SONDE_SYS_H */
