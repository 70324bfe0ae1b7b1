/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * The record walker shared by decode and swap, and the writer the encoder
 * uses. One walker, two modes: in swap mode every integer is byte-swapped in
 * place just before it is read, so the layout is written down only once.
 */
#ifndef SONDE_RECORD_PRIV_H
#define SONDE_RECORD_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "sonde/record.h"
#include "core_priv.h"

struct rcur {
	uint8_t *base;	/* record start (written only in swap mode) */
	size_t off;	/* next byte to read */
	size_t end;	/* first byte not to read */
	bool swap;
	uint32_t err_off;
	const char *err_what;
};

static inline int rc_fail(struct rcur *c, const char *what)
{
	c->err_off = (uint32_t)c->off;
	c->err_what = what;
	return -SONDE_ERR_FORMAT;
}

static inline bool rc_has(const struct rcur *c, size_t n)
{
	return c->off <= c->end && c->end - c->off >= n;
}

static inline int rc_u64(struct rcur *c, uint64_t *v, const char *what)
{
	uint8_t *p = c->base + c->off;

	if (!rc_has(c, 8))
		return rc_fail(c, what);
	if (c->swap) {
		uint64_t t;

		memcpy(&t, p, 8);
		t = __builtin_bswap64(t);
		memcpy(p, &t, 8);
	}
	memcpy(v, p, 8);
	c->off += 8;
	return 0;
}

static inline int rc_u32(struct rcur *c, uint32_t *v, const char *what)
{
	uint8_t *p = c->base + c->off;

	if (!rc_has(c, 4))
		return rc_fail(c, what);
	if (c->swap) {
		uint32_t t;

		memcpy(&t, p, 4);
		t = __builtin_bswap32(t);
		memcpy(p, &t, 4);
	}
	memcpy(v, p, 4);
	c->off += 4;
	return 0;
}

static inline int rc_u16(struct rcur *c, uint16_t *v, const char *what)
{
	uint8_t *p = c->base + c->off;

	if (!rc_has(c, 2))
		return rc_fail(c, what);
	if (c->swap) {
		uint16_t t;

		memcpy(&t, p, 2);
		t = __builtin_bswap16(t);
		memcpy(p, &t, 2);
	}
	memcpy(v, p, 2);
	c->off += 2;
	return 0;
}

/* @n bytes left as they are (strings, blobs); *ptr points at them. */
static inline int rc_bytes(struct rcur *c, uint64_t n, const void **ptr,
			   const char *what)
{
	if (!rc_has(c, 0) || n > c->end - c->off)
		return rc_fail(c, what);
	*ptr = c->base + c->off;
	c->off += (size_t)n;
	return 0;
}

/* Padding up to the next multiple of 8 from the record start. */
static inline int rc_pad8(struct rcur *c, const char *what)
{
	size_t pad = (8 - (c->off & 7)) & 7;

	if (!rc_has(c, pad))
		return rc_fail(c, what);
	c->off += pad;
	return 0;
}

/* @n u64s (swapped in place in swap mode); *ptr points at the first. */
static inline int rc_u64s(struct rcur *c, uint64_t n, const uint64_t **ptr,
			  const char *what)
{
	uint8_t *p = c->base + c->off;

	if (!rc_has(c, 0) || n > (c->end - c->off) / 8)
		return rc_fail(c, what);
	if (c->swap) {
		for (uint64_t i = 0; i < n; i++) {
			uint64_t t;

			memcpy(&t, p + i * 8, 8);
			t = __builtin_bswap64(t);
			memcpy(p + i * 8, &t, 8);
		}
	}
	*ptr = (const uint64_t *)(const void *)p;
	c->off += (size_t)n * 8;
	return 0;
}

/* The encoder's output: counts bytes always, writes them when buf != NULL. */
struct wcur {
	uint8_t *buf;
	size_t off;
	size_t cap;
	bool overflow;
	bool swap;	/* write the other byte order (tests of the swapper) */
};

static inline void wc_bytes(struct wcur *w, const void *src, size_t n)
{
	if (w->buf && !w->overflow) {
		if (w->off > w->cap || n > w->cap - w->off) {
			w->overflow = true;
		} else if (n) {
			if (src)
				memcpy(w->buf + w->off, src, n);
			else
				memset(w->buf + w->off, 0, n);
		}
	}
	w->off += n;
}

static inline void wc_u64(struct wcur *w, uint64_t v)
{
	if (w->swap)
		v = __builtin_bswap64(v);
	wc_bytes(w, &v, 8);
}

