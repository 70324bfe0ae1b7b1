// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The build ids of the objects a recording's samples hit, as perf record
 * writes them into HEADER_BUILD_ID (its perf_session__process_events() +
 * dsos__hit_all() at the end), and perf's build-id cache ($PERF_BUILDID_DIR
 * or ~/.debug) filled with those objects so that a report after a rebuild
 * still finds the recorded code. A writer's concern, beside the synthesis
 * of the side band; the cache's layout is sym's
 * (sonde_buildid_cache_add*()).
 *
 * perf reads the whole file again at the end to mark hits; here the
 * records are looked at on their way to the file: MMAP2 records (with
 * the build id the kernel read) give the mappings, and the ip of each
 * user sample marks the object mapped there. Processes that existed
 * before the recording (-p, -t, -a) add their /proc/PID/maps.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "sonde/symbols.h"
#include "sonde/synth.h"
#include "core_priv.h"

struct bid_file {
	char *path;
	uint8_t id[20];
	uint8_t id_len; /* 0: none in the MMAP2 record, read the file */
	bool hit;
};

struct bid_map {
	uint64_t start, end;
	uint32_t file;
};

struct sonde_buildid_hits {
	struct bid_file *files;
	size_t nr_files, cap_files;
	struct bid_map *maps;
	size_t nr_maps, cap_maps;
	bool sorted;
	/*
	 * Samples whose ip is in [same_lo, same_hi) hit what the last one
	 * hit, already marked: a busy thread's samples land in one mapping,
	 * and the search per sample cost a tenth of the reader's CPU at
	 * 50 kHz. Empty (lo == hi) after a mapping is added.
	 */
	uint64_t same_lo, same_hi;
	int ip_idx;   /* u64 index of the sample ip in a SAMPLE body, -1: none */
	bool all;     /* --buildid-all: every object mapped, hit or not */
	bool vdso_hit;
	void (*on_cache_error)(const char *path, int err, void *ctx);
	void *ctx;
};

struct sonde_buildid_hits *sonde_buildid_hits__new(const struct sonde_buildid_hits_opts *opts)
{
	uint64_t want = SONDE_PERF_SAMPLE_IP | SONDE_PERF_SAMPLE_IDENTIFIER;
	const uint64_t *st = OPTS_GET(opts, sample_types, NULL);
	size_t nr = st ? OPTS_GET(opts, nr_sample_types, 0) : 0;
	struct sonde_buildid_hits *b;

	if (!OPTS_VALID(opts, sonde_buildid_hits_opts))
		return lib_err_ptr(EINVAL);
	b = calloc(1, sizeof(*b));
	if (!b)
		return lib_err_ptr(ENOMEM);
	b->all = OPTS_GET(opts, all, false);
	b->on_cache_error = OPTS_GET(opts, on_cache_error, NULL);
	b->ctx = OPTS_GET(opts, ctx, NULL);
	/*
	 * The ip is the first u64 of a SAMPLE body, or the second after
	 * IDENTIFIER; events that disagree on that leave hits unmarked.
	 */
	b->ip_idx = nr ? (st[0] & SONDE_PERF_SAMPLE_IDENTIFIER) != 0 : -1;
	for (size_t i = 0; i < nr; i++)
		if ((st[i] & want) != ((st[0] & want) | SONDE_PERF_SAMPLE_IP))
			b->ip_idx = -1;
	return b;
}

void sonde_buildid_hits__free(struct sonde_buildid_hits *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->nr_files; i++)
		free(b->files[i].path);
	free(b->files);
	free(b->maps);
	free(b);
}

static int file_index(struct sonde_buildid_hits *b, const char *path, const uint8_t *id,
		      size_t id_len)
{
	struct bid_file *f;

	for (size_t i = b->nr_files; i-- > 0;) {
		f = &b->files[i];
		if (f->id_len == id_len && !memcmp(f->id, id, id_len) &&
		    !strcmp(f->path, path))
			return (int)i;
	}
	if (b->nr_files == b->cap_files) {
		size_t cap = b->cap_files ? 2 * b->cap_files : 64;

		f = realloc(b->files, cap * sizeof(*f));
		if (!f)
			return -1;
		b->files = f;
		b->cap_files = cap;
	}
	f = &b->files[b->nr_files];
	memset(f, 0, sizeof(*f));
	f->path = strdup(path);
	if (!f->path)
		return -1;
	memcpy(f->id, id, id_len);
	f->id_len = (uint8_t)id_len;
	f->hit = b->all;
	return (int)b->nr_files++;
}

