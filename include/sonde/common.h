/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * Conventions shared by every libsonde header: the export macro, extensible
 * opts structs, error codes and the log callback.
 */
#ifndef SONDE_COMMON_H
#define SONDE_COMMON_H

#include <stddef.h>
#include <stdarg.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SONDE_API __attribute__((visibility("default")))

#define SONDE_VERSION_MAJOR 0
#define SONDE_VERSION_MINOR 1
#define SONDE_VERSION_PATCH 0

/**
 * @brief **SONDE_OPTS()** declares an opts struct named @p NAME of type
 * `struct TYPE`, zeroed (padding included) with `.sz` set, then applies the
 * designated initialisers that follow.
 */
#define SONDE_OPTS(TYPE, NAME, ...)                                       \
	struct TYPE NAME = ({                                             \
		memset(&NAME, 0, sizeof(struct TYPE));                    \
		(struct TYPE){ .sz = sizeof(struct TYPE), __VA_ARGS__ }; \
	})

/* Library-specific error codes; start at 4000 so they never meet errno. */
enum sonde_errno {
	SONDE_ERR_START = 4000,
	SONDE_ERR_FORMAT = 4000,    /* corrupt or truncated input file/record */
	SONDE_ERR_ATTR_SIZE = 4001, /* attr newer than this reader knows */
	SONDE_ERR_PARSE = 4002,     /* malformed text (event spec, sysfs) */
	SONDE_ERR_UNSUPPORTED = 4003, /* the kernel/CPU lacks the feature */
	SONDE_ERR_END,
};

/**
 * @brief **sonde_strerror()** renders an errno value or a sonde_errno code
 * (either sign) into @p buf.
 * @return @p buf, always NUL-terminated.
 */
SONDE_API const char *sonde_strerror(int err, char *buf, size_t size);

enum sonde_print_level {
	SONDE_WARN,
	SONDE_INFO,
	SONDE_DEBUG,
};

typedef int (*sonde_print_fn_t)(enum sonde_print_level level,
				const char *fmt, va_list ap);

/**
 * @brief **sonde_set_print()** installs the log callback. The default prints
 * WARN to stderr (SONDE_LOG_LEVEL=info|debug raises it); NULL silences.
 * @return the previous callback.
 */
SONDE_API sonde_print_fn_t sonde_set_print(sonde_print_fn_t fn);

/** @brief **sonde_version_string()** returns "MAJOR.MINOR.PATCH" (static). */
SONDE_API const char *sonde_version_string(void);

#ifdef __cplusplus
}
#endif
#endif /* SONDE_COMMON_H */
