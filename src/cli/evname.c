// SPDX-License-Identifier: LGPL-2.1-only
/* Event names as perf shows them after a fallback. */
#include <stdio.h>
#include <string.h>
#include "evname.h"

char *evname_with_u(const char *name)
{
	const char *c = strrchr(name, ':');
	char *out;

	/* After modifiers already given, one more letter; else ":u". */
	if (c && c[1] && strspn(c + 1, "ukhGHIpPSDWeb") == strlen(c + 1))
		return asprintf(&out, "%su", name) < 0 ? NULL : out;
	return asprintf(&out, "%s:u", name) < 0 ? NULL : out;
}
