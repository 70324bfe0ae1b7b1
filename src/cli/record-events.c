// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Event list for sonde record: the library's event-spec parser
 * (sonde/evparse.h) builds the attrs; record adds its sampling fields.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "record.h"

int rec_events_parse(struct rec_events *evs, const char *spec)
{
	struct sonde_evspec_list *l;
	struct sonde_parse_error perr;
	size_t base = evs->nr, n;
	char msg[1024];
	int err;

	err = sonde_evspec_list__parse(spec, &l, &perr);
	if (err) {
		sonde_parse_error__format(&perr, msg, sizeof(msg));
		/* On its own lines: the marker is aligned for column 0. */
		fprintf(stderr, "%s\n", msg);
		return err;
	}
	n = sonde_evspec_list__count(l);
	for (size_t i = 0; i < n; i++) {
		const struct sonde_perf_event_attr *a = sonde_evspec_list__attr(l, i);
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
	sonde_evspec_list__free(l);
	return err;
}

void rec_events_free(struct rec_events *evs)
{
	for (size_t i = 0; i < evs->nr; i++) {
		free(evs->ev[i].name);
		free(evs->ev[i].fds);
		free(evs->ev[i].ids);
	}
	for (size_t i = 0; i < evs->nr_tracepoints; i++)
		free(evs->tracepoints[i]);
	free(evs->tracepoints);
	free(evs->ev);
	memset(evs, 0, sizeof(*evs));
}
