// SPDX-License-Identifier: LGPL-2.1-only
/*
 * AUXTRACE_INFO in perf 6.1's layout for each AUX area tracer, from a fake
 * sysfs (fake_aux.h) and a control page with a TSC conversion: intel_pt's
 * 17 words (format bits, max_nonturbo_ratio, switch mode, the filter
 * string after them), intel_bts's 6, arm_spe's 2, hisi_ptt's 1, cs_etm's
 * per-CPU ETM register blocks. Where perf is installed, perf
 * script -D reads each known layout back without an error.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "fake_aux.h"

static union {
	struct sonde_perf_event_mmap_page pc;
	char bytes[4096];
} page;

/* What synth() passes besides the type. */
static uint64_t etm_config;
static bool snapshot;
static const struct sonde_cpu_map *cpus;

struct info {
	uint32_t type;
	uint64_t nr;
	uint64_t w[64];
};

/* Writes a file with one event of @type and its AUXTRACE_INFO. */
static int synth(const char *path, uint32_t type, const char *filter,
		 struct info *out)
{
	SONDE_OPTS(sonde_auxtrace_info_opts, o, .pc = &page.pc, .per_cpu = true,
		   .have_sched_switch = 3, .filter = filter, .snapshot = snapshot,
		   .cpus = cpus);
	struct sonde_perf_event_attr a = { .size = sizeof(a), .type = type,
					   .config = etm_config };
	struct sonde_perfdata_writer *w;
	uint64_t id = 42;
	int ret, idx;

	a.sample_type = SONDE_PERF_SAMPLE_IP | SONDE_PERF_SAMPLE_TID |
			SONDE_PERF_SAMPLE_TIME;
	a.sample_period = 1;
	a.sample_id_all = 1;
	o.attr = &a;
	w = sonde_perfdata_writer__new(path, NULL);
	assert_non_null(w);
	idx = sonde_perfdata_writer__add_event(w, &a, "aux//");
	assert_true(idx >= 0);
	/* An id as record gives every event (perf's cs_etm numbers its
	 * samples' event after it and crashes without one). */
	assert_int_equal(sonde_perfdata_writer__add_ids(w, idx, &id, 1), 0);
	assert_int_equal(sonde_perfdata_writer__begin(w), 0);
	ret = sonde_perfdata_writer__synth_auxtrace_info(w, &o);
	assert_int_equal(sonde_perfdata_writer__finish(w), 0);
	if (ret < 0)
		return ret;
	{
		FILE *f = fopen(path, "rb");
		struct sonde_perf_file_header h;
		_Alignas(8) unsigned char buf[1024];
		struct sonde_perf_event_header eh;
		struct sonde_record_fmt fmt;
		struct sonde_record d;

		assert_non_null(f);
		assert_int_equal(fread(&h, sizeof(h), 1, f), 1);
		assert_true(h.adds_features[0] & (1ULL << SONDE_FEAT_AUXTRACE));
		fseek(f, (long)h.data.offset, SEEK_SET);
		assert_int_equal(fread(&eh, sizeof(eh), 1, f), 1);
		assert_int_equal(eh.type, SONDE_PERF_RECORD_AUXTRACE_INFO);
		memcpy(buf, &eh, sizeof(eh));
		assert_int_equal(fread(buf + 8, 1, eh.size - 8u, f), eh.size - 8u);
		fclose(f);
		assert_int_equal(sonde_record_fmt__from_attr(&fmt, &a), 0);
		assert_int_equal(sonde_record__decode(&fmt, buf, eh.size, &d), 0);
		out->type = d.auxtrace_info.type;
		out->nr = d.auxtrace_info.nr_priv;
		assert_true(out->nr <= 64);
		memcpy(out->w, d.auxtrace_info.priv, out->nr * 8);
	}
	return ret;
}

/*
 * perf script -D on @path: @want in the dump, and exit 0 unless @any_exit
 * (cs_etm: perf 6.1 then makes its branch samples' event, which fails in
 * a dump of a file that holds no trace; a recorded file passes, see
 * test_record_aux).
 */
static void perf_reads_exit(const char *path, const char *want, bool any_exit)
{
	char cmd[512], line[512];
	bool found = false;
	FILE *p;

	if (system("command -v perf >/dev/null 2>&1")) {
		print_message("SKIP (part): perf is not installed\n");
		return;
	}
	snprintf(cmd, sizeof(cmd), "perf script -f -D -i %s 2>&1", path);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		if (strstr(line, "failed to process"))
			fail_msg("perf: %s", line);
		found |= strstr(line, want) != NULL;
	}
	if (pclose(p) && !any_exit)
		fail_msg("perf script -D failed on %s", path);
	if (!found)
		fail_msg("perf script -D printed no \"%s\"", want);
}

