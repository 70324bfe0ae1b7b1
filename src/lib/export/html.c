// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The self-contained HTML profile: the page template with its CSS and
 * script inlined and the flame tree embedded as compact JSON (a string
 * table, frames as index quadruples, nodes in depth-first order as parent
 * distance, frame, self weight, samples); the page builds the tree and
 * draws it itself; then each sample's time, thread and node
 * (html_timeline.c) for the timeline and the filters.
 * With a base profile the same page shows a differential flame graph.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "export_priv.h"

/* A JSON string safe inside <script>: '<' is escaped, so no "</script>". */
static void put_json_str(const struct export_ctx *o, const char *s)
{
	const char *run = s;

	export_puts(o, "\"");
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c != '"' && c != '\\' && c >= 0x20 && c != '<' && c != '>' && c != '&')
			continue;
		export_put(o, run, (size_t)(s - run));
		run = s + 1;
		if (c == '"' || c == '\\')
			export_printf(o, "\\%c", c);
		else
			export_printf(o, "\\u%04x", c);
	}
	export_put(o, run, (size_t)(s - run));
	export_puts(o, "\"");
}

/* Text for the HTML body (the title). */
static void put_html_text(const struct export_ctx *o, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			export_puts(o, "&lt;");
		else if (*s == '>')
			export_puts(o, "&gt;");
		else if (*s == '&')
			export_puts(o, "&amp;");
		else
			export_put(o, s, 1);
	}
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/*
 * The nodes in depth-first order with children by function name, so the
 * page lays them out without sorting. Returns the order (malloc'd) or NULL.
 */
static uint32_t *preorder(const struct flame *fl)
{
	uint32_t *first, *kids, *order, *stack, n = 0, top = 0;

	if (flame_children(fl, &first, &kids))
		return NULL;
	order = malloc((size_t)fl->nr_nodes * sizeof(*order));
	stack = malloc((size_t)fl->nr_nodes * sizeof(*stack));
	if (order && stack) {
		stack[top++] = 0;
		while (top) {
			uint32_t i = stack[--top];

			order[n++] = i;
			for (uint32_t k = first[i + 1]; k-- > first[i];)
				stack[top++] = kids[k];
		}
	} else {
		free(order);
		order = NULL;
	}
	free(stack);
	free(first);
	free(kids);
	return order;
}

/*
 * Nodes as [parent distance, frame, self / unit, samples], or as
 * [-parent distance, frame] when nothing ends there (most inner frames);
 * weights share one unit (their gcd: the period of fixed-period events).
 */
static void put_data(const struct export_ctx *o, const struct flame *fl, const uint32_t *order,
		     const uint32_t *pos, const char *event)
{
	bool diff = fl->nodes[0].total[1] != 0;
	uint64_t unit = 0;

	for (uint32_t k = 0; k < fl->nr_nodes; k++) {
		unit = gcd(gcd(unit, fl->nodes[k].self[0]), fl->nodes[k].self[1]);
	}
	if (!unit)
		unit = 1;
	export_puts(o, "{\"v\":1,\"event\":");
	put_json_str(o, event ? event : "");
	export_printf(o, ",\"diff\":%d,\"unit\":%" PRIu64 ",\"rootSelf\":%" PRIu64
		   ",\"rootSamples\":%" PRIu64 ",\n\"strs\":[",
		diff, unit, fl->nodes[0].self[0] / unit, fl->nodes[0].samples[0]);
	for (uint32_t i = 0; i < fl->nr_strs; i++) {
		if (i)
			export_puts(o, ",");
		put_json_str(o, fl->strs[i]);
	}
	export_puts(o, "],\n\"frames\":[");
	for (uint32_t i = 0; i < fl->nr_frames; i++) {
		const struct flame_frame *f = &fl->frames[i];

		export_printf(o, "%s%u,%u,%u,%u", i ? "," : "", f->name, f->dso, f->src, f->kind);
	}
	export_puts(o, "],\n\"nodes\":[");
	for (uint32_t k = 1; k < fl->nr_nodes; k++) {
		const struct flame_node *n = &fl->nodes[order[k]];
		uint32_t dist = k - pos[n->parent];

		if (!n->self[0] && !n->samples[0])
			export_printf(o, "%s-%u,%u", k > 1 ? "," : "", dist, n->frame);
		else
			export_printf(o, "%s%u,%u,%" PRIu64 ",%" PRIu64, k > 1 ? "," : "", dist, n->frame,
				n->self[0] / unit, n->samples[0]);
	}
	export_puts(o, "]");
	if (diff) {
		export_puts(o, ",\n\"base\":[");
		for (uint32_t k = 1; k < fl->nr_nodes; k++)
			export_printf(o, "%s%" PRIu64, k > 1 ? "," : "", fl->nodes[order[k]].self[1] / unit);
		export_puts(o, "]");
	}
	export_puts(o, "}");
}

