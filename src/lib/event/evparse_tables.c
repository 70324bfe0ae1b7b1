// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The symbolic event names perf accepts: generalized hardware, software,
 * and hardware cache names with all the aliases perf 6.1 knows, with the
 * same case sensitivity (symbols are exact; cache pieces ignore case once
 * the whole word has the shape perf's lexer wants).
 */
#include <string.h>
#include <strings.h>
#include "event_priv.h"

const struct ev_symbol ev_hw_symbols[] = {
	{ "cpu-cycles", SONDE_PERF_COUNT_HW_CPU_CYCLES, "Hardware event" },
	{ "cycles", SONDE_PERF_COUNT_HW_CPU_CYCLES, NULL },
	{ "instructions", SONDE_PERF_COUNT_HW_INSTRUCTIONS, NULL },
	{ "cache-references", SONDE_PERF_COUNT_HW_CACHE_REFERENCES, NULL },
	{ "cache-misses", SONDE_PERF_COUNT_HW_CACHE_MISSES, NULL },
	{ "branch-instructions", SONDE_PERF_COUNT_HW_BRANCH_INSTRUCTIONS, NULL },
	{ "branches", SONDE_PERF_COUNT_HW_BRANCH_INSTRUCTIONS, NULL },
	{ "branch-misses", SONDE_PERF_COUNT_HW_BRANCH_MISSES, NULL },
	{ "bus-cycles", SONDE_PERF_COUNT_HW_BUS_CYCLES, NULL },
	{ "stalled-cycles-frontend", SONDE_PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, NULL },
	{ "idle-cycles-frontend", SONDE_PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, NULL },
	{ "stalled-cycles-backend", SONDE_PERF_COUNT_HW_STALLED_CYCLES_BACKEND, NULL },
	{ "idle-cycles-backend", SONDE_PERF_COUNT_HW_STALLED_CYCLES_BACKEND, NULL },
	{ "ref-cycles", SONDE_PERF_COUNT_HW_REF_CPU_CYCLES, NULL },
	{ NULL, 0, NULL },
};

const struct ev_symbol ev_sw_symbols[] = {
	{ "cpu-clock", SONDE_PERF_COUNT_SW_CPU_CLOCK, NULL },
	{ "task-clock", SONDE_PERF_COUNT_SW_TASK_CLOCK, NULL },
	{ "page-faults", SONDE_PERF_COUNT_SW_PAGE_FAULTS, NULL },
	{ "faults", SONDE_PERF_COUNT_SW_PAGE_FAULTS, NULL },
	{ "context-switches", SONDE_PERF_COUNT_SW_CONTEXT_SWITCHES, NULL },
	{ "cs", SONDE_PERF_COUNT_SW_CONTEXT_SWITCHES, NULL },
	{ "cpu-migrations", SONDE_PERF_COUNT_SW_CPU_MIGRATIONS, NULL },
	{ "migrations", SONDE_PERF_COUNT_SW_CPU_MIGRATIONS, NULL },
	{ "minor-faults", SONDE_PERF_COUNT_SW_PAGE_FAULTS_MIN, NULL },
	{ "major-faults", SONDE_PERF_COUNT_SW_PAGE_FAULTS_MAJ, NULL },
	{ "alignment-faults", SONDE_PERF_COUNT_SW_ALIGNMENT_FAULTS, NULL },
	{ "emulation-faults", SONDE_PERF_COUNT_SW_EMULATION_FAULTS, NULL },
	{ "dummy", SONDE_PERF_COUNT_SW_DUMMY, NULL },
	{ "bpf-output", SONDE_PERF_COUNT_SW_BPF_OUTPUT, NULL },
	{ "cgroup-switches", SONDE_PERF_COUNT_SW_CGROUP_SWITCHES, NULL },
	{ NULL, 0, NULL },
};

/* Row = cache id; the first spelling is the one `list` shows. */
static const char *const cache_names[SONDE_PERF_COUNT_HW_CACHE_MAX][6] = {
	{ "L1-dcache", "l1-d", "l1d", "L1-data", NULL },
	{ "L1-icache", "l1-i", "l1i", "L1-instruction", NULL },
	{ "LLC", "L2", NULL },
	{ "dTLB", "d-tlb", "Data-TLB", NULL },
	{ "iTLB", "i-tlb", "Instruction-TLB", NULL },
	{ "branch", "bpu", "btb", "bpc", NULL }, /* no "branches": perf lexes it as the hw event */
	{ "node", NULL },
};

static const char *const cache_ops[SONDE_PERF_COUNT_HW_CACHE_OP_MAX][5] = {
	{ "load", "loads", "read", NULL },
	{ "store", "stores", "write", NULL },
	{ "prefetch", "prefetches", "speculative-read", "speculative-load", NULL },
};

static const char *const cache_results[SONDE_PERF_COUNT_HW_CACHE_RESULT_MAX][5] = {
	{ "refs", "Reference", "ops", "access", NULL },
	{ "misses", "miss", NULL },
};

/* Which ops each cache supports (perf refuses the others at parse time). */
static const unsigned cache_valid_ops[SONDE_PERF_COUNT_HW_CACHE_MAX] = {
	[SONDE_PERF_COUNT_HW_CACHE_L1D] = 7,
	[SONDE_PERF_COUNT_HW_CACHE_L1I] = 5,
	[SONDE_PERF_COUNT_HW_CACHE_LL] = 7,
	[SONDE_PERF_COUNT_HW_CACHE_DTLB] = 7,
	[SONDE_PERF_COUNT_HW_CACHE_ITLB] = 1,
	[SONDE_PERF_COUNT_HW_CACHE_BPU] = 1,
	[SONDE_PERF_COUNT_HW_CACHE_NODE] = 7,
};

int ev_find_symbol(const struct ev_symbol *tab, const char *s, size_t len)
{
	for (int i = 0; tab[i].name; i++)
		if (strlen(tab[i].name) == len && !memcmp(tab[i].name, s, len))
			return i;
	return -1;
}

/* Exact (case-sensitive) match of one piece against a row table. */
static int piece_exact(const char *s, size_t len, const char *const *rows,
		       size_t nrows, size_t ncols)
{
	for (size_t r = 0; r < nrows; r++)
		for (size_t c = 0; c < ncols && rows[r * ncols + c]; c++)
			if (strlen(rows[r * ncols + c]) == len &&
			    !memcmp(rows[r * ncols + c], s, len))
				return (int)r;
	return -1;
}

/*
 * perf's lexer accepts TYPE[-OPRES[-OPRES]] where each piece is one of the
 * exact spellings above; several spellings contain '-', so try every split.
 * Returns the matched piece lengths in @lens (count returned), or -1.
 */
static int split_cache(const char *s, size_t len, size_t lens[3], int *type,
		       int opres[2])
{
	for (size_t a = 1; a <= len; a++) {
		int t;

		if (a < len && s[a] != '-')
			continue;
		t = piece_exact(s, a, &cache_names[0][0],
				SONDE_PERF_COUNT_HW_CACHE_MAX, 6);
		if (t < 0)
			continue;
		if (a == len) {
			lens[0] = a;
			*type = t;
			return 1;
		}
		for (size_t b = a + 2; b <= len; b++) {
			const char *p = s + a + 1;
			size_t pl = b - a - 1;
			int o1, r1;

			if (b < len && s[b] != '-')
				continue;
			o1 = piece_exact(p, pl, &cache_ops[0][0],
					 SONDE_PERF_COUNT_HW_CACHE_OP_MAX, 5);
			r1 = piece_exact(p, pl, &cache_results[0][0],
					 SONDE_PERF_COUNT_HW_CACHE_RESULT_MAX, 5);
			if (o1 < 0 && r1 < 0)
				continue;
			if (b == len) {
				lens[0] = a;
				lens[1] = pl;
				*type = t;
				opres[0] = o1 >= 0 ? o1 : 100 + r1;
				return 2;
			}
			{
				const char *q = s + b + 1;
				size_t ql = len - b - 1;
				int o2 = piece_exact(q, ql, &cache_ops[0][0],
						     SONDE_PERF_COUNT_HW_CACHE_OP_MAX, 5);
				int r2 = piece_exact(q, ql, &cache_results[0][0],
						     SONDE_PERF_COUNT_HW_CACHE_RESULT_MAX, 5);

				if (o2 < 0 && r2 < 0)
					continue;
				lens[0] = a;
				lens[1] = pl;
				lens[2] = ql;
				*type = t;
				opres[0] = o1 >= 0 ? o1 : 100 + r1;
				opres[1] = o2 >= 0 ? o2 : 100 + r2;
				return 3;
			}
		}
	}
	return -1;
}

int ev_parse_cache(const char *s, size_t len, uint64_t *config, bool *valid)
{
	size_t lens[3];
	int type, opres[2] = { -1, -1 }, n, op = -1, res = -1;

	*valid = true;
	n = split_cache(s, len, lens, &type, opres);
	if (n < 0)
		return -1;
	/*
	 * Each later piece is tried as an op first (only while no op is set),
	 * then as a result; a piece that fits neither slot is ignored, as
	 * perf 6.1 does ("L1-dcache-loads-stores" counts loads).
	 */
	for (int i = 0; i < n - 1; i++) {
		const char *p = s;
		size_t off = lens[0] + 1;
		int o, r;

		if (i == 1)
			off += lens[1] + 1;
		p = s + off;
		o = piece_exact(p, lens[i + 1], &cache_ops[0][0],
				SONDE_PERF_COUNT_HW_CACHE_OP_MAX, 5);
		r = piece_exact(p, lens[i + 1], &cache_results[0][0],
				SONDE_PERF_COUNT_HW_CACHE_RESULT_MAX, 5);
		if (op < 0 && o >= 0) {
			op = o;
			if (!(cache_valid_ops[type] & (1u << op)))
				*valid = false;
			continue;
		}
		if (res < 0 && r >= 0)
			res = r;
	}
	if (op < 0)
		op = SONDE_PERF_COUNT_HW_CACHE_OP_READ;
	if (res < 0)
		res = SONDE_PERF_COUNT_HW_CACHE_RESULT_ACCESS;
	*config = (uint64_t)type | ((uint64_t)op << 8) | ((uint64_t)res << 16);
	return 0;
}

const char *ev_cache_name(int type)
{
	return type >= 0 && type < SONDE_PERF_COUNT_HW_CACHE_MAX ?
		cache_names[type][0] : NULL;
}

const char *ev_cache_op_name(int op, int variant)
{
	static const char *const ops[] = { "loads", "stores", "prefetches" };

	(void)variant;
	return op >= 0 && op < 3 ? ops[op] : NULL;
}

bool ev_cache_op_valid(int type, int op)
{
	return type >= 0 && type < SONDE_PERF_COUNT_HW_CACHE_MAX && op >= 0 &&
	       op < 3 && (cache_valid_ops[type] & (1u << op));
}
