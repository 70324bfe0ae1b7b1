// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Symbolizer: ELF tables checked against nm, PIE / non-PIE / shared-library
 * address translation on live mappings of this process, separate debug
 * files, build-id mismatch, kallsyms and perf-map parsing, demangling,
 * through the public API (the layer's own tables and parsers:
 * test_symbols_internal.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sys/utsname.h>
#include "sonde/sonde.h"
#include "symbols_fixture.h"

static char helpers[PATH_MAX];

static bool have_helper(const char *name, char *out, size_t size)
{
	snprintf(out, size, "%s/%s", helpers, name);
	if (access(out, R_OK)) {
		printf("SKIP: %s not built (make helpers)\n", out);
		return false;
	}
	return true;
}

/* Every T/t symbol nm lists resolves to itself (or a same-address alias). */
static void check_against_nm(const char *bin)
{
	struct sonde_symcache *c = sonde_symcache__new(NULL);
	struct sonde_dso *d;
	char cmd[PATH_MAX + 64], line[512];
	int checked = 0;
	FILE *f;

	assert_non_null(c);
	d = sonde_symcache__dso(c, bin, NULL, 0);
	assert_non_null(d);
	assert_true(sonde_dso__load(d) > 5);
	assert_int_equal(sonde_dso__status(d), SONDE_DSO_OK);
	snprintf(cmd, sizeof(cmd), "nm --defined-only -S %s", bin);
	f = popen(cmd, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char name[256], type;
		uint64_t addr, size = 0, off;
		const struct sonde_symbol *s;
		int n;

		n = sscanf(line, "%" SCNx64 " %" SCNx64 " %c %255s", &addr,
			   &size, &type, name);
		if (n != 4) {
			size = 0;
			if (sscanf(line, "%" SCNx64 " %c %255s", &addr, &type,
				   name) != 3)
				continue;
		}
		if (type != 'T' && type != 't')
			continue;
		s = sonde_dso__find(d, addr, &off);
		assert_non_null(s);
		assert_int_equal(off, 0);
		assert_int_equal(s->start, addr);
		if (strcmp(s->name, name)) {
			/* Only an alias at the same address may differ. */
			assert_int_equal(s->start, addr);
		}
		if (size > 1) {
			s = sonde_dso__find(d, addr + size - 1, &off);
			assert_non_null(s);
			assert_int_equal(off, size - 1);
		}
		checked++;
	}
	pclose(f);
	assert_true(checked >= 6);
	sonde_dso__put(d);
	sonde_symcache__free(c);
}

static void test_elf_vs_nm(void **state)
{
	char bin[PATH_MAX];

	if (!have_helper("symtest", bin, sizeof(bin)))
		skip();
	check_against_nm(bin);
	if (!have_helper("symtest_nopie", bin, sizeof(bin)))
		skip();
	check_against_nm(bin);
}

static int open_fds(void)
{
	char path[64];
	int n = 0, fd;

	for (fd = 0; fd < 1024; fd++) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		n += !access(path, F_OK);
	}
	return n;
}

/* Loaded DSOs keep no descriptors open (mappings only). */
static void test_no_fd_per_dso(void **state)
{
	struct sonde_symcache *c = sonde_symcache__new(NULL);
	struct sonde_dso *d[3];
	char bin[PATH_MAX];
	int before = open_fds(), i;

	if (!have_helper("symtest", bin, sizeof(bin)))
		skip();
	d[0] = sonde_symcache__dso(c, bin, NULL, 0);
	d[1] = sonde_symcache__dso(c, "/usr/lib/x86_64-linux-gnu/libc.so.6",
				   NULL, 0);
	snprintf(bin, sizeof(bin), "%s/symtest_nopie", helpers);
	d[2] = sonde_symcache__dso(c, bin, NULL, 0);
	for (i = 0; i < 3; i++)
		assert_true(sonde_dso__load(d[i]) > 0);
	assert_int_equal(open_fds(), before);
	/* And the names are still readable. */
	for (i = 0; i < 3; i++) {
		const struct sonde_symbol *all;
		size_t n = sonde_dso__symbols(d[i], &all);

		assert_true(strlen(all[n - 1].name) > 0);
		sonde_dso__put(d[i]);
	}
	sonde_symcache__free(c);
}

static void test_alias_and_synth_size(void **state)
{
	struct sonde_symcache *c = sonde_symcache__new(NULL);
	const struct sonde_symbol *strong, *nosize, *s;
	const struct sonde_symbol *all;
	struct sonde_dso *d;
	char bin[PATH_MAX];
	size_t n, i;

	if (!have_helper("symtest", bin, sizeof(bin)))
		skip();
	d = sonde_symcache__dso(c, bin, NULL, 0);
	n = sonde_dso__symbols(d, &all);
	strong = nosize = NULL;
	for (i = 0; i < n; i++) {
		if (!strcmp(all[i].name, "symtest_strong"))
			strong = &all[i];
		if (!strcmp(all[i].name, "symtest_nosize"))
			nosize = &all[i];
		/* Sorted, unique starts. */
		if (i)
			assert_true(all[i - 1].start < all[i].start);
		assert_string_not_equal(all[i].name, "symtest_weak_alias");
	}
	assert_non_null(strong);
	assert_int_equal(strong->binding, SONDE_SYM_GLOBAL);
	assert_non_null(nosize);
	assert_int_equal(nosize->size_synth, 1);
	assert_true(nosize->size >= 5);
	s = sonde_dso__find(d, nosize->start + 4, NULL);
	assert_ptr_equal(s, nosize);
	/* Below the first symbol: nothing. */
	assert_null(sonde_dso__find(d, all[0].start - 1, NULL));
	assert_int_equal(errno, ENOENT);
	/* Same path again: same handle. */
	assert_ptr_equal(sonde_symcache__dso(c, bin, NULL, 0), d);
	sonde_dso__put(d);
	sonde_dso__put(d);
	sonde_symcache__free(c);
}

