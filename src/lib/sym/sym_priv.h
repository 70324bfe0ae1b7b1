/* SPDX-License-Identifier: LGPL-2.1-only */
/* The sym layer's private declarations, shared by its files only. */
#ifndef SONDE_SYM_PRIV_H
#define SONDE_SYM_PRIV_H

#include <gelf.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sonde/symbols.h"

/* Private layout of the symbolizer (include/sonde/symbols.h). */
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
	/*
	 * The kernel's: names point into its table (sym_priv.h); owned.
	 * Searched in place; syms is its copy, made on the first public
	 * lookup that needs one (sym_kernel_syms()).
	 */
	struct sym_ktab *ktab;
	atomic_bool ksyms_made;
	bool ktab_elf;			/* from a vmlinux: names shown as an object's */
	/* The kernel's sources and the recording's (sym_kernel.c); NULL: none. */
	char *rec_kallsyms_path;
	char *vmlinux_path;
	char *osrelease;
	uint64_t ktext;			/* where the recorded kernel had _text */
	/* In-memory ELF image (the vdso) instead of a file; owned. */
	char *mem;
	size_t mem_size;

	/*
	 * Debug info for srclines and inlines, and its one answer cache
	 * (sym_srcline.c), under dwarf_lock.
	 */
	pthread_mutex_t dwarf_lock;
	struct sym_dwarf *dwarf;
	bool dwarf_tried;
	int dwarf_verdict;		/* whether it may answer, - 1; 0: not known */
	char *dwc_dir;			/* where answers persist; NULL: memory only */
	struct dwc_store *dwc;
	bool dwc_tried;
	struct sym_str *dwc_names;	/* this run's answer names, owned */
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
 * sym_elf_build_id() of the ELF image @p image (@p len bytes in memory);
 * -SONDE_ERR_FORMAT when it is not ELF.
 */
int sym_mem_build_id(char *image, size_t len, uint8_t *buf, size_t size);
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
 * The kernel DSO's table searched in place, for the report model, which
 * names only the entries its samples land on (a copy of ~100k entries
 * would cost more than its whole lookup work): the number of entries
 * (loading the DSO, or waiting for its prefetch), the index of the one
 * covering @p addr (SIZE_MAX: none) and entry @p i, its name raw.
 * sym_kernel_elf_names(): whether those names come from an ELF image (a
 * vmlinux) and show as an object's (sym_shown_name()), not as written.
 */
size_t sym_kernel_nr(struct sonde_dso *dso);
size_t sym_kernel_find(struct sonde_dso *dso, uint64_t addr);
void sym_kernel_get(struct sonde_dso *dso, size_t i, struct sonde_symbol *out);
bool sym_kernel_elf_names(struct sonde_dso *dso);
/* The loaded kernel DSO's syms, copied from its table once. 0 or -errno. */
int sym_kernel_syms(struct sonde_dso *dso);

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

/*
 * An ELF DSO's debug info answers through its answer cache
 * (sym_srcline.c), for sonde_dso__srcline()/__inlines() and the report
 * model alike; the returned names live as long as the DSO. The source
 * line of ELF vaddr @p va into *@p out: 0, -ENOENT when none is known
 * there (also, once asked, when the object has no debug info), -ENODATA
 * without debug info, -ESTALE for an object of another build than the
 * recorded one, -EINVAL for a DSO that is not ELF, or the load's -errno.
 */
int sym_dso_srcline(struct sonde_dso *dso, uint64_t va, const char **out);
/*
 * The functions at @p va, innermost first (sonde_dso__inlines()): at most
 * @p max (and DWC_MAX_NAMES) into @p names; how many, or -errno as
 * sym_dso_srcline().
 */
int sym_dso_inlines(struct sonde_dso *dso, uint64_t va, const char **names, int max);
/*
 * Opens the debug info on a thread now, unless the cache answers the
 * inline question about @p va (then it may never be needed). Returns
 * whether asking again is useless (opened, or nothing to open).
 */
bool sym_dso_prefetch_dwarf(struct sonde_dso *dso, uint64_t va);
/* Writes the answers to their cache file, frees them and the debug info. */
void sym_dso_dwarf_free(struct sonde_dso *dso);

