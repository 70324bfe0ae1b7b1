// SPDX-License-Identifier: LGPL-2.1-only
/*
 * In-process measurement of code regions. The events are opened once as one
 * group on the calling thread and keep counting; begin and end only take
 * snapshots, so the cost of a region is two reads: rdpmc from user space
 * when every event's mmap page allows it, else one read(2) of the group.
 * The read path keeps its buffers in the region so it never allocates.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/evlist.h"
#include "sonde/evparse.h"
#include "sonde/region.h"
#include "sonde/sys.h"
#include "count_priv.h"
#include "core_priv.h"

struct snap {
	uint64_t val, ena, run;
};

struct sonde_region {
	struct sonde_evlist *list;
	size_t nr;
	bool grouped;
	bool rdpmc_ok;   /* every page has cap_user_rdpmc */
	bool last_rdpmc; /* the last snapshot used rdpmc */
	bool in_region;
	int *fds;        /* leader fd first; every fd when not grouped */
	uint64_t read_format;
	/* The seam's read(2), taken once at open (the seam is set before). */
	ssize_t (*read)(int fd, void *buf, size_t count);
	uint64_t *buf;   /* read(2) buffer */
	size_t buf_len;
	const volatile struct sonde_perf_event_mmap_page **pages;
	struct snap *begin;
	struct sonde_region_count *sum;
};

void sonde_region__free(struct sonde_region *r)
{
	if (!r)
		return;
	sonde_evlist__free(r->list);
	free(r->fds);
	free(r->buf);
	free(r->pages);
	free(r->begin);
	free(r->sum);
	free(r);
}

/* Maps every event's first page; rdpmc only if all of them allow it. */
static void setup_rdpmc(struct sonde_region *r)
{
	/* No reader for this architecture: every snapshot uses read(2). */
	r->rdpmc_ok = sonde_sys_ops()->rdpmc != NULL;
	for (size_t i = 0; i < r->nr; i++) {
		struct sonde_evsel *e = sonde_evlist__evsel(r->list, (int)i);

		if (sonde_evsel__mmap_self(e)) {
			r->rdpmc_ok = false;
			return;
		}
		r->pages[i] = e->mmap_page;
		/* As selfmon_read(): only a 3.12+ page's bits say anything. */
		if (!r->pages[i] || !r->pages[i]->cap_bit0_is_deprecated ||
		    !r->pages[i]->cap_user_rdpmc)
			r->rdpmc_ok = false;
	}
}

static struct sonde_region *region_open(struct sonde_region *r,
					const struct sonde_region_opts *opts)
{
	SONDE_OPTS(sonde_evlist_open_opts, oo, .no_inherit = true);
	size_t words;
	int err;

	r->fds = calloc(r->nr, sizeof(*r->fds));
	r->pages = calloc(r->nr, sizeof(*r->pages));
	r->begin = calloc(r->nr, sizeof(*r->begin));
	r->sum = calloc(r->nr, sizeof(*r->sum));
	/* nr, ena, run, then {value, id} per member: the largest layout. */
	words = 3 + 2 * r->nr;
	r->buf = calloc(words, sizeof(*r->buf));
	r->buf_len = words * sizeof(*r->buf);
	if (!r->fds || !r->pages || !r->begin || !r->sum ||
	    !r->buf) {
		err = -ENOMEM;
		goto fail;
	}
	err = sonde_evlist__open(r->list, &oo);
	if (err) {
		for (size_t i = 0; i < r->nr; i++) {
			struct sonde_evsel *e =
				sonde_evlist__evsel(r->list, (int)i);
			const char *why = sonde_evsel__open_error(e);

			if (why)
				pr_warn("region: %s: %s\n",
					sonde_evsel__name(e), why);
		}
		goto fail;
	}
	err = sonde_evlist__enable(r->list);
	if (err)
		goto fail;
	for (size_t i = 0; i < r->nr; i++)
		r->fds[i] = sonde_evsel__fd(sonde_evlist__evsel(r->list,
								(int)i), 0, 0);
	r->read = sonde_sys_ops()->read;
	if (!OPTS_GET(opts, no_rdpmc, false))
		setup_rdpmc(r);
	return r;
fail:
	sonde_region__free(r);
	return lib_err_ptr(err);
}

