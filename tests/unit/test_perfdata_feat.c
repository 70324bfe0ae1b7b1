// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Feature sections the header dump prints (perfdata_read_feat.c): pipe
 * images with HEADER_FEATURE records built here, in both byte orders,
 * checked against the text perf 6.1 prints for the same section; the old
 * and new CPU_TOPOLOGY layouts; and damaged sections reported as corrupt
 * without taking the rest of the file down.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "sonde/sonde.h"
#include "pdgen.h"
#include "report_feat.h"

/*
 * Feature @feat as sonde report --header -I prints it: the CLI's text
 * (build/sonde-cli.a) of the reader's decoded feature. NULL when there is
 * none.
 */
static const char *feat_text(const struct sonde_perfdata_reader *r, int feat)
{
	static char text[4096];
	struct outbuf o;

	ob_init_mem(&o);
	assert_true(report_feat_text(&o, r, feat));
	snprintf(text, sizeof(text), "%.*s", (int)o.len, o.buf);
	ob_free(&o);
	return o.len ? text : NULL;
}

/* HEADER_FEATURE record: header, feature id, then what @body writes. */
static size_t feat_begin(struct pdgen *g, uint64_t feat)
{
	size_t start = g->len;

	pdg_32(g, 80);
	pdg_16(g, 0);
	pdg_16(g, 0); /* size: feat_end */
	pdg_64(g, feat);
	return start;
}

static void feat_end(struct pdgen *g, size_t start)
{
	uint16_t sz;

	sz = (uint16_t)(g->len - start);
	if (g->swap)
		sz = __builtin_bswap16(sz);
	memcpy(g->buf + start + 6, &sz, 2);
}

/* perf_header_string without padding beyond the NUL (perf pads; both read). */
static void str(struct pdgen *g, const char *s)
{
	pdg_32(g, (uint32_t)strlen(s) + 1);
	pdg_bytes(g, s, strlen(s) + 1);
}

static struct sonde_perfdata_reader *open_img(struct pdgen *g)
{
	struct sonde_perfdata_reader *r = sonde_perfdata_reader__open_mem(g->buf, g->len, NULL);
	struct sonde_perfdata_record rec;

	assert_non_null(r);
	/* A pipe's features are parsed as the stream is read. */
	while (sonde_perfdata_reader__next(r, &rec) > 0)
		;
	return r;
}

