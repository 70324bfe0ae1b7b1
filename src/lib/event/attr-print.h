/* SPDX-License-Identifier: LGPL-2.1-only */
/* perf_event_attr fields as perf prints them, for the dumps that share it. */
#ifndef SONDE_ATTR_PRINT_H
#define SONDE_ATTR_PRINT_H

#include "sonde/abi.h"

typedef void (*attr_field_fn)(void *ctx, const char *name, const char *val);

/* Calls @fn for every non-zero field of @a, in perf's order and format. */
void attr_fields(const struct sonde_perf_event_attr *a, attr_field_fn fn, void *ctx);

#endif /* SONDE_ATTR_PRINT_H */
