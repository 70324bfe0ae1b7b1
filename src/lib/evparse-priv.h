/* SPDX-License-Identifier: LGPL-2.1-only */
/* Private parts of the event-spec parser, shared with sonde list. */
#ifndef SONDE_EVPARSE_PRIV_H
#define SONDE_EVPARSE_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sonde/evparse.h"

struct ev_symbol {
	const char *name;
	uint64_t config;
	const char *unused;
};

/* NULL-terminated tables; aliases follow their canonical name. */
extern const struct ev_symbol ev_hw_symbols[];
extern const struct ev_symbol ev_sw_symbols[];

/* Index of the exact symbol [s, s+len) in @tab, or -1. */
int ev_find_symbol(const struct ev_symbol *tab, const char *s, size_t len);

/*
 * Parses a hardware cache name; returns 0 with config (id | op << 8 |
 * result << 16) or -1 when the word is not one. *valid is false when the
 * cache has no such op (perf refuses "L1-icache-stores").
 */
int ev_parse_cache(const char *s, size_t len, uint64_t *config, bool *valid);

/* Display names for `list`. */
const char *ev_cache_name(int type);
const char *ev_cache_op_name(int op, int variant);
bool ev_cache_op_valid(int type, int op);

/* Terms accepted on every event, as perf lists them in errors. */
extern const char ev_common_terms[];

#endif /* SONDE_EVPARSE_PRIV_H */
