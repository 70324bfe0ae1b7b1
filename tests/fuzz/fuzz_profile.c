// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Fuzzes the profile on perf.data images (report's path), with the modes
 * the reader's fuzz target does not reach: the histogram of branches
 * (profile_brhist.c), branch history in call trees (profile_brchain.c),
 * report's other sort keys (profile_keys.c) and memory keys. Every entry,
 * tree node and branch row is then read back, as report prints them.
 * Input: one control byte, then the image.
 *   bits 0-1  mode: 0 plain keys, 1 branches, 2 branch history, 3 memory
 *   bit 2     caller order; bit 3 max_stack 3 (else the default)
 *   bits 4-7  which of the key lists below
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/sonde.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define K(n) SONDE_PROFILE_KEY_##n
static const enum sonde_profile_key plain[][6] = {
	{ K(COMM), K(DSO), K(SYM) },
	{ K(PARENT), K(SOCKET), K(SRCFILE), K(SYM_SIZE), K(DSO_SIZE), K(TIME) },
	{ K(LOCAL_WEIGHT), K(WEIGHT), K(TRANSACTION), K(CGROUP), K(CGROUP_ID), K(ADDR) },
	{ K(PID), K(CPU), K(CODE_PAGE_SIZE), K(INS_LAT), K(P_STAGE_CYC), K(IPC_NULL) },
};
static const enum sonde_profile_key branch[][6] = {
	{ K(COMM), K(DSO_FROM), K(SYM_FROM), K(SYM_TO), K(CYCLES) },
	{ K(MISPREDICT), K(IN_TX), K(ABORT), K(ADDR_FROM), K(ADDR_TO), K(DSO_TO) },
	{ K(COMM), K(SRCLINE_FROM), K(SRCLINE_TO), K(CYCLES) },
	{ K(ABORT), K(SYM_TO), K(MISPREDICT), K(SYM_FROM) },
};
static const enum sonde_profile_key mem[][6] = {
	{ K(LOCAL_WEIGHT), K(MEM), K(SYM), K(DSO), K(SYM_DADDR), K(DSO_DADDR) },
	{ K(SNOOP), K(TLB), K(LOCKED), K(BLOCKED), K(DCACHELINE), K(PHYS_DADDR) },
	{ K(DATA_PAGE_SIZE), K(SYM_IADDR), K(LOCAL_INS_LAT), K(LOCAL_P_STAGE_CYC) },
	{ K(COMM), K(MEM) },
};

static size_t nr_keys(const enum sonde_profile_key *k)
{
	size_t n = 1;

	while (n < 6 && k[n])
		n++;
	return n;
}

/* Reads a tree the way report prints it; @depth bounds the walk. */
static void walk(struct sonde_profile *p, const struct sonde_profile_node *n, int depth)
{
	const struct sonde_profile_node *kids[16];
	struct sonde_profile_node_branch b;
	size_t nr;

	(void)sonde_profile_node__sym(n);
	(void)sonde_profile_node__dso(n);
	(void)sonde_profile_node__ip(n);
	if (!sonde_profile_node__branch(p, n, &b) && depth < 3)
		(void)sonde_profile_node__srcline(p, n);
	if (depth > 64)
		return;
	nr = sonde_profile_node__children(n, 0, SONDE_PROFILE_BY_WEIGHT, kids, 16);
	for (size_t i = 0; i < nr && i < 16; i++)
		walk(p, kids[i], depth + 1);
}

static void read_out(struct sonde_profile *p, bool branches)
{
	for (int ev = 0; ev < sonde_profile__nr_events(p); ev++) {
		struct sonde_profile_event_stats es;
		size_t n = sonde_profile__nr_entries(p, ev);

		(void)sonde_profile__event_name(p, ev);
		(void)sonde_profile__event_stats(p, ev, &es);
		for (size_t i = 0; i < n && i < 256; i++) {
			const struct sonde_profile_entry *e = sonde_profile__entry(p, ev, i);
			struct sonde_profile_entry_keys v;
			const struct sonde_profile_node *root;

			if (!e)
				abort(); /* within nr_entries */
			(void)sonde_profile_entry__sym(e);
			(void)sonde_profile_entry__dso_short(e);
			(void)sonde_profile_entry__keys(e, &v);
			root = sonde_profile_entry__tree(e);
			if (root)
				walk(p, root, 0);
		}
		if (branches) {
			struct sonde_profile_branch_stats bs;
			size_t nb = sonde_profile__nr_branch_entries(p, ev);

			(void)sonde_profile__branch_stats(p, ev, &bs);
			for (size_t i = 0; i < nb && i < 256; i++) {
				const struct sonde_profile_branch_entry *e =
					sonde_profile__branch_entry(p, ev, i);
				const struct sonde_profile_branch *b;

				if (!e)
					abort();
				b = sonde_profile_branch_entry__branch(e);
				(void)sonde_profile_frame__sym(b->from);
				(void)sonde_profile_frame__sym(b->to);
				(void)sonde_profile_branch_entry__comm(e);
				(void)sonde_profile_branch_entry__srcline(e, false);
				(void)sonde_profile_branch_entry__srcline(e, true);
			}
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	SONDE_OPTS(sonde_perfdata_reader_opts, ro);
	struct sonde_profile_opts po = { .sz = sizeof(po) };
	struct sonde_perfdata_reader *r;
	struct sonde_profile *p;
	unsigned mode, list;
	uint8_t *img;

	sonde_set_print(NULL);
	if (size < 1)
		return 0;
	mode = data[0] & 3;
	list = (data[0] >> 4) & 3;
	/* The image where a file's mapping would be: aligned. */
	img = malloc(size - 1 ? size - 1 : 1);
	if (!img)
		return 0;
	memcpy(img, data + 1, size - 1);
	r = sonde_perfdata_reader__open_mem(img, size - 1, &ro);
	if (!r) {
		free(img);
		return 0;
	}
	/* No host kernel symbols: an empty table, and no per-user cache. */
	po.kallsyms = "/dev/null";
	po.caller_order = data[0] & 4;
	po.max_stack = (data[0] & 8) ? 3 : 0;
	po.callchains = mode != 1;
	po.call_trees = mode != 1;
	po.parent = "^main$";
	switch (mode) {
	case 1:
		po.branches = true;
		po.keys = branch[list];
		po.nr_keys = nr_keys(branch[list]);
		break;
	case 2:
		po.branch_history = true;
		po.keys = plain[0];
		po.nr_keys = 3;
		break;
	case 3:
		po.mem_mode = true;
		po.keys = mem[list];
		po.nr_keys = nr_keys(mem[list]);
		break;
	default:
		po.keys = plain[list];
		po.nr_keys = nr_keys(plain[list]);
		break;
	}
	p = sonde_profile__new(&po);
	if (p) {
		(void)sonde_profile__add_reader(p, r);
		read_out(p, mode == 1);
		sonde_profile__free(p);
	}
	sonde_perfdata_reader__free(r);
	free(img);
	return 0;
}
