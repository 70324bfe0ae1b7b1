// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The record stream: bounds-checked scanning, header-type records (pipe
 * attrs and features, tracing data, rounds) consumed here, everything else
 * queued by time and released round by round (FINISHED_ROUND: at each
 * marker, records up to the largest time seen at the previous marker are
 * final). Queue entries are 24 bytes; records stay in the mapping, or in
 * chunks (perfdata_read_chunk.c): what COMPRESSED records decompress to
 * (perfdata_read_zstd.c) and, for a pipe read as it arrives, the slabs its
 * records are copied into; all go through the same queue.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "core_priv.h"
#include "perfdata_priv.h"

static int qent_cmp(const void *a, const void *b)
{
	const struct pdr_qent *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static inline bool qent_less(const struct pdr_qent *x, const struct pdr_qent *y)
{
	return x->time < y->time || (x->time == y->time && x->off < y->off);
}

#define PDR_MAX_RUNS 64

/*
 * Sorts q[lo..n). A round holds one ascending run per CPU ring buffer
 * (plus the sorted rest of the previous round), so the runs already there
 * are merged pairwise, O(n log runs), rather than sorted from scratch.
 * Many short runs (or no memory for the merge buffer): qsort. Entries
 * below @lo were handed out: the merge may leave anything there.
 */
static void sort_queue(struct sonde_perfdata_reader *r, size_t lo, size_t n)
{
	size_t runs[PDR_MAX_RUNS + 1], nr = 1;
	struct pdr_qent *src = r->q, *dst, *tmp;

	if (n - lo < 2)
		return;
	runs[0] = lo;
	for (size_t i = lo + 1; i < n; i++) {
		if (!qent_less(&src[i], &src[i - 1]))
			continue;
		if (nr == PDR_MAX_RUNS)
			goto fallback;
		runs[nr++] = i;
	}
	if (nr == 1)
		return;
	if (r->q_tmp_cap < n) {
		free(r->q_tmp);
		r->q_tmp = malloc(r->q_cap * sizeof(*r->q_tmp));
		r->q_tmp_cap = r->q_tmp ? r->q_cap : 0;
		if (!r->q_tmp)
			goto fallback;
	}
	dst = r->q_tmp;
	runs[nr] = n;
	while (nr > 1) {
		size_t m = 0;

		for (size_t k = 0; k < nr; k += 2) {
			size_t from = runs[k], mid = runs[k + 1];
			size_t hi = k + 2 <= nr ? runs[k + 2] : n;
			size_t a = from, b = mid, o = from;

			if (k + 1 == nr)
				hi = mid = n;
			while (a < mid && b < hi)
				dst[o++] = qent_less(&src[b], &src[a]) ? src[b++] : src[a++];
			memcpy(dst + o, src + a, (mid - a) * sizeof(*dst));
			o += mid - a;
			memcpy(dst + o, src + b, (hi - b) * sizeof(*dst));
			runs[m++] = from;
		}
		runs[m] = n;
		nr = m;
		tmp = src;
		src = dst;
		dst = tmp;
	}
	/* The sorted queue is wherever the last pass wrote: swap buffers. */
	if (src != r->q) {
		size_t cap = r->q_cap;

		r->q_tmp = r->q;
		r->q = src;
		r->q_cap = r->q_tmp_cap;
		r->q_tmp_cap = cap;
	}
	return;
fallback:
	qsort(src + lo, n - lo, sizeof(*src), qent_cmp);
}

/*
 * Releases the entries up to @limit. The queue stays where it is (the
 * entries before q_head were handed out; push() reclaims their room), and
 * a queue filled in order, as files of one ring or already sorted ones
 * are, is not looked through for runs to merge.
 */
static void flush(struct sonde_perfdata_reader *r, uint64_t limit)
{
	const struct pdr_qent *q;
	size_t lo, hi;

	if (r->q_unsorted)
		sort_queue(r, r->q_head, r->q_len);
	r->q_unsorted = false;
	q = r->q;
	/* First entry with time > limit. */
	lo = r->q_head;
	hi = r->q_len;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (q[mid].time <= limit)
			lo = mid + 1;
		else
			hi = mid;
	}
	r->q_ready = lo;
}

