/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * Symbolization: turn sampled addresses into function names.
 *
 * A struct sonde_symcache owns every symbol table it has loaded. Tables are
 * reached through struct sonde_dso handles, one per object (an ELF file, the
 * kernel's /proc/kallsyms, a JIT's /tmp/perf-PID.map), shared and
 * refcounted: asking twice for the same object returns the same handle.
 * An ELF table is loaded lazily on the first lookup (so asking for a DSO
 * that is never hit costs one stat()), kept as an array sorted by address,
 * and searched by bisection; names point into the mmapped ELF string table.
 *
 * Addresses. ELF symbols are stored as ELF virtual addresses (st_value).
 * A sampled IP inside a mapping becomes an ELF vaddr with
 * sonde_dso__map_to_vaddr() (map address -> file offset -> vaddr through
 * the PT_LOAD headers, which handles PIE executables and shared libraries
 * alike). Kernel and JIT symbols are absolute addresses.
 *
 * Threads. Lookups (sonde_dso__find(), sonde_dso__map_to_vaddr(),
 * sonde_dso__sym_name()) and sonde_symcache__dso()/__put() may run
 * concurrently from any number of threads.
 */
#ifndef SONDE_SYMBOLS_H
#define SONDE_SYMBOLS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "sonde/common.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sonde_symcache;
struct sonde_dso;

enum sonde_sym_binding {
	SONDE_SYM_LOCAL = 0,
	SONDE_SYM_GLOBAL = 1,
	SONDE_SYM_WEAK = 2,
};

/* One function symbol. Valid as long as the DSO that returned it. */
struct sonde_symbol {
	uint64_t start;		/* ELF vaddr, or absolute (kernel, JIT) */
	uint64_t size;		/* from the table, or up to the next symbol */
	const char *name;	/* raw (mangled) name */
	const char *module;	/* kernel module name, NULL for vmlinux/ELF */
	uint8_t binding;	/* enum sonde_sym_binding */
	uint8_t size_synth;	/* 1 when size was synthesized */
	/* Room for fields to come, in what was padding: arrays keep their stride. */
	uint8_t reserved[6];
};
#ifndef __cplusplus
_Static_assert(sizeof(struct sonde_symbol) == 40, "sonde_symbol: ABI size");
#endif

enum sonde_dso_kind {
	SONDE_DSO_ELF = 0,
	SONDE_DSO_KERNEL = 1,	/* /proc/kallsyms (vmlinux + [modules]) */
	SONDE_DSO_JIT = 2,	/* /tmp/perf-PID.map */
};

/* Why a DSO has no symbols (sonde_dso__status()). */
enum sonde_dso_status {
	SONDE_DSO_OK = 0,
	SONDE_DSO_NOT_LOADED = 1,	/* lazy load has not happened yet */
	SONDE_DSO_MISSING = 2,		/* file not found/readable */
	SONDE_DSO_BAD_ELF = 3,		/* not an ELF file or corrupt */
	SONDE_DSO_BUILD_ID_MISMATCH = 4, /* file differs from the recording */
	SONDE_DSO_NO_SYMBOLS = 5,	/* ELF without .symtab/.dynsym */
	SONDE_DSO_RESTRICTED = 6,	/* kallsyms all-zero addresses */
	SONDE_DSO_REFUSED = 7,		/* perf map not owned by us or root */
};

