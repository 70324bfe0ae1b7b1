// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Pieces every stat printer shares: digit grouping, row labels, run
 * statistics, and the plain-text header and footer around the counts.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "sonde/stat.h"
#include "stat_print.h"

void stat_stats_update(struct stat_stats *s, double v)
{
	double delta;

	s->n++;
	delta = v - s->mean;
	s->mean += delta / s->n;
	s->m2 += delta * (v - s->mean);
}

double stat_stats_stddev_mean(const struct stat_stats *s)
{
	if (s->n < 2)
		return 0;
	return sqrt(s->m2 / (s->n - 1) / s->n);
}

double stat_stats_rel_pct(const struct stat_stats *s)
{
	if (!s->mean)
		return 0;
	return 100.0 * stat_stats_stddev_mean(s) / fabs(s->mean);
}

void stat_format_grouped(char *buf, size_t size, double v, int prec,
			 const char *sep)
{
	char raw[400];
	size_t seplen = sep ? strlen(sep) : 0, o = 0;
	const char *p = raw, *dot;
	int ndigits;

	snprintf(raw, sizeof(raw), "%.*f", prec, v);
	if (!seplen) {
		snprintf(buf, size, "%s", raw);
		return;
	}
	if (*p == '-' && o + 1 < size)
		buf[o++] = *p++;
	dot = strchr(p, '.');
	ndigits = dot ? (int)(dot - p) : (int)strlen(p);
	for (int i = 0; i < ndigits; i++) {
		if (i && (ndigits - i) % 3 == 0) {
			for (size_t k = 0; k < seplen && o + 1 < size; k++)
				buf[o++] = sep[k];
		}
		if (o + 1 < size)
			buf[o++] = p[i];
	}
	for (const char *q = p + ndigits; *q && o + 1 < size; q++)
		buf[o++] = *q;
	if (size)
		buf[o < size ? o : size - 1] = 0;
}

void stat_aggr_label(char *buf, size_t size, enum sonde_stat_aggr_mode mode,
		     const struct sonde_stat_aggr *a)
{
	switch (mode) {
	case SONDE_STAT_AGGR_NONE:
		snprintf(buf, size, "CPU%d", a->cpu);
		break;
	case SONDE_STAT_AGGR_CORE:
		snprintf(buf, size, "S%d-D%d-C%d", a->socket, a->die, a->core);
		break;
	case SONDE_STAT_AGGR_DIE:
		snprintf(buf, size, "S%d-D%d", a->socket, a->die);
		break;
	case SONDE_STAT_AGGR_SOCKET:
		snprintf(buf, size, "S%d", a->socket);
		break;
	case SONDE_STAT_AGGR_NODE:
		snprintf(buf, size, "N%d", a->node);
		break;
	case SONDE_STAT_AGGR_THREAD:
		snprintf(buf, size, "%s-%d", a->comm, (int)a->tid);
		break;
	case SONDE_STAT_AGGR_GLOBAL:
		if (size)
			buf[0] = 0;
		break;
	}
}

void stat_print_interval_header(FILE *out, enum sonde_stat_aggr_mode mode)
{
	static const char *const head[] = {
		[SONDE_STAT_AGGR_GLOBAL] = "#           time",
		[SONDE_STAT_AGGR_NONE] = "#           time CPU       ",
		[SONDE_STAT_AGGR_CORE] = "#           time core            cpus",
		[SONDE_STAT_AGGR_DIE] = "#           time die          cpus",
		[SONDE_STAT_AGGR_SOCKET] = "#           time socket cpus",
		[SONDE_STAT_AGGR_NODE] = "#           time node   cpus",
		[SONDE_STAT_AGGR_THREAD] = ("#           time             comm-pid"
				      "     "),
	};

	fprintf(out, "%s             counts unit events\n", head[mode]);
}

void stat_print_header(FILE *out, const struct stat_target_desc *d,
		       int run_count)
{
	fprintf(out, "\n Performance counter stats for ");
	if (d->system_wide) {
		fprintf(out, "'system wide");
	} else if (d->cpu_list) {
		fprintf(out, "'CPU(s) %s", d->cpu_list);
	} else if (d->pid) {
		fprintf(out, "process id '%s", d->pid);
	} else if (d->tid) {
		fprintf(out, "thread id '%s", d->tid);
	} else {
		fputc('\'', out);
		for (int i = 0; i < d->argc; i++)
			fprintf(out, "%s%s", i ? " " : "", d->argv[i]);
	}
	fputc('\'', out);
	if (run_count > 1)
		fprintf(out, " (%d runs)", run_count);
	fprintf(out, ":\n\n");
}

/* Two more digits than the first significant one of the noise. */
static int precision_for(double sd)
{
	int p;

	if (sd > 1)
		return 2;
	if (sd <= 0)
		return 9;
	p = (int)lround(ceil(-log10(sd))) + 2;
	return p > 9 ? 9 : p;
}

void stat_print_footer(FILE *out, const struct stat_footer *f)
{
	fputc('\n', out);
	if (f->run_count <= 1) {
		fprintf(out, " %17.9f seconds time elapsed", f->wall_mean_s);
		if (f->show_rusage) {
			fprintf(out, "\n\n");
			fprintf(out, " %17.9f seconds user\n", f->user_s);
			fprintf(out, " %17.9f seconds sys\n", f->sys_s);
		}
	} else {
		int prec = precision_for(f->wall_stddev_s);
		double pct = f->wall_mean_s ?
			100.0 * f->wall_stddev_s / f->wall_mean_s : 0;

		fprintf(out, " %17.*f +- %.*f seconds time elapsed", prec,
			f->wall_mean_s, prec, f->wall_stddev_s);
		fprintf(out, "  ( +- %5.2f%% )", pct);
	}
	fprintf(out, "\n\n");
}

void stat_print_ts(FILE *out, double ts, const char *sep)
{
	long long ns = llround(ts * 1e9);

	if (ns < 0)
		ns = 0;
	fprintf(out, "%6llu.%09llu%s", (unsigned long long)(ns / 1000000000),
		(unsigned long long)(ns % 1000000000), sep);
}
