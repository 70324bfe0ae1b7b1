// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The kernel's function table (sym_priv.h): one encoding, made from kallsyms
 * text or a finished symbol array, written as the cache file, checked
 * once when read back, and searched where it lies.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gelf.h>
#include "core_priv.h"
#include "sym_priv.h"

/*
 * Layout, host byte order (the file never leaves this machine):
 *   u8  magic[8]   "SONDEKT2"
 *   u64 nr         entries
 *   u64 names_len  bytes of names, the last one NUL
 *   nr x struct kent, sorted by start
 *   names          NUL-terminated symbol and module names
 */
#define KTAB_MAGIC "SONDEKT2"
#define KTAB_NO_MODULE UINT32_MAX
/* Offsets are u32; a kallsyms text is at most SYM_TEXT_MAX anyway. */
#define KTAB_MAX (1u << 28)

struct kent {
	uint64_t start, size;	/* first, as sym_table_index() reads them */
	uint32_t name;		/* offset in the names */
	uint32_t module;	/* offset of its module's name, or KTAB_NO_MODULE */
	uint8_t binding;	/* enum sonde_sym_binding */
	uint8_t size_synth;
	uint8_t pad[6];
};
_Static_assert(sizeof(struct kent) == 32, "ktab entry layout");

struct sym_ktab {
	const uint8_t *buf;	/* the encoding: mapped cache file or malloc'd */
	size_t len;
	bool mapped;
	bool hidden;		/* no entries: kallsyms hid the addresses */
	size_t nr;
	const uint8_t *ents;	/* entries are read with memcpy: any alignment */
	const char *names;
};

static void kent_at(const struct sym_ktab *kt, size_t i, struct kent *k)
{
	memcpy(k, kt->ents + i * sizeof(*k), sizeof(*k));
}

int sym_ktab_encode(const struct sonde_symbol *syms, size_t nr, void **bufp,
		    size_t *lenp)
{
	const char *mod = NULL;
	uint32_t mod_off = KTAB_NO_MODULE;
	size_t names = 0, len, off = 0;
	uint8_t *buf;
	char *nb;

	/* Each module's name once per run of its symbols. */
	for (size_t i = 0; i < nr; i++) {
		const char *m = syms[i].module;

		names += strlen(syms[i].name) + 1;
		if (m && (!mod || strcmp(m, mod)))
			names += strlen(m) + 1;
		mod = m;
	}
	if (names > KTAB_MAX || nr > KTAB_MAX / sizeof(struct kent))
		return -EFBIG;
	len = KCACHE_TAB_HDR + nr * sizeof(struct kent) + names;
	buf = calloc(1, len); /* zero padding */
	if (!buf)
		return -ENOMEM;
	kcache_tab_header(buf, KTAB_MAGIC, nr, names);
	nb = (char *)buf + KCACHE_TAB_HDR + nr * sizeof(struct kent);
	mod = NULL;
	for (size_t i = 0; i < nr; i++) {
		const struct sonde_symbol *s = &syms[i];
		struct kent k = {
			.start = s->start, .size = s->size, .name = (uint32_t)off,
			.binding = s->binding, .size_synth = s->size_synth,
		};
		size_t n = strlen(s->name) + 1;

		memcpy(nb + off, s->name, n);
		off += n;
		if (s->module && (!mod || strcmp(s->module, mod))) {
			n = strlen(s->module) + 1;
			memcpy(nb + off, s->module, n);
			mod_off = (uint32_t)off;
			off += n;
		}
		mod = s->module;
		k.module = mod ? mod_off : KTAB_NO_MODULE;
		memcpy(buf + KCACHE_TAB_HDR + i * sizeof(k), &k, sizeof(k));
	}
	*bufp = buf;
	*lenp = len;
	return 0;
}

int sym_ktab_check(const void *data, size_t len, size_t *nrp)
{
	const uint8_t *buf = data;
	uint64_t nr, names_len, prev = 0;

	if (kcache_tab_header_check(buf, len, KTAB_MAGIC, sizeof(struct kent),
				    &nr, &names_len))
		return -errno;
	if (nr && !names_len)
		return lib_err(SONDE_ERR_FORMAT);
	/* Every name offset then finds a NUL before the end. */
	if (names_len && buf[len - 1])
		return lib_err(SONDE_ERR_FORMAT);
	for (size_t i = 0; i < nr; i++) {
		struct kent k;

		memcpy(&k, buf + KCACHE_TAB_HDR + i * sizeof(k), sizeof(k));
		if (k.name >= names_len ||
		    (k.module != KTAB_NO_MODULE && k.module >= names_len) ||
		    k.binding > SONDE_SYM_WEAK || k.size_synth > 1 || !k.size ||
		    (i && k.start <= prev))
			return lib_err(SONDE_ERR_FORMAT);
		prev = k.start;
	}
	*nrp = (size_t)nr;
	return 0;
}

/* @p buf (checked, @p nr entries) as a table that owns it. */
static int wrap(const void *buf, size_t len, bool mapped, size_t nr,
		struct sym_ktab **out)
{
	struct sym_ktab *kt = malloc(sizeof(*kt));

	if (!kt)
		return -ENOMEM;
	kt->buf = buf;
	kt->len = len;
	kt->mapped = mapped;
	kt->hidden = false;
	kt->nr = nr;
	kt->ents = kt->buf + KCACHE_TAB_HDR;
	kt->names = (const char *)kt->ents + nr * sizeof(struct kent);
	*out = kt;
	return 0;
}

