// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde record: the reader's scheduling. A ring fills in a millisecond or
 * two at high rates of large (DWARF) samples; when the reader wakes up
 * behind busy threads it waits for a whole time slice of theirs, and the
 * kernel drops samples meanwhile.
 */
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "record_cli.h"

/*
 * The shortest slice a fair task may ask for (Linux 6.12+, EEVDF): an
 * earlier deadline gets the woken reader onto the CPU sooner; its share of
 * the CPU stays what it was. Older kernels ignore the request.
 */
#define READER_SLICE_NS 100000

/* struct sched_attr of <linux/sched/types.h> (which clashes with
 * <sched.h>), as of Linux 4.13 (SCHED_ATTR_SIZE_VER1). */
struct reader_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
	uint32_t sched_util_min;
	uint32_t sched_util_max;
};

#ifndef SCHED_FLAG_RESET_ON_FORK
#define SCHED_FLAG_RESET_ON_FORK 0x01 /* <linux/sched.h>, as above */
#endif

void rec_short_slice(void)
{
#ifdef SYS_sched_setattr
	struct reader_sched_attr a;

	memset(&a, 0, sizeof(a));
	if (syscall(SYS_sched_getattr, 0, &a, sizeof(a), 0))
		return;
	/* Only a plain fair task, and only ever shorter (the kernel says
	 * the slice in sched_runtime): a real-time or idle policy stays, so
	 * does the nice value. */
	if (a.sched_policy != SCHED_OTHER ||
	    (a.sched_runtime && a.sched_runtime <= READER_SLICE_NS))
		return;
	a.size = sizeof(a);
	a.sched_flags &= SCHED_FLAG_RESET_ON_FORK;
	a.sched_runtime = READER_SLICE_NS;
	/* A refusal (seccomp, an old kernel) only costs the latency. */
	(void)syscall(SYS_sched_setattr, 0, &a, 0);
#endif
}
