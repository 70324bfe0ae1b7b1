/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * The core layer's private header, for every layer of libsonde: logging,
 * opts validation, error returns, the CPU and thread maps' layout, bounded
 * sysfs reads, the one hash table, and big arrays in huge pages.
 */
#ifndef SONDE_CORE_PRIV_H
#define SONDE_CORE_PRIV_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include "sonde/common.h"
#include "sonde/cpumap.h"
#include "sonde/threadmap.h"

__attribute__((format(printf, 2, 3)))
void lib_log(enum sonde_print_level level, const char *fmt, ...);

#define pr_warn(fmt, ...) lib_log(SONDE_WARN, "libsonde: " fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...) lib_log(SONDE_INFO, "libsonde: " fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...) lib_log(SONDE_DEBUG, "libsonde: " fmt, ##__VA_ARGS__)

/* Return -err with errno set too: the one error convention of the API. */
static inline int lib_err(int err)
{
	if (err < 0)
		err = -err;
	errno = err;
	return -err;
}

/* NULL with errno set, for pointer-returning functions. */
static inline void *lib_err_ptr(int err)
{
	errno = err < 0 ? -err : err;
	return NULL;
}

/*
 * Opts validation in the libbpf manner: sz must cover at least the first
 * field; bytes past the fields this library knows must be zero.
 */
bool lib_opts_valid(const void *opts, size_t user_sz, size_t known_sz,
		    const char *type_name);

