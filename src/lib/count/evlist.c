// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Event lists: events x CPUs x threads, groups, targets, and opening them
 * all (or none) through sonde_event_open().
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>
#include "sonde/evopen.h"
#include "sonde/sys.h"
#include "count_priv.h"
#include "core_priv.h"

#define CGROUP_SUPER_MAGIC_V1 0x27e0ebUL
#define CGROUP2_SUPER_MAGIC_V2 0x63677270UL

struct sonde_evlist *sonde_evlist__new(void)
{
	struct sonde_evlist *l = calloc(1, sizeof(*l));

	if (!l)
		return lib_err_ptr(ENOMEM);
	l->cpus = sonde_cpu_map__new_any();
	l->threads = sonde_thread_map__new_self();
	if (!l->cpus || !l->threads) {
		sonde_cpu_map__free(l->cpus);
		sonde_thread_map__free(l->threads);
		free(l);
		return lib_err_ptr(ENOMEM);
	}
	l->cgroup_fd = -1;
	l->go_fd = -1;
	l->err_fd = -1;
	return l;
}

void sonde_evlist__free(struct sonde_evlist *l)
{
	if (!l)
		return;
	sonde_evlist__close(l);
	workload_cleanup(l);
	for (int i = 0; i < l->nr; i++) {
		free(l->evsels[i]->name);
		free(l->evsels[i]->probe_target);
		free(l->evsels[i]->open_error);
		free(l->evsels[i]);
	}
	free(l->evsels);
	if (l->cgroup_fd >= 0)
		close(l->cgroup_fd);
	sonde_cpu_map__free(l->cpus);
	sonde_thread_map__free(l->threads);
	free(l);
}

int sonde_evlist__add(struct sonde_evlist *l,
		      const struct sonde_perf_event_attr *attr,
		      const char *name, int leader_idx)
{
	struct sonde_evsel *e, **bigger;
	char buf[32];

	if (!l || !attr)
		return lib_err(EINVAL);
	if (l->open)
		return lib_err(EBUSY);
	if (leader_idx >= l->nr ||
	    (leader_idx >= 0 && l->evsels[leader_idx]->leader != leader_idx)) {
		pr_warn("event '%s': group leader %d is not a leading event\n",
			name ? name : "", leader_idx);
		return lib_err(EINVAL);
	}
	e = calloc(1, sizeof(*e));
	bigger = realloc(l->evsels, (size_t)(l->nr + 1) * sizeof(*bigger));
	if (!e || !bigger) {
		free(e);
		if (bigger)
			l->evsels = bigger;
		return lib_err(ENOMEM);
	}
	l->evsels = bigger;
	e->list = l;
	e->attr = *attr;
	if (!e->attr.size || e->attr.size > sizeof(e->attr))
		e->attr.size = sizeof(e->attr);
	e->idx = l->nr;
	if (!name) {
		snprintf(buf, sizeof(buf), "event%d", e->idx);
		name = buf;
	}
	e->name = strdup(name);
	if (!e->name) {
		free(e);
		return lib_err(ENOMEM);
	}
	if (leader_idx < 0) {
		e->leader = e->idx;
		e->nr_members = 1;
	} else {
		struct sonde_evsel *lead = l->evsels[leader_idx];

		e->leader = leader_idx;
		e->group_pos = lead->nr_members++;
	}
	l->evsels[l->nr++] = e;
	return e->idx;
}

int sonde_evlist__nr(const struct sonde_evlist *l)
{
	return l ? l->nr : 0;
}

struct sonde_evsel *sonde_evlist__evsel(struct sonde_evlist *l, int idx)
{
	if (!l || idx < 0 || idx >= l->nr)
		return lib_err_ptr(EINVAL);
	return l->evsels[idx];
}

int sonde_evlist__set_maps(struct sonde_evlist *l, struct sonde_cpu_map *cpus,
			   struct sonde_thread_map *threads)
{
	if (!l)
		return lib_err(EINVAL);
	if (l->open)
		return lib_err(EBUSY);
	if (cpus) {
		sonde_cpu_map__free(l->cpus);
		l->cpus = cpus;
	}
	if (threads) {
		sonde_thread_map__free(l->threads);
		l->threads = threads;
	}
	return 0;
}

const struct sonde_cpu_map *sonde_evlist__cpus(const struct sonde_evlist *l)
{
	return l ? l->cpus : NULL;
}

