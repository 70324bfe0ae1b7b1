/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * Reading perf's TRACING_DATA blob (the tracefs formats recorded with the
 * data; layout in perfdata_tracing.c, which writes it).
 */
#ifndef SONDE_TRACING_DATA_H
#define SONDE_TRACING_DATA_H

#include <stddef.h>
#include <stdint.h>

/* One event format file of the blob (not NUL-terminated). */
typedef int (*tracing_format_fn)(void *ctx, const char *sys,
				 const char *text, size_t len);

/*
 * Calls @fn for every event format in @blob, stopping at its first
 * non-zero return (returned). Every length is checked against @len.
 * @return 0, the callback's value, or -SONDE_ERR_FORMAT (errno set) with
 * *@err_off (may be NULL) the byte offset of the problem in the blob.
 */
int tracing_data_each_format(const uint8_t *blob, size_t len,
			     tracing_format_fn fn, void *ctx, size_t *err_off);

#endif /* SONDE_TRACING_DATA_H */
