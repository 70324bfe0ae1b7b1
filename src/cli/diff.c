// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde diff OLD NEW...: perf diff's table. Events pair as perf pairs
 * them, by attr type and config; each NEW profile's event becomes a
 * column of OLD's (sonde_profile__add_column()), so the library pairs the
 * entries of all by perf diff's sort keys (default dso,sym), and NEW is
 * freed once paired; diff_table.c computes each file's column, orders the
 * rows as perf does and prints one table per event of OLD. --format html draws the
 * differential flame graph of two files through the export layer, with
 * OLD as the baseline.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "diff_table.h"
#include "options.h"
#include "outbuf.h"
#include "profile_load.h"
#include "sonde/sonde.h"

static int parse_sort(struct diff_table *t, const char *sort)
{
	char *copy = strdup(sort), *tok, *save = NULL;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int k = sonde_profile_key__parse(tok);

		if (k < 0 || t->nr_keys == DIFF_MAX_KEYS) {
			fprintf(stderr, "sonde diff: --sort: unknown key '%s' (comm, pid, tid, dso, sym, cpu, srcline)\n",
				tok);
			ret = -EINVAL;
			break;
		}
		/* The table has columns for perf's first seven keys only. */
		if (k > SONDE_PROFILE_KEY_SRCLINE) {
			fprintf(stderr, "sonde diff: --sort: '%s' is not a key sonde diff shows (comm, pid, tid, dso, sym, cpu, srcline)\n",
				tok);
			ret = -EINVAL;
			break;
		}
		t->keys[t->nr_keys++] = (enum sonde_profile_key)k;
	}
	free(copy);
	return ret;
}

