// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The kernel symbol cache (kcache.c, sym_ktab.c): key changes, the one
 * table format and its validation (every truncation and single-byte
 * corruption of a valid file), owner / mode / symlink / directory checks,
 * atomic replacement and stale file removal, the default directory, and
 * the report model and the public symbolizer using the one file (hit,
 * corrupt file rebuilt, disabled).
 * Static-only: kcache_*() and sym_ktab_*() are internal, and so is the report
 * model (prof_machine) whose use of the file it checks.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sonde/sonde.h"
#include "core_priv.h"
#include "sym_priv.h"
#include "profile_priv.h"
#include "unit_dirs.h"

/* Paths here are short; truncation checks would only add noise. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

static char tmpdir[PATH_MAX];

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void write_bytes(const char *path, const void *buf, size_t len,
			mode_t mode)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, mode), 0);
}

static bool exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

/* Key sources in tmpdir, so the test can change them. */
static void key_src(struct kcache_src *src, char *b, char *m, char *k)
{
	snprintf(b, PATH_MAX, "%s/boot_id", tmpdir);
	snprintf(m, PATH_MAX, "%s/modules", tmpdir);
	snprintf(k, PATH_MAX, "%s/kptr", tmpdir);
	write_file(b, "0123abcd-0000-1111-2222-333344445555\n");
	write_file(m, "ext4 1000 1 - Live 0x0\n");
	write_file(k, "0\n");
	src->boot_id = b;
	src->modules = m;
	src->kptr_restrict = k;
}

static void test_key(void **state)
{
	char b[PATH_MAX], m[PATH_MAX], k[PATH_MAX];
	char p1[PATH_MAX], p2[PATH_MAX], p3[PATH_MAX], p4[PATH_MAX];
	struct kcache_src src;

	(void)state;
	key_src(&src, b, m, k);
	assert_true(kcache_path("/d", "ksymtab", &src, p1, sizeof(p1)));
	assert_true(kcache_path("/d", "ksymtab", &src, p2, sizeof(p2)));
	assert_string_equal(p1, p2);
	assert_non_null(strstr(p1, "/d/ksymtab-0123abcd-0000-1111-2222-333344445555-"));
	/* A module's use count and users do not move symbols ... */
	write_file(m, "ext4 1000 3 jbd2,mbcache, Live 0x0\n");
	assert_true(kcache_path("/d", "ksymtab", &src, p3, sizeof(p3)));
	assert_string_equal(p1, p3);
	/* ... its address does ... */
	write_file(m, "ext4 1000 1 - Live 0xffffffffc0001000\n");
	assert_true(kcache_path("/d", "ksymtab", &src, p3, sizeof(p3)));
	assert_string_not_equal(p1, p3);
	/* ... and so does a module load ... */
	write_file(m, "ext4 1000 1 - Live 0x0\nfoo 10 0 - Live 0x0\n");
	assert_true(kcache_path("/d", "ksymtab", &src, p3, sizeof(p3)));
	assert_string_not_equal(p1, p3);
	/* ... or a missing /proc/modules. */
	unlink(m);
	assert_true(kcache_path("/d", "ksymtab", &src, p2, sizeof(p2)));
	assert_string_not_equal(p1, p2);
	assert_string_not_equal(p3, p2);
	write_file(m, "ext4 1000 1 - Live 0x0\nfoo 10 0 - Live 0x0\n");
	/* ... so does kptr_restrict ... */
	write_file(k, "1\n");
	assert_true(kcache_path("/d", "ksymtab", &src, p4, sizeof(p4)));
	assert_string_not_equal(p3, p4);
	/* ... and a reboot. */
	write_file(b, "9999abcd-0000-1111-2222-333344445555\n");
	assert_true(kcache_path("/d", "ksymtab", &src, p2, sizeof(p2)));
	assert_string_not_equal(p2, p4);
	/* The tag keeps formats apart. */
	assert_true(kcache_path("/d", "kallsyms", &src, p3, sizeof(p3)));
	assert_non_null(strstr(p3, "/d/kallsyms-9999abcd"));
	/* No boot id, an unsafe one, no dir, too small a buffer: no cache. */
	write_file(b, "../../etc\n");
	assert_false(kcache_path("/d", "ksymtab", &src, p1, sizeof(p1)));
	unlink(b);
	assert_false(kcache_path("/d", "ksymtab", &src, p1, sizeof(p1)));
	key_src(&src, b, m, k);
	assert_false(kcache_path("", "ksymtab", &src, p1, sizeof(p1)));
	assert_false(kcache_path(NULL, "ksymtab", &src, p1, sizeof(p1)));
	assert_false(kcache_path("/d", "ksymtab", &src, p1, 20));
}

