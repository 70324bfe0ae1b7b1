// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The build ids of the objects samples hit (sonde_buildid_hits): which
 * MMAP2 records and /proc/PID/maps lines make mappings, which samples mark
 * them, and what lands in a written file's BUILD_ID feature, read back by
 * the reader. Public API only: runs on both libraries.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sonde/sonde.h"
#include "unit_dirs.h"

#define SAMPLE_TYPE (SONDE_PERF_SAMPLE_IP | SONDE_PERF_SAMPLE_TID)

static char dir[PATH_MAX];

static int setup(void **state)
{
	(void)state;
	scratch_dir_make(dir, sizeof(dir), "bidhits");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return scratch_dir_remove(dir);
}

/* An MMAP2 record as the kernel writes it, the build id in it when @id. */
static size_t mmap2(uint8_t *buf, uint64_t addr, uint64_t len, uint32_t prot,
		    const char *name, const uint8_t *id, uint8_t id_len)
{
	struct sonde_perf_event_header h = { .type = SONDE_PERF_RECORD_MMAP2,
					     .misc = SONDE_PERF_RECORD_MISC_USER };
	uint8_t *p = buf + sizeof(h);
	size_t nl = strlen(name) + 1;

	memset(buf, 0, 512);
	memcpy(p + 8, &addr, 8);
	memcpy(p + 16, &len, 8);
	if (id) {
		h.misc |= SONDE_PERF_RECORD_MISC_MMAP_BUILD_ID;
		p[32] = id_len;
		memcpy(p + 36, id, id_len);
	}
	memcpy(p + 56, &prot, 4);
	memcpy(p + 64, name, nl);
	h.size = (uint16_t)(sizeof(h) + 64 + ((nl + 7) & ~(size_t)7));
	memcpy(buf, &h, sizeof(h));
	return h.size;
}

/* A SAMPLE of SAMPLE_TYPE (ip, pid/tid) in @cpumode. */
static size_t sample(uint8_t *buf, uint64_t ip, uint16_t cpumode)
{
	struct sonde_perf_event_header h = { .type = SONDE_PERF_RECORD_SAMPLE,
					     .misc = cpumode, .size = sizeof(h) + 16 };

	memset(buf, 0, h.size);
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), &ip, 8);
	return h.size;
}

static void note(struct sonde_buildid_hits *h, const uint8_t *buf)
{
	assert_int_equal(sonde_buildid_hits__note(h, (const void *)buf), 0);
}

static struct sonde_buildid_hits *hits_new(bool all)
{
	static const uint64_t types[] = { SAMPLE_TYPE, SAMPLE_TYPE };
	SONDE_OPTS(sonde_buildid_hits_opts, o, .sample_types = types,
		   .nr_sample_types = 2, .all = all);
	struct sonde_buildid_hits *h = sonde_buildid_hits__new(&o);

	assert_non_null(h);
	return h;
}

/* Writes @h's entries into a file and reads them back: the reader. */
static struct sonde_perfdata_reader *written(struct sonde_buildid_hits *h)
{
	struct sonde_perf_event_attr attr = { .type = SONDE_PERF_TYPE_SOFTWARE,
					      .size = sizeof(attr),
					      .sample_type = SAMPLE_TYPE };
	char path[PATH_MAX + 16];
	struct sonde_perfdata_writer *w;
	struct sonde_perfdata_reader *r;

	snprintf(path, sizeof(path), "%s/hits.data", dir);
	w = sonde_perfdata_writer__new(path, NULL);
	assert_non_null(w);
	assert_true(sonde_perfdata_writer__add_event(w, &attr, "cpu-clock") >= 0);
	assert_int_equal(sonde_perfdata_writer__begin(w), 0);
	assert_int_equal(sonde_buildid_hits__write(h, w, NULL), 0);
	assert_int_equal(sonde_perfdata_writer__finish(w), 0);
	r = sonde_perfdata_reader__open(path, NULL);
	assert_non_null(r);
	return r;
}

/* The entry for @name, or NULL. */
static const struct sonde_feat_build_id *entry(const struct sonde_perfdata_reader *r,
					       const char *name)
{
	for (size_t i = 0; i < sonde_perfdata_reader__nr_build_ids(r); i++) {
		const struct sonde_feat_build_id *b = sonde_perfdata_reader__build_id(r, i);

		if (!strcmp(b->filename, name))
			return b;
	}
	return NULL;
}

static const uint8_t id_a[20] = { 0xaa, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19 };
static const uint8_t id_b[20] = { 0xbb, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19 };