const struct sonde_thread_map *
sonde_evlist__threads(const struct sonde_evlist *l)
{
	return l ? l->threads : NULL;
}

static int set_target(struct sonde_evlist *l, struct sonde_cpu_map *c,
		      struct sonde_thread_map *t)
{
	if (!c || !t) {
		int err = errno;

		sonde_cpu_map__free(c);
		sonde_thread_map__free(t);
		return lib_err(err);
	}
	if (l->open) {
		sonde_cpu_map__free(c);
		sonde_thread_map__free(t);
		return lib_err(EBUSY);
	}
	return sonde_evlist__set_maps(l, c, t);
}

int sonde_evlist__target_pid(struct sonde_evlist *l, pid_t pid)
{
	if (!l)
		return lib_err(EINVAL);
	return set_target(l, sonde_cpu_map__new_any(),
			  sonde_thread_map__new_pid(pid));
}

int sonde_evlist__target_tid(struct sonde_evlist *l, pid_t tid)
{
	if (!l)
		return lib_err(EINVAL);
	return set_target(l, sonde_cpu_map__new_any(),
			  sonde_thread_map__new_tid(tid));
}

int sonde_evlist__target_cpus(struct sonde_evlist *l, const char *cpu_list)
{
	if (!l)
		return lib_err(EINVAL);
	return set_target(l, sonde_cpu_map__new(cpu_list),
			  sonde_thread_map__new_any());
}

int sonde_evlist__target_cgroup(struct sonde_evlist *l, const char *path,
				const char *cpu_list)
{
	struct statfs sf;
	int fd, ret;

	if (!l || !path)
		return lib_err(EINVAL);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		ret = errno;
		pr_warn("cgroup '%s': %s\n", path, strerror(ret));
		return lib_err(ret);
	}
	if (fstatfs(fd, &sf) ||
	    ((unsigned long)sf.f_type != CGROUP_SUPER_MAGIC_V1 &&
	     (unsigned long)sf.f_type != CGROUP2_SUPER_MAGIC_V2)) {
		pr_warn("'%s' is not a cgroup: give a directory under "
			"/sys/fs/cgroup (file system type %#lx)\n", path,
			(unsigned long)sf.f_type);
		close(fd);
		return lib_err(EMEDIUMTYPE);
	}
	ret = set_target(l, sonde_cpu_map__new(cpu_list),
			 sonde_thread_map__new_any());
	if (ret) {
		close(fd);
		return ret;
	}
	if (l->cgroup_fd >= 0)
		close(l->cgroup_fd);
	l->cgroup_fd = fd;
	return 0;
}

void evsel_close(struct sonde_evsel *e)
{
	int n = e->list->cpus->nr * e->list->threads->nr;

	if (e->mmap_page)
		sonde_sys_ops()->munmap(e->mmap_page, e->mmap_len);
	e->mmap_page = NULL;
	for (int i = 0; e->fds && i < n; i++)
		if (e->fds[i] >= 0)
			sonde_sys_ops()->close(e->fds[i]);
	free(e->fds);
	e->fds = NULL;
}

void sonde_evlist__close(struct sonde_evlist *l)
{
	if (!l)
		return;
	sonde_evlist__munmap(l);
	/* Members before leaders, so no group is left headless. */
	for (int i = l->nr - 1; i >= 0; i--)
		evsel_close(l->evsels[i]);
	l->open = false;
}

static void set_failure(struct sonde_evsel *e, int err, pid_t pid, int cpu,
			const char *why)
{
	char msg[1024];

	e->open_errno = err;
	e->open_cpu = cpu;
	free(e->open_error);
	if (why)
		snprintf(msg, sizeof(msg), "%s", why);
	else
		sonde_open_error_describe(err, &e->attr, pid, cpu, msg,
					  sizeof(msg));
	e->open_error = strdup(msg);
}

/* The attr this list hands the kernel for @e. */
static struct sonde_perf_event_attr
prepare_attr(const struct sonde_evlist *l, const struct sonde_evsel *e,
	     const struct sonde_evlist_open_opts *opts)
{
	struct sonde_perf_event_attr a = e->attr;
	bool member = e->leader != e->idx;

	if (OPTS_GET(opts, exact_attrs, false))
		return a;
	a.read_format |= SONDE_PERF_FORMAT_TOTAL_TIME_ENABLED |
			 SONDE_PERF_FORMAT_TOTAL_TIME_RUNNING |
			 SONDE_PERF_FORMAT_ID |
			 OPTS_GET(opts, read_format, 0);
	if (l->child > 0 && l->threads->pid[0] == l->child) {
		/* Count the command only: from its exec on. */
		a.disabled = 1;
		a.enable_on_exec = 1;
	}
	if (l->threads->pid[0] > 0 &&
	    !OPTS_GET(opts, no_inherit, false) &&
	    !(a.read_format & SONDE_PERF_FORMAT_GROUP))
		a.inherit = 1;
	if (member) {
		/* The leader switches the whole group. */
		a.disabled = 0;
		a.enable_on_exec = 0;
	}
	return a;
}

