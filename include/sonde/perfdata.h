/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * perf.data files: the on-disk constants, and the writer. The writer takes
 * attrs and records (from a live session or a converter) and produces a
 * file (or pipe stream) that Linux perf reads.
 */
#ifndef SONDE_PERFDATA_H
#define SONDE_PERFDATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>
#include "sonde/common.h"
#include "sonde/abi.h"
#include "sonde/perfdata_feat.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "PERFILE2" read as a little-endian u64. */
#define SONDE_PERFDATA_MAGIC 0x32454c4946524550ULL

/* perf 6.1's HEADER_LAST_FEATURE: the pipe-mode end-of-features mark. */
#define SONDE_FEAT_LAST_61 32

/* On-disk file header (104 bytes). */
struct sonde_perf_file_section {
	uint64_t offset;
	uint64_t size;
};

struct sonde_perf_file_header {
	uint64_t magic;
	uint64_t size;
	uint64_t attr_size;
	struct sonde_perf_file_section attrs;
	struct sonde_perf_file_section data;
	struct sonde_perf_file_section event_types;
	uint64_t adds_features[4];
};

/* ---------------------------------------------------------------- writer */

struct sonde_perfdata_writer;

struct sonde_perfdata_writer_opts {
	size_t sz;
	/* Pipe format (16-byte header, HEADER_ATTR/FEATURE records). */
	bool pipe;
	/*
	 * Keep an existing FILE as FILE.old, as perf does; the new data go
	 * to a temporary name beside it and the renames happen in
	 * sonde_perfdata_writer__finish(), so an abandoned or failed
	 * recording leaves FILE and FILE.old as they were.
	 */
	bool keep_old;
	/* argv for the CMDLINE feature, NULL-terminated; may be NULL. */
	const char *const *cmdline;
	/* VERSION feature; default "sonde <version>". */
	const char *version;
	size_t : 0;
};
#define sonde_perfdata_writer_opts__last_field version

/**
 * @brief **sonde_perfdata_writer__new()** creates @p path (mode 0600) for
 * writing; "-" writes a pipe stream to stdout. Nothing is written until
 * sonde_perfdata_writer__begin(). Until sonde_perfdata_writer__finish() the
 * file's header is all zeros, so an interrupted write never leaves a file
 * that claims to be complete.
 * @return the writer (finish with sonde_perfdata_writer__finish(), or
 * sonde_perfdata_writer__free() to abandon and remove the file), or NULL
 * with errno set.
 */
SONDE_API struct sonde_perfdata_writer *
sonde_perfdata_writer__new(const char *path,
			   const struct sonde_perfdata_writer_opts *opts);

/**
 * @brief **sonde_perfdata_writer__new_fd()** like
 * sonde_perfdata_writer__new() on an already open @p fd (not closed by the
 * writer). A non-seekable fd forces the pipe format.
 * @return the writer (end it like sonde_perfdata_writer__new()'s), or NULL
 * with errno set.
 */
SONDE_API struct sonde_perfdata_writer *
sonde_perfdata_writer__new_fd(int fd,
			      const struct sonde_perfdata_writer_opts *opts);

/**
 * @brief **sonde_perfdata_writer__add_event()** declares an event: its attr
 * (as opened; the writer stores the smallest attr size that covers the
 * fields set, with sample_id_all as given), its display name (EVENT_DESC)
 * and the sample ids of its fds. Call before begin().
 * @return the event index (0, 1, ...) or -errno.
 */
SONDE_API int sonde_perfdata_writer__add_event(struct sonde_perfdata_writer *w,
					       const struct sonde_perf_event_attr *attr,
					       const char *name);

/**
 * @brief **sonde_perfdata_writer__add_ids()** adds sample ids (from
 * PERF_EVENT_IOC_ID) to event @p idx. Call before begin().
 * @return 0 or -errno.
 */
SONDE_API int sonde_perfdata_writer__add_ids(struct sonde_perfdata_writer *w,
					     int idx, const uint64_t *ids,
					     size_t nr);

