// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Writing a PERF_RECORD_SAMPLE body, a read_format block and the
 * sample_id_all trailer: the mirror image of sample_decode.c.
 */
#include "record_priv.h"

int read_values_put(struct wcur *w, uint64_t rf,
		    const struct sonde_read_values *rv)
{
	if (rf & SONDE_PERF_FORMAT_GROUP) {
		uint64_t words = sonde_read_values__entry_words(rf);

		if (rv->nr && !rv->group)
			return -EINVAL;
		if (rv->nr > 65536 / 8)
			return -E2BIG;
		wc_u64(w, rv->nr);
		if (rf & SONDE_PERF_FORMAT_TOTAL_TIME_ENABLED)
			wc_u64(w, rv->time_enabled);
		if (rf & SONDE_PERF_FORMAT_TOTAL_TIME_RUNNING)
			wc_u64(w, rv->time_running);
		wc_u64s(w, rv->group, (size_t)(rv->nr * words));
		return 0;
	}
	wc_u64(w, rv->value);
	if (rf & SONDE_PERF_FORMAT_TOTAL_TIME_ENABLED)
		wc_u64(w, rv->time_enabled);
	if (rf & SONDE_PERF_FORMAT_TOTAL_TIME_RUNNING)
		wc_u64(w, rv->time_running);
	if (rf & SONDE_PERF_FORMAT_ID)
		wc_u64(w, rv->id);
	if (rf & SONDE_PERF_FORMAT_LOST)
		wc_u64(w, rv->lost);
	return 0;
}

/* Arrays larger than a record can hold are refused before any multiply. */
#define MAX_ITEMS (65536 / 8)

static int blob_put(struct wcur *w, const void *data, uint64_t size)
{
	if (size > 65536)
		return -E2BIG;
	if (size && !data)
		return -EINVAL;
	wc_bytes(w, data, (size_t)size);
	wc_pad8(w);
	return 0;
}

static void branch_entries_put(struct wcur *w, const void *entries, size_t nr)
{
	const uint8_t *p = entries;

	if (!w->swap) {
		wc_bytes(w, entries, nr * 24);
		return;
	}
	for (size_t i = 0; i < nr; i++) {
		uint64_t flags;

		wc_u64s(w, p + i * 24, 2);
		memcpy(&flags, p + i * 24 + 16, 8);
		flags = branch_flags_to_foreign(flags);
		wc_bytes(w, &flags, 8);
	}
}

static int regs_put(struct wcur *w, uint64_t mask,
		    const struct sonde_sample_regs *r)
{
	unsigned int nr = r->abi ? (unsigned int)__builtin_popcountll(mask) : 0;

	if (nr && !r->regs)
		return -EINVAL;
	wc_u64(w, r->abi);
	wc_u64s(w, r->regs, nr);
	return 0;
}

