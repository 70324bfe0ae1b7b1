// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Event list for sonde record. A small parser for the forms record needs
 * (symbolic hardware/software names, sys:name tracepoints, {a,b} groups,
 * :u/:k modifiers); to be replaced by the library's event-spec parser
 * (sonde/evparse.h) when it lands.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "record.h"

static const struct {
	const char *name;
	uint32_t type;
	uint64_t config;
} known[] = {
	{ "cycles", SONDE_PERF_TYPE_HARDWARE, 0 },
	{ "cpu-cycles", SONDE_PERF_TYPE_HARDWARE, 0 },
	{ "instructions", SONDE_PERF_TYPE_HARDWARE, 1 },
	{ "cache-references", SONDE_PERF_TYPE_HARDWARE, 2 },
	{ "cache-misses", SONDE_PERF_TYPE_HARDWARE, 3 },
	{ "branches", SONDE_PERF_TYPE_HARDWARE, 4 },
	{ "branch-instructions", SONDE_PERF_TYPE_HARDWARE, 4 },
	{ "branch-misses", SONDE_PERF_TYPE_HARDWARE, 5 },
	{ "bus-cycles", SONDE_PERF_TYPE_HARDWARE, 6 },
	{ "ref-cycles", SONDE_PERF_TYPE_HARDWARE, 9 },
	{ "cpu-clock", SONDE_PERF_TYPE_SOFTWARE, SONDE_PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", SONDE_PERF_TYPE_SOFTWARE, SONDE_PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", SONDE_PERF_TYPE_SOFTWARE, SONDE_PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", SONDE_PERF_TYPE_SOFTWARE, SONDE_PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", SONDE_PERF_TYPE_SOFTWARE, SONDE_PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", SONDE_PERF_TYPE_SOFTWARE, SONDE_PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", SONDE_PERF_TYPE_SOFTWARE, SONDE_PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations", SONDE_PERF_TYPE_SOFTWARE, SONDE_PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "minor-faults", SONDE_PERF_TYPE_SOFTWARE, SONDE_PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", SONDE_PERF_TYPE_SOFTWARE, SONDE_PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "alignment-faults", SONDE_PERF_TYPE_SOFTWARE, SONDE_PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", SONDE_PERF_TYPE_SOFTWARE, SONDE_PERF_COUNT_SW_EMULATION_FAULTS },
	{ "dummy", SONDE_PERF_TYPE_SOFTWARE, SONDE_PERF_COUNT_SW_DUMMY },
};

static void caret(const char *spec, size_t col, const char *msg)
{
	fprintf(stderr, "sonde record: bad event spec: %s\n  %s\n  %*s^\n",
		msg, spec, (int)col, "");
}

static int tracepoint_id(const char *sys, const char *name, uint64_t *id)
{
	static const char *const roots[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};
	char path[512];
	unsigned long long v;

	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/events/%s/%s/id", roots[i],
			 sys, name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fscanf(f, "%llu", &v) == 1) {
			fclose(f);
			*id = v;
			return 0;
		}
		fclose(f);
	}
	return -ENOENT;
}

static int add_one(struct rec_events *evs, const char *spec, const char *tok,
		   size_t len, size_t col, int leader)
{
	char buf[256], *mod, *colon;
	struct rec_event *n, *e;
	bool found = false;

	if (!len || len >= sizeof(buf)) {
		caret(spec, col, "expected an event name");
		return -EINVAL;
	}
	n = realloc(evs->ev, (evs->nr + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	evs->ev = n;
	e = &n[evs->nr];
	memset(e, 0, sizeof(*e));
	memcpy(buf, tok, len);
	buf[len] = 0;
	e->attr.size = sizeof(e->attr);
	/* A tracepoint is sys:name; a trailing :mods follows a known name. */
	colon = strchr(buf, ':');
	mod = NULL;
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		size_t kl = strlen(known[i].name);

		if (!strncmp(buf, known[i].name, kl) &&
		    (buf[kl] == 0 || buf[kl] == ':')) {
			e->attr.type = known[i].type;
			e->attr.config = known[i].config;
			mod = buf[kl] == ':' ? buf + kl + 1 : NULL;
			buf[kl] = 0;
			found = true;
			break;
		}
	}
	if (!found && colon) {
		char *sys = buf, *name = colon + 1, *m2 = strchr(name, ':');
		uint64_t id;
		char **tn;

		*colon = 0;
		if (m2) {
			*m2 = 0;
			mod = m2 + 1;
		}
		if (tracepoint_id(sys, name, &id)) {
			caret(spec, col, "unknown tracepoint (is tracefs mounted? mount -t tracefs nodev /sys/kernel/tracing)");
			return -ENOENT;
		}
		e->attr.type = SONDE_PERF_TYPE_TRACEPOINT;
		e->attr.config = id;
		tn = realloc(evs->tracepoints,
			     (evs->nr_tracepoints + 1) * sizeof(*tn));
		if (!tn)
			return -ENOMEM;
		evs->tracepoints = tn;
		if (asprintf(&tn[evs->nr_tracepoints], "%s:%s", sys, name) < 0)
			return -ENOMEM;
		evs->nr_tracepoints++;
		*colon = ':';
		found = true;
	}
	if (!found) {
		caret(spec, col, "unknown event (expected a name such as cpu-clock, task-clock, cycles, or sys:tracepoint)");
		return -ENOENT;
	}
	for (; mod && *mod; mod++) {
		switch (*mod) {
		case 'u':
			e->attr.exclude_kernel = 1;
			e->attr.exclude_hv = 1;
			break;
		case 'k':
			e->attr.exclude_user = 1;
			e->attr.exclude_hv = 1;
			break;
		case 'p':
			break; /* precise: meaningless for software events */
		default:
			caret(spec, col + (size_t)(mod - buf), "unknown modifier (expected u, k or p)");
			return -EINVAL;
		}
	}
	e->name = strndup(tok, len);
	if (!e->name)
		return -ENOMEM;
	e->leader = leader < 0 ? (int)evs->nr : leader;
	e->nr_members = 1;
	evs->nr++;
	if (leader >= 0 && (size_t)leader != evs->nr - 1)
		evs->ev[leader].nr_members++;
	return 0;
}

int rec_events_parse(struct rec_events *evs, const char *spec)
{
	const char *p = spec;

	while (*p) {
		int leader = -1, err;

		if (*p == '{') {
			const char *end = strchr(p, '}');

			if (!end) {
				caret(spec, strlen(spec), "expected '}' to close the group");
				return -EINVAL;
			}
			p++;
			leader = (int)evs->nr;
			while (p < end) {
				size_t l = strcspn(p, ",}");

				err = add_one(evs, spec, p, l, (size_t)(p - spec),
					      leader);
				if (err)
					return err;
				p += l;
				if (*p == ',')
					p++;
			}
			p = end + 1;
			if (*p == ':') {
				caret(spec, (size_t)(p - spec), "group modifiers are not supported yet");
				return -EINVAL;
			}
		} else {
			size_t l = strcspn(p, ",");

			err = add_one(evs, spec, p, l, (size_t)(p - spec), -1);
			if (err)
				return err;
			p += l;
		}
		if (*p == ',')
			p++;
		else if (*p) {
			caret(spec, (size_t)(p - spec), "expected ',' between events");
			return -EINVAL;
		}
	}
	return 0;
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
