/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * Opening one event, negotiated with the running kernel: attr-size
 * (E2BIG) and missing-feature (EINVAL) fallbacks, and errno values turned
 * into messages that say what to change.
 */
#ifndef SONDE_EVOPEN_H
#define SONDE_EVOPEN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "sonde/common.h"
#include "sonde/abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Optional attr features an older kernel may reject with EINVAL. sonde
 * gives them up newest kernel feature first (the 5.13 ones, added last
 * here to keep the numbers, go between READ_LOST and WEIGHT_STRUCT). Bit
 * n of sonde_event_open_missing() is feature n.
 */
enum sonde_attr_feature {
	SONDE_ATTR_FEAT_READ_LOST,         /* read_format LOST (6.0) */
	SONDE_ATTR_FEAT_WEIGHT_STRUCT,     /* sample WEIGHT_STRUCT -> WEIGHT (5.12) */
	SONDE_ATTR_FEAT_BUILD_ID,          /* build_id in MMAP2 (5.12) */
	SONDE_ATTR_FEAT_PAGE_SIZE,         /* sample DATA/CODE_PAGE_SIZE (5.11) */
	SONDE_ATTR_FEAT_TEXT_POKE,         /* text_poke records (5.9) */
	SONDE_ATTR_FEAT_CGROUP,            /* cgroup records (5.7) */
	SONDE_ATTR_FEAT_SAMPLE_CGROUP,     /* sample CGROUP (5.7) */
	SONDE_ATTR_FEAT_AUX_OUTPUT,        /* aux_output (5.4), required if set */
	SONDE_ATTR_FEAT_KSYMBOL,           /* ksymbol records (5.1) */
	SONDE_ATTR_FEAT_BPF_EVENT,         /* bpf_event records (5.1) */
	SONDE_ATTR_FEAT_NAMESPACES,        /* namespaces records (4.12) */
	SONDE_ATTR_FEAT_WRITE_BACKWARD,    /* write_backward (4.7), required if set */
	SONDE_ATTR_FEAT_CONTEXT_SWITCH,    /* context_switch records (4.3) */
	SONDE_ATTR_FEAT_CLOCKID,           /* use_clockid + clockid (4.1) */
	SONDE_ATTR_FEAT_COMM_EXEC,         /* comm_exec (3.16) */
	SONDE_ATTR_FEAT_CLOEXEC,           /* PERF_FLAG_FD_CLOEXEC (3.14) */
	SONDE_ATTR_FEAT_SAMPLE_IDENTIFIER, /* sample IDENTIFIER -> ID (3.12) */
	SONDE_ATTR_FEAT_MMAP2,             /* mmap2 -> mmap (3.12) */
	SONDE_ATTR_FEAT_EXCLUDE_GUEST,     /* exclude_guest / exclude_host (3.2) */
	SONDE_ATTR_FEAT_SAMPLE_ID_ALL,     /* sample_id_all (2.6.38) */
	SONDE_ATTR_FEAT_INHERIT_THREAD,    /* inherit_thread -> inherit (5.13) */
	SONDE_ATTR_FEAT_REMOVE_ON_EXEC,    /* remove_on_exec (5.13) */
	SONDE_ATTR_FEAT_SIGTRAP,           /* sigtrap (5.13), required if set */
	SONDE_ATTR_FEAT_MAX,
};

/**
 * @brief **sonde_event_open()** opens one event like perf_event_open(2)
 * (always with FD_CLOEXEC), adapting @p attr to the running kernel:
 *
 * - E2BIG: the kernel wrote the attr size it knows into attr->size; the
 *   open is retried with that size when every byte of ours beyond it is
 *   zero, otherwise it fails with -E2BIG (sonde_open_error_describe()
 *   names the field the kernel lacks).
 * - EINVAL: optional features (enum sonde_attr_feature) are given up one at
 *   a time, newest first, until the kernel accepts the attr; features that
 *   were dropped needlessly are put back. Features that change the meaning
 *   of the event (write_backward, aux_output, sigtrap) are not dropped: the
 *   open fails with -EOPNOTSUPP instead. Dropping inherit_thread (the
 *   event then follows child processes too) or remove_on_exec (it stays
 *   open across exec) is warned about once per process through the print
 *   callback (SONDE_WARN).
 *
 * What the kernel lacks is remembered for the life of the process (or until
 * sonde_sys_set_ops() installs another seam), so later opens go straight
 * to an attr it accepts. On success @p attr is updated to
 * what the kernel accepted (size and any dropped feature).
 * @return the new fd, or -errno.
 */
SONDE_API int sonde_event_open(struct sonde_perf_event_attr *attr, pid_t pid,
			       int cpu, int group_fd, unsigned long flags);

/**
 * @brief **sonde_event_open_missing()** tells what this process learnt the
 * kernel lacks: a mask of (1 << enum sonde_attr_feature).
 * @return the mask (0 until an open needed a fallback).
 */
SONDE_API uint64_t sonde_event_open_missing(void);

/**
 * @brief **sonde_event_open_kernel_attr_size()** is the attr size the kernel
 * reported through E2BIG.
 * @return the size, or 0 when no E2BIG was seen.
 */
SONDE_API uint32_t sonde_event_open_kernel_attr_size(void);

/**
 * @brief **sonde_attr_feature_name()** names a feature ("use_clockid", ...).
 * @return a static string, "unknown" when out of range.
 */
SONDE_API const char *sonde_attr_feature_name(enum sonde_attr_feature f);

/**
 * @brief **sonde_open_error_describe()** explains why perf_event_open(2)
 * failed with @p err (either sign) for @p attr on @p pid / @p cpu, and what
 * would make it work: the perf_event_paranoid value and the capability or
 * sysctl to change, `:u` when kernel counting is what is refused, seccomp in
 * containers, the RLIMIT_NOFILE value for EMFILE, the field a kernel lacks
 * for E2BIG/EINVAL, and so on. @p attr may be NULL.
 * @return the length the full message needs (like snprintf), or -EINVAL
 * when @p buf is NULL with a non-zero @p len.
 */
SONDE_API int sonde_open_error_describe(int err,
					const struct sonde_perf_event_attr *attr,
					pid_t pid, int cpu, char *buf,
					size_t len);

#ifdef __cplusplus
}
#endif
#endif /* SONDE_EVOPEN_H */
