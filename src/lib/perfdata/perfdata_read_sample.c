// SPDX-License-Identifier: LGPL-2.1-only
/*
 * SAMPLE decoding for the reports, through the record codec
 * (sonde_record__decode). Records of an opposite-endian file were swapped
 * in place by the scanner, so everything here is in host order; this file
 * only adapts the codec's struct to the fields the reports use.
 */
#include <string.h>
#include "core_priv.h"
#include "perfdata_priv.h"

int pdr_parse_sample(const struct sonde_perfdata_reader *r, const struct pdr_attr *a,
		     const uint8_t *rec, uint16_t size, struct pdr_sample *s)
{
	struct sonde_record d;
	const struct sonde_sample *ss = &d.sample;
	int err;

	(void)r;
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