static inline void wc_u32(struct wcur *w, uint32_t v)
{
	if (w->swap)
		v = __builtin_bswap32(v);
	wc_bytes(w, &v, 4);
}

static inline void wc_u16(struct wcur *w, uint16_t v)
{
	if (w->swap)
		v = __builtin_bswap16(v);
	wc_bytes(w, &v, 2);
}

/* @n u64s from a possibly unaligned array. */
static inline void wc_u64s(struct wcur *w, const void *src, size_t n)
{
	const uint8_t *p = src;

	if (!w->swap) {
		wc_bytes(w, src, n * 8);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t v;

		memcpy(&v, p + i * 8, 8);
		wc_u64(w, v);
	}
}
static inline void wc_zero(struct wcur *w, size_t n) { wc_bytes(w, NULL, n); }
static inline void wc_pad8(struct wcur *w) { wc_zero(w, (8 - (w->off & 7)) & 7); }

/*
 * The usual sample (perf record with or without -g, -a, more events):
 * fields at fixed places, then at most a callchain, nothing after it. A
 * plan of where each field sits lets a reader check a sample's size once
 * and read its fields straight, rather than walk the layout field by field
 * with a bounds check each. Any other layout, or a sample whose size does
 * not fit the plan exactly, takes the walk (which says what is wrong).
 */
struct sample_plan {
	bool fixed; /* the layout is the usual one: the offsets hold */
	/* Offsets from the record start (header included); 0: absent. */
	uint8_t identifier, ip, tid, time, addr, id, stream_id, cpu, period;
	uint8_t chain; /* the callchain's nr, or 0 */
	uint8_t head;  /* bytes before the callchain's entries (or all of them) */
};

void sample_plan_make(const struct sonde_record_fmt *fmt, struct sample_plan *pl);

/*
 * Does the sample record at @rec, of header.size @size (all readable), fill
 * @pl's layout exactly? *@nr: its callchain's length (0 without one).
 */
static inline bool sample_plan_fits(const struct sample_plan *pl, const uint8_t *rec,
				    size_t size, uint64_t *nr)
{
	size_t rest;

	*nr = 0;
	if (!pl->fixed || size < pl->head)
		return false;
	rest = size - pl->head;
	if (!pl->chain)
		return !rest;
	memcpy(nr, rec + pl->chain, 8);
	return !(rest % 8) && *nr == rest / 8;
}

/* The u64 at @off of @rec, or 0 for an absent field (@off 0). */
static inline uint64_t sample_plan_u64(const uint8_t *rec, uint8_t off)
{
	uint64_t v = 0;

	if (off)
		memcpy(&v, rec + off, 8);
	return v;
}

/*
 * The fields of a sample a profile reads, in host order: what every source
 * (a perf.data file, a pipe, a live ring) decodes its samples into before
 * they are counted. Smaller than struct sonde_sample, so a reader can fill
 * it per sample without building a whole struct sonde_record. Pointers are
 * into the record, as in struct sonde_sample. pid, tid and cpu are
 * (uint32_t)-1 when the sample does not carry them; period falls back to
 * the event's (sample_view_parse's @period0) without PERIOD.
 */
struct sample_view {
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t addr;
	uint64_t id; /* IDENTIFIER, else ID */
	uint64_t stream_id;
	uint32_t cpu;
	uint64_t period;
	uint64_t nr_callchain;
	const uint8_t *callchain; /* nr_callchain u64 */
	uint32_t raw_size;
	const uint8_t *raw;
	uint64_t regs_abi, regs_mask;
	const uint8_t *regs; /* nr_regs u64 */
	uint32_t nr_regs;
	uint64_t stack_size, stack_dyn_size;
	const uint8_t *stack;
};

/* sample_view.c: the view of a decoded sample @ss of layout @fmt. */
void sample_view_of(const struct sonde_record_fmt *fmt, uint64_t period0,
		    const struct sonde_sample *ss, struct sample_view *s);
/* sample_view.c: the view through sonde_record__decode (any layout). */
int sample_view_decode(const struct sonde_record_fmt *fmt, uint64_t period0,
		       const uint8_t *rec, size_t size, struct sample_view *s);

/*
 * The usual layout, read straight from the plan: the size was checked once
 * (sample_plan_fits), so no field needs a bounds check of its own. Sets
 * what sample_view_of() sets, field for field.
 */
