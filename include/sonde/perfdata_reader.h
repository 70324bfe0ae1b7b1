/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * Reading perf.data: file mode and pipe mode (also a pipe-format regular
 * file or stdin), either byte order, records delivered in time order with
 * FINISHED_ROUND semantics. A file is mmapped and records are handed out
 * in place: a record pointer stays valid until the reader is closed.
 * COMPRESSED records (perf record -z) are decompressed as the stream is
 * scanned; their records are kept in memory the reader owns (also valid
 * until close) and handed out like the others.
 *
 * Stdin, a pipe or a FIFO carrying pipe format is read as it arrives, like
 * perf: records come out round by round while the stream is still open,
 * and memory stays bounded by the rounds in flight, not the stream length.
 * There a record pointer (and what points into it: strings, callchains)
 * stays valid only until the next call to sonde_perfdata_reader__next():
 * copy what must outlive it. Attrs, event names and feature data are
 * copies the reader owns and stay valid until close either way. A
 * file-format image arriving on a pipe is read whole first.
 */
#ifndef SONDE_PERFDATA_READER_H
#define SONDE_PERFDATA_READER_H

#include <stdbool.h>
#include <stdint.h>
#include "sonde/common.h"
#include "sonde/perfdata_feat.h"
#include "sonde/abi.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sonde_perfdata_reader;


struct sonde_perfdata_reader_opts {
	size_t sz;
	/* Deliver records in file order instead of time order. */
	bool unordered;
	/* If set, receives why the open failed (with the byte offset). */
	char *errbuf;
	size_t errbuf_size;
	/*
	 * Refuse a regular file owned by neither the effective user nor
	 * root with EPERM (and the reason in errbuf), as perf does without
	 * -f: a file of another user can be made to mislead or to exhaust.
	 */
	bool check_owner;
	size_t : 0;
};
#define sonde_perfdata_reader_opts__last_field check_owner

/* One record as handed out by sonde_perfdata_reader__next(). */
struct sonde_perfdata_record {
	/* Points into the mapped file (or the decompressed copy of a
	 * COMPRESSED record's contents); in host order. For a pipe, valid
	 * until the next sonde_perfdata_reader__next() call only. */
	const struct sonde_perf_event_header *hdr;
	uint32_t type;	     /* hdr->type in host order */
	uint16_t misc;	     /* hdr->misc in host order */
	uint16_t size;	     /* hdr->size in host order */
	uint64_t offset;     /* byte offset of the record in the input (of
				the COMPRESSED record it came out of) */
	uint64_t time;	     /* sample time or sample_id time, 0 if none */
	int attr_idx;	     /* event the record belongs to, -1 if unknown */
};

/**
 * @brief **sonde_perfdata_reader__open()** opens a perf.data file (PERFILE2,
 * file or pipe format, either byte order); @p path "-" reads stdin.
 * The header, attrs and feature sections are parsed here.
 * @return a reader to free with sonde_perfdata_reader__close(), or NULL with
 * errno set (SONDE_ERR_FORMAT for a bad file; the reason and byte offset are
 * in sonde_perfdata_reader__error()).
 */
SONDE_API struct sonde_perfdata_reader *
sonde_perfdata_reader__open(const char *path,
			    const struct sonde_perfdata_reader_opts *opts);

/**
 * @brief **sonde_perfdata_reader__open_mem()** like
 * sonde_perfdata_reader__open() on an in-memory image (copied).
 * @return a reader or NULL with errno set.
 */
SONDE_API struct sonde_perfdata_reader *
sonde_perfdata_reader__open_mem(const void *buf, size_t len,
				const struct sonde_perfdata_reader_opts *opts);

/** @brief **sonde_perfdata_reader__close()** unmaps and frees; NULL is ok. */
SONDE_API void sonde_perfdata_reader__close(struct sonde_perfdata_reader *r);

/**
 * @brief **sonde_perfdata_reader__next()** hands out the next record in
 * time order (FINISHED_ROUND rounds are sorted as they complete).
 * Header-type records (HEADER_ATTR, HEADER_FEATURE, FINISHED_ROUND, ...)
 * are consumed internally and not handed out. On a pipe it blocks until
 * the next round is complete (or the stream ends); a read error is
 * returned as -errno once the records before it were handed out.
 * @return 1 with @p rec filled, 0 at the end, or a negative error once
 * every record before the problem has been handed out.
 */
SONDE_API int sonde_perfdata_reader__next(struct sonde_perfdata_reader *r,
					  struct sonde_perfdata_record *rec);

/**
 * @brief **sonde_perfdata_reader__error()** describes the first problem
 * found in the input, with its byte offset.
 * @return a message, or NULL when the input was fine so far.
 */
SONDE_API const char *
sonde_perfdata_reader__error(const struct sonde_perfdata_reader *r);

/** @brief **sonde_perfdata_reader__nr_attrs()** @return number of events. */
SONDE_API int sonde_perfdata_reader__nr_attrs(const struct sonde_perfdata_reader *r);

/**
 * @brief **sonde_perfdata_reader__attr()** returns event @p idx's attr,
 * converted to host order and zero-extended to our struct size.
 * @return the attr, or NULL if @p idx is out of range.
 */
SONDE_API const struct sonde_perf_event_attr *
sonde_perfdata_reader__attr(const struct sonde_perfdata_reader *r, int idx);

/**
 * @brief **sonde_perfdata_reader__event_name()** names event @p idx: the
 * EVENT_DESC string if present, else derived from type/config like perf.
 * @return a string owned by the reader.
 */
SONDE_API const char *
sonde_perfdata_reader__event_name(const struct sonde_perfdata_reader *r, int idx);

/**
 * @brief **sonde_perfdata_reader__has_feature()** @return true if the file
 * carries feature section @p feat.
 */
SONDE_API bool sonde_perfdata_reader__has_feature(const struct sonde_perfdata_reader *r,
						  int feat);

/**
 * @brief **sonde_perfdata_reader__feature_string()** returns a string
 * feature (HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC, CPUID; CMDLINE
 * joined with spaces).
 * @return the string owned by the reader, or NULL if absent.
 */
SONDE_API const char *
sonde_perfdata_reader__feature_string(const struct sonde_perfdata_reader *r, int feat);

/** @brief **sonde_perfdata_reader__is_pipe()** @return true for pipe format. */
SONDE_API bool sonde_perfdata_reader__is_pipe(const struct sonde_perfdata_reader *r);

/**
 * @brief **sonde_perfdata_reader__needs_swap()** @return true if the file was
 * written on a host of the other byte order.
 */
SONDE_API bool sonde_perfdata_reader__needs_swap(const struct sonde_perfdata_reader *r);

/**
 * @brief **sonde_perfdata_reader__data_size()** @return bytes of record
 * stream (for progress display); for a pipe still being read, the bytes
 * that arrived so far.
 */
SONDE_API uint64_t sonde_perfdata_reader__data_size(const struct sonde_perfdata_reader *r);

/**
 * @brief **sonde_perfdata_reader__progress()** @return bytes of the record
 * stream scanned so far.
 */
SONDE_API uint64_t sonde_perfdata_reader__progress(const struct sonde_perfdata_reader *r);

#ifdef __cplusplus
}
#endif
#endif /* SONDE_PERFDATA_READER_H */
