// SPDX-License-Identifier: LGPL-2.1-only
/* One renderer for errno values and sonde's own error codes. */
#include <stdio.h>
#include <string.h>
#include "core_priv.h"

static const char *const errstr_table[] = {
	[SONDE_ERR_FORMAT - SONDE_ERR_START] = "Corrupt or truncated data",
	[SONDE_ERR_ATTR_SIZE - SONDE_ERR_START] =
		"perf_event_attr is newer than this library understands",
	[SONDE_ERR_PARSE - SONDE_ERR_START] = "Malformed text",
	[SONDE_ERR_UNSUPPORTED - SONDE_ERR_START] =
		"Not supported by this kernel or CPU",
};

const char *sonde_strerror(int err, char *buf, size_t size)
{
	if (!buf || !size)
		return buf;
	if (err < 0)
		err = -err;
	if (err >= SONDE_ERR_START && err < SONDE_ERR_END) {
		snprintf(buf, size, "%s", errstr_table[err - SONDE_ERR_START]);
	} else {
		char tmp[128];
		/* GNU strerror_r may return a static string instead of filling tmp. */
		const char *s = strerror_r(err, tmp, sizeof(tmp));

		snprintf(buf, size, "%s", s);
	}
	return buf;
}
