/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * A perf_event_open(2) of an older kernel era, for tests through the
 * syscall seam: it rejects attrs with a size, flag bits, sample_type or
 * read_format bits (or open flags) beyond what its era knew, the way those
 * kernels did. Accepted opens return a real fd on /dev/null.
 */
#ifndef SONDE_TEST_FAKE_KERNEL_H
#define SONDE_TEST_FAKE_KERNEL_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include "sonde/common.h"
#include "sonde/sys.h"

struct fake_era {
	const char *name;
	uint32_t attr_size;     /* sizeof(struct perf_event_attr) then */
	uint64_t flag_bits;     /* mask of the known bitfield bits */
	uint64_t sample_max;    /* PERF_SAMPLE_MAX then */
	uint64_t format_max;    /* PERF_FORMAT_MAX then */
	bool cloexec;           /* PERF_FLAG_FD_CLOEXEC known */
	bool strict_size;       /* E2BIG for any larger size (not just tail) */
};

/* From the headers in /work/shared/spec. */
static const struct fake_era era_2_6_32 = {
	"2.6.32", 64, (1ULL << 15) - 1, 1U << 11, 1U << 4, false, false,
};
static const struct fake_era era_3_7 = {
	"3.7", 96, (1ULL << 23) - 1, 1U << 14, 1U << 4, false, true,
};
static const struct fake_era era_4_14 = {
	"4.14", 112, (1ULL << 29) - 1, 1U << 20, 1U << 4, true, false,
};
/* The last kernel before inherit_thread, remove_on_exec and sigtrap. */
static const struct fake_era era_5_12 = {
	"5.12", 120, (1ULL << 35) - 1, 1U << 25, 1U << 4, true, false,
};

static struct {
	const struct fake_era *era;
	int calls;
	int accepted;
	struct sonde_perf_event_attr last;   /* last accepted attr */
	unsigned long last_flags;
	uint64_t bad_config;                 /* config always refused */
	int force_errno;                     /* fail every open with this */
} fk;

static uint64_t fake_flag_word(const struct sonde_perf_event_attr *a)
{
	uint64_t w;

	memcpy(&w, (const char *)a + 40, 8);
	return w;
}

static int fake_era_open(struct sonde_perf_event_attr *attr, pid_t pid,
			 int cpu, int group_fd, unsigned long flags)
{
	const struct fake_era *e = fk.era;
	const unsigned char *p = (const unsigned char *)attr;

	(void)pid; (void)cpu; (void)group_fd;
	fk.calls++;
	if (fk.force_errno) {
		errno = fk.force_errno;
		return -1;
	}
	if (attr->size > e->attr_size) {
		bool tail = false;

		for (uint32_t i = e->attr_size; i < attr->size; i++)
			tail |= p[i] != 0;
		if (tail || e->strict_size) {
			attr->size = e->attr_size;
			errno = E2BIG;
			return -1;
		}
	}
	if (attr->size < 64 ||
	    (fake_flag_word(attr) & ~e->flag_bits) ||
	    attr->sample_type >= e->sample_max ||
	    attr->read_format >= e->format_max ||
	    ((flags & SONDE_PERF_FLAG_FD_CLOEXEC) && !e->cloexec) ||
	    (fk.bad_config && attr->config == fk.bad_config)) {
		errno = EINVAL;
		return -1;
	}
	fk.accepted++;
	fk.last = *attr;
	fk.last_flags = flags;
	return open("/dev/null", O_RDONLY | O_CLOEXEC);
}

static void fake_kernel_install(const struct fake_era *e)
{
	struct sonde_sys_ops ops = { .perf_event_open = fake_era_open };

	memset(&fk, 0, sizeof(fk));
	fk.era = e;
	sonde_sys_set_ops(&ops);
}

/*
 * Per-case fixtures of a test whose cases install simulated kernels: each
 * case starts with the default print callback and leaves the real kernel
 * behind it, so that no case inherits what another taught.
 */
static inline int fake_kernel_case_setup(void **state)
{
	(void)state;
	sonde_set_print(NULL);
	return 0;
}

static inline int fake_kernel_case_teardown(void **state)
{
	(void)state;
	sonde_sys_set_ops(NULL);
	return 0;
}

#endif
