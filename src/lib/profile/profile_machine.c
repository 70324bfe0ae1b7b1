// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Process/thread/map model rebuilt from the side-band records. Threads are
 * found by tid in a hash table; each process keeps its maps in an array
 * sorted by start address for binary search. Threads and processes no
 * record can reach any more go to free lists (profile_priv.h says when);
 * everything else lives until the machine, so its pointers are cache keys.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "core_priv.h"
#include "profile_priv.h"
#include "sym_priv.h"
#include "sonde/unwind.h"

/* pids and tids: the table's Fibonacci hashing spreads them. */
static inline uint64_t id_hash(int32_t id)
{
	return (uint32_t)id;
}

void *prof_alloc(struct prof_machine *m, size_t n)
{
	struct prof_chunk *c = m->arena;
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (!c || c->used + n > c->size) {
		size_t sz = n > (1 << 20) ? n : (1 << 20);

		c = malloc(sizeof(*c) + sz);
		if (!c) {
			fprintf(stderr, "sonde: out of memory\n");
			abort();
		}
		c->size = sz;
		c->used = 0;
		c->next = m->arena;
		m->arena = c;
	}
	p = c->data + c->used;
	c->used += n;
	return p;
}

const char *prof_intern(struct prof_machine *m, const char *s, size_t len)
{
	uint64_t h = hashtab_bytes_hash(s, len);
	struct hashtab_probe probe;
	struct prof_str *e;
	char *copy;

	for (e = hashtab_probe_first(&m->strs, h, &probe); e;
	     e = hashtab_probe_next(&m->strs, &probe))
		if (e->len == len && !memcmp(e->s, s, len))
			return e->s;
	e = prof_alloc(m, sizeof(*e));
	copy = prof_alloc(m, len + 1);
	memcpy(copy, s, len);
	copy[len] = 0;
	e->s = copy;
	e->len = len;
	/* Out of memory: the copy is still good, only not shared. */
	(void)hashtab_insert(&m->strs, h, e);
	return copy;
}

struct prof_machine *prof_machine_new(void)
{
	struct prof_machine *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	hashtab_init(&m->strs);
	hashtab_init(&m->procs);
	hashtab_init(&m->threads);
	hashtab_init(&m->isyms);
	hashtab_init(&m->inls);
	hashtab_init(&m->dsos);
	m->kproc = prof_alloc(m, sizeof(*m->kproc));
	memset(m->kproc, 0, sizeof(*m->kproc));
	m->kproc->pid = -1;
	return m;
}

void prof_machine_free(struct prof_machine *m)
{
	if (!m)
		return;
	prof_dsos_free(m);
	for (struct prof_proc *p = m->all_procs; p; p = p->next) {
		free(p->maps);
		sonde_unwinder__free(p->uw);
	}
	free(m->kproc->maps);
	free(m->exits);
	hashtab_free(&m->strs);
	hashtab_free(&m->procs);
	hashtab_free(&m->threads);
	hashtab_free(&m->isyms);
	hashtab_free(&m->inls);
	free(m->kcache_dir);
	free(m->buildid_dir);
	free(m->kallsyms_file);
	free(m->vmlinux_file);
	while (m->arena) {
		struct prof_chunk *c = m->arena;

		m->arena = c->next;
		free(c);
	}
	free(m);
}

static int set_path(char **to, const char *path)
{
	char *copy = path ? strdup(path) : NULL;

	if (path && !copy)
		return -ENOMEM;
	free(*to);
	*to = copy;
	return 0;
}

int prof_machine_set_kernel_symbols(struct prof_machine *m, const char *kallsyms,
				   const char *vmlinux)
{
	int err = set_path(&m->kallsyms_file, kallsyms);

	return err ? err : set_path(&m->vmlinux_file, vmlinux);
}

int prof_machine_set_cache(struct prof_machine *m, const char *dir)
{
	char *copy = dir ? strdup(dir) : NULL;

	if (dir && !copy)
		return -ENOMEM;
	free(m->kcache_dir);
	m->kcache_dir = copy;
	return 0;
}

