// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Synthesized side-band records for what already runs when sonde record
 * attaches (-p, -a), or when a profile is fed from live rings: the kernel
 * only reports COMM/FORK/MMAP for what happens after the events are
 * opened, so without these the samples of a running process would not
 * symbolize. Built from /proc like perf does, and handed to a sink: a
 * writer (encoded) or a callback (a profile's).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "sonde/synth.h"
#include "sonde/record.h"
#include "sonde/symbols.h"
#include "sonde/sys.h"
#include "core_priv.h"
#include "perfdata_priv.h"
#include "sym_priv.h"

struct synth {
	/* The sink: a writer, or else a callback. */
	struct sonde_perfdata_writer *w;
	struct sonde_record_fmt fmt; /* of the event carrying the side-band */
	perfdata_synth_fn fn;
	void *arg;
	bool data_maps;
	bool build_ids;
	uint64_t timeout_ns; /* 0: none */
	void (*on_timeout)(pid_t pid, void *ctx);
	void *ctx;
	struct hashtab bids; /* of struct bid_cache, by path: one read per file */
};

/*
 * To a writer: encodes @rec with the library's record codec (sample_id
 * trailer included, as the first event's format wants it) and writes it.
 */
static int emit(struct synth *s, struct sonde_record *rec)
{
	unsigned char buf[8192];
	int n;

	if (!s->w)
		return s->fn(rec, s->arg);
	/* The trailer stays zero (time 0 sorts before real records), as perf. */
	n = sonde_record__encode(&s->fmt, rec, buf, sizeof(buf));
	if (n < 0)
		return n == -E2BIG || n == -ENOSPC ? 0 : n; /* skip, not fatal */
	return sonde_perfdata_writer__write(s->w, (const void *)buf);
}

/*
 * The kernel text's bounds from /proc/kallsyms (the sym layer's one line
 * reader): the start of _text (else _stext, named in *@ref) and _etext.
 * False when kallsyms cannot be read or hides the addresses.
 */
static bool kernel_text(const char **ref, uint64_t *start, uint64_t *end)
{
	struct sonde_symbol *syms = NULL;
	uint64_t text = 0, stext = 0;
	size_t len, nr = 0;
	char *buf;

	*end = 0;
	if (sym_read_file("/proc/kallsyms", &buf, &len, SYM_TEXT_MAX))
		return false;
	if (!sym_kallsyms_lines(buf, len, &syms, &nr)) {
		for (size_t i = 0; i < nr; i++) {
			const char *n = syms[i].name;

			if (!text && !strcmp(n, "_text"))
				text = syms[i].start;
			else if (!stext && !strcmp(n, "_stext"))
				stext = syms[i].start;
			else if (!*end && !strcmp(n, "_etext"))
				*end = syms[i].start;
		}
	}
	free(syms);
	free(buf);
	*ref = text ? "_text" : "_stext";
	*start = text ? text : stext;
	return *start != 0;
}

static int synth_kernel(struct synth *s)
{
	struct sonde_record rec = { .type = SONDE_PERF_RECORD_MMAP,
				    .misc = SONDE_PERF_RECORD_MISC_KERNEL };
	const char *ref;
	uint64_t start, end;
	char name[64];

	/* No kallsyms, or kptr_restrict hides it: kernel samples stay unresolved. */
	if (!kernel_text(&ref, &start, &end))
		return 0;
	if (end <= start)
		end = ~0ULL;
	snprintf(name, sizeof(name), "[kernel.kallsyms]%s", ref);
	rec.mmap.pid = (uint32_t)-1; /* the kernel */
	rec.mmap.tid = 0;
	rec.mmap.addr = start;
	rec.mmap.len = end - start;
	rec.mmap.pgoff = start; /* carries the reference symbol's address */
	rec.mmap.filename = name;
	return emit(s, &rec);
}

static int read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	if (!fgets(buf, (int)size, f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

static int synth_comm(struct synth *s, pid_t pid, pid_t tid,
		      const char *comm)
{
	struct sonde_record rec = { .type = SONDE_PERF_RECORD_COMM };

	rec.comm.pid = (uint32_t)pid;
	rec.comm.tid = (uint32_t)tid;
	rec.comm.comm = comm;
	return emit(s, &rec);
}

static int synth_fork(struct synth *s, pid_t pid, pid_t tid)
{
	struct sonde_record rec = { .type = SONDE_PERF_RECORD_FORK };

	/* Threads are taken to be spawned by the main thread, as perf does. */
	rec.task.pid = (uint32_t)pid;
	rec.task.ppid = (uint32_t)pid;
	rec.task.tid = (uint32_t)tid;
	rec.task.ptid = (uint32_t)pid;
	return emit(s, &rec);
}

/* ---- build ids, read once per path and call ---- */

struct bid_cache {
	unsigned char id[20];
	size_t len;
	char path[];
};

static bool bid_is(const void *val, const void *key, void *ctx)
{
	(void)ctx;
	return !strcmp(((const struct bid_cache *)val)->path, key);
}

static size_t build_id_of(struct synth *s, const char *path, unsigned char id[20])
{
	size_t plen = strlen(path);
	uint64_t h = hashtab_bytes_hash(path, plen);
	struct bid_cache *n = hashtab_find(&s->bids, h, bid_is, path, NULL);
	int l;

	if (!n) {
		n = calloc(1, sizeof(*n) + plen + 1);
		if (!n)
			return 0;
		memcpy(n->path, path, plen + 1);
		l = sonde_elf_build_id(path, n->id, sizeof(n->id));
		n->len = l > 0 ? (size_t)l : 0;
		if (hashtab_insert(&s->bids, h, n)) {
			free(n);
			return 0;
		}
	}
	memcpy(id, n->id, 20);
	return n->len;
}

static void synth_done(struct synth *s)
{
	size_t pos = 0;
	void *v;

	while ((v = hashtab_next(&s->bids, &pos)))
		free(v);
	hashtab_free(&s->bids);
}

struct synth_maps {
	struct synth *s;
	pid_t pid;
	uint64_t (*clock_ns)(void);
	uint64_t t0;
	bool late;
	int err; /* emit()'s, which stopped the reading */
};

static int synth_map(const struct proc_map *pm, void *arg)
{
	struct synth_maps *sm = arg;
	struct synth *s = sm->s;
	const char *name = pm->name;
	struct sonde_record rec = { .type = SONDE_PERF_RECORD_MMAP2,
				    .misc = SONDE_PERF_RECORD_MISC_USER };
	struct sonde_record_mmap *m = &rec.mmap;
	bool exec = pm->prot & PROT_EXEC;
	size_t bl;

	sm->late = s->timeout_ns && sm->clock_ns() - sm->t0 > s->timeout_ns;
	if (sm->late) {
		rec.misc |= SONDE_PERF_RECORD_MISC_PROC_MAP_PARSE_TIMEOUT;
		if (s->on_timeout)
			s->on_timeout(sm->pid, s->ctx);
	} else if (!exec && (!s->data_maps || name[0] != '/')) {
		return 0;
	}
	if (!*name)
		name = "//anon";
	if (!exec && !sm->late)
		rec.misc |= SONDE_PERF_RECORD_MISC_MMAP_DATA;
	m->pid = m->tid = (uint32_t)sm->pid;
	m->addr = pm->start;
	m->len = pm->end - pm->start;
	m->pgoff = pm->pgoff;
	bl = s->build_ids && name[0] == '/' ? build_id_of(s, name, m->build_id) : 0;
	if (bl) {
		rec.misc |= SONDE_PERF_RECORD_MISC_MMAP_BUILD_ID;
		m->build_id_size = (uint8_t)bl;
	} else {
		m->maj = pm->maj;
		m->min = pm->min;
		m->ino = pm->ino;
	}
	m->prot = pm->prot;
	m->flags = pm->shared ? MAP_SHARED : MAP_PRIVATE;
	m->filename = name;
	sm->err = emit(s, &rec);
	/* An error, or late: this record was the last. */
	return sm->err || sm->late;
}

/*
 * One MMAP2 per executable mapping of /proc/PID/maps. With a time limit,
 * as perf 6.1's perf_event__synthesize_mmap_events(): once it is past
 * (checked after each line read), that line's record is written marked
 * PROC_MAP_PARSE_TIMEOUT whatever it maps, and reading stops.
 */
static int synth_maps(struct synth *s, pid_t pid)
{
	struct synth_maps sm = { .s = s, .pid = pid,
				 .clock_ns = sonde_sys_ops()->clock_ns };

	sm.t0 = s->timeout_ns ? sm.clock_ns() : 0;
	/* Not readable: gone already, or a kernel thread; nothing to write. */
	(void)proc_maps_each(pid, synth_map, &sm);
	return sm.err;
}

static int synth_process(struct synth *s, pid_t pid)
{
	char path[96], comm[64];
	struct dirent *d;
	DIR *dir;
	int err;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return 0; /* exited meanwhile */
	while ((d = readdir(dir))) {
		pid_t tid;

		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		tid = (pid_t)atoi(d->d_name);
		snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)pid,
			 (int)tid);
		if (read_line(path, comm, sizeof(comm)))
			continue;
		if (tid != pid && (err = synth_fork(s, pid, tid)))
			goto out;
		if ((err = synth_comm(s, pid, tid, comm)))
			goto out;
	}
	err = synth_maps(s, pid);
out:
	closedir(dir);
	return err;
}

static int synth_all(struct synth *s)
{
	DIR *dir = opendir("/proc");
	struct dirent *d;
	int err = 0;

	if (!dir)
		return -errno;
	while (!err && (d = readdir(dir)))
		if (isdigit((unsigned char)d->d_name[0]))
			err = synth_process(s, (pid_t)atoi(d->d_name));
	closedir(dir);
	return err;
}

/* The running kernel's build id, from the ELF notes in /sys/kernel/notes. */
int sonde_kernel_build_id(uint8_t *id, size_t size)
{
	int n = sym_kernel_build_id(NULL, id, size);

	return n > 0 ? n : 0;
}

static void synth_opts(struct synth *s, const struct sonde_synth_opts *opts)
{
	s->data_maps = OPTS_GET(opts, data_maps, false);
	s->build_ids = !OPTS_GET(opts, no_build_ids, false);
	s->timeout_ns = OPTS_GET(opts, proc_map_timeout_ns, 0);
	s->on_timeout = OPTS_GET(opts, on_timeout, NULL);
	s->ctx = OPTS_GET(opts, ctx, NULL);
}

static int synth_init(struct synth *s, struct sonde_perfdata_writer *w,
		      const struct sonde_perf_event_attr *attr,
		      const struct sonde_synth_opts *opts)
{
	if (!w || !attr || !OPTS_VALID(opts, sonde_synth_opts))
		return -EINVAL;
	memset(s, 0, sizeof(*s));
	hashtab_init(&s->bids);
	s->w = w;
	synth_opts(s, opts);
	return sonde_record_fmt__from_attr(&s->fmt, attr);
}

int sonde_perfdata_writer__synth_kernel(struct sonde_perfdata_writer *w,
					const struct sonde_perf_event_attr *attr)
{
	struct synth s;
	int err = synth_init(&s, w, attr, NULL);

	if (err)
		return lib_err(err);
	err = synth_kernel(&s);
	synth_done(&s);
	return err;
}

int sonde_perfdata_writer__synth_process(struct sonde_perfdata_writer *w,
					 const struct sonde_perf_event_attr *attr,
					 pid_t pid, const struct sonde_synth_opts *opts)
{
	struct synth s;
	int err = synth_init(&s, w, attr, opts);

	if (err)
		return lib_err(err);
	err = synth_process(&s, pid);
	synth_done(&s);
	return err;
}

int sonde_perfdata_writer__synth_all(struct sonde_perfdata_writer *w,
				     const struct sonde_perf_event_attr *attr,
				     const struct sonde_synth_opts *opts)
{
	struct synth s;
	int err = synth_init(&s, w, attr, opts);

	if (err)
		return lib_err(err);
	err = synth_all(&s);
	synth_done(&s);
	return err;
}

int perfdata_synth(enum perfdata_synth_what what, pid_t pid, const struct sonde_synth_opts *opts,
		   perfdata_synth_fn fn, void *arg)
{
	struct synth s;
	int err;

	if (!fn || !OPTS_VALID(opts, sonde_synth_opts))
		return -EINVAL;
	memset(&s, 0, sizeof(s));
	hashtab_init(&s.bids);
	s.fn = fn;
	s.arg = arg;
	synth_opts(&s, opts);
	switch (what) {
	case PERFDATA_SYNTH_KERNEL:
		err = synth_kernel(&s);
		break;
	case PERFDATA_SYNTH_PROCESS:
		err = synth_process(&s, pid);
		break;
	default:
		err = synth_all(&s);
		break;
	}
	synth_done(&s);
	return err;
}
