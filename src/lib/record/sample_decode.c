// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The PERF_RECORD_SAMPLE body, the read_format block and the sample_id_all
 * trailer, walked field by field in the order sample_type bits put them.
 */
#include "record_priv.h"

unsigned int sonde_read_values__entry_words(uint64_t read_format)
{
	return 1 + !!(read_format & SONDE_PERF_FORMAT_ID) +
	       !!(read_format & SONDE_PERF_FORMAT_LOST);
}

int sonde_read_values__entry(const struct sonde_read_values *rv,
			     uint64_t read_format, uint64_t i,
			     struct sonde_perf_read_group_entry *out)
{
	const uint64_t *e;
	unsigned int k = 1;

	if (!rv || !out || i >= rv->nr)
		return lib_err(EINVAL);
	memset(out, 0, sizeof(*out));
	if (!(read_format & SONDE_PERF_FORMAT_GROUP)) {
		out->value = rv->value;
		out->id = rv->id;
		out->lost = rv->lost;
		return 0;
	}
	e = rv->group + i * sonde_read_values__entry_words(read_format);
	memcpy(&out->value, &e[0], 8);
	if (read_format & SONDE_PERF_FORMAT_ID)
		memcpy(&out->id, &e[k++], 8);
	if (read_format & SONDE_PERF_FORMAT_LOST)
		memcpy(&out->lost, &e[k], 8);
	return 0;
}

int read_values_walk(struct rcur *c, uint64_t rf, struct sonde_read_values *rv)
{
	int err = 0;

	memset(rv, 0, sizeof(*rv));
	if (rf & SONDE_PERF_FORMAT_GROUP) {
		uint64_t words = sonde_read_values__entry_words(rf);

		err = rc_u64(c, &rv->nr, "read_format group nr");
		if (!err && (rf & SONDE_PERF_FORMAT_TOTAL_TIME_ENABLED))
			err = rc_u64(c, &rv->time_enabled, "read_format time_enabled");
		if (!err && (rf & SONDE_PERF_FORMAT_TOTAL_TIME_RUNNING))
			err = rc_u64(c, &rv->time_running, "read_format time_running");
		if (err)
			return err;
		/* nr * words must not overflow before the bounds check. */
		if (rv->nr > (c->end - c->off) / 8 / words)
			return rc_fail(c, "read_format group entries exceed record");
		return rc_u64s(c, rv->nr * words, &rv->group,
			       "read_format group entries");
	}
	rv->nr = 1;
	err = rc_u64(c, &rv->value, "read_format value");
	if (!err && (rf & SONDE_PERF_FORMAT_TOTAL_TIME_ENABLED))
		err = rc_u64(c, &rv->time_enabled, "read_format time_enabled");
	if (!err && (rf & SONDE_PERF_FORMAT_TOTAL_TIME_RUNNING))
		err = rc_u64(c, &rv->time_running, "read_format time_running");
	if (!err && (rf & SONDE_PERF_FORMAT_ID))
		err = rc_u64(c, &rv->id, "read_format id");
	if (!err && (rf & SONDE_PERF_FORMAT_LOST))
		err = rc_u64(c, &rv->lost, "read_format lost");
	return err;
}

static int regs_walk(struct rcur *c, uint64_t mask, struct sonde_sample_regs *r,
		     const char *what)
{
	int err = rc_u64(c, &r->abi, what);

	if (err)
		return err;
	/* ABI_NONE (no user context, e.g. a kernel thread) means no regs. */
	r->nr = r->abi ? (uint32_t)__builtin_popcountll(mask) : 0;
	r->regs = NULL;
	return r->nr ? rc_u64s(c, r->nr, &r->regs, what) : 0;
}

static int branch_walk(struct rcur *c, const struct sonde_record_fmt *fmt,
		       struct sonde_sample *s)
{
	uint8_t *p;
	int err;

