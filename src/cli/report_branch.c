// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde report --branch-stack, as perf 6.1's branch mode prints it. The
 * profile sums the branches (opts.branches: rows by the branch keys in
 * perf's order, perf's branch type statistics); this file picks the keys
 * and prints the rows: perf's column titles, widths
 * (hists__calc_col_len()) and cell formats (sort.c's snprintf functions).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/perfdata_feat.h"
#include "branch_text.h"
#include "report_branch.h"

/* The keys branch mode takes: the comm and the branch keys. */
#define NR_BKEYS (SONDE_PROFILE_KEY_BRANCH_LAST - SONDE_PROFILE_KEY_BRANCH_FIRST + 2)

struct report_branch {
	enum sonde_profile_key keys[NR_BKEYS];
	int nr_keys;
	bool want_comm;
	/* perf's mispredict cell keeps the last value it printed (a static). */
	const char *last_mispredict;
};

static const char *title(enum sonde_profile_key k)
{
	switch (k) {
	case SONDE_PROFILE_KEY_COMM: return "Command";
	case SONDE_PROFILE_KEY_DSO_FROM: return "Source Shared Object";
	case SONDE_PROFILE_KEY_DSO_TO: return "Target Shared Object";
	case SONDE_PROFILE_KEY_SYM_FROM: return "Source Symbol";
	case SONDE_PROFILE_KEY_SYM_TO: return "Target Symbol";
	case SONDE_PROFILE_KEY_SRCLINE_FROM: return "From Source:Line";
	case SONDE_PROFILE_KEY_SRCLINE_TO: return "To Source:Line";
	case SONDE_PROFILE_KEY_ADDR_FROM: return "Source Address";
	case SONDE_PROFILE_KEY_ADDR_TO: return "Target Address";
	case SONDE_PROFILE_KEY_CYCLES: return "Basic Block Cycles";
	case SONDE_PROFILE_KEY_MISPREDICT: return "Branch Mispredicted";
	case SONDE_PROFILE_KEY_IN_TX: return "Branch in transaction";
	case SONDE_PROFILE_KEY_ABORT: return "Transaction abort";
	default: return "";
	}
}

/* perf's width for an address where there is no symbol (or object). */
#define UNRESOLVED_WIDTH 16

bool report_branch_available(struct sonde_perfdata_reader *r)
{
	return sonde_perfdata_reader__has_feature(r, SONDE_FEAT_BRANCH_STACK);
}

bool report_branch_sort_named(const char *sort)
{
	char *copy, *tok, *save = NULL;
	bool named = false;

	if (!sort || !(copy = strdup(sort)))
		return false;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		while (*tok == ' ')
			tok++;
		int k = sonde_profile_key__parse(tok);

		if (k >= SONDE_PROFILE_KEY_BRANCH_FIRST && k <= SONDE_PROFILE_KEY_BRANCH_LAST)
			named = true;
	}
	free(copy);
	return named;
}

struct report_branch *report_branch_new(const char *sort)
{
	struct report_branch *rb = calloc(1, sizeof(*rb));
	char *copy = strdup(sort ? sort : REPORT_BRANCH_SORT), *tok, *save = NULL;

	if (!rb || !copy) {
		fprintf(stderr, "sonde report: out of memory\n");
		goto fail;
	}
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int k;
		bool dup = false;

