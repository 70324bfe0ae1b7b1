// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The kallsyms cache (kcache.c): key changes, the table format and its
 * validation (every truncation and single-byte corruption of a valid file),
 * owner / mode / symlink / directory checks, atomic replacement and stale
 * file removal, the default directory, and the report model using it (hit,
 * corrupt file rebuilt, disabled).
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
#include "kcache.h"
#include "anl.h"

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

static const struct kcache_sym sample_syms[] = {
	{ 0xffffffff81000000ull, 0xffffffff81000010ull, "_stext" },
	{ 0xffffffff81000010ull, 0xffffffff81000100ull, "do_one" },
	{ 0xffffffff81000100ull, 0xffffffff81001000ull, "" },
	{ 0xffffffffc0000000ull, 0xffffffffc0000040ull, "mod_fn" },
};
#define NR_SAMPLE (sizeof(sample_syms) / sizeof(sample_syms[0]))

static void test_tab_roundtrip(void **state)
{
	struct kcache_sym *out = NULL;
	size_t len, nr = 0;
	void *buf;

	(void)state;
	assert_int_equal(kcache_tab_encode(sample_syms, NR_SAMPLE, &buf, &len), 0);
	assert_int_equal(kcache_tab_decode(buf, len, &out, &nr), 0);
	assert_int_equal(nr, NR_SAMPLE);
	for (size_t i = 0; i < nr; i++) {
		assert_int_equal(out[i].start, sample_syms[i].start);
		assert_int_equal(out[i].end, sample_syms[i].end);
		assert_string_equal(out[i].name, sample_syms[i].name);
		/* Names point into the buffer, not copies. */
		assert_true(out[i].name > (char *)buf &&
			    out[i].name < (char *)buf + len);
	}
	free(out);
	free(buf);
	/* An empty table is well-formed. */
	assert_int_equal(kcache_tab_encode(NULL, 0, &buf, &len), 0);
	assert_int_equal(kcache_tab_decode(buf, len, &out, &nr), 0);
	assert_int_equal(nr, 0);
	free(out);
	free(buf);
}

/* Decodes or rejects; what decodes must satisfy the table invariants. */
static void decode_checked(const uint8_t *buf, size_t len, int *ok)
{
	struct kcache_sym *out = NULL;
	size_t nr = 0;
	int err = kcache_tab_decode(buf, len, &out, &nr);

	if (err) {
		assert_int_equal(err, -SONDE_ERR_FORMAT);
		assert_int_equal(errno, SONDE_ERR_FORMAT);
		return;
	}
	(*ok)++;
	for (size_t i = 0; i < nr; i++) {
		assert_true(out[i].start < out[i].end);
		assert_true(!i || out[i - 1].start < out[i].start);
		assert_true(out[i].name >= (const char *)buf &&
			    out[i].name + strlen(out[i].name) <
				    (const char *)buf + len);
	}
	free(out);
}

static void test_tab_corrupt(void **state)
{
	uint8_t *buf, *copy;
	size_t len;
	int ok = 0;
	uint64_t v;

	(void)state;
	assert_int_equal(kcache_tab_encode(sample_syms, NR_SAMPLE,
					   (void **)&buf, &len), 0);
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
	/* Specific lies: wrong magic, huge nr, bad name offset, unsorted. */
	memcpy(copy, buf, len);
	copy[0] = 'X';
	ok = 0;
	decode_checked(copy, len, &ok);
	memcpy(copy, buf, len);
	v = UINT64_MAX / 8;
	memcpy(copy + 8, &v, 8);
	decode_checked(copy, len, &ok);
	memcpy(copy, buf, len);
	v = 1u << 20;
	memcpy(copy + 24 + 16, &v, 8);
	decode_checked(copy, len, &ok);
	memcpy(copy, buf, len);
	memcpy(copy + 24 + 24, copy + 24, 8); /* second start = first */
	decode_checked(copy, len, &ok);
	memcpy(copy, buf, len);
	copy[len - 1] = 'x'; /* names no longer NUL-terminated */
	decode_checked(copy, len, &ok);
	assert_int_equal(ok, 0);
	free(copy);
	free(buf);
}

