// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The AUX areas of an event list's rings read one span per ring, the
 * unit perf stores as one AUXTRACE record (its data may wrap the area's
 * end: two parts, one record), or as chunks, a span's parts one by one.
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

struct chunk_pass {
	int (*cb)(const void *data, size_t len,
		  const struct sonde_evlist_aux_chunk *where, void *ctx);
	void *ctx;
};

/* A span's parts as chunks: the span loop above serves both reads. */
static int chunks_of_span(const struct sonde_aux_span *sp,
			  const struct sonde_evlist_aux_where *w, void *arg)
{
	struct chunk_pass *p = arg;
	struct sonde_evlist_aux_chunk c = {
		.offset = sp->offset, .ring = w->ring, .cpu = w->cpu, .tid = w->tid,
	};
	int err = p->cb(sp->data[0], sp->len[0], &c, p->ctx);

	if (!err && sp->len[1]) {
		c.offset += sp->len[0];
		err = p->cb(sp->data[1], sp->len[1], &c, p->ctx);
	}
	return err;
}

int64_t sonde_evlist__read_aux(struct sonde_evlist *l,
			       int (*cb)(const void *data, size_t len,
					 const struct sonde_evlist_aux_chunk *where,
					 void *ctx),
			       void *ctx)
{
	struct chunk_pass p = { .cb = cb, .ctx = ctx };

	if (!l || !cb)
		return lib_err(EINVAL);
	return sonde_evlist__read_aux_spans(l, NULL, chunks_of_span, &p);
}