		while (*tok == ' ')
			tok++;
		if (!strcmp(tok, "overhead"))
			continue;
		k = sonde_profile_key__parse(tok);
		if (k != SONDE_PROFILE_KEY_COMM &&
		    (k < SONDE_PROFILE_KEY_BRANCH_FIRST || k > SONDE_PROFILE_KEY_BRANCH_LAST)) {
			fprintf(stderr, "sonde report: --sort: '%s' is not a branch key (with --branch-stack: comm, dso_from, dso_to, symbol_from, symbol_to, srcline_from, srcline_to, addr_from, addr_to, cycles, mispredict, in_tx, abort)\n",
				tok);
			goto fail;
		}
		for (int i = 0; i < rb->nr_keys; i++)
			dup |= rb->keys[i] == (enum sonde_profile_key)k;
		if (!dup)
			rb->keys[rb->nr_keys++] = (enum sonde_profile_key)k;
		rb->want_comm |= k == SONDE_PROFILE_KEY_COMM;
	}
	if (!rb->nr_keys) {
		fprintf(stderr, "sonde report: --sort: no keys given\n");
		goto fail;
	}
	free(copy);
	return rb;
fail:
	free(copy);
	free(rb);
	return NULL;
}

void report_branch_opts(const struct report_branch *rb, struct sonde_profile_opts *po)
{
	po->branches = true;
	po->keys = rb->keys;
	po->nr_keys = (size_t)rb->nr_keys;
	po->callchains = false;
	po->call_trees = false;
}

void report_branch_free(struct report_branch *rb)
{
	free(rb);
}

/* ---- cells ---- */

typedef struct sonde_profile_branch_entry brow_t;

static const struct sonde_profile_frame *end(const brow_t *e, bool to)
{
	const struct sonde_profile_branch *b = sonde_profile_branch_entry__branch(e);

	return to ? b->to : b->from;
}

static bool is_to(enum sonde_profile_key k)
{
	return k == SONDE_PROFILE_KEY_DSO_TO || k == SONDE_PROFILE_KEY_SYM_TO ||
	       k == SONDE_PROFILE_KEY_SRCLINE_TO || k == SONDE_PROFILE_KEY_ADDR_TO;
}

/* perf's al_level of a branch end: [H] outside any object. */
static char level(const struct sonde_profile_frame *fr)
{
	if (!sonde_profile_frame__dso(fr))
		return 'H';
	return (sonde_profile_frame__kind(fr) & SONDE_PROFILE_FRAME_KERNEL) ? 'k' : '.';
}

/* The map-relative address perf's cells show (the address itself outside any object). */
static uint64_t al_addr(const struct sonde_profile_frame *fr)
{
	return sonde_profile_frame__dso(fr) ? sonde_profile_frame__addr(fr)
					    : sonde_profile_frame__ip(fr);
}

/* perf's %#.16llx: no 0x for 0. */
static void put_raw_addr(char *buf, size_t sz, uint64_t a)
{
	snprintf(buf, sz, "%s%016" PRIx64, a ? "0x" : "", a);
}

/*
 * One cell, as perf's snprintf function for the key makes it at @width.
 * Returns whether that function pads (and cuts) to the width itself;
 * perf pads the others too, unless they are the last column.
 */
