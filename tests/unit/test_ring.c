// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Ring buffer: a simulated kernel (through the seam's mmap/ioctl) writes
 * records at every wrap offset, forward and backward; then real software
 * events (cpu-clock, task-clock, dummy side-band) through a real mapping.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/uio.h>
#include <stdint.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>
#include "sonde/sonde.h"
#include "sonde/ring.h"

/* ---- simulated kernel ---- */

#define SIM_PAGES 2
static unsigned char *sim_base;
static size_t sim_len;
static long sim_psz;
static int sim_paused;
static int sim_pause_calls;
static int sim_set_output_to = -1;
static unsigned char *sim_aux;
/* The kernel's data_offset / data_size (4.1+); 0 for an older kernel. */
static uint64_t sim_kdata_offset, sim_kdata_size;

static void *sim_mmap(void *addr, size_t len, int prot, int flags, int fd,
		      off_t off)
{
	(void)addr; (void)prot; (void)flags; (void)fd;
	if (off) {
		/* AUX area: a separate block. */
		void *p = aligned_alloc((size_t)sim_psz, len);

		memset(p, 0, len);
		sim_aux = p;
		return p;
	}
	sim_len = len;
	sim_base = aligned_alloc((size_t)sim_psz, len);
	memset(sim_base, 0, len);
	((struct sonde_perf_event_mmap_page *)sim_base)->data_offset = sim_kdata_offset;
	((struct sonde_perf_event_mmap_page *)sim_base)->data_size = sim_kdata_size;
	return sim_base;
}

static int sim_munmap(void *addr, size_t len)
{
	(void)len;
	free(addr);
	return 0;
}

static int sim_ioctl(int fd, unsigned long req, unsigned long arg)
{
	(void)fd;
	if (req == SONDE_PERF_EVENT_IOC_PAUSE_OUTPUT) {
		sim_paused = (int)arg;
		sim_pause_calls++;
		return 0;
	}
	if (req == SONDE_PERF_EVENT_IOC_SET_OUTPUT) {
		sim_set_output_to = (int)arg;
		return 0;
	}
	errno = ENOTTY;
	return -1;
}

static const struct sonde_sys_ops sim_ops = {
	.mmap = sim_mmap, .munmap = sim_munmap, .ioctl = sim_ioctl,
};

static struct sonde_perf_event_mmap_page *sim_pc(void)
{
	return (void *)sim_base;
}

static size_t sim_data_size(void)
{
	return SIM_PAGES * (size_t)sim_psz;
}

/* Writes @len bytes of the stream at @pos into the simulated data area. */
static void sim_put(uint64_t pos, const void *src, size_t len)
{
	unsigned char *data = sim_base + sim_psz;
	size_t size = sim_data_size();

	for (size_t i = 0; i < len; i++)
		data[(pos + i) & (size - 1)] = ((const unsigned char *)src)[i];
}

/* Record n: size 8..(8+8*k), body filled with a pattern derived from n. */
static size_t rec_size(unsigned n)
{
	return 8 + 8 * ((n * 7) % 41);
}

static void make_rec(unsigned n, unsigned char *buf)
{
	struct sonde_perf_event_header h = {
		.type = SONDE_PERF_RECORD_SAMPLE, .misc = (uint16_t)n,
		.size = (uint16_t)rec_size(n),
	};

	memcpy(buf, &h, sizeof(h));
	for (size_t i = sizeof(h); i < h.size; i++)
		buf[i] = (unsigned char)(n * 31 + i);
}

static void check_rec(unsigned n, const struct sonde_perf_event_header *ev)
{
	unsigned char want[400];

	make_rec(n, want);
	assert_int_equal(ev->size, rec_size(n));
	assert_memory_equal(ev, want, rec_size(n));
}

static int setup_sim(void **state)
{
	(void)state;
	sim_psz = sysconf(_SC_PAGESIZE);
	sonde_sys_set_ops(&sim_ops);
	return 0;
}

static int teardown_sim(void **state)
{
	(void)state;
	sonde_sys_set_ops(NULL);
	return 0;
}

/*
 * Forward mode: for every 8-byte start offset in the buffer, the kernel
 * writes records until the buffer is nearly full, we read them all, and
 * data_tail ends where data_head was.
 */
