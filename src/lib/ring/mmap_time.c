// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Perf time from the time-stamp counter and back, with the first mmap
 * page's time_zero / time_mult / time_shift (and time_cycles / time_mask
 * where the counter is narrower: cap_user_time_short), read under the
 * page's seqlock, as perf_event_open(2) gives the formulas. This is how a
 * program relates its own rdtsc readings to the TIME of samples.
 */
#include <string.h>
#include "sonde/ring.h"
#include "core_priv.h"

#define barrier() __asm__ volatile("" ::: "memory")
#define MAX_SEQ_RETRIES 1000

struct time_conv {
	uint64_t zero, cycles, mask;
	uint32_t mult;
	uint16_t shift;
	bool short_cyc;
};

static int load(const volatile struct sonde_perf_event_mmap_page *pc,
		struct time_conv *t)
{
	uint32_t seq;
	int tries = 0;

	if (!pc)
		return -EINVAL;
	do {
		seq = pc->lock;
		barrier();
		if (!pc->cap_user_time_zero)
			return -EOPNOTSUPP;
		t->zero = pc->time_zero;
		t->mult = pc->time_mult;
		t->shift = pc->time_shift;
		t->short_cyc = pc->cap_user_time_short;
		t->cycles = pc->time_cycles;
		t->mask = pc->time_mask;
		barrier();
	} while (pc->lock != seq && ++tries < MAX_SEQ_RETRIES);
	if (tries >= MAX_SEQ_RETRIES)
		return -EAGAIN;
	if (!t->mult || t->shift > 63)
		return -EOPNOTSUPP;
	return 0;
}

int sonde_mmap_page__tsc_to_time(const struct sonde_perf_event_mmap_page *pc,
				 uint64_t cyc, uint64_t *time)
{
	struct time_conv t;
	uint64_t quot, rem;
	int err;

	if (!time)
		return lib_err(EINVAL);
	err = load(pc, &t);
	if (err)
		return lib_err(err);
	if (t.short_cyc)
		cyc = t.cycles + ((cyc - t.cycles) & t.mask);
	quot = cyc >> t.shift;
	rem = cyc & (((uint64_t)1 << t.shift) - 1);
	*time = t.zero + quot * t.mult + ((rem * t.mult) >> t.shift);
	return 0;
}

int sonde_mmap_page__time_to_tsc(const struct sonde_perf_event_mmap_page *pc,
				 uint64_t time, uint64_t *cyc)
{
	struct time_conv t;
	uint64_t delta, quot, rem;
	int err;

	if (!cyc)
		return lib_err(EINVAL);
	err = load(pc, &t);
	if (err)
		return lib_err(err);
	delta = time - t.zero;
	quot = delta / t.mult;
	rem = delta % t.mult;
	*cyc = (quot << t.shift) + (rem << t.shift) / t.mult;
	return 0;
}

int sonde_mmap_page__time_conv(const struct sonde_perf_event_mmap_page *pc,
			       struct sonde_time_conv *tc)
{
	struct time_conv t;
	int err;

	if (!tc)
		return lib_err(EINVAL);
	err = load(pc, &t);
	if (err)
		return lib_err(err);
	memset(tc, 0, sizeof(*tc));
	tc->time_zero = t.zero;
	tc->time_cycles = t.cycles;
	tc->time_mask = t.mask;
	tc->time_mult = t.mult;
	tc->time_shift = t.shift;
	tc->cap_user_time_short = t.short_cyc;
	return 0;
}
