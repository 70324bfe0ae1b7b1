// SPDX-License-Identifier: LGPL-2.1-only
/*
 * A static SVG flame graph, for README files and issue trackers: the root
 * at the bottom, one rect per merged frame with a <title> for hover,
 * coloured by kind (kernel, user, JIT, inlined) with the hue varied by
 * function name, or with a baseline by change (grown red, shrunk blue),
 * names clipped to the rect's width. No script: every
 * viewer shows it the same way.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core_priv.h"
#include "export_priv.h"

#define SVG_WIDTH 1200.0
#define SVG_ROW 16
#define SVG_PAD 10.0
#define SVG_TOP 34
#define SVG_CHAR 7.0 /* mean glyph width of 12px monospace */
#define SVG_MIN 0.1  /* narrower rects are not drawn */

static void put_escaped(const struct export_ctx *o, const char *s, size_t max)
{
	size_t run = 0; /* characters that need no escape, written at once */

	for (size_t i = 0;; i++) {
		const char *esc = NULL;
		bool end = !s[i] || i >= max;

		if (!end) {
			switch (s[i]) {
			case '<': esc = "&lt;"; break;
			case '>': esc = "&gt;"; break;
			case '&': esc = "&amp;"; break;
			case '"': esc = "&quot;"; break;
			default:
				if ((unsigned char)s[i] < 0x20)
					esc = "";
			}
		}
		if (end || esc) {
			export_put(o, s + i - run, run);
			run = 0;
			if (end)
				return;
			export_puts(o, esc);
		} else {
			run++;
		}
	}
}

/* A name's colour is fixed by its hash: the same function keeps its shade. */
static uint32_t name_hash(const char *s)
{
	uint64_t h = fnv1a64(FNV1A64_INIT, s, strlen(s));

	return (uint32_t)(h ^ (h >> 32));
}

/* The HTML page's palettes: warm user code, blue kernel, green JIT, aqua inlined. */
static void colour(const struct flame *fl, const struct flame_frame *f, char *buf, size_t n)
{
	uint32_t h = name_hash(fl->strs[f->name]);
	unsigned v1 = h % 55, v2 = (h >> 8) % 55;

	if (f->kind & SONDE_PROFILE_FRAME_INLINED)
		snprintf(buf, n, "rgb(%u,%u,%u)", 80 + v1, 190 + v2 / 2, 200 + v2 / 2);
	else if (f->kind & SONDE_PROFILE_FRAME_KERNEL)
		snprintf(buf, n, "rgb(%u,%u,%u)", 100 + v1, 140 + v2 / 2, 230u);
	else if (f->kind & SONDE_PROFILE_FRAME_JIT)
		snprintf(buf, n, "rgb(%u,%u,%u)", 60 + v1, 190 + v2 / 2, 60 + v1);
	else
		snprintf(buf, n, "rgb(%u,%u,%u)", 205 + v1, 80 + v2 * 2, 40 + v1 / 2);
}

/* A differential frame: red when its share grew, blue when it shrank. */
static void diff_colour(const struct flame *fl, const struct flame_node *n, char *buf, size_t len)
{
	double d = (double)n->total[0] / (double)(fl->nodes[0].total[0] ? fl->nodes[0].total[0] : 1) -
		   (double)n->total[1] / (double)fl->nodes[0].total[1];
	double t = d * 20 < 0 ? -d * 20 : d * 20;
	unsigned c = (unsigned)(235 - 175 * (t > 1 ? 1 : t));

	if (d > 0)
		snprintf(buf, len, "rgb(240,%u,%u)", c, c);
	else if (d < 0)
		snprintf(buf, len, "rgb(%u,%u,240)", c, c);
	else
		snprintf(buf, len, "rgb(235,235,235)");
}

struct svg_walk {
	const struct flame *fl;
	const uint32_t *first, *kids;
	const struct export_ctx *out;
	double scale; /* pixels per weight unit */
	bool diff;    /* column 1 holds a baseline: colour by change */
	int height;
};

