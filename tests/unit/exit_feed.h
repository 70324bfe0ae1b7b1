/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * A live feed of many short-lived processes for the profile (public API
 * only): process i forks as tid EF_TID0 + i % EF_TIDS (so tids come back),
 * takes comm "c<i % 7>", maps /nonexistent/o<i % 5> at EF_BASE, is
 * sampled there, exits, and is sampled once more after its EXIT (a late
 * sample, as a dying task's can be). Each step checks what the sample
 * resolves to, right then: the comm and object of process i.
 */
#ifndef SONDE_TEST_EXIT_FEED_H
#define SONDE_TEST_EXIT_FEED_H

#include <stdio.h>
#include <string.h>
#include "sonde/sonde.h"

#define EF_TID0 1000
#define EF_TIDS 50
#define EF_BASE 0x400000ULL
#define EF_ST (SONDE_PERF_SAMPLE_IP | SONDE_PERF_SAMPLE_TID | SONDE_PERF_SAMPLE_TIME | \
	       SONDE_PERF_SAMPLE_PERIOD)

static inline void ef_add(struct sonde_profile *p, struct sonde_record *rec, int want)
{
	assert_int_equal(sonde_profile__add_record(p, 0, rec), want);
}

static inline void ef_task(struct sonde_profile *p, uint32_t type, uint32_t tid, uint64_t time)
{
	struct sonde_record rec;

	memset(&rec, 0, sizeof(rec));
	rec.type = type;
	rec.task.pid = rec.task.tid = tid;
	rec.task.ppid = rec.task.ptid = 1;
	rec.task.time = time;
	ef_add(p, &rec, 0);
}

static inline void ef_sample(struct sonde_profile *p, uint32_t tid, uint64_t time,
			     const char *comm, const char *dso)
{
	const struct sonde_profile_frame *f;
	struct sonde_record rec;

	memset(&rec, 0, sizeof(rec));
	rec.type = SONDE_PERF_RECORD_SAMPLE;
	rec.misc = SONDE_PERF_RECORD_MISC_USER;
	rec.sample.sample_type = EF_ST;
	rec.sample.ip = EF_BASE + 0x10;
	rec.sample.pid = rec.sample.tid = tid;
	rec.sample.time = time;
	rec.sample.period = 1;
	ef_add(p, &rec, 1);
	assert_string_equal(sonde_profile__sample_comm(p, (int32_t)tid, (int32_t)tid), comm);
	f = sonde_profile__resolve(p, (int32_t)tid, (int32_t)tid, false, EF_BASE + 0x10);
	assert_non_null(f);
	assert_non_null(sonde_profile_frame__dso(f));
	assert_string_equal(sonde_profile_frame__dso(f), dso);
}

/* Processes [from, to), process i at time base + (i - from) * step (ns). */
static inline void ef_feed(struct sonde_profile *p, int from, int to, uint64_t base,
			   uint64_t step)
{
	for (int i = from; i < to; i++) {
		uint32_t tid = EF_TID0 + (uint32_t)(i % EF_TIDS);
		uint64_t t = base + (uint64_t)(i - from) * step;
		char comm[16], dso[32];
		struct sonde_record rec;

		snprintf(comm, sizeof(comm), "c%d", i % 7);
		snprintf(dso, sizeof(dso), "/nonexistent/o%d", i % 5);
		ef_task(p, SONDE_PERF_RECORD_FORK, tid, t);
		memset(&rec, 0, sizeof(rec));
		rec.type = SONDE_PERF_RECORD_COMM;
		rec.misc = SONDE_PERF_RECORD_MISC_COMM_EXEC;
		rec.comm.pid = rec.comm.tid = tid;
		rec.comm.comm = comm;
		ef_add(p, &rec, 0);
		memset(&rec, 0, sizeof(rec));
		rec.type = SONDE_PERF_RECORD_MMAP2;
		rec.misc = SONDE_PERF_RECORD_MISC_USER;
		rec.mmap.pid = rec.mmap.tid = tid;
		rec.mmap.addr = EF_BASE;
		rec.mmap.len = 0x1000;
		rec.mmap.prot = 5; /* PROT_READ | PROT_EXEC */
		rec.mmap.filename = dso;
		ef_add(p, &rec, 0);
		ef_sample(p, tid, t + 1, comm, dso);
		ef_task(p, SONDE_PERF_RECORD_EXIT, tid, t + 2);
		/* After its EXIT, the tid is still the process that exited. */
		ef_sample(p, tid, t + 3, comm, dso);
	}
}

/* A profile by comm and dso whose event 0 samples EF_ST. */
static inline struct sonde_profile *ef_profile(void)
{
	static const enum sonde_profile_key keys[] = { SONDE_PROFILE_KEY_COMM,
						       SONDE_PROFILE_KEY_DSO };
	SONDE_OPTS(sonde_profile_opts, po, .keys = keys, .nr_keys = 2);
	struct sonde_perf_event_attr a = { .size = sizeof(a), .sample_type = EF_ST };
	struct sonde_profile *p = sonde_profile__new(&po);

	assert_non_null(p);
	assert_int_equal(sonde_profile__add_event(p, &a, NULL, 0, "ev"), 0);
	return p;
}

#endif /* SONDE_TEST_EXIT_FEED_H */
