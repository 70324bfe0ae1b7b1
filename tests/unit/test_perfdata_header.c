// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The reader's header getters on the public API alone (sonde report
 * --header prints through them): the data section, event ids, NRCPUS,
 * TOTAL_MEM, CLOCKID, CLOCK_DATA, GROUP_DESC and BUILD_ID, in both byte
 * orders, from a file image and a pipe image built here; and what each
 * says when the file lacks its feature.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "sonde/sonde.h"
#include "pdgen.h"

/* A record of @type whose size pdg_end() patches in. */
static size_t rec_begin(struct pdgen *g, uint32_t type)
{
	size_t start = g->len;

	pdg_32(g, type);
	pdg_16(g, 0);
	pdg_16(g, 0);
	return start;
}

static void rec_end(struct pdgen *g, size_t start)
{
	uint16_t sz = (uint16_t)(g->len - start);

	if (g->swap)
		sz = __builtin_bswap16(sz);
	memcpy(g->buf + start + 6, &sz, 2);
}

static size_t feat_begin(struct pdgen *g, uint64_t feat)
{
	size_t start = rec_begin(g, SONDE_PERF_RECORD_HEADER_FEATURE);

	pdg_64(g, feat);
	return start;
}

static void str(struct pdgen *g, const char *s)
{
	pdg_32(g, (uint32_t)strlen(s) + 1);
	pdg_bytes(g, s, strlen(s) + 1);
}

/* HEADER_BUILD_ID: pid, 20 id bytes, size byte (misc bit 15), pad, name. */
static void build_id_rec(struct pdgen *g, int32_t pid, uint8_t first, uint8_t size,
			 const char *name)
{
	size_t s = g->len;
	uint8_t id[24] = { 0 };
	char path[24] = { 0 };
	uint16_t misc = (uint16_t)((1u << 15) | 2);

	for (int i = 0; i < 20; i++)
		id[i] = (uint8_t)(first + i);
	id[20] = size;
	snprintf(path, sizeof(path), "%s", name);
	pdg_32(g, SONDE_PERF_RECORD_HEADER_BUILD_ID);
	pdg_16(g, misc);
	pdg_16(g, 0);
	pdg_32(g, (uint32_t)pid);
	pdg_bytes(g, id, sizeof(id));
	pdg_bytes(g, path, sizeof(path));
	rec_end(g, s);
}

/*
 * Pipe image: the first attr (from pdg_pipe_begin, no ids), a second one
 * with ids 7 and 9, the small features, a named group of both events and
 * two build ids at the end, as perf record writes them to a pipe.
 */
static void build_pipe(struct pdgen *g, bool swap, uint32_t clock_version)
{
	size_t s;

	memset(g, 0, sizeof(*g));
	g->swap = swap;
	pdg_pipe_begin(g, (1u << 0) | (1u << 1) | (1u << 2), 1000);

	s = rec_begin(g, SONDE_PERF_RECORD_HEADER_ATTR);
	pdg_attr(g, SONDE_PERF_TYPE_SOFTWARE, SONDE_PERF_COUNT_SW_TASK_CLOCK, 1000,
		 (1u << 0) | (1u << 1) | (1u << 2), PDG_FLAGS);
	pdg_64(g, 7);
	pdg_64(g, 9);
	rec_end(g, s);

	s = feat_begin(g, SONDE_FEAT_NRCPUS);
	pdg_32(g, 8); /* avail */
	pdg_32(g, 6); /* online */
	rec_end(g, s);

	s = feat_begin(g, SONDE_FEAT_TOTAL_MEM);
	pdg_64(g, 16384000);
	rec_end(g, s);

	s = feat_begin(g, SONDE_FEAT_CLOCKID);
	pdg_64(g, 1);
	rec_end(g, s);

	s = feat_begin(g, SONDE_FEAT_CLOCK_DATA);
	pdg_32(g, clock_version);
	pdg_32(g, 1); /* CLOCK_MONOTONIC */
	pdg_64(g, 1700000000123456789ULL);
	pdg_64(g, 5000000007ULL);
	rec_end(g, s);

	s = feat_begin(g, SONDE_FEAT_GROUP_DESC);
	pdg_32(g, 1);
	str(g, "pair");
	pdg_32(g, 0);
	pdg_32(g, 2);
	rec_end(g, s);

	pdg_comm(g, 1, 1, "x", 1);
	build_id_rec(g, -1, 0x10, 20, "[kernel.kallsyms]");
	build_id_rec(g, 42, 0xa0, 8, "/bin/x");
}

