// SPDX-License-Identifier: LGPL-2.1-only
/* PMU discovery and format terms over a fake sysfs tree. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdint.h>
#include "sonde/sonde.h"
#include "fake_tree.h"

static int setup(void **state)
{
	fake_tree_build();
	sonde_set_print(NULL);
	return 0;
}

static int teardown(void **state)
{
	fake_tree_remove();
	return 0;
}

static uint64_t fmt_bits(const char *text, int want_field)
{
	enum sonde_pmu_config_field f;
	uint64_t bits;

	assert_int_equal(sonde_pmu_format__parse(text, strlen(text), &f, &bits), 0);
	assert_int_equal(f, want_field);
	return bits;
}

static void test_format_parse(void **state)
{
	assert_int_equal(fmt_bits("config:0-7\n", 0), 0xff);
	assert_int_equal(fmt_bits("config:0-7,32-35", 0), 0xf000000ffULL);
	assert_int_equal(fmt_bits("config1:5", 1), 0x20);
	assert_int_equal(fmt_bits("  config2:0-63  ", 2), ~0ULL);
	assert_int_equal(fmt_bits("config3:63", 3), 1ULL << 63);
	assert_int_equal(fmt_bits("config", 0), ~0ULL);
}

static void test_format_parse_rejects(void **state)
{
	static const char *const bad[] = {
		"", "config:", "config:8-7", "config:64", "config:1,",
		"config:1-", "foo:1", "config4:1", "config:1 2", "config:-1",
		"config:99999999999999999999", "config1:0-7,x",
	};
	enum sonde_pmu_config_field f;
	uint64_t bits;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(sonde_pmu_format__parse(bad[i], strlen(bad[i]),
							 &f, &bits),
				 -SONDE_ERR_PARSE);
	/* Not NUL-terminated: the length bounds the read. */
	assert_int_equal(sonde_pmu_format__parse("config:1-3XXXX", 10, &f, &bits), 0);
	assert_int_equal(bits, 0xe);
	/* An embedded NUL is not silently accepted mid-text. */
	assert_int_equal(sonde_pmu_format__parse("config:1\0-3", 11, &f, &bits),
			 -SONDE_ERR_PARSE);
}

static void test_format_apply(void **state)
{
	struct sonde_pmu_format split = { "split", SONDE_PMU_CONFIG,
					  0x30300000000ULL };
	struct sonde_pmu_format all = { "all", SONDE_PMU_CONFIG, ~0ULL };
	uint64_t w = 0x1;

	/* Value bits fill the format bits low to high: 0b1011 -> 32,33,41. */
	assert_int_equal(sonde_pmu_format__apply(&split, 0xb, &w), 0);
	assert_int_equal(w, 0x1 | (1ULL << 32) | (1ULL << 33) | (1ULL << 41));
	assert_int_equal(sonde_pmu_format__apply(&split, 0x10, &w), -ERANGE);
	w = 0;
	assert_int_equal(sonde_pmu_format__apply(&all, ~0ULL, &w), 0);
	assert_int_equal(w, ~0ULL);
}

static void test_load_fake_sysfs(void **state)
{
	SONDE_OPTS(sonde_pmus_opts, o, .sysfs_root = fake_sysfs);
	struct sonde_pmus *pmus = sonde_pmus__load(&o);
	const struct sonde_pmu *cpu, *imc;
	const struct sonde_pmu_alias *al;

	assert_non_null(pmus);
	/* notype, badtype and hugetype have no usable type: skipped. */
	assert_int_equal(sonde_pmus__count(pmus), 3);
	assert_string_equal(sonde_pmu__name(sonde_pmus__get(pmus, 0)), "cpu");
	assert_null(sonde_pmus__get(pmus, 3));
	cpu = sonde_pmus__find(pmus, "cpu");
	assert_non_null(cpu);
	assert_int_equal(sonde_pmu__type(cpu), 4);
	assert_string_equal(sonde_pmu__cpumask(cpu), "0-1");
	/* The malformed format file is dropped, the rest kept and sorted. */
	assert_int_equal(sonde_pmu__format_count(cpu), 8);
	assert_null(sonde_pmu__find_format(cpu, "broken"));
	assert_string_equal(sonde_pmu__format(cpu, 0)->name, "cmask");
	assert_int_equal(sonde_pmu__find_format(cpu, "ldlat")->field,
			 SONDE_PMU_CONFIG1);
	assert_int_equal(sonde_pmu__find_format(cpu, "extra")->field,
			 SONDE_PMU_CONFIG3);
	/* Aliases: .scale/.unit are attributes, not events. */
	assert_int_equal(sonde_pmu__alias_count(cpu), 3);
	al = sonde_pmu__find_alias(cpu, "MEM-LOADS");
	assert_non_null(al);
	assert_string_equal(al->terms, "event=0xcd,umask=0x1,ldlat=3");
	assert_true(al->scale == 0.5);
	assert_string_equal(al->unit, "MiB");
	al = sonde_pmu__find_alias(cpu, "cycles-t");
	assert_non_null(al);
	assert_null(al->unit);
	assert_true(al->scale == 1.0);
	/* uncore_ prefix may be left out, as in perf. */
	imc = sonde_pmus__find(pmus, "imc_0");
	assert_non_null(imc);
	assert_string_equal(sonde_pmu__name(imc), "uncore_imc_0");
	assert_int_equal(sonde_pmu__type(imc), 20);
	assert_null(sonde_pmus__find(pmus, "nope"));
	assert_int_equal(errno, ENOENT);
	sonde_pmus__free(pmus);
	sonde_pmus__free(NULL);
}

