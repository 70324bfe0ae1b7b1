// SPDX-License-Identifier: LGPL-2.1-only
/*
 * AUX area data in perf.data: each span read from an AUX area becomes a
 * PERF_RECORD_AUXTRACE record (48 bytes) followed by the data, padded to
 * 8 bytes and counted in the record's size field but not in its header
 * size, as perf writes them; a file (not a pipe) also gets the AUXTRACE
 * feature, the index perf's decoders use to find those records without
 * reading the whole data section: u64 count, then {file offset, header
 * size} per record.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/ring.h"
#include "perfdata_priv.h"
#include "core_priv.h"

#define AUXTRACE_HDR 48

static int note_index(struct sonde_perfdata_writer *w, uint64_t off,
		      uint64_t bytes)
{
	struct pw_aux *a = &w->aux;

	if (a->nr == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 64;
		uint64_t *p = realloc(a->ent, cap * 2 * sizeof(*p));

		if (!p)
			return -ENOMEM;
		a->ent = p;
		a->cap = cap;
	}
	a->ent[a->nr * 2] = off;
	a->ent[a->nr * 2 + 1] = bytes;
	a->nr++;
	return 0;
}

int sonde_perfdata_writer__write_aux_span(struct sonde_perfdata_writer *w,
					  const struct sonde_aux_span *span,
					  const struct sonde_perfdata_aux *where)
{
	static const unsigned char zero[8];
	struct {
		struct sonde_perf_event_header h;
		uint64_t size, offset, reference;
		uint32_t idx, tid, cpu, reserved;
	} rec;
	uint64_t len, pad, at;
	int err;

	if (!w || !span || !where ||
	    (span->len[0] && !span->data[0]) || (span->len[1] && !span->data[1]))
		return lib_err(EINVAL);
	if (!w->begun)
		return lib_err(EINVAL);
	len = (uint64_t)span->len[0] + span->len[1];
	pad = (8 - len % 8) % 8;
	memset(&rec, 0, sizeof(rec));
	rec.h.type = SONDE_PERF_RECORD_AUXTRACE;
	rec.h.size = AUXTRACE_HDR;
	rec.size = len + pad;
	rec.offset = where->offset;
	rec.reference = where->reference;
	rec.idx = where->idx;
	rec.tid = where->tid;
	rec.cpu = where->cpu;
	at = w->pos;
	w->aux.feature = true;
	if (!w->pipe && (err = note_index(w, at, AUXTRACE_HDR + len + pad)))
		return lib_err(-err);
	w->dirty_round = true;
	err = pw_out(w, &rec, sizeof(rec));
	if (!err)
		err = pw_out(w, span->data[0], span->len[0]);
	if (!err)
		err = pw_out(w, span->data[1], span->len[1]);
	if (!err)
		err = pw_out(w, zero, (size_t)pad);
	return err < 0 ? lib_err(-err) : 0;
}

int sonde_perfdata_writer__write_aux(struct sonde_perfdata_writer *w,
				     const void *data, size_t len,
				     const struct sonde_perfdata_aux *where)
{
	struct sonde_aux_span span = {
		.size = len, .data = { data, NULL }, .len = { len, 0 },
	};

	if (len && !data)
		return lib_err(EINVAL);
	if (where)
		span.offset = where->offset;
	return sonde_perfdata_writer__write_aux_span(w, &span, where);
}

bool pw_auxtrace_feature(struct sonde_perfdata_writer *w, struct dbuf *b)
{
	/* After a failed write the file ends at the last whole round. */
	uint64_t end = w->err ? w->good_mark : w->pos, nr = 0;

	if (!w->aux.feature)
		return false;
	for (size_t i = 0; i < w->aux.nr; i++)
		nr += w->aux.ent[i * 2] + w->aux.ent[i * 2 + 1] <= end;
	dbuf_u64(b, nr);
	for (size_t i = 0; i < w->aux.nr; i++) {
		if (w->aux.ent[i * 2] + w->aux.ent[i * 2 + 1] > end)
			continue;
		dbuf_u64(b, w->aux.ent[i * 2]);
		dbuf_u64(b, AUXTRACE_HDR);
	}
	return true;
}

void pw_aux_free(struct sonde_perfdata_writer *w)
{
	free(w->aux.ent);
	w->aux.ent = NULL;
	w->aux.nr = w->aux.cap = 0;
}
