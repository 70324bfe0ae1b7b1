// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The self-contained HTML profile: the page template with its CSS and
 * script inlined and the flame tree embedded as compact JSON (a string
 * table, frames as index quadruples, nodes as [parent distance, frame,
 * self weight, samples]); the page builds the tree and draws it itself.
 * With a base profile the same page shows a differential flame graph.
 */
#include <errno.h>
#include <inttypes.h>
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

static void put_data(FILE *o, const struct flame *fl, const char *event)
{
	fputs("{\"v\":1,\"event\":", o);
	put_json_str(o, event ? event : "");
	fprintf(o, ",\"diff\":%d,\"rootSelf\":%" PRIu64 ",\"rootSamples\":%" PRIu64 ",\n\"strs\":[",
		fl->nodes[0].total[1] ? 1 : 0, fl->nodes[0].self[0], fl->nodes[0].samples[0]);
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
	for (uint32_t i = 1; i < fl->nr_nodes; i++) {
		const struct flame_node *n = &fl->nodes[i];

		fprintf(o, "%s%u,%u,%" PRIu64 ",%" PRIu64, i > 1 ? "," : "", i - n->parent, n->frame,
			n->self[0], n->samples[0]);
	}
	fputc(']', o);
	if (fl->nodes[0].total[1]) {
		fputs(",\n\"base\":[", o);
		for (uint32_t i = 1; i < fl->nr_nodes; i++)
			fprintf(o, "%s%" PRIu64 ",%" PRIu64, i > 1 ? "," : "", fl->nodes[i].self[1],
				fl->nodes[i].samples[1]);
		fputc(']', o);
	}
	fputc('}', o);
}

/* Writes the template, replacing each @NAME@ marker by its part. */
static void put_page(FILE *o, const struct flame *fl, const char *title, const char *event)
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
			put_data(o, fl, event);
		} else {
			fputc('@', o);
			t = at + 1;
			continue;
		}
		t = close + 1;
	}
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
		put_page(x->out, &fl, x->title ? x->title : "sonde profile",
			 sonde_profile__event_name(p, x->event));
		err = ferror(x->out) ? -EIO : 0;
	}
	flame_free(&fl);
	return err;
}
