// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Parser for tracefs events/<sys>/<name>/format files: the name, ID, the
 * record's fields (offset/size/signed) and the print fmt. Works on a buffer
 * so report/script can feed it the copies stored in perf.data too.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/tracefs.h"
#include "core_priv.h"
#include "event_priv.h"

#define MAX_FORMAT_LEN (1u << 20)
#define MAX_FIELDS 4096

struct sonde_tp_format {
	char *name;
	int64_t id;
	char *print_fmt;
	struct sonde_tp_field *fields;
	size_t nr_fields;
};

void sonde_tp_format__free(struct sonde_tp_format *fmt)
{
	if (!fmt)
		return;
	for (size_t i = 0; i < fmt->nr_fields; i++) {
		free((char *)fmt->fields[i].name);
		free((char *)fmt->fields[i].type);
	}
	free(fmt->fields);
	free(fmt->name);
	free(fmt->print_fmt);
	free(fmt);
}

static char *dup_range(const char *s, const char *e)
{
	while (s < e && isspace((unsigned char)*s))
		s++;
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	return strndup(s, (size_t)(e - s));
}

/* Finds "key:" inside [s, e) and parses the unsigned number after it. */
static bool key_num(const char *s, const char *e, const char *key,
		    uint64_t max, uint64_t *v)
{
	size_t kl = strlen(key);

	for (const char *p = s; p + kl <= e; p++) {
		uint64_t x = 0;
		const char *q;

		if (memcmp(p, key, kl) || (p > s && isalnum((unsigned char)p[-1])))
			continue;
		q = p + kl;
		if (q >= e || !isdigit((unsigned char)*q))
			return false;
		while (q < e && isdigit((unsigned char)*q)) {
			x = x * 10 + (uint64_t)(*q - '0');
			if (x > max)
				return false;
			q++;
		}
		*v = x;
		return true;
	}
	return false;
}

/* "unsigned char prev_comm[16]" -> name, type "unsigned char[16]", len 16. */
static int parse_decl(const char *s, const char *e, struct sonde_tp_field *f)
{
	const char *name_end, *name_start, *bracket = NULL;
	char *type;
	size_t tl;

	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	while (s < e && isspace((unsigned char)*s))
		s++;
	name_end = e;
	if (e > s && e[-1] == ']') {
		bracket = memchr(s, '[', (size_t)(e - s));
		if (!bracket)
			return -1;
		/* The last '[' group belongs to the name: x[2][3] is rare. */
		for (const char *p = e - 1; p > s; p--)
			if (*p == '[') {
				bracket = p;
				break;
			}
		name_end = bracket;
	}
	name_start = name_end;
	while (name_start > s && (isalnum((unsigned char)name_start[-1]) ||
				  name_start[-1] == '_'))
		name_start--;
	if (name_start == name_end || name_start == s)
		return -1;
	f->name = strndup(name_start, (size_t)(name_end - name_start));
	/* type = everything before the name, plus the [N] suffix. */
	tl = (size_t)(name_start - s);
	while (tl && isspace((unsigned char)s[tl - 1]))
		tl--;
	type = malloc(tl + (size_t)(e - name_end) + 1);
	if (!f->name || !type) {
		free(type);
		return -ENOMEM;
	}
	memcpy(type, s, tl);
	memcpy(type + tl, name_end, (size_t)(e - name_end));
	type[tl + (size_t)(e - name_end)] = '\0';
	f->type = type;
	if (bracket) {
		uint64_t n = 0;

		for (const char *p = bracket + 1; p < e - 1; p++) {
			if (!isdigit((unsigned char)*p)) {
				n = 0;
				break;
			}
			n = n * 10 + (uint64_t)(*p - '0');
			if (n > UINT32_MAX)
				return -1;
		}
		f->array_len = (uint32_t)n;
	}
	f->is_dynamic = !strncmp(type, "__data_loc", 10) ||
			!strncmp(type, "__rel_loc", 9);
	f->is_relative = !strncmp(type, "__rel_loc", 9);
	return 0;
}

static int parse_field(const char *s, const char *e, bool common,
		       struct sonde_tp_format *fmt)
{
	struct sonde_tp_field f = { .is_common = common };
	const char *decl, *semi;
	uint64_t v;
	int err;

	/* "field:" or the old "field special:" */
	decl = memchr(s, ':', (size_t)(e - s)) + 1;
	semi = memchr(decl, ';', (size_t)(e - decl));
	if (!semi)
		return -1;
	if (!key_num(semi, e, "offset:", UINT32_MAX, &v))
		return -1;
	f.offset = (uint32_t)v;
	if (!key_num(semi, e, "size:", UINT32_MAX, &v))
		return -1;
	f.size = (uint32_t)v;
	/* Kernels before 2.6.35 have no signed: key. */
	if (key_num(semi, e, "signed:", 1, &v))
		f.is_signed = v;
	if (fmt->nr_fields >= MAX_FIELDS)
		return -1;
	err = parse_decl(decl, semi, &f);
	if (err) {
		free((char *)f.name);
		free((char *)f.type);
		return err;
	}
	if (fmt->nr_fields % 16 == 0) {
		void *p = realloc(fmt->fields,
				  (fmt->nr_fields + 16) * sizeof(f));

		if (!p) {
			free((char *)f.name);
			free((char *)f.type);
			return -ENOMEM;
		}
		fmt->fields = p;
	}
	fmt->fields[fmt->nr_fields++] = f;
	return 0;
}

