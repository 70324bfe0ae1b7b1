// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The symbol layer's own tables and parsers (sym_priv.h), beside
 * test_symbols.c, which runs the symbolizer through the public API on both
 * libraries: the symbol table's rules, the kernel note parser, the kernel
 * table cache file (marked by rewriting it), perf's demangled names and
 * the DSO's DWARF answer cache.
 * Static-only: sym_table_finish(), sym_notes_build_id(), sym_ktab_*(),
 * sym_demangle_perf() and the DSO's answer store are internal; the public
 * API reaches them only through whole objects, kernels and caches.
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
#include "symbols_fixture.h"
#include "unit_dirs.h"

static int setup(void **state)
{
	(void)state;
	symtest_tmpdir_make();
	return 0;
}

/* A recorded kernel build id is checked against the running kernel's. */
static void test_kernel_build_id(void **state)
{
	static const uint8_t notes[] = {
		4, 0, 0, 0, 6, 0, 0, 0, 0x99, 0, 0, 0, 'X', 'e', 'n', 0,
		1, 2, 3, 4, 5, 6, 0, 0,			/* another note */
		4, 0, 0, 0, 4, 0, 0, 0, 3, 0, 0, 0, 'G', 'N', 'U', 0,
		0xde, 0xad, 0xbe, 0xef,
	};
	const uint8_t good[4] = { 0xde, 0xad, 0xbe, 0xef };
	const uint8_t bad[4] = { 0xde, 0xad, 0xbe, 0xee };
	char kpath[PATH_MAX], npath[PATH_MAX];
	struct sonde_symcache *c;
	struct sonde_dso *d;
	uint8_t out[8];
	FILE *f;

	assert_int_equal(sym_notes_build_id(notes, sizeof(notes), out, 8), 4);
	assert_memory_equal(out, good, 4);
	assert_int_equal(sym_notes_build_id(notes, 20, out, 8), 0);
	snprintf(kpath, sizeof(kpath), "%s/kallsyms-bid", tmpdir);
	write_file(kpath, "ffffffff81000000 T kfunc\n");
	snprintf(npath, sizeof(npath), "%s/notes", tmpdir);
	f = fopen(npath, "w");
	fwrite(notes, 1, sizeof(notes), f);
	fclose(f);
	SONDE_OPTS(sonde_symcache_opts, o, .kallsyms_path = kpath,
		   .kernel_notes_path = npath);

	c = sonde_symcache__new(&o);
	assert_int_equal(sonde_symcache__set_kernel_build_id(c, good, 4), 0);
	d = sonde_symcache__kernel(c);
	assert_int_equal(sonde_dso__load(d), 1);
	assert_int_equal(sonde_symcache__set_kernel_build_id(c, good, 4), -EBUSY);
	sonde_dso__put(d);
	sonde_symcache__free(c);

	c = sonde_symcache__new(&o);
	assert_int_equal(sonde_symcache__set_kernel_build_id(c, bad, 4), 0);
	d = sonde_symcache__kernel(c);
	sonde_set_print(silent);
	assert_int_equal(sonde_dso__load(d), -ESTALE);
	sonde_set_print(NULL);
	assert_int_equal(sonde_dso__status(d), SONDE_DSO_BUILD_ID_MISMATCH);
	assert_null(sonde_dso__find(d, 0xffffffff81000001, NULL));
	sonde_dso__put(d);
	sonde_symcache__free(c);

	/* Another kernel, but perf's build-id cache keeps its kallsyms. */
	char bdir[PATH_MAX], copy[PATH_MAX + 64];
	const struct sonde_symbol *s;

	snprintf(bdir, sizeof(bdir), "%s/bidcache", tmpdir);
	snprintf(copy, sizeof(copy), "%s/.build-id/de/adbeee", bdir);
	sh("mkdir -p %s", copy);
	strcat(copy, "/kallsyms");
	write_file(copy, "ffffffff82000000 T recorded_kfunc\n");
	SONDE_OPTS(sonde_symcache_opts, o2, .kallsyms_path = kpath,
		   .kernel_notes_path = npath, .buildid_dir = bdir);
	c = sonde_symcache__new(&o2);
	assert_int_equal(sonde_symcache__set_kernel_build_id(c, bad, 4), 0);
	d = sonde_symcache__kernel(c);
	assert_int_equal(sonde_dso__load(d), 1);
	assert_int_equal(sonde_dso__status(d), SONDE_DSO_OK);
	s = sonde_dso__find(d, 0xffffffff82000001, NULL);
	assert_non_null(s);
	assert_string_equal(s->name, "recorded_kfunc");
	assert_null(sonde_dso__find(d, 0xffffffff81000001, NULL));
	sonde_dso__put(d);
	sonde_symcache__free(c);
}

