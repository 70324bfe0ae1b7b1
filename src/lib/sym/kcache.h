/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * The per-user cache files: the one module under the symbolizer's
 * kallsyms text (sym_text.c), the report model's kernel table (ksymtab)
 * and the DWARF answers (dwcache_store.c). Generating /proc/kallsyms
 * costs the kernel tens of milliseconds per read (it formats ~100k
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
 * The cache file name in @p dir for @p tag ("kallsyms", "ksymtab": one
 * per format) keyed by boot id, module list, kptr_restrict and euid.
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
 * Reads cache file @p path into a NUL-terminated malloc'd buffer, but only
 * a regular file (no symlink) owned by the effective uid with no group or
 * other permission bits. -EPERM when it is not; -errno else.
 */
int kcache_read(const char *path, char **buf, size_t *len, size_t max);

/*
 * Maps cache file @p path read-only after the same checks as
 * kcache_read() (-ENODATA when empty); undo with kcache_unmap(). Our
 * writers replace files by rename, never in place, so a mapping stays
 * whole.
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
 * kcache_write() with the stale-file rule explicit: after the rename,
 * other files of this user named "<@p stale>-...-<euid>" are removed
 * (none when @p stale is NULL). kcache_write() takes the part of the file
 * name before its first '-' as @p stale.
 */
int kcache_write_as(const char *dir, const char *path, const void *buf,
		    size_t len, const char *stale);

/* One kernel function of the pre-parsed table: [start, end) and its name. */
/*
 * Both cache table formats (ksymtab here, the DWARF answers in dwcache.c)
 * start alike: u8 magic[8], u64 nr entries, u64 names_len, then nr
 * fixed-size entries and names_len bytes of names, filling the file.
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

struct kcache_sym {
	uint64_t start, end;
	const char *name;
};

/*
 * The pre-parsed table format ("ksymtab"): a header, nr fixed-size entries
 * sorted by start, then the NUL-terminated names. Loading it is one read
 * and one bounds-checked pass, no text parsing.
 * Encode: @p syms sorted by start; *@p buf is malloc'd. 0 or -errno.
 */
int kcache_tab_encode(const struct kcache_sym *syms, size_t nr, void **buf,
		      size_t *len);

/*
 * Validates @p buf (magic, sizes, name offsets, sort order, non-empty
 * ranges): 0 and *@p nr entries, or -SONDE_ERR_FORMAT (errno set) for
 * anything malformed. Only then may kcache_tab_get() read entry @p i
 * (< nr); its name points into @p buf.
 */
int kcache_tab_check(const void *buf, size_t len, size_t *nr);
void kcache_tab_get(const void *buf, size_t i, struct kcache_sym *out);

/* Both in one: a malloc'd array of *@p nr symbols (names in @p buf). */
int kcache_tab_decode(const void *buf, size_t len, struct kcache_sym **out,
		      size_t *nr);

/*
 * The ksymtab file @p path mapped and checked (undo with kcache_unmap()):
 * 0 with *@p nr > 0 entries for kcache_tab_get(), else -errno (a debug
 * line when the file is there but invalid or empty).
 */
int kcache_tab_load(const char *path, const void **map, size_t *len,
		    size_t *nr);
/* @p syms (sorted by start) written as ksymtab file @p path in @p dir. */
int kcache_tab_store(const char *dir, const char *path,
		     const struct kcache_sym *syms, size_t nr);

/* FNV-1a over @p n bytes, from KCACHE_HASH_INIT: the cache keys' hash. */
#define KCACHE_HASH_INIT 1469598103934665603ULL
uint64_t kcache_hash(uint64_t h, const void *p, size_t n);

#endif /* SONDE_KCACHE_H */
