// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Record codec: every record type and sample field round-trips (encode ->
 * decode -> compare, decode -> encode -> same bytes), every prefix of every
 * record fails cleanly, and hand-made corrupt records are refused with the
 * right offset, through the public API (the other byte order, branch flags
 * and sample plans, internal: test_record_internal.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "sonde/sonde.h"
#include "record_case_check.h"
#include "record_fixtures.h"

static void cmp_mem(const void *a, const void *b, size_t n, const char *what)
{
	CHECK(n == 0 || (a && b), "%s: missing pointer", what);
	if (n)
		CHECK(!memcmp(a, b, n), "%s differs", what);
}

static void cmp_read(uint64_t rf, const struct sonde_read_values *a,
		     const struct sonde_read_values *b)
{
	CHECK(a->nr == b->nr, "read nr %llu != %llu",
	      (unsigned long long)a->nr, (unsigned long long)b->nr);
	CHECK(a->time_enabled == b->time_enabled, "read time_enabled");
	CHECK(a->time_running == b->time_running, "read time_running");
	for (uint64_t i = 0; i < a->nr; i++) {
		struct sonde_perf_read_group_entry ea, eb;

		assert_int_equal(sonde_read_values__entry(a, rf, i, &ea), 0);
		assert_int_equal(sonde_read_values__entry(b, rf, i, &eb), 0);
		CHECK(!memcmp(&ea, &eb, sizeof(ea)), "read entry %llu",
		      (unsigned long long)i);
	}
	assert_int_equal(sonde_read_values__entry(a, rf, a->nr, &(struct sonde_perf_read_group_entry){ 0 }), -EINVAL);
}

static void cmp_sample(const struct sonde_record_fmt *fmt,
		       const struct sonde_sample *a, const struct sonde_sample *b)
{
	uint64_t st = fmt->sample_type;

#define F(bit, field) \
	if (st & SONDE_PERF_SAMPLE_##bit) \
		CHECK(a->field == b->field, #field " %llx != %llx", \
		      (unsigned long long)a->field, (unsigned long long)b->field)
	F(IDENTIFIER, identifier);
	F(IP, ip);
	F(TID, pid);
	F(TID, tid);
	F(TIME, time);
	F(ADDR, addr);
	F(ID, id);
	F(STREAM_ID, stream_id);
	F(CPU, cpu);
	F(CPU, cpu_res);
	F(PERIOD, period);
	F(WEIGHT_TYPE, weight.full);
	F(DATA_SRC, data_src.val);
	F(TRANSACTION, transaction);
	F(PHYS_ADDR, phys_addr);
	F(CGROUP, cgroup);
	F(DATA_PAGE_SIZE, data_page_size);
	F(CODE_PAGE_SIZE, code_page_size);
#undef F
	if (st & SONDE_PERF_SAMPLE_READ)
		cmp_read(fmt->read_format, &a->read, &b->read);
	if (st & SONDE_PERF_SAMPLE_CALLCHAIN) {
		CHECK(a->callchain.nr == b->callchain.nr, "callchain nr");
		cmp_mem(a->callchain.ips, b->callchain.ips, a->callchain.nr * 8,
			"callchain");
	}
	if (st & SONDE_PERF_SAMPLE_RAW) {
		CHECK(a->raw.size == b->raw.size, "raw size");
		cmp_mem(a->raw.data, b->raw.data, a->raw.size, "raw");
	}
	if (st & SONDE_PERF_SAMPLE_BRANCH_STACK) {
		CHECK(a->branch.nr == b->branch.nr, "branch nr");
		CHECK(a->branch.hw_idx == b->branch.hw_idx, "branch hw_idx");
		cmp_mem(a->branch.entries, b->branch.entries,
			a->branch.nr * 24, "branch entries");
		if (fmt->branch_sample_type & SONDE_PERF_SAMPLE_BRANCH_COUNTERS)
			cmp_mem(a->branch.counters, b->branch.counters,
				a->branch.nr * 8, "branch counters");
		else
			CHECK(!b->branch.counters, "counters without the flag");
	}
	if (st & SONDE_PERF_SAMPLE_REGS_USER) {
		CHECK(a->regs_user.abi == b->regs_user.abi, "regs_user abi");
		CHECK(a->regs_user.nr == b->regs_user.nr, "regs_user nr %u != %u",
		      a->regs_user.nr, b->regs_user.nr);
		cmp_mem(a->regs_user.regs, b->regs_user.regs,
			a->regs_user.nr * 8, "regs_user");
	}
	if (st & SONDE_PERF_SAMPLE_REGS_INTR) {
		CHECK(a->regs_intr.abi == b->regs_intr.abi, "regs_intr abi");
		CHECK(a->regs_intr.nr == b->regs_intr.nr, "regs_intr nr");
		cmp_mem(a->regs_intr.regs, b->regs_intr.regs,
			a->regs_intr.nr * 8, "regs_intr");
	}
	if (st & SONDE_PERF_SAMPLE_STACK_USER) {
		CHECK(a->stack_user.size == b->stack_user.size, "stack size");
		CHECK(a->stack_user.dyn_size == b->stack_user.dyn_size,
		      "stack dyn_size");
		cmp_mem(a->stack_user.data, b->stack_user.data,
			a->stack_user.size, "stack");
	}
	if (st & SONDE_PERF_SAMPLE_AUX) {
		CHECK(a->aux.size == b->aux.size, "aux size");
		cmp_mem(a->aux.data, b->aux.data, a->aux.size, "aux");
	}
}

static void cmp_str(const char *a, const char *b, const char *what)
{
	CHECK(a && b && !strcmp(a, b), "%s '%s' != '%s'", what, a ? a : "(null)",
	      b ? b : "(null)");
}

/* The parts of a decoded record that must equal what was encoded. */
static void cmp_record(const struct sonde_record_fmt *fmt,
		       const struct sonde_record *a, const struct sonde_record *b)
{
	CHECK(a->type == b->type, "type");
	CHECK(a->misc == b->misc, "misc");
	if (fmt->sample_id_all && a->type != SONDE_PERF_RECORD_SAMPLE &&
	    a->type < 64) {
		const struct sonde_sample_id *x = &a->sample_id, *y = &b->sample_id;
		uint64_t st = fmt->sample_type;

		CHECK(b->has_sample_id, "trailer not decoded");
		if (st & SONDE_PERF_SAMPLE_TID)
			CHECK(x->pid == y->pid && x->tid == y->tid, "trailer tid");
		if (st & SONDE_PERF_SAMPLE_TIME)
			CHECK(x->time == y->time, "trailer time");
		if (st & SONDE_PERF_SAMPLE_ID)
			CHECK(x->id == y->id, "trailer id");
		if (st & SONDE_PERF_SAMPLE_STREAM_ID)
			CHECK(x->stream_id == y->stream_id, "trailer stream_id");
		if (st & SONDE_PERF_SAMPLE_CPU)
			CHECK(x->cpu == y->cpu, "trailer cpu");
		if (st & SONDE_PERF_SAMPLE_IDENTIFIER)
			CHECK(x->identifier == y->identifier, "trailer identifier");
	} else {
		CHECK(!b->has_sample_id, "unexpected trailer");
	}
	switch (a->type) {
	case SONDE_PERF_RECORD_SAMPLE:
		cmp_sample(fmt, &a->sample, &b->sample);
		break;
	case SONDE_PERF_RECORD_MMAP:
	case SONDE_PERF_RECORD_MMAP2: {
		const struct sonde_record_mmap *x = &a->mmap, *y = &b->mmap;

		CHECK(x->pid == y->pid && x->tid == y->tid, "mmap pid/tid");
		CHECK(x->addr == y->addr && x->len == y->len &&
		      x->pgoff == y->pgoff, "mmap range");
		if (a->type == SONDE_PERF_RECORD_MMAP2) {
			CHECK(x->prot == y->prot && x->flags == y->flags,
			      "mmap2 prot/flags");
			CHECK(y->has_build_id == !!(a->misc &
				SONDE_PERF_RECORD_MISC_MMAP_BUILD_ID), "has_build_id");
			if (a->misc & SONDE_PERF_RECORD_MISC_MMAP_BUILD_ID) {
				CHECK(x->build_id_size == y->build_id_size,
				      "build_id_size");
				cmp_mem(x->build_id, y->build_id, 20, "build_id");
			} else {
				CHECK(x->maj == y->maj && x->min == y->min &&
				      x->ino == y->ino &&
				      x->ino_generation == y->ino_generation,
				      "mmap2 inode");
			}
		}
		cmp_str(x->filename, y->filename, "filename");
		CHECK(y->filename_size % 8 == 0 || a->type >= 64,
		      "filename room %u", y->filename_size);
		break;
	}
	case SONDE_PERF_RECORD_COMM:
		CHECK(a->comm.pid == b->comm.pid && a->comm.tid == b->comm.tid,
		      "comm pid/tid");
		cmp_str(a->comm.comm, b->comm.comm, "comm");
		break;
	case SONDE_PERF_RECORD_READ:
		CHECK(a->read.pid == b->read.pid && a->read.tid == b->read.tid,
		      "read pid/tid");
		cmp_read(fmt->read_format, &a->read.values, &b->read.values);
		break;
	case SONDE_PERF_RECORD_NAMESPACES:
		CHECK(a->namespaces.pid == b->namespaces.pid &&
		      a->namespaces.nr == b->namespaces.nr, "namespaces");
		cmp_mem(a->namespaces.link, b->namespaces.link,
			a->namespaces.nr * 16, "namespace links");
		break;
	case SONDE_PERF_RECORD_KSYMBOL:
		CHECK(a->ksymbol.addr == b->ksymbol.addr &&
		      a->ksymbol.len == b->ksymbol.len &&
		      a->ksymbol.ksym_type == b->ksymbol.ksym_type &&
		      a->ksymbol.flags == b->ksymbol.flags, "ksymbol");
		cmp_str(a->ksymbol.name, b->ksymbol.name, "ksymbol name");
		break;
	case SONDE_PERF_RECORD_CGROUP:
		CHECK(a->cgroup.id == b->cgroup.id, "cgroup id");
		cmp_str(a->cgroup.path, b->cgroup.path, "cgroup path");
		break;
	case SONDE_PERF_RECORD_TEXT_POKE:
		CHECK(a->text_poke.addr == b->text_poke.addr &&
		      a->text_poke.old_len == b->text_poke.old_len &&
		      a->text_poke.new_len == b->text_poke.new_len, "text_poke");
		cmp_mem(a->text_poke.bytes, b->text_poke.bytes,
			a->text_poke.old_len + a->text_poke.new_len,
			"text_poke bytes");
		break;
	case SONDE_PERF_RECORD_LOST:
	case SONDE_PERF_RECORD_EXIT:
	case SONDE_PERF_RECORD_FORK:
	case SONDE_PERF_RECORD_THROTTLE:
	case SONDE_PERF_RECORD_UNTHROTTLE:
	case SONDE_PERF_RECORD_AUX:
	case SONDE_PERF_RECORD_ITRACE_START:
	case SONDE_PERF_RECORD_LOST_SAMPLES:
	case SONDE_PERF_RECORD_SWITCH_CPU_WIDE:
	case SONDE_PERF_RECORD_BPF_EVENT:
	case SONDE_PERF_RECORD_AUX_OUTPUT_HW_ID:
	case SONDE_PERF_RECORD_HEADER_TRACING_DATA:
	case SONDE_PERF_RECORD_AUXTRACE:
		/* Pointer-free members: the whole member must match. */
		CHECK(!memcmp(&a->sample, &b->sample, sizeof(a->sample)),
		      "fields differ");
		break;
	case SONDE_PERF_RECORD_AUXTRACE_INFO:
		CHECK(a->auxtrace_info.type == b->auxtrace_info.type &&
		      a->auxtrace_info.nr_priv == b->auxtrace_info.nr_priv,
		      "auxtrace_info");
		cmp_mem(a->auxtrace_info.priv, b->auxtrace_info.priv,
			a->auxtrace_info.nr_priv * 8, "auxtrace_info priv");
		break;
	case SONDE_PERF_RECORD_TIME_CONV: {
		const struct sonde_record_time_conv *x = &a->time_conv;
		const struct sonde_record_time_conv *y = &b->time_conv;

		CHECK(x->time_shift == y->time_shift &&
		      x->time_mult == y->time_mult &&
		      x->time_zero == y->time_zero &&
		      x->extended == y->extended, "time_conv");
		if (x->extended)
			CHECK(x->time_cycles == y->time_cycles &&
			      x->time_mask == y->time_mask &&
			      x->cap_user_time_zero == y->cap_user_time_zero &&
			      x->cap_user_time_short == y->cap_user_time_short,
			      "time_conv extended");
		break;
	}
	case SONDE_PERF_RECORD_HEADER_ATTR: {
		const struct sonde_record_header_attr *x = &a->header_attr;
		const struct sonde_record_header_attr *y = &b->header_attr;

		CHECK(x->attr_size == y->attr_size, "attr_size");
		CHECK(!memcmp(&x->attr, &y->attr, x->attr_size), "attr");
		CHECK(x->nr_ids == y->nr_ids, "nr_ids");
		cmp_mem(x->ids, y->ids, x->nr_ids * 8, "ids");
		break;
	}
	case SONDE_PERF_RECORD_HEADER_BUILD_ID:
		CHECK(a->build_id.pid == b->build_id.pid &&
		      a->build_id.size == b->build_id.size, "build_id");
		cmp_mem(a->build_id.build_id, b->build_id.build_id, 20,
			"build_id bytes");
		cmp_str(a->build_id.filename, b->build_id.filename,
			"build_id filename");
		break;
	case SONDE_PERF_RECORD_ID_INDEX:
		CHECK(a->id_index.nr == b->id_index.nr, "id_index nr");
		cmp_mem(a->id_index.entries, b->id_index.entries,
			a->id_index.nr * 32, "id_index");
		CHECK(!a->id_index.entries2 == !b->id_index.entries2,
		      "id_index entries2");
		if (a->id_index.entries2)
			cmp_mem(a->id_index.entries2, b->id_index.entries2,
				a->id_index.nr * 16, "id_index entries2");
		break;
	case SONDE_PERF_RECORD_THREAD_MAP:
		CHECK(a->thread_map.nr == b->thread_map.nr, "thread_map nr");
		cmp_mem(a->thread_map.entries, b->thread_map.entries,
			a->thread_map.nr * 24, "thread_map");
		break;
	case SONDE_PERF_RECORD_EVENT_UPDATE: {
		const struct sonde_record_event_update *x = &a->event_update;
		const struct sonde_record_event_update *y = &b->event_update;

		CHECK(x->type == y->type && x->id == y->id, "event_update");
		if (x->str)
			cmp_str(x->str, y->str, "event_update string");
		else if (x->type == SONDE_EVENT_UPDATE_SCALE)
			CHECK(x->scale == y->scale, "event_update scale");
		else
			cmp_mem(x->data, y->data, x->size, "event_update payload");
		break;
	}
	case SONDE_PERF_RECORD_HEADER_FEATURE:
		CHECK(a->header_feature.feat_id == b->header_feature.feat_id &&
		      a->header_feature.size == b->header_feature.size,
		      "feature id/size");
		cmp_mem(a->header_feature.data, b->header_feature.data,
			a->header_feature.size, "feature data");
		break;
	default:
		CHECK(a->body_size == b->body_size, "body size");
		cmp_mem(a->body, b->body, a->body_size, "body");
		break;
	}
}

static void test_roundtrip_every_type_and_field(void **state)
{
	int types_seen[256] = { 0 };
	uint64_t bits_seen = 0;

	fx_build();
	for (int i = 0; i < nr_cases; i++) {
		const struct rec_case *c = &cases[i];
		struct sonde_record d, d2;
		uint8_t *buf, *buf2;
		int n, n2;

		cname = c->name;
		buf = encode_alloc(c, &n);
		/* perf's own layouts for these two are not 8-byte multiples */
		if (c->rec.type != SONDE_PERF_RECORD_HEADER_TRACING_DATA &&
		    c->rec.type != SONDE_PERF_RECORD_HEADER_BUILD_ID)
			CHECK(n % 8 == 0, "size %d not 8-aligned", n);
		CHECK(sonde_record__decode(&c->fmt, buf, (size_t)n, &d) == 0,
		      "decode failed at %u: %s", d.err_offset,
		      d.err_what ? d.err_what : "");
		CHECK(d.size == n && d.bytes == buf, "size/bytes");
		cmp_record(&c->fmt, &c->rec, &d);
		/* decode -> encode gives the same bytes */
		n2 = sonde_record__encode(&c->fmt, &d, NULL, 0);
		CHECK(n2 == n, "re-encoded size %d != %d", n2, n);
		buf2 = calloc(1, (size_t)n);
		assert_non_null(buf2);
		CHECK(sonde_record__encode(&c->fmt, &d, buf2, (size_t)n) == n,
		      "re-encode");
		CHECK(!memcmp(buf, buf2, (size_t)n), "re-encoded bytes differ");
		/* A trailing buffer beyond header.size is never read. */
		CHECK(sonde_record__decode(&c->fmt, buf, (size_t)n + 8, &d2) == 0,
		      "decode with slack");
		types_seen[c->rec.type & 255]++;
		if (c->rec.type == SONDE_PERF_RECORD_SAMPLE)
			bits_seen |= c->fmt.sample_type;
		free(buf);
		free(buf2);
	}
	/* Coverage of the fixtures themselves. */
	for (uint32_t t = 1; t < SONDE_PERF_RECORD_MAX; t++)
		assert_true(types_seen[t] > 0);
	assert_true(types_seen[SONDE_PERF_RECORD_HEADER_ATTR] &&
		    types_seen[SONDE_PERF_RECORD_FINISHED_ROUND] &&
		    types_seen[SONDE_PERF_RECORD_HEADER_FEATURE] &&
		    types_seen[SONDE_PERF_RECORD_ID_INDEX] &&
		    types_seen[SONDE_PERF_RECORD_TIME_CONV] &&
		    types_seen[SONDE_PERF_RECORD_FINISHED_INIT] &&
		    types_seen[SONDE_PERF_RECORD_HEADER_BUILD_ID]);
	assert_int_equal(bits_seen, ALL_SAMPLE_BITS);
}

/*
 * Every prefix: a buffer cut short must be refused (header.size says more),
 * and a record whose header.size is cut to the prefix must either be refused
 * or decode into something that itself re-encodes; never a read out of bounds
 * (each prefix is its own exact-size allocation for ASan).
 */
static void test_every_prefix_fails_cleanly(void **state)
{
	fx_build();
	for (int i = 0; i < nr_cases; i++) {
		const struct rec_case *c = &cases[i];
		uint8_t *buf;
		int n;

		cname = c->name;
		buf = encode_alloc(c, &n);
		for (int len = 0; len < n; len++) {
			uint8_t *p = malloc(len ? (size_t)len : 1);
			struct sonde_record d;
			int err;

			assert_non_null(p);
			memcpy(p, buf, (size_t)len);
			err = sonde_record__decode(&c->fmt, p, (size_t)len, &d);
			CHECK(err == -SONDE_ERR_FORMAT, "prefix %d accepted", len);
			CHECK(d.err_what != NULL, "no reason for prefix %d", len);
			CHECK(d.err_offset <= (uint32_t)len, "offset %u past %d",
			      d.err_offset, len);
			if (len >= 8) {
				uint16_t sz = (uint16_t)len;

				memcpy(p + 6, &sz, 2);
				err = sonde_record__decode(&c->fmt, p, (size_t)len, &d);
				CHECK(err == 0 || err == -SONDE_ERR_FORMAT,
				      "prefix %d: %d", len, err);
				if (err == 0)
					CHECK(sonde_record__encode(&c->fmt, &d, NULL, 0) > 0,
					      "shortened record %d does not re-encode", len);
				else
					CHECK(d.err_offset <= (uint32_t)len,
					      "offset %u past %d", d.err_offset, len);
			}
			free(p);
		}
		free(buf);
	}
}

static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }
static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void hdr(uint8_t *p, uint32_t type, uint16_t size)
{
	put32(p, type);
	memset(p + 4, 0, 2);
	memcpy(p + 6, &size, 2);
}

static void test_corrupt_records(void **state)
{
	struct sonde_record_fmt fmt = {
		.sample_type = SONDE_PERF_SAMPLE_IP | SONDE_PERF_SAMPLE_CALLCHAIN |
			       SONDE_PERF_SAMPLE_TIME,
		.sample_id_all = true,
	};
	uint8_t b[128] = { 0 };

	sonde_set_print(NULL);
	expect_bad(&fmt, b, 4, 4, "record header");
	hdr(b, SONDE_PERF_RECORD_SAMPLE, 4);
	expect_bad(&fmt, b, 64, 6, "below header size");
	hdr(b, SONDE_PERF_RECORD_SAMPLE, 72);
	expect_bad(&fmt, b, 64, 6, "beyond the available");
	/* callchain nr far past the record */
	hdr(b, SONDE_PERF_RECORD_SAMPLE, 40);
	put64(b + 8, 0x401000);
	put64(b + 16, 5);
	put64(b + 24, 1ULL << 60);
	expect_bad(&fmt, b, 40, 32, "callchain exceeds record");
	/* bytes left after the last field */
	put64(b + 24, 1);
	hdr(b, SONDE_PERF_RECORD_SAMPLE, 48);
	expect_bad(&fmt, b, 48, 40, "bytes left");
	/* COMM without a NUL */
	hdr(b, SONDE_PERF_RECORD_COMM, 32);
	memset(b + 16, 'x', 8);
	expect_bad(&fmt, b, 32, 16, "not NUL-terminated");
	/* record smaller than its trailer (TIME = 8 bytes) */
	hdr(b, SONDE_PERF_RECORD_LOST, 12);
	expect_bad(&fmt, b, 12, 8, "trailer");
	/* MMAP2 build id longer than 20 */
	memset(b, 0, sizeof(b));
	hdr(b, SONDE_PERF_RECORD_MMAP2, 8 + 32 + 24 + 8 + 8 + 8);
	b[4] = 0;
	memcpy(b + 4, &(uint16_t){ SONDE_PERF_RECORD_MISC_MMAP_BUILD_ID }, 2);
	b[40] = 21;
	expect_bad(&fmt, b, 88, 40, "build_id_size");
	/* READ group with absurd nr */
	fmt.read_format = SONDE_PERF_FORMAT_GROUP | SONDE_PERF_FORMAT_ID;
	memset(b, 0, sizeof(b));
	hdr(b, SONDE_PERF_RECORD_READ, 40);
	put64(b + 16, ~0ULL);
	expect_bad(&fmt, b, 40, 24, "group entries exceed");
	/* HEADER_ATTR with attr.size beyond the record */
	memset(b, 0, sizeof(b));
	hdr(b, SONDE_PERF_RECORD_HEADER_ATTR, 8 + 64);
	put32(b + 12, 120);
	expect_bad(&fmt, b, 72, 12, "attr.size out of range");
}

/*
 * An event without attr.build_id can get MMAP2 records whose misc says
 * build id while the body is maj/min/ino (kernel quirk, seen on 6.18).
 */
static void test_mmap2_build_id_bit_without_attr(void **state)
{
	struct sonde_record_fmt fmt = { .mmap2_build_id = SONDE_RECORD_BUILD_ID_OFF };
	struct sonde_record r, d;
	uint8_t b[128], out[128];
	int n;

	memset(&r, 0, sizeof(r));
	r.type = SONDE_PERF_RECORD_MMAP2;
	r.misc = SONDE_PERF_RECORD_MISC_USER | SONDE_PERF_RECORD_MISC_MMAP_BUILD_ID;
	r.mmap = (struct sonde_record_mmap){ .pid = 1, .tid = 1, .addr = 0x1000,
		.len = 0x1000, .maj = 0xfe, .min = 1, .ino = 42, .prot = 5,
		.flags = 2, .filename = "/bin/ls" };
	n = sonde_record__encode(&fmt, &r, b, sizeof(b));
	assert_true(n > 0);
	assert_int_equal(b[40], 0xfe); /* maj where a build-id size would be */
	assert_int_equal(sonde_record__decode(&fmt, b, (size_t)n, &d), 0);
	assert_false(d.mmap.has_build_id);
	assert_int_equal(d.mmap.maj, 0xfe);
	assert_int_equal(d.mmap.ino, 42);
	assert_int_equal(d.misc, r.misc);
	assert_int_equal(sonde_record__encode(&fmt, &d, out, sizeof(out)), n);
	assert_memory_equal(b, out, (size_t)n);
	/* Trusting misc, the same bytes are refused (size 254 > 20)... */
	fmt.mmap2_build_id = SONDE_RECORD_BUILD_ID_MISC;
	assert_int_equal(sonde_record__decode(&fmt, b, (size_t)n, &d),
			 -SONDE_ERR_FORMAT);
	/* ...until sonde_record__fixup() clears the bit for such an attr. */
	{
		struct sonde_perf_event_attr attr = { .size = sizeof(attr) };

		assert_int_equal(sonde_record_fmt__from_attr(&fmt, &attr), 0);
		assert_int_equal(fmt.mmap2_build_id, SONDE_RECORD_BUILD_ID_MISC);
		attr.build_id = 1;
		assert_int_equal(sonde_record__fixup(&attr, b, (size_t)n), 0);
		assert_int_equal(sonde_record_fmt__from_attr(&fmt, &attr), 0);
		assert_int_equal(fmt.mmap2_build_id, SONDE_RECORD_BUILD_ID_ON);
		attr.build_id = 0;
		assert_int_equal(sonde_record__fixup(&attr, b, (size_t)n), 1);
		assert_int_equal(sonde_record__fixup(&attr, b, (size_t)n), 0);
		assert_int_equal(sonde_record__fixup(&attr, b, 7), -SONDE_ERR_FORMAT);
		assert_int_equal(sonde_record__fixup(&attr, b, (size_t)n - 1),
				 -SONDE_ERR_FORMAT);
		assert_int_equal(sonde_record__decode(&fmt, b, (size_t)n, &d), 0);
		assert_false(d.mmap.has_build_id);
		assert_int_equal(d.mmap.ino, 42);
		assert_int_equal(d.misc, SONDE_PERF_RECORD_MISC_USER);
	}
}

static void test_encode_refuses_inconsistent_records(void **state)
{
	struct sonde_record_fmt fmt = {
		.sample_type = SONDE_PERF_SAMPLE_CALLCHAIN |
			       SONDE_PERF_SAMPLE_STACK_USER,
	};
	static char big[70000];
	struct sonde_record r;
	uint8_t b[64];

	memset(&r, 0, sizeof(r));
	r.type = SONDE_PERF_RECORD_SAMPLE;
	r.sample.callchain.nr = 2; /* no ips */
	assert_int_equal(sonde_record__encode(&fmt, &r, NULL, 0), -EINVAL);
	assert_int_equal(errno, EINVAL);
	r.sample.callchain.nr = 1ULL << 40;
	assert_int_equal(sonde_record__encode(&fmt, &r, NULL, 0), -E2BIG);
	r.sample.callchain.nr = 0;
	r.sample.stack_user.size = 8;
	r.sample.stack_user.data = b;
	r.sample.stack_user.dyn_size = 16;
	assert_int_equal(sonde_record__encode(&fmt, &r, NULL, 0), -EINVAL);
	r.sample.stack_user.dyn_size = 8;
	assert_int_equal(sonde_record__encode(&fmt, &r, b, sizeof(b)), 40);
	assert_int_equal(sonde_record__encode(&fmt, &r, b, 39), -ENOSPC);
	/* A record over 64 KiB cannot exist. */
	r.sample.stack_user.size = 65000;
	r.sample.stack_user.data = big;
	r.sample.stack_user.dyn_size = 0;
	r.sample.callchain.nr = 100;
	r.sample.callchain.ips = (const uint64_t *)(const void *)big;
	assert_int_equal(sonde_record__encode(&fmt, &r, NULL, 0), -E2BIG);
	memset(&r, 0, sizeof(r));
	r.type = SONDE_PERF_RECORD_COMM;
	memset(big, 'a', sizeof(big) - 1);
	r.comm.comm = big;
	assert_int_equal(sonde_record__encode(&fmt, &r, NULL, 0), -E2BIG);
	memset(&r, 0, sizeof(r));
	r.type = SONDE_PERF_RECORD_HEADER_ATTR;
	r.header_attr.attr_size = 32;
	assert_int_equal(sonde_record__encode(&fmt, &r, NULL, 0), -EINVAL);
	memset(&r, 0, sizeof(r));
	r.type = SONDE_PERF_RECORD_MMAP2;
	r.misc = SONDE_PERF_RECORD_MISC_MMAP_BUILD_ID;
	r.mmap.build_id_size = 21;
	assert_int_equal(sonde_record__encode(&fmt, &r, NULL, 0), -EINVAL);
	assert_int_equal(sonde_record__encode(NULL, &r, NULL, 0), -EINVAL);
	assert_int_equal(sonde_record__decode(&fmt, NULL, 8, &r), -EINVAL);
}

static void test_unknown_type_passes_through(void **state)
{
	struct sonde_record_fmt fmt = { .sample_type = SONDE_PERF_SAMPLE_TIME };
	uint8_t b[24], out[24];
	struct sonde_record d;

	hdr(b, 99, 24);
	for (int i = 8; i < 24; i++)
		b[i] = (uint8_t)i;
	assert_int_equal(sonde_record__decode(&fmt, b, sizeof(b), &d), 0);
	assert_int_equal(d.type, 99);
	assert_ptr_equal(d.body, b + 8);
	assert_int_equal(d.body_size, 16);
	assert_null(sonde_record_type_name(99));
	assert_int_equal(sonde_record__encode(&fmt, &d, out, sizeof(out)), 24);
	assert_memory_equal(b, out, 24);
}

/*
 * The header's misc bits reach the caller as the kernel wrote them and go
 * back out unchanged: every CPU mode (guest ones too), EXACT_IP (bit 14 of
 * a sample), EXT_RESERVED, PROC_MAP_PARSE_TIMEOUT (perf's, on MMAP) and
 * bit 13 (MMAP_DATA / COMM_EXEC / SWITCH_OUT by record type).
 */
static void test_misc_bits_kept(void **state)
{
	static const uint16_t flags[] = {
		0, SONDE_PERF_RECORD_MISC_EXACT_IP, SONDE_PERF_RECORD_MISC_EXT_RESERVED,
		SONDE_PERF_RECORD_MISC_PROC_MAP_PARSE_TIMEOUT,
		SONDE_PERF_RECORD_MISC_MMAP_DATA,
	};
	static const uint32_t types[] = {
		SONDE_PERF_RECORD_SAMPLE, SONDE_PERF_RECORD_MMAP,
		SONDE_PERF_RECORD_COMM, SONDE_PERF_RECORD_SWITCH,
	};
	struct sonde_record_fmt fmt = { .sample_type = SONDE_PERF_SAMPLE_IP };

	(void)state;
	for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
		for (uint16_t mode = 0; mode <= SONDE_PERF_RECORD_MISC_CPUMODE_MASK; mode++) {
			for (size_t f = 0; f < sizeof(flags) / sizeof(flags[0]); f++) {
				uint8_t b[48] = { 0 }, out[48];
				uint16_t misc = (uint16_t)(mode | flags[f]);
				uint16_t size = types[t] == SONDE_PERF_RECORD_SWITCH ? 8 :
						types[t] == SONDE_PERF_RECORD_SAMPLE ? 16 :
						types[t] == SONDE_PERF_RECORD_COMM ? 24 : 48;
				struct sonde_record d;

				hdr(b, types[t], size);
				memcpy(b + 4, &misc, 2);
				if (types[t] == SONDE_PERF_RECORD_COMM)
					memcpy(b + 16, "x", 2);
				if (types[t] == SONDE_PERF_RECORD_MMAP)
					memcpy(b + 40, "/a", 3);
				assert_int_equal(sonde_record__decode(&fmt, b, size, &d), 0);
				assert_int_equal(d.misc, misc);
				assert_int_equal(sonde_record__encode(&fmt, &d, out, sizeof(out)), size);
				assert_memory_equal(b, out, size);
			}
		}
	}
}

