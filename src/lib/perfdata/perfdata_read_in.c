// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Incremental input for a perf.data stream that cannot be mapped (stdin,
 * a pipe, a FIFO): like perf, pipe-format data is read as it arrives and
 * its records handed out round by round, instead of reading the whole
 * stream first. The reader keeps a small window of the stream (the record
 * being scanned; everything before it was consumed or copied into a slab,
 * perfdata_read_chunk.c), so memory does not grow with the stream length.
 *
 * A file-format image through a pipe (cat perf.data | sonde report -i -)
 * needs its sections, which point anywhere: that one is read whole, and
 * stops early if the start is not a perf.data header.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "core_priv.h"
#include "perfdata_priv.h"

#define PERF_MAGIC2 0x32454c4946524550ULL
#define PERF_MAGIC2_SWAPPED 0x50455246494c4532ULL
#define PIPE_HDR_SIZE 16
/* The window: one record is at most 64 KiB; reads fill the rest. */
#define IN_WINDOW (256u << 10)

struct pdr_in {
	pdr_read_fn read;
	void *arg;
	int fd;
	size_t max_read;
	size_t cap; /* bytes allocated at r->base */
	bool eof, stopped, own_fd;
	void (*wait)(void *);
	void *wait_arg;
	const volatile sig_atomic_t *stop;
	struct timespec stop_at; /* when the stop flag was first seen */
};

/* Read error: described like a format error, with the stream offset. */
static int in_error(struct sonde_perfdata_reader *r, int err)
{
	if (!r->err_code) {
		snprintf(r->err, sizeof(r->err), "byte offset %llu: read error: %s",
			 (unsigned long long)r->len, strerror(err));
		r->err_code = err;
	}
	r->in->eof = true;
	return -err;
}

/*
 * After the stop flag: a writer stopped by the same Ctrl-C (a pipeline
 * shares the terminal's process group) still flushes its last rounds, so
 * reading goes on while data keeps coming within the grace period, then
 * stops as if the stream had ended. True: go on reading.
 */
#define STOP_GRACE_MS 500

static bool stop_grace(struct pdr_in *in)
{
	struct pollfd pfd = { .fd = in->fd, .events = POLLIN };
	struct timespec now;
	int64_t left;

	if (in->stopped || in->fd < 0) {
		in->stopped = true;
		return false;
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (!in->stop_at.tv_sec && !in->stop_at.tv_nsec)
		in->stop_at = now;
	left = STOP_GRACE_MS - ((int64_t)(now.tv_sec - in->stop_at.tv_sec) * 1000 +
				(now.tv_nsec - in->stop_at.tv_nsec) / 1000000);
	if (left > 0 && poll(&pfd, 1, (int)left) > 0)
		return true;
	in->stopped = true;
	return false;
}

/*
 * One read into base[at, at + room). Returns bytes read (0 at the end)
 * or -errno. Before blocking, the wait hook runs (output gets flushed).
 */
static ssize_t in_read(struct pdr_in *in, uint8_t *buf, size_t room)
{
	if (in->max_read && room > in->max_read)
		room = in->max_read;
	for (;;) {
		ssize_t got;

		if (in->stop && *in->stop && !stop_grace(in))
			return 0;
		if (in->wait && in->fd >= 0 && !(in->stop && *in->stop)) {
			struct pollfd pfd = { .fd = in->fd, .events = POLLIN };

			if (poll(&pfd, 1, 0) == 0)
				in->wait(in->wait_arg);
		}
		got = in->read(in->arg, buf, room);
		if (got >= 0)
			return got;
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK) {
			struct pollfd pfd = { .fd = in->fd, .events = POLLIN };

			if (in->fd >= 0 && (poll(&pfd, 1, -1) >= 0 || errno == EINTR))
				continue;
		}
		return -errno;
	}
}

/* Reads once more into the window's free space. Returns <0 on error. */
static int in_fill(struct sonde_perfdata_reader *r)
{
	struct pdr_in *in = r->in;
	size_t used = (size_t)(r->len - r->base_off);
	ssize_t got;

	got = in_read(in, (uint8_t *)(uintptr_t)r->base + used, in->cap - used);
	if (got < 0)
		return in_error(r, (int)-got);
	if (!got)
		in->eof = true;
	r->len += (uint64_t)got;
	return 0;
}

int pdr_in_need(struct sonde_perfdata_reader *r, uint64_t off, uint64_t n)
{
	struct pdr_in *in = r->in;

	if (off + n <= r->len || in->eof)
		return 0;
	/* Everything before @off is consumed: slide the window to it. */
	if (off > r->base_off) {
		memmove((void *)(uintptr_t)r->base, pdr_ptr(r, off), (size_t)(r->len - off));
		r->base_off = off;
	}
	if (n > in->cap) {
		uint8_t *nb = realloc((void *)(uintptr_t)r->base, (size_t)n);

		if (!nb)
			return -ENOMEM;
		r->base = nb;
		in->cap = (size_t)n;
	}
	while (r->len < off + n && !in->eof) {
		int err = in_fill(r);

		if (err)
			return err;
	}
	return 0;
}

