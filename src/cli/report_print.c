// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde report output: perf's stdio table and call graphs, and --stats
 * (--json is in report_json.c, --header in report_header.c). Layout follows perf report 6.1 (--stdio) so that
 * scripts that read its rows keep working.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report_cli.h"
#include "report_branch.h"
#include "report_keys.h"

typedef struct sonde_profile_entry entry_t;
typedef struct sonde_profile_node node_t;

static const char *dso_name(const entry_t *e)
{
	const char *n = sonde_profile_entry__dso_short(e);

	return n ? n : "[unknown]";
}

/* snprintf(buf, sz, "%s%s", a, b) without the format parsing. */
static void cat2(char *buf, size_t sz, const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	if (la >= sz)
		la = sz - 1;
	memcpy(buf, a, la);
	if (lb > sz - 1 - la)
		lb = sz - 1 - la;
	memcpy(buf + la, b, lb);
	buf[la + lb] = 0;
}

static void sym_text(const entry_t *e, char *buf, size_t sz)
{
	const char *sym = sonde_profile_entry__sym(e);
	char level = sonde_profile_entry__kernel(e) ? 'k' : '.';
	uint64_t addr = sonde_profile_entry__addr(e);

	if (sym && sz > 4) {
		buf[0] = '[';
		buf[1] = level;
		buf[2] = ']';
		buf[3] = ' ';
		cat2(buf + 4, sz - 4, sym, sonde_profile_entry__inlined(e) ? " (inlined)" : "");
	} else if (sym)
		snprintf(buf, sz, "[%c] %s%s", level, sym,
			 sonde_profile_entry__inlined(e) ? " (inlined)" : "");
	else if (sz >= 24) {
		/* "[.] 0x%016lx" (no 0x for 0) by hand: a stripped object
		 * makes an entry per address, each formatted twice */
		static const char hex[] = "0123456789abcdef";
		char *q = buf;

		*q++ = '[';
		*q++ = level;
		*q++ = ']';
		*q++ = ' ';
		if (addr) {
			*q++ = '0';
			*q++ = 'x';
		}
		for (int sh = 60; sh >= 0; sh -= 4)
			*q++ = hex[(addr >> sh) & 0xf];
		*q = 0;
	} else if (addr)
		snprintf(buf, sz, "[%c] 0x%016" PRIx64, level, addr);
	else
		snprintf(buf, sz, "[%c] %016" PRIx64, level, addr);
}

static const char *const col_titles[RK_SRCLINE + 1] = {
	"Command", "Pid:Command", "Tid", "Shared Object", "Symbol", "CPU", "Source:Line",
};

static const char *col_title(enum sonde_profile_key k)
{
	return k <= RK_SRCLINE ? col_titles[k] : report_key_title(k);
}

/* perf's text of the cell fills its column even as the last one */
static bool col_pads(enum sonde_profile_key k)
{
	return k == RK_DSO || k == RK_COMM || (k > RK_SRCLINE && report_key_pads(k));
}

static void cell_text(const struct report *rp, const entry_t *e, enum sonde_profile_key key,
		      int width, char *buf, size_t sz)
{
	const char *comm = sonde_profile_entry__comm(e);

	switch (key) {
	case RK_COMM:
		/* perf cuts the sample's comm to the width its threads' last ones make
		 * (cat2 and a cut, not a snprintf: this runs for every row) */
		cat2(buf, sz, comm ? comm : "(null)", "");
		if (width >= 0 && (size_t)width < sz)
			buf[width] = 0;
		break;
	case RK_PID:
		/* Like perf: the thread id, then its last command cut to its column. */
		comm = sonde_profile_entry__thread_comm(e);
		snprintf(buf, sz, "%7d:%-*.*s", sonde_profile_entry__tid(e), rp->pid_comm_width,
			 rp->pid_comm_width, comm ? comm : "");
		break;
	case RK_TID:
		snprintf(buf, sz, "%7d", sonde_profile_entry__tid(e));
		break;
	case RK_DSO:
		cat2(buf, sz, dso_name(e), "");
		break;
	case RK_SYM:
		sym_text(e, buf, sz);
		break;
	case RK_CPU:
		snprintf(buf, sz, "%3.3d", sonde_profile_entry__cpu(e));
		break;
	case RK_SRCLINE:
		snprintf(buf, sz, "%s", sonde_profile_entry__srcline(e));
		break;
	default:
		report_key_text(e, key, width, buf, sz);
	}
}

