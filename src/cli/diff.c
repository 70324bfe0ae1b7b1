// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde diff OLD NEW: perf diff's table. NEW's profile takes OLD's as its
 * baseline (sonde_profile__add_baseline()), so the library pairs the
 * entries of both by perf diff's sort keys (default dso,sym); this file
 * only computes each pair's column (-c delta-abs, delta, ratio, wdiff),
 * orders the rows as perf does and prints one table per event of OLD.
 * --format html draws the differential flame graph through the export
 * layer, with OLD as the baseline.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "options.h"
#include "outbuf.h"
#include "profile_load.h"
#include "sonde/sonde.h"

#define DIFF_MAX_KEYS 8

static const char *const titles[SONDE_PROFILE_KEY_MAX] = {
	"Command", "Pid:Command", "Tid", "Shared Object", "Symbol", "CPU", "Source:Line",
};

/* perf diff's -c: what the second column shows and the rows sort by. */
enum compute {
	COMPUTE_DELTA_ABS, /* share in NEW minus share in OLD, biggest change first */
	COMPUTE_DELTA,	   /* the same, most grown first */
	COMPUTE_RATIO,	   /* NEW's period over OLD's */
	COMPUTE_WDIFF,	   /* NEW's period times w2 minus OLD's times w1 */
};

static const char *const compute_titles[] = { "Delta Abs", "Delta", "Ratio", "Weighted diff" };
static const int compute_widths[] = { 9, 7, 14, 14 };

struct row {
	char *cell[DIFF_MAX_KEYS]; /* the key columns' text */
	double base, now;	   /* shares (%) in OLD and NEW; -1 absent */
	uint64_t base_period, now_period;
	double value;		   /* the computed column */
};

struct diff {
	enum sonde_profile_key keys[DIFF_MAX_KEYS];
	size_t nr_keys;
	bool hide[DIFF_MAX_KEYS]; /* keys filtered to one value: no column, as in perf */
	enum compute compute;
	int64_t w1, w2; /* wdiff's weights */
	bool relative;	/* --percentage relative: shares of what the filters keep */
	struct row *rows;
	size_t nr, cap;
};

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

/* The compute column of @r; rows only NEW has get none for ratio and wdiff. */
static double compute(const struct diff *d, const struct row *r)
{
	switch (d->compute) {
	case COMPUTE_RATIO:
		return r->base_period ? (double)r->now_period / (double)r->base_period : 0;
	case COMPUTE_WDIFF:
		return (double)((int64_t)r->now_period * d->w2 - (int64_t)r->base_period * d->w1);
	default:
		/* As perf diff: an entry NEW lacks has no delta (blank, not -share). */
		return r->now < 0 ? 0 : r->now - (r->base < 0 ? 0 : r->base);
	}
}

