// SPDX-License-Identifier: LGPL-2.1-only
/* Probing an event by opening it once: what `sonde list` marks with. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "sonde/evparse.h"
#include "sonde/sys.h"
#include "core_priv.h"

int sonde_perf_event_attr__probe(const struct sonde_perf_event_attr *spec)
{
	struct sonde_perf_event_attr a;
	int fd, fd2;

	if (!spec)
		return lib_err(EINVAL);
	a = *spec;
	a.size = sizeof(a);
	a.disabled = 1;
	/* Only counting is asked: no sampling, no guest filtering. */
	a.exclude_guest = 0;
	a.sample_period = 0;
	a.freq = 0;
	if (a.type != SONDE_PERF_TYPE_TRACEPOINT) {
		a.exclude_kernel = 1;
		a.exclude_hv = 1;
	}
	fd = sonde_perf_event_open(&a, 0, -1, -1, 0);
	if (a.type != SONDE_PERF_TYPE_TRACEPOINT &&
	    (fd == -EINVAL || fd == -EOPNOTSUPP || fd == -EACCES)) {
		a.exclude_kernel = 0;
		a.exclude_hv = 0;
		fd2 = sonde_perf_event_open(&a, 0, -1, -1, 0);
		/* Keep a permission error over the retry's EINVAL etc. */
		if (fd2 >= 0 || fd == -EINVAL || fd == -EOPNOTSUPP)
			fd = fd2;
	}
	if (fd < 0)
		return lib_err(fd);
	sonde_sys_ops()->close(fd);
	return 0;
}

const char *sonde_perf_event_attr__probe_reason(int err, char *buf, size_t size)
{
	if (err < 0)
		err = -err;
	switch (err) {
	case ENOENT:
		return "no such event on this machine";
	case EOPNOTSUPP:
		return "the PMU does not support it here";
	case EACCES:
	case EPERM:
		if (geteuid() == 0)
			return "permission denied even to root (the kernel "
			       "keeps this event for itself)";
		return "permission denied (kernel.perf_event_paranoid; "
		       "needs CAP_PERFMON)";
	case EINVAL:
		return "the kernel refused the attr (invalid here)";
	case ENODEV:
		return "no such device (PMU absent)";
	default:
		snprintf(buf, size, "%s", strerror(err));
		return buf;
	}
}
