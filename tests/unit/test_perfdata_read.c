// SPDX-License-Identifier: LGPL-2.1-only
/*
 * perf.data reader on images built in memory: file and pipe format, both
 * byte orders, FINISHED_ROUND ordering, features, and every kind of damage
 * reported with its byte offset after the good records were handed out.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sonde/sonde.h"
#include "core_priv.h"
#include "perfdata_priv.h"
#include "profile_priv.h"
#include "pdgen.h"
#include "pdseen.h"

#define ST_BASIC ((1u << 0) | (1u << 1) | (1u << 2) | (1u << 8))

static uint32_t build_attr_size; /* 0 = pdgen's default (128) */

/* COMM, MMAP, then samples at times 30, 10 | round | 20, 40 | round | 5. */
static void build(struct pdgen *g, bool pipe, bool swap)
{
	memset(g, 0, sizeof(*g));
	g->swap = swap;
	g->attr_size = build_attr_size;
	if (pipe)
		pdg_pipe_begin(g, ST_BASIC, 1000);
	else
		pdg_file_begin(g, ST_BASIC, 1000);
	pdg_comm(g, 42, 42, "worker", 1);
	pdg_mmap(g, 42, 0x400000, 0x10000, 0, "/nonexistent/prog", 2);
	pdg_sample(g, 42, 42, 30, 0x401000, 1000, NULL, 0);
	pdg_sample(g, 42, 42, 10, 0x401010, 1000, NULL, 0);
	pdg_round(g);
	pdg_sample(g, 42, 43, 20, 0x401020, 1000, NULL, 0);
	pdg_sample(g, 42, 42, 40, 0x401030, 1000, NULL, 0);
	pdg_round(g);
	pdg_sample(g, 42, 42, 35, 0x401040, 1000, NULL, 0);
	if (!pipe)
		pdg_file_end(g, 10, 40);
}

static void check_good(bool pipe, bool swap)
{
	struct pdgen g;
	struct sonde_perfdata_reader *r;
	struct pdg_seen s;
	/* Round 1 ends at max 30 but releases nothing (no previous round);
	 * round 2 releases <= 30; the end releases the rest. */
	static const uint64_t want[] = { 1, 2, 10, 20, 30, 35, 40 };

	build(&g, pipe, swap);
	r = sonde_perfdata_reader__open_mem(g.buf, g.len, NULL);
	assert_non_null(r);
	assert_null(sonde_perfdata_reader__error(r));
	assert_int_equal(sonde_perfdata_reader__is_pipe(r), pipe);
	assert_int_equal(sonde_perfdata_reader__needs_swap(r), swap);
	assert_int_equal(pdg_drain(r, &s), 0);
	assert_int_equal(s.n, 7);
	for (int i = 0; i < 7; i++)
		assert_int_equal(s.times[i], want[i]);
	assert_int_equal(s.types[0], SONDE_PERF_RECORD_COMM);
	assert_int_equal(sonde_perfdata_reader__nr_attrs(r), 1);
	assert_string_equal(sonde_perfdata_reader__event_name(r, 0), "cpu-clock");
	assert_int_equal(sonde_perfdata_reader__attr(r, 0)->sample_period, 1000);
	assert_true(sonde_perfdata_reader__attr(r, 0)->sample_id_all);
	assert_true(sonde_perfdata_reader__attr(r, 0)->exclude_guest);
	assert_false(sonde_perfdata_reader__attr(r, 0)->exclude_host);
	assert_string_equal(sonde_perfdata_reader__feature_string(r, SONDE_FEAT_HOSTNAME),
			    "pdgen-host");
	sonde_perfdata_reader__free(r);
	free(g.buf);
}

static void test_file_native(void **state)
{
	check_good(false, false);
}

static void test_file_swapped(void **state)
{
	check_good(false, true);
}

static void test_pipe_native(void **state)
{
	check_good(true, false);
}

static void test_pipe_swapped(void **state)
{
	check_good(true, true);
}

/* perf.data from older (VER0, 64 bytes) and newer (144 bytes) writers. */
static void test_attr_sizes(void **state)
{
	static const uint32_t sizes[] = { 64, 136, 144 };

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		build_attr_size = sizes[i];
		check_good(false, false);
		check_good(false, true);
		check_good(true, false);
	}
	build_attr_size = 0;
}