static bool env_set(const char *name)
{
	const char *v = getenv(name);

	return v && v[0] && strcmp(v, "0");
}

int prof_machine_default_cache(struct prof_machine *m)
{
	char dir[4096];

	if (env_set("SONDE_NO_CACHE") || env_set("SONDE_NO_KALLSYMS_CACHE") ||
	    !kcache_default_dir(dir, sizeof(dir)))
		return 0;
	return prof_machine_set_cache(m, dir);
}

struct prof_stats *prof_machine_stats(struct prof_machine *m)
{
	return &m->stats;
}

static bool proc_is(const void *val, const void *key, void *ctx)
{
	(void)ctx;
	return ((const struct prof_proc *)val)->pid == *(const int32_t *)key;
}

static bool thread_is(const void *val, const void *key, void *ctx)
{
	(void)ctx;
	return ((const struct prof_thread *)val)->tid == *(const int32_t *)key;
}

void prof_machine_keep_procs(struct prof_machine *m)
{
	m->keep_procs = true;
}

/* Frees @p's maps and unwinder once neither the table nor a thread holds it. */
static void proc_unref(struct prof_machine *m, struct prof_proc *p)
{
	if (p->nr_threads || p->in_table || m->keep_procs)
		return;
	free(p->maps);
	p->maps = NULL;
	p->nr_maps = p->cap_maps = 0;
	sonde_unwinder__free(p->uw);
	p->uw = NULL;
	p->next_free = m->free_procs;
	m->free_procs = p;
	m->stats.procs--;
}

/* Takes @p out of the table of live processes (when it is @p there). */
static void proc_untable(struct prof_machine *m, struct prof_proc *p)
{
	int32_t pid = p->pid;

	if (!p->in_table)
		return;
	if (hashtab_find(&m->procs, id_hash(pid), proc_is, &pid, NULL) == p)
		(void)hashtab_remove(&m->procs, id_hash(pid), proc_is, &pid, NULL);
	p->in_table = false;
	proc_unref(m, p);
}

/* A new process @pid; it replaces an older one of that pid (pid reuse). */
static struct prof_proc *proc_new(struct prof_machine *m, int32_t pid)
{
	struct prof_proc *p = m->free_procs, *old, *next;
	uint32_t gen = 0;

	if (p) {
		/* Its generations go on: no (process, gen) key made before can match. */
		m->free_procs = p->next_free;
		gen = p->gen + 1;
		next = p->next;
		memset(p, 0, sizeof(*p));
		p->next = next;
	} else {
		p = prof_alloc(m, sizeof(*p));
		memset(p, 0, sizeof(*p));
		p->next = m->all_procs;
		m->all_procs = p;
	}
	p->pid = pid;
	p->gen = gen;
	m->stats.procs++;
	old = hashtab_find(&m->procs, id_hash(pid), proc_is, &pid, NULL);
	if (old)
		proc_untable(m, old);
	/* Out of memory: the process works, later records just miss it. */
	p->in_table = !hashtab_insert(&m->procs, id_hash(pid), p);
	return p;
}

static struct prof_proc *proc_find(struct prof_machine *m, int32_t pid, bool create)
{
	struct prof_proc *p = hashtab_find(&m->procs, id_hash(pid), proc_is, &pid, NULL);

	if (p || !create)
		return p;
	return proc_new(m, pid);
}

static struct prof_thread *thread_find(struct prof_machine *m, int32_t tid)
{
	return hashtab_find(&m->threads, id_hash(tid), thread_is, &tid, NULL);
}

/* @t joins @p (NULL: none), leaving its process, which may go with it. */
static void thread_set_proc(struct prof_machine *m, struct prof_thread *t, struct prof_proc *p)
{
	struct prof_proc *old = t->proc;

	t->proc = p;
	if (p)
		p->nr_threads++;
	if (old) {
		old->nr_threads--;
		proc_unref(m, old);
	}
}