/*
 * The length of cell_text()'s text (at most @sz - 1), counted without
 * making it where that is cheap: the width pass sees every entry, and a
 * stripped object makes one per address.
 */
static int cell_len(const struct report *rp, const entry_t *e, enum sonde_profile_key key,
		    char *buf, size_t sz)
{
	const char *sym, *comm;
	size_t l;

	switch (key) {
	case RK_COMM: /* perf's thread__comm_len(): the first thread's last comm */
		comm = sonde_profile_entry__thread_comm(e);
		l = strlen(comm ? comm : "(null)");
		break;
	case RK_DSO:
		l = strlen(dso_name(e));
		break;
	case RK_SYM:
		sym = sonde_profile_entry__sym(e);
		if (!sym && sz >= 24) /* "[.] 0x" and 16 digits, no 0x for 0 */
			return sonde_profile_entry__addr(e) ? 22 : 20;
		if (sym && sz > 4) {
			l = 4 + strlen(sym) + (sonde_profile_entry__inlined(e) ? strlen(" (inlined)") : 0);
			break;
		}
		/* fall through */
	default:
		cell_text(rp, e, key, 0, buf, sz);
		return (int)strlen(buf);
	}
	return (int)(l < sz - 1 ? l : sz - 1);
}

static unsigned long convert_unit(unsigned long v, char *unit)
{
	*unit = ' ';
	if (v > 1000) {
		v /= 1000;
		*unit = 'K';
	}
	if (v > 1000) {
		v /= 1000;
		*unit = 'M';
	}
	if (v > 1000) {
		v /= 1000;
		*unit = 'G';
	}
	return v;
}

/* ---- call graph ---- */

/*
 * printf("%*.2f%%", width, v), through a direct-mapped cache of what it
 * printed for recent values: the same few thousand percentages recur on
 * millions of lines. (The printer runs on one thread.)
 */
#define PCT_SLOTS 1024

static struct pct_slot {
	uint64_t bits;
	int width;
	unsigned char len; /* 0: empty */
	char text[23];
} pct_cache[PCT_SLOTS];

static void put_pct(struct outbuf *o, double v, int width)
{
	struct pct_slot *c;
	uint64_t bits;
	char t[64];
	int n;

	memcpy(&bits, &v, sizeof(bits));
	c = &pct_cache[((bits ^ (uint64_t)width) * 0x9e3779b97f4a7c15ULL) >> 54];
	if (c->len && c->bits == bits && c->width == width) {
		ob_write(o, c->text, c->len);
		return;
	}
	n = snprintf(t, sizeof(t), "%*.2f%%", width, v);
	if (n <= 0)
		return;
	if ((size_t)n < sizeof(c->text)) {
		c->bits = bits;
		c->width = width;
		c->len = (unsigned char)n;
		memcpy(c->text, t, (size_t)n);
	}
	ob_write(o, t, n < (int)sizeof(t) ? (size_t)n : sizeof(t) - 1);
}

/* A call graph value as -g asked: share of @base, period, or samples. */
static void put_gvalue(struct outbuf *o, const struct report *rp, uint64_t period,
		       uint64_t nr, uint64_t base)
{
	if (rp->graph_value == GRAPH_VALUE_COUNT)
		ob_printf(o, "%" PRIu64, nr);
	else if (rp->graph_value == GRAPH_VALUE_PERIOD)
		ob_printf(o, "%" PRIu64, period);
	else
		put_pct(o, base ? (double)period * 100.0 / (double)base : 0.0, 0);
}

/*
 * Children of @n with a total >= @min, heaviest first (caller frees).
 * NULL with *nr = 0 when there are none.
 */
static const node_t **kids(const node_t *n, uint64_t min, size_t *nr)
{
	size_t cap = sonde_profile_node__nr_children(n);
	const node_t **v = malloc((cap + 1) * sizeof(*v));

	*nr = v ? sonde_profile_node__children(n, min, SONDE_PROFILE_BY_WEIGHT, v, cap) : 0;
	return v;
}

/* The run perf keeps in one node: single-child links without own hits. */
static const node_t *run_next(const node_t *n)
{
	const node_t *c;

	if (sonde_profile_node__nr_children(n) != 1 || sonde_profile_node__self(n))
		return NULL;
	sonde_profile_node__children(n, 0, SONDE_PROFILE_BY_ADDR_DESC, &c, 1);
	return c;
}

