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
#include "sonde/evlist.h"
#include "stat-cli.h"

/* "-p 12,34" is perf's; one id is what the counting layer takes. */
static int parse_id(const char *s, const char *what, pid_t *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!errno && end != s && *end == ',') {
		fprintf(stderr, "sonde stat: one %s at a time ('%s' is a list); "
			"run one sonde stat per task\n", what, s);
		return -EINVAL;
	}
	if (errno || end == s || *end || v <= 0 || v > INT_MAX) {
		fprintf(stderr, "sonde stat: %s '%s' is not a positive number\n",
			what, s);
		return -EINVAL;
	}
	*out = (pid_t)v;
	return 0;
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

int stat_target_setup(const struct stat_opts *o, struct sonde_evlist *list)
{
	pid_t id;
	int err;

	stat_lib_warned = false;
	if (o->pid) {
		if (parse_id(o->pid, "process id", &id))
			return -EINVAL;
		err = sonde_evlist__target_pid(list, id);
		if (err == -ESRCH || err == -ENOENT) {
			fprintf(stderr, "sonde stat: no process with id %d "
				"(it has exited, or never existed)\n", (int)id);
			return err;
		}
	} else if (o->tid) {
		char proc[32];

		if (parse_id(o->tid, "thread id", &id))
			return -EINVAL;
		/* Any thread of any process shows in /proc by its tid. */
		snprintf(proc, sizeof(proc), "/proc/%d", (int)id);
		err = access(proc, F_OK) ? -ESRCH :
		      sonde_evlist__target_tid(list, id);
		if (err == -ESRCH || err == -ENOENT) {
			fprintf(stderr, "sonde stat: no thread with id %d "
				"(it has exited, or never existed)\n", (int)id);
			return err;
		}
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
