// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The perf ring buffer reader. The kernel publishes data_head after writing
 * the records before it, so we load it with acquire ordering; we publish
 * data_tail with release ordering after we are done with the bytes, so the
 * kernel cannot overwrite a record we are still reading.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>
#include "sonde/ring.h"
#include "sonde/sys.h"
#include "core_priv.h"

/* A record is at most 64 KiB (u16 size), so one bounce buffer fits all. */
#define BOUNCE_SIZE 65536

struct sonde_ring {
	int fd;
	bool overwrite;
	bool paused;
	bool have_prev;
	size_t page_size;
	void *base;
	size_t map_len;
	unsigned char *data;
	uint64_t size; /* data area bytes, power of two */
	uint64_t mask;
	/* Current pass: bytes [pos, end) of the stream remain. */
	uint64_t pos;
	uint64_t end;
	/*
	 * Records [tail, handed) were handed and not yet given back; handed
	 * stays put when a bad header makes pos skip the rest of a pass.
	 */
	uint64_t tail;
	uint64_t handed;
	/* Overwrite mode: where the previous snapshot started. */
	uint64_t prev_start;
	unsigned char *bounce;
	void *aux;
	size_t aux_len;
	/* Snapshot reads: aux_head at the previous one, and whether the area
	 * is known to have wrapped (then every snapshot is the whole area). */
	uint64_t aux_prev;
	bool aux_wrapped;
	/* intel_pt's reference buffer for large areas (see ref_wrapped()). */
	unsigned char *aux_ref;
	size_t aux_ref_size;
};

static bool is_pow2(size_t n)
{
	return n && !(n & (n - 1));
}

struct sonde_ring *sonde_ring__new(int fd, const struct sonde_ring_opts *opts)
{
	size_t pages;
	long psz;
	struct sonde_ring *r;
	void *base;

	if (!OPTS_VALID(opts, sonde_ring_opts))
		return lib_err_ptr(EINVAL);
	pages = OPTS_GET(opts, data_pages, 0);
	if (!pages)
		pages = 128;
	if (!is_pow2(pages) || pages > (1UL << 30)) {
		pr_warn("ring: %zu data pages is not a power of two\n", pages);
		return lib_err_ptr(EINVAL);
	}
	psz = sysconf(_SC_PAGESIZE);
	if (psz <= 0)
		psz = 4096;
	r = calloc(1, sizeof(*r));
	if (!r)
		return lib_err_ptr(ENOMEM);
	r->fd = fd;
	r->overwrite = OPTS_GET(opts, overwrite, false);
	r->page_size = (size_t)psz;
	r->map_len = (pages + 1) * r->page_size;
	r->bounce = malloc(BOUNCE_SIZE);
	if (!r->bounce) {
		free(r);
		return lib_err_ptr(ENOMEM);
	}
	/* Read-only tells the kernel we never move data_tail: overwrite. */
	base = sonde_sys_ops()->mmap(NULL, r->map_len,
				     PROT_READ | (r->overwrite ? 0 : PROT_WRITE),
				     MAP_SHARED, fd, 0);
	if (base == MAP_FAILED) {
		int err = errno;

		if (err == EPERM)
			pr_warn("ring: mapping %zu KiB exceeds kernel.perf_event_mlock_kb; raise it or use fewer pages\n",
				r->map_len / 1024);
		free(r->bounce);
		free(r);
		return lib_err_ptr(err);
	}
	r->base = base;
	r->data = (unsigned char *)base + r->page_size;
	r->size = pages * r->page_size;
	/*
	 * Since 4.1 the control page says where the data area is
	 * (data_offset, data_size); older kernels leave both 0 and put it
	 * right after the page. Take the kernel's word when it gives one.
	 */
	{
		const struct sonde_perf_event_mmap_page *pc = base;

		if (pc->data_size) {
			if (!is_pow2(pc->data_size) || pc->data_offset < r->page_size ||
			    pc->data_offset > r->map_len ||
			    pc->data_size > r->map_len - pc->data_offset) {
				pr_warn("ring: the kernel's data area (offset %llu, %llu bytes) is not in the %zu-byte mapping\n",
					(unsigned long long)pc->data_offset,
					(unsigned long long)pc->data_size, r->map_len);
				sonde_sys_ops()->munmap(base, r->map_len);
				free(r->bounce);
				free(r);
				return lib_err_ptr(EINVAL);
			}
			r->data = (unsigned char *)base + pc->data_offset;
			r->size = pc->data_size;
		}
	}
	r->mask = r->size - 1;
	return r;
}

