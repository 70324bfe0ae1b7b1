/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * Reader side of the generated-image tests (pdgen.h writes the images;
 * pdgen.h stays free of library headers for the workload helpers).
 */
#ifndef SONDE_TEST_PDSEEN_H
#define SONDE_TEST_PDSEEN_H

#include <stdint.h>
#include <string.h>
#include "sonde/perfdata_reader.h"

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

#endif /* SONDE_TEST_PDSEEN_H */