static bool cell(struct report_branch *rb, const brow_t *e, enum sonde_profile_key k, int width,
		 char *buf, size_t sz)
{
	const struct sonde_perf_branch_entry *f = &sonde_profile_branch_entry__branch(e)->entry;
	const struct sonde_profile_frame *fr = end(e, is_to(k));
	const char *sym = sonde_profile_frame__sym(fr);
	const char *s;
	int n;

	switch (k) {
	case SONDE_PROFILE_KEY_COMM:
		snprintf(buf, sz, "%-*.*s", width, width, sonde_profile_branch_entry__comm(e));
		return true;
	case SONDE_PROFILE_KEY_DSO_FROM:
	case SONDE_PROFILE_KEY_DSO_TO:
		s = sonde_profile_frame__dso_short(fr);
		snprintf(buf, sz, "%-*.*s", width, width, s ? s : "[unknown]");
		return true;
	case SONDE_PROFILE_KEY_SYM_FROM:
	case SONDE_PROFILE_KEY_SYM_TO:
		n = snprintf(buf, sz, "[%c] ", level(fr));
		if (n < 0 || (size_t)n >= sz)
			return false;
		if (sym)
			snprintf(buf + n, sz - (size_t)n, "%.*s%s", width - n > 0 ? width - n : 0, sym,
				 (sonde_profile_frame__kind(fr) & SONDE_PROFILE_FRAME_INLINED)
					 ? " (inlined)" : "");
		else
			put_raw_addr(buf + n, sz - (size_t)n, al_addr(fr));
		return false;
	case SONDE_PROFILE_KEY_ADDR_FROM:
	case SONDE_PROFILE_KEY_ADDR_TO: {
		/* The sample's level, and the address past its function's start. */
		uint64_t off = sonde_profile_frame__sym_offset(fr);

		n = snprintf(buf, sz, "[%c] ", sonde_profile_branch_entry__kernel(e) ? 'k' : '.');
		if (n < 0 || (size_t)n >= sz)
			return false;
		if (sym) {
			int m = snprintf(buf + n, sz - (size_t)n, "%.*s",
					 width - n > 0 ? width - n : 0, sym);

			if (off && m >= 0 && (size_t)(n + m) < sz)
				snprintf(buf + n + m, sz - (size_t)(n + m), "+0x%" PRIx64, off);
		} else
			put_raw_addr(buf + n, sz - (size_t)n, al_addr(fr));
		return false;
	}
	case SONDE_PROFILE_KEY_SRCLINE_FROM:
	case SONDE_PROFILE_KEY_SRCLINE_TO:
		s = sonde_profile_branch_entry__srcline(e, is_to(k));
		/* perf prints a srcline it never looked up with glibc's NULL text. */
		if (!s)
			s = width >= 6 ? "(null)" : "";
		snprintf(buf, sz, "%-*.*s", width, width, s);
		return true;
	case SONDE_PROFILE_KEY_CYCLES:
		if (f->cycles) /* perf's %hd */
			snprintf(buf, sz, "%-*d", width, (int)(int16_t)f->cycles);
		else
			snprintf(buf, sz, "%-*s", width, "-");
		return true;
	case SONDE_PROFILE_KEY_MISPREDICT:
		if (f->predicted)
			rb->last_mispredict = "N";
		else if (f->mispred)
			rb->last_mispredict = "Y";
		snprintf(buf, sz, "%-*.*s", width, width, rb->last_mispredict);
		return true;
	case SONDE_PROFILE_KEY_IN_TX:
		snprintf(buf, sz, "%-*s", width, f->in_tx ? "T" : ".");
		return true;
	case SONDE_PROFILE_KEY_ABORT:
		snprintf(buf, sz, "%-*s", width, f->abort ? "A" : ".");
		return true;
	default:
		buf[0] = 0;
		return true;
	}
}

/*
 * perf's hists__calc_col_len(): a symbol's column is its name plus "[x] ";
 * an end without a symbol makes room for an address (16 + "[x] 0x"), in
 * the addr columns too, and its object column at least 16 wide.
 */
static int cell_width(const brow_t *e, enum sonde_profile_key k)
{
	const struct sonde_profile_frame *fr = end(e, is_to(k));
	const char *sym = sonde_profile_frame__sym(fr), *s;

	switch (k) {
	case SONDE_PROFILE_KEY_COMM:
		return (int)strlen(sonde_profile_branch_entry__comm(e));
	case SONDE_PROFILE_KEY_DSO_FROM:
	case SONDE_PROFILE_KEY_DSO_TO:
		s = sonde_profile_frame__dso_short(fr);
		return sym ? (int)strlen(s ? s : "[unknown]") : UNRESOLVED_WIDTH;
	case SONDE_PROFILE_KEY_SYM_FROM:
	case SONDE_PROFILE_KEY_SYM_TO:
		return sym ? (int)strlen(sym) + 4 : UNRESOLVED_WIDTH + 6;
	case SONDE_PROFILE_KEY_ADDR_FROM:
	case SONDE_PROFILE_KEY_ADDR_TO:
		return sym ? 0 : UNRESOLVED_WIDTH + 6;
	case SONDE_PROFILE_KEY_SRCLINE_FROM:
	case SONDE_PROFILE_KEY_SRCLINE_TO:
		s = sonde_profile_branch_entry__srcline(e, is_to(k));
		return s ? (int)strlen(s) : 0;
	default:
		return 0;
	}
}