static void test_write_read(void **state)
{
	char dir[PATH_MAX], path[PATH_MAX], other[PATH_MAX], tmp[PATH_MAX + 16];
	struct stat st;
	const void *map;
	char *buf = NULL;
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
	assert_int_equal(kcache_read(path, &buf, &len, 1 << 20), 0);
	assert_int_equal(len, 5);
	assert_string_equal(buf, "hello");
	free(buf);
	/* Replaced whole; too big for the caller's limit is refused. */
	assert_int_equal(kcache_write(dir, path, "bye", 3), 0);
	assert_int_equal(kcache_read(path, &buf, &len, 1 << 20), 0);
	assert_string_equal(buf, "bye");
	free(buf);
	assert_int_equal(kcache_read(path, &buf, &len, 3), -EFBIG);
	/* A new key removes the older files of its tag and user only. */
	snprintf(other, sizeof(other), "%s/kallsyms-b1-00-%u", dir, geteuid());
	assert_int_equal(kcache_write(dir, other, "t", 1), 0);
	snprintf(tmp, sizeof(tmp), "%s/ksymtab-b2-00-%u", dir, geteuid());
	assert_int_equal(kcache_write(dir, tmp, "new", 3), 0);
	assert_false(exists(path));
	assert_true(exists(tmp));
	assert_true(exists(other));
	/* Mapped: same bytes, same checks. */
	assert_int_equal(kcache_map(tmp, 1 << 20, &map, &len), 0);
	assert_int_equal(len, 3);
	assert_memory_equal(map, "new", 3);
	kcache_unmap(map, len);
	assert_int_equal(kcache_map(tmp, 3, &map, &len), -EFBIG);
	/* Group- or other-readable files are not trusted. */
	assert_int_equal(chmod(tmp, 0644), 0);
	assert_int_equal(kcache_read(tmp, &buf, &len, 1 << 20), -EPERM);
	assert_int_equal(kcache_map(tmp, 1 << 20, &map, &len), -EPERM);
	assert_int_equal(chmod(tmp, 0640), 0);
	assert_int_equal(kcache_map(tmp, 1 << 20, &map, &len), -EPERM);
	assert_int_equal(chmod(tmp, 0600), 0);
	/* Nor symbolic links, nor directories, nor empty files. */
	snprintf(path, sizeof(path), "%s/link", dir);
	assert_int_equal(symlink(tmp, path), 0);
	assert_int_equal(kcache_read(path, &buf, &len, 1 << 20), -ELOOP);
	assert_int_equal(kcache_map(path, 1 << 20, &map, &len), -ELOOP);
	assert_int_equal(kcache_read(dir, &buf, &len, 1 << 20), -EPERM);
	assert_int_equal(kcache_map(dir, 1 << 20, &map, &len), -EPERM);
	snprintf(path, sizeof(path), "%s/empty", dir);
	write_bytes(path, "", 0, 0600);
	assert_int_equal(kcache_map(path, 1 << 20, &map, &len), -ENODATA);
	assert_int_equal(kcache_read("/nonexistent/x", &buf, &len, 1 << 20),
			 -ENOENT);
	/* A directory others may write to is refused for writing. */
	assert_int_equal(chmod(dir, 0777), 0);
	assert_int_equal(kcache_write(dir, tmp, "x", 1), -EPERM);
	assert_int_equal(chmod(dir, 0700), 0);
}

