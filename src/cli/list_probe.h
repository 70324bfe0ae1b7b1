/* SPDX-License-Identifier: LGPL-2.1-only */
/* sonde list 'uprobe:PATH[:GLOB]': the probe points of a binary. */
#ifndef SONDE_CLI_LIST_PROBE_H
#define SONDE_CLI_LIST_PROBE_H

#include <stdbool.h>

/* Is @arg a "uprobe:"/"uretprobe:" listing request? */
bool list_probe_spec(const char *arg);
/* Prints one -e spec per matching function; 0, or 1 when none. */
int list_probes(const char *arg);

#endif