/* ---- printing ---- */

static void print_event(struct report_branch *rb, struct report *rp, int ev,
			const struct sonde_profile_branch_stats *st)
{
	struct outbuf *o = &rp->out;
	size_t n = sonde_profile__nr_branch_entries(rp->prof, ev);
	uint64_t total = rp->relative ? st->shown_branches : st->branches;
	/* Like perf: a key filtered to one value moves above the table. */
	bool elide_comm = rp->ld.f.nr_comms == 1 && rb->want_comm;
	int width[NR_BKEYS];
	char buf[4096];

	{
		unsigned long nr = (unsigned long)total;
		char unit = ' ';

		for (int i = 0; i < 3 && nr > 1000; i++) {
			nr /= 1000;
			unit = "KMG"[i];
		}
		ob_printf(o, "# Samples: %lu%c of event '%s'", nr, unit,
			  sonde_perfdata_reader__event_name(rp->r, ev));
		if (rp->ld.time)
			ob_printf(o, " (time slices: %s)", rp->ld.time);
		ob_putc(o, '\n');
	}
	ob_printf(o, "# Event count (approx.): %" PRIu64 "\n#\n", total);
	for (int i = 0; i < rb->nr_keys; i++) {
		width[i] = (int)strlen(title(rb->keys[i]));
		for (size_t j = 0; j < n; j++) {
			int w = cell_width(sonde_profile__branch_entry(rp->prof, ev, j), rb->keys[i]);

			if (w > width[i])
				width[i] = w;
		}
	}
	ob_printf(o, "# %8s", "Overhead");
	for (int i = 0; i < rb->nr_keys; i++)
		if (!(elide_comm && rb->keys[i] == SONDE_PROFILE_KEY_COMM))
			ob_printf(o, "  %-*s", width[i], title(rb->keys[i]));
	ob_puts(o, "\n# ........");
	for (int i = 0; i < rb->nr_keys; i++) {
		if (elide_comm && rb->keys[i] == SONDE_PROFILE_KEY_COMM)
			continue;
		ob_puts(o, "  ");
		for (int k = 0; k < width[i]; k++)
			ob_putc(o, '.');
	}
	ob_puts(o, "\n#\n");
	for (size_t j = 0; j < n; j++) {
		const brow_t *e = sonde_profile__branch_entry(rp->prof, ev, j);
		uint64_t count = sonde_profile_branch_entry__count(e);
		double pct = total ? (double)count * 100.0 / (double)total : 0;

		if (rp->percent_limit > 0 && pct < rp->percent_limit)
			continue;
		ob_printf(o, "  %7.2f%%", pct);
		for (int i = 0; i < rb->nr_keys; i++) {
			enum sonde_profile_key k = rb->keys[i];

			if (elide_comm && k == SONDE_PROFILE_KEY_COMM)
				continue;
			/* The last field is perf's last, even when elided. */
			if (cell(rb, e, k, width[i], buf, sizeof(buf)) || i + 1 == rb->nr_keys)
				ob_printf(o, "  %s", buf);
			else
				ob_printf(o, "  %-*s", width[i], buf);
		}
		ob_putc(o, '\n');
		if (o->err)
			break;
	}
	ob_puts(o, "\n\n");
}

