// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The /proc/PID/maps parser: any text gives mappings that hold together
 * or skipped lines, never a crash, a read past a line or a hang.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core_priv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int check(const struct proc_map *m, void *ctx)
{
	size_t *n = ctx;

	if (m->end < m->start || strchr(m->name, '\n') || strlen(m->perms) != 4 ||
	    (m->prot & ~7u) || strlen(m->name) >= PROC_MAPS_LINE_MAX)
		abort();
	(*n)++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f;
	size_t n = 0, lines = 0;

	sonde_set_print(NULL);
	if (!size)
		return 0;
	f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	if (proc_maps_read(f, check, &n))
		abort(); /* check() never stops it */
	fclose(f);
	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';
	/* At most one mapping per line (the last may lack its newline). */
	if (n > lines + 1)
		abort();
	return 0;
}
