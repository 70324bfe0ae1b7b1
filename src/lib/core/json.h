/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * A streaming JSON writer, internal to the project (the CLI prints with it;
 * it is not part of the installed API). It manages commas, optional pretty
 * indentation and escaping; callers only say what comes next.
 *
 * - Every control character (and DEL) is escaped as \u00XX; invalid UTF-8
 *   bytes become \ufffd, so any standard parser accepts the output.
 * - Numbers are JSON numbers, never strings; NaN and infinities become null.
 * - Top-level values are separated by a newline, so a writer in compact mode
 *   emits JSON Lines (one object per line), the shape `sonde stat -j` uses.
 * - Misuse (a value where a name is expected, unbalanced nesting, a field
 *   outside an object) trips an assert: it is a programming error.
 */
#ifndef SONDE_JSON_H
#define SONDE_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct sonde_json;

/* Writes to @f (not closed on destroy). Destroy with sonde_json_destroy(). */
struct sonde_json *sonde_json_new(FILE *f);
/* Asserts that every object and array was closed, then frees; NULL-safe. */
void sonde_json_destroy(struct sonde_json **w);
/* Pretty mode: newlines and @indent spaces per level (0 turns it off). */
void sonde_json_pretty(struct sonde_json *w, int indent);

void sonde_json_begin_object(struct sonde_json *w);
void sonde_json_end_object(struct sonde_json *w);
void sonde_json_begin_array(struct sonde_json *w);
void sonde_json_end_array(struct sonde_json *w);

/* The name of the next member; only inside an object. */
void sonde_json_name(struct sonde_json *w, const char *name);

void sonde_json_string(struct sonde_json *w, const char *s);
/* Like sonde_json_string() for the first @len bytes of @s (NULs escaped). */
void sonde_json_string_len(struct sonde_json *w, const char *s, size_t len);
__attribute__((format(printf, 2, 3)))
void sonde_json_stringf(struct sonde_json *w, const char *fmt, ...);
void sonde_json_int(struct sonde_json *w, int64_t v);
void sonde_json_uint(struct sonde_json *w, uint64_t v);
/* Shortest text that reads back to the same double; non-finite -> null. */
void sonde_json_double(struct sonde_json *w, double v);
/* A double rounded to @prec digits after the point (e.g. 2 for "12.34"). */
void sonde_json_double_prec(struct sonde_json *w, double v, int prec);
void sonde_json_bool(struct sonde_json *w, bool v);
void sonde_json_null(struct sonde_json *w);

/* name + value in one call. */
void sonde_json_string_field(struct sonde_json *w, const char *name,
			     const char *s);
void sonde_json_int_field(struct sonde_json *w, const char *name, int64_t v);
void sonde_json_uint_field(struct sonde_json *w, const char *name, uint64_t v);
void sonde_json_double_field(struct sonde_json *w, const char *name, double v);
void sonde_json_double_prec_field(struct sonde_json *w, const char *name,
				  double v, int prec);
void sonde_json_bool_field(struct sonde_json *w, const char *name, bool v);
void sonde_json_null_field(struct sonde_json *w, const char *name);
/* name + begin_object / begin_array. */
void sonde_json_object_field(struct sonde_json *w, const char *name);
void sonde_json_array_field(struct sonde_json *w, const char *name);

/* Nesting depth: 0 between top-level values. */
int sonde_json_depth(const struct sonde_json *w);

#endif /* SONDE_JSON_H */