struct live_map {
	uint64_t start, end, pgoff;
	char path[PATH_MAX];
};

static bool find_live_map(uintptr_t addr, struct live_map *m)
{
	char line[PATH_MAX + 128];
	FILE *f = fopen("/proc/self/maps", "r");
	bool found = false;

	assert_non_null(f);
	while (!found && fgets(line, sizeof(line), f)) {
		char perms[8];
		int pathpos = 0;

		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64
			   " %*s %*s %n", &m->start, &m->end, perms, &m->pgoff,
			   &pathpos) < 4 || !pathpos)
			continue;
		if (addr < m->start || addr >= m->end)
			continue;
		snprintf(m->path, sizeof(m->path), "%s", line + pathpos);
		m->path[strcspn(m->path, "\n")] = 0;
		found = true;
	}
	fclose(f);
	return found;
}

__attribute__((noinline)) void symtest_marker_function(void);
__attribute__((noinline)) void symtest_marker_function(void)
{
	__asm__ volatile("nop; nop; nop; nop" ::: "memory");
}

static void resolve_live(struct sonde_symcache *c, void *fn, const char *want)
{
	const struct sonde_symbol *s;
	struct live_map m;
	struct sonde_dso *d;
	uint64_t vaddr, off;

	assert_true(find_live_map((uintptr_t)fn, &m));
	d = sonde_symcache__dso(c, m.path, NULL, 0);
	assert_non_null(d);
	vaddr = sonde_dso__map_to_vaddr(d, m.start, m.pgoff, (uintptr_t)fn + 1);
	assert_int_equal(sonde_dso__offset_to_vaddr(d, (uintptr_t)fn + 1 -
						       m.start + m.pgoff),
			 vaddr);
	s = sonde_dso__find(d, vaddr, &off);
	if (!s)
		printf("no symbol for %s at %#" PRIx64 " in %s (map %#" PRIx64
		       " pgoff %#" PRIx64 ")\n", want, vaddr, m.path, m.start,
		       m.pgoff);
	assert_non_null(s);
	assert_string_equal(s->name, want);
	assert_int_equal(off, 1);
	sonde_dso__put(d);
}

/* PIE (this test binary) and a shared library (libc) on live mappings. */
static void test_translation_live(void **state)
{
	struct sonde_symcache *c = sonde_symcache__new(NULL);
	/* From libc itself: under ASan the default scope has interceptors. */
	void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
	void *qs = libc ? dlsym(libc, "qsort") : NULL;
	Dl_info info;

	resolve_live(c, (void *)symtest_marker_function,
		     "symtest_marker_function");
	assert_non_null(qs);
	assert_true(dladdr(qs, &info));
	resolve_live(c, qs, "qsort");
	sonde_symcache__free(c);
	dlclose(libc);
}

/* Non-PIE: PT_LOAD vaddr == runtime address, map at its link address. */
static void test_translation_nopie(void **state)
{
	struct sonde_symcache *c = sonde_symcache__new(NULL);
	const struct sonde_symbol *s;
	struct sonde_dso *d;
	char bin[PATH_MAX];
	uint64_t addr = 0;
	FILE *f;
	char cmd[PATH_MAX + 64];

	if (!have_helper("symtest_nopie", bin, sizeof(bin)))
		skip();
	snprintf(cmd, sizeof(cmd),
		 "nm %s | awk '$3==\"symtest_global_mid\"{print $1}'", bin);
	f = popen(cmd, "r");
	assert_int_equal(fscanf(f, "%" SCNx64, &addr), 1);
	pclose(f);
	d = sonde_symcache__dso(c, bin, NULL, 0);
	/* Text segment of a -no-pie x86-64 binary: 0x401000 from 0x1000. */
	assert_int_equal(sonde_dso__map_to_vaddr(d, 0x401000, 0x1000, addr),
			 addr);
	s = sonde_dso__find(d, addr, NULL);
	assert_non_null(s);
	assert_string_equal(s->name, "symtest_global_mid");
	sonde_dso__put(d);
	sonde_symcache__free(c);
}

