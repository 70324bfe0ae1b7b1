// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The writer of perf's build-id cache ($PERF_BUILDID_DIR or ~/.debug),
 * beside its readers (sym_elf.c, sym_kernel.c): what perf record adds so
 * that a report after a rebuild, or under another kernel, still finds
 * the recorded code. perf's layout: DIR/NAME/HEX/FILE holds the object
 * (FILE "elf", "kallsyms" or "vdso"; NAME the path without its leading
 * '/', "[kernel.kallsyms]" or "[vdso]") and DIR/.build-id/xx/rest is a
 * symlink to ../../NAME/HEX, by which both perf and sonde look it up.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core_priv.h"
#include "sym_priv.h"

/* One cache entry's paths. */
struct entry {
	char obj[PATH_MAX];	/* DIR/NAME/HEX/FILE */
	char link[PATH_MAX];	/* DIR/.build-id/xx/rest */
	char target[PATH_MAX];	/* ../../NAME/HEX */
};

static int entry_init(struct entry *e, const char *dir, const char *name,
		      const uint8_t *id, size_t id_len, const char *file)
{
	char hex[2 * SYM_BUILD_ID_MAX + 1];

	sym_hex_id(id, id_len, hex);
	if (name[0] == '/')
		name++;
	if ((size_t)snprintf(e->obj, sizeof(e->obj), "%s/%s/%s/%s", dir, name, hex,
			     file) >= sizeof(e->obj) ||
	    (size_t)snprintf(e->link, sizeof(e->link), "%s/.build-id/%.2s/%s", dir, hex,
			     hex + 2) >= sizeof(e->link) ||
	    (size_t)snprintf(e->target, sizeof(e->target), "../../%s/%s", name,
			     hex) >= sizeof(e->target))
		return -ENAMETOOLONG;
	return 0;
}

/* mkdir -p of the directory part of @p path (up to its last '/'), 0755 as perf's. */
static int mkdir_parents(const char *path)
{
	char buf[PATH_MAX];
	char *s;

	if ((size_t)snprintf(buf, sizeof(buf), "%s", path) >= sizeof(buf))
		return -ENAMETOOLONG;
	s = strrchr(buf, '/');
	if (!s || s == buf)
		return 0;
	*s = 0;
	return sym_make_dirs(buf, 0755);
}

/* All of file @p src_fd, from its start, into @p fd. */
static int copy_fd(int fd, int src_fd)
{
	char buf[1 << 16];
	off_t off = 0;

	for (;;) {
		ssize_t n = pread(src_fd, buf, sizeof(buf), off);
		int err;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			return 0;
		err = sym_write_all(fd, buf, (size_t)n);
		if (err)
			return err;
		off += n;
	}
}

/*
 * The entry's object as a new file (mode @p mode): the contents of
 * @p src_fd, else @p len bytes at @p data. Written under a unique
 * temporary name and renamed, so that a reader never sees half a file.
 */
static int write_obj(const struct entry *e, int src_fd, const void *data,
		     size_t len, mode_t mode)
{
	char tmp[PATH_MAX];
	int fd, err;

	err = mkdir_parents(e->obj);
	if (err)
		return err;
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp.XXXXXX", e->obj) >= sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = fchmod(fd, mode) ? -errno : 0;
	if (!err)
		err = src_fd >= 0 ? copy_fd(fd, src_fd) : sym_write_all(fd, data, len);
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, e->obj))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}

static bool obj_present(const struct entry *e)
{
	struct stat st;

	return !lstat(e->obj, &st);
}

/* The .build-id link to the entry; one already there is kept. */
static int entry_link(const struct entry *e)
{
	int err = mkdir_parents(e->link);

	if (err)
		return err;
	if (symlink(e->target, e->link) && errno != EEXIST)
		return -errno;
	return 0;
}

/* opts->dir, else perf's default; -ENOENT when there is none. */
static int cache_dir(const struct sonde_buildid_cache_opts *opts, char **dir)
{
	const char *d = OPTS_GET(opts, dir, NULL);

	*dir = d ? strdup(d) : sym_default_buildid_dir();
	if (!*dir)
		return -ENOMEM;
	if (!**dir) {
		free(*dir);
		*dir = NULL;
		return -ENOENT;
	}
	return 0;
}

/* An absolute path with no "." or ".." component: it stays under DIR. */
static bool plain_abs_path(const char *path)
{
	const char *s = path;

	if (path[0] != '/')
		return false;
	while ((s = strchr(s, '/'))) {
		s++;
		if (s[0] == '.' && (!s[1] || s[1] == '/' ||
				    (s[1] == '.' && (!s[2] || s[2] == '/'))))
			return false;
	}
	return true;
}