static void test_id_lookup(void **state)
{
	fx_build();
	for (int i = 0; i < nr_cases; i++) {
		const struct rec_case *c = &cases[i];
		uint64_t st = c->fmt.sample_type, id = 0;
		bool sample = c->rec.type == SONDE_PERF_RECORD_SAMPLE;
		bool expect = (st & (SONDE_PERF_SAMPLE_IDENTIFIER |
				     SONDE_PERF_SAMPLE_ID)) &&
			      (sample || (c->fmt.sample_id_all && c->rec.type < 64));
		uint8_t *buf;
		int n, err;

		if (c->rec.type >= 22 && c->rec.type < 64)
			continue; /* unknown kernel types: trailer presence unknown */
		cname = c->name;
		buf = encode_alloc(c, &n);
		err = sonde_record__id(&c->fmt, buf, (size_t)n, &id);
		if (expect) {
			CHECK(err == 0, "no id found (%d)", err);
			CHECK(id == 77, "id %llu", (unsigned long long)id);
		} else {
			CHECK(err == -ENOENT, "id where none: %d", err);
		}
		/* The where/when fast path agrees with a full decode. */
		{
			struct sonde_sample_id sid, want = { 0 };
			struct sonde_record d;

			/* The room for fields to come reads zero, whatever was there. */
			memset(&d, 0xff, sizeof(d));
			memset(&sid, 0xff, sizeof(sid));
			assert_int_equal(sonde_record__decode(&c->fmt, buf, (size_t)n, &d), 0);
			CHECK(!(d.sample_id.reserved[0] | d.sample_id.reserved[1]),
			      "the trailer's room is not zeroed");
			err = sonde_record__sample_id(&c->fmt, buf, (size_t)n, &sid);
			if (sample) {
				want.pid = d.sample.pid;
				want.tid = d.sample.tid;
				want.time = d.sample.time;
				want.id = d.sample.id;
				want.stream_id = d.sample.stream_id;
				want.cpu = d.sample.cpu;
				want.cpu_res = d.sample.cpu_res;
				want.identifier = d.sample.identifier;
				CHECK(err == 0, "sample_id of a sample: %d", err);
				CHECK(!memcmp(&sid, &want, sizeof(sid)), "sample fields");
			} else if (d.has_sample_id) {
				CHECK(err == 0, "sample_id: %d", err);
				CHECK(!memcmp(&sid, &d.sample_id, sizeof(sid)), "trailer");
			} else {
				CHECK(err == -ENOENT, "sample_id where none: %d", err);
			}
			for (int len = 0; len < n; len++)
				CHECK(sonde_record__sample_id(&c->fmt, buf, (size_t)len, &sid) < 0,
				      "short buffer %d", len);
		}
		free(buf);
	}
}

