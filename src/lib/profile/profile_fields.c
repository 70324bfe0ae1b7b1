// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Tracepoint fields as histogram keys: perf 6.1's dynamic sort entries
 * (its sort.c add_dynamic_entry() and hde_* functions). opts.fields name
 * them; they are matched against the profile's events once, each making
 * one column per (event, field).
 *
 * A sample's values of its event's columns are interned as one row (the
 * fields' bytes, which is what perf's entries compare), so a group keeps
 * one pointer; the text a column shows is made once per row, from the
 * first sample that made it, as perf's entry shows its first sample's.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/tracefs.h"
#include "profile_priv.h"

struct prof_fcol {
	int ev, key;
	const struct sonde_tp_field *f;
	bool raw;
	bool string;   /* libtraceevent's FIELD_IS_STRING: a char/u8/s8 array */
	bool array;
	bool pointer;
	bool is_long;
	uint32_t dyn_len; /* the widest value met (perf's dynamic_len) */
};

struct prof_fval {
	const uint8_t *b;
	uint32_t len;
	const char *text;
};

struct prof_frow {
	int ev;
	uint32_t nr; /* every column of the profile: NULL text for other events' */
	const uint8_t *blob;
	size_t blob_len;
	struct prof_fval v[];
};

struct prof_fields {
	char **specs;
	size_t nr_specs;
	bool resolved, tried;
	struct prof_fcol *cols;
	int nr_cols;
	struct hashtab rows; /* of struct prof_frow, by event and bytes */
	const struct prof_frow *last;
	uint8_t *blob; /* scratch: the row being looked up */
	size_t cap;
};

int prof_fields_new(struct sonde_profile *p, const struct sonde_profile_opts *o, size_t nr_keys)
{
	struct prof_fields *fx;

	if (nr_keys != o->nr_fields || (o->nr_fields && !o->fields))
		return -EINVAL;
	if (!nr_keys)
		return 0;
	fx = calloc(1, sizeof(*fx));
	if (!fx)
		return -ENOMEM;
	p->fx = fx;
	hashtab_init(&fx->rows);
	fx->specs = calloc(nr_keys, sizeof(*fx->specs));
	if (!fx->specs)
		return -ENOMEM;
	for (size_t i = 0; i < nr_keys; i++) {
		if (!o->fields[i] || !*o->fields[i])
			return -EINVAL;
		fx->specs[i] = strdup(o->fields[i]);
		if (!fx->specs[i])
			return -ENOMEM;
		fx->nr_specs++;
	}
	return 0;
}

void prof_fields_free(struct sonde_profile *p)
{
	struct prof_fields *fx = p->fx;

	if (!fx)
		return;
	for (size_t i = 0; i < fx->nr_specs; i++)
		free(fx->specs[i]);
	free(fx->specs);
	free(fx->cols);
	hashtab_free(&fx->rows); /* the rows live in the machine's arena */
	free(fx->blob);
	free(fx);
	p->fx = NULL;
}

/* ---- matching the names against the events ---- */

static const struct sonde_tp_format *format_of(struct sonde_profile *p, int ei)
{
	const struct sonde_tp_format *fmt = NULL;

	if (p->evs[ei].attr.type != SONDE_PERF_TYPE_TRACEPOINT)
		return NULL;
	prof_keys_tp(p, ei, &fmt, NULL);
	return fmt;
}

