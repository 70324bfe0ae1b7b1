// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The report model's side of the DWARF answer cache (dwcache.h): per
 * object, the answers of earlier runs (a mapped file found by the object's
 * build id) are consulted before the debug info is opened, and the
 * answers this run had to compute are merged into the file when the
 * machine is freed. Objects without a build id are not cached.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "internal.h"
#include "anl_priv.h"
#include "dwcache.h"
#include "kcache.h"
#include "sym_internal.h"

#define DWC_FILE_MAX (64u << 20)

struct dwc_added {
	struct dwc_ans a; /* names interned in the machine */
};

struct anl_dwc {
	bool usable;	    /* the object has a key: build id, cache dir */
	char *path;	    /* its cache file */
	char stale[64];	    /* "dwarf-<build id>": older keys of the object */
	const void *map;    /* the checked file of earlier runs, or NULL */
	size_t map_len, nr;
	struct hashtab added; /* of struct dwc_added: computed this run, by (vaddr, kind) */
	uint64_t hits, misses;
};

/* NT_GNU_BUILD_ID of the ELF file @path from its PT_NOTE segments. */
static size_t file_build_id(const char *path, uint8_t *id, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t phnum, n = 0;
	Elf *e;

	if (fd < 0)
		return 0;
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (e && elf_kind(e) == ELF_K_ELF && !elf_getphdrnum(e, &phnum)) {
		for (size_t i = 0; i < phnum && !n; i++) {
			GElf_Phdr ph;
			Elf_Data *d;

			if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_NOTE)
				continue;
			d = elf_getdata_rawchunk(e, (int64_t)ph.p_offset,
						 ph.p_filesz, ELF_T_BYTE);
			if (d && d->d_buf)
				n = (size_t)sym_notes_build_id(d->d_buf, d->d_size,
							       id, size);
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	return n;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ ((const uint8_t *)p)[i]) * 1099511628211ULL;
	return h;
}

/*
 * The file name: the build id of the object on disk, then a hash of where
 * its debug info is read from (a separate debug file installed later, or
 * the recorded copy of an object rebuilt since, gives other answers), with
 * that file's size and mtime, then the user.
 */
static bool dwc_key(struct anl_machine *m, struct anl_dso *d, struct anl_dwc *c)
{
	const char *src = d->dbg_path ? d->dbg_path : d->name;
	uint8_t id[20];
	char hex[41], path[4096];
	size_t n = file_build_id(d->name, id, sizeof(id));
	uint64_t h = 1469598103934665603ULL;
	struct stat st;
	int len;

	if (n < 4 || stat(src, &st))
		return false;
	for (size_t i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	h = fnv(h, src, strlen(src) + 1);
	h = fnv(h, &st.st_size, sizeof(st.st_size));
	h = fnv(h, &st.st_mtim.tv_sec, sizeof(st.st_mtim.tv_sec));
	h = fnv(h, &st.st_mtim.tv_nsec, sizeof(st.st_mtim.tv_nsec));
	len = snprintf(path, sizeof(path), "%s/dwarf-%s-%016llx-%u", m->kcache_dir,
		       hex, (unsigned long long)h, (unsigned int)geteuid());
	if (len <= 0 || (size_t)len >= sizeof(path))
		return false;
	snprintf(c->stale, sizeof(c->stale), "dwarf-%s", hex);
	c->path = strdup(path);
	return c->path != NULL;
}

/* @d's cache state, made (and its file mapped) on first use. */
static struct anl_dwc *dwc_of(struct anl_machine *m, struct anl_dso *d)
{
	struct anl_dwc *c = d->dwc;

	if (c)
		return c;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	d->dwc = c;
	if (!m->kcache_dir || d->kernel || d->jit || d->stale || d->name[0] != '/' ||
	    !dwc_key(m, d, c))
		return c;
	hashtab_init(&c->added);
	c->usable = true;
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

bool anl_dwc_lookup(struct anl_machine *m, struct anl_dso *d, uint64_t va, int kind,
		    const char **names, int max, int *nr)
{
	struct anl_dwc *c = dwc_of(m, d);
	struct hashtab_probe probe;
	struct dwc_added *e;
	struct dwc_ans a;
	long i;
	int n;

	if (!c || !c->usable)
		return false;
	for (e = hashtab_probe_first(&c->added, ans_hash(va, kind), &probe); e;
	     e = hashtab_probe_next(&c->added, &probe))
		if (e->a.vaddr == va && e->a.kind == kind)
			break;
	if (e) {
		a = e->a;
	} else {
		i = c->map ? dwc_find(c->map, c->nr, va, kind) : -1;
		if (i < 0)
			return false;
		if (!names)
			return true;
		dwc_get(c->map, (size_t)i, &a);
		c->hits++;
	}
	if (!names)
		return true;
	n = a.nr < max ? a.nr : max;
	for (int j = 0; j < n; j++)
		names[j] = e ? a.names[j] : anl_intern(m, a.names[j], strlen(a.names[j]));
	*nr = n;
	return true;
}

void anl_dwc_add(struct anl_machine *m, struct anl_dso *d, uint64_t va, int kind,
		 const char *const *names, int nr)
{
	struct anl_dwc *c = dwc_of(m, d);
	struct dwc_added *e;

	if (!c || !c->usable || nr < 0 || nr > DWC_MAX_NAMES)
		return;
	c->misses++;
	e = anl_alloc(m, sizeof(*e));
	memset(e, 0, sizeof(*e));
	e->a.vaddr = va;
	e->a.kind = (uint8_t)kind;
	e->a.nr = (uint8_t)nr;
	for (int j = 0; j < nr; j++)
		e->a.names[j] = names[j];
	/* Out of memory: the answer is only not kept for the next run. */
	(void)hashtab_insert(&c->added, ans_hash(va, kind), e);
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
static void dwc_write(struct anl_machine *m, struct anl_dwc *c)
{
	size_t nr = c->nr + hashtab_count(&c->added), k = 0, len, pos = 0;
	struct dwc_added *e;
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
		v[k++] = &e->a;
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
		err = kcache_write_as(m->kcache_dir, c->path, buf, len, c->stale);
		free(buf);
	}
	if (err)
		pr_debug("cannot write the DWARF cache %s: %s\n", c->path, strerror(-err));
out:
	free(v);
	free(old);
	free(flat);
}

void anl_dwc_flush(struct anl_machine *m, struct anl_dso *d)
{
	struct anl_dwc *c = d->dwc;

	if (!c)
		return;
	if (c->usable)
		pr_debug("%s: DWARF cache %s: %llu hits, %llu misses\n", d->name, c->path,
			 (unsigned long long)c->hits, (unsigned long long)c->misses);
	if (c->usable && hashtab_count(&c->added))
		dwc_write(m, c);
	kcache_unmap(c->map, c->map_len);
	hashtab_free(&c->added);
	free(c->path);
	free(c);
	d->dwc = NULL;
}