static int add_row(struct diff *d, const struct sonde_profile_entry *e, uint64_t base_total,
		   uint64_t now_total)
{
	char buf[4096];
	struct row *r;

	if (d->nr == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 256;
		struct row *n = realloc(d->rows, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		d->rows = n;
		d->cap = cap;
	}
	r = &d->rows[d->nr];
	memset(r, 0, sizeof(*r));
	r->base_period = sonde_profile_entry__baseline(e);
	r->now_period = sonde_profile_entry__self(e);
	r->base = !sonde_profile_entry__baseline_samples(e) ? -1 :
		  base_total ? 100.0 * (double)r->base_period / (double)base_total : 0;
	r->now = !sonde_profile_entry__samples(e) ? -1 :
		 now_total ? 100.0 * (double)r->now_period / (double)now_total : 0;
	r->value = compute(d, r);
	d->nr++;
	for (size_t k = 0; k < d->nr_keys; k++) {
		cell_text(e, d->keys[k], buf, sizeof(buf));
		r->cell[k] = strdup(buf);
		if (!r->cell[k])
			return -ENOMEM;
	}
	return 0;
}

/* The rows of event @ev of @p, whose baseline is OLD's same event. */
static int add_rows(struct diff *d, struct sonde_profile *p, int ev)
{
	struct sonde_profile_event_stats now, base;
	size_t n = sonde_profile__nr_entries(p, ev);

	if (sonde_profile__event_stats(p, ev, &now) || sonde_profile__baseline_stats(p, ev, &base))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (add_row(d, sonde_profile__entry(p, ev, i),
			    d->relative ? base.filtered_period : base.period,
			    d->relative ? now.filtered_period : now.period))
			return -ENOMEM;
	return 0;
}

static int cmp_keys(const struct diff *d, const struct row *a, const struct row *b)
{
	for (size_t k = 0; k < d->nr_keys; k++) {
		/* symbols by name, as perf sorts them, not by their "[k] " */
		size_t skip = d->keys[k] == SONDE_PROFILE_KEY_SYM ? 4 : 0;
		int c = strcmp(a->cell[k] + skip, b->cell[k] + skip);

		if (c)
			return c;
	}
	return 0;
}

/*
 * perf diff's order: entries NEW has, the biggest computed value first
 * (for delta-abs its size; for ratio and wdiff, rows only NEW has after
 * the others, by their share); then those only OLD has, by baseline;
 * ties by baseline share, then the keys.
 */
static int cmp_rows(const void *pa, const void *pb, void *arg)
{
	const struct diff *d = arg;
	const struct row *a = pa, *b = pb;
	double va = d->compute == COMPUTE_DELTA_ABS ? fabs(a->value) : a->value;
	double vb = d->compute == COMPUTE_DELTA_ABS ? fabs(b->value) : b->value;

	if ((a->now < 0) != (b->now < 0))
		return a->now < 0 ? 1 : -1;
	if (d->compute == COMPUTE_RATIO || d->compute == COMPUTE_WDIFF) {
		if ((a->base < 0) != (b->base < 0))
			return a->base < 0 ? 1 : -1;
		/* perf's ratio of a row only NEW has is its period over 1 */
		if (a->base < 0 && b->base < 0)
			va = a->now, vb = b->now;
	}
	if (a->now < 0) /* both only in OLD: by baseline */
		va = vb = 0;
	if (va != vb)
		return va > vb ? -1 : 1;
	if (a->base != b->base)
		return a->base > b->base ? -1 : 1;
	return cmp_keys(d, a, b);
}

static void free_rows(struct diff *d)
{
	for (size_t i = 0; i < d->nr; i++)
		for (size_t k = 0; k < DIFF_MAX_KEYS; k++)
			free(d->rows[i].cell[k]);
	d->nr = 0;
}

/* The computed cell as perf prints it: blank for nothing to show. */
static void value_text(const struct diff *d, const struct row *r, char *buf, size_t sz)
{
	buf[0] = 0;
	if (r->now < 0)
		return;
	switch (d->compute) {
	case COMPUTE_RATIO:
	case COMPUTE_WDIFF:
		if (r->base < 0)
			snprintf(buf, sz, "N/A");
		else if (d->compute == COMPUTE_RATIO && r->value > 0)
			snprintf(buf, sz, "%14.6f", r->value);
		else if (d->compute == COMPUTE_WDIFF) /* 0 too, as perf */
			snprintf(buf, sz, "%14" PRId64, (int64_t)r->value);
		break;
	default:
		snprintf(buf, sz, "%+.2f%%", r->value);
		break;
	}
}

static void print_table(const struct diff *d, const char *event, bool first, struct outbuf *ob)
{
	int w[DIFF_MAX_KEYS], vw = compute_widths[d->compute];
	char dots[256];

	size_t last = 0;

	for (size_t k = 0; k < d->nr_keys; k++) {
		w[k] = (int)strlen(titles[d->keys[k]]);
		/* perf's CPU column stays 3 wide ("-001" overflows it) */
		for (size_t i = 0; i < d->nr && d->keys[k] != SONDE_PROFILE_KEY_CPU; i++)
			if ((int)strlen(d->rows[i].cell[k]) > w[k])
				w[k] = (int)strlen(d->rows[i].cell[k]);
		if (!d->hide[k])
			last = k;
	}
	ob_printf(ob, "%s# Event '%s'\n#\n# Baseline  %*s", first ? "" : "\n", event, vw,
		  compute_titles[d->compute]);
	for (size_t k = 0; k < d->nr_keys; k++)
		if (!d->hide[k])
			ob_printf(ob, "  %-*s", w[k], titles[d->keys[k]]);
	memset(dots, '.', (size_t)vw);
	dots[vw] = 0;
	ob_printf(ob, "\n# ........  %s", dots);
	for (size_t k = 0; k < d->nr_keys; k++) {
		int n = w[k] < (int)sizeof(dots) - 1 ? w[k] : (int)sizeof(dots) - 1;

		if (d->hide[k])
			continue;
		memset(dots, '.', (size_t)n);
		dots[n] = 0;
		ob_printf(ob, "  %s", dots);
	}
	ob_printf(ob, "\n#\n");
	for (size_t i = 0; i < d->nr; i++) {
		const struct row *r = &d->rows[i];
		char base[32] = "", val[64];

		if (r->base >= 0)
			snprintf(base, sizeof(base), "%.2f%%", r->base);
		value_text(d, r, val, sizeof(val));
		ob_printf(ob, "%10s  %*s", base, vw, val);
		for (size_t k = 0; k < d->nr_keys; k++) {
			if (d->hide[k])
				continue;
			if (k == last)
				ob_printf(ob, "  %s", r->cell[k]);
			else
				ob_printf(ob, "  %-*s", w[k], r->cell[k]);
		}
		ob_printf(ob, "\n");
	}
}

static int parse_sort(struct diff *d, const char *sort)
{
	char *copy = strdup(sort), *tok, *save = NULL;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int k = sonde_profile_key__parse(tok);

		if (k < 0 || d->nr_keys == DIFF_MAX_KEYS) {
			fprintf(stderr, "sonde diff: --sort: unknown key '%s' (comm, pid, tid, dso, sym, cpu, srcline)\n",
				tok);
			ret = -EINVAL;
			break;
		}
		d->keys[d->nr_keys++] = (enum sonde_profile_key)k;
	}
	free(copy);
	return ret;
}

