/* SPDX-License-Identifier: LGPL-2.1-only */
/* The profile layer's private declarations, shared by its files only. */
#ifndef SONDE_PROFILE_PRIV_H
#define SONDE_PROFILE_PRIV_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "sonde/profile.h"
#include "perfdata_priv.h"
#include "core_priv.h"

/*
 * A red-black tree with the insertion rules of the kernel's rbtree (the
 * textbook ones), for the views that must come out in perf's order where
 * perf's comparisons are not a total order: then what a lookup meets,
 * and so what merges and in which order rows print, depends on the
 * tree's shape, which these rules reproduce. The caller walks down to
 * the link itself, with its own comparison, as perf does.
 */
struct prof_rb {
	struct prof_rb *left, *right, *parent;
	bool red;
};

struct prof_rb_root {
	struct prof_rb *top;
};

/* Puts @n at *@link (a NULL child slot of @parent, or the root) and rebalances. */
void prof_rb_insert(struct prof_rb_root *t, struct prof_rb *n, struct prof_rb *parent,
		    struct prof_rb **link);
/* In order: the leftmost node, then each one's successor; NULL at the end. */
struct prof_rb *prof_rb_first(const struct prof_rb_root *t);
struct prof_rb *prof_rb_next(const struct prof_rb *n);

/*
 * The analysis model behind `sonde report` and `sonde script`: processes,
 * threads, maps and DSOs rebuilt from COMM/FORK/MMAP records (and EXIT in
 * a live feed), and address -> map -> dso -> symbol resolution. DSOs and
 * symbols live until prof_machine_free() so pointers can be used as cache
 * keys. A thread or process that no record can reach any more (its tid
 * taken by a new FORK, or, fed live, its EXIT long past) is released and
 * its memory reused; a process keeps counting its map generation across
 * reuse, so (process, gen) cache keys never meet a stale answer.
 */
struct prof_sym {
	uint64_t start, end;
	const char *name;
	bool inlined; /* a function inlined into the symbol at [start, end) */
};

/*
 * perf's comparisons (sort.c), (left, right) as perf passes them; only
 * the sign counts. The entries tree (profile_walk.c) and the branch
 * histogram (profile_brhist.c, inlined into its lookups) share them.
 */
static inline int64_t prof_cmp_null(const void *l, const void *r)
{
	if (!l && !r)
		return 0;
	return !l ? -1 : 1;
}

/* perf's _sort__sym_cmp(). */
static inline int64_t prof_sym_cmp(const struct prof_sym *l, const struct prof_sym *r)
{
	if (!l || !r)
		return prof_cmp_null(l, r);
	if (l == r)
		return 0;
	if (l->inlined || r->inlined) {
		int64_t c = strcmp(l->name, r->name);

		if (c)
			return c;
		if (l->start <= r->end && l->end >= r->start)
			return 0;
	}
	/* perf subtracts addresses: the sign of the wrapped difference */
	if (l->start != r->start)
		return (int64_t)(r->start - l->start);
	return (int64_t)(r->end - l->end);
}

struct prof_dso {
	const char *name;	/* long name (path or [kernel.kallsyms]) */
	const char *short_name; /* basename for display */
	const char *short_key;	/* short_name interned: equal names, one pointer */
	/*
	 * Where perf would have made it: its HEADER_BUILD_ID entry's index,
	 * else after them all in the order first met. perf orders call-graph
	 * siblings by its DSOs' heap addresses, that is, by when it made them.
	 */
	uint32_t made_rank;
	bool kernel;
	bool jit;		/* /tmp/perf-PID.map: symbols by absolute address */
	bool stale;		/* changed since the recording, no copy found */
	uint8_t mmap_bid_size;	/* build id of its first MMAP2 carrying one */
	uint8_t mmap_bid[20];
	bool uw_checked;	/* uw_file is known */
	const char *uw_file;	/* what the unwinder reads: name, recorded copy,
				 * or NULL (another build, no copy) */
	bool loaded;
	bool has_syms;
	struct prof_sym *syms;	/* syms[i]: entry i of the symbolizer's table
				 * (ssyms, or the kernel's in place), named on first use */
	size_t nr_syms;
	struct sonde_dso *sdso; /* the symbolizer's object: symbols, layout */
	const struct sonde_symbol *ssyms; /* its table (sdso's); the kernel's is
					   * searched in place (sym_kernel_find()) */
	bool kelf;	      /* the kernel's names shown demangled (a vmlinux's) */
	bool dwarf_asked;	/* its debug info is opening (or has none) */
	/*
	 * Made by a KSYMBOL record (a BPF program, a trampoline, out-of-line
	 * kernel code): addressed from its map's start as perf does, its
	 * symbols only the records', in the order they came.
	 */
	bool ksym;
	struct prof_ksym *ksyms;
	/*
	 * Out-of-line code (KSYMBOL_TYPE_OOL): @ool_len bytes that read as
	 * zeros but where TEXT_POKE records wrote, as perf's data cache of it.
	 */
	bool ool;
	uint32_t ool_len;
	struct prof_poke *pokes; /* in the order they came */
	struct prof_dso *next_made; /* the machine's list of every DSO */
};

struct prof_poke {
	uint64_t off; /* from the object's start */
	uint16_t len;
	struct prof_poke *next;
	unsigned char bytes[];
};

struct prof_ksym {
	struct prof_sym sym;
	struct prof_ksym *next;
};

struct prof_map {
	uint64_t start, end, pgoff;
	struct prof_dso *dso;
};

struct prof_proc {
	int32_t pid;
	struct prof_map *maps;
	size_t nr_maps, cap_maps;
	uint32_t gen; /* bumped on every map change (cache invalidation) */
	struct sonde_unwinder *uw; /* DWARF unwinder, made on the first dwarf sample */
	struct prof_proc *next; /* in the machine's list of every process */
	uint32_t nr_threads; /* held threads whose process this is */
	bool in_table;	     /* the live process of its pid */
	struct prof_proc *next_free; /* released: in the machine's free list */
};