static void cname(struct outbuf *o, const node_t *n)
{
	const char *sym = sonde_profile_node__sym(n);

	if (sym) {
		ob_puts(o, sym);
		if (sonde_profile_node__inlined(n))
			ob_puts(o, " (inlined)");
	}
	else if (sonde_profile_node__ip(n)) {
		ob_puts(o, "0x");
		ob_hex(o, sonde_profile_node__ip(n), 0);
	}
	else
		ob_puts(o, "0");
}

/* A node's name; branch history adds its source line and branch counts. */
static void node_name(struct report *rp, struct outbuf *o, const node_t *n,
		      enum branch_counts counts)
{
	if (rp->branch_history)
		report_branch_node_name(rp, o, n, counts);
	else
		cname(o, n);
}

static void margin(struct outbuf *o, int lm)
{
	ob_puts(o, "            ");
	for (int i = 0; i < lm; i++)
		ob_putc(o, ' ');
}

struct gctx {
	struct report *rp;
	struct outbuf *o;
	uint64_t min_abs;
	bool printed;
};

static void graph_rec(struct gctx *g, const node_t *parent, uint64_t total,
		      uint64_t total_nr, int depth, int mask, int lm)
{
	uint64_t min = g->rp->graph_fractal ? (uint64_t)((double)total * g->rp->graph_threshold / 100.0)
					    : g->min_abs;
	uint64_t remaining = total, remaining_nr = total_nr;
	int new_mask = mask;
	size_t nr;
	const node_t **v = kids(parent, min, &nr);

	if (depth > 30) {
		free(v);
		return;
	}
	for (size_t i = 0; i < nr; i++) {
		const node_t *c = v[i], *last = c, *x;
		uint64_t c_total = sonde_profile_node__total(c);
		uint64_t c_nr = sonde_profile_node__nr_total(c);
		int idx = 0;

		remaining -= c_total;
		remaining_nr -= c_nr;
		if (i + 1 == nr && (!g->rp->graph_fractal || !remaining))
			new_mask &= ~(1 << (depth - 1));
		margin(g->o, lm);
		for (int d = 0; d < depth; d++)
			ob_puts(g->o, mask & (1 << d) ? "|          " : "           ");
		ob_putc(g->o, '\n');
		for (x = c; x; x = run_next(x), idx++) {
			margin(g->o, lm);
			for (int d = 0; d < depth; d++) {
				ob_putc(g->o, new_mask & (1 << d) ? '|' : ' ');
				if (!idx && d == depth - 1) {
					ob_puts(g->o, "--");
					put_gvalue(g->o, g->rp, c_total, c_nr, total);
					ob_puts(g->o, "--");
				} else
					ob_puts(g->o, "          ");
			}
			node_name(g->rp, g->o, x, BRANCH_COUNTS_CUT);
			ob_putc(g->o, '\n');
			last = x;
			g->printed = true;
		}
		if (g->rp->graph_fractal)
			graph_rec(g, last, c_total - sonde_profile_node__self(last),
				  c_nr - sonde_profile_node__nr_self(last),
				  depth + 1, new_mask | (1 << depth), lm);
		else
			graph_rec(g, last, total, total_nr, depth + 1,
				  new_mask | (1 << depth), lm);
	}
	/*
	 * Fractal mode, like perf: one line for what the children under the
	 * threshold hold. perf 6.1 sometimes appends " (inlined)": its
	 * placeholder symbol comes from malloc() and its inline flag is never
	 * set, so the suffix is whatever the heap held. Not imitated.
	 */
	if (g->rp->graph_fractal && nr && remaining) {
		new_mask &= ~(1 << (depth - 1));
		margin(g->o, lm);
		for (int d = 0; d < depth; d++) {
			ob_putc(g->o, new_mask & (1 << d) ? '|' : ' ');
			if (d == depth - 1) {
				ob_puts(g->o, "--");
				put_gvalue(g->o, g->rp, remaining, remaining_nr, total);
				ob_puts(g->o, "--");
			} else
				ob_puts(g->o, "          ");
		}
		ob_puts(g->o, "[...]\n");
	}
	free(v);
}

