// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Walking every record type: decode, and (same walk, swap mode) byte-swap in
 * place. The sample_id trailer sits at the end of the record, so it is walked
 * from size - id_hdr_size and the body must end where it begins.
 */
#include "record_priv.h"

/* The record's union has fixed room: a member outgrowing it changes the ABI. */
_Static_assert(offsetof(struct sonde_record, reserved_room) +
	       sizeof(((struct sonde_record *)0)->reserved_room) ==
	       sizeof(struct sonde_record),
	       "struct sonde_record: the union outgrew its reserved room");

#define KNOWN_SAMPLE_TYPE ((uint64_t)SONDE_PERF_SAMPLE_MAX - 1)
#define KNOWN_READ_FORMAT ((uint64_t)SONDE_PERF_FORMAT_MAX - 1)

int sonde_record_fmt__from_attr(struct sonde_record_fmt *fmt,
				const struct sonde_perf_event_attr *attr)
{
	if (!fmt || !attr)
		return lib_err(EINVAL);
	memset(fmt, 0, sizeof(*fmt));
	fmt->sample_type = attr->sample_type;
	fmt->read_format = attr->read_format;
	fmt->sample_id_all = attr->sample_id_all;
	/* Files and synthesized records: the misc bit is the truth. */
	fmt->mmap2_build_id = attr->build_id ? SONDE_RECORD_BUILD_ID_ON :
					       SONDE_RECORD_BUILD_ID_MISC;
	/* Fields past an old attr's size read as zero, as the kernel does. */
	if (!attr->size || attr->size >= SONDE_PERF_ATTR_SIZE_VER2)
		fmt->branch_sample_type = attr->branch_sample_type;
	if (!attr->size || attr->size >= SONDE_PERF_ATTR_SIZE_VER3)
		fmt->sample_regs_user = attr->sample_regs_user;
	if (!attr->size || attr->size >= SONDE_PERF_ATTR_SIZE_VER4)
		fmt->sample_regs_intr = attr->sample_regs_intr;
	if (attr->sample_type & ~KNOWN_SAMPLE_TYPE) {
		pr_warn("sample_type 0x%llx has bits this library cannot lay out\n",
			(unsigned long long)attr->sample_type);
		return lib_err(SONDE_ERR_UNSUPPORTED);
	}
	if (attr->read_format & ~KNOWN_READ_FORMAT) {
		pr_warn("read_format 0x%llx has bits this library cannot lay out\n",
			(unsigned long long)attr->read_format);
		return lib_err(SONDE_ERR_UNSUPPORTED);
	}
	return 0;
}

/* A string that must be NUL-terminated within the rest of the body. */
static int str_walk(struct rcur *c, const char **s, uint16_t *room,
		    const char *what)
{
	const uint8_t *p = c->base + c->off;
	size_t n = c->end - c->off;

	if (!rc_has(c, 1) || !memchr(p, 0, n))
		return rc_fail(c, what);
	*s = (const char *)p;
	*room = (uint16_t)n;
	c->off = c->end;
	return 0;
}

static int mmap_walk(const struct sonde_record_fmt *fmt, struct rcur *c,
		     struct sonde_record *r, bool v2)
{
	struct sonde_record_mmap *m = &r->mmap;
	int err;

