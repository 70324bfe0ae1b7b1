// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The perf.data reader's internals (perfdata_priv.h), beside
 * test_perfdata_read.c, which reads the same generated images through the
 * public API on both libraries: the report model fed from a swapped file,
 * the read-ahead thread and its page releases, and the fixed sample plan
 * against the codec's walk.
 * Static-only: prof_machine_*(), sample_view_parse(), pdr_attr_layout() and
 * the reader's ahead/dropped state have no public counterpart.
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
#include "pdrounds.h"
#include "pdseen.h"

/* The model resolves comm and thread from the records of either order. */
static void test_model_swapped(void **state)
{
	struct pdgen g;
	struct sonde_perfdata_reader *r;
	struct sonde_perfdata_record rec;
	struct prof_machine *m = prof_machine_new();
	int samples = 0;

	pdg_rounds_image(&g, false, true, 0);
	r = sonde_perfdata_reader__open_mem(g.buf, g.len, NULL);
	assert_non_null(r);
	while (sonde_perfdata_reader__next(r, &rec) > 0) {
		const struct pdr_attr *a = &r->attrs[0];
		struct sample_plan pl;
		struct sample_view s;
		struct prof_thread *t;
		struct prof_loc loc;

		if (rec.type != SONDE_PERF_RECORD_SAMPLE) {
			prof_machine_process(m, r, &rec);
			continue;
		}
		sample_plan_make(&a->fmt, &pl);
		assert_int_equal(sample_view_parse(&a->fmt, &pl, a->attr.sample_period,
						   (const uint8_t *)rec.hdr, rec.size, &s), 0);
		assert_int_equal(s.pid, 42);
		assert_int_equal(s.period, 1000);
		t = prof_thread_findnew(m, (int32_t)s.pid, (int32_t)s.tid);
		if (s.tid == 42)
			assert_string_equal(t->comm, "worker");
		else
			assert_string_equal(t->comm, ":43"); /* no COMM seen */
		prof_resolve(m, t, false, s.ip, &loc);
		assert_non_null(loc.dso);
		assert_string_equal(loc.dso->short_name, "prog");
		assert_int_equal(loc.addr, s.ip - 0x400000);
		samples++;
	}
	assert_int_equal(samples, 5);
	prof_machine_free(m);
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
	int ea, eb;

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
	pdg_write_temp(&g, path);

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

/* The fields of a sample_view, one by one (its padding is nobody's). */
static void same_sample(const struct sample_view *x, const struct sample_view *y)
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
			struct pdr_attr a;
			struct sample_plan pl, walk;
			struct sonde_record in;
			struct sample_view fast, slow;
			uint64_t period0;
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
			sample_plan_make(&a.fmt, &pl);
			assert_true(pl.fixed);
			walk = pl;
			walk.fixed = false; /* what the codec says */
			period0 = a.attr.freq ? 1 : a.attr.sample_period;
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
			assert_int_equal(sample_view_parse(&a.fmt, &pl, period0, buf, (size_t)n,
							   &fast), 0);
			assert_int_equal(sample_view_parse(&a.fmt, &walk, period0, buf, (size_t)n,
							   &slow), 0);
			same_sample(&fast, &slow);
			/* A word more than the fields: refused either way. */
			memset(buf + n, 0, 8);
			memcpy(buf + 6, &(uint16_t){ (uint16_t)(n + 8) }, 2);
			assert_int_equal(sample_view_parse(&a.fmt, &pl, period0, buf, (size_t)n + 8,
							   &fast), -SONDE_ERR_FORMAT);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_swapped),
		cmocka_unit_test(test_read_ahead),
		cmocka_unit_test(test_sample_plan_same_as_codec),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