static const struct sonde_symbol sample_syms[] = {
	{ 0xffffffff81000000ull, 0x10, "_stext", NULL, SONDE_SYM_GLOBAL, 1 },
	{ 0xffffffff81000010ull, 0xf0, "do_one", NULL, SONDE_SYM_LOCAL, 1 },
	{ 0xffffffff81000100ull, 0xf00, "", NULL, SONDE_SYM_WEAK, 0 },
	{ 0xffffffffc0000000ull, 0x40, "mod_fn", "mod", SONDE_SYM_LOCAL, 1 },
	{ 0xffffffffc0000040ull, 0x40, "mod_fn2", "mod", SONDE_SYM_GLOBAL, 1 },
	{ 0xffffffffc0001000ull, 0x40, "other_fn", "other", SONDE_SYM_GLOBAL, 1 },
};
#define NR_SAMPLE (sizeof(sample_syms) / sizeof(sample_syms[0]))

static void assert_same_sym(const struct sonde_symbol *a, const struct sonde_symbol *b)
{
	assert_int_equal(a->start, b->start);
	assert_int_equal(a->size, b->size);
	assert_string_equal(a->name, b->name);
	if (a->module || b->module) {
		assert_non_null(a->module);
		assert_non_null(b->module);
		assert_string_equal(a->module, b->module);
	}
	assert_int_equal(a->binding, b->binding);
	assert_int_equal(a->size_synth, b->size_synth);
}

static void test_tab_roundtrip(void **state)
{
	struct sym_ktab *kt;
	struct sonde_symbol s;
	size_t len;
	void *buf;

	(void)state;
	assert_int_equal(sym_ktab_encode(sample_syms, NR_SAMPLE, &buf, &len), 0);
	assert_int_equal(sym_ktab_load(buf, len, &kt), 0);
	free(buf);
	assert_int_equal(sym_ktab_nr(kt), NR_SAMPLE);
	for (size_t i = 0; i < NR_SAMPLE; i++) {
		sym_ktab_get(kt, i, &s);
		assert_same_sym(&s, &sample_syms[i]);
		/* Names are the table's, not the encoder's input. */
		assert_ptr_not_equal(s.name, sample_syms[i].name);
		/* Looked up at its first and last byte. */
		assert_int_equal(sym_ktab_find(kt, s.start), i);
		assert_int_equal(sym_ktab_find(kt, s.start + s.size - 1), i);
	}
	/* Below the first and between functions: nothing. */
	assert_int_equal(sym_ktab_find(kt, 0xffffffff80ffffffull), SIZE_MAX);
	assert_int_equal(sym_ktab_find(kt, 0xffffffffc0000080ull), SIZE_MAX);
	sym_ktab_free(kt);
	/* A table made in memory is the same one. */
	assert_int_equal(sym_ktab_new(sample_syms, NR_SAMPLE, &kt), 0);
	sym_ktab_get(kt, 4, &s);
	assert_same_sym(&s, &sample_syms[4]);
	assert_false(sym_ktab_cached(kt));
	sym_ktab_free(kt);
	/* An empty table is well-formed. */
	assert_int_equal(sym_ktab_encode(NULL, 0, &buf, &len), 0);
	assert_int_equal(sym_ktab_load(buf, len, &kt), 0);
	assert_int_equal(sym_ktab_nr(kt), 0);
	assert_int_equal(sym_ktab_find(kt, 1), SIZE_MAX);
	sym_ktab_free(kt);
	free(buf);
}