	err = rc_u64(c, &s->branch.nr, "branch stack nr");
	if (!err && (fmt->branch_sample_type & SONDE_PERF_SAMPLE_BRANCH_HW_INDEX))
		err = rc_u64(c, &s->branch.hw_idx, "branch stack hw_idx");
	if (err)
		return err;
	if (s->branch.nr > (c->end - c->off) / 24)
		return rc_fail(c, "branch stack entries exceed record");
	p = c->base + c->off;
	s->branch.entries = (const void *)p;
	if (c->swap) {
		for (uint64_t i = 0; i < s->branch.nr; i++) {
			uint64_t *w = (uint64_t *)(void *)(p + i * 24);
			uint64_t t;

			for (int k = 0; k < 2; k++) {
				memcpy(&t, &w[k], 8);
				t = __builtin_bswap64(t);
				memcpy(&w[k], &t, 8);
			}
			branch_flags_swap(p + i * 24 + 16);
		}
	}
	c->off += (size_t)s->branch.nr * 24;
	s->branch.counters = NULL;
	if (fmt->branch_sample_type & SONDE_PERF_SAMPLE_BRANCH_COUNTERS)
		return rc_u64s(c, s->branch.nr, &s->branch.counters,
			       "branch counters exceed record");
	return 0;
}

/* The fields that sit at fixed places, in their order in a sample. */
#define PLAN_FIXED_TYPES                                                      \
	(SONDE_PERF_SAMPLE_IDENTIFIER | SONDE_PERF_SAMPLE_IP |                \
	 SONDE_PERF_SAMPLE_TID | SONDE_PERF_SAMPLE_TIME |                      \
	 SONDE_PERF_SAMPLE_ADDR | SONDE_PERF_SAMPLE_ID |                       \
	 SONDE_PERF_SAMPLE_STREAM_ID | SONDE_PERF_SAMPLE_CPU |                 \
	 SONDE_PERF_SAMPLE_PERIOD)

void sample_plan_make(const struct sonde_record_fmt *fmt, struct sample_plan *pl)
{
	uint64_t st = fmt->sample_type;
	uint8_t off = 8;

	memset(pl, 0, sizeof(*pl));
	if (st & ~(PLAN_FIXED_TYPES | SONDE_PERF_SAMPLE_CALLCHAIN))
		return;
	/* Each fixed field is one u64 (TID and CPU: two u32s). */
#define PLAN_FIELD(bit, field)		\
	if (st & (bit)) {		\
		pl->field = off;	\
		off += 8;		\
	}
	PLAN_FIELD(SONDE_PERF_SAMPLE_IDENTIFIER, identifier)
	PLAN_FIELD(SONDE_PERF_SAMPLE_IP, ip)
	PLAN_FIELD(SONDE_PERF_SAMPLE_TID, tid)
	PLAN_FIELD(SONDE_PERF_SAMPLE_TIME, time)
	PLAN_FIELD(SONDE_PERF_SAMPLE_ADDR, addr)
	PLAN_FIELD(SONDE_PERF_SAMPLE_ID, id)
	PLAN_FIELD(SONDE_PERF_SAMPLE_STREAM_ID, stream_id)
	PLAN_FIELD(SONDE_PERF_SAMPLE_CPU, cpu)
	PLAN_FIELD(SONDE_PERF_SAMPLE_PERIOD, period)
	PLAN_FIELD(SONDE_PERF_SAMPLE_CALLCHAIN, chain)
#undef PLAN_FIELD
	pl->head = off;
	pl->fixed = true;
}

/* A sample of the usual layout (sample_plan_fits() held), every field set. */
static void sample_fill(const struct sample_plan *pl, uint64_t st, const uint8_t *rec,
			uint64_t nr, struct sonde_sample *s)
{
	/* What the usual layout lacks, from the read values on. */
	memset(&s->read, 0, sizeof(*s) - offsetof(struct sonde_sample, read));
	s->sample_type = st;
	s->identifier = sample_plan_u64(rec, pl->identifier);
	s->ip = sample_plan_u64(rec, pl->ip);
	s->pid = s->tid = 0;
	if (pl->tid) {
		memcpy(&s->pid, rec + pl->tid, 4);
		memcpy(&s->tid, rec + pl->tid + 4, 4);
	}
	s->time = sample_plan_u64(rec, pl->time);
	s->addr = sample_plan_u64(rec, pl->addr);
	s->id = sample_plan_u64(rec, pl->id);
	s->stream_id = sample_plan_u64(rec, pl->stream_id);
	s->cpu = s->cpu_res = 0;
	if (pl->cpu) {
		memcpy(&s->cpu, rec + pl->cpu, 4);
		memcpy(&s->cpu_res, rec + pl->cpu + 4, 4);
	}
	s->period = sample_plan_u64(rec, pl->period);
	if (pl->chain) {
		s->callchain.nr = nr;
		s->callchain.ips = (const uint64_t *)(const void *)(rec + pl->chain + 8);
	}
}