/* The model resolves comm and thread from the records of either order. */
static void test_model_swapped(void **state)
{
	struct pdgen g;
	struct sonde_perfdata_reader *r;
	struct sonde_perfdata_record rec;
	struct anl_machine *m = anl_machine_new();
	int samples = 0;

	build(&g, false, true);
	r = sonde_perfdata_reader__open_mem(g.buf, g.len, NULL);
	assert_non_null(r);
	while (sonde_perfdata_reader__next(r, &rec) > 0) {
		struct pdr_sample s;
		struct anl_thread *t;
		struct anl_loc loc;

		if (rec.type != SONDE_PERF_RECORD_SAMPLE) {
			anl_machine_process(m, r, &rec);
			continue;
		}
		assert_int_equal(pdr_parse_sample(r, &r->attrs[0], (const uint8_t *)rec.hdr,
						  rec.size, &s), 0);
		assert_int_equal(s.pid, 42);
		assert_int_equal(s.period, 1000);
		t = anl_thread_findnew(m, (int32_t)s.pid, (int32_t)s.tid);
		if (s.tid == 42)
			assert_string_equal(t->comm, "worker");
		else
			assert_string_equal(t->comm, ":43"); /* no COMM seen */
		anl_resolve(m, t, false, s.ip, &loc);
		assert_non_null(loc.dso);
		assert_string_equal(loc.dso->short_name, "prog");
		assert_int_equal(loc.addr, s.ip - 0x400000);
		samples++;
	}
	assert_int_equal(samples, 5);
	anl_machine_free(m);
	sonde_perfdata_reader__free(r);
	free(g.buf);
}

/* Cut inside the 4th record: 3 records come out, then the error. */
static void test_truncated(void **state)
{
	struct pdgen g;
	struct sonde_perfdata_reader *r;
	struct pdg_seen s;
	const char *e;
	size_t cut;

	build(&g, true, false);
	/* header 16, attr 136, feature 84, comm 40, mmap 72, 2 samples of 40 */
	cut = g.data_off + 40 + 72 + 40 + 20;
	r = sonde_perfdata_reader__open_mem(g.buf, cut, NULL);
	assert_non_null(r);
	assert_true(pdg_drain(r, &s) < 0);
	assert_int_equal(s.n, 3);
	e = sonde_perfdata_reader__error(r);
	assert_non_null(e);
	assert_non_null(strstr(e, "byte offset"));
	assert_non_null(strstr(e, "truncated"));
	sonde_perfdata_reader__free(r);
	free(g.buf);
}

static void test_bad_record_size(void **state)
{
	struct pdgen g;
	struct sonde_perfdata_reader *r;
	struct pdg_seen s;
	char want[64];
	size_t off;

	build(&g, false, false);
	off = g.data_off + 40; /* the MMAP record */
	g.buf[off + 6] = 4;
	g.buf[off + 7] = 0;
	r = sonde_perfdata_reader__open_mem(g.buf, g.len, NULL);
	assert_non_null(r);
	assert_true(pdg_drain(r, &s) < 0);
	assert_int_equal(s.n, 1); /* the COMM before it */
	snprintf(want, sizeof(want), "byte offset %zu:", off);
	assert_non_null(strstr(sonde_perfdata_reader__error(r), want));
	sonde_perfdata_reader__free(r);
	free(g.buf);
}

/*
 * An AUXTRACE record whose data size does not fit an int64_t: an error
 * at the record's offset, in files and pipes (the size once came back
 * as a negative skip, read as an error code, and the reader stopped
 * there saying nothing).
 */
static void test_auxtrace_size_overflow(void **state)
{
	for (int pipe = 0; pipe < 2; pipe++) {
		struct pdgen g;
		struct sonde_perfdata_reader *r;
		struct pdg_seen s;
		const char *err;
		char want[64];
		size_t off;

		build(&g, pipe, false);
		off = g.data_off + 40; /* the MMAP record becomes an AUXTRACE */
		g.buf[off] = SONDE_PERF_RECORD_AUXTRACE;
		memset(g.buf + off + 1, 0, 3);
		pdg_set64(&g, off + 8, 1ULL << 63);
		r = sonde_perfdata_reader__open_mem(g.buf, g.len, NULL);
		assert_non_null(r);
		assert_true(pdg_drain(r, &s) < 0);
		err = sonde_perfdata_reader__error(r);
		assert_non_null(err);
		snprintf(want, sizeof(want), "byte offset %zu:", off);
		assert_non_null(strstr(err, want));
		assert_non_null(strstr(err, "AUXTRACE"));
		sonde_perfdata_reader__free(r);
		free(g.buf);
	}
}

