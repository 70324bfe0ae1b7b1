// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The DWARF answer cache (dwcache.c, dwcache_store.c): the file format and
 * its validation (every truncation and byte flip of a valid file is
 * rejected or valid, never read out of bounds), and the report model on
 * this test binary (built -O2 -g: plenty of inlining): answers identical
 * with no cache, a cold and a warm one; a warm run never opens the debug
 * info; misses merged into the file; corrupt, group-readable and foreign
 * files ignored and rebuilt; the cache disabled.
 * Static-only: the cache's encoder and reader (dwc_*) and the report model
 * that uses it (prof_machine) are internal; no public call reads the file.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
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

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

static char tmpdir[PATH_MAX], self[PATH_MAX];

#define NR_ADDRS 96
static uint64_t addrs[NR_ADDRS]; /* map-relative (file offsets) */
static size_t nr_addrs;

static const struct dwc_ans sample[] = {
	{ .vaddr = 0x1000, .kind = DWC_INLINES, .nr = 2, .names = { "inner", "outer" } },
	{ .vaddr = 0x1000, .kind = DWC_SRCLINE, .nr = 1, .names = { "a.c:12" } },
	{ .vaddr = 0x1010, .kind = DWC_INLINES, .nr = 0 },
	{ .vaddr = 0x2000, .kind = DWC_SRCLINE, .nr = 0 },
	{ .vaddr = 0x2004, .kind = DWC_INLINES, .nr = 1, .names = { "" } },
};
#define NR_SAMPLE (sizeof(sample) / sizeof(sample[0]))

static void test_format_roundtrip(void **state)
{
	struct dwc_ans a, bad[2];
	size_t len, nr;
	void *buf;

	(void)state;
	assert_int_equal(dwc_encode(sample, NR_SAMPLE, &buf, &len), 0);
	assert_int_equal(dwc_check(buf, len, &nr), 0);
	assert_int_equal(nr, NR_SAMPLE);
	for (size_t i = 0; i < nr; i++) {
		dwc_get(buf, i, &a);
		assert_int_equal(a.vaddr, sample[i].vaddr);
		assert_int_equal(a.kind, sample[i].kind);
		assert_int_equal(a.nr, sample[i].nr);
		for (int j = 0; j < a.nr; j++)
			assert_string_equal(a.names[j], sample[i].names[j]);
		assert_int_equal(dwc_find(buf, nr, sample[i].vaddr, sample[i].kind), (long)i);
	}
	assert_int_equal(dwc_find(buf, nr, 0x1010, DWC_SRCLINE), -1);
	assert_int_equal(dwc_find(buf, nr, 0, DWC_INLINES), -1);
	assert_int_equal(dwc_find(buf, nr, 0x3000, DWC_INLINES), -1);
	free(buf);
	/* Empty is valid; unsorted or repeated keys are not encoded. */
	assert_int_equal(dwc_encode(NULL, 0, &buf, &len), 0);
	assert_int_equal(dwc_check(buf, len, &nr), 0);
	assert_int_equal(nr, 0);
	free(buf);
	bad[0] = sample[1];
	bad[1] = sample[0];
	assert_int_equal(dwc_encode(bad, 2, &buf, &len), -EINVAL);
	bad[1] = sample[1];
	assert_int_equal(dwc_encode(bad, 2, &buf, &len), -EINVAL);
}

/* A buffer dwc_check() accepted: everything it lets us read is inside. */
static void assert_readable(const uint8_t *buf, size_t len, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		struct dwc_ans a;

		dwc_get(buf, i, &a);
		assert_true(a.kind <= DWC_SRCLINE && a.nr <= DWC_MAX_NAMES);
		for (int j = 0; j < a.nr; j++) {
			const char *n = a.names[j];

			assert_true(n >= (const char *)buf && n < (const char *)buf + len);
			assert_non_null(memchr(n, 0, (size_t)((const char *)buf + len - n)));
		}
		assert_int_equal(dwc_find(buf, nr, a.vaddr, a.kind), (long)i);
	}
}

static void test_format_corrupt(void **state)
{
	size_t len, nr;
	uint8_t *copy;
	void *buf;

	(void)state;
	assert_int_equal(dwc_encode(sample, NR_SAMPLE, &buf, &len), 0);
	/* Truncations: in a buffer of exactly that size (ASan sees overreads). */
	for (size_t n = 0; n < len; n++) {
		copy = malloc(n ? n : 1);
		memcpy(copy, buf, n);
		assert_int_equal(dwc_check(copy, n, &nr), -SONDE_ERR_FORMAT);
		free(copy);
	}
	copy = malloc(len);
	for (size_t i = 0; i < len; i++) {
		static const uint8_t flips[] = { 0x01, 0x80, 0xff };

		for (size_t f = 0; f < sizeof(flips); f++) {
			memcpy(copy, buf, len);
			copy[i] ^= flips[f];
			if (!dwc_check(copy, len, &nr))
				assert_readable(copy, len, nr);
		}
	}
	free(copy);
	free(buf);
}