int sample_walk(struct rcur *c, const struct sonde_record_fmt *fmt,
		struct sonde_sample *s)
{
	uint64_t st = fmt->sample_type;
	int err = 0;

	/*
	 * The usual layout, when the record fits it exactly, is read straight;
	 * swap mode walks (it rewrites every field in place).
	 */
	if (!c->swap && c->off == 8 && !(st & ~(PLAN_FIXED_TYPES | SONDE_PERF_SAMPLE_CALLCHAIN))) {
		struct sample_plan pl;
		uint64_t nr;

		sample_plan_make(fmt, &pl);
		if (sample_plan_fits(&pl, c->base, c->end, &nr)) {
			sample_fill(&pl, st, c->base, nr, s);
			c->off = c->end;
			return 0;
		}
	}
	/* record_walk() left the sample to its walk: a field absent reads 0. */
	memset(s, 0, sizeof(*s));
	s->sample_type = st;
	if (st & SONDE_PERF_SAMPLE_IDENTIFIER)
		err = rc_u64(c, &s->identifier, "identifier");
	if (!err && (st & SONDE_PERF_SAMPLE_IP))
		err = rc_u64(c, &s->ip, "ip");
	if (!err && (st & SONDE_PERF_SAMPLE_TID)) {
		err = rc_u32(c, &s->pid, "pid");
		if (!err)
			err = rc_u32(c, &s->tid, "tid");
	}
	if (!err && (st & SONDE_PERF_SAMPLE_TIME))
		err = rc_u64(c, &s->time, "time");
	if (!err && (st & SONDE_PERF_SAMPLE_ADDR))
		err = rc_u64(c, &s->addr, "addr");
	if (!err && (st & SONDE_PERF_SAMPLE_ID))
		err = rc_u64(c, &s->id, "id");
	if (!err && (st & SONDE_PERF_SAMPLE_STREAM_ID))
		err = rc_u64(c, &s->stream_id, "stream_id");
	if (!err && (st & SONDE_PERF_SAMPLE_CPU)) {
		err = rc_u32(c, &s->cpu, "cpu");
		if (!err)
			err = rc_u32(c, &s->cpu_res, "cpu res");
	}
	if (!err && (st & SONDE_PERF_SAMPLE_PERIOD))
		err = rc_u64(c, &s->period, "period");
	if (!err && (st & SONDE_PERF_SAMPLE_READ))
		err = read_values_walk(c, fmt->read_format, &s->read);
	if (!err && (st & SONDE_PERF_SAMPLE_CALLCHAIN)) {
		err = rc_u64(c, &s->callchain.nr, "callchain nr");
		if (!err)
			err = rc_u64s(c, s->callchain.nr, &s->callchain.ips,
				      "callchain exceeds record");
	}
	if (!err && (st & SONDE_PERF_SAMPLE_RAW)) {
		err = rc_u32(c, &s->raw.size, "raw size");
		if (!err)
			err = rc_bytes(c, s->raw.size, &s->raw.data,
				       "raw data exceeds record");
		if (!err)
			err = rc_pad8(c, "raw padding exceeds record");
	}
	if (!err && (st & SONDE_PERF_SAMPLE_BRANCH_STACK))
		err = branch_walk(c, fmt, s);
	if (!err && (st & SONDE_PERF_SAMPLE_REGS_USER))
		err = regs_walk(c, fmt->sample_regs_user, &s->regs_user,
				"user regs exceed record");
	if (!err && (st & SONDE_PERF_SAMPLE_STACK_USER)) {
		err = rc_u64(c, &s->stack_user.size, "user stack size");
		if (!err)
			err = rc_bytes(c, s->stack_user.size, &s->stack_user.data,
				       "user stack exceeds record");
		if (!err)
			err = rc_pad8(c, "user stack padding exceeds record");
		if (!err && s->stack_user.size)
			err = rc_u64(c, &s->stack_user.dyn_size,
				     "user stack dyn_size");
		if (!err && s->stack_user.dyn_size > s->stack_user.size)
			return rc_fail(c, "user stack dyn_size larger than size");
	}
	if (!err && (st & SONDE_PERF_SAMPLE_WEIGHT_TYPE))
		err = rc_u64(c, &s->weight.full, "weight");
	if (!err && (st & SONDE_PERF_SAMPLE_DATA_SRC))
		err = rc_u64(c, &s->data_src.val, "data_src");
	if (!err && (st & SONDE_PERF_SAMPLE_TRANSACTION))
		err = rc_u64(c, &s->transaction, "transaction");
	if (!err && (st & SONDE_PERF_SAMPLE_REGS_INTR))
		err = regs_walk(c, fmt->sample_regs_intr, &s->regs_intr,
				"intr regs exceed record");
	if (!err && (st & SONDE_PERF_SAMPLE_PHYS_ADDR))
		err = rc_u64(c, &s->phys_addr, "phys_addr");
	if (!err && (st & SONDE_PERF_SAMPLE_CGROUP))
		err = rc_u64(c, &s->cgroup, "cgroup");
	if (!err && (st & SONDE_PERF_SAMPLE_DATA_PAGE_SIZE))
		err = rc_u64(c, &s->data_page_size, "data_page_size");
	if (!err && (st & SONDE_PERF_SAMPLE_CODE_PAGE_SIZE))
		err = rc_u64(c, &s->code_page_size, "code_page_size");
	if (!err && (st & SONDE_PERF_SAMPLE_AUX)) {
		err = rc_u64(c, &s->aux.size, "aux size");
		if (!err)
			err = rc_bytes(c, s->aux.size, &s->aux.data,
				       "aux data exceeds record");
		if (!err)
			err = rc_pad8(c, "aux padding exceeds record");
	}
	return err;
}