int sample_put(struct wcur *w, const struct sonde_record_fmt *fmt,
	       const struct sonde_sample *s)
{
	uint64_t st = fmt->sample_type;
	int err = 0;

	if (st & SONDE_PERF_SAMPLE_IDENTIFIER)
		wc_u64(w, s->identifier);
	if (st & SONDE_PERF_SAMPLE_IP)
		wc_u64(w, s->ip);
	if (st & SONDE_PERF_SAMPLE_TID) {
		wc_u32(w, s->pid);
		wc_u32(w, s->tid);
	}
	if (st & SONDE_PERF_SAMPLE_TIME)
		wc_u64(w, s->time);
	if (st & SONDE_PERF_SAMPLE_ADDR)
		wc_u64(w, s->addr);
	if (st & SONDE_PERF_SAMPLE_ID)
		wc_u64(w, s->id);
	if (st & SONDE_PERF_SAMPLE_STREAM_ID)
		wc_u64(w, s->stream_id);
	if (st & SONDE_PERF_SAMPLE_CPU) {
		wc_u32(w, s->cpu);
		wc_u32(w, s->cpu_res);
	}
	if (st & SONDE_PERF_SAMPLE_PERIOD)
		wc_u64(w, s->period);
	if (st & SONDE_PERF_SAMPLE_READ) {
		err = read_values_put(w, fmt->read_format, &s->read);
		if (err)
			return err;
	}
	if (st & SONDE_PERF_SAMPLE_CALLCHAIN) {
		if (s->callchain.nr > MAX_ITEMS)
			return -E2BIG;
		if (s->callchain.nr && !s->callchain.ips)
			return -EINVAL;
		wc_u64(w, s->callchain.nr);
		wc_u64s(w, s->callchain.ips, (size_t)s->callchain.nr);
	}
	if (st & SONDE_PERF_SAMPLE_RAW) {
		wc_u32(w, s->raw.size);
		err = blob_put(w, s->raw.data, s->raw.size);
		if (err)
			return err;
	}
	if (st & SONDE_PERF_SAMPLE_BRANCH_STACK) {
		uint64_t nr = s->branch.nr;
		bool cntr = fmt->branch_sample_type &
			    SONDE_PERF_SAMPLE_BRANCH_COUNTERS;

		if (nr > MAX_ITEMS)
			return -E2BIG;
		if (nr && (!s->branch.entries || (cntr && !s->branch.counters)))
			return -EINVAL;
		wc_u64(w, nr);
		if (fmt->branch_sample_type & SONDE_PERF_SAMPLE_BRANCH_HW_INDEX)
			wc_u64(w, s->branch.hw_idx);
		branch_entries_put(w, s->branch.entries, (size_t)nr);
		if (cntr)
			wc_u64s(w, s->branch.counters, (size_t)nr);
	}
	if (st & SONDE_PERF_SAMPLE_REGS_USER) {
		err = regs_put(w, fmt->sample_regs_user, &s->regs_user);
		if (err)
			return err;
	}
	if (st & SONDE_PERF_SAMPLE_STACK_USER) {
		if (s->stack_user.dyn_size > s->stack_user.size)
			return -EINVAL;
		wc_u64(w, s->stack_user.size);
		err = blob_put(w, s->stack_user.data, s->stack_user.size);
		if (err)
			return err;
		if (s->stack_user.size)
			wc_u64(w, s->stack_user.dyn_size);
	}
	if (st & SONDE_PERF_SAMPLE_WEIGHT_TYPE)
		wc_u64(w, s->weight.full);
	if (st & SONDE_PERF_SAMPLE_DATA_SRC)
		wc_u64(w, s->data_src.val);
	if (st & SONDE_PERF_SAMPLE_TRANSACTION)
		wc_u64(w, s->transaction);
	if (st & SONDE_PERF_SAMPLE_REGS_INTR) {
		err = regs_put(w, fmt->sample_regs_intr, &s->regs_intr);
		if (err)
			return err;
	}
	if (st & SONDE_PERF_SAMPLE_PHYS_ADDR)
		wc_u64(w, s->phys_addr);
	if (st & SONDE_PERF_SAMPLE_CGROUP)
		wc_u64(w, s->cgroup);
	if (st & SONDE_PERF_SAMPLE_DATA_PAGE_SIZE)
		wc_u64(w, s->data_page_size);
	if (st & SONDE_PERF_SAMPLE_CODE_PAGE_SIZE)
		wc_u64(w, s->code_page_size);
	if (st & SONDE_PERF_SAMPLE_AUX) {
		wc_u64(w, s->aux.size);
		err = blob_put(w, s->aux.data, s->aux.size);
	}
	return err;
}

void sample_id_put(struct wcur *w, const struct sonde_record_fmt *fmt,
		   const struct sonde_sample_id *sid)
{
	uint64_t st = fmt->sample_type;

	if (st & SONDE_PERF_SAMPLE_TID) {
		wc_u32(w, sid->pid);
		wc_u32(w, sid->tid);
	}
	if (st & SONDE_PERF_SAMPLE_TIME)
		wc_u64(w, sid->time);
	if (st & SONDE_PERF_SAMPLE_ID)
		wc_u64(w, sid->id);
	if (st & SONDE_PERF_SAMPLE_STREAM_ID)
		wc_u64(w, sid->stream_id);
	if (st & SONDE_PERF_SAMPLE_CPU) {
		wc_u32(w, sid->cpu);
		wc_u32(w, sid->cpu_res);
	}
	if (st & SONDE_PERF_SAMPLE_IDENTIFIER)
		wc_u64(w, sid->identifier);
}
