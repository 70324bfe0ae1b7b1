// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde diff OLD NEW: perf diff's table. Each entry of either profile's
 * histogram (by perf diff's sort keys, default dso,sym) with its share
 * of the baseline (OLD) and the change of its share in NEW, biggest
 * change first. --format html draws the differential flame graph
 * through the export layer, with OLD as the baseline.
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
#include "profile-load.h"
#include "sonde/sonde.h"

#define DIFF_MAX_KEYS 8

static const char *const titles[SONDE_PROFILE_KEY_MAX] = {
	"Command", "Pid:Command", "Tid", "Shared Object", "Symbol", "CPU", "Source:Line",
};

struct row {
	char *cell[DIFF_MAX_KEYS]; /* the key columns' text */
	char *id;		   /* the cells joined: equal in both files, same entry */
	double base, now;	   /* shares (%) in OLD and NEW; -1 absent */
};

struct diff {
	enum sonde_profile_key keys[DIFF_MAX_KEYS];
	size_t nr_keys;
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
		snprintf(buf, sz, "%03d", sonde_profile_entry__cpu(e));
		break;
	default:
		s = sonde_profile_entry__srcline(e);
		snprintf(buf, sz, "%s", s ? s : "");
		break;
	}
}

static int add_row(struct diff *d, const struct sonde_profile_entry *e, double share, bool is_new)
{
	char buf[4096], id[8192];
	size_t len = 0;
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
	r->base = is_new ? -1 : share;
	r->now = is_new ? share : -1;
	for (size_t k = 0; k < d->nr_keys; k++) {
		cell_text(e, d->keys[k], buf, sizeof(buf));
		r->cell[k] = strdup(buf);
		if (!r->cell[k])
			return -ENOMEM;
		len += (size_t)snprintf(id + len, sizeof(id) - len, "%s%c", buf, 1);
		if (len >= sizeof(id))
			len = sizeof(id) - 1;
	}
	r->id = strdup(id);
	if (!r->id)
		return -ENOMEM;
	d->nr++;
	return 0;
}

/* Every entry of @p's first event, with its share of the event's period. */
static int add_profile(struct diff *d, struct sonde_profile *p, bool is_new)
{
	struct sonde_profile_event_stats st;
	size_t n;

	if (sonde_profile__nr_events(p) < 1 || sonde_profile__event_stats(p, 0, &st))
		return 0;
	n = sonde_profile__nr_entries(p, 0);
	for (size_t i = 0; i < n; i++) {
		const struct sonde_profile_entry *e = sonde_profile__entry(p, 0, i);
		double share = st.period ? 100.0 * (double)sonde_profile_entry__self(e) /
						   (double)st.period
					 : 0;

		if (add_row(d, e, share, is_new))
			return -ENOMEM;
	}
	return 0;
}

static int cmp_id(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;
	int c = strcmp(a->id, b->id);

	/* the baseline's row first, so the merge below keeps it */
	return c ? c : (a->base < 0) - (b->base < 0);
}

/* As perf diff: an entry NEW lacks has no delta (blank, not -share). */
static double delta(const struct row *r)
{
	return r->now < 0 ? 0 : r->now - (r->base < 0 ? 0 : r->base);
}

/*
 * perf diff's order: entries NEW has, the biggest change first; then
 * those only OLD has; ties by baseline share, then the keys.
 */
static int cmp_delta(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;
	double da = fabs(delta(a)), db = fabs(delta(b));

	if ((a->now < 0) != (b->now < 0))
		return a->now < 0 ? 1 : -1;
	if (da != db)
		return da > db ? -1 : 1;
	if (a->base != b->base)
		return a->base > b->base ? -1 : 1;
	return strcmp(a->id, b->id);
}

static void free_row(struct row *r)
{
	for (size_t k = 0; k < DIFF_MAX_KEYS; k++)
		free(r->cell[k]);
	free(r->id);
}

