// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The AUX areas of an event list's rings read one span per ring, the
 * unit perf stores as one AUXTRACE record (its data may wrap the area's
 * end: two parts, one record).
 */
#include <errno.h>
#include "sonde/ring.h"
#include "count_priv.h"
#include "core_priv.h"

struct span_pass {
	int (*cb)(const struct sonde_aux_span *span,
		  const struct sonde_evlist_aux_where *where, void *ctx);
	void *ctx;
	struct sonde_evlist_aux_where where;
};

static int span_of_ring(const struct sonde_aux_span *span, void *arg)
{
	struct span_pass *p = arg;

	return p->cb(span, &p->where, p->ctx);
}

int64_t sonde_evlist__read_aux_spans(struct sonde_evlist *l,
				     const struct sonde_ring_aux_opts *opts,
				     int (*cb)(const struct sonde_aux_span *span,
					       const struct sonde_evlist_aux_where *where,
					       void *ctx),
				     void *ctx)
{
	struct span_pass p = { .cb = cb, .ctx = ctx };
	int64_t total = 0;

	if (!l || !cb)
		return lib_err(EINVAL);
	for (int i = 0; i < l->nr_rings; i++) {
		int64_t n;

		if (!l->ring_aux[i])
			continue;
		p.where.ring = i;
		p.where.cpu = l->ring_cpu[i];
		p.where.tid = l->ring_tid[i];
		n = sonde_ring__aux_read_span(l->rings[i], opts, span_of_ring, &p);
		if (n < 0)
			return n;
		total += n;
	}
	return total;
}