struct sonde_symcache_opts {
	size_t sz;
	/* Prefix for every ELF path (a sysroot); NULL = none. */
	const char *root_dir;
	/* Debug-info root; NULL = "/usr/lib/debug". */
	const char *debug_dir;
	/* kallsyms file; NULL = "/proc/kallsyms". */
	const char *kallsyms_path;
	/* Directory of perf-PID.map files; NULL = "/tmp". */
	const char *jit_dir;
	/* Skip separate debug files (.build-id, .gnu_debuglink). */
	bool no_debug_files;
	/* Running kernel's notes; NULL = "/sys/kernel/notes". */
	const char *kernel_notes_path;
	/*
	 * perf's build-id cache, where `perf record` keeps copies of the
	 * recorded objects; NULL = "$HOME/.debug", "" = none.
	 */
	const char *buildid_dir;
	/*
	 * Directory (created 0700) where the kernel's symbol table made from
	 * /proc/kallsyms is kept, keyed by boot id, module list and user, so
	 * later runs map it instead of having the kernel generate the file
	 * and parsing it; NULL = no cache. Only for the default
	 * kallsyms_path. BPF programs and trampolines that appear after the
	 * table was made are missing from it. `sonde report` keeps the same
	 * file.
	 */
	const char *kallsyms_cache_dir;
	/*
	 * The recorded kernel's kallsyms (perf report --kallsyms): the
	 * kernel's symbols come from this file as it is, whatever kernel
	 * runs, before any other source; NULL = none.
	 */
	const char *recorded_kallsyms_path;
	/*
	 * The recorded kernel's ELF image (perf report --vmlinux): unless
	 * recorded_kallsyms_path is set, the kernel's symbols come from its
	 * .symtab (else .dynsym), names shown as an object's, moved to
	 * where the recording had _text (sonde_symcache__set_kernel_text());
	 * an image whose build id is not the recorded one
	 * (sonde_symcache__set_kernel_build_id()) is refused; NULL = none.
	 */
	const char *vmlinux_path;
	/*
	 * Directory (created 0700) where each object's debug info answers
	 * (sonde_dso__srcline(), sonde_dso__inlines()) are kept under its
	 * build id and where they were read from, so later runs need not
	 * open the debug info; NULL = in memory only. `sonde report` keeps
	 * the same files.
	 */
	const char *dwarf_cache_dir;
	size_t : 0;
};
#define sonde_symcache_opts__last_field dwarf_cache_dir

/**
 * @brief **sonde_symcache__new()** creates an empty symbol cache.
 * @param opts NULL or sonde_symcache_opts (paths are copied).
 * @return the cache (free with sonde_symcache__free()), or NULL + errno.
 */
SONDE_API struct sonde_symcache *
sonde_symcache__new(const struct sonde_symcache_opts *opts);

/**
 * @brief **sonde_symcache__free()** drops the cache's references; DSOs the
 * caller still holds stay valid until their last sonde_dso__put(). NULL ok.
 */
SONDE_API void sonde_symcache__free(struct sonde_symcache *cache);

/**
 * @brief **sonde_symcache__dso()** returns the DSO for the ELF file @p path,
 * taking a reference. The same path + build id returns the same handle.
 * Nothing is read until the first lookup. When @p build_id is given
 * (@p build_id_size > 0) and the file is gone or its NT_GNU_BUILD_ID
 * differs, the recorded object is looked for in perf's build-id cache
 * (opts.buildid_dir/.build-id/xx/yyyy[/elf]) and as
 * /usr/lib/debug/.build-id/xx/yyyy.debug; failing that the DSO stays empty
 * (status SONDE_DSO_BUILD_ID_MISMATCH or SONDE_DSO_MISSING) with a
 * warning, rather than give wrong names.
 * @return a DSO (release with sonde_dso__put()), or NULL + errno (ENOMEM,
 * EINVAL).
 */
SONDE_API struct sonde_dso *
sonde_symcache__dso(struct sonde_symcache *cache, const char *path,
		    const uint8_t *build_id, size_t build_id_size);

