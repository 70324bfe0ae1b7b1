// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Symbol sources of the report model (profile_dso.c) that need no recording:
 * the names perf 6.1 shows for Rust (legacy without the hash, v0) and C++
 * mangled symbols, from hand-written mangled names (no rustc needed);
 * JIT memory and its /tmp/perf-PID.map (owner checked), from a map file
 * written here; the build id a mapping was recorded with, against this
 * test program itself (its file, and its copy in a build-id cache).
 * Static-only: the report model's symbol sources (prof_machine, prof_dso,
 * sym_is_jit_memory) are internal.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sonde/sonde.h"
#include "profile_priv.h"
#include "sym_priv.h"

static void test_rust_names(void **state)
{
	struct prof_machine *m = prof_machine_new();

	(void)state;
	assert_non_null(m);
	/* Legacy: perf 6.1 drops the "::h<hash>" and decodes $LT$ ... */
	assert_string_equal(prof_sym_name(m,
		"_ZN1r5inner10spin_plain17h1b1e76b33f7a75fcE"),
		"r::inner::spin_plain");
	assert_string_equal(prof_sym_name(m,
		"_ZN1r5inner13Spin$LT$T$GT$12spin_generic17h77f82811d65c2188E"),
		"r::inner::Spin<T>::spin_generic");
	/* v0: no crate disambiguator, generic arguments spelled out. */
	assert_string_equal(prof_sym_name(m,
		"_RNvMNtCs6GmmlP4bgsG_1r5innerINtB2_4SpinmE12spin_genericB4_"),
		"<r::inner::Spin<u32>>::spin_generic");
	assert_string_equal(prof_sym_name(m,
		"_RNvNtCs6GmmlP4bgsG_1r5inner10spin_plain"),
		"r::inner::spin_plain");
	/* Interned: the same name gives the same pointer. */
	assert_ptr_equal(prof_sym_name(m, "_RNvNtCs6GmmlP4bgsG_1r5inner10spin_plain"),
			 prof_sym_name(m, "_ZN1r5inner10spin_plain17h1b1e76b33f7a75fcE"));
	/* Not Rust: a C name starting with _R, an invalid v0 string. */
	assert_string_equal(prof_sym_name(m, "_Reserved"), "_Reserved");
	assert_string_equal(prof_sym_name(m, "_RNv"), "_RNv");
	prof_machine_free(m);
}

static void test_cxx_names(void **state)
{
	struct prof_machine *m = prof_machine_new();
	const char *n;

	(void)state;
	assert_non_null(m);
	/* A C++ hash-like tail that is not Rust's: still C++ rules. */
	n = prof_sym_name(m, "_ZN2ns3fooEi");
	if (!strcmp(n, "_ZN2ns3fooEi")) {
		printf("SKIP: no C++ demangler (libstdc++.so.6) here\n");
		prof_machine_free(m);
		skip();
	}
	assert_string_equal(n, "ns::foo");
	assert_string_equal(prof_sym_name(m, "_Z1fIiEvT_"), "f<int>");
	assert_string_equal(prof_sym_name(m, "main"), "main");
	prof_machine_free(m);
}

static void test_jit_memory(void **state)
{
	(void)state;
	assert_true(sym_is_jit_memory("//anon", 6));
	assert_true(sym_is_jit_memory("/dev/zero (deleted)", 19));
	assert_true(sym_is_jit_memory("/anon_hugepage (deleted)", 24));
	assert_true(sym_is_jit_memory("[heap]", 6));
	assert_true(sym_is_jit_memory("[stack]", 7));
	assert_true(sym_is_jit_memory("/SYSV00000000", 13));
	assert_false(sym_is_jit_memory("//anonymous", 11));
	assert_false(sym_is_jit_memory("/usr/lib/libc.so.6", 18));
	assert_false(sym_is_jit_memory("[vdso]", 6));
	assert_false(sym_is_jit_memory("//an", 4));
}