/*
 * Writes the template, replacing each @NAME@ marker by its part; the
 * timeline comes after the script, so the page draws before the browser
 * has even parsed the samples.
 */
static int put_parts(const struct export_ctx *o, struct sonde_profile *p, const struct flame *fl,
		     const uint32_t *order, const uint32_t *pos, const char *title,
		     const char *event)
{
	const char *t = (const char *)export_asset_page, *end = t + export_asset_page_len;

	while (t < end) {
		const char *at = memchr(t, '@', (size_t)(end - t)), *close;
		size_t len;

		if (!at) {
			export_put(o, t, (size_t)(end - t));
			break;
		}
		export_put(o, t, (size_t)(at - t));
		close = memchr(at + 1, '@', (size_t)(end - at - 1));
		len = close ? (size_t)(close - at - 1) : 0;
		if (close && len == 5 && !memcmp(at + 1, "TITLE", 5)) {
			put_html_text(o, title);
		} else if (close && len == 3 && !memcmp(at + 1, "CSS", 3)) {
			export_put(o, export_asset_css, export_asset_css_len);
		} else if (close && len == 2 && !memcmp(at + 1, "JS", 2)) {
			export_put(o, export_asset_js, export_asset_js_len);
		} else if (close && len == 4 && !memcmp(at + 1, "TLJS", 4)) {
			export_put(o, export_asset_tljs, export_asset_tljs_len);
		} else if (close && len == 4 && !memcmp(at + 1, "DATA", 4)) {
			put_data(o, fl, order, pos, event);
		} else if (close && len == 8 && !memcmp(at + 1, "TIMELINE", 8)) {
			int err = fl->nodes[0].total[1] ? 0 : html_timeline_put(p, o, fl, pos);

			if (err)
				return err;
		} else {
			export_puts(o, "@");
			t = at + 1;
			continue;
		}
		t = close + 1;
	}
	return 0;
}

static int put_page(const struct export_ctx *o, struct sonde_profile *p, const struct flame *fl,
		    const char *title, const char *event)
{
	uint32_t *order = preorder(fl), *pos = malloc(((size_t)fl->nr_nodes + 1) * sizeof(*pos));
	int err = 0;

	if (!order || !pos) {
		free(order);
		free(pos);
		return -ENOMEM;
	}
	for (uint32_t k = 0; k < fl->nr_nodes; k++)
		pos[order[k]] = k;
	err = put_parts(o, p, fl, order, pos, title, event);
	free(order);
	free(pos);
	return err;
}

int export_html(struct sonde_profile *p, const struct export_ctx *x)
{
	struct flame fl;
	int err;

	if (!p || !x)
		return -EINVAL;
	err = flame_build(&fl, p, x->ev, x->opts.baseline, x->opts.baseline_event);
	if (err)
		return err;
	err = put_page(x, p, &fl, x->title, x->event_name);
	flame_free(&fl);
	return err;
}