static void test_forward_every_wrap_offset(void **state)
{
	SONDE_OPTS(sonde_ring_opts, o, .data_pages = SIM_PAGES);
	size_t size;
	unsigned char buf[400];
	unsigned wrapped_seen = 0;

	(void)state;
	struct sonde_ring *r = sonde_ring__new(3, &o);

	assert_non_null(r);
	size = sonde_ring__data_size(r);
	assert_int_equal(size, sim_data_size());
	for (uint64_t start = 0; start < size; start += 8) {
		uint64_t head = start + 3 * size; /* as after a few laps */
		unsigned first = (unsigned)start, n = first;
		const struct sonde_perf_event_header *ev;
		int64_t avail;

		sim_pc()->data_tail = head;
		while (head + rec_size(n) - sim_pc()->data_tail <= size) {
			make_rec(n, buf);
			sim_put(head, buf, rec_size(n));
			head += rec_size(n);
			n++;
		}
		sim_pc()->data_head = head;
		avail = sonde_ring__read_init(r);
		assert_int_equal(avail, head - sim_pc()->data_tail);
		for (unsigned i = first; i < n; i++) {
			uint64_t at = 0;

			assert_int_equal(sonde_ring__read_event(r, &ev), 1);
			check_rec(i, ev);
			at = (uint64_t)((const unsigned char *)ev -
					(sim_base + sim_psz));
			if (at >= size)
				wrapped_seen++; /* came from the bounce buffer */
		}
		assert_int_equal(sonde_ring__read_event(r, &ev), 0);
		assert_null(ev);
		sonde_ring__read_done(r);
		assert_int_equal(sim_pc()->data_tail, head);
	}
	/* Some records really crossed the end and came out whole. */
	assert_true(wrapped_seen > 100);
	sonde_ring__free(r);
}

/* consume() gives back what was handed so far; the pass goes on. */
static void test_forward_consume_mid_pass(void **state)
{
	SONDE_OPTS(sonde_ring_opts, o, .data_pages = SIM_PAGES);
	struct sonde_perf_event_header h = { .type = 9, .size = 24 };
	const struct sonde_perf_event_header *ev;

	(void)state;
	struct sonde_ring *r = sonde_ring__new(3, &o);

	assert_non_null(r);
	for (int i = 0; i < 3; i++)
		sim_put((uint64_t)i * 24, &h, sizeof(h));
	sim_pc()->data_head = 72;
	assert_int_equal(sonde_ring__read_init(r), 72);
	assert_int_equal(sonde_ring__read_event(r, &ev), 1);
	assert_int_equal(sim_pc()->data_tail, 0);
	sonde_ring__consume(r);
	assert_int_equal(sim_pc()->data_tail, 24);
	assert_int_equal(sonde_ring__read_event(r, &ev), 1);
	sonde_ring__consume(r);
	assert_int_equal(sim_pc()->data_tail, 48);
	assert_int_equal(sonde_ring__read_event(r, &ev), 1);
	assert_int_equal(sonde_ring__read_event(r, &ev), 0);
	sonde_ring__read_done(r);
	assert_int_equal(sim_pc()->data_tail, 72);
	sonde_ring__free(r);
}

/*
 * data_offset / data_size (Linux 4.1+): the ring reads where the kernel
 * says the data area is, and refuses an area outside its mapping.
 */
static void test_kernel_data_area(void **state)
{
	SONDE_OPTS(sonde_ring_opts, o, .data_pages = 4);
	struct sonde_perf_event_header h = { .type = 9, .misc = 7, .size = 16 };
	const struct sonde_perf_event_header *ev;
	struct sonde_ring *r;

	(void)state;
	sim_kdata_offset = 3 * (uint64_t)sim_psz;
	sim_kdata_size = (uint64_t)sim_psz;
	r = sonde_ring__new(3, &o);
	assert_non_null(r);
	assert_int_equal(sonde_ring__data_size(r), sim_psz);
	/* The record sits where the kernel said, at the wrap of its size. */
	memcpy(sim_base + 4 * sim_psz - 8, &h, 8);
	sim_pc()->data_tail = (uint64_t)sim_psz - 8;
	sim_pc()->data_head = (uint64_t)sim_psz + 8;
	assert_int_equal(sonde_ring__read_init(r), 16);
	assert_int_equal(sonde_ring__read_event(r, &ev), 1);
	assert_int_equal(ev->misc, 7);
	assert_int_equal(ev->size, 16);
	sonde_ring__read_done(r);
	sonde_ring__free(r);

	/* Past the mapping, or not a power of two: refused. */
	sim_kdata_offset = 4 * (uint64_t)sim_psz;
	sim_kdata_size = 2 * (uint64_t)sim_psz;
	errno = 0;
	assert_null(sonde_ring__new(3, &o));
	assert_int_equal(errno, EINVAL);
	sim_kdata_offset = (uint64_t)sim_psz;
	sim_kdata_size = 3 * (uint64_t)sim_psz;
	assert_null(sonde_ring__new(3, &o));
	assert_int_equal(errno, EINVAL);
	sim_kdata_offset = sim_kdata_size = 0;
}