static void test_fmt_from_attr(void **state)
{
	struct sonde_perf_event_attr attr = { .size = SONDE_PERF_ATTR_SIZE_VER1 };
	struct sonde_record_fmt fmt;

	attr.sample_type = SONDE_PERF_SAMPLE_IP | SONDE_PERF_SAMPLE_TIME |
			   SONDE_PERF_SAMPLE_IDENTIFIER;
	attr.read_format = SONDE_PERF_FORMAT_ID;
	attr.sample_id_all = 1;
	attr.sample_regs_user = 0xff; /* beyond VER1: ignored */
	assert_int_equal(sonde_record_fmt__from_attr(&fmt, &attr), 0);
	assert_int_equal(fmt.sample_type, attr.sample_type);
	assert_int_equal(fmt.read_format, SONDE_PERF_FORMAT_ID);
	assert_true(fmt.sample_id_all);
	assert_int_equal(fmt.sample_regs_user, 0);
	assert_int_equal(sonde_record_fmt__id_hdr_size(&fmt), 16);
	attr.size = sizeof(attr);
	assert_int_equal(sonde_record_fmt__from_attr(&fmt, &attr), 0);
	assert_int_equal(fmt.sample_regs_user, 0xff);
	sonde_set_print(NULL);
	attr.sample_type |= 1ULL << 40;
	assert_int_equal(sonde_record_fmt__from_attr(&fmt, &attr),
			 -SONDE_ERR_UNSUPPORTED);
}

