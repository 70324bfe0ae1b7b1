/* SPDX-License-Identifier: LGPL-2.1-only */
/* Private layout of the symbolizer (include/sonde/symbols.h). */
#ifndef SONDE_SYM_INTERNAL_H
#define SONDE_SYM_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <gelf.h>
#include "sonde/symbols.h"

#define SYM_BUILD_ID_MAX 64
#define SYM_MAX_LOADS 32

struct sonde_dso {
	atomic_int refcnt;
	int kind;			/* enum sonde_dso_kind */
	char *path;			/* as asked */
	uint8_t want_bid[SYM_BUILD_ID_MAX];
	size_t want_bid_size;
	pid_t pid;			/* JIT */

	/* Load configuration, copied from the cache at creation. */
	char *root_dir;
	char *debug_dir;
	char *kallsyms_path;
	char *notes_path;
	char *buildid_dir;
	char *kcache_dir;		/* "" = no kallsyms cache */
	char *jit_dir;
	bool no_debug_files;

	pthread_mutex_t lock;
	atomic_bool loaded;		/* set (release) once load finished */
	int status;			/* enum sonde_dso_status */
	int load_err;			/* 0 or -errno of the load */

	struct sonde_symbol *syms;	/* sorted, unique starts */
	size_t nr;
	_Atomic(const char *) *demangled; /* nr entries, filled lazily */

	/* ELF: the file itself (for phdrs) and where symbols came from. */
	Elf *elf;
	int fd;
	Elf *symelf;			/* == elf or a separate debug file */
	int symfd;
	char *symfile;
	char *elf_file;			/* the recorded build's object: the
					 * file or perf's copy; NULL if none */
	GElf_Phdr loads[SYM_MAX_LOADS];
	size_t nloads;
	uint8_t bid[SYM_BUILD_ID_MAX];
	size_t bid_size;

	char *plt_names;		/* "name@plt" strings of PLT stubs */

	/* Text tables (perf maps): names point into this buffer. */
	char *text;
	/* The kernel's: names point into its table (ktab.h); owned. */
	struct sym_ktab *ktab;
	/* In-memory ELF image (the vdso) instead of a file; owned. */
	char *mem;
	size_t mem_size;

	/* Debug info for srclines and inlines (sym_srcline.c). */
	pthread_mutex_t dwarf_lock;
	struct sym_dwarf *dwarf;
	bool dwarf_tried;

	struct sonde_dso *next;		/* cache hash chain */
};

/* Owned by sym_table.c: sort, pick one symbol per address, synth sizes. */
enum sym_dup_policy {
	SYM_DUP_BEST,		/* ELF: global > weak > local ... */
	SYM_DUP_LAST,		/* JIT maps, kallsyms: a later line wins */
};
size_t sym_table_finish(struct sonde_symbol *syms, size_t nr,
			enum sym_dup_policy policy);
/*
 * The one symbol lookup: in @p nr entries of @p stride bytes, sorted by
 * start and each beginning with { u64 start; u64 size; } (a sonde_symbol,
 * a kernel table entry), the index of the one covering @p addr (or of
 * the function around a nested symbol that ended before it), else
 * SIZE_MAX.
 */
size_t sym_table_index(const void *tab, size_t stride, size_t nr, uint64_t addr);
const struct sonde_symbol *sym_table_find(const struct sonde_symbol *syms,
					  size_t nr, uint64_t addr);

/*
 * The function symbols of @p elf (.symtab, else .dynsym) and the PLT stubs
 * of @p plt_elf (NULL: none), finished (sym_table_finish()) under perf's
 * naming policy: *@p syms (malloc'd, *@p nr entries) has names pointing
 * into @p elf and into *@p plt_names (malloc'd, or NULL). 0 or -errno.
 */
int sym_elf_table(Elf *elf, Elf *plt_elf, struct sonde_symbol **syms,
		  size_t *nr, char **plt_names);
/*
 * @p path as an ELF file (opened read-only, *@p fdp its fd), or NULL
 * with errno: open's, or SONDE_ERR_FORMAT when it is not ELF. Undo with
 * sym_elf_close().
 */
Elf *sym_elf_open(const char *path, int *fdp);
void sym_elf_close(Elf *elf, int fd);
/*
 * The object that is the recorded build @p want of @p path, for reading
 * its code (CFI): @p path when its id matches, else perf's copy in
 * @p buildid_dir; malloc'd, NULL when neither is at hand.
 */