/* -c delta-abs|delta|ratio|wdiff:w1,w2, as perf diff spells them. */
static int parse_compute(struct diff *d, const char *c)
{
	long long w1, w2;
	char end;

	d->w1 = d->w2 = 1;
	if (!strcmp(c, "delta-abs"))
		d->compute = COMPUTE_DELTA_ABS;
	else if (!strcmp(c, "delta"))
		d->compute = COMPUTE_DELTA;
	else if (!strcmp(c, "ratio"))
		d->compute = COMPUTE_RATIO;
	else if (!strncmp(c, "wdiff:", 6) && sscanf(c + 6, "%lld,%lld%c", &w1, &w2, &end) == 2 &&
		 w1 && w2) {
		d->compute = COMPUTE_WDIFF;
		d->w1 = w1;
		d->w2 = w2;
	} else {
		fprintf(stderr, "sonde diff: --compute '%s': expected delta-abs, delta, ratio or wdiff:w1,w2 (non-zero weights)\n",
			c);
		return -EINVAL;
	}
	return 0;
}

static int write_stdout(void *ctx, const void *buf, size_t len)
{
	(void)ctx;
	return fwrite(buf, 1, len, stdout) == len ? 0 : -EIO;
}

/* The event of @p named @name, or -1. */
static int event_by_name(const struct sonde_profile *p, const char *name)
{
	for (int i = 0; i < sonde_profile__nr_events(p); i++)
		if (!strcmp(sonde_profile__event_name(p, i), name))
			return i;
	return -1;
}

/* One table per event of OLD, as perf diff prints them. */
static int print_tables(struct diff *d, struct prof_load *old, struct prof_load *new)
{
	struct outbuf ob;
	int ret;

	ret = sonde_profile__add_baseline(new->p, old->p);
	if (ret)
		return ret;
	ob_init_fd(&ob, 1);
	for (int i = 0; i < sonde_profile__nr_events(old->p); i++) {
		const char *name = sonde_profile__event_name(old->p, i);
		int ev = event_by_name(new->p, name);

		ret = add_rows(d, new->p, ev);
		if (ret)
			break;
		qsort_r(d->rows, d->nr, sizeof(*d->rows), cmp_rows, d);
		print_table(d, name, i == 0, &ob);
		free_rows(d);
	}
	ob_flush(&ob);
	ob_free(&ob);
	return ret;
}