/* The one-call policy: ELF via map, JIT for anon, kernel for high IPs. */
static void test_resolve_policy(void **state)
{
	char kpath[PATH_MAX], jpath[PATH_MAX];
	struct sonde_sym_result r;
	struct sonde_symcache *c;
	struct live_map m;
	struct sonde_sym_map sm;

	snprintf(kpath, sizeof(kpath), "%s/kallsyms-resolve", tmpdir);
	write_file(kpath, "ffffffff81000000 T kfunc\n"
			  "ffffffff81000100 T kfunc2\n");
	snprintf(jpath, sizeof(jpath), "%s/perf-777.map", tmpdir);
	write_file(jpath, "10000 100 jitted\n");
	SONDE_OPTS(sonde_symcache_opts, o, .kallsyms_path = kpath,
		   .jit_dir = tmpdir);
	c = sonde_symcache__new(&o);

	memset(&r, 0xa5, sizeof(r));
	assert_int_equal(sonde_symcache__resolve(c, 777, NULL,
						 0xffffffff81000010, &r), 0);
	assert_int_equal(r.reserved[0] | r.reserved[1], 0);
	assert_string_equal(r.sym->name, "kfunc");
	assert_int_equal(r.offset, 0x10);
	assert_int_equal(sonde_dso__kind(r.dso), SONDE_DSO_KERNEL);

	/* A module's map names its .ko: still kallsyms. */
	sm = (struct sonde_sym_map){ .path = "/lib/modules/x/foo.ko",
				     .start = 0xffffffff81000000 };
	assert_int_equal(sonde_symcache__resolve(c, 777, &sm,
						 0xffffffff81000104, &r), 0);
	assert_string_equal(r.sym->name, "kfunc2");

	sm = (struct sonde_sym_map){ .path = "//anon", .start = 0x10000 };
	assert_int_equal(sonde_symcache__resolve(c, 777, &sm, 0x10050, &r), 0);
	assert_string_equal(r.sym->name, "jitted");
	assert_int_equal(sonde_symcache__resolve(c, 777, &sm, 0x20000, &r),
			 -ENOENT);
	assert_int_equal(sonde_dso__kind(r.dso), SONDE_DSO_JIT);

	assert_true(find_live_map((uintptr_t)symtest_marker_function, &m));
	sm = (struct sonde_sym_map){ .path = m.path, .start = m.start,
				     .pgoff = m.pgoff };
	assert_int_equal(sonde_symcache__resolve(
				 c, getpid(), &sm,
				 (uintptr_t)symtest_marker_function + 2, &r), 0);
	assert_string_equal(r.sym->name, "symtest_marker_function");
	assert_int_equal(r.offset, 2);
	sm.path = "[heap]";
	assert_int_equal(sonde_symcache__resolve(c, 0, &sm, 0x1000, &r),
			 -ENOENT);
	assert_null(r.dso);
	/* The vdso, from this process's own copy. */
	{
		void *cgt = dlsym(RTLD_DEFAULT, "clock_gettime");
		void *vdso_fn = NULL;
		void *h = dlopen("linux-vdso.so.1", RTLD_LAZY | RTLD_NOLOAD);

		if (h)
			vdso_fn = dlsym(h, "__vdso_clock_gettime");
		(void)cgt;
		if (!vdso_fn) {
			printf("SKIP: no vdso clock_gettime here\n");
		} else {
			assert_true(find_live_map((uintptr_t)vdso_fn, &m));
			assert_string_equal(m.path, "[vdso]");
			sm = (struct sonde_sym_map){ .path = m.path,
						     .start = m.start,
						     .pgoff = m.pgoff };
			assert_int_equal(sonde_symcache__resolve(
					 c, getpid(), &sm,
					 (uintptr_t)vdso_fn + 1, &r), 0);
			assert_string_equal(r.sym->name,
					    "__vdso_clock_gettime");
		}
	}
	sonde_symcache__free(c);
}

static void test_build_id(void **state)
{
	struct sonde_symcache *c = sonde_symcache__new(NULL);
	uint8_t bid[64], wrong[20];
	struct sonde_dso *d;
	char bin[PATH_MAX];
	int n;

	if (!have_helper("symtest", bin, sizeof(bin)))
		skip();
	n = sonde_elf_build_id(bin, bid, sizeof(bid));
	assert_int_equal(n, 20);
	/* Right id: symbols. */
	d = sonde_symcache__dso(c, bin, bid, (size_t)n);
	assert_true(sonde_dso__load(d) > 0);
	sonde_dso__put(d);
	/* Wrong id: warned, empty, never the wrong names. */
	memset(wrong, 0xab, sizeof(wrong));
	d = sonde_symcache__dso(c, bin, wrong, sizeof(wrong));
	sonde_set_print(silent);
	assert_int_equal(sonde_dso__load(d), -ESTALE);
	sonde_set_print(NULL);
	assert_int_equal(sonde_dso__status(d), SONDE_DSO_BUILD_ID_MISMATCH);
	assert_null(sonde_dso__find(d, 0x1260, NULL));
	sonde_dso__put(d);
	/* Missing file. */
	d = sonde_symcache__dso(c, "/nonexistent/lib.so", NULL, 0);
	assert_int_equal(sonde_dso__load(d), -ENOENT);
	assert_int_equal(sonde_dso__status(d), SONDE_DSO_MISSING);
	sonde_dso__put(d);
	sonde_symcache__free(c);
}

/* perf's build-id cache stands in for a file that is gone or changed. */
static void test_buildid_cache(void **state)
{
	char bin[PATH_MAX], hex[41], cache[PATH_MAX], other[PATH_MAX];
	const struct sonde_symbol *s, *all;
	struct sonde_symcache *c;
	struct sonde_dso *d;
	uint8_t bid[20];
	size_t n, k;
	int i;

	if (!have_helper("symtest", bin, sizeof(bin)) ||
	    !have_helper("symtest_nopie", other, sizeof(other)))
		skip();
	assert_int_equal(sonde_elf_build_id(bin, bid, sizeof(bid)), 20);
	for (i = 0; i < 20; i++)
		sprintf(hex + 2 * i, "%02x", bid[i]);
	snprintf(cache, sizeof(cache), "%s/bidcache", tmpdir);
	sh("mkdir -p %s/.build-id/%.2s/%s && cp %s %s/.build-id/%.2s/%s/elf",
	   cache, hex, hex + 2, bin, cache, hex, hex + 2);
	SONDE_OPTS(sonde_symcache_opts, o, .buildid_dir = cache,
		   .debug_dir = "/nonexistent");
	c = sonde_symcache__new(&o);

	/* Gone: the cached copy is used. */
	d = sonde_symcache__dso(c, "/nonexistent/symtest", bid, 20);
	assert_true(sonde_dso__load(d) > 5);
	assert_non_null(strstr(sonde_dso__symfile(d), "bidcache"));
	sonde_dso__put(d);

	/* Replaced by another binary: the cached copy, not the new file. */
	d = sonde_symcache__dso(c, other, bid, 20);
	assert_true(sonde_dso__load(d) > 5);
	assert_int_equal(sonde_dso__status(d), SONDE_DSO_OK);
	n = sonde_dso__symbols(d, &all);
	for (k = 0; k < n; k++)
		if (!strcmp(all[k].name, "symtest_strong"))
			break;
	assert_true(k < n);
	/* PIE addresses (small), as in the recorded file. */
	assert_true(all[k].start < 0x100000);
	s = sonde_dso__find(d, all[k].start, NULL);
	assert_ptr_equal(s, &all[k]);
	sonde_dso__put(d);
	sonde_symcache__free(c);
}

