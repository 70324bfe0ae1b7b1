/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * What `sonde stat` prints, kept apart from how the counts were obtained:
 * a plain in-memory table of counts (events x aggregation units), the
 * derived metrics computed from it, and three printers with identical
 * signatures (plain text, CSV, JSON Lines). The CLI fills the table from
 * the counting layer; the unit tests fill it by hand. Internal to the
 * project: nothing here is exported from libsonde.so.
 */
#ifndef SONDE_STAT_H
#define SONDE_STAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* ---- CPU topology (sysfs) ---------------------------------------------- */

struct stat_cpu_topo {
	int cpu;
	int socket; /* physical_package_id */
	int die;    /* die_id, 0 where the kernel has none */
	int core;   /* core_id */
};

struct stat_topo {
	int nr;
	struct stat_cpu_topo *cpus; /* sorted by cpu */
};

/*
 * Reads topology/{physical_package_id,die_id,core_id} of each CPU in
 * @cpus (nr entries) under @root (NULL: "/sys"; tests pass a fake tree).
 * A CPU without a topology directory (offline) gets socket/die/core -1.
 * Returns 0 or -errno; free with stat_topo_free().
 */
int stat_topo_read(struct stat_topo *t, const char *root, const int *cpus,
		   int nr);
void stat_topo_free(struct stat_topo *t);
/* The entry for @cpu, or NULL. */
const struct stat_cpu_topo *stat_topo_find(const struct stat_topo *t, int cpu);

/* ---- The table --------------------------------------------------------- */

/* How the counts were aggregated; also picks the row labels. */
enum stat_aggr_mode {
	STAT_AGGR_GLOBAL, /* one row per event */
	STAT_AGGR_NONE,   /* -A: one row per event per CPU */
	STAT_AGGR_CORE,
	STAT_AGGR_DIE,
	STAT_AGGR_SOCKET,
	STAT_AGGR_THREAD, /* --per-thread */
};

/* Which role an event plays in the derived metrics. */
enum stat_kind {
	STAT_K_OTHER,
	STAT_K_TASK_CLOCK, /* nanoseconds; rates are per this */
	STAT_K_CPU_CLOCK,  /* nanoseconds too */
	STAT_K_CYCLES,
	STAT_K_INSTRUCTIONS,
	STAT_K_BRANCHES,
	STAT_K_BRANCH_MISSES,
	STAT_K_STALLED_FE,
	STAT_K_STALLED_BE,
	STAT_K_CACHE_REFS,
	STAT_K_CACHE_MISSES,
	STAT_K_L1D_LOADS,
	STAT_K_L1D_LOAD_MISSES,
	STAT_K_L1I_LOADS,
	STAT_K_L1I_LOAD_MISSES,
	STAT_K_LLC_LOADS,
	STAT_K_LLC_LOAD_MISSES,
	STAT_K_DTLB_LOADS,
	STAT_K_DTLB_LOAD_MISSES,
	STAT_K_ITLB_LOADS,
	STAT_K_ITLB_LOAD_MISSES,
};

struct stat_event {
	const char *name;   /* as the user spelled it, e.g. "cycles:u" */
	const char *unit;   /* "msec" for the clocks, else "" */
	double scale;       /* raw -> printed (1e-6 for ns -> msec), 0 = 1 */
	enum stat_kind kind;
	/*
	 * Events feed each other's metrics only within one context (the
	 * same privilege modifiers), as cycles:u must not divide
	 * instructions:k.
	 */
	unsigned int ctx;
	const char *cgroup; /* -G name or NULL */
};

enum stat_status {
	STAT_OK,
	STAT_NOT_COUNTED,   /* opened but never ran */
	STAT_NOT_SUPPORTED, /* could not be opened */
};

/* One cell: an event in one aggregation unit. */
struct stat_count {
	enum stat_status status;
	double val;        /* raw count, already scaled for multiplexing */
	uint64_t ena, run; /* nanoseconds enabled and running */
	double noise_pct;  /* -r: relative stddev of the mean, percent */
};

/* One aggregation unit (a row label). */
struct stat_aggr {
	int cpu;       /* NONE */
	int socket;    /* SOCKET, DIE, CORE */
	int die;       /* DIE, CORE */
	int core;      /* CORE */
	int nr;        /* CPUs (or threads) aggregated */
	pid_t tid;     /* THREAD */
	char comm[32]; /* THREAD */
};

