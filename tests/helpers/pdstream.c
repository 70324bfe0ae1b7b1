// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Writes a valid pipe-mode perf.data stream to stdout, for the streaming
 * reader tests: a header, COMMs, then rounds of 1000 SAMPLEs (two
 * interleaved time runs per round, like two CPUs' ring buffers) each
 * closed by FINISHED_ROUND, until MB MiB were written.
 *
 *   pdstream MB [PAUSE_ROUNDS GOFILE]
 *
 * With PAUSE_ROUNDS, stops after that many rounds until GOFILE exists
 * (at most 60 s), so a test can check what the reader printed meanwhile
 * without depending on timing. Sample i of round k has time
 * 1000000 + k * 1000 + i and ip 0x1000 + (i % 16) * 16 (pid 100 + i % 4).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "../unit/pdgen.h"

static int out(struct pdgen *g)
{
	size_t off = 0;

	while (off < g->len) {
		ssize_t n = write(1, g->buf + off, g->len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		off += (size_t)n;
	}
	g->len = 0;
	return 0;
}

static void wait_for(const char *path)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };

	for (int i = 0; i < 6000 && access(path, F_OK); i++)
		nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	struct pdgen g = { 0 };
	uint64_t want, done = 0;
	long pause = -1;
	const char *go = NULL;

	if (argc != 2 && argc != 4) {
		fprintf(stderr, "usage: pdstream MB [PAUSE_ROUNDS GOFILE]\n");
		return 2;
	}
	want = strtoull(argv[1], NULL, 0) << 20;
	if (argc == 4) {
		pause = atol(argv[2]);
		go = argv[3];
	}
	/* IP | TID | TIME | PERIOD */
	pdg_pipe_begin(&g, 0x107, 1000);
	for (uint32_t p = 0; p < 4; p++) {
		char name[16];

		snprintf(name, sizeof(name), "worker%u", p);
		pdg_comm(&g, 100 + p, 100 + p, name, 1);
	}
	pdg_round(&g);
	for (long k = 0; done < want; k++) {
		uint64_t t0 = 1000000 + (uint64_t)k * 1000;

		if (k == pause) {
			if (out(&g))
				return 1;
			wait_for(go);
		}
		for (int run = 0; run < 2; run++)
			for (uint32_t i = (uint32_t)run; i < 1000; i += 2)
				pdg_sample(&g, 100 + i % 4, 100 + i % 4, t0 + i,
					   0x1000 + (i % 16) * 16, 1000, NULL, 0);
		pdg_round(&g);
		done += g.len;
		if (out(&g))
			return 1;
	}
	free(g.buf);
	return 0;
}
