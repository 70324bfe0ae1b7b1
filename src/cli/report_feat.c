// SPDX-License-Identifier: LGPL-2.1-only
/* Header feature text for sonde report --header -I (see report_feat.h). */
#include <inttypes.h>
#include <stdio.h>
#include "sonde/perfdata_feat.h"
#include "report_feat.h"

static void lines(struct outbuf *o, const char *label, const char *const *v,
		  uint32_t nr)
{
	for (uint32_t i = 0; i < nr; i++)
		ob_printf(o, "# %s%s\n", label, v[i]);
}

/* perf prints sockets, dies, threads, then one line per CPU. */
static void cpu_topology(struct outbuf *o, const struct sonde_feat_cpu_topology *t)
{
	lines(o, "sibling sockets : ", t->sockets, t->nr_sockets);
	lines(o, "sibling dies    : ", t->dies, t->nr_dies);
	lines(o, "sibling threads : ", t->threads, t->nr_threads);
	if (t->nr_dies && t->nr_cpus)
		for (uint32_t i = 0; i < t->nr_cpus; i++)
			ob_printf(o, "# CPU %u: Core ID %d, Die ID %d, Socket ID %d\n", i,
				  t->cpus[i].core, t->cpus[i].die, t->cpus[i].socket);
	else if (t->nr_dies)
		ob_puts(o, "# Core ID, Die ID and Socket ID information is not available\n");
	else if (t->nr_cpus)
		for (uint32_t i = 0; i < t->nr_cpus; i++)
			ob_printf(o, "# CPU %u: Core ID %d, Socket ID %d\n", i,
				  t->cpus[i].core, t->cpus[i].socket);
	else
		ob_puts(o, "# Core ID and Socket ID information is not available\n");
}

static void numa(struct outbuf *o, const struct sonde_feat_numa_topology *t)
{
	for (uint32_t i = 0; i < t->nr; i++) {
		const struct sonde_feat_numa_node *n = t->nodes[i];

		ob_printf(o, "# node%u meminfo  : total = %" PRIu64 " kB, free = %" PRIu64
			  " kB\n# node%u cpu list : %s\n",
			  n->node, n->mem_total_kb, n->mem_free_kb, n->node, n->cpus);
	}
}

static void pmu_mappings(struct outbuf *o, const struct sonde_feat_pmu_mappings *t)
{
	if (!t->nr) {
		ob_puts(o, "# pmu mappings: not available\n");
		return;
	}
	ob_puts(o, "# pmu mappings: ");
	for (uint32_t i = 0; i < t->nr; i++)
		ob_printf(o, "%s%s = %u", i ? ", " : "", t->pmus[i]->name, t->pmus[i]->type);
	ob_putc(o, '\n');
}

static void caches(struct outbuf *o, const struct sonde_feat_caches *t)
{
	ob_puts(o, "# CPU cache info:\n");
	for (uint32_t i = 0; i < t->nr; i++) {
		const struct sonde_feat_cache *c = t->caches[i];

		ob_printf(o, "#  L%d %-15s %8s [%s]\n", (int)c->level, c->type, c->size,
			  c->map);
	}
}

static void hybrid(struct outbuf *o, const struct sonde_feat_hybrid_topology *t)
{
	ob_puts(o, "# hybrid cpu system:\n");
	for (uint32_t i = 0; i < t->nr; i++)
		ob_printf(o, "# %s cpu list : %s\n", t->pmus[i]->pmu, t->pmus[i]->cpus);
}

/* perf's unit_number__scnprintf: divide by 1024 while the result stays > 1. */
static void unit_number(char *buf, size_t sz, uint64_t n)
{
	static const char units[] = "BKMG";
	int i = 0;

	while (n / 1024 > 1 && i < 3) {
		n /= 1024;
		i++;
	}
	snprintf(buf, sz, "%" PRIu64 "%c", n, units[i]);
}

/*
 * Each node's blocks as ranges ("0-7,16"); perf renders them into 100
 * bytes, so a longer list is cut there too. Its size is block size times
 * the blocks set.
 */
