/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * sonde report: the columns of the keys past perf's first seven (parent,
 * socket, weight, the memory keys...), as perf 6.1's sort.c prints them:
 * header, the width it reserves, the text of a cell.
 */
#ifndef SONDE_CLI_REPORT_KEYS_H
#define SONDE_CLI_REPORT_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include "sonde/profile.h"

/* perf's header of key @k's column (NULL for the keys report_print.c prints). */
const char *report_key_title(enum sonde_profile_key k);

/*
 * The width perf's hists__calc_col_len() asks for @e's cell of key @k
 * (the column is the widest of these and its title).
 */
int report_key_len(const struct sonde_profile_entry *e, enum sonde_profile_key k);

/*
 * @e's cell of key @k in a column @width wide, as perf's snprintf makes
 * it: some fill the column themselves (report_key_pads()), the others
 * are padded when a column follows.
 */
void report_key_text(const struct sonde_profile_entry *e, enum sonde_profile_key k, int width,
		     char *buf, size_t sz);

/* The cell's text fills its column, the last one too. */
bool report_key_pads(enum sonde_profile_key k);

#endif /* SONDE_CLI_REPORT_KEYS_H */
