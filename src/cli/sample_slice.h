/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * The slice of a perf.data file that report and script look at: --time
 * (absolute or percent ranges) and -C/--cpu, parsed and checked the same
 * way by both commands, as perf does.
 */
#ifndef SONDE_CLI_SAMPLE_SLICE_H
#define SONDE_CLI_SAMPLE_SLICE_H

#include <stdbool.h>
#include <stdint.h>
#include "sonde/perfdata_reader.h"

struct time_range {
	uint64_t start, end; /* inclusive start, exclusive end; 0 = open */
};

struct sample_slice {
	uint8_t *cpus;		  /* bitmap of 4096 CPUs, NULL = every CPU */
	struct time_range *time;  /* NULL = the whole file */
	int nr_time;
	bool time_percent;	  /* ranges in percent until resolved */
	double (*time_pct)[2];
};

/*
 * Parse -C "0-3,5" and --time "start,end" / "10%-20%,..." (either may be
 * NULL); errors are printed with @cmd ("sonde report") first.
 * Return 0 or -errno.
 */
int slice_parse_cpus(struct sample_slice *sl, const char *cmd, const char *list);
int slice_parse_time(struct sample_slice *sl, const char *cmd, const char *spec);
/* What the reader knows of the file's time span. */
struct slice_span {
	uint64_t first, last; /* SAMPLE_TIME feature; 0, 0 when absent */
	bool streaming;	      /* read as it arrives: no second pass */
};

/*
 * Once the file is open: -C needs samples with CPU numbers, and percent
 * ranges the first and last sample time (from @span, else a first pass
 * over @input). Errors are printed.
 */
int slice_resolve(struct sample_slice *sl, const char *cmd,
		  struct sonde_perfdata_reader *r, const char *input,
		  const struct slice_span *span);
bool slice_keep(const struct sample_slice *sl, uint64_t time, uint32_t cpu);
void slice_free(struct sample_slice *sl);

#endif
