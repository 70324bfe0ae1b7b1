// SPDX-License-Identifier: LGPL-2.1-only
/*
 * kprobe/uprobe PMU events: the bpftrace-style specs on a fake sysfs (PMU
 * types, the retprobe format bit, kprobe_func/uprobe_path in config1,
 * probe_offset in config2, errors), the symbol -> file offset step, the
 * evsel's own copy of the target string, and on the real uprobe PMU a
 * probe on a function of this test that must count exactly its calls.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "sonde/sonde.h"
#include "fake_tree.h"

static int setup(void **state)
{
	fake_tree_build();
	fake_put("sys/bus/event_source/devices/kprobe/type", "8\n");
	fake_put("sys/bus/event_source/devices/kprobe/format/retprobe",
		 "config:3\n");
	fake_put("sys/bus/event_source/devices/uprobe/type", "9\n");
	fake_put("sys/bus/event_source/devices/uprobe/format/retprobe",
		 "config:0\n");
	return 0;
}

static int teardown(void **state)
{
	fake_tree_remove();
	return 0;
}

static int resolve_calls;

static int fake_resolve(const char *path, const char *sym, uint64_t *off,
			void *ctx)
{
	resolve_calls++;
	assert_ptr_equal(ctx, &resolve_calls);
	if (!strcmp(path, "/opt/app") && !strcmp(sym, "handle"))
		*off = 0x4500;
	else
		return -ENOENT;
	return 0;
}

static struct sonde_evspec_list *parse(const char *spec, bool resolver,
				       int want, struct sonde_parse_error *pe)
{
	SONDE_OPTS(sonde_evspec_opts, o, .sysfs_root = fake_sysfs,
		   .tracefs_root = fake_tracefs);
	struct sonde_evspec_list *l = NULL;

	if (resolver) {
		o.probe_resolve = fake_resolve;
		o.probe_ctx = &resolve_calls;
	}
	assert_int_equal(sonde_evspec_list__parse_opts(spec, &o, &l, pe), want);
	return l;
}

static const char *target_of(const struct sonde_perf_event_attr *a)
{
	return (const char *)(uintptr_t)a->config1;
}

static void test_kprobe(void **state)
{
	struct sonde_evspec_list *l = parse("kprobe:do_sys_open+16,kretprobe:vfs_read",
					    false, 0, NULL);
	const struct sonde_perf_event_attr *a;

	assert_int_equal(sonde_evspec_list__count(l), 2);
	a = sonde_evspec_list__attr(l, 0);
	assert_int_equal(a->type, 8);
	assert_int_equal(a->config, 0);
	assert_string_equal(target_of(a), "do_sys_open");
	assert_string_equal(sonde_evspec_list__probe_target(l, 0), "do_sys_open");
	assert_int_equal(a->config2, 16);
	assert_string_equal(sonde_evspec_list__name(l, 0), "kprobe:do_sys_open+16");
	assert_string_equal(sonde_evspec_list__pmu(l, 0), "kprobe");
	a = sonde_evspec_list__attr(l, 1);
	assert_int_equal(a->config, 1ULL << 3); /* the PMU's retprobe bit */
	assert_string_equal(target_of(a), "vfs_read");
	assert_int_equal(a->config2, 0);
	sonde_evspec_list__free(l);

	/* A bare address: kprobe_addr in config2, no function. */
	l = parse("kprobe:0xffffffff81000000+8", false, 0, NULL);
	a = sonde_evspec_list__attr(l, 0);
	assert_int_equal(a->config1, 0);
	assert_int_equal(a->config2, 0xffffffff81000008ULL);
	assert_null(sonde_evspec_list__probe_target(l, 0));
	sonde_evspec_list__free(l);
}

static void test_uprobe(void **state)
{
	struct sonde_parse_error pe;
	struct sonde_evspec_list *l;
	const struct sonde_perf_event_attr *a;

	l = parse("uprobe:/bin/app:0x1130+4,uretprobe:/bin/app:0x1130",
		  false, 0, NULL);
	a = sonde_evspec_list__attr(l, 0);
	assert_int_equal(a->type, 9);
	assert_string_equal(target_of(a), "/bin/app");
	assert_int_equal(a->config2, 0x1134);
	assert_int_equal(a->config, 0);
	a = sonde_evspec_list__attr(l, 1);
	assert_int_equal(a->config, 1);
	sonde_evspec_list__free(l);

	/* A symbol needs the caller's resolver. */
	parse("uprobe:/opt/app:handle", false, -ENOENT, &pe);
	assert_non_null(strstr(pe.message, "no symbol resolver"));
	assert_int_equal(pe.column, 16);
	resolve_calls = 0;
	l = parse("{uprobe:/opt/app:handle+8,task-clock}", true, 0, NULL);
	assert_int_equal(resolve_calls, 1);
	a = sonde_evspec_list__attr(l, 0);
	assert_int_equal(a->config2, 0x4508);
	assert_int_equal(sonde_evspec_list__leader(l, 1), 0);
	sonde_evspec_list__free(l);
	parse("uprobe:/opt/app:nothere", true, -ENOENT, &pe);
	assert_non_null(strstr(pe.message, "cannot find 'nothere' in /opt/app"));
}