/* Concatenates the pending buffers of @r into @dst; returns the bytes. */
static size_t gather_pending(struct sonde_ring *r, size_t len,
			     unsigned char *dst, int *nr_iov)
{
	struct iovec iov[2];
	size_t got = 0;

	*nr_iov = sonde_ring__pending(r, len, iov);
	for (int i = 0; i < *nr_iov; i++) {
		const unsigned char *data = sim_base + sim_psz;

		/* The ring's own memory, never a copy. */
		assert_true((const unsigned char *)iov[i].iov_base >= data);
		assert_true((const unsigned char *)iov[i].iov_base +
			    iov[i].iov_len <= data + sim_data_size());
		memcpy(dst + got, iov[i].iov_base, iov[i].iov_len);
		got += iov[i].iov_len;
	}
	return got;
}

/*
 * pending(): at every start offset, the records handed since the last
 * consume are where the ring holds them, one buffer or two around the
 * wrap, with their bytes in stream order; a length limit takes a prefix,
 * and consume() empties it.
 */
static void test_forward_pending_every_wrap_offset(void **state)
{
	SONDE_OPTS(sonde_ring_opts, o, .data_pages = SIM_PAGES);
	/* A data area of SIM_PAGES pages of up to 64 KiB. */
	static unsigned char want[SIM_PAGES * 65536], got[SIM_PAGES * 65536];
	unsigned char buf[400];
	unsigned two = 0;
	size_t size;

	(void)state;
	struct sonde_ring *r = sonde_ring__new(3, &o);

	assert_non_null(r);
	size = sonde_ring__data_size(r);
	for (uint64_t start = 0; start < size; start += 8) {
		uint64_t head = start + 5 * size;
		const struct sonde_perf_event_header *ev;
		unsigned n = (unsigned)start / 8;
		size_t wlen = 0, glen;
		int nr;

		sim_pc()->data_tail = head;
		while (head + rec_size(n) - sim_pc()->data_tail <= size) {
			make_rec(n, buf);
			sim_put(head, buf, rec_size(n));
			head += rec_size(n);
			n++;
		}
		sim_pc()->data_head = head;
		assert_true(sonde_ring__read_init(r) > 0);
		assert_int_equal(gather_pending(r, SIZE_MAX, got, &nr), 0);
		assert_int_equal(nr, 0);
		/* Hand two thirds, then look at what is pending. */
		while (wlen < 2 * size / 3 && sonde_ring__read_event(r, &ev) == 1) {
			memcpy(want + wlen, ev, ev->size);
			wlen += ev->size;
		}
		glen = gather_pending(r, SIZE_MAX, got, &nr);
		assert_int_equal(glen, wlen);
		assert_memory_equal(got, want, wlen);
		two += nr == 2;
		/* A prefix only. */
		glen = gather_pending(r, wlen / 2, got, &nr);
		assert_int_equal(glen, wlen / 2);
		assert_memory_equal(got, want, wlen / 2);
		/* Nothing was given back yet; consume gives back all of it. */
		assert_int_equal(sim_pc()->data_tail, start + 5 * size);
		sonde_ring__consume(r);
		assert_int_equal(sim_pc()->data_tail, start + 5 * size + wlen);
		assert_int_equal(gather_pending(r, SIZE_MAX, got, &nr), 0);
		/* The rest of the pass: pending starts after the consumed part. */
		wlen = 0;
		while (sonde_ring__read_event(r, &ev) == 1) {
			memcpy(want + wlen, ev, ev->size);
			wlen += ev->size;
		}
		glen = gather_pending(r, SIZE_MAX, got, &nr);
		assert_int_equal(glen, wlen);
		assert_memory_equal(got, want, wlen);
		two += nr == 2;
		sonde_ring__read_done(r);
		assert_int_equal(sim_pc()->data_tail, head);
		assert_int_equal(gather_pending(r, SIZE_MAX, got, &nr), 0);
	}
	/* Many runs really wrapped and came as two buffers. */
	assert_true(two > 100);
	sonde_ring__free(r);
}

