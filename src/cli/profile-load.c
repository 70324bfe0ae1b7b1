// SPDX-License-Identifier: LGPL-2.1-only
/* A perf.data file into a whole-stack profile, with report's filters. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/sonde.h"
#include "profile-load.h"

/* The parsed filters, owned here until the profile has copied them. */
struct filters {
	char **comms, **dsos, **syms;
	size_t nr_comms, nr_dsos, nr_syms;
	int32_t *pids, *tids, *cpus;
	size_t nr_pids, nr_tids, nr_cpus;
	struct sonde_profile_time_range *times;
	size_t nr_times;
};

static int split(const char *s, char ***out, size_t *nr)
{
	char *copy, *tok, *save = NULL;

	if (!s)
		return 0;
	copy = strdup(s);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char **n = realloc(*out, (*nr + 1) * sizeof(*n));

		if (!n || !(n[*nr] = strdup(tok))) {
			if (n)
				*out = n;
			free(copy);
			return -ENOMEM;
		}
		*out = n;
		(*nr)++;
	}
	free(copy);
	return 0;
}

static int add_int(int32_t **v, size_t *nr, long x)
{
	int32_t *n = realloc(*v, (*nr + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	*v = n;
	n[(*nr)++] = (int32_t)x;
	return 0;
}

/* "1,2,3" or, with @ranges, "0-3,5"; every value in [0, @max). */
static int parse_ints(const char *cmd, const char *what, const char *s, bool ranges, long max,
		      int32_t **v, size_t *nr)
{
	const char *p = s;

	if (!s)
		return 0;
	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b;

		if (end == p || a < 0 || a >= max)
			goto bad;
		b = a;
		if (ranges && *end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
			if (end == p || b < a || b >= max)
				goto bad;
		}
		for (long c = a; c <= b; c++)
			if (add_int(v, nr, c))
				return -ENOMEM;
		p = end;
		if (*p == ',')
			p++;
		else if (*p)
			goto bad;
	}
	return 0;
bad:
	fprintf(stderr, "sonde %s: --%s: cannot parse '%s' at column %d\n", cmd, what, s,
		(int)(p - s) + 1);
	return -EINVAL;
}

/* Seconds in [s, e) to ns; empty is 0 (an open side). */
static int parse_secs(const char *s, const char *e, uint64_t *ns)
{
	char buf[64], *end;
	size_t n = (size_t)(e - s);
	double v;

	*ns = 0;
	if (!n)
		return 0;
	if (n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = 0;
	v = strtod(buf, &end);
	if (end == buf || *end || !(v >= 0) || v > 1e10)
		return -1;
	*ns = (uint64_t)llround(v * 1e9);
	return 0;
}

/* "start,end" in seconds, or "a%-b%[,c%-d%...]" of [first, last]. */
static int parse_time(const char *cmd, const struct prof_load *pl, struct filters *f)
{
	const char *s = pl->time, *p = s;

	if (!s)
		return 0;
	if (!strchr(s, '%')) {
		const char *comma = strchr(s, ',');

		f->times = calloc(1, sizeof(*f->times));
		if (!f->times)
			return -ENOMEM;
		f->nr_times = 1;
		if (!comma || parse_secs(s, comma, &f->times[0].start) ||
		    parse_secs(comma + 1, comma + strlen(comma), &f->times[0].end) ||
		    (f->times[0].end && f->times[0].end < f->times[0].start))
			goto bad;
		return 0;
	}
	if (!pl->first_ns && !pl->last_ns) {
		fprintf(stderr, "sonde %s: --time with percentages needs the file's first and last sample time (its SAMPLE_TIME feature); use seconds\n",
			cmd);
		return -EINVAL;
	}
	while (*p) {
		double span = (double)(pl->last_ns - pl->first_ns), a, b;
		struct sonde_profile_time_range *n;
		char *end;

		a = strtod(p, &end);
		if (end == p || *end != '%' || end[1] != '-')
			goto bad;
		p = end + 2;
		b = strtod(p, &end);
		if (end == p || *end != '%' || a < 0 || b > 100 || b < a)
			goto bad;
		p = end + 1;
		n = realloc(f->times, (f->nr_times + 1) * sizeof(*n));
		if (!n)
			return -ENOMEM;
		f->times = n;
		n[f->nr_times].start = pl->first_ns + (uint64_t)(span * a / 100.0);
		n[f->nr_times].end = pl->first_ns + (uint64_t)(span * b / 100.0) + 1;
		f->nr_times++;
		if (*p == ',')
			p++;
		else if (*p)
			goto bad;
	}
	return 0;
bad:
	fprintf(stderr, "sonde %s: --time: cannot parse '%s' (expected start,end in seconds like 100.5,101 or percent slices like 10%%-20%%)\n",
		cmd, s);
	return -EINVAL;
}

static void free_filters(struct filters *f)
{
	for (size_t i = 0; i < f->nr_comms; i++)
		free(f->comms[i]);
	for (size_t i = 0; i < f->nr_dsos; i++)
		free(f->dsos[i]);
	for (size_t i = 0; i < f->nr_syms; i++)
		free(f->syms[i]);
	free(f->comms);
	free(f->dsos);
	free(f->syms);
	free(f->pids);
	free(f->tids);
	free(f->cpus);
	free(f->times);
}

static int open_reader(struct prof_load *pl, const char *cmd, const char *path)
{
	char ebuf[256] = "", buf[128];
	SONDE_OPTS(sonde_perfdata_reader_opts, ro, .errbuf = ebuf, .errbuf_size = sizeof(ebuf));

	pl->r = sonde_perfdata_reader__open(path, &ro);
	if (pl->r) {
		sonde_perfdata_reader__sample_time(pl->r, &pl->first_ns, &pl->last_ns);
		return 0;
	}
	if (errno == SONDE_ERR_FORMAT)
		fprintf(stderr, "sonde %s: %s: not a valid perf.data file: %s\n", cmd, path, ebuf);
	else
		fprintf(stderr, "sonde %s: %s: %s\n", cmd, path,
			errno == ENOENT ? "No such file (record one with `sonde record` or `perf record`, or pass -i FILE)"
					: sonde_strerror(errno, buf, sizeof(buf)));
	return 1;
}

int prof_load(struct prof_load *pl, const char *cmd, const char *path)
{
	struct filters f = { 0 };
	int64_t n;
	int ret = 129;

	if (open_reader(pl, cmd, path))
		return 1;
	if (split(pl->comms, &f.comms, &f.nr_comms) || split(pl->dsos, &f.dsos, &f.nr_dsos) ||
	    split(pl->syms, &f.syms, &f.nr_syms) ||
	    parse_ints(cmd, "pid", pl->pids, false, INT32_MAX, &f.pids, &f.nr_pids) ||
	    parse_ints(cmd, "tid", pl->tids, false, INT32_MAX, &f.tids, &f.nr_tids) ||
	    parse_ints(cmd, "cpu", pl->cpus, true, 4096, &f.cpus, &f.nr_cpus) ||
	    parse_time(cmd, pl, &f))
		goto out;
	{
		static const enum sonde_profile_key per_thread[] = {
			SONDE_PROFILE_KEY_COMM, SONDE_PROFILE_KEY_PID, SONDE_PROFILE_KEY_TID,
		};
		SONDE_OPTS(sonde_profile_opts, po, .callchains = !pl->self_only, .cache = true,
			   .keys = pl->keys ? pl->keys : per_thread,
			   .nr_keys = pl->keys ? pl->nr_keys : 3, .timeline = pl->timeline);
		SONDE_OPTS(sonde_profile_filter, pf,
			   .comms = (const char *const *)f.comms, .nr_comms = f.nr_comms,
			   .pids = f.pids, .nr_pids = f.nr_pids,
			   .tids = f.tids, .nr_tids = f.nr_tids,
			   .cpus = f.cpus, .nr_cpus = f.nr_cpus,
			   .times = f.times, .nr_times = f.nr_times,
			   .dsos = (const char *const *)f.dsos, .nr_dsos = f.nr_dsos,
			   .syms = (const char *const *)f.syms, .nr_syms = f.nr_syms);

		ret = 1;
		pl->p = sonde_profile__new(&po);
		if (!pl->p || sonde_profile__set_filter(pl->p, &pf)) {
			fprintf(stderr, "sonde %s: out of memory\n", cmd);
			goto out;
		}
	}
	if (sonde_perfdata_reader__error(pl->r))
		fprintf(stderr, "sonde %s: warning: %s: %s\n", cmd, path,
			sonde_perfdata_reader__error(pl->r));
	n = sonde_profile__add_reader(pl->p, pl->r);
	if (n < 0) { /* the records before the problem still count, as in report */
		char buf[128];

		fprintf(stderr, "sonde %s: warning: %s: %s\n", cmd, path,
			sonde_strerror((int)-n, buf, sizeof(buf)));
	}
	/* A pipe tells its sample times at its end. */
	if (!pl->first_ns && !pl->last_ns)
		sonde_perfdata_reader__sample_time(pl->r, &pl->first_ns, &pl->last_ns);
	ret = 0;
out:
	free_filters(&f);
	return ret;
}

void prof_load_free(struct prof_load *pl)
{
	sonde_profile__free(pl->p);
	sonde_perfdata_reader__free(pl->r);
	pl->p = NULL;
	pl->r = NULL;
}
