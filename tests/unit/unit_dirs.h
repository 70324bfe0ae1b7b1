/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * The two folders a unit test that works on files needs: the helper
 * programs (build/helpers, beside the folder of the test binary, whether
 * that is build/tests or build/tests-shared), and a scratch directory of
 * its own under /tmp that the group teardown removes whole.
 */
#ifndef SONDE_TEST_UNIT_DIRS_H
#define SONDE_TEST_UNIT_DIRS_H

#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * The helpers folder into @out, resolved; as looked for when it is not
 * there (not built), so that a skip names where the helper was missing.
 */
static inline void helpers_dir(char *out, size_t size)
{
	char exe[PATH_MAX - 16], dir[PATH_MAX], real[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	assert_true(n > 0);
	exe[n] = 0;
	*strrchr(exe, '/') = 0;
	snprintf(dir, sizeof(dir), "%s/../helpers", exe);
	snprintf(out, size, "%s", realpath(dir, real) ? real : dir);
}

/* A fresh directory /tmp/sonde-@tag-XXXXXX (mode 0700) into @dir. */
static inline void scratch_dir_make(char *dir, size_t size, const char *tag)
{
	snprintf(dir, size, "/tmp/sonde-%s-XXXXXX", tag);
	assert_non_null(mkdtemp(dir));
}

static inline int scratch_unlink(const char *path, const struct stat *st,
				 int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/*
 * Removes @dir and everything in it, symlinks as links (never what they
 * point at): 0, or -1 when something could not go.
 */
static inline int scratch_dir_remove(const char *dir)
{
	return nftw(dir, scratch_unlink, 16, FTW_DEPTH | FTW_PHYS) ? -1 : 0;
}

#endif