static void perf_reads(const char *path, const char *want)
{
	perf_reads_exit(path, want, false);
}

/*
 * cs_etm, header version 1: per CPU an ETMv4 (CPU 0), ETE (CPU 1) or
 * ETMv3 (CPU 2: mgmt/etmccer, mgmt/etmidr; CPU 3: none) block, word by word as
 * perf 6.1's cs_etm_info_fill() writes it.
 */
static void test_cs_etm(const char *path)
{
	struct sonde_cpu_map *one;
	struct info in;
	static const uint64_t want[] = {
		1, (uint64_t)FAKE_ETM_TYPE << 32 | 4, 1,
		0x4040404040404040ULL, 0, 7, 1 << 3 | 1 << 7 | 1 << 12 | 1 << 15,
		0x10, 0x28000ea1, 0x4100f424, 0x20001088, 0, 0xcc,
		0x5050505050505050ULL, 1, 8, 1 << 3 | 1 << 7 | 1 << 12 | 1 << 15,
		0x12, 0x28002ea1, 0x4100fff0, 0x20001088, 0xffffffff80000001ULL,
		0xcc, 0x47725a13,
		0x3030303030303030ULL, 2, 4, 1ULL << 8 | 1ULL << 15 | 1ULL << 29,
		0x14, 0x8000a1, 0x410fb764,
		/* CPU 3 has no ETM files: an ETMv3 block of zeros, as perf's. */
		0x3030303030303030ULL, 3, 4, 1ULL << 8 | 1ULL << 15 | 1ULL << 29,
		0x16, 0, 0,
	};

	fake_aux_put_file("bus/event_source/devices/cs_etm/cpu2/mgmt/etmccer", "0x8000a1\n");
	fake_aux_put_file("bus/event_source/devices/cs_etm/cpu2/mgmt/etmidr", "410fb764\n");
	/* branch_broadcast, contextid2 (VMID), retstack: ETMv4 bits 3, 7|15, 12. */
	etm_config = 1ULL << 8 | 1ULL << 15 | 1ULL << 29;
	snapshot = true;
	fake_aux_online("0-3\n");
	assert_int_equal(synth(path, FAKE_ETM_TYPE, NULL, &in), SONDE_AUXTRACE_CS_ETM);
	assert_int_equal(in.nr, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < in.nr; i++)
		if (in.w[i] != want[i])
			fail_msg("cs_etm word %zu: %#jx, want %#jx", i,
				 (uintmax_t)in.w[i], (uintmax_t)want[i]);
	perf_reads_exit(path, "\tETMIDR\t\t\t       410fb764", true);

	/* The CPUs opened on (record -C 1): CPU 1's block only. */
	one = sonde_cpu_map__new("1");
	assert_non_null(one);
	cpus = one;
	assert_int_equal(synth(path, FAKE_ETM_TYPE, NULL, &in), SONDE_AUXTRACE_CS_ETM);
	assert_int_equal(in.nr, 3 + 11);
	assert_int_equal(in.w[1], (uint64_t)FAKE_ETM_TYPE << 32 | 1);
	assert_int_equal(in.w[3], 0x5050505050505050ULL);
	assert_int_equal(in.w[4], 1);
	cpus = NULL;
	sonde_cpu_map__free(one);

	/* More blocks than one record holds: refused, nothing written. */
	fake_aux_online("0-1199\n");
	assert_int_equal(synth(path, FAKE_ETM_TYPE, NULL, &in), -E2BIG);
	fake_aux_online(NULL);
	etm_config = 0;
	snapshot = false;
}

