// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The region API: the rdpmc path, its fallback to one group read(2), and
 * multiplex scaling through a fake kernel behind the syscall seam (this
 * machine has no PMU); then real software events.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "sonde/sonde.h"
#include "sonde/region.h"

/* ---- a fake kernel with a PMU ---------------------------------------- */

#define FAKE_FD 1000
#define NEV 3

static struct fake {
	int opened;
	int open_fail_at;      /* fail the Nth open (1-based) with ENOENT */
	int reads;             /* read(2) calls on fake fds */
	uint64_t val[NEV];     /* what read(2) and rdpmc report now */
	uint64_t ena, run;
	struct sonde_perf_event_mmap_page *page[NEV];
	uint64_t read_format[NEV];
} fk;

static int fake_open(struct sonde_perf_event_attr *attr, pid_t pid, int cpu,
		     int group_fd, unsigned long flags)
{
	(void)pid; (void)cpu; (void)group_fd; (void)flags;
	if (fk.open_fail_at && fk.opened + 1 == fk.open_fail_at) {
		errno = ENOENT;
		return -1;
	}
	if (fk.opened >= NEV) {
		errno = EMFILE;
		return -1;
	}
	fk.read_format[fk.opened] = attr->read_format;
	return FAKE_FD + fk.opened++;
}

static int fake_ioctl(int fd, unsigned long req, unsigned long arg)
{
	(void)fd; (void)req; (void)arg;
	return 0;
}

/* PERF_FORMAT_GROUP|ENABLED|RUNNING|ID on the leader, else one event. */
static ssize_t fake_read(int fd, void *buf, size_t len)
{
	int i = fd - FAKE_FD;
	uint64_t w[3 + 2 * NEV], n = 0;

	if (i < 0 || i >= NEV) {
		errno = EBADF;
		return -1;
	}
	fk.reads++;
	if (fk.read_format[i] & SONDE_PERF_FORMAT_GROUP) {
		w[n++] = (uint64_t)fk.opened;
		w[n++] = fk.ena;
		w[n++] = fk.run;
		for (int k = 0; k < fk.opened; k++) {
			w[n++] = fk.val[k];
			w[n++] = 100 + (uint64_t)k;
		}
	} else {
		w[n++] = fk.val[i];
		w[n++] = fk.ena;
		w[n++] = fk.run;
		w[n++] = 100 + (uint64_t)i;
	}
	if (len < n * 8) {
		errno = ENOSPC;
		return -1;
	}
	memcpy(buf, w, n * 8);
	return (ssize_t)(n * 8);
}

static void *fake_mmap(void *addr, size_t len, int prot, int flags, int fd,
		       off_t off)
{
	int i = fd - FAKE_FD;

	(void)addr; (void)len; (void)prot; (void)flags; (void)off;
	if (i < 0 || i >= NEV || !fk.page[i]) {
		errno = ENODEV;
		return MAP_FAILED;
	}
	return fk.page[i];
}

static int fake_munmap(void *addr, size_t len)
{
	(void)addr; (void)len;
	return 0;
}

static int fake_close(int fd)
{
	return fd >= FAKE_FD && fd < FAKE_FD + NEV ? 0 : close(fd);
}

/* Hardware counter i holds val[i] minus the page's offset. */
static uint64_t fake_rdpmc(unsigned int counter)
{
	return counter < NEV ? fk.val[counter] : 0;
}

static const struct sonde_sys_ops fake_ops = {
	.perf_event_open = fake_open,
	.ioctl = fake_ioctl,
	.read = fake_read,
	.mmap = fake_mmap,
	.munmap = fake_munmap,
	.close = fake_close,
	.rdpmc = fake_rdpmc,
};

static int setup(void **state)
{
	memset(&fk, 0, sizeof(fk));
	for (int i = 0; i < NEV; i++) {
		fk.page[i] = calloc(1, sizeof(*fk.page[i]));
		if (!fk.page[i])
			return -1;
		fk.page[i]->index = (uint32_t)i + 1;
		fk.page[i]->cap_bit0_is_deprecated = 1;
		fk.page[i]->cap_user_rdpmc = 1;
		fk.page[i]->pmc_width = 48;
		fk.page[i]->time_enabled = fk.page[i]->time_running = 5000;
	}
	sonde_sys_set_ops(&fake_ops);
	sonde_set_print(NULL);
	return 0;
}