/* The list, with every event in one group unless asked otherwise. */
static struct sonde_region *region_alloc(size_t n,
					 const struct sonde_region_opts *opts)
{
	struct sonde_region *r;

	if (!OPTS_VALID(opts, sonde_region_opts) || n == 0)
		return lib_err_ptr(EINVAL);
	r = calloc(1, sizeof(*r));
	if (!r)
		return lib_err_ptr(ENOMEM);
	r->list = sonde_evlist__new();
	if (!r->list) {
		free(r);
		return lib_err_ptr(ENOMEM);
	}
	r->grouped = !OPTS_GET(opts, no_group, false);
	r->read_format = SONDE_PERF_FORMAT_TOTAL_TIME_ENABLED |
			 SONDE_PERF_FORMAT_TOTAL_TIME_RUNNING |
			 SONDE_PERF_FORMAT_ID |
			 (r->grouped ? SONDE_PERF_FORMAT_GROUP : 0);
	return r;
}

static int region_add(struct sonde_region *r,
		      const struct sonde_perf_event_attr *attr,
		      const char *name)
{
	struct sonde_perf_event_attr a = *attr;
	int idx;

	if (!a.size)
		a.size = sizeof(a);
	a.read_format = r->read_format;
	/*
	 * Opened disabled and enabled once the group is whole: a member
	 * that joins a group already on the PMU only starts counting at the
	 * group's next schedule-in. begin/end are then only snapshots.
	 */
	a.disabled = 1;
	a.enable_on_exec = 0;
	a.inherit = 0;
	idx = sonde_evlist__add(r->list, &a, name,
				r->grouped && r->nr ? 0 : -1);
	if (idx < 0)
		return idx;
	r->nr++;
	return 0;
}

struct sonde_region *
sonde_region__new_attrs(const struct sonde_perf_event_attr *attrs,
			const char *const *names, size_t n,
			const struct sonde_region_opts *opts)
{
	struct sonde_region *r;
	int err;

	if (!attrs)
		return lib_err_ptr(EINVAL);
	r = region_alloc(n, opts);
	if (!r)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		err = region_add(r, &attrs[i], names ? names[i] : NULL);
		if (err) {
			sonde_region__free(r);
			return lib_err_ptr(err);
		}
	}
	return region_open(r, opts);
}

struct sonde_region *sonde_region__new(const char *spec,
				       const struct sonde_region_opts *opts)
{
	struct sonde_parse_error perr;
	struct sonde_evspec_list *l = NULL;
	struct sonde_region *r;
	size_t n;
	int err;

	if (!spec)
		return lib_err_ptr(EINVAL);
	memset(&perr, 0, sizeof(perr));
	err = sonde_evspec_list__parse(spec, &l, &perr);
	if (err) {
		char msg[768];

		if (sonde_parse_error__format(&perr, msg, sizeof(msg)) > 0)
			pr_warn("region: %s\n", msg);
		return lib_err_ptr(err);
	}
	n = sonde_evspec_list__count(l);
	r = region_alloc(n, opts);
	for (size_t i = 0; r && i < n; i++) {
		err = region_add(r, sonde_evspec_list__attr(l, i),
				 sonde_evspec_list__name(l, i));
		if (err) {
			sonde_region__free(r);
			r = lib_err_ptr(err);
		}
	}
	sonde_evspec_list__free(l);
	return r ? region_open(r, opts) : NULL;
}

size_t sonde_region__nr(const struct sonde_region *r)
{
	return r ? r->nr : 0;
}

const char *sonde_region__name(const struct sonde_region *r, size_t i)
{
	if (!r || i >= r->nr)
		return NULL;
	return sonde_evsel__name(sonde_evlist__evsel(r->list, (int)i));
}