	err = rc_u32(c, &m->pid, "mmap pid");
	if (!err)
		err = rc_u32(c, &m->tid, "mmap tid");
	if (!err)
		err = rc_u64(c, &m->addr, "mmap addr");
	if (!err)
		err = rc_u64(c, &m->len, "mmap len");
	if (!err)
		err = rc_u64(c, &m->pgoff, "mmap pgoff");
	if (!err && v2) {
		if (mmap2_build_id_layout(fmt, r->misc)) {
			const void *id;
			uint16_t res2;

			m->has_build_id = true;
			err = rc_bytes(c, 2, &id, "mmap2 build_id_size");
			if (!err)
				m->build_id_size = *(const uint8_t *)id;
			if (!err)
				err = rc_u16(c, &res2, "mmap2 reserved");
			if (!err)
				err = rc_bytes(c, SONDE_BUILD_ID_MAX_SIZE, &id,
					       "mmap2 build_id");
			if (!err && m->build_id_size > SONDE_BUILD_ID_MAX_SIZE) {
				c->off -= SONDE_BUILD_ID_MAX_SIZE + 4;
				return rc_fail(c, "mmap2 build_id_size above 20");
			}
			if (!err)
				memcpy(m->build_id, id, SONDE_BUILD_ID_MAX_SIZE);
		} else {
			err = rc_u32(c, &m->maj, "mmap2 maj");
			if (!err)
				err = rc_u32(c, &m->min, "mmap2 min");
			if (!err)
				err = rc_u64(c, &m->ino, "mmap2 ino");
			if (!err)
				err = rc_u64(c, &m->ino_generation,
					     "mmap2 ino_generation");
		}
		if (!err)
			err = rc_u32(c, &m->prot, "mmap2 prot");
		if (!err)
			err = rc_u32(c, &m->flags, "mmap2 flags");
	}
	if (!err)
		err = str_walk(c, &m->filename, &m->filename_size,
			       "mmap filename not NUL-terminated");
	return err;
}

/* Blob of @n bytes followed by zero padding to 8 that must end the body. */
static int tail_blob_walk(struct rcur *c, uint64_t n, const void **p,
			  const char *what)
{
	int err = rc_bytes(c, n, p, what);

	return err ? err : rc_pad8(c, what);
}

static int kernel_body_walk(const struct sonde_record_fmt *fmt, struct rcur *c,
			    struct sonde_record *r)
{
	int err = 0;

