/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * tracefs: where it is mounted, the tracepoints it offers, their ids and
 * their format files (the record layout that report/script decode with).
 */
#ifndef SONDE_TRACEFS_H
#define SONDE_TRACEFS_H

#include <stdbool.h>
#include <stdint.h>
#include "sonde/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief **sonde_tracefs__root()** finds tracefs: $SONDE_TRACEFS_ROOT, then
 * /sys/kernel/tracing, /sys/kernel/debug/tracing, then any tracefs line in
 * /proc/mounts. When none has an events/ directory and @p mount is true and
 * we are root, mounts tracefs on /sys/kernel/tracing.
 * @return 0 with the directory in @p buf, or -ENOENT (-errno of mount).
 */
SONDE_API int sonde_tracefs__root(char *buf, size_t size, bool mount);

/**
 * @brief **sonde_tracepoint__id()** reads events/<sys>/<name>/id under
 * @p root (NULL: sonde_tracefs__root() without mounting).
 * @return the id (>= 0) or -errno (-ENOENT: no such tracepoint).
 */
SONDE_API int64_t sonde_tracepoint__id(const char *root, const char *sys,
				       const char *name);

/* Called per tracepoint by sonde_tracefs__for_each(); non-zero stops. */
typedef int (*sonde_tracepoint_fn)(const char *sys, const char *name,
				   void *ctx);

/**
 * @brief **sonde_tracefs__for_each()** calls @p fn for every tracepoint
 * whose system and name match the fnmatch globs (NULL = "*"), sorted by
 * system then name.
 * @return the callback's non-zero value, 0, or -errno.
 */
SONDE_API int sonde_tracefs__for_each(const char *root, const char *sys_glob,
				      const char *name_glob,
				      sonde_tracepoint_fn fn, void *ctx);

/* One field of a tracepoint record (value struct; strings owned by it). */
struct sonde_tp_field {
	const char *name;  /* "prev_pid" */
	const char *type;  /* "pid_t", "char[16]", "__data_loc char[]" */
	uint32_t offset;
	uint32_t size;
	uint32_t array_len; /* elements for "x[N]", 0 otherwise */
	bool is_signed;
	bool is_common;    /* before the blank line: common_* header */
	bool is_dynamic;   /* __data_loc / __rel_loc: offset|len word */
	bool is_relative;  /* __rel_loc */
};

struct sonde_tp_format; /* opaque */

/**
 * @brief **sonde_tp_format__parse()** parses the text of a format file from
 * a buffer (need not be NUL-terminated; at most 1 MiB, 4096 fields).
 * @p err_off (may be NULL) receives the byte offset of a parse error.
 * @return the format (free with sonde_tp_format__free()) or NULL + errno
 * (SONDE_ERR_PARSE on malformed text).
 */
SONDE_API struct sonde_tp_format *sonde_tp_format__parse(const char *buf,
							 size_t len,
							 size_t *err_off);

/**
 * @brief **sonde_tp_format__load()** reads and parses
 * events/<sys>/<name>/format under @p root (NULL: found as above).
 * @return the format (free with sonde_tp_format__free()) or NULL + errno.
 */
SONDE_API struct sonde_tp_format *sonde_tp_format__load(const char *root,
							const char *sys,
							const char *name);

/** @brief **sonde_tp_format__free()** frees; NULL is fine. */
SONDE_API void sonde_tp_format__free(struct sonde_tp_format *fmt);

/**
 * @brief **sonde_tp_format__name()** @return the "name:" line. Owned by @p
 * fmt, valid until sonde_tp_format__free().
 */
SONDE_API const char *sonde_tp_format__name(const struct sonde_tp_format *fmt);

/** @brief **sonde_tp_format__id()** @return the "ID:" line, or -1. */
SONDE_API int64_t sonde_tp_format__id(const struct sonde_tp_format *fmt);

/**
 * @brief **sonde_tp_format__print_fmt()** @return the "print fmt:" text.
 * Owned by @p fmt, valid until sonde_tp_format__free().
 */
SONDE_API const char *sonde_tp_format__print_fmt(const struct sonde_tp_format *fmt);

/** @brief **sonde_tp_format__field_count()** @return number of fields. */
SONDE_API size_t sonde_tp_format__field_count(const struct sonde_tp_format *fmt);

/**
 * @brief **sonde_tp_format__field()** @return field @p i (file order).
 * Owned by @p fmt, valid until sonde_tp_format__free().
 */
SONDE_API const struct sonde_tp_field *
sonde_tp_format__field(const struct sonde_tp_format *fmt, size_t i);

/**
 * @brief **sonde_tp_format__find_field()** @return the named field or NULL.
 * Owned by @p fmt, valid until sonde_tp_format__free().
 */
SONDE_API const struct sonde_tp_field *
sonde_tp_format__find_field(const struct sonde_tp_format *fmt, const char *name);

/*
 * A tracepoint's "print fmt" evaluated on a record, as perf script shows
 * tracepoint samples: the printf literal with its arguments, C expressions
 * over REC->field, __get_str(), casts, the usual operators, ?:,
 * __print_flags() and __print_symbolic(). Both the format text and the
 * record data are untrusted: lengths and nesting are bounded, every field
 * access is checked against the record's size.
 */
struct sonde_tp_print; /* opaque */

/*
 * Names a kernel address for %pS/%ps: returns its symbol (owned by the
 * callee, valid until the next call) with *@p off = @p addr - its start,
 * or NULL to print the address in hex.
 */
typedef const char *(*sonde_tp_sym_fn)(void *ctx, uint64_t addr, uint64_t *off);

struct sonde_tp_print_opts {
	size_t sz;		/* sizeof(struct sonde_tp_print_opts) */
	sonde_tp_sym_fn sym;	/* names %pS/%ps addresses; NULL: hex */
	void *sym_ctx;		/* passed to @sym */
	size_t :0;
};
#define sonde_tp_print_opts__last_field sym_ctx

/**
 * @brief **sonde_tp_print__new()** compiles @p fmt's print fmt once, for
 * any number of records. The result refers to @p fmt, which must outlive it.
 * @param opts may be NULL (addresses printed in hex).
 * @return the evaluator (free with sonde_tp_print__free()) or NULL + errno:
 * SONDE_ERR_UNSUPPORTED when the print fmt is malformed or uses what is not
 * understood here (__print_hex, %pM and other pointer extensions: list the
 * fields instead), EINVAL, ENOMEM.
 */
SONDE_API struct sonde_tp_print *
sonde_tp_print__new(const struct sonde_tp_format *fmt,
		    const struct sonde_tp_print_opts *opts);

/** @brief **sonde_tp_print__free()** frees; NULL is fine. */
SONDE_API void sonde_tp_print__free(struct sonde_tp_print *p);

/**
 * @brief **sonde_tp_print__format()** writes the text for one record's
 * raw data (PERF_SAMPLE_RAW) into @p buf like snprintf: at most @p size - 1
 * bytes and a NUL. Thread-safe on one evaluator (it is not modified).
 * @return the full length of the text (when >= @p size, call again with
 * a larger buffer), or -SONDE_ERR_FORMAT when the data does not fit the
 * format (short record, a string where a number is wanted, division by
 * zero): @p buf then holds "", -EINVAL on bad arguments.
 */
SONDE_API int sonde_tp_print__format(const struct sonde_tp_print *p,
				     const void *raw, size_t raw_size,
				     char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif /* SONDE_TRACEFS_H */
