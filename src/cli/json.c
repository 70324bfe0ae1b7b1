// SPDX-License-Identifier: LGPL-2.1-only
/* Streaming JSON writer: commas, indentation and escaping in one place. */
#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "json.h"

/* Deeper nesting than this is a bug in the caller, not data. */
#define JSON_MAX_DEPTH 64

struct json_level {
	bool is_object;
	bool have_name; /* object: a name was written, its value is due */
	unsigned long count; /* members or elements written so far */
};

struct json_writer {
	FILE *f;
	int indent;
	int depth;
	unsigned long top_count;
	struct json_level stack[JSON_MAX_DEPTH];
};

struct json_writer *json_new(FILE *f)
{
	struct json_writer *w = calloc(1, sizeof(*w));

	if (w)
		w->f = f;
	return w;
}

void json_destroy(struct json_writer **pw)
{
	if (!pw || !*pw)
		return;
	assert((*pw)->depth == 0 && "JSON writer destroyed with open nesting");
	free(*pw);
	*pw = NULL;
}

void json_pretty(struct json_writer *w, int indent)
{
	w->indent = indent > 0 ? indent : 0;
}

int json_depth(const struct json_writer *w)
{
	return w->depth;
}

static void newline_indent(struct json_writer *w)
{
	if (!w->indent)
		return;
	fputc('\n', w->f);
	for (int i = 0; i < w->depth * w->indent; i++)
		fputc(' ', w->f);
}

/* Everything a value needs before its first byte: comma, newline, indent. */
static void before_value(struct json_writer *w)
{
	struct json_level *l;

	if (w->depth == 0) {
		/* Top level: values are separated by newlines (JSON Lines). */
		w->top_count++;
		return;
	}
	l = &w->stack[w->depth - 1];
	if (l->is_object) {
		assert(l->have_name && "JSON object member without a name");
		l->have_name = false;
		return; /* the name already wrote comma and indent */
	}
	if (l->count++)
		fputc(',', w->f);
	newline_indent(w);
}

/* After a complete top-level value, end the line. */
static void after_value(struct json_writer *w)
{
	if (w->depth == 0)
		fputc('\n', w->f);
}

static void begin(struct json_writer *w, bool is_object)
{
	before_value(w);
	assert(w->depth < JSON_MAX_DEPTH && "JSON nesting too deep");
	fputc(is_object ? '{' : '[', w->f);
	w->stack[w->depth++] = (struct json_level){ .is_object = is_object };
}

static void end(struct json_writer *w, bool is_object)
{
	struct json_level *l;

	assert(w->depth > 0 && "JSON end without begin");
	l = &w->stack[w->depth - 1];
	assert(l->is_object == is_object && "JSON end of the wrong kind");
	assert(!l->have_name && "JSON object member name without a value");
	w->depth--;
	if (l->count)
		newline_indent(w);
	fputc(is_object ? '}' : ']', w->f);
	after_value(w);
}

void json_begin_object(struct json_writer *w) { begin(w, true); }
void json_end_object(struct json_writer *w) { end(w, true); }
void json_begin_array(struct json_writer *w) { begin(w, false); }
void json_end_array(struct json_writer *w) { end(w, false); }

/* Length of the valid UTF-8 sequence at @s (at most @n bytes), 0 if none. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, UTF-16 surrogates and beyond U+10FFFF. */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

static void write_escaped(FILE *f, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	fputc('"', f);
	while (i < n) {
		unsigned char c = s[i];
		size_t len;

		if (c == '"' || c == '\\') {
			fputc('\\', f);
			fputc(c, f);
			i++;
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(f, "\\u%04x", (unsigned int)c);
			i++;
		} else if ((len = utf8_len(s + i, n - i)) == 0) {
			fputs("\\ufffd", f);
			i++;
		} else {
			fwrite(s + i, 1, len, f);
			i += len;
		}
	}
	fputc('"', f);
}