static struct sonde_perfdata_reader *open_all(const struct pdgen *g)
{
	struct sonde_perfdata_reader *r = sonde_perfdata_reader__open_mem(g->buf, g->len, NULL);
	struct sonde_perfdata_record rec;

	assert_non_null(r);
	/* A pipe's header records are read with the stream. */
	while (sonde_perfdata_reader__next(r, &rec) > 0)
		;
	assert_null(sonde_perfdata_reader__error(r));
	return r;
}

static void check_pipe(bool swap)
{
	struct pdgen g;
	struct sonde_perfdata_reader *r;
	const struct sonde_feat_clock_data *cd;
	const struct sonde_feat_group *grp;
	const struct sonde_feat_build_id *b;
	const uint64_t *ids;
	uint32_t nr = 99, online = 0, avail = 0;
	uint64_t u = 0, off = 1, size = 1;

	build_pipe(&g, swap, 1);
	r = open_all(&g);

	/* A pipe has no data section; the values are left alone. */
	assert_int_equal(sonde_perfdata_reader__data_section(r, &off, &size), -ENOENT);
	assert_int_equal(off, 1);

	assert_int_equal(sonde_perfdata_reader__nr_attrs(r), 2);
	assert_null(sonde_perfdata_reader__event_ids(r, 0, &nr));
	assert_int_equal(nr, 0);
	ids = sonde_perfdata_reader__event_ids(r, 1, &nr);
	assert_int_equal(nr, 2);
	assert_non_null(ids);
	assert_int_equal(ids[0], 7);
	assert_int_equal(ids[1], 9);
	nr = 99;
	assert_null(sonde_perfdata_reader__event_ids(r, 2, &nr));
	assert_int_equal(nr, 0);
	assert_null(sonde_perfdata_reader__event_ids(r, -1, NULL));

	assert_int_equal(sonde_perfdata_reader__nr_cpus(r, &online, &avail), 0);
	assert_int_equal(online, 6);
	assert_int_equal(avail, 8);
	assert_int_equal(sonde_perfdata_reader__total_mem(r, &u), 0);
	assert_int_equal(u, 16384000);
	assert_int_equal(sonde_perfdata_reader__clockid_res(r, &u), 0);
	assert_int_equal(u, 1);

	cd = sonde_perfdata_reader__clock_data(r);
	assert_non_null(cd);
	assert_int_equal(cd->version, 1);
	assert_int_equal(cd->clockid, 1);
	assert_true(cd->tod_ns == 1700000000123456789ULL);
	assert_true(cd->clockid_ns == 5000000007ULL);

	assert_int_equal(sonde_perfdata_reader__nr_groups(r), 1);
	grp = sonde_perfdata_reader__group(r, 0);
	assert_non_null(grp);
	assert_string_equal(grp->name, "pair");
	assert_int_equal(grp->leader, 0);
	assert_int_equal(grp->nr_members, 2);
	assert_null(sonde_perfdata_reader__group(r, 1));

	assert_int_equal(sonde_perfdata_reader__nr_build_ids(r), 2);
	b = sonde_perfdata_reader__build_id(r, 0);
	assert_non_null(b);
	assert_int_equal(b->pid, -1);
	assert_int_equal(b->size, 20);
	assert_int_equal(b->id[0], 0x10);
	assert_int_equal(b->id[19], 0x10 + 19);
	assert_string_equal(b->filename, "[kernel.kallsyms]");
	b = sonde_perfdata_reader__build_id(r, 1);
	assert_non_null(b);
	assert_int_equal(b->pid, 42);
	assert_int_equal(b->size, 8);
	assert_int_equal(b->id[0], 0xa0);
	assert_int_equal(b->misc & 0x7fff, 2);
	assert_string_equal(b->filename, "/bin/x");
	assert_null(sonde_perfdata_reader__build_id(r, 2));

	sonde_perfdata_reader__free(r);
	free(g.buf);
}

