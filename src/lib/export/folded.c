// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Folded (collapsed) stacks, the input of flamegraph.pl, inferno and
 * speedscope: "comm;root;...;leaf count" per line, the count in samples.
 * One line per command and distinct stack, commands in name order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "export-priv.h"

/* Names are separated by ';' and lines by '\n': neither may appear inside. */
static void put_name(const struct export_ctx *x, const char *s)
{
	const char *run = s;

	for (; *s; s++) {
		if (*s != ';' && *s != '\n' && *s != '\r')
			continue;
		export_put(x, run, (size_t)(s - run));
		export_put(x, *s == ';' ? ":" : " ", 1);
		run = s + 1;
	}
	export_put(x, run, (size_t)(s - run));
}

struct line {
	const char *comm;
	const struct sonde_profile_stack *st;
	uint64_t samples;
	size_t first; /* first group: lines keep the order stacks were met */
};

static int cmp_line(const void *pa, const void *pb)
{
	const struct line *a = pa, *b = pb;
	int c = a->comm == b->comm ? 0 : strcmp(a->comm, b->comm);
	uint32_t ia, ib;

	if (c)
		return c;
	ia = sonde_profile_stack__id(a->st);
	ib = sonde_profile_stack__id(b->st);
	if (ia != ib)
		return ia < ib ? -1 : 1;
	return a->first < b->first ? -1 : a->first > b->first;
}

int export_folded(struct sonde_profile *p, const struct export_ctx *x)
{
	struct export_group *g;
	struct line *l;
	size_t n, m = 0;

	g = export_groups(p, x, &n);
	if (!g)
		return -ENOMEM;
	l = malloc((n + 1) * sizeof(*l));
	if (!l) {
		free(g);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		l[i] = (struct line){ g[i].comm ? g[i].comm : "", g[i].st, g[i].samples, i };
	free(g);
	qsort(l, n, sizeof(*l), cmp_line);
	for (size_t i = 0; i < n; i++) { /* threads of one command: one line */
		if (m && l[m - 1].comm == l[i].comm && l[m - 1].st == l[i].st)
			l[m - 1].samples += l[i].samples;
		else
			l[m++] = l[i];
	}
	for (size_t i = 0; i < m; i++) {
		uint32_t nf = sonde_profile_stack__nr_frames(l[i].st);

		if (!l[i].samples)
			continue;
		put_name(x, l[i].comm);
		for (uint32_t f = nf; f-- > 0;) {
			export_put(x, ";", 1);
			put_name(x, export_frame_name(sonde_profile_stack__frame(l[i].st, f)));
		}
		export_printf(x, " %llu\n", (unsigned long long)l[i].samples);
	}
	free(l);
	return 0;
}
