// SPDX-License-Identifier: LGPL-2.1-only
/*
 * perf.data writer: layout [header][ids][attrs][data][feature table +
 * payloads], the layout perf itself writes. The header stays zeroed until
 * close() knows the data size, so a killed or failed recording never has
 * a header that lies; after a write error the data is cut back to the last
 * FINISHED_ROUND that reached the disk.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#include "perfdata_priv.h"
#include "core_priv.h"

/*
 * One write(2) of this much blocks the drain loop for a fraction of a
 * millisecond: at 25 kHz of 8 KB DWARF samples a 512 KB ring fills in
 * about 2.5 ms, and a 1 MB write took long enough to lose samples.
 */
#define OUT_BUF (256 * 1024)
/*
 * Flush at a round end once this much is buffered: small enough that one
 * write(2) never stalls the drain loop long enough for a ring to overflow.
 */
#define ROUND_FLUSH (64 * 1024)
/*
 * Records handed as a batch this large go out straight from the caller's
 * memory (a ring), as perf writes its rings: the copy into the buffer
 * cost a fifth of the recorder's CPU at high rates. Smaller batches are
 * cheaper to copy and write with the next ones: on ext4 a write(2) of
 * its own costs more than copying 50 KiB from a ring (measured on
 * simulated rings filled from another CPU, 8 KiB records).
 */
#define DIRECT_MIN (64 * 1024)
/* Buffers per writev(2) call: ours, and a few of the caller's. */
#define WRITEV_MAX 16

static const uint32_t attr_sizes[] = { 64, 72, 80, 96, 104, 112, 120, 128, 136 };

uint32_t sonde_perfdata_attr_size(const struct sonde_perf_event_attr *attr)
{
	const unsigned char *p = (const void *)attr;
	size_t last = 0;

	for (size_t i = 0; i < sizeof(*attr); i++)
		if (p[i] && !(i >= 4 && i < 8)) /* the size field itself */
			last = i + 1;
	for (size_t i = 0; i < ARRAY_SIZE(attr_sizes); i++)
		if (last <= attr_sizes[i])
			return attr_sizes[i];
	return (uint32_t)sizeof(*attr);
}

static struct sonde_perfdata_writer *
writer_alloc(const struct sonde_perfdata_writer_opts *opts)
{
	struct sonde_perfdata_writer *w = calloc(1, sizeof(*w));
	const char *const *argv = OPTS_GET(opts, cmdline, NULL);
	const char *ver = OPTS_GET(opts, version, NULL);
	char vbuf[64];

	if (!w)
		return NULL;
	w->fd = -1;
	w->buf = malloc(OUT_BUF);
	if (!ver) {
		snprintf(vbuf, sizeof(vbuf), "sonde %s", sonde_version_string());
		ver = vbuf;
	}
	w->version = strdup(ver);
	for (size_t n = 0; argv && argv[n]; n++)
		w->cmdline_n = n + 1;
	if (w->cmdline_n) {
		w->cmdline = calloc(w->cmdline_n, sizeof(char *));
		for (size_t i = 0; w->cmdline && i < w->cmdline_n; i++)
			w->cmdline[i] = strdup(argv[i]);
	}
	if (!w->buf || !w->version || (w->cmdline_n && !w->cmdline)) {
		sonde_perfdata_writer__free(w);
		return NULL;
	}
	return w;
}

