// SPDX-License-Identifier: LGPL-2.1-only
/*
 * A tiny "JIT" for the perf-map tests: writes two spinning functions as
 * x86-64 machine code into an anonymous executable mapping, names them in
 * /tmp/perf-<pid>.map (perf's "START SIZE name" format) and runs them for
 * about MS milliseconds (default 300): 2/3 of the time in jit_spin_hot,
 * 1/3 in jit_spin_cold. The map file is left behind for the report; the
 * test removes it. Prints the map file's path. Exit 77 off x86-64.
 *
 * Usage: jit_workload [MS]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "workload.h"

/*
 * uint64_t f(uint64_t n) { for (i = 0; i < n; i++); return i; } with a
 * frame (push rbp; mov rbp,rsp) so that fp callchains walk through it:
 *   55 48 89 e5 31 c0 | 48 83 c0 01 48 39 f8 72 f7 | 5d c3
 */
static const unsigned char spin_code[] = {
	0x55, 0x48, 0x89, 0xe5, 0x31, 0xc0,
	0x48, 0x83, 0xc0, 0x01, 0x48, 0x39, 0xf8, 0x72, 0xf7,
	0x5d, 0xc3,
};

typedef uint64_t (*spin_fn)(uint64_t);

int main(int argc, char **argv)
{
#if defined(__x86_64__)
	double ms = argc > 1 ? atof(argv[1]) : 300, t0;
	unsigned char *mem;
	spin_fn hot, cold;
	char path[64];
	FILE *f;
	volatile uint64_t sink = 0;

	mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	memset(mem, 0xcc, 4096); /* int3 between the functions */
	memcpy(mem + 0x100, spin_code, sizeof(spin_code));
	memcpy(mem + 0x200, spin_code, sizeof(spin_code));
	/* W^X: executable only once written, as a JIT does. */
	if (mprotect(mem, 4096, PROT_READ | PROT_EXEC)) {
		perror("mprotect");
		return 1;
	}
	hot = (spin_fn)(void *)(mem + 0x100);
	cold = (spin_fn)(void *)(mem + 0x200);
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		return 1;
	}
	fprintf(f, "%lx %zx jit_spin_hot\n", (unsigned long)(uintptr_t)hot,
		sizeof(spin_code));
	fprintf(f, "%lx %zx jit_spin_cold\n", (unsigned long)(uintptr_t)cold,
		sizeof(spin_code));
	if (fclose(f)) {
		perror(path);
		return 1;
	}
	printf("%s\n", path);
	fflush(stdout);
	t0 = now_ms();
	while (now_ms() - t0 < ms) {
		sink += hot(400000);
		sink += hot(400000);
		sink += cold(400000);
	}
	return sink == 1; /* never: keeps the calls */
#else
	(void)argc;
	(void)argv;
	fprintf(stderr, "jit_workload: x86-64 machine code only\n");
	return 77;
#endif
}
