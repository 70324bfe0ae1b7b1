/* SPDX-License-Identifier: LGPL-2.1-only */
/* Event names as perf shows them after a fallback. */
#ifndef SONDE_CLI_EVNAME_H
#define SONDE_CLI_EVNAME_H

/*
 * @name with the u modifier added, as perf labels what the paranoid
 * fallback made user-only: "task-clock:u", "cycles:pu". Caller frees;
 * NULL when out of memory.
 */
char *evname_with_u(const char *name);

#endif
