/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * perf's warnings about what a recording could not keep (profile_warn.c),
 * printed by report and script once the file is read.
 */
#ifndef SONDE_CLI_PROFILE_WARN_H
#define SONDE_CLI_PROFILE_WARN_H

#include "sonde/profile.h"

/*
 * To stderr: AUX data lost, with gaps or collided (the AUX records'
 * flags), and process maps not read (MMAP2 marked
 * PROC_MAP_PARSE_TIMEOUT), each only when @p counted some.
 */
void profile_warn_recording(const struct sonde_profile *p);

#endif /* SONDE_CLI_PROFILE_WARN_H */
