/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * The analysis model behind `sonde report` and `sonde script`: processes,
 * threads, maps and DSOs rebuilt from COMM/FORK/EXIT/MMAP records, and
 * address -> map -> dso -> symbol resolution. Objects live until
 * anl_machine_free() so pointers can be used as cache keys.
 */
#ifndef SONDE_ANL_H
#define SONDE_ANL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include "perfdata_read.h"

struct anl_sym {
	uint64_t start, end;
	const char *name;
	bool inlined; /* a function inlined into the symbol at [start, end) */
};

struct anl_dso {
	const char *name;	/* long name (path or [kernel.kallsyms]) */
	const char *short_name; /* basename for display */
	const char *short_key;	/* short_name interned: equal names, one pointer */
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
	struct anl_sym *syms;	/* syms[i]: entry i of the symbolizer's table
				 * (ssyms or ktab), named on first use */
	size_t nr_syms;
	struct sonde_dso *sdso; /* the symbolizer's object: symbols, layout */
	const struct sonde_symbol *ssyms; /* its table (sdso's) */
	const char *dbg_path; /* separate debug file, if one was found */
	struct sym_ktab *ktab; /* or the kernel's table (ktab.h) */
	bool ktab_shown;       /* its names shown demangled (a vmlinux's) */
	struct sym_dwarf *dwarf; /* for srclines and inline frames, lazily */
	bool dwarf_tried;
	struct dwc_store *dwc; /* DWARF answer cache (dwcache.h), or NULL */
	bool dwc_tried;
	struct anl_dso *next;
};

struct anl_map {
	uint64_t start, end, pgoff;
	struct anl_dso *dso;
};

struct anl_proc {
	int32_t pid;
	struct anl_map *maps;
	size_t nr_maps, cap_maps;
	uint32_t gen; /* bumped on every map change (cache invalidation) */
	struct sonde_unwinder *uw; /* DWARF unwinder, made on the first dwarf sample */
	struct anl_proc *next; /* in the machine's list of every process */
};

struct anl_thread {
	int32_t pid, tid;
	const char *comm; /* interned */
	bool has_comm;
	struct anl_proc *proc;
};

struct anl_loc {
	const struct anl_map *map;
	struct anl_dso *dso;
	const struct anl_sym *sym;
	uint64_t addr; /* map-relative (map_ip), or ip when there is no map */
	uint64_t ip;
	bool kernel;
};

struct anl_machine;

struct anl_machine *anl_machine_new(void);
void anl_machine_free(struct anl_machine *m);

/*
 * Keeps sonde's caches in @dir: the kernel's symbol table (kcache.h: per
 * boot, module list and user) so later runs skip reading /proc/kallsyms,
 * and the DWARF answers of each object (dwcache.h: per build id) so they
 * skip opening its debug info. NULL turns them off (the default). Call
 * before the first lookup. 0 or -ENOMEM.
 */
int anl_machine_set_cache(struct anl_machine *m, const char *dir);

/*
 * The caches in the per-user default directory (kcache_default_dir():
 * $XDG_CACHE_HOME/sonde or ~/.cache/sonde) unless the environment sets
 * SONDE_NO_CACHE or its older spelling SONDE_NO_KALLSYMS_CACHE (to
 * anything but "" or "0").
 */
int anl_machine_default_cache(struct anl_machine *m);

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
int anl_machine_set_kernel_symbols(struct anl_machine *m, const char *kallsyms,
				   const char *vmlinux);

/* Interned string: equal strings give the same pointer. */
const char *anl_intern(struct anl_machine *m, const char *s, size_t len);

/* Applies COMM/FORK/EXIT/MMAP/MMAP2 records; ignores the rest. */
void anl_machine_process(struct anl_machine *m, const struct sonde_perfdata_reader *r,
			 const struct sonde_perfdata_record *rec);
/* The same for a record decoded by the caller (a live ring, a pipe). */
void anl_machine_process_record(struct anl_machine *m, const struct sonde_record *d);

struct anl_thread *anl_thread_findnew(struct anl_machine *m, int32_t pid, int32_t tid);

/* Resolves @ip in @t's address space (kernel space when @kernel). */
void anl_resolve(struct anl_machine *m, struct anl_thread *t, bool kernel,
		 uint64_t ip, struct anl_loc *loc);

/* Symbol containing @addr in @dso (ELF vaddr / kernel address), or NULL. */
const struct anl_sym *anl_dso_find_sym(struct anl_machine *m, struct anl_dso *dso,
				       uint64_t map_addr);
/* Entry @i (< nr_syms) of @d's table, once a lookup has loaded it. */
const struct anl_sym *anl_dso_sym(struct anl_machine *m, struct anl_dso *d, size_t i);

struct anl_dso *anl_kernel_dso(struct anl_machine *m);

/*
 * Starts loading /proc/kallsyms on another thread (the first kernel
 * lookup waits for it), so it overlaps with reading the file.
 */
void anl_machine_preload_kernel(struct anl_machine *m);

/* ELF virtual address of map-relative @addr in @dso. */
uint64_t anl_dso_vaddr(const struct anl_dso *dso, uint64_t addr);

/*
 * Up to @len bytes of @dso's file from map-relative @addr (a file offset)
 * into @buf, and in *@is64 whether it is 64-bit code: the count, 0 when
 * there are none to read (the kernel's and JIT code have no file here, a
 * changed object no copy).
 */