struct prof_thread {
	int32_t pid, tid;
	const char *comm; /* interned */
	bool has_comm;
	struct prof_proc *proc;
	uint64_t serial; /* unique per thread made, even when its memory is reused */
	struct prof_thread *next_free; /* released: in the machine's free list */
};

struct prof_loc {
	const struct prof_map *map;
	struct prof_dso *dso;
	const struct prof_sym *sym;
	uint64_t addr; /* map-relative (map_ip), or ip when there is no map */
	uint64_t ip;
	bool kernel;
};

struct prof_machine;

struct prof_machine *prof_machine_new(void);
void prof_machine_free(struct prof_machine *m);

/*
 * Keeps sonde's caches in @dir: the kernel's symbol table (sym_priv.h: per
 * boot, module list and user) so later runs skip reading /proc/kallsyms,
 * and the DWARF answers of each object (sym_priv.h: per build id) so they
 * skip opening its debug info. NULL turns them off (the default). Call
 * before the first lookup. 0 or -ENOMEM.
 */
int prof_machine_set_cache(struct prof_machine *m, const char *dir);

/*
 * The caches in the per-user default directory (kcache_default_dir():
 * $XDG_CACHE_HOME/sonde or ~/.cache/sonde) unless the environment sets
 * SONDE_NO_CACHE or its older spelling SONDE_NO_KALLSYMS_CACHE (to
 * anything but "" or "0").
 */
int prof_machine_default_cache(struct prof_machine *m);

/*
 * Where the kernel's symbols come from instead of this machine's
 * /proc/kallsyms (perf's --kallsyms and --vmlinux): a kallsyms text file
 * (taken as is), or a vmlinux ELF image (refused with a warning when its
 * build id is not the recorded kernel's). NULL: unset. Without either, a
 * file recorded under another kernel (its kernel build id, or else its os
 * release, differs from the running one's) is named from the kallsyms
 * copy in perf's build-id cache, or not at all (one warning says why).
 * Call before the first lookup. 0 or -ENOMEM.
 */
int prof_machine_set_kernel_symbols(struct prof_machine *m, const char *kallsyms,
				   const char *vmlinux);

/* Interned string: equal strings give the same pointer. */
const char *prof_intern(struct prof_machine *m, const char *s, size_t len);

/*
 * Applies COMM/FORK/MMAP/MMAP2/KSYMBOL/TEXT_POKE records of a file or pipe
 * and counts LOST/LOST_SAMPLES/AUX; ignores the rest. EXIT changes nothing
 * here, as in perf 6.1 (thread__exited() only flags the thread): a later
 * sample of the tid still finds the thread until a FORK takes the tid.
 */
void prof_machine_process(struct prof_machine *m, const struct sonde_perfdata_reader *r,
			 const struct sonde_perfdata_record *rec);
/*
 * The same for a record decoded by the caller (a live ring), where EXIT
 * also counts: the thread stays found as above until the profile's clock
 * (prof_machine_clock()) passes its exit by PROF_EXIT_GRACE_NS, then it
 * is released, and its process with its last thread.
 */
void prof_machine_process_record(struct prof_machine *m, const struct sonde_record *d);
/*
 * How long a live feed keeps an exited thread: the samples still to come
 * for it ran before its exit, or just after, but may sit in another CPU's
 * ring that the caller drains later; ten seconds is far beyond any drain.
 */
#define PROF_EXIT_GRACE_NS 10000000000ull
/* A live record's time (ns): releases the threads whose grace has passed. */
void prof_machine_clock(struct prof_machine *m, uint64_t time);
/*
 * Exited processes keep their maps until prof_machine_free(): the dso_size
 * key reads a stack's process maps when the histogram is built.
 */
void prof_machine_keep_procs(struct prof_machine *m);

struct prof_thread *prof_thread_findnew(struct prof_machine *m, int32_t pid, int32_t tid);

/* Resolves @ip in @t's address space (kernel space when @kernel). */
void prof_resolve(struct prof_machine *m, struct prof_thread *t, bool kernel,
		 uint64_t ip, struct prof_loc *loc);

/* Symbol containing @addr in @dso (ELF vaddr / kernel address), or NULL. */
const struct prof_sym *prof_dso_find_sym(struct prof_machine *m, struct prof_dso *dso,
				       uint64_t map_addr);
/* Entry @i (< nr_syms) of @d's table, once a lookup has loaded it. */
const struct prof_sym *prof_dso_sym(struct prof_machine *m, struct prof_dso *d, size_t i);

struct prof_dso *prof_kernel_dso(struct prof_machine *m);

/*
 * Starts loading /proc/kallsyms on another thread (the first kernel
 * lookup waits for it), so it overlaps with reading the file.
 */
void prof_machine_preload_kernel(struct prof_machine *m);

/* ELF virtual address of map-relative @addr in @dso. */
uint64_t prof_dso_vaddr(const struct prof_dso *dso, uint64_t addr);

/*
 * Up to @len bytes of @dso's file from map-relative @addr (a file offset)
 * into @buf, and in *@is64 whether it is 64-bit code: the count, 0 when
 * there are none to read (the kernel's and JIT code have no file here, a
 * changed object no copy).
 */
size_t prof_dso_read(struct prof_machine *m, struct prof_dso *dso, uint64_t addr, void *buf,
		    size_t len, bool *is64);

