// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The self-contained HTML profile: the page template with its CSS and
 * script inlined and the flame tree embedded as compact JSON (a string
 * table, frames as index quadruples, nodes in depth-first order as parent
 * distance, frame, self weight, samples); the page builds the tree and
 * draws it itself.
 * With a base profile the same page shows a differential flame graph.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "export-priv.h"
#include "flame.h"
#include "html-assets.h"

/* A JSON string safe inside <script>: '<' is escaped, so no "</script>". */
static void put_json_str(FILE *o, const char *s)
{
	fputc('"', o);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(o, "\\%c", c);
		else if (c < 0x20 || c == '<' || c == '>' || c == '&')
			fprintf(o, "\\u%04x", c);
		else
			fputc(c, o);
	}
	fputc('"', o);
}

/* Text for the HTML body (the title). */
static void put_html_text(FILE *o, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", o);
		else if (*s == '>')
			fputs("&gt;", o);
		else if (*s == '&')
			fputs("&amp;", o);
		else
			fputc(*s, o);
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
static int put_data(FILE *o, const struct flame *fl, const char *event)
{
	uint32_t *order = preorder(fl), *pos;
	bool diff = fl->nodes[0].total[1] != 0;
	uint64_t unit = 0;

	pos = malloc((size_t)fl->nr_nodes * sizeof(*pos));
	if (!order || !pos) {
		free(order);
		free(pos);
		return -ENOMEM;
	}
	for (uint32_t k = 0; k < fl->nr_nodes; k++) {
		pos[order[k]] = k;
		unit = gcd(gcd(unit, fl->nodes[k].self[0]), fl->nodes[k].self[1]);
	}
	if (!unit)
		unit = 1;
	fputs("{\"v\":1,\"event\":", o);
	put_json_str(o, event ? event : "");
	fprintf(o, ",\"diff\":%d,\"unit\":%" PRIu64 ",\"rootSelf\":%" PRIu64
		   ",\"rootSamples\":%" PRIu64 ",\n\"strs\":[",
		diff, unit, fl->nodes[0].self[0] / unit, fl->nodes[0].samples[0]);
	for (uint32_t i = 0; i < fl->nr_strs; i++) {
		if (i)
			fputc(',', o);
		put_json_str(o, fl->strs[i]);
	}
	fputs("],\n\"frames\":[", o);
	for (uint32_t i = 0; i < fl->nr_frames; i++) {
		const struct flame_frame *f = &fl->frames[i];

		fprintf(o, "%s%u,%u,%u,%u", i ? "," : "", f->name, f->dso, f->src, f->kind);
	}
	fputs("],\n\"nodes\":[", o);
	for (uint32_t k = 1; k < fl->nr_nodes; k++) {
		const struct flame_node *n = &fl->nodes[order[k]];
		uint32_t dist = k - pos[n->parent];

		if (!n->self[0] && !n->samples[0])
			fprintf(o, "%s-%u,%u", k > 1 ? "," : "", dist, n->frame);
		else
			fprintf(o, "%s%u,%u,%" PRIu64 ",%" PRIu64, k > 1 ? "," : "", dist, n->frame,
				n->self[0] / unit, n->samples[0]);
	}
	fputc(']', o);
	if (diff) {
		fputs(",\n\"base\":[", o);
		for (uint32_t k = 1; k < fl->nr_nodes; k++)
			fprintf(o, "%s%" PRIu64, k > 1 ? "," : "", fl->nodes[order[k]].self[1] / unit);
		fputc(']', o);
	}
	fputc('}', o);
	free(order);
	free(pos);
	return 0;
}

/* Writes the template, replacing each @NAME@ marker by its part. */
static int put_page(FILE *o, const struct flame *fl, const char *title, const char *event)
{
	const char *t = (const char *)export_asset_page, *end = t + export_asset_page_len;

	while (t < end) {
		const char *at = memchr(t, '@', (size_t)(end - t)), *close;
		size_t len;

		if (!at) {
			fwrite(t, 1, (size_t)(end - t), o);
			break;
		}
		fwrite(t, 1, (size_t)(at - t), o);
		close = memchr(at + 1, '@', (size_t)(end - at - 1));
		len = close ? (size_t)(close - at - 1) : 0;
		if (close && len == 5 && !memcmp(at + 1, "TITLE", 5)) {
			put_html_text(o, title);
		} else if (close && len == 3 && !memcmp(at + 1, "CSS", 3)) {
			fwrite(export_asset_css, 1, export_asset_css_len, o);
		} else if (close && len == 2 && !memcmp(at + 1, "JS", 2)) {
			fwrite(export_asset_js, 1, export_asset_js_len, o);
		} else if (close && len == 4 && !memcmp(at + 1, "DATA", 4)) {
			int err = put_data(o, fl, event);

			if (err)
				return err;
		} else {
			fputc('@', o);
			t = at + 1;
			continue;
		}
		t = close + 1;
	}
	return 0;
}

int export_html(struct sonde_profile *p, const struct export_ctx *x)
{
	struct flame fl;
	int err;

	if (!p || !x || !x->out)
		return -EINVAL;
	err = flame_init(&fl);
	if (err)
		return err;
	err = flame_add_profile(&fl, p, x->event, 0);
	if (!err && x->base)
		err = flame_add_profile(&fl, x->base, x->event, 1);
	if (!err) {
		flame_finish(&fl);
		err = put_page(x->out, &fl, x->title ? x->title : "sonde profile",
			       sonde_profile__event_name(p, x->event));
		if (!err && ferror(x->out))
			err = -EIO;
	}
	flame_free(&fl);
	return err;
}
