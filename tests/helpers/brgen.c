// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Writes a perf.data whose samples carry branch stacks, for the branch
 * report/script tests (this VM has no LBR, so nothing records one): one
 * process (pid 4242, "brwork"), the objects given as MAPs, then one SAMPLE
 * (IP|TID|TIME|PERIOD|BRANCH_STACK of a cpu-clock event) per SAMPLE
 * argument, and the BRANCH_STACK header feature perf looks for.
 *
 *   brgen [-x] [-g] [-r N] OUT MAP... -- SAMPLE...
 *   MAP    = PATH:START:LEN:PGOFF           (hex numbers)
 *   SAMPLE = IP[/CALLER...]:ENTRY[,ENTRY...] (ENTRY: FROM-TO[/FLAG...])
 *   FLAG   = M (mispredicted) P (predicted) X (in_tx) A (abort)
 *            cN (cycles) tN (branch type, PERF_BR_*) nN (new_type)
 *
 * -x adds PERF_SAMPLE_BRANCH_HW_INDEX (an hw_idx word before the entries);
 * -g adds PERF_SAMPLE_CALLCHAIN: PERF_CONTEXT_USER, the ip, then the
 * CALLER return addresses (hex) given after it;
 * -r N writes the SAMPLE list N times over (big files for timing).
 * An ENTRY or CALLER list may be empty (a sample without branches).
 * Samples alternate between threads 4242 and 4243, period 1000 + i.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../unit/pdgen.h"

#define PID 4242
#define SAMPLE_TYPE ((1u << 0) | (1u << 1) | (1u << 2) | (1u << 8) | (1u << 11))
#define BRANCH_ANY (1u << 3)
#define BRANCH_HW_INDEX (1u << 17)
#define FEAT_HOSTNAME 3
#define FEAT_BRANCH_STACK 15
#define FEAT_SAMPLE_TIME 21

static uint64_t hex(const char *s, char **end)
{
	return strtoull(s, end, 16);
}

static int add_map(struct pdgen *g, char *arg, uint64_t t)
{
	char *f[4], *save = NULL;
	int n = 0;

	for (char *tok = strtok_r(arg, ":", &save); tok && n < 4; tok = strtok_r(NULL, ":", &save))
		f[n++] = tok;
	if (n != 4)
		return -1;
	pdg_mmap(g, PID, hex(f[1], NULL), hex(f[2], NULL), hex(f[3], NULL), f[0], t);
	return 0;
}

/* One entry "FROM-TO/M/c12/t4": the three words of perf_branch_entry. */
static int parse_entry(const char *s, uint64_t w[3])
{
	char *end;

	w[0] = hex(s, &end);
	if (*end != '-')
		return -1;
	w[1] = hex(end + 1, &end);
	w[2] = 0;
	while (*end == '/') {
		char c = end[1];

		end += 2;
		switch (c) {
		case 'M': w[2] |= 1u << 0; break;
		case 'P': w[2] |= 1u << 1; break;
		case 'X': w[2] |= 1u << 2; break;
		case 'A': w[2] |= 1u << 3; break;
		case 'c': w[2] |= (strtoull(end, &end, 10) & 0xffff) << 4; break;
		case 't': w[2] |= (strtoull(end, &end, 10) & 0xf) << 20; break;
		case 'n': w[2] |= (strtoull(end, &end, 10) & 0xf) << 26; break;
		default: return -1;
		}
	}
	return *end ? -1 : 0;
}

/* perf's PERF_CONTEXT_USER callchain marker. */
#define CONTEXT_USER ((uint64_t)-512)

