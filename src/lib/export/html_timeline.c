// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The HTML profile's timeline: every sample's time, thread and flame
 * node, so the page can filter all its views by a time range and by
 * threads. A million samples must stay a few MB, so the columns are
 * binary: zigzag varints of the time delta in microseconds (the
 * resolution of report's --time), then the lane (thread) numbers, then
 * the leaf numbers in byte planes, gzip-compressed (the page inflates
 * them with DecompressionStream) and base64 encoded into the JSON.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "export_priv.h"
#include "html_timeline.h"
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

/* Call after reserve(b, 10). */
static void put_varint(struct bytes *b, uint64_t v)
{
	while (v >= 0x80) {
		b->v[b->nr++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	b->v[b->nr++] = (uint8_t)v;
}

static int gzip_bytes(const struct bytes *in, struct bytes *out)
{
	z_stream z = { 0 };
	int zr;

	/* Level 1: the columns are regular, so it already gains most, fast. */
	if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -ENOMEM;
	if (reserve(out, deflateBound(&z, in->nr))) {
		deflateEnd(&z);
		return -ENOMEM;
	}
	z.next_in = in->v;
	z.avail_in = (uInt)in->nr; /* a byte stream far below 4 GiB */
	z.next_out = out->v;
	z.avail_out = (uInt)out->cap;
	zr = deflate(&z, Z_FINISH);
	out->nr = out->cap - z.avail_out;
	deflateEnd(&z);
	return zr == Z_STREAM_END ? 0 : -EIO;
}

static void put_base64(const struct export_ctx *x, const struct bytes *b)
{
	static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char buf[4096];
	size_t n = 0, i = 0;

	for (; i + 3 <= b->nr; i += 3) {
		uint32_t v = (uint32_t)b->v[i] << 16 | (uint32_t)b->v[i + 1] << 8 | b->v[i + 2];

		buf[n++] = abc[v >> 18];
		buf[n++] = abc[(v >> 12) & 63];
		buf[n++] = abc[(v >> 6) & 63];
		buf[n++] = abc[v & 63];
		if (n == sizeof(buf)) {
			export_put(x, buf, n);
			n = 0;
		}
	}
	if (i < b->nr) {
		uint32_t v = (uint32_t)b->v[i] << 16 | (i + 1 < b->nr ? (uint32_t)b->v[i + 1] << 8 : 0);

		buf[n++] = abc[v >> 18];
		buf[n++] = abc[(v >> 12) & 63];
		buf[n++] = i + 1 < b->nr ? abc[(v >> 6) & 63] : '=';
		buf[n++] = '=';
	}
	export_put(x, buf, n);
}

/* One sample to show: its time in microseconds, lane and leaf number. */
struct tl_sample {
	uint64_t us;
	uint32_t lane, leaf;
};

/*
 * Every node's leaf number: its place among the nodes where samples end,
 * in the page's depth-first order (the page counts the same), so the
 * numbers stay below the distinct stacks, not the nodes. NULL on ENOMEM.
 */
static uint32_t *leaf_numbers(const struct flame *fl, const uint32_t *pos)
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
	return num;
}

/*
 * The timeline's samples of event x->ev whose stacks @fl drew, in
 * recording order, into *out (malloc'd, *nr of them), their lanes into
 * @l. 0 or -ENOMEM.
 */
static int collect(struct sonde_profile *p, const struct export_ctx *x, const struct flame *fl,
		   const uint32_t *leaf, struct lanes *l,
		   struct tl_sample **out, size_t *nr)
{
	size_t ng = prof_nr_groups(p), n = 0;
	/* per group: lane + 1 once known, UINT32_MAX when not shown */
	uint32_t *memo = calloc(ng + 1, sizeof(*memo));
	struct tl_sample *s = malloc((p->nr_tl + 1) * sizeof(*s));
	int err = 0;

	if (!memo || !s) {
		free(memo);
		free(s);
		return -ENOMEM;
	}
	for (size_t i = 0; i < p->nr_tl && !err; i++) {
		const struct prof_group *g = p->tl[i].g;
		uint32_t lane = memo[g->seq], id;

		if (lane == UINT32_MAX)
			continue;
		if (!lane) {
			lane = UINT32_MAX;
			if (g->ev == x->ev && export_stack_visible(p, (const void *)g->st)) {
				id = sonde_profile_stack__id((const void *)g->st);
				if (id < fl->nr_leaves && fl->leaves[id] != UINT32_MAX)
					err = lane_of(l, g, &lane);
				if (!err && lane != UINT32_MAX)
					lane++;
			}
			memo[g->seq] = lane;
			if (lane == UINT32_MAX)
				continue;
		}
		id = sonde_profile_stack__id((const void *)g->st);
		s[n++] = (struct tl_sample){ p->tl[i].time / 1000, lane - 1, leaf[fl->leaves[id]] };
	}
	free(memo);
	if (err) {
		free(s);
		return err;
	}
	*out = s;
	*nr = n;
	return 0;
}

/* The bytes a leaf number takes: the columns hold that many planes. */
static unsigned int leaf_bytes(uint32_t max)
{
	return max < 1u << 8 ? 1 : max < 1u << 16 ? 2 : max < 1u << 24 ? 3 : 4;
}

/*
 * The three columns, lanes renumbered by @rank: the time deltas as
 * zigzag varints, the lanes as varints, the leaf numbers as @w byte
 * planes (all low bytes, then the next ones): each plane has one
 * distribution of its own, which deflate codes close to its entropy.
 */
static int encode(const struct tl_sample *s, size_t n, const uint32_t *rank, uint64_t t0,
		  unsigned int w, struct bytes *b)
{
	uint64_t prev = t0;

	if (reserve(b, n * (20 + w) + 1))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		int64_t d = (int64_t)(s[i].us - prev);

		put_varint(b, ((uint64_t)d << 1) ^ (uint64_t)(d >> 63));
		prev = s[i].us;
	}
	for (size_t i = 0; i < n; i++)
		put_varint(b, rank[s[i].lane]);
	for (unsigned int k = 0; k < w; k++)
		for (size_t i = 0; i < n; i++)
			b->v[b->nr++] = (uint8_t)(s[i].leaf >> (8 * k));
	return 0;
}

/* Times in absolute microseconds, so the page can name report --time ranges. */
static void put_head(const struct export_ctx *x, const struct lanes *l, const uint32_t *order,
		     size_t n, uint64_t t0, uint64_t t1, unsigned int w)
{
	export_printf(x, "{\"samples\":%zu,\"t0us\":%" PRIu64 ",\"t1us\":%" PRIu64
		      ",\"leafBytes\":%u,", n, t0, t1, w);
	export_puts(x, "\"lanes\":[");
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
	struct tl_sample *s = NULL;
	struct bytes raw = { 0 }, gz = { 0 };
	uint32_t *order = NULL, *rank = NULL, *leaf = NULL, max_leaf = 0;
	uint64_t t0 = UINT64_MAX, t1 = 0;
	size_t n = 0;
	int err;

	if (!p->timeline || !fl->leaves) {
		export_puts(x, "null");
		return 0;
	}
	hashtab_init(&l.ht);
	leaf = leaf_numbers(fl, pos);
	err = leaf ? collect(p, x, fl, leaf, &l, &s, &n) : -ENOMEM;
	if (!err && !n)
		export_puts(x, "null");
	if (err || !n)
		goto out;
	for (size_t i = 0; i < n; i++) {
		if (s[i].leaf > max_leaf)
			max_leaf = s[i].leaf;
		if (s[i].us < t0)
			t0 = s[i].us;
		if (s[i].us > t1)
			t1 = s[i].us;
		l.v[s[i].lane].samples++;
	}
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
	err = encode(s, n, rank, t0, leaf_bytes(max_leaf), &raw);
	if (!err)
		err = gzip_bytes(&raw, &gz);
	if (err)
		goto out;
	put_head(x, &l, order, n, t0, t1, leaf_bytes(max_leaf));
	export_puts(x, ",\"gz\":\"");
	put_base64(x, &gz);
	export_puts(x, "\"}");
out:
	free(s);
	free(order);
	free(rank);
	free(leaf);
	free(raw.v);
	free(gz.v);
	free(l.v);
	hashtab_free(&l.ht);
	return err;
}