static int add_map(struct sonde_buildid_hits *b, uint64_t start, uint64_t end, int fi)
{
	if (b->nr_maps == b->cap_maps) {
		size_t cap = b->cap_maps ? 2 * b->cap_maps : 256;
		struct bid_map *m = realloc(b->maps, cap * sizeof(*m));

		if (!m)
			return -ENOMEM;
		b->maps = m;
		b->cap_maps = cap;
	}
	b->maps[b->nr_maps++] = (struct bid_map){
		.start = start, .end = end, .file = (uint32_t)fi,
	};
	b->sorted = false;
	b->same_lo = b->same_hi = 0;
	return 0;
}

static int note_mmap2(struct sonde_buildid_hits *b, const struct sonde_perf_event_header *ev)
{
	/* pid, tid, addr, len, pgoff, then maj/min/ino/gen or the build id */
	const uint8_t *p = (const uint8_t *)(ev + 1);
	const char *name = (const char *)p + 64;
	size_t room = ev->size - sizeof(*ev) - 64;
	uint64_t addr, len;
	uint32_t prot;
	size_t id_len = 0;
	int fi;

	if (ev->size < sizeof(*ev) + 64 + 2 || !memchr(name, 0, room))
		return 0;
	memcpy(&addr, p + 8, 8);
	memcpy(&len, p + 16, 8);
	memcpy(&prot, p + 56, 4);
	if (!(prot & PROT_EXEC) || !len)
		return 0;
	if (!strcmp(name, "[vdso]")) {
		fi = -2;
	} else {
		if (name[0] != '/')
			return 0;
		if (ev->misc & SONDE_PERF_RECORD_MISC_MMAP_BUILD_ID) {
			id_len = p[32];
			if (id_len > 20)
				id_len = 0;
		}
		fi = file_index(b, name, p + 36, id_len);
		if (fi < 0)
			return -ENOMEM;
	}
	if (b->all && fi == -2)
		b->vdso_hit = true;
	return add_map(b, addr, addr + len, fi);
}

static int map_cmp(const void *x, const void *y)
{
	const struct bid_map *a = x, *c = y;

	return a->start < c->start ? -1 : a->start > c->start;
}

/*
 * The mapping at @ip of any process: address spaces are not told apart,
 * so an object mapped where another process had a hit may be listed too,
 * which costs a line and never hides one.
 */