/* Stripped file + .build-id debug file; stripped + .gnu_debuglink. */
static void test_debug_files(void **state)
{
	char bin[PATH_MAX], hex[41], dbgdir[PATH_MAX];
	const struct sonde_symbol *s;
	struct sonde_symcache *c;
	struct sonde_dso *d;
	uint8_t bid[20];
	int i;

	if (!have_helper("symtest", bin, sizeof(bin)))
		skip();
	if (system("command -v objcopy >/dev/null && command -v strip >/dev/null")) {
		printf("SKIP: objcopy/strip (binutils) not installed\n");
		skip();
	}
	assert_int_equal(sonde_elf_build_id(bin, bid, sizeof(bid)), 20);
	for (i = 0; i < 20; i++)
		sprintf(hex + 2 * i, "%02x", bid[i]);
	snprintf(dbgdir, sizeof(dbgdir), "%s/debug", tmpdir);
	sh("mkdir -p %s/.build-id/%.2s %s/dl", dbgdir, hex, tmpdir);
	sh("objcopy --only-keep-debug %s %s/.build-id/%.2s/%s.debug", bin,
	   dbgdir, hex, hex + 2);
	sh("strip -o %s/stripped %s", tmpdir, bin);

	SONDE_OPTS(sonde_symcache_opts, o, .debug_dir = dbgdir);
	c = sonde_symcache__new(&o);
	snprintf(bin, sizeof(bin), "%s/stripped", tmpdir);
	d = sonde_symcache__dso(c, bin, NULL, 0);
	assert_true(sonde_dso__load(d) > 0);
	assert_non_null(strstr(sonde_dso__symfile(d), ".build-id/"));
	/* A static function exists only in .symtab, i.e. the debug file. */
	s = sonde_dso__find(d, 0, NULL);
	assert_null(s);
	{
		const struct sonde_symbol *all;
		size_t n = sonde_dso__symbols(d, &all), k;
		bool found = false;

		for (k = 0; k < n; k++)
			found |= !strcmp(all[k].name, "symtest_static_leaf");
		assert_true(found);
	}
	sonde_dso__put(d);
	sonde_symcache__free(c);

	/* .gnu_debuglink next to the file; debug_dir elsewhere. */
	sh("cp %s/.build-id/%.2s/%s.debug %s/dl/symtest.debug", dbgdir, hex,
	   hex + 2, tmpdir);
	sh("objcopy --add-gnu-debuglink=%s/dl/symtest.debug %s/stripped "
	   "%s/dl/symtest", tmpdir, tmpdir, tmpdir);
	SONDE_OPTS(sonde_symcache_opts, o2, .debug_dir = "/nonexistent");
	c = sonde_symcache__new(&o2);
	snprintf(bin, sizeof(bin), "%s/dl/symtest", tmpdir);
	d = sonde_symcache__dso(c, bin, NULL, 0);
	assert_true(sonde_dso__load(d) > 0);
	assert_non_null(strstr(sonde_dso__symfile(d), "dl/symtest.debug"));
	sonde_dso__put(d);
	/* Without debug files: only .dynsym (no static functions). */
	sonde_symcache__free(c);
	SONDE_OPTS(sonde_symcache_opts, o3, .no_debug_files = true);
	c = sonde_symcache__new(&o3);
	d = sonde_symcache__dso(c, bin, NULL, 0);
	sonde_dso__load(d);
	{
		const struct sonde_symbol *all;
		size_t n = sonde_dso__symbols(d, &all), k;

		for (k = 0; k < n; k++)
			assert_string_not_equal(all[k].name,
						"symtest_static_leaf");
	}
	sonde_dso__put(d);
	sonde_symcache__free(c);
}