/* Statistics for --stats. */
struct prof_stats {
	uint64_t nr_records[128];
	uint64_t lost;		/* from LOST records */
	uint64_t lost_samples; /* from LOST_SAMPLES records */
	uint64_t bad_records;  /* side-band records the codec rejected */
	/* AUX records by flag: TRUNCATED, PARTIAL, COLLISION */
	uint64_t aux_truncated, aux_partial, aux_collision;
	uint64_t proc_map_timeouts; /* MMAP2 flagged PROC_MAP_PARSE_TIMEOUT */
	uint64_t threads, procs; /* held now: made and not yet released */
};
struct prof_stats *prof_machine_stats(struct prof_machine *m);

/*
 * Resolved call stacks, hash-consed: samples with the same address space
 * (process maps generation), cpumode, ip and callchain share one entry, so
 * each distinct stack is resolved once however many samples hit it.
 */
struct prof_frame {
	struct prof_dso *dso;
	const struct prof_sym *sym;
	uint64_t addr; /* map-relative address */
	uint64_t ip;
	bool kernel;
	bool unwound; /* from the DWARF unwinder (perf expands inlines there) */
	/*
	 * 1 + the address's offset into sym, made once per resolution (the
	 * file offset to ELF address step costs more than printing it); 0:
	 * not known, ask prof_dso_vaddr().
	 */
	uint32_t sym_off1;
};

/* Private callchain marker: the user frames that follow were DWARF-unwound. */
#define PROF_CONTEXT_UNWOUND ((uint64_t)-1000)

struct prof_stack {
	const struct prof_proc *proc;
	uint32_t gen, kgen;
	uint32_t nr_raw;
	uint64_t *raw; /* ip, then the raw callchain (file byte order) */
	uint32_t nr_frames;
	struct prof_frame *frames; /* frames[0] = the sample's own location,
				   * expanded into inlined functions */
	struct prof_frame self;	  /* the sample ip itself, never expanded */
	void *priv; /* for the command that owns the cache */
	uint64_t priv2;
	void *group[2]; /* the profile's last two sample groups of this stack */
	bool transient; /* beyond the cache's limit: not kept */
	bool many_groups; /* more than two: the profile's table holds them all */
};

struct prof_stacks;
/*
 * @max_stack: the callchain entries kept per sample, as perf counts them
 * (the first is the sample's own ip): the first ones, or with
 * @caller_order the outermost ones of the recorded chain (the DWARF
 * part: its first ones, counted apart), as perf's
 * thread__resolve_callchain() keeps them.
 */
struct prof_stacks *prof_stacks_new(struct prof_machine *m, int max_stack, bool caller_order);
void prof_stacks_free(struct prof_stacks *c);
size_t prof_stacks_count(const struct prof_stacks *c);
/* Expand DWARF-unwound frames into their inlined functions (default on). */
void prof_stacks_set_inline(struct prof_stacks *c, bool on);
/*
 * Leave the inline expansion of new stacks to prof_stacks_finish() (report:
 * frames are read after the load only), so that the debug info of the
 * objects met can be opened on another core meanwhile.
 */
void prof_stacks_defer_inline(struct prof_stacks *c);
/* Expands the stacks left by prof_stacks_defer_inline(). */
void prof_stacks_finish(struct prof_stacks *c);
/*
 * Bounds the cache for one-pass users (script): it keeps the first @max
 * stacks; a new stack beyond them is transient, valid until the next
 * prof_stack_get() or prof_sample_stack() only, and made in memory that the
 * next transient stack reuses. Keeping the first ones, not the latest,
 * costs nothing to maintain and serves stacks that come back at any
 * distance. Default 0: unbounded, pointers valid until prof_stacks_free().
 */
void prof_stacks_set_limit(struct prof_stacks *c, size_t max);
/* Calls @fn for every distinct stack. */
void prof_stacks_foreach(struct prof_stacks *c, void (*fn)(struct prof_stack *, void *),
			void *arg);

/*
 * The stack of one sample: @callchain (nr u64 in file order, may be NULL)
 * is walked with its PERF_CONTEXT_* markers; without one the stack is the
 * sample ip alone.
 */
struct prof_stack *prof_stack_get(struct prof_stacks *c, const struct sonde_perfdata_reader *r,
				struct prof_thread *t, uint16_t misc, uint64_t ip,
				const uint8_t *callchain, uint64_t nr);

/*
 * The stack of a decoded sample: the kernel-recorded callchain, and for
 * --call-graph dwarf samples (REGS_USER + STACK_USER) the user part
 * unwound through the process's DWARF unwinder (include/sonde/unwind.h).
 * @unwind false uses the recorded callchain only.
 */
struct prof_stack *prof_sample_stack(struct prof_stacks *c, const struct sonde_perfdata_reader *r,
				   uint64_t sample_type, struct prof_thread *t, uint16_t misc,
				   const struct sample_view *s, bool use_callchain);

/*
 * Functions inlined at @addr (map-relative) in @dso, innermost first, then
 * the containing function, by DWARF names (what addr2line -i -f reports).
 * Returns how many names were stored in @names (at most @max), 0 without
 * debug info.
 */
/*
 * Starts opening @dso's debug info on another thread (for
 * prof_dso_inlines()), unless the DWARF cache already answers for @addr.
 */
void prof_dso_prefetch_dwarf(struct prof_machine *m, struct prof_dso *dso, uint64_t addr);
int prof_dso_inlines(struct prof_machine *m, struct prof_dso *dso, uint64_t addr,
		    const char **names, int max);

/*
 * "file.c:123" for map-relative @addr in @dso from its DWARF line table
 * (basename, like perf's srcline), interned; NULL without line info.
 */
const char *prof_dso_srcline(struct prof_machine *m, struct prof_dso *dso, uint64_t addr);

/* Samples whose user stack could not be unwound past the sampled ip. */
uint64_t prof_stacks_unwind_failures(const struct prof_stacks *c);