static void test_jit_map(void **state)
{
	struct prof_machine *m = prof_machine_new();
	const struct prof_sym *s;
	struct prof_dso *d;
	char path[64], tid[64];
	FILE *f;
	int n;

	(void)state;
	assert_non_null(m);
	n = snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	snprintf(tid, sizeof(tid), "[JIT] tid %d", (int)getpid());
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("7f0000001000 20 jit_one\n"
	      "0x7f0000001040 0x10 _ZN2ns3fooEi\n"
	      "garbage line\n"
	      "7f0000002000 8 jit two words\n", f);
	assert_int_equal(fclose(f), 0);

	d = prof_dso_findnew(m, path, (size_t)n, false);
	assert_true(d->jit);
	assert_string_equal(d->short_name, tid);
	s = prof_dso_find_sym(m, d, 0x7f0000001010);
	assert_non_null(s);
	assert_string_equal(s->name, "jit_one");
	assert_null(prof_dso_find_sym(m, d, 0x7f0000001020)); /* the gap */
	s = prof_dso_find_sym(m, d, 0x7f000000104f);
	assert_non_null(s);
	assert_string_equal(s->name, "_ZN2ns3fooEi"); /* as written, like perf */
	s = prof_dso_find_sym(m, d, 0x7f0000002004);
	assert_non_null(s);
	assert_string_equal(s->name, "jit two words");
	prof_machine_free(m);

	/* Somebody else's file in /tmp is refused. */
	if (geteuid() == 0 && chown(path, 65534, 65534) == 0) {
		m = prof_machine_new();
		assert_non_null(m);
		sonde_print_fn_t old = sonde_set_print(NULL);

		d = prof_dso_findnew(m, path, (size_t)n, false);
		assert_null(prof_dso_find_sym(m, d, 0x7f0000001010));
		sonde_set_print(old);
		prof_machine_free(m);
	} else {
		printf("SKIP (owner check): not root, cannot chown the map file\n");
	}
	unlink(path);
}

/* The file offset of @name's start in the loaded @d (map-relative address). */
static uint64_t sym_offset(struct prof_machine *m, struct prof_dso *d, const char *name)
{
	for (size_t i = 0; i < d->nr_syms; i++) {
		const struct prof_sym *s = prof_dso_sym(m, d, i);
		uint64_t va = s->start;

		if (strcmp(s->name, name))
			continue;
		for (size_t k = 0; d->sdso && k < d->sdso->nloads; k++) {
			const GElf_Phdr *g = &d->sdso->loads[k];

			if (va >= g->p_vaddr && va - g->p_vaddr < g->p_memsz)
				return va - g->p_vaddr + g->p_offset;
		}
	}
	fail_msg("%s not in %s", name, d->name);
	return 0;
}

/* This test program's path. */
static void self_exe(char *exe, size_t size)
{
	ssize_t l = readlink("/proc/self/exe", exe, size - 1);

	assert_true(l > 0);
	exe[l] = 0;
}

static size_t named_entries(const struct prof_dso *d)
{
	size_t n = 0;

	for (size_t i = 0; i < d->nr_syms; i++)
		n += d->syms[i].name != NULL;
	return n;
}

/*
 * Loading an object names none of its symbols; a lookup names the one it
 * lands on (demangling and interning every name cost more than the
 * profile on short recordings).
 */
static void test_names_on_lookup(void **state)
{
	struct prof_machine *m = prof_machine_new();
	char exe[2048];
	struct prof_dso *d;
	uint64_t off;

	(void)state;
	self_exe(exe, sizeof(exe));
	d = prof_dso_findnew(m, exe, strlen(exe), false);
	(void)prof_dso_find_sym(m, d, 0); /* loads it */
	assert_true(d->nr_syms > 10);
	assert_true(named_entries(d) <= 1);
	off = sym_offset(m, d, "main"); /* names the entries on its way */
	prof_machine_free(m);
	/* A fresh machine: one lookup, one name. */
	m = prof_machine_new();
	d = prof_dso_findnew(m, exe, strlen(exe), false);
	assert_string_equal(prof_dso_find_sym(m, d, off)->name, "main");
	assert_int_equal(named_entries(d), 1);
	prof_machine_free(m);
}

