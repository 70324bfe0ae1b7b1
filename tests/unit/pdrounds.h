/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * The generated image both perf.data reader tests start from
 * (test_perfdata_read.c on the public API, also against libsonde.so, and
 * test_perfdata_read_internal.c): one process's COMM and MMAP, then five
 * samples out of time order across two FINISHED_ROUNDs, which the reader
 * must hand out sorted. Writes through pdgen.h alone (no library header).
 */
#ifndef SONDE_TEST_PDROUNDS_H
#define SONDE_TEST_PDROUNDS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "pdgen.h"

/* IP | TID | TIME | PERIOD. */
#define ST_BASIC ((1u << 0) | (1u << 1) | (1u << 2) | (1u << 8))

/*
 * COMM, MMAP, then samples at times 30, 10 | round | 20, 40 | round | 35,
 * into @g: pipe or file format, byte-swapped or not, attrs of @attr_size
 * bytes (0: pdgen's default, 128).
 */
static inline void pdg_rounds_image(struct pdgen *g, bool pipe, bool swap,
				    uint32_t attr_size)
{
	memset(g, 0, sizeof(*g));
	g->swap = swap;
	g->attr_size = attr_size;
	if (pipe)
		pdg_pipe_begin(g, ST_BASIC, 1000);
	else
		pdg_file_begin(g, ST_BASIC, 1000);
	pdg_comm(g, 42, 42, "worker", 1);
	pdg_mmap(g, 42, 0x400000, 0x10000, 0, "/nonexistent/prog", 2);
	pdg_sample(g, 42, 42, 30, 0x401000, 1000, NULL, 0);
	pdg_sample(g, 42, 42, 10, 0x401010, 1000, NULL, 0);
	pdg_round(g);
	pdg_sample(g, 42, 43, 20, 0x401020, 1000, NULL, 0);
	pdg_sample(g, 42, 42, 40, 0x401030, 1000, NULL, 0);
	pdg_round(g);
	pdg_sample(g, 42, 42, 35, 0x401040, 1000, NULL, 0);
	if (!pipe)
		pdg_file_end(g, 10, 40);
}

#endif
