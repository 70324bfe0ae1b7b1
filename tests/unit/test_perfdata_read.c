// SPDX-License-Identifier: LGPL-2.1-only
/*
 * perf.data reader on images built in memory: file and pipe format, both
 * byte orders, FINISHED_ROUND ordering, features, and every kind of damage
 * reported with its byte offset after the good records were handed out,
 * through the public API (the reader's internals:
 * test_perfdata_read_internal.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sonde/sonde.h"
#include "pdgen.h"
#include "pdrounds.h"
#include "pdseen.h"

static uint32_t build_attr_size; /* 0 = pdgen's default (128) */

static void build(struct pdgen *g, bool pipe, bool swap)
{
	pdg_rounds_image(g, pipe, swap, build_attr_size);
}

static void check_good(bool pipe, bool swap)
{
	struct pdgen g;
	struct sonde_perfdata_reader *r;
	struct pdg_seen s;
	/* Round 1 ends at max 30 but releases nothing (no previous round);
	 * round 2 releases <= 30; the end releases the rest. */
	static const uint64_t want[] = { 1, 2, 10, 20, 30, 35, 40 };

	build(&g, pipe, swap);
	r = sonde_perfdata_reader__open_mem(g.buf, g.len, NULL);
	assert_non_null(r);
	assert_null(sonde_perfdata_reader__error(r));
	assert_int_equal(sonde_perfdata_reader__is_pipe(r), pipe);
	assert_int_equal(sonde_perfdata_reader__needs_swap(r), swap);
	assert_int_equal(pdg_drain(r, &s), 0);
	assert_int_equal(s.n, 7);
	for (int i = 0; i < 7; i++)
		assert_int_equal(s.times[i], want[i]);
	assert_int_equal(s.types[0], SONDE_PERF_RECORD_COMM);
	assert_int_equal(sonde_perfdata_reader__nr_attrs(r), 1);
	assert_string_equal(sonde_perfdata_reader__event_name(r, 0), "cpu-clock");
	assert_int_equal(sonde_perfdata_reader__attr(r, 0)->sample_period, 1000);
	assert_true(sonde_perfdata_reader__attr(r, 0)->sample_id_all);
	assert_true(sonde_perfdata_reader__attr(r, 0)->exclude_guest);
	assert_false(sonde_perfdata_reader__attr(r, 0)->exclude_host);
	assert_string_equal(sonde_perfdata_reader__feature_string(r, SONDE_FEAT_HOSTNAME),
			    "pdgen-host");
	sonde_perfdata_reader__free(r);
	free(g.buf);
}

static void test_file_native(void **state)
{
	check_good(false, false);
}

static void test_file_swapped(void **state)
{
	check_good(false, true);
}

static void test_pipe_native(void **state)
{
	check_good(true, false);
}

static void test_pipe_swapped(void **state)
{
	check_good(true, true);
}

/* perf.data from older (VER0, 64 bytes) and newer (144 bytes) writers. */
static void test_attr_sizes(void **state)
{
	static const uint32_t sizes[] = { 64, 136, 144 };

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		build_attr_size = sizes[i];
		check_good(false, false);
		check_good(false, true);
		check_good(true, false);
	}
	build_attr_size = 0;
}

/* Cut inside the 4th record: 3 records come out, then the error. */
static void test_truncated(void **state)
{
	struct pdgen g;
	struct sonde_perfdata_reader *r;
	struct pdg_seen s;
	const char *e;
	size_t cut;

	build(&g, true, false);
	/* header 16, attr 136, feature 84, comm 40, mmap 72, 2 samples of 40 */
	cut = g.data_off + 40 + 72 + 40 + 20;
	r = sonde_perfdata_reader__open_mem(g.buf, cut, NULL);
	assert_non_null(r);
	assert_true(pdg_drain(r, &s) < 0);
	assert_int_equal(s.n, 3);
	e = sonde_perfdata_reader__error(r);
	assert_non_null(e);
	assert_non_null(strstr(e, "byte offset"));
	assert_non_null(strstr(e, "truncated"));
	sonde_perfdata_reader__free(r);
	free(g.buf);
}

static void test_bad_record_size(void **state)
{
	struct pdgen g;
	struct sonde_perfdata_reader *r;
	struct pdg_seen s;
	char want[64];
	size_t off;

	build(&g, false, false);
	off = g.data_off + 40; /* the MMAP record */
	g.buf[off + 6] = 4;
	g.buf[off + 7] = 0;
	r = sonde_perfdata_reader__open_mem(g.buf, g.len, NULL);
	assert_non_null(r);
	assert_true(pdg_drain(r, &s) < 0);
	assert_int_equal(s.n, 1); /* the COMM before it */
	snprintf(want, sizeof(want), "byte offset %zu:", off);
	assert_non_null(strstr(sonde_perfdata_reader__error(r), want));
	sonde_perfdata_reader__free(r);
	free(g.buf);
}

