// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde report output: perf's stdio table and call graphs, --stats and
 * --json (--header is in cmd-report-header.c). Layout follows perf report 6.1 (--stdio) so that
 * scripts that read its rows keep working.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd-report.h"

static struct report *sort_rp;

static const char *dso_name(const struct hkey *k)
{
	return k->dso ? k->dso->short_name : "[unknown]";
}

static int key_cmp(const struct report *rp, const struct hentry *a, const struct hentry *b)
{
	for (int i = 0; i < rp->nr_keys; i++) {
		int c = 0;

		switch (rp->keys[i]) {
		case RK_COMM:
			c = strcmp(a->k.comm ? a->k.comm : "", b->k.comm ? b->k.comm : "");
			break;
		case RK_PID:
			c = (a->k.pid > b->k.pid) - (a->k.pid < b->k.pid);
			break;
		case RK_TID:
			c = (a->k.tid > b->k.tid) - (a->k.tid < b->k.tid);
			break;
		case RK_CPU:
			c = (a->k.cpu > b->k.cpu) - (a->k.cpu < b->k.cpu);
			break;
		case RK_DSO:
			c = strcmp(dso_name(&a->k), dso_name(&b->k));
			break;
		case RK_SYM:
			if (a->k.sym && b->k.sym)
				c = strcmp(a->k.sym->name, b->k.sym->name);
			else if (a->k.sym || b->k.sym)
				c = a->k.sym ? -1 : 1;
			else
				c = (a->k.addr > b->k.addr) - (a->k.addr < b->k.addr);
			break;
		case RK_SRCLINE:
			c = strcmp(a->k.srcline, b->k.srcline);
			break;
		default:
			break;
		}
		if (c)
			return c;
	}
	return 0;
}