static void test_bad_header(void **state)
{
	struct pdgen g;
	struct sonde_perfdata_reader *r;

	build(&g, false, false);
	memset(g.buf + 16, 0, 8); /* attr_size = 0 */
	r = sonde_perfdata_reader__open_mem(g.buf, g.len, NULL);
	assert_null(r);
	assert_int_equal(errno, SONDE_ERR_FORMAT);
	r = sonde_perfdata_reader__open_mem("PERFILE3xxxxxxxxxxxxxxxxx", 24, NULL);
	assert_null(r);
	r = sonde_perfdata_reader__open_mem("PERF", 4, NULL);
	assert_null(r);
	free(g.buf);
}

/* Data section running past EOF (recording killed): still readable. */
static void test_data_past_eof(void **state)
{
	struct pdgen g;
	struct sonde_perfdata_reader *r;
	struct pdg_seen s;

	build(&g, false, false);
	pdg_set64(&g, 48, 1 << 20);
	r = sonde_perfdata_reader__open_mem(g.buf, g.len, NULL);
	assert_non_null(r);
	assert_non_null(strstr(sonde_perfdata_reader__error(r), "byte offset 40"));
	assert_true(pdg_drain(r, &s) < 0); /* runs into the feature bytes */
	assert_true(s.n >= 7);
	sonde_perfdata_reader__free(r);
	free(g.buf);
}

/* Every prefix of a valid file: no crash, bounded results. */
static void test_every_prefix(void **state)
{
	struct pdgen g;

	build(&g, false, false);
	for (size_t n = 0; n <= g.len; n++) {
		struct sonde_perfdata_reader *r = sonde_perfdata_reader__open_mem(g.buf, n, NULL);
		struct pdg_seen s;

		if (!r)
			continue;
		pdg_drain(r, &s);
		assert_true(s.n <= 7);
		sonde_perfdata_reader__free(r);
	}
	free(g.buf);
}

static void test_unordered(void **state)
{
	struct pdgen g;
	struct sonde_perfdata_reader *r;
	struct pdg_seen s;
	SONDE_OPTS(sonde_perfdata_reader_opts, o, .unordered = true);

	build(&g, false, false);
	r = sonde_perfdata_reader__open_mem(g.buf, g.len, &o);
	assert_non_null(r);
	assert_int_equal(pdg_drain(r, &s), 0);
	assert_int_equal(s.times[2], 30);
	assert_int_equal(s.times[3], 10);
	sonde_perfdata_reader__free(r);
	free(g.buf);
}

/*
 * A file big enough for the read-ahead thread (> 32 MiB of records): the
 * mapped reader, which runs it and hands page releases to it, must give
 * exactly what the in-memory reader (no thread) gives, record by record.
 */
static uint64_t rec_sum(const struct sonde_perfdata_record *rec)
{
	const uint8_t *p = (const uint8_t *)rec->hdr;
	uint64_t h = 1469598103934665603ULL;

	for (uint16_t i = 0; i < rec->size; i++)
		h = (h ^ p[i]) * 1099511628211ULL;
	return h ^ rec->offset ^ (rec->time << 1);
}