/*
 * @t (the table's thread of its tid) can be reached by no record any more:
 * it leaves the table and the recent cache, and its memory is reused.
 * @gone: its whole process exited, so when @t was its last thread, the
 * process leaves the pid table too (else it stays there until a process
 * of that pid replaces it, as it did before the thread went).
 */
static void thread_release(struct prof_machine *m, struct prof_thread *t, bool gone)
{
	struct prof_thread **slot = &m->recent[(uint32_t)t->tid % PROF_RECENT_THREADS];
	struct prof_proc *p = t->proc;
	int32_t tid = t->tid;

	(void)hashtab_remove(&m->threads, id_hash(tid), thread_is, &tid, NULL);
	if (*slot == t)
		*slot = NULL;
	if (gone && p && p->nr_threads == 1)
		proc_untable(m, p);
	thread_set_proc(m, t, NULL);
	t->next_free = m->free_threads;
	m->free_threads = t;
	m->stats.threads--;
}

static struct prof_thread *thread_new(struct prof_machine *m, int32_t pid, int32_t tid)
{
	struct prof_thread *t = thread_find(m, tid);
	char buf[24];
	int n;

	/*
	 * The new thread replaces an older one with the same tid (tid reuse),
	 * which no record can reach after this (perf's machine__remove_thread()).
	 */
	if (t)
		thread_release(m, t, false);
	t = m->free_threads;
	if (t)
		m->free_threads = t->next_free;
	else
		t = prof_alloc(m, sizeof(*t));
	memset(t, 0, sizeof(*t));
	t->serial = ++m->next_serial;
	m->stats.threads++;
	t->pid = pid;
	t->tid = tid;
	/* perf names the idle task (pid 0) "swapper" before any COMM. */
	n = tid ? snprintf(buf, sizeof(buf), ":%d", tid) :
		  snprintf(buf, sizeof(buf), "swapper");
	t->comm = prof_intern(m, buf, (size_t)n);
	thread_set_proc(m, t, proc_find(m, pid, true));
	/* Out of memory: the thread works, later records just miss it. */
	(void)hashtab_insert(&m->threads, id_hash(tid), t);
	m->recent[(uint32_t)tid % PROF_RECENT_THREADS] = t; /* never the thread it replaced */
	return t;
}

struct prof_thread *prof_thread_findnew(struct prof_machine *m, int32_t pid, int32_t tid)
{
	struct prof_thread **slot = &m->recent[(uint32_t)tid % PROF_RECENT_THREADS];
	struct prof_thread *t = *slot;

	if (t && t->tid == tid && (t->pid == pid || pid == -1))
		return t;
	t = thread_find(m, tid);
	if (t && pid != -1 && t->pid == -1) {
		t->pid = pid;
		thread_set_proc(m, t, proc_find(m, pid, true));
	}
	if (!t)
		t = thread_new(m, pid, tid);
	*slot = t;
	return t;
}

static void maps_reserve(struct prof_proc *p, size_t extra)
{
	if (p->nr_maps + extra > p->cap_maps) {
		size_t cap = p->cap_maps ? p->cap_maps * 2 : 16;
		struct prof_map *nm;

		while (cap < p->nr_maps + extra)
			cap *= 2;
		nm = realloc(p->maps, cap * sizeof(*nm));
		if (!nm) {
			fprintf(stderr, "sonde: out of memory\n");
			abort();
		}
		p->maps = nm;
		p->cap_maps = cap;
	}
}