static void build_all(struct pdgen *g, bool swap)
{
	size_t s;

	memset(g, 0, sizeof(*g));
	g->swap = swap;
	pdg_pipe_begin(g, (1u << 0) | (1u << 1) | (1u << 2), 1000);

	s = feat_begin(g, SONDE_FEAT_NRCPUS);
	pdg_32(g, 2); /* avail */
	pdg_32(g, 2); /* online */
	feat_end(g, s);

	/* New layout: ids per cpu, then dies. */
	s = feat_begin(g, SONDE_FEAT_CPU_TOPOLOGY);
	pdg_32(g, 1);
	str(g, "0-1");
	pdg_32(g, 2);
	str(g, "0");
	str(g, "1");
	pdg_32(g, 0); /* cpu0: core 0, socket 0 */
	pdg_32(g, 0);
	pdg_32(g, 1); /* cpu1: core 1, socket 0 */
	pdg_32(g, 0);
	pdg_32(g, 1);
	str(g, "0-1");
	pdg_32(g, 0);
	pdg_32(g, 0);
	feat_end(g, s);

	s = feat_begin(g, SONDE_FEAT_NUMA_TOPOLOGY);
	pdg_32(g, 1);
	pdg_32(g, 0);
	pdg_64(g, 1000);
	pdg_64(g, 600);
	str(g, "0-1");
	feat_end(g, s);

	s = feat_begin(g, SONDE_FEAT_PMU_MAPPINGS);
	pdg_32(g, 2);
	pdg_32(g, 1);
	str(g, "software");
	pdg_32(g, 2);
	str(g, "tracepoint");
	feat_end(g, s);

	s = feat_begin(g, SONDE_FEAT_GROUP_DESC);
	pdg_32(g, 1);
	str(g, "{anon_group}");
	pdg_32(g, 0);
	pdg_32(g, 2);
	feat_end(g, s);

	s = feat_begin(g, SONDE_FEAT_CACHE);
	pdg_32(g, 1);
	pdg_32(g, 2);
	for (int i = 0; i < 2; i++) {
		pdg_32(g, (uint32_t)i + 1); /* level */
		pdg_32(g, 64);
		pdg_32(g, 64);
		pdg_32(g, 8);
		str(g, i ? "Unified" : "Data");
		str(g, i ? "1024K" : "48K");
		str(g, i ? "0-1" : "0");
	}
	feat_end(g, s);

	/* Blocks 0-3 and 8 of node 0: 5 x 128M = 640M. */
	s = feat_begin(g, SONDE_FEAT_MEM_TOPOLOGY);
	pdg_64(g, 1);
	pdg_64(g, 0x8000000);
	pdg_64(g, 1);
	pdg_64(g, 0);
	pdg_64(g, 5 * 0x8000000ULL);
	pdg_64(g, 70); /* bits */
	pdg_64(g, 0x10f);
	pdg_64(g, 1ULL << 5); /* bit 69 */
	feat_end(g, s);

	s = feat_begin(g, SONDE_FEAT_CLOCKID);
	pdg_64(g, 1);
	feat_end(g, s);

	s = feat_begin(g, SONDE_FEAT_COMPRESSED);
	pdg_32(g, 0);
	pdg_32(g, 1);
	pdg_32(g, 3);
	pdg_32(g, 7);
	pdg_32(g, 4096);
	feat_end(g, s);

	s = feat_begin(g, SONDE_FEAT_CPU_PMU_CAPS);
	pdg_32(g, 0);
	feat_end(g, s);

	s = feat_begin(g, SONDE_FEAT_CLOCK_DATA);
	pdg_32(g, 1);
	pdg_32(g, 1);
	pdg_64(g, 1700000000123456789ULL);
	pdg_64(g, 5000000007ULL);
	feat_end(g, s);

	s = feat_begin(g, SONDE_FEAT_PMU_CAPS);
	pdg_32(g, 1);
	pdg_32(g, 2);
	str(g, "branches");
	str(g, "32");
	str(g, "max_precise");
	str(g, "3");
	str(g, "cpu_core");
	feat_end(g, s);

	pdg_comm(g, 1, 1, "x", 1);
}

static void check_all(bool swap)
{
	struct pdgen g;
	struct sonde_perfdata_reader *r;

	build_all(&g, swap);
	r = open_img(&g);
	assert_null(sonde_perfdata_reader__error(r));
	assert_string_equal(feat_text(r, SONDE_FEAT_CPU_TOPOLOGY),
			    "# sibling sockets : 0-1\n"
			    "# sibling dies    : 0-1\n"
			    "# sibling threads : 0\n"
			    "# sibling threads : 1\n"
			    "# CPU 0: Core ID 0, Die ID 0, Socket ID 0\n"
			    "# CPU 1: Core ID 1, Die ID 0, Socket ID 0\n");
	assert_string_equal(feat_text(r, SONDE_FEAT_NUMA_TOPOLOGY),
			    "# node0 meminfo  : total = 1000 kB, free = 600 kB\n"
			    "# node0 cpu list : 0-1\n");
	assert_string_equal(feat_text(r, SONDE_FEAT_PMU_MAPPINGS),
			    "# pmu mappings: software = 1, tracepoint = 2\n");
	assert_int_equal(sonde_perfdata_reader__nr_groups(r), 1);
	assert_null(sonde_perfdata_reader__group(r, 0)->name);
	assert_int_equal(sonde_perfdata_reader__group(r, 0)->leader, 0);
	assert_int_equal(sonde_perfdata_reader__group(r, 0)->nr_members, 2);
	assert_null(sonde_perfdata_reader__group(r, 1));
	assert_string_equal(feat_text(r, SONDE_FEAT_CACHE),
			    "# CPU cache info:\n"
			    "#  L1 Data                 48K [0]\n"
			    "#  L2 Unified            1024K [0-1]\n");
	assert_string_equal(feat_text(r, SONDE_FEAT_MEM_TOPOLOGY),
			    "# memory nodes (nr 1, block size 0x8000000):\n"
			    "#    0 [768M]: 0-3,8,69\n");
	{
		uint64_t res = 0;

		assert_int_equal(sonde_perfdata_reader__clockid_res(r, &res), 0);
		assert_int_equal(res, 1);
	}
	assert_string_equal(feat_text(r, SONDE_FEAT_COMPRESSED),
			    "# compressed : Zstd, level = 3, ratio = 7\n");
	assert_string_equal(feat_text(r, SONDE_FEAT_CPU_PMU_CAPS),
			    "# cpu pmu capabilities: not available\n");
	{
		const struct sonde_feat_clock_data *cd = sonde_perfdata_reader__clock_data(r);

		assert_non_null(cd);
		assert_int_equal(cd->version, 1);
		assert_int_equal(cd->clockid, 1);
		assert_true(cd->tod_ns == 1700000000123456789ULL);
		assert_true(cd->clockid_ns == 5000000007ULL);
	}
	assert_string_equal(feat_text(r, SONDE_FEAT_PMU_CAPS),
			    "# cpu_core pmu capabilities: branches=32, max_precise=3\n");
	sonde_perfdata_reader__free(r);
	free(g.buf);
}

