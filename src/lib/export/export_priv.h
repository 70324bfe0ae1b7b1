/* SPDX-License-Identifier: LGPL-2.1-only */
/* The export layer's private declarations, shared by its files only. */
#ifndef SONDE_EXPORT_PRIV_H
#define SONDE_EXPORT_PRIV_H

#include <endian.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "sonde/export.h"
#include "sonde/profile.h"
#include "core_priv.h"

/*
 * Internals of the export layer (include/sonde/export.h): the context one
 * export runs with, buffered output through the caller's write callback,
 * the profile's samples per thread, and one function per format (one file
 * each: folded.c, pprof.c, speedscope.c, firefox.c, svg.c, html.c).
 */
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
/* "00", "01", ... "99" */
extern const char export_digits2[201];

/*
 * @frac ns (< 1 ms) as the decimals of a number of milliseconds: "."
 * and up to 6 digits, no trailing zeros; nothing for 0. Needs 8 bytes.
 * Inline: firefox's time column calls it once a sample.
 */
static inline char *export_fmt_ms_frac(char *p, uint32_t frac)
{
	/* frac / 10^4 as a 48-bit fixed point number: each digit pair is
	 * then a multiply by 100, exact for every frac < 10^6 */
	const uint64_t low = ((uint64_t)1 << 48) - 1;
	uint64_t y = (uint64_t)frac * 28147497672ull, w, z;
	uint16_t d[3];

	if (!frac)
		return p;
	memcpy(&d[0], export_digits2 + 2 * (y >> 48), 2);
	y = (y & low) * 100;
	memcpy(&d[1], export_digits2 + 2 * (y >> 48), 2);
	y = (y & low) * 100;
	memcpy(&d[2], export_digits2 + 2 * (y >> 48), 2);
	/*
	 * "." and the six digits as one little-endian word, stored once; the
	 * trailing zeros are found in it rather than read back from memory
	 * (a load over fresh narrower stores stalls)
	 */
	w = '.' | (uint64_t)le16toh(d[0]) << 8 | (uint64_t)le16toh(d[1]) << 24 |
	    (uint64_t)le16toh(d[2]) << 40;
	z = (w ^ 0x0030303030303000ull) & 0x00ffffffffffff00ull; /* digits not '0' */
	w = htole64(w);
	memcpy(p, &w, sizeof(w));
	return p + (63 - __builtin_clzll(z)) / 8 + 1;
}
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

/*
 * The flame tree both pictures draw (private): a string table, the
 * distinct frames (function, object, kind, source line) and the merged
 * stacks as a table of nodes with a parent index, root first. A node's
 * parent always has a smaller index, so one backward pass sums totals.
 * Built from sonde_profile__foreach_stack(), outermost caller at depth 1.
 * Column 0 holds the profile's weights; column 1 a diff's base profile.
 */
struct flame_frame {
	uint32_t name, dso, src; /* string table indexes (0: "") */
	uint32_t kind;		 /* SONDE_PROFILE_FRAME_* */
};

struct flame_pkey {
	const char *name, *dso;
	uint32_t kind, frame;
};

struct flame_node {
	uint32_t parent; /* node 0 is the root and its own parent */
	uint32_t frame;	 /* unused for the root */
	uint32_t depth;
	uint64_t self[2], total[2]; /* weight per column */
	uint64_t samples[2];	    /* samples ending here per column */
	uint64_t total_samples[2];  /* samples here and below */
};

struct flame {
	char **strs;
	uint32_t nr_strs, cap_strs;
	struct flame_frame *frames;
	uint32_t nr_frames, cap_frames;
	struct flame_node *nodes;
	uint32_t nr_nodes, cap_nodes;
	uint32_t max_depth;
	struct hashtab str_ht, frame_ht, node_ht;
	/* (name, object pointer, kind) -> frame: the profile interns its
	 * strings, so most frames are found without hashing their text. */
	struct flame_pkey *pkeys;
	uint32_t nr_pkeys, cap_pkeys;
	struct hashtab pkey_ht;
	struct sonde_profile *p; /* the profile being added (srclines) */
	int col;
	/* column 0's leaf node by stack id (UINT32_MAX: none), for the
	 * samples of the HTML timeline */
	uint32_t *leaves;
	uint32_t nr_leaves, cap_leaves;
};

/* An empty tree holding only the root. 0 or -ENOMEM. */
int flame_init(struct flame *fl);
void flame_free(struct flame *fl);
/* Adds every stack of event @ev of @p into column @col. 0 or -errno. */
int flame_add_profile(struct flame *fl, struct sonde_profile *p, int ev, int col);
/* Sums self weights into totals (after the last flame_add_profile()). */
void flame_finish(struct flame *fl);
/*
 * The tree of event @ev of @p in column 0 and, when @baseline is not NULL,
 * of its event @base_ev in column 1 (diffs), finished. 0, or -errno with
 * nothing left to free; on success flame_free() it.
 */
int flame_build(struct flame *fl, struct sonde_profile *p, int ev,
		struct sonde_profile *baseline, int base_ev);
/*
 * Children of every node, sorted by function name (as flamegraph.pl
 * draws them): node i's are @kids[@first[i] .. @first[i + 1]). Both
 * arrays are malloc'd for the caller to free. 0 or -ENOMEM.
 */
int flame_children(const struct flame *fl, uint32_t **first, uint32_t **kids);

/*
 * The HTML profile's timeline (private): each sample's time, thread and
 * flame node, written into the page's data for its time and thread
 * filters.
 */
/*
 * Writes the timeline's JSON object for the samples of event x->ev that
 * @fl holds (@pos: each node's depth-first position in the page), or
 * null when @p kept no timeline (sonde_profile_opts.timeline) or has no
 * such sample. 0 or -errno.
 */
int html_timeline_put(struct sonde_profile *p, const struct export_ctx *x, const struct flame *fl,
		      const uint32_t *pos);

/*
 * The HTML page's sources (html/page.html, flame.css, flame.js, timeline.js) as bytes,
 * made at build time by the Makefile (xxd -i) into $(BUILD)/gen, so the
 * page stays editable as ordinary files and ships inside libsonde.
 */
extern const unsigned char export_asset_page[];
extern const size_t export_asset_page_len;
extern const unsigned char export_asset_css[];
extern const size_t export_asset_css_len;
extern const unsigned char export_asset_js[];
extern const size_t export_asset_js_len;
extern const unsigned char export_asset_tljs[];
extern const size_t export_asset_tljs_len;

#endif /* SONDE_EXPORT_PRIV_H */