/*
 * PLT entries as symbols ("name@plt"), decoded from the relocations that
 * fill their GOT slots, for the symbolizer's ELF tables (sym_elf.c).
 */
struct sym_plt_entry {
	uint64_t start;		/* ELF vaddr */
	uint64_t size;
	const char *name;	/* .dynsym name (raw, may be mangled) or "" */
	uint64_t addend;	/* for unnamed (IRELATIVE) slots */
	uint64_t slot;		/* the GOT slot the stub jumps through */
};

/*
 * The PLT stubs of @p elf (the runtime file, not a debug file: those have
 * .plt as NOBITS): .plt entries after its header and, on x86, the .plt.sec
 * stubs that IBT binaries call instead. Entry i belongs to the relocation
 * with the i-th lowest GOT slot. Names point into @p elf's string table.
 * @return the number of entries, *@p out malloc'd (NULL when 0), or -errno.
 */
int sym_plt_entries(Elf *elf, struct sym_plt_entry **out);

/*
 * Writes the display name of @p e ("name@plt", or "*ABS*+0x<addend>@plt"
 * for a slot with no symbol) into @p buf, with @p name replacing e->name
 * when not NULL (a demangled form). Returns snprintf's result.
 */
int sym_plt_name(const struct sym_plt_entry *e, const char *name, char *buf,
		 size_t size);

/*
 * The kernel's function table (sym_ktab.c), for the public symbolizer's
 * kernel object and the report model alike: kallsyms (or a vmlinux's
 * symbols) finished once, in one format that is both what lookups search
 * and the per-user cache file (sym_priv.h). A cached table is mapped and
 * searched in place: nothing is parsed or copied, and a name is read only
 * when a lookup lands on it.
 */
struct sym_ktab;

/*
 * A table of @p nr finished symbols (sorted, one per start, sized), its
 * names and modules copied. 0 or -errno.
 */
int sym_ktab_new(const struct sonde_symbol *syms, size_t nr,
		 struct sym_ktab **out);

/*
 * The kallsyms text @p buf (@p len bytes, NUL-terminated, cut up in
 * place) finished as perf 6.1 does (sym_parse_kallsyms()); when no
 * function has an address, an empty table that says it was hidden
 * (sym_ktab_hidden()). 0 or -errno.
 */
int sym_ktab_parse(char *buf, size_t len, struct sym_ktab **out);

/* The kallsyms text file @p path, as sym_ktab_parse(); else -errno. */
int sym_ktab_read(const char *path, struct sym_ktab **out);

/*
 * This boot's kallsyms @p path (/proc/kallsyms) through the cache in
 * @p cache_dir (NULL or "": none): the cached table when it is valid and
 * ours, else @p path read and the table stored for the next run (never an
 * empty or hidden one). Returns as sym_ktab_read().
 */
int sym_ktab_this_boot(const char *cache_dir, const char *path,
		       struct sym_ktab **out);

/*
 * The kernel ELF image @p path (a vmlinux): its function symbols (.symtab,
 * else .dynsym) moved by @p text - its _text when @p text is set (where
 * the recorded kernel had _text: KASLR). With @p wlen its build id must
 * be @p want, else -ESTALE; either way @p have (SYM_BUILD_ID_MAX bytes)
 * gets the id it has, *@p hlen its size (0: none). -errno when it cannot
 * be opened, -SONDE_ERR_FORMAT when it is not ELF, -ENODATA without
 * (readable) function symbols.
 */
int sym_ktab_vmlinux(const char *path, const uint8_t *want, size_t wlen,
		     uint64_t text, uint8_t *have, size_t *hlen,
		     struct sym_ktab **out);

void sym_ktab_free(struct sym_ktab *kt);
size_t sym_ktab_nr(const struct sym_ktab *kt);
/* Whether @p kt is a cache file's mapping (it was not read from text). */
bool sym_ktab_cached(const struct sym_ktab *kt);
/* Whether @p kt is empty because kallsyms showed only zero addresses. */
bool sym_ktab_hidden(const struct sym_ktab *kt);

