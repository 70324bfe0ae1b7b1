// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Hybrid CPUs (cpu_core + cpu_atom PMUs instead of one cpu PMU): a legacy
 * hardware or cache event counts on one core type only when the PMU type
 * sits in config bits 32..63 (PERF_PMU_TYPE_SHIFT, "extended type"), so
 * perf turns "cycles" into one event per core type, named after it
 * ("cpu_core/cycles/", "cpu_atom/cycles/"). This does the same for an
 * event outside a group.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/pmu.h"
#include "event_priv.h"
#include "core_priv.h"

/* perf lists the big cores first. */
static const char *const hybrid_pmus[] = { "cpu_core", "cpu_atom" };

/* Copies @src's strings and terms into the fresh @dst. */
static int copy_event(struct evspec *dst, const struct evspec *src)
{
	dst->attr = src->attr;
	dst->flags = src->flags;
	dst->scale = src->scale;
	dst->exclude_GH = src->exclude_GH;
	if (src->unit && ev_set_str(&dst->unit, src->unit, strlen(src->unit)))
		return -ENOMEM;
	for (size_t k = 0; k < src->nr_terms; k++)
		if (ev_add_kv(dst, src->terms[k].key, src->terms[k].val))
			return -ENOMEM;
	return 0;
}

static int make_hybrid(struct evspec *ev, const struct sonde_pmu *pmu,
		       const char *base)
{
	char name[512];

	ev->attr.config = (uint64_t)sonde_pmu__type(pmu) << SONDE_PERF_PMU_TYPE_SHIFT |
			  (ev->attr.config & 0xffffffffULL);
	snprintf(name, sizeof(name), "%s/%s/", sonde_pmu__name(pmu), base);
	if (ev_set_str(&ev->name, name, strlen(name)) ||
	    ev_set_str(&ev->pmu, sonde_pmu__name(pmu), strlen(sonde_pmu__name(pmu))))
		return -ENOMEM;
	free(ev->cpumask);
	ev->cpumask = NULL;
	if (sonde_pmu__cpumask(pmu) &&
	    ev_set_str(&ev->cpumask, sonde_pmu__cpumask(pmu),
		       strlen(sonde_pmu__cpumask(pmu))))
		return -ENOMEM;
	return 0;
}

int ev_hybrid_expand(struct parser *p, size_t idx, size_t col)
{
	const struct sonde_pmu *pmus[ARRAY_SIZE(hybrid_pmus)];
	size_t n = 0;
	char *base;
	int err = 0;

	for (size_t i = 0; i < ARRAY_SIZE(hybrid_pmus); i++) {
		const struct sonde_pmu *pmu = sonde_pmus__find(ev_get_pmus(p),
							       hybrid_pmus[i]);

		if (pmu)
			pmus[n++] = pmu;
	}
	if (!n)
		return 0;
	base = strdup(p->l->ev[idx].name ? p->l->ev[idx].name : "");
	if (!base)
		return ev_perr(p, col, ENOMEM, "out of memory");
	for (size_t i = 1; i < n && !err; i++) {
		struct evspec *ev = ev_new_event(p, col);

		if (!ev) {
			free(base);
			return -p->code;
		}
		/* new_event may move the array: index, not pointer. */
		err = copy_event(ev, &p->l->ev[idx]);
		if (!err)
			err = make_hybrid(ev, pmus[i], base);
	}
	if (!err)
		err = make_hybrid(&p->l->ev[idx], pmus[0], base);
	free(base);
	return err ? ev_perr(p, col, ENOMEM, "out of memory") : 0;
}
