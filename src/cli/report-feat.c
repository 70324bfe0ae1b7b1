// SPDX-License-Identifier: LGPL-2.1-only
/* Header feature text for sonde report --header -I (see report-feat.h). */
#include <inttypes.h>
#include "sonde/perfdata_feat.h"
#include "report-feat.h"

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
	default:
		return false;
	}
}