static int add_col(struct prof_fields *fx, int ev, int key, const struct sonde_tp_field *f,
		   bool raw)
{
	struct prof_fcol *c, *v;
	const char *t = f->type ? f->type : "";

	if (fx->nr_cols >= 4096)
		return -E2BIG;
	v = realloc(fx->cols, (size_t)(fx->nr_cols + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	fx->cols = v;
	c = &v[fx->nr_cols++];
	memset(c, 0, sizeof(*c));
	c->ev = ev;
	c->key = key;
	c->f = f;
	c->raw = raw;
	/* libtraceevent's flags, from the declaration */
	c->array = strchr(t, '[') != NULL;
	c->string = c->array && (strstr(t, "char") || strstr(t, "u8") || strstr(t, "s8"));
	c->pointer = strchr(t, '*') != NULL;
	c->is_long = strstr(t, "long") != NULL;
	return 0;
}

/* Every field of event @ei after the common ones (perf's "*", trace_fields). */
static int add_all(struct prof_fields *fx, const struct sonde_tp_format *fmt, int ei, int key,
		   bool raw)
{
	size_t n = sonde_tp_format__field_count(fmt);

	for (size_t i = 0; i < n; i++) {
		const struct sonde_tp_field *f = sonde_tp_format__field(fmt, i);
		int err = f && !f->is_common ? add_col(fx, ei, key, f, raw) : 0;

		if (err)
			return err;
	}
	return 0;
}

/* perf's find_evsel(): "%N", a full "sys:name", or a part naming one event. */
static int find_event(const struct sonde_profile *p, const char *name)
{
	bool full = strchr(name, ':') != NULL;
	int found = -1;

	if (name[0] == '%') {
		long nr = strtol(name + 1, NULL, 0);

		return nr > p->nr_evs ? -1 : nr < 1 ? 0 : (int)nr - 1;
	}
	for (int i = 0; i < p->nr_evs; i++) {
		const char *ev = p->evs[i].name ? p->evs[i].name : "";

		if (full && !strcmp(ev, name))
			return i;
		if (!full && strstr(ev, name)) {
			if (found >= 0)
				return -1; /* ambiguous */
			found = i;
		}
	}
	return found;
}

/* One name (perf's add_dynamic_entry()). 0, or -ENOENT when it names no field. */
static int resolve_one(struct sonde_profile *p, int key, const char *spec)
{
	struct prof_fields *fx = p->fx;
	char *s = strdup(spec), *event = s, *field, *opt;
	const struct sonde_tp_format *fmt;
	const struct sonde_tp_field *f;
	int err = -ENOENT, ei;
	bool raw = false;

	if (!s)
		return -ENOMEM;
	field = strchr(s, '.');
	if (field) {
		*field++ = 0;
	} else {
		event = NULL;
		field = s;
	}
	opt = strchr(field, '/');
	if (opt) {
		*opt++ = 0;
		if (strcmp(opt, "raw"))
			goto out;
		raw = true;
	}
	if (!strcmp(field, "trace_fields")) {
		err = 0;
		for (ei = 0; !err && ei < p->nr_evs; ei++)
			if ((fmt = format_of(p, ei)))
				err = add_all(fx, fmt, ei, key, raw);
		goto out;
	}
	if (!event) {
		for (ei = 0; ei < p->nr_evs; ei++) {
			fmt = format_of(p, ei);
			f = fmt ? sonde_tp_format__find_field(fmt, field) : NULL;
			if (f && (err = add_col(fx, ei, key, f, raw)))
				break;
		}
		goto out;
	}
	ei = find_event(p, event);
	fmt = ei >= 0 ? format_of(p, ei) : NULL;
	if (!fmt)
		goto out;
	if (!strcmp(field, "*")) {
		err = add_all(fx, fmt, ei, key, raw);
	} else if ((f = sonde_tp_format__find_field(fmt, field))) {
		err = add_col(fx, ei, key, f, raw);
	}
out:
	free(s);
	return err;
}

int prof_fields_resolve(struct sonde_profile *p)
{
	struct prof_fields *fx = p->fx;

	if (!fx || fx->resolved)
		return 0;
	fx->nr_cols = 0;
	for (size_t i = 0; i < fx->nr_specs; i++) {
		int before = fx->nr_cols, err = resolve_one(p, (int)i, fx->specs[i]);

		if (!err && fx->nr_cols == before)
			err = -ENOENT; /* a name that matches no field */
		if (err) {
			fx->nr_cols = 0;
			return err;
		}
	}
	fx->resolved = true;
	return 0;
}

/* ---- a sample's row ---- */

static uint64_t load(const uint8_t *b, uint32_t size)
{
	uint64_t v = 0;

	/* the recording's byte order is the reader's business: host order here */
	switch (size) {
	case 1: return *b;
	case 2: { uint16_t x; memcpy(&x, b, 2); return x; }
	case 4: { uint32_t x; memcpy(&x, b, 4); return x; }
	case 8: memcpy(&v, b, 8); return v;
	default: return 0;
	}
}

/* The bytes perf compares: the field's, or a __data_loc array's data. */
static void field_bytes(const struct prof_fcol *c, const uint8_t *raw, uint32_t size,
			const uint8_t **b, uint32_t *len)
{
	const struct sonde_tp_field *f = c->f;

	*b = NULL;
	*len = 0;
	if ((uint64_t)f->offset + f->size > size)
		return;
	if (f->is_dynamic) {
		uint32_t w = (uint32_t)load(raw + f->offset, f->size < 4 ? f->size : 4);
		uint64_t off = w & 0xffff, n = w >> 16;

		if (f->is_relative)
			off += (uint64_t)f->offset + f->size;
		if (off + n > size)
			return;
		*b = raw + off;
		*len = (uint32_t)n;
		return;
	}
	*b = raw + f->offset;
	*len = f->size;
}

/* libtraceevent's is_printable_array(): up to a NUL, printable or space. */
static bool printable(const uint8_t *p, uint32_t len)
{
	for (uint32_t i = 0; i < len && p[i]; i++)
		if (p[i] >= 0x80 || (!isprint(p[i]) && !isspace(p[i])))
			return false;
	return true;
}

/* libtraceevent's tep_print_field(): the value alone. */
static int print_field(const struct prof_fcol *c, const uint8_t *b, uint32_t len, char *buf,
		       size_t sz)
{
	const struct sonde_tp_field *f = c->f;
	size_t l = 0;

	/* a field outside the sample's data shows nothing */
	if (!b || (!c->array && len < f->size))
		return snprintf(buf, sz, "%s", "");
	if (c->array) {
		if (c->string && printable(b, len))
			return snprintf(buf, sz, "%.*s", (int)strnlen((const char *)b, len), b);
		l = (size_t)snprintf(buf, sz, "ARRAY[");
		for (uint32_t i = 0; i < len && l < sz; i++)
			l += (size_t)snprintf(buf + l, sz - l, i ? ", %02x" : "%02x", b[i]);
		if (l < sz)
			l += (size_t)snprintf(buf + l, sz - l, "]");
		return (int)l;
	}
	{
		uint64_t v = load(b, f->size);

		if (c->pointer)
			return snprintf(buf, sz, "0x%" PRIx64, v);
		if (f->is_signed) {
			switch (f->size) {
			case 4:
				return c->is_long ? snprintf(buf, sz, "0x%x", (unsigned)v)
						  : snprintf(buf, sz, "%d", (int32_t)v);
			case 2: return snprintf(buf, sz, "%2d", (int16_t)v);
			case 1: return snprintf(buf, sz, "%1d", (int8_t)v);
			default: return snprintf(buf, sz, "%" PRId64, (int64_t)v);
			}
		}
		return c->is_long ? snprintf(buf, sz, "0x%" PRIx64, v)
				  : snprintf(buf, sz, "%" PRIu64, v);
	}
}

/*
 * perf's token of the field in the event's text: the first word (space
 * separated) that starts with the field's name, past the name and one
 * more character ("prev_comm=sh" -> "sh"). false when none does.
 */
static bool token_of(const char *text, const char *name, const char **val, size_t *len)
{
	size_t nl = strlen(name);

	for (const char *s = text; s;) {
		const char *end = strchr(s, ' ');

		if (!end)
			end = s + strlen(s);
		if (!strncmp(s, name, nl)) {
			const char *v = s + nl + 1;

			*val = v <= end ? v : end;
			*len = (size_t)(end - *val);
			return true;
		}
		s = *end ? end + 1 : NULL;
	}
	return false;
}

/* The event's text for the row's first sample, NULL without a print fmt. */
static char *event_text(struct sonde_profile *p, int ei, const uint8_t *raw, uint32_t size)
{
	const struct sonde_tp_print *tp = NULL;
	char *buf;
	int n;

	prof_keys_tp(p, ei, NULL, &tp);
	if (!tp || (n = sonde_tp_print__format(tp, raw, size, NULL, 0)) < 0)
		return NULL;
	buf = malloc((size_t)n + 1);
	if (buf && sonde_tp_print__format(tp, raw, size, buf, (size_t)n + 1) < 0) {
		free(buf);
		buf = NULL;
	}
	return buf;
}

static void make_texts(struct sonde_profile *p, struct prof_frow *row, const uint8_t *raw,
		       uint32_t size)
{
	struct prof_fields *fx = p->fx;
	char *text = NULL, small[256];
	bool made = false;

	for (int i = 0; i < fx->nr_cols; i++) {
		struct prof_fcol *c = &fx->cols[i];
		struct prof_fval *v = &row->v[i];
		const char *val;
		size_t len;
		int n;

		if (c->ev != row->ev)
			continue;
		/* perf's cmp notes a __data_loc value's size as a width */
		if (c->f->is_dynamic && v->len > c->dyn_len)
			c->dyn_len = v->len;
		if (!c->raw) {
			if (!made) {
				text = event_text(p, row->ev, raw, size);
				made = true;
			}
			if (text && token_of(text, c->f->name, &val, &len)) {
				if (len > c->dyn_len)
					c->dyn_len = (uint32_t)len;
				v->text = prof_intern(p->m, val, len);
				continue;
			}
		}
		n = print_field(c, v->b, v->len, small, sizeof(small));
		if (n < 0)
			n = 0;
		if ((size_t)n < sizeof(small)) {
			v->text = prof_intern(p->m, small, (size_t)n);
		} else {
			char *big = malloc((size_t)n + 1);

			if (big)
				print_field(c, v->b, v->len, big, (size_t)n + 1);
			v->text = prof_intern(p->m, big ? big : "", big ? (size_t)n : 0);
			free(big);
		}
	}
	free(text);
}

static bool blob_put(struct prof_fields *fx, size_t *at, const void *b, size_t n)
{
	if (*at + n > fx->cap) {
		size_t cap = fx->cap ? fx->cap * 2 : 256;
		uint8_t *v;

		while (cap < *at + n)
			cap *= 2;
		v = realloc(fx->blob, cap);
		if (!v)
			return false;
		fx->blob = v;
		fx->cap = cap;
	}
	if (n)
		memcpy(fx->blob + *at, b, n);
	*at += n;
	return true;
}

const struct prof_frow *prof_fields_row(struct sonde_profile *p, int ei, const void *raw,
					uint32_t size)
{
	struct prof_fields *fx = p->fx;
	struct hashtab_probe probe;
	struct prof_frow *row;
	size_t at = 0, off;
	uint64_t h;
	bool any = false;

	if (!fx || !raw)
		return NULL;
	if (!fx->resolved && !fx->tried) {
		/* once: a pipe's events are known by its first sample */
		fx->tried = true;
		(void)prof_fields_resolve(p);
	}
	if (!blob_put(fx, &at, &ei, sizeof(ei)))
		return NULL;
	for (int i = 0; i < fx->nr_cols; i++) {
		const uint8_t *b;
		uint32_t len;

		if (fx->cols[i].ev != ei)
			continue;
		field_bytes(&fx->cols[i], raw, size, &b, &len);
		if (!blob_put(fx, &at, &len, sizeof(len)) || !blob_put(fx, &at, b, len))
			return NULL;
		any = true;
	}
	if (!any)
		return NULL;
	if (fx->last && fx->last->blob_len == at && !memcmp(fx->last->blob, fx->blob, at))
		return fx->last;
	h = prof_words_hash(fx->blob, at);
	for (row = hashtab_probe_first(&fx->rows, h, &probe); row;
	     row = hashtab_probe_next(&fx->rows, &probe))
		if (row->blob_len == at && !memcmp(row->blob, fx->blob, at))
			return fx->last = row;
	row = prof_alloc(p->m, sizeof(*row) + (size_t)fx->nr_cols * sizeof(row->v[0]));
	memset(row, 0, sizeof(*row) + (size_t)fx->nr_cols * sizeof(row->v[0]));
	row->ev = ei;
	row->nr = (uint32_t)fx->nr_cols;
	row->blob = prof_alloc(p->m, at);
	memcpy((uint8_t *)row->blob, fx->blob, at);
	row->blob_len = at;
	off = sizeof(ei);
	for (int i = 0; i < fx->nr_cols; i++) {
		uint32_t len;

		if (fx->cols[i].ev != ei)
			continue;
		memcpy(&len, row->blob + off, sizeof(len));
		off += sizeof(len);
		row->v[i].b = row->blob + off;
		row->v[i].len = len;
		off += len;
	}
	make_texts(p, row, raw, size);
	if (hashtab_insert(&fx->rows, h, row))
		abort(); /* as the groups do on OOM */
	return fx->last = row;
}

/*
 * perf's __sort__hde_cmp(): memcmp of the bytes, over the first one's
 * length (the second's beyond its own read as zero), larger first.
 */
int prof_fields_cmp(const struct sonde_profile *p, int key, const struct prof_frow *a,
		    const struct prof_frow *b)
{
	const struct prof_fields *fx = p->fx;

	if (!fx || !a || !b || a->ev != b->ev)
		return 0;
	for (int i = 0; i < fx->nr_cols; i++) {
		const struct prof_fval *va = &a->v[i], *vb = &b->v[i];

		if (fx->cols[i].key != key || fx->cols[i].ev != a->ev)
			continue;
		for (uint32_t j = 0; j < va->len; j++) {
			uint8_t x = va->b[j], y = j < vb->len ? vb->b[j] : 0;

			if (x != y)
				return x > y ? -1 : 1;
		}
	}
	return 0;
}

/* ---- the columns out ---- */

int sonde_profile__nr_fields(const struct sonde_profile *p)
{
	return p && p->fx && p->fx->resolved ? p->fx->nr_cols : 0;
}

int sonde_profile__field(const struct sonde_profile *p, int i, struct sonde_profile_field *out)
{
	const struct prof_fcol *c;
	uint32_t w, fl;

	if (!out || i < 0 || i >= sonde_profile__nr_fields(p))
		return -EINVAL;
	c = &p->fx->cols[i];
	memset(out, 0, sizeof(*out));
	out->ev = c->ev;
	out->key = c->key;
	out->name = c->f->name;
	out->raw = c->raw;
	/* perf's hde_width(): the name, the type's hex digits (a string's size), the values */
	w = (uint32_t)strlen(c->f->name);
	fl = c->string ? c->f->size : c->f->size * 2 + 2;
	if (fl > w)
		w = fl;
	if (c->dyn_len > w)
		w = c->dyn_len;
	out->width = (int)w;
	return 0;
}

const char *sonde_profile_entry__field(const struct sonde_profile_entry *e, int i)
{
	const struct prof_frow *row = e ? prof_keys_frow(e->k.x) : NULL;

	if (!row || i < 0 || (uint32_t)i >= row->nr)
		return NULL;
	return row->v[i].text;
}