/* A PMU's other files (caps/, max_nonturbo_ratio), read trimmed. */
static void test_read_file(void **state)
{
	SONDE_OPTS(sonde_pmus_opts, o, .sysfs_root = fake_sysfs);
	struct sonde_pmus *pmus = sonde_pmus__load(&o);
	const struct sonde_pmu *cpu;
	char buf[16];

	(void)state;
	assert_non_null(pmus);
	cpu = sonde_pmus__find(pmus, "cpu");
	assert_int_equal(sonde_pmu__read_file(cpu, "cpumask", buf, sizeof(buf)), 3);
	assert_string_equal(buf, "0-1");
	assert_int_equal(sonde_pmu__read_file(cpu, "format/umask", buf, sizeof(buf)), 11);
	assert_string_equal(buf, "config:8-15");
	assert_int_equal(sonde_pmu__read_file(cpu, "caps/none", buf, sizeof(buf)), -ENOENT);
	assert_int_equal(sonde_pmu__read_file(cpu, "../cpu/type", buf, sizeof(buf)), -EINVAL);
	/* Too long for the buffer: refused, not cut. */
	assert_int_equal(sonde_pmu__read_file(cpu, "format/split", buf, 8), -EFBIG);
	sonde_pmus__free(pmus);
}

/* The AUX area tracers, by name as perf knows them. */
static void test_auxtrace_type(void **state)
{
	(void)state;
	assert_int_equal(sonde_pmu_name__auxtrace_type("intel_pt"), SONDE_AUXTRACE_INTEL_PT);
	assert_int_equal(sonde_pmu_name__auxtrace_type("intel_bts"), SONDE_AUXTRACE_INTEL_BTS);
	assert_int_equal(sonde_pmu_name__auxtrace_type("cs_etm"), SONDE_AUXTRACE_CS_ETM);
	assert_int_equal(sonde_pmu_name__auxtrace_type("arm_spe_0"), SONDE_AUXTRACE_ARM_SPE);
	assert_int_equal(sonde_pmu_name__auxtrace_type("hisi_ptt0_2"), SONDE_AUXTRACE_HISI_PTT);
	assert_int_equal(sonde_pmu_name__auxtrace_type("cpu"), -ENOENT);
	assert_int_equal(sonde_pmu_name__auxtrace_type("intel_pt2"), -ENOENT);
	assert_int_equal(sonde_pmu_name__auxtrace_type("arm_spe"), -ENOENT);
	assert_int_equal(sonde_pmu_name__auxtrace_type(NULL), -EINVAL);
}

static void test_missing_root_is_empty(void **state)
{
	SONDE_OPTS(sonde_pmus_opts, o, .sysfs_root = "/nonexistent/sonde");
	struct sonde_pmus *pmus = sonde_pmus__load(&o);

	assert_non_null(pmus);
	assert_int_equal(sonde_pmus__count(pmus), 0);
	sonde_pmus__free(pmus);
}

static void test_real_sysfs(void **state)
{
	struct sonde_pmus *pmus = sonde_pmus__load(NULL);
	const struct sonde_pmu *sw;

	assert_non_null(pmus);
	sw = sonde_pmus__find(pmus, "software");
	if (!sw) {
		printf("SKIP: no /sys/bus/event_source/devices/software here\n");
		sonde_pmus__free(pmus);
		skip();
	}
	assert_int_equal(sonde_pmu__type(sw), SONDE_PERF_TYPE_SOFTWARE);
	sonde_pmus__free(pmus);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_parse),
		cmocka_unit_test(test_format_parse_rejects),
		cmocka_unit_test(test_format_apply),
		cmocka_unit_test(test_load_fake_sysfs),
		cmocka_unit_test(test_read_file),
		cmocka_unit_test(test_auxtrace_type),
		cmocka_unit_test(test_missing_root_is_empty),
		cmocka_unit_test(test_real_sysfs),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