/**
 * @brief **sonde_symcache__kernel()** returns the kernel DSO, taking a
 * reference. Loaded lazily, from the one source that fits the recording,
 * in this order: opts.recorded_kallsyms_path; opts.vmlinux_path; when the
 * recording ran under another kernel (its build id, else its release,
 * differs from the running kernel's: see
 * sonde_symcache__set_kernel_build_id() and
 * sonde_symcache__set_kernel_release()), the kallsyms copy perf record
 * keeps of it in opts.buildid_dir, else none (status
 * SONDE_DSO_BUILD_ID_MISMATCH and a warning saying why); else this
 * kernel's kallsyms (opts.kallsyms_path, through
 * opts.kallsyms_cache_dir). When every address is zero (restricted), the
 * DSO is empty with status SONDE_DSO_RESTRICTED and a warning says which
 * setting to change. A source that cannot be read leaves it empty with a
 * warning (status SONDE_DSO_MISSING, or SONDE_DSO_BAD_ELF for a
 * vmlinux_path that is not ELF).
 * @return a DSO (release with sonde_dso__put()), or NULL + errno.
 */
SONDE_API struct sonde_dso *sonde_symcache__kernel(struct sonde_symcache *cache);

/**
 * @brief **sonde_symcache__set_kernel_build_id()** gives the build id the
 * recording saw for [kernel.kallsyms] (perf.data's BUILD_ID feature). Before
 * the kernel DSO loads, it is compared with the running kernel's
 * (opts.kernel_notes_path): on a mismatch the kernel symbols come from
 * the kallsyms copy perf record keeps of the recorded kernel in
 * opts.buildid_dir (.build-id/xx/yyyy/kallsyms), and without one the
 * kernel DSO stays empty with status SONDE_DSO_BUILD_ID_MISMATCH and a
 * warning, since kallsyms of another kernel would name the wrong functions.
 * @return 0, -EINVAL, or -EBUSY when the kernel DSO is already loaded.
 */
SONDE_API int sonde_symcache__set_kernel_build_id(struct sonde_symcache *cache,
						  const uint8_t *build_id,
						  size_t build_id_size);

/**
 * @brief **sonde_symcache__set_kernel_release()** gives the os release the
 * recording ran under (perf.data's OSRELEASE feature, as `uname -r`
 * prints it). When no kernel build id was given, a release other than the
 * running kernel's means another kernel, as a build id mismatch does in
 * sonde_symcache__set_kernel_build_id(). The string is copied.
 * @return 0, -EINVAL, -ENOMEM, or -EBUSY when the kernel DSO is already
 * loaded.
 */
SONDE_API int sonde_symcache__set_kernel_release(struct sonde_symcache *cache,
						 const char *osrelease);

/**
 * @brief **sonde_symcache__set_kernel_text()** gives where the recorded
 * kernel had _text (the start perf's [kernel.kallsyms]_text map was
 * recorded with, its pgoff): the symbols of opts.vmlinux_path are moved
 * by @p text minus the image's own _text (KASLR). 0 = as linked.
 * @return 0, -EINVAL, or -EBUSY when the kernel DSO is already loaded.
 */
SONDE_API int sonde_symcache__set_kernel_text(struct sonde_symcache *cache,
					      uint64_t text);

/**
 * @brief **sonde_symcache__vdso()** returns a DSO for the vdso, taking a
 * reference. Its symbols come from the vdso of the calling process, as
 * perf does: right when the report runs on the recording kernel.
 * @return a DSO (release with sonde_dso__put()), or NULL + errno (ENOENT
 * when the process has no vdso).
 */
SONDE_API struct sonde_dso *sonde_symcache__vdso(struct sonde_symcache *cache);

/**
 * @brief **sonde_symcache__jit()** returns the DSO of /tmp/perf-@p pid.map,
 * taking a reference. The file must be owned by the effective user or by
 * root (as perf requires); otherwise the DSO is empty with status
 * SONDE_DSO_REFUSED and a warning.
 * @return a DSO (release with sonde_dso__put()), or NULL + errno.
 */
SONDE_API struct sonde_dso *sonde_symcache__jit(struct sonde_symcache *cache,
						pid_t pid);

/* A mapping as PERF_RECORD_MMAP2 describes it, for sonde_symcache__resolve(). */
struct sonde_sym_map {
	const char *path;	/* file name; NULL or "" when anonymous */
	uint64_t start;		/* mapping start address */
	uint64_t pgoff;		/* file offset of start */
	const uint8_t *build_id; /* recorded build id, or NULL */
	size_t build_id_size;
	/* Room for fields to come: leave it zero. */
	uint64_t reserved[2];
};

