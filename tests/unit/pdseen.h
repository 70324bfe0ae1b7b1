/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * Reader side of the generated-image tests (pdgen.h writes the images;
 * pdgen.h stays free of library headers for the workload helpers): what a
 * reader hands out, and an image put in a file for a reader to open.
 */
#ifndef SONDE_TEST_PDSEEN_H
#define SONDE_TEST_PDSEEN_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/perfdata_reader.h"
#include "pdgen.h"

/* What a reader hands out: time, type, offset and header of the first
 * PDG_SEEN_MAX records, and how many there were in all. */
#define PDG_SEEN_MAX 64
struct pdg_seen {
	uint64_t times[PDG_SEEN_MAX];
	uint32_t types[PDG_SEEN_MAX];
	uint64_t offsets[PDG_SEEN_MAX];
	const struct sonde_perf_event_header *hdrs[PDG_SEEN_MAX];
	int n;
};

/* Reads @r to its end: the reader's last return (0, or -errno). */
static inline int pdg_drain(struct sonde_perfdata_reader *r, struct pdg_seen *s)
{
	struct sonde_perfdata_record rec;
	int err;

	memset(s, 0, sizeof(*s));
	while ((err = sonde_perfdata_reader__next(r, &rec)) > 0) {
		if (s->n < PDG_SEEN_MAX) {
			s->times[s->n] = rec.time;
			s->types[s->n] = rec.type;
			s->offsets[s->n] = rec.offset;
			s->hdrs[s->n] = rec.hdr;
		}
		s->n++;
	}
	return err;
}

/* @g's image in a new file named from mkstemp() template @path. */
static inline void pdg_write_temp(const struct pdgen *g, char *path)
{
	int fd = mkstemp(path);
	FILE *f;

	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_int_equal(fwrite(g->buf, 1, g->len, f), g->len);
	assert_int_equal(fclose(f), 0);
}

#endif /* SONDE_TEST_PDSEEN_H */