#define OPTS_SZ(opts) ((opts) ? (opts)->sz : 0)
#define OPTS_KNOWN_SZ(type) \
	(offsetof(struct type, type##__last_field) + \
	 sizeof(((struct type *)0)->type##__last_field))
#define OPTS_VALID(opts, type) \
	(!(opts) || lib_opts_valid(opts, (opts)->sz, OPTS_KNOWN_SZ(type), #type))
#define OPTS_HAS(opts, field) \
	((opts) && (opts)->sz >= offsetof(__typeof__(*(opts)), field) + \
			       sizeof((opts)->field))
#define OPTS_GET(opts, field, fallback) \
	(OPTS_HAS(opts, field) ? (opts)->field : (fallback))

/*
 * Test hooks standing in for the architecture: the rdpmc reader the real
 * seam table has (NULL: none, as on every non-x86 build), and back.
 */
void sys_set_arch_rdpmc(uint64_t (*rdpmc)(unsigned int counter));
void sys_restore_arch_rdpmc(void);

/*
 * Counts the tables sonde_sys_set_ops() installed: a layer that caches what
 * it learnt about the kernel behind the seam forgets it when this changes
 * (the core layer cannot call up into the layers that learn).
 */
unsigned sys_ops_generation(void);

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- CPU and thread maps: private layout, and test hooks ---- */

struct sonde_cpu_map {
	int nr;
	int cpu[];
};

struct sonde_thread_map {
	int nr;
	pid_t pid[];
};

/* Where /proc lives, for thread listing ("/proc"). */
void threadmap_set_proc_root(const char *path);

/* ---- /proc/PID/maps (proc_maps.c) ---- */

/* One line of /proc/PID/maps. */
struct proc_map {
	uint64_t start, end, pgoff, ino;
	uint32_t maj, min;
	uint32_t prot;  /* PROT_READ | PROT_WRITE | PROT_EXEC */
	bool shared;    /* 's', else 'p' (private) */
	bool deleted;   /* the name ends in " (deleted)", which it keeps */
	char perms[5];  /* as printed: "r-xp" */
	/* The path, "[vdso]", "[heap]"...; "" when anonymous. In the line. */
	const char *name;
};

/* A line this long holds no mapping the kernel prints (a path is < 4096). */
#define PROC_MAPS_LINE_MAX 8192

/*
 * Parses one line, cutting its newline in place; @m->name points into
 * @line. 0, or -EINVAL with *@col (may be NULL) the 0-based column of the
 * first field that is not what the kernel prints.
 */
int proc_maps_parse_line(char *line, struct proc_map *m, size_t *col);

/* Called per mapping; a nonzero return stops the reading and is returned. */
typedef int (*proc_maps_fn)(const struct proc_map *m, void *ctx);

/*
 * @fn for each mapping of @f in order; malformed or overlong lines are
 * skipped (a debug message gives line and column). 0 or @fn's return.
 */
int proc_maps_read(FILE *f, proc_maps_fn fn, void *ctx);

/*
 * proc_maps_read() of /proc/@pid/maps (0: /proc/self/maps); -errno when it
 * cannot be opened.
 */
int proc_maps_each(pid_t pid, proc_maps_fn fn, void *ctx);

/* ---- bounded reads of the small text files sysfs and tracefs are made of ---- */

/*
 * Reads at most @cap - 1 bytes of @dirfd/@name (dirfd may be AT_FDCWD) into
 * @buf and terminates it. Returns the length or -errno; -EFBIG when the file
 * is larger than @cap - 1 (sysfs attributes never are: refuse, do not cut).
 */
long sysfs_read_at(int dirfd, const char *name, char *buf, size_t cap);

/* Strips leading and trailing whitespace in place; returns @s moved. */
char *sysfs_trim(char *s);

/*
 * The sysfs to read: @root, else $SONDE_SYSFS_ROOT, else (either NULL or
 * empty) /sys. Every sysfs path of the library starts here.
 */
const char *sysfs_root(const char *root);

/* Directory holding the PMUs for @root (NULL: $SONDE_SYSFS_ROOT or /sys). */
int sysfs_devices_dir(const char *root, char *buf, size_t size);

/* ---- big tables on huge pages (hugemem.c) ---- */

/*
 * Zeroed memory for big tables that are filled soon after: from
 * HUGEMEM_MIN up, whole 2 MB pages at a 2 MB boundary, advised
 * MADV_HUGEPAGE, so that where transparent huge pages are on ("always"
 * or "madvise") the kernel faults 2 MB at once instead of 512 small
 * pages (each fault costs microseconds, more on a VM). Smaller blocks,
 * and every block in a sanitizer build, come from calloc. Free with
 * hugemem_free() and the size asked for. NULL with errno ENOMEM.
 * Room never touched costs no memory, but the first touch of a 2 MB
 * page zeroes all of it: for tables that fill most of what they ask.
 */
#define HUGEMEM_MIN ((size_t)1 << 20)
void *hugemem_alloc(size_t n);
void hugemem_free(void *p, size_t n);
/*
 * Faults in the pages of [@p, @p + @n) at once (one system call, no trap
 * each), for a table about to be touched all over: a fresh page read
 * before it is written faults twice (the zero page, then its own).
 * Best effort; nothing below 64 kB.
 */
void hugemem_populate(void *p, size_t n);

/*
 * A bump allocator over hugemem blocks for objects that live as long
 * as it does: a first block of 256 kB, then whole huge pages, each block
 * twice the last up to 64 MB. A zeroed struct is an empty arena.
 */
struct hugearena_chunk;
struct hugearena {
	struct hugearena_chunk *chunk; /* the newest */
	size_t next;		       /* the size of the next block (0: the first's) */
};

void hugearena_init(struct hugearena *a);
/*
 * @n bytes, 16-byte aligned; zeroed unless the arena was reset since.
 * NULL with errno ENOMEM.
 */
void *hugearena_alloc(struct hugearena *a, size_t n);
/* Forgets every allocation, keeping the newest block (not zeroed again). */
void hugearena_reset(struct hugearena *a);
/* Frees every block: an empty arena again. */
void hugearena_free(struct hugearena *a);

/* ---- the one hash table ---- */

/*
 * The one hash table of libsonde (private). Open addressing with linear
 * probing over a power-of-two slot array that doubles at 3/4 load. A slot
 * holds the caller's 64-bit hash and a pointer to the caller's entry, so
 * entries live wherever the caller keeps them (an arena, an array) and the
 * table never allocates per entry; growing needs no rehash callback.
 *
 * The caller supplies the hash and, per lookup, the equality: either as a
 * callback (hashtab_find) or inline, by walking the slots whose stored hash
 * matches (hashtab_probe_*), which keeps hot compares free of calls.
 * Entries are never NULL. Not thread safe: one table, one thread at a time.
 */

struct hashtab_slot {
	uint64_t hash;
	void *val; /* NULL: empty */
};

struct hashtab {
	struct hashtab_slot *slots; /* NULL until the first insert */
	size_t mask;		    /* slots - 1 */
	size_t count;
	unsigned shift;		    /* 64 - log2(slots): home = fib(hash) >> shift */
};

/* Does @val (an entry in the table) hold @key? */
typedef bool (*hashtab_eq_fn)(const void *val, const void *key, void *ctx);

/* Mixes @v into @h; a building block for callers' hash functions. */
static inline uint64_t hashtab_mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	h *= 0xff51afd7ed558ccdULL;
	return h ^ (h >> 32);
}

/*
 * FNV-1a (64-bit), continued from @h over @n bytes; start from
 * FNV1A64_INIT. The one byte hash of the library: the hash table's keys,
 * the cache files' names (so it must not change between builds) and the
 * flame graphs' colours.
 */
#define FNV1A64_INIT 0xcbf29ce484222325ULL
#define FNV1A64_PRIME 0x100000001b3ULL
static inline uint64_t fnv1a64(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * FNV1A64_PRIME;
	return h;
}

/* FNV-1a over @n bytes (strings by their length: interning). */
uint64_t hashtab_bytes_hash(const void *p, size_t n);

/*
 * Fibonacci hashing takes the slot from the product's high bits, so hashes
 * that differ only in their high bits (addresses) still spread.
 */
static inline size_t hashtab_home(const struct hashtab *t, uint64_t hash)
{
	return (size_t)((hash * 0x9e3779b97f4a7c15ULL) >> t->shift) & t->mask;
}

/* An empty table (so is a zeroed struct); nothing to free until the first insert. */
static inline void hashtab_init(struct hashtab *t)
{
	t->slots = NULL;
	t->mask = 0;
	t->count = 0;
	t->shift = 64;
}

/* Frees the slot array (not the entries) and leaves an empty table. */
void hashtab_free(struct hashtab *t);

/* Forgets every entry but keeps the slot array, for a table refilled to its old size. */
void hashtab_clear(struct hashtab *t);

static inline size_t hashtab_count(const struct hashtab *t)
{
	return t->count;
}

/* Room for @n entries without growing. 0, or -ENOMEM (table unchanged). */
int hashtab_reserve(struct hashtab *t, size_t n);

/*
 * Adds @val (not NULL) under @hash; does not look for an equal entry first.
 * 0, or -ENOMEM when the table could not grow (@val is not added).
 */
int hashtab_insert(struct hashtab *t, uint64_t hash, void *val);

/* The entry under @hash for which @eq(entry, @key, @ctx) holds, or NULL. */
void *hashtab_find(const struct hashtab *t, uint64_t hash, hashtab_eq_fn eq, const void *key,
		   void *ctx);

/* Removes and returns the entry hashtab_find() would return, or NULL. */
void *hashtab_remove(struct hashtab *t, uint64_t hash, hashtab_eq_fn eq, const void *key,
		     void *ctx);

/*
 * Inline lookups: the entries stored under @hash, in probe order.
 *
 *	struct hashtab_probe p;
 *	for (e = hashtab_probe_first(t, h, &p); e; e = hashtab_probe_next(t, &p))
 *		if (same(e, key)) return e;
 *
 * The table must not change during the walk.
 */
struct hashtab_probe {
	uint64_t hash;
	size_t pos;
};

static inline void *hashtab_probe_next(const struct hashtab *t, struct hashtab_probe *p)
{
	if (!t->slots)
		return NULL;
	for (;;) {
		const struct hashtab_slot *s = &t->slots[p->pos];

		p->pos = (p->pos + 1) & t->mask;
		if (!s->val)
			return NULL;
		if (s->hash == p->hash)
			return s->val;
	}
}

static inline void *hashtab_probe_first(const struct hashtab *t, uint64_t hash,
					struct hashtab_probe *p)
{
	p->hash = hash;
	p->pos = t->slots ? hashtab_home(t, hash) : 0;
	return hashtab_probe_next(t, p);
}

/*
 * Every entry, in slot order (not insertion order: sort when order shows).
 * Start with *@pos = 0; NULL at the end. The table must not change.
 */
static inline void *hashtab_next(const struct hashtab *t, size_t *pos)
{
	if (!t->slots)
		return NULL;
	for (; *pos <= t->mask; (*pos)++)
		if (t->slots[*pos].val)
			return t->slots[(*pos)++].val;
	return NULL;
}

/* ---- growable big arrays in huge pages (hugemem.c) ---- */

/*
 * A growable block for arrays of millions of entries (a profile's
 * timeline, an export's per-thread sample order): its own anonymous
 * mapping, 2 MB aligned and advised for transparent huge pages from 2 MB
 * on, so a few faults fill it instead of one per 4 kB page. Growing keeps
 * the contents (the pages move, nothing is copied); new bytes read as
 * zero. A zeroed struct is empty. Not for small arrays: 64 kB at least.
 */
struct bigalloc {
	void *p;
	size_t size; /* bytes mapped at p */
};

/* Room for at least @need bytes (at least twice the old size). 0 or -ENOMEM (unchanged). */
int bigalloc_reserve(struct bigalloc *b, size_t need);
/* Unmaps @b and leaves it empty. */
void bigalloc_free(struct bigalloc *b);

#endif /* SONDE_CORE_PRIV_H */