/* Internals shared by the prof_*.c files (machine, dsos, symbols). */

struct prof_chunk {
	struct prof_chunk *next;
	size_t size, used;
	_Alignas(16) unsigned char data[];
};

struct prof_str {
	const char *s;
	size_t len;
};

struct prof_isym {
	const struct prof_dso *dso;
	const char *name; /* interned */
	struct prof_sym sym;
};

/* One prof_dso_inlines() answer: a DWARF scope walk costs far more. */
#define PROF_INL_MAX 8
struct prof_inl {
	const struct prof_dso *dso;
	uint64_t addr;
	int nr;
	const char *names[PROF_INL_MAX];
};

struct prof_machine {
	struct prof_chunk *arena;
	struct hashtab strs;	 /* of struct prof_str: kallsyms alone interns ~200k */
	struct hashtab procs;	 /* the live process of each pid */
	struct prof_proc *all_procs; /* every process ever made, to free their maps */
	struct hashtab threads;	 /* the live thread of each tid */
	/* Threads met lately, by tid: samples of a few threads interleave. */
#define PROF_RECENT_THREADS 64
	struct prof_thread *recent[PROF_RECENT_THREADS];
	struct prof_proc *kproc; /* kernel maps (pid -1) */
	struct prof_thread *free_threads; /* released, for reuse */
	struct prof_proc *free_procs;
	uint64_t next_serial;
	bool keep_procs; /* prof_machine_keep_procs() */
	uint64_t now;	 /* the latest live record time seen */
	struct prof_exit *exits; /* live EXITs waiting for their grace, oldest first */
	size_t exit_head, nr_exits, cap_exits;
	struct hashtab dsos;	 /* by interned name and kernel flag */
	struct prof_dso *all_dsos; /* every DSO made, to free them (the table may miss one) */
	uint32_t nr_dsos;	   /* DSOs made (their made_rank) */
	struct prof_dso *kdso;	/* [kernel.kallsyms], symbols from kallsyms */
	struct prof_stats stats;
	struct hashtab isyms; /* of struct prof_isym: symbols of inlined functions */
	struct hashtab inls;  /* of struct prof_inl: prof_dso_inlines() answers */
	/*
	 * The recording asked for KSYMBOL records (perf's always do): its
	 * maps describe the kernel's code, and an address outside them stays
	 * unnamed as in perf. Otherwise the kernel's table still names it.
	 */
	bool ksym_tracked;
	bool kprefetched; /* the kernel's table loading on a second core */
	char *kcache_dir; /* cache directory (sym_priv.h); NULL: none */
	/* The file being read: its HEADER_BUILD_ID list checks objects. */
	const struct sonde_perfdata_reader *reader;
	char *buildid_dir; /* perf's build-id cache, made on first use */
	char *kallsyms_file; /* --kallsyms: the recorded kernel's symbols */
	char *vmlinux_file;  /* --vmlinux */
	struct sonde_symcache *symcache; /* ELF, vdso and JIT symbols */
};

/* A live EXIT: thread @serial of @tid is released after @time + the grace. */
struct prof_exit {
	uint64_t time, serial;
	int32_t tid;
};

/* Arena allocation: lives as long as the machine; aborts on OOM. */
void *prof_alloc(struct prof_machine *m, size_t n);

struct prof_dso *prof_dso_findnew(struct prof_machine *m, const char *name, size_t len,
				bool kernel);
void prof_dsos_free(struct prof_machine *m);
/*
 * @name as perf 6.1 shows it, interned: Rust (legacy without its hash, v0)
 * and C++ demangled (without parameters), else @name itself.
 */
const char *prof_sym_name(struct prof_machine *m, const char *name);
/* The symbol standing for @name inlined into @base of @dso (made once). */
const struct prof_sym *prof_inline_sym(struct prof_machine *m, const struct prof_dso *dso,
				     const struct prof_sym *base, const char *name);
/*
 * The file the DWARF unwinder may read @d's CFI from: @d's own path, the
 * recorded copy from perf's build-id cache when @d was rebuilt since the
 * recording, or NULL when neither is the recorded build.
 */
const char *prof_dso_unwind_file(struct prof_machine *m, struct prof_dso *d);
void prof_maps_insert(struct prof_proc *p, const struct prof_map *nm);
const struct prof_map *prof_maps_find(const struct prof_proc *p, uint64_t ip);
/* Removes @map (one of @p's, from prof_maps_find()). */
void prof_maps_remove(struct prof_proc *p, const struct prof_map *map);

/*
 * The symbol [@start, @end) named @name (interned) of KSYMBOL object @d,
 * added after the others unless one the same is there already.
 */
const struct prof_sym *prof_ksym_add(struct prof_machine *m, struct prof_dso *d, uint64_t start,
				   uint64_t end, const char *name);

/*
 * Internals of struct sonde_profile (include/sonde/profile.h), shared by
 * the profile*.c files: samples are first summed into groups per (event,
 * thread keys, hash-consed stack); each group is expanded once into
 * histogram entries and call tree paths, so children mode costs per
 * distinct stack rather than per sample.
 */
/* The samples of one (event, comm, pid, tid, cpu, stack). */
struct prof_group {
	const char *comm;
	int32_t ev, pid, tid, cpu;
	/* the thread of the first sample, whose last comm perf's comm and
	 * pid columns size by, even when pid and tid are not keys */
	int32_t th_pid, th_tid;
	struct prof_stack *st;
	const struct prof_xkey *x; /* the sample's values of the other keys, or NULL */
	uint64_t period, nr;
	uint64_t seq : 61; /* first sample: entries are created in time order */
	uint64_t cpumode : 3; /* the samples' (header misc): perf's sys/usr split */
	uint64_t base_period, base_nr; /* a baseline's (sonde_profile__add_baseline()) */
};