char *sym_recorded_object(const char *path, const uint8_t *want, size_t wlen,
			  const char *buildid_dir);
struct sonde_symcache;
/*
 * sonde_symcache__vdso() for a recording whose vdso had the build id
 * @p bid: when this kernel's is another, perf's copy of the recorded one
 * (its build-id cache) gives the symbols, else none and a warning.
 */
struct sonde_dso *sym_symcache_vdso(struct sonde_symcache *c,
				    const uint8_t *bid, size_t bid_size);

/* Loaders; each fills dso->syms/nr/status and returns 0 or -errno. */
int sym_elf_load(struct sonde_dso *dso);
void sym_elf_unload(struct sonde_dso *dso);
void sym_elf_release_fds(struct sonde_dso *dso);
uint64_t sym_elf_map_to_vaddr(const struct sonde_dso *dso, uint64_t file_off);
int sym_kallsyms_load(struct sonde_dso *dso);
int sym_vdso_image(char **image, size_t *size);
int sym_perfmap_load(struct sonde_dso *dso);
/*
 * A JIT map file (perf's /tmp/perf-PID.map: "START SIZE name" lines, hex)
 * read when it is a regular file owned by the caller or root, not through
 * a symlink (else a warning naming the file and the owner). On success
 * *@p syms (*@p nr entries, finished) has names pointing into *@p text;
 * the caller frees both. *@p status: enum sonde_dso_status. 0 or -errno.
 */
int sym_perfmap_read(const char *path, char **text, struct sonde_symbol **syms,
		     size_t *nr, int *status);

/*
 * Whether a mapping of @p name (@p len bytes), when executable, is memory
 * no file backs (anonymous, /dev/zero, SysV shm, heap, stack): perf 6.1
 * looks its code up in the process's /tmp/perf-PID.map.
 */
bool sym_is_jit_memory(const char *name, size_t len);

/*
 * Text parsers, exposed for tests and fuzzing. @p buf (NUL-terminated,
 * @p len bytes before the NUL) is modified in place: names point into it.
 * On success *@p out is a malloc'd array of *@p nr symbols (already
 * finished: sorted, deduplicated, sized).
 * kallsyms: perf 6.1's table (the last of aliases, sizes up to the next
 * symbol but for a page across the vmlinux/module edge); -EACCES when no
 * function has an address (restricted).
 */
int sym_parse_kallsyms(char *buf, size_t len, struct sonde_symbol **out,
		       size_t *nr);
/*
 * The one kallsyms line reader under sym_parse_kallsyms() and the report
 * model's kernel table: the text symbols (t, T, w, W) of @p buf in file
 * order, unfinished (no sizes, repeats kept), each with its binding and
 * module. -EACCES as above.
 */
int sym_kallsyms_lines(char *buf, size_t len, struct sonde_symbol **out,
		       size_t *nr);
/* The largest kallsyms text read (a kernel's is ~10 MB). */
#define SYM_TEXT_MAX (64u << 20)
int sym_parse_perfmap(char *buf, size_t len, struct sonde_symbol **out,
		      size_t *nr);

/* Reads a whole (possibly /proc) file into a NUL-terminated malloc'd buf. */
int sym_read_file(const char *path, char **buf, size_t *len, size_t max);

/*
 * Shared with the report model (profile_dso.c). The build id of @p elf (note
 * sections, else PT_NOTE): its size, 0 if none.
 */
int sym_elf_build_id(Elf *elf, uint8_t *buf, size_t size);
/*
 * The separate debug file (with .symtab) of @p elf, the file @p file:
 * ROOT DEBUGDIR/.build-id/xx/yyyy.debug by @p bid, else by .gnu_debuglink
 * (DIR/name, DIR/.debug/name, ROOT DEBUGDIR/DIR/name; its build id, when
 * it has one, must be @p bid). NULL if none; else *@p fdp is its fd and
 * *@p found its malloc'd path.
 */
Elf *sym_find_debug_file(Elf *elf, const char *file, const char *root_dir,
			 const char *debug_dir, const uint8_t *bid,
			 size_t bid_size, int *fdp, char **found);
/*
 * The recorded object itself in perf's build-id cache @p buildid_dir
 * (DIR/.build-id/xx/yyyy/elf, or the older DIR/.build-id/xx/yyyy), its id
 * exactly @p want. Same returns as sym_find_debug_file().
 */
