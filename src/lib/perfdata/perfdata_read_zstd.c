// SPDX-License-Identifier: LGPL-2.1-only
/*
 * COMPRESSED (81) and COMPRESSED2 (83) records, written by perf record -z.
 *
 * What perf writes: each ring-buffer push is fed to one zstd stream that
 * lives as long as the session and is flushed (not ended) after each push,
 * so the whole data section is usually a single unterminated frame; the
 * flushed bytes are cut into COMPRESSED records of < 64 KiB. A push can
 * end inside a record (the ring buffer wraps) and a push's output can span
 * several COMPRESSED records, so a decompressed record may straddle two
 * COMPRESSED records. COMPRESSED2 adds a u64 data_size after the header and
 * pads the record to 8 bytes.
 *
 * So: one streaming decompressor per reader; each COMPRESSED record's
 * output is appended to the incomplete tail of the previous one, the
 * complete records are copied into a chunk (perfdata_read_chunk.c: kept
 * until close for a file, freed once handed out for a pipe) and queued
 * like file records;
 * the tail waits for the next COMPRESSED record.
 *
 * Bounds: one COMPRESSED record may expand to at most the ring buffer size
 * from HEADER_COMPRESSED (clamped to [1 MiB, 256 MiB]) plus slack, the
 * whole stream to 1000 times its compressed size (past 64 MiB); the
 * decoder window is capped at zstd's default 2^27. A corrupt stream stops
 * the scan with the COMPRESSED record's offset; records decoded before it
 * are still delivered.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include "core_priv.h"
#include "perfdata_priv.h"

#define ZMIN_LIMIT (1ULL << 20)
#define ZMAX_LIMIT (256ULL << 20)
/* A block decoded across two COMPRESSED records, plus a carried record. */
#define ZSLACK (256ULL << 10)
#define ZWINDOW_LOG_MAX 27
/*
 * And the whole stream may not expand more than this much (perf's data
 * compresses 5-30 times) once past a floor: a hostile file of many small
 * records cannot make the reader keep gigabytes.
 */
#define ZRATIO_MAX 1000u
#define ZTOTAL_FLOOR (64ULL << 20)
/* perf's enum: 0 none, 1 zstd. */
#define COMP_ZSTD 1

struct pdr_zstd {
	ZSTD_DStream *ds;
	uint64_t limit; /* output bytes one COMPRESSED record may produce */
	uint64_t in_total, out_total; /* compressed / decompressed bytes so far */
	/* Scratch: incomplete tail [0, tail), then the new output. */
	uint8_t *buf;
	size_t tail, cap;
	uint64_t tail_off; /* last COMPRESSED record that fed the tail */
};

void pdr_zstd_free(struct pdr_zstd *z)
{
	if (!z)
		return;
	ZSTD_freeDStream(z->ds);
	free(z->buf);
	free(z);
}

static struct pdr_zstd *zstd_get(struct sonde_perfdata_reader *r)
{
	struct pdr_zstd *z = r->zstd;
	uint64_t lim;

	if (z)
		return z;
	z = calloc(1, sizeof(*z));
	if (!z)
		return NULL;
	z->ds = ZSTD_createDStream();
	if (!z->ds || ZSTD_isError(ZSTD_initDStream(z->ds)) ||
	    ZSTD_isError(ZSTD_DCtx_setParameter(z->ds, ZSTD_d_windowLogMax,
						 ZWINDOW_LOG_MAX))) {
		pdr_zstd_free(z);
		return NULL;
	}
	lim = r->comp.mmap_len;
	if (lim < ZMIN_LIMIT)
		lim = ZMIN_LIMIT;
	if (lim > ZMAX_LIMIT)
		lim = ZMAX_LIMIT;
	z->limit = lim + ZSLACK;
	r->zstd = z;
	return z;
}