static void test_pipe_native(void **state)
{
	(void)state;
	check_pipe(false);
}

static void test_pipe_swapped(void **state)
{
	(void)state;
	check_pipe(true);
}

/* perf refuses CLOCK_DATA of another version: the bit is set, the data is not. */
static void test_clock_data_version(void **state)
{
	struct pdgen g;
	struct sonde_perfdata_reader *r;

	(void)state;
	build_pipe(&g, false, 2);
	r = open_all(&g);
	assert_true(sonde_perfdata_reader__has_feature(r, SONDE_FEAT_CLOCK_DATA));
	assert_null(sonde_perfdata_reader__clock_data(r));
	sonde_perfdata_reader__free(r);
	free(g.buf);
}

/* A file image: its data section as the header says; the rest absent. */
static void check_file(bool swap)
{
	struct pdgen g = { .swap = swap };
	struct sonde_perfdata_reader *r;
	uint64_t off = 0, size = 0, u = 5;
	uint32_t online = 5, avail = 5, nr = 5;
	size_t data_off, data_size;

	pdg_file_begin(&g, (1u << 0) | (1u << 1) | (1u << 2), 1000);
	pdg_comm(&g, 1, 1, "x", 1);
	pdg_comm(&g, 1, 1, "y", 2);
	data_off = g.data_off;
	data_size = g.len - g.data_off;
	pdg_file_end(&g, 1, 2);
	r = open_all(&g);

	assert_int_equal(sonde_perfdata_reader__data_section(r, &off, &size), 0);
	assert_int_equal(off, data_off);
	assert_int_equal(size, data_size);
	assert_null(sonde_perfdata_reader__event_ids(r, 0, &nr));
	assert_int_equal(nr, 0);
	assert_int_equal(sonde_perfdata_reader__nr_cpus(r, &online, &avail), -ENOENT);
	assert_int_equal(online, 5);
	assert_int_equal(sonde_perfdata_reader__total_mem(r, &u), -ENOENT);
	assert_int_equal(sonde_perfdata_reader__clockid_res(r, &u), -ENOENT);
	assert_int_equal(u, 5);
	assert_null(sonde_perfdata_reader__clock_data(r));
	assert_int_equal(sonde_perfdata_reader__nr_groups(r), 0);
	assert_null(sonde_perfdata_reader__group(r, 0));
	assert_int_equal(sonde_perfdata_reader__nr_build_ids(r), 0);
	assert_null(sonde_perfdata_reader__build_id(r, 0));
	sonde_perfdata_reader__free(r);
	free(g.buf);
}

static void test_file_native(void **state)
{
	(void)state;
	check_file(false);
}

static void test_file_swapped(void **state)
{
	(void)state;
	check_file(true);
}

/* No reader: every getter says so instead of crashing. */
static void test_null_reader(void **state)
{
	uint64_t a, b;
	uint32_t x, y;

	(void)state;
	assert_int_equal(sonde_perfdata_reader__data_section(NULL, &a, &b), -EINVAL);
	assert_null(sonde_perfdata_reader__event_ids(NULL, 0, &x));
	assert_int_equal(sonde_perfdata_reader__nr_cpus(NULL, &x, &y), -EINVAL);
	assert_int_equal(sonde_perfdata_reader__total_mem(NULL, &a), -EINVAL);
	assert_int_equal(sonde_perfdata_reader__clockid_res(NULL, &a), -EINVAL);
	assert_null(sonde_perfdata_reader__clock_data(NULL));
	assert_int_equal(sonde_perfdata_reader__nr_groups(NULL), 0);
	assert_null(sonde_perfdata_reader__group(NULL, 0));
	assert_int_equal(sonde_perfdata_reader__nr_build_ids(NULL), 0);
	assert_null(sonde_perfdata_reader__build_id(NULL, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pipe_native),
		cmocka_unit_test(test_pipe_swapped),
		cmocka_unit_test(test_clock_data_version),
		cmocka_unit_test(test_file_native),
		cmocka_unit_test(test_file_swapped),
		cmocka_unit_test(test_null_reader),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
