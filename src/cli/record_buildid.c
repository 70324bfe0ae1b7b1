// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde record: the build ids of the objects the samples hit, as perf
 * record writes them into HEADER_BUILD_ID, and perf's build-id cache
 * ($PERF_BUILDID_DIR or ~/.debug) filled with those objects so that a
 * report after a rebuild still finds the recorded code.
 *
 * perf reads the whole file again at the end to mark hits; here the
 * records are looked at on their way to the file: MMAP2 records (with
 * the build id the kernel read) give the mappings, and the ip of each
 * user sample marks the object mapped there. Processes that existed
 * before the recording (-p, -t, -a) add their /proc/PID/maps.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "record_cli.h"

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

struct rec_bids {
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
};

struct rec_bids *rec_bids_new(const struct rec_opts *o)
{
	struct rec_bids *b = calloc(1, sizeof(*b));
	uint64_t want = SONDE_PERF_SAMPLE_IP | SONDE_PERF_SAMPLE_IDENTIFIER;

	if (!b)
		return NULL;
	b->all = o->buildid_all;
	/*
	 * The ip is the first u64 of a SAMPLE body, or the second after
	 * IDENTIFIER; events that disagree on that leave hits unmarked.
	 */
	b->ip_idx = o->evs.nr && (o->evs.ev[0].attr.sample_type & SONDE_PERF_SAMPLE_IDENTIFIER);
	for (size_t i = 0; i < o->evs.nr; i++)
		if ((o->evs.ev[i].attr.sample_type & want) !=
		    ((o->evs.ev[0].attr.sample_type & want) | SONDE_PERF_SAMPLE_IP))
			b->ip_idx = -1;
	return b;
}

void rec_bids_free(struct rec_bids *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->nr_files; i++)
		free(b->files[i].path);
	free(b->files);
	free(b->maps);
	free(b);
}

static int file_index(struct rec_bids *b, const char *path, const uint8_t *id,
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

static void add_map(struct rec_bids *b, uint64_t start, uint64_t end, int fi)
{
	if (b->nr_maps == b->cap_maps) {
		size_t cap = b->cap_maps ? 2 * b->cap_maps : 256;
		struct bid_map *m = realloc(b->maps, cap * sizeof(*m));

		if (!m)
			return;
		b->maps = m;
		b->cap_maps = cap;
	}
	b->maps[b->nr_maps++] = (struct bid_map){
		.start = start, .end = end, .file = (uint32_t)fi,
	};
	b->sorted = false;
	b->same_lo = b->same_hi = 0;
}

static void note_mmap2(struct rec_bids *b, const struct sonde_perf_event_header *ev)
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
		return;
	memcpy(&addr, p + 8, 8);
	memcpy(&len, p + 16, 8);
	memcpy(&prot, p + 56, 4);
	if (!(prot & 4 /* PROT_EXEC */) || !len)
		return;
	if (!strcmp(name, "[vdso]")) {
		fi = -2;
	} else {
		if (name[0] != '/')
			return;
		if (ev->misc & SONDE_PERF_RECORD_MISC_MMAP_BUILD_ID) {
			id_len = p[32];
			if (id_len > 20)
				id_len = 0;
		}
		fi = file_index(b, name, p + 36, id_len);
		if (fi < 0)
			return;
	}
	if (b->all && fi == -2)
		b->vdso_hit = true;
	add_map(b, addr, addr + len, fi);
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
static void note_sample(struct rec_bids *b, const struct sonde_perf_event_header *ev)
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

void rec_bids_note(struct rec_bids *b, const struct sonde_perf_event_header *ev)
{
	if (!b)
		return;
	if (ev->type == SONDE_PERF_RECORD_MMAP2)
		note_mmap2(b, ev);
	else if (ev->type == SONDE_PERF_RECORD_SAMPLE)
		note_sample(b, ev);
}

/*
 * The executable file mappings of process @pid from /proc/PID/maps: what
 * the library synthesized for a process that existed before the
 * recording (-p, -t, -a), whose MMAP2 records do not pass through here.
 * The build ids are read from the files at the end, as the synthesized
 * records read them.
 */
void rec_bids_note_proc(struct rec_bids *b, pid_t pid)
{
	char path[64], line[4352], name[4096];
	unsigned long long start, end;
	char perms[8];
	FILE *f;

	if (!b)
		return;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		int fi;

		if (sscanf(line, "%llx-%llx %7s %*s %*s %*s %4095[^\n]", &start, &end, perms,
			   name) != 4 || perms[2] != 'x' || end <= start)
			continue;
		if (!strcmp(name, "[vdso]")) {
			fi = -2;
		} else if (name[0] == '/' && !strstr(name, " (deleted)")) {
			static const uint8_t none[1];

			fi = file_index(b, name, none, 0);
			if (fi < 0)
				continue;
		} else {
			continue;
		}
		if (b->all && fi == -2)
			b->vdso_hit = true;
		add_map(b, start, end, fi);
	}
	fclose(f);
}