struct stat_table {
	enum stat_aggr_mode mode;
	int nr_events;
	const struct stat_event *events;
	int nr_aggr;
	const struct stat_aggr *aggr;
	const struct stat_count *counts; /* [aggr * nr_events + event] */
	double wall_ns; /* elapsed (or the interval length) for CPUs utilized */
};

static inline const struct stat_count *
stat_cell(const struct stat_table *t, int aggr, int ev)
{
	return &t->counts[aggr * t->nr_events + ev];
}

/* ---- Derived metrics --------------------------------------------------- */

enum stat_color { STAT_COLOR_NONE, STAT_COLOR_YELLOW, STAT_COLOR_MAGENTA,
		  STAT_COLOR_RED };

struct stat_metric {
	/* The value prints as "%*.*f%s" of width, prec, val, suffix. */
	bool shown;       /* false: a blank metric column */
	int width, prec;
	const char *suffix; /* "", " " or "%" as perf pads them */
	const char *unit; /* e.g. "CPUs utilized"; NULL: blank */
	char unit_buf[16]; /* backs unit for the scaled rates */
	double val;
	enum stat_color color;
};

/*
 * The metrics printed after '#' for event @ev in unit @aggr: up to two
 * (instructions get "stalled cycles per insn" on a second line). Returns
 * how many were filled (>= 1: a blank one pads the line when none apply).
 */
int stat_metrics(const struct stat_table *t, int aggr, int ev,
		 struct stat_metric m[2]);

/* The metric value as text ("   1.234"); "" when not shown. */
void stat_metric_format(const struct stat_metric *m, char *buf, size_t size);

/* ---- Printers ---------------------------------------------------------- */

struct stat_print_cfg {
	FILE *out;
	const char *csv_sep;       /* CSV printer: the -x separator */
	const char *thousands_sep; /* plain: -B grouping ("" or NULL: none) */
	int run_count;             /* -r N (>1 prints the noise) */
	bool interval;             /* prefix every line with ts */
	double ts;                 /* seconds since start (interval mode) */
	bool color;                /* plain: colour the bad ratios */
};

typedef void (*stat_print_fn)(const struct stat_print_cfg *cfg,
			      const struct stat_table *t);

/* The twins: same table, same config, three formats. */
void stat_print_plain(const struct stat_print_cfg *cfg,
		      const struct stat_table *t);
void stat_print_csv(const struct stat_print_cfg *cfg,
		    const struct stat_table *t);
void stat_print_json(const struct stat_print_cfg *cfg,
		     const struct stat_table *t);

/* The column header perf prints every 25 intervals (plain text only). */
void stat_print_interval_header(FILE *out, enum stat_aggr_mode mode);

/* What the counts are of, for the plain header line. */
struct stat_target_desc {
	const char *pid;   /* "process id '...'" */
	const char *tid;   /* "thread id '...'" */
	const char *cpu_list; /* "CPU(s) ..." */
	bool system_wide;
	int argc;
	const char *const *argv; /* the workload */
};

void stat_print_header(FILE *out, const struct stat_target_desc *d,
		       int run_count);

struct stat_footer {
	int run_count;
	double wall_mean_s, wall_stddev_s;
	bool show_rusage; /* a forked workload: user and sys times */
	double user_s, sys_s;
};

void stat_print_footer(FILE *out, const struct stat_footer *f);

/* ---- Helpers shared by the printers ------------------------------------ */

/* Running mean and variance (Welford), for -r. */
struct stat_stats {
	double n, mean, m2;
};

void stat_stats_update(struct stat_stats *s, double v);
/* Standard deviation of the mean. */
double stat_stats_stddev_mean(const struct stat_stats *s);
/* stddev of the mean as a percentage of the mean (0 when mean is 0). */
double stat_stats_rel_pct(const struct stat_stats *s);

/* "%.*f" of @v into @buf, digits grouped by @sep ("" or NULL: none). */
void stat_format_grouped(char *buf, size_t size, double v, int prec,
			 const char *sep);

/* The row label text of unit @a for CSV/plain ("CPU0", "S0-D0-C1", ...). */
void stat_aggr_label(char *buf, size_t size, enum stat_aggr_mode mode,
		     const struct stat_aggr *a);

#endif /* SONDE_STAT_H */