	switch (r->type) {
	case SONDE_PERF_RECORD_SAMPLE:
		return sample_walk(c, fmt, &r->sample);
	case SONDE_PERF_RECORD_MMAP:
		return mmap_walk(fmt, c, r, false);
	case SONDE_PERF_RECORD_MMAP2:
		return mmap_walk(fmt, c, r, true);
	case SONDE_PERF_RECORD_LOST:
		err = rc_u64(c, &r->lost.id, "lost id");
		return err ? err : rc_u64(c, &r->lost.lost, "lost count");
	case SONDE_PERF_RECORD_COMM:
		err = rc_u32(c, &r->comm.pid, "comm pid");
		if (!err)
			err = rc_u32(c, &r->comm.tid, "comm tid");
		return err ? err : str_walk(c, &r->comm.comm, &r->comm.comm_size,
					    "comm not NUL-terminated");
	case SONDE_PERF_RECORD_EXIT:
	case SONDE_PERF_RECORD_FORK:
		err = rc_u32(c, &r->task.pid, "task pid");
		if (!err)
			err = rc_u32(c, &r->task.ppid, "task ppid");
		if (!err)
			err = rc_u32(c, &r->task.tid, "task tid");
		if (!err)
			err = rc_u32(c, &r->task.ptid, "task ptid");
		return err ? err : rc_u64(c, &r->task.time, "task time");
	case SONDE_PERF_RECORD_THROTTLE:
	case SONDE_PERF_RECORD_UNTHROTTLE:
		err = rc_u64(c, &r->throttle.time, "throttle time");
		if (!err)
			err = rc_u64(c, &r->throttle.id, "throttle id");
		return err ? err : rc_u64(c, &r->throttle.stream_id,
					  "throttle stream_id");
	case SONDE_PERF_RECORD_READ:
		err = rc_u32(c, &r->read.pid, "read pid");
		if (!err)
			err = rc_u32(c, &r->read.tid, "read tid");
		return err ? err : read_values_walk(c, fmt->read_format,
						    &r->read.values);
	case SONDE_PERF_RECORD_AUX:
		err = rc_u64(c, &r->aux.aux_offset, "aux offset");
		if (!err)
			err = rc_u64(c, &r->aux.aux_size, "aux size");
		return err ? err : rc_u64(c, &r->aux.flags, "aux flags");
	case SONDE_PERF_RECORD_ITRACE_START:
		err = rc_u32(c, &r->itrace_start.pid, "itrace_start pid");
		return err ? err : rc_u32(c, &r->itrace_start.tid,
					  "itrace_start tid");
	case SONDE_PERF_RECORD_LOST_SAMPLES:
		return rc_u64(c, &r->lost_samples.lost, "lost_samples count");
	case SONDE_PERF_RECORD_SWITCH:
		return 0;
	case SONDE_PERF_RECORD_SWITCH_CPU_WIDE:
		err = rc_u32(c, &r->switch_cpu_wide.next_prev_pid,
			     "switch next_prev_pid");
		return err ? err : rc_u32(c, &r->switch_cpu_wide.next_prev_tid,
					  "switch next_prev_tid");
	case SONDE_PERF_RECORD_NAMESPACES: {
		const uint64_t *link;

		err = rc_u32(c, &r->namespaces.pid, "namespaces pid");
		if (!err)
			err = rc_u32(c, &r->namespaces.tid, "namespaces tid");
		if (!err)
			err = rc_u64(c, &r->namespaces.nr, "namespaces nr");
		if (!err && r->namespaces.nr > (c->end - c->off) / 16)
			return rc_fail(c, "namespaces exceed record");
		if (!err)
			err = rc_u64s(c, r->namespaces.nr * 2, &link,
				      "namespaces exceed record");
		if (!err)
			r->namespaces.link = (const void *)link;
		return err;
	}
	case SONDE_PERF_RECORD_KSYMBOL:
		err = rc_u64(c, &r->ksymbol.addr, "ksymbol addr");
		if (!err)
			err = rc_u32(c, &r->ksymbol.len, "ksymbol len");
		if (!err)
			err = rc_u16(c, &r->ksymbol.ksym_type, "ksymbol type");
		if (!err)
			err = rc_u16(c, &r->ksymbol.flags, "ksymbol flags");
		return err ? err : str_walk(c, &r->ksymbol.name,
					    &r->ksymbol.name_size,
					    "ksymbol name not NUL-terminated");
	case SONDE_PERF_RECORD_BPF_EVENT: {
		const void *tag;

		err = rc_u16(c, &r->bpf_event.type, "bpf_event type");
		if (!err)
			err = rc_u16(c, &r->bpf_event.flags, "bpf_event flags");
		if (!err)
			err = rc_u32(c, &r->bpf_event.id, "bpf_event id");
		if (!err)
			err = rc_bytes(c, SONDE_BPF_TAG_SIZE, &tag, "bpf_event tag");
		if (!err)
			memcpy(r->bpf_event.tag, tag, SONDE_BPF_TAG_SIZE);
		return err;
	}
	case SONDE_PERF_RECORD_CGROUP:
		err = rc_u64(c, &r->cgroup.id, "cgroup id");
		return err ? err : str_walk(c, &r->cgroup.path,
					    &r->cgroup.path_size,
					    "cgroup path not NUL-terminated");
	case SONDE_PERF_RECORD_TEXT_POKE: {
		const void *bytes;

		err = rc_u64(c, &r->text_poke.addr, "text_poke addr");
		if (!err)
			err = rc_u16(c, &r->text_poke.old_len, "text_poke old_len");
		if (!err)
			err = rc_u16(c, &r->text_poke.new_len, "text_poke new_len");
		if (!err)
			err = tail_blob_walk(c, (uint64_t)r->text_poke.old_len +
						     r->text_poke.new_len,
					     &bytes, "text_poke bytes exceed record");
		if (!err)
			r->text_poke.bytes = bytes;
		return err;
	}
	case SONDE_PERF_RECORD_AUX_OUTPUT_HW_ID:
		return rc_u64(c, &r->aux_output_hw_id.hw_id, "aux_output hw_id");
	default:
		return 1; /* unknown: body only */
	}
}