void sonde_ring__free(struct sonde_ring *r)
{
	if (!r)
		return;
	if (r->paused)
		sonde_ring__pause(r, false);
	if (r->aux)
		sonde_sys_ops()->munmap(r->aux, r->aux_len);
	if (r->base)
		sonde_sys_ops()->munmap(r->base, r->map_len);
	free(r->bounce);
	free(r->aux_ref);
	free(r);
}

int sonde_ring__fd(const struct sonde_ring *r)
{
	return r->fd;
}

bool sonde_ring__overwrite(const struct sonde_ring *r)
{
	return r->overwrite;
}

size_t sonde_ring__data_size(const struct sonde_ring *r)
{
	return r->size;
}

struct sonde_perf_event_mmap_page *sonde_ring__control(const struct sonde_ring *r)
{
	return r->base;
}

int sonde_ring__add_event(struct sonde_ring *r, int fd)
{
	if (sonde_sys_ops()->ioctl(fd, SONDE_PERF_EVENT_IOC_SET_OUTPUT,
				   (unsigned long)r->fd) < 0)
		return lib_err(errno);
	return 0;
}

int sonde_ring__pause(struct sonde_ring *r, bool pause)
{
	if (sonde_sys_ops()->ioctl(r->fd, SONDE_PERF_EVENT_IOC_PAUSE_OUTPUT,
				   pause ? 1 : 0) < 0)
		return lib_err(errno);
	r->paused = pause;
	return 0;
}

/* Copies @len bytes of the stream at @pos, wrapping at the buffer end. */
static void ring_copy(const struct sonde_ring *r, void *dst, uint64_t pos,
		      size_t len)
{
	uint64_t off = pos & r->mask;
	size_t first = len;

	if (off + len > r->size)
		first = (size_t)(r->size - off);
	memcpy(dst, r->data + off, first);
	if (first < len)
		memcpy((unsigned char *)dst + first, r->data, len - first);
}

/*
 * Overwrite mode: the kernel writes backwards, so data_head is the newest
 * record and older ones follow it. Walk forward from head until the buffer
 * size is covered, an unwritten (zero) header shows up, or a record would
 * reach bytes already overwritten by newer ones.
 */
static uint64_t backward_range_end(struct sonde_ring *r, uint64_t head)
{
	uint64_t pos = head;
	struct sonde_perf_event_header h;

	while (pos - head < r->size) {
		if (pos - head + sizeof(h) > r->size)
			break;
		ring_copy(r, &h, pos, sizeof(h));
		if (h.size < sizeof(h) || h.size % 8 ||
		    pos - head + h.size > r->size)
			break;
		pos += h.size;
		if (pos == 0) /* reached the first byte ever written */
			break;
	}
	return pos;
}

int64_t sonde_ring__read_init(struct sonde_ring *r)
{
	struct sonde_perf_event_mmap_page *pc = r->base;
	uint64_t head;

	if (!r->overwrite) {
		head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
		r->pos = pc->data_tail;
		r->end = head;
		if ((head | r->pos) & 7) {
			/* The kernel keeps both 8-byte aligned: never misread. */
			pr_warn("ring: misaligned data_head %llu / data_tail %llu; skipping\n",
				(unsigned long long)head, (unsigned long long)r->pos);
			r->pos = r->tail = r->handed = head;
			return 0;
		}
		if (head - r->pos > r->size) {
			/* Cannot happen with a sane kernel: resync, say so. */
			pr_warn("ring: data_head %llu is %llu bytes past data_tail on a %llu-byte buffer; skipping\n",
				(unsigned long long)head,
				(unsigned long long)(head - r->pos),
				(unsigned long long)r->size);
			r->pos = head;
		}
		r->tail = r->handed = r->pos;
		return (int64_t)(r->end - r->pos);
	}
	if (!r->paused) {
		int err = sonde_ring__pause(r, true);

		if (err)
			return err;
	}
	head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
	r->pos = head;
	r->end = head && !(head & 7) ? backward_range_end(r, head) : head;
	/* Do not hand the records of the previous snapshot again. */
	if (r->have_prev && r->prev_start - head <= r->end - head)
		r->end = r->prev_start;
	r->prev_start = head;
	r->have_prev = true;
	r->tail = r->handed = r->pos;
	return (int64_t)(r->end - r->pos);
}