static void test_kallsyms(void **state)
{
	char path[PATH_MAX];
	const struct sonde_symbol *s;
	struct sonde_symcache *c;
	struct sonde_dso *d;
	uint64_t off;

	snprintf(path, sizeof(path), "%s/kallsyms", tmpdir);
	write_file(path,
		   "ffffffff81000000 T _text\n"
		   "ffffffff81000000 T startup_64\n"
		   "ffffffff81001000 t local_fn\n"
		   "ffffffff81001000 t __local_fn_alias\n"
		   "ffffffff81001100 D some_data\n"
		   "ffffffff81001200 W weak_fn\n"
		   "ffffffff81001300 T _etext\n"
		   "garbage line\n"
		   "ffffffffc0001000 t mod_fn\t[dummy_mod]\n"
		   "ffffffffc0001080 T mod_fn2\t[dummy_mod]");
	SONDE_OPTS(sonde_symcache_opts, o, .kallsyms_path = path);
	c = sonde_symcache__new(&o);
	d = sonde_symcache__kernel(c);
	assert_int_equal(sonde_dso__load(d), 6);
	s = sonde_dso__find(d, 0xffffffff81000010, &off);
	/*
	 * Of the aliases at one address perf 6.1 keeps the last line (the
	 * only one it gives a size), whatever the names or bindings.
	 */
	assert_string_equal(s->name, "startup_64");
	s = sonde_dso__find(d, 0xffffffff81001150, &off);
	assert_string_equal(s->name, "__local_fn_alias"); /* data skipped */
	assert_int_equal(off, 0x150);
	s = sonde_dso__find(d, 0xffffffffc0001004, &off);
	assert_string_equal(s->name, "mod_fn");
	assert_string_equal(s->module, "dummy_mod");
	s = sonde_dso__find(d, 0xffffffffc0001090, &off);
	assert_string_equal(s->name, "mod_fn2");
	assert_null(sonde_dso__find(d, 0x1000, NULL));
	/* vmlinux's last symbol does not stretch to the modules. */
	assert_null(sonde_dso__find(d, 0xffffffffa0000000, NULL));
	sonde_dso__put(d);
	sonde_symcache__free(c);

	/* Restricted: every address zero. */
	write_file(path, "0000000000000000 T _text\n"
			 "0000000000000000 t foo\n");
	c = sonde_symcache__new(&o);
	d = sonde_symcache__kernel(c);
	sonde_set_print(silent);
	assert_int_equal(sonde_dso__load(d), -EACCES);
	sonde_set_print(NULL);
	assert_int_equal(sonde_dso__status(d), SONDE_DSO_RESTRICTED);
	assert_null(sonde_dso__find(d, 0, NULL));
	sonde_dso__put(d);
	sonde_symcache__free(c);
}

/*
 * The kernel's source is chosen in one place: --kallsyms, then --vmlinux,
 * then (another kernel by release) perf's copy or none, then this boot's.
 */
static void test_kernel_sources(void **state)
{
	char kpath[PATH_MAX], rpath[PATH_MAX], exe[PATH_MAX], rel[300];
	const uint8_t bad[4] = { 0xde, 0xad, 0xbe, 0xee };
	struct sonde_symcache *c;
	struct sonde_dso *d;
	struct utsname u;
	uint8_t id[64];
	ssize_t n;

	(void)state;
	assert_int_equal(uname(&u), 0);
	snprintf(kpath, sizeof(kpath), "%s/kallsyms-this", tmpdir);
	write_file(kpath, "ffffffff81000000 T this_kfunc\n");
	snprintf(rpath, sizeof(rpath), "%s/kallsyms-rec", tmpdir);
	write_file(rpath, "ffffffff81000000 T rec_kfunc\n");

	/* Another release, no copy at hand: no names, never this kernel's. */
	snprintf(rel, sizeof(rel), "%s-other", u.release);
	SONDE_OPTS(sonde_symcache_opts, o, .kallsyms_path = kpath, .buildid_dir = "");
	c = sonde_symcache__new(&o);
	assert_int_equal(sonde_symcache__set_kernel_release(c, rel), 0);
	d = sonde_symcache__kernel(c);
	sonde_set_print(silent);
	assert_int_equal(sonde_dso__load(d), -ESTALE);
	sonde_set_print(NULL);
	assert_int_equal(sonde_dso__status(d), SONDE_DSO_BUILD_ID_MISMATCH);
	assert_int_equal(sonde_symcache__set_kernel_release(c, u.release), -EBUSY);
	sonde_dso__put(d);
	sonde_symcache__free(c);
	/* The running release: this kernel's kallsyms. */
	c = sonde_symcache__new(&o);
	assert_int_equal(sonde_symcache__set_kernel_release(c, u.release), 0);
	d = sonde_symcache__kernel(c);
	assert_int_equal(sonde_dso__load(d), 1);
	assert_string_equal(sonde_dso__find(d, 0xffffffff81000001, NULL)->name, "this_kfunc");
	sonde_dso__put(d);
	sonde_symcache__free(c);

	/* The recorded kernel's kallsyms wins, whatever the recording says. */
	SONDE_OPTS(sonde_symcache_opts, o2, .kallsyms_path = kpath, .buildid_dir = "",
		   .recorded_kallsyms_path = rpath, .vmlinux_path = "/nonexistent");
	c = sonde_symcache__new(&o2);
	assert_int_equal(sonde_symcache__set_kernel_release(c, rel), 0);
	assert_int_equal(sonde_symcache__set_kernel_build_id(c, bad, 4), 0);
	d = sonde_symcache__kernel(c);
	assert_int_equal(sonde_dso__load(d), 1);
	assert_string_equal(sonde_dso__find(d, 0xffffffff81000001, NULL)->name, "rec_kfunc");
	sonde_dso__put(d);
	sonde_symcache__free(c);

	/* A vmlinux: an ELF image's symbols, its build id checked. */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	assert_true(n > 0);
	exe[n] = 0;
	SONDE_OPTS(sonde_symcache_opts, o3, .kallsyms_path = kpath, .vmlinux_path = exe);
	c = sonde_symcache__new(&o3);
	assert_int_equal(sonde_symcache__set_kernel_text(c, 0), 0);
	d = sonde_symcache__kernel(c);
	assert_true(sonde_dso__load(d) > 10);
	assert_string_equal(sonde_dso__symfile(d), exe);
	assert_int_equal(sonde_symcache__set_kernel_text(c, 0), -EBUSY);
	sonde_dso__put(d);
	sonde_symcache__free(c);
	if (sonde_elf_build_id(exe, id, sizeof(id)) > 0) {
		c = sonde_symcache__new(&o3);
		id[0] ^= 1;
		assert_int_equal(sonde_symcache__set_kernel_build_id(c, id, 20), 0);
		d = sonde_symcache__kernel(c);
		sonde_set_print(silent);
		assert_int_equal(sonde_dso__load(d), -ESTALE);
		sonde_set_print(NULL);
		assert_int_equal(sonde_dso__status(d), SONDE_DSO_BUILD_ID_MISMATCH);
		sonde_dso__put(d);
		sonde_symcache__free(c);
	}
	/* Not ELF: refused as such. */
	SONDE_OPTS(sonde_symcache_opts, o4, .kallsyms_path = kpath, .vmlinux_path = kpath);
	c = sonde_symcache__new(&o4);
	d = sonde_symcache__kernel(c);
	sonde_set_print(silent);
	assert_int_equal(sonde_dso__load(d), -SONDE_ERR_FORMAT);
	sonde_set_print(NULL);
	assert_int_equal(sonde_dso__status(d), SONDE_DSO_BAD_ELF);
	sonde_dso__put(d);
	sonde_symcache__free(c);
}