static void test_wrong_owner(void **state)
{
	char path[PATH_MAX];
	const void *map;
	char *buf = NULL;
	size_t len;

	(void)state;
	if (geteuid()) {
		printf("SKIP: changing a file's owner needs root\n");
		skip();
	}
	snprintf(path, sizeof(path), "%s/owned", tmpdir);
	write_bytes(path, "abc", 3, 0600);
	assert_int_equal(kcache_read(path, &buf, &len, 1 << 20), 0);
	free(buf);
	assert_int_equal(chown(path, 65534, 65534), 0);
	assert_int_equal(kcache_read(path, &buf, &len, 1 << 20), -EPERM);
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
	struct anl_machine *m = anl_machine_new();
	const struct anl_sym *s;
	struct anl_dso *k;

	assert_non_null(m);
	assert_int_equal(anl_machine_set_cache(m, dir), 0);
	k = anl_kernel_dso(m);
	s = anl_dso_find_sym(m, k, addr);
	*name = s ? strdup(s->name) : NULL;
	if (!k->has_syms) {
		anl_machine_free(m);
		return -1;
	}
	anl_machine_free(m);
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
	uint64_t addr = some_kernel_text();
	const char *n0, *n1, *n2, *n3;
	struct kcache_sym mark = { 0, 0, "sonde_cache_mark" };
	struct stat st;
	size_t len;
	void *buf;

	(void)state;
	if (!addr || access("/proc/sys/kernel/random/boot_id", R_OK)) {
		printf("SKIP: /proc/kallsyms shows no addresses or no boot id\n");
		skip();
	}
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
	mark.end = addr + 1;
	assert_int_equal(kcache_tab_encode(&mark, 1, &buf, &len), 0);
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
	write_bytes(file, "SONDEKT1garbage", 15, 0600);
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
	struct anl_machine *m[3];
	struct anl_dso *k[3];
	char dir[PATH_MAX], file[PATH_MAX];

	(void)state;
	if (!some_kernel_text() ||
	    access("/proc/sys/kernel/random/boot_id", R_OK)) {
		printf("SKIP: /proc/kallsyms shows no addresses or no boot id\n");
		skip();
	}
	snprintf(dir, sizeof(dir), "%s/same", tmpdir);
	/* No cache, then a miss (written), then a hit (mapped). */
	for (int i = 0; i < 3; i++) {
		m[i] = anl_machine_new();
		assert_non_null(m[i]);
		assert_int_equal(anl_machine_set_cache(m[i], i ? dir : NULL), 0);
		k[i] = anl_kernel_dso(m[i]);
		(void)anl_dso_find_sym(m[i], k[i], some_kernel_text());
		if (i == 1)
			assert_true(find_cache_file(dir, file, sizeof(file)));
	}
	assert_true(k[0]->has_syms);
	assert_null(k[1]->names_map);
	assert_non_null(k[2]->names_map);
	for (int i = 1; i < 3; i++) {
		assert_int_equal(k[i]->nr_syms, k[0]->nr_syms);
		for (size_t j = 0; j < k[0]->nr_syms; j++) {
			assert_int_equal(k[i]->syms[j].start, k[0]->syms[j].start);
			assert_int_equal(k[i]->syms[j].end, k[0]->syms[j].end);
			assert_string_equal(k[i]->syms[j].name, k[0]->syms[j].name);
		}
	}
	for (int i = 0; i < 3; i++)
		anl_machine_free(m[i]);
}

static void test_env_off(void **state)
{
	char dir[PATH_MAX];
	struct anl_machine *m;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/envx", tmpdir);
	setenv("XDG_CACHE_HOME", dir, 1);
	setenv("SONDE_NO_KALLSYMS_CACHE", "1", 1);
	m = anl_machine_new();
	assert_int_equal(anl_machine_default_cache(m), 0);
	(void)anl_dso_find_sym(m, anl_kernel_dso(m), some_kernel_text());
	anl_machine_free(m);
	assert_false(exists(dir));
	/* "0" means not disabled. */
	setenv("SONDE_NO_KALLSYMS_CACHE", "0", 1);
	m = anl_machine_new();
	assert_int_equal(anl_machine_default_cache(m), 0);
	(void)anl_dso_find_sym(m, anl_kernel_dso(m), some_kernel_text());
	if (!anl_kernel_dso(m)->has_syms) {
		anl_machine_free(m);
		printf("SKIP: kernel symbols are hidden here\n");
		skip();
	}
	anl_machine_free(m);
	strcat(dir, "/sonde");
	assert_true(exists(dir));
	unsetenv("SONDE_NO_KALLSYMS_CACHE");
}

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/sonde-kcache-XXXXXX");
	assert_non_null(mkdtemp(tmpdir));
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_key),
		cmocka_unit_test(test_tab_roundtrip),
		cmocka_unit_test(test_tab_corrupt),
		cmocka_unit_test(test_write_read),
		cmocka_unit_test(test_wrong_owner),
		cmocka_unit_test(test_default_dir),
		cmocka_unit_test(test_report_model),
		cmocka_unit_test(test_same_table),
		cmocka_unit_test(test_env_off),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