static void mem_topology(struct outbuf *o, const struct sonde_feat_mem_topology *t)
{
	ob_printf(o, "# memory nodes (nr %d, block size 0x%llx):\n", (int)t->nr,
		  (unsigned long long)t->block_size);
	for (uint32_t i = 0; i < t->nr; i++) {
		const struct sonde_feat_mem_node *n = t->nodes[i];
		uint64_t weight = 0;
		int64_t run = -1;
		char map[100] = "", size[50];
		size_t ml = 0;

		for (uint64_t b = 0; b <= n->nr_bits; b++) {
			bool set = b < n->nr_bits && ((n->bitmap[b / 64] >> (b % 64)) & 1);

			weight += set;
			if (set && run < 0)
				run = (int64_t)b;
			if (!set && run >= 0 && ml < sizeof(map) - 1) {
				int k;

				if ((uint64_t)run == b - 1)
					k = snprintf(map + ml, sizeof(map) - ml, "%s%" PRId64,
						     ml ? "," : "", run);
				else
					k = snprintf(map + ml, sizeof(map) - ml,
						     "%s%" PRId64 "-%" PRIu64, ml ? "," : "",
						     run, b - 1);
				ml += (size_t)k;
				if (ml > sizeof(map) - 1)
					ml = sizeof(map) - 1;
				run = -1;
			}
		}
		unit_number(size, sizeof(size), t->block_size * weight);
		ob_printf(o, "#  %3" PRIu64 " [%s]: %s\n", n->node, size, map);
	}
}

/* "# <pmu> pmu capabilities: a=1, b=2" per PMU. */
static void pmu_caps(struct outbuf *o, const struct sonde_feat_pmu_caps_list *t)
{
	for (uint32_t i = 0; i < t->nr; i++) {
		const struct sonde_feat_pmu_caps *p = t->pmus[i];

		if (!p->nr) {
			ob_printf(o, "# %s pmu capabilities: not available\n", p->pmu);
			continue;
		}
		ob_printf(o, "# %s pmu capabilities: ", p->pmu);
		for (uint32_t k = 0; k < p->nr; k++)
			ob_printf(o, "%s%s=%s", k ? ", " : "", p->names[k], p->values[k]);
		ob_putc(o, '\n');
	}
}

bool report_feat_text(struct outbuf *o, const struct sonde_perfdata_reader *r,
		      int feat)
{
	switch (feat) {
	case SONDE_FEAT_CPU_TOPOLOGY: {
		const struct sonde_feat_cpu_topology *t =
			sonde_perfdata_reader__cpu_topology(r);

		if (t)
			cpu_topology(o, t);
		return true;
	}
	case SONDE_FEAT_NUMA_TOPOLOGY: {
		const struct sonde_feat_numa_topology *t =
			sonde_perfdata_reader__numa_topology(r);

		if (t)
			numa(o, t);
		return true;
	}
	case SONDE_FEAT_PMU_MAPPINGS: {
		const struct sonde_feat_pmu_mappings *t =
			sonde_perfdata_reader__pmu_mappings(r);

		if (t)
			pmu_mappings(o, t);
		return true;
	}
	case SONDE_FEAT_CACHE: {
		const struct sonde_feat_caches *t = sonde_perfdata_reader__caches(r);

		if (t)
			caches(o, t);
		return true;
	}
	case SONDE_FEAT_HYBRID_TOPOLOGY: {
		const struct sonde_feat_hybrid_topology *t =
			sonde_perfdata_reader__hybrid_topology(r);

		if (t)
			hybrid(o, t);
		return true;
	}
	case SONDE_FEAT_MEM_TOPOLOGY: {
		const struct sonde_feat_mem_topology *t =
			sonde_perfdata_reader__mem_topology(r);

		if (t)
			mem_topology(o, t);
		return true;
	}
	case SONDE_FEAT_CPU_PMU_CAPS:
	case SONDE_FEAT_PMU_CAPS: {
		const struct sonde_feat_pmu_caps_list *t =
			sonde_perfdata_reader__pmu_caps(r, feat);

		if (t)
			pmu_caps(o, t);
		return true;
	}
	case SONDE_FEAT_BPF_BTF: {
		const struct sonde_feat_bpf_btf *t = sonde_perfdata_reader__bpf_btf(r);

		for (uint32_t i = 0; t && i < t->nr; i++)
			ob_printf(o, "# btf info of id %u\n", t->ids[i]);
		return true;
	}
	case SONDE_FEAT_COMPRESSED: {
		const struct sonde_feat_compressed *t = sonde_perfdata_reader__compressed(r);

		if (t)
			ob_printf(o, "# compressed : %s, level = %d, ratio = %d\n",
				  t->type == 1 ? "Zstd" : "Unknown", (int)t->level,
				  (int)t->ratio);
		return true;
	}
	case SONDE_FEAT_DIR_FORMAT: {
		uint64_t ver;

		if (!sonde_perfdata_reader__dir_format(r, &ver))
			ob_printf(o, "# directory data version : %" PRIu64 "\n", ver);
		return true;
	}
	default:
		return false;
	}
}