int sonde_ring__read_event(struct sonde_ring *r,
			   const struct sonde_perf_event_header **ev)
{
	struct sonde_perf_event_header h;
	uint64_t avail = r->end - r->pos, off;

	*ev = NULL;
	if (!avail)
		return 0;
	if (avail < sizeof(h))
		goto corrupt;
	ring_copy(r, &h, r->pos, sizeof(h));
	/* Records are 8-byte multiples: anything else would misalign the rest. */
	if (h.size < sizeof(h) || h.size % 8 || h.size > avail)
		goto corrupt;
	off = r->pos & r->mask;
	if (off + h.size <= r->size) {
		*ev = (const void *)(r->data + off);
	} else {
		ring_copy(r, r->bounce, r->pos, h.size);
		*ev = (const void *)r->bounce;
	}
	r->pos += h.size;
	r->handed = r->pos;
	return 1;
corrupt:
	pr_warn("ring: bad record header (size %u) at offset %llu with %llu bytes left; skipping the rest of this pass\n",
		avail < sizeof(h) ? (unsigned)avail : (unsigned)h.size,
		(unsigned long long)(r->pos & r->mask),
		(unsigned long long)avail);
	r->pos = r->end;
	return lib_err(SONDE_ERR_FORMAT);
}

void sonde_ring__consume(struct sonde_ring *r)
{
	struct sonde_perf_event_mmap_page *pc = r->base;

	if (!r->overwrite)
		__atomic_store_n(&pc->data_tail, r->pos, __ATOMIC_RELEASE);
	r->tail = r->handed = r->pos;
}

int sonde_ring__pending(const struct sonde_ring *r, size_t len,
			struct iovec iov[2])
{
	uint64_t off = r->tail & r->mask, first;

	if (len > r->handed - r->tail)
		len = (size_t)(r->handed - r->tail);
	if (!len)
		return 0;
	first = r->size - off;
	iov[0].iov_base = r->data + off;
	if (len <= first) {
		iov[0].iov_len = len;
		return 1;
	}
	/* The run wraps the buffer end: its rest starts the data area. */
	iov[0].iov_len = (size_t)first;
	iov[1].iov_base = r->data;
	iov[1].iov_len = len - (size_t)first;
	return 2;
}

void sonde_ring__read_done(struct sonde_ring *r)
{
	if (r->overwrite) {
		if (r->paused)
			sonde_ring__pause(r, false);
		return;
	}
	sonde_ring__consume(r);
}

int sonde_ring__map_aux(struct sonde_ring *r, size_t pages, bool overwrite)
{
	struct sonde_perf_event_mmap_page *pc = r->base;
	void *aux;
	size_t len;

	if (r->aux)
		return lib_err(EBUSY);
	/* The control page is read-only in overwrite mode: no aux_offset. */
	if (r->overwrite)
		return lib_err(EINVAL);
	if (!is_pow2(pages) || pages > (1UL << 30))
		return lib_err(EINVAL);
	len = pages * r->page_size;
	pc->aux_offset = r->map_len;
	pc->aux_size = len;
	aux = sonde_sys_ops()->mmap(NULL, len,
				    PROT_READ | (overwrite ? 0 : PROT_WRITE),
				    MAP_SHARED, r->fd, (off_t)r->map_len);
	if (aux == MAP_FAILED)
		return lib_err(errno);
	r->aux = aux;
	r->aux_len = len;
	return 0;
}

