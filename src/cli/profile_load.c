// SPDX-License-Identifier: LGPL-2.1-only
/* A perf.data file into a profile, with report's filters: one path. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/sonde.h"
#include "profile_load.h"
#include "progress.h"

/* perf.data size from which loading shows a progress bar on a terminal. */
#define PROGRESS_MIN_BYTES (64u << 20)

/* "a,b,c" appended to *@out. */
static int split_list(const char *s, char ***out, size_t *nr)
{
	char *copy, *tok, *save = NULL;
	int err = 0;

	if (!s)
		return 0;
	copy = strdup(s);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok && !err; tok = strtok_r(NULL, ",", &save)) {
		char **n = realloc(*out, (*nr + 1) * sizeof(*n));

		if (n)
			*out = n;
		if (!n || !(n[*nr] = strdup(tok)))
			err = -ENOMEM;
		else
			(*nr)++;
	}
	free(copy);
	return err;
}

/* "1,2,3": process or thread ids. */
static int parse_id_list(const char *cmd, const char *what, const char *s, int32_t **out,
			 size_t *nr)
{
	char **items = NULL;
	size_t n = 0;
	int err = split_list(s, &items, &n);

	for (size_t i = 0; i < n && !err; i++) {
		char *end;
		long v = strtol(items[i], &end, 10);
		int32_t *grown;

		if (*end || end == items[i]) {
			fprintf(stderr, "%s: --%s: '%s' is not a number\n", cmd, what, items[i]);
			err = -EINVAL;
			break;
		}
		grown = realloc(*out, (*nr + 1) * sizeof(*grown));
		if (!grown) {
			err = -ENOMEM;
			break;
		}
		*out = grown;
		grown[(*nr)++] = (int32_t)v;
	}
	for (size_t i = 0; i < n; i++)
		free(items[i]);
	free(items);
	return err;
}

int prof_load_parse(struct prof_load *pl, const char *cmd)
{
	struct prof_filters *f = &pl->f;

	if (split_list(pl->comms, &f->comms, &f->nr_comms) ||
	    split_list(pl->dsos, &f->dsos, &f->nr_dsos) ||
	    split_list(pl->syms, &f->syms, &f->nr_syms) ||
	    parse_id_list(cmd, "pid", pl->pids, &f->pids, &f->nr_pids) ||
	    parse_id_list(cmd, "tid", pl->tids, &f->tids, &f->nr_tids) ||
	    slice_parse_cpus(&f->slice, cmd, pl->cpus) ||
	    slice_parse_time(&f->slice, cmd, pl->time))
		return -EINVAL;
	return 0;
}

struct sonde_perfdata_reader *prof_open_input(const char *cmd, const char *path,
					      bool check_owner)
{
	char ebuf[256] = "", buf[128];
	SONDE_OPTS(sonde_perfdata_reader_opts, ro, .errbuf = ebuf, .errbuf_size = sizeof(ebuf),
		   .check_owner = check_owner);
	struct sonde_perfdata_reader *r = sonde_perfdata_reader__open(path, &ro);

	if (r)
		return r;
	if (errno == SONDE_ERR_FORMAT)
		fprintf(stderr, "%s: %s: not a valid perf.data file: %s\n", cmd, path, ebuf);
	else if (errno == EPERM && ebuf[0])
		fprintf(stderr, "%s: %s: %s\n", cmd, path, ebuf);
	else
		fprintf(stderr, "%s: %s: %s\n", cmd, path,
			errno == ENOENT ? "No such file (record one with `sonde record` or `perf record`, or pass -i FILE)"
					: sonde_strerror(errno, buf, sizeof(buf)));
	return NULL;
}

int prof_load_open(struct prof_load *pl, const char *cmd, const char *path)
{
	pl->r = prof_open_input(cmd, path, pl->check_owner);
	if (!pl->r)
		return -EINVAL;
	sonde_perfdata_reader__sample_time(pl->r, &pl->first_ns, &pl->last_ns);
	return 0;
}

/* --time and -C as the profile filters them: the slice in the profile's terms. */
static int slice_to_filter(struct prof_filters *f)
{
	const struct sample_slice *sl = &f->slice;

	for (int c = 0; sl->cpus && c < 4096; c++) {
		int32_t *v;

		if (!(sl->cpus[c / 8] & (1 << (c % 8))))
			continue;
		v = realloc(f->cpus, (f->nr_cpus + 1) * sizeof(*v));
		if (!v)
			return -ENOMEM;
		f->cpus = v;
		v[f->nr_cpus++] = (int32_t)c;
	}
	if (sl->time && sl->nr_time) {
		f->times = calloc((size_t)sl->nr_time, sizeof(*f->times));
		if (!f->times)
			return -ENOMEM;
		for (int i = 0; i < sl->nr_time; i++) {
			f->times[i].start = sl->time[i].start;
			f->times[i].end = sl->time[i].end;
		}
		f->nr_times = (size_t)sl->nr_time;
	}
	return 0;
}

