/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * Probes for kernel facilities that open on some machines but do not work
 * there, so real-kernel tests skip with the reason instead of failing.
 * Everything goes through the syscall seam, so the probes are tested on
 * fake kernels too.
 */
#ifndef SONDE_TEST_KFACILITY_H
#define SONDE_TEST_KFACILITY_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "sonde/sonde.h"
#include "sonde/sys.h"

static volatile uint64_t kfacility_bp_var;

/*
 * Do hardware breakpoints fire? Some VMs (hypervisors that do not pass the
 * debug registers through) open a breakpoint event but never count a hit,
 * as perf's own does there. Counts writes to a variable while a write
 * breakpoint watches it.
 * @return 1 if it fired; 0 if it opened but counted nothing; -errno if it
 * does not open. Unless 1, @p why says which (for a SKIP line).
 */
static int kfacility_breakpoints_fire(char *why, size_t len)
{
	struct sonde_perf_event_attr attr = { .size = sizeof(attr) };
	const struct sonde_sys_ops *sys = sonde_sys_ops();
	uint64_t count = 0;
	char err[128];
	int fd;

	attr.type = SONDE_PERF_TYPE_BREAKPOINT;
	attr.bp_type = SONDE_HW_BREAKPOINT_W;
	attr.bp_addr = (uint64_t)(uintptr_t)&kfacility_bp_var;
	attr.bp_len = SONDE_HW_BREAKPOINT_LEN_8;
	attr.sample_period = 1;
	attr.exclude_kernel = 1;
	attr.disabled = 1;
	fd = sonde_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0) {
		snprintf(why, len, "hardware breakpoint does not open: %s",
			 sonde_strerror(fd, err, sizeof(err)));
		return fd;
	}
	sys->ioctl(fd, SONDE_PERF_EVENT_IOC_ENABLE, 0);
	for (int i = 1; i <= 3; i++)
		kfacility_bp_var = (uint64_t)i;
	sys->ioctl(fd, SONDE_PERF_EVENT_IOC_DISABLE, 0);
	if (sys->read(fd, &count, sizeof(count)) != (ssize_t)sizeof(count))
		count = 0;
	sys->close(fd);
	if (count == 0) {
		snprintf(why, len, "hardware breakpoints open but never fire on this machine "
			 "(3 writes to a watched variable counted 0; the hypervisor "
			 "does not pass the debug registers through)");
		return 0;
	}
	return 1;
}

#endif
