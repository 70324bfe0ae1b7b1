// SPDX-License-Identifier: LGPL-2.1-only
/*
 * A reader that fails to open is freed with its "byte offset N: ..." message,
 * which the library only logs at debug level as "libsonde: perf.data: MSG". Catch that
 * line while opening so a refused file says where it went wrong.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sonde/common.h>
#include "pdopen.h"

#define PREFIX "libsonde: perf.data: "

static char why[256];
static sonde_print_fn_t prev_print;

__attribute__((format(printf, 2, 0)))
static int catch_print(enum sonde_print_level level, const char *fmt, va_list ap)
{
	va_list cp;
	char line[sizeof(why) + sizeof(PREFIX)];

	va_copy(cp, ap);
	vsnprintf(line, sizeof(line), fmt, cp);
	va_end(cp);
	if (level == SONDE_DEBUG && !why[0] && !strncmp(line, PREFIX, strlen(PREFIX))) {
		size_t n = strcspn(line + strlen(PREFIX), "\n");

		if (n >= sizeof(why))
			n = sizeof(why) - 1;
		memcpy(why, line + strlen(PREFIX), n);
		why[n] = 0;
	}
	return prev_print ? prev_print(level, fmt, ap) : 0;
}

struct sonde_perfdata_reader *cli_perfdata_open(const char *cmd, const char *path,
						const struct sonde_perfdata_reader_opts *opts)
{
	struct sonde_perfdata_reader *r;
	char buf[128];
	int err;

	why[0] = 0;
	prev_print = sonde_set_print(catch_print);
	r = sonde_perfdata_reader__open(path, opts);
	err = errno;
	sonde_set_print(prev_print);
	if (r)
		return r;
	if (err == ENOENT)
		fprintf(stderr, "sonde %s: %s: No such file (record one with `sonde record` or `perf record`, or pass -i FILE)\n",
			cmd, path);
	else if (err == SONDE_ERR_FORMAT)
		fprintf(stderr, "sonde %s: %s: not a valid perf.data file: %s\n", cmd,
			path, why[0] ? why : "unknown format error");
	else
		fprintf(stderr, "sonde %s: %s: %s\n", cmd, path,
			sonde_strerror(err, buf, sizeof(buf)));
	errno = err;
	return NULL;
}
