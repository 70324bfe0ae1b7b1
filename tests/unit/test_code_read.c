// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Code bytes for instruction walks: sonde_dso__read() and
 * sonde_dso__elf_class() on an ELF file (this test's own binary), and
 * sonde_profile__read_code() / sonde_profile__resolve() through a
 * profile's address space: the bytes are the file's at the mapped offset,
 * and there are none where nothing (or the kernel) is mapped.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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

static char exe[PATH_MAX];
static off_t exe_size;

static int setup(void **state)
{
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct stat st;

	(void)state;
	if (n <= 0)
		return -1;
	exe[n] = 0;
	if (stat(exe, &st))
		return -1;
	exe_size = st.st_size;
	return 0;
}

/* @len bytes of this binary's file at @off. */
static void file_bytes(uint64_t off, uint8_t *buf, size_t len)
{
	int fd = open(exe, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(pread(fd, buf, len, (off_t)off), (ssize_t)len);
	close(fd);
}

static void test_dso_read(void **state)
{
	struct sonde_symcache *c = sonde_symcache__new(NULL);
	struct sonde_dso *d, *k, *gone;
	uint8_t buf[64], want[64];

	(void)state;
	assert_non_null(c);
	d = sonde_symcache__dso(c, exe, NULL, 0);
	assert_non_null(d);
	assert_int_equal(sonde_dso__read(d, 0, buf, 4), 4);
	assert_memory_equal(buf, "\177ELF", 4);
	file_bytes(0x1000, want, sizeof(want));
	assert_int_equal(sonde_dso__read(d, 0x1000, buf, sizeof(buf)), (ssize_t)sizeof(buf));
	assert_memory_equal(buf, want, sizeof(buf));
	/* The end of the file: what is left, then nothing. */
	assert_int_equal(sonde_dso__read(d, (uint64_t)exe_size - 3, buf, sizeof(buf)), 3);
	assert_int_equal(sonde_dso__read(d, (uint64_t)exe_size + 100, buf, sizeof(buf)), 0);
	assert_int_equal(sonde_dso__elf_class(d), 64);
	assert_int_equal(sonde_dso__read(d, 0, NULL, 4), -EINVAL);
	/* No file bytes for the kernel; a missing file says so. */
	k = sonde_symcache__kernel(c);
	assert_int_equal(sonde_dso__read(k, 0, buf, 4), -EOPNOTSUPP);
	gone = sonde_symcache__dso(c, "/nonexistent/sonde-test.so", NULL, 0);
	assert_int_equal(sonde_dso__read(gone, 0, buf, 4), -ENOENT);
	assert_int_equal(sonde_dso__elf_class(gone), -ENOENT);
	sonde_dso__put(gone);
	sonde_dso__put(k);
	sonde_dso__put(d);
	sonde_symcache__free(c);
}

#define BASE 0x7f0000400000ULL
#define PGOFF 0x1000ULL

static void test_profile_code(void **state)
{
	struct sonde_perf_event_attr attr = { .size = sizeof(attr),
					      .sample_type = 1 | 2, /* IP | TID */
					      .sample_period = 1 };
	struct sonde_profile *p = sonde_profile__new(NULL);
	const struct sonde_profile_frame *fr;
	struct sonde_record rec;
	uint8_t buf[32], want[32];
	bool is64 = false;

	(void)state;
	assert_non_null(p);
	assert_int_equal(sonde_profile__add_event(p, &attr, NULL, 0, "cycles"), 0);
	memset(&rec, 0, sizeof(rec));
	rec.type = SONDE_PERF_RECORD_MMAP;
	rec.misc = SONDE_PERF_RECORD_MISC_USER;
	rec.mmap.pid = rec.mmap.tid = 77;
	rec.mmap.addr = BASE;
	rec.mmap.len = 0x10000;
	rec.mmap.pgoff = PGOFF;
	rec.mmap.filename = exe;
	assert_int_equal(sonde_profile__add_record(p, 0, &rec), 0);

	/* The file's bytes at the mapped offset. */
	file_bytes(PGOFF + 0x40, want, sizeof(want));
	assert_int_equal(sonde_profile__read_code(p, 77, 77, false, BASE + 0x40, buf, sizeof(buf),
						  &is64),
			 (ssize_t)sizeof(buf));
	assert_memory_equal(buf, want, sizeof(buf));
	assert_true(is64);
	fr = sonde_profile__resolve(p, 77, 77, false, BASE + 0x40);
	assert_non_null(fr);
	assert_string_equal(sonde_profile_frame__dso(fr), exe);
	assert_int_equal(sonde_profile_frame__addr(fr), PGOFF + 0x40);
	assert_int_equal(sonde_profile_frame__ip(fr), BASE + 0x40);
	/* Nothing mapped there, another process, the kernel's space. */
	assert_int_equal(sonde_profile__read_code(p, 77, 77, false, BASE - 0x1000, buf, sizeof(buf),
						  NULL), 0);
	assert_int_equal(sonde_profile__read_code(p, 78, 78, false, BASE + 0x40, buf, sizeof(buf),
						  NULL), 0);
	assert_int_equal(sonde_profile__read_code(p, 77, 77, true, BASE + 0x40, buf, sizeof(buf),
						  NULL), 0);
	fr = sonde_profile__resolve(p, 77, 77, false, 0x1234);
	assert_null(sonde_profile_frame__dso(fr));
	assert_null(sonde_profile_frame__sym(fr));
	assert_int_equal(sonde_profile_frame__sym_size(fr), 0);
	assert_int_equal(sonde_profile__read_code(NULL, 77, 77, false, BASE, buf, 4, NULL), -EINVAL);
	sonde_profile__free(p);
}

/* A function of this binary, read and walked: lengths add up to its size. */
static void test_walk_function(void **state)
{
	struct sonde_symcache *c = sonde_symcache__new(NULL);
	struct sonde_dso *d;
	const struct sonde_symbol *syms, *s = NULL;
	uint8_t *code;
	uint64_t off, pos = 0;
	size_t n;

	(void)state;
	d = sonde_symcache__dso(c, exe, NULL, 0);
	n = sonde_dso__symbols(d, &syms);
	for (size_t i = 0; i < n && !s; i++)
		if (!strcmp(syms[i].name, "test_walk_function"))
			s = &syms[i];
	if (!s || s->size_synth) {
		print_message("SKIP: no sized symbol for test_walk_function in %s\n", exe);
		sonde_dso__put(d);
		sonde_symcache__free(c);
		return;
	}
	assert_int_equal(sonde_dso__vaddr_to_offset(d, s->start, &off), 0);
	code = malloc(s->size + SONDE_X86_MAX_INSN);
	assert_non_null(code);
	assert_int_equal(sonde_dso__read(d, off, code, s->size), (ssize_t)s->size);
	/* Compiled code is what the decoder knows: no failure, no overrun. */
	while (pos < s->size) {
		struct sonde_x86_insn x;

		assert_int_equal(sonde_x86_insn__decode(code + pos, s->size - pos, true, &x), 0);
		pos += x.length;
	}
	assert_int_equal(pos, s->size);
	free(code);
	sonde_dso__put(d);
	sonde_symcache__free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dso_read),
		cmocka_unit_test(test_profile_code),
		cmocka_unit_test(test_walk_function),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