/**
 * @brief **sonde_perfdata_writer__add_group()** records that events
 * @p leader .. @p leader + @p nr_members - 1 form a group (GROUP_DESC).
 * @return 0 or -errno.
 */
SONDE_API int sonde_perfdata_writer__add_group(struct sonde_perfdata_writer *w,
					       int leader, int nr_members,
					       const char *name);

/**
 * @brief **sonde_perfdata_writer__set_tracing_data()** stores the tracefs
 * format blob that tracepoint attrs need (see sonde_tracing_data_build()).
 * The blob is copied.
 * @return 0 or -errno.
 */
SONDE_API int sonde_perfdata_writer__set_tracing_data(struct sonde_perfdata_writer *w,
						      const void *blob,
						      size_t len);

/**
 * @brief **sonde_perfdata_writer__add_build_id()** adds a BUILD_ID entry
 * for @p filename (@p kernel: a kernel image or module). File mode only;
 * ignored in pipe mode.
 * @return 0 or -errno.
 */
SONDE_API int sonde_perfdata_writer__add_build_id(struct sonde_perfdata_writer *w,
						  const char *filename,
						  const unsigned char *id,
						  size_t id_len, bool kernel);

/**
 * @brief **sonde_perfdata_writer__begin()** writes the start of the output:
 * a zeroed header placeholder, the ids and attrs (file), or the pipe header,
 * HEADER_ATTR, HEADER_FEATURE and tracing-data records (pipe).
 * @return 0 or -errno.
 */
SONDE_API int sonde_perfdata_writer__begin(struct sonde_perfdata_writer *w);

/**
 * @brief **sonde_perfdata_writer__write()** appends one record (its
 * header.size bytes). SAMPLE times feed SAMPLE_TIME; SAMPLE, LOST and
 * LOST_SAMPLES are counted for sonde_perfdata_writer__stats().
 * @return 0 or -errno (ENOSPC, EFBIG, EPIPE, ...): the writer is then
 * failed and only close() or free() make sense.
 */
SONDE_API int sonde_perfdata_writer__write(struct sonde_perfdata_writer *w,
					   const struct sonde_perf_event_header *ev);

/**
 * @brief **sonde_perfdata_writer__writev()** appends the whole records
 * held in @p iovcnt buffers, in order; a record may be split between two
 * buffers (as a ring's wrap splits it). They are counted as
 * sonde_perfdata_writer__write() counts them. A batch of 64 KiB or more is
 * written with writev(2) straight from @p iov, after what the writer had
 * buffered, so the caller's memory (a ring: sonde_evlist__push_records())
 * is never copied; a smaller one is buffered. When the call returns 0
 * every byte is written or buffered, and the caller may reuse its
 * memory; short writes and EINTR are retried.
 * @return 0, -EINVAL when the buffers do not hold whole records (nothing
 * is written then), or -errno as sonde_perfdata_writer__write().
 */
SONDE_API int sonde_perfdata_writer__writev(struct sonde_perfdata_writer *w,
					    const struct iovec *iov,
					    int iovcnt);

/**
 * @brief **sonde_perfdata_writer__finish_round()** marks the end of a drain
 * pass: writes FINISHED_ROUND if records were written since the last mark.
 * A failed file is kept valid up to the last mark.
 * @return 0 or -errno.
 */
SONDE_API int sonde_perfdata_writer__finish_round(struct sonde_perfdata_writer *w);

/**
 * @brief **sonde_perfdata_writer__finish_init()** writes FINISHED_INIT after
 * the synthesized state of already running tasks.
 * @return 0 or -errno.
 */
SONDE_API int sonde_perfdata_writer__finish_init(struct sonde_perfdata_writer *w);

/* Where a chunk of AUX area data came from (PERF_RECORD_AUXTRACE). */
struct sonde_perfdata_aux {
	uint64_t offset;    /* position in the AUX stream (aux_tail) */
	uint64_t reference; /* free for the decoder, e.g. a TSC */
	uint32_t idx;       /* which ring (mmap index) */
	uint32_t tid;
	uint32_t cpu;
	/* Room for fields to come: leave it zero. */
	uint64_t reserved[2];
};