struct sonde_perfdata_writer *
sonde_perfdata_writer__new(const char *path,
			   const struct sonde_perfdata_writer_opts *opts)
{
	struct sonde_perfdata_writer *w;
	struct stat st;
	int err;

	if (!path || !OPTS_VALID(opts, sonde_perfdata_writer_opts))
		return lib_err_ptr(EINVAL);
	if (!strcmp(path, "-")) {
		/* "-" means the pipe format even when stdout is a file. */
		w = sonde_perfdata_writer__new_fd(STDOUT_FILENO, opts);
		if (w)
			w->pipe = true;
		return w;
	}
	w = writer_alloc(opts);
	if (!w)
		return lib_err_ptr(ENOMEM);
	w->pipe = OPTS_GET(opts, pipe, false);
	if (OPTS_GET(opts, keep_old, false) && !stat(path, &st) &&
	    S_ISREG(st.st_mode) && st.st_size) {
		/*
		 * Write beside @path and rotate at close: a recording that
		 * fails (a command that does not run, a full disk) leaves
		 * the previous file and its .old as they were.
		 */
		if (asprintf(&w->path, "%s.XXXXXX", path) < 0) {
			w->path = NULL;
			sonde_perfdata_writer__free(w);
			return lib_err_ptr(ENOMEM);
		}
		w->final = strdup(path);
		w->fd = w->final ? mkostemp(w->path, O_CLOEXEC) : -1;
		if (w->fd < 0) {
			err = w->final ? errno : ENOMEM;
			free(w->path);
			w->path = NULL;
			sonde_perfdata_writer__free(w);
			return lib_err_ptr(err);
		}
		w->own_fd = true;
		pw_space_init(w);
		return w;
	}
	w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (w->fd < 0) {
		err = errno;
		sonde_perfdata_writer__free(w);
		return lib_err_ptr(err);
	}
	w->own_fd = true;
	/*
	 * Only a regular file is ours to chmod, or to remove when the record
	 * fails (w->path set): -o /dev/null must stay a world-writable device.
	 */
	if (fstat(w->fd, &st) || !S_ISREG(st.st_mode))
		return w;
	pw_space_init(w);
	/* An existing file keeps its mode on O_TRUNC: samples hold stacks. */
	if (fchmod(w->fd, 0600))
		pr_debug("fchmod %s: %s\n", path, strerror(errno));
	w->path = strdup(path);
	if (!w->path) {
		sonde_perfdata_writer__free(w);
		return lib_err_ptr(ENOMEM);
	}
	return w;
}

struct sonde_perfdata_writer *
sonde_perfdata_writer__new_fd(int fd,
			      const struct sonde_perfdata_writer_opts *opts)
{
	struct sonde_perfdata_writer *w;

	if (fd < 0 || !OPTS_VALID(opts, sonde_perfdata_writer_opts))
		return lib_err_ptr(EINVAL);
	w = writer_alloc(opts);
	if (!w)
		return lib_err_ptr(ENOMEM);
	w->fd = fd;
	w->pipe = OPTS_GET(opts, pipe, false) ||
		  lseek(fd, 0, SEEK_CUR) == (off_t)-1;
	if (!w->pipe && fd != STDOUT_FILENO && lseek(fd, 0, SEEK_END) != 0) {
		/* The file layout needs offset 0 for the header. */
		if (ftruncate(fd, 0) || lseek(fd, 0, SEEK_SET)) {
			sonde_perfdata_writer__free(w);
			return lib_err_ptr(errno);
		}
	}
	return w;
}

void sonde_perfdata_writer__free(struct sonde_perfdata_writer *w)
{
	if (!w)
		return;
	if (w->own_fd && w->fd >= 0) {
		close(w->fd);
		if (w->path)
			unlink(w->path);
	}
	for (size_t i = 0; i < w->nr_events; i++) {
		free(w->events[i].name);
		free(w->events[i].ids);
	}
	for (size_t i = 0; i < w->nr_groups; i++)
		free(w->groups[i].name);
	for (size_t i = 0; i < w->nr_bids; i++)
		free(w->bids[i].filename);
	for (size_t i = 0; i < w->cmdline_n && w->cmdline; i++)
		free(w->cmdline[i]);
	free(w->cmdline);
	free(w->events);
	free(w->groups);
	free(w->bids);
	free(w->tracing);
	pw_aux_free(w);
	free(w->version);
	free(w->path);
	free(w->final);
	free(w->buf);
	free(w);
}

int sonde_perfdata_writer__add_event(struct sonde_perfdata_writer *w,
				     const struct sonde_perf_event_attr *attr,
				     const char *name)
{
	struct pw_event *ev, *n;

	if (!w || !attr)
		return lib_err(EINVAL);
	if (w->begun)
		return lib_err(EBUSY);
	n = realloc(w->events, (w->nr_events + 1) * sizeof(*n));
	if (!n)
		return lib_err(ENOMEM);
	w->events = n;
	ev = &n[w->nr_events];
	memset(ev, 0, sizeof(*ev));
	memcpy(ev->attr, attr, sizeof(*attr));
	ev->sample_type = attr->sample_type;
	ev->name = strdup(name ? name : "");
	if (!ev->name)
		return lib_err(ENOMEM);
	return (int)w->nr_events++;
}

