// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Counting a loop with software events, which work even without a
 * hardware PMU: a group of task-clock and page-faults around a loop that
 * touches fresh pages. Exits 1 if the kernel saw fewer faults than pages.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include <sonde/sonde.h>

#define PAGES 256

int main(void)
{
	struct sonde_perf_event_attr attr = {
		.type = SONDE_PERF_TYPE_SOFTWARE,
		.config = SONDE_PERF_COUNT_SW_TASK_CLOCK,
		.read_format = SONDE_PERF_FORMAT_GROUP,
	};
	struct sonde_evlist *list = sonde_evlist__new();
	struct sonde_count c[2];
	long page = sysconf(_SC_PAGESIZE);
	char msg[512], *mem;
	int ret, n;

	if (!list)
		return 1;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	sonde_evlist__add(list, &attr, "task-clock", -1);
	attr.config = SONDE_PERF_COUNT_SW_PAGE_FAULTS;
	sonde_evlist__add(list, &attr, "page-faults", 0);
	ret = sonde_evlist__open(list, NULL);
	if (ret) {
		sonde_open_error_describe(ret, &attr, 0, -1, msg, sizeof(msg));
		printf("cannot count here: %s\n", msg);
		sonde_evlist__free(list);
		return 77;
	}
	mem = mmap(NULL, PAGES * (size_t)page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return 1;

	sonde_evlist__enable(list);
	for (int i = 0; i < PAGES; i++)
		mem[(size_t)i * (size_t)page] = (char)i;
	sonde_evlist__disable(list);

	n = sonde_evsel__read_group(sonde_evlist__evsel(list, 0), 0, 0, c, 2);
	if (n != 2) {
		printf("group read failed (%d)\n", n);
		return 1;
	}
	printf("touched %d pages: %llu page-faults in %llu ns of task-clock\n",
	       PAGES, (unsigned long long)c[1].val,
	       (unsigned long long)c[0].val);
	munmap(mem, PAGES * (size_t)page);
	sonde_evlist__free(list);
	return c[1].val >= PAGES && c[0].val > 0 ? 0 : 1;
}
