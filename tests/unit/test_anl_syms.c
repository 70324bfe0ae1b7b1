// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Symbol sources of the report model (anl_dso.c) that need no recording:
 * the names perf 6.1 shows for Rust (legacy without the hash, v0) and C++
 * mangled symbols, from hand-written mangled names (no rustc needed).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rust_names),
		cmocka_unit_test(test_cxx_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
