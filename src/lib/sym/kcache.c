// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The per-user cache files (see sym_priv.h): key, checked read and map,
 * atomic write, stale-file removal, the tables' common header.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core_priv.h"
#include "sym_priv.h"

static uint64_t fnv_file(uint64_t h, const char *path, size_t max)
{
	char *buf = NULL;
	size_t len;

	/* A missing input hashes as absent, distinct from any content. */
	if (sym_read_file(path, &buf, &len, max))
		return fnv1a64(h, "\xff", 1);
	h = fnv1a64(h, buf, len);
	free(buf);
	/* Separates the inputs: "ab" + "c" must differ from "a" + "bc". */
	return (h ^ len) * FNV1A64_PRIME;
}

/*
 * /proc/modules: "name size refcount users state address". Only name,
 * size, state and address place symbols; the reference count and user
 * list change whenever a device opens, and must not throw the cache away.
 */
static uint64_t hash_modules(uint64_t h, const char *path)
{
	char *buf = NULL, *line, *save = NULL;
	size_t len;

	if (sym_read_file(path, &buf, &len, 16u << 20))
		return fnv1a64(h, "\xff", 1);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *f, *fsave = NULL;
		int i = 0;

		for (f = strtok_r(line, " ", &fsave); f;
		     f = strtok_r(NULL, " ", &fsave), i++) {
			if (i == 2 || i == 3)
				continue;
			h = fnv1a64(fnv1a64(h, f, strlen(f)), " ", 1);
		}
		h = fnv1a64(h, "\n", 1);
	}
	free(buf);
	return h;
}

bool kcache_path(const char *dir, const char *tag,
		 const struct kcache_src *src, char *out, size_t size)
{
	const char *bpath = "/proc/sys/kernel/random/boot_id";
	const char *mpath = "/proc/modules";
	const char *kpath = "/proc/sys/kernel/kptr_restrict";
	uint64_t h = FNV1A64_INIT;
	char *bid = NULL;
	size_t len;
	int n;

	if (src && src->boot_id)
		bpath = src->boot_id;
	if (src && src->modules)
		mpath = src->modules;
	if (src && src->kptr_restrict)
		kpath = src->kptr_restrict;
	if (!dir || !dir[0] || sym_read_file(bpath, &bid, &len, 4096))
		return false;
	/* Only the boot id's safe characters go into a file name. */
	bid[strspn(bid, "0123456789abcdefABCDEF-")] = 0;
	if (!bid[0]) {
		free(bid);
		return false;
	}
	/* Module loads and unloads move symbols; kptr_restrict hides them. */
	h = hash_modules(h, mpath);
	h = fnv_file(h, kpath, 64);
	n = snprintf(out, size, "%s/%s-%s-%016llx-%u", dir, tag, bid,
		     (unsigned long long)h, (unsigned int)geteuid());
	free(bid);
	return n > 0 && (size_t)n < size;
}

bool kcache_default_dir(char *out, size_t size)
{
	const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int n;

	/* The XDG spec says to ignore a relative XDG_CACHE_HOME. */
	if (x && x[0] == '/')
		n = snprintf(out, size, "%s/sonde", x);
	else if (home && home[0] == '/')
		n = snprintf(out, size, "%s/.cache/sonde", home);
	else
		return false;
	return n > 0 && (size_t)n < size;
}

/* A file or directory counts only if we own it and nobody else may write. */
static bool private_to_us(const struct stat *st, bool dir)
{
	if (st->st_uid != geteuid())
		return false;
	if (dir)
		return S_ISDIR(st->st_mode) && !(st->st_mode & 022);
	return S_ISREG(st->st_mode) && !(st->st_mode & 077);
}

/* Opens @p path if it is a private regular file of ours; fd or -errno. */
static int open_private(const char *path, size_t max, struct stat *st)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);

	if (fd < 0)
		return -errno;
	if (fstat(fd, st) || !private_to_us(st, false)) {
		close(fd);
		return -EPERM;
	}
	if ((uint64_t)st->st_size >= max) {
		close(fd);
		return -EFBIG;
	}
	return fd;
}