static void test_errors(void **state)
{
	struct sonde_parse_error pe;

	parse("uprobe:/bin/app", false, -SONDE_ERR_PARSE, &pe);
	parse("uprobe::0x10", false, -SONDE_ERR_PARSE, &pe);
	assert_int_equal(pe.column, 7);
	parse("kprobe:", false, -SONDE_ERR_PARSE, &pe);
	parse("kprobe:f+zz", false, -SONDE_ERR_PARSE, &pe);
	parse("kretprobe:f+8", false, -SONDE_ERR_PARSE, &pe);
	assert_non_null(strstr(pe.message, "return probe takes no offset"));
	{
		char path[512];

		snprintf(path, sizeof(path), "rm -rf %s/bus/event_source/devices/kprobe",
			 fake_sysfs);
		assert_int_equal(system(path), 0);
	}
	parse("kprobe:f", false, -ENOENT, &pe);
	assert_non_null(strstr(pe.message, "Cannot find PMU `kprobe'"));
}

/* The evsel keeps its own copy: the spec list may go first. */
static void test_evsel_copy(void **state)
{
	struct sonde_evspec_list *l = parse("kprobe:do_sys_open", false, 0, NULL);
	struct sonde_evlist *list = sonde_evlist__new();
	struct sonde_evsel *e;
	int idx;

	idx = sonde_evlist__add(list, sonde_evspec_list__attr(l, 0), "k", -1);
	assert_int_equal(idx, 0);
	e = sonde_evlist__evsel(list, idx);
	assert_int_equal(sonde_evsel__set_probe_target(e,
				sonde_evspec_list__probe_target(l, 0)), 0);
	assert_ptr_not_equal(target_of(sonde_evsel__attr(e)),
			     sonde_evspec_list__probe_target(l, 0));
	sonde_evspec_list__free(l);
	assert_string_equal(target_of(sonde_evsel__attr(e)), "do_sys_open");
	assert_int_equal(sonde_evsel__set_probe_target(e, NULL), -EINVAL);
	sonde_evlist__free(list);
}

/* ---- real: this test's own function through the uprobe PMU ---- */

volatile unsigned long probe_me_sink;
void probe_me(unsigned long i);

__attribute__((noinline, used)) void probe_me(unsigned long i)
{
	probe_me_sink += i;
	__asm__ volatile("" ::: "memory");
}

static void test_symbol_offset(void **state)
{
	uint64_t off = 0, off2 = 0;
	struct sonde_symcache *c = sonde_symcache__new(NULL);
	struct sonde_dso *d;

	assert_int_equal(sonde_symcache__probe_offset("/proc/self/exe", "probe_me",
						      &off, NULL), 0);
	assert_true(off > 0);
	/* Through a cache too, and back to the same vaddr. */
	assert_int_equal(sonde_symcache__probe_offset("/proc/self/exe", "probe_me",
						      &off2, c), 0);
	assert_int_equal(off, off2);
	d = sonde_symcache__dso(c, "/proc/self/exe", NULL, 0);
	{
		const struct sonde_symbol *syms;
		size_t n = sonde_dso__symbols(d, &syms);
		uint64_t va = sonde_dso__offset_to_vaddr(d, off), back;
		bool found = false;

		for (size_t i = 0; i < n; i++)
			found |= syms[i].start == va && !strcmp(syms[i].name, "probe_me");
		assert_true(found);
		assert_int_equal(sonde_dso__vaddr_to_offset(d, va, &back), 0);
		assert_int_equal(back, off);
		assert_int_equal(sonde_dso__vaddr_to_offset(d, 0xffffffffff00ULL, &back),
				 -ENOENT);
	}
	assert_int_equal(sonde_dso__symbol_offset(d, "no_such_symbol_here", &off2),
			 -ENOENT);
	sonde_dso__put(d);
	sonde_symcache__free(c);
	assert_int_equal(sonde_symcache__probe_offset("/nonexistent/bin", "x",
						      &off, NULL), -ENOENT);
}

static void test_real_uprobe_counts(void **state)
{
	SONDE_OPTS(sonde_evspec_opts, o,
		   .probe_resolve = sonde_symcache__probe_offset);
	struct sonde_evspec_list *l = NULL;
	struct sonde_perf_event_attr a;
	char spec[600], exe[512];
	uint64_t count = 0;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int fd;

	if (access("/sys/bus/event_source/devices/uprobe/type", R_OK)) {
		print_message("skip: no uprobe PMU on this kernel\n");
		skip();
	}
	assert_true(n > 0);
	exe[n] = '\0';
	snprintf(spec, sizeof(spec), "uprobe:%s:probe_me", exe);
	assert_int_equal(sonde_evspec_list__parse_opts(spec, &o, &l, NULL), 0);
	a = *sonde_evspec_list__attr(l, 0);
	a.sample_period = 0;
	a.exclude_kernel = 1;
	fd = sonde_event_open(&a, 0, -1, -1, 0);
	if (fd == -EACCES || fd == -EPERM) {
		print_message("skip: uprobes need privileges here (%d)\n", fd);
		sonde_evspec_list__free(l);
		skip();
	}
	assert_true(fd >= 0);
	for (unsigned long i = 0; i < 777; i++)
		probe_me(i);
	assert_int_equal(read(fd, &count, sizeof(count)), 8);
	assert_int_equal(count, 777);
	close(fd);
	sonde_evspec_list__free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_kprobe, setup, teardown),
		cmocka_unit_test_setup_teardown(test_uprobe, setup, teardown),
		cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_evsel_copy, setup, teardown),
		cmocka_unit_test(test_symbol_offset),
		cmocka_unit_test(test_real_uprobe_counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