/* Stream position where the span ends and its size, for a normal read. */
static uint64_t aux_forward(struct sonde_ring *r, uint64_t head, uint64_t *n)
{
	struct sonde_perf_event_mmap_page *pc = r->base;
	uint64_t tail = pc->aux_tail;

	*n = head - tail;
	/* Overwritten (the PMU ignored aux_tail): keep the newest bytes. */
	if (*n > r->aux_len)
		*n = r->aux_len;
	return head;
}

/*
 * The kernel zeroes a new AUX area: written bytes near its end mean the
 * PMU has been through all of it, which is how perf tells a snapshot area
 * that wrapped when the PMU gives aux_head as an offset inside the area.
 * perf's intel_pt and intel_bts look at the last 4 KiB (@tail 0); its
 * cs_etm and arm_spe at the last @tail bytes from the head on, if the
 * head lies among them (@head < the area here).
 */
static bool aux_reached_end(const struct sonde_ring *r, size_t tail,
			    uint64_t head)
{
	const uint64_t *w = r->aux;
	size_t nw = r->aux_len / 8, from;

	if (!tail) {
		from = nw > 512 ? nw - 512 : 0;
	} else {
		from = r->aux_len > tail ? (r->aux_len - tail) / 8 : 0;
		if (head / 8 > from)
			from = (size_t)(head / 8);
	}

	for (size_t i = from; i < nw; i++)
		if (w[i])
			return true;
	return false;
}

/*
 * perf's intel_pt reference buffer (intel_pt_find_snapshot() with
 * -S SIZE over 64 KiB): a snapshot counts as wrapped when the head lies
 * inside the area's last @ref bytes, or those bytes differ from the
 * reference copy; then the copy takes the @ref bytes before the head
 * (the part before offset 0 first, the area's end after it, as perf
 * copies them). The region compared never moves (perf 6.1 sets its
 * offset once), so after the first snapshot the copy seldom matches and
 * nearly every snapshot stores the whole area, as perf's do.
 */
static bool ref_wrapped(struct sonde_ring *r, uint64_t h)
{
	const unsigned char *d = r->aux;
	size_t len = r->aux_len, ref = r->aux_ref_size, at = len - ref;
	bool wrapped = (h > at && h < len) ||
		       memcmp(r->aux_ref, d + at, ref) != 0;

	if (h >= ref) {
		memcpy(r->aux_ref, d + h - ref, ref);
	} else {
		memcpy(r->aux_ref, d, (size_t)h);
		memcpy(r->aux_ref + h, d + len - (ref - h), ref - (size_t)h);
	}
	return wrapped;
}

/* The reference copy of @ref bytes, zero like the new area; 0 = none. */
static int aux_ref_setup(struct sonde_ring *r, size_t ref)
{
	if (r->aux_ref || !ref || ref >= r->aux_len)
		return 0;
	r->aux_ref = calloc(1, ref);
	if (!r->aux_ref)
		return lib_err(ENOMEM);
	r->aux_ref_size = ref;
	return 0;
}

/*
 * A snapshot of an overwrite area: in overwrite mode the PMU driver says
 * what aux_head is (a running position or an offset inside the area), so
 * the area counts as wrapped once the head went back, moved by the area's
 * size or more, or the PMU wrote near its end (aux_reached_end()); from
 * then on every snapshot
 * is the whole area, newest byte last. Before that, the bytes since the
 * previous snapshot. With a reference buffer (intel_pt, large areas) the
 * question is asked again at each snapshot, by ref_wrapped().
 */