int sonde_perfdata_writer__add_ids(struct sonde_perfdata_writer *w, int idx,
				   const uint64_t *ids, size_t nr)
{
	struct pw_event *ev;
	uint64_t *n;

	if (!w || idx < 0 || (size_t)idx >= w->nr_events || (nr && !ids))
		return lib_err(EINVAL);
	if (w->begun)
		return lib_err(EBUSY);
	ev = &w->events[idx];
	n = realloc(ev->ids, (ev->nr_ids + nr) * sizeof(*n) + 1);
	if (!n)
		return lib_err(ENOMEM);
	if (nr)
		memcpy(n + ev->nr_ids, ids, nr * sizeof(*n));
	ev->ids = n;
	ev->nr_ids += nr;
	return 0;
}

int sonde_perfdata_writer__add_group(struct sonde_perfdata_writer *w,
				     int leader, int nr_members,
				     const char *name)
{
	struct pw_group *n;

	if (!w || leader < 0 || nr_members < 1 ||
	    (size_t)leader + (size_t)nr_members > w->nr_events)
		return lib_err(EINVAL);
	n = realloc(w->groups, (w->nr_groups + 1) * sizeof(*n));
	if (!n)
		return lib_err(ENOMEM);
	w->groups = n;
	n[w->nr_groups].leader = leader;
	n[w->nr_groups].nr_members = nr_members;
	n[w->nr_groups].name = strdup(name ? name : "{anon_group}");
	if (!n[w->nr_groups].name)
		return lib_err(ENOMEM);
	w->nr_groups++;
	return 0;
}

int sonde_perfdata_writer__set_tracing_data(struct sonde_perfdata_writer *w,
					    const void *blob, size_t len)
{
	void *copy;

	if (!w || (!blob && len))
		return lib_err(EINVAL);
	if (w->begun)
		return lib_err(EBUSY);
	copy = malloc(len ? len : 1);
	if (!copy)
		return lib_err(ENOMEM);
	if (len)
		memcpy(copy, blob, len);
	free(w->tracing);
	w->tracing = copy;
	w->tracing_len = len;
	return 0;
}

int sonde_perfdata_writer__add_build_id(struct sonde_perfdata_writer *w,
					const char *filename,
					const unsigned char *id, size_t id_len,
					bool kernel)
{
	struct pw_build_id *n;

	if (!w || !filename || !id || !id_len || id_len > 20)
		return lib_err(EINVAL);
	for (size_t i = 0; i < w->nr_bids; i++)
		if (!strcmp(w->bids[i].filename, filename))
			return 0;
	n = realloc(w->bids, (w->nr_bids + 1) * sizeof(*n));
	if (!n)
		return lib_err(ENOMEM);
	w->bids = n;
	n = &n[w->nr_bids];
	memset(n, 0, sizeof(*n));
	n->filename = strdup(filename);
	if (!n->filename)
		return lib_err(ENOMEM);
	memcpy(n->id, id, id_len);
	n->id_len = id_len;
	n->kernel = kernel;
	w->nr_bids++;
	return 0;
}

/* ---- output ---- */

/*
 * Writes every byte of @iov[0..@n) or fails, from the caller's memory:
 * short writes (a pipe, a signal) and EINTR go on where they stopped.
 * *@done says how much got out either way.
 */
static int writev_all(int fd, const struct iovec *iov, int n, size_t *done)
{
	struct iovec win[WRITEV_MAX];
	size_t skip = 0; /* bytes of iov[i] already out */
	int i = 0;

	*done = 0;
	for (;;) {
		ssize_t got;
		size_t left;
		int k = 0;

		while (i < n && iov[i].iov_len == skip) {
			i++;
			skip = 0;
		}
		if (i == n)
			return 0;
		for (int j = i; j < n && k < WRITEV_MAX; j++) {
			size_t off = j == i ? skip : 0;

			if (iov[j].iov_len == off)
				continue;
			win[k].iov_base = (unsigned char *)iov[j].iov_base + off;
			win[k].iov_len = iov[j].iov_len - off;
			k++;
		}
		got = writev(fd, win, k);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (got == 0)
			return -ENOSPC;
		*done += (size_t)got;
		for (left = (size_t)got; left && i < n;) {
			size_t rest = iov[i].iov_len - skip;

			if (left < rest) {
				skip += left;
				break;
			}
			left -= rest;
			i++;
			skip = 0;
		}
	}
}