/* Bytes a bad header makes the pass skip are never pending. */
static void test_forward_pending_stops_at_corrupt(void **state)
{
	SONDE_OPTS(sonde_ring_opts, o, .data_pages = SIM_PAGES);
	struct sonde_perf_event_header h = { .type = 9, .size = 24 };
	struct sonde_perf_event_header bad = { .type = 9, .size = 12 };
	const struct sonde_perf_event_header *ev;
	struct iovec iov[2];

	(void)state;
	struct sonde_ring *r = sonde_ring__new(3, &o);

	assert_non_null(r);
	sonde_set_print(NULL);
	sim_put(0, &h, sizeof(h));
	sim_put(24, &bad, sizeof(bad));
	sim_pc()->data_head = 64;
	assert_int_equal(sonde_ring__read_init(r), 64);
	assert_int_equal(sonde_ring__read_event(r, &ev), 1);
	assert_int_equal(sonde_ring__read_event(r, &ev), -SONDE_ERR_FORMAT);
	assert_int_equal(sonde_ring__pending(r, SIZE_MAX, iov), 1);
	assert_ptr_equal(iov[0].iov_base, sim_base + sim_psz);
	assert_int_equal(iov[0].iov_len, 24);
	/* The pass still ends past the bad bytes. */
	sonde_ring__read_done(r);
	assert_int_equal(sim_pc()->data_tail, 64);
	sonde_set_print(sonde_set_print(NULL));
	sonde_ring__free(r);
}

/* A record whose size runs past data_head is refused, never misread. */
static void test_forward_corrupt_header(void **state)
{
	SONDE_OPTS(sonde_ring_opts, o, .data_pages = SIM_PAGES);
	struct sonde_perf_event_header h = { .type = 9, .size = 64 };
	struct sonde_perf_event_header zero = { .type = 9, .size = 0 };
	const struct sonde_perf_event_header *ev;

	(void)state;
	struct sonde_ring *r = sonde_ring__new(3, &o);

	assert_non_null(r);
	sonde_set_print(NULL);
	sim_put(0, &h, sizeof(h));
	sim_pc()->data_head = 32;
	assert_int_equal(sonde_ring__read_init(r), 32);
	assert_int_equal(sonde_ring__read_event(r, &ev), -SONDE_ERR_FORMAT);
	assert_int_equal(sonde_ring__read_event(r, &ev), 0);
	sonde_ring__read_done(r);
	assert_int_equal(sim_pc()->data_tail, 32);
	/* size 0 would loop forever in a naive reader. */
	sim_put(32, &zero, sizeof(zero));
	sim_pc()->data_head = 48;
	sonde_ring__read_init(r);
	assert_int_equal(sonde_ring__read_event(r, &ev), -SONDE_ERR_FORMAT);
	sonde_ring__read_done(r);
	/* head absurdly far ahead of tail: skipped with a warning. */
	sim_pc()->data_head = 48 + 10 * sim_data_size();
	assert_int_equal(sonde_ring__read_init(r), 0);
	sonde_set_print(sonde_set_print(NULL));
	sonde_ring__free(r);
}

/*
 * Backward (overwrite) mode: the kernel writes each record just below the
 * previous one. A snapshot hands the newest records first, stops before
 * the oldest partly overwritten one, pauses the output while reading and
 * does not repeat records already handed by the previous snapshot.
 */
static void test_backward_snapshot(void **state)
{
	SONDE_OPTS(sonde_ring_opts, o, .data_pages = SIM_PAGES,
		   .overwrite = true);
	unsigned char buf[400];
	const struct sonde_perf_event_header *ev;
	uint64_t head = 0;
	unsigned n;

	(void)state;
	struct sonde_ring *r = sonde_ring__new(3, &o);

	assert_non_null(r);
	/* Not wrapped yet: 5 records. */
	for (n = 0; n < 5; n++) {
		make_rec(n, buf);
		head -= rec_size(n);
		sim_put(head, buf, rec_size(n));
	}
	sim_pc()->data_head = head;
	sim_pause_calls = 0;
	assert_true(sonde_ring__read_init(r) > 0);
	assert_int_equal(sim_paused, 1);
	for (int i = 4; i >= 0; i--) {
		assert_int_equal(sonde_ring__read_event(r, &ev), 1);
		check_rec((unsigned)i, ev);
	}
	assert_int_equal(sonde_ring__read_event(r, &ev), 0);
	sonde_ring__read_done(r);
	assert_int_equal(sim_paused, 0);
	assert_int_equal(sim_pause_calls, 2);

	/* Two more: only the new ones come out. */
	for (; n < 7; n++) {
		make_rec(n, buf);
		head -= rec_size(n);
		sim_put(head, buf, rec_size(n));
	}
	sim_pc()->data_head = head;
	sonde_ring__read_init(r);
	for (int i = 6; i >= 5; i--) {
		assert_int_equal(sonde_ring__read_event(r, &ev), 1);
		check_rec((unsigned)i, ev);
	}
	assert_int_equal(sonde_ring__read_event(r, &ev), 0);
	sonde_ring__read_done(r);

	/* Many laps: every record handed is whole and the newest come first. */
	for (; n < 2000; n++) {
		make_rec(n, buf);
		head -= rec_size(n);
		sim_put(head, buf, rec_size(n));
	}
	sim_pc()->data_head = head;
	{
		int64_t avail = sonde_ring__read_init(r);
		uint64_t got = 0;
		unsigned want = n - 1;

		assert_true(avail > 0 && (uint64_t)avail <= sim_data_size());
		while (sonde_ring__read_event(r, &ev) == 1) {
			check_rec(want--, ev);
			got += ev->size;
		}
		assert_int_equal(got, avail);
		/* It covered nearly the whole buffer. */
		assert_true(got + 8 * 41 + 8 > sim_data_size());
	}
	sonde_ring__read_done(r);
	sonde_ring__free(r);
}