/*
 * Sample groups, allocated in blocks (from p->group_mem, where a small
 * profile's few fit in its first small block): one per distinct stack
 * and thread keys.
 */
#define PROF_GROUP_BLOCK 1024

/*
 * One counted sample of a timeline (opts.timeline), 8 bytes for the
 * millions of a long recording: its group's seq and the low half of its
 * time. The high half is in the profile's tl_hi where it changes (every
 * 4.3 s of recording): read the times in order through a prof_tl_clock.
 */
struct prof_tl {
	uint32_t time_lo;
	uint32_t group;
};

/* From timeline sample @at on (until the next one), the times' high half is @hi. */
struct prof_tl_hi {
	size_t at;
	uint64_t hi;
};

struct prof_group_block {
	struct prof_group_block *prev;
	size_t used;
	struct prof_group v[PROF_GROUP_BLOCK];
};

/*
 * One node of an entry's call tree (uncompressed trie). Children mode
 * makes about 80 nodes per distinct 12-frame stack, millions in a big
 * profile: a node is kept to 48 bytes. What it shows (symbol, object,
 * ip) is read from the frame of the first path through it, which lives
 * as long as the profile; its self weight is its total less its
 * children's; its links are offsets in the profile's one node array.
 */
struct sonde_profile_node {
	uintptr_t key;		    /* what paths match on: the symbol, else the ip */
	const struct prof_frame *fr; /* NULL at an entry's root */
	uint64_t cumul;		    /* period of the paths through here */
	uint64_t nr_cumul;	    /* the same in samples (perf's -g ...,count) */
	int32_t child, sibling, parent; /* nodes at these offsets from this one; 0: none */
	uint32_t nr_children : 30;
	uint32_t by_ip : 1;  /* key is a raw ip: no symbol, or branch history */
	uint32_t has_br : 1; /* branch history counted it (p->node_br) */
};

struct prof_key {
	int ev;
	const char *comm;
	int32_t pid, tid, cpu;
	struct prof_dso *dso;
	const struct prof_sym *sym;
	uint64_t addr; /* when sym is NULL (or for srcline) */
	const char *srcline;
	char level;    /* 'k' or '.' */
	/*
	 * Identity, as perf compares entries: objects by short name, symbols
	 * by address range (inlined ones by name too), so the same binary
	 * at two paths, or two copies of a library, make one entry.
	 */
	const char *dso_id;
	uint64_t sym_start, sym_end;
	const char *sym_iname;
	const struct prof_xkey *x; /* the other keys' values (profile_keys.c), or NULL */
};

struct sonde_profile_entry {
	struct prof_key k;
	uint64_t self, children;
	uint64_t nr_self;
	uint64_t base_self, base_nr_self; /* the baseline's self weight and samples */
	uint64_t mode_self[4]; /* self by cpumode: kernel, user, guest kernel, guest user */
	uint32_t max_depth : 31; /* longest call tree path (children ordering) */
	/* a sample --dsos/--symbols keep counts here: what decides, without
	 * children, when the filtered object or symbol is not a key */
	uint32_t shown : 1;
	uint32_t root;	    /* chain's index + 1 while the trees are built */
	uint64_t seq;	    /* creation order (perf's: its first sample's) */
	uint64_t walk;	    /* place in perf's entries tree walk: the last tie-break */
	struct sonde_profile_node *chain; /* root (no symbol), NULL without trees */
	uint64_t expanded;  /* last sample group counted here (+1): one count each */
	struct sonde_profile *owner; /* builds the tree at its first query */
	const char *thread_comm; /* first sample's thread's last comm (comm/pid keys) */
};

/*
 * Entries are made in blocks, in seq order: no allocation each, and a
 * pass over them in creation order reads memory in order. The blocks
 * come from p->ent_mem, one after another in its huge pages.
 */
#define PROF_ENTRY_BLOCK 1024

/* A sample group's weight in one column (sonde_profile__add_column()). */
struct prof_colw {
	const struct prof_group *g;
	uint64_t period, nr;
};

/*
 * One column of an event's histogram: another profile's event, merged
 * into groups of this one (so its entries pair with this one's by the
 * sort keys) but weighed apart, per group, then per entry.
 */
struct prof_column {
	struct sonde_profile_event_stats stats;
	struct hashtab by_group; /* of struct prof_colw, by group address */
	struct prof_colw *w;	 /* the records, allocated once: one per group of the source */
	size_t nr_w, cap_w;
	/* the entries' weights by entry seq, made with the histogram */
	uint64_t *ent_period, *ent_nr;
	size_t cap_ent;
};

struct prof_event {
	char *name;
	struct sonde_perf_event_attr attr;
	struct sonde_record_fmt fmt;
	struct sample_plan plan; /* fmt's usual layout, for sample_view_parse */
	uint64_t period0;	 /* a sample's period without PERIOD */
	uint64_t *ids;
	size_t nr_ids;
	struct sonde_profile_event_stats stats;
	struct sonde_profile_event_stats base_stats; /* the baseline's */
	struct sonde_profile_entry **sorted; /* NULL until queried */
	struct prof_column *cols; /* column k (1 ..) at cols[k - 1] */
	int nr_cols;
	size_t nr_sorted;
};

/* The weights opts may place among the keys (opts.self_at ...). */
enum prof_weight {
	PROF_W_SELF,
	PROF_W_CHILDREN,
	PROF_W_SAMPLES,
	PROF_W_MODE, /* + 0..3: mode_self[] */
	PROF_NR_WEIGHTS = PROF_W_MODE + 4,
};

/* One compare of the histogram's order: a key, or a weight (key < 0). */
struct prof_step {
	int key;
	enum prof_weight w;
};