static void draw_node(struct svg_walk *w, uint32_t i, double x)
{
	const struct flame *fl = w->fl;
	const struct flame_node *n = &fl->nodes[i];
	double wd = (double)n->total[0] * w->scale;
	double root = (double)fl->nodes[0].total[0];
	double y = w->height - SVG_PAD - (double)(n->depth + 1) * SVG_ROW;
	const char *name = i ? fl->strs[fl->frames[n->frame].name] : "all";
	char fill[32] = "rgb(200,200,200)";
	size_t chars;

	if (wd < SVG_MIN)
		return;
	if (w->diff)
		diff_colour(fl, n, fill, sizeof(fill));
	else if (i)
		colour(fl, &fl->frames[n->frame], fill, sizeof(fill));
	export_printf(w->out, "<g><title>");
	put_escaped(w->out, name, (size_t)-1);
	export_printf(w->out, " (%" PRIu64 " samples, %.2f%%", n->total_samples[0],
		root > 0 ? 100.0 * (double)n->total[0] / root : 0.0);
	if (w->diff)
		export_printf(w->out, ", before %.2f%%, after %.2f%%",
			      100.0 * (double)n->total[1] / (double)fl->nodes[0].total[1],
			      root > 0 ? 100.0 * (double)n->total[0] / root : 0.0);
	if (i && fl->frames[n->frame].dso) {
		export_puts(w->out, ", ");
		put_escaped(w->out, fl->strs[fl->frames[n->frame].dso], (size_t)-1);
	}
	if (i && fl->frames[n->frame].src) {
		export_puts(w->out, ", ");
		put_escaped(w->out, fl->strs[fl->frames[n->frame].src], (size_t)-1);
	}
	export_printf(w->out, ")</title><rect x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" height=\"%d\" "
			"fill=\"%s\" rx=\"2\"/>",
		x, y, wd, SVG_ROW - 1, fill);
	chars = wd > 6 ? (size_t)((wd - 6) / SVG_CHAR) : 0;
	if (chars >= 3) {
		size_t len = strlen(name);

		export_printf(w->out, "<text x=\"%.1f\" y=\"%.0f\">", x + 3, y + SVG_ROW - 4);
		if (len <= chars) {
			put_escaped(w->out, name, len);
		} else {
			put_escaped(w->out, name, chars - 2);
			export_puts(w->out, "..");
		}
		export_puts(w->out, "</text>");
	}
	export_puts(w->out, "</g>\n");
	for (uint32_t k = w->first[i]; k < w->first[i + 1]; k++) {
		uint32_t c = w->kids[k];

		draw_node(w, c, x);
		x += (double)fl->nodes[c].total[0] * w->scale;
	}
}

int export_svg(struct sonde_profile *p, const struct export_ctx *x)
{
	struct flame fl;
	uint32_t *first = NULL, *kids = NULL;
	struct svg_walk w;
	int err;

	if (!p || !x)
		return -EINVAL;
	err = flame_build(&fl, p, x->ev, x->opts.baseline, x->opts.baseline_event);
	if (err)
		return err;
	err = flame_children(&fl, &first, &kids);
	if (err)
		goto out;
	w = (struct svg_walk){ .fl = &fl, .first = first, .kids = kids, .out = x,
			    .diff = fl.nodes[0].total[1] != 0 };
	w.height = (int)(fl.max_depth + 1) * SVG_ROW + SVG_TOP + (int)SVG_PAD;
	w.scale = fl.nodes[0].total[0] ? (SVG_WIDTH - 2 * SVG_PAD) / (double)fl.nodes[0].total[0]
				       : 0;
	export_printf(x,
		"<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" width=\"%.0f\" height=\"%d\" viewBox=\"0 0 %.0f %d\" "
		"xmlns=\"http://www.w3.org/2000/svg\">\n"
		"<style>text{font:12px monospace;fill:#000;pointer-events:none}"
		"g:hover rect{stroke:#000;stroke-width:.5}</style>\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"#fafaf5\"/>\n"
		"<text x=\"%.0f\" y=\"22\" style=\"font-size:16px\">",
		SVG_WIDTH, w.height, SVG_WIDTH, w.height, SVG_WIDTH / 2 - 100);
	put_escaped(x, x->title, 200);
	export_puts(x, "</text>\n");
	if (fl.nodes[0].total[0])
		draw_node(&w, 0, SVG_PAD);
	export_puts(x, "</svg>\n");
out:
	free(first);
	free(kids);
	flame_free(&fl);
	return err;
}