static int aux_cb(const void *data, size_t len, uint64_t off, void *ctx)
{
	unsigned char *out = ctx;

	memcpy(out + off % 100000, data, len);
	return 0;
}

/* AUX: offset/size published in the control page, wrapped chunks. */
static void test_aux_and_set_output(void **state)
{
	SONDE_OPTS(sonde_ring_opts, o, .data_pages = SIM_PAGES);
	static unsigned char out[100000];
	struct sonde_ring *r;
	size_t aux_len;
	unsigned char *aux;

	(void)state;
	r = sonde_ring__new(7, &o);
	assert_non_null(r);
	assert_int_equal(sonde_ring__add_event(r, 9), 0);
	assert_int_equal(sim_set_output_to, 7);
	assert_int_equal(sonde_ring__map_aux(r, 3, false), -EINVAL);
	assert_int_equal(sonde_ring__map_aux(r, 4, false), 0);
	aux_len = 4 * (size_t)sim_psz;
	assert_int_equal(sim_pc()->aux_offset, (SIM_PAGES + 1) * sim_psz);
	assert_int_equal(sim_pc()->aux_size, aux_len);
	assert_int_equal(sonde_ring__aux_read(r, aux_cb, out), 0);
	aux = sim_aux;
	for (size_t i = 0; i < aux_len; i++)
		aux[i] = (unsigned char)(i * 13);
	{
		/* Simulate the PMU writing 300 bytes that wrap the end. */
		struct sonde_perf_event_mmap_page *pc = sim_pc();
		uint64_t start = aux_len - 100;

		pc->aux_tail = start;
		pc->aux_head = start + 300;
		memset(out, 0, sizeof(out));
		assert_int_equal(sonde_ring__aux_read(r, aux_cb, out), 300);
		assert_int_equal(pc->aux_tail, start + 300);
		/* Stream bytes start..start+300 in order, across the wrap. */
		for (uint64_t k = start; k < start + 300; k++)
			assert_int_equal(out[k % 100000],
					 aux[k & (aux_len - 1)]);
	}
	sonde_ring__free(r);
}

struct span_seen {
	int n;
	struct sonde_aux_span sp;
	unsigned char bytes[65536];
};

static int span_cb(const struct sonde_aux_span *sp, void *ctx)
{
	struct span_seen *s = ctx;

	s->n++;
	s->sp = *sp;
	memcpy(s->bytes, sp->data[0], sp->len[0]);
	if (sp->len[1])
		memcpy(s->bytes + sp->len[0], sp->data[1], sp->len[1]);
	return 0;
}

/* The PMU writes @len bytes at stream position @pos (byte = position). */
static void pmu_fill(size_t aux_len, uint64_t pos, size_t len)
{
	for (size_t i = 0; i < len; i++)
		sim_aux[(pos + i) & (aux_len - 1)] = (unsigned char)(pos + i);
}

static void assert_stream(const struct span_seen *s, uint64_t offset,
			  uint64_t size)
{
	assert_int_equal(s->sp.offset, offset);
	assert_int_equal(s->sp.size, size);
	assert_int_equal(s->sp.len[0] + s->sp.len[1], size);
	for (uint64_t i = 0; i < size; i++)
		assert_int_equal(s->bytes[i], (unsigned char)(offset + i));
}

