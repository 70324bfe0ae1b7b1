/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * Call stacks: DWARF unwinding of PERF_SAMPLE_REGS_USER +
 * PERF_SAMPLE_STACK_USER samples (through elfutils libdwfl), and a walker
 * for kernel-recorded PERF_SAMPLE_CALLCHAIN arrays with their
 * PERF_CONTEXT_* markers.
 *
 * One struct sonde_unwinder stands for one address space (process). Feed it
 * the process's executable mappings (PERF_RECORD_MMAP2 records, or
 * /proc/PID/maps for a live process); every ELF file is opened and reported
 * to libdwfl once, so its CFI is parsed once and reused by every sample.
 * The CFI row at each distinct PC is further boiled down to a small rule,
 * once per run, so that most frames cost a table lookup and a load from
 * the stack copy; samples with frames that need more (DWARF expressions as
 * in PLT entries, signal frames) are unwound by libdwfl, with the same
 * result. SONDE_UNWIND=slow in the environment sends every
 * sample through libdwfl (a cross-check).
 * An unwinder is not thread-safe: use one per thread or lock around it
 * (different unwinders may run in parallel). An image mapped over older
 * ones (dlclose then dlopen, exec) retires them: the unwinder then rebuilds
 * its libdwfl state once, before the next unwind.
 */
#ifndef SONDE_UNWIND_H
#define SONDE_UNWIND_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "sonde/common.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sonde_unwinder;

/* The user-space part of one sample, as the kernel recorded it. */
struct sonde_unwind_sample {
	pid_t tid;
	uint64_t abi;		/* SONDE_PERF_SAMPLE_REGS_ABI_* */
	uint64_t regs_mask;	/* attr.sample_regs_user */
	const uint64_t *regs;	/* one value per set mask bit, in bit order */
	uint32_t nr_regs;	/* number of values in regs */
	const void *stack;	/* STACK_USER data, copied from the sample SP */
	uint64_t stack_size;	/* dyn_size: valid bytes in stack */
	/* Room for fields to come: leave it zero. */
	uint64_t reserved[2];
};

struct sonde_unwinder_opts {
	size_t sz;
	/* Prefix for every mapped path (a sysroot); NULL = none. */
	const char *root_dir;
	size_t : 0;
};
#define sonde_unwinder_opts__last_field root_dir

/**
 * @brief **sonde_unwinder__new()** creates an unwinder for the address
 * space of process @p pid (only used as libdwfl's process id).
 * @param opts NULL or sonde_unwinder_opts.
 * @return the unwinder (free with sonde_unwinder__free()), or NULL + errno.
 */
SONDE_API struct sonde_unwinder *
sonde_unwinder__new(pid_t pid, const struct sonde_unwinder_opts *opts);

/** @brief **sonde_unwinder__free()** releases everything. NULL ok. */
SONDE_API void sonde_unwinder__free(struct sonde_unwinder *uw);

/**
 * @brief **sonde_unwinder__add_map()** records one mapping of @p path at
 * [@p start, @p start + @p len) from file offset @p pgoff. "[vdso]" uses
 * the calling process's vdso (same kernel assumed, as perf does); other
 * paths that are not files ("//anon", "[heap]", "") are ignored. An image
 * is reported to libdwfl once, on its first mapping; further segments of it
 * cost a lookup; non-ELF files are remembered and skipped.
 * @return 0, or -errno (-ENOENT unreadable, -SONDE_ERR_FORMAT not ELF:
 * the mapping is skipped, frames in it end the unwind).
 */
SONDE_API int sonde_unwinder__add_map(struct sonde_unwinder *uw,
				      uint64_t start, uint64_t len,
				      uint64_t pgoff, const char *path);

/**
 * @brief **sonde_unwinder__add_proc_maps()** adds every executable file
 * mapping listed in /proc/@p pid/maps (for live processes and tests).
 * @return the number of mappings added, or -errno.
 */
SONDE_API int sonde_unwinder__add_proc_maps(struct sonde_unwinder *uw,
					    pid_t pid);

/**
 * @brief **sonde_unwinder__unwind()** unwinds @p sample through the DWARF
 * CFI (.eh_frame/.debug_frame) of the reported modules. Memory reads are
 * served from the sampled stack copy, and from the mapped ELF files for
 * addresses outside it. Only x86-64 64-bit samples are supported.
 * @param ips receives up to @p max addresses, innermost first: the sampled
 * IP, then for each caller its return address minus one (so that it lies
 * inside the call instruction, as perf does).
 * @return the number of addresses stored (>= 1 when the IP is known; the
 * unwind stops early, without error, where CFI or stack run out), or
 * -errno (-EINVAL bad sample, -EOPNOTSUPP 32-bit ABI, -ENODATA no user
 * registers in the sample).
 */
SONDE_API int sonde_unwinder__unwind(struct sonde_unwinder *uw,
				     const struct sonde_unwind_sample *sample,
				     uint64_t *ips, size_t max);

/* Where one callchain entry belongs. */
enum sonde_callchain_ctx {
	SONDE_CALLCHAIN_UNKNOWN = 0,
	SONDE_CALLCHAIN_KERNEL = 1,
	SONDE_CALLCHAIN_USER = 2,
	SONDE_CALLCHAIN_HV = 3,
	SONDE_CALLCHAIN_GUEST_KERNEL = 4,
	SONDE_CALLCHAIN_GUEST_USER = 5,
};

/*
 * Iterator over a PERF_SAMPLE_CALLCHAIN array. A value struct: put it on
 * the stack, sonde_callchain_iter__init() it, then call
 * sonde_callchain_iter__next() until it returns false.
 */
struct sonde_callchain_iter {
	const uint64_t *chain;
	size_t nr;
	size_t pos;
	int ctx;		/* context of the last marker seen */
	/* Room for fields to come; sonde_callchain_iter__init() zeroes it. */
	uint64_t reserved[2];
};

/** @brief **sonde_callchain_iter__init()** starts walking @p chain. */
SONDE_API void sonde_callchain_iter__init(struct sonde_callchain_iter *it,
					  const uint64_t *chain, size_t nr);

/**
 * @brief **sonde_callchain_iter__next()** returns the next address of the
 * chain, skipping the PERF_CONTEXT_* markers.
 * @param ctx if not NULL, receives the enum sonde_callchain_ctx of the
 * entry: the last marker seen, or, before any marker, a guess from the
 * address (x86-64 kernel addresses have the top bit set).
 * @return true with *@p ip set, or false at the end.
 */
SONDE_API bool sonde_callchain_iter__next(struct sonde_callchain_iter *it,
					  uint64_t *ip, int *ctx);

/**
 * @brief **sonde_callchain__split()** copies the kernel entries of
 * @p chain into @p kernel (at most @p kmax) and the user entries into
 * @p user (at most @p umax), markers dropped, order kept (innermost
 * first). Hypervisor and guest entries are dropped. Either array may be
 * NULL with its max 0.
 * @return 0; *@p nr_kernel and *@p nr_user receive the counts stored.
 */
SONDE_API int sonde_callchain__split(const uint64_t *chain, size_t nr,
				     uint64_t *kernel, size_t kmax,
				     size_t *nr_kernel, uint64_t *user,
				     size_t umax, size_t *nr_user);

#ifdef __cplusplus
}
#endif
#endif /* SONDE_UNWIND_H */
