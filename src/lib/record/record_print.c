// SPDX-License-Identifier: LGPL-2.1-only
/*
 * One-line descriptions of decoded records for dumps, close to what
 * `perf report -D` prints so the two can be compared by eye.
 */
#include <inttypes.h>
#include <stdio.h>
#include "record_priv.h"

/* Strings of records built by hand may be NULL. */
#define S(x) ((x) ? (x) : "")

struct sbuf {
	char *buf;
	size_t size;
	size_t len; /* as if unbounded, like snprintf */
};

__attribute__((format(printf, 2, 3)))
static void sb_add(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b->len < b->size ? b->buf + b->len : NULL,
		      b->len < b->size ? b->size - b->len : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->len += (size_t)n;
}

static void sb_hex(struct sbuf *b, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sb_add(b, "%02x", p[i]);
}

static void print_mmap(struct sbuf *b, const struct sonde_record *r)
{
	const struct sonde_record_mmap *m = &r->mmap;

	sb_add(b, " %" PRIu32 "/%" PRIu32 ": [%#" PRIx64 "(%#" PRIx64 ") @ %#"
	       PRIx64, m->pid, m->tid, m->addr, m->len, m->pgoff);
	if (r->type == SONDE_PERF_RECORD_MMAP2) {
		if (m->has_build_id) {
			sb_add(b, " <");
			sb_hex(b, m->build_id, m->build_id_size);
			sb_add(b, ">");
		} else {
			sb_add(b, " %02" PRIx32 ":%02" PRIx32 " %" PRIu64 " %" PRIu64,
			       m->maj, m->min, m->ino, m->ino_generation);
		}
		sb_add(b, "]: %c%c%c%c %s", m->prot & 1 ? 'r' : '-',
		       m->prot & 2 ? 'w' : '-', m->prot & 4 ? 'x' : '-',
		       m->flags & 1 ? 's' : 'p', S(m->filename));
	} else {
		sb_add(b, "]: %c %s",
		       r->misc & SONDE_PERF_RECORD_MISC_MMAP_DATA ? 'r' : 'x',
		       S(m->filename));
	}
}

static void print_sample(struct sbuf *b, const struct sonde_record *r)
{
	const struct sonde_sample *s = &r->sample;
	uint64_t st = s->sample_type;

	sb_add(b, "(IP, %#x): %" PRIu32 "/%" PRIu32 ": %#" PRIx64 " period: %"
	       PRIu64 " addr: %#" PRIx64, r->misc, s->pid, s->tid, s->ip,
	       s->period, s->addr);
	if (st & SONDE_PERF_SAMPLE_TIME)
		sb_add(b, " time: %" PRIu64, s->time);
	if (st & SONDE_PERF_SAMPLE_CPU)
		sb_add(b, " cpu: %" PRIu32, s->cpu);
	if (st & (SONDE_PERF_SAMPLE_IDENTIFIER | SONDE_PERF_SAMPLE_ID))
		sb_add(b, " id: %" PRIu64, st & SONDE_PERF_SAMPLE_ID ? s->id :
		       s->identifier);
	if (st & SONDE_PERF_SAMPLE_CALLCHAIN)
		sb_add(b, " callchain: %" PRIu64, s->callchain.nr);
	if (st & SONDE_PERF_SAMPLE_BRANCH_STACK)
		sb_add(b, " branches: %" PRIu64, s->branch.nr);
	if (st & SONDE_PERF_SAMPLE_RAW)
		sb_add(b, " raw: %" PRIu32, s->raw.size);
	if (st & SONDE_PERF_SAMPLE_STACK_USER)
		sb_add(b, " stack: %" PRIu64 "/%" PRIu64, s->stack_user.dyn_size,
		       s->stack_user.size);
	if (st & SONDE_PERF_SAMPLE_WEIGHT_TYPE)
		sb_add(b, " weight: %" PRIu64, s->weight.full);
	if (st & SONDE_PERF_SAMPLE_DATA_SRC)
		sb_add(b, " data_src: %#" PRIx64, s->data_src.val);
	if (st & SONDE_PERF_SAMPLE_PHYS_ADDR)
		sb_add(b, " phys_addr: %#" PRIx64, s->phys_addr);
	if (st & SONDE_PERF_SAMPLE_AUX)
		sb_add(b, " aux: %" PRIu64, s->aux.size);
}

