// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Encoding every record type back into bytes, the way the kernel lays them
 * out: strings NUL-padded to ALIGN(strlen + 1, 8) (or the room a decoded
 * record had), blobs zero-padded to 8, the sample_id trailer last.
 */
#include "record_priv.h"

static int str_put_align(struct wcur *w, const char *s, uint16_t room,
			 size_t align)
{
	size_t n, need;

	if (!s)
		s = "";
	n = strnlen(s, 65536);
	/* A decoded record's room is kept, so it re-encodes byte for byte. */
	if (room > n)
		need = room;
	else
		need = (n + 1 + align - 1) & ~(align - 1);
	if (need > 65536)
		return -E2BIG;
	wc_bytes(w, s, n);
	wc_zero(w, need - n);
	return 0;
}

static int str_put(struct wcur *w, const char *s, uint16_t room)
{
	return str_put_align(w, s, room, 8);
}

static int mmap_put(struct wcur *w, const struct sonde_record_fmt *fmt,
		    const struct sonde_record *r, bool v2)
{
	const struct sonde_record_mmap *m = &r->mmap;

	wc_u32(w, m->pid);
	wc_u32(w, m->tid);
	wc_u64(w, m->addr);
	wc_u64(w, m->len);
	wc_u64(w, m->pgoff);
	if (v2) {
		if (mmap2_build_id_layout(fmt, r->misc)) {
			if (m->build_id_size > SONDE_BUILD_ID_MAX_SIZE)
				return -EINVAL;
			wc_bytes(w, &m->build_id_size, 1);
			wc_zero(w, 3);
			wc_bytes(w, m->build_id, SONDE_BUILD_ID_MAX_SIZE);
		} else {
			wc_u32(w, m->maj);
			wc_u32(w, m->min);
			wc_u64(w, m->ino);
			wc_u64(w, m->ino_generation);
		}
		wc_u32(w, m->prot);
		wc_u32(w, m->flags);
	}
	return str_put(w, m->filename, m->filename_size);
}

static int kernel_body_put(struct wcur *w, const struct sonde_record_fmt *fmt,
			   const struct sonde_record *r)
{
	switch (r->type) {
	case SONDE_PERF_RECORD_SAMPLE:
		return sample_put(w, fmt, &r->sample);
	case SONDE_PERF_RECORD_MMAP:
		return mmap_put(w, fmt, r, false);
	case SONDE_PERF_RECORD_MMAP2:
		return mmap_put(w, fmt, r, true);
	case SONDE_PERF_RECORD_LOST:
		wc_u64(w, r->lost.id);
		wc_u64(w, r->lost.lost);
		return 0;
	case SONDE_PERF_RECORD_COMM:
		wc_u32(w, r->comm.pid);
		wc_u32(w, r->comm.tid);
		return str_put(w, r->comm.comm, r->comm.comm_size);
	case SONDE_PERF_RECORD_EXIT:
	case SONDE_PERF_RECORD_FORK:
		wc_u32(w, r->task.pid);
		wc_u32(w, r->task.ppid);
		wc_u32(w, r->task.tid);
		wc_u32(w, r->task.ptid);
		wc_u64(w, r->task.time);
		return 0;
	case SONDE_PERF_RECORD_THROTTLE:
	case SONDE_PERF_RECORD_UNTHROTTLE:
		wc_u64(w, r->throttle.time);
		wc_u64(w, r->throttle.id);
		wc_u64(w, r->throttle.stream_id);
		return 0;
	case SONDE_PERF_RECORD_READ:
		wc_u32(w, r->read.pid);
		wc_u32(w, r->read.tid);
		return read_values_put(w, fmt->read_format, &r->read.values);
	case SONDE_PERF_RECORD_AUX:
		wc_u64(w, r->aux.aux_offset);
		wc_u64(w, r->aux.aux_size);
		wc_u64(w, r->aux.flags);
		return 0;
	case SONDE_PERF_RECORD_ITRACE_START:
		wc_u32(w, r->itrace_start.pid);
		wc_u32(w, r->itrace_start.tid);
		return 0;
	case SONDE_PERF_RECORD_LOST_SAMPLES:
		wc_u64(w, r->lost_samples.lost);
		return 0;
	case SONDE_PERF_RECORD_SWITCH:
		return 0;
	case SONDE_PERF_RECORD_SWITCH_CPU_WIDE:
		wc_u32(w, r->switch_cpu_wide.next_prev_pid);
		wc_u32(w, r->switch_cpu_wide.next_prev_tid);
		return 0;
	case SONDE_PERF_RECORD_NAMESPACES:
		if (r->namespaces.nr > 65536 / 16)
			return -E2BIG;
		if (r->namespaces.nr && !r->namespaces.link)
			return -EINVAL;
		wc_u32(w, r->namespaces.pid);
		wc_u32(w, r->namespaces.tid);
		wc_u64(w, r->namespaces.nr);
		wc_u64s(w, r->namespaces.link, (size_t)r->namespaces.nr * 2);
		return 0;
	case SONDE_PERF_RECORD_KSYMBOL:
		wc_u64(w, r->ksymbol.addr);
		wc_u32(w, r->ksymbol.len);
		wc_u16(w, r->ksymbol.ksym_type);
		wc_u16(w, r->ksymbol.flags);
		return str_put(w, r->ksymbol.name, r->ksymbol.name_size);
	case SONDE_PERF_RECORD_BPF_EVENT:
		wc_u16(w, r->bpf_event.type);
		wc_u16(w, r->bpf_event.flags);
		wc_u32(w, r->bpf_event.id);
		wc_bytes(w, r->bpf_event.tag, SONDE_BPF_TAG_SIZE);
		return 0;
	case SONDE_PERF_RECORD_CGROUP:
		wc_u64(w, r->cgroup.id);
		return str_put(w, r->cgroup.path, r->cgroup.path_size);
	case SONDE_PERF_RECORD_TEXT_POKE: {
		size_t n = (size_t)r->text_poke.old_len + r->text_poke.new_len;

		if (n && !r->text_poke.bytes)
			return -EINVAL;
		wc_u64(w, r->text_poke.addr);
		wc_u16(w, r->text_poke.old_len);
		wc_u16(w, r->text_poke.new_len);
		wc_bytes(w, r->text_poke.bytes, n);
		wc_pad8(w);
		return 0;
	}
	case SONDE_PERF_RECORD_AUX_OUTPUT_HW_ID:
		wc_u64(w, r->aux_output_hw_id.hw_id);
		return 0;
	default:
		return 1;
	}
}