/* One span per read, both parts of a wrap; the tail moves after it. */
static void test_aux_span(void **state)
{
	SONDE_OPTS(sonde_ring_opts, o, .data_pages = SIM_PAGES);
	static struct span_seen s;
	size_t aux_len = 2 * (size_t)sim_psz;
	struct sonde_perf_event_mmap_page *pc;
	struct sonde_ring *r;

	(void)state;
	r = sonde_ring__new(7, &o);
	assert_non_null(r);
	assert_int_equal(sonde_ring__aux_read_span(r, NULL, span_cb, &s), -ENODEV);
	assert_int_equal(sonde_ring__map_aux(r, 2, false), 0);
	pc = sim_pc();
	pc->aux_tail = aux_len - 40;
	pmu_fill(aux_len, aux_len - 40, 100);
	pc->aux_head = aux_len + 60;
	assert_int_equal(sonde_ring__aux_read_span(r, NULL, span_cb, &s), 100);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.sp.len[0], 40);
	assert_int_equal(s.sp.len[1], 60);
	assert_true(s.sp.data[1] == (const void *)sim_aux);
	assert_stream(&s, aux_len - 40, 100);
	assert_int_equal(pc->aux_tail, aux_len + 60);
	/* Nothing new: no call. */
	assert_int_equal(sonde_ring__aux_read_span(r, NULL, span_cb, &s), 0);
	assert_int_equal(s.n, 1);
	/* A PMU that overran the area: the newest area's worth. */
	pmu_fill(aux_len, aux_len + 60, 3 * aux_len);
	pc->aux_head = 4 * aux_len + 60;
	assert_int_equal(sonde_ring__aux_read_span(r, NULL, span_cb, &s),
			 (int64_t)aux_len);
	assert_stream(&s, 3 * aux_len + 60, aux_len);
	assert_int_equal(sonde_ring__aux_read_span(r, NULL, NULL, NULL), -EINVAL);
	sonde_ring__free(r);
}

/*
 * Snapshots of an overwrite area, the head as an offset in the area (as
 * intel_pt gives it): the bytes since the previous snapshot until the
 * head goes back (a wrap), then the whole area every time; aux_tail is
 * never written; snapshot_size keeps the newest bytes.
 */
static void test_aux_snapshot(void **state)
{
	SONDE_OPTS(sonde_ring_opts, o, .data_pages = SIM_PAGES);
	SONDE_OPTS(sonde_ring_aux_opts, so, .snapshot = true);
	static struct span_seen s;
	size_t aux_len = 4 * (size_t)sim_psz;
	struct sonde_perf_event_mmap_page *pc;
	struct sonde_ring *r;

	(void)state;
	r = sonde_ring__new(7, &o);
	assert_non_null(r);
	assert_int_equal(sonde_ring__map_aux(r, 4, true), 0);
	pc = sim_pc();
	pmu_fill(aux_len, 0, 1000);
	pc->aux_head = 1000;
	assert_int_equal(sonde_ring__aux_read_span(r, &so, span_cb, &s), 1000);
	assert_stream(&s, 0, 1000);
	assert_int_equal(pc->aux_tail, 0);
	assert_int_equal(sonde_ring__aux_read_span(r, &so, span_cb, &s), 0);
	/* 500 more, at most 200 of them wanted. */
	pmu_fill(aux_len, 1000, 500);
	pc->aux_head = 1500;
	so.snapshot_size = 200;
	assert_int_equal(sonde_ring__aux_read_span(r, &so, span_cb, &s), 200);
	assert_stream(&s, 1300, 200);
	so.snapshot_size = 0;
	/* The PMU wraps to offset 700: the area, oldest (after 700) first. */
	pmu_fill(aux_len, 1500, aux_len - 800);
	pc->aux_head = 700;
	assert_int_equal(sonde_ring__aux_read_span(r, &so, span_cb, &s),
			 (int64_t)aux_len);
	assert_stream(&s, 700, aux_len);
	/* Wrapped once, always the whole area, even with the head ahead. */
	pmu_fill(aux_len, aux_len + 700, 100);
	pc->aux_head = 800;
	assert_int_equal(sonde_ring__aux_read_span(r, &so, span_cb, &s),
			 (int64_t)aux_len);
	assert_stream(&s, 800, aux_len);
	assert_int_equal(pc->aux_tail, 0);
	sonde_ring__free(r);

	/* A fresh area the PMU wrote into near its end: wrapped, as perf's
	 * intel_pt decides when the head shows nothing. */
	r = sonde_ring__new(7, &o);
	assert_non_null(r);
	assert_int_equal(sonde_ring__map_aux(r, 4, true), 0);
	pc = sim_pc();
	pmu_fill(aux_len, 0, aux_len);
	pc->aux_head = 0;
	assert_int_equal(sonde_ring__aux_read_span(r, &so, span_cb, &s),
			 (int64_t)aux_len);
	assert_stream(&s, 0, aux_len);
	sonde_ring__free(r);
}