size_t sample_id_size(const struct sonde_record_fmt *fmt)
{
	uint64_t st = fmt->sample_type;
	size_t n = 0;

	if (!fmt->sample_id_all)
		return 0;
	n += st & SONDE_PERF_SAMPLE_TID ? 8 : 0;
	n += st & SONDE_PERF_SAMPLE_TIME ? 8 : 0;
	n += st & SONDE_PERF_SAMPLE_ID ? 8 : 0;
	n += st & SONDE_PERF_SAMPLE_STREAM_ID ? 8 : 0;
	n += st & SONDE_PERF_SAMPLE_CPU ? 8 : 0;
	n += st & SONDE_PERF_SAMPLE_IDENTIFIER ? 8 : 0;
	return n;
}

size_t sonde_record_fmt__id_hdr_size(const struct sonde_record_fmt *fmt)
{
	return fmt ? sample_id_size(fmt) : 0;
}

int sample_id_walk(struct rcur *c, const struct sonde_record_fmt *fmt,
		   struct sonde_sample_id *sid)
{
	uint64_t st = fmt->sample_type;
	int err = 0;

	memset(sid, 0, sizeof(*sid));
	if (st & SONDE_PERF_SAMPLE_TID) {
		err = rc_u32(c, &sid->pid, "sample_id pid");
		if (!err)
			err = rc_u32(c, &sid->tid, "sample_id tid");
	}
	if (!err && (st & SONDE_PERF_SAMPLE_TIME))
		err = rc_u64(c, &sid->time, "sample_id time");
	if (!err && (st & SONDE_PERF_SAMPLE_ID))
		err = rc_u64(c, &sid->id, "sample_id id");
	if (!err && (st & SONDE_PERF_SAMPLE_STREAM_ID))
		err = rc_u64(c, &sid->stream_id, "sample_id stream_id");
	if (!err && (st & SONDE_PERF_SAMPLE_CPU)) {
		err = rc_u32(c, &sid->cpu, "sample_id cpu");
		if (!err)
			err = rc_u32(c, &sid->cpu_res, "sample_id cpu res");
	}
	if (!err && (st & SONDE_PERF_SAMPLE_IDENTIFIER))
		err = rc_u64(c, &sid->identifier, "sample_id identifier");
	return err;
}
