/* SPDX-License-Identifier: LGPL-2.1-only */
/* Helpers private to libsonde: logging, opts validation, error returns. */
#ifndef SONDE_INTERNAL_H
#define SONDE_INTERNAL_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sonde/common.h"

__attribute__((format(printf, 2, 3)))
void lib_log(enum sonde_print_level level, const char *fmt, ...);

#define pr_warn(fmt, ...) lib_log(SONDE_WARN, "libsonde: " fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...) lib_log(SONDE_INFO, "libsonde: " fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...) lib_log(SONDE_DEBUG, "libsonde: " fmt, ##__VA_ARGS__)

/* Return -err with errno set too: the one error convention of the API. */
static inline int lib_err(int err)
{
	if (err < 0)
		err = -err;
	errno = err;
	return -err;
}

/* NULL with errno set, for pointer-returning functions. */
static inline void *lib_err_ptr(int err)
{
	errno = err < 0 ? -err : err;
	return NULL;
}

/*
 * Opts validation in the libbpf manner: sz must cover at least the first
 * field; bytes past the fields this library knows must be zero.
 */
bool lib_opts_valid(const void *opts, size_t user_sz, size_t known_sz,
		    const char *type_name);

#define OPTS_SZ(opts) ((opts) ? (opts)->sz : 0)
#define OPTS_KNOWN_SZ(type) \
	(offsetof(struct type, type##__last_field) + \
	 sizeof(((struct type *)0)->type##__last_field))
#define OPTS_VALID(opts, type) \
	(!(opts) || lib_opts_valid(opts, (opts)->sz, OPTS_KNOWN_SZ(type), #type))
#define OPTS_HAS(opts, field) \
	((opts) && (opts)->sz >= offsetof(__typeof__(*(opts)), field) + \
			       sizeof((opts)->field))
#define OPTS_GET(opts, field, fallback) \
	(OPTS_HAS(opts, field) ? (opts)->field : (fallback))

/*
 * Test hooks standing in for the architecture: the rdpmc reader the real
 * seam table has (NULL: none, as on every non-x86 build), and back.
 */
void sys_set_arch_rdpmc(uint64_t (*rdpmc)(unsigned int counter));
void sys_restore_arch_rdpmc(void);

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif /* SONDE_INTERNAL_H */