static void test_layouts(void **state)
{
	char dir[] = "/tmp/sonde-synthaux-XXXXXX", path[64];
	struct info in;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/a.data", dir);
	fake_aux_sysfs();
	memset(&page, 0, sizeof(page));
	page.pc.cap_user_time_zero = 1;
	page.pc.time_zero = 123456789;
	page.pc.time_mult = 1500;
	page.pc.time_shift = 10;

	assert_int_equal(synth(path, FAKE_PT_TYPE, "filter main @ /bin/true", &in),
			 SONDE_AUXTRACE_INTEL_PT);
	assert_int_equal(in.type, SONDE_AUXTRACE_INTEL_PT);
	/* 17 words, then "filter main @ /bin/true" + NUL in 3 words. */
	assert_int_equal(in.nr, 17 + 3);
	assert_int_equal(in.w[0], FAKE_PT_TYPE);
	assert_int_equal(in.w[1], 10);
	assert_int_equal(in.w[2], 1500);
	assert_int_equal(in.w[3], 123456789);
	assert_int_equal(in.w[4], 1);
	assert_int_equal(in.w[5], 1 << 10);
	assert_int_equal(in.w[7], 3);
	assert_int_equal(in.w[9], 1);
	assert_int_equal(in.w[11], 0xfULL << 14);
	assert_int_equal(in.w[15], 24);
	assert_int_equal(in.w[16], strlen("filter main @ /bin/true"));
	assert_string_equal((const char *)&in.w[17], "filter main @ /bin/true");
	perf_reads(path, "Filter string       filter main @ /bin/true");

	assert_int_equal(synth(path, FAKE_BTS_TYPE, NULL, &in), SONDE_AUXTRACE_INTEL_BTS);
	assert_int_equal(in.nr, 6);
	assert_int_equal(in.w[0], FAKE_BTS_TYPE);
	assert_int_equal(in.w[2], 1500);
	assert_int_equal(in.w[4], 1);
	assert_int_equal(in.w[5], 0);
	perf_reads(path, "PERF_RECORD_AUXTRACE_INFO type: 2");

	assert_int_equal(synth(path, FAKE_SPE_TYPE, NULL, &in), SONDE_AUXTRACE_ARM_SPE);
	assert_int_equal(in.nr, 2);
	assert_int_equal(in.w[0], FAKE_SPE_TYPE);
	assert_int_equal(in.w[1], 1);
	perf_reads(path, "PERF_RECORD_AUXTRACE_INFO type: 4");

	assert_int_equal(synth(path, FAKE_PTT_TYPE, NULL, &in), SONDE_AUXTRACE_HISI_PTT);
	assert_int_equal(in.nr, 1);
	assert_int_equal(in.w[0], FAKE_PTT_TYPE);
	perf_reads(path, "PERF_RECORD_AUXTRACE_INFO type: 6");

	test_cs_etm(path);

	/* No TSC: the conversion words are zero, as perf writes them. */
	page.pc.cap_user_time_zero = 0;
	assert_int_equal(synth(path, FAKE_BTS_TYPE, NULL, &in), SONDE_AUXTRACE_INTEL_BTS);
	assert_int_equal(in.w[2], 0);
	assert_int_equal(in.w[4], 0);

	/* Not an AUX area tracer: nothing written. */
	assert_int_equal(synth(path, SONDE_PERF_TYPE_SOFTWARE, NULL, &in), -ENOENT);
	assert_int_equal(synth(path, 4242, NULL, &in), -ENOENT);
	fake_aux_sysfs_remove();
	unlink(path);
	rmdir(dir);
}

/* perf's intel_pt snapshot reference buffer size, from the fake sysfs. */
static void test_snapshot_ref_size(void **state)
{
	struct sonde_pmus *pmus;
	const struct sonde_pmu *pt, *bts;
	const uint64_t psb3 = 3ULL << 24, psb7 = 7ULL << 24;

	(void)state;
	fake_aux_sysfs();
	pmus = sonde_pmus__load(NULL);
	assert_non_null(pmus);
	pt = sonde_pmus__find(pmus, "intel_pt");
	bts = sonde_pmus__find(pmus, "intel_bts");
	assert_non_null(pt);
	assert_non_null(bts);
	/* Two PSB periods: 2 KiB << psb_period, twice. */
	assert_int_equal(sonde_pmu__aux_snapshot_ref_size(pt, 0, 1 << 20, 1 << 20), 4096);
	assert_int_equal(sonde_pmu__aux_snapshot_ref_size(pt, psb3, 1 << 20, 1 << 20), 32768);
	/* At most 256 KiB. */
	assert_int_equal(sonde_pmu__aux_snapshot_ref_size(pt, psb7, 1 << 20, 1 << 20), 262144);
	/* Only over 64 KiB of snapshot, under half of it and under the area. */
	assert_int_equal(sonde_pmu__aux_snapshot_ref_size(pt, psb3, 1 << 20, 65536), 0);
	assert_int_equal(sonde_pmu__aux_snapshot_ref_size(pt, psb3, 1 << 20, 65537), 0);
	assert_int_equal(sonde_pmu__aux_snapshot_ref_size(pt, psb3, 32768, 1 << 20), 0);
	assert_int_equal(sonde_pmu__aux_snapshot_ref_size(pt, psb3, 1 << 20, 0), 0);
	/* intel_pt only. */
	assert_int_equal(sonde_pmu__aux_snapshot_ref_size(bts, 0, 1 << 20, 1 << 20), 0);
	assert_int_equal(sonde_pmu__aux_snapshot_ref_size(NULL, 0, 1 << 20, 1 << 20), 0);
	sonde_pmus__free(pmus);
	fake_aux_sysfs_remove();
}

