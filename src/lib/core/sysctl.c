// SPDX-License-Identifier: LGPL-2.1-only
/* The kernel.perf_event_* sysctls, read from /proc/sys/kernel (or a test dir). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/sysctl.h"
#include "core_priv.h"

#define DEFAULT_DIR "/proc/sys/kernel"

static const char *const files[SONDE_SYSCTL_MAX] = {
	[SONDE_SYSCTL_PARANOID] = "perf_event_paranoid",
	[SONDE_SYSCTL_MAX_SAMPLE_RATE] = "perf_event_max_sample_rate",
	[SONDE_SYSCTL_MAX_STACK] = "perf_event_max_stack",
	[SONDE_SYSCTL_MAX_CONTEXTS_PER_STACK] = "perf_event_max_contexts_per_stack",
	[SONDE_SYSCTL_MLOCK_KB] = "perf_event_mlock_kb",
	[SONDE_SYSCTL_CPU_TIME_MAX_PERCENT] = "perf_cpu_time_max_percent",
};

static const char *const names[SONDE_SYSCTL_MAX] = {
	[SONDE_SYSCTL_PARANOID] = "kernel.perf_event_paranoid",
	[SONDE_SYSCTL_MAX_SAMPLE_RATE] = "kernel.perf_event_max_sample_rate",
	[SONDE_SYSCTL_MAX_STACK] = "kernel.perf_event_max_stack",
	[SONDE_SYSCTL_MAX_CONTEXTS_PER_STACK] =
		"kernel.perf_event_max_contexts_per_stack",
	[SONDE_SYSCTL_MLOCK_KB] = "kernel.perf_event_mlock_kb",
	[SONDE_SYSCTL_CPU_TIME_MAX_PERCENT] = "kernel.perf_cpu_time_max_percent",
};

static char dir[256] = DEFAULT_DIR;

int sonde_perf_sysctl__set_dir(const char *d)
{
	if (!d)
		d = DEFAULT_DIR;
	if (strlen(d) >= sizeof(dir))
		return lib_err(ENAMETOOLONG);
	strcpy(dir, d);
	return 0;
}

const char *sonde_perf_sysctl__name(enum sonde_perf_sysctl which)
{
	return (unsigned int)which < SONDE_SYSCTL_MAX ? names[which] : NULL;
}

int sonde_perf_sysctl__read(enum sonde_perf_sysctl which, long *val)
{
	char path[320], buf[32], *s, *end;
	long got, v;

	if ((unsigned int)which >= SONDE_SYSCTL_MAX || !val)
		return lib_err(EINVAL);
	snprintf(path, sizeof(path), "%s/%s", dir, files[which]);
	got = sysfs_read_at(AT_FDCWD, path, buf, sizeof(buf));
	if (got < 0)
		return lib_err((int)got == -EFBIG ? SONDE_ERR_FORMAT : (int)-got);
	s = sysfs_trim(buf);
	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end || errno)
		return lib_err(SONDE_ERR_FORMAT);
	*val = v;
	return 0;
}