int prof_load_resolve(struct prof_load *pl, const char *cmd, const char *path)
{
	/* The reader knows the span; sample_slice.c sees public API only. */
	struct slice_span span = { pl->first_ns, pl->last_ns,
				   sonde_perfdata_reader__is_streaming(pl->r) };
	int err = slice_resolve(&pl->f.slice, cmd, pl->r, path, &span);

	return err ? err : slice_to_filter(&pl->f);
}

int prof_load_new_profile(struct prof_load *pl, const struct sonde_profile_opts *po)
{
	const struct prof_filters *f = &pl->f;
	SONDE_OPTS(sonde_profile_filter, pf,
		   .comms = (const char *const *)f->comms, .nr_comms = f->nr_comms,
		   .pids = f->pids, .nr_pids = f->nr_pids,
		   .tids = f->tids, .nr_tids = f->nr_tids,
		   .cpus = f->cpus, .nr_cpus = f->nr_cpus,
		   .times = f->times, .nr_times = f->nr_times,
		   .dsos = (const char *const *)f->dsos, .nr_dsos = f->nr_dsos,
		   .syms = (const char *const *)f->syms, .nr_syms = f->nr_syms);

	int err;

	errno = 0;
	pl->p = sonde_profile__new(po);
	if (!pl->p)
		return errno ? -errno : -ENOMEM;
	err = sonde_profile__set_filter(pl->p, &pf);
	if (err) {
		sonde_profile__free(pl->p);
		pl->p = NULL;
	}
	return err;
}

int prof_load_read(struct prof_load *pl,
		   void (*each)(void *arg, const struct sonde_perfdata_record *rec), void *arg)
{
	uint64_t size = sonde_perfdata_reader__data_size(pl->r), n = 0;
	struct sonde_perfdata_record rec;
	struct progress bar;
	int err;

	/* Files that load in well under a second get no bar. */
	progress_start(&bar, "Loading", size, !pl->quiet && size > PROGRESS_MIN_BYTES);
	while ((err = sonde_perfdata_reader__next(pl->r, &rec)) > 0) {
		if (bar.on && !(++n & 0xffff))
			progress_update(&bar, sonde_perfdata_reader__progress(pl->r));
		/* A sample that does not decode is skipped, as perf does. */
		sonde_profile__add_perfdata_record(pl->p, pl->r, &rec);
		if (each)
			each(arg, &rec);
	}
	progress_finish(&bar);
	/* A pipe tells its sample times at its end. */
	if (!pl->first_ns && !pl->last_ns)
		sonde_perfdata_reader__sample_time(pl->r, &pl->first_ns, &pl->last_ns);
	return err;
}

int prof_load(struct prof_load *pl, const char *cmd, const char *path)
{
	static const enum sonde_profile_key per_thread[] = {
		SONDE_PROFILE_KEY_COMM, SONDE_PROFILE_KEY_PID, SONDE_PROFILE_KEY_TID,
	};
	SONDE_OPTS(sonde_profile_opts, po, .callchains = !pl->self_only, .cache = true,
		   .keys = pl->keys ? pl->keys : per_thread,
		   .nr_keys = pl->keys ? pl->nr_keys : 3, .timeline = pl->timeline);
	int err;

	if (prof_load_parse(pl, cmd))
		return 129;
	if (prof_load_open(pl, cmd, path) || prof_load_resolve(pl, cmd, path))
		return 1;
	err = prof_load_new_profile(pl, &po);
	if (err) {
		char buf[128];

		fprintf(stderr, "%s: cannot make the profile: %s\n", cmd,
			sonde_strerror(-err, buf, sizeof(buf)));
		return 1;
	}
	if (sonde_perfdata_reader__error(pl->r))
		fprintf(stderr, "%s: warning: %s: %s\n", cmd, path,
			sonde_perfdata_reader__error(pl->r));
	err = prof_load_read(pl, NULL, NULL);
	if (err < 0) { /* the records before the problem still count, as in report */
		char buf[128];

		fprintf(stderr, "%s: warning: %s: %s\n", cmd, path,
			sonde_strerror(-err, buf, sizeof(buf)));
	}
	return 0;
}

void prof_load_free(struct prof_load *pl)
{
	struct prof_filters *f = &pl->f;

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
	slice_free(&f->slice);
	memset(f, 0, sizeof(*f));
	sonde_profile__free(pl->p);
	sonde_perfdata_reader__free(pl->r);
	pl->p = NULL;
	pl->r = NULL;
}