static int header_attr_walk(struct rcur *c, struct sonde_record *r)
{
	struct sonde_record_header_attr *a = &r->header_attr;
	uint8_t *p = c->base + c->off;
	uint32_t asz;
	size_t rest;

	if (!rc_has(c, SONDE_PERF_ATTR_SIZE_VER0))
		return rc_fail(c, "header_attr attr shorter than VER0");
	memcpy(&asz, p + 4, 4);
	if (c->swap)
		asz = __builtin_bswap32(asz);
	if (asz < SONDE_PERF_ATTR_SIZE_VER0 || asz > c->end - c->off) {
		c->off += 4;
		return rc_fail(c, "header_attr attr.size out of range");
	}
	if (c->swap)
		sonde_perf_event_attr__swap(p, asz);
	memset(&a->attr, 0, sizeof(a->attr));
	memcpy(&a->attr, p, asz < sizeof(a->attr) ? asz : sizeof(a->attr));
	a->attr_size = asz;
	c->off += asz;
	rest = c->end - c->off;
	if (rest % 8)
		return rc_fail(c, "header_attr ids not a multiple of 8 bytes");
	a->nr_ids = rest / 8;
	return rc_u64s(c, a->nr_ids, &a->ids, "header_attr ids");
}

static int user_body_walk(struct rcur *c, struct sonde_record *r)
{
	int err = 0;

	switch (r->type) {
	case SONDE_PERF_RECORD_HEADER_ATTR:
		return header_attr_walk(c, r);
	case SONDE_PERF_RECORD_HEADER_TRACING_DATA:
		err = rc_u32(c, &r->tracing_data.size, "tracing_data size");
		/* perf 6.1 writes a 12-byte record, newer perf a 16-byte one. */
		if (!err && c->off < c->end) {
			r->tracing_data.padded = true;
			err = rc_pad8(c, "tracing_data padding");
		}
		return err;
	case SONDE_PERF_RECORD_HEADER_BUILD_ID: {
		const void *id;

		err = rc_u32(c, (uint32_t *)&r->build_id.pid, "build_id pid");
		if (!err)
			err = rc_bytes(c, 24, &id, "build_id bytes");
		if (!err) {
			memcpy(r->build_id.build_id, id, SONDE_BUILD_ID_MAX_SIZE);
			r->build_id.size = ((const uint8_t *)id)[20];
			if ((r->misc & SONDE_PERF_RECORD_MISC_BUILD_ID_SIZE) &&
			    r->build_id.size > SONDE_BUILD_ID_MAX_SIZE) {
				c->off -= 4;
				return rc_fail(c, "build_id size above 20");
			}
		}
		return err ? err : str_walk(c, &r->build_id.filename,
					    &r->build_id.filename_size,
					    "build_id filename not NUL-terminated");
	}
	case SONDE_PERF_RECORD_FINISHED_ROUND:
	case SONDE_PERF_RECORD_FINISHED_INIT:
		return 0;
	case SONDE_PERF_RECORD_ID_INDEX: {
		struct sonde_record_id_index *x = &r->id_index;
		const uint64_t *p;
		size_t left;

		err = rc_u64(c, &x->nr, "id_index nr");
		if (!err && x->nr > (c->end - c->off) / 32)
			return rc_fail(c, "id_index entries exceed record");
		if (!err)
			err = rc_u64s(c, x->nr * 4, &p, "id_index entries");
		if (err)
			return err;
		x->entries = (const void *)p;
		x->entries2 = NULL;
		left = c->end - c->off;
		if (x->nr && left >= x->nr * 16) {
			err = rc_u64s(c, x->nr * 2, &p, "id_index entries2");
			x->entries2 = (const void *)p;
		}
		return err;
	}
	case SONDE_PERF_RECORD_THREAD_MAP: {
		struct sonde_record_thread_map *t = &r->thread_map;
		uint64_t i;

		err = rc_u64(c, &t->nr, "thread_map nr");
		if (!err && t->nr > (c->end - c->off) / 24)
			return rc_fail(c, "thread_map entries exceed record");
		if (err)
			return err;
		t->entries = (const void *)(c->base + c->off);
		for (i = 0; i < t->nr && !err; i++) {
			uint64_t pid;
			const void *comm;

			err = rc_u64(c, &pid, "thread_map pid");
			if (!err)
				err = rc_bytes(c, 16, &comm, "thread_map comm");
		}
		return err;
	}
	case SONDE_PERF_RECORD_TIME_CONV: {
		struct sonde_record_time_conv *t = &r->time_conv;
		const void *caps;

		err = rc_u64(c, &t->time_shift, "time_conv time_shift");
		if (!err)
			err = rc_u64(c, &t->time_mult, "time_conv time_mult");
		if (!err)
			err = rc_u64(c, &t->time_zero, "time_conv time_zero");
		if (err || c->off == c->end)
			return err;
		t->extended = true;
		err = rc_u64(c, &t->time_cycles, "time_conv time_cycles");
		if (!err)
			err = rc_u64(c, &t->time_mask, "time_conv time_mask");
		if (!err)
			err = rc_bytes(c, 8, &caps, "time_conv caps");
		if (!err) {
			t->cap_user_time_zero = ((const uint8_t *)caps)[0];
			t->cap_user_time_short = ((const uint8_t *)caps)[1];
		}
		return err;
	}
	case SONDE_PERF_RECORD_HEADER_FEATURE:
		err = rc_u64(c, &r->header_feature.feat_id, "feature id");
		if (!err) {
			r->header_feature.size = c->end - c->off;
			err = rc_bytes(c, r->header_feature.size,
				       &r->header_feature.data, "feature data");
		}
		return err;
	case SONDE_PERF_RECORD_EVENT_UPDATE: {
		struct sonde_record_event_update *u = &r->event_update;
		uint64_t bits;

		err = rc_u64(c, &u->type, "event_update type");
		if (!err)
			err = rc_u64(c, &u->id, "event_update id");
		if (err)
			return err;
		u->size = c->end - c->off;
		u->data = c->base + c->off;
		if (u->type == SONDE_EVENT_UPDATE_SCALE) {
			err = rc_u64(c, &bits, "event_update scale");
			if (!err)
				memcpy(&u->scale, &bits, 8);
			/* perf 6.1 sizes these records for its largest payload */
			c->off = c->end;
			return err;
		}
		if (u->type == SONDE_EVENT_UPDATE_UNIT ||
		    u->type == SONDE_EVENT_UPDATE_NAME) {
			uint16_t room;

			return str_walk(c, &u->str, &room,
					"event_update string not NUL-terminated");
		}
		c->off = c->end;
		return 0;
	}
	case SONDE_PERF_RECORD_AUXTRACE_INFO: {
		struct sonde_record_auxtrace_info *ai = &r->auxtrace_info;

		err = rc_u32(c, &ai->type, "auxtrace_info type");
		if (!err)
			err = rc_u32(c, &ai->reserved, "auxtrace_info reserved");
		if (err)
			return err;
		ai->nr_priv = (c->end - c->off) / 8;
		return rc_u64s(c, ai->nr_priv, &ai->priv, "auxtrace_info priv");
	}
	case SONDE_PERF_RECORD_AUXTRACE: {
		struct sonde_record_auxtrace *a = &r->auxtrace;

		err = rc_u64(c, &a->size, "auxtrace size");
		if (!err)
			err = rc_u64(c, &a->offset, "auxtrace offset");
		if (!err)
			err = rc_u64(c, &a->reference, "auxtrace reference");
		if (!err)
			err = rc_u32(c, &a->idx, "auxtrace idx");
		if (!err)
			err = rc_u32(c, &a->tid, "auxtrace tid");
		if (!err)
			err = rc_u32(c, &a->cpu, "auxtrace cpu");
		if (!err)
			err = rc_u32(c, &a->reserved, "auxtrace reserved");
		return err;
	}
	default:
		return 1;
	}
}

