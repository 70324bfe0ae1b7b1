// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Which kernel's symbols fit a recording: the running kernel's build id
 * (its /sys/kernel/notes), whether the recording ran under another kernel,
 * and the kallsyms copy perf record keeps of it in the build-id cache.
 * And the one choice of the kernel's symbol source, for the symbolizer's
 * kernel object (sonde_symcache__kernel()) and through it the report
 * model: --kallsyms, --vmlinux, perf's copy of the recorded kernel's
 * kallsyms, or this boot's kallsyms, loaded into the kernel table
 * (sym_priv.h) and searched there.
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

/*
 * Whether a recording ran under another kernel than the running one: its
 * kernel build id @want (@wlen 0: none recorded) differs from the one in
 * @notes_path (NULL: /sys/kernel/notes), or without ids its @osrelease
 * (NULL: unknown). Then the running kernel's kallsyms would name its
 * samples after the wrong functions; @why gets the reason.
 */
static bool kernel_other(const char *notes_path, const uint8_t *want, size_t wlen,
			 const char *osrelease, char *why, size_t size)
{
	uint8_t have[SYM_BUILD_ID_MAX];
	char hw[2 * SYM_BUILD_ID_MAX + 1], hh[2 * SYM_BUILD_ID_MAX + 1];
	int n = wlen ? sym_kernel_build_id(notes_path, have, sizeof(have)) : 0;
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

/*
 * The kallsyms copy perf record keeps of kernel @want in its build-id
 * cache @buildid_dir (DIR/.build-id/xx/yyyy/kallsyms): true and its path
 * in @path when it is readable.
 */
static bool recorded_kallsyms(const char *buildid_dir, const uint8_t *want,
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

/* @p dso's symbols: the table @p kt, searched in place (sym_kernel_find()). */
static int take_table(struct sonde_dso *dso, struct sym_ktab *kt)
{
	dso->ktab = kt;
	dso->nr = sym_ktab_nr(kt);
	dso->status = dso->nr ? SONDE_DSO_OK : SONDE_DSO_NO_SYMBOLS;
	return 0;
}

/*
 * The kallsyms text file @p path: its table, or the warning why there is
 * none (an unreadable /proc/kallsyms says nothing: kernel samples simply
 * show by address). A failure leaves @p fail_status.
 */
static int load_text(struct sonde_dso *dso, const char *path, struct sym_ktab *kt,
		     int err, int fail_status)
{
	bool proc = !strcmp(path, "/proc/kallsyms");

	if (err) {
		if (!proc)
			pr_warn("%s: %s: kernel samples are shown by address\n", path,
				strerror(-err));
		dso->status = fail_status;
		return err;
	}
	if (sym_ktab_hidden(kt)) {
		sym_ktab_free(kt);
		if (proc)
			pr_warn("kernel symbols are hidden (/proc/kallsyms shows zero addresses): run as root or set /proc/sys/kernel/kptr_restrict to 0\n");
		else
			pr_warn("%s has no kernel addresses: kernel samples are shown by address\n",
				path);
		dso->status = fail_status == SONDE_DSO_MISSING ? SONDE_DSO_RESTRICTED
							       : fail_status;
		return -EACCES;
	}
	return take_table(dso, kt);
}

/* A kallsyms text file read as it is (no cache). */
static int read_text(struct sonde_dso *dso, const char *path, int fail_status)
{
	struct sym_ktab *kt = NULL;
	int err = sym_ktab_read(path, &kt);

	return load_text(dso, path, kt, err, fail_status);
}

/* The kernel ELF image dso->vmlinux_path, of the recorded build. */
static int load_vmlinux(struct sonde_dso *dso)
{
	const char *path = dso->vmlinux_path;
	uint8_t have[SYM_BUILD_ID_MAX];
	char hw[2 * SYM_BUILD_ID_MAX + 1], hh[2 * SYM_BUILD_ID_MAX + 1];
	struct sym_ktab *kt = NULL;
	size_t hlen;
	int err = sym_ktab_vmlinux(path, dso->want_bid, dso->want_bid_size, dso->ktext,
				   have, &hlen, &kt);

	if (!err) {
		dso->ktab_elf = true;
		dso->symfile = strdup(path); /* NULL without memory: only not said */
		return take_table(dso, kt);
	}
	dso->status = SONDE_DSO_MISSING;
	if (err == -SONDE_ERR_FORMAT) {
		pr_warn("%s is not an ELF file: kernel samples are shown by address\n", path);
		dso->status = SONDE_DSO_BAD_ELF;
	} else if (err == -ESTALE) {
		sym_hex_id(dso->want_bid, dso->want_bid_size, hw);
		sym_hex_id(have, hlen, hh);
		pr_warn("%s is not the recorded kernel (build id %s, recorded %s): "
			"kernel samples are shown by address\n", path, hh, hw);
		dso->status = SONDE_DSO_BUILD_ID_MISMATCH;
	} else if (err == -ENODATA) {
		dso->status = SONDE_DSO_NO_SYMBOLS;
	} else {
		pr_warn("%s: %s: kernel samples are shown by address\n", path, strerror(-err));
	}
	return err;
}

/*
 * The recording ran on another kernel: its kallsyms from the copy perf
 * record keeps in the build-id cache, else none and one warning saying why
 * (@p why).
 */
static int load_recorded_copy(struct sonde_dso *dso, const char *why)
{
	char path[4096];

	if (recorded_kallsyms(dso->buildid_dir, dso->want_bid,
					 dso->want_bid_size, path, sizeof(path))) {
		pr_debug("kernel symbols from the recorded copy %s\n", path);
		return read_text(dso, path, SONDE_DSO_BUILD_ID_MISMATCH);
	}
	pr_warn("kernel samples are shown by address: the file was recorded under "
		"another kernel (%s) and its symbols are not at hand: pass "
		"--kallsyms or --vmlinux, or keep perf's build-id cache (%s)\n",
		why, dso->buildid_dir);
	dso->status = SONDE_DSO_BUILD_ID_MISMATCH;
	return -ESTALE;
}

int sym_kallsyms_load(struct sonde_dso *dso)
{
	bool proc = !strcmp(dso->kallsyms_path, "/proc/kallsyms");
	struct sym_ktab *kt = NULL;
	char why[512];
	int err;

	if (dso->rec_kallsyms_path)
		return read_text(dso, dso->rec_kallsyms_path, SONDE_DSO_MISSING);
	if (dso->vmlinux_path)
		return load_vmlinux(dso);
	if (kernel_other(dso->notes_path, dso->want_bid, dso->want_bid_size,
			     dso->osrelease, why, sizeof(why)))
		return load_recorded_copy(dso, why);
	/* The cache holds this boot's /proc/kallsyms, no other file. */
	err = sym_ktab_this_boot(proc ? dso->kcache_dir : NULL, dso->kallsyms_path, &kt);
	return load_text(dso, dso->kallsyms_path, kt, err, SONDE_DSO_MISSING);
}

static bool kernel_loaded(struct sonde_dso *dso)
{
	return dso->kind == SONDE_DSO_KERNEL && sonde_dso__load(dso) >= 0 && dso->ktab;
}

size_t sym_kernel_nr(struct sonde_dso *dso)
{
	return kernel_loaded(dso) ? dso->nr : 0;
}

size_t sym_kernel_find(struct sonde_dso *dso, uint64_t addr)
{
	return kernel_loaded(dso) ? sym_ktab_find(dso->ktab, addr) : SIZE_MAX;
}

void sym_kernel_get(struct sonde_dso *dso, size_t i, struct sonde_symbol *out)
{
	sym_ktab_get(dso->ktab, i, out);
}

bool sym_kernel_elf_names(struct sonde_dso *dso)
{
	return kernel_loaded(dso) && dso->ktab_elf;
}

int sym_kernel_syms(struct sonde_dso *dso)
{
	struct sonde_symbol *syms;
	int err = 0;

	if (!dso->ktab || atomic_load_explicit(&dso->ksyms_made, memory_order_acquire))
		return 0;
	pthread_mutex_lock(&dso->lock);
	if (!atomic_load_explicit(&dso->ksyms_made, memory_order_relaxed)) {
		syms = malloc((dso->nr ? dso->nr : 1) * sizeof(*syms));
		dso->demangled = calloc(dso->nr ? dso->nr : 1, sizeof(*dso->demangled));
		if (syms && dso->demangled) {
			for (size_t i = 0; i < dso->nr; i++)
				sym_ktab_get(dso->ktab, i, &syms[i]);
			dso->syms = syms;
			atomic_store_explicit(&dso->ksyms_made, true, memory_order_release);
		} else {
			free(syms);
			free(dso->demangled);
			dso->demangled = NULL;
			err = -ENOMEM;
		}
	}
	pthread_mutex_unlock(&dso->lock);
	return err;
}