static int push(struct sonde_perfdata_reader *r, uint64_t time, uint64_t off, int attr_idx)
{
	struct pdr_qent *e;

	/* (Not before the first allocation: memmove of a NULL queue is UB.) */
	if (r->q_cap && r->q_len == r->q_cap && r->q_head >= r->q_cap / 4 * 3) {
		/* Mostly handed out: move the rest down, at most a quarter. */
		memmove(r->q, r->q + r->q_head, (r->q_len - r->q_head) * sizeof(*r->q));
		r->q_len -= r->q_head;
		r->q_ready -= r->q_head;
		r->q_head = 0;
	}
	if (r->q_len == r->q_cap) {
		size_t cap = r->q_cap ? r->q_cap * 2 : 4096;
		struct pdr_qent *nq = realloc(r->q, cap * sizeof(*nq));

		if (!nq)
			return -ENOMEM;
		r->q = nq;
		r->q_cap = cap;
	}
	e = &r->q[r->q_len];
	e->time = time;
	e->off = off;
	e->attr_idx = attr_idx;
	if (r->q_len > r->q_head && qent_less(e, e - 1))
		r->q_unsorted = true;
	r->q_len++;
	if (time > r->max_time)
		r->max_time = time;
	return 0;
}

/* Which event a kernel record belongs to, and its time (0 if it has none). */
static void classify(struct sonde_perfdata_reader *r, const uint8_t *p, uint32_t type,
		     uint16_t size, int *attr_idx, uint64_t *time)
{
	const struct pdr_attr *a0 = pdr_attr_get(r, 0);
	const struct pdr_attr *a;
	int idx = r->nr_attrs == 1 ? 0 : -1;

	*time = 0;
	if (!a0) {
		*attr_idx = -1;
		return;
	}
	if (type == SONDE_PERF_RECORD_SAMPLE) {
		if (r->nr_attrs > 1 && a0->sample_id_off >= 0 &&
		    8u + a0->sample_id_off + 8 <= size)
			idx = pdr_attr_of_id(r, pdr_rd64(r, p + 8 + a0->sample_id_off));
		a = pdr_attr_get(r, idx >= 0 ? idx : 0);
		if (a->sample_time_off > 0 && a->sample_time_off + 8u <= size)
			*time = pdr_rd64(r, p + a->sample_time_off);
	} else {
		if (r->nr_attrs > 1 && a0->trailer_id_off > 0 &&
		    8u + a0->trailer_size <= size)
			idx = pdr_attr_of_id(r, pdr_rd64(r, p + size - a0->trailer_id_off));
		a = pdr_attr_get(r, idx >= 0 ? idx : 0);
		if (a->trailer_time_off > 0 && 8u + a->trailer_size <= size)
			*time = pdr_rd64(r, p + size - a->trailer_time_off);
	}
	*attr_idx = idx;
}

void pdr_stream_round(struct sonde_perfdata_reader *r)
{
	r->nr_rounds++;
	if (!r->unordered) {
		flush(r, r->prev_round_max);
		r->prev_round_max = r->max_time;
	}
}

int pdr_stream_queue(struct sonde_perfdata_reader *r, const uint8_t *p, uint32_t type,
		     uint16_t size, uint64_t loc)
{
	int idx;
	uint64_t t;

	classify(r, p, type, size, &idx, &t);
	if (r->swap) {
		/* The base is writable for swapped inputs (see open). */
		const struct pdr_attr *a = pdr_attr_get(r, idx >= 0 ? idx : 0);
		struct sonde_record_fmt fmt = { 0 };

		if (a)
			fmt = a->fmt;
		if (sonde_record__swap(&fmt, (void *)(uintptr_t)p, size)) {
			pr_debug("perf.data: record at location %#llx does not swap; skipped\n",
				 (unsigned long long)loc);
			return 0;
		}
	}
	if (push(r, t, loc, idx))
		return -ENOMEM;
	if (loc & PDR_ZLOC)
		pdr_chunk_ref(r, loc);
	if (r->unordered)
		r->q_ready = r->q_len;
	return 0;
}