int cmd_diff(int argc, const char **argv)
{
	struct prof_load old = { 0 }, new = { 0 };
	struct diff d = { 0 };
	const char *sort = "dso,sym", *format = "text", *comp = "delta-abs", *percentage = NULL;
	bool force = false;
	const struct option opts[] = {
		OPT_STRING('s', "sort", &sort, "key[,key...]", "sort by comm, pid, tid, dso, sym, cpu, srcline (default dso,sym)"),
		OPT_STRING('c', "compute", &comp, "delta-abs|delta|ratio|wdiff:w1,w2", "the second column and the order (default delta-abs)"),
		OPT_STRING(0, "percentage", &percentage, "relative|absolute", "shares of what the filters keep, or of everything (default)"),
		OPT_STRING(0, "format", &format, "format", "text (perf diff's table, the default) or html (a differential flame graph on stdout)"),
		OPT_BOOLEAN('f', "force", &force, "read files owned by another user (not root)"),
		PROF_LOAD_OPTIONS(&old),
		OPT_END(),
	};
	const char *const usage[] = { "sonde diff [<options>] [OLD.data [NEW.data]]", NULL };
	const char *paths[2] = { "perf.data.old", "perf.data" };
	int n, ret;

	n = parse_options(argc, argv, opts, usage, 0);
	if (n > 2) {
		fprintf(stderr, "sonde diff: unexpected argument '%s'\n", argv[2]);
		return 129;
	}
	for (int i = 0; i < n; i++)
		paths[i] = argv[i];
	if (strcmp(format, "text") && strcmp(format, "html")) {
		fprintf(stderr, "sonde diff: --format '%s': expected text or html\n", format);
		return 129;
	}
	if (percentage && strcmp(percentage, "relative") && strcmp(percentage, "absolute")) {
		fprintf(stderr, "sonde diff: --percentage '%s': expected relative or absolute\n",
			percentage);
		return 129;
	}
	d.relative = percentage && !strcmp(percentage, "relative");
	if (parse_sort(&d, sort) || parse_compute(&d, comp))
		return 129;
	/* Like perf: a key filtered to one value has no column. */
	for (size_t k = 0; k < d.nr_keys; k++) {
		const char *f = d.keys[k] == SONDE_PROFILE_KEY_DSO  ? old.dsos :
				d.keys[k] == SONDE_PROFILE_KEY_SYM  ? old.syms :
				d.keys[k] == SONDE_PROFILE_KEY_COMM ? old.comms : NULL;

		d.hide[k] = f && !strchr(f, ',') && d.nr_keys > 1;
	}
	/* Both files take the same filters. */
	new = old;
	old.keys = new.keys = d.keys;
	old.nr_keys = new.nr_keys = d.nr_keys;
	old.self_only = new.self_only = !strcmp(format, "text");
	old.check_owner = new.check_owner = !force;
	ret = prof_load(&old, "sonde diff", paths[0]);
	if (!ret)
		ret = prof_load(&new, "sonde diff", paths[1]);
	if (ret)
		goto out;
	if (!strcmp(format, "html")) {
		SONDE_OPTS(sonde_export_opts, eo, .baseline = old.p);

		ret = sonde_profile__export(new.p, SONDE_EXPORT_HTML, write_stdout, NULL, &eo);
		if (ret) {
			char buf[128];

			fprintf(stderr, "sonde diff: --format html: %s\n",
				ret == -EOPNOTSUPP ? "this build of sonde has no differential flame graph yet"
						   : sonde_strerror(-ret, buf, sizeof(buf)));
			ret = 1;
		}
		goto out;
	}
	if (print_tables(&d, &old, &new)) {
		fprintf(stderr, "sonde diff: out of memory\n");
		ret = 1;
	}
out:
	free_rows(&d);
	free(d.rows);
	prof_load_free(&old);
	prof_load_free(&new);
	return ret;
}
