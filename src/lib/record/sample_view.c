// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The compact view of a sample (struct sample_view) that the profile counts,
 * from any source: a file's record read straight through the layout's plan
 * (struct sample_plan) when it has the usual layout, anything else through
 * the codec (sonde_record__decode), whose walk also says what is wrong with
 * a sample that does not fit; a live or piped record already decoded goes
 * through sample_view_of(). One decode, so every source counts alike.
 */
#include <string.h>
#include "record_priv.h"

void sample_view_of(const struct sonde_record_fmt *fmt, uint64_t period0,
		    const struct sonde_sample *ss, struct sample_view *s)
{
	uint64_t type = fmt->sample_type;

	memset(s, 0, sizeof(*s));
	s->ip = ss->ip;
	s->pid = s->tid = (uint32_t)-1;
	s->cpu = (uint32_t)-1;
	if (type & SONDE_PERF_SAMPLE_TID) {
		s->pid = ss->pid;
		s->tid = ss->tid;
	}
	s->time = ss->time;
	s->addr = ss->addr;
	s->id = (type & SONDE_PERF_SAMPLE_IDENTIFIER) ? ss->identifier : ss->id;
	s->stream_id = ss->stream_id;
	if (type & SONDE_PERF_SAMPLE_CPU)
		s->cpu = ss->cpu;
	s->period = (type & SONDE_PERF_SAMPLE_PERIOD) ? ss->period : period0;
	if (type & SONDE_PERF_SAMPLE_CALLCHAIN) {
		s->nr_callchain = ss->callchain.nr;
		s->callchain = (const uint8_t *)ss->callchain.ips;
	}
	if (type & SONDE_PERF_SAMPLE_RAW) {
		s->raw_size = ss->raw.size;
		s->raw = ss->raw.data;
	}
	if (type & SONDE_PERF_SAMPLE_REGS_USER) {
		s->regs_abi = ss->regs_user.abi;
		s->regs_mask = fmt->sample_regs_user;
		s->regs = (const uint8_t *)ss->regs_user.regs;
		s->nr_regs = ss->regs_user.nr;
	}
	if (type & SONDE_PERF_SAMPLE_STACK_USER) {
		s->stack_size = ss->stack_user.size;
		s->stack = ss->stack_user.data;
		s->stack_dyn_size = ss->stack_user.dyn_size;
		if (s->stack_dyn_size > s->stack_size)
			s->stack_dyn_size = s->stack_size;
	}
}

int sample_view_decode(const struct sonde_record_fmt *fmt, uint64_t period0,
		       const uint8_t *rec, size_t size, struct sample_view *s)
{
	struct sonde_record d;
	int err;

	memset(s, 0, sizeof(*s));
	err = sonde_record__decode(fmt, rec, size, &d);
	if (err)
		return err;
	if (d.type != SONDE_PERF_RECORD_SAMPLE)
		return -SONDE_ERR_FORMAT;
	sample_view_of(fmt, period0, &d.sample, s);
	return 0;
}