/* sym_table_index() on @p kt: the index covering @p addr, or SIZE_MAX. */
size_t sym_ktab_find(const struct sym_ktab *kt, uint64_t addr);
/* Entry @p i (< sym_ktab_nr()); its names point into @p kt. */
void sym_ktab_get(const struct sym_ktab *kt, size_t i, struct sonde_symbol *out);

/*
 * The format, exposed for the cache's tests and fuzzing: @p syms (a
 * finished table) encoded into *@p buf (malloc'd, *@p len bytes); and
 * the checks a buffer passes before anything reads it: 0 and *@p nr, or
 * -SONDE_ERR_FORMAT (errno set) for anything malformed.
 */
int sym_ktab_encode(const struct sonde_symbol *syms, size_t nr, void **buf,
		    size_t *len);
int sym_ktab_check(const void *buf, size_t len, size_t *nr);
/*
 * A checked copy of @p buf (@p len bytes) as a table: 0, or the
 * sym_ktab_check() error.
 */
int sym_ktab_load(const void *buf, size_t len, struct sym_ktab **out);

/*
 * The per-user cache files: the one module under the kernel table
 * (ksymtab, sym_ktab.c) and the DWARF answers (dwcache_store.c).
 * Generating /proc/kallsyms costs the kernel tens of milliseconds per read (it formats ~100k
 * lines); a private copy keyed by what moves kernel symbols skips that on
 * later runs. Same trade-off as perf's kallsyms copy in ~/.debug.
 */
/*
 * Where the inputs of the cache key come from. NULL members take the
 * /proc defaults (boot id, /proc/modules, kptr_restrict); tests point them
 * elsewhere.
 */
struct kcache_src {
	const char *boot_id;
	const char *modules;
	const char *kptr_restrict;
};

/*
 * The cache file name in @p dir for @p tag (one per format: the kernel
 * table's is "ksymtab") keyed by boot id, module list, kptr_restrict and euid.
 * Returns false when there is no boot id to key on or the name is too long.
 */
bool kcache_path(const char *dir, const char *tag,
		 const struct kcache_src *src, char *out, size_t size);

/*
 * The default cache directory: $XDG_CACHE_HOME/sonde (when absolute), else
 * $HOME/.cache/sonde. False when neither is set.
 */
bool kcache_default_dir(char *out, size_t size);

/*
 * Maps cache file @p path read-only, but only a regular file (no
 * symlink) owned by the effective uid with no group or other permission
 * bits (else -EPERM), under @p max bytes (else -EFBIG), not empty (else
 * -ENODATA); undo with kcache_unmap(). Our writers replace files by
 * rename, never in place, so a mapping stays whole.
 */
int kcache_map(const char *path, size_t max, const void **map, size_t *len);
void kcache_unmap(const void *map, size_t len);

/* mkdir -p of @p dir, its missing components made with @p mode. 0 or -errno. */
int sym_make_dirs(const char *dir, mode_t mode);
/* All @p len bytes of @p buf to @p fd (EINTR retried). 0 or -errno (-EIO: no progress). */
int sym_write_all(int fd, const void *buf, size_t len);

/*
 * Writes @p buf as @p path atomically (a 0600 temporary file renamed over
 * it), creating @p dir 0700 when missing. A directory that is not ours or
 * is open to others is refused (-EPERM). 0 or -errno.
 */
int kcache_write(const char *dir, const char *path, const void *buf,
		 size_t len);

/*
 * Removes the other files of this user named "<@p tag>-...-<euid>" in
 * @p dir, all but @p path: each key change would otherwise leave
 * megabytes behind.
 */
void kcache_remove_stale(const char *dir, const char *path, const char *tag);

/*
 * kcache_write() with the stale-file rule explicit: after the rename,
 * other files of this user named "<@p stale>-...-<euid>" are removed
 * (none when @p stale is NULL). kcache_write() takes the part of the file
 * name before its first '-' as @p stale.
 */
int kcache_write_as(const char *dir, const char *path, const void *buf,
		    size_t len, const char *stale);