/* What sonde_symcache__resolve() found. */
struct sonde_sym_result {
	struct sonde_dso *dso;	/* borrowed: valid while the cache lives */
	const struct sonde_symbol *sym;	/* NULL when nothing matched */
	uint64_t addr;		/* address looked up in dso */
	uint64_t offset;	/* addr - sym->start */
	/* Room for fields to come; the library zeroes it. */
	uint64_t reserved[2];
};

/**
 * @brief **sonde_symcache__resolve()** applies the whole lookup policy to
 * one address @p ip of process @p pid that fell into @p map: kernel
 * addresses (top address bit set, whatever the map: module maps name .ko
 * files) and paths starting with "[kernel" go to kallsyms; "[vdso]" to sonde_symcache__vdso();
 * anonymous, "//anon", "[anon:...]",
 * "/memfd:" and "/tmp/perf-N.map" mappings go to the JIT map of @p pid;
 * other absolute paths are ELF files, translated with
 * sonde_dso__map_to_vaddr(). Costs a cache lookup (a lock and a hash):
 * callers resolving many samples should keep the DSO of each mapping and
 * call sonde_dso__find() directly.
 * @return 0 with @p res->sym set, -ENOENT when no symbol matched
 * (@p res->dso may still be set: say "[unknown]" in that DSO), or -errno.
 */
SONDE_API int sonde_symcache__resolve(struct sonde_symcache *cache, pid_t pid,
				      const struct sonde_sym_map *map,
				      uint64_t ip,
				      struct sonde_sym_result *res);

/** @brief **sonde_dso__get()** takes another reference. @return @p dso. */
SONDE_API struct sonde_dso *sonde_dso__get(struct sonde_dso *dso);

/** @brief **sonde_dso__put()** drops a reference. NULL ok. */
SONDE_API void sonde_dso__put(struct sonde_dso *dso);

/**
 * @brief **sonde_dso__load()** loads the symbol table now (lookups do it on
 * demand). @return the number of symbols (>= 0), or -errno
 * (-ENOENT missing file, -SONDE_ERR_FORMAT corrupt, -ESTALE build-id
 * mismatch, -EACCES restricted kallsyms or refused perf map).
 */
SONDE_API int sonde_dso__load(struct sonde_dso *dso);

/**
 * @brief **sonde_dso__prefetch()** starts loading the table in a background
 * thread (which holds its own reference), so that e.g. kallsyms loads while
 * the caller parses its input; the first lookup waits for it if needed.
 * @return 0, or -errno when no thread could be started (lookups then load
 * on demand as usual).
 */
SONDE_API int sonde_dso__prefetch(struct sonde_dso *dso);

/**
 * @brief **sonde_dso__find()** finds the function containing @p addr
 * (an ELF vaddr for ELF DSOs, see sonde_dso__map_to_vaddr(); absolute for
 * kernel and JIT DSOs). Binary search; thread-safe.
 * @param offset if not NULL, receives @p addr - symbol start.
 * @return the symbol, or NULL (errno ENOENT) when no symbol covers @p addr.
 */
SONDE_API const struct sonde_symbol *
sonde_dso__find(struct sonde_dso *dso, uint64_t addr, uint64_t *offset);

/**
 * @brief **sonde_dso__map_to_vaddr()** converts a runtime address @p ip in
 * a mapping of this file (mapped at @p map_start from file offset
 * @p map_pgoff, as in PERF_RECORD_MMAP2) into the ELF virtual address that
 * sonde_dso__find() expects: file offset = ip - map_start + map_pgoff, then
 * through the PT_LOAD header containing that offset. Kernel/JIT DSOs
 * return @p ip unchanged.
 * @return the vaddr; when no PT_LOAD covers the offset (or the file could
 * not be read), the file offset itself.
 */