/* @d as if its MMAP2 record carried @id (with byte 0 xor'ed by @flip). */
static struct prof_dso *mapped(struct prof_machine *m, const char *path, const uint8_t *id,
			      int n, uint8_t flip)
{
	struct prof_dso *d = prof_dso_findnew(m, path, strlen(path), false);

	memcpy(d->mmap_bid, id, (size_t)n);
	d->mmap_bid[0] ^= flip;
	d->mmap_bid_size = (uint8_t)n;
	return d;
}

static void test_mmap_build_id(void **state)
{
	char exe[2048], home[] = "/tmp/prof_bid_XXXXXX", hex[41], dir[2400], gone[2500];
	struct prof_machine *m;
	const struct prof_sym *s;
	struct prof_dso *d;
	uint64_t off;
	uint8_t id[20];
	int n;

	(void)state;
	self_exe(exe, sizeof(exe));
	n = sonde_elf_build_id(exe, id, sizeof(id));
	if (n <= 0) {
		printf("SKIP: %s has no build id\n", exe);
		skip();
	}
	assert_non_null(mkdtemp(home));
	setenv("HOME", home, 1); /* perf's build-id cache: empty for now */
	unsetenv("PERF_BUILDID_DIR");

	/* The recorded build: named, and its CFI is the file's. */
	m = prof_machine_new();
	d = mapped(m, exe, id, n, 0);
	(void)prof_dso_find_sym(m, d, 0); /* loads it */
	off = sym_offset(m, d, "main");
	s = prof_dso_find_sym(m, d, off);
	assert_non_null(s);
	assert_string_equal(s->name, "main");
	assert_string_equal(prof_dso_unwind_file(m, d), exe);
	prof_machine_free(m);

	/* Another build was recorded: no names, no CFI, one warning. */
	m = prof_machine_new();
	sonde_print_fn_t old = sonde_set_print(NULL);

	d = mapped(m, exe, id, n, 0xff);
	assert_null(prof_dso_unwind_file(m, d));
	assert_true(d->stale);
	assert_null(prof_dso_find_sym(m, d, off));
	sonde_set_print(old);
	prof_machine_free(m);

	/* Gone from disk, its copy in the cache: names and CFI from there. */
	for (int i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	snprintf(dir, sizeof(dir), "%s/.debug", home);
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(dir, sizeof(dir), "%s/.debug/.build-id", home);
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(dir, sizeof(dir), "%s/.debug/.build-id/%.2s", home, hex);
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(dir, sizeof(dir), "%s/.debug/.build-id/%.2s/%s", home, hex, hex + 2);
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(gone, sizeof(gone), "%s/elf", dir);
	assert_int_equal(symlink(exe, gone), 0);
	snprintf(gone, sizeof(gone), "%s/gone/prog", home);
	m = prof_machine_new();
	d = mapped(m, gone, id, n, 0);
	assert_non_null(prof_dso_unwind_file(m, d));
	assert_non_null(strstr(prof_dso_unwind_file(m, d), "/.debug/.build-id/"));
	s = prof_dso_find_sym(m, d, off);
	assert_non_null(s);
	assert_string_equal(s->name, "main");
	prof_machine_free(m);

	snprintf(gone, sizeof(gone), "rm -rf '%s'", home);
	assert_int_equal(system(gone), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rust_names),
		cmocka_unit_test(test_cxx_names),
		cmocka_unit_test(test_jit_memory),
		cmocka_unit_test(test_jit_map),
		cmocka_unit_test(test_mmap_build_id),
		cmocka_unit_test(test_names_on_lookup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
