// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Read-ahead for big mapped files: a helper thread maps the pages of the
 * file a few MiB ahead of the scanner, one touch per fault-around window.
 * The page faults (the kernel mapping ~120k pages of page cache for a
 * 500 MB file in 4 KiB folios, 16 at a time) then happen on the other
 * core. The same thread releases the pages the reader is done with
 * (MADV_DONTNEED zaps cost as much as the faults). Only reads the
 * mapping: no reader state but the positions handed over under the lock.
 * The lines the reader will read are prefetched by the reader itself
 * (pdr_prefetch_next() below): into its own cache, a record ahead.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "core_priv.h"
#include "perfdata_priv.h"

/* Smaller files are mapped faster than a thread starts paying off. */
#define AHEAD_MIN_DATA (32ULL << 20)
/* How far ahead of the scanner pages are mapped. */
#define AHEAD_WINDOW (16ULL << 20)
/* Scanner progress is handed over, and pages mapped, by this many bytes. */
#define AHEAD_STEP (1ULL << 20)
/* Closer to the scanner than this, the scanner maps pages itself. */
#define AHEAD_LEAD (2ULL << 20)
/* Lines prefetched at the start of a record: header, ids, regs, stack top. */
#define PREFETCH_HEAD_BYTES 1024u

struct pdr_ahead {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	const uint8_t *base;
	uint64_t data_off, data_end;
	uint64_t reader_pos;	/* scanner position (lock) */
	uint64_t drop_from, drop_to; /* pages to release (lock) */
	bool stop;		/* lock */
};

static uint8_t touch(const uint8_t *p)
{
	return *(const volatile uint8_t *)p;
}

/*
 * Maps [from, to): one touch per 64 KiB-aligned block, since a fault maps
 * the whole aligned fault-around window (64 KiB by default) of pages in
 * the page cache; touching every page would cost a TLB and cache miss per
 * page for nothing. Pages it leaves out are faulted in by the scanner.
 */
#define AHEAD_FAULT_AROUND (64u << 10)

static void populate(const struct pdr_ahead *a, uint64_t from, uint64_t to,
		     unsigned int *sink)
{
	uintptr_t p, end;

	if (to > a->data_end)
		to = a->data_end;
	if (from >= to)
		return;
	p = (uintptr_t)(a->base + from);
	end = (uintptr_t)(a->base + to);
	*sink += touch((const uint8_t *)p);
	p = (p | (AHEAD_FAULT_AROUND - 1)) + 1;
	for (; p < end; p += AHEAD_FAULT_AROUND)
		*sink += touch((const uint8_t *)p);
}

/*
 * Pages are mapped from pop, which jumps ahead when the scanner catches
 * up, so that the two threads never fault on the same page table: they
 * would contend on its lock.
 */
static void *ahead_thread(void *arg)
{
	struct pdr_ahead *a = arg;
	uint64_t pop = a->data_off, from, to, pos;
	unsigned int sink = 0;

	for (;;) {
		bool work;

		pthread_mutex_lock(&a->lock);
		for (;;) {
			pos = a->reader_pos;
			work = pop < a->data_end && pop < pos + AHEAD_WINDOW;
			if (a->stop || work || a->drop_to > a->drop_from)
				break;
			pthread_cond_wait(&a->cond, &a->lock);
		}
		from = a->drop_from;
		to = a->drop_to;
		a->drop_from = a->drop_to;
		if (a->stop) {
			pthread_mutex_unlock(&a->lock);
			break;
		}
		pthread_mutex_unlock(&a->lock);
		if (to > from)
			madvise((void *)(uintptr_t)(a->base + from), to - from,
				MADV_DONTNEED);
		if (!work)
			continue;
		if (pop < pos + AHEAD_LEAD)
			pop = (pos + 2 * AHEAD_LEAD) & ~(uint64_t)4095;
		populate(a, pop, pop + AHEAD_STEP, &sink);
		pop += AHEAD_STEP;
	}
	return (void *)(uintptr_t)(sink & 1);
}

void pdr_ahead_start(struct sonde_perfdata_reader *r)
{
	struct pdr_ahead *a;

	if (r->ahead || !r->mapped || r->swap || r->pipe ||
	    r->data_end > r->len || r->data_off >= r->data_end ||
	    r->data_end - r->data_off < AHEAD_MIN_DATA)
		return;
	a = calloc(1, sizeof(*a));
	if (!a)
		return;
	a->base = r->base;
	a->data_off = r->data_off;
	a->data_end = r->data_end;
	a->reader_pos = r->data_off;
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->cond, NULL);
	if (pthread_create(&a->thread, NULL, ahead_thread, a)) {
		pthread_mutex_destroy(&a->lock);
		pthread_cond_destroy(&a->cond);
		free(a);
		return;
	}
	r->ahead = a;
	r->ahead_next = r->data_off + AHEAD_STEP;
}

void pdr_ahead_progress_slow(struct sonde_perfdata_reader *r)
{
	struct pdr_ahead *a = r->ahead;

	pthread_mutex_lock(&a->lock);
	a->reader_pos = r->pos;
	pthread_cond_signal(&a->cond);
	pthread_mutex_unlock(&a->lock);
	r->ahead_next = r->pos + AHEAD_STEP;
}

bool pdr_ahead_drop(struct sonde_perfdata_reader *r, uint64_t from,
		    uint64_t to)
{
	struct pdr_ahead *a = r->ahead;

	if (!a)
		return false;
	pthread_mutex_lock(&a->lock);
	if (a->drop_to <= a->drop_from)
		a->drop_from = from;
	a->drop_to = to;
	pthread_cond_signal(&a->cond);
	pthread_mutex_unlock(&a->lock);
	return true;
}

void pdr_ahead_stop(struct sonde_perfdata_reader *r)
{
	struct pdr_ahead *a = r->ahead;

	if (!a)
		return;
	pthread_mutex_lock(&a->lock);
	a->stop = true;
	pthread_cond_signal(&a->cond);
	pthread_mutex_unlock(&a->lock);
	pthread_join(a->thread, NULL);
	pthread_mutex_destroy(&a->lock);
	pthread_cond_destroy(&a->cond);
	free(a);
	r->ahead = NULL;
}

/*
 * Big records (DWARF samples carry a stack copy of KiBs) are read at a
 * few spots each: the header and sample fields, the registers, the top
 * of the stack copy, its size at the end. Each is a cache miss that the
 * hardware prefetcher, which follows runs of lines, does not foresee.
 * Started one record ahead, they overlap with the work on this one; the
 * header they need comes in one record earlier still. Small records
 * (a frame-pointer recording's) are left to the hardware.
 */
void pdr_prefetch_next(const struct sonde_perfdata_reader *r)
{
	const uint8_t *p;
	uint64_t off;
	uint16_t size;

	if (r->q_head + 1 < r->q_ready)
		__builtin_prefetch(pdr_rec_at(r, r->q[r->q_head + 1].off, &off));
	if (r->q_head >= r->q_ready)
		return;
	p = pdr_rec_at(r, r->q[r->q_head].off, &off);
	memcpy(&size, p + 6, 2);
	if (size < PDR_PREFETCH_MIN_SIZE)
		return;
	for (unsigned int k = 64; k < PREFETCH_HEAD_BYTES; k += 64)
		__builtin_prefetch(p + k);
	__builtin_prefetch(p + size - 1);
}