int record_walk(const struct sonde_record_fmt *fmt, uint8_t *buf, size_t len,
		bool swap, struct sonde_record *r)
{
	struct rcur c = { .base = buf, .end = len < 8 ? len : 8, .swap = swap };
	size_t body_end;
	uint32_t type;
	uint16_t misc, size;
	int err;

	/*
	 * The fields before the union; the union too unless a sample's walk
	 * sets its own member (clearing all ~500 bytes for every sample cost
	 * more than decoding it).
	 */
	memset(r, 0, offsetof(struct sonde_record, reserved_room));
	err = rc_u32(&c, &type, "record header");
	if (!err)
		err = rc_u16(&c, &misc, "record header");
	if (!err)
		err = rc_u16(&c, &size, "record header");
	if (err || type != SONDE_PERF_RECORD_SAMPLE || size < 8 || size > len)
		memset(&r->reserved_room, 0, sizeof(r->reserved_room));
	if (err)
		goto fail;
	r->type = type;
	r->misc = misc;
	r->size = size;
	r->bytes = buf;
	if (size < 8) {
		c.off = 6;
		err = rc_fail(&c, "record size below header size");
		goto fail;
	}
	if (size > len) {
		c.off = 6;
		err = rc_fail(&c, "record size beyond the available bytes");
		goto fail;
	}
	body_end = size;
	if (record_has_trailer(fmt, type)) {
		size_t idsz = sample_id_size(fmt);
		bool known = type < SONDE_PERF_RECORD_MAX;

		if ((size_t)size - 8 >= idsz) {
			c.off = size - idsz;
			c.end = size;
			err = sample_id_walk(&c, fmt, &r->sample_id);
			if (err)
				goto fail;
			r->has_sample_id = true;
			body_end = size - idsz;
		} else if (known) {
			c.off = 8;
			err = rc_fail(&c, "record too short for its sample_id trailer");
			goto fail;
		}
	}
	r->body = buf + 8;
	r->body_size = body_end - 8;
	c.off = 8;
	c.end = body_end;
	if (type < SONDE_PERF_RECORD_USER_TYPE_START)
		err = kernel_body_walk(fmt, &c, r);
	else
		err = user_body_walk(&c, r);
	if (err > 0)
		return 0; /* unknown type: body only */
	if (err)
		goto fail;
	if (c.off != body_end) {
		err = rc_fail(&c, type == SONDE_PERF_RECORD_SAMPLE ?
			      "bytes left after the last sample field" :
			      "bytes left after the record's fields");
		goto fail;
	}
	return 0;
fail:
	r->err_offset = c.err_off;
	r->err_what = c.err_what;
	return lib_err(SONDE_ERR_FORMAT);
}