/* perf's branch_type_stat_display(): no newline after the last line. */
static void print_type_stats(const struct sonde_profile_branch_stats *st, struct outbuf *o)
{
	uint64_t total = 0;

	for (int i = 0; i < SONDE_PERF_BR_MAX; i++)
		total += st->types[i];
	if (!total)
		return;
	ob_puts(o, "\n#\n# Branch Statistics:\n#");
#define STAT(name, v) \
	if (v) \
		ob_printf(o, "\n%8s: %5.1f%%", name, 100.0 * (double)(v) / (double)total)
	STAT("COND_FWD", st->cond_fwd);
	STAT("COND_BWD", st->cond_bwd);
	STAT("CROSS_4K", st->cross_4k);
	STAT("CROSS_2M", st->cross_2m);
	for (unsigned i = 0; i < SONDE_PERF_BR_MAX; i++)
		STAT(branch_type_name(i), st->types[i]);
	for (unsigned i = 0; i < 8; i++) {
		struct sonde_perf_branch_entry e = { .type = SONDE_PERF_BR_EXTEND_ABI, .new_type = i };

		STAT(branch_entry_type(&e), st->new_types[i]);
	}
#undef STAT
}

void report_branch_print(struct report_branch *rb, struct report *rp)
{
	struct sonde_profile_branch_stats all = { 0 };
	uint64_t lost_samples;
	int nr = sonde_profile__nr_events(rp->prof);

	rb->last_mispredict = "N/A";
	if (!rp->header)
		ob_puts(&rp->out, "# To display the perf.data header info, please use --header/--header-only options.\n#\n");
	sonde_profile__lost(rp->prof, NULL, NULL, &lost_samples);
	if (rp->ld.f.nr_comms == 1 && rb->want_comm)
		ob_printf(&rp->out, "# comm: %s\n", rp->ld.f.comms[0]);
	ob_printf(&rp->out, "#\n# Total Lost Samples: %" PRIu64 "\n#\n", lost_samples);
	/* perf's statistics are of every event's branches together. */
	for (int ev = 0; ev < nr; ev++) {
		struct sonde_profile_branch_stats st;

		if (sonde_profile__branch_stats(rp->prof, ev, &st))
			continue;
		if (st.branches)
			print_event(rb, rp, ev, &st);
		for (int i = 0; i < SONDE_PERF_BR_MAX; i++)
			all.types[i] += st.types[i];
		for (int i = 0; i < 8; i++)
			all.new_types[i] += st.new_types[i];
		all.cond_fwd += st.cond_fwd;
		all.cond_bwd += st.cond_bwd;
		all.cross_4k += st.cross_4k;
		all.cross_2m += st.cross_2m;
	}
	print_type_stats(&all, &rp->out);
}

/* ---- --branch-history ---- */

int report_branch_history_check(struct report *rp)
{
	if (!rp->branch_history || sonde_perfdata_reader__is_pipe(rp->r) ||
	    report_branch_available(rp->r))
		return 0;
	for (int i = 0; i < sonde_perfdata_reader__nr_attrs(rp->r); i++)
		if (sonde_perfdata_reader__attr(rp->r, i)->sample_type & SONDE_PERF_SAMPLE_CALLCHAIN)
			return 0;
	fprintf(stderr, "sonde report: --branch-history: %s has no branch stacks or callchains (record with -b or -g)\n",
		rp->input);
	return -1;
}

/* perf's " (" before the first item of a list, " " before the others. */
static void item(char *buf, size_t sz, size_t *len, int *idx, const char *text)
{
	int n = snprintf(buf + *len, sz - *len, "%s%s", (*idx)++ ? " " : " (", text);

	if (n > 0 && *len + (size_t)n < sz)
		*len += (size_t)n;
}

