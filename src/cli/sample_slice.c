// SPDX-License-Identifier: LGPL-2.1-only
/* --time and -C for report and script: one parser, perf's semantics. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sample_slice.h"

/* "0-3,5" */
int slice_parse_cpus(struct sample_slice *sl, const char *cmd, const char *list)
{
	const char *p = list;

	if (!p)
		return 0;
	sl->cpus = calloc(4096 / 8, 1);
	if (!sl->cpus)
		return -ENOMEM;
	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b;

		if (end == p || a < 0 || a >= 4096)
			goto bad;
		b = a;
		if (*end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
			if (end == p || b < a || b >= 4096)
				goto bad;
		}
		for (long c = a; c <= b; c++)
			sl->cpus[c / 8] |= (uint8_t)(1 << (c % 8));
		p = end;
		if (*p == ',')
			p++;
		else if (*p)
			goto bad;
	}
	return 0;
bad:
	fprintf(stderr, "%s: --cpu: cannot parse '%s' at column %d (expected a CPU list like 0-3,5)\n",
		cmd, list, (int)(p - list) + 1);
	return -EINVAL;
}

/* "secs.usecs,secs.usecs" (either side may be empty) or "a%-b%[,c%-d%...]" */
/* Seconds in [s, end) to ns; empty is 0 (open end). -1 if not a time. */
static int parse_ts(const char *s, const char *end, uint64_t *ns)
{
	double v;
	char buf[64], *e;
	size_t n = (size_t)(end - s);

	*ns = 0;
	if (!n)
		return 0;
	if (n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = 0;
	v = strtod(buf, &e);
	if (e == buf || *e || !(v >= 0) || v > 1e10)
		return -1;
	*ns = (uint64_t)llround(v * 1e9);
	return 0;
}

int slice_parse_time(struct sample_slice *sl, const char *cmd, const char *spec)
{
	const char *s = spec;

	if (!s)
		return 0;
	if (strchr(s, '%')) {
		const char *p = s;

		sl->time_percent = true;
		while (*p) {
			char *end;
			double a = strtod(p, &end), b;

			if (end == p || *end != '%' || end[1] != '-')
				goto bad;
			p = end + 2;
			b = strtod(p, &end);
			if (end == p || *end != '%' || a < 0 || b > 100 || b < a)
				goto bad;
			p = end + 1;
			sl->time_pct = realloc(sl->time_pct, (sl->nr_time + 1) * sizeof(*sl->time_pct));
			if (!sl->time_pct)
				return -ENOMEM;
			sl->time_pct[sl->nr_time][0] = a;
			sl->time_pct[sl->nr_time][1] = b;
			sl->nr_time++;
			if (*p == ',')
				p++;
			else if (*p)
				goto bad;
		}
		return 0;
	}
	{
		const char *comma = strchr(s, ',');

		if (!comma)
			goto bad;
		sl->time = calloc(1, sizeof(*sl->time));
		if (!sl->time)
			return -ENOMEM;
		sl->nr_time = 1;
		if (parse_ts(s, comma, &sl->time[0].start) ||
		    parse_ts(comma + 1, comma + strlen(comma), &sl->time[0].end))
			goto bad;
		if (sl->time[0].end && sl->time[0].end < sl->time[0].start) {
			fprintf(stderr, "%s: --time '%s': the end is before the start\n",
				cmd, s);
			return -EINVAL;
		}
	}
	return 0;
bad:
	fprintf(stderr, "%s: --time: cannot parse '%s' (expected start,end in seconds like 100.5,101 or percent slices like 10%%-20%%,50%%-60%%)\n",
		cmd, s);
	return -EINVAL;
}

/* Percent slices need the first and last sample time: from SAMPLE_TIME or a pre-scan. */
int slice_resolve(struct sample_slice *sl, const char *cmd,
		  struct sonde_perfdata_reader *r, const char *input,
		  const struct slice_span *span)
{
	uint64_t first = span->first, last = span->last;

	/* Without CPU numbers every sample would be dropped without a word. */
	for (int i = 0; sl->cpus && i < sonde_perfdata_reader__nr_attrs(r); i++)
		if (!(sonde_perfdata_reader__attr(r, i)->sample_type & SONDE_PERF_SAMPLE_CPU)) {
			fprintf(stderr, "%s: -C: the samples of '%s' in %s carry no CPU number (perf record -a or -C records them); remove -C\n",
				cmd, sonde_perfdata_reader__event_name(r, i), input);
			return -EINVAL;
		}
	if (!sl->time_percent)
		return 0;
	if (!first && !last && span->streaming) {
		/* A pipe cannot be read twice; its SAMPLE_TIME comes too late. */
		fprintf(stderr, "%s: --time with percentages needs the first and last sample time, which a pipe (%s) only has at its end; use absolute times\n",
			cmd, input);
		return -EINVAL;
	}
	if (!first && !last) {
		struct sonde_perfdata_reader *r2 = sonde_perfdata_reader__open(input, NULL);
		struct sonde_perfdata_record rec;

		if (r2) {
			first = UINT64_MAX;
			while (sonde_perfdata_reader__next(r2, &rec) > 0)
				if (rec.type == SONDE_PERF_RECORD_SAMPLE && rec.time) {
					if (rec.time < first)
						first = rec.time;
					if (rec.time > last)
						last = rec.time;
				}
			sonde_perfdata_reader__free(r2);
		}
		if (first == UINT64_MAX)
			first = 0;
	}
	sl->time = calloc((size_t)sl->nr_time, sizeof(*sl->time));
	if (!sl->time)
		return -ENOMEM;
	for (int i = 0; i < sl->nr_time; i++) {
		double width = (double)(last - first);

		sl->time[i].start = first + (uint64_t)(width * sl->time_pct[i][0] / 100.0);
		sl->time[i].end = first + (uint64_t)(width * sl->time_pct[i][1] / 100.0) + 1;
	}
	return 0;
}

static bool time_ok(const struct sample_slice *sl, uint64_t t)
{
	if (!sl->nr_time)
		return true;
	for (int i = 0; i < sl->nr_time; i++) {
		const struct time_range *tr = &sl->time[i];

		if ((!tr->start || t >= tr->start) && (!tr->end || t < tr->end))
			return true;
	}
	return false;
}

bool slice_keep(const struct sample_slice *sl, uint64_t time, uint32_t cpu)
{
	if (sl->nr_time && !time_ok(sl, time))
		return false;
	return !sl->cpus || (cpu < 4096 && (sl->cpus[cpu / 8] & (1 << (cpu % 8))));
}

void slice_free(struct sample_slice *sl)
{
	free(sl->cpus);
	free(sl->time);
	free(sl->time_pct);
	sl->cpus = NULL;
	sl->time = NULL;
	sl->time_pct = NULL;
	sl->nr_time = 0;
}
