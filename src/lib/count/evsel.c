// SPDX-License-Identifier: LGPL-2.1-only
/* One event's accessors, reads (single, group, aggregated) and IOC_ID. */
#include <stdlib.h>
#include <string.h>
#include "sonde/sys.h"
#include "count_priv.h"
#include "core_priv.h"

const struct sonde_perf_event_attr *
sonde_evsel__attr(const struct sonde_evsel *e)
{
	return e ? &e->attr : NULL;
}

const char *sonde_evsel__name(const struct sonde_evsel *e)
{
	return e ? e->name : "";
}

int sonde_evsel__idx(const struct sonde_evsel *e)
{
	return e ? e->idx : -EINVAL;
}

int sonde_evsel__leader(const struct sonde_evsel *e)
{
	return e ? e->leader : -EINVAL;
}

bool sonde_evsel__supported(const struct sonde_evsel *e)
{
	return e && !e->unsupported;
}

int sonde_evsel__open_errno(const struct sonde_evsel *e)
{
	return e ? e->open_errno : 0;
}

int sonde_evsel__set_attr(struct sonde_evsel *e,
			  const struct sonde_perf_event_attr *attr)
{
	if (!e || !attr)
		return lib_err(EINVAL);
	if (e->fds)
		return lib_err(EBUSY);
	e->attr = *attr;
	if (!e->attr.size || e->attr.size > sizeof(e->attr))
		e->attr.size = sizeof(e->attr);
	return 0;
}

int sonde_evsel__open_cpu(const struct sonde_evsel *e)
{
	return e && e->open_errno ? e->open_cpu : -1;
}

const char *sonde_evsel__open_error(const struct sonde_evsel *e)
{
	return e && e->open_error ? e->open_error : "";
}

int sonde_evsel__fd(const struct sonde_evsel *e, int cpu_idx, int thread_idx)
{
	int *slot = e ? evsel_fd_slot(e, cpu_idx, thread_idx) : NULL;

	return slot ? *slot : -1;
}

int sonde_evsel__id(const struct sonde_evsel *e, int cpu_idx, int thread_idx,
		    uint64_t *id)
{
	int fd = sonde_evsel__fd(e, cpu_idx, thread_idx);

	if (!id)
		return lib_err(EINVAL);
	if (fd < 0)
		return lib_err(EBADF);
	if (sonde_sys_ops()->ioctl(fd, SONDE_PERF_EVENT_IOC_ID,
				   (unsigned long)id))
		return lib_err(errno);
	return 0;
}

/* Largest group sonde reads in one go; the kernel allows far fewer. */
#define MAX_GROUP 512

/* Reads @fd; with GROUP, picks entry @pos. */
static int read_fd(const struct sonde_evsel *e, int fd, int pos,
		   struct sonde_count *out, size_t n_out, int *nr)
{
	uint64_t rf = e->attr.read_format;
	size_t words = rf & SONDE_PERF_FORMAT_GROUP ? 3 + 3 * MAX_GROUP : 5;
	uint64_t stackbuf[8], *buf = stackbuf;
	struct sonde_count one;
	ssize_t got;
	int ret;

	if (words > ARRAY_SIZE(stackbuf)) {
		buf = malloc(words * 8);
		if (!buf)
			return -ENOMEM;
	}
	got = sonde_sys_ops()->read(fd, buf, words * 8);
	if (got < 0) {
		ret = -errno;
		goto out;
	}
	/*
	 * End of file: a pinned event the PMU could not keep on is in error
	 * state and reads nothing until it is enabled again (perf_event_open(2),
	 * "pinned"). Say so rather than call the empty read corrupt.
	 */
	if (got == 0) {
		ret = -ENODATA;
		goto out;
	}
	if (!(rf & SONDE_PERF_FORMAT_GROUP)) {
		ret = sonde_count__decode(buf, (size_t)got, rf, out, n_out);
	} else if (out && n_out) {
		/* Group: the caller wants either all entries or entry @pos. */
		if (pos < 0) {
			ret = sonde_count__decode(buf, (size_t)got, rf, out, n_out);
		} else {
			struct sonde_count *all = malloc(MAX_GROUP * sizeof(*all));

			if (!all) {
				ret = -ENOMEM;
				goto out;
			}
			ret = sonde_count__decode(buf, (size_t)got, rf, all,
						  MAX_GROUP);
			if (ret >= 0 && pos >= ret)
				ret = -SONDE_ERR_FORMAT;
			if (ret >= 0)
				one = all[pos], out[0] = one;
			free(all);
		}
	} else {
		ret = sonde_count__decode(buf, (size_t)got, rf, NULL, 0);
	}
	if (ret >= 0 && nr)
		*nr = ret;
out:
	if (buf != stackbuf)
		free(buf);
	return ret < 0 ? ret : 0;
}

int sonde_evsel__read(const struct sonde_evsel *e, int cpu_idx, int thread_idx,
		      struct sonde_count *c)
{
	int fd = sonde_evsel__fd(e, cpu_idx, thread_idx);
	int ret;

	if (!c)
		return lib_err(EINVAL);
	if (fd < 0)
		return lib_err(EBADF);
	memset(c, 0, sizeof(*c));
	ret = read_fd(e, fd, e->group_pos, c, 1, NULL);
	return ret ? lib_err(ret) : 0;
}

int sonde_evsel__read_group(const struct sonde_evsel *e, int cpu_idx,
			    int thread_idx, struct sonde_count *out, size_t n)
{
	int fd = sonde_evsel__fd(e, cpu_idx, thread_idx);
	int nr = 0, ret;

	if (!e || (!out && n))
		return lib_err(EINVAL);
	if (!(e->attr.read_format & SONDE_PERF_FORMAT_GROUP))
		return lib_err(EINVAL);
	if (fd < 0)
		return lib_err(EBADF);
	ret = read_fd(e, fd, -1, out, n, &nr);
	return ret ? lib_err(ret) : nr;
}

static int read_sum(const struct sonde_evsel *e, int c_lo, int c_hi,
		    struct sonde_count *sum)
{
	int nt;

	if (!e || !sum)
		return lib_err(EINVAL);
	memset(sum, 0, sizeof(*sum));
	if (!e->fds)
		return lib_err(EBADF);
	nt = e->list->threads->nr;
	for (int c = c_lo; c < c_hi; c++) {
		for (int t = 0; t < nt; t++) {
			struct sonde_count one;
			int ret;

			if (e->fds[c * nt + t] < 0)
				continue;
			ret = sonde_evsel__read(e, c, t, &one);
			if (ret)
				return ret;
			sonde_count__add(sum, &one);
			sum->id = sum->id ? sum->id : one.id;
		}
	}
	sonde_count__scale(sum);
	return 0;
}

int sonde_evsel__read_total(const struct sonde_evsel *e,
			    struct sonde_count *sum)
{
	return read_sum(e, 0, e ? e->list->cpus->nr : 0, sum);
}

int sonde_evsel__read_cpu(const struct sonde_evsel *e, int cpu_idx,
			  struct sonde_count *sum)
{
	if (!e || cpu_idx < 0 || cpu_idx >= e->list->cpus->nr)
		return lib_err(EINVAL);
	return read_sum(e, cpu_idx, cpu_idx + 1, sum);
}