/* perf's branch_type_str(): the types of the branches that reached a target. */
static void type_items(const struct sonde_profile_node_branch *c, char *buf, size_t sz, size_t *len,
		       int *idx)
{
	uint64_t total = 0;

	for (int i = 0; i < SONDE_PERF_BR_MAX; i++)
		total += c->types[i];
	for (int i = 0; i < 8; i++)
		total += c->new_types[i];
	if (!total)
		return;
	if (c->cond_fwd)
		item(buf, sz, len, idx, "COND_FWD");
	if (c->cond_bwd)
		item(buf, sz, len, idx, "COND_BWD");
	for (unsigned i = 0; i < SONDE_PERF_BR_MAX; i++)
		if (i != SONDE_PERF_BR_COND && c->types[i])
			item(buf, sz, len, idx, branch_type_name(i));
	for (unsigned i = 0; i < 8; i++)
		if (c->new_types[i]) {
			struct sonde_perf_branch_entry e = { .type = SONDE_PERF_BR_EXTEND_ABI,
							     .new_type = i };

			item(buf, sz, len, idx, branch_entry_type(&e));
		}
	if (c->cross_4k)
		item(buf, sz, len, idx, "CROSS_4K");
	if (c->cross_2m)
		item(buf, sz, len, idx, "CROSS_2M");
}

/* perf's counts_str_build(): what the branches through a node said. */
static void counts_text(const struct sonde_profile_node_branch *c, char *buf, size_t sz)
{
	char t[64];
	size_t len = 0;
	int idx = 0;

	buf[0] = 0;
	if (!c->branches) {
		snprintf(buf, sz, " (calltrace)");
		return;
	}
	if (c->target) {
		type_items(c, buf, sz, &len, &idx);
		/* perf passes the shares as floats; an item index is spent
		 * even on an abort share too small to print */
		if (c->predicted < c->branches) {
			snprintf(t, sizeof(t), "predicted:%.1f%%",
				 (double)(float)((double)c->predicted * 100.0 / (double)c->branches));
			item(buf, sz, &len, &idx, t);
		}
		if (c->aborts) {
			float v = (float)((double)c->aborts * 100.0 / (double)c->branches);

			if (v >= 0.1f) {
				snprintf(t, sizeof(t), "abort:%.1f%%", (double)v);
				item(buf, sz, &len, &idx, t);
			} else {
				idx++;
			}
		}
	} else {
		uint64_t cycles = c->cycles / c->branches;

		if (cycles) {
			snprintf(t, sizeof(t), "cycles:%" PRId64, (int64_t)cycles);
			item(buf, sz, &len, &idx, t);
		}
		if (c->iters && c->from_count && c->iters / c->from_count) {
			snprintf(t, sizeof(t), "iter:%" PRId64, (int64_t)(c->iters / c->from_count));
			item(buf, sz, &len, &idx, t);
			snprintf(t, sizeof(t), "avg_cycles:%" PRId64, (int64_t)(c->iter_cycles / c->iters));
			item(buf, sz, &len, &idx, t);
		}
	}
	if (idx && len + 1 < sz) {
		buf[len++] = ')';
		buf[len] = 0;
	}
}

void report_branch_node_name(struct report *rp, struct outbuf *o,
			     const struct sonde_profile_node *n, enum branch_counts counts)
{
	const char *sym = sonde_profile_node__sym(n);
	struct sonde_profile_node_branch c;
	char buf[256];

	if (sym) {
		const char *sl = sonde_profile_node__srcline(rp->prof, n);

		ob_puts(o, sym);
		if (sl) {
			ob_putc(o, ' ');
			ob_puts(o, sl);
		}
		if (sonde_profile_node__inlined(n))
			ob_puts(o, " (inlined)");
	} else if (sonde_profile_node__ip(n)) { /* perf's %#lx */
		ob_printf(o, "0x%" PRIx64, sonde_profile_node__ip(n));
	} else {
		ob_putc(o, '0');
	}
	if (counts == BRANCH_COUNTS_NONE || sonde_profile_node__branch(rp->prof, n, &c))
		return;
	counts_text(&c, buf, sizeof(buf));
	/* perf formats a graph line's counts into 64 bytes */
	if (counts == BRANCH_COUNTS_CUT && strlen(buf) > 63)
		buf[63] = 0;
	ob_puts(o, buf);
}