/* Some addresses in this binary's functions, as map-relative offsets. */
static void pick_addrs(void)
{
	struct prof_machine *m = prof_machine_new();
	struct prof_dso *d = prof_dso_findnew(m, self, strlen(self), false);

	(void)prof_dso_find_sym(m, d, 0);
	assert_true(d->has_syms);
	for (size_t i = 0; i < d->nr_syms && nr_addrs + 2 <= NR_ADDRS; i += 7) {
		const struct prof_sym *s = prof_dso_sym(m, d, i);

		for (size_t k = 0; k < d->sdso->nloads; k++) {
			const GElf_Phdr *g = &d->sdso->loads[k];

			if (s->end - s->start < 16 || s->start < g->p_vaddr ||
			    s->start - g->p_vaddr >= g->p_memsz)
				continue;
			addrs[nr_addrs++] = s->start - g->p_vaddr + g->p_offset;
			addrs[nr_addrs++] = (s->start + s->end) / 2 - g->p_vaddr + g->p_offset;
			break;
		}
	}
	assert_true(nr_addrs > 20);
	prof_machine_free(m);
}

/*
 * Every answer for the first @n addresses as one string per address, with
 * the cache in @dir (NULL: none); *@opened: the debug info was opened.
 */
static char **answers(const char *dir, size_t n, bool *opened)
{
	struct prof_machine *m = prof_machine_new();
	struct prof_dso *d = prof_dso_findnew(m, self, strlen(self), false);
	char **out = calloc(n, sizeof(*out));

	assert_non_null(out);
	assert_int_equal(prof_machine_set_cache(m, dir), 0);
	for (size_t i = 0; i < n; i++) {
		const char *names[8], *sl;
		char buf[4096];
		int k = prof_dso_inlines(m, d, addrs[i], names, 8), len;

		/* Twice: the second answer comes from memory, the same. */
		sl = prof_dso_srcline(m, d, addrs[i]);
		assert_ptr_equal(sl, prof_dso_srcline(m, d, addrs[i]));
		len = snprintf(buf, sizeof(buf), "%s:", sl ? sl : "(none)");
		for (int j = 0; j < k; j++)
			len += snprintf(buf + len, sizeof(buf) - (size_t)len, " %s", names[j]);
		out[i] = strdup(buf);
	}
	*opened = d->sdso && d->sdso->dwarf_tried;
	prof_machine_free(m);
	return out;
}

static void free_answers(char **a, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(a[i]);
	free(a);
}

static void assert_same(char **a, char **b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		assert_string_equal(a[i], b[i]);
}

/* The one dwarf-* file in @dir/sonde-less @dir. */
static bool cache_file(const char *dir, char *out, size_t size)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (!d)
		return false;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "dwarf-", 6) && !strchr(de->d_name, '.')) {
			snprintf(out, size, "%s/%s", dir, de->d_name);
			n++;
		}
	closedir(d);
	return n == 1;
}

static size_t file_entries(const char *path)
{
	const void *map;
	size_t len, nr = 0;

	assert_int_equal(kcache_map(path, 1u << 26, &map, &len), 0);
	assert_int_equal(dwc_check(map, len, &nr), 0);
	kcache_unmap(map, len);
	return nr;
}

