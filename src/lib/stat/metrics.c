// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The derived metrics printed after '#', worded and formatted as perf 6.1
 * prints them so that scripts and eyes trained on perf keep working.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "sonde/stat.h"
#include "core_priv.h"

/* The cell of an index already checked. */
static const struct sonde_stat_count *cell(const struct sonde_stat_table *t,
					   int aggr, int ev)
{
	return &t->counts[(size_t)aggr * (size_t)t->nr_events + (size_t)ev];
}

const struct sonde_stat_count *
sonde_stat_table__cell(const struct sonde_stat_table *t, int aggr, int ev)
{
	if (!t || t->sz < offsetof(struct sonde_stat_table, counts) + sizeof(t->counts) ||
	    !t->counts || ev < 0 || ev >= t->nr_events || aggr < 0 || aggr >= t->nr_aggr)
		return lib_err_ptr(EINVAL);
	return cell(t, aggr, ev);
}

/*
 * Mean of the counted events of @kind in unit @aggr and context @ctx.
 * Returns how many there were (0: the metric has no denominator).
 */
static int shadow(const struct sonde_stat_table *t, int aggr, unsigned int ctx,
		  enum sonde_stat_kind kind, double *avg)
{
	double sum = 0;
	int n = 0;

	for (int e = 0; e < t->nr_events; e++) {
		const struct sonde_stat_count *c = cell(t, aggr, e);
		enum sonde_stat_kind k = t->events[e].kind;

		if (t->events[e].ctx != ctx || c->status != SONDE_STAT_OK)
			continue;
		if (k == kind || (kind == SONDE_STAT_K_TASK_CLOCK &&
				  k == SONDE_STAT_K_CPU_CLOCK)) {
			sum += c->val;
			n++;
		}
	}
	*avg = n ? sum / n : 0;
	return n;
}

/* fmt is one of perf's: "%8.3f", "%7.2f ", "%7.2f%%", "%8.3f %%". */
static void set(struct sonde_stat_metric *m, const char *fmt, const char *unit,
		double val)
{
	m->shown = fmt != NULL;
	m->unit = unit;
	m->val = val;
	if (!fmt)
		return;
	m->width = fmt[1] - '0';
	m->prec = fmt[3] - '0';
	m->suffix = !strcmp(fmt + 5, "%%") ? "%" :
		    !strcmp(fmt + 5, " %%") ? " %" : fmt + 5;
}

void sonde_stat_metric__format(const struct sonde_stat_metric *m, char *buf, size_t size)
{
	if (!m->shown) {
		if (size)
			buf[0] = 0;
		return;
	}
	snprintf(buf, size, "%*.*f%s", m->width, m->prec, m->val, m->suffix);
}

/* Thresholds in percent for red, magenta, yellow (perf's choices). */
static enum sonde_stat_color color_for(double pct, double red, double magenta,
				 double yellow)
{
	if (pct > red)
		return SONDE_STAT_COLOR_RED;
	if (pct > magenta)
		return SONDE_STAT_COLOR_MAGENTA;
	if (pct > yellow)
		return SONDE_STAT_COLOR_YELLOW;
	return SONDE_STAT_COLOR_NONE;
}

struct miss_ratio {
	enum sonde_stat_kind miss, total;
	const char *unit;
};

static const struct miss_ratio miss_ratios[] = {
	{ SONDE_STAT_K_BRANCH_MISSES, SONDE_STAT_K_BRANCHES, "of all branches" },
	{ SONDE_STAT_K_L1D_LOAD_MISSES, SONDE_STAT_K_L1D_LOADS, "of all L1-dcache accesses" },
	{ SONDE_STAT_K_L1I_LOAD_MISSES, SONDE_STAT_K_L1I_LOADS, "of all L1-icache accesses" },
	{ SONDE_STAT_K_LLC_LOAD_MISSES, SONDE_STAT_K_LLC_LOADS, "of all LL-cache accesses" },
	{ SONDE_STAT_K_DTLB_LOAD_MISSES, SONDE_STAT_K_DTLB_LOADS, "of all dTLB cache accesses" },
	{ SONDE_STAT_K_ITLB_LOAD_MISSES, SONDE_STAT_K_ITLB_LOADS, "of all iTLB cache accesses" },
};

