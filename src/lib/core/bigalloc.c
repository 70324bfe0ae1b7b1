// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Growable arrays of millions of entries in their own anonymous mappings,
 * 2 MB aligned and advised for transparent huge pages once they are that
 * big: each first touch of a 4 kB page is a page fault of a few
 * microseconds, and a huge page stands for 512 of them. See core_priv.h.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "core_priv.h"

#define BIG_HUGE ((size_t)2 << 20) /* x86-64's PMD size, THP's unit */
#define BIG_MIN ((size_t)64 << 10)

static size_t round_up(size_t n, size_t unit)
{
	return (n + unit - 1) & ~(unit - 1);
}

/* @size fresh zero bytes aligned to @align (a power of two, page multiple). */
static void *map_aligned(size_t size, size_t align, size_t page)
{
	size_t span = size + align - page;
	char *m, *a;

	if (span < size)
		return NULL;
	m = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	a = (char *)round_up((uintptr_t)m, align);
	/* the slack on either side goes back */
	if (a > m)
		munmap(m, (size_t)(a - m));
	if (a + size < m + span)
		munmap(a + size, (size_t)(m + span - (a + size)));
	return a;
}

int bigalloc_reserve(struct bigalloc *b, size_t need)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), size = b->size ? b->size : BIG_MIN;
	bool huge;
	char *n;

	if (need <= b->size)
		return 0;
	while (size < need) {
		if (size > SIZE_MAX / 4)
			return -ENOMEM;
		size *= 2;
	}
	huge = size >= BIG_HUGE;
	size = round_up(size, huge ? BIG_HUGE : page);
	n = map_aligned(size, huge ? BIG_HUGE : page, page);
	if (!n)
		return -ENOMEM;
	/* the old pages move over (no copy, no new faults); else copy them */
	if (b->size && mremap(b->p, b->size, b->size, MREMAP_MAYMOVE | MREMAP_FIXED, n) == MAP_FAILED) {
		memcpy(n, b->p, b->size);
		munmap(b->p, b->size);
	}
	/* a hint only: where THP is off this is plain memory */
	if (huge)
		madvise(n, size, MADV_HUGEPAGE);
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