/* Consumes one header-type record. Returns bytes to skip after it, or <0. */
static int64_t user_record(struct sonde_perfdata_reader *r, uint64_t off,
			   uint32_t type, uint16_t size)
{
	const uint8_t *p = pdr_ptr(r, off);

	switch (type) {
	case SONDE_PERF_RECORD_HEADER_ATTR: {
		uint32_t asz;

		if (size < 16)
			return pdr_fail(r, off, "HEADER_ATTR record too short (%u bytes)", size);
		asz = pdr_rd32(r, p + 12);
		if (!asz)
			asz = SONDE_PERF_ATTR_SIZE_VER0;
		if (asz > size - 8u)
			return pdr_fail(r, off, "HEADER_ATTR attr.size %u exceeds record size %u",
					asz, size);
		return pdr_add_attr(r, off + 8, asz, p + 8 + asz, (size - 8u - asz) / 8);
	}
	case SONDE_PERF_RECORD_HEADER_FEATURE: {
		uint64_t feat;

		if (size < 16)
			return pdr_fail(r, off, "HEADER_FEATURE record too short (%u bytes)", size);
		feat = pdr_rd64(r, p + 8);
		if (size == 16 || feat >= SONDE_FEAT_MAX)
			return 0; /* end-of-features marker or unknown */
		return pdr_parse_feature(r, (int)feat, off + 16, size - 16u);
	}
	case SONDE_PERF_RECORD_HEADER_TRACING_DATA: {
		uint32_t blob;

		if (size < 12)
			return pdr_fail(r, off, "TRACING_DATA record too short");
		blob = pdr_rd32(r, p + 8);
		r->feat_bits[0] |= 1ULL << SONDE_FEAT_TRACING_DATA;
		r->tracing_off = off + size;
		r->tracing_len = blob;
		/* The blob follows the record in the stream. */
		return blob;
	}
	case SONDE_PERF_RECORD_AUXTRACE:
		if (size < 16)
			return pdr_fail(r, off, "AUXTRACE record too short");
		return (int64_t)pdr_rd64(r, p + 8);
	case SONDE_PERF_RECORD_FINISHED_ROUND:
		pdr_stream_round(r);
		return 0;
	case SONDE_PERF_RECORD_HEADER_BUILD_ID:
		return pdr_parse_feature(r, SONDE_FEAT_BUILD_ID, off, size);
	case SONDE_PERF_RECORD_COMPRESSED:
	case SONDE_PERF_RECORD_COMPRESSED2:
		return pdr_zstd_record(r, off, type, size);
	default:
		return 0;
	}
}

static void scan_end(struct sonde_perfdata_reader *r)
{
	if (r->zstd)
		pdr_zstd_finish(r);
	flush(r, UINT64_MAX);
}

/*
 * The same for a pipe read as it arrives: each record is made readable in
 * the input window, consumed there (header-type records) or copied into a
 * slab and queued, so the window only ever holds the record at hand and
 * reads block only when no record is ready to hand out.
 */
static int scan_stream(struct sonde_perfdata_reader *r)
{
	if (!r->pos)
		r->pos = r->data_off;
	while (r->q_head == r->q_ready && !r->scan_done) {
		uint64_t off = r->pos, left, loc;
		const uint8_t *p;
		uint32_t type;
		uint16_t size;
		int err;

		err = pdr_in_need(r, off, 8);
		if (err == -ENOMEM)
			return err;
		if (err)
			goto done; /* a read error, recorded with its offset */
		left = r->len - off;
		if (!left || (left < 8 && pdr_in_stopped(r)))
			goto done;
		if (left < 8) {
			pdr_fail(r, off, "truncated record header (%llu bytes left)",
				 (unsigned long long)left);
			goto done;
		}
		p = pdr_ptr(r, off);
		type = pdr_rd32(r, p);
		size = pdr_rd16(r, p + 6);
		if (size < 8) {
			pdr_fail(r, off, "record type %u has size %u (< 8)", type, size);
			goto done;
		}
		err = pdr_in_need(r, off, size);
		if (err == -ENOMEM)
			return err;
		if (err)
			goto done;
		left = r->len - off;
		if (size > left) {
			if (!pdr_in_stopped(r))
				pdr_fail(r, off, "record type %u of %u bytes runs past the end of the data (%llu bytes left): file truncated",
					 type, size, (unsigned long long)left);
			goto done;
		}
		p = pdr_ptr(r, off);
		r->pos = off + size;
		if (type < PDR_NR_TYPES)
			r->nr_type[type]++;
		if (type >= SONDE_PERF_RECORD_USER_TYPE_START) {
			int64_t skip = user_record(r, off, type, size);
			uint64_t got;

			if (skip < 0) {
				if (skip == -ENOMEM)
					return -ENOMEM;
				goto done;
			}
			/* The window moves on: script needs the formats later. */
			if (type == SONDE_PERF_RECORD_HEADER_TRACING_DATA)
				got = pdr_in_copy(r, r->pos, (uint64_t)skip, &r->tracing_copy);
			else
				got = skip ? pdr_in_skip(r, r->pos, (uint64_t)skip) : 0;
			if (got < (uint64_t)skip) {
				if (!pdr_in_stopped(r))
					pdr_fail(r, off, "record type %u announces %lld trailing bytes, only %llu left",
						 type, (long long)skip, (unsigned long long)got);
				goto done;
			}
			r->pos += (uint64_t)skip;
			continue;
		}
		p = pdr_slab_add(r, p, size, off, &loc);
		if (!p || pdr_stream_queue(r, p, type, size, loc))
			return -ENOMEM;
	}
	return 0;
done:
	r->scan_done = true;
	r->data_end = r->len;
	scan_end(r);
	return 0;
}

