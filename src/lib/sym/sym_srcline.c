// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde_dso__srcline() and sonde_dso__inlines(): the public face of the
 * DWARF lookups (sym_dwarf.c) on an ELF DSO, its debug info opened on the
 * first question and kept with the DSO. libdw handles are not safe to
 * share between threads, so one DSO's lookups take its lock.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core_priv.h"
#include "sym_priv.h"

/* The debug info of @dso, opened once; NULL (and *@err) when unusable. */
static struct sym_dwarf *dso_dwarf(struct sonde_dso *dso, int *err)
{
	const char *file;
	int n;

	if (dso->dwarf_tried)
		return dso->dwarf;
	n = sonde_dso__load(dso);
	if (n < 0) {
		*err = n;
		return NULL;
	}
	dso->dwarf_tried = true;
	file = sonde_dso__symfile(dso);
	dso->dwarf = sym_dwarf_open(file ? file : dso->path, false);
	if (!dso->dwarf)
		*err = -ENOMEM;
	return dso->dwarf;
}

int sonde_dso__srcline(struct sonde_dso *dso, uint64_t vaddr, char *buf,
		       size_t size)
{
	struct sym_dwarf *dw;
	int err = -ENODATA;

	if (!dso || !buf || !size || dso->kind != SONDE_DSO_ELF)
		return -EINVAL;
	pthread_mutex_lock(&dso->dwarf_lock);
	dw = dso_dwarf(dso, &err);
	if (dw)
		err = sym_dwarf_srcline(dw, vaddr, buf, size);
	pthread_mutex_unlock(&dso->dwarf_lock);
	return err;
}

/* Names as perf shows them, each malloc'd for the caller. */
static const char *own_name(void *ctx, const char *raw, bool linkage)
{
	char *d = linkage ? sym_demangle_perf(raw) : NULL;

	(void)ctx;
	return d ? d : strdup(raw);
}

int sonde_dso__inlines(struct sonde_dso *dso, uint64_t vaddr, char **names,
		       int max)
{
	struct sym_dwarf *dw;
	int err = 0, n = 0;

	if (!dso || !names || max < 0 || dso->kind != SONDE_DSO_ELF)
		return -EINVAL;
	pthread_mutex_lock(&dso->dwarf_lock);
	dw = dso_dwarf(dso, &err);
	if (dw)
		n = sym_dwarf_inlines(dw, vaddr, (const char **)names, max,
				      own_name, NULL);
	pthread_mutex_unlock(&dso->dwarf_lock);
	return dw ? n : err == -ENODATA ? 0 : err;
}
