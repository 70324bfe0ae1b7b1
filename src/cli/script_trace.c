// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Tracepoint text for sonde script: the event's print fmt evaluated on
 * the sample's RAW data (sonde_tp_print__format()), else "name=value" for every
 * non-common field. The format comes from the file's TRACING_DATA (the
 * recording kernel's, found by the attr.config id), else from this
 * machine's tracefs by the event's name when its ID matches attr.config
 * (same kernel); otherwise the fields are left out rather than decoded
 * wrongly.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/perfdata_reader.h"
#include "sonde/tracefs.h"
#include "script_trace.h"

struct trace_fmt {
	const char *event; /* "sys:name" */
	struct sonde_tp_format *fmt;
	struct sonde_tp_print *print; /* its print fmt, when understood */
	bool tried;
};

struct script_trace {
	struct trace_fmt *v;
	size_t n;
	sonde_tp_sym_fn sym;
	void *sym_ctx;
	const struct sonde_perfdata_reader *r;
	struct sonde_tp_format **rec;	/* from TRACING_DATA; taken when used */
	size_t nr_rec;
	bool rec_loaded;
};

struct script_trace *script_trace_new(const struct sonde_perfdata_reader *r,
				      sonde_tp_sym_fn sym, void *ctx)
{
	struct script_trace *t = calloc(1, sizeof(struct script_trace));

	if (t) {
		t->r = r;
		t->sym = sym;
		t->sym_ctx = ctx;
	}
	return t;
}

static int add_recorded(void *ctx, const char *sys, const char *text, size_t len)
{
	struct script_trace *t = ctx;
	struct sonde_tp_format *fmt, **v;

	(void)sys;
	fmt = sonde_tp_format__parse(text, len, NULL);
	if (!fmt)
		return 0;	/* one bad format spoils only its event */
	v = realloc(t->rec, (t->nr_rec + 1) * sizeof(*v));
	if (!v) {
		sonde_tp_format__free(fmt);
		return -1;
	}
	t->rec = v;
	v[t->nr_rec++] = fmt;
	return 0;
}

/*
 * The recorded formats, read when the first tracepoint sample needs one
 * (a pipe's TRACING_DATA has been met by then).
 */
static struct sonde_tp_format *recorded_fmt(struct script_trace *t, uint64_t id)
{
	const struct sonde_perfdata_reader *r = t->r;
	const void *td;
	size_t td_len = 0;

	if (!t->rec_loaded && (td = sonde_perfdata_reader__tracing_data(r, &td_len))) {
		t->rec_loaded = true;
		if (sonde_tracing_data__for_each_format(td, td_len, add_recorded,
							t, NULL) < 0)
			fprintf(stderr, "sonde script: the file's tracing data is corrupt; "
				"using this machine's tracepoint formats\n");
	}
	for (size_t i = 0; i < t->nr_rec; i++) {
		struct sonde_tp_format *fmt = t->rec[i];

		if (fmt && sonde_tp_format__id(fmt) == (int64_t)id) {
			t->rec[i] = NULL;
			return fmt;
		}
	}
	return NULL;
}

void script_trace_free(struct script_trace *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++) {
		sonde_tp_print__free(t->v[i].print);
		sonde_tp_format__free(t->v[i].fmt);
	}
	for (size_t i = 0; i < t->nr_rec; i++)
		sonde_tp_format__free(t->rec[i]);
	free(t->rec);
	free(t->v);
	free(t);
}

static struct trace_fmt *get_fmt(struct script_trace *t, const char *event,
				 uint64_t id)
{
	struct trace_fmt *f = NULL, *nv;
	char sys[256];
	const char *colon = strchr(event, ':');

	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->v[i].event, event))
			f = &t->v[i];
	if (!f) {
		nv = realloc(t->v, (t->n + 1) * sizeof(*nv));
		if (!nv)
			return NULL;
		t->v = nv;
		f = &t->v[t->n++];
		memset(f, 0, sizeof(*f));
		f->event = event;
	}
	if (f->tried)
		return f;
	f->tried = true;
	f->fmt = recorded_fmt(t, id);
	if (f->fmt)
		goto compile;
	if (!colon || (size_t)(colon - event) >= sizeof(sys))
		return f;
	memcpy(sys, event, (size_t)(colon - event));
	sys[colon - event] = 0;
	f->fmt = sonde_tp_format__load(NULL, sys, colon + 1);
	if (f->fmt && sonde_tp_format__id(f->fmt) != (int64_t)id) {
		/* Another kernel's event numbering: do not guess. */
		sonde_tp_format__free(f->fmt);
		f->fmt = NULL;
	}
compile:
	if (f->fmt) {
		SONDE_OPTS(sonde_tp_print_opts, po, .sym = t->sym,
			   .sym_ctx = t->sym_ctx);

		f->print = sonde_tp_print__new(f->fmt, &po);
	}
	return f;
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

void script_trace_fields(struct script_trace *t, struct outbuf *o, const char *event,
			 uint64_t id, const uint8_t *raw, uint32_t raw_size)
{
	struct trace_fmt *tf = raw ? get_fmt(t, event, id) : NULL;
	struct sonde_tp_format *fmt = tf ? tf->fmt : NULL;
	size_t n = fmt ? sonde_tp_format__field_count(fmt) : 0;
	bool first = true;

	/* As perf prints it; else every field as name=value. */
	if (tf && tf->print && put_print(tf->print, o, raw, raw_size))
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
