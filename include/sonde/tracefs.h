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
 * @return the format (free with sonde_tp_format__delete()) or NULL + errno
 * (SONDE_ERR_PARSE on malformed text).
 */
SONDE_API struct sonde_tp_format *sonde_tp_format__parse(const char *buf,
							 size_t len,
							 size_t *err_off);

/**
 * @brief **sonde_tp_format__load()** reads and parses
 * events/<sys>/<name>/format under @p root (NULL: found as above).
 * @return the format (free with sonde_tp_format__delete()) or NULL + errno.
 */
SONDE_API struct sonde_tp_format *sonde_tp_format__load(const char *root,
							const char *sys,
							const char *name);

/** @brief **sonde_tp_format__delete()** frees; NULL is fine. */
SONDE_API void sonde_tp_format__delete(struct sonde_tp_format *fmt);

/** @brief **sonde_tp_format__name()** @return the "name:" line. */
SONDE_API const char *sonde_tp_format__name(const struct sonde_tp_format *fmt);

/** @brief **sonde_tp_format__id()** @return the "ID:" line, or -1. */
SONDE_API int64_t sonde_tp_format__id(const struct sonde_tp_format *fmt);

/** @brief **sonde_tp_format__print_fmt()** @return the "print fmt:" text. */
SONDE_API const char *sonde_tp_format__print_fmt(const struct sonde_tp_format *fmt);

/** @brief **sonde_tp_format__field_count()** @return number of fields. */
SONDE_API size_t sonde_tp_format__field_count(const struct sonde_tp_format *fmt);

/** @brief **sonde_tp_format__field()** @return field @p i (file order). */
SONDE_API const struct sonde_tp_field *
sonde_tp_format__field(const struct sonde_tp_format *fmt, size_t i);

/** @brief **sonde_tp_format__find_field()** @return the named field or NULL. */
SONDE_API const struct sonde_tp_field *
sonde_tp_format__find_field(const struct sonde_tp_format *fmt, const char *name);

#ifdef __cplusplus
}
#endif
#endif /* SONDE_TRACEFS_H */
