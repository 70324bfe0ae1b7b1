// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Interim SAMPLE / sample_id decoder for the reader, in one file so that it
 * can be swapped for the record codec (include/sonde/record.h) once that
 * lands. Bounds-checked; reads through pdr_rd*() so either byte order works
 * without rewriting the mapping.
 */
#include <string.h>
#include "internal.h"
#include "perfdata_read.h"

struct rd {
	const struct sonde_perfdata_reader *r;
	const uint8_t *p, *end;
	bool bad;
};

static uint64_t u64(struct rd *d)
{
	uint64_t v;

	if (d->bad || d->end - d->p < 8) {
		d->bad = true;
		return 0;
	}
	v = pdr_rd64(d->r, d->p);
	d->p += 8;
	return v;
}

/* Two u32 packed in one u64 slot (pid/tid, cpu/res). */
static void u32x2(struct rd *d, uint32_t *a, uint32_t *b)
{
	if (d->bad || d->end - d->p < 8) {
		d->bad = true;
		return;
	}
	*a = pdr_rd32(d->r, d->p);
	*b = pdr_rd32(d->r, d->p + 4);
	d->p += 8;
}

static bool skip(struct rd *d, uint64_t n)
{
	if (d->bad || (uint64_t)(d->end - d->p) < n) {
		d->bad = true;
		return false;
	}
	d->p += n;
	return true;
}

static void read_values(struct rd *d, uint64_t fmt)
{
	uint64_t per = 1;

	if (fmt & 8) /* PERF_FORMAT_GROUP */ {
		uint64_t nr = u64(d);

		if (fmt & 1)
			u64(d);
		if (fmt & 2)
			u64(d);
		if (fmt & 4)
			per++;
		if (fmt & 16)
			per++;
		if (nr > 4096) {
			d->bad = true;
			return;
		}
		skip(d, nr * per * 8);
	} else {
		uint64_t n = 1;

		for (int b = 0; b < 5; b++)
			if (b != 3 && (fmt & (1u << b)))
				n++;
		skip(d, n * 8);
	}
}

int pdr_parse_sample(const struct sonde_perfdata_reader *r, const struct pdr_attr *a,
		     const uint8_t *rec, uint16_t size, struct pdr_sample *s)
{
	uint64_t st = a->attr.sample_type;
	struct rd d = { .r = r, .p = rec + 8, .end = rec + size };

	memset(s, 0, sizeof(*s));
	s->cpu = (uint32_t)-1;
	s->pid = s->tid = (uint32_t)-1;
	s->period = a->attr.freq ? 1 : a->attr.sample_period;
	if (st & SONDE_PERF_SAMPLE_IDENTIFIER)
		s->id = u64(&d);
	if (st & SONDE_PERF_SAMPLE_IP)
		s->ip = u64(&d);
	if (st & SONDE_PERF_SAMPLE_TID)
		u32x2(&d, &s->pid, &s->tid);
	if (st & SONDE_PERF_SAMPLE_TIME)
		s->time = u64(&d);
	if (st & SONDE_PERF_SAMPLE_ADDR)
		s->addr = u64(&d);
	if (st & SONDE_PERF_SAMPLE_ID)
		s->id = u64(&d);
	if (st & SONDE_PERF_SAMPLE_STREAM_ID)
		s->stream_id = u64(&d);
	if (st & SONDE_PERF_SAMPLE_CPU) {
		uint32_t res;

		u32x2(&d, &s->cpu, &res);
	}
	if (st & SONDE_PERF_SAMPLE_PERIOD)
		s->period = u64(&d);
	if (st & SONDE_PERF_SAMPLE_READ)
		read_values(&d, a->attr.read_format);
	if (st & SONDE_PERF_SAMPLE_CALLCHAIN) {
		s->nr_callchain = u64(&d);
		s->callchain = d.p;
		if (s->nr_callchain > 65536 / 8 || !skip(&d, s->nr_callchain * 8)) {
			s->nr_callchain = 0;
			d.bad = true;
		}
	}
	if (st & SONDE_PERF_SAMPLE_RAW) {
		if (d.end - d.p < 4)
			d.bad = true;
		else {
			s->raw_size = pdr_rd32(r, d.p);
			s->raw = d.p + 4;
			/* u32 size + data, padded so the next field is u64 aligned */
			if (!skip(&d, 4 + (uint64_t)s->raw_size))
				s->raw = NULL;
			else
				d.p = rec + 8 + (((uint64_t)(d.p - rec - 8) + 7) & ~7ULL);
			if (d.p > d.end)
				d.bad = true;
		}
	}
	if (st & SONDE_PERF_SAMPLE_BRANCH_STACK) {
		uint64_t nr = u64(&d);

		if (a->attr.branch_sample_type & (1ULL << 17)) /* HW_INDEX */
			u64(&d);
		if (nr > 65536 / 24)
			d.bad = true;
		skip(&d, nr * 24);
	}
	if (st & SONDE_PERF_SAMPLE_REGS_USER) {
		s->regs_abi = u64(&d);
		if (s->regs_abi) {
			s->regs_mask = a->attr.sample_regs_user;
			s->regs = d.p;
			skip(&d, 8ULL * (uint64_t)__builtin_popcountll(s->regs_mask));
		}
	}
	if (st & SONDE_PERF_SAMPLE_STACK_USER) {
		s->stack_size = u64(&d);
		if (s->stack_size) {
			s->stack = d.p;
			if (skip(&d, s->stack_size))
				s->stack_dyn_size = u64(&d);
			if (s->stack_dyn_size > s->stack_size)
				s->stack_dyn_size = s->stack_size;
		}
	}
	/* Later fields (weight, data_src, ...) are not used by the reports. */
	return d.bad ? -SONDE_ERR_FORMAT : 0;
}

void pdr_parse_trailer(const struct sonde_perfdata_reader *r, const struct pdr_attr *a,
		       const uint8_t *rec, uint16_t size, struct pdr_sample_id *sid)
{
	uint64_t st = a->attr.sample_type;
	const uint8_t *p;

	sid->pid = sid->tid = -1;
	sid->time = 0;
	sid->cpu = -1;
	if (!a->trailer_size || size < 8u + a->trailer_size)
		return;
	p = rec + size - a->trailer_size;
	if (st & SONDE_PERF_SAMPLE_TID) {
		sid->pid = (int32_t)pdr_rd32(r, p);
		sid->tid = (int32_t)pdr_rd32(r, p + 4);
		p += 8;
	}
	if (st & SONDE_PERF_SAMPLE_TIME) {
		sid->time = pdr_rd64(r, p);
		p += 8;
	}
	if (st & SONDE_PERF_SAMPLE_ID)
		p += 8;
	if (st & SONDE_PERF_SAMPLE_STREAM_ID)
		p += 8;
	if (st & SONDE_PERF_SAMPLE_CPU)
		sid->cpu = (int32_t)pdr_rd32(r, p);
}