/* Grows the scratch buffer towards @max bytes of output. */
static int grow(struct pdr_zstd *z, size_t max)
{
	size_t want = z->cap ? z->cap * 2 : 256 * 1024;
	uint8_t *nb;

	if (want > z->tail + max)
		want = z->tail + max;
	nb = realloc(z->buf, want);
	if (!nb)
		return -ENOMEM;
	z->buf = nb;
	z->cap = want;
	return 0;
}

/*
 * Length of the complete records at the start of @p[0, n); *bad is set
 * when a record header is impossible (size < 8).
 */
static size_t complete_len(const struct sonde_perfdata_reader *r, const uint8_t *p,
			   size_t n, bool *bad, uint32_t *bad_type, uint16_t *bad_size)
{
	size_t pos = 0;

	*bad = false;
	while (n - pos >= 8) {
		uint16_t size = pdr_rd16(r, p + pos + 6);

		if (size < 8) {
			*bad = true;
			*bad_type = pdr_rd32(r, p + pos);
			*bad_size = size;
			break;
		}
		if (size > n - pos)
			break;
		pos += size;
	}
	return pos;
}

/* Queues the records of chunk @idx. Returns 0, -ENOMEM or -SONDE_ERR_FORMAT. */
static int queue_chunk(struct sonde_perfdata_reader *r, uint64_t idx)
{
	const struct pdr_chunk *c = pdr_chunk_get(r, idx);
	size_t pos = 0;

	while (pos < c->len) {
		const uint8_t *p = c->buf + pos;
		uint32_t type = pdr_rd32(r, p);
		uint16_t size = pdr_rd16(r, p + 6);
		uint64_t loc = PDR_ZLOC | (uint64_t)idx << 32 | pos;

		pos += size;
		if (type < PDR_NR_TYPES)
			r->nr_type[type]++; /* perf counts them too (--stats) */
		if (type < SONDE_PERF_RECORD_USER_TYPE_START) {
			if (pdr_stream_queue(r, p, type, size, loc))
				return -ENOMEM;
			continue;
		}
		switch (type) {
		case SONDE_PERF_RECORD_FINISHED_ROUND:
			pdr_stream_round(r);
			break;
		case SONDE_PERF_RECORD_COMPRESSED:
		case SONDE_PERF_RECORD_COMPRESSED2:
		case SONDE_PERF_RECORD_HEADER_TRACING_DATA:
		case SONDE_PERF_RECORD_AUXTRACE:
			/* Nesting, or trailing bytes outside the record: not perf's. */
			return pdr_fail(r, c->src_off,
					"compressed data holds a record of type %u, which cannot be inside a COMPRESSED record",
					type);
		default:
			/* Header-type records are perf record's own, never compressed. */
			pr_debug("perf.data: record type %u inside COMPRESSED record at byte offset %llu ignored\n",
				 type, (unsigned long long)c->src_off);
			break;
		}
	}
	return 0;
}

/*
 * Moves the complete records of the scratch buffer [0, n) into a new chunk
 * and queues them; the incomplete rest becomes the tail.
 */
static int take_records(struct sonde_perfdata_reader *r, struct pdr_zstd *z, size_t n,
			uint64_t off)
{
	uint32_t bad_type = 0;
	uint16_t bad_size = 0;
	bool bad;
	size_t len = complete_len(r, z->buf, n, &bad, &bad_type, &bad_size);
	int err = 0;

	if (len) {
		struct pdr_chunk *c;
		uint64_t idx;

		c = pdr_chunk_new(r, len, off, false, &idx);
		if (!c)
			return errno == E2BIG ? pdr_fail(r, off, "too many COMPRESSED records")
					      : -ENOMEM;
		memcpy(c->buf, z->buf, len);
		c->len = (uint32_t)len;
		memmove(z->buf, z->buf + len, n - len);
		err = queue_chunk(r, idx);
		pdr_chunk_seal(r, idx);
	}
	z->tail = n - len;
	z->tail_off = off;
	if (!err && bad)
		err = pdr_fail(r, off, "decompressed record type %u has size %u (< 8)",
			       bad_type, bad_size);
	return err;
}