/* kallsyms text through the table: perf 6.1's aliases and edges. */
static void test_tab_from_text(void **state)
{
	char text[] = "ffffffff81000000 T _text\n"
		      "ffffffff81000000 T startup_64\n"
		      "ffffffff81000100 t local_fn\n"
		      "ffffffff81000200 D some_data\n"
		      "ffffffff81001300 T _etext\n"
		      "ffffffffc0001000 t mod_fn\t[dummy_mod]\n"
		      "ffffffffc0001080 T mod_fn2\t[dummy_mod]\n"
		      "ffffffffc0002000 t other_fn\t[other_mod]\n";
	char hidden[] = "0000000000000000 T _text\n0000000000000000 t foo\n";
	struct sym_ktab *kt;
	struct sonde_symbol s;

	(void)state;
	assert_int_equal(sym_ktab_parse(text, strlen(text), &kt), 0);
	assert_false(sym_ktab_hidden(kt));
	assert_int_equal(sym_ktab_nr(kt), 6);
	/* Of the aliases, the last line (perf sizes only that one). */
	sym_ktab_get(kt, sym_ktab_find(kt, 0xffffffff81000010ull), &s);
	assert_string_equal(s.name, "startup_64");
	assert_null(s.module);
	/* Up to the next function; data lines are not functions. */
	sym_ktab_get(kt, sym_ktab_find(kt, 0xffffffff810012ffull), &s);
	assert_string_equal(s.name, "local_fn");
	assert_int_equal(s.size, 0x1200);
	/* vmlinux's last function ends on the page after its own ... */
	sym_ktab_get(kt, sym_ktab_find(kt, 0xffffffff81002fffull), &s);
	assert_string_equal(s.name, "_etext");
	assert_int_equal(sym_ktab_find(kt, 0xffffffff81003000ull), SIZE_MAX);
	assert_int_equal(sym_ktab_find(kt, 0xffffffffa0000000ull), SIZE_MAX);
	/* ... a module's reaches the next module's first. */
	sym_ktab_get(kt, sym_ktab_find(kt, 0xffffffffc0001fffull), &s);
	assert_string_equal(s.name, "mod_fn2");
	assert_string_equal(s.module, "dummy_mod");
	sym_ktab_get(kt, sym_ktab_find(kt, 0xffffffffc0002000ull), &s);
	assert_string_equal(s.name, "other_fn");
	assert_string_equal(s.module, "other_mod");
	sym_ktab_free(kt);
	/* Every address zero: an empty table that says why. */
	assert_int_equal(sym_ktab_parse(hidden, strlen(hidden), &kt), 0);
	assert_true(sym_ktab_hidden(kt));
	assert_int_equal(sym_ktab_nr(kt), 0);
	sym_ktab_free(kt);
}

/* A vmlinux's table: this ELF program stands in for one. */
static void test_tab_vmlinux(void **state)
{
	char exe[PATH_MAX], notelf[PATH_MAX];
	uint8_t id[20], have[64];
	struct sym_ktab *kt;
	struct sonde_symbol s;
	size_t hlen;
	ssize_t l;
	int n;

	(void)state;
	l = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	assert_true(l > 0);
	exe[l] = 0;
	n = sonde_elf_build_id(exe, id, sizeof(id));
	if (n <= 0) {
		printf("SKIP: %s has no build id\n", exe);
		skip();
	}
	/* The recorded build: its functions, found where they are. */
	assert_int_equal(sym_ktab_vmlinux(exe, id, (size_t)n, 0, have, &hlen, &kt), 0);
	assert_int_equal(hlen, n);
	assert_true(sym_ktab_nr(kt) > 10);
	sym_ktab_get(kt, sym_ktab_nr(kt) / 2, &s);
	assert_int_equal(sym_ktab_find(kt, s.start), sym_ktab_nr(kt) / 2);
	sym_ktab_free(kt);
	/* Another build: refused, saying which one it is. */
	id[0] ^= 1;
	assert_int_equal(sym_ktab_vmlinux(exe, id, (size_t)n, 0, have, &hlen, &kt), -ESTALE);
	id[0] ^= 1;
	assert_int_equal(hlen, n);
	assert_memory_equal(have, id, (size_t)n);
	/* Not ELF, not there. */
	snprintf(notelf, sizeof(notelf), "%s/notelf", tmpdir);
	write_file(notelf, "text\n");
	assert_int_equal(sym_ktab_vmlinux(notelf, NULL, 0, 0, have, &hlen, &kt),
			 -SONDE_ERR_FORMAT);
	assert_int_equal(sym_ktab_vmlinux("/nonexistent/vmlinux", NULL, 0, 0, have, &hlen,
					  &kt), -ENOENT);
}

