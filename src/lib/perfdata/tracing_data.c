// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Walks a TRACING_DATA blob to its event format files: magic, version,
 * byte order, long size, page size, header_page and header_event, the
 * ftrace formats, then per system its event formats. Sizes are in the
 * recording machine's byte order (the blob says which).
 */
#include <errno.h>
#include <string.h>
#include "sonde/perfdata_reader.h"
#include "core_priv.h"
#include "perfdata_priv.h"

struct cur {
	const uint8_t *p;
	size_t len, off;
	bool little, bad;	/* byte order of the recording machine */
};

static const void *take(struct cur *c, size_t n)
{
	const void *at = c->p + c->off;

	if (c->bad || n > c->len - c->off) {
		c->bad = true;
		return NULL;
	}
	c->off += n;
	return at;
}

static uint64_t num(struct cur *c, size_t n)
{
	const uint8_t *b = take(c, n);
	uint64_t v = 0;

	if (!b)
		return 0;
	for (size_t i = 0; i < n; i++) {
		size_t k = c->little ? n - 1 - i : i; /* most significant first */

		v = v << 8 | b[k];
	}
	return v;
}

/* A NUL-terminated string inside the blob. */
static const char *cstr(struct cur *c)
{
	const char *s = (const char *)c->p + c->off;
	const void *nul;

	if (c->bad || !(nul = memchr(s, 0, c->len - c->off))) {
		c->bad = true;
		return NULL;
	}
	c->off += (size_t)((const char *)nul - s) + 1;
	return s;
}

int sonde_tracing_data__for_each_format(const void *data, size_t len,
					sonde_tracing_format_fn fn, void *ctx,
					size_t *err_off)
{
	static const uint8_t magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a',
					   'c', 'i', 'n', 'g' };
	const uint8_t *blob = data;
	struct cur c = { .p = blob, .len = len };
	const uint8_t *m = take(&c, sizeof(magic));
	uint64_t n, nsys;
	const uint8_t *be;
	int ret;

	if (!m || memcmp(m, magic, sizeof(magic)))
		goto bad;
	cstr(&c);			/* version */
	be = take(&c, 1);
	if (!be)
		goto bad;
	c.little = !*be;
	take(&c, 1);			/* sizeof(long) */
	num(&c, 4);			/* page size */
	for (int i = 0; i < 2; i++) {	/* header_page, header_event */
		cstr(&c);
		take(&c, num(&c, 8));
	}
	n = num(&c, 4);			/* ftrace formats */
	for (uint64_t i = 0; i < n && !c.bad; i++)
		take(&c, num(&c, 8));
	nsys = num(&c, 4);
	for (uint64_t s = 0; s < nsys && !c.bad; s++) {
		const char *sys = cstr(&c);

		n = num(&c, 4);
		for (uint64_t i = 0; i < n && !c.bad; i++) {
			uint64_t sz = num(&c, 8);
			const char *text = take(&c, sz);

			if (!text)
				break;
			ret = fn(ctx, sys, text, (size_t)sz);
			if (ret)
				return ret;
		}
	}
	if (!c.bad)
		return 0;
bad:
	if (err_off)
		*err_off = c.off;
	return lib_err(SONDE_ERR_FORMAT);
}

const void *sonde_perfdata_reader__tracing_data(const struct sonde_perfdata_reader *r,
						size_t *len)
{
	size_t n = 0;
	const uint8_t *td = r ? pdr_tracing_data(r, &n) : NULL;

	if (len)
		*len = td ? n : 0;
	return td;
}
