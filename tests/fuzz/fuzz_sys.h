/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * The syscall seam of the fuzz targets that map a ring: each brings its
 * own mmap (static arrays stand for the mapping), so unmapping has nothing
 * to undo, and with no kernel behind the fd every ioctl succeeds.
 */
#ifndef SONDE_FUZZ_SYS_H
#define SONDE_FUZZ_SYS_H

#include <stddef.h>

static inline int fuzz_munmap(void *addr, size_t len)
{
	(void)addr; (void)len;
	return 0;
}

static inline int fuzz_ioctl(int fd, unsigned long req, unsigned long arg)
{
	(void)fd; (void)req; (void)arg;
	return 0;
}

#endif /* SONDE_FUZZ_SYS_H */