/*
 * What perf adds to cs_etm in per-CPU areas, after its checks of each
 * CPU's ETM: contextid (the PMU's term unless asked) and timestamps.
 */
static void test_etm_per_cpu_config(void **state)
{
	struct sonde_pmus *pmus;
	const struct sonde_pmu *etm, *pt;
	struct sonde_cpu_map *c0, *c1;
	char err[256];
	uint64_t config;

	(void)state;
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		print_message("SKIP: needs two online CPUs\n");
		skip();
	}
	fake_aux_sysfs();
	pmus = sonde_pmus__load(NULL);
	assert_non_null(pmus);
	etm = sonde_pmus__find(pmus, "cs_etm");
	pt = sonde_pmus__find(pmus, "intel_pt");
	c0 = sonde_cpu_map__new("0-1");
	c1 = sonde_cpu_map__new("1");
	assert_non_null(etm);
	assert_non_null(c0);
	assert_non_null(c1);
	config = 1ULL << 12;
	if (sonde_pmu__aux_per_cpu_config(etm, c0, &config, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(config, 1ULL << 12 | 1ULL << 14 | 1ULL << 28);
	/* The user's contextid2 stands (TRCIDR2: VMIDOPT 1, VMIDSIZE 4)... */
	config = 1ULL << 15;
	assert_int_equal(sonde_pmu__aux_per_cpu_config(etm, c1, &config, err, sizeof(err)), 0);
	assert_int_equal(config, 1ULL << 15 | 1ULL << 28);
	/* ...unless the ETM has no VMID option. */
	fake_aux_put_file("bus/event_source/devices/cs_etm/cpu1/trcidr/trcidr2", "0x00001088\n");
	config = 1ULL << 15;
	assert_int_equal(sonde_pmu__aux_per_cpu_config(etm, c1, &config, err, sizeof(err)),
			 -EOPNOTSUPP);
	assert_non_null(strstr(err, "CONTEXTIDR_EL2 isn't supported (CPU 1)"));
	assert_int_equal(config, 1ULL << 15);
	fake_aux_put_file("bus/event_source/devices/cs_etm/cpu1/trcidr/trcidr2", "0x20001088\n");
	/* No global timestamps on CPU 1: refused, config untouched. */
	fake_aux_put_file("bus/event_source/devices/cs_etm/cpu1/trcidr/trcidr0", "0x00002ea1\n");
	config = 0;
	assert_int_equal(sonde_pmu__aux_per_cpu_config(etm, c0, &config, err, sizeof(err)),
			 -EOPNOTSUPP);
	assert_non_null(strstr(err, "CPU 1's ETM has no global timestamps"));
	assert_int_equal(config, 0);
	/* No context ID on CPU 1 (TRCIDR2.CIDSIZE 0), checked first. */
	fake_aux_put_file("bus/event_source/devices/cs_etm/cpu1/trcidr/trcidr2", "0x20001008\n");
	assert_int_equal(sonde_pmu__aux_per_cpu_config(etm, c1, &config, err, sizeof(err)),
			 -EOPNOTSUPP);
	assert_non_null(strstr(err, "CONTEXTIDR_EL1 isn't supported (CPU 1)"));
	assert_int_equal(sonde_pmu__aux_per_cpu_config(etm, c1, &config, NULL, 0), -EOPNOTSUPP);
	/* Other tracers: nothing perf adds. */
	assert_int_equal(sonde_pmu__aux_per_cpu_config(pt, c0, &config, err, sizeof(err)), -ENOENT);
	assert_int_equal(sonde_pmu__aux_per_cpu_config(NULL, c0, &config, err, sizeof(err)), -EINVAL);
	sonde_cpu_map__free(c0);
	sonde_cpu_map__free(c1);
	sonde_pmus__free(pmus);
	fake_aux_sysfs_remove();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layouts),
		cmocka_unit_test(test_snapshot_ref_size),
		cmocka_unit_test(test_etm_per_cpu_config),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