/**
 * @brief **sonde_perfdata_writer__write_aux()** appends @p len bytes of AUX
 * area data as perf stores it: a PERF_RECORD_AUXTRACE record (48 bytes)
 * followed by the data padded to 8 bytes, outside the record's size; in a
 * file, the record joins the AUXTRACE feature's index. perf 6.1 refuses
 * AUXTRACE records ("failed to process type: 71") unless an AUXTRACE_INFO
 * record comes first: sonde_perfdata_writer__synth_auxtrace_info().
 * @return 0 or -errno.
 */
SONDE_API int sonde_perfdata_writer__write_aux(struct sonde_perfdata_writer *w,
					       const void *data, size_t len,
					       const struct sonde_perfdata_aux *where);

struct sonde_aux_span;

/**
 * @brief **sonde_perfdata_writer__write_aux_span()** is
 * sonde_perfdata_writer__write_aux() for a span of an AUX area
 * (sonde_ring__aux_read_span()): both of its parts in one AUXTRACE
 * record, as perf writes a read that wraps the area's end. @p where's
 * offset is used, not the span's (they are the same for a span read).
 * @return 0 or -errno.
 */
SONDE_API int
sonde_perfdata_writer__write_aux_span(struct sonde_perfdata_writer *w,
				      const struct sonde_aux_span *span,
				      const struct sonde_perfdata_aux *where);

struct sonde_perfdata_writer_stats {
	uint64_t bytes;        /* everything written so far, headers included */
	uint64_t samples;      /* SAMPLE records */
	uint64_t lost;         /* sum of LOST records' counts */
	uint64_t lost_samples; /* sum of LOST_SAMPLES records' counts */
	uint64_t first_time;   /* first/last SAMPLE time, 0 if none */
	uint64_t last_time;
	/* Room for fields to come; the library zeroes it. */
	uint64_t reserved[2];
};

/** @brief **sonde_perfdata_writer__stats()** fills @p st so far. */
SONDE_API void sonde_perfdata_writer__stats(const struct sonde_perfdata_writer *w,
					    struct sonde_perfdata_writer_stats *st);

/**
 * @brief **sonde_perfdata_writer__finish()** completes the file: flushes
 * the data, writes the feature sections and then the real header, and
 * frees @p w (the one other way to end a writer than
 * sonde_perfdata_writer__free(), which abandons the file). After a write
 * error it truncates the file to the last complete round and finishes it
 * there (without features if they no longer fit; the file is removed when
 * even that fails).
 * @return 0, or the first error of the writer's life (-errno): with a
 * failed writer the file is shorter than what was written.
 */
SONDE_API int sonde_perfdata_writer__finish(struct sonde_perfdata_writer *w);

/**
 * @brief **sonde_perfdata_writer__free()** abandons the output: the file
 * (when the writer created it) is removed. NULL is fine.
 */
SONDE_API void sonde_perfdata_writer__free(struct sonde_perfdata_writer *w);

/**
 * @brief **sonde_perfdata_attr_size()** the smallest PERF_ATTR_SIZE_VER*
 * that covers every non-zero byte of @p attr (64 at least).
 */
SONDE_API uint32_t sonde_perfdata_attr_size(const struct sonde_perf_event_attr *attr);

/**
 * @brief **sonde_tracing_data_build()** builds perf's TRACING_DATA blob
 * (tracefs header_page, header_event, ftrace formats, the formats of
 * @p tracepoints given as "sys:name", and no kallsyms/printk) from the
 * tracefs mounted at /sys/kernel/tracing (or /sys/kernel/debug/tracing).
 * @return 0 with *@p blob (free() it) and *@p len set, or -errno.
 */
SONDE_API int sonde_tracing_data_build(const char *const *tracepoints,
				       size_t nr, void **blob, size_t *len);

#ifdef __cplusplus
}
#endif
#endif /* SONDE_PERFDATA_H */
