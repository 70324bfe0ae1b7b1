// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Tracepoint fields for sonde script: "name=value" for every non-common
 * field of the sample's RAW data, laid out by the event's format file.
 * The format is read from this machine's tracefs by the event's name and
 * used only when its ID matches the recorded attr.config (same kernel);
 * otherwise the fields are left out rather than decoded wrongly.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/tracefs.h"
#include "script-trace.h"

struct trace_fmt {
	const char *event; /* "sys:name" */
	struct sonde_tp_format *fmt;
	bool tried;
};

struct script_trace {
	struct trace_fmt *v;
	size_t n;
};

struct script_trace *script_trace_new(void)
{
	return calloc(1, sizeof(struct script_trace));
}

void script_trace_free(struct script_trace *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++)
		sonde_tp_format__delete(t->v[i].fmt);
	free(t->v);
	free(t);
}

static struct sonde_tp_format *get_fmt(struct script_trace *t, const char *event,
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
		return f->fmt;
	f->tried = true;
	if (!colon || (size_t)(colon - event) >= sizeof(sys))
		return NULL;
	memcpy(sys, event, (size_t)(colon - event));
	sys[colon - event] = 0;
	f->fmt = sonde_tp_format__load(NULL, sys, colon + 1);
	if (f->fmt && sonde_tp_format__id(f->fmt) != (int64_t)id) {
		/* Another kernel's event numbering: do not guess. */
		sonde_tp_format__delete(f->fmt);
		f->fmt = NULL;
	}
	return f->fmt;
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
 * The common case of a print fmt: a literal with %d/%u/%s/%x-style
 * conversions whose arguments are REC->field or __get_str(field). Anything
 * else (flags, symbolic values, expressions) returns false and the caller
 * lists the fields instead.
 */
/*
 * The conversions below are rebuilt from the event's print fmt, keeping only
 * the characters "-+ #0123456789." and a fixed conversion letter, so the
 * non-literal format strings are safe.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static bool print_fmt(struct outbuf *o, const struct sonde_tp_format *fmt, const uint8_t *raw,
		      uint32_t raw_size)
{
	const char *pf = sonde_tp_format__print_fmt(fmt), *q, *lit_end, *a;
	const struct sonde_tp_field *args[32];
	int nargs = 0, used = 0;
	struct outbuf tmp;

	if (!pf || *pf != '"' || !(lit_end = strchr(pf + 1, '"')))
		return false;
	/*
	 * Arguments after the literal, split at top-level commas. Each must be
	 * REC->field or __get_str(field), possibly inside parentheses and
	 * casts such as ((unsigned long)(REC->fd)).
	 */
	for (a = lit_end + 1; *a;) {
		char name[128], rest[256];
		const char *end = a, *id;
		int depth = 0;
		size_t len, rl = 0;

		while (*a == ',' || *a == ' ')
			a++;
		if (!*a)
			break;
		for (end = a; *end && (depth || *end != ','); end++) {
			if (*end == '(')
				depth++;
			else if (*end == ')')
				depth--;
		}
		id = NULL;
		for (const char *x = a; x < end; x++) {
			if (!strncmp(x, "REC->", 5) || !strncmp(x, "__get_str(", 10)) {
				if (id)
					return false;
				id = x + (x[0] == 'R' ? 5 : 10);
				len = strspn(id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
				x = id + len - 1;
				continue;
			}
			if (rl + 1 < sizeof(rest))
				rest[rl++] = *x;
		}
		rest[rl] = 0;
		/* Only parentheses, spaces and cast words may surround it. */
		if (!id || strspn(rest, "() *abcdefghijklmnopqrstuvwxyz_") != rl || nargs == 32)
			return false;
		len = strspn(id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
		if (!len || len >= sizeof(name))
			return false;
		memcpy(name, id, len);
		name[len] = 0;
		if (!(args[nargs++] = sonde_tp_format__find_field(fmt, name)))
			return false;
		a = end;
	}
	ob_init_mem(&tmp);
	for (q = pf + 1; q < lit_end; q++) {
		if (*q == '\\' && q + 1 < lit_end) {
			q++;
			ob_putc(&tmp, *q == 'n' ? '\n' : *q == 't' ? '\t' : *q);
			continue;
		}
		if (*q != '%') {
			ob_putc(&tmp, *q);
			continue;
		}
		q++;
		if (*q == '%') {
			ob_putc(&tmp, '%');
			continue;
		}
		{
			/* Keep flags, width and precision; normalize the length. */
			const char *spec = q;
			size_t sl = strspn(q, "-+ #0123456789.");
			char cfmt[48], conv;
			const struct sonde_tp_field *f;
			bool is_char;

			q += sl;
			q += strspn(q, "lhzjt");
			if (q >= lit_end || used >= nargs || !strchr("diusxXcp", *q) || sl > 30)
				goto fail;
			conv = *q == 'p' ? 'x' : *q;
			f = args[used];
			is_char = f->type && strstr(f->type, "char") && (f->array_len || f->is_dynamic);
			if (conv == 's' || (is_char && conv != 'c')) {
				struct outbuf sv;

				ob_init_mem(&sv);
				if (!put_field(&sv, f, raw, raw_size)) {
					ob_free(&sv);
					goto fail;
				}
				ob_putc(&sv, 0);
				snprintf(cfmt, sizeof(cfmt), "%%%.*ss", (int)sl, spec);
				ob_printf(&tmp, cfmt, sv.buf);
				ob_free(&sv);
			} else {
				uint64_t v;

				if ((uint64_t)f->offset + f->size > raw_size || f->size > 8 ||
				    f->is_dynamic)
					goto fail;
				v = load_uint(raw + f->offset, f->size);
				snprintf(cfmt, sizeof(cfmt), "%%%.*sll%c", (int)sl, spec,
					 conv == 'i' ? 'd' : conv);
				if (conv == 'd' || conv == 'i')
					ob_printf(&tmp, cfmt, (long long)sign_extend(v, f->size));
				else if (conv == 'c')
					ob_printf(&tmp, "%c", (char)v);
				else
					ob_printf(&tmp, cfmt, (unsigned long long)v);
			}
		}
		used++;
	}
	if (used != nargs)
		goto fail;
	ob_write(o, tmp.buf, tmp.len);
	ob_free(&tmp);
	return true;
fail:
	ob_free(&tmp);
	return false;
}

#pragma GCC diagnostic pop

void script_trace_fields(struct script_trace *t, struct outbuf *o, const char *event,
			 uint64_t id, const uint8_t *raw, uint32_t raw_size)
{
	struct sonde_tp_format *fmt = raw ? get_fmt(t, event, id) : NULL;
	size_t n = fmt ? sonde_tp_format__field_count(fmt) : 0;
	bool first = true;

	if (fmt && print_fmt(o, fmt, raw, raw_size))
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
