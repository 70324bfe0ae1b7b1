/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * script -F brstackoff: branch addresses as offsets into their objects,
 * with perf 6.1's rule for which objects keep absolute addresses.
 */
#ifndef SONDE_CLI_SCRIPT_BRSTACKOFF_H
#define SONDE_CLI_SCRIPT_BRSTACKOFF_H

#include <stdbool.h>
#include "sonde/profile.h"
#include "outbuf.h"

struct brstackoff;

struct brstackoff *brstackoff_new(void);
void brstackoff_free(struct brstackoff *bo);
/* A sample resolved a symbol in @fr's object: perf has loaded it now. */
void brstackoff_loaded(struct brstackoff *bo, const struct sonde_profile_frame *fr);
/* " 0xfrom/0xto/flags " per entry, "(object)" after each with @dso. */
void brstackoff_put(struct brstackoff *bo, struct outbuf *o, const struct sonde_profile_branch *b,
		    size_t n, bool dso);

#endif /* SONDE_CLI_SCRIPT_BRSTACKOFF_H */
