// SPDX-License-Identifier: LGPL-2.1-only
/*
 * speedscope's file format (https://www.speedscope.app/file-format-schema.json):
 * shared frames, and one "sampled" profile per thread whose samples are
 * the thread's distinct stacks (frame indexes, root first) weighed by
 * their period, in nanoseconds for the clock events.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export_priv.h"

/* Frame indexes of every group's stack, root first, in one array. */
struct stacks {
	int64_t *v;
	size_t *off; /* group i: v[off[i] .. off[i + 1]) */
};

static int index_stacks(const struct export_group *g, size_t n, struct export_index *frames,
			struct stacks *s)
{
	size_t total = 0, k = 0;

	for (size_t i = 0; i < n; i++)
		total += sonde_profile_stack__nr_frames(g[i].st);
	s->v = malloc((total + 1) * sizeof(*s->v));
	s->off = malloc((n + 1) * sizeof(*s->off));
	if (!s->v || !s->off)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		uint32_t nf = sonde_profile_stack__nr_frames(g[i].st);

		s->off[i] = k;
		for (uint32_t f = nf; f-- > 0;) {
			const struct sonde_profile_frame *fr = sonde_profile_stack__frame(g[i].st, f);
			int64_t id = export_index_get(frames, export_frame_name(fr),
						      sonde_profile_frame__dso(fr));

			if (id < 0)
				return (int)id;
			s->v[k++] = id;
		}
	}
	s->off[n] = k;
	return 0;
}

static void put_frames(const struct export_ctx *x, const struct export_index *frames)
{
	export_puts(x, "\"shared\":{\"frames\":[");
	for (size_t i = 0; i < frames->nr; i++) {
		export_puts(x, i ? ",{\"name\":" : "{\"name\":");
		export_json_str(x, frames->a[i]);
		if (frames->b[i]) {
			export_puts(x, ",\"file\":");
			export_json_str(x, frames->b[i]);
		}
		export_put(x, "}", 1);
	}
	export_puts(x, "]}");
}

/* The profile of the thread whose groups are g[from, to). */
static void put_thread(const struct export_ctx *x, const struct export_group *g, size_t from,
		       size_t to, const struct stacks *s, const char *unit)
{
	uint64_t total = 0;
	char name[96];

	for (size_t i = from; i < to; i++)
		total += g[i].weight;
	export_puts(x, "{\"type\":\"sampled\",\"name\":");
	snprintf(name, sizeof(name), "%s (%d/%d)", g[from].comm ? g[from].comm : "", g[from].pid,
		 g[from].tid);
	export_json_str(x, name);
	export_printf(x, ",\"unit\":\"%s\",\"startValue\":0,\"endValue\":%llu,\"samples\":[",
		      unit, (unsigned long long)total);
	for (size_t i = from; i < to; i++) {
		export_puts(x, i > from ? ",[" : "[");
		for (size_t k = s->off[i]; k < s->off[i + 1]; k++)
			export_printf(x, k > s->off[i] ? ",%lld" : "%lld", (long long)s->v[k]);
		export_put(x, "]", 1);
	}
	export_puts(x, "],\"weights\":[");
	for (size_t i = from; i < to; i++)
		export_printf(x, i > from ? ",%llu" : "%llu", (unsigned long long)g[i].weight);
	export_puts(x, "]}");
}

int export_speedscope(struct sonde_profile *p, const struct export_ctx *x)
{
	struct export_index frames = { 0 };
	struct stacks s = { 0 };
	struct export_group *g;
	const char *unit = export_period_unit(p, x->ev);
	size_t n;
	int ret;

	if (strcmp(unit, "nanoseconds"))
		unit = "none";
	g = export_groups(p, x, &n);
	if (!g)
		return -ENOMEM;
	ret = index_stacks(g, n, &frames, &s);
	if (ret)
		goto out;
	export_puts(x, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",");
	put_frames(x, &frames);
	export_puts(x, ",\"profiles\":[");
	for (size_t i = 0, from = 0; i < n; i++) {
		if (i + 1 < n && g[i + 1].pid == g[i].pid && g[i + 1].tid == g[i].tid)
			continue;
		if (from)
			export_put(x, ",", 1);
		put_thread(x, g, from, i + 1, &s, unit);
		from = i + 1;
	}
	export_puts(x, "],\"name\":");
	export_json_str(x, x->title);
	export_puts(x, ",\"activeProfileIndex\":0,\"exporter\":\"sonde " SONDE_VERSION "\"}\n");
out:
	free(s.v);
	free(s.off);
	export_index_free(&frames);
	free(g);
	return ret;
}