static uint64_t aux_snapshot(struct sonde_ring *r, uint64_t head, size_t tail,
			     uint64_t *n)
{
	uint64_t prev = r->aux_prev, mask = r->aux_len - 1;
	bool wrapped;

	r->aux_prev = head;
	if (r->aux_ref) {
		wrapped = ref_wrapped(r, head & mask);
		if (!wrapped) {
			/* Offsets in the area: the new bytes may cross its end. */
			*n = ((head & mask) - (prev & mask)) & mask;
			return (prev & mask) + *n;
		}
	} else {
		if (!r->aux_wrapped &&
		    (head < prev || head - prev >= r->aux_len ||
		     head >= r->aux_len || aux_reached_end(r, tail, head)))
			r->aux_wrapped = true;
		wrapped = r->aux_wrapped;
	}
	if (!wrapped) {
		*n = head - prev;
		return head;
	}
	*n = r->aux_len;
	/* As perf does: a running position past the whole area. */
	return head + r->aux_len;
}

int64_t sonde_ring__aux_read_span(struct sonde_ring *r,
				  const struct sonde_ring_aux_opts *opts,
				  int (*cb)(const struct sonde_aux_span *span,
					    void *ctx),
				  void *ctx)
{
	struct sonde_perf_event_mmap_page *pc;
	struct sonde_aux_span sp;
	uint64_t head, end, n, off;
	size_t limit, align;
	bool snapshot;
	int err;

	if (!r || !cb || !OPTS_VALID(opts, sonde_ring_aux_opts))
		return lib_err(EINVAL);
	if (!r->aux)
		return lib_err(ENODEV);
	pc = r->base;
	snapshot = OPTS_GET(opts, snapshot, false);
	limit = OPTS_GET(opts, snapshot_size, 0);
	align = OPTS_GET(opts, alignment, 0);
	if (snapshot && (err = aux_ref_setup(r, OPTS_GET(opts, snapshot_ref_size, 0))))
		return err;
	head = __atomic_load_n(&pc->aux_head, __ATOMIC_ACQUIRE);
	end = snapshot ? aux_snapshot(r, head, OPTS_GET(opts, snapshot_tail, 0), &n)
		       : aux_forward(r, head, &n);
	if (snapshot && limit && n > limit)
		n = limit;
	if (!n)
		return 0;
	memset(&sp, 0, sizeof(sp));
	sp.offset = end - n;
	sp.size = n;
	off = sp.offset & (r->aux_len - 1);
	sp.len[0] = (size_t)(n < r->aux_len - off ? n : r->aux_len - off);
	sp.data[0] = (unsigned char *)r->aux + off;
	sp.len[1] = (size_t)(n - sp.len[0]);
	sp.data[1] = sp.len[1] ? r->aux : NULL;
	/*
	 * Whole records only, as perf cuts them: the first part loses the
	 * bytes past its last whole record (with intel_bts, what the PMU
	 * left unused before the area's end, or a record still being
	 * written). They count as read all the same.
	 */
	if (align) {
		size_t cut = sp.len[0] % align;

		sp.len[0] -= cut;
		sp.size -= cut;
	}
	err = sp.size ? cb(&sp, ctx) : 0;
	if (err)
		return err < 0 ? err : -ECANCELED;
	/* The kernel ignores aux_tail in overwrite mode: leave it. */
	if (!snapshot)
		__atomic_store_n(&pc->aux_tail, head, __ATOMIC_RELEASE);
	return (int64_t)sp.size;
}

struct aux_parts {
	int (*cb)(const void *data, size_t len, uint64_t offset, void *ctx);
	void *ctx;
};

static int aux_each_part(const struct sonde_aux_span *sp, void *arg)
{
	struct aux_parts *p = arg;
	int err = p->cb(sp->data[0], sp->len[0], sp->offset, p->ctx);

	if (!err && sp->len[1])
		err = p->cb(sp->data[1], sp->len[1], sp->offset + sp->len[0],
			    p->ctx);
	return err;
}

int64_t sonde_ring__aux_read(struct sonde_ring *r,
			     int (*cb)(const void *data, size_t len,
				       uint64_t offset, void *ctx),
			     void *ctx)
{
	struct aux_parts p = { .cb = cb, .ctx = ctx };

	if (!r || !cb)
		return lib_err(EINVAL);
	if (!r->aux)
		return lib_err(ENODEV);
	return sonde_ring__aux_read_span(r, NULL, aux_each_part, &p);
}