static void test_real_kallsyms(void **state)
{
	struct sonde_symcache *c = sonde_symcache__new(NULL);
	struct sonde_dso *d = sonde_symcache__kernel(c);
	const struct sonde_symbol *all, *s;
	int n;

	sonde_set_print(silent);
	n = sonde_dso__load(d);
	sonde_set_print(NULL);
	if (n == -EACCES) {
		printf("SKIP: /proc/kallsyms is restricted for this user\n");
		sonde_dso__put(d);
		sonde_symcache__free(c);
		skip();
	}
	assert_true(n > 1000);
	sonde_dso__symbols(d, &all);
	s = sonde_dso__find(d, all[n / 2].start, NULL);
	assert_ptr_equal(s, &all[n / 2]);
	sonde_dso__put(d);
	sonde_symcache__free(c);
}

static void test_perfmap(void **state)
{
	char path[PATH_MAX];
	const struct sonde_symbol *s;
	struct sonde_symcache *c;
	struct sonde_dso *d;
	uint64_t off;

	snprintf(path, sizeof(path), "%s/perf-4242.map", tmpdir);
	write_file(path, "7f0000001000 100 LazyCompile:~foo bar.js:1\n"
			 "7f0000001100 40 stub\n"
			 "not a line\n"
			 "0x7f0000002000 0x20 jit_hex\n"
			 "7f0000001000 80 recompiled_foo\n");
	SONDE_OPTS(sonde_symcache_opts, o, .jit_dir = tmpdir);
	c = sonde_symcache__new(&o);
	d = sonde_symcache__jit(c, 4242);
	assert_int_equal(sonde_dso__load(d), 3);
	s = sonde_dso__find(d, 0x7f0000001010, &off);
	assert_string_equal(s->name, "recompiled_foo");	/* later line wins */
	s = sonde_dso__find(d, 0x7f0000001120, &off);
	assert_string_equal(s->name, "stub");
	assert_null(sonde_dso__find(d, 0x7f0000001140, NULL));
	s = sonde_dso__find(d, 0x7f000000201f, &off);
	assert_string_equal(s->name, "jit_hex");
	assert_ptr_equal(sonde_symcache__jit(c, 4242), d);
	sonde_dso__put(d);
	sonde_dso__put(d);
	sonde_symcache__free(c);

	/* Not ours and not root's: refused. */
	if (geteuid() != 0) {
		printf("SKIP: ownership refusal needs root to chown\n");
		skip();
	}
	assert_int_equal(chown(path, 12345, 12345), 0);
	c = sonde_symcache__new(&o);
	d = sonde_symcache__jit(c, 4242);
	sonde_set_print(silent);
	assert_int_equal(sonde_dso__load(d), -EACCES);
	sonde_set_print(NULL);
	assert_int_equal(sonde_dso__status(d), SONDE_DSO_REFUSED);
	assert_null(sonde_dso__find(d, 0x7f0000001010, NULL));
	sonde_dso__put(d);
	sonde_symcache__free(c);
}

static void check_dm(const char *in, const char *want)
{
	check_owned_name(sonde_demangle(in), want);
}

static void test_demangle(void **state)
{
	check_dm("_ZN3foo3barEv", "foo::bar()");
	check_dm("_ZNSt6vectorIiSaIiEE9push_backERKi",
		 "std::vector<int, std::allocator<int> >::push_back(int const&)");
	check_dm("_ZN4core3fmt5write17h0123456789abcdefE", "core::fmt::write");
	check_dm("_ZN70_$LT$alloc..vec..Vec$LT$T$C$A$GT$$u20$as$u20$core..ops..drop..Drop$GT$4drop17h5d2a3e0b9f1c7a64E",
		 "<alloc::vec::Vec<T,A> as core::ops::drop::Drop>::drop");
	/* Rust v0. */
	check_dm("_RNvCs15kBYyAo9fc_7mycrate7example", "mycrate::example");
	check_dm("_RNvMsr_NtCs3ssYzQotkvD_3std4pathNtB5_7PathBuf3new",
		 "<std::path::PathBuf>::new");
	check_dm("_RNCNvCsgStHSCytQ6I_7mycrate4main0B3_",
		 "mycrate::main::{closure#0}");
	/* A named closure whose name fills the buffer to its last byte:
	 * inserting the ':' must grow it (fuzz_symbols found an overflow). */
	check_dm("_RNCNvCs1_1a4main46nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn",
		 "a::main::{closure:nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn#0}");
	check_dm("_RINvCs1234_3foo3barmEB2_", "foo::bar::<u32>");
	check_dm("_RNvXs2_NtNtCs1234_4core3fmt3numjNtB7_5Debug3fmt",
		 "<usize as core::fmt::Debug>::fmt");
	check_dm("_RINvCs1_1a1fRShTmbEE", "a::f::<&[u8], (u32, bool)>");
	check_dm("_RNvCs1234_7mycrate3foo.llvm.123", "mycrate::foo");
	check_dm("_RNvB0_1a", NULL);	/* backref to itself: refused */
	check_dm("_Rgarbage", NULL);
	check_dm("main", NULL);
	check_dm("_Zgarbage", NULL);
}