static void print_graph(struct report *rp, const entry_t *e, uint64_t total)
{
	struct gctx g = { .rp = rp, .o = &rp->out };
	const node_t *root, *sub;
	uint64_t parent_total = rp->children ? sonde_profile_entry__children(e)
					     : sonde_profile_entry__self(e);
	size_t nr;
	const node_t **v;
	int lm = 0;

	g.min_abs = (uint64_t)((double)total * rp->graph_threshold / 100.0);
	/*
	 * No path of a tree weighs more than its entry: below the threshold
	 * (of the total, not fractal) nothing shows, and the tree, made at
	 * its first query, is never made.
	 */
	if (!rp->graph_fractal && g.min_abs && parent_total < g.min_abs)
		return;
	root = sub = sonde_profile_entry__tree(e);
	if (!root)
		return;
	v = kids(root, rp->graph_fractal ? (uint64_t)((double)parent_total * rp->graph_threshold / 100.0)
					 : g.min_abs, &nr);
	/* perf takes the "---" form when the root has one child before the
	 * threshold is applied. */
	if (nr == 1 && sonde_profile_node__nr_children(root) == 1) {
		bool skip_first = !strncmp(rp->sort, "sym", 3);
		bool printed = false;
		int i = 0;

		for (const node_t *x = v[0]; x; x = run_next(x), i++) {
			sub = x;
			if (!i && skip_first)
				continue;
			if (!printed) {
				margin(&rp->out, lm);
				ob_puts(&rp->out, "|\n");
				margin(&rp->out, lm);
				ob_puts(&rp->out, "---");
				lm += 3;
				printed = true;
			} else {
				margin(&rp->out, lm);
			}
			node_name(rp, &rp->out, x, BRANCH_COUNTS);
			ob_putc(&rp->out, '\n');
			g.printed = true;
		}
	}
	free(v);
	if (rp->graph_fractal)
		graph_rec(&g, sub, parent_total, sonde_profile_node__nr_total(root), 1, 1, lm);
	else
		graph_rec(&g, sub, total, 0, 1, 1, lm);
	if (g.printed)
		ob_putc(&rp->out, '\n');
}

/* -g flat / folded: one line (or block) per distinct path with hits. */
struct fpath {
	const node_t *node;
	size_t seq; /* depth-first order, for ties */
};

struct fctx {
	struct fpath *v;
	size_t nr, cap;
};