static void test_names(void **state)
{
	char buf[256];

	assert_string_equal(sonde_record_type_name(SONDE_PERF_RECORD_MMAP2),
			    "PERF_RECORD_MMAP2");
	assert_string_equal(sonde_record_type_name(SONDE_PERF_RECORD_AUX_OUTPUT_HW_ID),
			    "PERF_RECORD_AUX_OUTPUT_HW_ID");
	assert_string_equal(sonde_record_type_name(SONDE_PERF_RECORD_FINISHED_ROUND),
			    "PERF_RECORD_FINISHED_ROUND");
	assert_string_equal(sonde_record_type_name(SONDE_PERF_RECORD_FINISHED_INIT),
			    "PERF_RECORD_FINISHED_INIT");
	assert_null(sonde_record_type_name(0));
	assert_null(sonde_record_type_name(22));
	assert_string_equal(sonde_sample_type_bit_name(SONDE_PERF_SAMPLE_WEIGHT_STRUCT),
			    "WEIGHT_STRUCT");
	assert_null(sonde_sample_type_bit_name(3));
	assert_null(sonde_sample_type_bit_name(1ULL << 30));
	assert_int_equal(sonde_sample_type_str(SONDE_PERF_SAMPLE_IP |
					       SONDE_PERF_SAMPLE_TID |
					       (1ULL << 40), buf, sizeof(buf)),
			 (int)strlen("IP|TID|0x10000000000"));
	assert_string_equal(buf, "IP|TID|0x10000000000");
	assert_int_equal(sonde_sample_type_str(SONDE_PERF_SAMPLE_IP |
					       SONDE_PERF_SAMPLE_TID, buf, 4), 6);
	assert_string_equal(buf, "IP|");
	sonde_sample_type_str(0, buf, sizeof(buf));
	assert_string_equal(buf, "");
	sonde_read_format_str(SONDE_PERF_FORMAT_ID | SONDE_PERF_FORMAT_GROUP,
			      buf, sizeof(buf));
	assert_string_equal(buf, "ID|GROUP");
	for (uint64_t b = 1; b < SONDE_PERF_SAMPLE_MAX; b <<= 1)
		assert_non_null(sonde_sample_type_bit_name(b));
}

