/* SPDX-License-Identifier: LGPL-2.1-only */
/* Opening a perf.data file for report/script with a useful error message. */
#ifndef SONDE_CLI_PDOPEN_H
#define SONDE_CLI_PDOPEN_H

#include <sonde/perfdata_reader.h>

/*
 * Opens @path ("-" for stdin) like sonde_perfdata_reader__open(). On failure
 * prints "sonde CMD: PATH: why" to stderr (for a format error the reader's
 * own "byte offset N: ..." message) and returns NULL.
 */
struct sonde_perfdata_reader *cli_perfdata_open(const char *cmd, const char *path,
						const struct sonde_perfdata_reader_opts *opts);

#endif