/* Loads or rejects; what loads must satisfy the table invariants. */
static void decode_checked(const uint8_t *buf, size_t len, int *ok)
{
	struct sym_ktab *kt;
	struct sonde_symbol s, prev = { 0 };
	int err = sym_ktab_load(buf, len, &kt);

	if (err) {
		assert_int_equal(err, -SONDE_ERR_FORMAT);
		assert_int_equal(errno, SONDE_ERR_FORMAT);
		return;
	}
	(*ok)++;
	for (size_t i = 0; i < sym_ktab_nr(kt); i++) {
		sym_ktab_get(kt, i, &s);
		assert_true(s.size > 0);
		assert_true(!i || prev.start < s.start);
		assert_true(s.binding <= SONDE_SYM_WEAK);
		assert_true(strlen(s.name) < len);
		assert_true(!s.module || strlen(s.module) < len);
		prev = s;
	}
	sym_ktab_free(kt);
}

static void test_tab_corrupt(void **state)
{
	uint8_t *buf, *copy;
	size_t len;
	int ok = 0;
	uint64_t v;
	uint32_t v32;

	(void)state;
	assert_int_equal(sym_ktab_encode(sample_syms, NR_SAMPLE, (void **)&buf, &len), 0);
	copy = malloc(len);
	assert_non_null(copy);
	/* Every truncation (and one byte too many) is rejected. */
	for (size_t n = 0; n < len; n++) {
		memcpy(copy, buf, n);
		ok = 0;
		decode_checked(copy, n, &ok);
		assert_int_equal(ok, 0);
	}
	{
		uint8_t *big = calloc(1, len + 1);

		memcpy(big, buf, len);
		ok = 0;
		decode_checked(big, len + 1, &ok);
		assert_int_equal(ok, 0);
		free(big);
	}
	/* Every single-byte corruption: rejected or still a valid table. */
	for (size_t i = 0; i < len; i++) {
		static const uint8_t vals[] = { 0x00, 0xff, 0x80, 0x01 };

		for (size_t k = 0; k < sizeof(vals); k++) {
			memcpy(copy, buf, len);
			copy[i] ^= vals[k] ? vals[k] : copy[i];
			decode_checked(copy, len, &ok);
		}
	}
	/*
	 * Specific lies: wrong magic, huge nr, bad name and module offsets,
	 * unsorted, an empty range, an unknown binding, unterminated names.
	 */
	ok = 0;
	memcpy(copy, buf, len);
	copy[0] = 'X';
	decode_checked(copy, len, &ok);
	memcpy(copy, buf, len);
	v = UINT64_MAX / 8;
	memcpy(copy + 8, &v, 8);
	decode_checked(copy, len, &ok);
	memcpy(copy, buf, len);
	v32 = 1u << 20;
	memcpy(copy + 24 + 16, &v32, 4);
	decode_checked(copy, len, &ok);
	memcpy(copy, buf, len);
	memcpy(copy + 24 + 3 * 32 + 20, &v32, 4);
	decode_checked(copy, len, &ok);
	memcpy(copy, buf, len);
	memcpy(copy + 24 + 32, copy + 24, 8); /* second start = first */
	decode_checked(copy, len, &ok);
	memcpy(copy, buf, len);
	memset(copy + 24 + 8, 0, 8); /* first size 0 */
	decode_checked(copy, len, &ok);
	memcpy(copy, buf, len);
	copy[24 + 24] = 3;
	decode_checked(copy, len, &ok);
	memcpy(copy, buf, len);
	copy[len - 1] = 'x'; /* names no longer NUL-terminated */
	decode_checked(copy, len, &ok);
	assert_int_equal(ok, 0);
	free(copy);
	free(buf);
}

