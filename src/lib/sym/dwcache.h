/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * The DWARF answer cache file format: what the report model asked an
 * object's debug info about its addresses (the functions inlined there,
 * the source line), kept in the per-user cache directory (kcache.h) under
 * the object's build id, so that a later run need not open, and
 * decompress, the debug info at all (glibc's costs ~30 ms of zlib).
 */
#ifndef SONDE_DWCACHE_H
#define SONDE_DWCACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What was asked about an address. */
enum dwc_kind {
	DWC_INLINES = 0, /* anl_dso_inlines(): names, innermost first */
	DWC_SRCLINE = 1, /* anl_dso_srcline(): one "file:line", or none */
};

/* Most names one answer may hold (anl_dso_inlines() keeps 8). */
#define DWC_MAX_NAMES 32

/* One answer: @p nr names for (@p vaddr, @p kind). */
struct dwc_ans {
	uint64_t vaddr; /* ELF virtual address in the object */
	uint8_t kind;
	uint8_t nr;
	const char *names[DWC_MAX_NAMES];
};

/*
 * Encodes @p nr answers, sorted by (vaddr, kind) without repeats, into a
 * malloc'd *@p buf. 0 or -errno (-EINVAL for unsorted input).
 */
int dwc_encode(const struct dwc_ans *ans, size_t nr, void **buf, size_t *len);

/*
 * Validates @p buf (magic, exact sizes, strictly sorted keys, known kinds,
 * every name inside the buffer and NUL-terminated): 0 and *@p nr answers,
 * or -SONDE_ERR_FORMAT (errno set). Only then may dwc_get() and
 * dwc_find() read it; names point into @p buf.
 */
int dwc_check(const void *buf, size_t len, size_t *nr);
void dwc_get(const void *buf, size_t i, struct dwc_ans *out);

/* Index of the answer for (@p vaddr, @p kind) in a checked @p buf, or -1. */
long dwc_find(const void *buf, size_t nr, uint64_t vaddr, int kind);

/*
 * The answers of one object across runs (dwcache_store.c), in the cache
 * directory @p dir under the build id of @p obj (its debug info read from
 * @p dbg, NULL: @p obj itself): NULL when @p obj has no build id (then
 * nothing is cached) or without memory. Not thread-safe: one user.
 */
struct dwc_store;
struct dwc_store *dwc_store_open(const char *dir, const char *obj,
				 const char *dbg);
/* Where dwc_store_lookup() found an answer. */
enum dwc_found {
	DWC_MISS = 0,
	DWC_FROM_RUN = 1,  /* added this run: names are the caller's own */
	DWC_FROM_FILE = 2, /* from the file: names point into its mapping */
};
/*
 * The answer for (@p vaddr, @p kind) into *@p out (NULL: only whether
 * there is one). Names from the file live until dwc_store_close().
 */
int dwc_store_lookup(struct dwc_store *st, uint64_t vaddr, int kind,
		     struct dwc_ans *out);
/*
 * Records what the debug info answered on a miss; @p names are kept as
 * pointers and must live until dwc_store_close().
 */
void dwc_store_add(struct dwc_store *st, uint64_t vaddr, int kind,
		   const char *const *names, int nr);
/* Merges this run's answers into the file and frees @p st (NULL: no-op). */
void dwc_store_close(struct dwc_store *st, const char *obj);

#endif /* SONDE_DWCACHE_H */
