// SPDX-License-Identifier: LGPL-2.1-only
/* The real system calls behind the seam, and the table that can replace them. */
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "sonde/sys.h"
#include "internal.h"

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

static uint64_t real_rdpmc(unsigned int counter)
{
#if defined(__x86_64__) || defined(__i386__)
	uint32_t lo, hi;

	__asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
	return (uint64_t)hi << 32 | lo;
#else
	(void)counter;
	return 0;
#endif
}

/* One initialiser for both tables: clang wants constants, not a copy. */
#define REAL_OPS {                                      \
	.perf_event_open = real_perf_event_open,        \
	.ioctl = real_ioctl,                            \
	.read = read,                                   \
	.mmap = mmap,                                   \
	.munmap = munmap,                               \
	.close = close,                                 \
	.prctl = real_prctl,                            \
	.rdpmc = real_rdpmc,                            \
}

static const struct sonde_sys_ops real_ops = REAL_OPS;
static struct sonde_sys_ops cur_ops = REAL_OPS;

#define FILL(field) cur_ops.field = ops->field ? ops->field : real_ops.field

void sonde_sys_set_ops(const struct sonde_sys_ops *ops)
{
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
