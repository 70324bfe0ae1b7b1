/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * Counting sessions as `sonde stat` shows them: an open event list read
 * into a table of counts (events x aggregation units: CPUs, cores, dies,
 * sockets or threads), scaled for multiplexing, and the derived metrics
 * perf prints after '#' ("1.234 CPUs utilized", "0.52 insn per cycle").
 * Printing the table is the caller's business (sonde's printers live in
 * the command).
 */
#ifndef SONDE_STAT_H
#define SONDE_STAT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "sonde/common.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sonde_evlist;

/* How the counts are aggregated; also picks the row labels. */
enum sonde_stat_aggr_mode {
	SONDE_STAT_AGGR_GLOBAL, /* one row per event */
	SONDE_STAT_AGGR_NONE,   /* -A: one row per event per CPU */
	SONDE_STAT_AGGR_CORE,
	SONDE_STAT_AGGR_DIE,
	SONDE_STAT_AGGR_SOCKET,
	SONDE_STAT_AGGR_THREAD, /* --per-thread */
	SONDE_STAT_AGGR_NODE,   /* --per-node: NUMA nodes */
};

/* Which role an event plays in the derived metrics. */
enum sonde_stat_kind {
	SONDE_STAT_K_OTHER,
	SONDE_STAT_K_TASK_CLOCK, /* nanoseconds; rates are per this */
	SONDE_STAT_K_CPU_CLOCK,  /* nanoseconds too */
	SONDE_STAT_K_CYCLES,
	SONDE_STAT_K_INSTRUCTIONS,
	SONDE_STAT_K_BRANCHES,
	SONDE_STAT_K_BRANCH_MISSES,
	SONDE_STAT_K_STALLED_FE,
	SONDE_STAT_K_STALLED_BE,
	SONDE_STAT_K_CACHE_REFS,
	SONDE_STAT_K_CACHE_MISSES,
	SONDE_STAT_K_L1D_LOADS,
	SONDE_STAT_K_L1D_LOAD_MISSES,
	SONDE_STAT_K_L1I_LOADS,
	SONDE_STAT_K_L1I_LOAD_MISSES,
	SONDE_STAT_K_LLC_LOADS,
	SONDE_STAT_K_LLC_LOAD_MISSES,
	SONDE_STAT_K_DTLB_LOADS,
	SONDE_STAT_K_DTLB_LOAD_MISSES,
	SONDE_STAT_K_ITLB_LOADS,
	SONDE_STAT_K_ITLB_LOAD_MISSES,
};

/*
 * One event of the table (value struct, filled by the caller). The
 * reserved room keeps arrays of it compatible when fields are added:
 * leave it zero.
 */
struct sonde_stat_event {
	const char *name;   /* as the user spelled it, e.g. "cycles:u" */
	const char *unit;   /* "msec" for the clocks, else "" */
	double scale;       /* raw -> printed (1e-6 for ns -> msec), 0 = 1 */
	enum sonde_stat_kind kind;
	/*
	 * Events feed each other's metrics only within one context (the
	 * same privilege modifiers), as cycles:u must not divide
	 * instructions:k.
	 */
	unsigned int ctx;
	const char *cgroup; /* -G name or NULL */
	uint64_t reserved[2];
};

enum sonde_stat_status {
	SONDE_STAT_OK,
	SONDE_STAT_NOT_COUNTED,   /* opened but never ran */
	SONDE_STAT_NOT_SUPPORTED, /* could not be opened */
};

/* One cell: an event in one aggregation unit (value struct). */
struct sonde_stat_count {
	enum sonde_stat_status status;
	double val;        /* raw count, already scaled for multiplexing */
	uint64_t ena, run; /* nanoseconds enabled and running */
	double noise_pct;  /* -r: relative stddev of the mean, percent */
	uint64_t reserved[2];
};

/* One aggregation unit, a row label (value struct). */
struct sonde_stat_aggr {
	int cpu;       /* NONE */
	int socket;    /* SOCKET, DIE, CORE */
	int die;       /* DIE, CORE */
	int core;      /* CORE */
	int nr;        /* CPUs (or threads) aggregated */
	pid_t tid;     /* THREAD */
	char comm[32]; /* THREAD */
	int node;      /* NODE: -1 where the kernel has no NUMA nodes */
	int reserved32;
	uint64_t reserved[1];
};

/*
 * A table of counts, described by the caller (nothing is owned).
 * sz = sizeof(struct sonde_stat_table), as for opts structs.
 */
struct sonde_stat_table {
	size_t sz;
	enum sonde_stat_aggr_mode mode;
	int nr_events;
	const struct sonde_stat_event *events;
	int nr_aggr;
	const struct sonde_stat_aggr *aggr;
	const struct sonde_stat_count *counts; /* [aggr * nr_events + event] */
	double wall_ns; /* elapsed (or the interval length) for CPUs utilized */
};

