// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The rdpmc self-read on a build whose architecture has no rdpmc reader,
 * with a simulated mmap page through the seam (this machine has no PMU);
 * test_selfmon.c checks the rest of the self-read through the public API
 * on both libraries.
 * Static-only: it takes the architecture's reader away (core_priv.h's
 * sys_set_arch_rdpmc): through the public seam a NULL hook means the real
 * reader, so no caller can make this build look like one that has none.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "sonde/sonde.h"
#include "core_priv.h"
#include "fake_selfmon.h"

static uint64_t region_rdpmc(unsigned int counter)
{
	rdpmc_calls++;
	return 5;
}

/*
 * A build without an rdpmc reader for its architecture (the real seam
 * table's rdpmc is NULL, as on arm64): cap_user_rdpmc must not be
 * trusted, or the count would be offset + 0.
 */
static void test_no_reader_for_arch(void **state)
{
	struct sonde_sys_ops ops = {
		.perf_event_open = fake_open, .mmap = fake_mmap,
		.munmap = fake_munmap, .read = fake_read, .rdtsc = fake_tsc,
	};
	struct sonde_count c;

	page.pc.cap_user_rdpmc = 1;
	page.pc.cap_user_time = 1;
	page.pc.index = 2;
	page.pc.offset = 1000;
	sys_set_arch_rdpmc(NULL);
	sonde_sys_set_ops(&ops);
	assert_null(sonde_sys_ops()->rdpmc);
	assert_int_equal(sonde_evsel__read_self(sonde_evlist__evsel(list, 0), &c), 0);
	assert_int_equal(read_calls, 1);
	assert_int_equal(c.val, 77);
	assert_int_equal(rdpmc_calls, 0);

	/* A reader through the seam is trusted again. */
	ops.rdpmc = region_rdpmc;
	sonde_sys_set_ops(&ops);
	assert_int_equal(sonde_evsel__read_self(sonde_evlist__evsel(list, 0), &c), 1);
	assert_int_equal(c.val, 1005);
	sys_restore_arch_rdpmc();
#if defined(__x86_64__) || defined(__i386__)
	/* This build has the x86 reader: it fills an unset hook. */
	ops.rdpmc = NULL;
	sonde_sys_set_ops(&ops);
	assert_non_null(sonde_sys_ops()->rdpmc);
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_no_reader_for_arch, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