/* Inserts @nm, cutting away whatever it overlaps (a new mapping wins). */
void prof_maps_insert(struct prof_proc *p, const struct prof_map *nm)
{
	struct prof_map *v;
	size_t i = 0, lo = 0, hi = p->nr_maps;

	if (nm->end <= nm->start)
		return;
	maps_reserve(p, 2);
	v = p->maps;
	/* First map with end > nm->start. */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (v[mid].end <= nm->start)
			lo = mid + 1;
		else
			hi = mid;
	}
	i = lo;
	while (i < p->nr_maps && v[i].start < nm->end) {
		struct prof_map *o = &v[i];

		if (o->start < nm->start && o->end > nm->end) {
			/* nm splits o in two. */
			struct prof_map right = *o;

			right.pgoff += nm->end - o->start;
			right.start = nm->end;
			o->end = nm->start;
			memmove(&v[i + 2], &v[i + 1], (p->nr_maps - i - 1) * sizeof(*v));
			v[i + 1] = right;
			p->nr_maps++;
			i++;
			break;
		}
		if (o->start < nm->start) {
			o->end = nm->start;
			i++;
			continue;
		}
		if (o->end > nm->end) {
			o->pgoff += nm->end - o->start;
			o->start = nm->end;
			break;
		}
		memmove(&v[i], &v[i + 1], (p->nr_maps - i - 1) * sizeof(*v));
		p->nr_maps--;
	}
	/* Insert position: first map with start >= nm->start. */
	lo = 0;
	hi = p->nr_maps;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (v[mid].start < nm->start)
			lo = mid + 1;
		else
			hi = mid;
	}
	memmove(&v[lo + 1], &v[lo], (p->nr_maps - lo) * sizeof(*v));
	v[lo] = *nm;
	p->nr_maps++;
	p->gen++;
}

const struct prof_map *prof_maps_find(const struct prof_proc *p, uint64_t ip)
{
	size_t lo = 0, hi = p->nr_maps;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (p->maps[mid].end <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < p->nr_maps && p->maps[lo].start <= ip)
		return &p->maps[lo];
	return NULL;
}

void prof_maps_remove(struct prof_proc *p, const struct prof_map *map)
{
	size_t i = (size_t)(map - p->maps);

	memmove(&p->maps[i], &p->maps[i + 1], (p->nr_maps - i - 1) * sizeof(*p->maps));
	p->nr_maps--;
	p->gen++;
}

static void do_mmap(struct prof_machine *m, int32_t pid, int32_t tid, uint64_t start,
		    uint64_t len, uint64_t pgoff, const char *fn, size_t fnlen,
		    uint16_t misc, bool exec, const struct sonde_record_mmap *mm)
{
	char jit[64];
	uint16_t mode = misc & SONDE_PERF_RECORD_MISC_CPUMODE_MASK;
	struct prof_map nm;
	struct prof_proc *p;

	if (misc & SONDE_PERF_RECORD_MISC_MMAP_DATA)
		return;
	if (mode == SONDE_PERF_RECORD_MISC_KERNEL || pid == -1)
		p = m->kproc;
	else {
		struct prof_thread *t = prof_thread_findnew(m, pid, tid);

		p = t->proc;
	}
	nm.start = start;
	nm.end = start + len < start ? UINT64_MAX : start + len;
	nm.pgoff = pgoff;
	if (p != m->kproc && exec && sym_is_jit_memory(fn, fnlen)) {
		/*
		 * Code in memory that no file backs (a JIT's): perf names it
		 * by the process's /tmp/perf-PID.map, looked up by address.
		 */
		int n = snprintf(jit, sizeof(jit), "/tmp/perf-%d.map", (int)pid);

		fn = jit;
		fnlen = (size_t)n;
		nm.pgoff = start; /* map-relative address == ip */
	}
	nm.dso = prof_dso_findnew(m, fn, fnlen, p == m->kproc);
	if (mm && mm->has_build_id && mm->build_id_size && !nm.dso->mmap_bid_size &&
	    mm->build_id_size <= sizeof(nm.dso->mmap_bid)) {
		/* The kernel's word on what was mapped: checked at load. */
		memcpy(nm.dso->mmap_bid, mm->build_id, mm->build_id_size);
		nm.dso->mmap_bid_size = mm->build_id_size;
	}
	prof_maps_insert(p, &nm);
	/* The kernel map comes first in perf's files: start kallsyms now. */
	if (p == m->kproc && nm.dso == prof_kernel_dso(m))
		prof_machine_preload_kernel(m);
	if (p->uw && nm.dso->name[0] == '/' && !nm.dso->jit &&
	    (fn = prof_dso_unwind_file(m, nm.dso)))
		sonde_unwinder__add_map(p->uw, nm.start, nm.end - nm.start, nm.pgoff, fn);
}