/*
 * Opens @e everywhere. Returns 0, or -errno after closing what it opened
 * and recording why on @e.
 */
static int evsel_open(struct sonde_evlist *l, struct sonde_evsel *e,
		      const struct sonde_evlist_open_opts *opts)
{
	struct sonde_evsel *lead = l->evsels[e->leader];
	int nc = l->cpus->nr, nt = l->threads->nr;
	unsigned long flags = 0;
	bool accepted = false;

	if (lead != e && !lead->fds) {
		set_failure(e, ECANCELED, 0, -1, "not counted: its group "
			    "leader could not be opened");
		return -ECANCELED;
	}
	e->fds = malloc((size_t)nc * (size_t)nt * sizeof(int));
	if (!e->fds)
		return -ENOMEM;
	for (int i = 0; i < nc * nt; i++)
		e->fds[i] = -1;
	if (l->cgroup_fd >= 0)
		flags |= SONDE_PERF_FLAG_PID_CGROUP;

	for (int c = 0; c < nc; c++) {
		for (int t = 0; t < nt; t++) {
			struct sonde_perf_event_attr a = prepare_attr(l, e, opts);
			pid_t pid = l->cgroup_fd >= 0 ? l->cgroup_fd :
				    l->threads->pid[t];
			int cpu = l->cpus->cpu[c];
			int group_fd = lead == e ? -1 : lead->fds[c * nt + t];
			int fd;

			if (lead != e && group_fd < 0)
				continue; /* leader skipped this thread */
			fd = sonde_event_open(&a, pid, cpu, group_fd, flags);
			if (fd == -ESRCH && nt > 1 && l->cgroup_fd < 0) {
				/* A thread exited since we listed it. */
				pr_debug("%s: thread %d is gone\n", e->name,
					 (int)pid);
				continue;
			}
			if (fd < 0) {
				/* A cgroup is watched like a CPU: no pid. */
				set_failure(e, -fd, l->cgroup_fd >= 0 ? -1 : pid,
					    cpu, NULL);
				evsel_close(e);
				return fd;
			}
			if (!accepted) {
				/* Decode reads with what the kernel took. */
				e->attr = a;
				accepted = true;
			}
			e->fds[c * nt + t] = fd;
		}
	}
	e->unsupported = false;
	e->open_errno = 0;
	free(e->open_error);
	e->open_error = NULL;
	return 0;
}

/*
 * A weak group (perf's :W) that does not open as a group is opened as
 * separate events: close what the group opened, make every member its own
 * leader (starting as the leader would have), and start again at the old
 * leader. Returns that index.
 */
static int split_weak_group(struct sonde_evlist *l, struct sonde_evsel *lead)
{
	pr_info("%s: weak group does not fit, opening its events one by one\n",
		lead->name);
	for (int k = lead->idx; k < l->nr; k++) {
		struct sonde_evsel *m = l->evsels[k];

		if (m->leader != lead->idx)
			continue;
		evsel_close(m);
		/* Members follow the leader's enable; alone, they need its bits. */
		if (m != lead) {
			m->attr.disabled = lead->attr.disabled;
			m->attr.enable_on_exec = lead->attr.enable_on_exec;
		}
		m->leader = m->idx;
		m->group_pos = 0;
		m->nr_members = 1;
	}
	lead->weak_group = false;
	return lead->idx;
}

