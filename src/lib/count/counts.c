// SPDX-License-Identifier: LGPL-2.1-only
/* read_format decoding and multiplex scaling. */
#include <string.h>
#include "sonde/abi.h"
#include "sonde/counts.h"
#include "core_priv.h"

void sonde_count__scale(struct sonde_count *c)
{
	c->flags &= ~(SONDE_COUNT_SCALED | SONDE_COUNT_NOT_COUNTED);
	if (c->ena && !c->run) {
		c->scaled = 0;
		c->flags |= SONDE_COUNT_NOT_COUNTED;
	} else if (c->run && c->run < c->ena) {
		/* 128-bit so val * ena cannot overflow. */
		c->scaled = (uint64_t)((unsigned __int128)c->val * c->ena / c->run);
		c->flags |= SONDE_COUNT_SCALED;
	} else {
		c->scaled = c->val;
	}
}

void sonde_count__add(struct sonde_count *sum, const struct sonde_count *c)
{
	sum->val += c->val;
	sum->ena += c->ena;
	sum->run += c->run;
	sum->lost += c->lost;
	sonde_count__scale(sum);
}

/* Bounded cursor over the u64 words of a read buffer. */
struct cur {
	const unsigned char *p;
	size_t left;
	bool bad;
};

static uint64_t take(struct cur *c)
{
	uint64_t v = 0;

	if (c->left < 8) {
		c->bad = true;
		return 0;
	}
	memcpy(&v, c->p, 8);
	c->p += 8;
	c->left -= 8;
	return v;
}

int sonde_count__decode(const void *buf, size_t len, uint64_t rf,
			struct sonde_count *out, size_t n)
{
	struct cur c = { .p = buf, .left = len };
	struct sonde_count one = { 0 };
	uint64_t nr;

	if (!buf)
		return lib_err(EINVAL);
	if (!(rf & SONDE_PERF_FORMAT_GROUP)) {
		one.val = take(&c);
		if (rf & SONDE_PERF_FORMAT_TOTAL_TIME_ENABLED)
			one.ena = take(&c);
		if (rf & SONDE_PERF_FORMAT_TOTAL_TIME_RUNNING)
			one.run = take(&c);
		if (rf & SONDE_PERF_FORMAT_ID)
			one.id = take(&c);
		if (rf & SONDE_PERF_FORMAT_LOST)
			one.lost = take(&c);
		if (c.bad)
			return lib_err(SONDE_ERR_FORMAT);
		sonde_count__scale(&one);
		if (n)
			out[0] = one;
		return 1;
	}
	nr = take(&c);
	if (rf & SONDE_PERF_FORMAT_TOTAL_TIME_ENABLED)
		one.ena = take(&c);
	if (rf & SONDE_PERF_FORMAT_TOTAL_TIME_RUNNING)
		one.run = take(&c);
	if (c.bad || nr > c.left / 8)
		return lib_err(SONDE_ERR_FORMAT);
	for (uint64_t i = 0; i < nr; i++) {
		struct sonde_count e = one;

		e.val = take(&c);
		if (rf & SONDE_PERF_FORMAT_ID)
			e.id = take(&c);
		if (rf & SONDE_PERF_FORMAT_LOST)
			e.lost = take(&c);
		if (c.bad)
			return lib_err(SONDE_ERR_FORMAT);
		sonde_count__scale(&e);
		if (i < n)
			out[i] = e;
	}
	return nr > INT32_MAX ? INT32_MAX : (int)nr;
}