/* One row per entry: OLD's and NEW's rows of one entry become one. */
static void pair_rows(struct diff *d)
{
	size_t m = 0;

	qsort(d->rows, d->nr, sizeof(*d->rows), cmp_id);
	for (size_t i = 0; i < d->nr; i++) {
		if (m && !strcmp(d->rows[m - 1].id, d->rows[i].id)) {
			struct row *r = &d->rows[m - 1];

			if (d->rows[i].now >= 0)
				r->now = (r->now < 0 ? 0 : r->now) + d->rows[i].now;
			if (d->rows[i].base >= 0)
				r->base = (r->base < 0 ? 0 : r->base) + d->rows[i].base;
			free_row(&d->rows[i]);
		} else {
			d->rows[m++] = d->rows[i];
		}
	}
	d->nr = m;
	qsort(d->rows, d->nr, sizeof(*d->rows), cmp_delta);
}

static void print_table(const struct diff *d, const char *event, struct outbuf *ob)
{
	int w[DIFF_MAX_KEYS];
	char dots[256];

	for (size_t k = 0; k < d->nr_keys; k++) {
		w[k] = (int)strlen(titles[d->keys[k]]);
		for (size_t i = 0; i < d->nr; i++)
			if ((int)strlen(d->rows[i].cell[k]) > w[k])
				w[k] = (int)strlen(d->rows[i].cell[k]);
	}
	ob_printf(ob, "# Event '%s'\n#\n# Baseline  Delta Abs", event);
	for (size_t k = 0; k < d->nr_keys; k++)
		ob_printf(ob, "  %-*s", w[k], titles[d->keys[k]]);
	ob_printf(ob, "\n# ........  .........");
	for (size_t k = 0; k < d->nr_keys; k++) {
		int n = w[k] < (int)sizeof(dots) - 1 ? w[k] : (int)sizeof(dots) - 1;

		memset(dots, '.', (size_t)n);
		dots[n] = 0;
		ob_printf(ob, "  %s", dots);
	}
	ob_printf(ob, "\n#\n");
	for (size_t i = 0; i < d->nr; i++) {
		const struct row *r = &d->rows[i];
		double dl = delta(r);
		char base[32] = "", dt[32] = "";

		if (r->base >= 0)
			snprintf(base, sizeof(base), "%.2f%%", r->base);
		/* perf leaves a change that rounds to nothing blank */
		if (fabs(dl) >= 0.005)
			snprintf(dt, sizeof(dt), "%+.2f%%", dl);
		ob_printf(ob, "%10s  %9s", base, dt);
		for (size_t k = 0; k < d->nr_keys; k++) {
			if (k + 1 == d->nr_keys)
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

static int write_stdout(void *ctx, const void *buf, size_t len)
{
	(void)ctx;
	return fwrite(buf, 1, len, stdout) == len ? 0 : -EIO;
}

int cmd_diff(int argc, const char **argv)
{
	struct prof_load old = { 0 }, new = { 0 };
	struct diff d = { 0 };
	const char *sort = "dso,sym", *format = "text";
	const struct option opts[] = {
		OPT_STRING('s', "sort", &sort, "key[,key...]", "sort by comm, pid, tid, dso, sym, cpu, srcline (default dso,sym)"),
		OPT_STRING(0, "format", &format, "format", "text (perf diff's table, the default) or html (a differential flame graph on stdout)"),
		PROF_LOAD_OPTIONS(&old),
		OPT_END(),
	};
	const char *const usage[] = { "sonde diff [<options>] [OLD.data [NEW.data]]", NULL };
	const char *paths[2] = { "perf.data.old", "perf.data" };
	struct outbuf ob;
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
	if (parse_sort(&d, sort))
		return 129;
	/* Both files take the same filters. */
	new = old;
	old.keys = new.keys = d.keys;
	old.nr_keys = new.nr_keys = d.nr_keys;
	old.self_only = new.self_only = !strcmp(format, "text");
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
	if (add_profile(&d, old.p, false) || add_profile(&d, new.p, true)) {
		fprintf(stderr, "sonde diff: out of memory\n");
		ret = 1;
		goto out;
	}
	pair_rows(&d);
	ob_init_fd(&ob, 1);
	print_table(&d, sonde_profile__nr_events(old.p) ? sonde_profile__event_name(old.p, 0) : "",
		    &ob);
	ob_flush(&ob);
	ob_free(&ob);
out:
	for (size_t i = 0; i < d.nr; i++)
		free_row(&d.rows[i]);
	free(d.rows);
	prof_load_free(&old);
	prof_load_free(&new);
	return ret;
}
