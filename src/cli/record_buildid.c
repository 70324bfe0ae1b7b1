// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde record: the build ids of the objects the samples hit. The
 * collecting is the library's (sonde_buildid_hits, <sonde/synth.h>); the
 * command picks what it tracks (--buildid-all), whether perf's build-id
 * cache is filled (--no-buildid-cache) and what -v says.
 */
#include <stdio.h>
#include <stdlib.h>
#include "record_cli.h"

/* -v: what could not be cached is said, as perf does. */
static void cache_error(const char *path, int err, void *ctx)
{
	char ebuf[128];

	(void)ctx;
	fprintf(stderr, "sonde record: cannot add %s to the build-id cache: %s\n", path,
		sonde_strerror(err, ebuf, sizeof(ebuf)));
}

struct sonde_buildid_hits *rec_bids_new(const struct rec_opts *o)
{
	uint64_t *types = calloc(o->evs.nr ? o->evs.nr : 1, sizeof(*types));
	struct sonde_buildid_hits *b;

	if (!types)
		return NULL;
	for (size_t i = 0; i < o->evs.nr; i++)
		types[i] = o->evs.ev[i].attr.sample_type;
	{
		SONDE_OPTS(sonde_buildid_hits_opts, bo, .sample_types = types,
			   .nr_sample_types = o->evs.nr, .all = o->buildid_all,
			   .on_cache_error = o->verbose > 0 ? cache_error : NULL);

		b = sonde_buildid_hits__new(&bo);
	}
	free(types);
	return b;
}

void rec_bids_finish(struct sonde_buildid_hits *b, struct sonde_perfdata_writer *w,
		     bool fill_cache)
{
	SONDE_OPTS(sonde_buildid_cache_opts, copts);

	(void)sonde_buildid_hits__write(b, w, fill_cache ? &copts : NULL);
}
