/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * The text of perf.data header features in perf 6.1's layout ("# CPU 0:
 * Core ID 0, Socket ID 0"), made from the reader's decoded features.
 */
#ifndef SONDE_CLI_REPORT_FEAT_H
#define SONDE_CLI_REPORT_FEAT_H

#include <stdbool.h>
#include "sonde/perfdata_reader.h"
#include "outbuf.h"

/*
 * Appends feature @feat's lines to @o. False when @feat is not one of the
 * features laid out here (the caller prints it), true otherwise, also when
 * it was absent or corrupt (nothing printed then).
 */
bool report_feat_text(struct outbuf *o, const struct sonde_perfdata_reader *r,
		      int feat);

#endif /* SONDE_CLI_REPORT_FEAT_H */
