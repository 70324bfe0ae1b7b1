// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Source lines and inline chains from an object's debug info: the one
 * DWARF lookup under the report model (profile_dso.c) and sonde_dso. Opening
 * decompresses the debug sections (libc's take tens of ms), so it may run
 * on a thread while the caller does other work.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core_priv.h"
#include "sym_priv.h"

struct sym_dwarf {
	char *path;
	Dwarf *dw; /* NULL: no usable debug info */
	int fd;
	bool opening; /* dw/fd being set by thread */
	pthread_t thread;
};

/* Touches only @d->dw and @d->fd, so that it can run on a thread. */
static void dwarf_load(struct sym_dwarf *d)
{
	d->fd = open(d->path, O_RDONLY | O_CLOEXEC);
	if (d->fd < 0)
		return;
	d->dw = dwarf_begin(d->fd, DWARF_C_READ);
	if (!d->dw) {
		close(d->fd);
		d->fd = -1;
	}
}

static void *dwarf_thread(void *arg)
{
	dwarf_load(arg);
	return NULL;
}

struct sym_dwarf *sym_dwarf_open(const char *path, bool background)
{
	struct sym_dwarf *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->fd = -1;
	d->path = strdup(path);
	if (!d->path) {
		free(d);
		return NULL;
	}
	if (background && !pthread_create(&d->thread, NULL, dwarf_thread, d))
		d->opening = true;
	else
		dwarf_load(d);
	return d;
}

/* The handle, once the opening thread (if any) is done. */
static Dwarf *dwarf_of(struct sym_dwarf *d)
{
	if (d->opening) {
		pthread_join(d->thread, NULL);
		d->opening = false;
	}
	return d->dw;
}

void sym_dwarf_close(struct sym_dwarf *d)
{
	if (!d)
		return;
	if (dwarf_of(d)) {
		dwarf_end(d->dw);
		close(d->fd);
	}
	free(d->path);
	free(d);
}

int sym_dwarf_srcline(struct sym_dwarf *d, uint64_t va, char *buf, size_t size)
{
	Dwarf *dw = dwarf_of(d);
	Dwarf_Die cu;
	Dwarf_Line *line;
	const char *file, *base;
	int lineno = 0, n;

	if (!dw)
		return -ENODATA;
	if (!dwarf_addrdie(dw, va, &cu) || !(line = dwarf_getsrc_die(&cu, va)))
		return -ENOENT;
	file = dwarf_linesrc(line, NULL, NULL);
	if (!file || dwarf_lineno(line, &lineno))
		return -ENOENT;
	/* perf's srcline sort key shows the file's base name. */
	base = strrchr(file, '/');
	n = snprintf(buf, size, "%s:%d", base ? base + 1 : file, lineno);
	return n < 0 ? -EINVAL : (size_t)n < size ? n : (int)size - 1;
}

/* A function's name: its linkage name (mangled) if it has one. */
static const char *die_name(Dwarf_Die *die, sym_dwarf_name_fn fn, void *ctx)
{
	Dwarf_Attribute at;
	const char *n;

	if ((dwarf_attr_integrate(die, DW_AT_linkage_name, &at) ||
	     dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &at)) &&
	    (n = dwarf_formstring(&at)))
		return fn(ctx, n, true);
	if (dwarf_attr_integrate(die, DW_AT_name, &at) && (n = dwarf_formstring(&at)))
		return fn(ctx, n, false);
	return NULL;
}

int sym_dwarf_inlines(struct sym_dwarf *d, uint64_t va, const char **names,
		      int max, sym_dwarf_name_fn fn, void *ctx)
{
	Dwarf *dw = dwarf_of(d);
	Dwarf_Die cu, *scopes = NULL;
	int n, k = 0;

	if (!dw || !dwarf_addrdie(dw, va, &cu))
		return 0;
	n = dwarf_getscopes(&cu, va, &scopes);
	for (int i = 0; i < n; i++) {
		int tag = dwarf_tag(&scopes[i]);

		if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram)
			continue;
		/* Walk out through the concrete inlined instances. */
		Dwarf_Die cur = scopes[i];

		while (k < max) {
			Dwarf_Die *sc = NULL;
			const char *name = die_name(&cur, fn, ctx);
			int ns, j;

			if (name)
				names[k++] = name;
			if (dwarf_tag(&cur) != DW_TAG_inlined_subroutine)
				break;
			ns = dwarf_getscopes_die(&cur, &sc);
			for (j = 1; j < ns; j++) {
				int t = dwarf_tag(&sc[j]);

				if (t == DW_TAG_inlined_subroutine || t == DW_TAG_subprogram)
					break;
			}
			if (j >= ns) {
				free(sc);
				break;
			}
			cur = sc[j];
			free(sc);
		}
		break;
	}
	free(scopes);
	return k;
}
