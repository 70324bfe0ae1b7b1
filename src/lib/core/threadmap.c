// SPDX-License-Identifier: LGPL-2.1-only
/* Thread maps: self, any, one tid, or every task of a process. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core_priv.h"

static const char *proc_root = "/proc";

void threadmap_set_proc_root(const char *path)
{
	proc_root = path;
}

static struct sonde_thread_map *one(pid_t pid)
{
	struct sonde_thread_map *m = malloc(sizeof(*m) + sizeof(pid_t));

	if (!m)
		return lib_err_ptr(ENOMEM);
	m->nr = 1;
	m->pid[0] = pid;
	return m;
}

struct sonde_thread_map *sonde_thread_map__new_self(void)
{
	return one(0);
}

struct sonde_thread_map *sonde_thread_map__new_any(void)
{
	return one(-1);
}

struct sonde_thread_map *sonde_thread_map__new_tid(pid_t tid)
{
	if (tid <= 0)
		return lib_err_ptr(EINVAL);
	return one(tid);
}

struct sonde_thread_map *sonde_thread_map__new_array(const pid_t *tids, int nr)
{
	struct sonde_thread_map *m;

	if (!tids || nr <= 0)
		return lib_err_ptr(EINVAL);
	for (int i = 0; i < nr; i++)
		if (tids[i] <= 0)
			return lib_err_ptr(EINVAL);
	m = malloc(sizeof(*m) + (size_t)nr * sizeof(pid_t));
	if (!m)
		return lib_err_ptr(ENOMEM);
	m->nr = nr;
	memcpy(m->pid, tids, (size_t)nr * sizeof(pid_t));
	return m;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

struct sonde_thread_map *sonde_thread_map__new_pid(pid_t pid)
{
	struct sonde_thread_map *m = NULL, *bigger;
	char path[256];
	struct dirent *d;
	int cap = 0;
	DIR *dir;

	if (pid <= 0)
		return lib_err_ptr(EINVAL);
	snprintf(path, sizeof(path), "%s/%d/task", proc_root, (int)pid);
	dir = opendir(path);
	if (!dir)
		return lib_err_ptr(ESRCH);
	while ((d = readdir(dir))) {
		char *end;
		long tid = strtol(d->d_name, &end, 10);

		if (*end || tid <= 0)
			continue;
		if (!m || m->nr == cap) {
			cap = cap ? cap * 2 : 8;
			bigger = realloc(m, sizeof(*m) + (size_t)cap * sizeof(pid_t));
			if (!bigger) {
				free(m);
				closedir(dir);
				return lib_err_ptr(ENOMEM);
			}
			if (!m)
				bigger->nr = 0;
			m = bigger;
		}
		m->pid[m->nr++] = (pid_t)tid;
	}
	closedir(dir);
	if (!m)
		return lib_err_ptr(ESRCH);
	qsort(m->pid, (size_t)m->nr, sizeof(pid_t), cmp_pid);
	return m;
}

void sonde_thread_map__free(struct sonde_thread_map *map)
{
	free(map);
}

int sonde_thread_map__nr(const struct sonde_thread_map *map)
{
	return map ? map->nr : 0;
}

pid_t sonde_thread_map__pid(const struct sonde_thread_map *map, int idx)
{
	if (!map || idx < 0 || idx >= map->nr)
		return -EINVAL;
	return map->pid[idx];
}
