/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * The kernel's function table (sym_ktab.c), for the public symbolizer's
 * kernel object and the report model alike: kallsyms (or a vmlinux's
 * symbols) finished once, in one format that is both what lookups search
 * and the per-user cache file (kcache.h). A cached table is mapped and
 * searched in place: nothing is parsed or copied, and a name is read only
 * when a lookup lands on it.
 */
#ifndef SONDE_KTAB_H
#define SONDE_KTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sonde/symbols.h"

struct sym_ktab;

/*
 * A table of @p nr finished symbols (sorted, one per start, sized), its
 * names and modules copied. 0 or -errno.
 */
int sym_ktab_new(const struct sonde_symbol *syms, size_t nr,
		 struct sym_ktab **out);

/*
 * The kallsyms text @p buf (@p len bytes, NUL-terminated, cut up in
 * place) finished as perf 6.1 does (sym_parse_kallsyms()); when no
 * function has an address, an empty table that says it was hidden
 * (sym_ktab_hidden()). 0 or -errno.
 */
int sym_ktab_parse(char *buf, size_t len, struct sym_ktab **out);

/* The kallsyms text file @p path, as sym_ktab_parse(); else -errno. */
int sym_ktab_read(const char *path, struct sym_ktab **out);

/*
 * This boot's kallsyms @p path (/proc/kallsyms) through the cache in
 * @p cache_dir (NULL or "": none): the cached table when it is valid and
 * ours, else @p path read and the table stored for the next run (never an
 * empty or hidden one). Returns as sym_ktab_read().
 */
int sym_ktab_this_boot(const char *cache_dir, const char *path,
		       struct sym_ktab **out);

/*
 * The kernel ELF image @p path (a vmlinux): its function symbols (.symtab,
 * else .dynsym) moved by @p text - its _text when @p text is set (where
 * the recorded kernel had _text: KASLR). With @p wlen its build id must
 * be @p want, else -ESTALE; either way @p have (SYM_BUILD_ID_MAX bytes)
 * gets the id it has, *@p hlen its size (0: none). -errno when it cannot
 * be opened, -SONDE_ERR_FORMAT when it is not ELF, -ENODATA without
 * (readable) function symbols.
 */
int sym_ktab_vmlinux(const char *path, const uint8_t *want, size_t wlen,
		     uint64_t text, uint8_t *have, size_t *hlen,
		     struct sym_ktab **out);

void sym_ktab_free(struct sym_ktab *kt);
size_t sym_ktab_nr(const struct sym_ktab *kt);
/* Whether @p kt is a cache file's mapping (it was not read from text). */
bool sym_ktab_cached(const struct sym_ktab *kt);
/* Whether @p kt is empty because kallsyms showed only zero addresses. */
bool sym_ktab_hidden(const struct sym_ktab *kt);

/* sym_table_index() on @p kt: the index covering @p addr, or SIZE_MAX. */
size_t sym_ktab_find(const struct sym_ktab *kt, uint64_t addr);
/* Entry @p i (< sym_ktab_nr()); its names point into @p kt. */
void sym_ktab_get(const struct sym_ktab *kt, size_t i, struct sonde_symbol *out);

/*
 * The format, exposed for the cache's tests and fuzzing: @p syms (a
 * finished table) encoded into *@p buf (malloc'd, *@p len bytes); and
 * the checks a buffer passes before anything reads it: 0 and *@p nr, or
 * -SONDE_ERR_FORMAT (errno set) for anything malformed.
 */
int sym_ktab_encode(const struct sonde_symbol *syms, size_t nr, void **buf,
		    size_t *len);
int sym_ktab_check(const void *buf, size_t len, size_t *nr);
/*
 * A checked copy of @p buf (@p len bytes) as a table: 0, or the
 * sym_ktab_check() error.
 */
int sym_ktab_load(const void *buf, size_t len, struct sym_ktab **out);

#endif /* SONDE_KTAB_H */