static void test_hit(void **state)
{
	char dir[PATH_MAX], file[PATH_MAX];
	char **none, **cold, **warm;
	bool opened;
	struct stat st;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/hit", tmpdir);
	none = answers(NULL, nr_addrs, &opened);
	assert_true(opened);
	if (getenv("DWC_DUMP"))
		for (size_t i = 0; i < nr_addrs; i++)
			printf("%s\n", none[i]);
	assert_false(cache_file(dir, file, sizeof(file)));
	cold = answers(dir, nr_addrs, &opened);
	assert_true(opened);
	assert_true(cache_file(dir, file, sizeof(file)));
	assert_int_equal(stat(file, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(file_entries(file), 2 * nr_addrs);
	warm = answers(dir, nr_addrs, &opened);
	assert_false(opened); /* every answer from the file */
	assert_same(none, cold, nr_addrs);
	assert_same(none, warm, nr_addrs);
	/* Real answers were compared: some line info, some inlining. */
	{
		bool lines = false, inl = false;

		for (size_t i = 0; i < nr_addrs; i++) {
			lines |= strncmp(none[i], "(none)", 6) != 0;
			/* "file:line: inlined outer": two names or more. */
			inl |= strchr(none[i], ' ') != strrchr(none[i], ' ');
		}
		if (!lines) {
			free_answers(none, nr_addrs);
			free_answers(cold, nr_addrs);
			free_answers(warm, nr_addrs);
			printf("SKIP: this test binary has no line info (built without -g)\n");
			skip();
		}
		assert_true(inl);
	}
	free_answers(none, nr_addrs);
	free_answers(cold, nr_addrs);
	free_answers(warm, nr_addrs);
}

static void test_miss_merge(void **state)
{
	char dir[PATH_MAX], file[PATH_MAX];
	char **none, **half, **all;
	size_t h = nr_addrs / 2;
	bool opened;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/merge", tmpdir);
	none = answers(NULL, nr_addrs, &opened);
	half = answers(dir, h, &opened);
	assert_true(cache_file(dir, file, sizeof(file)));
	assert_int_equal(file_entries(file), 2 * h);
	free_answers(half, h);
	/* The first half from the file, the rest from DWARF, all merged. */
	half = answers(dir, h, &opened);
	assert_false(opened);
	all = answers(dir, nr_addrs, &opened);
	assert_true(opened);
	assert_same(none, all, nr_addrs);
	assert_same(none, half, h);
	assert_true(cache_file(dir, file, sizeof(file)));
	assert_int_equal(file_entries(file), 2 * nr_addrs);
	free_answers(all, nr_addrs);
	all = answers(dir, nr_addrs, &opened);
	assert_false(opened);
	assert_same(none, all, nr_addrs);
	free_answers(none, nr_addrs);
	free_answers(half, h);
	free_answers(all, nr_addrs);
}

/* Prepares a warm cache in @dir; returns its file in @file. */
static char **warm_up(const char *dir, char *file, size_t size)
{
	bool opened;
	char **a = answers(dir, nr_addrs, &opened);

	assert_true(cache_file(dir, file, size));
	return a;
}

/* With @file as it is now: same answers, DWARF opened, file rebuilt. */
static void assert_ignored_and_rebuilt(const char *dir, const char *file, char **want)
{
	struct stat st;
	char **got;
	bool opened;
	char again[PATH_MAX];

	got = answers(dir, nr_addrs, &opened);
	assert_true(opened);
	assert_same(want, got, nr_addrs);
	free_answers(got, nr_addrs);
	assert_true(cache_file(dir, again, sizeof(again)));
	assert_string_equal(again, file);
	assert_int_equal(stat(file, &st), 0);
	assert_int_equal(st.st_uid, geteuid());
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(file_entries(file), 2 * nr_addrs);
	got = answers(dir, nr_addrs, &opened);
	assert_false(opened);
	free_answers(got, nr_addrs);
}

static void test_corrupt_file(void **state)
{
	char dir[PATH_MAX], file[PATH_MAX];
	char **want;
	uint8_t junk[3000];
	const void *map;
	size_t len;
	void *copy;
	FILE *f;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/corrupt", tmpdir);
	want = warm_up(dir, file, sizeof(file));
	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = (uint8_t)(i * 131 + 7);
	f = fopen(file, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(junk, 1, sizeof(junk), f), sizeof(junk));
	fclose(f);
	assert_ignored_and_rebuilt(dir, file, want);
	/* A valid file cut short. */
	assert_int_equal(kcache_map(file, 1u << 26, &map, &len), 0);
	copy = malloc(len);
	memcpy(copy, map, len);
	kcache_unmap(map, len);
	f = fopen(file, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(copy, 1, len - 5, f), len - 5);
	fclose(f);
	free(copy);
	assert_ignored_and_rebuilt(dir, file, want);
	/* Empty. */
	f = fopen(file, "w");
	fclose(f);
	assert_ignored_and_rebuilt(dir, file, want);
	free_answers(want, nr_addrs);
}

static void test_wrong_owner_mode(void **state)
{
	char dir[PATH_MAX], file[PATH_MAX];
	char **want;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/mode", tmpdir);
	want = warm_up(dir, file, sizeof(file));
	assert_int_equal(chmod(file, 0644), 0);
	assert_ignored_and_rebuilt(dir, file, want);
	if (geteuid() == 0) {
		assert_int_equal(chown(file, 12345, 12345), 0);
		assert_ignored_and_rebuilt(dir, file, want);
	} else {
		printf("note: not root, the foreign-owner case is not tested\n");
	}
	free_answers(want, nr_addrs);
}

/* A new key of the object replaces its older files, not other objects'. */
static void test_stale(void **state)
{
	char dir[PATH_MAX], file[PATH_MAX], old[PATH_MAX + 64], other[PATH_MAX + 64];
	const char *base, *key_end;
	char **a;
	bool opened;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/stale", tmpdir);
	a = warm_up(dir, file, sizeof(file));
	free_answers(a, nr_addrs);
	/* "dwarf-<build id>-<hash>-<uid>": same build id, another hash. */
	base = strrchr(file, '/') + 1;
	key_end = strchr(base + 6, '-');
	snprintf(old, sizeof(old), "%s/%.*s-00000000deadbeef-%u", dir, (int)(key_end - base),
		 base, (unsigned int)geteuid());
	snprintf(other, sizeof(other), "%s/dwarf-0123456789abcdef-00000000deadbeef-%u", dir,
		 (unsigned int)geteuid());
	assert_int_equal(rename(file, old), 0);
	fclose(fopen(other, "w"));
	assert_int_equal(chmod(other, 0600), 0);
	a = answers(dir, nr_addrs, &opened);
	assert_true(opened); /* the renamed file has another key */
	free_answers(a, nr_addrs);
	assert_int_equal(access(file, F_OK), 0);
	assert_int_equal(access(old, F_OK), -1);
	assert_int_equal(access(other, F_OK), 0);
}

/*
 * An object changed since the recording (no recorded copy found) has no
 * DWARF answers: the cache of the build now on disk must not supply them.
 */
static void test_stale_object(void **state)
{
	char dir[PATH_MAX], file[PATH_MAX];
	struct prof_machine *m;
	struct prof_dso *d;
	const char *names[8];
	char **a;
	bool any = false;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/staleobj", tmpdir);
	a = warm_up(dir, file, sizeof(file));
	for (size_t i = 0; i < nr_addrs; i++)
		any |= strcmp(a[i], "(none):") != 0;
	assert_true(any);
	free_answers(a, nr_addrs);
	m = prof_machine_new();
	assert_int_equal(prof_machine_set_cache(m, dir), 0);
	d = prof_dso_findnew(m, self, strlen(self), false);
	(void)prof_dso_find_sym(m, d, 0);
	d->stale = true; /* what a build id mismatch sets */
	for (size_t i = 0; i < nr_addrs; i++) {
		assert_int_equal(prof_dso_inlines(m, d, addrs[i], names, 8), 0);
		assert_null(prof_dso_srcline(m, d, addrs[i]));
	}
	assert_false(d->sdso && d->sdso->dwarf_tried);
	prof_machine_free(m);
}

static void test_disabled(void **state)
{
	char dir[PATH_MAX], sub[PATH_MAX + 8];
	struct prof_machine *m;
	struct stat st;
	const char *names[8];
	struct prof_dso *d;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/envx", tmpdir);
	snprintf(sub, sizeof(sub), "%s/sonde", dir);
	setenv("XDG_CACHE_HOME", dir, 1);
	for (int i = 0; i < 3; i++) {
		setenv(i == 1 ? "SONDE_NO_KALLSYMS_CACHE" : "SONDE_NO_CACHE", i == 2 ? "0" : "1", 1);
		m = prof_machine_new();
		assert_int_equal(prof_machine_default_cache(m), 0);
		d = prof_dso_findnew(m, self, strlen(self), false);
		(void)prof_dso_inlines(m, d, addrs[0], names, 8);
		prof_machine_free(m);
		/* Off for either variable, on for "0". */
		assert_int_equal(stat(sub, &st) == 0, i == 2);
		unsetenv("SONDE_NO_CACHE");
		unsetenv("SONDE_NO_KALLSYMS_CACHE");
	}
	unsetenv("XDG_CACHE_HOME");
}

static int setup(void **state)
{
	ssize_t n;

	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/sonde-dwcache-XXXXXX");
	assert_non_null(mkdtemp(tmpdir));
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return -1;
	self[n] = 0;
	pick_addrs();
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
		cmocka_unit_test(test_format_roundtrip),
		cmocka_unit_test(test_format_corrupt),
		cmocka_unit_test(test_hit),
		cmocka_unit_test(test_miss_merge),
		cmocka_unit_test(test_corrupt_file),
		cmocka_unit_test(test_wrong_owner_mode),
		cmocka_unit_test(test_stale),
		cmocka_unit_test(test_stale_object),
		cmocka_unit_test(test_disabled),
	};

	sonde_set_print(NULL);
	return cmocka_run_group_tests(tests, setup, teardown);
}
