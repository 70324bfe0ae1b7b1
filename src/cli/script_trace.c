// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Tracepoint text for sonde script: the event's print fmt evaluated on
 * the sample's RAW data (sonde_tp_print__format()), else "name=value" for
 * every non-common field. The format is the reader's
 * (sonde_perfdata_reader__tp_format(): the recording's TRACING_DATA, else
 * this machine's tracefs when the ids agree); otherwise the fields are
 * left out rather than decoded wrongly.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/perfdata_reader.h"
#include "sonde/tracefs.h"
#include "script_trace.h"

struct script_trace {
	struct sonde_perfdata_reader *r;
	struct sonde_perfdata_tp_opts opts;
	bool warned;
};

struct script_trace *script_trace_new(struct sonde_perfdata_reader *r,
				      sonde_tp_sym_fn sym, void *ctx)
{
	struct script_trace *t = calloc(1, sizeof(struct script_trace));

	if (t) {
		t->r = r;
		t->opts.sz = sizeof(t->opts);
		t->opts.sym = sym;
		t->opts.sym_ctx = ctx;
	}
	return t;
}

void script_trace_free(struct script_trace *t)
{
	free(t);
}

static uint64_t load_uint(const uint8_t *p, uint32_t size)
{
	uint64_t v = 0;

	switch (size) {
	case 1: v = p[0]; break;
	case 2: { uint16_t x; memcpy(&x, p, 2); v = x; break; }
	case 4: { uint32_t x; memcpy(&x, p, 4); v = x; break; }
	case 8: memcpy(&v, p, 8); break;
	default: break;
	}
	return v;
}

static int64_t sign_extend(uint64_t v, uint32_t size)
{
	if (size >= 8)
		return (int64_t)v;
	if (v & (1ULL << (size * 8 - 1)))
		v |= ~0ULL << (size * 8);
	return (int64_t)v;
}

static void put_str(struct outbuf *o, const uint8_t *p, size_t max)
{
	size_t n = strnlen((const char *)p, max);

	ob_write(o, p, n);
}

/* One field's value; false if it lies outside the raw data. */
static bool put_field(struct outbuf *o, const struct sonde_tp_field *f, const uint8_t *raw,
		      uint32_t raw_size)
{
	bool is_char = f->type && strstr(f->type, "char") && (f->array_len || f->is_dynamic);

	if ((uint64_t)f->offset + f->size > raw_size)
		return false;
	{
		if (f->is_dynamic) {
			uint32_t w = (uint32_t)load_uint(raw + f->offset, 4);
			uint32_t off = w & 0xffff, len = w >> 16;

			if (f->is_relative)
				off += f->offset + f->size;
			if ((uint64_t)off + len <= raw_size && is_char)
				put_str(o, raw + off, len);
			else
				ob_printf(o, "ARRAY[%u]", len);
		} else if (is_char) {
			put_str(o, raw + f->offset, f->size);
		} else if (f->size <= 8 && !f->array_len) {
			uint64_t v = load_uint(raw + f->offset, f->size);

			if (f->is_signed)
				ob_printf(o, "%" PRId64, sign_extend(v, f->size));
			else
				ob_printf(o, "%" PRIu64, v);
		} else {
			ob_puts(o, "ARRAY");
		}
	}
	return true;
}

/*
 * The print fmt's text straight into @o's free room, grown once when the
 * text is longer. False (nothing written) when the data does not fit.
 */
static bool put_print(const struct sonde_tp_print *p, struct outbuf *o,
		      const uint8_t *raw, uint32_t raw_size)
{
	for (int tries = 0; tries < 2; tries++) {
		size_t room = o->cap - o->len;
		int n = sonde_tp_print__format(p, raw, raw_size, o->buf + o->len, room);

		if (n < 0)
			return false;
		if ((size_t)n < room) {
			o->len += (size_t)n;
			return true;
		}
		ob_reserve(o, (size_t)n + 1);
	}
	return false;
}

void script_trace_fields(struct script_trace *t, struct outbuf *o, int idx,
			 const uint8_t *raw, uint32_t raw_size)
{
	const struct sonde_tp_format *fmt = NULL;
	const struct sonde_tp_print *print = NULL;
	int rc = raw ? sonde_perfdata_reader__tp_format(t->r, idx, &t->opts, &fmt, &print) : -EINVAL;
	size_t n = fmt ? sonde_tp_format__field_count(fmt) : 0;
	bool first = true;

	if (!t->warned && ((rc >= 0 && (rc & SONDE_TP_BAD_TRACING_DATA)) ||
			   rc == -SONDE_ERR_FORMAT)) {
		t->warned = true;
		fprintf(stderr, "sonde script: the file's tracing data is corrupt; "
			"using this machine's tracepoint formats\n");
	}
	/* As perf prints it; else every field as name=value. */
	if (print && put_print(print, o, raw, raw_size))
		return;
	for (size_t i = 0; i < n; i++) {
		const struct sonde_tp_field *f = sonde_tp_format__field(fmt, i);

		if (f->is_common)
			continue;
		ob_puts(o, first ? "" : " ");
		first = false;
		ob_puts(o, f->name);
		ob_putc(o, '=');
		if (!put_field(o, f, raw, raw_size))
			break;
	}
}
