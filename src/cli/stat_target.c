// SPDX-License-Identifier: LGPL-2.1-only
/*
 * What `sonde stat` counts: a command it runs, a process, a thread, CPUs or
 * a cgroup. Every way this can go wrong ends in one line that says what to
 * fix, never in a crash.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sonde/cpumap.h"
#include "sonde/evlist.h"
#include "sonde/threadmap.h"
#include "stat_cli.h"

/*
 * "-p 12,34" as perf takes it: the ids of a comma list, in order, into
 * @ids (room for @max). Returns how many, or -EINVAL after saying why.
 */
static int parse_ids(const char *s, const char *what, pid_t *ids, int max)
{
	const char *p = s;
	int n = 0;

	for (;;) {
		char *end;
		long v;

		errno = 0;
		v = strtol(p, &end, 10);
		if (errno || end == p || (*end && *end != ',') || v <= 0 ||
		    v > INT_MAX) {
			fprintf(stderr, "sonde stat: %s '%.*s' is not a positive "
				"number\n", what, (int)strcspn(p, ","), p);
			return -EINVAL;
		}
		if (n == max) {
			fprintf(stderr, "sonde stat: more than %d ids in '%s'\n",
				max, s);
			return -EINVAL;
		}
		ids[n++] = (pid_t)v;
		if (!*end)
			return n;
		p = end + 1;
	}
}

/* Appends @t's threads to @all (grown as needed); frees @t. */
static int append_threads(pid_t **all, int *nr, struct sonde_thread_map *t)
{
	int n = sonde_thread_map__nr(t);
	pid_t *grown = realloc(*all, (size_t)(*nr + n) * sizeof(**all));

	if (!grown) {
		sonde_thread_map__free(t);
		return -ENOMEM;
	}
	*all = grown;
	for (int i = 0; i < n; i++)
		grown[(*nr)++] = sonde_thread_map__pid(t, i);
	sonde_thread_map__free(t);
	return 0;
}

/*
 * Every thread of each process of -p (or each thread of -t), one map for
 * the list; says which id is gone. The ids go to @ids for the wait.
 */
static int target_tasks(struct sonde_evlist *list, const char *spec, bool pid,
			pid_t *ids, int *nr_ids)
{
	const char *what = pid ? "process id" : "thread id";
	struct sonde_thread_map *map;
	pid_t *all = NULL;
	int n, nr = 0, err = 0;

	n = parse_ids(spec, what, ids, STAT_MAX_TASKS);
	if (n < 0)
		return n;
	for (int i = 0; i < n && !err; i++) {
		char proc[32];
		struct sonde_thread_map *t;

		/* Any thread of any process shows in /proc by its tid. */
		snprintf(proc, sizeof(proc), "/proc/%d", (int)ids[i]);
		t = access(proc, F_OK) ? (errno = ESRCH, NULL) :
		    pid ? sonde_thread_map__new_pid(ids[i]) :
			  sonde_thread_map__new_tid(ids[i]);
		if (!t) {
			err = -errno;
			if (err == -ESRCH || err == -ENOENT)
				fprintf(stderr, "sonde stat: no %s with id %d (it "
					"has exited, or never existed)\n",
					pid ? "process" : "thread", (int)ids[i]);
			break;
		}
		err = append_threads(&all, &nr, t);
	}
	if (!err) {
		map = sonde_thread_map__new_array(all, nr);
		err = map ? sonde_evlist__set_maps(list, sonde_cpu_map__new_any(),
						   map) : -errno;
	}
	free(all);
	*nr_ids = err ? 0 : n;
	return err;
}

/*
 * perf takes -G names relative to the cgroup mount; accept those as well
 * as absolute paths, trying the v2 and the v1 perf_event hierarchies.
 */
static const char *cgroup_path(const char *name, char *buf, size_t size)
{
	static const char *const roots[] = {
		"/sys/fs/cgroup", "/sys/fs/cgroup/unified",
		"/sys/fs/cgroup/perf_event",
	};
	struct stat st;

	if (name[0] == '/')
		return name;
	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		snprintf(buf, size, "%s/%s", roots[i], name);
		if (!stat(buf, &st) && S_ISDIR(st.st_mode))
			return buf;
	}
	snprintf(buf, size, "/sys/fs/cgroup/%s", name);
	return buf;
}

int stat_target_setup(const struct stat_opts *o, struct sonde_evlist *list,
		      pid_t *ids, int *nr_ids)
{
	int err;

	stat_lib_warned = false;
	*nr_ids = 0;
	if (o->pid || o->tid) {
		err = target_tasks(list, o->pid ? o->pid : o->tid, o->pid, ids,
				   nr_ids);
		if (err == -ESRCH || err == -ENOENT || err == -EINVAL)
			return err;
	} else if (o->cgroup) {
		char buf[PATH_MAX];
		const char *path = cgroup_path(o->cgroup, buf, sizeof(buf));

		err = sonde_evlist__target_cgroup(list, path, o->cpu_list);
		if (err && stat_lib_warned)
			return err;
		if (err == -ENOENT || err == -ENOTDIR) {
			fprintf(stderr, "sonde stat: cgroup '%s' not found: %s "
				"is not a directory of a cgroup file system\n",
				o->cgroup, path);
			return err;
		}
		if (err == -EMEDIUMTYPE) {
			fprintf(stderr, "sonde stat: '%s' is not a cgroup "
				"(not under a cgroup file system such as "
				"/sys/fs/cgroup)\n", path);
			return err;
		}
	} else if (o->system_wide || o->cpu_list) {
		err = sonde_evlist__target_cpus(list, o->cpu_list);
	} else {
		return 0; /* the workload: set by stat_workload_prepare() */
	}
	if (err && stat_lib_warned)
		return err;
	if (err == -ERANGE || (err == -EINVAL && o->cpu_list && !o->pid &&
			       !o->tid)) {
		fprintf(stderr, "sonde stat: CPU list '%s' %s (see "
			"/sys/devices/system/cpu/online)\n", o->cpu_list,
			err == -ERANGE ? "names a CPU that is not online" :
					 "is not a valid list like 0-3,5");
		return err;
	}
	if (err) {
		fprintf(stderr, "sonde stat: cannot set up the target: %s\n",
			strerror(-err));
		return err;
	}
	return 0;
}

pid_t stat_workload_prepare(const struct stat_opts *o,
			    struct sonde_evlist *list)
{
	pid_t pid = sonde_evlist__prepare_workload(list,
						   (char *const *)o->argv);

	if (pid < 0) {
		fprintf(stderr, "sonde stat: cannot start '%s': %s\n",
			o->argv[0], strerror(-pid));
		return -1;
	}
	return pid;
}

int stat_workload_start(const struct stat_opts *o, struct sonde_evlist *list)
{
	int err = sonde_evlist__start_workload(list);

	if (err == -ENOENT)
		fprintf(stderr, "sonde stat: cannot run '%s': command not "
			"found\n", o->argv[0]);
	else if (err)
		fprintf(stderr, "sonde stat: cannot run '%s': %s\n",
			o->argv[0], strerror(-err));
	return err;
}