/* rec_bids_note_proc() for every process (-a: synth_all wrote them all). */
void rec_bids_note_all(struct rec_bids *b)
{
	DIR *dir = b ? opendir("/proc") : NULL;
	struct dirent *de;

	while (dir && (de = readdir(dir)))
		if (de->d_name[0] >= '1' && de->d_name[0] <= '9')
			rec_bids_note_proc(b, (pid_t)atoi(de->d_name));
	if (dir)
		closedir(dir);
}

/* ---- perf's build-id cache ---- */

static void hex(const uint8_t *id, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
	out[2 * n] = 0;
}

/* mkdir -p of the directory part of @path (up to its last '/'). */
static int mkdir_parents(const char *path)
{
	char buf[PATH_MAX];
	char *s;

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return -ENAMETOOLONG;
	for (s = buf + 1; (s = strchr(s, '/')); s++) {
		*s = 0;
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	return 0;
}

/* Writes @len bytes at @data to a new file @to (mode @mode). */
static int write_new(const char *to, const void *data, size_t len, mode_t mode)
{
	char tmp[PATH_MAX];
	int fd, err = 0;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%d", to, (int)getpid()) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	if (fd < 0)
		return -errno;
	for (const char *p = data; len;) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? -errno : -EIO;
			break;
		}
		p += n;
		len -= (size_t)n;
	}
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, to))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}

static int read_all(const char *path, char **buf, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *b = malloc(cap);
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || !b) {
		int err = fd < 0 ? -errno : -ENOMEM;

		free(b);
		if (fd >= 0)
			close(fd);
		return err;
	}
	for (;;) {
		ssize_t got;

		if (n == cap) {
			char *nb = realloc(b, cap * 2);

			if (!nb) {
				free(b);
				close(fd);
				return -ENOMEM;
			}
			b = nb;
			cap *= 2;
		}
		got = read(fd, b + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		n += (size_t)got;
	}
	close(fd);
	*buf = b;
	*len = n;
	return 0;
}

/*
 * DIR/NAME/HEX/FILE holding the object (a hard link to @src when the file
 * system allows, else a copy; @data/@len instead of a file), and the link
 * DIR/.build-id/xx/rest -> ../../NAME/HEX perf looks objects up by.
 */
static int cache_add(const char *dir, const char *name, const char *hexid,
		     const char *file, const char *src, const void *data,
		     size_t len)
{
	char obj[PATH_MAX], link_path[PATH_MAX], target[PATH_MAX];
	char *buf = NULL;
	struct stat st;
	int err;

	if (name[0] == '/')
		name++; /* DIR/usr/lib/x.so/ID: the path below DIR */
	if (snprintf(obj, sizeof(obj), "%s/%s/%s/%s", dir, name, hexid, file) >= (int)sizeof(obj) ||
	    snprintf(link_path, sizeof(link_path), "%s/.build-id/%.2s/%s", dir, hexid,
		     hexid + 2) >= (int)sizeof(link_path) ||
	    snprintf(target, sizeof(target), "../../%s/%s", name, hexid) >= (int)sizeof(target))
		return -ENAMETOOLONG;
	err = mkdir_parents(obj);
	if (err)
		return err;
	if (lstat(obj, &st)) {
		if (src && !link(src, obj)) {
			err = 0;
		} else if (src) {
			struct stat sst;

			err = read_all(src, &buf, &len);
			if (!err)
				err = write_new(obj, buf, len,
						!stat(src, &sst) ? (sst.st_mode & 0777) : 0644);
			free(buf);
		} else {
			err = write_new(obj, data, len, 0644);
		}
		if (err)
			return err;
	}
	err = mkdir_parents(link_path);
	if (err)
		return err;
	if (symlink(target, link_path) && errno != EEXIST)
		return -errno;
	return 0;
}