static int pwrite_all(int fd, const void *p, size_t len, uint64_t off)
{
	while (len) {
		ssize_t n = pwrite(fd, p, len, (off_t)off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -ENOSPC;
		p = (const unsigned char *)p + n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

/*
 * Writes the buffer, then @n more buffers of the caller's (records too
 * large to be worth a copy), in one writev(2) where the count allows.
 */
static int flush_with(struct sonde_perfdata_writer *w, const struct iovec *more,
		      int n)
{
	struct iovec v[WRITEV_MAX];
	size_t done = 0, extra = 0;
	int cnt = 0, err;

	if (w->err)
		return w->err;
	if (w->buf_len)
		v[cnt++] = (struct iovec){ .iov_base = w->buf, .iov_len = w->buf_len };
	if (w->reserve) {
		uint64_t end = w->flushed + w->buf_len;

		for (int i = 0; i < n; i++)
			end += more[i].iov_len;
		pw_space_reserve(w, end);
	}
	if (cnt + n <= WRITEV_MAX) {
		for (int i = 0; i < n; i++)
			v[cnt++] = more[i];
		err = cnt ? writev_all(w->fd, v, cnt, &done) : 0;
	} else {
		err = cnt ? writev_all(w->fd, v, cnt, &done) : 0;
		if (!err)
			err = writev_all(w->fd, more, n, &extra);
		done += extra;
	}
	w->flushed += done;
	if (err) {
		/* Keep the rounds that made it out before the failure. */
		for (size_t i = w->nr_marks; i-- > 0;)
			if (w->marks[i] <= w->flushed) {
				w->good_mark = w->marks[i];
				break;
			}
		w->err = err;
		return err;
	}
	w->buf_len = 0;
	w->nr_marks = 0;
	w->good_mark = w->round_mark;
	return 0;
}

static int flush_out(struct sonde_perfdata_writer *w)
{
	return flush_with(w, NULL, 0);
}

static int out(struct sonde_perfdata_writer *w, const void *src, size_t len)
{
	if (w->err)
		return w->err;
	if (!len)
		return 0;
	w->pos += len;
	w->st.bytes += len;
	if (len >= OUT_BUF) {
		struct iovec one = { .iov_base = (void *)src, .iov_len = len };

		return flush_with(w, &one, 1);
	}
	if (w->buf_len + len > OUT_BUF) {
		int err = flush_out(w);

		if (err)
			return err;
	}
	memcpy(w->buf + w->buf_len, src, len);
	w->buf_len += len;
	return 0;
}

int pw_out(struct sonde_perfdata_writer *w, const void *src, size_t len)
{
	return out(w, src, len);
}

static int out_header(struct sonde_perfdata_writer *w, uint32_t type,
		      uint16_t misc, size_t size)
{
	struct sonde_perf_event_header h = {
		.type = type, .misc = misc, .size = (uint16_t)size,
	};

	return out(w, &h, sizeof(h));
}

/* The attr as stored: the common size, with .size saying so. */
static void stored_attr(const struct sonde_perfdata_writer *w,
			const struct pw_event *ev, unsigned char *dst)
{
	struct sonde_perf_event_attr a;

	memcpy(&a, ev->attr, sizeof(a));
	a.size = w->attr_size;
	memcpy(dst, &a, w->attr_size);
}

static int begin_pipe(struct sonde_perfdata_writer *w)
{
	uint64_t ph[2] = { SONDE_PERFDATA_MAGIC, 16 };
	unsigned char attr[sizeof(struct sonde_perf_event_attr)];
	struct dbuf b = { 0 };
	int err;

	out(w, ph, sizeof(ph));
	for (size_t i = 0; i < w->nr_events; i++) {
		const struct pw_event *ev = &w->events[i];
		size_t size = 8 + w->attr_size + ev->nr_ids * 8;

		if (size > 65535)
			return lib_err(E2BIG);
		stored_attr(w, ev, attr);
		out_header(w, SONDE_PERF_RECORD_HEADER_ATTR, 0, size);
		out(w, attr, w->attr_size);
		out(w, ev->ids, ev->nr_ids * 8);
	}
	for (size_t i = 0; i < pw_nr_pipe_feats; i++) {
		uint64_t id = (uint64_t)pw_pipe_feats[i];

		b.len = 0;
		if (!pw_feature(w, pw_pipe_feats[i], &b))
			continue;
		dbuf_pad8(&b);
		if (b.oom) {
			free(b.p);
			return lib_err(ENOMEM);
		}
		if (b.len + 16 > 65535)
			continue; /* cannot travel as one record: leave out */
		out_header(w, SONDE_PERF_RECORD_HEADER_FEATURE, 0, 16 + b.len);
		out(w, &id, 8);
		out(w, b.p, b.len);
	}
	free(b.p);
	{
		/* End of features: perf 6.1's HEADER_LAST_FEATURE, no payload. */
		uint64_t id = SONDE_FEAT_LAST_61;

		out_header(w, SONDE_PERF_RECORD_HEADER_FEATURE, 0, 16);
		out(w, &id, 8);
	}
	if (w->tracing) {
		/*
		 * HEADER_TRACING_DATA is a 12-byte record (header + u32 size of
		 * the padded blob); the blob follows outside the record's
		 * size, which is how perf's pipe reader consumes it.
		 */
		static const unsigned char zero[8];
		size_t pad = (8 - w->tracing_len % 8) % 8;
		uint32_t sz = (uint32_t)(w->tracing_len + pad);

		out_header(w, SONDE_PERF_RECORD_HEADER_TRACING_DATA, 0, 12);
		out(w, &sz, sizeof(sz));
		out(w, w->tracing, w->tracing_len);
		out(w, zero, pad);
	}
	err = flush_out(w);
	return err;
}

static int begin_file(struct sonde_perfdata_writer *w)
{
	static const unsigned char zero_hdr[sizeof(struct sonde_perf_file_header)];
	unsigned char attr[sizeof(struct sonde_perf_event_attr)];
	uint64_t ids_off = sizeof(zero_hdr);

	out(w, zero_hdr, sizeof(zero_hdr));
	for (size_t i = 0; i < w->nr_events; i++)
		out(w, w->events[i].ids, w->events[i].nr_ids * 8);
	for (size_t i = 0; i < w->nr_events; i++) {
		const struct pw_event *ev = &w->events[i];
		struct sonde_perf_file_section s = {
			.offset = ids_off, .size = ev->nr_ids * 8,
		};

		stored_attr(w, ev, attr);
		out(w, attr, w->attr_size);
		out(w, &s, sizeof(s));
		ids_off += s.size;
	}
	w->data_offset = w->pos;
	w->round_mark = w->pos;
	return flush_out(w);
}

int sonde_perfdata_writer__begin(struct sonde_perfdata_writer *w)
{
	int err;

	if (!w)
		return lib_err(EINVAL);
	if (w->begun)
		return lib_err(EBUSY);
	if (!w->nr_events) {
		pr_warn("perf.data writer: no events declared\n");
		return lib_err(EINVAL);
	}
	w->attr_size = 64;
	for (size_t i = 0; i < w->nr_events; i++) {
		uint32_t s = sonde_perfdata_attr_size((const void *)w->events[i].attr);

		if (s > w->attr_size)
			w->attr_size = s;
	}
	/*
	 * Pipe mode: perf 6.1 (perf_event__process_attr) ignores attr.size in
	 * a HEADER_ATTR record and takes the ids to start after its own
	 * sizeof(struct perf_event_attr), 128 bytes (VER7). A shorter attr
	 * puts the ids in config2/branch_sample_type, which crashes it when
	 * an id has bit 0x800 (PERF_SAMPLE_BRANCH_CALL_STACK) set. Newer perf
	 * reads attr.size, so 128 with .size = 128 suits both. The file
	 * format reads attr.size bytes and keeps the smallest size.
	 */
	if (w->pipe && w->attr_size < SONDE_PERF_ATTR_SIZE_VER7)
		w->attr_size = SONDE_PERF_ATTR_SIZE_VER7;
	w->begun = true;
	err = w->pipe ? begin_pipe(w) : begin_file(w);
	return err < 0 ? lib_err(err) : 0;
}

static const struct pw_event *event_of_sample(const struct sonde_perfdata_writer *w,
					      const struct sonde_perf_event_header *ev)
{
	uint64_t id;

	if (w->nr_events == 1)
		return &w->events[0];
	if (!(w->events[0].sample_type & SONDE_PERF_SAMPLE_IDENTIFIER) ||
	    ev->size < 16)
		return &w->events[0];
	memcpy(&id, ev + 1, 8);
	for (size_t i = 0; i < w->nr_events; i++)
		for (size_t j = 0; j < w->events[i].nr_ids; j++)
			if (w->events[i].ids[j] == id)
				return &w->events[i];
	return &w->events[0];
}

static void note_sample(struct sonde_perfdata_writer *w,
			const struct sonde_perf_event_header *ev)
{
	const struct pw_event *e = event_of_sample(w, ev);
	uint64_t st = e->sample_type, t;
	size_t off = sizeof(*ev);

	w->st.samples++;
	if (!(st & SONDE_PERF_SAMPLE_TIME))
		return;
	off += 8 * !!(st & SONDE_PERF_SAMPLE_IDENTIFIER);
	off += 8 * !!(st & SONDE_PERF_SAMPLE_IP);
	off += 8 * !!(st & SONDE_PERF_SAMPLE_TID);
	if (off + 8 > ev->size)
		return;
	memcpy(&t, (const unsigned char *)ev + off, 8);
	if (!w->st.first_time || t < w->st.first_time)
		w->st.first_time = t;
	if (t > w->st.last_time)
		w->st.last_time = t;
}

/* Counts @ev for the stats; only its first 64 bytes are read. */
static void account(struct sonde_perfdata_writer *w,
		    const struct sonde_perf_event_header *ev)
{
	uint64_t v;

	switch (ev->type) {
	case SONDE_PERF_RECORD_SAMPLE:
		note_sample(w, ev);
		break;
	case SONDE_PERF_RECORD_LOST:
		if (ev->size >= 24) {
			memcpy(&v, (const unsigned char *)ev + 16, 8);
			w->st.lost += v;
		}
		break;
	case SONDE_PERF_RECORD_LOST_SAMPLES:
		if (ev->size >= 16) {
			memcpy(&v, (const unsigned char *)ev + 8, 8);
			w->st.lost_samples += v;
		}
		break;
	default:
		break;
	}
}

int sonde_perfdata_writer__write(struct sonde_perfdata_writer *w,
				 const struct sonde_perf_event_header *ev)
{
	int err;

	if (!w || !ev || ev->size < sizeof(*ev))
		return lib_err(EINVAL);
	if (!w->begun)
		return lib_err(EINVAL);
	account(w, ev);
	w->dirty_round = true;
	err = out(w, ev, ev->size);
	return err < 0 ? lib_err(err) : 0;
}

/* A place in the stream held by an iovec array. */
struct iov_pos {
	const struct iovec *iov;
	int n;
	int i;      /* the buffer it is in */
	size_t in;  /* bytes into that buffer */
};

/* Copies @len bytes from @at on into @dst, across buffers. */
static void iov_copy(struct iov_pos at, void *dst, size_t len)
{
	unsigned char *d = dst;

	for (; at.i < at.n && len; at.i++, at.in = 0) {
		size_t take = at.iov[at.i].iov_len - at.in;

		if (take > len)
			take = len;
		memcpy(d, (const unsigned char *)at.iov[at.i].iov_base + at.in, take);
		d += take;
		len -= take;
	}
}

static void iov_skip(struct iov_pos *at, size_t len)
{
	while (at->i < at->n && len >= at->iov[at->i].iov_len - at->in) {
		len -= at->iov[at->i].iov_len - at->in;
		at->i++;
		at->in = 0;
	}
	at->in += len;
}

/*
 * Walks the records of @iov: checks that they are whole (sizes >= 8 that
 * add up to @total) and counts each for the stats, in place where its
 * first bytes lie aligned in one buffer, else from a copy of them. On
 * -EINVAL the stats are as they were.
 */
static int account_records(struct sonde_perfdata_writer *w,
			   const struct iovec *iov, int n, size_t total)
{
	struct sonde_perfdata_writer_stats was = w->st;
	struct iov_pos at = { .iov = iov, .n = n };
	_Alignas(8) unsigned char head[64];
	size_t off = 0;

	while (off < total) {
		const struct sonde_perf_event_header *ev;
		struct sonde_perf_event_header h;
		const unsigned char *p;
		size_t avail, want;

		iov_skip(&at, 0); /* off an exhausted buffer */
		if (total - off < sizeof(h))
			goto bad;
		p = (const unsigned char *)iov[at.i].iov_base + at.in;
		avail = iov[at.i].iov_len - at.in;
		if (avail >= sizeof(h))
			memcpy(&h, p, sizeof(h));
		else
			iov_copy(at, &h, sizeof(h));
		if (h.size < sizeof(h) || h.size > total - off)
			goto bad;
		want = h.size < sizeof(head) ? h.size : sizeof(head);
		if (avail >= want && !((uintptr_t)p & 7)) {
			ev = (const void *)p;
		} else {
			iov_copy(at, head, want);
			ev = (const void *)head;
		}
		account(w, ev);
		iov_skip(&at, h.size);
		off += h.size;
	}
	return 0;
bad:
	w->st = was;
	return -EINVAL;
}

int sonde_perfdata_writer__writev(struct sonde_perfdata_writer *w,
				  const struct iovec *iov, int iovcnt)
{
	size_t total = 0;
	int err = 0;

	if (!w || iovcnt < 0 || (iovcnt && !iov) || !w->begun)
		return lib_err(EINVAL);
	for (int i = 0; i < iovcnt; i++) {
		if (iov[i].iov_len && !iov[i].iov_base)
			return lib_err(EINVAL);
		total += iov[i].iov_len;
	}
	if (!total)
		return 0;
	if (w->err)
		return lib_err(w->err);
	if (account_records(w, iov, iovcnt, total))
		return lib_err(EINVAL);
	w->dirty_round = true;
	if (total < DIRECT_MIN) {
		for (int i = 0; i < iovcnt && !err; i++)
			err = out(w, iov[i].iov_base, iov[i].iov_len);
		return err < 0 ? lib_err(err) : 0;
	}
	w->pos += total;
	w->st.bytes += total;
	err = flush_with(w, iov, iovcnt);
	return err < 0 ? lib_err(err) : 0;
}

int sonde_perfdata_writer__finish_round(struct sonde_perfdata_writer *w)
{
	int err;

	if (!w || !w->begun)
		return lib_err(EINVAL);
	if (w->err)
		return lib_err(w->err);
	if (!w->dirty_round)
		return 0;
	err = out_header(w, SONDE_PERF_RECORD_FINISHED_ROUND, 0, 8);
	if (err)
		return lib_err(err);
	w->round_mark = w->pos;
	w->dirty_round = false;
	if (w->nr_marks == ARRAY_SIZE(w->marks))
		err = flush_out(w);
	else
		w->marks[w->nr_marks++] = w->pos;
	/* A pipe reader wants its data now; a file can batch. */
	if (!err && (w->pipe || w->buf_len >= ROUND_FLUSH))
		err = flush_out(w);
	return err < 0 ? lib_err(err) : 0;
}

int sonde_perfdata_writer__finish_init(struct sonde_perfdata_writer *w)
{
	int err;

	if (!w || !w->begun)
		return lib_err(EINVAL);
	err = out_header(w, SONDE_PERF_RECORD_FINISHED_INIT, 0, 8);
	w->dirty_round = true;
	return err < 0 ? lib_err(err) : 0;
}

void sonde_perfdata_writer__stats(const struct sonde_perfdata_writer *w,
				  struct sonde_perfdata_writer_stats *st)
{
	*st = w->st;
}

/*
 * Writes the feature table and payloads at @off. Returns the bitmap of
 * what was written in @bits, or -errno.
 */
static int write_features(struct sonde_perfdata_writer *w, uint64_t off,
			  uint64_t bits[4])
{
	struct sonde_perf_file_section secs[64];
	struct dbuf all = { 0 }, b = { 0 };
	size_t n = 0;
	uint64_t payload_off;
	int err;

	memset(bits, 0, 4 * sizeof(uint64_t));
	for (size_t i = 0; i < pw_nr_file_feats; i++) {
		int f = pw_file_feats[i];

		b.len = 0;
		if (!pw_feature(w, f, &b))
			continue;
		bits[f / 64] |= 1ULL << (f % 64);
		secs[n].offset = all.len;
		secs[n].size = b.len;
		dbuf_put(&all, b.p, b.len);
		n++;
	}
	free(b.p);
	if (all.oom || b.oom) {
		free(all.p);
		return -ENOMEM;
	}
	payload_off = off + n * sizeof(secs[0]);
	for (size_t i = 0; i < n; i++)
		secs[i].offset += payload_off;
	err = pwrite_all(w->fd, secs, n * sizeof(secs[0]), off);
	if (!err)
		err = pwrite_all(w->fd, all.p, all.len, payload_off);
	free(all.p);
	return err;
}

static bool has_tracepoints(const struct sonde_perfdata_writer *w)
{
	for (size_t i = 0; i < w->nr_events; i++) {
		const struct sonde_perf_event_attr *a = (const void *)w->events[i].attr;

		if (a->type == SONDE_PERF_TYPE_TRACEPOINT)
			return true;
	}
	return false;
}

static int close_file(struct sonde_perfdata_writer *w)
{
	struct sonde_perf_file_header h = { 0 };
	uint64_t end;
	int err = w->err, ferr;

	if (err) {
		/* Cut back to the last round that is wholly on disk. */
		end = w->good_mark;
		/* No round made it: an empty data section is no recording. */
		if (end <= w->data_offset || ftruncate(w->fd, (off_t)end))
			goto remove;
		pr_warn("perf.data writer: %s; keeping the %llu bytes of data up to the last complete round\n",
			strerror(-err),
			(unsigned long long)(end - w->data_offset));
	} else {
		end = w->pos;
	}
	h.magic = SONDE_PERFDATA_MAGIC;
	h.size = sizeof(h);
	h.attr_size = w->attr_size + sizeof(struct sonde_perf_file_section);
	h.attrs.offset = sizeof(h);
	for (size_t i = 0; i < w->nr_events; i++)
		h.attrs.offset += w->events[i].nr_ids * 8;
	h.attrs.size = w->nr_events * h.attr_size;
	h.data.offset = w->data_offset;
	h.data.size = end - w->data_offset;
	ferr = write_features(w, end, h.adds_features);
	if (ferr) {
		/* No room for features: a bare header still reads fine... */
		memset(h.adds_features, 0, sizeof(h.adds_features));
		if (ftruncate(w->fd, (off_t)end) || has_tracepoints(w))
			goto remove; /* ...unless tracepoints need TRACING_DATA */
		if (!err)
			err = ferr;
	}
	if (pwrite_all(w->fd, &h, sizeof(h), 0))
		goto remove;
	/* Complete either way: unreturned blocks only waste some space. */
	if (pw_space_trim(w))
		pr_debug("perf.data writer: reserved blocks kept: %s\n", strerror(errno));
	return err;
remove:
	if (w->path) {
		pr_warn("perf.data writer: %s; removing the incomplete %s\n",
			strerror(-(err ? err : ENOSPC)),
			w->final ? w->final : w->path);
		unlink(w->path);
		free(w->path);
		w->path = NULL; /* nothing to rotate into place */
	}
	return err ? err : -ENOSPC;
}

/* keep_old, once the file is complete: FILE -> FILE.old, temp -> FILE. */
static int rotate_into_place(struct sonde_perfdata_writer *w)
{
	char *old;
	int err = 0;

	if (asprintf(&old, "%s.old", w->final) < 0)
		return -ENOMEM;
	/* The previous file may have gone meanwhile: nothing to keep then. */
	if (rename(w->final, old) && errno != ENOENT)
		pr_warn("cannot rename %s to %s: %s\n", w->final, old,
			strerror(errno));
	free(old);
	if (rename(w->path, w->final)) {
		err = -errno;
		pr_warn("cannot rename %s to %s: %s; the recording stays in %s\n",
			w->path, w->final, strerror(errno), w->path);
	}
	return err;
}

int sonde_perfdata_writer__finish(struct sonde_perfdata_writer *w)
{
	int err;

	if (!w)
		return lib_err(EINVAL);
	if (!w->begun && sonde_perfdata_writer__begin(w)) {
		/* Not even the start could be written: nothing to keep. */
		err = w->err ? w->err : -EIO;
		sonde_perfdata_writer__free(w);
		return lib_err(err);
	}
	flush_out(w);
	if (w->pipe)
		err = w->err;
	else
		err = close_file(w);
	if (w->own_fd) {
		if (close(w->fd) && !err)
			err = -errno;
		w->fd = -1;
	}
	if (w->path && w->final) {
		int rerr = rotate_into_place(w);

		if (rerr && !err)
			err = rerr;
	}
	free(w->path);
	w->path = NULL;
	sonde_perfdata_writer__free(w);
	return err ? lib_err(err) : 0;
}