int kcache_map(const char *path, size_t max, const void **map, size_t *lenp)
{
	struct stat st;
	void *m;
	int fd = open_private(path, max, &st);

	if (fd < 0)
		return fd;
	if (!st.st_size) {
		close(fd);
		return -ENODATA;
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return -errno;
	*map = m;
	*lenp = (size_t)st.st_size;
	return 0;
}

void kcache_unmap(const void *map, size_t len)
{
	if (map)
		munmap((void *)(uintptr_t)map, len);
}

int sym_make_dirs(const char *dir, mode_t mode)
{
	char tmp[4096];
	size_t len = strlen(dir);

	if (len >= sizeof(tmp))
		return -ENAMETOOLONG;
	memcpy(tmp, dir, len + 1);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(tmp, mode) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, mode) && errno != EEXIST)
		return -errno;
	return 0;
}

int sym_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * Removes older cache files of the same tag and user (other boots or
 * module lists; "<tag>-...-<uid>"): each key change would otherwise leave
 * megabytes behind.
 */
void kcache_remove_stale(const char *dir, const char *path, const char *tag)
{
	const char *base = strrchr(path, '/');
	char uid[32];
	size_t tlen = strlen(tag), ulen;
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return;
	base = base ? base + 1 : path;
	ulen = (size_t)snprintf(uid, sizeof(uid), "-%u", (unsigned int)geteuid());
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (n <= tlen + ulen || strncmp(de->d_name, tag, tlen) ||
		    de->d_name[tlen] != '-' || strcmp(de->d_name + n - ulen, uid) ||
		    !strcmp(de->d_name, base))
			continue;
		unlinkat(dirfd(d), de->d_name, 0);
	}
	closedir(d);
}

int kcache_write_as(const char *dir, const char *path, const void *buf,
		    size_t len, const char *stale)
{
	char tmp[4096 + 16];
	struct stat st;
	int fd, err;

	err = sym_make_dirs(dir, 0700);
	if (err)
		return err;
	if (lstat(dir, &st))
		return -errno;
	if (!private_to_us(&st, true))
		return -EPERM;
	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	if (fchmod(fd, 0600) || sym_write_all(fd, buf, len))
		goto fail;
	if (close(fd)) {
		fd = -1;
		goto fail;
	}
	if (rename(tmp, path)) {
		err = -errno;
		unlink(tmp);
		return err;
	}
	if (stale)
		kcache_remove_stale(dir, path, stale);
	return 0;
fail:
	err = errno ? -errno : -EIO;
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	return err;
}

int kcache_write(const char *dir, const char *path, const void *buf,
		 size_t len)
{
	const char *base = strrchr(path, '/'), *tag_end;
	char tag[64];

	/* The tag is the name up to its first '-': "ksymtab", "kallsyms". */
	base = base ? base + 1 : path;
	tag_end = strchr(base, '-');
	if (!tag_end || (size_t)(tag_end - base) >= sizeof(tag))
		return kcache_write_as(dir, path, buf, len, NULL);
	memcpy(tag, base, (size_t)(tag_end - base));
	tag[tag_end - base] = 0;
	return kcache_write_as(dir, path, buf, len, tag);
}

void kcache_tab_header(uint8_t *buf, const char *magic, uint64_t nr,
		       uint64_t names_len)
{
	memcpy(buf, magic, 8);
	memcpy(buf + 8, &nr, 8);
	memcpy(buf + 16, &names_len, 8);
}

int kcache_tab_header_check(const uint8_t *buf, size_t len, const char *magic,
			    size_t ent, uint64_t *nrp, uint64_t *names_lenp)
{
	uint64_t nr, names_len;

	if (len < KCACHE_TAB_HDR || memcmp(buf, magic, 8))
		return lib_err(SONDE_ERR_FORMAT);
	memcpy(&nr, buf + 8, 8);
	memcpy(&names_len, buf + 16, 8);
	/* Sizes must add up exactly, without overflowing on the way. */
	if (nr > (len - KCACHE_TAB_HDR) / ent ||
	    names_len != len - KCACHE_TAB_HDR - nr * ent)
		return lib_err(SONDE_ERR_FORMAT);
	*nrp = nr;
	*names_lenp = names_len;
	return 0;
}