static int seq_cmp(const void *pa, const void *pb)
{
	const struct hentry *a = *(const struct hentry *const *)pa;
	const struct hentry *b = *(const struct hentry *const *)pb;

	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int entry_cmp(const void *pa, const void *pb)
{
	const struct hentry *a = *(const struct hentry *const *)pa;
	const struct hentry *b = *(const struct hentry *const *)pb;
	uint64_t va = sort_rp->children ? a->children : a->self;
	uint64_t vb = sort_rp->children ? b->children : b->self;
	int c;

	if (va != vb)
		return va > vb ? -1 : 1;
	/*
	 * perf breaks ties on the deepest call graph: the deeper first in
	 * caller order (a caller above its callee), the shallower in callee.
	 */
	if (sort_rp->children && a->k.comm == b->k.comm && a->max_depth != b->max_depth)
		return (a->max_depth > b->max_depth) == sort_rp->graph_caller ? -1 : 1;
	if (sort_rp->children && a->self != b->self)
		return a->self > b->self ? -1 : 1;
	c = key_cmp(sort_rp, a, b);
	if (c)
		return c;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static bool visible(const struct report *rp, const struct hkey *k)
{
	if (rp->nr_f_dso) {
		bool ok = false;

		for (int i = 0; i < rp->nr_f_dso; i++)
			if (!strcmp(rp->f_dso[i], dso_name(k)) ||
			    (k->dso && !strcmp(rp->f_dso[i], k->dso->name)))
				ok = true;
		if (!ok)
			return false;
	}
	if (rp->nr_f_sym) {
		bool ok = false;

		for (int i = 0; i < rp->nr_f_sym; i++)
			if (k->sym && !strcmp(rp->f_sym[i], k->sym->name))
				ok = true;
		if (!ok)
			return false;
	}
	return true;
}

/* Entries of event @attr, visible, sorted. Returns the count. */
static size_t collect(struct report *rp, int attr)
{
	size_t n = 0, pos = 0;
	struct hentry *e;

	free(rp->sorted);
	rp->sorted = malloc((rp->nr_ents + 1) * sizeof(*rp->sorted));
	if (!rp->sorted)
		return 0;
	while ((e = hashtab_next(&rp->ents, &pos)))
		if (e->k.attr == attr && visible(rp, &e->k) &&
		    (rp->children ? e->children : e->self))
			rp->sorted[n++] = e;
	/*
	 * The tie rules (perf's) are not a total order, so the result depends
	 * on the input order: make that the creation order, not hash order,
	 * which moves with the addresses of symbols from run to run.
	 */
	qsort(rp->sorted, n, sizeof(*rp->sorted), seq_cmp);
	sort_rp = rp;
	qsort(rp->sorted, n, sizeof(*rp->sorted), entry_cmp);
	return n;
}

static void sym_text(const struct hkey *k, char *buf, size_t sz)
{
	if (k->sym)
		snprintf(buf, sz, "[%c] %s%s", k->level, k->sym->name,
			 k->sym->inlined ? " (inlined)" : "");
	else if (k->addr)
		snprintf(buf, sz, "[%c] 0x%016" PRIx64, k->level, k->addr);
	else
		snprintf(buf, sz, "[%c] %016" PRIx64, k->level, k->addr);
}

static const char *const col_titles[RK_MAX] = {
	"Command", "Pid:Command", "Tid", "Shared Object", "Symbol", "CPU", "Source:Line",
};

static void cell_text(const struct report *rp, const struct hentry *e, enum rkey key,
		      char *buf, size_t sz)
{
	switch (key) {
	case RK_COMM:
		snprintf(buf, sz, "%s", e->k.comm);
		break;
	case RK_PID:
		/* Like perf: the thread id, then the command padded to its column. */
		snprintf(buf, sz, "%7d:%-*s", e->k.pid, rp->pid_comm_width,
			 e->k.comm ? e->k.comm : "");
		break;
	case RK_TID:
		snprintf(buf, sz, "%7d", e->k.tid);
		break;
	case RK_DSO:
		snprintf(buf, sz, "%s", dso_name(&e->k));
		break;
	case RK_SYM:
		sym_text(&e->k, buf, sz);
		break;
	case RK_CPU:
		snprintf(buf, sz, "%3.3d", e->k.cpu);
		break;
	case RK_SRCLINE:
		snprintf(buf, sz, "%s", e->k.srcline);
		break;
	default:
		buf[0] = 0;
	}
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

/* A call graph value as -g asked: share of @base, period, or samples. */
static void put_gvalue(struct outbuf *o, const struct report *rp, uint64_t period,
		       uint64_t nr, uint64_t base)
{
	if (rp->graph_value == GRAPH_VALUE_COUNT)
		ob_printf(o, "%" PRIu64, nr);
	else if (rp->graph_value == GRAPH_VALUE_PERIOD)
		ob_printf(o, "%" PRIu64, period);
	else
		ob_printf(o, "%.2f%%", base ? (double)period * 100.0 / (double)base : 0.0);
}

static int cnode_cmp(const void *pa, const void *pb)
{
	const struct cnode *a = *(const struct cnode *const *)pa;
	const struct cnode *b = *(const struct cnode *const *)pb;
	uint64_t ka = a->sym ? a->sym->start : a->ip, kb = b->sym ? b->sym->start : b->ip;

	if (a->cumul != b->cumul)
		return a->cumul > b->cumul ? -1 : 1;
	return ka < kb ? 1 : ka > kb ? -1 : 0;
}

/* Children of @n with cumul >= @min, sorted. Caller frees. */
static struct cnode **kids(struct cnode *n, uint64_t min, size_t *nr)
{
	struct cnode **v = malloc((n->nr_children + 1) * sizeof(*v));
	size_t k = 0;

	if (!v) {
		*nr = 0;
		return NULL;
	}
	for (struct cnode *c = n->child; c; c = c->sibling)
		if (c->cumul >= min && c->cumul)
			v[k++] = c;
	qsort(v, k, sizeof(*v), cnode_cmp);
	*nr = k;
	return v;
}

/* The run perf keeps in one node: single-child links without own hits. */
static struct cnode *run_next(struct cnode *n)
{
	return n->nr_children == 1 && !n->hit ? n->child : NULL;
}

static void cname(struct outbuf *o, const struct cnode *n)
{
	if (n->sym) {
		ob_puts(o, n->sym->name);
		if (n->sym->inlined)
			ob_puts(o, " (inlined)");
	}
	else if (n->ip)
		ob_printf(o, "0x%" PRIx64, n->ip);
	else
		ob_puts(o, "0");
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

static void graph_rec(struct gctx *g, struct cnode *parent, uint64_t total,
		      uint64_t total_nr, int depth, int mask, int lm)
{
	uint64_t min = g->rp->graph_fractal ? (uint64_t)((double)total * g->rp->graph_threshold / 100.0)
					    : g->min_abs;
	uint64_t remaining = total, remaining_nr = total_nr;
	int new_mask = mask;
	size_t nr;
	struct cnode **v = kids(parent, min, &nr);

	if (depth > 30) {
		free(v);
		return;
	}
	for (size_t i = 0; i < nr; i++) {
		struct cnode *c = v[i], *last = c, *x;
		int idx = 0;

		remaining -= c->cumul;
		remaining_nr -= c->nr_cumul;
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
					put_gvalue(g->o, g->rp, c->cumul, c->nr_cumul, total);
					ob_puts(g->o, "--");
				} else
					ob_puts(g->o, "          ");
			}
			cname(g->o, x);
			ob_putc(g->o, '\n');
			last = x;
			g->printed = true;
		}
		if (g->rp->graph_fractal)
			graph_rec(g, last, c->cumul - last->hit, c->nr_cumul - last->nr_hit,
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

static void print_graph(struct report *rp, struct hentry *e, uint64_t total)
{
	struct gctx g = { .rp = rp, .o = &rp->out };
	struct cnode *root = e->chain, *sub = root;
	uint64_t parent_total = rp->children ? e->children : e->self;
	size_t nr;
	struct cnode **v;
	int lm = 0;

	if (!root)
		return;
	g.min_abs = (uint64_t)((double)total * rp->graph_threshold / 100.0);
	v = kids(root, rp->graph_fractal ? (uint64_t)((double)parent_total * rp->graph_threshold / 100.0)
					 : g.min_abs, &nr);
	/* perf takes the "---" form when the root has one child before the
	 * threshold is applied. */
	if (nr == 1 && root->nr_children == 1) {
		bool skip_first = !strncmp(rp->sort, "sym", 3);
		bool printed = false;
		int i = 0;

		for (struct cnode *x = v[0]; x; x = run_next(x), i++) {
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
			cname(&rp->out, x);
			ob_putc(&rp->out, '\n');
			g.printed = true;
		}
	}
	free(v);
	if (rp->graph_fractal)
		graph_rec(&g, sub, parent_total, root->nr_cumul, 1, 1, lm);
	else
		graph_rec(&g, sub, total, 0, 1, 1, lm);
	if (g.printed)
		ob_putc(&rp->out, '\n');
}

/* -g flat / folded: one line (or block) per distinct path with hits. */
struct fpath {
	struct cnode *node;
	size_t seq; /* depth-first order, for ties */
};

struct fctx {
	struct fpath *v;
	size_t nr, cap;
};

static int fpath_cmp(const void *pa, const void *pb)
{
	const struct fpath *a = pa, *b = pb;

	if (a->node->hit != b->node->hit)
		return a->node->hit > b->node->hit ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int addr_desc_cmp(const void *pa, const void *pb)
{
	const struct cnode *a = *(const struct cnode *const *)pa;
	const struct cnode *b = *(const struct cnode *const *)pb;
	uint64_t ka = a->sym ? a->sym->start : a->ip, kb = b->sym ? b->sym->start : b->ip;

	return ka < kb ? 1 : ka > kb ? -1 : 0;
}

/*
 * Like perf: callees before their caller (post-order), siblings by
 * descending address, so equal hits keep that order after sorting.
 */
static void flat_collect(struct fctx *f, struct cnode *n, uint64_t min, int depth)
{
	struct cnode **v;
	size_t k = 0;

	if (depth > SONDE_PERF_MAX_STACK_DEPTH * 8)
		return;
	v = malloc((n->nr_children + 1) * sizeof(*v));
	if (!v)
		return;
	for (struct cnode *c = n->child; c; c = c->sibling)
		v[k++] = c;
	qsort(v, k, sizeof(*v), addr_desc_cmp);
	for (size_t i = 0; i < k; i++)
		flat_collect(f, v[i], min, depth + 1);
	free(v);
	if (!depth || !n->hit || n->hit < min)
		return;
	if (f->nr == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 16;
		struct fpath *nv = realloc(f->v, cap * sizeof(*nv));

		if (!nv)
			return;
		f->v = nv;
		f->cap = cap;
	}
	f->v[f->nr].node = n;
	f->v[f->nr].seq = f->nr;
	f->nr++;
}

/* The nodes from the first frame down to @n, in chain order. */
static void put_path(struct outbuf *o, const struct cnode *n, bool folded)
{
	if (n->parent && n->parent->parent) {
		put_path(o, n->parent, folded);
		if (folded)
			ob_putc(o, ';');
	}
	if (!folded)
		ob_puts(o, "                ");
	cname(o, n);
	if (!folded)
		ob_putc(o, '\n');
}

static void print_flat(struct report *rp, struct hentry *e, uint64_t total, bool folded)
{
	struct outbuf *o = &rp->out;
	uint64_t base = rp->graph_fractal ? (rp->children ? e->children : e->self) : total;
	uint64_t min = (uint64_t)((double)base * rp->graph_threshold / 100.0);
	struct fctx f = { 0 };

	if (!e->chain)
		return;
	flat_collect(&f, e->chain, min, 0);
	qsort(f.v, f.nr, sizeof(*f.v), fpath_cmp);
	for (size_t i = 0; i < f.nr; i++) {
		const struct cnode *n = f.v[i].node;
		/* perf's flat blocks count the path's callees too; folded not. */
		uint64_t v = folded ? n->hit : n->cumul;
		uint64_t nr = folded ? n->nr_hit : n->nr_cumul;

		if (!folded)
			ob_puts(o, "           ");
		put_gvalue(o, rp, v, nr, base);
		ob_putc(o, folded ? ' ' : '\n');
		put_path(o, n, folded);
		ob_putc(o, '\n');
	}
	free(f.v);
}

/* ---- table ---- */

static void print_event(struct report *rp, int attr)
{
	struct outbuf *o = &rp->out;
	size_t n = collect(rp, attr);
	uint64_t total = rp->relative ? rp->period_filtered[attr] : rp->period_all[attr];
	uint64_t nr = rp->relative ? rp->nr_filtered_samples[attr] : rp->nr_samples[attr];
	int width[RK_MAX] = { 0 };
	char unit, buf[4096];
	unsigned long ns = convert_unit((unsigned long)nr, &unit);
	const char *pct_title = rp->children ? "Children" : "Overhead";

	ob_printf(o, "# Samples: %lu%c of event '%s'", ns, unit,
		  sonde_perfdata_reader__event_name(rp->r, attr));
	/* perf's words for the slice the counts are of. */
	if (rp->time)
		ob_printf(o, " (time slices: %s)", rp->time);
	ob_putc(o, '\n');
	ob_printf(o, "# Event count (approx.): %" PRIu64 "\n#\n", total);
	rp->pid_comm_width = (int)strlen("Command");
	for (size_t j = 0; j < n; j++) {
		const char *c = rp->sorted[j]->k.comm;

		if (c && (int)strlen(c) > rp->pid_comm_width)
			rp->pid_comm_width = (int)strlen(c);
	}
	for (int i = 0; i < rp->nr_keys; i++)
		width[i] = (int)strlen(col_titles[rp->keys[i]]);
	for (size_t j = 0; j < n; j++)
		for (int i = 0; i < rp->nr_keys; i++) {
			int l;

			if (rp->keys[i] == RK_CPU)
				continue; /* perf keeps it 3 wide; -001 overflows */
			cell_text(rp, rp->sorted[j], rp->keys[i], buf, sizeof(buf));
			l = (int)strlen(buf);
			if (l > width[i])
				width[i] = l;
		}
	ob_printf(o, "# %8s", pct_title);
	if (rp->children)
		ob_printf(o, "  %8s", "Self");
	for (int i = 0; i < rp->nr_keys; i++) {
		if (rp->elide[rp->keys[i]])
			continue;
		if (rp->keys[i] == RK_PID) /* aligned on the ':' of the cells */
			ob_printf(o, "  %7s:%-*s", "Pid", width[i] - 8, "Command");
		else
			ob_printf(o, "  %-*s", width[i], col_titles[rp->keys[i]]);
	}
	ob_puts(o, "\n# ........");
	if (rp->children)
		ob_puts(o, "  ........");
	for (int i = 0; i < rp->nr_keys; i++) {
		if (rp->elide[rp->keys[i]])
			continue;
		ob_puts(o, "  ");
		for (int k = 0; k < width[i]; k++)
			ob_putc(o, '.');
	}
	ob_puts(o, "\n#\n");
	for (size_t j = 0; j < n; j++) {
		struct hentry *e = rp->sorted[j];
		double main_pct = total ? (double)(rp->children ? e->children : e->self) * 100.0 / (double)total : 0;

		if (rp->percent_limit > 0 && main_pct < rp->percent_limit)
			continue;
		ob_printf(o, "  %7.2f%%", main_pct);
		if (rp->children)
			ob_printf(o, "  %7.2f%%", total ? (double)e->self * 100.0 / (double)total : 0.0);
		for (int i = 0; i < rp->nr_keys; i++) {
			if (rp->elide[rp->keys[i]])
				continue;
			cell_text(rp, e, rp->keys[i], buf, sizeof(buf));
			if (i + 1 == rp->nr_keys)
				ob_printf(o, "  %s", buf);
			else
				ob_printf(o, "  %-*s", width[i], buf);
		}
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

void report_print(struct report *rp)
{
	struct anl_stats *st = anl_machine_stats(rp->m);
	int nr = sonde_perfdata_reader__nr_attrs(rp->r);

	if (!rp->header)
		ob_puts(&rp->out, "# To display the perf.data header info, please use --header/--header-only options.\n#\n");
	if (rp->elide[RK_COMM])
		ob_printf(&rp->out, "# comm: %s\n", rp->f_comm[0]);
	if (rp->elide[RK_DSO])
		ob_printf(&rp->out, "# dso: %s\n", rp->f_dso[0]);
	if (rp->elide[RK_SYM])
		ob_printf(&rp->out, "# symbol: %s\n", rp->f_sym[0]);
	/* Like perf: the samples LOST_SAMPLES records count (LOST ones are
	 * chunks of any record type, reported on stderr instead). */
	ob_printf(&rp->out, "#\n# Total Lost Samples: %" PRIu64 "\n#\n", st->lost_samples);
	for (int a = 0; a < nr && a < PDR_MAX_ATTRS; a++) {
		if (!rp->nr_samples[a])
			continue;
		print_event(rp, a);
	}
}

/* ---- --json ---- */

void report_print_json(struct report *rp)
{
	struct outbuf *o = &rp->out;
	struct anl_stats *st = anl_machine_stats(rp->m);
	int nr = sonde_perfdata_reader__nr_attrs(rp->r);
	bool first_ev = true;
	char buf[4096];

	ob_printf(o, "{\"lost_samples\":%" PRIu64 ",\"lost_records\":%" PRIu64
		  ",\"children\":%s,\"events\":[",
		  st->lost_samples, st->lost, rp->children ? "true" : "false");
	for (int a = 0; a < nr && a < PDR_MAX_ATTRS; a++) {
		size_t n;
		uint64_t total = rp->relative ? rp->period_filtered[a] : rp->period_all[a];

		if (!rp->nr_samples[a])
			continue;
		n = collect(rp, a);
		ob_printf(o, "%s{\"event\":", first_ev ? "" : ",");
		first_ev = false;
		ob_json_str(o, sonde_perfdata_reader__event_name(rp->r, a));
		ob_printf(o, ",\"samples\":%" PRIu64 ",\"event_count\":%" PRIu64 ",\"entries\":[",
			  rp->relative ? rp->nr_filtered_samples[a] : rp->nr_samples[a], total);
		for (size_t j = 0, printed = 0; j < n; j++) {
			struct hentry *e = rp->sorted[j];
			double pct = total ? (double)(rp->children ? e->children : e->self) * 100.0 / (double)total : 0;

			if (rp->percent_limit > 0 && pct < rp->percent_limit)
				continue;
			ob_printf(o, "%s{", printed++ ? "," : "");
			if (rp->children)
				ob_printf(o, "\"children\":%.4f,\"children_period\":%" PRIu64 ",",
					  total ? (double)e->children * 100.0 / (double)total : 0.0,
					  e->children);
			ob_printf(o, "\"self\":%.4f,\"period\":%" PRIu64 ",\"samples\":%" PRIu64,
				  total ? (double)e->self * 100.0 / (double)total : 0.0, e->self,
				  e->nr_self);
			for (int i = 0; i < rp->nr_keys; i++) {
				switch (rp->keys[i]) {
				case RK_COMM:
					ob_puts(o, ",\"comm\":");
					ob_json_str(o, e->k.comm);
					break;
				case RK_PID:
					ob_printf(o, ",\"thread\":%d", e->k.pid); /* the thread */
					break;
				case RK_TID:
					ob_printf(o, ",\"tid\":%d", e->k.tid);
					break;
				case RK_CPU:
					ob_printf(o, ",\"cpu\":%d", e->k.cpu);
					break;
				case RK_DSO:
					ob_puts(o, ",\"dso\":");
					ob_json_str(o, e->k.dso ? e->k.dso->name : "[unknown]");
					break;
				case RK_SYM:
					ob_puts(o, ",\"sym\":");
					if (e->k.sym)
						ob_json_str(o, e->k.sym->name);
					else {
						snprintf(buf, sizeof(buf), "0x%" PRIx64, e->k.addr);
						ob_json_str(o, buf);
					}
					ob_printf(o, ",\"kernel\":%s", e->k.level == 'k' ? "true" : "false");
					break;
				case RK_SRCLINE:
					ob_puts(o, ",\"srcline\":");
					ob_json_str(o, e->k.srcline);
					break;
				default:
					break;
				}
			}
			ob_putc(o, '}');
		}
		ob_puts(o, "]}");
	}
	ob_puts(o, "]}\n");
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
	const uint64_t *nr = rp->r->nr_type;
	uint64_t total = 0;

	for (int i = 1; i < NR_REC_NAMES; i++)
		total += nr[i];
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
	for (int a = 0; a < rp->r->nr_attrs && a < PDR_MAX_ATTRS; a++) {
		if (!rp->nr_samples[a] && !rp->lost_samples[a])
			continue;
		ob_printf(o, "%s stats:\n", sonde_perfdata_reader__event_name(rp->r, a));
		if (rp->nr_samples[a])
			ob_printf(o, "%16s events: %10" PRIu64 "\n", "SAMPLE",
				  rp->nr_samples[a]);
		if (rp->lost_samples[a])
			ob_printf(o, "%16s events: %10" PRIu64 "\n", "LOST_SAMPLES",
				  rp->lost_samples[a]);
	}
}

const char *report_srcline(struct report *rp, struct anl_dso *dso, const struct anl_sym *sym,
			   uint64_t addr)
{
	char buf[512];
	const char *sl = dso && !dso->kernel ? anl_dso_srcline(rp->m, dso, addr) : NULL;

	if (sl)
		return sl;
	/* No line table: fall back the way perf does. */
	if (sym)
		snprintf(buf, sizeof(buf), "%s+%" PRIu64, sym->name,
			 (dso ? anl_dso_vaddr(dso, addr) : addr) - sym->start);
	else if (dso)
		snprintf(buf, sizeof(buf), "%s[%" PRIx64 "]", dso->short_name, addr);
	else
		snprintf(buf, sizeof(buf), "[unknown]");
	return anl_intern(rp->m, buf, strlen(buf));
}