void json_name(struct json_writer *w, const char *name)
{
	struct json_level *l;

	assert(w->depth > 0 && "JSON member name outside an object");
	l = &w->stack[w->depth - 1];
	assert(l->is_object && "JSON member name inside an array");
	assert(!l->have_name && "JSON member name twice");
	if (l->count++)
		fputc(',', w->f);
	newline_indent(w);
	write_escaped(w->f, name, strlen(name));
	fputs(w->indent ? ": " : ":", w->f);
	l->have_name = true;
}

void json_string_len(struct json_writer *w, const char *s, size_t len)
{
	before_value(w);
	write_escaped(w->f, s, len);
	after_value(w);
}

void json_string(struct json_writer *w, const char *s)
{
	if (!s) {
		json_null(w);
		return;
	}
	json_string_len(w, s, strlen(s));
}

void json_stringf(struct json_writer *w, const char *fmt, ...)
{
	char small[256], *buf = small;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	if ((size_t)n >= sizeof(small)) {
		buf = malloc((size_t)n + 1);
		if (!buf) {
			/* Out of memory: keep the stream valid, truncated. */
			buf = small;
			n = sizeof(small) - 1;
		} else {
			va_start(ap, fmt);
			vsnprintf(buf, (size_t)n + 1, fmt, ap);
			va_end(ap);
		}
	}
	json_string_len(w, buf, (size_t)n);
	if (buf != small)
		free(buf);
}

void json_int(struct json_writer *w, int64_t v)
{
	before_value(w);
	fprintf(w->f, "%lld", (long long)v);
	after_value(w);
}

void json_uint(struct json_writer *w, uint64_t v)
{
	before_value(w);
	fprintf(w->f, "%llu", (unsigned long long)v);
	after_value(w);
}

void json_double(struct json_writer *w, double v)
{
	char buf[40];

	if (!isfinite(v)) {
		json_null(w);
		return;
	}
	/* Shortest of %.15g..%.17g that reads back exactly. */
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	before_value(w);
	fputs(buf, w->f);
	after_value(w);
}

void json_double_prec(struct json_writer *w, double v, int prec)
{
	char buf[400];

	if (!isfinite(v)) {
		json_null(w);
		return;
	}
	if (prec < 0)
		prec = 0;
	if (prec > 17)
		prec = 17;
	snprintf(buf, sizeof(buf), "%.*f", prec, v);
	/* "-0.00" is valid JSON, but say 0 like everyone else does. */
	if (buf[0] == '-' && strtod(buf, NULL) == 0)
		memmove(buf, buf + 1, strlen(buf));
	before_value(w);
	fputs(buf, w->f);
	after_value(w);
}

void json_bool(struct json_writer *w, bool v)
{
	before_value(w);
	fputs(v ? "true" : "false", w->f);
	after_value(w);
}

void json_null(struct json_writer *w)
{
	before_value(w);
	fputs("null", w->f);
	after_value(w);
}

void json_string_field(struct json_writer *w, const char *name,
			     const char *s)
{
	json_name(w, name);
	json_string(w, s);
}

void json_int_field(struct json_writer *w, const char *name, int64_t v)
{
	json_name(w, name);
	json_int(w, v);
}

void json_uint_field(struct json_writer *w, const char *name, uint64_t v)
{
	json_name(w, name);
	json_uint(w, v);
}

void json_double_field(struct json_writer *w, const char *name, double v)
{
	json_name(w, name);
	json_double(w, v);
}

void json_double_prec_field(struct json_writer *w, const char *name,
				  double v, int prec)
{
	json_name(w, name);
	json_double_prec(w, v, prec);
}

void json_bool_field(struct json_writer *w, const char *name, bool v)
{
	json_name(w, name);
	json_bool(w, v);
}

void json_null_field(struct json_writer *w, const char *name)
{
	json_name(w, name);
	json_null(w);
}

void json_object_field(struct json_writer *w, const char *name)
{
	json_name(w, name);
	json_begin_object(w);
}

void json_array_field(struct json_writer *w, const char *name)
{
	json_name(w, name);
	json_begin_array(w);
}
