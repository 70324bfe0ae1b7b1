// SPDX-License-Identifier: LGPL-2.1-only
/*
 * One symbolizer: report's model (profile_dso.c) and the public sonde_dso
 * load this machine's libc through the same loader and must agree on
 * every symbol's name and address range; the names are perf 6.1's (its
 * alias choice, versioned names as they are).
 * Static-only: it compares the report model's private loader (prof_dso) with
 * the public sonde_dso, and sym_table_finish()'s alias policies.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sonde/sonde.h"
#include "profile_priv.h"
#include "sym_priv.h"

static char libc_path[4096];

static int find_libc(struct dl_phdr_info *info, size_t size, void *arg)
{
	const char *b = strrchr(info->dlpi_name, '/');

	(void)size;
	(void)arg;
	if (b && !strncmp(b, "/libc.so", 8)) {
		snprintf(libc_path, sizeof(libc_path), "%s", info->dlpi_name);
		return 1;
	}
	return 0;
}

static void test_libc_agrees(void **state)
{
	struct sonde_symcache *c = sonde_symcache__new(NULL);
	const struct sonde_symbol *all;
	struct prof_machine *m = prof_machine_new();
	struct sonde_dso *d;
	struct prof_dso *a;
	size_t n, versioned = 0;

	(void)state;
	assert_non_null(c);
	assert_non_null(m);
	if (!dl_iterate_phdr(find_libc, NULL)) {
		printf("SKIP: this program has no libc.so mapped\n");
		goto out;
	}
	d = sonde_symcache__dso(c, libc_path, NULL, 0);
	n = sonde_dso__symbols(d, &all);
	a = prof_dso_findnew(m, libc_path, strlen(libc_path), false);
	(void)prof_dso_find_sym(m, a, 0);
	assert_true(n > 1000);
	assert_int_equal(a->nr_syms, n);
	for (size_t i = 0; i < n; i++) {
		const char *name = sonde_dso__sym_name(d, &all[i]);
		const struct prof_sym *s = prof_dso_sym(m, a, i);
		const struct sonde_symbol *pub;

		if (strcmp(s->name, name) || s->start != all[i].start ||
		    s->end != all[i].start + all[i].size)
			fail_msg("symbol %zu: report %s [%#llx, %#llx), sonde_dso %s "
				 "[%#llx, %#llx)", i, s->name, (unsigned long long)s->start,
				 (unsigned long long)s->end, name,
				 (unsigned long long)all[i].start,
				 (unsigned long long)(all[i].start + all[i].size));
		/* The lookups agree too, at the start and the last byte. */
		assert_ptr_equal(prof_dso_find_sym(m, a, all[i].start), s);
		pub = sonde_dso__find(d, s->end - 1, NULL);
		assert_non_null(pub);
		assert_string_equal(prof_dso_find_sym(m, a, s->end - 1)->name,
				    sonde_dso__sym_name(d, pub));
		versioned += strchr(name + 1, '@') && !strstr(name, "@plt");
	}
	/* With libc's .symtab (its debug file) perf shows versioned names. */
	if (!versioned)
		printf("SKIP (versioned names): %s has no .symtab here (%s)\n",
		       libc_path, sonde_dso__symfile(d));
	sonde_dso__put(d);
out:
	prof_machine_free(m);
	sonde_symcache__free(c);
}

/* A function of this program under a C++ name (an asm label). */
int cxx_shown(int x) __asm__("_ZN2ns5shownEi");
int cxx_shown(int x)
{
	return x + 1;
}

/*
 * C++ names as perf 6.1 shows them, without parameters, through both
 * paths: sonde_dso__sym_name() and the report model.
 */
static void test_cxx_name(void **state)
{
	struct sonde_symcache *c = sonde_symcache__new(NULL);
	struct prof_machine *m = prof_machine_new();
	const struct sonde_symbol *all, *s = NULL;
	char exe[4096];
	struct sonde_dso *d;
	uint64_t off;
	ssize_t l;
	size_t n;

	(void)state;
	assert_int_equal(cxx_shown(1), 2);
	l = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	assert_true(l > 0);
	exe[l] = 0;
	d = sonde_symcache__dso(c, exe, NULL, 0);
	n = sonde_dso__symbols(d, &all);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(all[i].name, "_ZN2ns5shownEi"))
			s = &all[i];
	assert_non_null(s);
	assert_string_equal(sonde_dso__sym_name(d, s), "ns::shown");
	assert_int_equal(sonde_dso__vaddr_to_offset(d, s->start, &off), 0);
	assert_string_equal(prof_dso_find_sym(m, prof_dso_findnew(m, exe, strlen(exe), false),
					     off)->name, "ns::shown");
	sonde_dso__put(d);
	prof_machine_free(m);
	sonde_symcache__free(c);
}

/*
 * glibc's memcpy: a global versioned symbol with a local alias
 * (__memcpy_sse2_unaligned on x86-64); perf shows "memcpy@GLIBC_2.2.5".
 */