int sonde_record__decode(const struct sonde_record_fmt *fmt, const void *buf,
			 size_t len, struct sonde_record *rec)
{
	if (!fmt || !buf || !rec)
		return lib_err(EINVAL);
	/* Decode mode never writes: the cast only shares the walker. */
	return record_walk(fmt, (uint8_t *)(uintptr_t)buf, len, false, rec);
}

int sonde_record__swap(const struct sonde_record_fmt *fmt, void *buf, size_t len)
{
	struct sonde_record rec;

	if (!fmt || !buf)
		return lib_err(EINVAL);
	return record_walk(fmt, buf, len, true, &rec);
}

int sonde_record__id(const struct sonde_record_fmt *fmt, const void *buf,
		     size_t len, uint64_t *id)
{
	const uint8_t *p = buf;
	uint64_t st = fmt->sample_type;
	uint32_t type;
	uint16_t size;
	size_t pos;

	if (len < 8)
		return lib_err(SONDE_ERR_FORMAT);
	memcpy(&type, p, 4);
	memcpy(&size, p + 6, 2);
	if (size > len || size < 8)
		return lib_err(SONDE_ERR_FORMAT);
	if (type == SONDE_PERF_RECORD_SAMPLE) {
		if (st & SONDE_PERF_SAMPLE_IDENTIFIER) {
			pos = 8;
		} else if (st & SONDE_PERF_SAMPLE_ID) {
			pos = 8 + 8 * (!!(st & SONDE_PERF_SAMPLE_IP) +
				       !!(st & SONDE_PERF_SAMPLE_TID) +
				       !!(st & SONDE_PERF_SAMPLE_TIME) +
				       !!(st & SONDE_PERF_SAMPLE_ADDR));
		} else {
			return lib_err(ENOENT);
		}
	} else if (record_has_trailer(fmt, type)) {
		if (st & SONDE_PERF_SAMPLE_IDENTIFIER) {
			pos = (size_t)size - 8;
		} else if (st & SONDE_PERF_SAMPLE_ID) {
			size_t from_end = sample_id_size(fmt) -
				8 * (!!(st & SONDE_PERF_SAMPLE_TID) +
				     !!(st & SONDE_PERF_SAMPLE_TIME));

			if (from_end > size)
				return lib_err(SONDE_ERR_FORMAT);
			pos = size - from_end;
		} else {
			return lib_err(ENOENT);
		}
	} else {
		return lib_err(ENOENT);
	}
	if (pos < 8 || pos + 8 > size)
		return lib_err(SONDE_ERR_FORMAT);
	memcpy(id, p + pos, 8);
	return 0;
}