struct sonde_profile {
	/* options */
	bool keys[SONDE_PROFILE_KEY_MAX];
	enum sonde_profile_key order[SONDE_PROFILE_KEY_MAX];
	int nr_keys;
	bool callchains, trees, caller, children;
	/*
	 * The order when opts place weights among the keys (prof_order_new()):
	 * the children and self weights first unless placed, then these steps.
	 */
	bool keyed, children_first, self_first;
	struct prof_step steps[SONDE_PROFILE_KEY_MAX + PROF_NR_WEIGHTS];
	int nr_steps;

	/* filters */
	char **f_comm, **f_dso, **f_sym;
	size_t nr_f_comm, nr_f_dso, nr_f_sym;
	int32_t *f_pid, *f_tid;
	size_t nr_f_pid, nr_f_tid;
	uint8_t *f_cpu; /* bitmap of 4096 cpus or NULL */
	struct sonde_profile_time_range *f_time;
	size_t nr_f_time;

	/* events */
	struct prof_event *evs;
	int nr_evs, cap_evs;

	/* machine and stacks */
	struct prof_machine *m;
	struct prof_stacks *stacks;
	struct sonde_perfdata_reader *reader; /* its tracepoint formats serve too */
	bool have_callchains;
	bool bounded; /* opts.max_stacks in force: no sample counted yet */
	uint32_t nr_stack_ids;
	uint64_t lost_records, lost, lost_samples;
	struct prof_frame *br_frames; /* sonde_profile__sample_branches()' answer */
	size_t cap_br_frames;
	struct prof_brhist *brhist; /* the histogram of branches (opts.branches) */
	struct prof_frame code_frame; /* sonde_profile__resolve()'s answer */

	/* branch history (opts.branch_history, profile_brchain.c) */
	bool branch_history;
	int chain_max_stack;	     /* perf's max_stack: branches and callchain frames */
	struct hashtab chains;	     /* of struct prof_chain */
	struct prof_brnode *brnodes; /* the trees' nodes' branch counts */
	uint32_t *node_br;	     /* per tree node: its brnodes index + 1; 0: none */
	size_t nr_brnodes, cap_brnodes;

	/* the keys past perf's first seven, and --mem-mode (profile_keys.c) */
	struct prof_keys *kx; /* NULL: none of them set */
	bool kx_sample;	      /* some read the decoded sample: decode every one */
	bool kx_frame;	      /* some read the frame: an entry's value per frame */
	bool mem_mode;
	struct prof_fields *fx; /* the FIELD keys (profile_fields.c), NULL: none */

	/* sample groups */
	struct hashtab groups; /* of struct prof_group whose stack has more than two */
	size_t nr_groups;
	struct prof_group_block *gblocks;
	struct hugearena group_mem; /* the blocks' */
	struct prof_group *last_group;

	/* every counted sample in order, with opts.timeline */
	bool timeline;
	bool tl_overflow;	/* more than 2^32 samples or groups: not kept */
	struct prof_tl *tl;	/* in tl_mem: a few huge pages, not thousands of pages */
	size_t nr_tl, tl_room;	/* records, and room for them in tl_mem */
	struct bigalloc tl_mem;
	struct prof_tl_hi *tl_hi;
	size_t nr_tl_hi, cap_tl_hi;
	uint64_t tl_last_hi;	/* the high half of the last time */

	/* the histogram, made from the groups at the first query */
	bool dirty;
	bool columns;		/* some event has columns (profile_column.c) */
	struct hashtab ents;	/* of struct sonde_profile_entry, by prof_key */
	size_t nr_ents;
	struct sonde_profile_entry **ent_blocks; /* the entries by seq, in blocks
						  * of PROF_ENTRY_BLOCK */
	size_t cap_ent_blocks;
	struct hugearena ent_mem; /* the blocks' */
	struct hashtab kids;	/* children of wide nodes of the tree being built
				 * (their index + 1: the array moves as it grows) */
	struct sonde_profile_node *node_v; /* the tree being built; with branch
					    * history, every tree node */
	size_t nr_nodes, cap_nodes;
	/* the paths of the trees not yet built, by entry (profile_hist.c) */
	struct prof_tree_job *jobs;
	size_t nr_jobs;
	size_t *job_start; /* entry seq's first job; [nr_ents]: nr_jobs */
	size_t nr_job_start; /* nr_ents + 1 when they were sorted */
	struct prof_node_chunk *node_chunks; /* the built trees' nodes */
};

#define prof_mix hashtab_mix

/* profile.c: sample groups (abort on OOM, as the machine's arena does). */
size_t prof_nr_groups(const struct sonde_profile *p);

/* Reads the timeline's times: prof_tl_time() at rising indexes. */
struct prof_tl_clock {
	const struct prof_tl_hi *next, *end;
	size_t next_at; /* next->at, SIZE_MAX past the end: one compare a sample */
	uint64_t hi;
};

static inline void prof_tl_clock_init(struct prof_tl_clock *c, const struct sonde_profile *p)
{
	c->next = p->tl_hi;
	c->end = p->tl_hi + p->nr_tl_hi;
	c->next_at = p->nr_tl_hi ? p->tl_hi[0].at : SIZE_MAX;
	c->hi = 0;
}

/* The time of timeline sample @i, no lower than the @i of the call before. */
static inline uint64_t prof_tl_time(struct prof_tl_clock *c, const struct sonde_profile *p,
				    size_t i)
{
	if (i >= c->next_at) {
		while (c->next < c->end && c->next->at <= i)
			c->hi = (c->next++)->hi << 32;
		c->next_at = c->next < c->end ? c->next->at : SIZE_MAX;
	}
	return c->hi | p->tl[i].time_lo;
}
/* @th: the sample's thread, which a new group keeps (NULL: another profile's) */
struct prof_group *prof_group_get(struct sonde_profile *p, int ev, const char *comm, int32_t pid,
				  int32_t tid, int32_t cpu, struct prof_stack *st,
				  const struct prof_xkey *x, unsigned cpumode,
				  const struct prof_thread *th);
