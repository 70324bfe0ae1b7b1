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

struct json_writer;

/* Writes to @f (not closed on destroy). Destroy with json_destroy(). */
struct json_writer *json_new(FILE *f);
/* Asserts that every object and array was closed, then frees; NULL-safe. */
void json_destroy(struct json_writer **w);
/* Pretty mode: newlines and @indent spaces per level (0 turns it off). */
void json_pretty(struct json_writer *w, int indent);

void json_begin_object(struct json_writer *w);
void json_end_object(struct json_writer *w);
void json_begin_array(struct json_writer *w);
void json_end_array(struct json_writer *w);

/* The name of the next member; only inside an object. */
void json_name(struct json_writer *w, const char *name);

void json_string(struct json_writer *w, const char *s);
/* Like json_string() for the first @len bytes of @s (NULs escaped). */
void json_string_len(struct json_writer *w, const char *s, size_t len);
__attribute__((format(printf, 2, 3)))
void json_stringf(struct json_writer *w, const char *fmt, ...);
void json_int(struct json_writer *w, int64_t v);
void json_uint(struct json_writer *w, uint64_t v);
/* Shortest text that reads back to the same double; non-finite -> null. */
void json_double(struct json_writer *w, double v);
/* A double rounded to @prec digits after the point (e.g. 2 for "12.34"). */
void json_double_prec(struct json_writer *w, double v, int prec);
void json_bool(struct json_writer *w, bool v);
void json_null(struct json_writer *w);

/* name + value in one call. */
void json_string_field(struct json_writer *w, const char *name,
			     const char *s);
void json_int_field(struct json_writer *w, const char *name, int64_t v);
void json_uint_field(struct json_writer *w, const char *name, uint64_t v);
void json_double_field(struct json_writer *w, const char *name, double v);
void json_double_prec_field(struct json_writer *w, const char *name,
				  double v, int prec);
void json_bool_field(struct json_writer *w, const char *name, bool v);
void json_null_field(struct json_writer *w, const char *name);
/* name + begin_object / begin_array. */
void json_object_field(struct json_writer *w, const char *name);
void json_array_field(struct json_writer *w, const char *name);

/* Nesting depth: 0 between top-level values. */
int json_depth(const struct json_writer *w);

#endif /* SONDE_JSON_H */