SONDE_API uint64_t sonde_dso__map_to_vaddr(struct sonde_dso *dso,
					   uint64_t map_start,
					   uint64_t map_pgoff, uint64_t ip);

/**
 * @brief **sonde_dso__offset_to_vaddr()** converts a file offset of this
 * ELF file into its virtual address through the PT_LOAD headers (the
 * second half of sonde_dso__map_to_vaddr(), for callers that already hold
 * ip - map_start + map_pgoff). Kernel/JIT DSOs return @p file_off.
 * @return the vaddr, or @p file_off when no PT_LOAD covers it.
 */
SONDE_API uint64_t sonde_dso__offset_to_vaddr(struct sonde_dso *dso,
					      uint64_t file_off);

/**
 * @brief **sonde_dso__sym_name()** returns @p sym's name as perf 6.1
 * shows it, the name `sonde report` prints: an ELF object's demangled
 * (C++ without parameters, "ns::f<int>"; Rust legacy and v0; a PLT
 * stub's target before its "@plt"), a versioned name as it is
 * ("memcpy@GLIBC_2.2.5"); a kallsyms or JIT map name as written; computed
 * once and cached. Among aliases at one address the table keeps perf's
 * choice: in an ELF table a sized one, not weak, global, fewer leading
 * underscores, the longer name, the first; in kallsyms the last line.
 * Thread-safe. @return a string valid as long as @p dso.
 */
SONDE_API const char *sonde_dso__sym_name(struct sonde_dso *dso,
					  const struct sonde_symbol *sym);

/**
 * @brief **sonde_dso__vaddr_to_offset()** the file offset of ELF virtual
 * address @p vaddr, through the PT_LOAD header whose file image holds it
 * (the inverse of sonde_dso__offset_to_vaddr()).
 * @return 0 with *@p offset set, -ENOENT when no PT_LOAD covers it,
 * -EOPNOTSUPP for kernel/JIT DSOs, or the load's -errno.
 */
SONDE_API int sonde_dso__vaddr_to_offset(struct sonde_dso *dso, uint64_t vaddr,
					 uint64_t *offset);

/**
 * @brief **sonde_dso__symbol_offset()** the file offset of @p symbol's
 * start (its raw or its shown name; a global wins over a local of the same
 * name): what a uprobe's probe_offset takes.
 * @return 0 with *@p offset set, -ENOENT (no such symbol or file),
 * -ENODATA (no symbol table), or -errno.
 */
SONDE_API int sonde_dso__symbol_offset(struct sonde_dso *dso,
				       const char *symbol, uint64_t *offset);

/**
 * @brief **sonde_symcache__probe_offset()** sonde_dso__symbol_offset() on
 * the ELF file @p path, through @p cache (a struct sonde_symcache *, or
 * NULL for a private one used once). Its signature is
 * sonde_evspec_opts.probe_resolve's, so that "uprobe:PATH:SYMBOL" specs
 * parse with it. Thread-safe when @p cache is.
 * @return 0 or -errno as sonde_dso__symbol_offset().
 */
SONDE_API int sonde_symcache__probe_offset(const char *path, const char *symbol,
					   uint64_t *offset, void *cache);

/** @brief **sonde_dso__path()** returns the path the DSO was asked for. */
SONDE_API const char *sonde_dso__path(const struct sonde_dso *dso);

/** @brief **sonde_dso__kind()** returns its enum sonde_dso_kind. */
SONDE_API int sonde_dso__kind(const struct sonde_dso *dso);

/**
 * @brief **sonde_dso__status()** returns its enum sonde_dso_status (loads
 * nothing; SONDE_DSO_NOT_LOADED before the first lookup).
 */
SONDE_API int sonde_dso__status(const struct sonde_dso *dso);

/**
 * @brief **sonde_dso__symbols()** gives the loaded table (loading it if
 * needed): sorted by start, one symbol per start address.
 * @return the number of symbols; *@p syms points to the array.
 */
SONDE_API size_t sonde_dso__symbols(struct sonde_dso *dso,
				    const struct sonde_symbol **syms);