/*
 * An AUXTRACE record whose data size does not fit an int64_t: an error
 * at the record's offset, in files and pipes (the size once came back
 * as a negative skip, read as an error code, and the reader stopped
 * there saying nothing).
 */
static void test_auxtrace_size_overflow(void **state)
{
	for (int pipe = 0; pipe < 2; pipe++) {
		struct pdgen g;
		struct sonde_perfdata_reader *r;
		struct pdg_seen s;
		const char *err;
		char want[64];
		size_t off;

		build(&g, pipe, false);
		off = g.data_off + 40; /* the MMAP record becomes an AUXTRACE */
		g.buf[off] = SONDE_PERF_RECORD_AUXTRACE;
		memset(g.buf + off + 1, 0, 3);
		pdg_set64(&g, off + 8, 1ULL << 63);
		r = sonde_perfdata_reader__open_mem(g.buf, g.len, NULL);
		assert_non_null(r);
		assert_true(pdg_drain(r, &s) < 0);
		err = sonde_perfdata_reader__error(r);
		assert_non_null(err);
		snprintf(want, sizeof(want), "byte offset %zu:", off);
		assert_non_null(strstr(err, want));
		assert_non_null(strstr(err, "AUXTRACE"));
		sonde_perfdata_reader__free(r);
		free(g.buf);
	}
}

static void test_bad_header(void **state)
{
	struct pdgen g;
	struct sonde_perfdata_reader *r;

	build(&g, false, false);
	memset(g.buf + 16, 0, 8); /* attr_size = 0 */
	r = sonde_perfdata_reader__open_mem(g.buf, g.len, NULL);
	assert_null(r);
	assert_int_equal(errno, SONDE_ERR_FORMAT);
	r = sonde_perfdata_reader__open_mem("PERFILE3xxxxxxxxxxxxxxxxx", 24, NULL);
	assert_null(r);
	r = sonde_perfdata_reader__open_mem("PERF", 4, NULL);
	assert_null(r);
	free(g.buf);
}

/* Data section running past EOF (recording killed): still readable. */
static void test_data_past_eof(void **state)
{
	struct pdgen g;
	struct sonde_perfdata_reader *r;
	struct pdg_seen s;

	build(&g, false, false);
	pdg_set64(&g, 48, 1 << 20);
	r = sonde_perfdata_reader__open_mem(g.buf, g.len, NULL);
	assert_non_null(r);
	assert_non_null(strstr(sonde_perfdata_reader__error(r), "byte offset 40"));
	assert_true(pdg_drain(r, &s) < 0); /* runs into the feature bytes */
	assert_true(s.n >= 7);
	sonde_perfdata_reader__free(r);
	free(g.buf);
}

/* Every prefix of a valid file: no crash, bounded results. */
static void test_every_prefix(void **state)
{
	struct pdgen g;

	build(&g, false, false);
	for (size_t n = 0; n <= g.len; n++) {
		struct sonde_perfdata_reader *r = sonde_perfdata_reader__open_mem(g.buf, n, NULL);
		struct pdg_seen s;

		if (!r)
			continue;
		pdg_drain(r, &s);
		assert_true(s.n <= 7);
		sonde_perfdata_reader__free(r);
	}
	free(g.buf);
}

static void test_unordered(void **state)
{
	struct pdgen g;
	struct sonde_perfdata_reader *r;
	struct pdg_seen s;
	SONDE_OPTS(sonde_perfdata_reader_opts, o, .unordered = true);

	build(&g, false, false);
	r = sonde_perfdata_reader__open_mem(g.buf, g.len, &o);
	assert_non_null(r);
	assert_int_equal(pdg_drain(r, &s), 0);
	assert_int_equal(s.times[2], 30);
	assert_int_equal(s.times[3], 10);
	sonde_perfdata_reader__free(r);
	free(g.buf);
}

/* The kernel's VmFlags of the mapping of @p path (smaps), or "". */
static void vm_flags(const char *path, char *out, size_t size)
{
	char line[4352];
	bool in = false;
	FILE *f = fopen("/proc/self/smaps", "re");

	assert_non_null(f);
	out[0] = 0;
	while (fgets(line, sizeof(line), f)) {
		size_t n = strlen(line), k = strlen(path);

		if (strchr(line, '-') && strchr(line, '-') < strchr(line, ' '))
			in = n > k && !strncmp(line + n - 1 - k, path, k);
		else if (in && !strncmp(line, "VmFlags:", 8)) {
			size_t m = strlen(line + 8) < size ? strlen(line + 8) : size - 1;

			memcpy(out, line + 8, m);
			out[m] = 0;
		}
	}
	fclose(f);
}

/*
 * A file is mapped so that what readahead brings from disk comes in huge
 * folios (one PMD maps 2 MiB), and reclaim does not take its pages first
 * as it does for MADV_SEQUENTIAL mappings; without THP in the kernel,
 * sequential readahead as before.
 */