static int user_body_put(struct wcur *w, const struct sonde_record *r)
{
	switch (r->type) {
	case SONDE_PERF_RECORD_HEADER_ATTR: {
		const struct sonde_record_header_attr *a = &r->header_attr;
		uint32_t asz = a->attr_size ? a->attr_size : a->attr.size;
		size_t n = asz < sizeof(a->attr) ? asz : sizeof(a->attr);

		if (asz < SONDE_PERF_ATTR_SIZE_VER0 || asz > 65535 ||
		    (a->nr_ids && !a->ids))
			return -EINVAL;
		if (a->nr_ids > 65536 / 8)
			return -E2BIG;
		wc_bytes(w, &a->attr, n);
		wc_zero(w, asz - n);
		if (w->buf && !w->overflow) {
			uint8_t *at = w->buf + w->off - asz;

			/* The stored attr.size must say what was written. */
			memcpy(at + 4, &asz, 4);
			if (w->swap)
				attr_swap(at, asz, true);
		}
		wc_u64s(w, a->ids, (size_t)a->nr_ids);
		return 0;
	}
	case SONDE_PERF_RECORD_HEADER_TRACING_DATA:
		/* perf 6.1's record is 12 bytes, newer perf pads it to 16. */
		wc_u32(w, r->tracing_data.size);
		if (r->tracing_data.padded)
			wc_zero(w, 4);
		return 0;
	case SONDE_PERF_RECORD_HEADER_BUILD_ID: {
		const struct sonde_record_build_id *b = &r->build_id;

		if ((r->misc & SONDE_PERF_RECORD_MISC_BUILD_ID_SIZE) &&
		    b->size > SONDE_BUILD_ID_MAX_SIZE)
			return -EINVAL;
		wc_u32(w, (uint32_t)b->pid);
		wc_bytes(w, b->build_id, SONDE_BUILD_ID_MAX_SIZE);
		wc_bytes(w, &b->size, 1);
		wc_zero(w, 3);
		/*
		 * perf pads build-id file names to 64 (its NAME_ALIGN) after a
		 * 36-byte head, so these records are not 8-byte multiples.
		 */
		return str_put_align(w, b->filename, b->filename_size, 64);
	}
	case SONDE_PERF_RECORD_FINISHED_ROUND:
	case SONDE_PERF_RECORD_FINISHED_INIT:
		return 0;
	case SONDE_PERF_RECORD_ID_INDEX: {
		const struct sonde_record_id_index *x = &r->id_index;

		if (x->nr > 65536 / 32)
			return -E2BIG;
		if (x->nr && !x->entries)
			return -EINVAL;
		wc_u64(w, x->nr);
		wc_u64s(w, x->entries, (size_t)x->nr * 4);
		if (x->entries2)
			wc_u64s(w, x->entries2, (size_t)x->nr * 2);
		return 0;
	}
	case SONDE_PERF_RECORD_THREAD_MAP:
		if (r->thread_map.nr > 65536 / 24)
			return -E2BIG;
		if (r->thread_map.nr && !r->thread_map.entries)
			return -EINVAL;
		wc_u64(w, r->thread_map.nr);
		for (uint64_t i = 0; i < r->thread_map.nr; i++) {
			const struct sonde_thread_map_entry *e =
				&r->thread_map.entries[i];

			wc_u64s(w, &e->pid, 1);
			wc_bytes(w, e->comm, sizeof(e->comm));
		}
		return 0;
	case SONDE_PERF_RECORD_TIME_CONV: {
		const struct sonde_record_time_conv *t = &r->time_conv;

		wc_u64(w, t->time_shift);
		wc_u64(w, t->time_mult);
		wc_u64(w, t->time_zero);
		if (t->extended) {
			wc_u64(w, t->time_cycles);
			wc_u64(w, t->time_mask);
			wc_bytes(w, &t->cap_user_time_zero, 1);
			wc_bytes(w, &t->cap_user_time_short, 1);
			wc_zero(w, 6);
		}
		return 0;
	}
	case SONDE_PERF_RECORD_HEADER_FEATURE:
		if (r->header_feature.size > 65536)
			return -E2BIG;
		if (r->header_feature.size && !r->header_feature.data)
			return -EINVAL;
		wc_u64(w, r->header_feature.feat_id);
		wc_bytes(w, r->header_feature.data, r->header_feature.size);
		return 0;
	case SONDE_PERF_RECORD_EVENT_UPDATE: {
		const struct sonde_record_event_update *u = &r->event_update;

		wc_u64(w, u->type);
		wc_u64(w, u->id);
		if (u->type == SONDE_EVENT_UPDATE_SCALE) {
			uint64_t bits;

			if (u->size > 65536)
				return -E2BIG;
			/* @scale, then any padding the decoded record had */
			memcpy(&bits, &u->scale, 8);
			wc_u64(w, bits);
			if (u->data && u->size > 8)
				wc_bytes(w, (const uint8_t *)u->data + 8, u->size - 8);
			return 0;
		}
		if ((u->type == SONDE_EVENT_UPDATE_UNIT ||
		     u->type == SONDE_EVENT_UPDATE_NAME) && !u->data)
			return str_put(w, u->str, 0);
		if (u->size > 65536)
			return -E2BIG;
		if (u->size && !u->data)
			return -EINVAL;
		wc_bytes(w, u->data, u->size);
		return 0;
	}
	case SONDE_PERF_RECORD_AUXTRACE_INFO: {
		const struct sonde_record_auxtrace_info *ai = &r->auxtrace_info;

		if (ai->nr_priv > 8190 || (ai->nr_priv && !ai->priv))
			return -EINVAL;
		wc_u32(w, ai->type);
		wc_u32(w, ai->reserved);
		for (uint64_t i = 0; i < ai->nr_priv; i++)
			wc_u64(w, ai->priv[i]);
		return 0;
	}
	case SONDE_PERF_RECORD_AUXTRACE: {
		const struct sonde_record_auxtrace *a = &r->auxtrace;

		wc_u64(w, a->size);
		wc_u64(w, a->offset);
		wc_u64(w, a->reference);
		wc_u32(w, a->idx);
		wc_u32(w, a->tid);
		wc_u32(w, a->cpu);
		wc_u32(w, a->reserved);
		return 0;
	}
	default:
		return 1;
	}
}