size_t anl_dso_read(struct anl_machine *m, struct anl_dso *dso, uint64_t addr, void *buf,
		    size_t len, bool *is64);

/* Statistics for --stats. */
struct anl_stats {
	uint64_t nr_records[128];
	uint64_t lost;		/* from LOST records */
	uint64_t lost_samples; /* from LOST_SAMPLES records */
	uint64_t bad_records;  /* side-band records the codec rejected */
	/* AUX records by flag: TRUNCATED, PARTIAL, COLLISION */
	uint64_t aux_truncated, aux_partial, aux_collision;
	uint64_t proc_map_timeouts; /* MMAP2 flagged PROC_MAP_PARSE_TIMEOUT */
};
struct anl_stats *anl_machine_stats(struct anl_machine *m);

/*
 * Resolved call stacks, hash-consed: samples with the same address space
 * (process maps generation), cpumode, ip and callchain share one entry, so
 * each distinct stack is resolved once however many samples hit it.
 */
struct anl_frame {
	struct anl_dso *dso;
	const struct anl_sym *sym;
	uint64_t addr; /* map-relative address */
	uint64_t ip;
	bool kernel;
	bool unwound; /* from the DWARF unwinder (perf expands inlines there) */
};

/* Private callchain marker: the user frames that follow were DWARF-unwound. */
#define ANL_CONTEXT_UNWOUND ((uint64_t)-1000)

struct anl_stack {
	const struct anl_proc *proc;
	uint32_t gen, kgen;
	uint32_t nr_raw;
	uint64_t *raw; /* ip, then the raw callchain (file byte order) */
	uint32_t nr_frames;
	struct anl_frame *frames; /* frames[0] = the sample's own location,
				   * expanded into inlined functions */
	struct anl_frame self;	  /* the sample ip itself, never expanded */
	void *priv; /* for the command that owns the cache */
	uint64_t priv2;
	bool transient; /* beyond the cache's limit: not kept */
};

struct anl_stacks;
struct anl_stacks *anl_stacks_new(struct anl_machine *m, int max_stack);
void anl_stacks_free(struct anl_stacks *c);
size_t anl_stacks_count(const struct anl_stacks *c);
/* Expand DWARF-unwound frames into their inlined functions (default on). */
void anl_stacks_set_inline(struct anl_stacks *c, bool on);
/*
 * Leave the inline expansion of new stacks to anl_stacks_finish() (report:
 * frames are read after the load only), so that the debug info of the
 * objects met can be opened on another core meanwhile.
 */
void anl_stacks_defer_inline(struct anl_stacks *c);
/* Expands the stacks left by anl_stacks_defer_inline(). */
void anl_stacks_finish(struct anl_stacks *c);
/*
 * Bounds the cache for one-pass users (script): it keeps the first @max
 * stacks; a new stack beyond them is transient, valid until the next
 * anl_stack_get() or anl_sample_stack() only, and made in memory that the
 * next transient stack reuses. Keeping the first ones, not the latest,
 * costs nothing to maintain and serves stacks that come back at any
 * distance. Default 0: unbounded, pointers valid until anl_stacks_free().
 */
void anl_stacks_set_limit(struct anl_stacks *c, size_t max);
/* Calls @fn for every distinct stack. */
void anl_stacks_foreach(struct anl_stacks *c, void (*fn)(struct anl_stack *, void *),
			void *arg);

/*
 * The stack of one sample: @callchain (nr u64 in file order, may be NULL)
 * is walked with its PERF_CONTEXT_* markers; without one the stack is the
 * sample ip alone.
 */
struct anl_stack *anl_stack_get(struct anl_stacks *c, const struct sonde_perfdata_reader *r,
				struct anl_thread *t, uint16_t misc, uint64_t ip,
				const uint8_t *callchain, uint64_t nr);

/*
 * The stack of a decoded sample: the kernel-recorded callchain, and for
 * --call-graph dwarf samples (REGS_USER + STACK_USER) the user part
 * unwound through the process's DWARF unwinder (include/sonde/unwind.h).
 * @unwind false uses the recorded callchain only.
 */
struct anl_stack *anl_sample_stack(struct anl_stacks *c, const struct sonde_perfdata_reader *r,
				   uint64_t sample_type, struct anl_thread *t, uint16_t misc,
				   const struct pdr_sample *s, bool use_callchain);

/*
 * Functions inlined at @addr (map-relative) in @dso, innermost first, then
 * the containing function, by DWARF names (what addr2line -i -f reports).
 * Returns how many names were stored in @names (at most @max), 0 without
 * debug info.
 */
/*
 * Starts opening @dso's debug info on another thread (for
 * anl_dso_inlines()), unless the DWARF cache already answers for @addr.
 */
void anl_dso_prefetch_dwarf(struct anl_machine *m, struct anl_dso *dso, uint64_t addr);
int anl_dso_inlines(struct anl_machine *m, struct anl_dso *dso, uint64_t addr,
		    const char **names, int max);

/*
 * "file.c:123" for map-relative @addr in @dso from its DWARF line table
 * (basename, like perf's srcline), interned; NULL without line info.
 */
const char *anl_dso_srcline(struct anl_machine *m, struct anl_dso *dso, uint64_t addr);

/* Samples whose user stack could not be unwound past the sampled ip. */
uint64_t anl_stacks_unwind_failures(const struct anl_stacks *c);

#endif /* SONDE_ANL_H */