/* @p path's bytes, mapped with kcache_map()'s checks, as a string. */
static int map_text(const char *path, char *out, size_t size, size_t max)
{
	const void *map;
	size_t len;
	int err = kcache_map(path, max, &map, &len);

	if (err)
		return err;
	assert_true(len < size);
	memcpy(out, map, len);
	out[len] = 0;
	kcache_unmap(map, len);
	return 0;
}

static void test_write_read(void **state)
{
	char dir[PATH_MAX], path[PATH_MAX], other[PATH_MAX], old[PATH_MAX];
	char tmp[PATH_MAX + 16], text[16];
	struct stat st;
	const void *map;
	size_t len = 0;

	(void)state;
	/* Missing parents are made too, each 0700. */
	snprintf(dir, sizeof(dir), "%s/wr/a/sonde", tmpdir);
	snprintf(path, sizeof(path), "%s/ksymtab-b1-00-%u", dir, geteuid());
	assert_int_equal(kcache_write(dir, path, "hello", 5), 0);
	assert_int_equal(stat(dir, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(map_text(path, text, sizeof(text), 1 << 20), 0);
	assert_string_equal(text, "hello");
	/* Replaced whole; too big for the caller's limit is refused. */
	assert_int_equal(kcache_write(dir, path, "bye", 3), 0);
	assert_int_equal(map_text(path, text, sizeof(text), 1 << 20), 0);
	assert_string_equal(text, "bye");
	assert_int_equal(map_text(path, text, sizeof(text), 3), -EFBIG);
	/* A new key removes the older files of its tag and user only. */
	snprintf(other, sizeof(other), "%s/dwarf-b1-00-%u", dir, geteuid());
	assert_int_equal(kcache_write(dir, other, "t", 1), 0);
	snprintf(old, sizeof(old), "%s/kallsyms-b1-00-%u", dir, geteuid());
	assert_int_equal(kcache_write(dir, old, "t", 1), 0);
	snprintf(tmp, sizeof(tmp), "%s/ksymtab-b2-00-%u", dir, geteuid());
	assert_int_equal(kcache_write(dir, tmp, "new", 3), 0);
	assert_false(exists(path));
	assert_true(exists(tmp));
	assert_true(exists(other));
	/* ... and a retired tag's, when asked to. */
	assert_true(exists(old));
	kcache_remove_stale(dir, tmp, "kallsyms");
	assert_false(exists(old));
	assert_true(exists(tmp));
	/* Mapped: same bytes. */
	assert_int_equal(kcache_map(tmp, 1 << 20, &map, &len), 0);
	assert_int_equal(len, 3);
	assert_memory_equal(map, "new", 3);
	kcache_unmap(map, len);
	assert_int_equal(kcache_map(tmp, 3, &map, &len), -EFBIG);
	/* Group- or other-readable files are not trusted. */
	assert_int_equal(chmod(tmp, 0644), 0);
	assert_int_equal(kcache_map(tmp, 1 << 20, &map, &len), -EPERM);
	assert_int_equal(chmod(tmp, 0640), 0);
	assert_int_equal(kcache_map(tmp, 1 << 20, &map, &len), -EPERM);
	assert_int_equal(chmod(tmp, 0600), 0);
	/* Nor symbolic links, nor directories, nor empty files. */
	snprintf(path, sizeof(path), "%s/link", dir);
	assert_int_equal(symlink(tmp, path), 0);
	assert_int_equal(kcache_map(path, 1 << 20, &map, &len), -ELOOP);
	assert_int_equal(kcache_map(dir, 1 << 20, &map, &len), -EPERM);
	snprintf(path, sizeof(path), "%s/empty", dir);
	write_bytes(path, "", 0, 0600);
	assert_int_equal(kcache_map(path, 1 << 20, &map, &len), -ENODATA);
	assert_int_equal(kcache_map("/nonexistent/x", 1 << 20, &map, &len), -ENOENT);
	/* A directory others may write to is refused for writing. */
	assert_int_equal(chmod(dir, 0777), 0);
	assert_int_equal(kcache_write(dir, tmp, "x", 1), -EPERM);
	assert_int_equal(chmod(dir, 0700), 0);
}

static void test_wrong_owner(void **state)
{
	char path[PATH_MAX], text[16];
	const void *map;
	size_t len;

	(void)state;
	if (geteuid()) {
		printf("SKIP: changing a file's owner needs root\n");
		skip();
	}
	snprintf(path, sizeof(path), "%s/owned", tmpdir);
	write_bytes(path, "abc", 3, 0600);
	assert_int_equal(map_text(path, text, sizeof(text), 1 << 20), 0);
	assert_int_equal(chown(path, 65534, 65534), 0);
	assert_int_equal(kcache_map(path, 1 << 20, &map, &len), -EPERM);
}

static void test_default_dir(void **state)
{
	char *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
	char sx[PATH_MAX] = "", sh[PATH_MAX] = "", out[PATH_MAX];

	(void)state;
	if (x)
		snprintf(sx, sizeof(sx), "%s", x);
	if (h)
		snprintf(sh, sizeof(sh), "%s", h);
	setenv("XDG_CACHE_HOME", "/xdg", 1);
	setenv("HOME", "/home/u", 1);
	assert_true(kcache_default_dir(out, sizeof(out)));
	assert_string_equal(out, "/xdg/sonde");
	setenv("XDG_CACHE_HOME", "relative", 1);
	assert_true(kcache_default_dir(out, sizeof(out)));
	assert_string_equal(out, "/home/u/.cache/sonde");
	unsetenv("XDG_CACHE_HOME");
	assert_true(kcache_default_dir(out, sizeof(out)));
	assert_string_equal(out, "/home/u/.cache/sonde");
	unsetenv("HOME");
	assert_false(kcache_default_dir(out, sizeof(out)));
	if (sx[0])
		setenv("XDG_CACHE_HOME", sx, 1);
	if (sh[0])
		setenv("HOME", sh, 1);
}

/* The report model: -1 when kallsyms cannot be used here (skip). */
static int kernel_lookup(const char *dir, uint64_t addr, const char **name)
{
	struct prof_machine *m = prof_machine_new();
	const struct prof_sym *s;
	struct prof_dso *k;

	assert_non_null(m);
	assert_int_equal(prof_machine_set_cache(m, dir), 0);
	k = prof_kernel_dso(m);
	s = prof_dso_find_sym(m, k, addr);
	*name = s ? strdup(s->name) : NULL;
	if (!k->has_syms) {
		prof_machine_free(m);
		return -1;
	}
	prof_machine_free(m);
	return 0;
}

/* A function address from /proc/kallsyms, 0 if it shows none. */
static uint64_t some_kernel_text(void)
{
	unsigned long long a = 0;
	char line[512], t;
	FILE *f = fopen("/proc/kallsyms", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c", &a, &t) == 2 && a &&
		    (t == 'T' || t == 't'))
			break;
	if (f)
		fclose(f);
	return a;
}

/* A kernel function's address, where the cache has a boot id to key on. */
static uint64_t cacheable_kernel_text(void)
{
	uint64_t addr = some_kernel_text();

	if (!addr || access("/proc/sys/kernel/random/boot_id", R_OK)) {
		printf("SKIP: /proc/kallsyms shows no addresses or no boot id\n");
		skip();
	}
	return addr;
}

static bool find_cache_file(const char *dir, char *out, size_t size)
{
	char cmd[PATH_MAX + 64];
	FILE *f;
	bool ok;

	snprintf(cmd, sizeof(cmd), "ls %s/ksymtab-* 2>/dev/null", dir);
	f = popen(cmd, "r");
	assert_non_null(f);
	ok = fgets(out, (int)size, f) != NULL;
	pclose(f);
	out[strcspn(out, "\n")] = 0;
	return ok;
}

static void test_report_model(void **state)
{
	char dir[PATH_MAX], file[PATH_MAX], file2[PATH_MAX];
	uint64_t addr = cacheable_kernel_text();
	const char *n0, *n1, *n2, *n3;
	struct sonde_symbol mark = { .size = 1, .name = "sonde_cache_mark" };
	struct stat st;
	size_t len;
	void *buf;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/model", tmpdir);
	/* Disabled: no file appears. */
	if (kernel_lookup(NULL, addr, &n0)) {
		printf("SKIP: kernel symbols are hidden here\n");
		skip();
	}
	assert_false(exists(dir));
	/* Miss: read from /proc, same answer, file written 0600. */
	assert_int_equal(kernel_lookup(dir, addr, &n1), 0);
	assert_non_null(n0);
	assert_string_equal(n0, n1);
	assert_true(find_cache_file(dir, file, sizeof(file)));
	assert_int_equal(stat(file, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	/* Hit: a planted table is what the lookup sees. */
	mark.start = addr;
	assert_int_equal(sym_ktab_encode(&mark, 1, &buf, &len), 0);
	write_bytes(file, buf, len, 0600);
	free(buf);
	assert_int_equal(kernel_lookup(dir, addr, &n2), 0);
	assert_string_equal(n2, "sonde_cache_mark");
	/* A readable-by-others copy is ignored (and replaced). */
	assert_int_equal(chmod(file, 0644), 0);
	assert_int_equal(kernel_lookup(dir, addr, &n3), 0);
	assert_string_equal(n3, n0);
	free((void *)n3);
	/* Corrupt: rejected, answered from /proc, rebuilt valid. */
	write_bytes(file, "SONDEKT2garbage", 15, 0600);
	assert_int_equal(kernel_lookup(dir, addr, &n3), 0);
	assert_string_equal(n3, n0);
	assert_true(find_cache_file(dir, file2, sizeof(file2)));
	assert_string_equal(file, file2);
	assert_int_equal(stat(file, &st), 0);
	assert_true(st.st_size > 1000);
	assert_int_equal(st.st_mode & 0777, 0600);
	free((void *)n0);
	free((void *)n1);
	free((void *)n2);
	free((void *)n3);
}

/* The kernel table through the cache is /proc's, entry for entry. */
static void test_same_table(void **state)
{
	struct prof_machine *m[3];
	struct prof_dso *k[3];
	char dir[PATH_MAX], file[PATH_MAX];
	struct sonde_symbol a, b;

	(void)state;
	(void)cacheable_kernel_text();
	snprintf(dir, sizeof(dir), "%s/same", tmpdir);
	/* No cache, then a miss (written), then a hit (mapped). */
	for (int i = 0; i < 3; i++) {
		m[i] = prof_machine_new();
		assert_non_null(m[i]);
		assert_int_equal(prof_machine_set_cache(m[i], i ? dir : NULL), 0);
		k[i] = prof_kernel_dso(m[i]);
		(void)prof_dso_find_sym(m[i], k[i], some_kernel_text());
		if (i == 1)
			assert_true(find_cache_file(dir, file, sizeof(file)));
	}
	assert_true(k[0]->has_syms);
	assert_false(sym_ktab_cached(k[1]->sdso->ktab));
	assert_true(sym_ktab_cached(k[2]->sdso->ktab));
	for (int i = 1; i < 3; i++) {
		assert_int_equal(sym_ktab_nr(k[i]->sdso->ktab), sym_ktab_nr(k[0]->sdso->ktab));
		for (size_t j = 0; j < sym_ktab_nr(k[0]->sdso->ktab); j++) {
			sym_ktab_get(k[0]->sdso->ktab, j, &a);
			sym_ktab_get(k[i]->sdso->ktab, j, &b);
			assert_same_sym(&a, &b);
		}
	}
	/* The report's lookups answer from that table. */
	for (size_t j = 0; j < sym_ktab_nr(k[0]->sdso->ktab); j += 97) {
		const struct prof_sym *s;

		sym_ktab_get(k[0]->sdso->ktab, j, &a);
		s = prof_dso_find_sym(m[2], k[2], a.start + a.size - 1);
		assert_non_null(s);
		assert_string_equal(s->name, a.name);
		assert_int_equal(s->start, a.start);
		assert_int_equal(s->end, a.start + a.size);
	}
	for (int i = 0; i < 3; i++)
		prof_machine_free(m[i]);
}

/* The public symbolizer's kernel object and the report read one file. */
static void test_one_file(void **state)
{
	char dir[PATH_MAX], file[PATH_MAX];
	struct sonde_symbol mark = { .size = 0x1000, .name = "sonde_one_mark" };
	const struct sonde_symbol *s;
	struct sonde_symcache *c;
	struct prof_machine *m;
	struct sonde_dso *d;
	uint64_t addr = cacheable_kernel_text();
	const char *name;
	size_t len;
	void *buf;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/one", tmpdir);
	SONDE_OPTS(sonde_symcache_opts, o, .kallsyms_cache_dir = dir);
	/* The symbolizer writes the file ... */
	c = sonde_symcache__new(&o);
	d = sonde_symcache__kernel(c);
	assert_true(sonde_dso__load(d) > 1000);
	s = sonde_dso__find(d, addr, NULL);
	assert_non_null(s);
	assert_true(find_cache_file(dir, file, sizeof(file)));
	/* ... the report maps it, and both name the address alike. */
	m = prof_machine_new();
	assert_int_equal(prof_machine_set_cache(m, dir), 0);
	assert_string_equal(prof_dso_find_sym(m, prof_kernel_dso(m), addr)->name, s->name);
	assert_true(sym_ktab_cached(prof_kernel_dso(m)->sdso->ktab));
	prof_machine_free(m);
	sonde_dso__put(d);
	sonde_symcache__free(c);
	/* A table planted in that file is what both see. */
	mark.start = addr;
	assert_int_equal(sym_ktab_encode(&mark, 1, &buf, &len), 0);
	write_bytes(file, buf, len, 0600);
	free(buf);
	c = sonde_symcache__new(&o);
	d = sonde_symcache__kernel(c);
	assert_int_equal(sonde_dso__load(d), 1);
	assert_string_equal(sonde_dso__find(d, addr + 1, NULL)->name, "sonde_one_mark");
	assert_int_equal(kernel_lookup(dir, addr + 1, &name), 0);
	assert_string_equal(name, "sonde_one_mark");
	free((void *)name);
	sonde_dso__put(d);
	sonde_symcache__free(c);
}

static void test_env_off(void **state)
{
	char dir[PATH_MAX];
	struct prof_machine *m;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/envx", tmpdir);
	setenv("XDG_CACHE_HOME", dir, 1);
	setenv("SONDE_NO_KALLSYMS_CACHE", "1", 1);
	m = prof_machine_new();
	assert_int_equal(prof_machine_default_cache(m), 0);
	(void)prof_dso_find_sym(m, prof_kernel_dso(m), some_kernel_text());
	prof_machine_free(m);
	assert_false(exists(dir));
	/* "0" means not disabled. */
	setenv("SONDE_NO_KALLSYMS_CACHE", "0", 1);
	m = prof_machine_new();
	assert_int_equal(prof_machine_default_cache(m), 0);
	(void)prof_dso_find_sym(m, prof_kernel_dso(m), some_kernel_text());
	if (!prof_kernel_dso(m)->has_syms) {
		prof_machine_free(m);
		printf("SKIP: kernel symbols are hidden here\n");
		skip();
	}
	prof_machine_free(m);
	strcat(dir, "/sonde");
	assert_true(exists(dir));
	unsetenv("SONDE_NO_KALLSYMS_CACHE");
}

static int setup(void **state)
{
	(void)state;
	scratch_dir_make(tmpdir, sizeof(tmpdir), "kcache");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return scratch_dir_remove(tmpdir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_key),
		cmocka_unit_test(test_tab_roundtrip),
		cmocka_unit_test(test_tab_from_text),
		cmocka_unit_test(test_tab_vmlinux),
		cmocka_unit_test(test_tab_corrupt),
		cmocka_unit_test(test_write_read),
		cmocka_unit_test(test_wrong_owner),
		cmocka_unit_test(test_default_dir),
		cmocka_unit_test(test_report_model),
		cmocka_unit_test(test_same_table),
		cmocka_unit_test(test_one_file),
		cmocka_unit_test(test_env_off),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