struct sonde_tp_format *sonde_tp_format__parse(const char *buf, size_t len,
					       size_t *err_off)
{
	struct sonde_tp_format *fmt;
	const char *p = buf, *end = buf + len;
	bool in_fields = false, common = true;
	int err = 0;

	if (err_off)
		*err_off = 0;
	if (!buf || len > MAX_FORMAT_LEN)
		return lib_err_ptr(buf ? EFBIG : EINVAL);
	fmt = calloc(1, sizeof(*fmt));
	if (!fmt)
		return lib_err_ptr(ENOMEM);
	fmt->id = -1;
	while (p < end && !err) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *s = p, *e;

		if (!eol)
			eol = end;
		e = eol;
		while (s < e && (*s == ' ' || *s == '\t'))
			s++;
		if (memchr(s, '\0', (size_t)(e - s))) {
			err = -1;
		} else if (s == e) {
			/* A blank line ends the common_* block. */
			if (in_fields && fmt->nr_fields)
				common = false;
		} else if (e - s >= 5 && !strncmp(s, "name:", 5)) {
			free(fmt->name);
			fmt->name = dup_range(s + 5, e);
			if (!fmt->name)
				err = -ENOMEM;
		} else if (e - s >= 3 && !strncmp(s, "ID:", 3)) {
			uint64_t v;

			if (!key_num(s, e, "ID:", INT64_MAX, &v))
				if (!key_num(s, e, "ID: ", INT64_MAX, &v))
					err = -1;
			if (!err)
				fmt->id = (int64_t)v;
		} else if (e - s >= 7 && !strncmp(s, "format:", 7)) {
			in_fields = true;
		} else if ((e - s >= 6 && !strncmp(s, "field:", 6)) ||
			   (e - s >= 14 && !strncmp(s, "field special:", 14))) {
			if (!in_fields)
				err = -1;
			else
				err = parse_field(s, e, common, fmt);
		} else if (e - s >= 10 && !strncmp(s, "print fmt:", 10)) {
			/* The rest of the file is the print format. */
			free(fmt->print_fmt);
			fmt->print_fmt = dup_range(s + 10, end);
			if (!fmt->print_fmt)
				err = -ENOMEM;
			eol = end;
		} else {
			err = -1;
		}
		if (err && err_off)
			*err_off = (size_t)(s - buf);
		p = eol < end ? eol + 1 : end;
	}
	if (!err && !fmt->name) {
		err = -1;
		if (err_off)
			*err_off = len;
	}
	if (err) {
		sonde_tp_format__free(fmt);
		return lib_err_ptr(err == -ENOMEM ? ENOMEM : SONDE_ERR_PARSE);
	}
	return fmt;
}

struct sonde_tp_format *sonde_tp_format__load(const char *root, const char *sys,
					      const char *name)
{
	char dir[4096], path[4096 + 600];
	struct sonde_tp_format *fmt;
	char *buf;
	long n;
	int err;

	if (!sys || !name || strchr(sys, '/') || strchr(name, '/') ||
	    strlen(sys) > 255 || strlen(name) > 255)
		return lib_err_ptr(EINVAL);
	if (root) {
		if (strlen(root) >= sizeof(dir))
			return lib_err_ptr(ENAMETOOLONG);
		strcpy(dir, root);
	} else {
		err = sonde_tracefs__root(dir, sizeof(dir), false);
		if (err)
			return lib_err_ptr(err);
	}
	snprintf(path, sizeof(path), "%s/events/%s/%s/format", dir, sys, name);
	buf = malloc(MAX_FORMAT_LEN + 1);
	if (!buf)
		return lib_err_ptr(ENOMEM);
	n = sysfs_read_at(AT_FDCWD, path, buf, MAX_FORMAT_LEN + 1);
	if (n < 0) {
		free(buf);
		return lib_err_ptr((int)-n);
	}
	fmt = sonde_tp_format__parse(buf, (size_t)n, NULL);
	free(buf);
	return fmt;
}

struct sonde_tp_format *tp_format_this_kernel(const char *event, int64_t id)
{
	const char *colon = event ? strchr(event, ':') : NULL;
	struct sonde_tp_format *fmt;
	char sys[256];

	if (!colon || (size_t)(colon - event) >= sizeof(sys))
		return lib_err_ptr(ENOENT);
	memcpy(sys, event, (size_t)(colon - event));
	sys[colon - event] = 0;
	fmt = sonde_tp_format__load(NULL, sys, colon + 1);
	if (fmt && sonde_tp_format__id(fmt) != id) {
		/* Another kernel's event numbering: do not guess. */
		sonde_tp_format__free(fmt);
		return lib_err_ptr(ENOENT);
	}
	return fmt;
}

const char *sonde_tp_format__name(const struct sonde_tp_format *fmt)
{
	return fmt ? fmt->name : NULL;
}

int64_t sonde_tp_format__id(const struct sonde_tp_format *fmt)
{
	return fmt ? fmt->id : -1;
}

const char *sonde_tp_format__print_fmt(const struct sonde_tp_format *fmt)
{
	return fmt ? fmt->print_fmt : NULL;
}

size_t sonde_tp_format__field_count(const struct sonde_tp_format *fmt)
{
	return fmt ? fmt->nr_fields : 0;
}

const struct sonde_tp_field *sonde_tp_format__field(const struct sonde_tp_format *fmt,
						    size_t i)
{
	return fmt && i < fmt->nr_fields ? &fmt->fields[i] : NULL;
}

const struct sonde_tp_field *
sonde_tp_format__find_field(const struct sonde_tp_format *fmt, const char *name)
{
	for (size_t i = 0; fmt && name && i < fmt->nr_fields; i++)
		if (!strcmp(fmt->fields[i].name, name))
			return &fmt->fields[i];
	return NULL;
}
