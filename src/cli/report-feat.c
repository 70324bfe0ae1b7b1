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
	default:
		return false;
	}
}