/* $PERF_BUILDID_DIR, else $HOME/.debug (perf's order); NULL without either. */
static char *cache_dir(void)
{
	const char *env = getenv("PERF_BUILDID_DIR"), *home = getenv("HOME");
	char *dir = NULL;

	if (env && *env)
		return strdup(env);
	if (!home || !*home || asprintf(&dir, "%s/.debug", home) < 0)
		return NULL;
	return dir;
}

/* /proc/kallsyms, if it shows addresses (a hidden table is no copy). */
static void cache_kallsyms(const char *dir, const char *hexid)
{
	char *buf = NULL, *p, path[PATH_MAX];
	size_t len = 0;
	bool nonzero = false;

	/* Once per kernel build, as perf: reading kallsyms costs ~40 ms. */
	snprintf(path, sizeof(path), "%s/[kernel.kallsyms]/%s/kallsyms", dir, hexid);
	if (!access(path, F_OK) || read_all("/proc/kallsyms", &buf, &len))
		return;
	for (p = buf; p < buf + len && !nonzero;) {
		char *nl = memchr(p, '\n', (size_t)(buf + len - p));

		nonzero = strtoull(p, NULL, 16) != 0;
		if (!nl)
			break;
		p = nl + 1;
	}
	if (nonzero)
		(void)cache_add(dir, "[kernel.kallsyms]", hexid, "kallsyms", NULL, buf, len);
	free(buf);
}

/* This process's vdso image and build id (same kernel as the workload). */
static void add_vdso(struct sonde_perfdata_writer *w, const char *dir)
{
	struct sonde_symcache *c = sonde_symcache__new(NULL);
	struct sonde_dso *d = c ? sonde_symcache__vdso(c) : NULL;
	uint8_t id[20];
	char hexid[41], line[512];
	int n = d ? sonde_dso__build_id(d, id, sizeof(id)) : 0;
	unsigned long long start, end;
	FILE *f;

	sonde_dso__put(d);
	sonde_symcache__free(c);
	if (n <= 0)
		return;
	sonde_perfdata_writer__add_build_id(w, "[vdso]", id, (size_t)n, false);
	if (!dir || !(f = fopen("/proc/self/maps", "re")))
		return;
	hex(id, (size_t)n, hexid);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "[vdso]") &&
		    sscanf(line, "%llx-%llx", &start, &end) == 2 && end > start &&
		    end - start < (16u << 20)) {
			(void)cache_add(dir, "[vdso]", hexid, "vdso", NULL,
					(const void *)(uintptr_t)start, end - start);
			break;
		}
	fclose(f);
}

void rec_bids_finish(struct rec_bids *b, struct sonde_perfdata_writer *w,
		     bool fill_cache, bool verbose)
{
	char *dir = fill_cache ? cache_dir() : NULL;
	uint8_t kid[20], id[20];
	char hexid[41];
	int kl = sonde_kernel_build_id(kid, sizeof(kid));

	/* The kernel first, as perf lists it. */
	if (kl > 0) {
		sonde_perfdata_writer__add_build_id(w, "[kernel.kallsyms]", kid, (size_t)kl, true);
		if (dir) {
			hex(kid, (size_t)kl, hexid);
			cache_kallsyms(dir, hexid);
		}
	}
	for (size_t i = 0; b && i < b->nr_files; i++) {
		struct bid_file *f = &b->files[i];
		int n;

		if (!f->hit)
			continue;
		/* What is there now: cached only when it is what was mapped. */
		n = sonde_elf_build_id(f->path, id, sizeof(id));
		if (f->id_len) {
			sonde_perfdata_writer__add_build_id(w, f->path, f->id, f->id_len, false);
			if (n != f->id_len || memcmp(id, f->id, f->id_len))
				continue; /* changed during the recording */
		} else if (n > 0) {
			sonde_perfdata_writer__add_build_id(w, f->path, id, (size_t)n, false);
		} else {
			continue;
		}
		if (!dir)
			continue;
		hex(id, (size_t)n, hexid);
		n = cache_add(dir, f->path, hexid, "elf", f->path, NULL, 0);
		if (n && verbose)
			fprintf(stderr, "sonde record: cannot add %s to the build-id cache %s: %s\n",
				f->path, dir, strerror(-n));
	}
	if (b && b->vdso_hit)
		add_vdso(w, dir);
	free(dir);
}