bool sonde_region__uses_rdpmc(const struct sonde_region *r)
{
	return r && r->last_rdpmc;
}

/* All events with rdpmc, or 0 when any of them cannot be read that way. */
static int snap_rdpmc(struct sonde_region *r, struct snap *out)
{
	struct sonde_count c;

	for (size_t i = 0; i < r->nr; i++) {
		if (selfmon_read(r->pages[i], &c) != 1)
			return 0;
		out[i] = (struct snap){ c.val, c.ena, c.run };
	}
	return 1;
}

/*
 * One read(2) per group (per event with no_group). The layout is the one
 * this file asked for (ENABLED|RUNNING|ID, plus GROUP), so it is decoded
 * in place: no call, no copy, no scaling on the hot path.
 */
static int snap_read(struct sonde_region *r, struct snap *out)
{
	size_t calls = r->grouped ? 1 : r->nr;

	for (size_t k = 0; k < calls; k++) {
		ssize_t got = r->read(r->fds[k], r->buf, r->buf_len);
		const uint64_t *w = r->buf;

		if (got < 0)
			return lib_err(errno);
		if (r->grouped) {
			/* nr, ena, run, then {value, id} per member */
			if ((size_t)got < (3 + 2 * r->nr) * sizeof(*w) ||
			    w[0] != r->nr)
				return lib_err(SONDE_ERR_FORMAT);
			for (size_t i = 0; i < r->nr; i++)
				out[i] = (struct snap){ w[3 + 2 * i], w[1],
							w[2] };
		} else {
			/* value, ena, run, id */
			if ((size_t)got < 4 * sizeof(*w))
				return lib_err(SONDE_ERR_FORMAT);
			out[k] = (struct snap){ w[0], w[1], w[2] };
		}
	}
	return 0;
}

static int snapshot(struct sonde_region *r, struct snap *out)
{
	if (r->rdpmc_ok && snap_rdpmc(r, out)) {
		r->last_rdpmc = true;
		return 0;
	}
	r->last_rdpmc = false;
	return snap_read(r, out);
}

int sonde_region__begin(struct sonde_region *r)
{
	int err;

	if (!r)
		return lib_err(EINVAL);
	err = snapshot(r, r->begin);
	if (err)
		return err;
	r->in_region = true;
	return 0;
}

int sonde_region__end(struct sonde_region *r)
{
	struct snap end[16], *e = end;
	int err;

	if (!r || !r->in_region)
		return lib_err(EINVAL);
	if (r->nr > sizeof(end) / sizeof(end[0])) {
		e = malloc(r->nr * sizeof(*e));
		if (!e)
			return lib_err(ENOMEM);
	}
	err = snapshot(r, e);
	if (!err) {
		for (size_t i = 0; i < r->nr; i++) {
			struct sonde_region_count *s = &r->sum[i];
			uint64_t dv = e[i].val - r->begin[i].val;
			uint64_t de = e[i].ena - r->begin[i].ena;
			uint64_t dr = e[i].run - r->begin[i].run;

			s->raw += dv;
			s->ena += de;
			s->run += dr;
			/* Multiplexed: extrapolate to the time enabled. */
			s->value += dr && dr < de ?
				(double)dv * (double)de / (double)dr :
				(double)dv;
			s->regions++;
		}
		r->in_region = false;
	}
	if (e != end)
		free(e);
	return err;
}

int sonde_region__read(const struct sonde_region *r,
		       struct sonde_region_count *out, size_t n)
{
	if (!r || (!out && n))
		return lib_err(EINVAL);
	if (n > r->nr)
		n = r->nr;
	memcpy(out, r->sum, n * sizeof(*out));
	return (int)n;
}

int sonde_region__reset(struct sonde_region *r)
{
	if (!r)
		return lib_err(EINVAL);
	memset(r->sum, 0, r->nr * sizeof(*r->sum));
	r->in_region = false;
	return 0;
}