/* The groups in creation order (caller frees the array), count in *nr. */
struct prof_group **prof_groups_sorted(struct sonde_profile *p, size_t *nr);
int prof_event_new(struct sonde_profile *p, const struct sonde_perf_event_attr *attr,
		   const struct sonde_record_fmt *fmt, const uint64_t *ids, size_t nr_ids,
		   const char *name);

/* The event a record belongs to: @event, else by its sample id; or -ENOENT. */
int prof_route(const struct sonde_profile *p, int event, const struct sonde_record *rec);

/* A reader's events that arrived since (pipes): made the profile's. */
int prof_sync_reader(struct sonde_profile *p);

/* A sample at @time on @cpu ((uint32_t)-1: unknown) is in the time and cpu slice. */
bool prof_in_slice(const struct sonde_profile *p, uint64_t time, uint32_t cpu);
/* The pid, tid and comm filters show the thread (@comm NULL: looked up). */
bool prof_thread_shown(struct sonde_profile *p, int32_t pid, int32_t tid, const char *comm);

/* profile_branch.c: one branch address resolved like a frame. */
void prof_branch_resolve(struct sonde_profile *p, struct prof_thread *t, bool kernel,
			 uint64_t addr, struct prof_frame *out);

/* profile_brchain.c: branch history (opts.branch_history). */
struct prof_hop;
/* The stack of a sample whose branches start its call chain (perf's order). */
struct prof_stack *prof_chain_stack(struct sonde_profile *p, int ei, uint16_t misc,
				   const struct sample_view *s, const struct sonde_record *rec,
				   struct prof_thread **tp);
/* Its frames' branch parts, one per frame. */
const struct prof_hop *prof_chain_hops(const struct prof_stack *st);
/* A path of @nr samples went through @node at frame @fr, @hops[@i] (@made: it made the node). */
void prof_chain_count(struct sonde_profile *p, struct sonde_profile_node *node,
		      const struct prof_frame *fr, const struct prof_hop *hops, int i, uint64_t nr,
		      bool made);
/* The trees are gone: so are their counts. */
void prof_chain_nodes_reset(struct sonde_profile *p);
void prof_chains_free(struct sonde_profile *p);

/* profile_brhist.c: the histogram of branches (opts.branches). */
struct prof_brhist;
/* Sets it up for @keys (NULL/0: perf's default). 0, or -1 with errno (EINVAL, ENOMEM). */
int prof_brhist_new(struct sonde_profile *p, const enum sonde_profile_key *keys, size_t nr);
void prof_brhist_free(struct sonde_profile *p);
/* Counts the branches of a decoded sample of event @ei: 1 if it was in the slice. */
int prof_brhist_add(struct sonde_profile *p, int ei, const struct sonde_record *rec);
/* The branch-type counters of sonde_profile_branch_stats or of
 * sonde_profile_node_branch (same names in both), for prof_brtype_count(). */
struct prof_brtype_ctr {
	uint64_t *types, *new_types, *cond_fwd, *cond_bwd, *cross_4k, *cross_2m;
};
#define PROF_BRTYPE_CTR(s)                                                        \
	((struct prof_brtype_ctr){ (s)->types, (s)->new_types, &(s)->cond_fwd,    \
				   &(s)->cond_bwd, &(s)->cross_4k, &(s)->cross_2m })
void prof_brtype_count(struct prof_brtype_ctr c, const struct sonde_perf_branch_entry *f,
		       uint64_t from, uint64_t to, uint64_t n);

/*
 * profile_keys.c: the keys past perf's first seven (sonde_profile_entry__keys()):
 * what a sample carries (weight, data source, addresses, cgroup, time...)
 * and what a frame shows (source file, sizes, address, parent), each
 * interned as one struct prof_xkey whose pointer entries compare.
 */
struct prof_xkey;
struct prof_keys;
/* Sets them up for @o's keys. 0, or -1 with errno (EINVAL, ENOMEM). */
int prof_keys_new(struct sonde_profile *p, const struct sonde_profile_opts *o);
void prof_keys_free(struct sonde_profile *p);
/* The weight a sample of @rec counts in mem mode: its weight, or 1. */
uint64_t prof_keys_mem_cost(const struct sonde_record *rec);
/* The values of a sample (@rec decoded) of event @ei in thread @t (p->kx_sample). */
const struct prof_xkey *prof_keys_sample(struct sonde_profile *p, int ei, uint16_t misc,
					 const struct sonde_record *rec, struct prof_thread *t);
/* The values an entry of @g at frame @fr compares (p->kx_frame). */
const struct prof_xkey *prof_keys_frame(struct sonde_profile *p, const struct prof_group *g,
					const struct prof_frame *fr);
/* Children mode counts a sample once per entry (else once per chain frame, as perf 6.1). */
bool prof_keys_dedup(const struct sonde_profile *p, const struct prof_xkey *x);
/* Side-band the keys read: CGROUP names, NAMESPACES of threads. */
void prof_keys_record(struct sonde_profile *p, const struct sonde_record *rec);
/* perf's order of two entries by key @key, for the keys profile_keys.c holds. */
int prof_keys_cmp(const struct sonde_profile *p, enum sonde_profile_key key,
		  const struct sonde_profile_entry *a, const struct sonde_profile_entry *b);

/*
 * The tracepoint print fmt of event @ei for the trace and FIELD keys: the
 * reader's, else this machine's; NULLs when there is none.
 */
void prof_keys_tp(struct sonde_profile *p, int ei, const struct sonde_tp_format **fmt,
		  const struct sonde_tp_print **print);
