// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Big tables, arenas and growable arrays on transparent huge pages, see
 * core_priv.h. A fault costs
 * microseconds on a VM, and a profile of 100k distinct stacks touches tens
 * of MB: in 4 kB pages that was a third of `sonde report`'s time.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "core_priv.h"

#define HUGE_PAGE ((size_t)2 << 20)

/* A sanitizer checks heap blocks only: there every block is calloc's. */
#if defined(__SANITIZE_ADDRESS__)
#define HUGEMEM_HEAP_ONLY 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HUGEMEM_HEAP_ONLY 1
#endif
#endif
#ifndef HUGEMEM_HEAP_ONLY
#define HUGEMEM_HEAP_ONLY 0
#endif

static bool mapped(size_t n)
{
	return !HUGEMEM_HEAP_ONLY && n >= HUGEMEM_MIN;
}

/* @n rounded up to whole huge pages, 0 on overflow. */
static size_t huge_len(size_t n)
{
	return n > SIZE_MAX - HUGE_PAGE ? 0 : (n + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
}

/*
 * @len fresh zero bytes (a multiple of @align, a power of two and of the
 * page size) at an @align boundary: one @align more is mapped, so that a
 * boundary lies inside, and the slack on either side unmapped.
 */
static void *map_aligned(size_t len, size_t align)
{
	unsigned char *m, *a;
	size_t head;

	if (len > SIZE_MAX - align)
		return NULL;
	m = mmap(NULL, len + align, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	a = (unsigned char *)(((uintptr_t)m + align - 1) & ~(uintptr_t)(align - 1));
	head = (size_t)(a - m);
	if (head)
		munmap(m, head);
	munmap(a + len, align - head);
	return a;
}

void *hugemem_alloc(size_t n)
{
	size_t len = huge_len(n);
	void *a;

	if (!mapped(n))
		return calloc(1, n ? n : 1);
	a = len ? map_aligned(len, HUGE_PAGE) : NULL;
	if (!a)
		return lib_err_ptr(ENOMEM);
	/* Advice only: without huge pages the block still works, in small ones. */
	(void)madvise(a, len, MADV_HUGEPAGE);
	return a;
}

void hugemem_free(void *p, size_t n)
{
	if (!p)
		return;
	if (mapped(n))
		munmap(p, huge_len(n));
	else
		free(p);
}

/* Below this a table's pages are few: the system call would cost more. */
#define POPULATE_MIN ((size_t)64 << 10)

void hugemem_populate(void *p, size_t n)
{
	size_t page = 4096;
	uintptr_t lo = ((uintptr_t)p + page - 1) & ~(uintptr_t)(page - 1);
	uintptr_t hi = ((uintptr_t)p + n) & ~(uintptr_t)(page - 1);

	if (HUGEMEM_HEAP_ONLY || n < POPULATE_MIN || hi <= lo)
		return;
	/* Linux 5.14 on; where it is refused, the pages fault one by one. */
	(void)madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
}

/* ---- the arena ---- */

struct hugearena_chunk {
	struct hugearena_chunk *prev;
	size_t size, used; /* size: the whole block, this header included */
};

/* Room before the first allocation of a chunk: the header, 16-aligned. */
#define CHUNK_HDR ((sizeof(struct hugearena_chunk) + 15) & ~(size_t)15)

/* The first chunk is small (a small profile stays small), then huge ones. */
#define ARENA_FIRST ((size_t)256 << 10)
#define ARENA_MAX ((size_t)64 << 20)

void hugearena_init(struct hugearena *a)
{
	a->chunk = NULL;
	a->next = ARENA_FIRST;
}

void *hugearena_alloc(struct hugearena *a, size_t n)
{
	struct hugearena_chunk *c = a->chunk;
	void *p;

	if (n > SIZE_MAX - 15 - CHUNK_HDR)
		return lib_err_ptr(ENOMEM);
	n = (n + 15) & ~(size_t)15;
	if (!c || c->size - c->used < n) {
		size_t size = a->next ? a->next : ARENA_FIRST;

		while (size - CHUNK_HDR < n)
			size = size < HUGE_PAGE ? HUGE_PAGE : huge_len(size + n);
		c = hugemem_alloc(size);
		if (!c)
			return NULL;
		c->prev = a->chunk;
		c->size = size;
		c->used = CHUNK_HDR;
		a->chunk = c;
		/* after the first chunk, whole huge pages, doubling to a cap */
		a->next = size < HUGE_PAGE ? HUGE_PAGE : size < ARENA_MAX ? 2 * size : ARENA_MAX;
	}
	p = (unsigned char *)c + c->used;
	c->used += n;
	return p;
}

void hugearena_reset(struct hugearena *a)
{
	struct hugearena_chunk *c = a->chunk;

	if (!c)
		return;
	while (c->prev) {
		struct hugearena_chunk *old = c->prev;

		c->prev = old->prev;
		hugemem_free(old, old->size);
	}
	c->used = CHUNK_HDR;
}

void hugearena_free(struct hugearena *a)
{
	while (a->chunk) {
		struct hugearena_chunk *c = a->chunk;

		a->chunk = c->prev;
		hugemem_free(c, c->size);
	}
	hugearena_init(a);
}

/* ---- growable arrays ---- */

#define GROW_MIN ((size_t)64 << 10)

int bigalloc_reserve(struct bigalloc *b, size_t need)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), size = b->size ? b->size : GROW_MIN;
	bool huge;
	char *n;

	if (need <= b->size)
		return 0;
	while (size < need) {
		if (size > SIZE_MAX / 4)
			return -ENOMEM;
		size *= 2;
	}
	huge = size >= HUGE_PAGE;
	size = (size + (huge ? HUGE_PAGE : page) - 1) & ~((huge ? HUGE_PAGE : page) - 1);
	n = map_aligned(size, huge ? HUGE_PAGE : page);
	if (!n)
		return -ENOMEM;
	/* the old pages move over (no copy, no new faults); else copy them */
	if (b->size && mremap(b->p, b->size, b->size, MREMAP_MAYMOVE | MREMAP_FIXED, n) == MAP_FAILED) {
		memcpy(n, b->p, b->size);
		munmap(b->p, b->size);
	}
	/* a hint only: where THP is off this is plain memory */
	if (huge)
		(void)madvise(n, size, MADV_HUGEPAGE);
	b->p = n;
	b->size = size;
	return 0;
}

void bigalloc_free(struct bigalloc *b)
{
	if (b->size)
		munmap(b->p, b->size);
	b->p = NULL;
	b->size = 0;
}