static void test_features_native(void **state)
{
	(void)state;
	check_all(false);
}

static void test_features_swapped(void **state)
{
	(void)state;
	check_all(true);
}

/* perf before die support: ids but no dies; older still: no ids. */
static void test_cpu_topology_old(void **state)
{
	struct pdgen g;
	struct sonde_perfdata_reader *r;
	size_t s;

	(void)state;
	for (int ids = 0; ids < 2; ids++) {
		memset(&g, 0, sizeof(g));
		pdg_pipe_begin(&g, 7, 1000);
		s = feat_begin(&g, SONDE_FEAT_NRCPUS);
		pdg_32(&g, 1);
		pdg_32(&g, 1);
		feat_end(&g, s);
		s = feat_begin(&g, SONDE_FEAT_CPU_TOPOLOGY);
		pdg_32(&g, 1);
		str(&g, "0");
		pdg_32(&g, 1);
		str(&g, "0");
		if (ids) {
			pdg_32(&g, 3);
			pdg_32(&g, 4);
		}
		feat_end(&g, s);
		r = open_img(&g);
		assert_null(sonde_perfdata_reader__error(r));
		assert_string_equal(feat_text(r, SONDE_FEAT_CPU_TOPOLOGY),
				    ids ? "# sibling sockets : 0\n# sibling threads : 0\n"
					  "# CPU 0: Core ID 3, Socket ID 4\n"
					: "# sibling sockets : 0\n# sibling threads : 0\n"
					  "# Core ID and Socket ID information is not available\n");
		sonde_perfdata_reader__free(r);
		free(g.buf);
	}
}

/* A count past the section: reported as corrupt with the feature number. */
static void test_corrupt_cache(void **state)
{
	struct pdgen g;
	struct sonde_perfdata_reader *r;
	size_t s;

	(void)state;
	memset(&g, 0, sizeof(g));
	pdg_pipe_begin(&g, 7, 1000);
	s = feat_begin(&g, SONDE_FEAT_CACHE);
	pdg_32(&g, 1);
	pdg_32(&g, 0x10000000);
	feat_end(&g, s);
	s = feat_begin(&g, SONDE_FEAT_MEM_TOPOLOGY);
	pdg_64(&g, 1);
	pdg_64(&g, 4096);
	pdg_64(&g, 1);
	pdg_64(&g, 0);
	pdg_64(&g, 0);
	pdg_64(&g, 1ULL << 40); /* bits: far more than the section holds */
	feat_end(&g, s);
	r = sonde_perfdata_reader__open_mem(g.buf, g.len, NULL);
	assert_non_null(r);
	{
		struct sonde_perfdata_record rec;

		while (sonde_perfdata_reader__next(r, &rec) > 0)
			;
	}
	assert_non_null(sonde_perfdata_reader__error(r));
	assert_non_null(strstr(sonde_perfdata_reader__error(r), "feature 20"));
	assert_null(feat_text(r, SONDE_FEAT_CACHE));
	assert_null(feat_text(r, SONDE_FEAT_MEM_TOPOLOGY));
	sonde_perfdata_reader__free(r);
	free(g.buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_features_native),
		cmocka_unit_test(test_features_swapped),
		cmocka_unit_test(test_cpu_topology_old),
		cmocka_unit_test(test_corrupt_cache),
	};

	sonde_set_print(NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