static void note_sample(struct sonde_buildid_hits *b, const struct sonde_perf_event_header *ev)
{
	uint64_t ip;
	size_t lo = 0, hi;

	if ((ev->misc & SONDE_PERF_RECORD_MISC_CPUMODE_MASK) != SONDE_PERF_RECORD_MISC_USER ||
	    b->ip_idx < 0 || ev->size < sizeof(*ev) + 8 * ((size_t)b->ip_idx + 1) ||
	    !b->nr_maps)
		return;
	memcpy(&ip, (const uint8_t *)(ev + 1) + 8 * b->ip_idx, 8);
	if (ip >= b->same_lo && ip < b->same_hi)
		return;
	if (!b->sorted) {
		qsort(b->maps, b->nr_maps, sizeof(*b->maps), map_cmp);
		b->sorted = true;
	}
	hi = b->nr_maps;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (b->maps[mid].start <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* The latest-starting mappings below ip; a few back for overlaps. */
	for (size_t i = lo, k = 0; i-- > 0 && k < 4; k++) {
		const struct bid_map *m = &b->maps[i];

		if (ip >= m->end)
			continue;
		if (m->file == (uint32_t)-2)
			b->vdso_hit = true;
		else
			b->files[m->file].hit = true;
		/*
		 * The last mapping starting at or below ip: any ip from its
		 * start up to its end or the next start finds it again.
		 */
		if (i + 1 == lo) {
			b->same_lo = m->start;
			b->same_hi = lo < b->nr_maps && b->maps[lo].start < m->end ?
				     b->maps[lo].start : m->end;
		}
		break;
	}
}

int sonde_buildid_hits__note(struct sonde_buildid_hits *b,
			     const struct sonde_perf_event_header *ev)
{
	if (!b || !ev)
		return lib_err(EINVAL);
	if (ev->type == SONDE_PERF_RECORD_MMAP2) {
		int err = note_mmap2(b, ev);

		return err ? lib_err(-err) : 0;
	}
	if (ev->type == SONDE_PERF_RECORD_SAMPLE)
		note_sample(b, ev);
	return 0;
}

/*
 * The executable file mappings of a process that existed before the
 * recording (-p, -t, -a), whose MMAP2 records the library synthesized and
 * which do not pass through sonde_buildid_hits__note(). Their build ids
 * are read from the files at the end, as the synthesized records read
 * them; a deleted file has none to read.
 */
static int note_proc_map(const struct proc_map *m, void *arg)
{
	static const uint8_t none[1];
	struct sonde_buildid_hits *b = arg;
	int fi;

	if (!(m->prot & PROT_EXEC) || m->end <= m->start)
		return 0;
	if (!strcmp(m->name, "[vdso]")) {
		fi = -2;
	} else if (m->name[0] == '/' && !m->deleted) {
		fi = file_index(b, m->name, none, 0);
		if (fi < 0)
			return -ENOMEM;
	} else {
		return 0;
	}
	if (b->all && fi == -2)
		b->vdso_hit = true;
	return add_map(b, m->start, m->end, fi);
}

int sonde_buildid_hits__note_proc(struct sonde_buildid_hits *b, pid_t pid)
{
	int err;

	if (!b)
		return lib_err(EINVAL);
	err = proc_maps_each(pid, note_proc_map, b);
	return err ? lib_err(-err) : 0;
}

int sonde_buildid_hits__note_all_procs(struct sonde_buildid_hits *b)
{
	struct dirent *de;
	DIR *dir;

	if (!b)
		return lib_err(EINVAL);
	dir = opendir("/proc");
	if (!dir)
		return lib_err(errno);
	/* A process gone meanwhile has nothing left to hit. */
	while ((de = readdir(dir)))
		if (de->d_name[0] >= '1' && de->d_name[0] <= '9' &&
		    sonde_buildid_hits__note_proc(b, (pid_t)atoi(de->d_name)) == -ENOMEM) {
			closedir(dir);
			return lib_err(ENOMEM);
		}
	closedir(dir);
	return 0;
}

/* ---- perf's build-id cache: the library writes it ---- */

/*
 * The vdso's build id (this process's: the workload's kernel) into the
 * header and, with @p cache, its image into the build-id cache.
 */
static int add_vdso(struct sonde_perfdata_writer *w,
		     const struct sonde_buildid_cache_opts *cache)
{
	struct sonde_symcache *c = sonde_symcache__new(NULL);
	struct sonde_dso *d = c ? sonde_symcache__vdso(c) : NULL;
	uint8_t id[20];
	int n = d ? sonde_dso__build_id(d, id, sizeof(id)) : 0;

	sonde_dso__put(d);
	sonde_symcache__free(c);
	if (n <= 0)
		return 0;
	n = sonde_perfdata_writer__add_build_id(w, "[vdso]", id, (size_t)n, false);
	if (!n && cache)
		(void)sonde_buildid_cache_add_vdso(cache);
	return n;
}

int sonde_buildid_hits__write(struct sonde_buildid_hits *b, struct sonde_perfdata_writer *w,
			      const struct sonde_buildid_cache_opts *cache)
{
	uint8_t kid[20], id[20];
	int kl, ret = 0;

	if (!b || !w)
		return lib_err(EINVAL);
	/* The kernel first, as perf lists it. */
	kl = sonde_kernel_build_id(kid, sizeof(kid));
	if (kl > 0) {
		ret = sonde_perfdata_writer__add_build_id(w, "[kernel.kallsyms]", kid,
							  (size_t)kl, true);
		if (cache)
			(void)sonde_buildid_cache_add_kallsyms(cache);
	}
	for (size_t i = 0; i < b->nr_files; i++) {
		struct bid_file *f = &b->files[i];
		const uint8_t *want = f->id;
		size_t len = f->id_len;
		int err;

		if (!f->hit)
			continue;
		if (!len) { /* none in the MMAP2 record: the file's */
			err = sonde_elf_build_id(f->path, id, sizeof(id));
			if (err <= 0)
				continue;
			want = id;
			len = (size_t)err;
		}
		err = sonde_perfdata_writer__add_build_id(w, f->path, want, len, false);
		if (err && !ret)
			ret = err;
		if (!cache)
			continue;
		/* -ESTALE: the file changed during the recording, not cached. */
		err = sonde_buildid_cache_add(f->path, want, len, cache);
		if (err && err != -ESTALE && b->on_cache_error)
			b->on_cache_error(f->path, err, b->ctx);
	}
	if (b->vdso_hit && !ret)
		ret = add_vdso(w, cache);
	return ret ? lib_err(-ret) : 0;
}
