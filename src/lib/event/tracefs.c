// SPDX-License-Identifier: LGPL-2.1-only
/*
 * tracefs: locating (and, as root, mounting) it, tracepoint ids and the
 * enumeration of events/<sys>/<name>. The format-file parser lives in
 * tp_format.c.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sonde/tracefs.h"
#include "core_priv.h"

static bool has_events(const char *dir)
{
	char path[4096];
	struct stat st;

	if (snprintf(path, sizeof(path), "%s/events", dir) >= (int)sizeof(path))
		return false;
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static int copy_out(char *buf, size_t size, const char *dir)
{
	if (strlen(dir) >= size)
		return lib_err(ENAMETOOLONG);
	strcpy(buf, dir);
	return 0;
}

/* The mount point of the first tracefs line in /proc/mounts. */
static bool from_mounts(char *out, size_t size)
{
	char line[4096], dev[256], dir[2048], type[64];
	bool found = false;
	FILE *f = fopen("/proc/mounts", "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%255s %2047s %63s", dev, dir, type) != 3)
			continue;
		if (strcmp(type, "tracefs"))
			continue;
		if (has_events(dir) && strlen(dir) < size) {
			strcpy(out, dir);
			found = true;
		}
	}
	fclose(f);
	return found;
}

int sonde_tracefs__root(char *buf, size_t size, bool do_mount)
{
	static const char *const known[] = {
		"/sys/kernel/tracing",
		"/sys/kernel/debug/tracing",
	};
	const char *env = getenv("SONDE_TRACEFS_ROOT");

	if (!buf || !size)
		return lib_err(EINVAL);
	if (env && *env)
		return copy_out(buf, size, env);
	for (size_t i = 0; i < ARRAY_SIZE(known); i++)
		if (has_events(known[i]))
			return copy_out(buf, size, known[i]);
	if (from_mounts(buf, size))
		return 0;
	if (!do_mount || geteuid() != 0)
		return lib_err(ENOENT);
	if (mount("nodev", known[0], "tracefs", 0, NULL) && errno != EBUSY) {
		int err = errno;

		pr_info("mounting tracefs on %s: %s\n", known[0], strerror(err));
		return lib_err(err);
	}
	if (!has_events(known[0]))
		return lib_err(ENOENT);
	return copy_out(buf, size, known[0]);
}

/* Resolves @root (NULL: find it) into @buf. */
static int resolve_root(const char *root, char *buf, size_t size)
{
	if (root)
		return copy_out(buf, size, root);
	return sonde_tracefs__root(buf, size, false);
}

static bool component_ok(const char *s)
{
	return s && *s && strlen(s) < 256 && !strchr(s, '/') &&
	       strcmp(s, ".") && strcmp(s, "..");
}

int64_t sonde_tracepoint__id(const char *root, const char *sys,
			     const char *name)
{
	char dir[4096], path[4096 + 600], buf[64];
	char *end, *p;
	long long id;
	long n;
	int err;

	if (!component_ok(sys) || !component_ok(name))
		return lib_err(EINVAL);
	err = resolve_root(root, dir, sizeof(dir));
	if (err)
		return err;
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", dir, sys, name);
	n = sysfs_read_at(AT_FDCWD, path, buf, sizeof(buf));
	if (n < 0)
		return lib_err((int)n == -EFBIG ? SONDE_ERR_FORMAT : (int)n);
	p = sysfs_trim(buf);
	errno = 0;
	id = strtoll(p, &end, 10);
	if (errno || end == p || *end || id < 0)
		return lib_err(SONDE_ERR_FORMAT);
	return id;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names of subdirectories of @dir matching @glob (at most 65536). */
static int list_dirs(const char *dir, const char *glob, char ***out,
		     size_t *nr)
{
	char **v = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *d = opendir(dir);

	*out = NULL;
	*nr = 0;
	if (!d)
		return -errno;
	while ((de = readdir(d)) && n < 65536) {
		if (de->d_name[0] == '.' || !component_ok(de->d_name))
			continue;
		if (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN)
			continue;
		if (glob && fnmatch(glob, de->d_name, 0))
			continue;
		if (n == cap) {
			char **nv = realloc(v, (cap ? cap * 2 : 64) * sizeof(*v));

			if (!nv)
				break;
			v = nv;
			cap = cap ? cap * 2 : 64;
		}
		v[n] = strdup(de->d_name);
		if (!v[n])
			break;
		n++;
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), cmp_str);
	*out = v;
	*nr = n;
	return 0;
}

static void free_list(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

int sonde_tracefs__for_each(const char *root, const char *sys_glob,
			    const char *name_glob, sonde_tracepoint_fn fn,
			    void *ctx)
{
	char dir[4096], path[4096 + 300];
	char **sys = NULL;
	size_t nsys = 0;
	int err, ret = 0;

	if (!fn)
		return lib_err(EINVAL);
	err = resolve_root(root, dir, sizeof(dir));
	if (err)
		return err;
	snprintf(path, sizeof(path), "%s/events", dir);
	err = list_dirs(path, sys_glob, &sys, &nsys);
	if (err)
		return lib_err(err);
	for (size_t i = 0; i < nsys && !ret; i++) {
		char **ev = NULL;
		size_t nev = 0;

		snprintf(path, sizeof(path), "%s/events/%s", dir, sys[i]);
		if (list_dirs(path, name_glob, &ev, &nev))
			continue;
		for (size_t j = 0; j < nev && !ret; j++)
			ret = fn(sys[i], ev[j], ctx);
		free_list(ev, nev);
	}
	free_list(sys, nsys);
	return ret;
}
