// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Which kernel's symbols fit a recording: the running kernel's build id
 * (its /sys/kernel/notes), whether the recording ran under another kernel,
 * and the kallsyms copy perf record keeps of it in the build-id cache.
 * One answer for the symbolizer, the report model and the perf.data
 * writer. And the symbolizer's kernel object, loaded from the kernel
 * table (sym_priv.h) that fits.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "core_priv.h"
#include "sym_priv.h"

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

/* The recorded kernel must be the running one for kallsyms to apply. */
static int check_kernel_build_id(struct sonde_dso *dso)
{
	uint8_t have[SYM_BUILD_ID_MAX];
	int n;

	if (!dso->want_bid_size)
		return 0;
	n = sym_kernel_build_id(dso->notes_path, have, sizeof(have));
	if (n < 0)
		pr_info("cannot read %s: kernel build id not checked\n",
			dso->notes_path);
	if (n <= 0)
		return 0;
	dso->bid_size = (size_t)n;
	memcpy(dso->bid, have, (size_t)n);
	if (sym_same_build_id(dso->want_bid, dso->want_bid_size, have, (size_t)n))
		return 0;
	return -ESTALE;
}

/* @p dso's symbols: every entry of @p kt, whose names they point into. */
static int take_table(struct sonde_dso *dso, struct sym_ktab *kt)
{
	size_t nr = sym_ktab_nr(kt);

	dso->ktab = kt;
	dso->syms = malloc((nr ? nr : 1) * sizeof(*dso->syms));
	if (!dso->syms) {
		dso->status = SONDE_DSO_MISSING;
		return -ENOMEM;
	}
	for (size_t i = 0; i < nr; i++)
		sym_ktab_get(kt, i, &dso->syms[i]);
	dso->nr = nr;
	dso->status = nr ? SONDE_DSO_OK : SONDE_DSO_NO_SYMBOLS;
	return 0;
}

/*
 * The recording ran on another kernel: its kallsyms from the copy perf
 * record keeps in the build-id cache, else none and a warning.
 */
static int load_recorded_kallsyms(struct sonde_dso *dso)
{
	struct sym_ktab *kt;
	char path[4096];
	int err;

	if (!sym_kernel_recorded_kallsyms(dso->buildid_dir, dso->want_bid,
					  dso->want_bid_size, path, sizeof(path))) {
		pr_warn("the recording ran on another kernel (build id differs "
			"from the running kernel's): kernel symbols from %s would "
			"be wrong, not using them\n", dso->kallsyms_path);
		dso->status = SONDE_DSO_BUILD_ID_MISMATCH;
		return -ESTALE;
	}
	pr_debug("kernel symbols from the recorded copy %s\n", path);
	err = sym_ktab_read(path, &kt);
	if (!err && sym_ktab_hidden(kt)) {
		sym_ktab_free(kt);
		err = -EACCES;
	}
	if (err) {
		pr_warn("%s: %s: kernel symbols not used\n", path, strerror(-err));
		dso->status = SONDE_DSO_BUILD_ID_MISMATCH;
		return err;
	}
	return take_table(dso, kt);
}

int sym_kallsyms_load(struct sonde_dso *dso)
{
	bool proc = !strcmp(dso->kallsyms_path, "/proc/kallsyms");
	struct sym_ktab *kt;
	int err;

	if (check_kernel_build_id(dso))
		return load_recorded_kallsyms(dso);
	/* The cache holds this boot's /proc/kallsyms, no other file. */
	err = sym_ktab_this_boot(proc ? dso->kcache_dir : NULL,
				 dso->kallsyms_path, &kt);
	if (!err && sym_ktab_hidden(kt)) {
		sym_ktab_free(kt);
		pr_warn("kernel symbol addresses in %s are hidden (all zero): "
			"run as root (CAP_SYSLOG), or set "
			"'sysctl kernel.kptr_restrict=0' and "
			"'sysctl kernel.perf_event_paranoid=1' (or lower); "
			"kernel frames show as [unknown]\n",
			dso->kallsyms_path);
		dso->status = SONDE_DSO_RESTRICTED;
		return -EACCES;
	}
	if (err) {
		pr_warn("cannot read %s: %s\n", dso->kallsyms_path, strerror(-err));
		dso->status = SONDE_DSO_MISSING;
		return err;
	}
	return take_table(dso, kt);
}