static void test_snprintf_every_type(void **state)
{
	fx_build();
	for (int i = 0; i < nr_cases; i++) {
		const struct rec_case *c = &cases[i];
		const char *name = sonde_record_type_name(c->rec.type);
		struct sonde_record d;
		char line[512], small[8];
		uint8_t *buf;
		int n;

		cname = c->name;
		buf = encode_alloc(c, &n);
		assert_int_equal(sonde_record__decode(&c->fmt, buf, (size_t)n, &d), 0);
		n = sonde_record__snprintf(&d, line, sizeof(line));
		CHECK(n > 0 && (size_t)n == strlen(line), "length %d", n);
		CHECK(sonde_record__snprintf(&d, NULL, 0) == n, "size query");
		CHECK(sonde_record__snprintf(&d, small, sizeof(small)) == n &&
		      strlen(small) == sizeof(small) - 1, "truncation");
		CHECK(!name || !strncmp(line, name, strlen(name)), "%s", line);
		if (!strcmp(c->name, "comm-id"))
			assert_string_equal(line, "PERF_RECORD_COMM exec: sonde-test:10/10");
		if (!strcmp(c->name, "mmap2-id"))
			assert_string_equal(line, "PERF_RECORD_MMAP2 10/11: "
				"[0x7f0000000000(0x21000) @ 0x1000 08:01 123456 7]: "
				"r-xp /usr/lib/x86_64-linux-gnu/libc.so.6");
		/* Hand-built records may leave strings NULL. */
		{
			struct sonde_record z = c->rec;

			z.mmap.filename = NULL;
			z.comm.comm = NULL;
			char zline[512];

			CHECK(sonde_record__snprintf(&z, zline, sizeof(zline)) > 0,
			      "NULL strings");
		}
		if (!strcmp(c->name, "fork-id"))
			assert_string_equal(line, "PERF_RECORD_FORK(12:13):(10:12)");
		free(buf);
	}
}

