// SPDX-License-Identifier: LGPL-2.1-only
/*
 * A static SVG flame graph, for README files and issue trackers: the root
 * at the bottom, one rect per merged frame with a <title> for hover,
 * coloured by kind (kernel, user, JIT, inlined) with the hue varied by
 * function name, names clipped to the rect's width. No script: every
 * viewer shows it the same way.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "export-priv.h"
#include "flame.h"

#define SVG_WIDTH 1200.0
#define SVG_ROW 16
#define SVG_PAD 10.0
#define SVG_TOP 34
#define SVG_CHAR 7.0 /* mean glyph width of 12px monospace */
#define SVG_MIN 0.1  /* narrower rects are not drawn */

static void put_escaped(FILE *o, const char *s, size_t max)
{
	for (size_t i = 0; s[i] && i < max; i++) {
		switch (s[i]) {
		case '<': fputs("&lt;", o); break;
		case '>': fputs("&gt;", o); break;
		case '&': fputs("&amp;", o); break;
		case '"': fputs("&quot;", o); break;
		default:
			if ((unsigned char)s[i] >= 0x20 || s[i] == '\t')
				fputc(s[i], o);
		}
	}
}

static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
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

struct svg_walk {
	const struct flame *fl;
	const uint32_t *first, *kids;
	FILE *out;
	double scale; /* pixels per weight unit */
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
	if (i)
		colour(fl, &fl->frames[n->frame], fill, sizeof(fill));
	fprintf(w->out, "<g><title>");
	put_escaped(w->out, name, (size_t)-1);
	fprintf(w->out, " (%" PRIu64 " samples, %.2f%%", n->total_samples[0],
		root > 0 ? 100.0 * (double)n->total[0] / root : 0.0);
	if (i && fl->frames[n->frame].dso) {
		fputs(", ", w->out);
		put_escaped(w->out, fl->strs[fl->frames[n->frame].dso], (size_t)-1);
	}
	if (i && fl->frames[n->frame].src) {
		fputs(", ", w->out);
		put_escaped(w->out, fl->strs[fl->frames[n->frame].src], (size_t)-1);
	}
	fprintf(w->out, ")</title><rect x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" height=\"%d\" "
			"fill=\"%s\" rx=\"2\"/>",
		x, y, wd, SVG_ROW - 1, fill);
	chars = wd > 6 ? (size_t)((wd - 6) / SVG_CHAR) : 0;
	if (chars >= 3) {
		size_t len = strlen(name);

		fprintf(w->out, "<text x=\"%.1f\" y=\"%.0f\">", x + 3, y + SVG_ROW - 4);
		if (len <= chars) {
			put_escaped(w->out, name, len);
		} else {
			put_escaped(w->out, name, chars - 2);
			fputs("..", w->out);
		}
		fputs("</text>", w->out);
	}
	fputs("</g>\n", w->out);
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

	if (!p || !x || !x->out)
		return -EINVAL;
	err = flame_init(&fl);
	if (err)
		return err;
	err = flame_add_profile(&fl, p, x->event, 0);
	if (!err) {
		flame_finish(&fl);
		err = flame_children(&fl, &first, &kids);
	}
	if (err)
		goto out;
	w = (struct svg_walk){ .fl = &fl, .first = first, .kids = kids, .out = x->out };
	w.height = (int)(fl.max_depth + 1) * SVG_ROW + SVG_TOP + (int)SVG_PAD;
	w.scale = fl.nodes[0].total[0] ? (SVG_WIDTH - 2 * SVG_PAD) / (double)fl.nodes[0].total[0]
				       : 0;
	fprintf(x->out,
		"<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" width=\"%.0f\" height=\"%d\" viewBox=\"0 0 %.0f %d\" "
		"xmlns=\"http://www.w3.org/2000/svg\">\n"
		"<style>text{font:12px monospace;fill:#000;pointer-events:none}"
		"g:hover rect{stroke:#000;stroke-width:.5}</style>\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"#fafaf5\"/>\n"
		"<text x=\"%.0f\" y=\"22\" style=\"font-size:16px\">",
		SVG_WIDTH, w.height, SVG_WIDTH, w.height, SVG_WIDTH / 2 - 100);
	put_escaped(x->out, x->title ? x->title : "sonde profile", 200);
	fputs("</text>\n", x->out);
	if (fl.nodes[0].total[0])
		draw_node(&w, 0, SVG_PAD);
	fputs("</svg>\n", x->out);
	err = ferror(x->out) ? -EIO : 0;
out:
	free(first);
	free(kids);
	flame_free(&fl);
	return err;
}