/* One address as addr2line -i answers it: "file:line fn fn ...". */
static bool addr2line_answer(FILE *f, char *out, size_t size, char *next,
			     size_t nsize)
{
	char fn[512], loc[1024];
	size_t len = 0;
	bool any = false;

	out[0] = 0;
	while (fgets(fn, sizeof(fn), f)) {
		if (!strncmp(fn, "0x", 2)) {
			snprintf(next, nsize, "%s", fn);
			return any;
		}
		if (!fgets(loc, sizeof(loc), f))
			break;
		fn[strcspn(fn, "\n")] = 0;
		loc[strcspn(loc, " \n")] = 0;
		if (!any) {
			const char *base = strrchr(loc, '/');

			len = (size_t)snprintf(out, size, "%s", base ? base + 1 : loc);
			any = true;
		}
		len += (size_t)snprintf(out + len, size - len, " %s", fn);
	}
	next[0] = 0;
	return any;
}

/* "srcline: inline names" of @p n addresses of @p d, one string each. */
/* srcline and inline chains against binutils' addr2line on symtest. */
static void test_srcline_inlines(void **state)
{
	struct sonde_symcache *c = sonde_symcache__new(NULL);
	const struct sonde_symbol *syms;
	struct sonde_dso *d;
	char bin[PATH_MAX], cmd[PATH_MAX + 64], next[64] = "", want[2048];
	uint64_t addrs[64];
	size_t nr, n = 0, checked = 0;
	char buf[256], *names[8];
	FILE *f;

	(void)state;
	if (!have_helper("symtest", bin, sizeof(bin)))
		skip();
	if (system("command -v addr2line >/dev/null 2>&1")) {
		printf("SKIP: addr2line is not installed\n");
		skip();
	}
	d = sonde_symcache__dso(c, bin, NULL, 0);
	nr = sonde_dso__symbols(d, &syms);
	assert_true(nr > 0);
	/* The middle of every sized function: inlined code, often. */
	for (size_t i = 0; i < nr && n < 64; i++)
		if (!syms[i].size_synth && syms[i].size > 8)
			addrs[n++] = syms[i].start + syms[i].size / 2;
	assert_true(n > 3);
	f = tmpfile();
	assert_non_null(f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "0x%" PRIx64 "\n", addrs[i]);
	fflush(f);
	rewind(f);
	snprintf(cmd, sizeof(cmd), "addr2line -a -i -f -e %s <&%d", bin, fileno(f));
	FILE *p = popen(cmd, "r");

	assert_non_null(p);
	assert_non_null(fgets(next, sizeof(next), p));
	for (size_t i = 0; i < n && next[0]; i++) {
		char got[2048];
		size_t len;
		int k, sl;

		assert_int_equal(strtoull(next, NULL, 16), addrs[i]);
		if (!addr2line_answer(p, want, sizeof(want), next, sizeof(next)) ||
		    !strncmp(want, "??", 2))
			continue;
		sl = sonde_dso__srcline(d, addrs[i], buf, sizeof(buf));
		assert_true(sl > 0);
		k = sonde_dso__inlines(d, addrs[i], names, 8);
		assert_true(k > 0);
		len = (size_t)snprintf(got, sizeof(got), "%s", buf);
		for (int j = 0; j < k; j++) {
			len += (size_t)snprintf(got + len, sizeof(got) - len, " %s", names[j]);
			free(names[j]);
		}
		assert_string_equal(got, want);
		checked++;
	}
	pclose(p);
	fclose(f);
	assert_true(checked > 3);
	/* No line there, bad arguments. */
	assert_int_equal(sonde_dso__srcline(d, 1, buf, sizeof(buf)), -ENOENT);
	assert_int_equal(sonde_dso__inlines(d, 1, names, 8), 0);
	assert_int_equal(sonde_dso__srcline(d, addrs[0], NULL, 0), -EINVAL);
	assert_int_equal(sonde_dso__inlines(NULL, addrs[0], names, 8), -EINVAL);
	sonde_dso__put(d);
	sonde_symcache__free(c);
}