int pdr_zstd_record(struct sonde_perfdata_reader *r, uint64_t off, uint32_t type,
		    uint16_t size)
{
	const uint8_t *p = pdr_ptr(r, off);
	ZSTD_inBuffer in;
	ZSTD_outBuffer out;
	struct pdr_zstd *z;
	size_t produced = 0;
	uint64_t lim, budget;
	bool by_ratio = false;
	int err;

	r->nr_compressed++;
	if (r->comp.type && r->comp.type != COMP_ZSTD)
		return pdr_fail(r, off, "COMPRESSED record with compression type %u (HEADER_COMPRESSED); only zstd (1) is known",
				r->comp.type);
	if (type == SONDE_PERF_RECORD_COMPRESSED2) {
		uint64_t dsz;

		if (size < 16)
			return pdr_fail(r, off, "COMPRESSED2 record too short (%u bytes)", size);
		dsz = pdr_rd64(r, p + 8);
		if (dsz > size - 16u)
			return pdr_fail(r, off, "COMPRESSED2 data_size %llu exceeds the record (%u bytes)",
					(unsigned long long)dsz, size);
		in = (ZSTD_inBuffer){ p + 16, (size_t)dsz, 0 };
	} else {
		in = (ZSTD_inBuffer){ p + 8, size - 8u, 0 };
	}
	z = zstd_get(r);
	if (!z)
		return -ENOMEM;
	/* This record's bound: the ring buffer, and the stream's ratio. */
	lim = z->limit;
	budget = (z->in_total + in.size) * ZRATIO_MAX;
	if (budget < ZTOTAL_FLOOR)
		budget = ZTOTAL_FLOOR;
	budget = budget > z->out_total ? budget - z->out_total : 0;
	if (budget < lim) {
		lim = budget;
		by_ratio = true;
	}
	for (;;) {
		size_t ret, room = z->cap - z->tail;

		if (room > lim)
			room = (size_t)lim;
		if (produced == room) {
			if (produced >= lim) {
				/* Keep what decoded so far, then stop. */
				err = take_records(r, z, z->tail + produced, off);
				if (err == -ENOMEM)
					return err;
				if (by_ratio)
					return pdr_fail(r, off, "compressed data expands more than %u times: corrupt data",
							ZRATIO_MAX);
				return pdr_fail(r, off, "COMPRESSED record expands past %llu bytes (ring buffer %u bytes per HEADER_COMPRESSED): corrupt data",
						(unsigned long long)z->limit, r->comp.mmap_len);
			}
			err = grow(z, (size_t)lim);
			if (err)
				return err;
			continue;
		}
		out = (ZSTD_outBuffer){ z->buf + z->tail, room, produced };
		ret = ZSTD_decompressStream(z->ds, &out, &in);
		produced = out.pos;
		if (ZSTD_isError(ret)) {
			err = take_records(r, z, z->tail + produced, off);
			if (err == -ENOMEM)
				return err;
			return pdr_fail(r, off, "corrupt compressed data (zstd: %s)",
					ZSTD_getErrorName(ret));
		}
		/* All input consumed and the decoder did not fill the buffer:
		 * everything decodable so far is out. */
		if (in.pos == in.size && out.pos < out.size)
			break;
	}
	z->in_total += in.size;
	z->out_total += produced;
	err = take_records(r, z, z->tail + produced, off);
	return err == -ENOMEM ? err : (err ? -SONDE_ERR_FORMAT : 0);
}

void pdr_zstd_finish(struct sonde_perfdata_reader *r)
{
	struct pdr_zstd *z = r->zstd;

	/* An unterminated frame is normal (perf only flushes); a cut record is not. */
	if (z && z->tail)
		pdr_fail(r, z->tail_off,
			 "compressed data ends inside a record (%zu bytes of it decoded): file truncated",
			 z->tail);
}
