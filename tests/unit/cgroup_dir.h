/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * The cgroup2 directory a test process is in, for the tests that open
 * events on a cgroup or watch CGROUP records.
 */
#ifndef SONDE_TEST_CGROUP_DIR_H
#define SONDE_TEST_CGROUP_DIR_H

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/*
 * Its path under the cgroup2 mount (the hybrid layout's unified tree
 * first), from /proc/self/cgroup, into @path: 0, or -ENOENT when this
 * process has no cgroup2 entry or its directory is not there.
 */
static inline int own_cgroup2(char *path, size_t len)
{
	static const char *const roots[] = { "/sys/fs/cgroup/unified", "/sys/fs/cgroup" };
	FILE *f = fopen("/proc/self/cgroup", "r");
	char line[512], rel[480] = "";
	struct stat st;

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "0::", 3))
			sscanf(line + 3, "%479s", rel);
	if (f)
		fclose(f);
	if (!rel[0])
		return -ENOENT;
	for (size_t i = 0; i < 2; i++) {
		snprintf(path, len, "%s%s/cgroup.procs", roots[i], rel);
		if (!stat(path, &st)) {
			/* the root group: no trailing slash to append to */
			snprintf(path, len, "%s%s", roots[i], strcmp(rel, "/") ? rel : "");
			return 0;
		}
	}
	return -ENOENT;
}

#endif