static int teardown(void **state)
{
	sonde_sys_set_ops(NULL);
	for (int i = 0; i < NEV; i++)
		free(fk.page[i]);
	return 0;
}

static struct sonde_region *open_fake(const struct sonde_region_opts *o)
{
	static const struct sonde_perf_event_attr attrs[NEV] = {
		{ .type = SONDE_PERF_TYPE_HARDWARE,
		  .config = SONDE_PERF_COUNT_HW_CPU_CYCLES },
		{ .type = SONDE_PERF_TYPE_HARDWARE,
		  .config = SONDE_PERF_COUNT_HW_INSTRUCTIONS },
		{ .type = SONDE_PERF_TYPE_HARDWARE,
		  .config = SONDE_PERF_COUNT_HW_BRANCH_MISSES },
	};
	static const char *const names[NEV] = { "cycles", "instructions",
						NULL };

	fk.opened = 0; /* fds are per region in this fake */
	return sonde_region__new_attrs(attrs, names, NEV, o);
}

static void test_rdpmc_path(void **state)
{
	struct sonde_region_count c[NEV];
	struct sonde_region *r = open_fake(NULL);

	assert_non_null(r);
	assert_int_equal(sonde_region__nr(r), NEV);
	assert_string_equal(sonde_region__name(r, 1), "instructions");
	/* One group: every member reads its leader's group format. */
	for (int i = 0; i < NEV; i++)
		assert_true(fk.read_format[i] & SONDE_PERF_FORMAT_GROUP);
	fk.reads = 0;
	fk.val[0] = 1000; fk.val[1] = 2000; fk.val[2] = 30;
	assert_int_equal(sonde_region__begin(r), 0);
	assert_true(sonde_region__uses_rdpmc(r));
	fk.val[0] = 1500; fk.val[1] = 2800; fk.val[2] = 31;
	assert_int_equal(sonde_region__end(r), 0);
	assert_true(sonde_region__uses_rdpmc(r));
	/* No system call on the way. */
	assert_int_equal(fk.reads, 0);
	assert_int_equal(sonde_region__read(r, c, NEV), NEV);
	assert_true(c[0].value == 500 && c[0].raw == 500);
	assert_true(c[1].value == 800);
	assert_true(c[2].value == 1);
	assert_int_equal(c[0].regions, 1);

	/* A second region adds to the sums; reset zeroes them. */
	sonde_region__begin(r);
	fk.val[0] += 10;
	sonde_region__end(r);
	sonde_region__read(r, c, 1);
	assert_true(c[0].value == 510);
	assert_int_equal(c[0].regions, 2);
	assert_int_equal(sonde_region__reset(r), 0);
	assert_int_equal(sonde_region__read(r, c, NEV), NEV);
	assert_true(c[0].value == 0 && c[0].regions == 0);
	/* end without begin is a caller error. */
	assert_int_equal(sonde_region__end(r), -EINVAL);
	sonde_region__free(r);
}

/* A counter off the PMU (index 0): one group read instead. */
static void test_fallback_to_group_read(void **state)
{
	struct sonde_region_count c[NEV];
	struct sonde_region *r = open_fake(NULL);

	assert_non_null(r);
	fk.page[2]->index = 0;
	fk.reads = 0;
	fk.ena = fk.run = 100;
	fk.val[0] = 10; fk.val[1] = 20; fk.val[2] = 30;
	assert_int_equal(sonde_region__begin(r), 0);
	assert_false(sonde_region__uses_rdpmc(r));
	assert_int_equal(fk.reads, 1);
	fk.ena = fk.run = 200;
	fk.val[0] = 15; fk.val[1] = 27; fk.val[2] = 39;
	assert_int_equal(sonde_region__end(r), 0);
	assert_int_equal(fk.reads, 2); /* one read(2) per snapshot */
	sonde_region__read(r, c, NEV);
	assert_true(c[0].value == 5 && c[1].value == 7 && c[2].value == 9);
	assert_int_equal(c[0].ena, 100);
	sonde_region__free(r);
	fk.page[2]->index = 3;
}

/* A multiplexed group: running half the time it was enabled. */
static void test_multiplex_scaling(void **state)
{
	SONDE_OPTS(sonde_region_opts, o, .no_rdpmc = true);
	struct sonde_region_count c[NEV];
	struct sonde_region *r = open_fake(&o);

	assert_non_null(r);
	fk.ena = 1000; fk.run = 500;
	fk.val[0] = 100;
	sonde_region__begin(r);
	assert_false(sonde_region__uses_rdpmc(r));
	fk.ena = 3000; fk.run = 1500;
	fk.val[0] = 300;
	sonde_region__end(r);
	sonde_region__read(r, c, NEV);
	assert_int_equal(c[0].raw, 200);
	assert_int_equal(c[0].ena, 2000);
	assert_int_equal(c[0].run, 1000);
	assert_true(c[0].value == 400); /* 200 * 2000 / 1000 */
	sonde_region__free(r);
}

