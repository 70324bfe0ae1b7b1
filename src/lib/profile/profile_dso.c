// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The report model's DSOs: display names, recorded build ids, the
 * symbolizer's DWARF answers (interned), and their symbols: the
 * symbolizer's tables, loaded once per object on first use and searched
 * there, each symbol named here on the first lookup that lands on it.
 * ELF objects, the vdso and JIT perf maps
 * come from the symbolizer (include/sonde/symbols.h), under its naming
 * policy (perf's); names are interned here in the form perf shows them.
 * Kernel addresses are looked up in the symbolizer's kernel object, which
 * chooses the source that fits the recording (sym_kernel.c) from what the
 * recording says of its kernel; its table is searched in place.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include "core_priv.h"
#include "profile_priv.h"
#include "sym_priv.h"
#include "sonde/synth.h"

/* Interned: symbol names live as long as the machine. */
const char *prof_sym_name(struct prof_machine *m, const char *name)
{
	char *d = sym_demangle_perf(name);
	const char *in;

	if (!d)
		return prof_intern(m, name, strlen(name));
	in = prof_intern(m, d, strlen(d));
	free(d);
	return in;
}

static bool has_prefix(const char *s, size_t len, const char *pre)
{
	size_t n = strlen(pre);

	return len >= n && !memcmp(s, pre, n);
}

static const char *base_name(const char *s)
{
	const char *b = strrchr(s, '/');

	return b ? b + 1 : s;
}

/*
 * perf makes the DSOs of the file's build-id table first, in its order,
 * then each when its first MMAP comes; a kernel entry is named as the
 * kernel DSO ("[kernel.kallsyms]") or as its module's path.
 */
static uint32_t made_rank(struct prof_machine *m, const char *name)
{
	const struct sonde_perfdata_reader *r = m->reader;
	size_t nr = r ? r->nr_build_ids : 0;

	for (size_t i = 0; i < nr; i++)
		if (r->build_ids[i].filename && !strcmp(r->build_ids[i].filename, name))
			return (uint32_t)i;
	return (uint32_t)nr + m->nr_dsos++;
}

struct prof_dso *prof_dso_findnew(struct prof_machine *m, const char *name, size_t len,
				bool kernel)
{
	struct hashtab_probe probe;
	struct prof_dso *d;
	const char *in;
	uint64_t h;

	if (kernel && len >= 17 && !strncmp(name, "[kernel.kallsyms]", 17))
		len = 17; /* "[kernel.kallsyms]_text" and friends */
	in = prof_intern(m, name, len);
	h = hashtab_mix((uintptr_t)in, kernel);
	for (d = hashtab_probe_first(&m->dsos, h, &probe); d;
	     d = hashtab_probe_next(&m->dsos, &probe))
		if (d->name == in && d->kernel == kernel)
			return d;
	d = prof_alloc(m, sizeof(*d));
	memset(d, 0, sizeof(*d));
	d->name = in;
	d->kernel = kernel;
	d->made_rank = made_rank(m, in);
	d->jit = !kernel && has_prefix(in, len, "/tmp/perf-") && len > 14 &&
		 !memcmp(in + len - 4, ".map", 4);
	if (kernel && in[0] == '/') {
		/* A module: perf shows "[name]" without the .ko suffix. */
		char buf[256];
		const char *bn = base_name(in);
		size_t n = strcspn(bn, ".");

		snprintf(buf, sizeof(buf), "[%.*s]", (int)n, bn);
		d->short_name = prof_intern(m, buf, strlen(buf));
	} else if (d->jit) {
		/* perf: "[JIT] tid PID" for its /tmp/perf-PID.map. */
		char buf[64];
		int n = snprintf(buf, sizeof(buf), "[JIT] tid %d",
				 atoi(in + 10));

		d->short_name = prof_intern(m, buf, (size_t)n);
	} else {
		d->short_name = in[0] == '[' ? in : base_name(in);
	}
	d->short_key = prof_intern(m, d->short_name, strlen(d->short_name));
	d->next_made = m->all_dsos;
	m->all_dsos = d;
	/* Out of memory: the DSO works, a later lookup just makes another. */
	(void)hashtab_insert(&m->dsos, h, d);
	return d;
}

struct prof_dso *prof_kernel_dso(struct prof_machine *m)
{
	if (!m->kdso)
		m->kdso = prof_dso_findnew(m, "[kernel.kallsyms]", 17, true);
	return m->kdso;
}

void prof_dsos_free(struct prof_machine *m)
{
	/* A kernel table still loading finishes (and is cached) first. */
	if (m->kprefetched)
		(void)sonde_dso__load(m->kdso->sdso);
	/* The symbolizer's objects keep the DWARF answers: freed, they write them. */
	for (struct prof_dso *d = m->all_dsos; d; d = d->next_made) {
		free(d->syms);
		sonde_dso__put(d->sdso);
	}
	hashtab_free(&m->dsos);
	sonde_symcache__free(m->symcache);
}

/*
 * Whether @dso's debug info may answer: an object file (not the kernel, a
 * JIT map or the vdso), loaded, of the recorded build (another build's
 * answers would name other code). The symbolizer's object holds the
 * debug info and its answer cache (sym_srcline.c).
 */
static bool debug_answers(struct prof_machine *m, struct prof_dso *dso)
{
	if (dso->kernel || dso->jit || dso->name[0] != '/')
		return false;
	if (!dso->loaded)
		(void)prof_dso_find_sym(m, dso, 0);
	return dso->sdso && !dso->stale;
}

void prof_dso_prefetch_dwarf(struct prof_machine *m, struct prof_dso *dso, uint64_t addr)
{
	if (dso->dwarf_asked || !debug_answers(m, dso))
		return;
	dso->dwarf_asked = sym_dso_prefetch_dwarf(dso->sdso, prof_dso_vaddr(dso, addr));
}

const char *prof_dso_srcline(struct prof_machine *m, struct prof_dso *dso, uint64_t addr)
{
	const char *sl;

	if (!debug_answers(m, dso) ||
	    sym_dso_srcline(dso->sdso, prof_dso_vaddr(dso, addr), &sl))
		return NULL;
	return prof_intern(m, sl, strlen(sl));
}

/* The symbolizer's answer, its names interned (names compare by pointer). */
static int dso_inlines(struct prof_machine *m, struct prof_dso *dso, uint64_t addr,
		       const char **names, int max)
{
	int n;

	if (!debug_answers(m, dso))
		return 0;
	n = sym_dso_inlines(dso->sdso, prof_dso_vaddr(dso, addr), names, max);
	for (int j = 0; j < n; j++)
		names[j] = prof_intern(m, names[j], strlen(names[j]));
	return n < 0 ? 0 : n;
}

/*
 * Every new stack asks again for the same return addresses (main, _start,
 * ...): the answers are kept, names being interned and stable.
 */
int prof_dso_inlines(struct prof_machine *m, struct prof_dso *dso, uint64_t addr,
		    const char **names, int max)
{
	uint64_t h = hashtab_mix((uintptr_t)dso, addr);
	struct hashtab_probe probe;
	struct prof_inl *e;
	int n;

	if (max > PROF_INL_MAX)
		return dso_inlines(m, dso, addr, names, max);
	for (e = hashtab_probe_first(&m->inls, h, &probe); e;
	     e = hashtab_probe_next(&m->inls, &probe))
		if (e->dso == dso && e->addr == addr)
			break;
	if (!e) {
		e = prof_alloc(m, sizeof(*e));
		e->dso = dso;
		e->addr = addr;
		e->nr = dso_inlines(m, dso, addr, e->names, PROF_INL_MAX);
		(void)hashtab_insert(&m->inls, h, e); /* no memory: asked again */
	}
	n = e->nr < max ? e->nr : max;
	if (n > 0)
		memcpy(names, e->names, (size_t)n * sizeof(*names));
	return n;
}

/* The report's name of a symbolizer symbol (sym_shown_name()), interned. */
static const char *shown_name(struct prof_machine *m, const struct prof_dso *d,
			      const char *raw)
{
	char *s = sym_shown_name(raw, d->jit);
	const char *in = s ? prof_intern(m, s, strlen(s)) : prof_intern(m, raw, strlen(raw));

	free(s);
	return in;
}

/*
 * The build id recorded for @d: the one its MMAP2 records carried (the
 * kernel read it from the mapped file), else the file's HEADER_BUILD_ID
 * entry; 0 if neither.
 */
static size_t recorded_build_id(const struct prof_machine *m,
				const struct prof_dso *d, uint8_t *id)
{
	const struct sonde_perfdata_reader *r = m->reader;

	if (d->mmap_bid_size) {
		memcpy(id, d->mmap_bid, d->mmap_bid_size);
		return d->mmap_bid_size;
	}
	for (size_t i = 0; r && i < r->nr_build_ids; i++) {
		const struct sonde_feat_build_id *b = &r->build_ids[i];

		if (b->size && b->filename && !strcmp(b->filename, d->name)) {
			memcpy(id, b->id, b->size);
			return b->size;
		}
	}
	return 0;
}

static const char *buildid_dir(struct prof_machine *m)
{
	if (!m->buildid_dir)
		m->buildid_dir = sym_default_buildid_dir();
	return m->buildid_dir ? m->buildid_dir : "";
}

/*
 * The file whose CFI may unwind through @d: its path when that is the
 * recorded build (or nothing was recorded), else the recorded copy in
 * perf's build-id cache, else NULL (then @d is loaded, which warns once).
 */
const char *prof_dso_unwind_file(struct prof_machine *m, struct prof_dso *d)
{
	uint8_t want[SYM_BUILD_ID_MAX];
	size_t wlen;
	char *found;

	if (d->uw_checked)
		return d->uw_file;
	d->uw_checked = true;
	d->uw_file = d->name;
#ifdef SONDE_FUZZ
	return d->uw_file; /* fuzzed paths must not open host files */
#endif
	wlen = recorded_build_id(m, d, want);
	if (!wlen || d->name[0] != '/')
		return d->uw_file;
	found = sym_recorded_object(d->name, want, wlen, buildid_dir(m));
	if (found) {
		d->uw_file = prof_intern(m, found, strlen(found));
		free(found);
		return d->uw_file;
	}
	d->uw_file = NULL;
	if (!d->loaded)
		(void)prof_dso_find_sym(m, d, 0); /* the warning naming a changed file */
	return NULL;
}

/*
 * Entry @i of @d's table, named on first use: samples land in a few
 * hundred functions of the kernel's ~100k or of libc's thousands, and
 * only their names are ever read, demangled or interned.
 */
const struct prof_sym *prof_dso_sym(struct prof_machine *m, struct prof_dso *d, size_t i)
{
	struct prof_sym *a = &d->syms[i];
	struct sonde_symbol s;

	if (a->name)
		return a;
	if (d->kernel)
		sym_kernel_get(d->sdso, i, &s);
	else
		s = d->ssyms[i];
	a->start = s.start;
	a->end = s.start + s.size;
	/* kallsyms names as they are; ELF (a vmlinux's too) and JIT names as perf shows them */
	a->name = d->kernel && !d->kelf ? s.name : shown_name(m, d, s.name);
	return a;
}

/*
 * The symbolizer the machine's objects are loaded through, made on first
 * use, with the report's kernel sources and cache directory.
 */
static struct sonde_symcache *machine_symcache(struct prof_machine *m)
{
	if (!m->symcache) {
		SONDE_OPTS(sonde_symcache_opts, o, .buildid_dir = buildid_dir(m),
			   .kallsyms_cache_dir = m->kcache_dir,
			   .dwarf_cache_dir = m->kcache_dir,
			   .recorded_kallsyms_path = m->kallsyms_file,
			   .vmlinux_path = m->vmlinux_file);
		m->symcache = sonde_symcache__new(&o);
	}
	return m->symcache;
}

/* The kernel's build id recorded in the file (HEADER_BUILD_ID), if any. */
static size_t recorded_kernel_build_id(const struct prof_machine *m, uint8_t *id)
{
	const struct sonde_perfdata_reader *r = m->reader;

	for (size_t i = 0; r && i < r->nr_build_ids; i++) {
		const struct sonde_feat_build_id *b = &r->build_ids[i];

		if (b->size && b->size <= 20 && b->filename &&
		    !strcmp(b->filename, "[kernel.kallsyms]")) {
			memcpy(id, b->id, b->size);
			return b->size;
		}
	}
	return 0;
}

/* Where the recorded kernel had _text: perf's kernel map's pgoff. */
static uint64_t recorded_text(const struct prof_machine *m, const struct prof_dso *d)
{
	uint64_t text = 0;

	for (size_t i = 0; m->kproc && i < m->kproc->nr_maps; i++) {
		const struct prof_map *mp = &m->kproc->maps[i];

		if (mp->dso == d && mp->pgoff >= 0xffff000000000000ULL)
			text = mp->pgoff;
	}
	return text;
}

/*
 * The symbolizer's kernel object, told what the recording says of its
 * kernel (its build id, its release): the symbolizer chooses the source
 * (--kallsyms, --vmlinux, perf's copy, this boot's kallsyms) from that.
 */
static struct sonde_dso *kernel_sdso(struct prof_machine *m, struct prof_dso *k)
{
	struct sonde_symcache *c = machine_symcache(m);
	const char *rel = m->reader ? m->reader->feat_str[SONDE_FEAT_OSRELEASE] : NULL;
	uint8_t want[20];
	size_t wlen = recorded_kernel_build_id(m, want);

	if (k->sdso || !c)
		return k->sdso;
	if (wlen)
		(void)sonde_symcache__set_kernel_build_id(c, want, wlen);
	if (rel && *rel)
		(void)sonde_symcache__set_kernel_release(c, rel);
	k->sdso = sonde_symcache__kernel(c);
	return k->sdso;
}

/* The kernel's table, its entries named by prof_dso_sym() on first use. */
static void kernel_load(struct prof_machine *m, struct prof_dso *k)
{
	size_t nr;

	k->loaded = true;
#ifdef SONDE_FUZZ
	return; /* fuzzed files must not be named from this host's kernel */
#endif
	if (!kernel_sdso(m, k))
		return;
	/* A vmlinux goes where the recorded kernel had _text: the maps say. */
	if (m->vmlinux_file)
		(void)sonde_symcache__set_kernel_text(m->symcache, recorded_text(m, k));
	nr = sym_kernel_nr(k->sdso);
	k->kelf = sym_kernel_elf_names(k->sdso);
	/* calloc'd: only the pages of the entries looked up are touched. */
	k->syms = nr ? calloc(nr, sizeof(*k->syms)) : NULL;
	if (k->syms) {
		k->nr_syms = nr;
		k->has_syms = true;
	}
}

void prof_machine_preload_kernel(struct prof_machine *m)
{
	struct prof_dso *k = prof_kernel_dso(m);

#ifdef SONDE_FUZZ
	return;
#endif
	/*
	 * A vmlinux is moved by the kernel maps, which are still being read:
	 * that load waits for the first lookup.
	 */
	if (k->loaded || m->kprefetched || m->vmlinux_file || !kernel_sdso(m, k))
		return;
	m->kprefetched = !sonde_dso__prefetch(k->sdso);
}

/*
 * @d's symbols through the symbolizer: the ELF file (the recorded build:
 * perf's copy or the recorded id's debug file when the file changed), the
 * vdso (perf's copy when the recording's is another kernel's), or a JIT's
 * perf map (owner-checked, names as written).
 */
static void dso_load(struct prof_machine *m, struct prof_dso *d)
{
	struct sonde_symcache *c;
	uint8_t want[SYM_BUILD_ID_MAX];
	const struct sonde_symbol *s;
	size_t wlen, n;
	int status;

	d->loaded = true;
#ifdef SONDE_FUZZ
	/* Fuzzed paths must not open host files (/dev/stdin would block). */
	return;
#endif
	if (d->kernel || !(c = machine_symcache(m)))
		return;
	wlen = recorded_build_id(m, d, want);
	if (d->jit)
		d->sdso = sonde_symcache__jit(c, (pid_t)atoi(d->name + 10));
	else if (!strcmp(d->name, "[vdso]"))
		d->sdso = sym_symcache_vdso(c, want, wlen);
	else if (d->name[0] == '/')
		d->sdso = sonde_symcache__dso(c, d->name, want, wlen);
	if (!d->sdso)
		return;
	n = sonde_dso__symbols(d->sdso, &s);
	status = sonde_dso__status(d->sdso);
	/* Changed since the recording and no copy of it: never its answers. */
	d->stale = status == SONDE_DSO_BUILD_ID_MISMATCH ||
		   (status == SONDE_DSO_MISSING && wlen);
	/* calloc'd as the kernel's: entries are named by prof_dso_sym(). */
	d->syms = n ? calloc(n, sizeof(*d->syms)) : NULL;
	if (d->syms) {
		d->ssyms = s;
		d->nr_syms = n;
		d->has_syms = true;
	}
}

const struct prof_sym *prof_ksym_add(struct prof_machine *m, struct prof_dso *d, uint64_t start,
				   uint64_t end, const char *name)
{
	struct prof_ksym **link = &d->ksyms, *k;

	for (; *link; link = &(*link)->next)
		if ((*link)->sym.start == start && (*link)->sym.end == end &&
		    (*link)->sym.name == name)
			return &(*link)->sym;
	k = prof_alloc(m, sizeof(*k));
	memset(k, 0, sizeof(*k));
	k->sym.start = start;
	k->sym.end = end;
	k->sym.name = name;
	*link = k;
	return &k->sym;
}

/* perf's lookup in its tree of them: the first one registered wins. */
static const struct prof_sym *ksym_find(const struct prof_dso *d, uint64_t addr)
{
	for (const struct prof_ksym *k = d->ksyms; k; k = k->next)
		if (addr >= k->sym.start && addr < k->sym.end)
			return &k->sym;
	return NULL;
}

const struct prof_sym *prof_dso_find_sym(struct prof_machine *m, struct prof_dso *dso,
				       uint64_t addr)
{
	const struct sonde_symbol *s;
	size_t i;

	if (dso->ksym)
		return ksym_find(dso, addr);
	if (dso->kernel) {
		/* Every kernel object is looked up in the one kernel table. */
		struct prof_dso *k = prof_kernel_dso(m);

		if (!k->loaded)
			kernel_load(m, k);
		if (!k->has_syms)
			return NULL;
		i = sym_kernel_find(k->sdso, addr);
		return i == SIZE_MAX ? NULL : prof_dso_sym(m, k, i);
	}
	if (!dso->loaded)
		dso_load(m, dso);
	if (!dso->has_syms)
		return NULL;
	s = sym_table_find(dso->ssyms, dso->nr_syms, prof_dso_vaddr(dso, addr));
	return s ? prof_dso_sym(m, dso, (size_t)(s - dso->ssyms)) : NULL;
}

uint64_t prof_dso_vaddr(const struct prof_dso *dso, uint64_t addr)
{
	return dso->sdso ? sonde_dso__offset_to_vaddr(dso->sdso, addr) : addr;
}

/* Out-of-line code as perf reads it: zeros, and the pokes over them in order. */
static size_t ool_read(const struct prof_dso *d, uint64_t addr, void *buf, size_t len,
		       bool *is64)
{
	unsigned char *out = buf;

	if (addr >= d->ool_len)
		return 0;
	if (len > d->ool_len - addr)
		len = (size_t)(d->ool_len - addr);
	memset(out, 0, len);
	for (const struct prof_poke *pk = d->pokes; pk; pk = pk->next) {
		uint64_t from = pk->off > addr ? pk->off : addr;
		uint64_t to = pk->off + pk->len < addr + len ? pk->off + pk->len : addr + len;

		if (from < to)
			memcpy(out + (from - addr), pk->bytes + (from - pk->off), (size_t)(to - from));
	}
	*is64 = sizeof(void *) == 8; /* perf's dso->is_64_bit for an object with no file */
	return len;
}

size_t prof_dso_read(struct prof_machine *m, struct prof_dso *dso, uint64_t addr, void *buf,
		    size_t len, bool *is64)
{
	ssize_t n;

	if (dso->ool)
		return ool_read(dso, addr, buf, len, is64);
	if (dso->kernel || dso->jit)
		return 0;
	if (!dso->loaded)
		dso_load(m, dso);
	if (!dso->sdso || dso->stale)
		return 0;
	n = sonde_dso__read(dso->sdso, addr, buf, len);
	if (n <= 0)
		return 0;
	*is64 = sonde_dso__elf_class(dso->sdso) == 64;
	return (size_t)n;
}

const struct prof_sym *prof_inline_sym(struct prof_machine *m, const struct prof_dso *dso,
				     const struct prof_sym *base, const char *name)
{
	uint64_t h = hashtab_mix(hashtab_mix((uintptr_t)dso, (uintptr_t)name), base->start);
	struct hashtab_probe probe;
	struct prof_isym *e;

	for (e = hashtab_probe_first(&m->isyms, h, &probe); e;
	     e = hashtab_probe_next(&m->isyms, &probe))
		if (e->dso == dso && e->name == name && e->sym.start == base->start)
			return &e->sym;
	e = prof_alloc(m, sizeof(*e));
	e->dso = dso;
	e->name = name;
	e->sym.start = base->start;
	e->sym.end = base->end;
	e->sym.name = name;
	e->sym.inlined = true;
	/* No memory: a second copy later, equal in all but its address. */
	(void)hashtab_insert(&m->isyms, h, e);
	return &e->sym;
}
