// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The symbol cache: one refcounted DSO per (path, build id), kernel and JIT
 * tables, lazy thread-safe loading, and the lookup entry points.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core_priv.h"
#include "sym_priv.h"

struct sonde_symcache {
	pthread_mutex_t lock; /* guards the tables below: lookups come from any thread */
	struct hashtab dsos;	/* ELF DSOs and recorded vdsos, by path + build id */
	struct sonde_dso *kernel;
	struct sonde_dso *vdso;
	struct hashtab jits;	/* JIT perf maps, by pid */
	struct sonde_symcache_opts opts;
	char *root_dir, *debug_dir, *kallsyms_path, *jit_dir, *notes_path;
	char *buildid_dir;
	char *kcache_dir;
	char *rec_kallsyms_path, *vmlinux_path, *dwc_dir; /* NULL: none */
};

static char *dup_or(const char *s, const char *fallback)
{
	return strdup(s ? s : fallback);
}

/* *@to = a copy of @s, or NULL for NULL; false without memory. */
static bool dup_opt(char **to, const char *s)
{
	*to = s ? strdup(s) : NULL;
	return !s || *to;
}

struct sonde_symcache *
sonde_symcache__new(const struct sonde_symcache_opts *opts)
{
	struct sonde_symcache *c;

	if (!OPTS_VALID(opts, sonde_symcache_opts))
		return lib_err_ptr(EINVAL);
	c = calloc(1, sizeof(*c));
	if (!c)
		return lib_err_ptr(ENOMEM);
	pthread_mutex_init(&c->lock, NULL);
	c->root_dir = dup_or(OPTS_GET(opts, root_dir, NULL), "");
	c->debug_dir = dup_or(OPTS_GET(opts, debug_dir, NULL), "/usr/lib/debug");
	c->kallsyms_path = dup_or(OPTS_GET(opts, kallsyms_path, NULL),
				  "/proc/kallsyms");
	c->jit_dir = dup_or(OPTS_GET(opts, jit_dir, NULL), "/tmp");
	c->opts.no_debug_files = OPTS_GET(opts, no_debug_files, false);
	c->notes_path = dup_or(OPTS_GET(opts, kernel_notes_path, NULL),
			       "/sys/kernel/notes");
	if (OPTS_GET(opts, buildid_dir, NULL)) {
		c->buildid_dir = strdup(opts->buildid_dir);
	} else {
		c->buildid_dir = sym_default_buildid_dir();
	}
	c->kcache_dir = dup_or(OPTS_GET(opts, kallsyms_cache_dir, NULL), "");
	if (!dup_opt(&c->rec_kallsyms_path, OPTS_GET(opts, recorded_kallsyms_path, NULL)) ||
	    !dup_opt(&c->vmlinux_path, OPTS_GET(opts, vmlinux_path, NULL)) ||
	    !dup_opt(&c->dwc_dir, OPTS_GET(opts, dwarf_cache_dir, NULL)) ||
	    !c->root_dir || !c->debug_dir || !c->kallsyms_path || !c->jit_dir ||
	    !c->notes_path || !c->buildid_dir || !c->kcache_dir) {
		sonde_symcache__free(c);
		return lib_err_ptr(ENOMEM);
	}
	return c;
}

char *sym_default_buildid_dir(void)
{
	const char *home = getenv("HOME"), *env = getenv("PERF_BUILDID_DIR");
	char *dir = NULL;

	if (env && *env)
		return strdup(env); /* perf's override, before HOME */
	if (!home || !*home)
		return strdup("");
	if (asprintf(&dir, "%s/.debug", home) < 0)
		return NULL;
	return dir;
}

