// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Event list for sonde record: the library's event-spec parser
 * (sonde/evparse.h) builds the attrs; record adds its sampling fields.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "record_cli.h"

int rec_events_parse(struct rec_events *evs, const char *spec)
{
	struct sonde_evspec_list *l;
	struct sonde_parse_error perr;
	size_t base = evs->nr, n;
	char msg[1024];
	int err;

	SONDE_OPTS(sonde_evspec_opts, po,
		   .probe_resolve = sonde_symcache__probe_offset);

	err = sonde_evspec_list__parse_opts(spec, &po, &l, &perr);
	if (err) {
		sonde_parse_error__format(&perr, msg, sizeof(msg));
		/* On its own lines: the marker is aligned for column 0. */
		fprintf(stderr, "%s\n", msg);
		return err;
	}
	{
		struct sonde_evspec_list **ns = realloc(evs->specs,
			(evs->nr_specs + 1) * sizeof(*ns));

		if (!ns) {
			sonde_evspec_list__free(l);
			return -ENOMEM;
		}
		evs->specs = ns;
		ns[evs->nr_specs++] = l;
	}
	n = sonde_evspec_list__count(l);
	evs->last_first = base;
	for (size_t i = 0; i < n; i++) {
		const struct sonde_perf_event_attr *a = sonde_evspec_list__attr(l, i);
		const char *target = sonde_evspec_list__probe_target(l, i);
		unsigned int flags = sonde_evspec_list__flags(l, i);
		struct rec_event *ne, *e;
		int leader = sonde_evspec_list__leader(l, i);

		ne = realloc(evs->ev, (evs->nr + 1) * sizeof(*ne));
		if (!ne) {
			err = -ENOMEM;
			break;
		}
		evs->ev = ne;
		e = &ne[evs->nr];
		memset(e, 0, sizeof(*e));
		memcpy(&e->attr, a, sizeof(e->attr));
		e->spec = l;
		e->spec_idx = i;
		{
			/* The terms' values are checked now, applied later. */
			struct sonde_perf_event_attr t = *a;

			err = sonde_evspec_list__apply_terms(l, i, &t, NULL);
			if (err) {
				fprintf(stderr, "sonde record: event '%s': %s\n",
					sonde_evspec_list__name(l, i),
					err == -EOPNOTSUPP ?
					"dwarf call graphs are not supported on this architecture" :
					"bad value in call-graph, stack-size, max-stack, "
					"inherit, aux-output, aux-sample-size or branch_type");
				break;
			}
		}
		e->period_set = flags & SONDE_EVSPEC_PERIOD_SET;
		e->freq_set = flags & SONDE_EVSPEC_FREQ_SET;
		e->name = strdup(sonde_evspec_list__name(l, i));
		e->leader = (int)base + (leader < 0 ? (int)i : leader);
		e->nr_members = 1;
		if (!e->name) {
			err = -ENOMEM;
			break;
		}
		evs->nr++;
		/* The spec list owns the probe string: keep our own. */
		if (target) {
			e->probe_target = strdup(target);
			if (!e->probe_target) {
				err = -ENOMEM;
				break;
			}
			e->attr.config1 = (uint64_t)(uintptr_t)e->probe_target;
		}
		if (e->leader != (int)evs->nr - 1)
			evs->ev[e->leader].nr_members++;
		if (a->type == SONDE_PERF_TYPE_TRACEPOINT) {
			char **tn = realloc(evs->tracepoints,
					    (evs->nr_tracepoints + 1) * sizeof(*tn));

			if (!tn) {
				err = -ENOMEM;
				break;
			}
			evs->tracepoints = tn;
			tn[evs->nr_tracepoints] = strdup(e->name);
			/* "sys:name" possibly followed by ":modifiers" */
			if (tn[evs->nr_tracepoints]) {
				char *c = strchr(tn[evs->nr_tracepoints], ':');

				if (c && (c = strchr(c + 1, ':')))
					*c = 0;
				evs->nr_tracepoints++;
			}
		}
	}
	return err;
}

void rec_events_free(struct rec_events *evs)
{
	for (size_t i = 0; i < evs->nr; i++) {
		free(evs->ev[i].name);
		free(evs->ev[i].probe_target);
		free(evs->ev[i].filter);
		free(evs->ev[i].ids);
	}
	for (size_t i = 0; i < evs->nr_tracepoints; i++)
		free(evs->tracepoints[i]);
	for (size_t i = 0; i < evs->nr_specs; i++)
		sonde_evspec_list__free(evs->specs[i]);
	free(evs->specs);
	free(evs->tracepoints);
	free(evs->ev);
	memset(evs, 0, sizeof(*evs));
}

int rec_events_add_filter(struct rec_events *evs, const char *filter)
{
	bool any = false;

	for (size_t i = evs->last_first; i < evs->nr; i++) {
		struct rec_event *e = &evs->ev[i];
		char *f;

		if (e->attr.type != SONDE_PERF_TYPE_TRACEPOINT)
			continue;
		if (e->filter ? asprintf(&f, "(%s) && (%s)", e->filter, filter) < 0 :
				!(f = strdup(filter)))
			return -ENOMEM;
		free(e->filter);
		e->filter = f;
		any = true;
	}
	if (!any) {
		fprintf(stderr, "sonde record: --filter option should follow a "
			"-e tracepoint option\n");
		return -EINVAL;
	}
	return 0;
}