static void test_file_mapping_advice(void **state)
{
	char path[] = "/tmp/sonde-advice-XXXXXX", flags[512];
	struct sonde_perfdata_reader *r;
	struct pdgen g;

	(void)state;
	build(&g, false, false);
	pdg_write_temp(&g, path);
	r = sonde_perfdata_reader__open(path, NULL);
	assert_non_null(r);
	vm_flags(path, flags, sizeof(flags));
	assert_non_null(strstr(flags, " rd"));
	if (access("/sys/kernel/mm/transparent_hugepage", F_OK) == 0) {
		assert_non_null(strstr(flags, " hg"));
		assert_null(strstr(flags, " sr"));
	} else {
		assert_non_null(strstr(flags, " sr"));
	}
	sonde_perfdata_reader__free(r);
	unlink(path);
	free(g.buf);
}

/*
 * Rounds holding 1 to 100 ascending runs each (one per "CPU ring"), the
 * runs interleaved in time: the merge of runs (and the qsort fallback past
 * 64 runs) must hand out every record in time order.
 */
static void test_round_runs(void **state)
{
	struct sonde_perfdata_record rec;
	struct sonde_perfdata_reader *r;
	struct pdgen g;
	uint64_t last = 0, n = 0, want = 0;
	int err;

	(void)state;
	memset(&g, 0, sizeof(g));
	pdg_file_begin(&g, ST_BASIC, 1000);
	for (unsigned j = 0; j < 60; j++) {
		unsigned k = 1 + (j * 37) % 100, per = 1 + j % 7;

		/* Run c holds times base + c, base + c + k, ... ascending. */
		for (unsigned c = 0; c < k; c++)
			for (unsigned i = 0; i < per; i++, want++)
				pdg_sample(&g, 42, 42, 1000000ull * (j + 1) + c + (uint64_t)i * k,
					   0x401000, 1000, NULL, 0);
		pdg_round(&g);
	}
	pdg_file_end(&g, 1, 100000000);
	r = sonde_perfdata_reader__open_mem(g.buf, g.len, NULL);
	assert_non_null(r);
	while ((err = sonde_perfdata_reader__next(r, &rec)) > 0) {
		assert_true(rec.time > last);
		last = rec.time;
		n++;
	}
	assert_int_equal(err, 0);
	assert_int_equal(n, want);
	sonde_perfdata_reader__free(r);
	free(g.buf);
}

/*
 * Rounds filled in order, with now and then a record that is late (before
 * the last ones of the round before, after what that round released):
 * the queue skips sorting what came in order and reuses the room of what
 * it handed out, and must still hand out every record in time order,
 * across the queue's growth and its moves.
 */
static void test_rounds_in_order_and_late(void **state)
{
	struct sonde_perfdata_record rec;
	struct sonde_perfdata_reader *r;
	struct pdgen g;
	uint64_t last = 0, n = 0, want = 0, t = 1000;
	int err;

	(void)state;
	memset(&g, 0, sizeof(g));
	pdg_file_begin(&g, ST_BASIC, 1000);
	for (unsigned int j = 0; j < 200; j++) {
		unsigned int per = 50 + (j * 37) % 900;

		if (j % 3 == 1) { /* late: between the last round's two halves */
			pdg_sample(&g, 42, 42, t - 5 * per, 0x401000, 1000, NULL, 0);
			want++;
		}
		for (unsigned int i = 0; i < per; i++, want++)
			pdg_sample(&g, 42, 42, t += 10, 0x401000, 1000, NULL, 0);
		pdg_round(&g);
	}
	pdg_file_end(&g, 1, t);
	r = sonde_perfdata_reader__open_mem(g.buf, g.len, NULL);
	assert_non_null(r);
	while ((err = sonde_perfdata_reader__next(r, &rec)) > 0) {
		if (rec.type != SONDE_PERF_RECORD_SAMPLE)
			continue;
		assert_true(rec.time >= last);
		last = rec.time;
		n++;
	}
	assert_int_equal(err, 0);
	assert_int_equal(n, want);
	sonde_perfdata_reader__free(r);
	free(g.buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_native),
		cmocka_unit_test(test_file_swapped),
		cmocka_unit_test(test_pipe_native),
		cmocka_unit_test(test_pipe_swapped),
		cmocka_unit_test(test_attr_sizes),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_bad_record_size),
		cmocka_unit_test(test_auxtrace_size_overflow),
		cmocka_unit_test(test_bad_header),
		cmocka_unit_test(test_data_past_eof),
		cmocka_unit_test(test_every_prefix),
		cmocka_unit_test(test_unordered),
		cmocka_unit_test(test_file_mapping_advice),
		cmocka_unit_test(test_round_runs),
		cmocka_unit_test(test_rounds_in_order_and_late),
	};

	sonde_set_print(NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
