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

#endif /* SONDE_DWCACHE_H */