/* ---- real kernel ---- */

static int open_sw(uint64_t config, uint64_t period, bool backward, int group)
{
	struct sonde_perf_event_attr a = { .size = sizeof(a) };

	a.type = SONDE_PERF_TYPE_SOFTWARE;
	a.config = config;
	a.sample_period = period;
	a.sample_type = SONDE_PERF_SAMPLE_IP | SONDE_PERF_SAMPLE_TID |
			SONDE_PERF_SAMPLE_TIME;
	a.disabled = 1;
	a.sample_id_all = 1;
	a.write_backward = backward;
	a.wakeup_events = 1;
	(void)group;
	return sonde_perf_event_open(&a, 0, -1, -1, 0);
}

static volatile unsigned long sink;

static void burn(unsigned ms)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int i = 0; i < 10000; i++)
			sink += (unsigned long)i;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 +
		 (t.tv_nsec - t0.tv_nsec) / 1000000 < (long)ms);
}

static bool kernel_ok(int fd)
{
	if (fd >= 0)
		return true;
	printf("SKIP: perf_event_open(cpu-clock) failed: %s\n", strerror(-fd));
	return false;
}

/*
 * cpu-clock and task-clock sampling into one ring (SET_OUTPUT) with a
 * small buffer so it wraps many times; every record is well formed and
 * both events' samples arrive. poll() wakes on wakeup_events.
 */
static void test_real_shared_ring(void **state)
{
	SONDE_OPTS(sonde_ring_opts, o, .data_pages = 1);
	const struct sonde_perf_event_header *ev;
	int cpu_fd, task_fd, samples = 0, passes = 0;
	struct sonde_ring *r;
	struct pollfd pfd;

	(void)state;
	cpu_fd = open_sw(SONDE_PERF_COUNT_SW_CPU_CLOCK, 100000, false, -1);
	if (!kernel_ok(cpu_fd)) {
		skip();
		return;
	}
	task_fd = open_sw(SONDE_PERF_COUNT_SW_TASK_CLOCK, 100000, false, -1);
	assert_true(task_fd >= 0);
	r = sonde_ring__new(cpu_fd, &o);
	assert_non_null(r);
	/* This kernel says where its data area is: after the control page. */
	assert_int_equal(sonde_ring__control(r)->data_offset, sysconf(_SC_PAGESIZE));
	assert_int_equal(sonde_ring__control(r)->data_size, sonde_ring__data_size(r));
	assert_int_equal(sonde_ring__control(r)->cap_bit0_is_deprecated, 1);
	assert_int_equal(sonde_ring__add_event(r, task_fd), 0);
	ioctl(cpu_fd, SONDE_PERF_EVENT_IOC_ENABLE, 0);
	ioctl(task_fd, SONDE_PERF_EVENT_IOC_ENABLE, 0);
	pfd.fd = cpu_fd;
	pfd.events = POLLIN;
	for (int i = 0; i < 200 && samples <= 300; i++) {
		burn(10);
		if (poll(&pfd, 1, 0) > 0)
			passes++;
		sonde_ring__read_init(r);
		while (sonde_ring__read_event(r, &ev) == 1) {
			assert_true(ev->size >= 8);
			if (ev->type == SONDE_PERF_RECORD_SAMPLE) {
				uint32_t pid;

				/* IP, then pid/tid of this process. */
				memcpy(&pid, (const char *)ev + 16, 4);
				assert_int_equal(pid, getpid());
				samples++;
			}
		}
		sonde_ring__read_done(r);
	}
	ioctl(cpu_fd, SONDE_PERF_EVENT_IOC_DISABLE, 0);
	/* Several times what one 4 KiB ring holds (~128 samples). */
	assert_true(samples > 300);
	assert_true(passes > 0);
	sonde_ring__free(r);
	close(task_fd);
	close(cpu_fd);
}