/* -c delta-abs|delta|ratio|wdiff:w1,w2, as perf diff spells them. */
static int parse_compute(struct diff_table *t, const char *c)
{
	long long w1, w2;
	char end;

	t->w1 = t->w2 = 1;
	if (!strcmp(c, "delta-abs"))
		t->compute = DIFF_DELTA_ABS;
	else if (!strcmp(c, "delta"))
		t->compute = DIFF_DELTA;
	else if (!strcmp(c, "ratio"))
		t->compute = DIFF_RATIO;
	else if (!strncmp(c, "wdiff:", 6) && sscanf(c + 6, "%lld,%lld%c", &w1, &w2, &end) == 2 &&
		 w1 && w2) {
		t->compute = DIFF_WDIFF;
		t->w1 = w1;
		t->w2 = w2;
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

/* The event of @pl whose attr has @a's type and config, as perf's
 * evsel__match2() pairs them: the first one; -1 if none. */
static int event_match(const struct prof_load *pl, const struct sonde_perf_event_attr *a)
{
	for (int i = 0; i < sonde_profile__nr_events(pl->p); i++) {
		const struct sonde_perf_event_attr *b = sonde_perfdata_reader__attr(pl->r, i);

		if (b && b->type == a->type && b->config == a->config)
			return i;
	}
	return -1;
}

static uint64_t total(const struct sonde_profile_event_stats *st, bool relative)
{
	return relative ? st->filtered_period : st->period;
}

/*
 * File @f as columns of OLD's histogram: each event of OLD takes the
 * file's event of its type and config, as column cols[ev * nr_files + f]
 * (left 0 when the file has none).
 */
static int pair_file(struct prof_load *pl, size_t f, size_t nr_files, int *cols)
{
	for (int ev = 0; ev < sonde_profile__nr_events(pl[0].p); ev++) {
		const struct sonde_perf_event_attr *a = sonde_perfdata_reader__attr(pl[0].r, ev);
		int fev = a ? event_match(&pl[f], a) : -1;
		int col;

		if (fev < 0) /* a file without the event: its column stays blank */
			continue;
		col = sonde_profile__add_column(pl[0].p, ev, pl[f].p, fev);
		if (col < 0)
			return col;
		cols[(size_t)ev * nr_files + f] = col;
	}
	return 0;
}

/* The table of OLD's event @ev: its entries, each file's in its column. */
static int add_event(struct diff_table *t, struct sonde_profile *p, int ev, bool relative)
{
	struct sonde_profile_event_stats st;
	size_t n;
	int ret;

	if (sonde_profile__event_stats(p, ev, &st))
		return 0;
	t->base_total = total(&st, relative);
	for (size_t f = 1; f < t->nr_files; f++)
		if (t->cols[f] && !sonde_profile__column_stats(p, ev, t->cols[f], &st))
			t->totals[f] = total(&st, relative);
	n = sonde_profile__nr_entries(p, ev);
	for (size_t i = 0; i < n; i++)
		if ((ret = diff_table_add(t, sonde_profile__entry(p, ev, i))))
			return ret;
	return 0;
}

/* One table per event of OLD, as perf diff prints them. */
static int print_tables(struct diff_table *t, struct sonde_profile *p, const int *cols,
			bool relative)
{
	struct outbuf ob;
	int ret = 0;

	ob_init_fd(&ob, 1);
	for (int ev = 0; ev < sonde_profile__nr_events(p) && !ret; ev++) {
		t->cols = cols + (size_t)ev * t->nr_files;
		ret = add_event(t, p, ev, relative);
		if (!ret)
			diff_table_print(t, sonde_profile__event_name(p, ev), ev == 0, &ob);
		diff_table_clear(t);
		if (!ret && ob.err)
			ret = -ob.err;
	}
	ob_flush(&ob);
	if (!ret && ob.err)
		ret = -ob.err;
	ob_free(&ob);
	return ret;
}

/* OLD's first event against NEW's event of its type and config, as the
 * text table pairs them. */
static int diff_html(struct prof_load *pl, const char *const *paths)
{
	const struct sonde_perf_event_attr *a = sonde_perfdata_reader__attr(pl[0].r, 0);
	const char *name = sonde_profile__event_name(pl[0].p, 0);
	int ev = a ? event_match(&pl[1], a) : -1;
	int ret;

	if (ev < 0) {
		fprintf(stderr, "sonde diff: --format html: %s has no event like %s's '%s'\n",
			paths[1], paths[0], name ? name : "");
		return 1;
	}
	SONDE_OPTS(sonde_export_opts, eo, .event = ev, .baseline = pl[0].p, .baseline_event = 0);
	ret = sonde_profile__export(pl[1].p, SONDE_EXPORT_HTML, write_stdout, NULL, &eo);

	if (ret) {
		char buf[128];

		fprintf(stderr, "sonde diff: --format html: %s\n",
			ret == -EOPNOTSUPP ? "this build of sonde has no differential flame graph yet"
					   : sonde_strerror(-ret, buf, sizeof(buf)));
		return 1;
	}
	return 0;
}

int cmd_diff(int argc, const char **argv)
{
	struct prof_load opt = { 0 }, *pl = NULL;
	struct diff_table t = { 0 };
	int *cols = NULL;
	const char *sort = "dso,sym", *format = "text", *comp = "delta-abs", *percentage = NULL;
	bool force = false;
	int order = 1;
	const struct option opts[] = {
		OPT_STRING('s', "sort", &sort, "key[,key...]", "sort by comm, pid, tid, dso, sym, cpu, srcline (default dso,sym)"),
		OPT_STRING('c', "compute", &comp, "delta-abs|delta|ratio|wdiff:w1,w2", "the files' columns and the order (default delta-abs)"),
		OPT_BOOLEAN('p', "period", &t.period, "show the period of each entry in each file"),
		OPT_BOOLEAN('F', "formula", &t.formula, "show how each column was computed"),
		OPT_BOOLEAN('b', "baseline-only", &t.baseline_only, "only the entries the baseline and a file have"),
		OPT_INTEGER('o', "order", &order, "n", "sort by this file's column first (1 the first after the baseline, 0 none; default 1)"),
		OPT_STRING(0, "percentage", &percentage, "relative|absolute", "shares of what the filters keep, or of everything (default)"),
		OPT_STRING(0, "format", &format, "format", "text (perf diff's table, the default) or html (a differential flame graph of two files on stdout)"),
		OPT_BOOLEAN('f', "force", &force, "read files owned by another user (not root)"),
		PROF_LOAD_OPTIONS(&opt),
		OPT_END(),
	};
	const char *const usage[] = { "sonde diff [<options>] [OLD.data [NEW.data...]]", NULL };
	const char *defaults[2] = { "perf.data.old", "perf.data" };
	const char **paths = defaults;
	bool relative, text;
	int n, ret = 0;
	size_t loaded = 0;

	n = parse_options(argc, argv, opts, usage, 0);
	if (n == 1) /* as perf: one file is the new one, perf.data.old the baseline */
		defaults[1] = argv[0];
	else if (n > 1)
		paths = argv;
	t.nr_files = n > 1 ? (size_t)n : 2;
	t.paths = paths;
	text = !strcmp(format, "text");
	if (!text && strcmp(format, "html")) {
		fprintf(stderr, "sonde diff: --format '%s': expected text or html\n", format);
		return 129;
	}
	if (!strcmp(format, "html") && t.nr_files > 2) {
		fprintf(stderr, "sonde diff: --format html compares two files, not %zu\n", t.nr_files);
		return 129;
	}
	if (percentage && strcmp(percentage, "relative") && strcmp(percentage, "absolute")) {
		fprintf(stderr, "sonde diff: --percentage '%s': expected relative or absolute\n",
			percentage);
		return 129;
	}
	if (order < 0 || (size_t)order >= t.nr_files) {
		fprintf(stderr, "sonde diff: --order %d: expected 0 to %zu, a file after the baseline\n",
			order, t.nr_files - 1);
		return 129;
	}
	t.order = (unsigned int)order;
	relative = percentage && !strcmp(percentage, "relative");
	if (parse_sort(&t, sort) || parse_compute(&t, comp))
		return 129;
	/* Like perf: a key filtered to one value has no column. */
	for (size_t k = 0; k < t.nr_keys; k++) {
		const char *f = t.keys[k] == SONDE_PROFILE_KEY_DSO  ? opt.dsos :
				t.keys[k] == SONDE_PROFILE_KEY_SYM  ? opt.syms :
				t.keys[k] == SONDE_PROFILE_KEY_COMM ? opt.comms : NULL;

		t.hide[k] = f && !strchr(f, ',') && t.nr_keys > 1;
	}
	pl = calloc(t.nr_files, sizeof(*pl));
	if (!pl || diff_table_init(&t)) {
		fprintf(stderr, "sonde diff: out of memory\n");
		ret = 1;
		goto out;
	}
	/* Every file takes the same filters and keys. */
	opt.keys = t.keys;
	opt.nr_keys = t.nr_keys;
	opt.self_only = text;
	opt.check_owner = !force;
	for (; loaded < t.nr_files && !ret; loaded++) {
		pl[loaded] = opt;
		ret = prof_load(&pl[loaded], "sonde diff", paths[loaded]);
		if (ret || !text)
			continue;
		if (!loaded) {
			cols = calloc((size_t)sonde_profile__nr_events(pl[0].p) * t.nr_files + 1,
				      sizeof(*cols));
			ret = cols ? 0 : -ENOMEM;
		} else {
			/* paired, the file's profile is OLD's columns: it can go */
			ret = pair_file(pl, loaded, t.nr_files, cols);
			prof_load_free(&pl[loaded]);
		}
	}
	if (ret > 0)
		goto out;
	if (!ret && !text) {
		ret = diff_html(pl, paths);
		goto out;
	}
	if (!ret)
		ret = print_tables(&t, pl[0].p, cols, relative);
	if (ret) {
		char buf[128];

		fprintf(stderr, "sonde diff: %s\n", sonde_strerror(-ret, buf, sizeof(buf)));
		ret = 1;
	}
out:
	diff_table_free(&t);
	free(cols);
	for (size_t f = 0; f < loaded; f++)
		prof_load_free(&pl[f]);
	free(pl);
	return ret;
}