/**
 * @brief **sonde_dso__build_id()** copies the file's NT_GNU_BUILD_ID (up to
 * @p size bytes) into @p buf, loading the DSO if needed.
 * @return its length, 0 when it has none, or -errno.
 */
SONDE_API int sonde_dso__build_id(struct sonde_dso *dso, uint8_t *buf,
				  size_t size);

/**
 * @brief **sonde_dso__symfile()** returns the file the symbols came from
 * (the ELF itself or its separate debug file), NULL before loading or when
 * there is none.
 */
SONDE_API const char *sonde_dso__symfile(const struct sonde_dso *dso);

/**
 * @brief **sonde_dso__read()** copies up to @p len bytes of an ELF DSO's
 * file, from file offset @p offset, into @p buf: the recorded build's
 * bytes (the file, or perf's copy of it when the file changed), loading
 * the DSO if needed. What an instruction walk over its code reads.
 * Thread-safe.
 * @return the bytes copied (fewer where the file ends, 0 past it), or
 * -errno: -EOPNOTSUPP for kernel and JIT DSOs, -ESTALE when the file is
 * another build and no copy is at hand, the load's error (-ENOENT ...).
 */
SONDE_API ssize_t sonde_dso__read(struct sonde_dso *dso, uint64_t offset, void *buf,
				  size_t len);

/**
 * @brief **sonde_dso__elf_class()**: 64 or 32 for an ELF DSO of that
 * class (for x86 objects, whether their code is 64-bit), loading it if
 * needed. @return the class, or -errno as sonde_dso__read().
 */
SONDE_API int sonde_dso__elf_class(struct sonde_dso *dso);

/**
 * @brief **sonde_elf_build_id()** reads the NT_GNU_BUILD_ID note of the ELF
 * file @p path into @p buf (up to @p size bytes).
 * @return its length, 0 if the file has none, or -errno.
 */
SONDE_API int sonde_elf_build_id(const char *path, uint8_t *buf, size_t size);

/* Where and what sonde_buildid_cache_add*() read and write. */
struct sonde_buildid_cache_opts {
	size_t sz;
	/*
	 * perf's build-id cache directory; NULL = $PERF_BUILDID_DIR, else
	 * $HOME/.debug (perf's order). Created when missing.
	 */
	const char *dir;
	/* sonde_buildid_cache_add_kallsyms(): NULL = "/proc/kallsyms". */
	const char *kallsyms_path;
	/*
	 * sonde_buildid_cache_add_kallsyms(): the kernel's notes, its build
	 * id; NULL = "/sys/kernel/notes".
	 */
	const char *kernel_notes_path;
	size_t : 0;
};
#define sonde_buildid_cache_opts__last_field kernel_notes_path

/**
 * @brief **sonde_buildid_cache_add()** adds the ELF file @p path to perf's
 * build-id cache as perf record does: DIR/PATH/HEX/elf (a hard link when
 * the file system allows, else a copy with the file's mode) and the link
 * DIR/.build-id/xx/rest -> ../../PATH/HEX, where HEX is the file's
 * build id. That is where sonde_symcache__dso() and perf report find the
 * recorded build after the file changes or goes. An entry already there
 * is kept. Thread-safe; nothing is retained.
 * @param path an absolute path without "." or ".." components.
 * @param build_id the id the recording saw (perf.data pads ids with zeros
 * to 20 bytes), which the file must still have; NULL (@p build_id_size 0)
 * takes the file's own.
 * @param opts NULL or sonde_buildid_cache_opts (only .dir applies).
 * @return 0, or -errno: -EINVAL (bad path or opts), -ENOENT (no such
 * file, or no cache directory: neither $PERF_BUILDID_DIR nor $HOME),
 * -SONDE_ERR_FORMAT (not ELF), -ENODATA (the file has no build id),
 * -ESTALE (the file is another build now), or what writing failed with.
 */
