// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The in-memory symbol table shared by every DSO kind: one sorted array,
 * one symbol per start address, sizes filled in, searched by bisection.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "sym_priv.h"

/*
 * perf's choice among the symbols at one address (choose_best_symbol() in
 * perf 6.1), so report and the public symbolizer agree on every name: a
 * sized one, then not weak, then global, then fewer leading underscores,
 * then the longer name; on a tie the earlier one in the table (the sort
 * is stable). Versioned names ("memcpy@@GLIBC_2.14") get no preference:
 * perf shows them as they are.
 */
static int leading_underscores(const char *s)
{
	int n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

static int cmp_best(const void *pa, const void *pb)
{
	const struct sonde_symbol *a = pa, *b = pb;
	size_t la, lb;
	int d;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if ((a->size == 0) != (b->size == 0))
		return a->size == 0 ? 1 : -1;
	d = (a->binding == SONDE_SYM_WEAK) - (b->binding == SONDE_SYM_WEAK);
	if (d)
		return d;
	d = (b->binding == SONDE_SYM_GLOBAL) - (a->binding == SONDE_SYM_GLOBAL);
	if (d)
		return d;
	d = leading_underscores(a->name) - leading_underscores(b->name);
	if (d)
		return d;
	la = strlen(a->name);
	lb = strlen(b->name);
	return (la < lb) - (la > lb);
}

/*
 * The fallback order for SYM_DUP_LAST without memory for the stable
 * sort: names point into the file buffer in line order, so a higher name
 * pointer is a later line, sorted after the earlier ones.
 */
static int cmp_last(const void *pa, const void *pb)
{
	const struct sonde_symbol *a = pa, *b = pb;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->name != b->name)
		return (uintptr_t)a->name < (uintptr_t)b->name ? -1 : 1;
	return 0;
}

/* A symbol's address and its place in the table: sorting these sorts stably. */
struct sym_key {
	uint64_t start;
	size_t pos;
};

/*
 * LSD radix sort of @k by start, a byte a pass, into @k; @tmp holds @nr
 * keys. A pass where every key has the same byte (the high bytes of a
 * library's addresses) is skipped.
 */
static void radix_sort(struct sym_key *k, struct sym_key *tmp, size_t nr)
{
	struct sym_key *from = k, *to = tmp, *t;

	for (int shift = 0; shift < 64; shift += 8) {
		size_t count[256] = { 0 }, sum = 0;

		for (size_t i = 0; i < nr; i++)
			count[(from[i].start >> shift) & 255]++;
		if (count[(from[0].start >> shift) & 255] == nr)
			continue;
		for (int d = 0; d < 256; d++) {
			size_t c = count[d];

			count[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < nr; i++)
			to[count[(from[i].start >> shift) & 255]++] = from[i];
		t = from;
		from = to;
		to = t;
	}
	if (from != k)
		memcpy(k, from, nr * sizeof(*k));
}

/*
 * @syms sorted by address, table order kept among equals; then, with
 * @tie, each run at one address in @tie's order (insertion sort, stable:
 * runs are a few aliases). False without memory.
 */
static bool sort_table(struct sonde_symbol *syms, size_t nr,
		       int (*tie)(const void *, const void *))
{
	struct sym_key *k = malloc(2 * nr * sizeof(*k));
	struct sonde_symbol *out = malloc(nr * sizeof(*out));

	if (!k || !out) {
		free(k);
		free(out);
		return false;
	}
	for (size_t i = 0; i < nr; i++)
		k[i] = (struct sym_key){ syms[i].start, i };
	radix_sort(k, k + nr, nr);
	for (size_t i = 0; i < nr; i++)
		out[i] = syms[k[i].pos];
	for (size_t i = 1; tie && i < nr; i++) {
		struct sonde_symbol v = out[i];
		size_t j = i;

		while (j && out[j - 1].start == v.start && tie(&v, &out[j - 1]) < 0) {
			out[j] = out[j - 1];
			j--;
		}
		out[j] = v;
	}
	memcpy(syms, out, nr * sizeof(*out));
	free(k);
	free(out);
	return true;
}

/* One symbol per address: of each run, the first, or with @last the last. */
static size_t dedupe(struct sonde_symbol *syms, size_t nr, bool last)
{
	size_t out = 0;

	for (size_t i = 0; i < nr; i++) {
		if (out && syms[out - 1].start == syms[i].start) {
			if (!last)
				continue;
			out--;
		}
		syms[out++] = syms[i];
	}
	return out;
}

size_t sym_table_finish(struct sonde_symbol *syms, size_t nr,
			enum sym_dup_policy policy)
{
	size_t i, out;

	if (!nr)
		return 0;
	/*
	 * Both policies break ties on table order, which a stable sort
	 * keeps; by radix on the address, not by comparing whole symbols
	 * (that was most of loading libc's 7,000 functions).
	 */
	if (!sort_table(syms, nr, policy == SYM_DUP_LAST ? NULL : cmp_best))
		qsort(syms, nr, sizeof(*syms), policy == SYM_DUP_LAST ? cmp_last : cmp_best);
	out = dedupe(syms, nr, policy == SYM_DUP_LAST);
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

/* Entries of any table begin with these two (sonde_symbol, the ktab's). */
struct sym_range {
	uint64_t start, size;
};
_Static_assert(offsetof(struct sonde_symbol, start) == 0 &&
	       offsetof(struct sonde_symbol, size) == 8, "sym_range");

static struct sym_range range_at(const void *tab, size_t stride, size_t i)
{
	struct sym_range r;

	memcpy(&r, (const char *)tab + i * stride, sizeof(r));
	return r;
}

static bool covers(struct sym_range r, uint64_t addr)
{
	return addr >= r.start && addr - r.start < r.size;
}

size_t sym_table_index(const void *tab, size_t stride, size_t nr, uint64_t addr)
{
	size_t lo = 0, hi = nr;

	/* First symbol starting above addr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (range_at(tab, stride, mid).start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return SIZE_MAX;
	if (covers(range_at(tab, stride, lo - 1), addr))
		return lo - 1;
	/* A nested symbol ended early: its enclosing function may cover. */
	if (lo >= 2 && covers(range_at(tab, stride, lo - 2), addr))
		return lo - 2;
	return SIZE_MAX;
}

const struct sonde_symbol *sym_table_find(const struct sonde_symbol *syms,
					  size_t nr, uint64_t addr)
{
	size_t i = sym_table_index(syms, sizeof(*syms), nr, addr);

	return i == SIZE_MAX ? NULL : &syms[i];
}