static void test_read_ahead(void **state)
{
	static uint64_t chain[500];
	struct sonde_perfdata_record ra, rb;
	struct sonde_perfdata_reader *a, *b;
	char path[] = "/tmp/sonde-ahead-XXXXXX";
	struct pdgen g;
	uint64_t n = 0;
	int fd, ea, eb;
	FILE *f;

	(void)state;
	memset(&g, 0, sizeof(g));
	pdg_file_begin(&g, ST_BASIC | (1u << 5), 1000);
	pdg_comm(&g, 42, 42, "worker", 1);
	for (unsigned i = 0; i < 500; i++)
		chain[i] = 0x401000 + i * 16;
	/* ~4 KiB samples; times shuffled within rounds of 100. */
	for (unsigned i = 0; i < 20000; i++) {
		uint64_t t = 10 + (i / 100) * 1000 + ((i * 37) % 100);

		pdg_sample(&g, 42, 42, t, 0x401000 + i, 1000, chain,
			   100 + i % 400);
		if (i % 100 == 99)
			pdg_round(&g);
	}
	pdg_file_end(&g, 10, 200000);
	assert_true(g.len > (40u << 20));
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_int_equal(fwrite(g.buf, 1, g.len, f), g.len);
	assert_int_equal(fclose(f), 0);

	a = sonde_perfdata_reader__open(path, NULL);
	b = sonde_perfdata_reader__open_mem(g.buf, g.len, NULL);
	assert_non_null(a);
	assert_non_null(b);
	for (;;) {
		ea = sonde_perfdata_reader__next(a, &ra);
		eb = sonde_perfdata_reader__next(b, &rb);
		assert_int_equal(ea, eb);
		if (ea <= 0)
			break;
		if (!n++)
			assert_non_null(a->ahead); /* the thread runs */
		assert_null(b->ahead);
		assert_int_equal(ra.offset, rb.offset);
		assert_int_equal(ra.time, rb.time);
		assert_int_equal(ra.type, rb.type);
		assert_int_equal(rec_sum(&ra), rec_sum(&rb));
	}
	assert_int_equal(ea, 0);
	assert_int_equal(n, 20000 + 1);
	assert_true(a->dropped > 0); /* releases went through the thread */
	/* Whole 2 MiB blocks: never half of a PMD-mapped folio. */
	assert_int_equal(a->dropped % (2u << 20), 0);
	sonde_perfdata_reader__free(a);
	sonde_perfdata_reader__free(b);

	/* Closed early, with the thread mid-file: stops and joins. */
	a = sonde_perfdata_reader__open(path, NULL);
	assert_non_null(a);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(sonde_perfdata_reader__next(a, &ra), 1);
	sonde_perfdata_reader__free(a);
	unlink(path);
	free(g.buf);
}

/* The kernel's VmFlags of the mapping of @p path (smaps), or "". */
static void vm_flags(const char *path, char *out, size_t size)
{
	char line[4352];
	bool in = false;
	FILE *f = fopen("/proc/self/smaps", "re");

	assert_non_null(f);
	out[0] = 0;
	while (fgets(line, sizeof(line), f)) {
		size_t n = strlen(line), k = strlen(path);

		if (strchr(line, '-') && strchr(line, '-') < strchr(line, ' '))
			in = n > k && !strncmp(line + n - 1 - k, path, k);
		else if (in && !strncmp(line, "VmFlags:", 8)) {
			size_t m = strlen(line + 8) < size ? strlen(line + 8) : size - 1;

			memcpy(out, line + 8, m);
			out[m] = 0;
		}
	}
	fclose(f);
}

/*
 * A file is mapped so that what readahead brings from disk comes in huge
 * folios (one PMD maps 2 MiB), and reclaim does not take its pages first
 * as it does for MADV_SEQUENTIAL mappings; without THP in the kernel,
 * sequential readahead as before.
 */
static void test_file_mapping_advice(void **state)
{
	char path[] = "/tmp/sonde-advice-XXXXXX", flags[512];
	struct sonde_perfdata_reader *r;
	struct pdgen g;
	int fd;
	FILE *f;

	(void)state;
	build(&g, false, false);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_int_equal(fwrite(g.buf, 1, g.len, f), g.len);
	assert_int_equal(fclose(f), 0);
	r = sonde_perfdata_reader__open(path, NULL);
	assert_non_null(r);
	vm_flags(path, flags, sizeof(flags));
	assert_non_null(strstr(flags, " rd"));
	if (access("/sys/kernel/mm/transparent_hugepage", F_OK) == 0) {
		assert_non_null(strstr(flags, " hg"));
		assert_null(strstr(flags, " sr"));
	} else {
		assert_non_null(strstr(flags, " sr"));
	}
	sonde_perfdata_reader__free(r);
	unlink(path);
	free(g.buf);
}

/*
 * Rounds holding 1 to 100 ascending runs each (one per "CPU ring"), the
 * runs interleaved in time: the merge of runs (and the qsort fallback past
 * 64 runs) must hand out every record in time order.
 */
