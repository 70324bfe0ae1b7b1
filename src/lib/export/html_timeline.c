// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The HTML profile's timeline: every sample's time, thread and flame
 * node, so the page can filter all its views by a time range and by
 * threads. A million samples must stay a few MB, so the columns are
 * binary: zigzag varints of the time delta in microseconds (the
 * resolution of report's --time), then the lane (thread) numbers, then
 * the leaf numbers in bit planes, deflated in the zlib format (the page
 * inflates them with DecompressionStream) and base64 encoded into the
 * JSON. One pass over the samples, the work once per sample group.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "export_priv.h"
#include "profile_priv.h"

/* A lane: one thread under one command (a thread that execs gets two). */
struct lane {
	const char *comm;
	int32_t pid, tid;
	uint64_t samples;
};

struct lanes {
	struct lane *v;
	size_t nr, cap;
	struct hashtab ht; /* of index + 1 */
};

struct bytes {
	uint8_t *v;
	size_t nr, cap;
};

static int lane_of(struct lanes *l, const struct prof_group *g, uint32_t *out)
{
	uint64_t h = hashtab_mix(hashtab_mix((uintptr_t)g->comm, (uint32_t)g->pid), (uint32_t)g->tid);
	struct hashtab_probe pr;
	void *v;

	for (v = hashtab_probe_first(&l->ht, h, &pr); v; v = hashtab_probe_next(&l->ht, &pr)) {
		const struct lane *o = &l->v[(uintptr_t)v - 1];

		if (o->comm == g->comm && o->pid == g->pid && o->tid == g->tid) {
			*out = (uint32_t)((uintptr_t)v - 1);
			return 0;
		}
	}
	if (l->nr == l->cap) {
		size_t n = l->cap ? l->cap * 2 : 16;
		struct lane *a = realloc(l->v, n * sizeof(*a));

		if (!a)
			return -ENOMEM;
		l->v = a;
		l->cap = n;
	}
	if (hashtab_insert(&l->ht, h, (void *)(uintptr_t)(l->nr + 1)))
		return -ENOMEM;
	l->v[l->nr] = (struct lane){ g->comm, g->pid, g->tid, 0 };
	*out = (uint32_t)l->nr++;
	return 0;
}

static int cmp_lane(const void *pa, const void *pb, void *ctx)
{
	const struct lane *v = ctx, *a = &v[*(const uint32_t *)pa], *b = &v[*(const uint32_t *)pb];

	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	return strcmp(a->comm ? a->comm : "", b->comm ? b->comm : "");
}

/* Room for @n more bytes. */
static int reserve(struct bytes *b, size_t n)
{
	if (b->nr + n > b->cap) {
		size_t c = b->cap ? b->cap : 1 << 16;
		uint8_t *a;

		while (c < b->nr + n)
			c *= 2;
		a = realloc(b->v, c);
		if (!a)
			return -ENOMEM;
		b->v = a;
		b->cap = c;
	}
	return 0;
}

/* @v at @p (room for 10 bytes); returns the end. */
static inline uint8_t *varint_at(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

/* Call after reserve(b, 10). */
static void put_varint(struct bytes *b, uint64_t v)
{
	b->nr = (size_t)(varint_at(b->v + b->nr, v) - b->v);
}

/*
 * The planes of leaf numbers up to @max, low bits first: a byte plane
 * (8) for each whole byte, then the bits left (1, 2 or 4 of them, a
 * value in each, packed low bits first) in a plane of their own: 500
 * stacks take a byte and one bit, not two bytes. Only the last plane can
 * be narrow, so plane k starts k times the sample count in. Returns the
 * count of planes.
 */
static unsigned int leaf_planes(uint32_t max, unsigned int widths[4])
{
	unsigned int bits = max ? 32 - (unsigned int)__builtin_clz(max) : 1, n = 0;

	for (; bits >= 8; bits -= 8)
		widths[n++] = 8;
	if (bits)
		widths[n++] = bits == 1 ? 1 : bits == 2 ? 2 : bits <= 4 ? 4 : 8;
	return n;
}

/* The bytes of a plane of @n values @width bits each. */
static size_t plane_size(size_t n, unsigned int width)
{
	return (n * width + 7) / 8;
}

/* The columns, as one pass over the samples leaves them. */
struct tl_cols {
	size_t n;		/* samples shown */
	uint64_t t0, t1;	/* microseconds */
	struct bytes times;	/* the column starts at times.v + times_at */
	size_t times_at;
	struct bytes lanes;	/* lanes numbered as first met */
	struct bytes planes[4];
	unsigned int widths[4], np;
};

/* Feeds @n bytes at @in to @z with @flush, the output growing as needed. */
static int deflate_into(z_stream *z, const uint8_t *in, size_t n, int flush, struct bytes *out)
{
	int zr;

	z->next_in = (uint8_t *)in;
	z->avail_in = (uInt)n; /* columns far below 4 GiB */
	do {
		if (reserve(out, (n >> 2) + (1 << 16)))
			return -ENOMEM;
		z->next_out = out->v + out->nr;
		z->avail_out = (uInt)(out->cap - out->nr);
		zr = deflate(z, flush);
		out->nr = out->cap - z->avail_out;
		if (zr == Z_STREAM_ERROR)
			return -EIO;
	} while (z->avail_in || (flush == Z_FINISH && zr != Z_STREAM_END));
	return 0;
}

/* deflateParams() compresses what came before: it gets room until it can. */
static int set_params(z_stream *z, int level, int strategy, struct bytes *out)
{
	size_t room = 1 << 16;
	int zr;

	do {
		if (reserve(out, room))
			return -ENOMEM;
		room *= 2;
		z->next_out = out->v + out->nr;
		z->avail_out = (uInt)(out->cap - out->nr);
		zr = deflateParams(z, level, strategy);
		out->nr = out->cap - z->avail_out;
	} while (zr == Z_BUF_ERROR);
	return zr == Z_OK ? 0 : -EIO;
}

/*
 * Whether a leaf plane is noise to deflate: its byte entropy, less the
 * bytes that repeat the one before (the runs Z_RLE finds), leaves under
 * 6% to gain. Such planes (the low bytes of many distinct stacks) are
 * stored: coding a literal costs zlib some 70 instructions a byte.
 */
static bool incompressible(const uint8_t *v, size_t n)
{
	size_t hist[256] = { 0 }, repeats = 0;
	double bits = 0;

	for (size_t i = 0; i < n; i++) {
		hist[v[i]]++;
		repeats += i && v[i] == v[i - 1];
	}
	for (int c = 0; c < 256; c++)
		if (hist[c])
			bits += (double)hist[c] * log2((double)n / (double)hist[c]);
	return bits / (double)n * (1 - (double)repeats / (double)n) > 7.5;
}

/*
 * One zlib stream of the columns. The times and lanes repeat in runs
 * and patterns, which level 1's matches catch cheaply; a leaf plane is
 * close to noise apart from runs, so Z_RLE codes it about as small as a
 * match search in a third of the time, or it is stored when even that
 * would not pay.
 */
static int deflate_columns(const struct tl_cols *c, struct bytes *out)
{
	z_stream z = { 0 };
	int err, level = 1, strategy = Z_DEFAULT_STRATEGY;

	if (deflateInit2(&z, level, Z_DEFLATED, 15, 8, strategy) != Z_OK)
		return -ENOMEM;
	err = deflate_into(&z, c->times.v + c->times_at, c->times.nr - c->times_at, Z_NO_FLUSH,
			   out);
	if (!err)
		err = deflate_into(&z, c->lanes.v, c->lanes.nr, Z_NO_FLUSH, out);
	for (unsigned int k = 0; k < c->np && !err; k++) {
		const struct bytes *pl = &c->planes[k];
		int lv = incompressible(pl->v, pl->nr) ? 0 : 1, st = lv ? Z_RLE : Z_DEFAULT_STRATEGY;

		if (lv != level || st != strategy)
			err = set_params(&z, level = lv, strategy = st, out);
		if (!err)
			err = deflate_into(&z, pl->v, pl->nr, k + 1 < c->np ? Z_NO_FLUSH : Z_FINISH, out);
	}
	deflateEnd(&z);
	return err;
}

static void put_base64(const struct export_ctx *x, const struct bytes *b)
{
	static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char pair[4096][2]; /* 12 bits to two characters: two lookups per 3 bytes */
	size_t i = 0;

	for (int k = 0; k < 4096; k++) {
		pair[k][0] = abc[k >> 6];
		pair[k][1] = abc[k & 63];
	}
	while (i + 3 <= b->nr) {
		size_t n = (b->nr - i) / 3, room = 64 * 1024 / 4;
		char *o = export_room(x, 4 * (n < room ? n : room)), *q;

		if (!o)
			return;
		q = o;
		for (size_t k = 0; k < n && k < room; k++, i += 3, q += 4) {
			uint32_t v = (uint32_t)b->v[i] << 16 | (uint32_t)b->v[i + 1] << 8 | b->v[i + 2];

			memcpy(q, pair[v >> 12], 2);
			memcpy(q + 2, pair[v & 4095], 2);
		}
		export_commit(x, (size_t)(q - o));
	}
	if (i < b->nr) {
		uint32_t v = (uint32_t)b->v[i] << 16 | (i + 1 < b->nr ? (uint32_t)b->v[i + 1] << 8 : 0);
		char tail[4] = { abc[v >> 18], abc[(v >> 12) & 63],
				 i + 1 < b->nr ? abc[(v >> 6) & 63] : '=', '=' };

		export_put(x, tail, sizeof(tail));
	}
}

/*
 * Every node's leaf number: its place among the nodes where samples end,
 * in the page's depth-first order (the page counts the same), so the
 * numbers stay below the distinct stacks, not the nodes; *@nr gets their
 * count. NULL on ENOMEM.
 */
static uint32_t *leaf_numbers(const struct flame *fl, const uint32_t *pos, uint32_t *nr)
{
	uint32_t *at = calloc((size_t)fl->nr_nodes + 1, sizeof(*at)), *num, k = 0;

	num = malloc(((size_t)fl->nr_nodes + 1) * sizeof(*num));
	if (!at || !num) {
		free(at);
		free(num);
		return NULL;
	}
	for (uint32_t i = 0; i < fl->nr_nodes; i++)
		if (fl->nodes[i].samples[0])
			at[pos[i]] = 1;
	for (uint32_t j = 0; j < fl->nr_nodes; j++) /* at[]: a prefix count */
		k += at[j], at[j] = k - 1;
	for (uint32_t i = 0; i < fl->nr_nodes; i++)
		num[i] = at[pos[i]];
	free(at);
	*nr = k;
	return num;
}

/* A sample group as the timeline shows it. */
struct tl_group {
	uint32_t lane; /* lane + 1; 0 not seen yet; UINT32_MAX not shown */
	uint32_t leaf;
};

/* @g's lane + 1 and leaf number, or lane UINT32_MAX if the page does not show it. */
static int classify(struct sonde_profile *p, const struct export_ctx *x, const struct flame *fl,
		    const uint32_t *leaf, struct lanes *l, const struct prof_group *g,
		    struct tl_group *m)
{
	uint32_t id, lane;
	int err;

	m->lane = UINT32_MAX;
	if (g->ev != x->ev || !export_stack_visible(p, (const void *)g->st))
		return 0;
	id = sonde_profile_stack__id((const void *)g->st);
	if (id >= fl->nr_leaves || fl->leaves[id] == UINT32_MAX)
		return 0;
	err = lane_of(l, g, &lane);
	if (err)
		return err;
	m->lane = lane + 1;
	m->leaf = leaf[fl->leaves[id]];
	return 0;
}

/*
 * One pass over the samples of event x->ev the page shows (those whose
 * stacks @fl drew), once per sample group deciding whether and where:
 * their lanes into @l with their sample counts, and the three columns:
 * the time deltas as zigzag varints (from the earliest sample: its
 * varint goes in last, in the room kept before the others), the lanes
 * as varints, the leaf numbers in the planes of @c->widths (all low
 * bytes, then the next ones): each plane has one distribution of its
 * own, which deflate codes close to its entropy.
 */
static int encode(struct sonde_profile *p, const struct export_ctx *x, const struct flame *fl,
		  const uint32_t *leaf, struct lanes *l, struct tl_cols *c)
{
	struct tl_group *memo = calloc(prof_nr_groups(p) + 1, sizeof(*memo));
	struct prof_tl_clock clk;
	struct prof_group **gv = NULL;
	size_t ng;
	uint8_t *plane[4], *bits, acc = 0, first[10], *tp, *lp;
	uint64_t prev = 0, first_us = 0, t0 = UINT64_MAX, t1 = 0;
	unsigned int bytes = c->np - (c->widths[c->np - 1] < 8), pw = c->widths[c->np - 1];
	unsigned int nbits = 0;
	size_t n = 0;
	int err = -ENOMEM;

	if (p->tl_overflow) {
		err = -EOVERFLOW;
		goto out;
	}
	gv = prof_groups_sorted(p, &ng);
	prof_tl_clock_init(&clk, p);
	if (!memo || reserve(&c->times, p->nr_tl * 10 + sizeof(first)) ||
	    reserve(&c->lanes, p->nr_tl * 5 + 1))
		goto out;
	for (unsigned int k = 0; k < c->np; k++) {
		if (reserve(&c->planes[k], plane_size(p->nr_tl, c->widths[k]) + 1))
			goto out;
		plane[k] = c->planes[k].v;
	}
	bits = plane[bytes];
	/* local pointers: a byte store could alias a struct bytes' fields */
	tp = c->times.v + sizeof(first);
	lp = c->lanes.v;
	err = 0;
	for (size_t i = 0; i < p->nr_tl; i++) {
		uint32_t seq = p->tl[i].group;
		struct tl_group *m = &memo[seq];
		uint64_t us = prof_tl_time(&clk, p, i) / 1000;
		uint32_t lf;

		if (!m->lane && (err = classify(p, x, fl, leaf, l, gv[seq], m)))
			goto out;
		if (m->lane == UINT32_MAX)
			continue;
		if (n) {
			int64_t d = (int64_t)(us - prev);

			tp = varint_at(tp, ((uint64_t)d << 1) ^ (uint64_t)(d >> 63));
		} else {
			first_us = us;
		}
		prev = us;
		t0 = us < t0 ? us : t0;
		t1 = us > t1 ? us : t1;
		lp = varint_at(lp, m->lane - 1);
		l->v[m->lane - 1].samples++;
		lf = m->leaf;
		if (bytes)
			plane[0][n] = (uint8_t)lf;
		for (unsigned int k = 1; k < bytes; k++)
			plane[k][n] = (uint8_t)(lf >> (8 * k));
		if (bytes < c->np) { /* the bits left (bytes < 4), packed */
			acc |= (uint8_t)((lf >> (8 * bytes)) << nbits);
			nbits += pw;
			if (nbits == 8) {
				*bits++ = acc;
				acc = 0;
				nbits = 0;
			}
		}
		n++;
	}
	if (nbits)
		*bits = acc;
	c->times.nr = (size_t)(tp - c->times.v);
	c->lanes.nr = (size_t)(lp - c->lanes.v);
	for (unsigned int k = 0; k < c->np; k++)
		c->planes[k].nr = plane_size(n, c->widths[k]);
	c->n = n;
	c->t0 = t0;
	c->t1 = t1;
	if (n) { /* the first sample's delta, from the earliest */
		struct bytes fb = { first, 0, sizeof(first) };

		put_varint(&fb, (first_us - t0) << 1);
		c->times_at = sizeof(first) - fb.nr;
		memcpy(c->times.v + c->times_at, first, fb.nr);
	}
out:
	free(gv);
	free(memo);
	return err;
}

/*
 * The lane column by @rank, the lanes' (pid, tid) order, from their
 * order met. One byte a sample while every lane number fits in one.
 */
static int renumber_lanes(struct bytes *lanes, const uint32_t *rank, size_t nr_lanes, size_t n)
{
	struct bytes out = { 0 };
	size_t j = 0, k = 0;

	while (k < nr_lanes && rank[k] == k)
		k++;
	if (k == nr_lanes) /* met in order */
		return 0;
	if (nr_lanes <= 128) {
		for (size_t i = 0; i < lanes->nr; i++)
			lanes->v[i] = (uint8_t)rank[lanes->v[i]];
		return 0;
	}
	if (reserve(&out, n * 5 + 1))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		uint32_t v = 0;

		for (unsigned int sh = 0;; sh += 7) {
			uint8_t b = lanes->v[j++];

			v |= (uint32_t)(b & 0x7f) << sh;
			if (b < 0x80)
				break;
		}
		put_varint(&out, rank[v]);
	}
	free(lanes->v);
	*lanes = out;
	return 0;
}

/* Times in absolute microseconds, so the page can name report --time ranges. */
static void put_head(const struct export_ctx *x, const struct lanes *l, const uint32_t *order,
		     const struct tl_cols *c)
{
	export_printf(x, "{\"samples\":%zu,\"t0us\":%" PRIu64 ",\"t1us\":%" PRIu64
		      ",\"leafPlanes\":[", c->n, c->t0, c->t1);
	for (unsigned int k = 0; k < c->np; k++)
		export_printf(x, "%s%u", k ? "," : "", c->widths[k]);
	export_puts(x, "],\"lanes\":[");
	for (size_t k = 0; k < l->nr; k++) {
		const struct lane *ln = &l->v[order[k]];

		export_printf(x, "%s[%d,%d,%" PRIu64 ",", k ? "," : "", ln->pid, ln->tid, ln->samples);
		export_json_str(x, ln->comm ? ln->comm : "");
		export_puts(x, "]");
	}
	export_puts(x, "]");
}

int html_timeline_put(struct sonde_profile *p, const struct export_ctx *x, const struct flame *fl,
		      const uint32_t *pos)
{
	struct lanes l = { 0 };
	struct tl_cols c = { 0 };
	struct bytes z = { 0 };
	uint32_t *order = NULL, *rank = NULL, *leaf = NULL, nr_leaves = 0;
	int err;

	if (!p->timeline || !fl->leaves) {
		export_puts(x, "null");
		return 0;
	}
	hashtab_init(&l.ht);
	leaf = leaf_numbers(fl, pos, &nr_leaves);
	err = -ENOMEM;
	if (!leaf)
		goto out;
	/* planes for every leaf the flame graph has: known before the pass */
	c.np = leaf_planes(nr_leaves ? nr_leaves - 1 : 0, c.widths);
	err = encode(p, x, fl, leaf, &l, &c);
	if (!err && !c.n)
		export_puts(x, "null");
	if (err || !c.n)
		goto out;
	order = malloc(l.nr * sizeof(*order));
	rank = malloc(l.nr * sizeof(*rank));
	err = -ENOMEM;
	if (!order || !rank)
		goto out;
	for (uint32_t k = 0; k < l.nr; k++)
		order[k] = k;
	qsort_r(order, l.nr, sizeof(*order), cmp_lane, l.v);
	for (uint32_t k = 0; k < l.nr; k++)
		rank[order[k]] = k;
	err = renumber_lanes(&c.lanes, rank, l.nr, c.n);
	if (!err)
		err = deflate_columns(&c, &z);
	if (err)
		goto out;
	put_head(x, &l, order, &c);
	export_puts(x, ",\"zlib\":\"");
	put_base64(x, &z);
	export_puts(x, "\"}");
out:
	free(order);
	free(rank);
	free(leaf);
	free(c.times.v);
	free(c.lanes.v);
	for (unsigned int k = 0; k < c.np; k++)
		free(c.planes[k].v);
	free(z.v);
	free(l.v);
	hashtab_free(&l.ht);
	return err;
}