int sonde_record__snprintf(const struct sonde_record *r, char *buf, size_t size)
{
	struct sbuf b = { .buf = buf, .size = buf ? size : 0 };
	const char *name;

	if (!r)
		return lib_err(EINVAL);
	if (b.size)
		buf[0] = 0;
	name = sonde_record_type_name(r->type);
	if (name)
		sb_add(&b, "%s", name);
	else
		sb_add(&b, "PERF_RECORD_%" PRIu32, r->type);

	switch (r->type) {
	case SONDE_PERF_RECORD_SAMPLE:
		print_sample(&b, r);
		break;
	case SONDE_PERF_RECORD_MMAP:
	case SONDE_PERF_RECORD_MMAP2:
		print_mmap(&b, r);
		break;
	case SONDE_PERF_RECORD_COMM:
		sb_add(&b, "%s: %s:%" PRIu32 "/%" PRIu32,
		       r->misc & SONDE_PERF_RECORD_MISC_COMM_EXEC ? " exec" : "",
		       S(r->comm.comm), r->comm.pid, r->comm.tid);
		break;
	case SONDE_PERF_RECORD_FORK:
	case SONDE_PERF_RECORD_EXIT:
		sb_add(&b, "(%" PRIu32 ":%" PRIu32 "):(%" PRIu32 ":%" PRIu32 ")",
		       r->task.pid, r->task.tid, r->task.ppid, r->task.ptid);
		break;
	case SONDE_PERF_RECORD_LOST:
		sb_add(&b, " lost %" PRIu64 " id %" PRIu64, r->lost.lost, r->lost.id);
		break;
	case SONDE_PERF_RECORD_LOST_SAMPLES:
		sb_add(&b, " lost %" PRIu64, r->lost_samples.lost);
		break;
	case SONDE_PERF_RECORD_THROTTLE:
	case SONDE_PERF_RECORD_UNTHROTTLE:
		sb_add(&b, " time %" PRIu64 " id %" PRIu64 " stream_id %" PRIu64,
		       r->throttle.time, r->throttle.id, r->throttle.stream_id);
		break;
	case SONDE_PERF_RECORD_READ:
		sb_add(&b, " %" PRIu32 "/%" PRIu32 " value %" PRIu64,
		       r->read.pid, r->read.tid, r->read.values.value);
		break;
	case SONDE_PERF_RECORD_AUX:
		sb_add(&b, " offset %#" PRIx64 " size %#" PRIx64 " flags %#" PRIx64,
		       r->aux.aux_offset, r->aux.aux_size, r->aux.flags);
		break;
	case SONDE_PERF_RECORD_ITRACE_START:
		sb_add(&b, " pid %" PRIu32 " tid %" PRIu32, r->itrace_start.pid,
		       r->itrace_start.tid);
		break;
	case SONDE_PERF_RECORD_SWITCH:
	case SONDE_PERF_RECORD_SWITCH_CPU_WIDE:
		sb_add(&b, " %s",
		       r->misc & SONDE_PERF_RECORD_MISC_SWITCH_OUT ? "OUT" : "IN ");
		if (r->misc & SONDE_PERF_RECORD_MISC_SWITCH_OUT_PREEMPT)
			sb_add(&b, " preempt");
		if (r->type == SONDE_PERF_RECORD_SWITCH_CPU_WIDE)
			sb_add(&b, " next_prev_pid/tid: %" PRIu32 "/%" PRIu32,
			       r->switch_cpu_wide.next_prev_pid,
			       r->switch_cpu_wide.next_prev_tid);
		break;
	case SONDE_PERF_RECORD_NAMESPACES:
		sb_add(&b, " %" PRIu32 "/%" PRIu32 " - nr_namespaces: %" PRIu64,
		       r->namespaces.pid, r->namespaces.tid, r->namespaces.nr);
		break;
	case SONDE_PERF_RECORD_KSYMBOL:
		sb_add(&b, " addr %#" PRIx64 " len %" PRIu32 " type %u flags %#x name %s",
		       r->ksymbol.addr, r->ksymbol.len, r->ksymbol.ksym_type,
		       r->ksymbol.flags, S(r->ksymbol.name));
		break;
	case SONDE_PERF_RECORD_BPF_EVENT:
		sb_add(&b, " type %u, flags %u, id %" PRIu32 " tag ",
		       r->bpf_event.type, r->bpf_event.flags, r->bpf_event.id);
		sb_hex(&b, r->bpf_event.tag, SONDE_BPF_TAG_SIZE);
		break;
	case SONDE_PERF_RECORD_CGROUP:
		sb_add(&b, " cgroup: %" PRIu64 " %s", r->cgroup.id, S(r->cgroup.path));
		break;
	case SONDE_PERF_RECORD_TEXT_POKE:
		sb_add(&b, " addr %#" PRIx64 " old len %u new len %u",
		       r->text_poke.addr, r->text_poke.old_len,
		       r->text_poke.new_len);
		break;
	case SONDE_PERF_RECORD_AUX_OUTPUT_HW_ID:
		sb_add(&b, " hw_id: %#" PRIx64, r->aux_output_hw_id.hw_id);
		break;
	case SONDE_PERF_RECORD_HEADER_ATTR:
		sb_add(&b, " type %" PRIu32 " config %#" PRIx64 " ids %" PRIu64,
		       r->header_attr.attr.type, r->header_attr.attr.config,
		       r->header_attr.nr_ids);
		break;
	case SONDE_PERF_RECORD_HEADER_TRACING_DATA:
		sb_add(&b, " size %" PRIu32, r->tracing_data.size);
		break;
	case SONDE_PERF_RECORD_HEADER_BUILD_ID:
		sb_add(&b, " pid %" PRId32 " ", r->build_id.pid);
		sb_hex(&b, r->build_id.build_id,
		       r->misc & SONDE_PERF_RECORD_MISC_BUILD_ID_SIZE ?
		       r->build_id.size : SONDE_BUILD_ID_MAX_SIZE);
		sb_add(&b, " %s", S(r->build_id.filename));
		break;
	case SONDE_PERF_RECORD_ID_INDEX:
		sb_add(&b, " nr %" PRIu64, r->id_index.nr);
		break;
	case SONDE_PERF_RECORD_THREAD_MAP:
		sb_add(&b, " nr %" PRIu64, r->thread_map.nr);
		break;
	case SONDE_PERF_RECORD_TIME_CONV:
		sb_add(&b, " shift %" PRIu64 " mult %" PRIu64 " zero %" PRIu64,
		       r->time_conv.time_shift, r->time_conv.time_mult,
		       r->time_conv.time_zero);
		break;
	case SONDE_PERF_RECORD_HEADER_FEATURE:
		sb_add(&b, " feat_id %" PRIu64 " size %zu",
		       r->header_feature.feat_id, r->header_feature.size);
		break;
	case SONDE_PERF_RECORD_EVENT_UPDATE:
		sb_add(&b, " id %" PRIu64 " type %" PRIu64, r->event_update.id,
		       r->event_update.type);
		if (r->event_update.str)
			sb_add(&b, " %s", r->event_update.str);
		else if (r->event_update.type == SONDE_EVENT_UPDATE_SCALE)
			sb_add(&b, " scale %g", r->event_update.scale);
		break;
	case SONDE_PERF_RECORD_AUXTRACE_INFO:
		sb_add(&b, " type %" PRIu32 " priv %" PRIu64 " words",
		       r->auxtrace_info.type, r->auxtrace_info.nr_priv);
		break;
	case SONDE_PERF_RECORD_AUXTRACE:
		sb_add(&b, " size %#" PRIx64 " offset %#" PRIx64 " ref %#" PRIx64
		       " idx %" PRIu32 " tid %" PRIu32 " cpu %" PRIu32,
		       r->auxtrace.size, r->auxtrace.offset, r->auxtrace.reference,
		       r->auxtrace.idx, r->auxtrace.tid, r->auxtrace.cpu);
		break;
	default:
		if (r->type != SONDE_PERF_RECORD_FINISHED_ROUND &&
		    r->type != SONDE_PERF_RECORD_FINISHED_INIT)
			sb_add(&b, " (%zu bytes)", r->body_size);
		break;
	}
	return (int)b.len;
}
