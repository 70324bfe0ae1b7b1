/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * A one-line progress bar on stderr for long loads: drawn only when
 * stderr is a terminal wide enough for it, erased when done, and taken
 * off the line while the library prints a warning (then redrawn).
 */
#ifndef SONDE_CLI_PROGRESS_H
#define SONDE_CLI_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

struct progress {
	const char *title;
	uint64_t total;
	int pct;		/* last drawn, -1 = not on screen */
	bool on;
};

/* Starts a bar over @total units when @want and stderr is a terminal. */
void progress_start(struct progress *p, const char *title, uint64_t total,
		    bool want);
void progress_update(struct progress *p, uint64_t done);
/* Erases the bar; the terminal line is left as it was before. */
void progress_finish(struct progress *p);

#endif