/* count/sec scaled to K, M or G as perf does: "%8.3f" then "K/sec". */
static void rate(struct sonde_stat_metric *m, double count, double ns)
{
	double r = ns ? 1e9 * count / ns : 0;
	char prefix = 0;

	if (r >= 1e9) {
		r /= 1e9;
		prefix = 'G';
	} else if (r >= 1e6) {
		r /= 1e6;
		prefix = 'M';
	} else if (r >= 1e3) {
		r /= 1e3;
		prefix = 'K';
	}
	if (prefix)
		snprintf(m->unit_buf, sizeof(m->unit_buf), "%c/sec", prefix);
	else
		snprintf(m->unit_buf, sizeof(m->unit_buf), "/sec");
	set(m, "%8.3f", m->unit_buf, r);
}

int sonde_stat_table__metrics(const struct sonde_stat_table *t, int aggr, int ev,
			      struct sonde_stat_metric m[2])
{
	const struct sonde_stat_event *e;
	const struct sonde_stat_count *c;
	double v, total, fe, be;
	int n = 1;

	/* Every field up to wall_ns is read: older callers' tables lack none. */
	if (!t || !m || t->sz < offsetof(struct sonde_stat_table, wall_ns) + sizeof(t->wall_ns) ||
	    ev < 0 || ev >= t->nr_events || aggr < 0 || aggr >= t->nr_aggr)
		return lib_err(EINVAL);
	e = &t->events[ev];
	c = cell(t, aggr, ev);
	v = c->val;
	memset(m, 0, 2 * sizeof(*m));
	if (c->status != SONDE_STAT_OK)
		return 1;
	switch (e->kind) {
	case SONDE_STAT_K_TASK_CLOCK:
	case SONDE_STAT_K_CPU_CLOCK:
		if (t->wall_ns)
			set(&m[0], "%8.3f", "CPUs utilized", v / t->wall_ns);
		return 1;
	case SONDE_STAT_K_CYCLES:
		if (shadow(t, aggr, e->ctx, SONDE_STAT_K_TASK_CLOCK, &total) && total)
			set(&m[0], "%8.3f", "GHz", v / total);
		return 1;
	case SONDE_STAT_K_INSTRUCTIONS:
		if (shadow(t, aggr, e->ctx, SONDE_STAT_K_CYCLES, &total) && total)
			set(&m[0], "%7.2f ", "insn per cycle", v / total);
		else
			set(&m[0], NULL, "insn per cycle", 0);
		shadow(t, aggr, e->ctx, SONDE_STAT_K_STALLED_FE, &fe);
		shadow(t, aggr, e->ctx, SONDE_STAT_K_STALLED_BE, &be);
		total = fe > be ? fe : be;
		if (total && v) {
			set(&m[1], "%7.2f ", "stalled cycles per insn",
			    total / v);
			n = 2;
		}
		return n;
	case SONDE_STAT_K_STALLED_FE:
	case SONDE_STAT_K_STALLED_BE: {
		bool fe_kind = e->kind == SONDE_STAT_K_STALLED_FE;
		double pct = 0;

		if (shadow(t, aggr, e->ctx, SONDE_STAT_K_CYCLES, &total) && total)
			pct = v / total * 100.0;
		set(&m[0], "%7.2f%%", fe_kind ? "frontend cycles idle" :
						"backend cycles idle", pct);
		m[0].color = fe_kind ? color_for(pct, 50, 30, 10) :
				       color_for(pct, 75, 50, 20);
		return 1;
	}
	case SONDE_STAT_K_CACHE_MISSES:
		if (shadow(t, aggr, e->ctx, SONDE_STAT_K_CACHE_REFS, &total))
			set(&m[0], "%8.3f %%", "of all cache refs",
			    total ? v * 100.0 / total : 0);
		else
			set(&m[0], NULL, "of all cache refs", 0);
		return 1;
	default:
		break;
	}
	for (size_t i = 0; i < sizeof(miss_ratios) / sizeof(miss_ratios[0]);
	     i++) {
		const struct miss_ratio *r = &miss_ratios[i];
		double pct;

		if (e->kind != r->miss)
			continue;
		if (!shadow(t, aggr, e->ctx, r->total, &total)) {
			set(&m[0], NULL, "", 0);
			return 1;
		}
		pct = total ? v / total * 100.0 : 0;
		set(&m[0], "%7.2f%%", r->unit, pct);
		m[0].color = color_for(pct, 20, 10, 5);
		return 1;
	}
	if (shadow(t, aggr, e->ctx, SONDE_STAT_K_TASK_CLOCK, &total))
		rate(&m[0], v, total);
	return 1;
}
