// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Folded (collapsed) stacks, the input of flamegraph.pl, inferno and
 * speedscope: "comm;root;...;leaf count" per line, the count in samples.
 * Stacks that print alike (same functions at other addresses, other
 * threads of one command) make one line; lines in byte order, as
 * stackcollapse-perf.pl sorts them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "export_priv.h"

struct text {
	char *buf;
	size_t len, cap;
};

static int text_add(struct text *t, const char *s, size_t n)
{
	if (t->len + n > t->cap) {
		size_t cap = t->cap ? t->cap : 1 << 16;
		char *b;

		while (cap < t->len + n)
			cap *= 2;
		b = realloc(t->buf, cap);
		if (!b)
			return -ENOMEM;
		t->buf = b;
		t->cap = cap;
	}
	memcpy(t->buf + t->len, s, n);
	t->len += n;
	return 0;
}

/* Names are separated by ';' and lines by '\n': neither may appear inside. */
static int add_name(struct text *t, const char *s)
{
	size_t start = t->len, n = strlen(s);

	if (text_add(t, s, n))
		return -ENOMEM;
	for (size_t i = start; i < t->len; i++)
		if (t->buf[i] == ';')
			t->buf[i] = ':';
		else if (t->buf[i] == '\n' || t->buf[i] == '\r')
			t->buf[i] = ' ';
	return 0;
}

struct line {
	size_t off, len; /* in the text */
	uint64_t samples;
};

static const char *text_base; /* for qsort's comparator */

static int cmp_line(const void *pa, const void *pb)
{
	const struct line *a = pa, *b = pb;
	int c = memcmp(text_base + a->off, text_base + b->off, a->len < b->len ? a->len : b->len);

	if (c)
		return c;
	return a->len < b->len ? -1 : a->len > b->len;
}

int export_folded(struct sonde_profile *p, const struct export_ctx *x)
{
	struct text t = { 0 };
	struct export_group *g;
	struct line *l;
	size_t n, m = 0;
	int ret = -ENOMEM;

	g = export_groups(p, x, &n);
	if (!g)
		return -ENOMEM;
	l = malloc((n + 1) * sizeof(*l));
	if (!l)
		goto out;
	for (size_t i = 0; i < n; i++) {
		uint32_t nf = sonde_profile_stack__nr_frames(g[i].st);

		l[i] = (struct line){ .off = t.len, .samples = g[i].samples };
		if (add_name(&t, g[i].comm ? g[i].comm : ""))
			goto out;
		for (uint32_t f = nf; f-- > 0;)
			if (text_add(&t, ";", 1) ||
			    add_name(&t, export_frame_name(sonde_profile_stack__frame(g[i].st, f))))
				goto out;
		l[i].len = t.len - l[i].off;
	}
	text_base = t.buf;
	qsort(l, n, sizeof(*l), cmp_line);
	for (size_t i = 0; i < n; i++) {
		if (m && !cmp_line(&l[m - 1], &l[i]))
			l[m - 1].samples += l[i].samples;
		else
			l[m++] = l[i];
	}
	for (size_t i = 0; i < m; i++) {
		if (!l[i].samples)
			continue;
		export_put(x, t.buf + l[i].off, l[i].len);
		export_printf(x, " %llu\n", (unsigned long long)l[i].samples);
	}
	ret = 0;
out:
	free(l);
	free(t.buf);
	free(g);
	return ret;
}
