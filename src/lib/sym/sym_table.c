// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The in-memory symbol table shared by every DSO kind: one sorted array,
 * one symbol per start address, sizes filled in, searched by bisection.
 */
#include <stdlib.h>
#include <string.h>
#include "sym_internal.h"

static int binding_rank(uint8_t b)
{
	switch (b) {
	case SONDE_SYM_GLOBAL:
		return 0;
	case SONDE_SYM_WEAK:
		return 1;
	default:
		return 2;
	}
}

static int leading_underscores(const char *s)
{
	int n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* Start ascending, then the preferred alias first (deterministic). */
static int cmp_best(const void *pa, const void *pb)
{
	const struct sonde_symbol *a = pa, *b = pb;
	int d;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if ((a->size == 0) != (b->size == 0))
		return a->size == 0 ? 1 : -1;
	d = binding_rank(a->binding) - binding_rank(b->binding);
	if (d)
		return d;
	/* glibc's .symtab has "xdr_opaque@GLIBC_2.2.5": prefer plain names. */
	d = (strchr(a->name, '@') != NULL) - (strchr(b->name, '@') != NULL);
	if (d)
		return d;
	d = leading_underscores(a->name) - leading_underscores(b->name);
	if (d)
		return d;
	d = strcmp(a->name, b->name);
	if (d)
		return d;
	/* Same name twice (e.g. .symtab local copies): any is fine. */
	return (a->size > b->size) - (a->size < b->size);
}

/*
 * JIT maps: names point into the file buffer in line order, so a higher
 * name pointer is a later line, and the later line wins.
 */
static int cmp_last(const void *pa, const void *pb)
{
	const struct sonde_symbol *a = pa, *b = pb;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->name != b->name)
		return (uintptr_t)a->name > (uintptr_t)b->name ? -1 : 1;
	return 0;
}

size_t sym_table_finish(struct sonde_symbol *syms, size_t nr,
			enum sym_dup_policy policy)
{
	size_t i, out = 0;

	int (*cmp)(const void *, const void *) =
		policy == SYM_DUP_LAST ? cmp_last : cmp_best;

	if (!nr)
		return 0;
	for (i = 1; i < nr && syms[i - 1].start <= syms[i].start; i++)
		;
	if (i < nr) {
		qsort(syms, nr, sizeof(*syms), cmp);
	} else {
		/*
		 * Already in address order (kallsyms, most perf maps): only
		 * the runs of one address need their preferred alias first.
		 */
		for (i = 0; i < nr;) {
			size_t j = i + 1;

			while (j < nr && syms[j].start == syms[i].start)
				j++;
			if (j - i > 1)
				qsort(syms + i, j - i, sizeof(*syms), cmp);
			i = j;
		}
	}
	for (i = 0; i < nr; i++) {
		if (out && syms[out - 1].start == syms[i].start)
			continue;
		syms[out++] = syms[i];
	}
	/* Zero-sized symbols extend to the next one (perf does the same). */
	for (i = 0; i < out; i++) {
		if (syms[i].size)
			continue;
		syms[i].size_synth = 1;
		if (i + 1 < out)
			syms[i].size = syms[i + 1].start - syms[i].start;
		else
			syms[i].size = ((syms[i].start + 4096) & ~4095ULL) +
				       4096 - syms[i].start;
	}
	return out;
}

static bool covers(const struct sonde_symbol *s, uint64_t addr)
{
	return addr >= s->start && addr - s->start < s->size;
}

const struct sonde_symbol *sym_table_find(const struct sonde_symbol *syms,
					  size_t nr, uint64_t addr)
{
	size_t lo = 0, hi = nr;

	/* First symbol starting above addr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	if (covers(&syms[lo - 1], addr))
		return &syms[lo - 1];
	/* A nested symbol ended early: its enclosing function may cover. */
	if (lo >= 2 && covers(&syms[lo - 2], addr))
		return &syms[lo - 2];
	return NULL;
}