static int add_sample(struct pdgen *g, char *arg, unsigned i, bool hw_idx, bool chain, uint64_t t)
{
	uint64_t words[3 * 64], ips[64];
	char *colon = strchr(arg, ':'), *save = NULL, *end;
	unsigned nr = 0, nc = 0;
	uint32_t tid = PID + (i & 1);

	if (!colon)
		return -1;
	*colon = 0;
	ips[nc++] = CONTEXT_USER;
	ips[nc++] = hex(arg, &end);
	while (*end == '/') {
		if (nc == 64)
			return -1;
		ips[nc++] = hex(end + 1, &end);
	}
	if (*end || (nc > 2 && !chain))
		return -1;
	for (char *e = strtok_r(colon + 1, ",", &save); e; e = strtok_r(NULL, ",", &save)) {
		if (nr == 64 || parse_entry(e, &words[3 * nr]))
			return -1;
		nr++;
	}
	pdg_32(g, 9);
	pdg_16(g, 2); /* user */
	pdg_16(g, (uint16_t)(8 + 32 + (chain ? 8 + 8 * nc : 0) + 8 + (hw_idx ? 8 : 0) + 24 * nr));
	pdg_64(g, ips[1]);
	pdg_32(g, PID);
	pdg_32(g, tid);
	pdg_64(g, t);
	pdg_64(g, 1000 + i);
	if (chain) {
		pdg_64(g, nc);
		for (unsigned k = 0; k < nc; k++)
			pdg_64(g, ips[k]);
	}
	pdg_64(g, nr);
	if (hw_idx)
		pdg_64(g, nr - 1);
	for (unsigned k = 0; k < 3 * nr; k++)
		pdg_64(g, words[k]);
	return 0;
}

/* The feature sections: HOSTNAME, BRANCH_STACK (empty), SAMPLE_TIME. */
static void file_end(struct pdgen *g, uint64_t first, uint64_t last)
{
	size_t tab, p;

	pdg_set64(g, 40, g->data_off);
	pdg_set64(g, 48, g->len - g->data_off);
	pdg_set64(g, 72, (1ULL << FEAT_HOSTNAME) | (1ULL << FEAT_BRANCH_STACK) |
				 (1ULL << FEAT_SAMPLE_TIME));
	tab = g->len;
	for (int i = 0; i < 6; i++)
		pdg_64(g, 0);
	p = g->len;
	pdg_string(g, "brgen-host");
	pdg_set64(g, tab, p);
	pdg_set64(g, tab + 8, g->len - p);
	pdg_set64(g, tab + 16, g->len);
	pdg_set64(g, tab + 24, 0);
	p = g->len;
	pdg_64(g, first);
	pdg_64(g, last);
	pdg_set64(g, tab + 32, p);
	pdg_set64(g, tab + 40, 16);
}

int main(int argc, char **argv)
{
	struct pdgen g = { 0 };
	uint64_t t = 1000000000ULL, first;
	bool hw_idx = false, chain = false;
	unsigned long repeat = 1;
	unsigned nr = 0;
	int a = 1, first_sample, out;
	FILE *f;

	for (; a < argc; a++) {
		if (!strcmp(argv[a], "-x"))
			hw_idx = true;
		else if (!strcmp(argv[a], "-g"))
			chain = true;
		else if (!strcmp(argv[a], "-r") && a + 1 < argc)
			repeat = strtoul(argv[++a], NULL, 0);
		else
			break;
	}
	if (argc - a < 3 || !repeat) {
		fprintf(stderr, "usage: brgen [-x] [-g] [-r N] OUT MAP... -- SAMPLE...\n");
		return 2;
	}
	out = a;
	pdg_file_begin(&g, SAMPLE_TYPE | (chain ? 1u << 5 : 0), 1000);
	/* attr.branch_sample_type: 104 (attrs) + 72 */
	pdg_set64(&g, 104 + 72, BRANCH_ANY | (1u << 0) | (hw_idx ? BRANCH_HW_INDEX : 0));
	pdg_comm(&g, PID, PID, "brwork", t);
	pdg_comm(&g, PID, PID + 1, "brwork", t);
	first = t;
	for (a++; a < argc && strcmp(argv[a], "--"); a++)
		if (add_map(&g, argv[a], t)) {
			fprintf(stderr, "brgen: bad MAP '%s'\n", argv[a]);
			return 2;
		}
	first_sample = a + 1;
	for (unsigned long r = 0; r < repeat; r++) {
		for (a = first_sample; a < argc; a++, nr++) {
			char *copy = strdup(argv[a]); /* parsing cuts the text */

			t += 1000000;
			if (!copy || add_sample(&g, copy, nr, hw_idx, chain, t)) {
				fprintf(stderr, "brgen: bad SAMPLE '%s'\n", argv[a]);
				return 2;
			}
			free(copy);
		}
		pdg_round(&g);
	}
	file_end(&g, first, t);
	f = fopen(argv[out], "w");
	if (!f || fwrite(g.buf, 1, g.len, f) != g.len || fclose(f)) {
		perror(argv[out]);
		return 1;
	}
	free(g.buf);
	return 0;
}
