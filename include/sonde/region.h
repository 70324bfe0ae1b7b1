/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * Measuring a region of code in the calling thread, for microbenchmarks:
 * open a set of events once, then bracket the code with begin/end as often
 * as needed and read the sums, scaled for multiplexing.
 *
 *	struct sonde_region *r = sonde_region__new("task-clock,page-faults",
 *						   NULL);
 *	for (...) {
 *		sonde_region__begin(r);
 *		work();
 *		sonde_region__end(r);
 *	}
 *	sonde_region__read(r, counts, 2);
 *	sonde_region__free(r);
 *
 * The events are opened as one group on the calling thread (any CPU), so
 * a begin or an end costs one read: rdpmc from user space when the kernel
 * allows it for every event of the group (hardware counters on x86-64 with
 * the mmap page's cap_user_rdpmc), else a single read(2) of the whole group
 * on the leader.
 */
#ifndef SONDE_REGION_H
#define SONDE_REGION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sonde/common.h"
#include "sonde/abi.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sonde_region;

struct sonde_region_opts {
	size_t sz;
	/* Never use rdpmc, always the group read(2) (default: use it). */
	bool no_rdpmc;
	/*
	 * Open each event on its own instead of as one group: events that
	 * cannot share the PMU still count (multiplexed), at the cost of one
	 * read(2) per event.
	 */
	bool no_group;
	size_t : 0;
};
#define sonde_region_opts__last_field no_group

/* The sums over every begin/end pair of one event. */
struct sonde_region_count {
	double value;  /* counted, scaled by ena/run when multiplexed */
	uint64_t raw;  /* counted, unscaled */
	uint64_t ena;  /* nanoseconds enabled inside the regions */
	uint64_t run;  /* nanoseconds running inside the regions */
	uint64_t regions; /* completed begin/end pairs */
	/* Room for fields to come; the library zeroes it. */
	uint64_t reserved[2];
};

/**
 * @brief **sonde_region__new()** opens the events of @p spec (perf's
 * event-spec syntax: "task-clock,page-faults", "{cycles,instructions}:u")
 * on the calling thread, counting from now on.
 * @param opts may be NULL.
 * @return the region (free with sonde_region__free()), or NULL with errno:
 * SONDE_ERR_PARSE for a bad spec, or the errno perf_event_open(2) gave
 * for the first event that could not be opened (the reason is logged).
 */
SONDE_API struct sonde_region *
sonde_region__new(const char *spec, const struct sonde_region_opts *opts);

/**
 * @brief **sonde_region__new_attrs()** is sonde_region__new() for @p n
 * ready-made attrs (copied); @p names may be NULL or hold NULLs.
 * @return the region (free with sonde_region__free()), or NULL with errno.
 */
SONDE_API struct sonde_region *
sonde_region__new_attrs(const struct sonde_perf_event_attr *attrs,
			const char *const *names, size_t n,
			const struct sonde_region_opts *opts);

/** @brief **sonde_region__free()** closes the events; NULL is fine. */
SONDE_API void sonde_region__free(struct sonde_region *r);

/** @brief **sonde_region__nr()** @return the number of events. */
SONDE_API size_t sonde_region__nr(const struct sonde_region *r);

/**
 * @brief **sonde_region__name()** @return event @p i's name, or NULL. Owned
 * by @p r, valid until sonde_region__free().
 */
SONDE_API const char *sonde_region__name(const struct sonde_region *r,
					 size_t i);

/**
 * @brief **sonde_region__uses_rdpmc()** tells whether the last begin/end
 * read the counters with rdpmc (no system call).
 * @return true or false.
 */
SONDE_API bool sonde_region__uses_rdpmc(const struct sonde_region *r);

/**
 * @brief **sonde_region__begin()** marks the start of a region.
 * @return 0, or -errno when the counters cannot be read.
 */
SONDE_API int sonde_region__begin(struct sonde_region *r);

/**
 * @brief **sonde_region__end()** marks the end of the region begun last
 * and adds what it counted to the sums.
 * @return 0, -EINVAL without a begin, or -errno of the read.
 */
SONDE_API int sonde_region__end(struct sonde_region *r);

/**
 * @brief **sonde_region__read()** copies the sums of the first @p n events
 * into @p out.
 * @return the number of events copied (at most @p n), or -EINVAL.
 */
SONDE_API int sonde_region__read(const struct sonde_region *r,
				 struct sonde_region_count *out, size_t n);

/** @brief **sonde_region__reset()** zeroes the sums. @return 0 or -EINVAL. */
SONDE_API int sonde_region__reset(struct sonde_region *r);

#ifdef __cplusplus
}
#endif
#endif /* SONDE_REGION_H */
