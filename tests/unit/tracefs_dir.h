/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * A tracefs of a test's own under a scratch directory, for the tests of
 * tracepoint formats read from it (test_perfdata_tp_format.c,
 * test_profile_fields.c; both build against libsonde.so too, so public
 * API and libc only): format files written where tracefs keeps them, the
 * directory removed with SONDE_TRACEFS_ROOT, and a tracepoint sampling attr.
 */
#ifndef SONDE_TEST_TRACEFS_DIR_H
#define SONDE_TEST_TRACEFS_DIR_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "sonde/sonde.h"

/*
 * @root/events/@sys/@name/format holding @len bytes of @text, the
 * directories made on the way (the event's own must be new): 0, or -1.
 */
static inline int tracefs_format_write(const char *root, const char *sys,
				       const char *name, const char *text,
				       size_t len)
{
	char d[1024];
	FILE *f;
	size_t n;

	mkdir(root, 0700);
	if (snprintf(d, sizeof(d), "%s/events", root) >= (int)sizeof(d))
		return -1;
	mkdir(d, 0700);
	if (snprintf(d, sizeof(d), "%s/events/%s", root, sys) >= (int)sizeof(d))
		return -1;
	mkdir(d, 0700);
	if (snprintf(d, sizeof(d), "%s/events/%s/%s", root, sys, name) >= (int)sizeof(d))
		return -1;
	if (mkdir(d, 0700))
		return -1;
	if (snprintf(d + strlen(d), sizeof(d) - strlen(d), "/format") >= (int)(sizeof(d) - strlen(d)))
		return -1;
	f = fopen(d, "w");
	if (!f)
		return -1;
	n = fwrite(text, 1, len, f);
	fclose(f);
	return n == len ? 0 : -1;
}

/* Group teardown: SONDE_TRACEFS_ROOT unset, @dir removed: 0, or -1. */
static inline int tracefs_dir_remove(const char *dir)
{
	char cmd[400];

	unsetenv("SONDE_TRACEFS_ROOT");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* A tracepoint of id @id, sampled every time with @sample_type. */
static inline void tp_attr_init(struct sonde_perf_event_attr *a, uint64_t id,
				uint64_t sample_type)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = SONDE_PERF_TYPE_TRACEPOINT;
	a->config = id;
	a->sample_type = sample_type;
	a->sample_period = 1;
}

#endif