/*
 * The object @p fd (the file @p path) as an entry: a hard link to it
 * when the file system allows and it is still the file we read the id
 * of, else a copy of what @p fd holds.
 */
static int add_file(const struct entry *e, const char *path, int fd)
{
	struct stat st, got;

	if (fstat(fd, &st))
		return -errno;
	if (!mkdir_parents(e->obj) && !link(path, e->obj)) {
		if (!lstat(e->obj, &got) && got.st_dev == st.st_dev &&
		    got.st_ino == st.st_ino)
			return 0;
		unlink(e->obj); /* replaced since it was opened */
	}
	return write_obj(e, fd, NULL, 0, st.st_mode & 0777);
}

int sonde_buildid_cache_add(const char *path, const uint8_t *build_id,
			    size_t build_id_size,
			    const struct sonde_buildid_cache_opts *opts)
{
	uint8_t have[SYM_BUILD_ID_MAX];
	struct entry e;
	char *dir = NULL;
	Elf *elf;
	int fd, n, err;

	if (!OPTS_VALID(opts, sonde_buildid_cache_opts) || !path ||
	    !plain_abs_path(path) || build_id_size > SYM_BUILD_ID_MAX ||
	    (build_id_size && !build_id))
		return lib_err(EINVAL);
	elf = sym_elf_open(path, &fd);
	if (!elf)
		return lib_err(errno);
	n = sym_elf_build_id(elf, have, sizeof(have));
	if (n <= 0)
		err = -ENODATA;
	else if (build_id_size && !sym_same_build_id(build_id, build_id_size, have,
						     (size_t)n))
		err = -ESTALE;
	else
		err = cache_dir(opts, &dir);
	if (!err)
		err = entry_init(&e, dir, path, have, (size_t)n, "elf");
	if (!err && !obj_present(&e))
		err = add_file(&e, path, fd);
	if (!err)
		err = entry_link(&e);
	sym_elf_close(elf, fd);
	free(dir);
	return err ? lib_err(err) : 0;
}

/* Whether kallsyms text shows an address (a hidden table is no copy). */
static bool kallsyms_shown(const char *buf, size_t len)
{
	for (const char *p = buf; p < buf + len;) {
		const char *nl = memchr(p, '\n', (size_t)(buf + len - p));

		if (strtoull(p, NULL, 16))
			return true;
		if (!nl)
			break;
		p = nl + 1;
	}
	return false;
}

int sonde_buildid_cache_add_kallsyms(const struct sonde_buildid_cache_opts *opts)
{
	uint8_t id[SYM_BUILD_ID_MAX];
	char *dir = NULL, *buf = NULL;
	struct entry e;
	size_t len;
	int n, err;

	if (!OPTS_VALID(opts, sonde_buildid_cache_opts))
		return lib_err(EINVAL);
	n = sym_kernel_build_id(OPTS_GET(opts, kernel_notes_path, NULL), id, sizeof(id));
	if (n <= 0)
		return lib_err(n ? n : -ENODATA);
	err = cache_dir(opts, &dir);
	if (!err)
		err = entry_init(&e, dir, "[kernel.kallsyms]", id, (size_t)n, "kallsyms");
	/* Once per kernel build, as perf: reading kallsyms costs ~40 ms. */
	if (!err && !obj_present(&e)) {
		const char *ks = OPTS_GET(opts, kallsyms_path, NULL);

		err = sym_read_file(ks ? ks : "/proc/kallsyms", &buf, &len, SYM_TEXT_MAX);
		if (!err)
			err = kallsyms_shown(buf, len) ? write_obj(&e, -1, buf, len, 0644) :
							 -EACCES;
		free(buf);
	}
	if (!err)
		err = entry_link(&e);
	free(dir);
	return err ? lib_err(err) : 0;
}

int sonde_buildid_cache_add_vdso(const struct sonde_buildid_cache_opts *opts)
{
	uint8_t id[SYM_BUILD_ID_MAX];
	char *dir = NULL, *image = NULL;
	struct entry e;
	size_t size = 0;
	int n, err;

	if (!OPTS_VALID(opts, sonde_buildid_cache_opts))
		return lib_err(EINVAL);
	err = sym_vdso_image(&image, &size);
	if (err)
		return lib_err(err);
	n = sym_mem_build_id(image, size, id, sizeof(id));
	err = n > 0 ? cache_dir(opts, &dir) : n ? n : -ENODATA;
	if (!err)
		err = entry_init(&e, dir, "[vdso]", id, (size_t)n, "vdso");
	if (!err && !obj_present(&e))
		err = write_obj(&e, -1, image, size, 0644);
	if (!err)
		err = entry_link(&e);
	free(image);
	free(dir);
	return err ? lib_err(err) : 0;
}
