/* SPDX-License-Identifier: LGPL-2.1-only */
/* Does an event open here? (sonde list's marks; private to the project.) */
#ifndef SONDE_EVPROBE_H
#define SONDE_EVPROBE_H

#include <stddef.h>
#include "sonde/abi.h"

/*
 * Opens a copy of @attr on the calling process, any CPU, disabled, through
 * the syscall seam, and closes it at once. User space only first (allowed
 * at perf_event_paranoid 2); PMUs that refuse any exclusion (msr, uncore)
 * get a second try without. Returns 0 or -errno of the first failure that
 * says most.
 */
int ev_probe_attr(const struct sonde_perf_event_attr *attr);

/* Human reason for a probe failure (-errno or errno). */
const char *ev_probe_reason(int err, char *buf, size_t size);

#endif /* SONDE_EVPROBE_H */
