// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The writer's clock features: a file whose events sample with
 * attr.use_clockid carries CLOCKID (the clock's resolution) and CLOCK_DATA
 * (version, clockid, a wall-clock and a clock reading of one moment), as
 * perf record -k writes them; other files carry neither.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "sonde/sonde.h"

static char path[64];

static void write_file(bool use_clockid, int clockid)
{
	struct sonde_perf_event_attr a = {
		.size = sizeof(a),
		.type = SONDE_PERF_TYPE_SOFTWARE,
		.config = SONDE_PERF_COUNT_SW_TASK_CLOCK,
		.sample_type = SONDE_PERF_SAMPLE_IP | SONDE_PERF_SAMPLE_TIME,
		.sample_period = 1000,
		.sample_id_all = 1,
	};
	struct sonde_perfdata_writer *w;
	uint64_t id = 1;

	a.use_clockid = use_clockid;
	a.clockid = clockid;
	snprintf(path, sizeof(path), "/tmp/sonde-clock-%d.data", (int)getpid());
	w = sonde_perfdata_writer__new(path, NULL);
	assert_non_null(w);
	assert_true(sonde_perfdata_writer__add_event(w, &a, "task-clock") >= 0);
	assert_int_equal(sonde_perfdata_writer__add_ids(w, 0, &id, 1), 0);
	assert_int_equal(sonde_perfdata_writer__begin(w), 0);
	assert_int_equal(sonde_perfdata_writer__finish(w), 0);
}

/* The raw CLOCK_DATA section: found by its bytes after the data. */
static void test_clock_features(void **state)
{
	struct sonde_perfdata_reader *r;

	write_file(true, CLOCK_MONOTONIC);
	r = sonde_perfdata_reader__open(path, NULL);
	assert_non_null(r);
	assert_true(sonde_perfdata_reader__has_feature(r, SONDE_FEAT_CLOCKID));
	assert_true(sonde_perfdata_reader__has_feature(r, SONDE_FEAT_CLOCK_DATA));
	sonde_perfdata_reader__free(r);
	{
		/* version 1, clockid 1, then two times in ns of today. */
		FILE *f = fopen(path, "rb");
		unsigned char buf[65536];
		size_t n = fread(buf, 1, sizeof(buf), f);
		uint32_t want[2] = { 1, CLOCK_MONOTONIC };
		struct timespec now;
		bool found = false;

		fclose(f);
		clock_gettime(CLOCK_REALTIME, &now);
		for (size_t i = 0; i + 24 <= n && !found; i += 8) {
			uint64_t tod;

			if (memcmp(buf + i, want, 8))
				continue;
			memcpy(&tod, buf + i + 8, 8);
			found = tod / 1000000000ULL + 5 >= (uint64_t)now.tv_sec &&
				tod / 1000000000ULL <= (uint64_t)now.tv_sec;
		}
		assert_true(found);
	}
	unlink(path);

	write_file(false, 0);
	r = sonde_perfdata_reader__open(path, NULL);
	assert_non_null(r);
	assert_false(sonde_perfdata_reader__has_feature(r, SONDE_FEAT_CLOCKID));
	assert_false(sonde_perfdata_reader__has_feature(r, SONDE_FEAT_CLOCK_DATA));
	sonde_perfdata_reader__free(r);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clock_features),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
