// SPDX-License-Identifier: LGPL-2.1-only
/*
 * An ELF DSO's debug info answers (sym_dwarf.c): the source line of an
 * address and the functions inlined there, asked through the DSO's one
 * answer cache (dwcache_store.c: this run's answers, and with a cache
 * directory the earlier runs'), the debug info opened only on a miss and
 * then kept with the DSO. sonde_dso__srcline(), sonde_dso__inlines() and
 * the report model all ask here. libdw handles and the store are not safe
 * to share between threads, so one DSO's questions take its lock.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core_priv.h"
#include "sym_priv.h"

/* A name of this run's answers, kept until the DSO goes. */
struct sym_str {
	struct sym_str *next;
	char s[];
};

static const char *keep(struct sonde_dso *dso, const char *s, size_t n)
{
	struct sym_str *e = malloc(sizeof(*e) + n + 1);

	if (!e)
		return NULL;
	memcpy(e->s, s, n);
	e->s[n] = 0;
	e->next = dso->dwc_names;
	dso->dwc_names = e;
	return e->s;
}

/*
 * Whether the debug info of @dso may answer: a file of the recorded build
 * (another build's lines would name other code), loaded. 0 or -errno.
 */
static int verdict(struct sonde_dso *dso)
{
	int n = sonde_dso__load(dso);

	if (dso->path[0] != '/' || dso->mem)
		return -ENODATA; /* the vdso: no file with debug info */
	switch (dso->status) {
	case SONDE_DSO_BUILD_ID_MISMATCH:
		return -ESTALE;
	case SONDE_DSO_MISSING:
	case SONDE_DSO_BAD_ELF:
		return n < 0 ? n : -ENOENT;
	default:
		return 0;
	}
}

/* verdict(), found once: a report asks for every entry it prints. */
static int usable(struct sonde_dso *dso)
{
	if (!dso->dwarf_verdict)
		dso->dwarf_verdict = verdict(dso) - 1;
	return dso->dwarf_verdict + 1;
}

/* The answer cache of @dso, made on first use; NULL only without memory. */
static struct dwc_store *answers(struct sonde_dso *dso)
{
	const char *sf = dso->symfile;

	if (!dso->dwc_tried) {
		dso->dwc_tried = true;
		dso->dwc = dwc_store_open(dso->dwc_dir, dso->path,
					  sf && strcmp(sf, dso->path) ? sf : NULL);
	}
	return dso->dwc;
}

/* The debug info (of the separate debug file when there is one), opened once. */
static struct sym_dwarf *dwarf(struct sonde_dso *dso, bool background)
{
	const char *file = dso->symfile ? dso->symfile : dso->path;

	if (!dso->dwarf_tried) {
		dso->dwarf_tried = true;
		/* Tests count these lines: a warm answer cache opens nothing. */
		pr_debug("%s: opening its debug info %s\n", dso->path, file);
		dso->dwarf = sym_dwarf_open(file, background);
	}
	return dso->dwarf;
}

/* What the cache keeps (sym_priv.h): bump DWC_MAGIC when it changes. */
static int srcline(struct sonde_dso *dso, uint64_t va, const char **out)
{
	struct dwc_store *st = answers(dso);
	struct sym_dwarf *dw;
	struct dwc_ans a;
	char buf[512];
	int n;

	if (st && dwc_store_lookup(st, va, DWC_SRCLINE, &a) != DWC_MISS) {
		*out = a.nr ? a.names[0] : NULL;
		return a.nr ? 0 : -ENOENT;
	}
	dw = dwarf(dso, false);
	n = dw ? sym_dwarf_srcline(dw, va, buf, sizeof(buf)) : -ENOMEM;
	if (n >= 0 && !(*out = keep(dso, buf, (size_t)n)))
		return -ENOMEM;
	/* No line, or no debug info at all: an answer too, kept as none. */
	if (st && (n >= 0 || n == -ENOENT || n == -ENODATA))
		dwc_store_add(st, va, DWC_SRCLINE, out, n >= 0 ? 1 : 0);
	return n < 0 ? n : 0;
}