static int fpath_cmp(const void *pa, const void *pb)
{
	const struct fpath *a = pa, *b = pb;
	uint64_t ha = sonde_profile_node__self(a->node), hb = sonde_profile_node__self(b->node);

	if (ha != hb)
		return ha > hb ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/*
 * Like perf: callees before their caller (post-order), siblings by
 * descending address, so equal hits keep that order after sorting.
 */
static void flat_collect(struct fctx *f, const node_t *n, uint64_t min, int depth)
{
	const node_t **v;
	size_t k, cap;
	uint64_t hit = sonde_profile_node__self(n);

	if (depth > SONDE_PERF_MAX_STACK_DEPTH * 8)
		return;
	cap = sonde_profile_node__nr_children(n);
	v = malloc((cap + 1) * sizeof(*v));
	if (!v)
		return;
	k = sonde_profile_node__children(n, 0, SONDE_PROFILE_BY_ADDR_DESC, v, cap);
	for (size_t i = 0; i < k; i++)
		flat_collect(f, v[i], min, depth + 1);
	free(v);
	if (!depth || !hit || hit < min)
		return;
	if (f->nr == f->cap) {
		size_t ncap = f->cap ? f->cap * 2 : 16;
		struct fpath *nv = realloc(f->v, ncap * sizeof(*nv));

		if (!nv)
			return;
		f->v = nv;
		f->cap = ncap;
	}
	f->v[f->nr].node = n;
	f->v[f->nr].seq = f->nr;
	f->nr++;
}

/* The nodes from the first frame down to @n, in chain order. */
static void put_path(struct report *rp, struct outbuf *o, const node_t *n, bool folded)
{
	const node_t *up = sonde_profile_node__parent(n);

	if (up && sonde_profile_node__parent(up)) {
		put_path(rp, o, up, folded);
		if (folded)
			ob_putc(o, ';');
	}
	if (!folded)
		ob_puts(o, "                ");
	node_name(rp, o, n, BRANCH_COUNTS_NONE);
	if (!folded)
		ob_putc(o, '\n');
}

static void print_flat(struct report *rp, const entry_t *e, uint64_t total, bool folded)
{
	struct outbuf *o = &rp->out;
	uint64_t base = rp->graph_fractal ? (rp->children ? sonde_profile_entry__children(e)
							  : sonde_profile_entry__self(e))
					  : total;
	uint64_t min = (uint64_t)((double)base * rp->graph_threshold / 100.0);
	const node_t *root = sonde_profile_entry__tree(e);
	struct fctx f = { 0 };

	if (!root)
		return;
	flat_collect(&f, root, min, 0);
	if (f.nr) /* qsort takes no NULL array, even empty */
		qsort(f.v, f.nr, sizeof(*f.v), fpath_cmp);
	for (size_t i = 0; i < f.nr; i++) {
		const node_t *n = f.v[i].node;
		/* perf's flat blocks count the path's callees too; folded not. */
		uint64_t v = folded ? sonde_profile_node__self(n) : sonde_profile_node__total(n);
		uint64_t nr = folded ? sonde_profile_node__nr_self(n) : sonde_profile_node__nr_total(n);

		if (!folded)
			ob_puts(o, "           ");
		put_gvalue(o, rp, v, nr, base);
		ob_putc(o, folded ? ' ' : '\n');
		put_path(rp, o, n, folded);
		ob_putc(o, '\n');
	}
	free(f.v);
}

/* ---- table ---- */

/* The event's counts; zeros for an event the profile never saw. */
struct sonde_profile_event_stats report_event_stats(struct report *rp, int attr)
{
	struct sonde_profile_event_stats st = { 0 };

	sonde_profile__event_stats(rp->prof, attr, &st);
	return st;
}

/*
 * The sorted entries lie anywhere in memory: with tens of thousands
 * (a stripped object's addresses), a pass waits on each one unless the
 * ones a few rows ahead are already on their way.
 */
static void prefetch_entry(struct report *rp, int attr, size_t j, size_t n)
{
	if (j < n)
		__builtin_prefetch(sonde_profile__entry(rp->prof, attr, j));
}

/*
 * An output field's column: overhead_children's only with --no-children
 * (perf drops it with the Children column when a file has no callchains).
 */
bool report_field_shown(const struct report *rp, int f)
{
	return rp->fields[f].kind != RF_CHILDREN || rp->no_children;
}

/*
 * The output fields (--sort sample, period, overhead_sys ...) standing
 * before key @at (rp->nr_keys: after the last one), as perf prints them:
 * counts 12 wide, shares 8 (guest ones 9), overhead_children's N/A.
 * @e NULL prints the titles, @dots the header's dots; shares are of @total.
 */
static void put_fields(struct report *rp, int at, const entry_t *e, bool dots, uint64_t total)
{
	static const struct {
		const char *title;
		int width;
		unsigned cpumode;
	} col[RF_NR] = {
		[RF_SAMPLE] = { "Samples", 12, 0 },
		[RF_PERIOD] = { "Period", 12, 0 },
		[RF_CHILDREN] = { "Children", 8, 0 },
		[RF_SYS] = { "sys", 8, SONDE_PERF_RECORD_MISC_KERNEL },
		[RF_USR] = { "usr", 8, SONDE_PERF_RECORD_MISC_USER },
		[RF_GUEST_SYS] = { "guest sys", 9, SONDE_PERF_RECORD_MISC_GUEST_KERNEL },
		[RF_GUEST_USR] = { "guest usr", 9, SONDE_PERF_RECORD_MISC_GUEST_USER },
	};
	struct outbuf *o = &rp->out;

	for (int f = 0; f < rp->nr_fields; f++) {
		int kind = rp->fields[f].kind, w = col[kind].width;

		if (rp->fields[f].at != at || !report_field_shown(rp, f))
			continue;
		ob_puts(o, "  ");
		if (dots) {
			for (int i = 0; i < w; i++)
				ob_putc(o, '.');
		} else if (!e) {
			ob_printf(o, "%*s", w, col[kind].title);
		} else if (kind == RF_SAMPLE || kind == RF_PERIOD) {
			ob_printf(o, "%*" PRIu64, w,
				  kind == RF_SAMPLE ? sonde_profile_entry__samples(e)
						    : sonde_profile_entry__self(e));
		} else if (kind == RF_CHILDREN) {
			ob_printf(o, "%*s", w, "N/A");
		} else {
			uint64_t v = sonde_profile_entry__self_cpumode(e, col[kind].cpumode);

			put_pct(o, total ? (double)v * 100.0 / (double)total : 0.0, w - 1);
		}
	}
}

/*
 * The tracepoint field columns key @i (a FIELD key) makes in event
 * @attr's table, into @cols; how many. perf's are right-aligned, cut to
 * their width, and shown in their event's table only.
 */
int report_field_cols(const struct report *rp, int attr, int i, int *cols, int max)
{
	int key = 0, n = 0, nr = sonde_profile__nr_fields(rp->prof);

	for (int j = 0; j < i; j++)
		key += rp->keys[j] == SONDE_PROFILE_KEY_FIELD;
	for (int c = 0; c < nr && n < max; c++) {
		struct sonde_profile_field f;

		if (!sonde_profile__field(rp->prof, c, &f) && f.key == key && f.ev == attr)
			cols[n++] = c;
	}
	return n;
}

static void put_field_cols(const struct report *rp, struct outbuf *o, int attr, int i,
			   const entry_t *e, bool dots)
{
	int cols[64], n = report_field_cols(rp, attr, i, cols, 64);

	for (int c = 0; c < n; c++) {
		struct sonde_profile_field f;
		const char *v;

		sonde_profile__field(rp->prof, cols[c], &f);
		ob_puts(o, "  ");
		if (dots) {
			for (int k = 0; k < f.width; k++)
				ob_putc(o, '.');
			continue;
		}
		v = e ? sonde_profile_entry__field(e, cols[c]) : f.name;
		ob_printf(o, "%*.*s", f.width, f.width, v ? v : "");
	}
}

static bool field_last(const struct report *rp)
{
	for (int f = 0; f < rp->nr_fields; f++)
		if (rp->fields[f].at == rp->nr_keys && report_field_shown(rp, f))
			return true;
	return false;
}

/* The column titles and their dotted underline, each line a comment. */
static void print_col_header(struct report *rp, int attr, const int *width,
			     const char *pct_title, uint64_t total)
{
	struct outbuf *o = &rp->out;

	ob_printf(o, "# %8s", pct_title);
	if (rp->children)
		ob_printf(o, "  %8s", "Self");
	for (int i = 0; i < rp->nr_keys; i++) {
		put_fields(rp, i, NULL, false, total);
		if (rp->elide[rp->keys[i]])
			continue;
		if (rp->keys[i] == SONDE_PROFILE_KEY_FIELD)
			put_field_cols(rp, o, attr, i, NULL, false);
		else if (rp->keys[i] == RK_PID) /* aligned on the ':' of the cells */
			ob_printf(o, "  %7s:%-*s", "Pid", width[i] - 8, "Command");
		else
			ob_printf(o, "  %-*s", width[i], col_title(rp->keys[i]));
	}
	put_fields(rp, rp->nr_keys, NULL, false, total);
	ob_puts(o, "\n# ........");
	if (rp->children)
		ob_puts(o, "  ........");
	for (int i = 0; i < rp->nr_keys; i++) {
		put_fields(rp, i, NULL, true, total);
		if (rp->elide[rp->keys[i]])
			continue;
		if (rp->keys[i] == SONDE_PROFILE_KEY_FIELD) {
			put_field_cols(rp, o, attr, i, NULL, true);
			continue;
		}
		ob_puts(o, "  ");
		for (int k = 0; k < width[i]; k++)
			ob_putc(o, '.');
	}
	put_fields(rp, rp->nr_keys, NULL, true, total);
	ob_puts(o, "\n#\n");
}

static void print_event(struct report *rp, int attr)
{
	struct outbuf *o = &rp->out;
	size_t n = sonde_profile__nr_entries(rp->prof, attr);
	struct sonde_profile_event_stats st = report_event_stats(rp, attr);
	uint64_t total = rp->relative ? st.filtered_period : st.period;
	uint64_t nr = rp->relative ? st.filtered_samples : st.samples;
	int width[RK_MAX] = { 0 };
	char unit, buf[4096];
	unsigned long ns = convert_unit((unsigned long)nr, &unit);
	const char *pct_title = rp->children ? "Children" : "Overhead";
	bool last_field = field_last(rp);

	if (!rp->quiet) { /* perf -q: the rows alone, no '#' lines */
		ob_printf(o, "# Samples: %lu%c of event '%s'", ns, unit,
			  sonde_perfdata_reader__event_name(rp->r, attr));
		/* perf's words for the slice the counts are of. */
		if (rp->ld.time)
			ob_printf(o, " (time slices: %s)", rp->ld.time);
		ob_putc(o, '\n');
		if (rp->mem_mode)
			ob_printf(o, "# Total weight : %" PRIu64 "\n# Sort order   : %s\n#\n",
				  total, rp->mem_sort);
		else
			ob_printf(o, "# Event count (approx.): %" PRIu64 "\n#\n", total);
	}
	rp->pid_comm_width = (int)strlen("Command");
	/* only a pid column shows it: a pass less over the entries without */
	for (int i = 0; i < rp->nr_keys; i++)
		if (rp->keys[i] == RK_PID) {
			for (size_t j = 0; j < n; j++) {
				const char *c = sonde_profile_entry__thread_comm(
					sonde_profile__entry(rp->prof, attr, j));

				if (c && (int)strlen(c) > rp->pid_comm_width)
					rp->pid_comm_width = (int)strlen(c);
			}
			break;
		}
	for (int i = 0; i < rp->nr_keys; i++)
		if (rp->keys[i] != SONDE_PROFILE_KEY_FIELD)
			width[i] = (int)strlen(col_title(rp->keys[i]));
	for (size_t j = 0; j < n; j++) {
		const entry_t *e = sonde_profile__entry(rp->prof, attr, j);

		prefetch_entry(rp, attr, j + 8, n);
		for (int i = 0; i < rp->nr_keys; i++) {
			int l;

			if (rp->keys[i] == SONDE_PROFILE_KEY_FIELD)
				continue; /* the profile knows their widths */
			if (rp->keys[i] > RK_SRCLINE) { /* perf's widths, not the texts' */
				l = report_key_len(e, rp->keys[i]);
				if (l > width[i])
					width[i] = l;
				continue;
			}
			if (rp->keys[i] == RK_CPU)
				continue; /* perf keeps it 3 wide; -001 overflows */
			/* perf: an entry without a symbol makes room for an
			 * object column of an address's width (16) */
			if (rp->keys[i] == RK_DSO && !sonde_profile_entry__sym(e) && !rp->ld.f.nr_dsos &&
			    width[i] < 16)
				width[i] = 16;
			l = cell_len(rp, e, rp->keys[i], buf, sizeof(buf));
			if (l > width[i])
				width[i] = l;
		}
	}
	if (!rp->quiet)
		print_col_header(rp, attr, width, pct_title, total);
	for (size_t j = 0; j < n; j++) {
		const entry_t *e = sonde_profile__entry(rp->prof, attr, j);
		uint64_t self, main;
		double main_pct;

		prefetch_entry(rp, attr, j + 8, n);
		self = sonde_profile_entry__self(e);
		main = rp->children ? sonde_profile_entry__children(e) : self;
		main_pct = total ? (double)main * 100.0 / (double)total : 0;

		if (rp->percent_limit > 0 && main_pct < rp->percent_limit)
			continue;
		ob_puts(o, "  ");
		put_pct(o, main_pct, 7);
		if (rp->children) {
			ob_puts(o, "  ");
			put_pct(o, total ? (double)self * 100.0 / (double)total : 0.0, 7);
		}
		for (int i = 0; i < rp->nr_keys; i++) {
			put_fields(rp, i, e, false, total);
			if (rp->elide[rp->keys[i]])
				continue;
			if (rp->keys[i] == SONDE_PROFILE_KEY_FIELD) {
				put_field_cols(rp, o, attr, i, e, false);
				continue;
			}
			cell_text(rp, e, rp->keys[i], width[i], buf, sizeof(buf));
			ob_puts(o, "  ");
			/* perf pads a last object or command column, not a symbol or line */
			if (i + 1 == rp->nr_keys && !last_field && !col_pads(rp->keys[i]))
				ob_puts(o, buf);
			else
				ob_pad_str(o, buf, width[i], false);
		}
		put_fields(rp, rp->nr_keys, e, false, total);
		ob_putc(o, '\n');
		if (!rp->graph_on || !rp->have_callchains)
			;
		else if (rp->graph_mode == REPORT_GRAPH_TREE)
			print_graph(rp, e, total);
		else
			print_flat(rp, e, total, rp->graph_mode == REPORT_GRAPH_FOLDED);
		if (o->err)
			return;
	}
	ob_puts(o, "\n\n");
}

/* The comment lines above the events' tables, which perf -q leaves out. */
static void print_preamble(struct report *rp)
{
	uint64_t lost_samples;

	if (!rp->header)
		ob_puts(&rp->out, "# To display the perf.data header info, please use --header/--header-only options.\n#\n");
	/* In sort-key order, as perf names them. */
	for (int i = 0; i < rp->nr_keys; i++) {
		if (!rp->one_value[rp->keys[i]])
			continue;
		if (rp->keys[i] == RK_COMM)
			ob_printf(&rp->out, "# comm: %s\n", rp->ld.f.comms[0]);
		else if (rp->keys[i] == RK_DSO)
			ob_printf(&rp->out, "# dso: %s\n", rp->ld.f.dsos[0]);
		else if (rp->keys[i] == RK_SYM)
			ob_printf(&rp->out, "# symbol: %s\n", rp->ld.f.syms[0]);
	}
	/* Like perf: the samples LOST_SAMPLES records count (LOST ones are
	 * chunks of any record type, reported on stderr instead). */
	sonde_profile__lost(rp->prof, NULL, NULL, &lost_samples);
	ob_printf(&rp->out, "#\n# Total Lost Samples: %" PRIu64 "\n#\n", lost_samples);
}

void report_print(struct report *rp)
{
	int nr = sonde_perfdata_reader__nr_attrs(rp->r);

	if (!rp->quiet)
		print_preamble(rp);
	for (int a = 0; a < nr; a++) {
		if (!report_event_stats(rp, a).samples)
			continue;
		print_event(rp, a);
	}
}

/* ---- --stats ---- */

/*
 * Record type names as perf 6.1 prints them; types without a name are
 * counted in TOTAL but not listed (perf's "UNKNOWN").
 */
static const char *const rec_names[] = {
	[0] = "TOTAL", [1] = "MMAP", [2] = "LOST", [3] = "COMM", [4] = "EXIT",
	[5] = "THROTTLE", [6] = "UNTHROTTLE", [7] = "FORK", [8] = "READ",
	[9] = "SAMPLE", [10] = "MMAP2", [11] = "AUX", [12] = "ITRACE_START",
	[13] = "LOST_SAMPLES", [14] = "SWITCH", [15] = "SWITCH_CPU_WIDE",
	[16] = "NAMESPACES", [17] = "KSYMBOL", [18] = "BPF_EVENT",
	[19] = "CGROUP", [20] = "TEXT_POKE", [21] = "AUX_OUTPUT_HW_ID",
	[64] = "ATTR", [65] = "EVENT_TYPE", [66] = "TRACING_DATA",
	[67] = "BUILD_ID", [68] = "FINISHED_ROUND", [69] = "ID_INDEX",
	[70] = "AUXTRACE_INFO", [71] = "AUXTRACE", [72] = "AUXTRACE_ERROR",
	[73] = "THREAD_MAP", [74] = "CPU_MAP", [75] = "STAT_CONFIG",
	[76] = "STAT", [77] = "STAT_ROUND", [78] = "EVENT_UPDATE",
	[79] = "TIME_CONV", [80] = "FEATURE", [81] = "COMPRESSED",
	[82] = "FINISHED_INIT",
};
#define NR_REC_NAMES (int)(sizeof(rec_names) / sizeof(rec_names[0]))

/*
 * perf report --stats: every record met in the stream counted by type
 * (also the ones perf record synthesizes and the header records of pipe
 * mode), then per event the samples and the samples LOST_SAMPLES says
 * were dropped; empty lines are skipped as perf does by default.
 */
void report_print_stats(struct report *rp)
{
	struct outbuf *o = &rp->out;
	uint64_t nr[NR_REC_NAMES];
	uint64_t total = 0;

	for (int i = 1; i < NR_REC_NAMES; i++) {
		nr[i] = sonde_perfdata_reader__nr_records(rp->r, (uint32_t)i);
		total += nr[i];
	}
	ob_printf(o, "\nAggregated stats:%s\n",
		  sonde_perfdata_reader__has_feature(rp->r, SONDE_FEAT_AUXTRACE) ?
		  " (excludes AUX area (e.g. instruction trace) decoded / synthesized events)" : "");
	ob_printf(o, "%16s events: %10" PRIu64 "\n", rec_names[0], total);
	for (int i = 1; i < NR_REC_NAMES; i++) {
		if (!rec_names[i] || !nr[i])
			continue;
		ob_printf(o, "%16s events: %10" PRIu64 "  (%4.1f%%)\n", rec_names[i],
			  nr[i], 100.0 * (double)nr[i] / (double)total);
	}
	for (int a = 0; a < sonde_perfdata_reader__nr_attrs(rp->r); a++) {
		struct sonde_profile_event_stats st = report_event_stats(rp, a);

		if (!st.samples && !st.lost_samples)
			continue;
		ob_printf(o, "%s stats:\n", sonde_perfdata_reader__event_name(rp->r, a));
		if (st.samples)
			ob_printf(o, "%16s events: %10" PRIu64 "\n", "SAMPLE", st.samples);
		if (st.lost_samples)
			ob_printf(o, "%16s events: %10" PRIu64 "\n", "LOST_SAMPLES",
				  st.lost_samples);
	}
}