/* Scans until records are ready or the stream ends. */
static int scan(struct sonde_perfdata_reader *r)
{
	if (r->in)
		return scan_stream(r);
	if (!r->pos) {
		r->pos = r->data_off;
		pdr_ahead_start(r);
	}
	while (r->q_head == r->q_ready && !r->scan_done) {
		uint64_t off = r->pos, left = r->data_end - off;
		const uint8_t *p = r->base + off;
		uint32_t type;
		uint16_t size;

		/* r->pos is a record boundary here (blobs skipped). */
		pdr_ahead_progress(r);
		if (!left) {
			r->scan_done = true;
			break;
		}
		if (left < 8) {
			pdr_fail(r, off, "truncated record header (%llu bytes left)",
				 (unsigned long long)left);
			r->scan_done = true;
			break;
		}
		type = pdr_rd32(r, p);
		size = pdr_rd16(r, p + 6);
		if (size < 8) {
			pdr_fail(r, off, "record type %u has size %u (< 8)", type, size);
			r->scan_done = true;
			break;
		}
		if (size > left) {
			pdr_fail(r, off, "record type %u of %u bytes runs past the end of the data (%llu bytes left): file truncated",
				 type, size, (unsigned long long)left);
			r->scan_done = true;
			break;
		}
		r->pos = off + size;
		if (type < PDR_NR_TYPES)
			r->nr_type[type]++;
		if (type >= SONDE_PERF_RECORD_USER_TYPE_START) {
			int64_t skip = user_record(r, off, type, size);

			if (skip < 0) {
				if (skip == -ENOMEM)
					return -ENOMEM;
				r->scan_done = true;
				break;
			}
			if ((uint64_t)skip > r->data_end - r->pos) {
				pdr_fail(r, off, "record type %u announces %lld trailing bytes, only %llu left",
					 type, (long long)skip,
					 (unsigned long long)(r->data_end - r->pos));
				r->scan_done = true;
				break;
			}
			r->pos += (uint64_t)skip;
			continue;
		} else if (pdr_stream_queue(r, p, type, size, off)) {
			return -ENOMEM;
		}
	}
	if (r->scan_done)
		scan_end(r);
	return 0;
}

/*
 * Peak RSS: pages of the mapping below every record still queued have been
 * handed out and are released every 4 MiB. They fault back in from the
 * file if a caller touches an old record again (so pointers stay valid);
 * swapped files are skipped because their pages were rewritten in place.
 */
#define PDR_DROP_STEP (4ULL << 20)
/*
 * Released in whole 2 MiB blocks: a range ending inside a folio mapped
 * with one PMD entry unmaps all of it, the part still ahead included.
 */
#define PDR_DROP_ALIGN (2ULL << 20)

static void drop_consumed(struct sonde_perfdata_reader *r)
{
	uint64_t low = r->pos, page = (uint64_t)sysconf(_SC_PAGESIZE);

	if (!r->mapped || r->swap || r->pos < r->dropped + PDR_DROP_STEP)
		return;
	for (size_t i = r->q_head; i < r->q_len; i++)
		if (r->q[i].off < low)
			low = r->q[i].off;
	low &= ~(PDR_DROP_ALIGN - 1);
	if (low > r->dropped + page) {
		uint64_t from = r->dropped & ~(page - 1);

		if (!pdr_ahead_drop(r, from, low))
			madvise((void *)(uintptr_t)(r->base + from), low - from,
				MADV_DONTNEED);
		r->dropped = low;
	}
}

int pdr_stream_next(struct sonde_perfdata_reader *r, struct sonde_perfdata_record *rec)
{
	const struct pdr_qent *e;
	const uint8_t *p;

	if (r->release)
		pdr_chunk_release(r);
	if (r->q_head == r->q_ready) {
		int err;

		drop_consumed(r);
		err = scan(r);
		if (err)
			return err;
	}
	if (r->q_head == r->q_ready) {
		if (r->err_code && !r->err_returned) {
			r->err_returned = true;
			return -r->err_code;
		}
		return 0;
	}
	e = &r->q[r->q_head++];
	p = pdr_rec_at(r, e->off, &rec->offset);
	if (r->in && (e->off & PDR_ZLOC))
		pdr_chunk_unref(r, e->off);
	rec->hdr = (const void *)p;
	/* Kernel records are in host order now (swapped when scanned). */
	memcpy(&rec->type, p, 4);
	memcpy(&rec->misc, p + 4, 2);
	memcpy(&rec->size, p + 6, 2);
	rec->time = e->time;
	rec->attr_idx = e->attr_idx;
	if (rec->size >= PDR_PREFETCH_MIN_SIZE)
		pdr_prefetch_next(r);
	if (rec->time > r->last_time)
		r->last_time = rec->time;
	return 1;
}
