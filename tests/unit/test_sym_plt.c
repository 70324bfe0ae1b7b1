// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The PLT decoder (sym_plt.c) on real objects: every stub it names must
 * jump through the GOT slot of the relocation it took the name from. The
 * stub's own code says which slot that is (x86-64: "jmp *disp32(%rip)",
 * after an endbr64 and a bnd prefix in IBT stubs), so this checks the
 * header size, the entry size, the .plt.sec layout and the slot order
 * independently of the decoder. Then the names through both loaders.
 * Static-only: it checks the slots of sym_plt_entries(), the internal decoder;
 * the public symcache shows the names alone.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libelf.h>
#include <gelf.h>
#include "sym_priv.h"
#include "sonde/symbols.h"
#include "unit_dirs.h"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

static char helpers[PATH_MAX];

static bool have(const char *name, char *out, size_t size)
{
	snprintf(out, size, "%s/%s", helpers, name);
	if (access(out, R_OK)) {
		printf("SKIP: %s not built (make helpers)\n", out);
		return false;
	}
	return true;
}

/* The section holding @p addr, and its bytes. */
static const uint8_t *code_at(Elf *elf, uint64_t addr, size_t len,
			      char *secname, size_t nsize)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;

	assert_int_equal(elf_getshdrstrndx(elf, &shstrndx), 0);
	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    addr < sh.sh_addr || addr + len > sh.sh_addr + sh.sh_size)
			continue;
		d = elf_getdata(scn, NULL);
		assert_non_null(d);
		snprintf(secname, nsize, "%s",
			 elf_strptr(elf, shstrndx, sh.sh_name));
		return (const uint8_t *)d->d_buf + (addr - sh.sh_addr);
	}
	return NULL;
}

/* The GOT slot an x86-64 stub jumps through (0 if not a GOT jump). */
static uint64_t stub_slot(const uint8_t *p, uint64_t addr)
{
	size_t i = 0;
	int32_t disp;

	if (p[0] == 0xf3 && p[1] == 0x0f && p[2] == 0x1e && p[3] == 0xfa)
		i = 4;			/* endbr64 */
	if (p[i] == 0xf2)
		i++;			/* bnd */
	if (p[i] != 0xff || p[i + 1] != 0x25)
		return 0;
	memcpy(&disp, p + i + 2, 4);
	return addr + i + 6 + (uint64_t)(int64_t)disp;
}

struct counts {
	int plt, sec;
	bool named_labs;
};

static struct counts check_object(const char *path)
{
	struct sym_plt_entry *e;
	struct counts c = { 0 };
	char sec[64];
	int fd, n;
	Elf *elf;

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	assert_non_null(elf);
	n = sym_plt_entries(elf, &e);
	assert_true(n > 0);
	for (int i = 0; i < n; i++) {
		const uint8_t *p = code_at(elf, e[i].start, e[i].size, sec,
					   sizeof(sec));

		assert_non_null(p);
		assert_int_equal(e[i].size, 16);
		if (!strcmp(sec, ".plt")) {
			c.plt++;
		} else {
			assert_string_equal(sec, ".plt.sec");
			c.sec++;
		}
		/* .plt entries of IBT objects push and jump to the header. */
		if (strcmp(sec, ".plt") || !c.sec)
			if (stub_slot(p, e[i].start))
				assert_int_equal(stub_slot(p, e[i].start),
						 e[i].slot);
		if (!strcmp(e[i].name, "labs"))
			c.named_labs = true;
		if (i && !strcmp(sec, ".plt") && c.plt > 1)
			assert_true(e[i].slot > e[i - 1].slot);
	}
	free(e);
	elf_end(elf);
	close(fd);
	return c;
}

static void test_plt_lazy(void **state)
{
	char path[PATH_MAX];
	struct counts c;

	(void)state;
	if (!have("libplthot.so", path, sizeof(path)))
		skip();
	c = check_object(path);
	assert_int_equal(c.plt, 1);
	assert_int_equal(c.sec, 0);
	assert_true(c.named_labs);
}

static void test_plt_ibt(void **state)
{
	char path[PATH_MAX];
	struct counts c;

	(void)state;
	if (!have("libplthot_ibt.so", path, sizeof(path)))
		skip();
	c = check_object(path);
	assert_int_equal(c.plt, 1);
	assert_int_equal(c.sec, 1);
	assert_true(c.named_labs);
	if (!have("plt_workload_ibt", path, sizeof(path)))
		skip();
	c = check_object(path);
	assert_true(c.sec >= 2);
	assert_int_equal(c.plt, c.sec);
}

/* glibc: IRELATIVE slots come last in .rela.plt but not in the GOT. */
static void test_plt_libc(void **state)
{
	const char *libc = "/lib/x86_64-linux-gnu/libc.so.6";

	(void)state;
	if (access(libc, R_OK)) {
		printf("SKIP: %s not here\n", libc);
		skip();
	}
	check_object(libc);
}

static void test_plt_names(void **state)
{
	struct sym_plt_entry e = { .name = "labs" };
	char buf[64];

	(void)state;
	sym_plt_name(&e, NULL, buf, sizeof(buf));
	assert_string_equal(buf, "labs@plt");
	sym_plt_name(&e, "ns::f", buf, sizeof(buf));
	assert_string_equal(buf, "ns::f@plt");
	e.name = "";
	e.addend = 0x9d9b0;
	sym_plt_name(&e, NULL, buf, sizeof(buf));
	assert_string_equal(buf, "*ABS*+0x9d9b0@plt");
}

/* Through the public symbolizer: the stub address finds "labs@plt". */
static void test_plt_symcache(void **state)
{
	struct sonde_symcache *cache;
	const struct sonde_symbol *s;
	struct sym_plt_entry *e;
	struct sonde_dso *dso;
	char path[PATH_MAX];
	uint64_t off;
	int fd, n;
	Elf *elf;

	(void)state;
	if (!have("libplthot_ibt.so", path, sizeof(path)))
		skip();
	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	n = sym_plt_entries(elf, &e);
	assert_int_equal(n, 2);
	cache = sonde_symcache__new(NULL);
	assert_non_null(cache);
	dso = sonde_symcache__dso(cache, path, NULL, 0);
	assert_non_null(dso);
	for (int i = 0; i < n; i++) {
		s = sonde_dso__find(dso, e[i].start + 5, &off);
		assert_non_null(s);
		assert_int_equal(off, 5);
		assert_string_equal(sonde_dso__sym_name(dso, s), "labs@plt");
	}
	/* The .plt header is no stub: not a labs@plt address. */
	s = sonde_dso__find(dso, e[0].start - 8, NULL);
	assert_true(!s || strcmp(sonde_dso__sym_name(dso, s), "labs@plt"));
	sonde_dso__put(dso);
	sonde_symcache__free(cache);
	free(e);
	elf_end(elf);
	close(fd);
}

static int setup(void **state)
{
	(void)state;
	helpers_dir(helpers, sizeof(helpers));
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plt_names),
		cmocka_unit_test(test_plt_lazy),
		cmocka_unit_test(test_plt_ibt),
		cmocka_unit_test(test_plt_libc),
		cmocka_unit_test(test_plt_symcache),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