int sonde_record__sample_id(const struct sonde_record_fmt *fmt, const void *buf,
			    size_t len, struct sonde_sample_id *sid)
{
	struct rcur c = { .base = (uint8_t *)(uintptr_t)buf };
	uint64_t st, dummy;
	uint32_t type;
	uint16_t size;
	int err = 0;

	if (!fmt || !buf || !sid)
		return lib_err(EINVAL);
	if (len < 8)
		return lib_err(SONDE_ERR_FORMAT);
	memcpy(&type, buf, 4);
	memcpy(&size, (const uint8_t *)buf + 6, 2);
	if (size < 8 || size > len)
		return lib_err(SONDE_ERR_FORMAT);
	st = fmt->sample_type;
	c.end = size;
	if (type == SONDE_PERF_RECORD_SAMPLE) {
		/* Everything up to CPU sits at a fixed place in a sample. */
		memset(sid, 0, sizeof(*sid));
		c.off = 8;
		if (st & SONDE_PERF_SAMPLE_IDENTIFIER)
			err = rc_u64(&c, &sid->identifier, "identifier");
		if (!err && (st & SONDE_PERF_SAMPLE_IP))
			err = rc_u64(&c, &dummy, "ip");
		if (!err && (st & SONDE_PERF_SAMPLE_TID)) {
			err = rc_u32(&c, &sid->pid, "pid");
			if (!err)
				err = rc_u32(&c, &sid->tid, "tid");
		}
		if (!err && (st & SONDE_PERF_SAMPLE_TIME))
			err = rc_u64(&c, &sid->time, "time");
		if (!err && (st & SONDE_PERF_SAMPLE_ADDR))
			err = rc_u64(&c, &dummy, "addr");
		if (!err && (st & SONDE_PERF_SAMPLE_ID))
			err = rc_u64(&c, &sid->id, "id");
		if (!err && (st & SONDE_PERF_SAMPLE_STREAM_ID))
			err = rc_u64(&c, &sid->stream_id, "stream_id");
		if (!err && (st & SONDE_PERF_SAMPLE_CPU)) {
			err = rc_u32(&c, &sid->cpu, "cpu");
			if (!err)
				err = rc_u32(&c, &sid->cpu_res, "cpu res");
		}
		return err ? lib_err(SONDE_ERR_FORMAT) : 0;
	}
	if (!record_has_trailer(fmt, type))
		return lib_err(ENOENT);
	if ((size_t)size - 8 < sample_id_size(fmt))
		return lib_err(SONDE_ERR_FORMAT);
	c.off = size - sample_id_size(fmt);
	return sample_id_walk(&c, fmt, sid) ? lib_err(SONDE_ERR_FORMAT) : 0;
}

int sonde_record__fixup(const struct sonde_perf_event_attr *attr, void *buf,
			size_t len)
{
	uint8_t *p = buf;
	uint32_t type;
	uint16_t misc, size;

	if (!attr || !buf)
		return lib_err(EINVAL);
	if (len < 8)
		return lib_err(SONDE_ERR_FORMAT);
	memcpy(&type, p, 4);
	memcpy(&misc, p + 4, 2);
	memcpy(&size, p + 6, 2);
	if (size < 8 || size > len)
		return lib_err(SONDE_ERR_FORMAT);
	if (type == SONDE_PERF_RECORD_MMAP2 && !attr->build_id &&
	    (misc & SONDE_PERF_RECORD_MISC_MMAP_BUILD_ID)) {
		misc &= (uint16_t)~SONDE_PERF_RECORD_MISC_MMAP_BUILD_ID;
		memcpy(p + 4, &misc, 2);
		return 1;
	}
	return 0;
}
