// SPDX-License-Identifier: LGPL-2.1-only
/*
 * perf diff's table (diff_table.h). The library pairs the entries of
 * every file with the baseline's (sonde_profile__add_column()): a row is
 * one entry of the baseline's histogram. The order is perf's chain of
 * sort fields: the -o file's column (default the first file), the
 * baseline's period, each file's column in turn, then the keys.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diff_table.h"

static const char *const key_titles[SONDE_PROFILE_KEY_MAX] = {
	"Command", "Pid:Command", "Tid", "Shared Object", "Symbol", "CPU", "Source:Line",
};

/* perf's column names and least widths, by compute method */
static const char *const compute_titles[] = { "Delta Abs", "Delta", "Ratio", "Weighted diff" };
static const int compute_widths[] = { 7, 7, 14, 14 };
#define PERIOD_WIDTH 14
#define FORMULA_WIDTH 70

int diff_table_init(struct diff_table *t)
{
	t->totals = calloc(t->nr_files + 1, sizeof(*t->totals));
	return t->totals ? 0 : -ENOMEM;
}

static void cell_text(const struct sonde_profile_entry *e, enum sonde_profile_key k, char *buf,
		      size_t sz)
{
	const char *s;

	switch (k) {
	case SONDE_PROFILE_KEY_COMM:
		s = sonde_profile_entry__comm(e);
		snprintf(buf, sz, "%s", s ? s : "");
		break;
	case SONDE_PROFILE_KEY_PID:
		s = sonde_profile_entry__comm(e);
		snprintf(buf, sz, "%7d:%s", sonde_profile_entry__tid(e), s ? s : "");
		break;
	case SONDE_PROFILE_KEY_TID:
		snprintf(buf, sz, "%7d", sonde_profile_entry__tid(e));
		break;
	case SONDE_PROFILE_KEY_DSO:
		s = sonde_profile_entry__dso_short(e);
		snprintf(buf, sz, "%s", s ? s : "[unknown]");
		break;
	case SONDE_PROFILE_KEY_SYM: {
		char level = sonde_profile_entry__kernel(e) ? 'k' : '.';

		s = sonde_profile_entry__sym(e);
		if (s)
			snprintf(buf, sz, "[%c] %s", level, s);
		else
			snprintf(buf, sz, "[%c] 0x%016" PRIx64, level, sonde_profile_entry__addr(e));
		break;
	}
	case SONDE_PROFILE_KEY_CPU:
		snprintf(buf, sz, "%.3d", sonde_profile_entry__cpu(e));
		break;
	default:
		s = sonde_profile_entry__srcline(e);
		snprintf(buf, sz, "%s", s ? s : "");
		break;
	}
}

