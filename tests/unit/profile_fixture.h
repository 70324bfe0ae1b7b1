/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * The hand-made profile the profile, branch and export tests share (public
 * API only, so they build against libsonde.a and libsonde.so alike).
 *
 * One process, the test's own pid: an anonymous map at BASE holds the
 * functions main, fa, fb and fc, named by a JIT map file
 * (/tmp/perf-PID.map) so that names and addresses are the test's own
 * whatever the machine. pf_setup() and pf_teardown() write and remove
 * that file (cmocka group fixtures). pf_gen_file() makes a perf.data image
 * of six samples; pf_live_profile() feeds the same process to a profile
 * as records of a live ring would.
 */
#ifndef SONDE_TEST_PROFILE_FIXTURE_H
#define SONDE_TEST_PROFILE_FIXTURE_H

#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "sonde/sonde.h"
#include "pdgen.h"

#define BASE 0x7f0000001000ULL
/* Functions of the JIT map: main calls fa calls fb calls fc. */
#define F_MAIN (BASE + 0x000)
#define F_A (BASE + 0x100)
#define F_B (BASE + 0x200)
#define F_C (BASE + 0x300)

#define ST_IP SONDE_PERF_SAMPLE_IP
#define ST_TID SONDE_PERF_SAMPLE_TID
#define ST_TIME SONDE_PERF_SAMPLE_TIME
#define ST_CALLCHAIN SONDE_PERF_SAMPLE_CALLCHAIN
#define ST_ID SONDE_PERF_SAMPLE_ID
#define ST_CPU SONDE_PERF_SAMPLE_CPU
#define ST_PERIOD SONDE_PERF_SAMPLE_PERIOD
#define ST_BRANCH_STACK SONDE_PERF_SAMPLE_BRANCH_STACK

static int pid;
static char map_path[64];

static inline int pf_setup(void **state)
{
	FILE *f;

	(void)state;
	pid = (int)getpid();
	snprintf(map_path, sizeof(map_path), "/tmp/perf-%d.map", pid);
	f = fopen(map_path, "w");
	if (!f)
		return -1;
	fprintf(f, "%llx 100 main\n%llx 100 fa\n%llx 100 fb\n%llx 100 fc\n",
		(unsigned long long)F_MAIN, (unsigned long long)F_A,
		(unsigned long long)F_B, (unsigned long long)F_C);
	return fclose(f);
}

static inline int pf_teardown(void **state)
{
	(void)state;
	unlink(map_path);
	return 0;
}

/*
 * Thread pid "work": 3 x fc<-fb<-fa<-main (period 100, times 1..3),
 * fb<-fa<-main (100, t 4), fa<-main (200, t 5); thread pid+1 "other":
 * fc<-main (50, t 6).
 */
static inline void pf_gen_file(struct pdgen *g)
{
	const uint64_t cba[] = { F_C + 8, F_B + 8, F_A + 8, F_MAIN + 8 };
	const uint64_t ba[] = { F_B + 8, F_A + 8, F_MAIN + 8 };
	const uint64_t a[] = { F_A + 8, F_MAIN + 8 };
	const uint64_t cm[] = { F_C + 16, F_MAIN + 16 };

	memset(g, 0, sizeof(*g));
	pdg_file_begin(g, ST_IP | ST_TID | ST_TIME | ST_PERIOD | ST_CALLCHAIN, 100);
	pdg_comm(g, (uint32_t)pid, (uint32_t)pid, "work", 0);
	pdg_comm(g, (uint32_t)pid, (uint32_t)pid + 1, "other", 0);
	pdg_mmap(g, (uint32_t)pid, BASE, 0x1000, 0, "//anon", 0);
	for (int i = 0; i < 3; i++)
		pdg_sample(g, (uint32_t)pid, (uint32_t)pid, 1 + (uint64_t)i, cba[0], 100, cba, 4);
	pdg_sample(g, (uint32_t)pid, (uint32_t)pid, 4, ba[0], 100, ba, 3);
	pdg_sample(g, (uint32_t)pid, (uint32_t)pid, 5, a[0], 200, a, 2);
	pdg_sample(g, (uint32_t)pid, (uint32_t)pid + 1, 6, cm[0], 50, cm, 2);
	pdg_file_end(g, 1, 6);
}

/* Tells live profile @p of a page of @filename the test's process maps at @addr. */
static inline void pf_live_mmap(struct sonde_profile *p, uint64_t addr,
				const char *filename)
{
	struct sonde_record rec;

	memset(&rec, 0, sizeof(rec));
	rec.type = SONDE_PERF_RECORD_MMAP;
	rec.misc = SONDE_PERF_RECORD_MISC_USER;
	rec.mmap.pid = rec.mmap.tid = (uint32_t)pid;
	rec.mmap.addr = addr;
	rec.mmap.len = 0x1000;
	rec.mmap.filename = filename;
	assert_int_equal(sonde_profile__add_record(p, 0, &rec), 0);
}

/*
 * Tells live profile @p about the test's process, as a ring's first records
 * would: its COMM (@comm) and the anonymous map at BASE that the JIT map
 * names.
 */
static inline void pf_live_process(struct sonde_profile *p, const char *comm)
{
	struct sonde_record rec;

	memset(&rec, 0, sizeof(rec));
	rec.type = SONDE_PERF_RECORD_COMM;
	rec.comm.pid = rec.comm.tid = (uint32_t)pid;
	rec.comm.comm = comm;
	assert_int_equal(sonde_profile__add_record(p, 0, &rec), 0);
	pf_live_mmap(p, BASE, "//anon");
}

/*
 * A profile made with @po (NULL: defaults) whose event 0 is @attr, named
 * @name, that knows thread pid "work" and the JIT map: the COMM and MMAP
 * records a live ring would carry.
 */
static inline struct sonde_profile *pf_live_profile(const struct sonde_profile_opts *po,
						    const struct sonde_perf_event_attr *attr,
						    const char *name)
{
	struct sonde_profile *p = sonde_profile__new(po);

	assert_non_null(p);
	assert_int_equal(sonde_profile__add_event(p, attr, NULL, 0, name), 0);
	pf_live_process(p, "work");
	return p;
}

/*
 * @rec: a user-mode sample of the test's process at @ip, of @sample_type
 * and @period, its callchain the @nr ips of @chain (which @rec points to).
 */
static inline void pf_user_sample(struct sonde_record *rec, uint64_t sample_type,
				  uint64_t ip, uint64_t period,
				  const uint64_t *chain, uint64_t nr)
{
	memset(rec, 0, sizeof(*rec));
	rec->type = SONDE_PERF_RECORD_SAMPLE;
	rec->misc = SONDE_PERF_RECORD_MISC_USER;
	rec->sample.sample_type = sample_type;
	rec->sample.ip = ip;
	rec->sample.pid = rec->sample.tid = (uint32_t)pid;
	rec->sample.period = period;
	rec->sample.callchain.nr = nr;
	rec->sample.callchain.ips = chain;
}

#endif /* SONDE_TEST_PROFILE_FIXTURE_H */
