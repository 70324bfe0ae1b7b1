// SPDX-License-Identifier: LGPL-2.1-only
/* The real system calls behind the seam, and the table that can replace them. */
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "sonde/sys.h"
#include "core_priv.h"

static int real_perf_event_open(struct sonde_perf_event_attr *attr, pid_t pid,
				int cpu, int group_fd, unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

static int real_ioctl(int fd, unsigned long request, unsigned long arg)
{
	return ioctl(fd, request, arg);
}

static int real_prctl(int option, unsigned long arg2)
{
	return prctl(option, arg2, 0, 0, 0);
}

static uint64_t real_clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * Only where this build has a real reader: elsewhere the table's rdpmc and
 * rdtsc are NULL and self-reads use read(2), whatever cap_user_rdpmc and
 * cap_user_time say (a stub returning 0 would give silently wrong counts,
 * as on arm64 with user access enabled).
 */
#if defined(__x86_64__) || defined(__i386__)
static uint64_t real_rdpmc(unsigned int counter)
{
	uint32_t lo, hi;

	__asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
	return (uint64_t)hi << 32 | lo;
}
#define REAL_RDPMC real_rdpmc

static uint64_t real_rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}
#define REAL_RDTSC real_rdtsc
#else
#define REAL_RDPMC NULL
#define REAL_RDTSC NULL
#endif

/* One initialiser for both tables: clang wants constants, not a copy. */
#define REAL_OPS {                                      \
	.perf_event_open = real_perf_event_open,        \
	.ioctl = real_ioctl,                            \
	.read = read,                                   \
	.mmap = mmap,                                   \
	.munmap = munmap,                               \
	.close = close,                                 \
	.prctl = real_prctl,                            \
	.rdpmc = REAL_RDPMC,                            \
	.clock_ns = real_clock_ns,                      \
	.rdtsc = REAL_RDTSC,                            \
}

static struct sonde_sys_ops real_ops = REAL_OPS;
static struct sonde_sys_ops cur_ops = REAL_OPS;
/* One more per table installed: what upper layers learnt is of an older one. */
static unsigned ops_generation;

#define FILL(field) cur_ops.field = ops->field ? ops->field : real_ops.field

void sonde_sys_set_ops(const struct sonde_sys_ops *ops)
{
	__atomic_add_fetch(&ops_generation, 1, __ATOMIC_RELAXED);
	if (!ops) {
		cur_ops = real_ops;
		return;
	}
	FILL(perf_event_open);
	FILL(ioctl);
	FILL(read);
	FILL(mmap);
	FILL(munmap);
	FILL(close);
	FILL(prctl);
	FILL(rdpmc);
	FILL(clock_ns);
	FILL(rdtsc);
}

void sys_set_arch_rdpmc(uint64_t (*rdpmc)(unsigned int counter))
{
	bool was_real = cur_ops.rdpmc == real_ops.rdpmc;

	real_ops.rdpmc = rdpmc;
	if (was_real)
		cur_ops.rdpmc = rdpmc;
}

void sys_restore_arch_rdpmc(void)
{
	sys_set_arch_rdpmc(REAL_RDPMC);
}

unsigned sys_ops_generation(void)
{
	return __atomic_load_n(&ops_generation, __ATOMIC_RELAXED);
}

const struct sonde_sys_ops *sonde_sys_ops(void)
{
	return &cur_ops;
}

int sonde_perf_event_open(struct sonde_perf_event_attr *attr, pid_t pid,
			  int cpu, int group_fd, unsigned long flags)
{
	int fd = cur_ops.perf_event_open(attr, pid, cpu, group_fd,
					 flags | SONDE_PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? lib_err(errno) : fd;
}
