// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The build-id cache writer (sonde_buildid_cache_add*()): perf record's
 * layout, refusals (another build, not ELF, paths that leave the
 * directory, a hidden kallsyms), entries kept once there, and what it
 * writes read back by the symbolizer, the cache's reader.
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
#include "unit_dirs.h"

/* Paths here are short; truncation checks would only add noise. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

static char helpers[PATH_MAX];
static char tmpdir[PATH_MAX];

static int silent(enum sonde_print_level l, const char *f, va_list ap)
{
	(void)l; (void)f; (void)ap;
	return 0;
}

static void hex_of(const uint8_t *id, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
	out[2 * n] = 0;
}

static void write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* Whether files @p a and @p b hold the same bytes. */
static bool same_bytes(const char *a, const char *b)
{
	FILE *fa = fopen(a, "r"), *fb = fopen(b, "r");
	bool same = fa && fb;
	int ca, cb;

	while (same) {
		ca = getc(fa);
		cb = getc(fb);
		same = ca == cb;
		if (ca == EOF)
			break;
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

/* The .build-id link of @p hex in @p dir points at @p target. */
static void assert_link(const char *dir, const char *hex, const char *target)
{
	char path[PATH_MAX], got[PATH_MAX];
	ssize_t n;

	snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s", dir, hex, hex + 2);
	n = readlink(path, got, sizeof(got) - 1);
	assert_true(n > 0);
	got[n] = 0;
	assert_string_equal(got, target);
}

static bool exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

/*
 * An ELF file with a 20-byte build id into @p out: the symtest helper,
 * else this test's own executable (helpers are not built everywhere).
 */
static bool pick_elf(char *out, size_t size)
{
	uint8_t id[20];
	ssize_t n;

	snprintf(out, size, "%s/symtest", helpers);
	if (!access(out, R_OK))
		return true;
	n = readlink("/proc/self/exe", out, size - 1);
	if (n <= 0)
		return false;
	out[n] = 0;
	if (sonde_elf_build_id(out, id, sizeof(id)) == 20)
		return true;
	printf("SKIP: neither symtest (make helpers) nor %s has a build id\n", out);
	return false;
}

/* An object: its copy under its path and id, found again by the reader. */
static void test_add_object(void **state)
{
	char bin[PATH_MAX], dir[PATH_MAX], hex[41], obj[2 * PATH_MAX];
	char target[2 * PATH_MAX];
	const struct sonde_symbol *all;
	struct sonde_symcache *c;
	struct sonde_dso *d;
	uint8_t bid[20], wrong[20];
	struct stat st;
	int n;

	(void)state;
	if (!pick_elf(bin, sizeof(bin)))
		skip();
	n = sonde_elf_build_id(bin, bid, sizeof(bid));
	assert_int_equal(n, 20);
	hex_of(bid, 20, hex);
	snprintf(dir, sizeof(dir), "%s/obj", tmpdir);
	SONDE_OPTS(sonde_buildid_cache_opts, o, .dir = dir);

	/* Another build than the recording's: nothing written. */
	memcpy(wrong, bid, sizeof(wrong));
	wrong[0] ^= 1;
	assert_int_equal(sonde_buildid_cache_add(bin, wrong, 20, &o), -ESTALE);
	assert_false(exists(dir));

	/* The recorded id: perf's layout. */
	assert_int_equal(sonde_buildid_cache_add(bin, bid, 20, &o), 0);
	snprintf(obj, sizeof(obj), "%s%s/%s/elf", dir, bin, hex);
	assert_int_equal(stat(obj, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_true(same_bytes(obj, bin));
	snprintf(target, sizeof(target), "../..%s/%s", bin, hex);
	assert_link(dir, hex, target);

	/* Again (the file's own id): the entry is kept. */
	assert_int_equal(sonde_buildid_cache_add(bin, NULL, 0, &o), 0);
	assert_true(same_bytes(obj, bin));

	/* The reader: the file "gone", its recorded build from the cache. */
	SONDE_OPTS(sonde_symcache_opts, so, .buildid_dir = dir,
		   .debug_dir = "/nonexistent");
	c = sonde_symcache__new(&so);
	assert_non_null(c);
	d = sonde_symcache__dso(c, "/nonexistent/object", bid, 20);
	assert_true(sonde_dso__load(d) > 5);
	assert_non_null(strstr(sonde_dso__symfile(d), dir));
	assert_true(sonde_dso__symbols(d, &all) > 5);
	sonde_dso__put(d);
	sonde_symcache__free(c);
}

/* Across file systems there is no hard link: a copy, with the mode. */
static void test_add_copy(void **state)
{
	char bin[PATH_MAX], dir[PATH_MAX], hex[41], obj[2 * PATH_MAX];
	struct stat sb, sd, so;
	uint8_t bid[20];

	(void)state;
	if (!pick_elf(bin, sizeof(bin)))
		skip();
	snprintf(dir, sizeof(dir), "/dev/shm/sonde-bidcache-%d", (int)getpid());
	if (stat(bin, &sb) || stat("/dev/shm", &sd) || sb.st_dev == sd.st_dev) {
		printf("SKIP: no other file system than %s's at /dev/shm\n", bin);
		skip();
	}
	assert_int_equal(sonde_elf_build_id(bin, bid, sizeof(bid)), 20);
	hex_of(bid, 20, hex);
	SONDE_OPTS(sonde_buildid_cache_opts, o, .dir = dir);
	assert_int_equal(sonde_buildid_cache_add(bin, NULL, 0, &o), 0);
	snprintf(obj, sizeof(obj), "%s%s/%s/elf", dir, bin, hex);
	assert_int_equal(stat(obj, &so), 0);
	assert_true(so.st_ino != sb.st_ino || so.st_dev != sb.st_dev);
	assert_int_equal(so.st_mode & 0777, sb.st_mode & 0777);
	assert_true(same_bytes(obj, bin));
	assert_int_equal(scratch_dir_remove(dir), 0);
}

/* What may not become an entry. */
static void test_add_refused(void **state)
{
	char dir[PATH_MAX], txt[PATH_MAX], bin[PATH_MAX];
	uint8_t id[20] = { 1 };

	(void)state;
	snprintf(dir, sizeof(dir), "%s/refused", tmpdir);
	snprintf(txt, sizeof(txt), "%s/not-elf", tmpdir);
	write_file(txt, "#!/bin/sh\n", 10);
	SONDE_OPTS(sonde_buildid_cache_opts, o, .dir = dir);
	assert_int_equal(sonde_buildid_cache_add(txt, NULL, 0, &o), -SONDE_ERR_FORMAT);
	assert_int_equal(sonde_buildid_cache_add("/nonexistent/x.so", NULL, 0, &o), -ENOENT);
	/* Paths that would land outside the directory, or nowhere. */
	assert_int_equal(sonde_buildid_cache_add("symtest", NULL, 0, &o), -EINVAL);
	snprintf(bin, sizeof(bin), "%s/../%s/symtest", helpers, strrchr(helpers, '/') + 1);
	assert_int_equal(sonde_buildid_cache_add(bin, NULL, 0, &o), -EINVAL);
	assert_int_equal(sonde_buildid_cache_add("/usr/./lib/x", NULL, 0, &o), -EINVAL);
	assert_int_equal(sonde_buildid_cache_add(NULL, NULL, 0, &o), -EINVAL);
	assert_int_equal(sonde_buildid_cache_add(txt, NULL, 5, &o), -EINVAL);
	assert_int_equal(sonde_buildid_cache_add(txt, id, 65, &o), -EINVAL);
	assert_false(exists(dir));

	/* A newer caller's field this library does not know. */
	struct { struct sonde_buildid_cache_opts o; long more; } big;

	memset(&big, 0, sizeof(big));
	big.o.sz = sizeof(big);
	big.more = 1;
	sonde_set_print(silent);
	assert_int_equal(sonde_buildid_cache_add_vdso(&big.o), -EINVAL);
	sonde_set_print(NULL);
}

/* Without opts.dir: $PERF_BUILDID_DIR, else $HOME/.debug, as perf. */
static void test_default_dir(void **state)
{
	char bin[PATH_MAX], env[PATH_MAX], home[PATH_MAX], hex[41];
	char obj[2 * PATH_MAX];
	uint8_t bid[20];

	(void)state;
	if (!pick_elf(bin, sizeof(bin)))
		skip();
	assert_int_equal(sonde_elf_build_id(bin, bid, sizeof(bid)), 20);
	hex_of(bid, 20, hex);
	snprintf(env, sizeof(env), "%s/env", tmpdir);
	snprintf(home, sizeof(home), "%s/home", tmpdir);
	setenv("PERF_BUILDID_DIR", env, 1);
	setenv("HOME", home, 1);
	assert_int_equal(sonde_buildid_cache_add(bin, NULL, 0, NULL), 0);
	snprintf(obj, sizeof(obj), "%s%s/%s/elf", env, bin, hex);
	assert_true(exists(obj));
	unsetenv("PERF_BUILDID_DIR");
	assert_int_equal(sonde_buildid_cache_add(bin, NULL, 0, NULL), 0);
	snprintf(obj, sizeof(obj), "%s/.debug%s/%s/elf", home, bin, hex);
	assert_true(exists(obj));
	unsetenv("HOME");
	assert_int_equal(sonde_buildid_cache_add(bin, NULL, 0, NULL), -ENOENT);
}

/* A note blob with the build id de ad be ef, as /sys/kernel/notes. */
static const uint8_t notes[] = {
	4, 0, 0, 0, 4, 0, 0, 0, 3, 0, 0, 0, 'G', 'N', 'U', 0,
	0xde, 0xad, 0xbe, 0xef,
};

static void test_add_kallsyms(void **state)
{
	static const char ks[] = "0000000000000000 A fixed_percpu_data\n"
				 "ffffffff82000000 T recorded_kfunc\n";
	static const char hidden[] = "0000000000000000 T kfunc\n";
	const uint8_t kid[4] = { 0xde, 0xad, 0xbe, 0xef };
	char dir[PATH_MAX], kpath[PATH_MAX], npath[PATH_MAX], hpath[PATH_MAX];
	char onotes[PATH_MAX], obj[2 * PATH_MAX];
	uint8_t notes2[sizeof(notes)];
	const struct sonde_symbol *s;
	struct sonde_symcache *c;
	struct sonde_dso *d;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/kernel", tmpdir);
	snprintf(kpath, sizeof(kpath), "%s/kallsyms", tmpdir);
	snprintf(hpath, sizeof(hpath), "%s/kallsyms-hidden", tmpdir);
	snprintf(npath, sizeof(npath), "%s/notes", tmpdir);
	snprintf(onotes, sizeof(onotes), "%s/notes-other", tmpdir);
	write_file(kpath, ks, strlen(ks));
	write_file(hpath, hidden, strlen(hidden));
	write_file(npath, notes, sizeof(notes));
	memcpy(notes2, notes, sizeof(notes));
	notes2[sizeof(notes) - 1] = 0xee;
	write_file(onotes, notes2, sizeof(notes2));

	/* Hidden addresses are no copy. */
	SONDE_OPTS(sonde_buildid_cache_opts, h, .dir = dir, .kallsyms_path = hpath,
		   .kernel_notes_path = npath);
	assert_int_equal(sonde_buildid_cache_add_kallsyms(&h), -EACCES);
	assert_false(exists(dir));

	SONDE_OPTS(sonde_buildid_cache_opts, o, .dir = dir, .kallsyms_path = kpath,
		   .kernel_notes_path = npath);
	assert_int_equal(sonde_buildid_cache_add_kallsyms(&o), 0);
	snprintf(obj, sizeof(obj), "%s/[kernel.kallsyms]/deadbeef/kallsyms", dir);
	assert_true(same_bytes(obj, kpath));
	assert_link(dir, "deadbeef", "../../[kernel.kallsyms]/deadbeef");
	/* Once per kernel build: the copy is kept, the file not read again. */
	assert_int_equal(sonde_buildid_cache_add_kallsyms(&h), 0);
	assert_true(same_bytes(obj, kpath));

	/* The reader, running "another kernel", names from the copy. */
	SONDE_OPTS(sonde_symcache_opts, so, .kallsyms_path = hpath,
		   .kernel_notes_path = onotes, .buildid_dir = dir);
	c = sonde_symcache__new(&so);
	assert_non_null(c);
	assert_int_equal(sonde_symcache__set_kernel_build_id(c, kid, 4), 0);
	d = sonde_symcache__kernel(c);
	assert_int_equal(sonde_dso__load(d), 1);
	s = sonde_dso__find(d, 0xffffffff82000001, NULL);
	assert_non_null(s);
	assert_string_equal(s->name, "recorded_kfunc");
	sonde_dso__put(d);
	sonde_symcache__free(c);

	/* No kernel build id: nothing to file it under. */
	SONDE_OPTS(sonde_buildid_cache_opts, n, .dir = dir, .kallsyms_path = kpath,
		   .kernel_notes_path = hpath);
	assert_int_equal(sonde_buildid_cache_add_kallsyms(&n), -ENODATA);
}

/* This process's vdso, under the id the symbolizer reads from it. */
static void test_add_vdso(void **state)
{
	char dir[PATH_MAX], hex[2 * 64 + 1], obj[2 * PATH_MAX];
	struct sonde_symcache *c = sonde_symcache__new(NULL);
	struct sonde_dso *d = c ? sonde_symcache__vdso(c) : NULL;
	uint8_t id[64], got[64];
	int n = d ? sonde_dso__build_id(d, id, sizeof(id)) : 0;

	(void)state;
	sonde_dso__put(d);
	sonde_symcache__free(c);
	if (n <= 0) {
		printf("SKIP: no vdso with a build id in this process\n");
		skip();
	}
	hex_of(id, (size_t)n, hex);
	snprintf(dir, sizeof(dir), "%s/vdso", tmpdir);
	SONDE_OPTS(sonde_buildid_cache_opts, o, .dir = dir);
	assert_int_equal(sonde_buildid_cache_add_vdso(&o), 0);
	snprintf(obj, sizeof(obj), "%s/[vdso]/%s/vdso", dir, hex);
	assert_int_equal(sonde_elf_build_id(obj, got, sizeof(got)), n);
	assert_memory_equal(got, id, (size_t)n);
	snprintf(obj, sizeof(obj), "../../[vdso]/%s", hex);
	assert_link(dir, hex, obj);
	assert_int_equal(sonde_buildid_cache_add_vdso(&o), 0);
}

static int setup(void **state)
{
	(void)state;
	helpers_dir(helpers, sizeof(helpers));
	scratch_dir_make(tmpdir, sizeof(tmpdir), "bidcache");
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
		cmocka_unit_test(test_add_object),
		cmocka_unit_test(test_add_copy),
		cmocka_unit_test(test_add_refused),
		cmocka_unit_test(test_default_dir),
		cmocka_unit_test(test_add_kallsyms),
		cmocka_unit_test(test_add_vdso),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