/*
 * SONDE_WRITE_CORPUS=dir writes every fixture as a fuzz_record input:
 * 8 control bytes (see tests/fuzz/fuzz_record.c) then the record.
 */
static void write_corpus(const char *dir)
{
	fx_build();
	mkdir(dir, 0755);
	for (int i = 0; i < nr_cases; i++) {
		const struct rec_case *c = &cases[i];
		uint8_t ctl[8] = { 0 };
		uint32_t st = (uint32_t)c->fmt.sample_type;
		char path[512], file[sizeof(c->name)];
		uint8_t *buf;
		size_t k;
		int n;
		FILE *f;

		cname = c->name;
		/* Case names keep their hyphens; corpus files follow the
		 * tree's one naming rule (tests/check_layers.sh). */
		for (k = 0; c->name[k]; k++)
			file[k] = c->name[k] == '-' ? '_' : (char)tolower((unsigned char)c->name[k]);
		file[k] = '\0';
		buf = encode_alloc(c, &n);
		memcpy(ctl, &st, 4);
		ctl[4] = (uint8_t)c->fmt.read_format;
		ctl[5] = (uint8_t)(c->fmt.sample_id_all |
			 (c->fmt.branch_sample_type & SONDE_PERF_SAMPLE_BRANCH_HW_INDEX ? 2 : 0) |
			 (c->fmt.branch_sample_type & SONDE_PERF_SAMPLE_BRANCH_COUNTERS ? 4 : 0));
		ctl[6] = (uint8_t)__builtin_popcountll(c->fmt.sample_regs_user);
		ctl[7] = (uint8_t)__builtin_popcountll(c->fmt.sample_regs_intr);
		if (snprintf(path, sizeof(path), "%.400s/%.63s", dir, file) < 0)
			fail();
		f = fopen(path, "wb");
		assert_non_null(f);
		fwrite(ctl, 1, 8, f);
		fwrite(buf, 1, (size_t)n, f);
		fclose(f);
		free(buf);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip_every_type_and_field),
		cmocka_unit_test(test_every_prefix_fails_cleanly),
		cmocka_unit_test(test_corrupt_records),
		cmocka_unit_test(test_unknown_type_passes_through),
		cmocka_unit_test(test_misc_bits_kept),
		cmocka_unit_test(test_encode_refuses_inconsistent_records),
		cmocka_unit_test(test_mmap2_build_id_bit_without_attr),
		cmocka_unit_test(test_id_lookup),
		cmocka_unit_test(test_fmt_from_attr),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_snprintf_every_type),
	};

	if (getenv("SONDE_WRITE_CORPUS")) {
		write_corpus(getenv("SONDE_WRITE_CORPUS"));
		return 0;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