/*
 * perf 6.1's machine__process_text_poke(): the new bytes of a kernel
 * TEXT_POKE go into the data cache of the object mapped there. perf can
 * read back only what it has a file for, or out-of-line code (zeros but
 * for the pokes); sonde reads no kernel file, so it keeps the pokes of
 * out-of-line code, for sonde_profile__read_code() (brstackinsn).
 */
static void do_text_poke(struct prof_machine *m, uint16_t misc,
			 const struct sonde_record_text_poke *tp)
{
	const struct prof_map *map;
	struct prof_poke *pk, **link;

	if (!tp->new_len || !tp->bytes ||
	    (misc & SONDE_PERF_RECORD_MISC_CPUMODE_MASK) != SONDE_PERF_RECORD_MISC_KERNEL)
		return;
	map = prof_maps_find(m->kproc, tp->addr);
	if (!map || !map->dso->ool)
		return;
	pk = prof_alloc(m, sizeof(*pk) + tp->new_len);
	pk->off = tp->addr - map->start + map->pgoff;
	pk->len = tp->new_len;
	pk->next = NULL;
	memcpy(pk->bytes, tp->bytes + tp->old_len, tp->new_len);
	for (link = &map->dso->pokes; *link; link = &(*link)->next)
		;
	*link = pk;
}

static void do_fork(struct prof_machine *m, int32_t pid, int32_t ppid, int32_t tid,
		    int32_t ptid)
{
	struct prof_thread *parent = prof_thread_findnew(m, ppid, ptid);
	const char *comm = parent->comm;
	bool has_comm = parent->has_comm;
	struct prof_proc *pproc = parent->proc;
	struct prof_thread *t;

	if (tid == ptid)
		return;
	t = thread_new(m, pid, tid);
	t->comm = comm;
	t->has_comm = has_comm;
	if (pid != ppid) {
		/* A new process: a copy of the parent's address space. */
		struct prof_proc *np = proc_new(m, pid);

		if (pproc && pproc->nr_maps) {
			maps_reserve(np, pproc->nr_maps);
			memcpy(np->maps, pproc->maps, pproc->nr_maps * sizeof(*np->maps));
			np->nr_maps = pproc->nr_maps;
		}
		thread_set_proc(m, t, np);
	} else {
		thread_set_proc(m, t, pproc);
	}
}

/* Releases the exited threads whose grace has passed by @m->now. */
static void reap_exits(struct prof_machine *m)
{
	while (m->nr_exits) {
		const struct prof_exit *e = &m->exits[m->exit_head];
		struct prof_thread *t;

		if (m->now - e->time <= PROF_EXIT_GRACE_NS || m->now < e->time)
			break;
		t = thread_find(m, e->tid);
		/* Not when a FORK took the tid since (it released the one that exited). */
		if (t && t->serial == e->serial)
			thread_release(m, t, true);
		m->exit_head++;
		m->nr_exits--;
	}
	if (!m->nr_exits)
		m->exit_head = 0;
}

void prof_machine_clock(struct prof_machine *m, uint64_t time)
{
	if (time <= m->now)
		return;
	m->now = time;
	if (m->nr_exits)
		reap_exits(m);
}

/*
 * A live EXIT (perf's machine__process_exit_event()): the thread stays
 * found, for samples still to come, until the grace has passed.
 */
static void do_exit(struct prof_machine *m, int32_t tid, uint64_t time)
{
	struct prof_thread *t = thread_find(m, tid);

	if (!t)
		return;
	if (m->exit_head + m->nr_exits == m->cap_exits) {
		if (m->exit_head) { /* the released ones' room first */
			memmove(m->exits, m->exits + m->exit_head, m->nr_exits * sizeof(*m->exits));
			m->exit_head = 0;
		} else {
			size_t cap = m->cap_exits ? m->cap_exits * 2 : 64;
			struct prof_exit *v = realloc(m->exits, cap * sizeof(*v));

			if (!v)
				return; /* the thread just stays */
			m->exits = v;
			m->cap_exits = cap;
		}
	}
	/* An EXIT older than the clock waits its grace from the clock. */
	m->exits[m->exit_head + m->nr_exits++] =
		(struct prof_exit){ .time = time > m->now ? time : m->now, .serial = t->serial,
				    .tid = tid };
	prof_machine_clock(m, time);
}

