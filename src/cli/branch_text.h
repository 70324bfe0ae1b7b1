/* SPDX-License-Identifier: LGPL-2.1-only */
/* Branch-stack entries as perf 6.1 prints them (script -F brstack*, report -b). */
#ifndef SONDE_CLI_BRANCH_TEXT_H
#define SONDE_CLI_BRANCH_TEXT_H

#include <stdbool.h>
#include "sonde/abi.h"
#include "sonde/profile.h"
#include "outbuf.h"

/* perf's names of PERF_BR_* types (index 0: "N/A"); NULL out of range. */
const char *branch_type_name(unsigned type);
/* The type an entry prints: "" unknown, the extended name for EXTEND_ABI. */
const char *branch_entry_type(const struct sonde_perf_branch_entry *e);
/* "/P/-/-/5/CALL ": prediction, in_tx, abort, cycles, type, then a space. */
void branch_put_flags(struct outbuf *o, const struct sonde_perf_branch_entry *e);

/* What script -F prints of each entry. */
enum branch_style {
	BRANCH_ADDR, /* brstack: 0xfrom/0xto */
	BRANCH_SYM,  /* brstacksym: sym+0xoff/sym+0xoff */
};

/* One sample's entries, each with "(object)" when @dso. */
void branch_put_stack(struct outbuf *o, const struct sonde_profile_branch *b, size_t n,
		      enum branch_style style, bool dso);

/* The entries as a JSON array (script --json). */
void branch_put_json(struct outbuf *o, const struct sonde_profile_branch *b, size_t n);

#endif /* SONDE_CLI_BRANCH_TEXT_H */
