/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * script -F brstackinsn / brstackinsnlen: the instructions a sample's
 * branch stack ran through, walked from the object files' bytes, as perf
 * 6.1 prints them.
 */
#ifndef SONDE_CLI_SCRIPT_BRSTACKINSN_H
#define SONDE_CLI_SCRIPT_BRSTACKINSN_H

#include <stdbool.h>
#include <stdint.h>
#include "sonde/profile.h"
#include "outbuf.h"

struct brstackinsn_opts {
	bool ilen;	/* brstackinsnlen: each instruction's length too */
	bool srcline;	/* -F srcline: the source line after each function name */
	int max_blocks; /* --max-blocks: at most this many blocks (0: all) */
};

/*
 * The walk for one sample of thread @tid of @pid at @ip with branches
 * @b[0..@n) (most recent first), starting on a new line.
 */
void brstackinsn_put(struct outbuf *o, struct sonde_profile *p, int32_t pid, int32_t tid,
		     uint64_t ip, const struct sonde_profile_branch *b, size_t n,
		     const struct brstackinsn_opts *opts);

#endif /* SONDE_CLI_SCRIPT_BRSTACKINSN_H */