uint64_t pdr_in_skip(struct sonde_perfdata_reader *r, uint64_t from, uint64_t n)
{
	struct pdr_in *in = r->in;

	/* The bytes are not kept: read them through the window. */
	while (r->len < from + n && !in->eof) {
		r->base_off = r->len;
		if (in_fill(r))
			break;
	}
	return r->len >= from + n ? n : r->len - from;
}

uint64_t pdr_in_copy(struct sonde_perfdata_reader *r, uint64_t from, uint64_t n,
		     uint8_t **out)
{
	uint8_t *buf = NULL;
	uint64_t got = 0, cap = 0;

	free(*out);
	*out = NULL;
	while (got < n) {
		uint64_t want = n - got < IN_WINDOW / 2 ? n - got : IN_WINDOW / 2;
		uint64_t have;

		if (pdr_in_need(r, from + got, want))
			break;
		have = r->len > from + got ? r->len - (from + got) : 0;
		if (have > want)
			have = want;
		if (!have)
			break;
		if (got + have > cap) {
			uint64_t ncap = cap ? cap * 2 : 64 << 10;
			uint8_t *nb;

			while (ncap < got + have)
				ncap *= 2;
			if (ncap > n)
				ncap = n;
			nb = realloc(buf, (size_t)ncap);
			if (!nb)
				break;
			buf = nb;
			cap = ncap;
		}
		memcpy(buf + got, pdr_ptr(r, from + got), (size_t)have);
		got += have;
	}
	if (got == n)
		*out = buf;
	else
		free(buf);
	return got;
}

bool pdr_in_eof(const struct sonde_perfdata_reader *r)
{
	return !r->in || r->in->eof;
}

bool pdr_in_stopped(const struct sonde_perfdata_reader *r)
{
	return r->in && r->in->stopped;
}

void pdr_in_own_fd(struct sonde_perfdata_reader *r)
{
	r->in->own_fd = true;
}

void pdr_in_free(struct sonde_perfdata_reader *r)
{
	if (r->in && r->in->own_fd)
		close(r->in->fd);
	free(r->in);
	r->in = NULL;
}

void pdr_set_wait_hook(struct sonde_perfdata_reader *r, void (*fn)(void *), void *arg)
{
	if (r && r->in) {
		r->in->wait = fn;
		r->in->wait_arg = arg;
	}
}

void pdr_set_stop_flag(struct sonde_perfdata_reader *r, const volatile sig_atomic_t *stop)
{
	if (r && r->in)
		r->in->stop = stop;
}

/*
 * Where a whole image read from a pipe stops making sense, so reading can
 * stop there instead of swallowing endless garbage: the magic. Returns
 * false once it is bad; the parser reports the spot with its offset.
 */
static bool image_sane(const uint8_t *buf, size_t n)
{
	uint64_t magic;

	if (n < 8)
		return true;
	memcpy(&magic, buf, 8);
	return magic == PERF_MAGIC2 || magic == PERF_MAGIC2_SWAPPED;
}

/* Reads the rest of a file-format image into the window, growing it. */
static int in_slurp(struct sonde_perfdata_reader *r)
{
	struct pdr_in *in = r->in;

	while (!in->eof && image_sane(r->base, (size_t)r->len)) {
		if (r->len == in->cap) {
			uint8_t *nb = realloc((void *)(uintptr_t)r->base, in->cap * 2);

			if (!nb)
				return -ENOMEM;
			r->base = nb;
			in->cap *= 2;
		}
		if (in_fill(r))
			return -r->err_code;
	}
	return 0;
}

static bool pipe_header(const uint8_t *b, size_t n)
{
	uint64_t magic, hsize;

	if (n < PIPE_HDR_SIZE)
		return false;
	memcpy(&magic, b, 8);
	memcpy(&hsize, b + 8, 8);
	if (magic == PERF_MAGIC2_SWAPPED)
		hsize = __builtin_bswap64(hsize);
	else if (magic != PERF_MAGIC2)
		return false;
	return hsize == PIPE_HDR_SIZE;
}

struct sonde_perfdata_reader *pdr_open_stream(pdr_read_fn fn, void *arg, int fd,
					      size_t max_read,
					      const struct sonde_perfdata_reader_opts *opts)
{
	struct sonde_perfdata_reader *r = pdr_reader_new(opts);
	struct pdr_in *in;
	int err;

	if (!r)
		return NULL;
	in = calloc(1, sizeof(*in));
	r->base = malloc(IN_WINDOW);
	if (!in || !r->base) {
		free(in);
		free((void *)(uintptr_t)r->base);
		free(r);
		return lib_err_ptr(ENOMEM);
	}
	in->read = fn;
	in->arg = arg;
	in->fd = fd;
	in->max_read = max_read;
	in->cap = IN_WINDOW;
	r->in = in;
	/* The header decides: 16 bytes or the end. */
	while (r->len < PIPE_HDR_SIZE && !in->eof) {
		err = in_fill(r);
		if (err)
			goto fail;
	}
	if (!pipe_header(r->base, (size_t)r->len)) {
		err = in_slurp(r);
		if (err)
			goto fail;
		/* A whole image: no longer a stream, parsed like a file. */
		pdr_in_free(r);
	}
	return pdr_reader_finish(r, opts);
fail:
	sonde_perfdata_reader__free(r);
	return lib_err_ptr(-err);
}