/*
 * Both cache table formats (the kernel table in sym_ktab.c, the DWARF
 * answers in dwcache.c) start alike: u8 magic[8], u64 nr entries, u64
 * names_len, then nr fixed-size entries and names_len bytes of names,
 * filling the file.
 */
#define KCACHE_TAB_HDR 24u
void kcache_tab_header(uint8_t *buf, const char *magic, uint64_t nr,
		       uint64_t names_len);
/*
 * Checks @p magic and that header, entries of @p ent bytes and names add
 * up to exactly @p len (without overflowing): 0 with *@p nr and
 * *@p names_len, or -SONDE_ERR_FORMAT (errno set).
 */
int kcache_tab_header_check(const uint8_t *buf, size_t len, const char *magic,
			    size_t ent, uint64_t *nr, uint64_t *names_len);

/*
 * The DWARF answer cache file format: what the report model asked an
 * object's debug info about its addresses (the functions inlined there,
 * the source line), kept in the per-user cache directory (sym_priv.h) under
 * the object's build id, so that a later run need not open, and
 * decompress, the debug info at all (glibc's costs ~30 ms of zlib).
 */
/* What was asked about an address. */
enum dwc_kind {
	DWC_INLINES = 0, /* sym_dso_inlines(): names, innermost first */
	DWC_SRCLINE = 1, /* sym_dso_srcline(): one "file:line", or none */
};

/* Most names one answer may hold: sym_dso_inlines() keeps them all. */
#define DWC_MAX_NAMES 32

/* One answer: @p nr names for (@p vaddr, @p kind). */
struct dwc_ans {
	uint64_t vaddr; /* ELF virtual address in the object */
	uint8_t kind;
	uint8_t nr;
	const char *names[DWC_MAX_NAMES];
};

/*
 * Encodes @p nr answers, sorted by (vaddr, kind) without repeats, into a
 * malloc'd *@p buf. 0 or -errno (-EINVAL for unsorted input).
 */
int dwc_encode(const struct dwc_ans *ans, size_t nr, void **buf, size_t *len);

/*
 * Validates @p buf (magic, exact sizes, strictly sorted keys, known kinds,
 * every name inside the buffer and NUL-terminated): 0 and *@p nr answers,
 * or -SONDE_ERR_FORMAT (errno set). Only then may dwc_get() and
 * dwc_find() read it; names point into @p buf.
 */
int dwc_check(const void *buf, size_t len, size_t *nr);
void dwc_get(const void *buf, size_t i, struct dwc_ans *out);

/* Index of the answer for (@p vaddr, @p kind) in a checked @p buf, or -1. */
long dwc_find(const void *buf, size_t nr, uint64_t vaddr, int kind);

/*
 * The answers of one object across runs (dwcache_store.c), in the cache
 * directory @p dir under the build id of @p obj (its debug info read from
 * @p dbg, NULL: @p obj itself); in memory only without @p dir or when
 * @p obj has no build id. NULL without memory. Not thread-safe: one user.
 */
struct dwc_store;
struct dwc_store *dwc_store_open(const char *dir, const char *obj,
				 const char *dbg);
/* Where dwc_store_lookup() found an answer. */
enum dwc_found {
	DWC_MISS = 0,
	DWC_FROM_RUN = 1,  /* added this run: names are the caller's own */
	DWC_FROM_FILE = 2, /* from the file: names point into its mapping */
};
/*
 * The answer for (@p vaddr, @p kind) into *@p out (NULL: only whether
 * there is one). Names from the file live until dwc_store_close().
 */
int dwc_store_lookup(struct dwc_store *st, uint64_t vaddr, int kind,
		     struct dwc_ans *out);
/*
 * Records what the debug info answered on a miss; @p names are kept as
 * pointers and must live until dwc_store_close().
 */
void dwc_store_add(struct dwc_store *st, uint64_t vaddr, int kind,
		   const char *const *names, int nr);
/* Merges this run's answers into the file and frees @p st (NULL: no-op). */
void dwc_store_close(struct dwc_store *st, const char *obj);

#endif /* SONDE_SYM_PRIV_H */