static inline void sample_view_usual(const struct sample_plan *pl, uint64_t period0,
				     const uint8_t *rec, uint64_t nr, struct sample_view *s)
{
	s->ip = sample_plan_u64(rec, pl->ip);
	s->pid = s->tid = (uint32_t)-1;
	if (pl->tid) {
		memcpy(&s->pid, rec + pl->tid, 4);
		memcpy(&s->tid, rec + pl->tid + 4, 4);
	}
	s->time = sample_plan_u64(rec, pl->time);
	s->addr = sample_plan_u64(rec, pl->addr);
	s->id = sample_plan_u64(rec, pl->identifier ? pl->identifier : pl->id);
	s->stream_id = sample_plan_u64(rec, pl->stream_id);
	s->cpu = (uint32_t)-1;
	if (pl->cpu)
		memcpy(&s->cpu, rec + pl->cpu, 4);
	s->period = pl->period ? sample_plan_u64(rec, pl->period) : period0;
	s->nr_callchain = nr;
	s->callchain = pl->chain ? rec + pl->chain + 8 : NULL;
	s->raw_size = 0;
	s->raw = NULL;
	s->regs_abi = s->regs_mask = 0;
	s->regs = NULL;
	s->nr_regs = 0;
	s->stack_size = s->stack_dyn_size = 0;
	s->stack = NULL;
}

/*
 * The view of the SAMPLE record at @rec (@size bytes, host order): read
 * straight when it fits @pl (sample_plan_make of @fmt), else through
 * sonde_record__decode. 0, or its negative error (-SONDE_ERR_FORMAT).
 * Inline: it runs once per sample of a file.
 */
static inline int sample_view_parse(const struct sonde_record_fmt *fmt,
				    const struct sample_plan *pl, uint64_t period0,
				    const uint8_t *rec, size_t size, struct sample_view *s)
{
	uint32_t type;
	uint64_t nr;

	memcpy(&type, rec, 4);
	if (type == SONDE_PERF_RECORD_SAMPLE && sample_plan_fits(pl, rec, size, &nr)) {
		sample_view_usual(pl, period0, rec, nr, s);
		return 0;
	}
	return sample_view_decode(fmt, period0, rec, size, s);
}

/* sample_decode.c / sample_encode.c */
int read_values_walk(struct rcur *c, uint64_t read_format,
		     struct sonde_read_values *rv);
int sample_walk(struct rcur *c, const struct sonde_record_fmt *fmt,
		struct sonde_sample *s);
int sample_id_walk(struct rcur *c, const struct sonde_record_fmt *fmt,
		   struct sonde_sample_id *sid);
size_t sample_id_size(const struct sonde_record_fmt *fmt);
int read_values_put(struct wcur *w, uint64_t read_format,
		    const struct sonde_read_values *rv);
int sample_put(struct wcur *w, const struct sonde_record_fmt *fmt,
	       const struct sonde_sample *s);
void sample_id_put(struct wcur *w, const struct sonde_record_fmt *fmt,
		   const struct sonde_sample_id *sid);

/* record_decode.c: decode (swap = false) or swap-then-decode (swap = true). */
int record_walk(const struct sonde_record_fmt *fmt, uint8_t *buf, size_t len,
		bool swap, struct sonde_record *rec);

/* record_swap.c */
uint64_t bitfield_mirror(uint64_t v, unsigned int bits, const uint8_t *widths,
			 size_t n, bool to_foreign);
void branch_flags_swap(uint8_t *p);
uint64_t branch_flags_to_foreign(uint64_t host);
void attr_swap(uint8_t *p, size_t size, bool to_foreign);

/*
 * record_encode.c: encode in the other byte order, so tests can feed
 * sonde_record__swap() records of every type.
 */
int record_encode_foreign(const struct sonde_record_fmt *fmt,
			  const struct sonde_record *rec, void *buf, size_t size);

/* Does this MMAP2 record hold a build id rather than maj/min/ino? */
static inline bool mmap2_build_id_layout(const struct sonde_record_fmt *fmt,
					 uint16_t misc)
{
	return (misc & SONDE_PERF_RECORD_MISC_MMAP_BUILD_ID) &&
	       fmt->mmap2_build_id != SONDE_RECORD_BUILD_ID_OFF;
}

/* Kernel types 1..63 carry the trailer; user types (64+) never do. */
static inline bool record_has_trailer(const struct sonde_record_fmt *fmt,
				      uint32_t type)
{
	return fmt->sample_id_all && type != SONDE_PERF_RECORD_SAMPLE &&
	       type < SONDE_PERF_RECORD_USER_TYPE_START;
}

#endif /* SONDE_RECORD_PRIV_H */