static void test_round_runs(void **state)
{
	struct sonde_perfdata_record rec;
	struct sonde_perfdata_reader *r;
	struct pdgen g;
	uint64_t last = 0, n = 0, want = 0;
	int err;

	(void)state;
	memset(&g, 0, sizeof(g));
	pdg_file_begin(&g, ST_BASIC, 1000);
	for (unsigned j = 0; j < 60; j++) {
		unsigned k = 1 + (j * 37) % 100, per = 1 + j % 7;

		/* Run c holds times base + c, base + c + k, ... ascending. */
		for (unsigned c = 0; c < k; c++)
			for (unsigned i = 0; i < per; i++, want++)
				pdg_sample(&g, 42, 42, 1000000ull * (j + 1) + c + (uint64_t)i * k,
					   0x401000, 1000, NULL, 0);
		pdg_round(&g);
	}
	pdg_file_end(&g, 1, 100000000);
	r = sonde_perfdata_reader__open_mem(g.buf, g.len, NULL);
	assert_non_null(r);
	while ((err = sonde_perfdata_reader__next(r, &rec)) > 0) {
		assert_true(rec.time > last);
		last = rec.time;
		n++;
	}
	assert_int_equal(err, 0);
	assert_int_equal(n, want);
	sonde_perfdata_reader__free(r);
	free(g.buf);
}

/*
 * Rounds filled in order, with now and then a record that is late (before
 * the last ones of the round before, after what that round released):
 * the queue skips sorting what came in order and reuses the room of what
 * it handed out, and must still hand out every record in time order,
 * across the queue's growth and its moves.
 */
static void test_rounds_in_order_and_late(void **state)
{
	struct sonde_perfdata_record rec;
	struct sonde_perfdata_reader *r;
	struct pdgen g;
	uint64_t last = 0, n = 0, want = 0, t = 1000;
	int err;

	(void)state;
	memset(&g, 0, sizeof(g));
	pdg_file_begin(&g, ST_BASIC, 1000);
	for (unsigned int j = 0; j < 200; j++) {
		unsigned int per = 50 + (j * 37) % 900;

		if (j % 3 == 1) { /* late: between the last round's two halves */
			pdg_sample(&g, 42, 42, t - 5 * per, 0x401000, 1000, NULL, 0);
			want++;
		}
		for (unsigned int i = 0; i < per; i++, want++)
			pdg_sample(&g, 42, 42, t += 10, 0x401000, 1000, NULL, 0);
		pdg_round(&g);
	}
	pdg_file_end(&g, 1, t);
	r = sonde_perfdata_reader__open_mem(g.buf, g.len, NULL);
	assert_non_null(r);
	while ((err = sonde_perfdata_reader__next(r, &rec)) > 0) {
		if (rec.type != SONDE_PERF_RECORD_SAMPLE)
			continue;
		assert_true(rec.time >= last);
		last = rec.time;
		n++;
	}
	assert_int_equal(err, 0);
	assert_int_equal(n, want);
	sonde_perfdata_reader__free(r);
	free(g.buf);
}

/* The fields of a pdr_sample, one by one (its padding is nobody's). */
static void same_sample(const struct pdr_sample *x, const struct pdr_sample *y)
{
	assert_int_equal(x->ip, y->ip);
	assert_int_equal(x->pid, y->pid);
	assert_int_equal(x->tid, y->tid);
	assert_int_equal(x->time, y->time);
	assert_int_equal(x->addr, y->addr);
	assert_int_equal(x->id, y->id);
	assert_int_equal(x->stream_id, y->stream_id);
	assert_int_equal(x->cpu, y->cpu);
	assert_int_equal(x->period, y->period);
	assert_int_equal(x->nr_callchain, y->nr_callchain);
	assert_ptr_equal(x->callchain, y->callchain);
	assert_int_equal(x->raw_size, y->raw_size);
	assert_ptr_equal(x->raw, y->raw);
	assert_int_equal(x->regs_abi, y->regs_abi);
	assert_int_equal(x->regs_mask, y->regs_mask);
	assert_ptr_equal(x->regs, y->regs);
	assert_int_equal(x->nr_regs, y->nr_regs);
	assert_int_equal(x->stack_size, y->stack_size);
	assert_int_equal(x->stack_dyn_size, y->stack_dyn_size);
	assert_ptr_equal(x->stack, y->stack);
}