/* Flight recorder: write_backward ring read as a snapshot. */
static void test_real_backward(void **state)
{
	SONDE_OPTS(sonde_ring_opts, o, .data_pages = 1, .overwrite = true);
	const struct sonde_perf_event_header *ev;
	uint64_t last_time = ~0ULL;
	int fd, samples = 0;
	struct sonde_ring *r;

	(void)state;
	fd = open_sw(SONDE_PERF_COUNT_SW_CPU_CLOCK, 100000, true, -1);
	if (!kernel_ok(fd)) {
		skip();
		return;
	}
	r = sonde_ring__new(fd, &o);
	assert_non_null(r);
	ioctl(fd, SONDE_PERF_EVENT_IOC_ENABLE, 0);
	/* Burn until the kernel has lapped the ring twice (CPU time, not wall). */
	for (int i = 0; i < 200; i++) {
		uint64_t head = __atomic_load_n(&sonde_ring__control(r)->data_head,
						__ATOMIC_ACQUIRE);

		if ((uint64_t)0 - head > 2 * sonde_ring__data_size(r))
			break;
		burn(10);
	}
	assert_true(sonde_ring__read_init(r) > 0);
	while (sonde_ring__read_event(r, &ev) == 1) {
		if (ev->type == SONDE_PERF_RECORD_SAMPLE) {
			uint64_t t;

			memcpy(&t, (const char *)ev + 24, 8);
			/* Newest first. */
			assert_true(t <= last_time);
			last_time = t;
			samples++;
		}
	}
	sonde_ring__read_done(r);
	/* 4 KiB of 32-byte samples, minus the partly overwritten one. */
	assert_true(samples > 100);
	assert_true(samples <= 4096 / 32);
	ioctl(fd, SONDE_PERF_EVENT_IOC_DISABLE, 0);
	sonde_ring__free(r);
	close(fd);
}

/* Dummy event: side-band only (COMM, MMAP, FORK, EXIT) from this task. */
static void test_real_dummy_sideband(void **state)
{
	struct sonde_perf_event_attr a = { .size = sizeof(a) };
	SONDE_OPTS(sonde_ring_opts, o, .data_pages = 4);
	const struct sonde_perf_event_header *ev;
	int fd, seen_mmap = 0, seen_fork = 0, seen_comm = 0;
	struct sonde_ring *r;
	void *p;
	pid_t child;

	(void)state;
	a.type = SONDE_PERF_TYPE_SOFTWARE;
	a.config = SONDE_PERF_COUNT_SW_DUMMY;
	a.mmap = a.comm = a.task = a.sample_id_all = 1;
	a.sample_type = SONDE_PERF_SAMPLE_TID;
	/* inherit + cpu == -1 cannot be mmapped: per-CPU rings for that. */
	fd = sonde_perf_event_open(&a, 0, -1, -1, 0);
	if (!kernel_ok(fd)) {
		skip();
		return;
	}
	r = sonde_ring__new(fd, &o);
	assert_non_null(r);
	p = mmap(NULL, 8192, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	{
		char old[17] = "";

		prctl(PR_GET_NAME, (unsigned long)old);
		prctl(PR_SET_NAME, (unsigned long)"sonde-ringkid");
		prctl(PR_SET_NAME, (unsigned long)old);
	}
	child = fork();
	if (child == 0)
		_exit(0);
	waitpid(child, NULL, 0);
	sonde_ring__read_init(r);
	while (sonde_ring__read_event(r, &ev) == 1) {
		if (ev->type == SONDE_PERF_RECORD_MMAP)
			seen_mmap++;
		if (ev->type == SONDE_PERF_RECORD_FORK)
			seen_fork++;
		if (ev->type == SONDE_PERF_RECORD_COMM &&
		    memmem(ev, ev->size, "sonde-ringkid", 13))
			seen_comm++;
	}
	sonde_ring__read_done(r);
	assert_true(seen_mmap >= 1);
	assert_true(seen_fork >= 1);
	assert_true(seen_comm >= 1);
	munmap(p, 8192);
	sonde_ring__free(r);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_forward_every_wrap_offset,
						setup_sim, teardown_sim),
		cmocka_unit_test_setup_teardown(test_forward_consume_mid_pass,
						setup_sim, teardown_sim),
		cmocka_unit_test_setup_teardown(test_kernel_data_area,
						setup_sim, teardown_sim),
		cmocka_unit_test_setup_teardown(test_forward_corrupt_header,
						setup_sim, teardown_sim),
		cmocka_unit_test_setup_teardown(test_forward_pending_every_wrap_offset,
						setup_sim, teardown_sim),
		cmocka_unit_test_setup_teardown(test_forward_pending_stops_at_corrupt,
						setup_sim, teardown_sim),
		cmocka_unit_test_setup_teardown(test_backward_snapshot,
						setup_sim, teardown_sim),
		cmocka_unit_test_setup_teardown(test_aux_and_set_output,
						setup_sim, teardown_sim),
		cmocka_unit_test_setup_teardown(test_aux_span, setup_sim,
						teardown_sim),
		cmocka_unit_test_setup_teardown(test_aux_snapshot, setup_sim,
						teardown_sim),
		cmocka_unit_test(test_real_shared_ring),
		cmocka_unit_test(test_real_backward),
		cmocka_unit_test(test_real_dummy_sideband),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
