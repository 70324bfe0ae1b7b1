// SPDX-License-Identifier: LGPL-2.1-only
/*
 * SAMPLE decoding for the reports: the usual layout straight from the
 * record codec's plan of it (struct sample_plan), anything else through the
 * codec itself (sonde_record__decode), whose walk also says what is wrong
 * with a sample that does not fit. Records of an opposite-endian file were
 * swapped in place by the scanner, so everything here is in host order;
 * this file only adapts the codec's answers to the fields the reports use.
 */
#include <string.h>
#include "core_priv.h"
#include "perfdata_priv.h"

/*
 * The usual layout, read straight from the plan: the size was checked once
 * (sample_plan_fits), so no field needs a bounds check of its own. Sets
 * what the codec's path below sets, field for field.
 */
static int parse_usual(const struct pdr_attr *a, const uint8_t *rec, uint64_t nr,
		       struct pdr_sample *s)
{
	const struct sample_plan *pl = &a->plan;

	s->ip = sample_plan_u64(rec, pl->ip);
	s->pid = s->tid = (uint32_t)-1;
	if (pl->tid) {
		memcpy(&s->pid, rec + pl->tid, 4);
		memcpy(&s->tid, rec + pl->tid + 4, 4);
	}
	s->time = sample_plan_u64(rec, pl->time);
	s->addr = sample_plan_u64(rec, pl->addr);
	s->id = sample_plan_u64(rec, pl->identifier ? pl->identifier : pl->id);
	s->stream_id = sample_plan_u64(rec, pl->stream_id);
	s->cpu = (uint32_t)-1;
	if (pl->cpu)
		memcpy(&s->cpu, rec + pl->cpu, 4);
	s->period = pl->period ? sample_plan_u64(rec, pl->period)
			       : (a->attr.freq ? 1 : a->attr.sample_period);
	s->nr_callchain = nr;
	s->callchain = pl->chain ? rec + pl->chain + 8 : NULL;
	s->raw_size = 0;
	s->raw = NULL;
	s->regs_abi = s->regs_mask = 0;
	s->regs = NULL;
	s->nr_regs = 0;
	s->stack_size = s->stack_dyn_size = 0;
	s->stack = NULL;
	return 0;
}

int pdr_parse_sample(const struct sonde_perfdata_reader *r, const struct pdr_attr *a,
		     const uint8_t *rec, uint16_t size, struct pdr_sample *s)
{
	const struct sample_plan *pl = &a->plan;
	struct sonde_record d;
	const struct sonde_sample *ss = &d.sample;
	uint32_t type;
	uint64_t nr;
	int err;

	(void)r;
	memcpy(&type, rec, 4);
	if (type == SONDE_PERF_RECORD_SAMPLE && sample_plan_fits(pl, rec, size, &nr))
		return parse_usual(a, rec, nr, s);
	memset(s, 0, sizeof(*s));
	err = sonde_record__decode(&a->fmt, rec, size, &d);
	if (err)
		return err;
	if (d.type != SONDE_PERF_RECORD_SAMPLE)
		return -SONDE_ERR_FORMAT;
	s->ip = ss->ip;
	s->pid = s->tid = (uint32_t)-1;
	s->cpu = (uint32_t)-1;
	if (a->fmt.sample_type & SONDE_PERF_SAMPLE_TID) {
		s->pid = ss->pid;
		s->tid = ss->tid;
	}
	s->time = ss->time;
	s->addr = ss->addr;
	s->id = (a->fmt.sample_type & SONDE_PERF_SAMPLE_IDENTIFIER) ? ss->identifier : ss->id;
	s->stream_id = ss->stream_id;
	if (a->fmt.sample_type & SONDE_PERF_SAMPLE_CPU)
		s->cpu = ss->cpu;
	s->period = (a->fmt.sample_type & SONDE_PERF_SAMPLE_PERIOD)
			    ? ss->period
			    : (a->attr.freq ? 1 : a->attr.sample_period);
	if (a->fmt.sample_type & SONDE_PERF_SAMPLE_CALLCHAIN) {
		s->nr_callchain = ss->callchain.nr;
		s->callchain = (const uint8_t *)ss->callchain.ips;
	}
	if (a->fmt.sample_type & SONDE_PERF_SAMPLE_RAW) {
		s->raw_size = ss->raw.size;
		s->raw = ss->raw.data;
	}
	if (a->fmt.sample_type & SONDE_PERF_SAMPLE_REGS_USER) {
		s->regs_abi = ss->regs_user.abi;
		s->regs_mask = a->fmt.sample_regs_user;
		s->regs = (const uint8_t *)ss->regs_user.regs;
		s->nr_regs = ss->regs_user.nr;
	}
	if (a->fmt.sample_type & SONDE_PERF_SAMPLE_STACK_USER) {
		s->stack_size = ss->stack_user.size;
		s->stack = ss->stack_user.data;
		s->stack_dyn_size = ss->stack_user.dyn_size;
		if (s->stack_dyn_size > s->stack_size)
			s->stack_dyn_size = s->stack_size;
	}
	return 0;
}
