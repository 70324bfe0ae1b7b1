// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Self-monitoring without system calls: the count is offset + rdpmc(index
 * - 1) read under the mmap page's seqlock, and time_enabled/time_running
 * are brought up to date from the TSC (the seam's rdtsc) with
 * time_offset/time_mult/time_shift (perf_event_open(2), "Structure of the
 * first mmap page").
 * When the kernel does not allow it (cap_user_rdpmc clear, index 0 because
 * the event is not on the PMU right now), read(2) is used instead.
 */
#include <sys/mman.h>
#include <unistd.h>
#include "sonde/sys.h"
#include "count_priv.h"
#include "core_priv.h"

#define barrier() __asm__ volatile("" ::: "memory")

/* Give up on the fast path if the kernel keeps rewriting the page. */
#define MAX_SEQ_RETRIES 1000

int selfmon_read(const volatile struct sonde_perf_event_mmap_page *pc,
		 struct sonde_count *c)
{
	uint64_t (*rdpmc)(unsigned int) = sonde_sys_ops()->rdpmc;
	uint64_t (*rdtsc)(void) = sonde_sys_ops()->rdtsc;
	uint64_t ena, run, cyc = 0, count, time_offset = 0;
	uint32_t seq, idx, time_mult = 0;
	uint16_t time_shift = 0;
	bool have_time;
	int tries = 0;

	/* No reader in this build: cap_user_rdpmc promises nothing we can use. */
	if (!rdpmc)
		return 0;
	/*
	 * Linux 3.4 to 3.11 put cap_usr_time and cap_usr_rdpmc both in bit 0
	 * (cap_bit0); 3.12 split them and sets cap_bit0_is_deprecated. Without
	 * it no capability bit means what it says: read(2).
	 */
	if (!pc->cap_bit0_is_deprecated)
		return 0;
	do {
		seq = pc->lock;
		barrier();
		ena = pc->time_enabled;
		run = pc->time_running;
		/*
		 * time_enabled/running are as of the last schedule-in: always
		 * bring them up to date, also when they are equal (a counter
		 * that never multiplexed), or they read ~0.
		 */
		have_time = pc->cap_user_time;
		/* No TSC reader in this build: no trust in cap_user_time. */
		if (have_time && !rdtsc)
			return 0;
		if (have_time) {
			time_offset = pc->time_offset;
			time_mult = pc->time_mult;
			time_shift = pc->time_shift;
			cyc = rdtsc();
			if (pc->cap_user_time_short) {
				uint64_t base = pc->time_cycles;

				cyc = base + ((cyc - base) & pc->time_mask);
			}
		}
		idx = pc->index;
		if (!pc->cap_user_rdpmc || !idx)
			return 0;
		count = (uint64_t)pc->offset;
		{
			unsigned int width = pc->pmc_width;
			uint64_t pmc = rdpmc(idx - 1);

			/* Sign-extend the pmc_width-bit hardware value. */
			if (width && width < 64) {
				pmc <<= 64 - width;
				pmc = (uint64_t)((int64_t)pmc >> (64 - width));
			}
			count += pmc;
		}
		barrier();
	} while (pc->lock != seq && ++tries < MAX_SEQ_RETRIES);
	if (tries >= MAX_SEQ_RETRIES)
		return 0;

	if (have_time) {
		uint64_t quot = cyc >> time_shift;
		uint64_t rem = cyc & (((uint64_t)1 << time_shift) - 1);
		uint64_t delta = time_offset + quot * time_mult +
				 ((rem * time_mult) >> time_shift);

		ena += delta;
		/* index != 0: the counter is on the PMU, so it runs too. */
		run += delta;
	}
	c->val = count;
	c->ena = ena;
	c->run = run;
	c->id = 0;
	c->lost = 0;
	sonde_count__scale(c);
	return 1;
}

int sonde_evsel__mmap_self(struct sonde_evsel *e)
{
	int fd = sonde_evsel__fd(e, 0, 0);
	size_t len = (size_t)sysconf(_SC_PAGESIZE);
	void *p;

	if (fd < 0)
		return lib_err(EBADF);
	if (e->mmap_page)
		return 0;
	p = sonde_sys_ops()->mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return lib_err(errno);
	e->mmap_page = p;
	e->mmap_len = len;
	return 0;
}

int sonde_evsel__read_self(const struct sonde_evsel *e, struct sonde_count *c)
{
	int ret;

	if (!e || !c)
		return lib_err(EINVAL);
	if (e->mmap_page && selfmon_read(e->mmap_page, c) == 1)
		return 1;
	ret = sonde_evsel__read(e, 0, 0, c);
	return ret ? ret : 0;
}
