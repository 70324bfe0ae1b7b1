// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Ring buffer reader against arbitrary buffer contents and head/tail
 * values (a hostile or buggy kernel, or a corrupt snapshot): every record
 * it hands out lies within its size and the pass ends, forward or backward.
 * Input: u64 head, u64 tail, u8 mode (bit 0: overwrite), then the data area.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "sonde/sonde.h"
#include "fuzz_sys.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define PAGE 4096
#define DATA_PAGES 2

static unsigned char area[(1 + DATA_PAGES) * PAGE] __attribute__((aligned(PAGE)));

static void *fake_mmap(void *addr, size_t len, int prot, int flags, int fd,
		       off_t off)
{
	(void)addr; (void)prot; (void)flags; (void)fd; (void)off;
	if (len > sizeof(area))
		return MAP_FAILED;
	return area;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct sonde_sys_ops ops = {
		.mmap = fake_mmap, .munmap = fuzz_munmap, .ioctl = fuzz_ioctl,
	};
	struct sonde_perf_event_mmap_page *pc = (void *)area;
	const struct sonde_perf_event_header *ev;
	uint64_t head, tail, total = 0;
	struct sonde_ring *r;
	bool overwrite;
	int64_t avail;

	if (size < 17)
		return 0;
	memcpy(&head, data, 8);
	memcpy(&tail, data + 8, 8);
	overwrite = data[16] & 1;
	memset(area, 0, sizeof(area));
	memcpy(area + PAGE, data + 17,
	       size - 17 < DATA_PAGES * PAGE ? size - 17 : DATA_PAGES * PAGE);
	sonde_set_print(NULL);
	sonde_sys_set_ops(&ops);
	{
		SONDE_OPTS(sonde_ring_opts, o, .data_pages = DATA_PAGES,
			   .overwrite = overwrite);

		r = sonde_ring__new(3, &o);
	}
	if (!r)
		abort();
	pc->data_head = head;
	pc->data_tail = tail;
	for (int pass = 0; pass < 2; pass++) {
		avail = sonde_ring__read_init(r);
		if (avail < 0 || avail > DATA_PAGES * PAGE)
			abort();
		total = 0;
		for (int n = 0; sonde_ring__read_event(r, &ev) == 1; n++) {
			if (ev->size < 8 || total + ev->size > (uint64_t)avail)
				abort();
			total += ev->size;
			/* Touch every byte: ASan catches a pointer past the end. */
			for (size_t i = 0; i < ev->size; i++)
				((volatile const unsigned char *)ev)[i];
			if (n > DATA_PAGES * PAGE / 8)
				abort(); /* more records than could fit */
		}
		sonde_ring__read_done(r);
	}
	sonde_ring__free(r);
	sonde_sys_set_ops(NULL);
	return 0;
}