/**
 * @brief **sonde_stat_table__cell()** finds the count of event @p ev in
 * unit @p aggr, counts[aggr * nr_events + ev].
 * @return a pointer into the caller's counts, or NULL with errno EINVAL
 * (bad table size, no counts, an index out of range).
 */
SONDE_API const struct sonde_stat_count *
sonde_stat_table__cell(const struct sonde_stat_table *t, int aggr, int ev);

/* ---- Reading an event list into a table -------------------------------- */

struct sonde_stat_reader; /* opaque */

/**
 * @brief **sonde_stat_reader__new()** sets up the aggregation units of
 * @p mode over @p list's CPUs (topology and NUMA nodes read under
 * $SONDE_SYSFS_ROOT or /sys) or threads (SONDE_STAT_AGGR_THREAD, comm from /proc), for the
 * first @p nr_events events of the list. The reader keeps no reference to
 * @p list. Not thread-safe: one reader per thread.
 * @return the reader (free with sonde_stat_reader__free()) or NULL + errno.
 */
SONDE_API struct sonde_stat_reader *
sonde_stat_reader__new(struct sonde_evlist *list, enum sonde_stat_aggr_mode mode,
		       int nr_events);

/** @brief **sonde_stat_reader__free()** frees; NULL is fine. */
SONDE_API void sonde_stat_reader__free(struct sonde_stat_reader *r);

/** @brief **sonde_stat_reader__nr_aggr()** @return the number of units. */
SONDE_API int sonde_stat_reader__nr_aggr(const struct sonde_stat_reader *r);

/**
 * @brief **sonde_stat_reader__aggr()** @return the units, in the order perf
 * prints them (sorted by node, socket, die, core, cpu); owned by the reader.
 */
SONDE_API const struct sonde_stat_aggr *
sonde_stat_reader__aggr(const struct sonde_stat_reader *r);

/** @brief **sonde_stat_reader__mode()** @return the aggregation mode. */
SONDE_API enum sonde_stat_aggr_mode
sonde_stat_reader__mode(const struct sonde_stat_reader *r);

enum sonde_stat_read_flags {
	SONDE_STAT_READ_DELTA = 1 << 0,    /* only what counted since the last read */
	SONDE_STAT_READ_NO_SCALE = 1 << 1, /* leave multiplexed counts unscaled */
};

/**
 * @brief **sonde_stat_reader__read()** reads every fd of @p list, sums each
 * into its unit and fills @p out (nr_aggr * nr_events cells,
 * [aggr * nr_events + ev]). Multiplexed counts are scaled to the time
 * enabled unless SONDE_STAT_READ_NO_SCALE; events that could not be
 * opened are SONDE_STAT_NOT_SUPPORTED, events that never ran
 * SONDE_STAT_NOT_COUNTED.
 * @param flags SONDE_STAT_READ_* bits.
 * @return 0 or -errno.
 */
SONDE_API int sonde_stat_reader__read(struct sonde_stat_reader *r,
				      struct sonde_evlist *list,
				      unsigned int flags,
				      struct sonde_stat_count *out);

/* ---- Derived metrics --------------------------------------------------- */

/* How perf colours a metric that looks bad (plain text only). */
enum sonde_stat_color {
	SONDE_STAT_COLOR_NONE,
	SONDE_STAT_COLOR_YELLOW,
	SONDE_STAT_COLOR_MAGENTA,
	SONDE_STAT_COLOR_RED,
};

/* One derived metric (value struct, filled by the library). */
struct sonde_stat_metric {
	/* The value prints as "%*.*f%s" of width, prec, val, suffix. */
	bool shown;        /* false: a blank metric column */
	int width, prec;
	const char *suffix; /* "", " " or "%" as perf pads them */
	const char *unit;  /* e.g. "CPUs utilized"; NULL: blank */
	char unit_buf[16]; /* backs unit for the scaled rates */
	double val;
	enum sonde_stat_color color;
	uint64_t reserved[2];
};

/**
 * @brief **sonde_stat_table__metrics()** computes the metrics perf 6.1
 * prints after '#' for event @p ev in unit @p aggr, worded as perf words
 * them: up to two (instructions get "stalled cycles per insn" on a second
 * line). Pure function of the table.
 * @return how many were filled (>= 1: a blank one pads the line when none
 * apply), or -EINVAL (bad table size or index).
 */
SONDE_API int sonde_stat_table__metrics(const struct sonde_stat_table *t,
					int aggr, int ev,
					struct sonde_stat_metric m[2]);

/**
 * @brief **sonde_stat_metric__format()** writes the metric value as text
 * ("   1.234"), "" when not shown. Note: @p m->unit may point into @p m.
 */
SONDE_API void sonde_stat_metric__format(const struct sonde_stat_metric *m,
					 char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif /* SONDE_STAT_H */