int sym_dso_srcline(struct sonde_dso *dso, uint64_t va, const char **out)
{
	int err;

	*out = NULL;
	if (dso->kind != SONDE_DSO_ELF)
		return -EINVAL;
	pthread_mutex_lock(&dso->dwarf_lock);
	err = usable(dso);
	if (!err)
		err = srcline(dso, va, out);
	pthread_mutex_unlock(&dso->dwarf_lock);
	return err;
}

/* Names as perf shows them (linkage names demangled), kept with the DSO. */
static const char *own_name(void *ctx, const char *raw, bool linkage)
{
	char *d = linkage ? sym_demangle_perf(raw) : NULL;
	const char *s = d ? d : raw;
	const char *kept = keep(ctx, s, strlen(s));

	free(d);
	return kept;
}

/* What the cache keeps (sym_priv.h): bump DWC_MAGIC when it changes. */
static int inlines(struct sonde_dso *dso, uint64_t va, const char **names, int max)
{
	struct dwc_store *st = answers(dso);
	const char *all[DWC_MAX_NAMES];
	struct sym_dwarf *dw;
	struct dwc_ans a;
	int n;

	if (st && dwc_store_lookup(st, va, DWC_INLINES, &a) != DWC_MISS) {
		n = a.nr < max ? a.nr : max;
		memcpy(names, a.names, (size_t)n * sizeof(*names));
		return n;
	}
	dw = dwarf(dso, false);
	/* Every answer is kept whole: a later question may ask for more. */
	n = dw ? sym_dwarf_inlines(dw, va, all, DWC_MAX_NAMES, own_name, dso) : 0;
	if (st)
		dwc_store_add(st, va, DWC_INLINES, all, n);
	if (n > max)
		n = max;
	memcpy(names, all, (size_t)n * sizeof(*names));
	return n;
}

int sym_dso_inlines(struct sonde_dso *dso, uint64_t va, const char **names, int max)
{
	int err;

	if (dso->kind != SONDE_DSO_ELF || max < 0)
		return -EINVAL;
	if (max > DWC_MAX_NAMES)
		max = DWC_MAX_NAMES;
	pthread_mutex_lock(&dso->dwarf_lock);
	err = usable(dso);
	if (!err)
		err = inlines(dso, va, names, max);
	pthread_mutex_unlock(&dso->dwarf_lock);
	return err;
}

bool sym_dso_prefetch_dwarf(struct sonde_dso *dso, uint64_t va)
{
	struct dwc_store *st;
	bool done = true;

	if (dso->kind != SONDE_DSO_ELF)
		return true;
	pthread_mutex_lock(&dso->dwarf_lock);
	if (!dso->dwarf_tried && !usable(dso)) {
		st = answers(dso);
		/* Answered by the cache: the debug info may never be needed. */
		if (st && dwc_store_lookup(st, va, DWC_INLINES, NULL) != DWC_MISS)
			done = false;
		else
			(void)dwarf(dso, true);
	}
	pthread_mutex_unlock(&dso->dwarf_lock);
	return done;
}

void sym_dso_dwarf_free(struct sonde_dso *dso)
{
	struct sym_str *e, *next;

	/* The store writes this run's answers, whose names are ours: first. */
	dwc_store_close(dso->dwc, dso->path);
	for (e = dso->dwc_names; e; e = next) {
		next = e->next;
		free(e);
	}
	sym_dwarf_close(dso->dwarf);
}

int sonde_dso__srcline(struct sonde_dso *dso, uint64_t vaddr, char *buf,
		       size_t size)
{
	const char *s;
	size_t n;
	int err;

	if (!dso || !buf || !size)
		return -EINVAL;
	err = sym_dso_srcline(dso, vaddr, &s);
	if (err)
		return err;
	n = strlen(s);
	if (n >= size)
		n = size - 1;
	memcpy(buf, s, n);
	buf[n] = 0;
	return (int)n;
}

int sonde_dso__inlines(struct sonde_dso *dso, uint64_t vaddr, char **names,
		       int max)
{
	const char *got[DWC_MAX_NAMES];
	int n;

	if (!dso || !names || max < 0)
		return -EINVAL;
	n = sym_dso_inlines(dso, vaddr, got, max);
	if (n == -ENODATA)
		return 0;
	for (int i = 0; i < n; i++) {
		names[i] = strdup(got[i]);
		if (!names[i]) {
			while (i--)
				free(names[i]);
			return -ENOMEM;
		}
	}
	return n;
}