int diff_table_add(struct diff_table *t, const struct sonde_profile_entry *e)
{
	char buf[4096];
	struct diff_row *r;

	if (t->nr == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		struct diff_row *n = realloc(t->rows, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		t->rows = n;
		t->cap = cap;
	}
	r = &t->rows[t->nr];
	memset(r, 0, sizeof(*r));
	r->side = calloc(t->nr_files, sizeof(*r->side));
	if (!r->side)
		return -ENOMEM;
	t->nr++; /* the row is freed with the others from here on */
	for (size_t k = 0; k < t->nr_keys; k++) {
		cell_text(e, t->keys[k], buf, sizeof(buf));
		r->cell[k] = strdup(buf);
		if (!r->cell[k])
			return -ENOMEM;
	}
	r->has_base = sonde_profile_entry__samples(e) > 0;
	r->base_period = sonde_profile_entry__self(e);
	for (size_t f = 1; f < t->nr_files; f++) {
		if (!t->cols[f])
			continue;
		r->side[f].has = sonde_profile_entry__column_samples(e, t->cols[f]) > 0;
		r->side[f].period = sonde_profile_entry__column(e, t->cols[f]);
	}
	return 0;
}

static double share(uint64_t period, uint64_t total)
{
	return total ? 100.0 * (double)period / (double)total : 0;
}

static void compute(const struct diff_table *t, struct diff_row *r, size_t f)
{
	struct diff_side *s = &r->side[f];

	switch (t->compute) {
	case DIFF_RATIO: /* as perf: over 1 where the baseline has nothing */
		s->value = (double)s->period / (double)(r->base_period ? r->base_period : 1);
		break;
	case DIFF_WDIFF:
		/* perf's s64 products, which wrap: computed unsigned, no overflow */
		s->value = (double)(int64_t)(s->period * (uint64_t)t->w2 -
					     r->base_period * (uint64_t)t->w1);
		break;
	default:
		s->value = share(s->period, t->totals[f]) -
			   (r->has_base ? share(r->base_period, t->base_total) : 0);
		break;
	}
}

static bool any_side(const struct diff_table *t, const struct diff_row *r)
{
	for (size_t f = 1; f < t->nr_files; f++)
		if (r->side[f].has)
			return true;
	return false;
}

static int cmp_value(const struct diff_table *t, const struct diff_side *a,
		     const struct diff_side *b)
{
	double va = t->compute == DIFF_DELTA_ABS ? fabs(a->value) : a->value;
	double vb = t->compute == DIFF_DELTA_ABS ? fabs(b->value) : b->value;

	return va == vb ? 0 : va > vb ? -1 : 1;
}

/* Rows with file @f's entry first; for ratio and wdiff, rows the baseline lacks after. */
static int cmp_order(const struct diff_table *t, const struct diff_row *a,
		     const struct diff_row *b, size_t f)
{
	bool ha = a->side[f].has, hb = b->side[f].has;

	if (ha != hb)
		return ha ? -1 : 1;
	if (!ha)
		return 0;
	if (t->compute == DIFF_RATIO || t->compute == DIFF_WDIFF) {
		if (a->has_base != b->has_base)
			return a->has_base ? -1 : 1;
		if (!a->has_base)
			return 0;
	}
	return cmp_value(t, &a->side[f], &b->side[f]);
}

/* File @f's column: rows some file has first, then those @f has, by value. */
static int cmp_column(const struct diff_table *t, const struct diff_row *a,
		      const struct diff_row *b, size_t f)
{
	bool pa = any_side(t, a), pb = any_side(t, b);

	if (pa != pb)
		return pa ? -1 : 1;
	if (!pa)
		return 0;
	if (a->side[f].has != b->side[f].has)
		return a->side[f].has ? -1 : 1;
	return a->side[f].has ? cmp_value(t, &a->side[f], &b->side[f]) : 0;
}

static int cmp_keys(const struct diff_table *t, const struct diff_row *a, const struct diff_row *b)
{
	for (size_t k = 0; k < t->nr_keys; k++) {
		/* symbols by name, as perf sorts them, not by their "[k] " */
		size_t skip = t->keys[k] == SONDE_PROFILE_KEY_SYM ? 4 : 0;
		int c = strcmp(a->cell[k] + skip, b->cell[k] + skip);

		if (c)
			return c;
	}
	return 0;
}

/* perf diff's chain of sort fields. */
static int cmp_rows(const void *pa, const void *pb, void *arg)
{
	const struct diff_table *t = arg;
	const struct diff_row *a = pa, *b = pb;
	int c = t->order ? cmp_order(t, a, b, t->order) : 0;

	if (c)
		return c;
	if (a->base_period != b->base_period)
		return a->base_period > b->base_period ? -1 : 1;
	for (size_t f = 1; f < t->nr_files; f++)
		if ((c = cmp_column(t, a, b, f)))
			return c;
	return cmp_keys(t, a, b);
}

/* A file's computed cell as perf prints it: blank for nothing to show. */
static void value_text(const struct diff_table *t, const struct diff_row *r, size_t f, char *buf,
		       size_t sz)
{
	const struct diff_side *s = &r->side[f];

	buf[0] = 0;
	if (!s->has)
		return;
	switch (t->compute) {
	case DIFF_RATIO:
	case DIFF_WDIFF:
		if (!r->has_base)
			snprintf(buf, sz, "N/A");
		else if (t->compute == DIFF_RATIO && s->value > 0)
			snprintf(buf, sz, "%14.6f", s->value);
		else if (t->compute == DIFF_WDIFF) /* 0 too, as perf */
			snprintf(buf, sz, "%14" PRId64, (int64_t)s->value);
		break;
	default:
		snprintf(buf, sz, "%+.2f%%", s->value);
		break;
	}
}

/* -F: how the cell came out, in perf's words. */
static void formula_text(const struct diff_table *t, const struct diff_row *r, size_t f,
			 uint64_t base_total, char *buf, size_t sz)
{
	const struct diff_side *s = &r->side[f];

	buf[0] = 0;
	if (!s->has)
		return;
	switch (t->compute) {
	case DIFF_RATIO:
		snprintf(buf, sz, "%.0f / %.0f", (double)s->period, (double)r->base_period);
		break;
	case DIFF_WDIFF:
		snprintf(buf, sz, "(%" PRIu64 " * %" PRId64 ") - (%" PRIu64 " * %" PRId64 ")",
			 s->period, t->w2, r->base_period, t->w1);
		break;
	default:
		snprintf(buf, sz, "(%" PRIu64 " * 100 / %" PRIu64 ") - (%" PRIu64 " * 100 / %" PRIu64 ")",
			 s->period, t->totals[f], r->base_period, base_total);
		break;
	}
}

/* A column's title: beyond two files, with the file's index as perf shows it. */
static void title(const struct diff_table *t, const char *name, size_t f, char *buf, size_t sz)
{
	if (t->nr_files > 2)
		snprintf(buf, sz, "%s/%zu", name, f);
	else
		snprintf(buf, sz, "%s", name);
}

/* The numeric columns, in perf's order: the baseline's, then each file's. */
struct col {
	enum { C_BASE, C_BASE_PERIOD, C_VALUE, C_FORMULA, C_PERIOD } kind;
	size_t file;
	int width;
	char title[64];
};

static size_t columns(const struct diff_table *t, struct col *c)
{
	size_t n = 0;

	for (size_t f = 0; f < t->nr_files; f++) {
		int w = f ? compute_widths[t->compute] : 0;

		c[n] = (struct col){ f ? C_VALUE : C_BASE, f, w, "" };
		title(t, f ? compute_titles[t->compute] : "Baseline", f, c[n].title, sizeof(c[n].title));
		n++;
		if (t->formula && f) {
			c[n] = (struct col){ C_FORMULA, f, FORMULA_WIDTH, "" };
			title(t, "Formula", f, c[n].title, sizeof(c[n].title));
			n++;
		}
		if (t->period) {
			c[n] = (struct col){ f ? C_PERIOD : C_BASE_PERIOD, f, PERIOD_WIDTH, "" };
			title(t, f ? "Period" : "Base period", f, c[n].title, sizeof(c[n].title));
			n++;
		}
	}
	for (size_t i = 0; i < n; i++)
		if ((int)strlen(c[i].title) > c[i].width)
			c[i].width = (int)strlen(c[i].title);
	return n;
}

static void cell(const struct diff_table *t, const struct diff_row *r, const struct col *c,
		 uint64_t base_total, char *buf, size_t sz)
{
	buf[0] = 0;
	switch (c->kind) {
	case C_BASE:
		if (r->has_base)
			snprintf(buf, sz, "%.2f%%", share(r->base_period, base_total));
		break;
	case C_BASE_PERIOD:
		snprintf(buf, sz, "%" PRIu64, r->base_period);
		break;
	case C_VALUE:
		value_text(t, r, c->file, buf, sz);
		break;
	case C_FORMULA: /* perf prints it from a buffer of its column's width */
		formula_text(t, r, c->file, base_total, buf, sz < FORMULA_WIDTH ? sz : FORMULA_WIDTH);
		break;
	case C_PERIOD:
		if (r->side[c->file].has)
			snprintf(buf, sz, "%" PRIu64, r->side[c->file].period);
		break;
	}
}

static void free_row(struct diff_row *r)
{
	for (size_t k = 0; k < DIFF_MAX_KEYS; k++)
		free(r->cell[k]);
	free(r->side);
}

void diff_table_print(struct diff_table *t, const char *event, bool first, struct outbuf *ob)
{
	struct col *c = calloc(3 * t->nr_files, sizeof(*c));
	size_t nc, m = 0, last = 0;
	int w[DIFF_MAX_KEYS];
	uint64_t base_total = t->base_total;
	char dots[256], buf[512];

	/* -b: only the entries the baseline and some file have; the
	 * baseline's shares are then of those (perf totals them again) */
	if (t->baseline_only) {
		base_total = 0;
		for (size_t i = 0; i < t->nr; i++) {
			if (t->rows[i].has_base && any_side(t, &t->rows[i])) {
				base_total += t->rows[i].base_period;
				t->rows[m++] = t->rows[i];
			} else {
				free_row(&t->rows[i]);
			}
		}
		t->nr = m;
	}
	for (size_t i = 0; i < t->nr; i++)
		for (size_t f = 1; f < t->nr_files; f++)
			compute(t, &t->rows[i], f);
	qsort_r(t->rows, t->nr, sizeof(*t->rows), cmp_rows, t);
	if (!c) {
		ob->err = ENOMEM;
		return;
	}
	nc = columns(t, c);
	for (size_t k = 0; k < t->nr_keys; k++) {
		w[k] = (int)strlen(key_titles[t->keys[k]]);
		/* perf's CPU column stays 3 wide ("-001" overflows it) */
		for (size_t i = 0; i < t->nr && t->keys[k] != SONDE_PROFILE_KEY_CPU; i++)
			if ((int)strlen(t->rows[i].cell[k]) > w[k])
				w[k] = (int)strlen(t->rows[i].cell[k]);
		if (!t->hide[k])
			last = k;
	}
	ob_printf(ob, "%s# Event '%s'\n#\n", first ? "" : "\n", event);
	if (t->nr_files > 2) {
		ob_printf(ob, "# Data files:\n");
		for (size_t f = 0; f < t->nr_files; f++)
			ob_printf(ob, "#  [%zu] %s %s\n", f, t->paths[f], f ? "" : "(Baseline)");
		ob_printf(ob, "#\n");
	}
	/* The first column takes "# " in the header, two spaces in the rows. */
	ob_printf(ob, "# %s", c[0].title);
	for (size_t i = 1; i < nc; i++)
		ob_printf(ob, "  %*s", c[i].width, c[i].title);
	for (size_t k = 0; k < t->nr_keys; k++)
		if (!t->hide[k])
			ob_printf(ob, "  %-*s", w[k], key_titles[t->keys[k]]);
	ob_printf(ob, "\n#");
	for (size_t i = 0; i < nc; i++) {
		int n = c[i].width < (int)sizeof(dots) - 1 ? c[i].width : (int)sizeof(dots) - 1;

		memset(dots, '.', (size_t)n);
		dots[n] = 0;
		ob_printf(ob, "%s%s", i ? "  " : " ", dots);
	}
	for (size_t k = 0; k < t->nr_keys; k++) {
		int n = w[k] < (int)sizeof(dots) - 1 ? w[k] : (int)sizeof(dots) - 1;

		if (t->hide[k])
			continue;
		memset(dots, '.', (size_t)n);
		dots[n] = 0;
		ob_printf(ob, "  %s", dots);
	}
	ob_printf(ob, "\n#\n");
	for (size_t i = 0; i < t->nr; i++) {
		const struct diff_row *r = &t->rows[i];

		for (size_t j = 0; j < nc; j++) {
			/* perf prints a weighted diff "%14ld", then pads its column */
			bool left = c[j].kind == C_VALUE && t->compute == DIFF_WDIFF &&
				    r->side[c[j].file].has && r->has_base;
			int width = c[j].width + (j ? 0 : 2);

			cell(t, r, &c[j], base_total, buf, sizeof(buf));
			ob_printf(ob, "%s%*s", j ? "  " : "", left ? -width : width, buf);
		}
		for (size_t k = 0; k < t->nr_keys; k++) {
			if (t->hide[k])
				continue;
			if (k == last)
				ob_printf(ob, "  %s", r->cell[k]);
			else
				ob_printf(ob, "  %-*s", w[k], r->cell[k]);
		}
		ob_printf(ob, "\n");
	}
	free(c);
}

void diff_table_clear(struct diff_table *t)
{
	for (size_t i = 0; i < t->nr; i++)
		free_row(&t->rows[i]);
	t->nr = 0;
	for (size_t f = 0; t->totals && f < t->nr_files; f++)
		t->totals[f] = 0;
	t->base_total = 0;
}

void diff_table_free(struct diff_table *t)
{
	diff_table_clear(t);
	free(t->rows);
	free(t->totals);
}