void sonde_symcache__free(struct sonde_symcache *c)
{
	struct sonde_dso *d;
	size_t pos = 0;

	if (!c)
		return;
	while ((d = hashtab_next(&c->dsos, &pos)))
		sonde_dso__put(d);
	hashtab_free(&c->dsos);
	pos = 0;
	while ((d = hashtab_next(&c->jits, &pos)))
		sonde_dso__put(d);
	hashtab_free(&c->jits);
	sonde_dso__put(c->kernel);
	sonde_dso__put(c->vdso);
	free(c->root_dir);
	free(c->debug_dir);
	free(c->kallsyms_path);
	free(c->jit_dir);
	free(c->notes_path);
	free(c->buildid_dir);
	free(c->kcache_dir);
	free(c->rec_kallsyms_path);
	free(c->vmlinux_path);
	free(c->dwc_dir);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

static struct sonde_dso *dso_new(struct sonde_symcache *c, int kind,
				 const char *path)
{
	struct sonde_dso *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	atomic_init(&d->refcnt, 1);
	d->kind = kind;
	d->fd = d->symfd = -1;
	pthread_mutex_init(&d->lock, NULL);
	pthread_mutex_init(&d->dwarf_lock, NULL);
	d->path = strdup(path);
	d->root_dir = strdup(c->root_dir);
	d->debug_dir = strdup(c->debug_dir);
	d->kallsyms_path = strdup(c->kallsyms_path);
	d->notes_path = strdup(c->notes_path);
	d->buildid_dir = strdup(c->buildid_dir);
	d->kcache_dir = strdup(c->kcache_dir);
	d->jit_dir = strdup(c->jit_dir);
	d->no_debug_files = c->opts.no_debug_files;
	d->status = SONDE_DSO_NOT_LOADED;
	if (!dup_opt(&d->dwc_dir, c->dwc_dir) ||
	    !d->path || !d->root_dir || !d->debug_dir || !d->kallsyms_path ||
	    !d->notes_path || !d->buildid_dir || !d->kcache_dir ||
	    !d->jit_dir) {
		sonde_dso__put(d);
		return NULL;
	}
	return d;
}

static uint64_t hash_key(const char *path, const uint8_t *bid, size_t n)
{
	return hashtab_mix(hashtab_bytes_hash(path, strlen(path)), hashtab_bytes_hash(bid, n));
}

/* Is @d the DSO of @path with build id @bid (@n bytes, 0: none asked)? */
static bool dso_is(const struct sonde_dso *d, const char *path, const uint8_t *bid, size_t n)
{
	return d->want_bid_size == n && (!n || !memcmp(d->want_bid, bid, n)) &&
	       !strcmp(d->path, path);
}

/* The cached DSO of (@path, @bid) under @h; with @mem only an in-memory image (a vdso). */
static struct sonde_dso *cache_find(struct sonde_symcache *c, uint64_t h, const char *path,
				    const uint8_t *bid, size_t n, bool mem)
{
	struct hashtab_probe probe;
	struct sonde_dso *d;

	for (d = hashtab_probe_first(&c->dsos, h, &probe); d;
	     d = hashtab_probe_next(&c->dsos, &probe))
		if ((!mem || d->mem) && dso_is(d, path, bid, n))
			return d;
	return NULL;
}

struct sonde_dso *sonde_symcache__dso(struct sonde_symcache *c,
				      const char *path,
				      const uint8_t *build_id,
				      size_t build_id_size)
{
	struct sonde_dso *d;
	uint64_t h;

	if (!c || !path || (build_id_size && !build_id))
		return lib_err_ptr(EINVAL);
	if (build_id_size > SYM_BUILD_ID_MAX)
		build_id_size = SYM_BUILD_ID_MAX;
	h = hash_key(path, build_id, build_id_size);
	pthread_mutex_lock(&c->lock);
	d = cache_find(c, h, path, build_id, build_id_size, false);
	if (!d) {
		d = dso_new(c, SONDE_DSO_ELF, path);
		if (d) {
			if (build_id_size)
				memcpy(d->want_bid, build_id, build_id_size);
			d->want_bid_size = build_id_size;
		}
		/* Not cached, not handed out: the next ask must get the same handle. */
		if (d && hashtab_insert(&c->dsos, h, d)) {
			sonde_dso__put(d);
			d = NULL;
		}
	}
	if (d)
		sonde_dso__get(d); /* the cache keeps its own */
	pthread_mutex_unlock(&c->lock);
	return d ? d : lib_err_ptr(ENOMEM);
}

struct sonde_dso *sonde_symcache__kernel(struct sonde_symcache *c)
{
	struct sonde_dso *d;

	if (!c)
		return lib_err_ptr(EINVAL);
	pthread_mutex_lock(&c->lock);
	if (!c->kernel) {
		d = dso_new(c, SONDE_DSO_KERNEL, "[kernel.kallsyms]");
		/* The kernel's own sources (sym_kernel.c) */
		if (d && (!dup_opt(&d->rec_kallsyms_path, c->rec_kallsyms_path) ||
			  !dup_opt(&d->vmlinux_path, c->vmlinux_path))) {
			sonde_dso__put(d);
			d = NULL;
		}
		c->kernel = d;
	}
	d = c->kernel ? sonde_dso__get(c->kernel) : NULL;
	pthread_mutex_unlock(&c->lock);
	return d ? d : lib_err_ptr(ENOMEM);
}

int sonde_symcache__set_kernel_build_id(struct sonde_symcache *c,
					const uint8_t *build_id,
					size_t build_id_size)
{
	struct sonde_dso *d;
	int err = 0;

	if (!c || !build_id || !build_id_size)
		return lib_err(EINVAL);
	if (build_id_size > SYM_BUILD_ID_MAX)
		build_id_size = SYM_BUILD_ID_MAX;
	d = sonde_symcache__kernel(c);
	if (!d)
		return lib_err(errno);
	pthread_mutex_lock(&d->lock);
	if (atomic_load(&d->loaded)) {
		err = -EBUSY;
	} else {
		memcpy(d->want_bid, build_id, build_id_size);
		d->want_bid_size = build_id_size;
	}
	pthread_mutex_unlock(&d->lock);
	sonde_dso__put(d);
	return err ? lib_err(err) : 0;
}

/* The recording's facts about its kernel, before the kernel DSO loads. */
static int set_kernel(struct sonde_symcache *c, const char *osrelease, const uint64_t *text)
{
	struct sonde_dso *d = sonde_symcache__kernel(c);
	char *rel = NULL;
	int err = 0;

	if (!d)
		return lib_err(errno);
	if (osrelease && !(rel = strdup(osrelease))) {
		sonde_dso__put(d);
		return lib_err(ENOMEM);
	}
	pthread_mutex_lock(&d->lock);
	if (atomic_load(&d->loaded)) {
		err = -EBUSY;
	} else if (rel) {
		free(d->osrelease);
		d->osrelease = rel;
		rel = NULL;
	} else {
		d->ktext = *text;
	}
	pthread_mutex_unlock(&d->lock);
	free(rel);
	sonde_dso__put(d);
	return err ? lib_err(err) : 0;
}

int sonde_symcache__set_kernel_release(struct sonde_symcache *c, const char *osrelease)
{
	if (!c || !osrelease)
		return lib_err(EINVAL);
	return set_kernel(c, osrelease, NULL);
}

int sonde_symcache__set_kernel_text(struct sonde_symcache *c, uint64_t text)
{
	if (!c)
		return lib_err(EINVAL);
	return set_kernel(c, NULL, &text);
}

/* A dso of this process's vdso image (the same kernel's, perf assumes). */
static struct sonde_dso *vdso_new(struct sonde_symcache *c, int *err)
{
	struct sonde_dso *d = dso_new(c, SONDE_DSO_ELF, "[vdso]");

	if (!d) {
		*err = -ENOMEM;
		return NULL;
	}
	d->no_debug_files = true;
	*err = sym_vdso_image(&d->mem, &d->mem_size);
	if (*err) {
		sonde_dso__put(d);
		return NULL;
	}
	return d;
}

struct sonde_dso *sym_symcache_vdso(struct sonde_symcache *c,
				    const uint8_t *bid, size_t bid_size)
{
	struct sonde_dso *d;
	uint64_t h = 0;
	int err = 0;

	if (!c || (bid_size && !bid))
		return lib_err_ptr(EINVAL);
	if (bid_size > SYM_BUILD_ID_MAX)
		bid_size = SYM_BUILD_ID_MAX;
	pthread_mutex_lock(&c->lock);
	/* One per recorded id (in the path table, as "[vdso]"), one without. */
	if (bid_size) {
		h = hash_key("[vdso]", bid, bid_size);
		d = cache_find(c, h, "[vdso]", bid, bid_size, true);
	} else {
		d = c->vdso;
	}
	if (!d) {
		d = vdso_new(c, &err);
		if (d && bid_size) {
			memcpy(d->want_bid, bid, bid_size);
			d->want_bid_size = bid_size;
			if (hashtab_insert(&c->dsos, h, d)) {
				sonde_dso__put(d);
				d = NULL;
				err = -ENOMEM;
			}
		} else if (d) {
			c->vdso = d;
		}
	}
	if (d)
		sonde_dso__get(d);
	pthread_mutex_unlock(&c->lock);
	return d ? d : lib_err_ptr(err);
}

struct sonde_dso *sonde_symcache__vdso(struct sonde_symcache *c)
{
	return sym_symcache_vdso(c, NULL, 0);
}

struct sonde_dso *sonde_symcache__jit(struct sonde_symcache *c, pid_t pid)
{
	uint64_t h = hashtab_mix(0, (uint64_t)pid);
	struct hashtab_probe probe;
	struct sonde_dso *d;
	char path[64];

	if (!c || pid <= 0)
		return lib_err_ptr(EINVAL);
	pthread_mutex_lock(&c->lock);
	for (d = hashtab_probe_first(&c->jits, h, &probe); d;
	     d = hashtab_probe_next(&c->jits, &probe))
		if (d->pid == pid)
			break;
	if (!d) {
		snprintf(path, sizeof(path), "perf-%d.map", (int)pid);
		d = dso_new(c, SONDE_DSO_JIT, path);
		if (d)
			d->pid = pid;
		/* As for ELF objects: never a handle the next ask would not return. */
		if (d && hashtab_insert(&c->jits, h, d)) {
			sonde_dso__put(d);
			d = NULL;
		}
	}
	if (d)
		sonde_dso__get(d);
	pthread_mutex_unlock(&c->lock);
	return d ? d : lib_err_ptr(ENOMEM);
}

struct sonde_dso *sonde_dso__get(struct sonde_dso *dso)
{
	if (dso)
		atomic_fetch_add_explicit(&dso->refcnt, 1, memory_order_relaxed);
	return dso;
}

void sonde_dso__put(struct sonde_dso *dso)
{
	size_t i;

	if (!dso || atomic_fetch_sub_explicit(&dso->refcnt, 1,
					      memory_order_acq_rel) != 1)
		return;
	/* First: the answers' cache file is written under its path. */
	sym_dso_dwarf_free(dso);
	if (dso->demangled) {
		for (i = 0; i < dso->nr; i++) {
			const char *s = atomic_load(&dso->demangled[i]);

			if (s && s != dso->syms[i].name)
				free((char *)s);
		}
		free(dso->demangled);
	}
	if (dso->kind == SONDE_DSO_ELF)
		sym_elf_unload(dso);
	free(dso->syms);
	free(dso->text);
	sym_ktab_free(dso->ktab);
	free(dso->plt_names);
	free(dso->mem);
	free(dso->symfile);
	free(dso->elf_file);
	free(dso->path);
	free(dso->root_dir);
	free(dso->debug_dir);
	free(dso->kallsyms_path);
	free(dso->notes_path);
	free(dso->buildid_dir);
	free(dso->kcache_dir);
	free(dso->jit_dir);
	free(dso->rec_kallsyms_path);
	free(dso->vmlinux_path);
	free(dso->osrelease);
	free(dso->dwc_dir);
	pthread_mutex_destroy(&dso->dwarf_lock);
	pthread_mutex_destroy(&dso->lock);
	free(dso);
}

static int dso_ensure_loaded(struct sonde_dso *dso)
{
	int err = 0;

	if (atomic_load_explicit(&dso->loaded, memory_order_acquire))
		return dso->load_err;
	pthread_mutex_lock(&dso->lock);
	if (!atomic_load_explicit(&dso->loaded, memory_order_relaxed)) {
		switch (dso->kind) {
		case SONDE_DSO_ELF:
			err = sym_elf_load(dso);
			sym_elf_release_fds(dso);
			break;
		case SONDE_DSO_KERNEL:
			err = sym_kallsyms_load(dso);
			break;
		default:
			err = sym_perfmap_load(dso);
		}
		/* The kernel's comes with its copy (sym_kernel_syms()), if ever. */
		if (dso->nr && !dso->ktab) {
			dso->demangled = calloc(dso->nr, sizeof(*dso->demangled));
			if (!dso->demangled) {
				err = -ENOMEM;
				dso->nr = 0;
			}
		}
		dso->load_err = err;
		atomic_store_explicit(&dso->loaded, true, memory_order_release);
	}
	pthread_mutex_unlock(&dso->lock);
	return dso->load_err;
}

int sonde_dso__load(struct sonde_dso *dso)
{
	int err;

	if (!dso)
		return lib_err(EINVAL);
	err = dso_ensure_loaded(dso);
	return err ? lib_err(err) : (int)dso->nr;
}

static void *prefetch_thread(void *arg)
{
	struct sonde_dso *dso = arg;

	dso_ensure_loaded(dso);
	sonde_dso__put(dso);
	return NULL;
}

int sonde_dso__prefetch(struct sonde_dso *dso)
{
	pthread_attr_t attr;
	pthread_t t;
	int err;

	if (!dso)
		return lib_err(EINVAL);
	if (atomic_load_explicit(&dso->loaded, memory_order_acquire))
		return 0;
	sonde_dso__get(dso);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	err = pthread_create(&t, &attr, prefetch_thread, dso);
	pthread_attr_destroy(&attr);
	if (err) {
		sonde_dso__put(dso);
		return lib_err(err);
	}
	return 0;
}

const struct sonde_symbol *sonde_dso__find(struct sonde_dso *dso,
					   uint64_t addr, uint64_t *offset)
{
	const struct sonde_symbol *s;

	if (!dso)
		return lib_err_ptr(EINVAL);
	dso_ensure_loaded(dso);
	if (sym_kernel_syms(dso))
		return lib_err_ptr(ENOMEM);
	s = sym_table_find(dso->syms, dso->nr, addr);
	if (!s)
		return lib_err_ptr(ENOENT);
	if (offset)
		*offset = addr - s->start;
	return s;
}

uint64_t sonde_dso__map_to_vaddr(struct sonde_dso *dso, uint64_t map_start,
				 uint64_t map_pgoff, uint64_t ip)
{
	if (!dso || dso->kind != SONDE_DSO_ELF)
		return ip;
	dso_ensure_loaded(dso);
	return sym_elf_map_to_vaddr(dso, ip - map_start + map_pgoff);
}

uint64_t sonde_dso__offset_to_vaddr(struct sonde_dso *dso, uint64_t file_off)
{
	if (!dso || dso->kind != SONDE_DSO_ELF)
		return file_off;
	dso_ensure_loaded(dso);
	return sym_elf_map_to_vaddr(dso, file_off);
}

const char *sonde_dso__sym_name(struct sonde_dso *dso,
				const struct sonde_symbol *sym)
{
	const char *cur, *want;
	char *dm;
	size_t i;

	if (!dso || !sym)
		return NULL;
	if (!dso->demangled || sym < dso->syms || sym >= dso->syms + dso->nr)
		return sym->name;
	i = (size_t)(sym - dso->syms);
	cur = atomic_load_explicit(&dso->demangled[i], memory_order_acquire);
	if (cur)
		return cur;
	/*
	 * perf's names: an object's (a vmlinux's too) demangled, versioned
	 * ones ("memcpy@@GLIBC_2.14") as they are; kallsyms and JIT maps' as
	 * written.
	 */
	dm = sym_shown_name(sym->name, dso->kind != SONDE_DSO_ELF && !dso->ktab_elf);
	want = dm ? dm : sym->name;
	cur = NULL;
	if (!atomic_compare_exchange_strong_explicit(&dso->demangled[i], &cur,
						     want, memory_order_acq_rel,
						     memory_order_acquire)) {
		free(dm);	/* another thread won; use its copy */
		return cur;
	}
	return want;
}

const char *sonde_dso__path(const struct sonde_dso *dso)
{
	return dso ? dso->path : NULL;
}

int sonde_dso__kind(const struct sonde_dso *dso)
{
	return dso ? dso->kind : lib_err(EINVAL);
}

int sonde_dso__status(const struct sonde_dso *dso)
{
	if (!dso)
		return lib_err(EINVAL);
	if (!atomic_load_explicit(&((struct sonde_dso *)dso)->loaded,
				  memory_order_acquire))
		return SONDE_DSO_NOT_LOADED;
	return dso->status;
}

size_t sonde_dso__symbols(struct sonde_dso *dso,
			  const struct sonde_symbol **syms)
{
	if (!syms)
		return 0;
	*syms = NULL;
	if (!dso)
		return 0;
	dso_ensure_loaded(dso);
	if (sym_kernel_syms(dso))
		return 0;
	*syms = dso->syms;
	return dso->nr;
}

/* The file image the symbols were read from, NULL with an error in *@err. */
static const char *dso_image(struct sonde_dso *dso, size_t *size, int *err)
{
	const char *img;

	*err = 0;
	if (!dso) {
		*err = -EINVAL;
		return NULL;
	}
	if (dso->kind != SONDE_DSO_ELF) {
		*err = -EOPNOTSUPP;
		return NULL;
	}
	*err = dso_ensure_loaded(dso);
	if (dso->status == SONDE_DSO_BUILD_ID_MISMATCH)
		*err = -ESTALE;
	if (*err || !dso->elf) {
		*err = *err ? *err : -ENOENT;
		return NULL;
	}
	/* libelf maps the whole file (ELF_C_READ_MMAP), or holds the image. */
	img = elf_rawfile(dso->elf, size);
	if (!img)
		*err = -EIO;
	return img;
}

ssize_t sonde_dso__read(struct sonde_dso *dso, uint64_t offset, void *buf, size_t len)
{
	size_t size, n;
	const char *img;
	int err;

	if (!buf && len)
		return -EINVAL;
	img = dso_image(dso, &size, &err);
	if (!img)
		return err;
	if (offset >= size)
		return 0;
	n = size - offset < len ? size - offset : len;
	memcpy(buf, img + offset, n);
	return (ssize_t)n;
}

int sonde_dso__elf_class(struct sonde_dso *dso)
{
	size_t size;
	int err;

	if (!dso_image(dso, &size, &err))
		return err;
	switch (gelf_getclass(dso->elf)) {
	case ELFCLASS64: return 64;
	case ELFCLASS32: return 32;
	default: return -SONDE_ERR_FORMAT;
	}
}

int sonde_dso__build_id(struct sonde_dso *dso, uint8_t *buf, size_t size)
{
	size_t n;

	if (!dso || (size && !buf))
		return lib_err(EINVAL);
	dso_ensure_loaded(dso);
	n = dso->bid_size < size ? dso->bid_size : size;
	if (n)
		memcpy(buf, dso->bid, n);
	return (int)n;
}

const char *sonde_dso__symfile(const struct sonde_dso *dso)
{
	if (!dso || !atomic_load_explicit(&((struct sonde_dso *)dso)->loaded,
					  memory_order_acquire))
		return NULL;
	return dso->symfile;
}

/*
 * Code looked up in the process's perf map: perf's unbacked memory, and
 * named anonymous regions, memfd code and the map file's own name.
 */
static bool is_jit_path(const char *p)
{
	return !p || !*p || sym_is_jit_memory(p, strlen(p)) ||
	       !strncmp(p, "[anon", 5) || !strncmp(p, "/memfd:", 7) ||
	       !strncmp(p, "/tmp/perf-", 10);
}

int sonde_symcache__resolve(struct sonde_symcache *c, pid_t pid,
			    const struct sonde_sym_map *map, uint64_t ip,
			    struct sonde_sym_result *res)
{
	struct sonde_dso *d = NULL;
	const char *path = map ? map->path : NULL;

	if (!c || !res)
		return lib_err(EINVAL);
	memset(res, 0, sizeof(*res));
	res->addr = ip;
	/* Kernel addresses (x86-64: top bit) go to kallsyms, modules too. */
	if ((ip >> 63) || (path && !strncmp(path, "[kernel", 7))) {
		d = sonde_symcache__kernel(c);
	} else if (path && !strcmp(path, "[vdso]")) {
		d = sym_symcache_vdso(c, map->build_id, map->build_id_size);
		if (d)
			res->addr = sonde_dso__map_to_vaddr(d, map->start,
							    map->pgoff, ip);
	} else if (map && is_jit_path(path)) {
		if (pid > 0)
			d = sonde_symcache__jit(c, pid);
	} else if (path && path[0] == '/') {
		d = sonde_symcache__dso(c, path, map->build_id,
					map->build_id_size);
		if (d)
			res->addr = sonde_dso__map_to_vaddr(d, map->start,
							    map->pgoff, ip);
	}
	if (!d)
		return lib_err(ENOENT);
	/* The cache keeps its own reference: hand out a borrowed one. */
	sonde_dso__put(d);
	res->dso = d;
	res->sym = sonde_dso__find(d, res->addr, &res->offset);
	return res->sym ? 0 : lib_err(ENOENT);
}