/* A record's string: within its room, or up to the NUL when built by hand. */
static size_t text_len(const char *s, uint16_t room)
{
	return room ? strnlen(s, room) : strlen(s);
}

/*
 * perf 6.1's machine__process_ksymbol(): a register outside every kernel
 * map makes a map [addr, addr + len) of an object named by the record,
 * and inside a KSYMBOL's map adds the symbol at that map's start (so the
 * symbol that came first keeps naming the addresses both cover); an
 * unregister removes the map holding the address. Inside the kernel's
 * own map perf adds or deletes a symbol at the map's start, whatever the
 * record's address, which would only misname the kernel's first
 * function: that case is left alone, and so are module maps on register.
 */
static void do_ksymbol(struct prof_machine *m, const struct sonde_record_ksymbol *k)
{
	struct prof_proc *p = m->kproc;
	const struct prof_map *map = prof_maps_find(p, k->addr);
	struct prof_dso *kdso = prof_kernel_dso(m), *d;
	const char *name;

	if (k->flags & SONDE_PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER) {
		if (map && map->dso != kdso)
			prof_maps_remove(p, map);
		return;
	}
	if (!k->name)
		return;
	name = prof_intern(m, k->name, text_len(k->name, k->name_size));
	if (!map) {
		struct prof_map nm = { .start = k->addr, .end = k->addr + k->len };

		d = prof_dso_findnew(m, name, strlen(name), true);
		if (d == kdso || (d->loaded && !d->ksym) || nm.end <= nm.start)
			return;
		d->ksym = true;
		d->loaded = true;
		if (k->ksym_type == SONDE_PERF_RECORD_KSYMBOL_TYPE_OOL && !d->ool) {
			d->ool = true;
			d->ool_len = k->len;
		}
		nm.dso = d;
		prof_maps_insert(p, &nm);
		map = prof_maps_find(p, k->addr);
	}
	if (map && map->dso->ksym)
		(void)prof_ksym_add(m, map->dso, map->pgoff, map->pgoff + k->len, name);
}

/*
 * COMM/FORK/MMAP/MMAP2/KSYMBOL/TEXT_POKE change the machine; LOST and AUX
 * records are counted. A live EXIT is the caller's (do_exit()).
 */
static void apply(struct prof_machine *m, const struct sonde_record *d)
{
	switch (d->type) {
	case SONDE_PERF_RECORD_COMM: {
		struct prof_thread *t = prof_thread_findnew(m, (int32_t)d->comm.pid,
							  (int32_t)d->comm.tid);

		if (!d->comm.comm)
			return;
		t->comm = prof_intern(m, d->comm.comm, text_len(d->comm.comm, d->comm.comm_size));
		t->has_comm = true;
		break;
	}
	case SONDE_PERF_RECORD_FORK:
		do_fork(m, (int32_t)d->task.pid, (int32_t)d->task.ppid, (int32_t)d->task.tid,
			(int32_t)d->task.ptid);
		break;
	case SONDE_PERF_RECORD_MMAP:
	case SONDE_PERF_RECORD_MMAP2:
		/* perf counts MMAP2 only: its synthesizer writes no MMAP. */
		if (d->type == SONDE_PERF_RECORD_MMAP2 &&
		    (d->misc & SONDE_PERF_RECORD_MISC_PROC_MAP_PARSE_TIMEOUT))
			m->stats.proc_map_timeouts++;
		if (!d->mmap.filename)
			return;
		do_mmap(m, (int32_t)d->mmap.pid, (int32_t)d->mmap.tid, d->mmap.addr, d->mmap.len,
			d->mmap.pgoff, d->mmap.filename,
			text_len(d->mmap.filename, d->mmap.filename_size), d->misc,
			d->type == SONDE_PERF_RECORD_MMAP || (d->mmap.prot & PROT_EXEC),
			&d->mmap);
		break;
	case SONDE_PERF_RECORD_KSYMBOL:
		do_ksymbol(m, &d->ksymbol);
		break;
	case SONDE_PERF_RECORD_TEXT_POKE:
		do_text_poke(m, d->misc, &d->text_poke);
		break;
	case SONDE_PERF_RECORD_LOST:
		m->stats.lost += d->lost.lost;
		break;
	case SONDE_PERF_RECORD_LOST_SAMPLES:
		m->stats.lost_samples += d->lost_samples.lost;
		break;
	case SONDE_PERF_RECORD_AUX:
		m->stats.aux_truncated += !!(d->aux.flags & SONDE_PERF_AUX_FLAG_TRUNCATED);
		m->stats.aux_partial += !!(d->aux.flags & SONDE_PERF_AUX_FLAG_PARTIAL);
		m->stats.aux_collision += !!(d->aux.flags & SONDE_PERF_AUX_FLAG_COLLISION);
		break;
	default:
		break;
	}
}

