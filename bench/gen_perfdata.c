// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Writes a synthetic perf.data for the report/script benchmarks: N samples
 * (default 1M) with 12-frame frame-pointer callchains drawn from 500
 * distinct stacks over real functions of libc (so both tools symbolize the
 * same object), FINISHED_ROUND every 1000 samples.
 *
 *   gen_perfdata OUT [NR_SAMPLES] [DEPTH] [NR_STACKS] [random|each]
 *
 * "random" (the default) draws each sample's stack at random, so some
 * stacks never show when NR_STACKS is near NR_SAMPLES; "each" walks the
 * stacks in a scattered order, so that min(NR_SAMPLES, NR_STACKS) distinct
 * stacks appear: what the scaling benchmark (bench/bench_stacks.sh) needs.
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../tests/unit/pdgen.h"

#define LIBC "/usr/lib/x86_64-linux-gnu/libc.so.6"
#define BASE 0x7f0000000000ULL

static uint64_t rng = 88172645463325252ULL;

static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Function start offsets (st_value + 4 .. inside the function). */
static size_t libc_functions(uint64_t *out, size_t max, uint64_t *file_size)
{
	int fd = open(LIBC, O_RDONLY);
	struct stat st;
	Elf_Scn *scn = NULL;
	size_t n = 0;
	Elf *e;

	if (fd < 0 || fstat(fd, &st))
		return 0;
	*file_size = (uint64_t)st.st_size;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	while (e && (scn = elf_nextscn(e, scn)) && n < max) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNSYM)
			continue;
		d = elf_getdata(scn, NULL);
		for (size_t i = 0; d && i < sh.sh_size / sh.sh_entsize && n < max; i++) {
			GElf_Sym s;

			if (gelf_getsym(d, (int)i, &s) && GELF_ST_TYPE(s.st_info) == STT_FUNC &&
			    s.st_shndx != SHN_UNDEF && s.st_size > 32)
				out[n++] = s.st_value + 4 + next_rand() % (s.st_size - 8);
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	return n;
}

int main(int argc, char **argv)
{
	unsigned long nr = argc > 2 ? strtoul(argv[2], NULL, 0) : 1000000;
	unsigned depth = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 0) : 12;
	unsigned nstacks = argc > 4 ? (unsigned)strtoul(argv[4], NULL, 0) : 500;
	const char *order = argc > 5 ? argv[5] : "random";
	bool each = !strcmp(order, "each");
	/* A prime above 2^32: coprime to every stack count. */
	const uint64_t scatter = 4294967311ULL;
	static uint64_t funcs[4096];
	uint64_t *stacks, file_size = 0, t = 1000000000ULL;
	struct pdgen g = { 0 };
	size_t nf;
	FILE *f;

	if (argc < 2 || depth < 1 || depth > 120 || !nstacks ||
	    (!each && strcmp(order, "random"))) {
		fprintf(stderr, "usage: gen_perfdata OUT [NR_SAMPLES] [DEPTH] [NR_STACKS] [random|each]\n");
		return 2;
	}
	nf = libc_functions(funcs, 4096, &file_size);
	if (nf < 64) {
		fprintf(stderr, "gen_perfdata: cannot read functions of %s\n", LIBC);
		return 1;
	}
	stacks = calloc((size_t)nstacks * depth, sizeof(*stacks));
	if (!stacks)
		return 1;
	/* Stacks share callers near the root, like real programs. */
	for (unsigned s = 0; s < nstacks; s++)
		for (unsigned d = 0; d < depth; d++) {
			unsigned spread = 4 + d * d * 4;

			stacks[(size_t)s * depth + d] =
				BASE + funcs[(d * 131 + next_rand() % spread) % nf];
		}
	pdg_file_begin(&g, (1u << 0) | (1u << 1) | (1u << 2) | (1u << 5) | (1u << 8), 100000);
	pdg_comm(&g, 1000, 1000, "bench", t);
	pdg_mmap(&g, 1000, BASE, (file_size + 4095) & ~4095ULL, 0, LIBC, t);
	f = fopen(argv[1], "w");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	for (unsigned long i = 0; i < nr; i++) {
		/* each: i * a prime mod nstacks visits every stack once per round. */
		size_t pick = each ? (size_t)((i % nstacks) * scatter % nstacks)
				   : (size_t)(next_rand() % nstacks);
		uint64_t *st = &stacks[pick * depth];

		uint64_t chain[128];

		t += 100000;
		/* The callchain is the ip first, then the callers outward. */
		for (unsigned d = 0; d < depth; d++)
			chain[d] = st[depth - 1 - d];
		pdg_sample(&g, 1000, 1000 + (uint32_t)(i % 2), t, chain[0], 100000, chain, depth);
		if (i % 1000 == 999)
			pdg_round(&g);
	}
	pdg_file_end(&g, 1000000000ULL + 100000, t);
	if (fwrite(g.buf, 1, g.len, f) != g.len || fclose(f)) {
		perror(argv[1]);
		return 1;
	}
	free(g.buf);
	free(stacks);
	return 0;
}