/* Rewrites kernel table file @p file with its first symbol renamed @p name. */
static void rename_first(const char *file, const char *name)
{
	struct sonde_symbol *all;
	struct sym_ktab *kt;
	size_t nr, len;
	char *raw = NULL;
	void *enc;
	FILE *f;

	assert_int_equal(sym_read_file(file, &raw, &len, 1u << 28), 0);
	assert_int_equal(sym_ktab_load(raw, len, &kt), 0);
	nr = sym_ktab_nr(kt);
	all = calloc(nr, sizeof(*all));
	assert_non_null(all);
	for (size_t i = 0; i < nr; i++)
		sym_ktab_get(kt, i, &all[i]);
	all[0].name = name;
	assert_int_equal(sym_ktab_encode(all, nr, &enc, &len), 0);
	f = fopen(file, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(enc, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	free(enc);
	free(all);
	sym_ktab_free(kt);
	free(raw);
}

/* The kernel table cache: written once, then read instead of /proc. */
static void test_kallsyms_cache(void **state)
{
	char dir[PATH_MAX], cmd[PATH_MAX + 64], file[PATH_MAX] = "";
	const struct sonde_symbol *all;
	struct sonde_symcache *c;
	struct sonde_dso *d;
	struct stat st;
	int n1, n2;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s/kcache", tmpdir);
	SONDE_OPTS(sonde_symcache_opts, o, .kallsyms_cache_dir = dir);
	c = sonde_symcache__new(&o);
	d = sonde_symcache__kernel(c);
	sonde_set_print(silent);
	n1 = sonde_dso__load(d);
	sonde_set_print(NULL);
	sonde_dso__put(d);
	sonde_symcache__free(c);
	if (n1 == -EACCES) {
		printf("SKIP: /proc/kallsyms is restricted for this user\n");
		skip();
	}
	if (access("/proc/sys/kernel/random/boot_id", R_OK)) {
		printf("SKIP: no boot id to key the cache on\n");
		skip();
	}
	assert_true(n1 > 100);
	snprintf(cmd, sizeof(cmd), "ls %s/ksymtab-* 2>/dev/null", dir);
	f = popen(cmd, "r");
	assert_non_null(fgets(file, sizeof(file), f));
	pclose(f);
	file[strcspn(file, "\n")] = 0;
	assert_int_equal(stat(file, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	/* Mark the copy; the next load must show the mark. */
	rename_first(file, "sonde_cache_mark");
	c = sonde_symcache__new(&o);
	d = sonde_symcache__kernel(c);
	n2 = sonde_dso__load(d);
	assert_int_equal(n2, n1);
	sonde_dso__symbols(d, &all);
	assert_string_equal(all[0].name, "sonde_cache_mark");
	sonde_dso__put(d);
	sonde_symcache__free(c);
	/* A copy others could write is ignored (and /proc read again). */
	assert_int_equal(chmod(file, 0644), 0);
	c = sonde_symcache__new(&o);
	d = sonde_symcache__kernel(c);
	assert_int_equal(sonde_dso__load(d), n1);
	sonde_dso__symbols(d, &all);
	assert_string_not_equal(all[0].name, "sonde_cache_mark");
	sonde_dso__put(d);
	sonde_symcache__free(c);
}

static void check_perf_name(const char *in, const char *want)
{
	check_owned_name(sym_demangle_perf(in), want);
}

/* The report's rendering: C++ without parameters, Rust as demangled. */
static void test_demangle_perf(void **state)
{
	(void)state;
	check_perf_name("_ZN3foo3barEv", "foo::bar");
	check_perf_name("_ZNSt6vectorIiSaIiEE9push_backERKi",
			"std::vector<int, std::allocator<int> >::push_back");
	/* A template function's return type goes too. */
	check_perf_name("_Z1fIiEvT_", "f<int>");
	check_perf_name("_ZN3fooclEv", "foo::operator()");
	check_perf_name("_ZN70_$LT$alloc..vec..Vec$LT$T$C$A$GT$$u20$as$u20$core..ops..drop..Drop$GT$4drop17h5d2a3e0b9f1c7a64E",
			"<alloc::vec::Vec<T,A> as core::ops::drop::Drop>::drop");
	check_perf_name("_RNvXs2_NtNtCs1234_4core3fmt3numjNtB7_5Debug3fmt",
			"<usize as core::fmt::Debug>::fmt");
	check_perf_name("main", NULL);
	check_perf_name("_", NULL);
	check_perf_name("_Zgarbage", NULL);
}

/* Table rules on a hand-made array. */
static void test_table_rules(void **state)
{
	struct sonde_symbol t[] = {
		{ .start = 0x300, .size = 0, .name = "z_last" },
		{ .start = 0x100, .size = 0x10, .name = "__local", .binding = SONDE_SYM_LOCAL },
		{ .start = 0x100, .size = 0x10, .name = "weak", .binding = SONDE_SYM_WEAK },
		{ .start = 0x100, .size = 0x10, .name = "glob", .binding = SONDE_SYM_GLOBAL },
		{ .start = 0x100, .size = 0, .name = "aaa", .binding = SONDE_SYM_GLOBAL },
		{ .start = 0x200, .size = 0, .name = "nosize" },
		{ .start = 0x120, .size = 0x200, .name = "outer" },
		{ .start = 0x130, .size = 0x8, .name = "nested" },
	};
	size_t n = sym_table_finish(t, ARRAY_SIZE(t), SYM_DUP_BEST);

	assert_int_equal(n, 5);
	assert_string_equal(t[0].name, "glob");
	assert_string_equal(sym_table_find(t, n, 0x10f)->name, "glob");
	assert_null(sym_table_find(t, n, 0x110));
	assert_string_equal(sym_table_find(t, n, 0x134)->name, "nested");
	assert_string_equal(sym_table_find(t, n, 0x140)->name, "outer");
	assert_int_equal(sym_table_find(t, n, 0x210)->size, 0x100);
	assert_string_equal(sym_table_find(t, n, 0x1fff)->name, "z_last");
	assert_null(sym_table_find(t, n, 0xff));
}

static void dwarf_answers(struct sonde_dso *d, const uint64_t *addrs, size_t n,
			  char out[][512])
{
	for (size_t i = 0; i < n; i++) {
		char buf[256], *names[8];
		int k = sonde_dso__inlines(d, addrs[i], names, 8);
		int len = sonde_dso__srcline(d, addrs[i], buf, sizeof(buf));

		len = snprintf(out[i], 512, "%s:", len > 0 ? buf : "(none)");
		for (int j = 0; j < k; j++) {
			len += snprintf(out[i] + len, 512 - (size_t)len, " %s", names[j]);
			free(names[j]);
		}
	}
}

/*
 * One DSO holds its debug info and its answer cache: asked again, an
 * address is answered from memory; with dwarf_cache_dir a later cache
 * answers the same without opening the debug info at all.
 */
static void test_srcline_cached(void **state)
{
	char bin[2 * PATH_MAX], dir[PATH_MAX + 8], cmd[2 * PATH_MAX];
	static char first[16][512], again[16][512];
	const struct sonde_symbol *syms;
	struct sonde_symcache *c;
	struct sonde_dso *d;
	uint64_t addrs[16] = { 0 };
	uint8_t id[20];
	size_t nr, n = 0;

	(void)state;
	helpers_dir(dir, sizeof(dir));
	snprintf(bin, sizeof(bin), "%s/symtest", dir);
	if (access(bin, R_OK)) {
		printf("SKIP: %s not built (make helpers)\n", bin);
		skip();
	}
	if (sonde_elf_build_id(bin, id, sizeof(id)) < 4) {
		printf("SKIP: symtest has no build id to key its answers on\n");
		skip();
	}
	snprintf(dir, sizeof(dir), "%s/dwc", tmpdir);
	SONDE_OPTS(sonde_symcache_opts, o, .dwarf_cache_dir = dir);
	c = sonde_symcache__new(&o);
	d = sonde_symcache__dso(c, bin, NULL, 0);
	nr = sonde_dso__symbols(d, &syms);
	for (size_t i = 0; i < nr && n < 16; i++)
		if (!syms[i].size_synth && syms[i].size > 8)
			addrs[n++] = syms[i].start + syms[i].size / 2;
	assert_true(n > 3);
	dwarf_answers(d, addrs, n, first);
	assert_true(d->dwarf_tried);
	/* Kept: the store answers each question asked. */
	for (size_t i = 0; i < n; i++) {
		assert_int_not_equal(dwc_store_lookup(d->dwc, addrs[i], DWC_SRCLINE, NULL), DWC_MISS);
		assert_int_not_equal(dwc_store_lookup(d->dwc, addrs[i], DWC_INLINES, NULL), DWC_MISS);
	}
	dwarf_answers(d, addrs, n, again);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(first[i], again[i]);
	sonde_dso__put(d);
	sonde_symcache__free(c);
	/* Written when the DSO went; the next run opens no debug info. */
	snprintf(cmd, sizeof(cmd), "ls %s/dwarf-* >/dev/null 2>&1", dir);
	assert_int_equal(system(cmd), 0);
	c = sonde_symcache__new(&o);
	d = sonde_symcache__dso(c, bin, NULL, 0);
	dwarf_answers(d, addrs, n, again);
	assert_false(d->dwarf_tried);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(first[i], again[i]);
	sonde_dso__put(d);
	sonde_symcache__free(c);
	/* No directory: the same answers, kept in memory only. */
	c = sonde_symcache__new(NULL);
	d = sonde_symcache__dso(c, bin, NULL, 0);
	dwarf_answers(d, addrs, n, again);
	assert_true(d->dwarf_tried);
	assert_int_not_equal(dwc_store_lookup(d->dwc, addrs[0], DWC_INLINES, NULL), DWC_MISS);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(first[i], again[i]);
	sonde_dso__put(d);
	sonde_symcache__free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_rules),
		cmocka_unit_test(test_kernel_build_id),
		cmocka_unit_test(test_kallsyms_cache),
		cmocka_unit_test(test_demangle_perf),
		cmocka_unit_test(test_srcline_cached),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
