// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The DWARF answers of one object across runs (sym_priv.h): the answers of
 * earlier runs (a mapped file found by the object's build id) are looked
 * up first, and the answers this run had to compute are merged into the
 * file when the store is closed. Without a directory, or for an object
 * without a build id, the store keeps this run's answers in memory only.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core_priv.h"
#include "sym_priv.h"

#define DWC_FILE_MAX (64u << 20)

struct dwc_store {
	char *path;	    /* its cache file */
	char *dir;	    /* the cache directory */
	char stale[64];	    /* "dwarf-<build id>": older keys of the object */
	const void *map;    /* the checked file of earlier runs, or NULL */
	size_t map_len, nr;
	struct hashtab added; /* of struct dwc_ans: computed this run, by (vaddr, kind) */
	uint64_t hits, misses;
};

/*
 * The file name: the build id of the object on disk, then a hash of where
 * its debug info is read from (a separate debug file installed later, or
 * the recorded copy of an object rebuilt since, gives other answers), with
 * that file's size and mtime, then the user.
 */
static bool dwc_key(struct dwc_store *c, const char *dir, const char *obj,
		    const char *src)
{
	uint8_t id[20];
	char hex[41], path[4096];
	int n = sonde_elf_build_id(obj, id, sizeof(id)), len;
	uint64_t h = FNV1A64_INIT;
	struct stat st;

	if (n < 4 || stat(src, &st))
		return false;
	sym_hex_id(id, (size_t)n, hex);
	h = fnv1a64(h, src, strlen(src) + 1);
	h = fnv1a64(h, &st.st_size, sizeof(st.st_size));
	h = fnv1a64(h, &st.st_mtim.tv_sec, sizeof(st.st_mtim.tv_sec));
	h = fnv1a64(h, &st.st_mtim.tv_nsec, sizeof(st.st_mtim.tv_nsec));
	len = snprintf(path, sizeof(path), "%s/dwarf-%s-%016llx-%u", dir, hex,
		       (unsigned long long)h, (unsigned int)geteuid());
	if (len <= 0 || (size_t)len >= sizeof(path))
		return false;
	snprintf(c->stale, sizeof(c->stale), "dwarf-%s", hex);
	c->path = strdup(path);
	c->dir = strdup(dir);
	return c->path && c->dir;
}

struct dwc_store *dwc_store_open(const char *dir, const char *obj,
				 const char *dbg)
{
	struct dwc_store *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	hashtab_init(&c->added);
	if (!dir || !dwc_key(c, dir, obj, dbg ? dbg : obj)) {
		free(c->path);
		free(c->dir);
		c->path = c->dir = NULL;
		return c; /* memory only */
	}
	if (kcache_map(c->path, DWC_FILE_MAX, &c->map, &c->map_len))
		return c;
	if (dwc_check(c->map, c->map_len, &c->nr)) {
		pr_debug("%s: not a valid DWARF cache file, rebuilding it\n", c->path);
		kcache_unmap(c->map, c->map_len);
		c->map = NULL;
		c->nr = 0;
	}
	return c;
}

static uint64_t ans_hash(uint64_t va, int kind)
{
	return hashtab_mix(va, (uint64_t)kind);
}

int dwc_store_lookup(struct dwc_store *c, uint64_t va, int kind,
		     struct dwc_ans *out)
{
	struct hashtab_probe probe;
	struct dwc_ans *e;
	long i;

	for (e = hashtab_probe_first(&c->added, ans_hash(va, kind), &probe); e;
	     e = hashtab_probe_next(&c->added, &probe))
		if (e->vaddr == va && e->kind == kind)
			break;
	if (e) {
		if (out)
			*out = *e;
		return DWC_FROM_RUN;
	}
	i = c->map ? dwc_find(c->map, c->nr, va, kind) : -1;
	if (i < 0)
		return DWC_MISS;
	if (out) {
		dwc_get(c->map, (size_t)i, out);
		c->hits++;
	}
	return DWC_FROM_FILE;
}

void dwc_store_add(struct dwc_store *c, uint64_t va, int kind,
		   const char *const *names, int nr)
{
	struct dwc_ans *e;

	if (nr < 0 || nr > DWC_MAX_NAMES)
		return;
	c->misses++;
	/* Out of memory: the answer is only not kept for the next run. */
	e = calloc(1, sizeof(*e));
	if (!e)
		return;
	e->vaddr = va;
	e->kind = (uint8_t)kind;
	e->nr = (uint8_t)nr;
	for (int j = 0; j < nr; j++)
		e->names[j] = names[j];
	if (hashtab_insert(&c->added, ans_hash(va, kind), e))
		free(e);
}

static int ans_cmp(const void *x, const void *y)
{
	const struct dwc_ans *a = *(const struct dwc_ans *const *)x;
	const struct dwc_ans *b = *(const struct dwc_ans *const *)y;

	if (a->vaddr != b->vaddr)
		return a->vaddr < b->vaddr ? -1 : 1;
	return a->kind < b->kind ? -1 : a->kind > b->kind;
}

/* The earlier answers and this run's, merged into a new file. */
static void dwc_write(struct dwc_store *c)
{
	size_t nr = c->nr + hashtab_count(&c->added), k = 0, len, pos = 0;
	struct dwc_ans *e;
	struct dwc_ans **v = malloc(nr * sizeof(*v));
	struct dwc_ans *old = malloc((c->nr ? c->nr : 1) * sizeof(*old));
	struct dwc_ans *flat = malloc(nr * sizeof(*flat));
	void *buf;
	int err;

	if (!v || !old || !flat)
		goto out;
	for (size_t i = 0; i < c->nr; i++) {
		dwc_get(c->map, i, &old[i]);
		v[k++] = &old[i];
	}
	while ((e = hashtab_next(&c->added, &pos)))
		v[k++] = e;
	qsort(v, k, sizeof(*v), ans_cmp);
	nr = 0;
	for (size_t i = 0; i < k; i++) {
		/* Never twice: a repeat can only be a file answer asked again. */
		if (nr && !ans_cmp(&v[i], &v[i - 1]))
			continue;
		flat[nr++] = *v[i];
	}
	err = dwc_encode(flat, nr, &buf, &len);
	/* One the next run would refuse to map is not worth writing. */
	if (!err && len >= DWC_FILE_MAX) {
		free(buf);
		err = -EFBIG;
	}
	if (!err) {
		err = kcache_write_as(c->dir, c->path, buf, len, c->stale);
		free(buf);
	}
	if (err)
		pr_debug("cannot write the DWARF cache %s: %s\n", c->path, strerror(-err));
out:
	free(v);
	free(old);
	free(flat);
}

void dwc_store_close(struct dwc_store *c, const char *obj)
{
	struct dwc_ans *e;
	size_t pos = 0;

	if (!c)
		return;
	if (c->path)
		pr_debug("%s: DWARF cache %s: %llu hits, %llu misses\n", obj, c->path,
			 (unsigned long long)c->hits, (unsigned long long)c->misses);
	if (c->path && hashtab_count(&c->added))
		dwc_write(c);
	kcache_unmap(c->map, c->map_len);
	while ((e = hashtab_next(&c->added, &pos)))
		free(e);
	hashtab_free(&c->added);
	free(c->path);
	free(c->dir);
	free(c);
}
