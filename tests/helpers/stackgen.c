// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Writes a perf.data of user samples given on the command line, for tests
 * that need exact weights (ties):
 *
 *   stackgen OUT [PATH@BASE]... COUNT*PERIOD:IP[,IP...]...
 *
 * PATH@BASE (hex) maps the whole file at BASE, offset 0, in the order
 * given. COUNT*PERIOD:IPS writes COUNT samples of that period at the
 * first ip, with the ips (hex, callers after it) as their callchain; all
 * of pid/tid 1000, "stackgen".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "../unit/pdgen.h"

#define MAX_FRAMES 64

static int stack(struct pdgen *g, const char *arg, uint64_t *t)
{
	uint64_t chain[MAX_FRAMES];
	unsigned long count, period;
	unsigned nr = 0;
	char *p;

	count = strtoul(arg, &p, 10);
	if (*p != '*')
		return -1;
	period = strtoul(p + 1, &p, 10);
	if (*p != ':')
		return -1;
	for (p++; *p && nr < MAX_FRAMES; p += *p == ',') {
		char *end;

		chain[nr++] = strtoull(p, &end, 16);
		if (end == p)
			return -1;
		p = end;
	}
	for (unsigned long i = 0; nr && i < count; i++)
		pdg_sample(g, 1000, 1000, ++*t, chain[0], period, chain, nr);
	return nr ? 0 : -1;
}

int main(int argc, char **argv)
{
	uint64_t t = 1000000000ULL, first = t;
	struct pdgen g = { 0 };
	FILE *f;

	if (argc < 3) {
		fprintf(stderr, "usage: stackgen OUT [PATH@BASE]... COUNT*PERIOD:IP[,IP...]...\n");
		return 2;
	}
	pdg_file_begin(&g, (1u << 0) | (1u << 1) | (1u << 2) | (1u << 5) | (1u << 8), 1);
	pdg_comm(&g, 1000, 1000, "stackgen", t);
	for (int a = 2; a < argc; a++) {
		char *at = strchr(argv[a], '@');
		struct stat st;

		if (!at) {
			if (stack(&g, argv[a], &t)) {
				fprintf(stderr, "stackgen: %s: not COUNT*PERIOD:IP[,IP...]\n", argv[a]);
				return 2;
			}
			continue;
		}
		*at = '\0';
		if (stat(argv[a], &st)) {
			perror(argv[a]);
			return 1;
		}
		pdg_mmap(&g, 1000, strtoull(at + 1, NULL, 16),
			 ((uint64_t)st.st_size + 4095) & ~4095ULL, 0, argv[a], ++t);
	}
	pdg_file_end(&g, first, t);
	f = fopen(argv[1], "w");
	if (!f || fwrite(g.buf, 1, g.len, f) != g.len || fclose(f)) {
		perror(argv[1]);
		return 1;
	}
	free(g.buf);
	return 0;
}
