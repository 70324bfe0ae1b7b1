/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * A tracepoint's "print fmt" evaluated on a record, the way perf script
 * shows tracepoint samples: the printf literal with its arguments, which
 * are C expressions over REC->field, __get_str(), casts, the usual
 * operators, ?:, __print_flags() and __print_symbolic().
 */
#ifndef SONDE_CLI_TP_PRINT_H
#define SONDE_CLI_TP_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include "sonde/tracefs.h"
#include "outbuf.h"

struct tp_print;

/*
 * Compiles @fmt's print fmt once. NULL when it uses something not
 * understood here (helpers such as __print_hex, %pM and other pointer
 * extensions): the caller then lists the fields.
 */
struct tp_print *tp_print_compile(const struct sonde_tp_format *fmt);
void tp_print_free(struct tp_print *p);

/* A kernel function for %pS/%ps: its name, *@off = @addr - its start. */
typedef const char *(*tp_sym_fn)(void *ctx, uint64_t addr, uint64_t *off);

/*
 * Appends the text for one record's @raw data (@sym, may be NULL, names
 * the addresses printed with %pS/%ps). Returns false, having
 * written nothing, when the data does not fit (short record, a string
 * where a number is wanted, division by zero).
 */
bool tp_print_run(const struct tp_print *p, struct outbuf *o,
		  const uint8_t *raw, uint32_t raw_size, tp_sym_fn sym, void *ctx);

#endif /* SONDE_CLI_TP_PRINT_H */
