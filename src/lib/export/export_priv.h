/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * Internals of the export layer (include/sonde/export.h): the context one
 * export runs with, buffered output through the caller's write callback,
 * the profile's samples per thread, and one function per format (one file
 * each: folded.c, pprof.c, speedscope.c, firefox.c, svg.c, html.c).
 */
#ifndef SONDE_EXPORT_PRIV_H
#define SONDE_EXPORT_PRIV_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sonde/export.h"
#include "core_priv.h"

/* Output buffered in front of the caller's callback. */
struct export_out {
	sonde_export_write_fn write;
	void *ctx;
	char *buf;
	size_t len, cap;
	int err; /* first error; later writes are dropped */
};

/* What one export runs with. */
struct export_ctx {
	struct export_out *out;
	struct sonde_export_opts opts; /* the caller's, zero-extended */
	int ev;			       /* opts.event, checked */
	const char *event_name;	       /* never NULL */
	const char *title;	       /* opts.title or the event name */
};

/* Appends to the output; errors are kept in x->out->err. */
void export_put(const struct export_ctx *x, const void *buf, size_t len);
void export_puts(const struct export_ctx *x, const char *s);
void export_printf(const struct export_ctx *x, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* @v in decimal. */
void export_u64(const struct export_ctx *x, uint64_t v);

/*
 * Writing in place, for the columns of a million numbers: export_room()
 * gives room for @n bytes (at most the buffer, 256 KiB) at the end of the
 * output, NULL after an error; export_commit() then appends the @n
 * written there. The formatters write at @p and return the end.
 */
#define EXPORT_U64_MAX 20 /* digits of UINT64_MAX */
char *export_room_slow(const struct export_ctx *x, size_t n);
static inline char *export_room(const struct export_ctx *x, size_t n)
{
	struct export_out *o = x->out;

	return !o->err && o->cap - o->len >= n ? o->buf + o->len : export_room_slow(x, n);
}
static inline void export_commit(const struct export_ctx *x, size_t n)
{
	x->out->len += n;
}
char *export_fmt_u64(char *p, uint64_t v);
/* @frac ns (< 1 ms) as the decimals of a number of milliseconds: "."
 * and up to 6 digits, no trailing zeros; nothing for 0. Needs 8 bytes. */
char *export_fmt_ms_frac(char *p, uint32_t frac);
/* @s as a JSON string, quotes included (NULL: null). */
void export_json_str(const struct export_ctx *x, const char *s);

/*
 * The samples of one thread on one stack (summed over CPUs), as the
 * per-thread formats need them.
 */
struct export_group {
	const char *comm; /* interned by the profile: equal names, one pointer */
	int32_t pid, tid;
	const struct sonde_profile_stack *st;
	uint64_t weight, samples;
};

/*
 * The groups of event x->ev with samples, ordered by thread (pid, tid)
 * then by first sample; *nr gets the count. Caller frees; NULL (errno
 * ENOMEM) on failure.
 */
struct export_group *export_groups(struct sonde_profile *p, const struct export_ctx *x,
				   size_t *nr);

/*
 * The profile's --dsos and --symbols filters, as report --no-children
 * applies them: to the sampled address (the stack's self frame).
 */
bool export_stack_visible(const struct sonde_profile *p, const struct sonde_profile_stack *st);

/* The unit of the event's period: "nanoseconds" for the clock events,
 * else "count". */
const char *export_period_unit(const struct sonde_profile *p, int ev);

/*
 * Dense indexes for distinct (string, string) pairs, by content, in the
 * order first met: speedscope's frames, firefox's string array. The
 * strings must outlive the index.
 */
struct export_index {
	struct hashtab t; /* of index + 1, as a pointer */
	const char **a, **b; /* the pairs, by index */
	size_t nr;
};
/* The pair's index (b may be NULL), or -ENOMEM. */
int64_t export_index_get(struct export_index *ix, const char *a, const char *b);
void export_index_free(struct export_index *ix);

/* A frame's name as the flame-graph formats show it: the function, else
 * "[object]" or "[unknown]". */
const char *export_frame_name(const struct sonde_profile_frame *f);

/* One per format; each returns 0 or a negative errno. */
int export_folded(struct sonde_profile *p, const struct export_ctx *x);
int export_svg(struct sonde_profile *p, const struct export_ctx *x);
int export_html(struct sonde_profile *p, const struct export_ctx *x);
int export_pprof(struct sonde_profile *p, const struct export_ctx *x);
int export_speedscope(struct sonde_profile *p, const struct export_ctx *x);
int export_firefox(struct sonde_profile *p, const struct export_ctx *x);

#endif /* SONDE_EXPORT_PRIV_H */