int sonde_evlist__open(struct sonde_evlist *l,
		       const struct sonde_evlist_open_opts *opts)
{
	bool keep;
	int opened = 0;

	if (!l)
		return lib_err(EINVAL);
	if (!OPTS_VALID(opts, sonde_evlist_open_opts))
		return lib_err(EINVAL);
	if (l->open)
		return lib_err(EBUSY);
	if (!l->nr)
		return lib_err(ENOENT);
	keep = OPTS_GET(opts, keep_unsupported, false);
	for (int i = 0; i < l->nr; i++) {
		struct sonde_evsel *e = l->evsels[i];
		int ret = evsel_open(l, e, opts);

		/* Not for a kernel-only event (:k): nothing would be left. */
		if ((ret == -EACCES || ret == -EPERM) && !e->attr.exclude_kernel &&
		    !e->attr.exclude_user && OPTS_GET(opts, user_fallback, false)) {
			pr_info("%s: %s Counting user space only.\n", e->name,
				e->open_error);
			e->attr.exclude_kernel = 1;
			e->attr.exclude_hv = 1;
			ret = evsel_open(l, e, opts);
		}
		if (!ret) {
			opened++;
			continue;
		}
		if (ret != -ENOMEM && ret != -EMFILE && ret != -ENFILE &&
		    e->leader != e->idx && l->evsels[e->leader]->weak_group) {
			int lead = e->leader;

			/* The leader and earlier members were counted as opened. */
			for (int k = lead; k < i; k++)
				opened -= l->evsels[k]->leader == lead;
			i = split_weak_group(l, l->evsels[lead]) - 1;
			continue;
		}
		/*
		 * Out of memory or fds is the process's limit, not the
		 * event's: "not supported" would name the wrong cause.
		 */
		if (ret == -ENOMEM || ret == -EMFILE || ret == -ENFILE || !keep) {
			pr_debug("%s: %s\n", e->name,
				 e->open_error ? e->open_error : "no memory");
			sonde_evlist__close(l);
			return lib_err(ret);
		}
		e->unsupported = true;
		pr_info("%s: %s\n", e->name, e->open_error);
	}
	if (!opened) {
		/* Nothing to count: report the first event's reason. */
		int err = l->evsels[0]->open_errno;

		sonde_evlist__close(l);
		return lib_err(err ? err : ENOENT);
	}
	l->open = true;
	return 0;
}

/* One ioctl on every leader fd (whole groups) or every fd of one event. */
static int ioctl_all(const struct sonde_evsel *e, unsigned long req,
		     unsigned long arg)
{
	int n = e->list->cpus->nr * e->list->threads->nr;

	for (int i = 0; e->fds && i < n; i++) {
		if (e->fds[i] < 0)
			continue;
		if (sonde_sys_ops()->ioctl(e->fds[i], req, arg))
			return lib_err(errno);
	}
	return 0;
}

static int evlist_ioctl(struct sonde_evlist *l, unsigned long req)
{
	if (!l)
		return lib_err(EINVAL);
	for (int i = 0; i < l->nr; i++) {
		struct sonde_evsel *e = l->evsels[i];
		int ret;

		if (e->leader != e->idx)
			continue;
		ret = ioctl_all(e, req, SONDE_PERF_IOC_FLAG_GROUP);
		if (ret)
			return ret;
	}
	return 0;
}

int sonde_evlist__enable(struct sonde_evlist *l)
{
	return evlist_ioctl(l, SONDE_PERF_EVENT_IOC_ENABLE);
}

int sonde_evlist__disable(struct sonde_evlist *l)
{
	return evlist_ioctl(l, SONDE_PERF_EVENT_IOC_DISABLE);
}

int sonde_evlist__reset(struct sonde_evlist *l)
{
	return evlist_ioctl(l, SONDE_PERF_EVENT_IOC_RESET);
}

int sonde_evsel__enable(const struct sonde_evsel *e)
{
	return e ? ioctl_all(e, SONDE_PERF_EVENT_IOC_ENABLE, 0) : lib_err(EINVAL);
}

int sonde_evsel__disable(const struct sonde_evsel *e)
{
	return e ? ioctl_all(e, SONDE_PERF_EVENT_IOC_DISABLE, 0) : lib_err(EINVAL);
}

int sonde_evsel__reset(const struct sonde_evsel *e)
{
	return e ? ioctl_all(e, SONDE_PERF_EVENT_IOC_RESET, 0) : lib_err(EINVAL);
}

int sonde_task_events_enable(void)
{
	if (sonde_sys_ops()->prctl(SONDE_PR_TASK_PERF_EVENTS_ENABLE, 0))
		return lib_err(errno);
	return 0;
}

int sonde_task_events_disable(void)
{
	if (sonde_sys_ops()->prctl(SONDE_PR_TASK_PERF_EVENTS_DISABLE, 0))
		return lib_err(errno);
	return 0;
}