int sym_ktab_new(const struct sonde_symbol *syms, size_t nr,
		 struct sym_ktab **out)
{
	size_t len;
	void *buf;
	int err = sym_ktab_encode(syms, nr, &buf, &len);

	if (!err && (err = wrap(buf, len, false, nr, out)))
		free(buf);
	return err;
}

int sym_ktab_load(const void *data, size_t len, struct sym_ktab **out)
{
	size_t nr;
	void *buf;
	int err = sym_ktab_check(data, len, &nr);

	if (err)
		return err;
	buf = malloc(len);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, data, len);
	err = wrap(buf, len, false, nr, out);
	if (err)
		free(buf);
	return err;
}

int sym_ktab_parse(char *text, size_t len, struct sym_ktab **out)
{
	struct sonde_symbol *syms = NULL;
	size_t nr = 0;
	int err = sym_parse_kallsyms(text, len, &syms, &nr);
	bool hidden = err == -EACCES;

	if (err && !hidden)
		return err;
	err = sym_ktab_new(syms, nr, out); /* hidden: no symbols */
	free(syms);
	if (!err)
		(*out)->hidden = hidden;
	return err;
}

int sym_ktab_read(const char *path, struct sym_ktab **out)
{
	char *text;
	size_t len;
	int err = sym_read_file(path, &text, &len, SYM_TEXT_MAX);

	if (err)
		return err;
	err = sym_ktab_parse(text, len, out);
	free(text);
	return err;
}

int sym_ktab_vmlinux(const char *path, const uint8_t *want, size_t wlen,
		     uint64_t text, uint8_t *have, size_t *hlen,
		     struct sym_ktab **out)
{
	struct sonde_symbol *syms;
	char *plt_names;
	uint64_t at = 0;
	size_t nr;
	int fd, n, err;
	Elf *e = sym_elf_open(path, &fd);

	*hlen = 0;
	if (!e)
		return -errno;
	n = sym_elf_build_id(e, have, SYM_BUILD_ID_MAX);
	*hlen = n > 0 ? (size_t)n : 0;
	/* An image without an id cannot be checked: taken as it is. */
	if (wlen && n > 0 && !sym_same_build_id(want, wlen, have, (size_t)n)) {
		sym_elf_close(e, fd);
		return -ESTALE;
	}
	/* Names point into the image until the table copies them. */
	err = sym_elf_table(e, NULL, &syms, &nr, &plt_names);
	if (err || !nr)
		err = -ENODATA;
	for (size_t i = 0; !err && i < nr; i++)
		if (!strcmp(syms[i].name, "_text"))
			at = syms[i].start;
	for (size_t i = 0; !err && text && at && i < nr; i++)
		syms[i].start += text - at;
	if (!err)
		err = sym_ktab_new(syms, nr, out);
	free(syms);
	free(plt_names);
	sym_elf_close(e, fd);
	return err;
}

/* The cache file @p path, mapped and checked; a bad one says so. */
static int map_cached(const char *path, struct sym_ktab **out)
{
	const void *map;
	size_t len, nr = 0;
	int err = kcache_map(path, KTAB_MAX, &map, &len);

	if (err)
		return err;
	err = sym_ktab_check(map, len, &nr);
	if (!err && !nr)
		err = -ENODATA; /* never stored: not ours */
	if (!err)
		err = wrap(map, len, true, nr, out);
	if (err) {
		pr_debug("%s: not a valid kernel symbol cache, rebuilding it\n", path);
		kcache_unmap(map, len);
	}
	return err;
}

int sym_ktab_this_boot(const char *cache_dir, const char *path,
		       struct sym_ktab **out)
{
	char cpath[4096];
	bool cache = cache_dir && *cache_dir &&
		     kcache_path(cache_dir, "ksymtab", NULL, cpath, sizeof(cpath));
	int err;

	if (cache && !map_cached(cpath, out)) {
		pr_debug("kernel symbols from %s\n", cpath);
		return 0;
	}
	err = sym_ktab_read(path, out);
	if (!cache)
		return err;
	if (err || !(*out)->nr) { /* hidden too */
		unlink(cpath); /* never a hidden or empty table */
		return err;
	}
	if (kcache_write(cache_dir, cpath, (*out)->buf, (*out)->len))
		pr_debug("cannot write the kernel symbol cache %s\n", cpath);
	/* The text copies of earlier versions are retired too. */
	kcache_remove_stale(cache_dir, cpath, "kallsyms");
	return 0;
}

void sym_ktab_free(struct sym_ktab *kt)
{
	if (!kt)
		return;
	if (kt->mapped)
		kcache_unmap(kt->buf, kt->len);
	else
		free((void *)(uintptr_t)kt->buf);
	free(kt);
}

size_t sym_ktab_nr(const struct sym_ktab *kt)
{
	return kt ? kt->nr : 0;
}

bool sym_ktab_cached(const struct sym_ktab *kt)
{
	return kt && kt->mapped;
}

bool sym_ktab_hidden(const struct sym_ktab *kt)
{
	return kt && kt->hidden;
}

size_t sym_ktab_find(const struct sym_ktab *kt, uint64_t addr)
{
	return kt ? sym_table_index(kt->ents, sizeof(struct kent), kt->nr, addr) :
		    SIZE_MAX;
}

void sym_ktab_get(const struct sym_ktab *kt, size_t i, struct sonde_symbol *out)
{
	struct kent k;

	kent_at(kt, i, &k);
	*out = (struct sonde_symbol){
		.start = k.start, .size = k.size, .name = kt->names + k.name,
		.module = k.module == KTAB_NO_MODULE ? NULL : kt->names + k.module,
		.binding = k.binding, .size_synth = k.size_synth,
	};
}
