/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * Counter values: what read(2) on a counting fd returns (per read_format),
 * decoded into one value struct, and scaled for multiplexing.
 */
#ifndef SONDE_COUNTS_H
#define SONDE_COUNTS_H

#include <stddef.h>
#include <stdint.h>
#include "sonde/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* sonde_count.flags */
#define SONDE_COUNT_SCALED (1u << 0)      /* multiplexed: scaled = val*ena/run */
#define SONDE_COUNT_NOT_COUNTED (1u << 1) /* never ran on the PMU (run == 0) */

/* One counter reading. Fields the read_format lacked stay 0. */
struct sonde_count {
	uint64_t val;    /* raw counter value */
	uint64_t ena;    /* TOTAL_TIME_ENABLED, ns */
	uint64_t run;    /* TOTAL_TIME_RUNNING, ns */
	uint64_t id;     /* FORMAT_ID: the kernel's event id */
	uint64_t lost;   /* FORMAT_LOST: lost samples */
	uint64_t scaled; /* val, extrapolated to ena when run < ena */
	uint32_t flags;  /* SONDE_COUNT_* */
	uint32_t __reserved;
};

/**
 * @brief **sonde_count__decode()** decodes a read(2) buffer of @p len bytes
 * laid out by @p read_format into @p out (up to @p n entries: one, or one
 * per group member with PERF_FORMAT_GROUP, leader first; the group's
 * ena/run go into every entry). Each entry is scaled
 * (sonde_count__scale()).
 * @return the number of entries in the buffer (may exceed @p n), or
 * -SONDE_ERR_FORMAT when @p len is too short for what it claims.
 */
SONDE_API int sonde_count__decode(const void *buf, size_t len,
				  uint64_t read_format, struct sonde_count *out,
				  size_t n);

/**
 * @brief **sonde_count__scale()** fills @p c->scaled and @p c->flags from
 * val, ena and run: val * ena / run when the counter ran only part of the
 * time it was enabled (SONDE_COUNT_SCALED), 0 and SONDE_COUNT_NOT_COUNTED
 * when it was enabled but never ran, val otherwise.
 */
SONDE_API void sonde_count__scale(struct sonde_count *c);

/**
 * @brief **sonde_count__add()** adds @p c's val, ena, run and lost into
 * @p sum (aggregation across CPUs or threads) and rescales @p sum.
 */
SONDE_API void sonde_count__add(struct sonde_count *sum,
				const struct sonde_count *c);

#ifdef __cplusplus
}
#endif
#endif /* SONDE_COUNTS_H */
