// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Symbolizing addresses of this very process, the way a profiler would
 * symbolize sampled IPs: find the mapping of each address in
 * /proc/self/maps (what PERF_RECORD_MMAP2 would say), then let the symbol
 * cache pick the table (ELF file, vdso, kernel, JIT map) and translate the
 * address. Exits 1 if a function of this program is not found by name.
 */
#include <dlfcn.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sonde/sonde.h>

struct mapping {
	uint64_t start, end, pgoff;
	char path[512];
};

/* The /proc/self/maps line covering @p addr. */
static int find_mapping(uint64_t addr, struct mapping *m)
{
	char line[640];
	FILE *f = fopen("/proc/self/maps", "r");
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		int pos = 0;

		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %*s %" SCNx64
			   " %*s %*s %n", &m->start, &m->end, &m->pgoff,
			   &pos) < 3 || addr < m->start || addr >= m->end)
			continue;
		snprintf(m->path, sizeof(m->path), "%s", pos ? line + pos : "");
		m->path[strcspn(m->path, "\n")] = 0;
		found = 1;
	}
	fclose(f);
	return found;
}

__attribute__((noinline)) int example_function(int x);
__attribute__((noinline)) int example_function(int x)
{
	return x * 3 + 1;
}

static const char *show(struct sonde_symcache *cache, const char *what,
			uint64_t addr)
{
	struct sonde_sym_result res;
	struct sonde_sym_map map;
	struct mapping m;
	const char *name = NULL;

	if (!find_mapping(addr, &m)) {
		printf("%-20s %#18" PRIx64 "  (not mapped)\n", what, addr);
		return NULL;
	}
	map = (struct sonde_sym_map){
		.path = m.path, .start = m.start, .pgoff = m.pgoff,
	};
	if (!sonde_symcache__resolve(cache, getpid(), &map, addr, &res)) {
		name = sonde_dso__sym_name(res.dso, res.sym);
		printf("%-20s %#18" PRIx64 "  %s+0x%" PRIx64 " in %s\n", what,
		       addr, name, res.offset, m.path);
	} else {
		printf("%-20s %#18" PRIx64 "  [unknown] in %s\n", what, addr,
		       m.path[0] ? m.path : "[anon]");
	}
	return name;
}

int main(void)
{
	struct sonde_symcache *cache = sonde_symcache__new(NULL);
	void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
	const char *name;
	int ok;

	if (!cache) {
		perror("sonde_symcache__new");
		return 1;
	}
	name = show(cache, "example_function+4",
		    (uint64_t)(uintptr_t)example_function + 4);
	ok = name && !strcmp(name, "example_function");
	show(cache, "main", (uint64_t)(uintptr_t)main);
	if (libc) {
		show(cache, "libc qsort", (uint64_t)(uintptr_t)dlsym(libc, "qsort"));
		show(cache, "libc malloc", (uint64_t)(uintptr_t)dlsym(libc, "malloc"));
	}
	/* A heap address: no symbol, said plainly. */
	{
		char *p = malloc(16);

		show(cache, "heap block", (uint64_t)(uintptr_t)p);
		free(p);
	}
	sonde_symcache__free(cache);
	return ok ? 0 : 1;
}
