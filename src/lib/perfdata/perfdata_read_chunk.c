// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The chunk store: memory the reader hands records out of when they are
 * not in the mapped file. COMPRESSED records decompress into one chunk
 * each; records read from a pipe are copied into 256 KiB slabs, so that
 * the read buffer can be reused at once and a record waiting in the time
 * queue pins only its slab, not the stream behind it.
 *
 * Chunks are numbered in creation order and live in an array indexed from
 * chunk0. A file keeps them until close (its contract); a pipe frees a
 * sealed chunk once every record queued in it was handed out, one next()
 * call later (the record just returned stays valid until then), and drops
 * the freed prefix of the array, so memory follows the queue, not the
 * stream length.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core_priv.h"
#include "perfdata_priv.h"

#define SLAB_SIZE (256u << 10)

struct pdr_chunk *pdr_chunk_get(const struct sonde_perfdata_reader *r, uint64_t idx)
{
	return &r->chunks[idx - r->chunk0];
}

/* Drops the freed chunks at the start of the array. */
static void chunk_compact(struct sonde_perfdata_reader *r)
{
	size_t n = 0;

	while (n < r->nr_chunks && !r->chunks[n].buf && r->chunks[n].sealed)
		n++;
	/* Amortized: shift only when the dead prefix is a good part. */
	if (!n || (n < 64 && n * 2 < r->nr_chunks))
		return;
	memmove(r->chunks, r->chunks + n, (r->nr_chunks - n) * sizeof(*r->chunks));
	r->nr_chunks -= n;
	r->chunk0 += n;
}

struct pdr_chunk *pdr_chunk_new(struct sonde_perfdata_reader *r, size_t cap,
				uint64_t src_off, bool raw, uint64_t *idx)
{
	struct pdr_chunk *c;

	if (r->chunk0 + r->nr_chunks >= 0x7fffffffULL) {
		errno = E2BIG;
		return NULL;
	}
	if (r->nr_chunks == r->chunks_cap) {
		size_t ncap = r->chunks_cap ? r->chunks_cap * 2 : 64;
		struct pdr_chunk *nc = realloc(r->chunks, ncap * sizeof(*nc));

		if (!nc)
			return NULL;
		r->chunks = nc;
		r->chunks_cap = ncap;
	}
	c = &r->chunks[r->nr_chunks];
	memset(c, 0, sizeof(*c));
	c->buf = malloc(cap ? cap : 1);
	if (!c->buf)
		return NULL;
	c->cap = (uint32_t)cap;
	c->raw = raw;
	c->src_off = src_off;
	*idx = r->chunk0 + r->nr_chunks;
	r->nr_chunks++;
	return c;
}

static void chunk_free(struct sonde_perfdata_reader *r, struct pdr_chunk *c)
{
	free(c->buf);
	c->buf = NULL;
	chunk_compact(r);
}

void pdr_chunk_seal(struct sonde_perfdata_reader *r, uint64_t idx)
{
	struct pdr_chunk *c = pdr_chunk_get(r, idx);

	c->sealed = true;
	/* Nothing queued in it: no record handed out from now on is there. */
	if (r->in && !c->live)
		chunk_free(r, c);
}

void pdr_chunk_ref(struct sonde_perfdata_reader *r, uint64_t loc)
{
	pdr_chunk_get(r, (loc & ~PDR_ZLOC) >> 32)->live++;
}

void pdr_chunk_unref(struct sonde_perfdata_reader *r, uint64_t loc)
{
	uint64_t idx = (loc & ~PDR_ZLOC) >> 32;
	struct pdr_chunk *c = pdr_chunk_get(r, idx);

	/* One record is handed out per next(): at most one chunk drains. */
	if (!--c->live && c->sealed && r->in)
		r->release = idx + 1;
}

void pdr_chunk_release(struct sonde_perfdata_reader *r)
{
	if (r->release) {
		struct pdr_chunk *c = pdr_chunk_get(r, r->release - 1);

		r->release = 0;
		if (!c->live && c->buf)
			chunk_free(r, c);
	}
}

const uint8_t *pdr_slab_add(struct sonde_perfdata_reader *r, const uint8_t *p,
			    uint16_t size, uint64_t off, uint64_t *loc)
{
	struct pdr_chunk *c = r->slab ? pdr_chunk_get(r, r->slab - 1) : NULL;
	uint64_t idx;
	uint8_t *dst;

	if (c && c->len + 8u + size > c->cap) {
		pdr_chunk_seal(r, r->slab - 1);
		r->slab = 0;
		c = NULL;
	}
	if (!c) {
		c = pdr_chunk_new(r, SLAB_SIZE, 0, true, &idx);
		if (!c)
			return NULL;
		r->slab = idx + 1;
	}
	idx = r->slab - 1;
	dst = c->buf + c->len;
	memcpy(dst, &off, 8);
	memcpy(dst + 8, p, size);
	*loc = PDR_ZLOC | idx << 32 | c->len;
	c->len += 8u + size;
	return dst + 8;
}

void pdr_chunks_free(struct sonde_perfdata_reader *r)
{
	for (size_t i = 0; i < r->nr_chunks; i++)
		free(r->chunks[i].buf);
	free(r->chunks);
	r->chunks = NULL;
	r->nr_chunks = 0;
}
