/* SPDX-License-Identifier: LGPL-2.1-only */
/* Internals shared by the anl_*.c files (machine, dsos, symbols). */
#ifndef SONDE_ANL_PRIV_H
#define SONDE_ANL_PRIV_H

#include <pthread.h>
#include "anl.h"
#include "core_priv.h"

#define ANL_DSO_BUCKETS 256

struct anl_chunk {
	struct anl_chunk *next;
	size_t size, used;
	_Alignas(16) unsigned char data[];
};

struct anl_str {
	const char *s;
	size_t len;
};

struct anl_isym {
	const struct anl_dso *dso;
	const char *name; /* interned */
	struct anl_sym sym;
};

/* One anl_dso_inlines() answer: a DWARF scope walk costs far more. */
#define ANL_INL_MAX 8
struct anl_inl {
	const struct anl_dso *dso;
	uint64_t addr;
	int nr;
	const char *names[ANL_INL_MAX];
};

struct anl_machine {
	struct anl_chunk *arena;
	struct hashtab strs;	 /* of struct anl_str: kallsyms alone interns ~200k */
	struct hashtab procs;	 /* the live process of each pid */
	struct anl_proc *all_procs; /* every process ever made, to free their maps */
	struct hashtab threads;	 /* the live thread of each tid */
	/* Threads met lately, by tid: samples of a few threads interleave. */
#define ANL_RECENT_THREADS 64
	struct anl_thread *recent[ANL_RECENT_THREADS];
	struct anl_proc *kproc; /* kernel maps (pid -1) */
	struct anl_dso *dsos[ANL_DSO_BUCKETS];
	struct anl_dso *kdso;	/* [kernel.kallsyms], symbols from kallsyms */
	struct anl_stats stats;
	struct hashtab isyms; /* of struct anl_isym: symbols of inlined functions */
	struct hashtab inls;  /* of struct anl_inl: anl_dso_inlines() answers */
	bool kallsyms_warned;
	bool kthread_running; /* kallsyms loading on a second core */
	pthread_t kthread;
	char *kcache_dir; /* cache directory (kcache.h, dwcache.h); NULL: none */
	/* The file being read: its HEADER_BUILD_ID list checks objects. */
	const struct sonde_perfdata_reader *reader;
	char *buildid_dir; /* perf's build-id cache, made on first use */
	char *kallsyms_file; /* --kallsyms: the recorded kernel's symbols */
	char *vmlinux_file;  /* --vmlinux */
	struct sonde_symcache *symcache; /* ELF, vdso and JIT symbols */
};

/* Arena allocation: lives as long as the machine; aborts on OOM. */
void *anl_alloc(struct anl_machine *m, size_t n);

struct anl_dso *anl_dso_findnew(struct anl_machine *m, const char *name, size_t len,
				bool kernel);
void anl_dsos_free(struct anl_machine *m);
/*
 * @name as perf 6.1 shows it, interned: Rust (legacy without its hash, v0)
 * and C++ demangled (without parameters), else @name itself.
 */
const char *anl_sym_name(struct anl_machine *m, const char *name);
/* The symbol standing for @name inlined into @base of @dso (made once). */
const struct anl_sym *anl_inline_sym(struct anl_machine *m, const struct anl_dso *dso,
				     const struct anl_sym *base, const char *name);
/*
 * The file the DWARF unwinder may read @d's CFI from: @d's own path, the
 * recorded copy from perf's build-id cache when @d was rebuilt since the
 * recording, or NULL when neither is the recorded build.
 */
const char *anl_dso_unwind_file(struct anl_machine *m, struct anl_dso *d);
void anl_maps_insert(struct anl_proc *p, const struct anl_map *nm);
const struct anl_map *anl_maps_find(const struct anl_proc *p, uint64_t ip);

#endif /* SONDE_ANL_PRIV_H */