void prof_machine_process_record(struct prof_machine *m, const struct sonde_record *d)
{
	if (d->type < 128)
		m->stats.nr_records[d->type]++;
	if (d->type == SONDE_PERF_RECORD_EXIT) {
		do_exit(m, (int32_t)d->task.tid, d->task.time);
		return;
	}
	apply(m, d);
	if (d->type == SONDE_PERF_RECORD_FORK)
		prof_machine_clock(m, d->task.time);
}

void prof_machine_process(struct prof_machine *m, const struct sonde_perfdata_reader *r,
			 const struct sonde_perfdata_record *rec)
{
	const struct pdr_attr *a = pdr_attr_get(r, rec->attr_idx >= 0 ? rec->attr_idx : 0);
	struct sonde_record_fmt fmt = { 0 };
	struct sonde_record d;

	m->reader = r; /* its build ids check the objects at load */
	if (rec->type < 128)
		m->stats.nr_records[rec->type]++;
	switch (rec->type) {
	case SONDE_PERF_RECORD_COMM:
	case SONDE_PERF_RECORD_FORK:
	case SONDE_PERF_RECORD_MMAP:
	case SONDE_PERF_RECORD_MMAP2:
	case SONDE_PERF_RECORD_LOST:
	case SONDE_PERF_RECORD_LOST_SAMPLES:
	case SONDE_PERF_RECORD_AUX:
	case SONDE_PERF_RECORD_KSYMBOL:
	case SONDE_PERF_RECORD_TEXT_POKE:
		break;
	default:
		/* EXIT too: nothing to do in a file (profile_priv.h says why). */
		return;
	}
	if (a)
		fmt = a->fmt;
	/* Decoded by the record codec; a malformed one is skipped. */
	if (sonde_record__decode(&fmt, rec->hdr, rec->size, &d)) {
		m->stats.bad_records++;
		return;
	}
	apply(m, &d);
}

void prof_resolve(struct prof_machine *m, struct prof_thread *t, bool kernel,
		 uint64_t ip, struct prof_loc *loc)
{
	const struct prof_proc *p = kernel ? m->kproc : (t ? t->proc : NULL);
	const struct prof_map *map = p ? prof_maps_find(p, ip) : NULL;

	loc->ip = ip;
	loc->kernel = kernel;
	loc->sym = NULL;
	loc->map = map;
	if (kernel && !map && !m->ksym_tracked) {
		/* No map for it in the file: kallsyms still names it. */
		loc->dso = prof_kernel_dso(m);
		loc->addr = ip;
		loc->sym = prof_dso_find_sym(m, loc->dso, ip);
		loc->map = NULL;
		return;
	}
	if (!map) {
		loc->dso = NULL;
		loc->addr = ip;
		return;
	}
	loc->dso = map->dso;
	loc->addr = map->dso->kernel && !map->dso->ksym ? ip : ip - map->start + map->pgoff;
	loc->sym = prof_dso_find_sym(m, map->dso, loc->addr);
}
