// SPDX-License-Identifier: LGPL-2.1-only
/*
 * AUX area reads against arbitrary heads and area contents (a hostile or
 * buggy PMU driver): normal reads, snapshots that wrap or not, the
 * intel_pt-style reference compare, record alignment and size limits.
 * Every span handed out lies inside the AUX mapping, its parts add up to
 * its size, no more than the area (or the limit), and the read returns
 * what it handed over.
 * Input: u8 flags (bit 0 snapshot, bit 1 two pages, bits 2-3 reference
 * size 0/64/512/4096, bits 4-5 alignment 0/1/8/24, bit 6 a size limit,
 * bit 7 the cs_etm wrap check),
 * u8 reads, u16 limit, then per read: u64 aux_head, u16 offset and u8
 * value the PMU writes before it; the rest fills the area.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "sonde/sonde.h"
#include "fuzz_sys.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define PAGE 4096
#define DATA_PAGES 1
#define MAX_AUX_PAGES 2
#define MAX_READS 16

static unsigned char area[(1 + DATA_PAGES) * PAGE] __attribute__((aligned(PAGE)));
static unsigned char aux[MAX_AUX_PAGES * PAGE] __attribute__((aligned(PAGE)));
static size_t aux_len;

static void *fake_mmap(void *addr, size_t len, int prot, int flags, int fd,
		       off_t off)
{
	(void)addr; (void)prot; (void)flags; (void)fd;
	if (off == 0)
		return len <= sizeof(area) ? area : MAP_FAILED;
	if (len > sizeof(aux))
		return MAP_FAILED;
	aux_len = len;
	return aux;
}

struct seen {
	size_t limit;
	uint64_t handed;
};

static int check_span(const struct sonde_aux_span *sp, void *ctx)
{
	struct seen *s = ctx;
	const unsigned char *p0 = sp->data[0], *p1 = sp->data[1];

	if (!sp->size || sp->len[0] + sp->len[1] != sp->size || sp->size > aux_len)
		abort();
	if (s->limit && sp->size > s->limit)
		abort();
	if (sp->len[0] && (p0 < aux || p0 + sp->len[0] > aux + aux_len))
		abort();
	if (sp->len[1] && (p1 != aux || sp->len[1] > aux_len))
		abort();
	if (!sp->len[1] && p1)
		abort();
	/* Touch every byte: ASan catches a pointer past the mapping. */
	for (size_t i = 0; i < sp->len[0]; i++)
		((volatile const unsigned char *)p0)[i];
	for (size_t i = 0; i < sp->len[1]; i++)
		((volatile const unsigned char *)p1)[i];
	s->handed += sp->size;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct sonde_sys_ops ops = {
		.mmap = fake_mmap, .munmap = fuzz_munmap, .ioctl = fuzz_ioctl,
	};
	static const size_t refs[] = { 0, 64, 512, 4096 };
	static const size_t aligns[] = { 0, 1, 8, 24 };
	struct sonde_perf_event_mmap_page *pc = (void *)area;
	size_t nreads, pos, fill, pages;
	struct seen seen = { 0 };
	struct sonde_ring *r;
	uint8_t flags;
	uint16_t limit;
	bool snapshot;

	if (size < 4)
		return 0;
	flags = data[0];
	nreads = data[1] % (MAX_READS + 1);
	memcpy(&limit, data + 2, 2);
	pos = 4;
	if (size < pos + nreads * 11)
		return 0;
	snapshot = flags & 1;
	pages = flags & 2 ? 2 : 1;
	memset(area, 0, sizeof(area));
	memset(aux, 0, sizeof(aux));
	fill = size - pos - nreads * 11;
	memcpy(aux, data + pos + nreads * 11, fill < sizeof(aux) ? fill : sizeof(aux));
	sonde_set_print(NULL);
	sonde_sys_set_ops(&ops);
	{
		SONDE_OPTS(sonde_ring_opts, o, .data_pages = DATA_PAGES);

		r = sonde_ring__new(3, &o);
	}
	if (!r || sonde_ring__map_aux(r, pages, snapshot))
		abort();
	/* The size limit is a snapshot's only. */
	seen.limit = snapshot && (flags & 0x40) ? limit : 0;
	for (size_t i = 0; i < nreads; i++, pos += 11) {
		SONDE_OPTS(sonde_ring_aux_opts, ao, .snapshot = snapshot,
			   .snapshot_size = flags & 0x40 ? limit : 0,
			   .snapshot_ref_size = refs[(flags >> 2) & 3],
			   .alignment = aligns[(flags >> 4) & 3],
			   .snapshot_tail = flags & 0x80 ? 512 : 0);
		uint64_t head;
		uint16_t at;
		uint64_t want = 0;
		int64_t n;

		memcpy(&head, data + pos, 8);
		/* A normal read without alignment: the bytes since aux_tail,
		 * the newest area's worth if the PMU overran it. */
		if (!snapshot && aligns[(flags >> 4) & 3] <= 1)
			want = head - pc->aux_tail < aux_len ? head - pc->aux_tail : aux_len;
		memcpy(&at, data + pos + 8, 2);
		aux[at % aux_len] = data[pos + 10];
		pc->aux_head = head;
		seen.handed = 0;
		n = sonde_ring__aux_read_span(r, &ao, check_span, &seen);
		if (n < 0 || (uint64_t)n != seen.handed)
			abort();
		if (!snapshot && aligns[(flags >> 4) & 3] <= 1 && (uint64_t)n != want)
			abort();
		if (!snapshot && pc->aux_tail != head)
			abort();
	}
	sonde_ring__free(r);
	sonde_sys_set_ops(NULL);
	return 0;
}