static void test_no_group(void **state)
{
	SONDE_OPTS(sonde_region_opts, o, .no_rdpmc = true, .no_group = true);
	struct sonde_region *r = open_fake(&o);

	assert_non_null(r);
	for (int i = 0; i < NEV; i++)
		assert_false(fk.read_format[i] & SONDE_PERF_FORMAT_GROUP);
	fk.reads = 0;
	assert_int_equal(sonde_region__begin(r), 0);
	assert_int_equal(fk.reads, NEV);
	sonde_region__free(r);
}

static void test_errors(void **state)
{
	struct sonde_perf_event_attr a = { .type = SONDE_PERF_TYPE_SOFTWARE };
	struct {
		struct sonde_region_opts o;
		int future;
	} newer = { .o = { .sz = sizeof(newer) }, .future = 1 };

	fk.open_fail_at = 2;
	errno = 0;
	assert_null(open_fake(NULL));
	assert_int_equal(errno, ENOENT);
	fk.open_fail_at = 0;
	assert_null(sonde_region__new_attrs(&a, NULL, 0, NULL));
	assert_int_equal(errno, EINVAL);
	assert_null(sonde_region__new_attrs(&a, NULL, 1, &newer.o));
	assert_int_equal(errno, EINVAL);
	assert_null(sonde_region__new(NULL, NULL));
	assert_int_equal(sonde_region__begin(NULL), -EINVAL);
	assert_int_equal(sonde_region__read(NULL, NULL, 0), -EINVAL);
	assert_int_equal(sonde_region__nr(NULL), 0);
	assert_null(sonde_region__name(NULL, 0));
	sonde_region__free(NULL);
}

static int real_setup(void **state)
{
	sonde_sys_set_ops(NULL);
	sonde_set_print(NULL);
	return 0;
}

static void test_bad_spec(void **state)
{
	errno = 0;
	assert_null(sonde_region__new("task-clock,,{", NULL));
	assert_true(errno != 0);
}

/* Real software events: page faults of touched pages, one read each. */
static void test_real_software_events(void **state)
{
	struct sonde_region_count c[4];
	long page = sysconf(_SC_PAGESIZE);
	struct sonde_region *r;
	char *mem;

	r = sonde_region__new("task-clock,page-faults,context-switches,"
			      "cpu-migrations", NULL);
	if (!r && (errno == EACCES || errno == EPERM || errno == ENOSYS)) {
		printf("SKIP: perf events not allowed here (errno %d)\n", errno);
		skip();
	}
	assert_non_null(r);
	assert_int_equal(sonde_region__nr(r), 4);
	assert_string_equal(sonde_region__name(r, 1), "page-faults");
	mem = mmap(NULL, (size_t)(128 * page), PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(mem != MAP_FAILED);
	madvise(mem, (size_t)(128 * page), MADV_NOHUGEPAGE);
	assert_int_equal(sonde_region__begin(r), 0);
	for (int i = 0; i < 128; i++)
		mem[(long)i * page] = 1;
	assert_int_equal(sonde_region__end(r), 0);
	/* Software events have no rdpmc. */
	assert_false(sonde_region__uses_rdpmc(r));
	assert_int_equal(sonde_region__read(r, c, 4), 4);
	/*
	 * Each page faults once; the kernel may map a few ahead, and a
	 * sanitizer's shadow memory adds faults of its own.
	 */
	assert_true(c[1].value >= 16 && c[1].value <= 1024);
	assert_true(c[0].value > 0);
	assert_true(c[0].ena > 0 && c[0].run == c[0].ena);
	munmap(mem, (size_t)(128 * page));
	sonde_region__free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		/* Behind a fake kernel with a PMU. */
		cmocka_unit_test_setup_teardown(test_rdpmc_path, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fallback_to_group_read,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_multiplex_scaling, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_no_group, setup, teardown),
		cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
		/* This kernel. */
		cmocka_unit_test_setup(test_bad_spec, real_setup),
		cmocka_unit_test_setup(test_real_software_events, real_setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