static void test_libc_memcpy_name(void **state)
{
	struct sonde_symcache *c = sonde_symcache__new(NULL);
	const struct sonde_symbol *all;
	struct sonde_dso *d;
	const char *want = NULL;
	size_t n;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	uint64_t at = 0;

	(void)state;
	if (!dl_iterate_phdr(find_libc, NULL)) {
		printf("SKIP: this program has no libc.so mapped\n");
		goto out;
	}
	d = sonde_symcache__dso(c, libc_path, NULL, 0);
	n = sonde_dso__symbols(d, &all);
	/* Where the raw table (libc's debug file) has the versioned memcpy. */
	while (d->symelf && (scn = elf_nextscn(d->symelf, scn))) {
		Elf_Data *data = elf_getdata(scn, NULL);

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !data)
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			const char *name;

			if (!gelf_getsym(data, (int)i, &s))
				break;
			name = elf_strptr(d->symelf, sh.sh_link, s.st_name);
			if (name && !strcmp(name, "memcpy@GLIBC_2.2.5")) {
				at = s.st_value;
				want = "memcpy@GLIBC_2.2.5";
			}
		}
	}
	if (!want) {
		printf("SKIP: no memcpy@GLIBC_2.2.5 in %s's symbols (%s)\n", libc_path,
		       sonde_dso__symfile(d));
		sonde_dso__put(d);
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		if (all[i].start == at)
			assert_string_equal(sonde_dso__sym_name(d, &all[i]), want);
	assert_non_null(sonde_dso__find(d, at, NULL));
	sonde_dso__put(d);
out:
	sonde_symcache__free(c);
}

/* perf's order among aliases, and the first of equals. */
static void test_alias_order(void **state)
{
	struct sonde_symbol t[] = {
		{ .start = 0x100, .size = 8, .name = "weak_one", .binding = SONDE_SYM_WEAK },
		{ .start = 0x100, .size = 8, .name = "__local", .binding = SONDE_SYM_LOCAL },
		{ .start = 0x200, .size = 8, .name = "__g", .binding = SONDE_SYM_GLOBAL },
		{ .start = 0x200, .size = 8, .name = "g@V_1", .binding = SONDE_SYM_GLOBAL },
		{ .start = 0x200, .size = 8, .name = "g", .binding = SONDE_SYM_GLOBAL },
		{ .start = 0x300, .size = 8, .name = "bbb", .binding = SONDE_SYM_LOCAL },
		{ .start = 0x300, .size = 8, .name = "aaa", .binding = SONDE_SYM_LOCAL },
		{ .start = 0x400, .size = 0, .name = "longer_name", .binding = SONDE_SYM_GLOBAL },
		{ .start = 0x400, .size = 8, .name = "s", .binding = SONDE_SYM_LOCAL },
	};
	size_t n = sym_table_finish(t, sizeof(t) / sizeof(t[0]), SYM_DUP_BEST);

	(void)state;
	assert_int_equal(n, 4);
	assert_string_equal(t[0].name, "__local");	/* not weak beats weak */
	assert_string_equal(t[1].name, "g@V_1");	/* fewer '_', then longer */
	assert_string_equal(t[2].name, "bbb");		/* equals: the first */
	assert_string_equal(t[3].name, "s");		/* sized first */
}

static int by_start(const void *pa, const void *pb)
{
	const struct sonde_symbol *a = pa, *b = pb;

	return (a->start > b->start) - (a->start < b->start);
}

/*
 * Unsorted tables with many symbols at one address, some addresses far
 * apart (every byte differs): the finished table has each address once,
 * in order, with the symbol its run alone finishes to (perf's choice as
 * test_alias_order pins it, or the last line).
 */
static void test_finish_order(void **state)
{
	static const char *const names[] = { "a", "__a", "_bb", "ccc", "a@V", "__x_y" };
	enum { N = 5000 };
	struct sonde_symbol *t = malloc(N * sizeof(*t)), *orig = malloc(N * sizeof(*t));
	struct sonde_symbol *run = malloc(N * sizeof(*t)), *addrs = malloc(N * sizeof(*t));
	uint64_t seed = 12345;

	(void)state;
	assert_true(t && orig && run && addrs);
	for (int p = 0; p < 2; p++) {
		enum sym_dup_policy policy = p ? SYM_DUP_LAST : SYM_DUP_BEST;
		size_t n, k = 0;

		for (size_t i = 0; i < N; i++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			t[i] = (struct sonde_symbol){
				.start = ((seed >> 33) % 1500) *
					 ((seed >> 20 & 1) ? 16 : 0x10000000001ULL),
				.size = (seed >> 40) % 3 * 8,
				.name = names[(seed >> 44) % 6],
				.binding = (uint8_t)((seed >> 50) % 3),
			};
		}
		memcpy(orig, t, N * sizeof(*t));
		memcpy(addrs, t, N * sizeof(*t));
		qsort(addrs, N, sizeof(*addrs), by_start);
		n = sym_table_finish(t, N, policy);
		for (size_t i = 0; i < N; i++) {
			size_t r = 0;

			if (i && addrs[i - 1].start == addrs[i].start)
				continue;
			for (size_t j = 0; j < N; j++)
				if (orig[j].start == addrs[i].start)
					run[r++] = orig[j];
			assert_int_equal(sym_table_finish(run, r, policy), 1);
			assert_true(k < n);
			assert_int_equal(t[k].start, run[0].start);
			assert_ptr_equal(t[k].name, run[0].name);
			assert_int_equal(t[k].binding, run[0].binding);
			assert_int_equal(t[k].size_synth, run[0].size_synth);
			if (!run[0].size_synth)
				assert_int_equal(t[k].size, run[0].size);
			k++;
		}
		assert_int_equal(k, n);
	}
	free(t);
	free(orig);
	free(run);
	free(addrs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alias_order),
		cmocka_unit_test(test_finish_order),
		cmocka_unit_test(test_libc_agrees),
		cmocka_unit_test(test_libc_memcpy_name),
		cmocka_unit_test(test_cxx_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
