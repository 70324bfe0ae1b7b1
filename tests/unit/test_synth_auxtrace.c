// SPDX-License-Identifier: LGPL-2.1-only
/*
 * AUXTRACE_INFO in perf 6.1's layout for each AUX area tracer, from a fake
 * sysfs (fake_aux.h) and a control page with a TSC conversion: intel_pt's
 * 17 words (format bits, max_nonturbo_ratio, switch mode, the filter
 * string after them), intel_bts's 6, arm_spe's 2, hisi_ptt's 1, and the
 * generic 7 under UNKNOWN for cs_etm. Where perf is installed, perf
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
		   .have_sched_switch = 3, .filter = filter);
	struct sonde_perf_event_attr a = { .size = sizeof(a), .type = type };
	struct sonde_perfdata_writer *w;
	int ret;

	a.sample_type = SONDE_PERF_SAMPLE_IP | SONDE_PERF_SAMPLE_TID |
			SONDE_PERF_SAMPLE_TIME;
	a.sample_period = 1;
	a.sample_id_all = 1;
	o.attr = &a;
	w = sonde_perfdata_writer__new(path, NULL);
	assert_non_null(w);
	assert_true(sonde_perfdata_writer__add_event(w, &a, "aux//") >= 0);
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

/* perf script -D on @path: exit 0 and @want in the dump. */
static void perf_reads(const char *path, const char *want)
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
	assert_int_equal(pclose(p), 0);
	if (!found)
		fail_msg("perf script -D printed no \"%s\"", want);
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

	/* No perf layout here: UNKNOWN and the facts every layout starts with. */
	assert_int_equal(synth(path, FAKE_ETM_TYPE, NULL, &in), SONDE_AUXTRACE_UNKNOWN);
	assert_int_equal(in.nr, 7);
	assert_int_equal(in.w[0], FAKE_ETM_TYPE);
	assert_int_equal(in.w[1], 10);
	assert_int_equal(in.w[2], 1500);
	assert_int_equal(in.w[3], 123456789);
	assert_int_equal(in.w[4], 1);
	assert_int_equal(in.w[5], 0);
	assert_int_equal(in.w[6], 1);

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layouts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
