// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The perf_event_open(2) ioctls, one wrapper each, and their evsel-wide
 * forms. The fd wrappers stay async-signal-safe: no allocation except in
 * QUERY_BPF, no locks, only the seam's ioctl.
 */
#include <stdlib.h>
#include <string.h>
#include "sonde/evctl.h"
#include "sonde/sys.h"
#include "count_priv.h"
#include "core_priv.h"

static int ioc(int fd, unsigned long req, unsigned long arg)
{
	if (fd < 0)
		return lib_err(EBADF);
	if (sonde_sys_ops()->ioctl(fd, req, arg))
		return lib_err(errno);
	return 0;
}

int sonde_perf_event_ioc_enable(int fd, bool group)
{
	return ioc(fd, SONDE_PERF_EVENT_IOC_ENABLE,
		   group ? SONDE_PERF_IOC_FLAG_GROUP : 0);
}

int sonde_perf_event_ioc_disable(int fd, bool group)
{
	return ioc(fd, SONDE_PERF_EVENT_IOC_DISABLE,
		   group ? SONDE_PERF_IOC_FLAG_GROUP : 0);
}

int sonde_perf_event_ioc_reset(int fd, bool group)
{
	return ioc(fd, SONDE_PERF_EVENT_IOC_RESET,
		   group ? SONDE_PERF_IOC_FLAG_GROUP : 0);
}

int sonde_perf_event_ioc_refresh(int fd, int n)
{
	if (n <= 0)
		return lib_err(EINVAL);
	return ioc(fd, SONDE_PERF_EVENT_IOC_REFRESH, (unsigned long)n);
}

int sonde_perf_event_ioc_period(int fd, uint64_t period)
{
	/* _IOW(u64): the kernel reads the value through the pointer. */
	return ioc(fd, SONDE_PERF_EVENT_IOC_PERIOD, (unsigned long)&period);
}

int sonde_perf_event_ioc_set_output(int fd, int out_fd)
{
	return ioc(fd, SONDE_PERF_EVENT_IOC_SET_OUTPUT, (unsigned long)out_fd);
}

int sonde_perf_event_ioc_set_filter(int fd, const char *filter)
{
	if (!filter)
		return lib_err(EINVAL);
	return ioc(fd, SONDE_PERF_EVENT_IOC_SET_FILTER, (unsigned long)filter);
}

int sonde_perf_event_ioc_id(int fd, uint64_t *id)
{
	if (!id)
		return lib_err(EINVAL);
	return ioc(fd, SONDE_PERF_EVENT_IOC_ID, (unsigned long)id);
}

int sonde_perf_event_ioc_set_bpf(int fd, int prog_fd)
{
	if (prog_fd < 0)
		return lib_err(EBADF);
	return ioc(fd, SONDE_PERF_EVENT_IOC_SET_BPF, (unsigned long)prog_fd);
}

int sonde_perf_event_ioc_pause_output(int fd, bool pause)
{
	return ioc(fd, SONDE_PERF_EVENT_IOC_PAUSE_OUTPUT, pause ? 1 : 0);
}

/* struct perf_event_query_bpf: ids_len, prog_cnt, then the ids. */
struct query_bpf {
	uint32_t ids_len;
	uint32_t prog_cnt;
	uint32_t ids[];
};

int sonde_perf_event_ioc_query_bpf(int fd, uint32_t *ids, uint32_t ids_len)
{
	struct query_bpf *q;
	int ret;

	if (!ids && ids_len)
		return lib_err(EINVAL);
	if (ids_len > 1u << 20)
		return lib_err(E2BIG);
	q = calloc(1, sizeof(*q) + (size_t)ids_len * sizeof(uint32_t));
	if (!q)
		return lib_err(ENOMEM);
	q->ids_len = ids_len;
	ret = ioc(fd, SONDE_PERF_EVENT_IOC_QUERY_BPF, (unsigned long)q);
	/* ENOSPC: more programs than room; the kernel filled what fits. */
	if (ret == 0 || ret == -ENOSPC) {
		uint32_t n = q->prog_cnt < ids_len ? q->prog_cnt : ids_len;

		for (uint32_t i = 0; i < n; i++)
			ids[i] = q->ids[i];
		ret = q->prog_cnt > INT32_MAX ? INT32_MAX : (int)q->prog_cnt;
	}
	free(q);
	return ret < 0 ? lib_err(ret) : ret;
}

int sonde_perf_event_ioc_modify_attributes(int fd,
					   const struct sonde_perf_event_attr *attr)
{
	if (!attr)
		return lib_err(EINVAL);
	return ioc(fd, SONDE_PERF_EVENT_IOC_MODIFY_ATTRIBUTES,
		   (unsigned long)attr);
}

/* @fn on every open fd of @e; -EBADF when none is open. */
static int each_fd(const struct sonde_evsel *e, int (*fn)(int, const void *),
		   const void *arg)
{
	int n = 0;

	if (!e)
		return lib_err(EINVAL);
	for (int c = 0; e->fds && c < e->list->cpus->nr; c++) {
		for (int t = 0; t < e->list->threads->nr; t++) {
			int fd = *evsel_fd_slot(e, c, t), ret;

			if (fd < 0)
				continue;
			ret = fn(fd, arg);
			if (ret)
				return ret;
			n++;
		}
	}
	return n ? 0 : lib_err(EBADF);
}

static int do_filter(int fd, const void *arg)
{
	return sonde_perf_event_ioc_set_filter(fd, arg);
}

static int do_period(int fd, const void *arg)
{
	return sonde_perf_event_ioc_period(fd, *(const uint64_t *)arg);
}

static int do_refresh(int fd, const void *arg)
{
	return sonde_perf_event_ioc_refresh(fd, *(const int *)arg);
}

int sonde_evsel__set_filter(const struct sonde_evsel *e, const char *filter)
{
	if (!filter)
		return lib_err(EINVAL);
	return each_fd(e, do_filter, filter);
}

int sonde_evsel__set_period(const struct sonde_evsel *e, uint64_t period)
{
	return each_fd(e, do_period, &period);
}

int sonde_evsel__refresh(const struct sonde_evsel *e, int n)
{
	if (n <= 0)
		return lib_err(EINVAL);
	return each_fd(e, do_refresh, &n);
}

int sonde_evsel__set_probe_target(struct sonde_evsel *e, const char *target)
{
	char *c;

	if (!e || !target)
		return lib_err(EINVAL);
	if (e->fds)
		return lib_err(EBUSY);
	c = strdup(target);
	if (!c)
		return lib_err(ENOMEM);
	free(e->probe_target);
	e->probe_target = c;
	e->attr.config1 = (uint64_t)(uintptr_t)c;
	return 0;
}

int sonde_evsel__set_weak_group(struct sonde_evsel *e, bool weak)
{
	if (!e || e->leader != e->idx)
		return lib_err(EINVAL);
	if (e->fds)
		return lib_err(EBUSY);
	e->weak_group = weak;
	return 0;
}