/* A JIT map's names are shown as written (perf 6.1 neither demangles nor cuts them). */
static void test_sym_name_jit(void **state)
{
	struct sonde_symcache *c;
	char path[PATH_MAX];
	const struct sonde_symbol *s;
	struct sonde_dso *d;

	snprintf(path, sizeof(path), "%s/perf-4343.map", tmpdir);
	write_file(path, "1000 10 _ZN3foo3barEv\n2000 10 plain\n"
			 "3000 10 xdr_opaque@GLIBC_2.2.5\n");
	SONDE_OPTS(sonde_symcache_opts, o, .jit_dir = tmpdir);
	c = sonde_symcache__new(&o);
	d = sonde_symcache__jit(c, 4343);
	s = sonde_dso__find(d, 0x1001, NULL);
	assert_string_equal(sonde_dso__sym_name(d, s), "_ZN3foo3barEv");
	assert_ptr_equal(sonde_dso__sym_name(d, s), sonde_dso__sym_name(d, s));
	s = sonde_dso__find(d, 0x2001, NULL);
	assert_ptr_equal(sonde_dso__sym_name(d, s), s->name);
	s = sonde_dso__find(d, 0x3001, NULL);
	assert_string_equal(sonde_dso__sym_name(d, s), "xdr_opaque@GLIBC_2.2.5");
	sonde_dso__put(d);
	sonde_symcache__free(c);
}

static struct sonde_dso *race_dso;

static void *race_lookup(void *arg)
{
	const struct sonde_symbol *all;
	uint64_t i;

	(void)arg;
	for (i = 0; i < 20000; i++)
		sonde_dso__find(race_dso, 0x1000 + (i % 0x400), NULL);
	return (void *)sonde_dso__symbols(race_dso, &all);
}

/* Two threads race the lazy load; both see the same full table. */
static void test_threads(void **state)
{
	struct sonde_symcache *c = sonde_symcache__new(NULL);
	char bin[PATH_MAX];
	pthread_t t1, t2;
	void *r1, *r2;

	if (!have_helper("symtest", bin, sizeof(bin)))
		skip();
	race_dso = sonde_symcache__dso(c, bin, NULL, 0);
	/* A background load racing the lookups too. */
	assert_int_equal(sonde_dso__prefetch(race_dso), 0);
	pthread_create(&t1, NULL, race_lookup, NULL);
	pthread_create(&t2, NULL, race_lookup, NULL);
	pthread_join(t1, &r1);
	pthread_join(t2, &r2);
	assert_true((size_t)r1 > 5);
	assert_ptr_equal(r1, r2);
	sonde_dso__put(race_dso);
	sonde_symcache__free(c);
}

/* Enough DSOs to grow the cache's table a few times, asked from two threads. */
#define MANY_DSOS 3000
static struct sonde_symcache *many_cache;

static void *ask_many(void *arg)
{
	struct sonde_dso **out = arg;
	const uint8_t bid[4] = { 1, 2, 3, 4 };
	char path[64];

	for (int i = 0; i < MANY_DSOS; i++) {
		snprintf(path, sizeof(path), "/nonexistent/lib%d.so", i);
		/* The same path with and without a build id: two DSOs. */
		out[2 * i] = sonde_symcache__dso(many_cache, path, NULL, 0);
		out[2 * i + 1] = sonde_symcache__dso(many_cache, path, bid, sizeof(bid));
	}
	return NULL;
}

/* Every (path, build id) is one handle, whichever thread asked first. */
static void test_many_dsos_threads(void **state)
{
	static struct sonde_dso *a[2 * MANY_DSOS], *b[2 * MANY_DSOS];
	const uint8_t bid[4] = { 1, 2, 3, 4 }, other[4] = { 1, 2, 3, 5 };
	struct sonde_dso *d;
	pthread_t t1, t2;

	many_cache = sonde_symcache__new(NULL);
	assert_non_null(many_cache);
	assert_int_equal(pthread_create(&t1, NULL, ask_many, a), 0);
	assert_int_equal(pthread_create(&t2, NULL, ask_many, b), 0);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	for (int i = 0; i < 2 * MANY_DSOS; i++) {
		assert_non_null(a[i]);
		assert_ptr_equal(a[i], b[i]);
		if (i % 2)
			assert_ptr_not_equal(a[i], a[i - 1]);
	}
	d = sonde_symcache__dso(many_cache, "/nonexistent/lib1234.so", bid, sizeof(bid));
	assert_ptr_equal(d, a[2 * 1234 + 1]);
	sonde_dso__put(d);
	d = sonde_symcache__dso(many_cache, "/nonexistent/lib1234.so", other, sizeof(other));
	assert_ptr_not_equal(d, a[2 * 1234 + 1]);
	assert_ptr_not_equal(d, a[2 * 1234]);
	sonde_dso__put(d);
	for (int i = 0; i < 2 * MANY_DSOS; i++) {
		sonde_dso__put(a[i]);
		sonde_dso__put(b[i]);
	}
	sonde_symcache__free(many_cache);
}

static int setup(void **state)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	assert_true(n > 0);
	exe[n] = 0;
	*strrchr(exe, '/') = 0;
	snprintf(helpers, sizeof(helpers), "%s/../helpers", exe);
	symtest_tmpdir_make();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_elf_vs_nm),
		cmocka_unit_test(test_alias_and_synth_size),
		cmocka_unit_test(test_no_fd_per_dso),
		cmocka_unit_test(test_translation_live),
		cmocka_unit_test(test_translation_nopie),
		cmocka_unit_test(test_resolve_policy),
		cmocka_unit_test(test_build_id),
		cmocka_unit_test(test_debug_files),
		cmocka_unit_test(test_buildid_cache),
		cmocka_unit_test(test_kallsyms),
		cmocka_unit_test(test_kernel_sources),
		cmocka_unit_test(test_real_kallsyms),
		cmocka_unit_test(test_perfmap),
		cmocka_unit_test(test_demangle),
		cmocka_unit_test(test_sym_name_jit),
		cmocka_unit_test(test_srcline_inlines),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_many_dsos_threads),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