struct prof_frow;
/* The FIELD keys' values of @x, NULL without. */
const struct prof_frow *prof_keys_frow(const struct prof_xkey *x);

/*
 * profile_fields.c: tracepoint fields as keys (opts.fields). In the key
 * order a FIELD key stands as SONDE_PROFILE_KEY_MAX + its index.
 */
struct prof_fields;
/*
 * A hash of @n bytes a word at a time: the interned key values are tens
 * to hundreds of bytes, hashed at every sample whose values change.
 */
static inline uint64_t prof_words_hash(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t h = n, w;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		memcpy(&w, b + i, 8);
		h = hashtab_mix(h, w);
	}
	if (i < n) {
		w = 0;
		memcpy(&w, b + i, n - i);
		h = hashtab_mix(h, w);
	}
	return h;
}
/* @nr_keys: the FIELD keys in opts.keys. 0, -EINVAL, -ENOMEM (p->fx may be set: free it). */
int prof_fields_new(struct sonde_profile *p, const struct sonde_profile_opts *o, size_t nr_keys);
void prof_fields_free(struct sonde_profile *p);
/* Matches the names against the events: 0, or -ENOENT when one names no field. */
int prof_fields_resolve(struct sonde_profile *p);
/* A sample's row of values (@raw: its RAW data), NULL when its event has no column. */
const struct prof_frow *prof_fields_row(struct sonde_profile *p, int ei, const void *raw,
					uint32_t size);
/* perf's order of two rows by FIELD key @key. */
int prof_fields_cmp(const struct sonde_profile *p, int key, const struct prof_frow *a,
		    const struct prof_frow *b);

/* profile_column.c: the columns of events' histograms. */
/* Room for the @n group records of @c's one merge. 0 or -ENOMEM. */
int prof_column_reserve(struct prof_column *c, size_t n);
/* Adds @period and @nr to @g's weight in @c (room reserved). 0 or -ENOMEM. */
int prof_column_add(struct prof_column *c, const struct prof_group *g, uint64_t period,
		    uint64_t nr);
/* Group @g has weight in a column of its event. */
bool prof_columns_group(const struct sonde_profile *p, const struct prof_group *g);
/* @g's column weights into its entry @e; into the filtered counts when @visible. */
void prof_columns_expand(struct sonde_profile *p, const struct prof_group *g,
			 const struct sonde_profile_entry *e, bool visible);
/* Entry @e has self weight in a column. */
bool prof_columns_entry(const struct sonde_profile *p, const struct sonde_profile_entry *e);
/* The histogram goes (@all: and the columns too, with the profile). */
void prof_columns_reset(struct sonde_profile *p, bool all);

/* profile_hist.c: the entries, (re)made from the groups when dirty. */
void prof_hist_build(struct sonde_profile *p);
void prof_hist_free(struct sonde_profile *p);
bool prof_entry_visible(const struct sonde_profile *p, const struct prof_key *k);

/*
 * perf's order of two entries (pointers to struct sonde_profile_entry
 * pointers; @arg the profile), for qsort_r(): not a total order when
 * entries of two comms tie, so the result depends on the sort's steps.
 */
int prof_entry_cmp(const void *pa, const void *pb, void *arg);
/* perf's output sort of @a and @b by key @key alone (ascending). */
int prof_key_cmp1(const struct sonde_profile *p, enum sonde_profile_key key,
		  const struct sonde_profile_entry *a, const struct sonde_profile_entry *b);
/* Entry @seq (in creation order). */
static inline struct sonde_profile_entry *prof_entry_at(const struct sonde_profile *p, size_t seq)
{
	return &p->ent_blocks[seq / PROF_ENTRY_BLOCK][seq % PROF_ENTRY_BLOCK];
}
/*
 * Sets each entry of event @ei's walk: its place in perf's entries tree
 * (profile_walk.c); out of memory, its seq.
 */
void prof_walk_event(struct sonde_profile *p, int ei);
/* The order's steps from opts' weights' places (p->order set); -EINVAL. */
int prof_order_new(struct sonde_profile *p, const struct sonde_profile_opts *o);

/*
 * profile_sort.c: @ents (@n entries in seq order) sorted as qsort_r()
 * with prof_entry_cmp() sorts them, from ranks made once; false (@ents
 * unchanged) when a sort key is not one it ranks, or out of memory.
 */
bool prof_sort_entries(const struct sonde_profile *p, struct sonde_profile_entry **ents,
		       size_t n);

/* profile_tree.c: call trees of the entries (@hops: branch history's, or NULL). */
void prof_tree_add(struct sonde_profile *p, struct sonde_profile_entry *e,
		   const struct prof_frame *frames, const struct prof_hop *hops, int from, int dir,
		   int count, uint64_t period, uint64_t nr);
/*
 * The tree of the last entry is complete: its index of wide nodes goes.
 * prof_tree_add() then takes one entry's paths after another's, never
 * back to an entry done before.
 */
void prof_tree_next_entry(struct sonde_profile *p);
/* Every tree is complete: the entries get their roots' addresses. */
void prof_trees_done(struct sonde_profile *p, struct sonde_profile_entry **ents, size_t nr);
/*
 * Entry @e's tree is built next, of at most @max nodes: node_v points at
 * room for them where the tree stays (its nodes reach each other by
 * offsets, so it is never moved); prof_tree_keep() closes it and returns
 * its root.
 */
void prof_tree_begin(struct sonde_profile *p, size_t max);
struct sonde_profile_node *prof_tree_keep(struct sonde_profile *p,
					  const struct sonde_profile_entry *e);
/* Frees the paths of the trees not yet built. */
void prof_jobs_free(struct sonde_profile *p);
/* Frees every tree node of @p. */
void prof_trees_free(struct sonde_profile *p);

#endif /* SONDE_PROFILE_PRIV_H */
