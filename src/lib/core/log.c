// SPDX-License-Identifier: LGPL-2.1-only
/* The library's only path to the outside world: a replaceable log callback. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core_priv.h"

__attribute__((format(printf, 2, 0)))
static int default_print(enum sonde_print_level level, const char *fmt,
			 va_list ap)
{
	static int max_level = -1;

	if (max_level < 0) {
		const char *env = getenv("SONDE_LOG_LEVEL");

		max_level = SONDE_WARN;
		if (env && !strcmp(env, "info"))
			max_level = SONDE_INFO;
		else if (env && !strcmp(env, "debug"))
			max_level = SONDE_DEBUG;
	}
	if ((int)level > max_level)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static sonde_print_fn_t print_fn = default_print;

sonde_print_fn_t sonde_set_print(sonde_print_fn_t fn)
{
	sonde_print_fn_t old = print_fn;

	print_fn = fn;
	return old;
}

void lib_log(enum sonde_print_level level, const char *fmt, ...)
{
	va_list ap;
	int saved = errno;

	if (!print_fn)
		return;
	va_start(ap, fmt);
	print_fn(level, fmt, ap);
	va_end(ap);
	errno = saved;
}

bool lib_opts_valid(const void *opts, size_t user_sz, size_t known_sz,
		    const char *type_name)
{
	const unsigned char *p = opts;

	if (user_sz < sizeof(size_t)) {
		pr_warn("%s: size (%zu) is too small\n", type_name, user_sz);
		return false;
	}
	for (size_t i = known_sz; i < user_sz; i++) {
		if (p[i]) {
			pr_warn("%s has non-zero extra bytes (newer program, older library?)\n",
				type_name);
			return false;
		}
	}
	return true;
}

const char *sonde_version_string(void)
{
#define STR_(x) #x
#define STR(x) STR_(x)
	return STR(SONDE_VERSION_MAJOR) "." STR(SONDE_VERSION_MINOR) "."
		STR(SONDE_VERSION_PATCH);
}