Elf *sym_find_in_buildid_cache(const char *buildid_dir, const uint8_t *want,
			       size_t want_size, int *fdp, char **found);
/*
 * perf's build-id cache: $PERF_BUILDID_DIR, else $HOME/.debug ("" without
 * either); malloc'd.
 */
char *sym_default_buildid_dir(void);

/* NT_GNU_BUILD_ID from a raw note blob (/sys/kernel/notes); 0 if none. */
int sym_notes_build_id(const uint8_t *buf, size_t len, uint8_t *out,
		       size_t size);

/*
 * Which kernel fits a recording (sym_kernel.c). The running kernel's
 * build id from @p notes_path (NULL: /sys/kernel/notes): its size, 0 if
 * none, -errno when the file cannot be read.
 */
int sym_kernel_build_id(const char *notes_path, uint8_t *out, size_t size);
/* Whether @p have is the id @p want (perf pads ids with zeros to 20). */
bool sym_same_build_id(const uint8_t *want, size_t wlen, const uint8_t *have,
		       size_t hlen);
/* @p id in lower-case hex into @p out (2 * @p n + 1 bytes). */
void sym_hex_id(const uint8_t *id, size_t n, char *out);
/*
 * Whether a recording ran under another kernel than the running one: its
 * kernel build id @p want (@p wlen 0: none recorded) differs, or without
 * ids its @p osrelease (NULL: unknown). Then the running kernel's
 * kallsyms would name its samples after the wrong functions; @p why gets
 * the reason.
 */
bool sym_kernel_other(const uint8_t *want, size_t wlen, const char *osrelease,
		      char *why, size_t size);
/*
 * The kallsyms copy perf record keeps of kernel @p want in its build-id
 * cache @p buildid_dir (DIR/.build-id/xx/yyyy/kallsyms): true and its
 * path in @p path when it is readable.
 */
bool sym_kernel_recorded_kallsyms(const char *buildid_dir, const uint8_t *want,
				  size_t wlen, char *path, size_t size);

/* Rust demanglers (sym_rust.c); NULL when @p name is not of that kind. */
char *sym_rust_legacy_demangle(const char *name);
char *sym_rust_v0_demangle(const char *name);
bool sym_is_rust_legacy(const char *name);

/*
 * @p name as perf 6.1 shows it: Rust legacy (without its hash) and v0 as
 * sonde_demangle() writes them, C++ demangled without parameters or
 * return type ("ns::f<int>"). A malloc'd string, or NULL when @p name is
 * not mangled or cannot be demangled. Thread-safe.
 */
char *sym_demangle_perf(const char *name);
/*
 * An object's symbol @p raw as perf 6.1 shows it, the one rule behind
 * sonde_dso__sym_name() and the report's names: sym_demangle_perf(), and
 * a PLT stub's target demangled before its "@plt"; a JIT map's (@p jit)
 * as written. A malloc'd string, or NULL when @p raw shows as it is.
 */
char *sym_shown_name(const char *raw, bool jit);

/*
 * An object's debug info for source lines and inline chains
 * (sym_dwarf.c), read from @p path (the object or its separate debug
 * file); with @p background the opening runs on a thread and the first
 * lookup waits for it. NULL only without memory; a file without debug
 * info answers nothing. One user at a time.
 */
struct sym_dwarf;
struct sym_dwarf *sym_dwarf_open(const char *path, bool background);
void sym_dwarf_close(struct sym_dwarf *d);
/*
 * "file:line" (file's base name) of ELF vaddr @p va into @p buf: its
 * length, -ENODATA without debug info, -ENOENT without a line there.
 */
int sym_dwarf_srcline(struct sym_dwarf *d, uint64_t va, char *buf, size_t size);
/*
 * Turns a function name of the debug info into the caller's string:
 * @p linkage says it is a (mangled) linkage name, else a plain DW_AT_name.
 * NULL skips the function.
 */
typedef const char *(*sym_dwarf_name_fn)(void *ctx, const char *raw, bool linkage);
/*
 * The functions whose code is at @p va, innermost first: each inlined
 * function, then the function it was inlined into, through @p fn; at
 * most @p max into @p names. Returns how many.
 */
int sym_dwarf_inlines(struct sym_dwarf *d, uint64_t va, const char **names,
		      int max, sym_dwarf_name_fn fn, void *ctx);

#endif /* SONDE_SYM_INTERNAL_H */
