/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * The per-user cache files: the one module under the kernel table
 * (ksymtab, sym_ktab.c) and the DWARF answers (dwcache_store.c).
 * Generating /proc/kallsyms costs the kernel tens of milliseconds per read (it formats ~100k
 * lines); a private copy keyed by what moves kernel symbols skips that on
 * later runs. Same trade-off as perf's kallsyms copy in ~/.debug.
 */
#ifndef SONDE_KCACHE_H
#define SONDE_KCACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Where the inputs of the cache key come from. NULL members take the
 * /proc defaults (boot id, /proc/modules, kptr_restrict); tests point them
 * elsewhere.
 */
struct kcache_src {
	const char *boot_id;
	const char *modules;
	const char *kptr_restrict;
};

/*
 * The cache file name in @p dir for @p tag (one per format: the kernel
 * table's is "ksymtab") keyed by boot id, module list, kptr_restrict and euid.
 * Returns false when there is no boot id to key on or the name is too long.
 */
bool kcache_path(const char *dir, const char *tag,
		 const struct kcache_src *src, char *out, size_t size);

/*
 * The default cache directory: $XDG_CACHE_HOME/sonde (when absolute), else
 * $HOME/.cache/sonde. False when neither is set.
 */
bool kcache_default_dir(char *out, size_t size);

/*
 * Maps cache file @p path read-only, but only a regular file (no
 * symlink) owned by the effective uid with no group or other permission
 * bits (else -EPERM), under @p max bytes (else -EFBIG), not empty (else
 * -ENODATA); undo with kcache_unmap(). Our writers replace files by
 * rename, never in place, so a mapping stays whole.
 */
int kcache_map(const char *path, size_t max, const void **map, size_t *len);
void kcache_unmap(const void *map, size_t len);

/*
 * Writes @p buf as @p path atomically (a 0600 temporary file renamed over
 * it), creating @p dir 0700 when missing. A directory that is not ours or
 * is open to others is refused (-EPERM). 0 or -errno.
 */
int kcache_write(const char *dir, const char *path, const void *buf,
		 size_t len);

/*
 * Removes the other files of this user named "<@p tag>-...-<euid>" in
 * @p dir, all but @p path: each key change would otherwise leave
 * megabytes behind.
 */
void kcache_remove_stale(const char *dir, const char *path, const char *tag);

/*
 * kcache_write() with the stale-file rule explicit: after the rename,
 * other files of this user named "<@p stale>-...-<euid>" are removed
 * (none when @p stale is NULL). kcache_write() takes the part of the file
 * name before its first '-' as @p stale.
 */
int kcache_write_as(const char *dir, const char *path, const void *buf,
		    size_t len, const char *stale);

/*
 * Both cache table formats (the kernel table in sym_ktab.c, the DWARF
 * answers in dwcache.c) start alike: u8 magic[8], u64 nr entries, u64
 * names_len, then nr fixed-size entries and names_len bytes of names,
 * filling the file.
 */
#define KCACHE_TAB_HDR 24u
void kcache_tab_header(uint8_t *buf, const char *magic, uint64_t nr,
		       uint64_t names_len);
/*
 * Checks @p magic and that header, entries of @p ent bytes and names add
 * up to exactly @p len (without overflowing): 0 with *@p nr and
 * *@p names_len, or -SONDE_ERR_FORMAT (errno set).
 */
int kcache_tab_header_check(const uint8_t *buf, size_t len, const char *magic,
			    size_t ent, uint64_t *nr, uint64_t *names_len);

/* FNV-1a over @p n bytes, from KCACHE_HASH_INIT: the cache keys' hash. */
#define KCACHE_HASH_INIT 1469598103934665603ULL
uint64_t kcache_hash(uint64_t h, const void *p, size_t n);

#endif /* SONDE_KCACHE_H */