/*
 * The reports read samples of the usual layout straight from the attr's
 * plan: for every subset of the fixed fields, with and without a
 * callchain, with and without PERIOD's fallback to the attr's period,
 * that must give what the codec's walk gives, and a sample a word too
 * long must still be refused.
 */
static void test_sample_plan_same_as_codec(void **state)
{
	static const uint64_t fixed[] = {
		SONDE_PERF_SAMPLE_IDENTIFIER, SONDE_PERF_SAMPLE_IP, SONDE_PERF_SAMPLE_TID,
		SONDE_PERF_SAMPLE_TIME, SONDE_PERF_SAMPLE_ADDR, SONDE_PERF_SAMPLE_ID,
		SONDE_PERF_SAMPLE_STREAM_ID, SONDE_PERF_SAMPLE_CPU, SONDE_PERF_SAMPLE_PERIOD,
	};
	static const uint64_t ips[] = { SONDE_PERF_CONTEXT_USER, 0x401000, 0x402000 };
	uint8_t buf[256];

	(void)state;
	for (unsigned int m = 0; m < 1u << 9; m++) {
		for (int chain = 0; chain < 3; chain++) {
			struct pdr_attr a, walk;
			struct sonde_record in;
			struct pdr_sample fast, slow;
			int n;

			memset(&a, 0, sizeof(a));
			for (int b = 0; b < 9; b++)
				if (m & (1u << b))
					a.attr.sample_type |= fixed[b];
			if (chain)
				a.attr.sample_type |= SONDE_PERF_SAMPLE_CALLCHAIN;
			a.attr.freq = m & 1;
			a.attr.sample_period = 4000;
			a.attr.sample_id_all = 1;
			pdr_attr_layout(&a);
			assert_true(a.plan.fixed);
			walk = a;
			walk.plan.fixed = false; /* what the codec says */
			memset(&in, 0, sizeof(in));
			in.type = SONDE_PERF_RECORD_SAMPLE;
			in.sample.identifier = 7;
			in.sample.ip = 0x401234;
			in.sample.pid = 42;
			in.sample.tid = 43;
			in.sample.time = 1000 + m;
			in.sample.addr = 0xdead0000;
			in.sample.id = 9;
			in.sample.stream_id = 11;
			in.sample.cpu = 3;
			in.sample.period = 100000;
			in.sample.callchain.nr = chain == 2 ? 3 : 0;
			in.sample.callchain.ips = ips;
			n = sonde_record__encode(&a.fmt, &in, buf, sizeof(buf) - 8);
			assert_true(n >= 8);
			memset(&fast, 0x5a, sizeof(fast));
			assert_int_equal(pdr_parse_sample(NULL, &a, buf, (uint16_t)n, &fast), 0);
			assert_int_equal(pdr_parse_sample(NULL, &walk, buf, (uint16_t)n, &slow), 0);
			same_sample(&fast, &slow);
			/* A word more than the fields: refused either way. */
			memset(buf + n, 0, 8);
			memcpy(buf + 6, &(uint16_t){ (uint16_t)(n + 8) }, 2);
			assert_int_equal(pdr_parse_sample(NULL, &a, buf, (uint16_t)(n + 8), &fast),
					 -SONDE_ERR_FORMAT);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_native),
		cmocka_unit_test(test_file_swapped),
		cmocka_unit_test(test_pipe_native),
		cmocka_unit_test(test_pipe_swapped),
		cmocka_unit_test(test_attr_sizes),
		cmocka_unit_test(test_model_swapped),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_bad_record_size),
		cmocka_unit_test(test_auxtrace_size_overflow),
		cmocka_unit_test(test_bad_header),
		cmocka_unit_test(test_data_past_eof),
		cmocka_unit_test(test_every_prefix),
		cmocka_unit_test(test_unordered),
		cmocka_unit_test(test_read_ahead),
		cmocka_unit_test(test_file_mapping_advice),
		cmocka_unit_test(test_round_runs),
		cmocka_unit_test(test_sample_plan_same_as_codec),
		cmocka_unit_test(test_rounds_in_order_and_late),
	};

	sonde_set_print(NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