/* A user sample marks the object it fell in; nothing else is listed. */
static void test_hit_listed_with_record_id(void **state)
{
	struct sonde_buildid_hits *h = hits_new(false);
	struct sonde_perfdata_reader *r;
	const struct sonde_feat_build_id *b;
	uint8_t buf[512];
	uint8_t kid[20];

	(void)state;
	mmap2(buf, 0x400000, 0x1000, PROT_READ | PROT_EXEC, "/opt/a.so", id_a, 20);
	note(h, buf);
	mmap2(buf, 0x500000, 0x1000, PROT_READ | PROT_EXEC, "/opt/b.so", id_b, 20);
	note(h, buf);
	/* Not executable, not a file: no mapping. */
	mmap2(buf, 0x600000, 0x1000, PROT_READ, "/opt/data.bin", id_b, 20);
	note(h, buf);
	mmap2(buf, 0x700000, 0x1000, PROT_READ | PROT_EXEC, "//anon", NULL, 0);
	note(h, buf);
	sample(buf, 0x400123, SONDE_PERF_RECORD_MISC_USER);
	note(h, buf);
	sample(buf, 0x400fff, SONDE_PERF_RECORD_MISC_USER);
	note(h, buf);
	/* A kernel-mode sample at b's address marks nothing. */
	sample(buf, 0x500010, SONDE_PERF_RECORD_MISC_KERNEL);
	note(h, buf);
	sample(buf, 0x600010, SONDE_PERF_RECORD_MISC_USER);
	note(h, buf);
	sample(buf, 0x700010, SONDE_PERF_RECORD_MISC_USER);
	note(h, buf);
	r = written(h);
	b = entry(r, "/opt/a.so");
	assert_non_null(b);
	assert_int_equal(b->size, 20);
	assert_memory_equal(b->id, id_a, 20);
	assert_null(entry(r, "/opt/b.so"));
	assert_null(entry(r, "/opt/data.bin"));
	assert_null(entry(r, "//anon"));
	/* The running kernel's comes first, when it has one. */
	if (sonde_kernel_build_id(kid, sizeof(kid)) > 0) {
		b = sonde_perfdata_reader__build_id(r, 0);
		assert_string_equal(b->filename, "[kernel.kallsyms]");
		assert_int_equal(sonde_perfdata_reader__nr_build_ids(r), 2);
	} else {
		assert_int_equal(sonde_perfdata_reader__nr_build_ids(r), 1);
	}
	sonde_perfdata_reader__free(r);
	sonde_buildid_hits__free(h);
}

/* --buildid-all: every executable file mapping, hit or not. */
static void test_all_lists_unhit(void **state)
{
	struct sonde_buildid_hits *h = hits_new(true);
	struct sonde_perfdata_reader *r;
	uint8_t buf[512];

	(void)state;
	mmap2(buf, 0x400000, 0x1000, PROT_EXEC, "/opt/a.so", id_a, 20);
	note(h, buf);
	mmap2(buf, 0x500000, 0x1000, PROT_EXEC, "/opt/b.so", id_b, 20);
	note(h, buf);
	r = written(h);
	assert_non_null(entry(r, "/opt/a.so"));
	assert_non_null(entry(r, "/opt/b.so"));
	sonde_perfdata_reader__free(r);
	sonde_buildid_hits__free(h);
}

/*
 * Events that disagree on where a sample's ip is: samples mark nothing
 * rather than the wrong object.
 */
static void test_mixed_sample_types_mark_nothing(void **state)
{
	static const uint64_t types[] = { SAMPLE_TYPE,
					  SAMPLE_TYPE | SONDE_PERF_SAMPLE_IDENTIFIER };
	SONDE_OPTS(sonde_buildid_hits_opts, o, .sample_types = types, .nr_sample_types = 2);
	struct sonde_buildid_hits *h = sonde_buildid_hits__new(&o);
	struct sonde_perfdata_reader *r;
	uint8_t buf[512];

	(void)state;
	assert_non_null(h);
	mmap2(buf, 0x400000, 0x1000, PROT_EXEC, "/opt/a.so", id_a, 20);
	note(h, buf);
	sample(buf, 0x400010, SONDE_PERF_RECORD_MISC_USER);
	note(h, buf);
	r = written(h);
	assert_null(entry(r, "/opt/a.so"));
	sonde_perfdata_reader__free(r);
	sonde_buildid_hits__free(h);
}

/* Short or unterminated records are ignored, not read past. */
static void test_malformed_records_ignored(void **state)
{
	struct sonde_buildid_hits *h = hits_new(true);
	struct sonde_perfdata_reader *r;
	uint8_t buf[512];
	struct sonde_perf_event_header *hd = (void *)buf;

	(void)state;
	mmap2(buf, 0x400000, 0x1000, PROT_EXEC, "/opt/a.so", id_a, 20);
	hd->size = sizeof(*hd) + 40; /* cut before the name */
	note(h, buf);
	mmap2(buf, 0x400000, 0x1000, PROT_EXEC, "/opt/abcdefg", id_a, 20);
	memset(buf + sizeof(*hd) + 64, 'x', hd->size - sizeof(*hd) - 64); /* no NUL */
	note(h, buf);
	mmap2(buf, 0x400000, 0x1000, PROT_EXEC, "/opt/big.so", id_a, 20);
	buf[sizeof(*hd) + 32] = 200; /* build id size past 20: the file's instead */
	note(h, buf);
	hd->size = sizeof(*hd);
	hd->type = SONDE_PERF_RECORD_SAMPLE;
	note(h, buf);
	r = written(h);
	assert_null(entry(r, "/opt/a.so"));
	/* /opt/big.so does not exist: no id to read, no entry. */
	assert_null(entry(r, "/opt/big.so"));
	sonde_perfdata_reader__free(r);
	assert_int_equal(sonde_buildid_hits__note(h, NULL), -EINVAL);
	sonde_buildid_hits__free(h);
}

