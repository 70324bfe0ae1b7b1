// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Measuring a region of code with libsonde: open the events once, then
 * bracket the code with sonde_region__begin()/__end() as often as needed.
 * Here the region touches fresh pages, so page-faults counts them.
 *
 *   cc region.c $(pkg-config --cflags --libs libsonde)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <sonde/sonde.h>

#define PAGES 64
#define ROUNDS 10

int main(void)
{
	struct sonde_region_count c[3];
	long page = sysconf(_SC_PAGESIZE);
	struct sonde_region *r;
	char err[128];
	int n;

	r = sonde_region__new("task-clock,page-faults,context-switches", NULL);
	if (!r) {
		int e = errno;

		printf("cannot count here: %s\n",
		       sonde_strerror(e, err, sizeof(err)));
		/* No perf events (seccomp, paranoid 3): skip, do not fail. */
		return e == EACCES || e == EPERM || e == ENOSYS ? 77 : 1;
	}
	for (int i = 0; i < ROUNDS; i++) {
		char *mem = mmap(NULL, (size_t)(PAGES * page),
				 PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (mem == MAP_FAILED)
			return 1;
		sonde_region__begin(r);
		for (int p = 0; p < PAGES; p++)
			mem[(long)p * page] = 1; /* one fault per page */
		sonde_region__end(r);
		munmap(mem, (size_t)(PAGES * page));
	}
	n = sonde_region__read(r, c, 3);
	for (int i = 0; i < n; i++)
		printf("%-18s %14.0f  (%llu regions, %s)\n",
		       sonde_region__name(r, (size_t)i), c[i].value,
		       (unsigned long long)c[i].regions,
		       sonde_region__uses_rdpmc(r) ? "rdpmc" : "read(2)");
	sonde_region__free(r);
	/*
	 * Each round faulted in fresh memory (the kernel may map several
	 * pages per fault, so only "at least one per round" is certain).
	 */
	if (c[1].regions != ROUNDS || c[1].value < ROUNDS) {
		printf("expected %d regions with page faults\n", ROUNDS);
		return 1;
	}
	return 0;
}
