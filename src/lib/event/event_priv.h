/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * The event layer's private header: the parsed event list behind struct
 * sonde_evspec_list and the parser's shared parts.
 */
#ifndef SONDE_EVENT_PRIV_H
#define SONDE_EVENT_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sonde/abi.h"
#include "sonde/evparse.h"

/* ---- the parsed event list ---- */

struct ev_kv {
	char *key;
	char *val;
};

struct evspec {
	struct sonde_perf_event_attr attr;
	char *name;
	char *pmu;
	char *cpumask;
	char *unit;
	double scale;
	unsigned int flags;
	int leader;
	/* perf's evsel->exclude_GH: a G or H modifier was seen */
	bool exclude_GH;
	/* config began as the PMU's default: terms replace the bits they
	 * name instead of adding to them, as in perf */
	bool pmu_default;
	struct ev_kv *terms;
	size_t nr_terms;
	/* kprobe_func / uprobe_path that attr.config1 points to */
	char *probe_target;
};

struct sonde_evspec_list {
	struct evspec *ev;
	size_t nr;
	size_t cap;
};

/* ---- the parser ---- */

struct ev_symbol {
	const char *name;
	uint64_t config;
	const char *unused;
};

/* NULL-terminated tables; aliases follow their canonical name. */
extern const struct ev_symbol ev_hw_symbols[];
extern const struct ev_symbol ev_sw_symbols[];

/* Index of the exact symbol [s, s+len) in @tab, or -1. */
int ev_find_symbol(const struct ev_symbol *tab, const char *s, size_t len);

/*
 * Parses a hardware cache name; returns 0 with config (id | op << 8 |
 * result << 16) or -1 when the word is not one. *valid is false when the
 * cache has no such op (perf refuses "L1-icache-stores").
 */
int ev_parse_cache(const char *s, size_t len, uint64_t *config, bool *valid);

/* Display names for `list`. */
const char *ev_cache_name(int type);
const char *ev_cache_op_name(int op, int variant);
bool ev_cache_op_valid(int type, int op);

/* Terms accepted on every event, as perf lists them in errors. */
extern const char ev_common_terms[];

/* ---- parser internals shared by evparse*.c ---- */

struct sonde_pmu;
struct sonde_pmus;
struct evspec;

#define MAX_TERMS 64
/*
 * A parse error past ERR_WIN_COL in a spec too long for
 * sonde_parse_error.spec stores "..." and the text from ERR_WIN_BEFORE
 * bytes before the column instead of the spec's head.
 */
#define ERR_WIN_COL 200
#define ERR_WIN_BEFORE 100
enum ev_kind { K_HW, K_SW, K_CACHE, K_RAW, K_PMU, K_TP, K_BP };

struct term {
	size_t col;     /* of the key */
	size_t val_col; /* of the value */
	char key[64];
	bool has_val;
	bool is_num;
	uint64_t num;
	char str[256];
};

struct parser {
	const char *s;
	size_t len;
	size_t pos;
	struct sonde_evspec_list *l;
	struct sonde_parse_error *err;
	const char *sysfs_root;
	const char *tracefs_opt;
	char tracefs[4096];
	int tracefs_state; /* 0 unknown, 1 found, <0 -errno */
	struct sonde_pmus *pmus;
	bool pmus_loaded;
	int have_cpu_pmu; /* -1 unknown */
	int code;         /* errno-style code of the last error */
	/* uprobe SYMBOL -> file offset (sonde_evspec_opts.probe_resolve) */
	int (*probe_resolve)(const char *path, const char *symbol,
			     uint64_t *offset, void *ctx);
	void *probe_ctx;
	bool in_group;    /* parsing inside {...} */
};

/* Records an error at @col (0-based) and returns -@code. */
__attribute__((format(printf, 4, 5)))
int ev_perr(struct parser *p, size_t col, int code, const char *fmt, ...);
/* "unexpected 'x', expected @expected" at @col. */
int ev_perr_parse(struct parser *p, size_t col, const char *expected);
int ev_set_str(char **dst, const char *s, size_t n);
int ev_add_kv(struct evspec *ev, const char *key, const char *val);
/* 0x hex or decimal, no overflow. */
bool ev_parse_num(const char *s, size_t len, uint64_t *v);

extern const char ev_mod_chars[];
/* Applies modifier string [m, m+n) found at @col; @group: a group's. */
int ev_apply_mods(struct parser *p, size_t col, const char *m, size_t n,
		  struct evspec *ev, bool group, bool leader);

/*
 * Parses "key[=value],..." of @s from *pos up to @stop (0: the end);
 * columns are offset by @base. Fills @t (MAX_TERMS entries) and *nt.
 */
int ev_parse_terms(struct parser *p, const char *s, size_t len, size_t *pos,
		   char stop, size_t base, struct term *t, size_t *nt);
/* Applies terms to an event of a PMU (formats, aliases, common terms). */
int ev_pmu_terms(struct parser *p, struct evspec *ev,
		 const struct sonde_pmu *pmu, const struct term *t, size_t nt,
		 bool from_alias, size_t alias_col);
/* Applies a sysfs alias's terms (and .scale/.unit) to @ev. */
struct sonde_pmu_alias;
int ev_apply_alias(struct parser *p, struct evspec *ev,
		   const struct sonde_pmu *pmu, const struct sonde_pmu_alias *al,
		   size_t col);
/* Applies terms to a symbolic, raw or tracepoint event. */
int ev_plain_terms(struct parser *p, struct evspec *ev, enum ev_kind kind,
		   const struct term *t, size_t nt);

/* Appends a zeroed event (attr.size set) to the list, or NULL + error. */
struct evspec *ev_new_event(struct parser *p, size_t col);
/* The sysfs PMUs, loaded on first use (may be NULL). */
const struct sonde_pmus *ev_get_pmus(struct parser *p);

/* Probe PMU events (evparse_probe.c): index of "uprobe" etc. or -1. */
int ev_probe_kind(const char *w, size_t wl);
/* Parses "KIND:..." at @start, KIND being @wl bytes. */
int ev_parse_probe(struct parser *p, size_t start, size_t wl);

/*
 * On a hybrid machine (cpu_core/cpu_atom PMUs), turns legacy hardware or
 * cache event @idx into one event per core type with the extended type
 * in config (evparse_hybrid.c). No-op elsewhere.
 */
int ev_hybrid_expand(struct parser *p, size_t idx, size_t col);

/*
 * Tracepoint "sys:name"'s format from this machine's tracefs, when its ID
 * there is @id: a recording's numbering is this kernel's only then
 * (tp_format.c). NULL + errno otherwise (ENOENT for another id).
 */
struct sonde_tp_format;
struct sonde_tp_format *tp_format_this_kernel(const char *event, int64_t id);

#endif /* SONDE_EVENT_PRIV_H */
