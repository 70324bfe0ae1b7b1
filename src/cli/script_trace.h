/* SPDX-License-Identifier: LGPL-2.1-only */
/* Tracepoint field printing for sonde script (see script_trace.c). */
#ifndef SONDE_CLI_SCRIPT_TRACE_H
#define SONDE_CLI_SCRIPT_TRACE_H

#include <stdint.h>
#include "sonde/tracefs.h"
#include "outbuf.h"

struct script_trace;

struct sonde_perfdata_reader;

/*
 * Formats come from @r's TRACING_DATA, else this machine's tracefs; @sym
 * (may be NULL) names kernel addresses for %pS/%ps.
 */
struct script_trace *script_trace_new(struct sonde_perfdata_reader *r,
				      sonde_tp_sym_fn sym, void *ctx);
void script_trace_free(struct script_trace *t);

/* Appends "a=1 b=x ..." for the RAW data of the reader's tracepoint event @idx. */
void script_trace_fields(struct script_trace *t, struct outbuf *o, int idx,
			 const uint8_t *raw, uint32_t raw_size);

#endif /* SONDE_CLI_SCRIPT_TRACE_H */