SONDE_API int sonde_buildid_cache_add(const char *path, const uint8_t *build_id,
				      size_t build_id_size,
				      const struct sonde_buildid_cache_opts *opts);

/**
 * @brief **sonde_buildid_cache_add_kallsyms()** adds the running kernel's
 * kallsyms (opts.kallsyms_path, under the build id of
 * opts.kernel_notes_path) to perf's build-id cache as perf record does:
 * DIR/[kernel.kallsyms]/HEX/kallsyms and its .build-id link, which a
 * report of a recording from this kernel reads when it runs under
 * another one (sonde_symcache__set_kernel_build_id()). Read once per
 * kernel build: a copy already there is kept. Thread-safe.
 * @return 0, or -errno: -ENODATA (no kernel build id), -EACCES (every
 * address is zero: a hidden table is no copy), -ENOENT (no cache
 * directory, no kallsyms file), or what reading or writing failed with.
 */
SONDE_API int
sonde_buildid_cache_add_kallsyms(const struct sonde_buildid_cache_opts *opts);

/**
 * @brief **sonde_buildid_cache_add_vdso()** adds the calling process's
 * vdso image (the kernel's, as sonde_symcache__vdso() reads it) to perf's
 * build-id cache as perf record does: DIR/[vdso]/HEX/vdso and its
 * .build-id link, where a report under another kernel finds the
 * recorded vdso. A copy already there is kept. Thread-safe.
 * @param opts NULL or sonde_buildid_cache_opts (only .dir applies).
 * @return 0, or -errno: -ENOENT (no vdso, or no cache directory),
 * -ENODATA (the vdso has no build id), or what writing failed with.
 */
SONDE_API int
sonde_buildid_cache_add_vdso(const struct sonde_buildid_cache_opts *opts);

/**
 * @brief **sonde_dso__srcline()** writes the source line of ELF virtual
 * address @p vaddr of an ELF DSO as "file:line" (the file's base name, as
 * perf's srcline shows it) into @p buf (@p size bytes, NUL-terminated, cut
 * to fit). Each answer is kept with the DSO (and, with
 * opts.dwarf_cache_dir, for later runs): the debug info (the separate
 * debug file when there is one, see sonde_dso__symfile()) is opened only
 * for a question no earlier one answered, and then kept with the DSO.
 * Thread-safe: lookups of one DSO take turns.
 * @return the length written, -ENOENT when no line is known for @p vaddr,
 * -ENODATA when the object has no debug info (a kept answer then says
 * -ENOENT), -ESTALE when the file is another build than the recorded one
 * (sonde_symcache__dso()'s build id), -EINVAL for a NULL argument or a DSO
 * that is not ELF, or the -errno of loading the DSO.
 */
SONDE_API int sonde_dso__srcline(struct sonde_dso *dso, uint64_t vaddr,
				 char *buf, size_t size);

/**
 * @brief **sonde_dso__inlines()** the functions whose code is at ELF
 * virtual address @p vaddr, innermost first: each function inlined there,
 * then the function it was inlined into, ending with the enclosing
 * function, named as perf shows them (demangled, without parameters).
 * Up to @p max (at most 32) of them go into @p names as malloc'd strings
 * the caller frees. Answers are kept as sonde_dso__srcline()'s; thread-safe
 * as it.
 * @return how many, 0 without debug info there, or -errno (as
 * sonde_dso__srcline()).
 */
SONDE_API int sonde_dso__inlines(struct sonde_dso *dso, uint64_t vaddr,
				 char **names, int max);

/**
 * @brief **sonde_demangle()** demangles a C++ (Itanium, through libstdc++'s
 * __cxa_demangle, loaded on first use), Rust legacy (hash dropped, as perf
 * does) or Rust v0 symbol.
 * @return a malloc'd string the caller frees, or NULL (errno EINVAL) when
 * @p name is not mangled or cannot be demangled.
 */
SONDE_API char *sonde_demangle(const char *name);

#ifdef __cplusplus
}
#endif
#endif /* SONDE_SYMBOLS_H */
