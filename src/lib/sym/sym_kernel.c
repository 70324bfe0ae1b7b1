// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Which kernel's symbols fit a recording: the running kernel's build id
 * (its /sys/kernel/notes), whether the recording ran under another kernel,
 * and the kallsyms copy perf record keeps of it in the build-id cache.
 * One answer for the symbolizer (sym_text.c), the report model and the
 * perf.data writer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "core_priv.h"
#include "sym_internal.h"

int sym_kernel_build_id(const char *notes_path, uint8_t *out, size_t size)
{
	char *notes = NULL;
	size_t len;
	int n = sym_read_file(notes_path ? notes_path : "/sys/kernel/notes",
			      &notes, &len, 1u << 20);

	if (n)
		return n;
	n = sym_notes_build_id((const uint8_t *)notes, len, out, size);
	free(notes);
	return n;
}

bool sym_same_build_id(const uint8_t *want, size_t wlen, const uint8_t *have,
		       size_t hlen)
{
	if (!hlen || hlen > wlen || memcmp(want, have, hlen))
		return false;
	/* perf.data pads 20-byte ids; a shorter id has zeros after it. */
	for (size_t i = hlen; i < wlen; i++)
		if (want[i])
			return false;
	return true;
}

void sym_hex_id(const uint8_t *id, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
	out[2 * n] = 0;
}

bool sym_kernel_other(const uint8_t *want, size_t wlen, const char *osrelease,
		      char *why, size_t size)
{
	uint8_t have[SYM_BUILD_ID_MAX];
	char hw[2 * SYM_BUILD_ID_MAX + 1], hh[2 * SYM_BUILD_ID_MAX + 1];
	int n = wlen ? sym_kernel_build_id(NULL, have, sizeof(have)) : 0;
	struct utsname u;

	if (wlen && n > 0) {
		if (sym_same_build_id(want, wlen, have, (size_t)n))
			return false;
		sym_hex_id(want, wlen, hw);
		sym_hex_id(have, (size_t)n, hh);
		snprintf(why, size, "its kernel build id is %s, the running kernel's %s",
			 hw, hh);
		return true;
	}
	if (osrelease && *osrelease && !uname(&u) && strcmp(osrelease, u.release)) {
		snprintf(why, size, "it was recorded under Linux %s, this is %s",
			 osrelease, u.release);
		return true;
	}
	return false;
}

bool sym_kernel_recorded_kallsyms(const char *buildid_dir, const uint8_t *want,
				  size_t wlen, char *path, size_t size)
{
	char hw[2 * SYM_BUILD_ID_MAX + 1];
	int n;

	if (!wlen || wlen > SYM_BUILD_ID_MAX || !buildid_dir)
		return false;
	sym_hex_id(want, wlen, hw);
	n = snprintf(path, size, "%s/.build-id/%.2s/%s/kallsyms", buildid_dir, hw,
		     hw + 2);
	return n > 0 && (size_t)n < size && !access(path, R_OK);
}