static int record_encode(const struct sonde_record_fmt *fmt,
			 const struct sonde_record *rec, void *buf, size_t size,
			 bool swap)
{
	struct wcur w = { .buf = buf, .cap = buf ? size : 0, .swap = swap };
	uint16_t sz16;
	int err;

	if (!fmt || !rec)
		return lib_err(EINVAL);
	wc_u32(&w, rec->type);
	wc_u16(&w, rec->misc);
	wc_u16(&w, 0); /* size, filled in below */
	if (rec->type < SONDE_PERF_RECORD_USER_TYPE_START)
		err = kernel_body_put(&w, fmt, rec);
	else
		err = user_body_put(&w, rec);
	if (err > 0) {
		/* A type we do not know: its body goes back as it came. */
		if (rec->body_size > 65536)
			return lib_err(E2BIG);
		if (rec->body_size && !rec->body)
			return lib_err(EINVAL);
		wc_bytes(&w, rec->body, rec->body_size);
		err = 0;
	}
	if (err)
		return lib_err(err);
	/* Unknown kernel types keep the trailer only if they had one. */
	if (record_has_trailer(fmt, rec->type) &&
	    (rec->type < SONDE_PERF_RECORD_MAX || rec->has_sample_id))
		sample_id_put(&w, fmt, &rec->sample_id);
	if (w.off > 65535)
		return lib_err(E2BIG);
	if (w.overflow)
		return lib_err(ENOSPC);
	if (buf) {
		sz16 = (uint16_t)w.off;
		if (swap)
			sz16 = __builtin_bswap16(sz16);
		memcpy((uint8_t *)buf + 6, &sz16, 2);
	}
	return (int)w.off;
}

int sonde_record__encode(const struct sonde_record_fmt *fmt,
			 const struct sonde_record *rec, void *buf, size_t size)
{
	return record_encode(fmt, rec, buf, size, false);
}

int record_encode_foreign(const struct sonde_record_fmt *fmt,
			  const struct sonde_record *rec, void *buf, size_t size)
{
	return record_encode(fmt, rec, buf, size, true);
}
