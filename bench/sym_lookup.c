// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Symbol lookup benchmark driver (built by bench/symbols.sh).
 *   sym_lookup gen BIN N SEED   print N random text addresses of BIN (hex)
 *   sym_lookup resolve BIN      resolve stdin addresses, print name per line
 *                               (the same job as `addr2line -f -e BIN`)
 *   sym_lookup hot BIN N        N in-memory lookups; prints lookups/s
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sonde/sonde.h"

static uint64_t rng(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct sonde_symcache *c;
	const struct sonde_symbol *syms, *s;
	struct sonde_dso *d;
	size_t nr;

	if (argc < 3)
		return 2;
	c = sonde_symcache__new(NULL);
	d = sonde_symcache__dso(c, argv[2], NULL, 0);
	if (!strcmp(argv[1], "resolve")) {
		char line[64];
		static char out[1 << 16];

		setvbuf(stdout, out, _IOFBF, sizeof(out));
		while (fgets(line, sizeof(line), stdin)) {
			uint64_t a = strtoull(line, NULL, 16);

			s = sonde_dso__find(d, a, NULL);
			puts(s ? sonde_dso__sym_name(d, s) : "??");
		}
		return 0;
	}
	nr = sonde_dso__symbols(d, &syms);
	if (!nr) {
		fprintf(stderr, "%s: no symbols\n", argv[2]);
		return 1;
	}
	if (!strcmp(argv[1], "gen") && argc >= 5) {
		uint64_t seed = strtoull(argv[4], NULL, 0) | 1;
		long n = atol(argv[3]);

		for (long i = 0; i < n; i++) {
			const struct sonde_symbol *t = &syms[rng(&seed) % nr];

			printf("%" PRIx64 "\n", t->start + rng(&seed) % t->size);
		}
		return 0;
	}
	if (!strcmp(argv[1], "hot") && argc >= 4) {
		long n = atol(argv[3]), hits = 0;
		uint64_t seed = 42, lo = syms[0].start;
		uint64_t span = syms[nr - 1].start + syms[nr - 1].size - lo;
		double t0 = now(), t;

		for (long i = 0; i < n; i++)
			hits += sonde_dso__find(d, lo + rng(&seed) % span,
						NULL) != NULL;
		t = now() - t0;
		printf("%.0f lookups/s (%zu symbols, %ld hits)\n", n / t, nr,
		       hits);
		return 0;
	}
	return 2;
}
