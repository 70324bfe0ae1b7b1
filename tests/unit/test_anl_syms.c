// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Symbol sources of the report model (anl_dso.c) that need no recording:
 * the names perf 6.1 shows for Rust (legacy without the hash, v0) and C++
 * mangled symbols, from hand-written mangled names (no rustc needed);
 * JIT memory and its /tmp/perf-PID.map (owner checked), from a map file
 * written here.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sonde/sonde.h"
#include "anl_priv.h"

static void test_rust_names(void **state)
{
	struct anl_machine *m = anl_machine_new();

	(void)state;
	assert_non_null(m);
	/* Legacy: perf 6.1 drops the "::h<hash>" and decodes $LT$ ... */
	assert_string_equal(anl_sym_name(m,
		"_ZN1r5inner10spin_plain17h1b1e76b33f7a75fcE"),
		"r::inner::spin_plain");
	assert_string_equal(anl_sym_name(m,
		"_ZN1r5inner13Spin$LT$T$GT$12spin_generic17h77f82811d65c2188E"),
		"r::inner::Spin<T>::spin_generic");
	/* v0: no crate disambiguator, generic arguments spelled out. */
	assert_string_equal(anl_sym_name(m,
		"_RNvMNtCs6GmmlP4bgsG_1r5innerINtB2_4SpinmE12spin_genericB4_"),
		"<r::inner::Spin<u32>>::spin_generic");
	assert_string_equal(anl_sym_name(m,
		"_RNvNtCs6GmmlP4bgsG_1r5inner10spin_plain"),
		"r::inner::spin_plain");
	/* Interned: the same name gives the same pointer. */
	assert_ptr_equal(anl_sym_name(m, "_RNvNtCs6GmmlP4bgsG_1r5inner10spin_plain"),
			 anl_sym_name(m, "_ZN1r5inner10spin_plain17h1b1e76b33f7a75fcE"));
	/* Not Rust: a C name starting with _R, an invalid v0 string. */
	assert_string_equal(anl_sym_name(m, "_Reserved"), "_Reserved");
	assert_string_equal(anl_sym_name(m, "_RNv"), "_RNv");
	anl_machine_free(m);
}

static void test_cxx_names(void **state)
{
	struct anl_machine *m = anl_machine_new();
	const char *n;

	(void)state;
	assert_non_null(m);
	/* A C++ hash-like tail that is not Rust's: still C++ rules. */
	n = anl_sym_name(m, "_ZN2ns3fooEi");
	if (!strcmp(n, "_ZN2ns3fooEi")) {
		printf("SKIP: no C++ demangler (libstdc++.so.6) here\n");
		anl_machine_free(m);
		skip();
	}
	assert_string_equal(n, "ns::foo");
	assert_string_equal(anl_sym_name(m, "_Z1fIiEvT_"), "f<int>");
	assert_string_equal(anl_sym_name(m, "main"), "main");
	anl_machine_free(m);
}

static void test_jit_memory(void **state)
{
	(void)state;
	assert_true(anl_is_jit_memory("//anon", 6));
	assert_true(anl_is_jit_memory("/dev/zero (deleted)", 19));
	assert_true(anl_is_jit_memory("/anon_hugepage (deleted)", 24));
	assert_true(anl_is_jit_memory("[heap]", 6));
	assert_true(anl_is_jit_memory("[stack]", 7));
	assert_true(anl_is_jit_memory("/SYSV00000000", 13));
	assert_false(anl_is_jit_memory("//anonymous", 11));
	assert_false(anl_is_jit_memory("/usr/lib/libc.so.6", 18));
	assert_false(anl_is_jit_memory("[vdso]", 6));
	assert_false(anl_is_jit_memory("//an", 4));
}

static void test_jit_map(void **state)
{
	struct anl_machine *m = anl_machine_new();
	const struct anl_sym *s;
	struct anl_dso *d;
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

	d = anl_dso_findnew(m, path, (size_t)n, false);
	assert_true(d->jit);
	assert_string_equal(d->short_name, tid);
	s = anl_dso_find_sym(m, d, 0x7f0000001010);
	assert_non_null(s);
	assert_string_equal(s->name, "jit_one");
	assert_null(anl_dso_find_sym(m, d, 0x7f0000001020)); /* the gap */
	s = anl_dso_find_sym(m, d, 0x7f000000104f);
	assert_non_null(s);
	assert_string_equal(s->name, "_ZN2ns3fooEi"); /* as written, like perf */
	s = anl_dso_find_sym(m, d, 0x7f0000002004);
	assert_non_null(s);
	assert_string_equal(s->name, "jit two words");
	anl_machine_free(m);

	/* Somebody else's file in /tmp is refused. */
	if (geteuid() == 0 && chown(path, 65534, 65534) == 0) {
		m = anl_machine_new();
		assert_non_null(m);
		sonde_print_fn_t old = sonde_set_print(NULL);

		d = anl_dso_findnew(m, path, (size_t)n, false);
		assert_null(anl_dso_find_sym(m, d, 0x7f0000001010));
		sonde_set_print(old);
		anl_machine_free(m);
	} else {
		printf("SKIP (owner check): not root, cannot chown the map file\n");
	}
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rust_names),
		cmocka_unit_test(test_cxx_names),
		cmocka_unit_test(test_jit_memory),
		cmocka_unit_test(test_jit_map),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