/* Executable code of this test, for a sample in its own mapping. */
static int __attribute__((noinline)) in_copy(void)
{
	return 42;
}

/* Maps @path executable at the page holding its first bytes. */
static void *map_exec(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	void *p;

	assert_true(fd >= 0);
	p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	close(fd);
	assert_true(p != MAP_FAILED);
	return p;
}

static void copy_file(const char *from, const char *to)
{
	char data[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC);
	int out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0700);
	ssize_t n;

	assert_true(in >= 0 && out >= 0);
	while ((n = read(in, data, sizeof(data))) > 0)
		assert_int_equal(write(out, data, (size_t)n), n);
	close(in);
	close(out);
}

/*
 * A process that ran before the recording: its /proc/PID/maps gives the
 * mappings, the build ids are read from the files at the end, and a
 * deleted file is left out.
 */
static void test_note_proc_reads_maps(void **state)
{
	struct sonde_buildid_hits *h = hits_new(false);
	char exe[PATH_MAX], kept[PATH_MAX + 16], gone[PATH_MAX + 16];
	uint8_t id[20], buf[512];
	const struct sonde_feat_build_id *b;
	struct sonde_perfdata_reader *r;
	void *pk, *pg;
	int idl;

	(void)state;
	assert_non_null(realpath("/proc/self/exe", exe));
	idl = sonde_elf_build_id(exe, id, sizeof(id));
	if (idl <= 0) {
		sonde_buildid_hits__free(h);
		skip(); /* a test binary linked without a build id */
	}
	snprintf(kept, sizeof(kept), "%s/kept", dir);
	snprintf(gone, sizeof(gone), "%s/gone", dir);
	copy_file(exe, kept);
	copy_file(exe, gone);
	pk = map_exec(kept);
	pg = map_exec(gone);
	assert_int_equal(unlink(gone), 0);
	assert_int_equal(sonde_buildid_hits__note_proc(h, getpid()), 0);
	sample(buf, (uint64_t)(uintptr_t)in_copy, SONDE_PERF_RECORD_MISC_USER);
	note(h, buf);
	sample(buf, (uint64_t)(uintptr_t)pk + 16, SONDE_PERF_RECORD_MISC_USER);
	note(h, buf);
	sample(buf, (uint64_t)(uintptr_t)pg + 16, SONDE_PERF_RECORD_MISC_USER);
	note(h, buf);
	r = written(h);
	b = entry(r, exe);
	assert_non_null(b);
	assert_int_equal(b->size, idl);
	assert_memory_equal(b->id, id, (size_t)idl);
	assert_non_null(entry(r, kept));
	for (size_t i = 0; i < sonde_perfdata_reader__nr_build_ids(r); i++)
		assert_null(strstr(sonde_perfdata_reader__build_id(r, i)->filename, "gone"));
	sonde_perfdata_reader__free(r);
	munmap(pk, 4096);
	munmap(pg, 4096);
	unlink(kept);
	assert_int_equal(in_copy(), 42);
	sonde_buildid_hits__free(h);
}

static void test_errors(void **state)
{
	SONDE_OPTS(sonde_buildid_hits_opts, o);
	struct sonde_buildid_hits *h;

	(void)state;
	o.sz = 1; /* shorter than its first field */
	errno = 0;
	assert_null(sonde_buildid_hits__new(&o));
	assert_int_equal(errno, EINVAL);
	h = sonde_buildid_hits__new(NULL);
	assert_non_null(h);
	/* No such process: the maps cannot be read, said, nothing kept. */
	assert_int_equal(sonde_buildid_hits__note_proc(h, INT_MAX), -ENOENT);
	assert_int_equal(sonde_buildid_hits__note_proc(NULL, getpid()), -EINVAL);
	assert_int_equal(sonde_buildid_hits__write(NULL, NULL, NULL), -EINVAL);
	sonde_buildid_hits__free(h);
	sonde_buildid_hits__free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hit_listed_with_record_id),
		cmocka_unit_test(test_all_lists_unhit),
		cmocka_unit_test(test_mixed_sample_types_mark_nothing),
		cmocka_unit_test(test_malformed_records_ignored),
		cmocka_unit_test(test_note_proc_reads_maps),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
