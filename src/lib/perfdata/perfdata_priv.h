/* SPDX-License-Identifier: LGPL-2.1-only */
/* The perfdata layer's private declarations, shared by its files only. */
#ifndef SONDE_PERFDATA_PRIV_H
#define SONDE_PERFDATA_PRIV_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "sonde/perfdata_reader.h"
#include "sonde/record.h"
#include "sonde/perfdata.h"
#include "sonde/synth.h"
#include "record_priv.h"

/* Private state of the perf.data reader and its decoding helpers. */
#define PDR_MAX_ATTRS 4096
/* Record types counted for --stats (kernel and perf-tool types). */
#define PDR_NR_TYPES 128

struct pdr_attr {
	struct sonde_perf_event_attr attr; /* host order */
	struct sonde_record_fmt fmt;	   /* layout for the record codec */
	char *name;
	uint64_t *ids;
	uint32_t nr_ids;
	/* Bytes of sample_id trailer on non-sample records (0 if none). */
	uint16_t trailer_size;
	/* Offsets from the record end of the trailer time / id, or -1. */
	int16_t trailer_time_off;
	int16_t trailer_id_off;
	/* Offset of the id in a SAMPLE body, or -1. */
	int16_t sample_id_off;
	/* Offset of the time in a SAMPLE record (header included), or -1. */
	int16_t sample_time_off;
};

struct pdr_qent {
	uint64_t time;
	uint64_t off; /* file order tie-break and record location */
	int32_t attr_idx;
};

/* HEADER_COMPRESSED (perf record -z): how the COMPRESSED records were made. */
struct pdr_comp_info {
	uint32_t version, type, level, ratio;
	uint32_t mmap_len; /* ring buffer size: bounds one record's output */
};

struct pdr_zstd; /* decompressor state, perfdata_read_zstd.c */

struct pdr_id_ent {
	uint64_t id;
	int32_t attr_idx;
};

/*
 * Memory records are handed out from when they are not in the mapped
 * file: the output of a COMPRESSED record, or a slab of records copied
 * out of a pipe (raw: each record preceded by its u64 stream offset).
 * live counts queued records not yet handed out.
 */
struct pdr_chunk {
	uint8_t *buf;
	uint32_t len, cap;
	uint32_t live;
	bool sealed, raw;
	uint64_t src_off; /* COMPRESSED record the records came out of */
};

struct pdr_in; /* incremental pipe input, perfdata_read_in.c */
struct pdr_tp; /* tracepoint formats, perfdata_read_tp.c */

struct sonde_perfdata_reader {
	/*
	 * The input: the whole file (mapped or copied), or for a pipe read
	 * incrementally (in != NULL) a window of it: base[0] is stream byte
	 * base_off, len is the end of what has been read so far.
	 */
	const uint8_t *base;
	uint64_t len;
	uint64_t base_off;
	struct pdr_in *in;
	bool mapped; /* base is an mmap, else malloc'd */
	bool swap;
	bool pipe;
	bool unordered;

	uint64_t data_off, data_end; /* record stream */
	uint64_t pos;		     /* scan position */
	bool scan_done;

	struct pdr_attr *attrs;
	int nr_attrs;
	struct pdr_id_ent *idmap; /* sorted by id */
	size_t nr_ids;
	bool idmap_sorted;

	uint64_t feat_bits[4];
	char *feat_str[SONDE_FEAT_MAX]; /* string features, NULL if absent */
	uint32_t nr_cpus_avail, nr_cpus_online;
	uint64_t first_sample_time, last_sample_time;
	uint64_t total_mem;
	/* BUILD_ID and GROUP_DESC: the public structs, strings malloc'd. */
	struct sonde_feat_build_id *build_ids;
	size_t nr_build_ids;
	struct sonde_feat_group *groups;
	size_t nr_groups;
	/* Decoded features the header dump prints (public getters). */
	struct sonde_feat_cpu_topology *cpu_topo;
	struct sonde_feat_numa_topology *numa;
	struct sonde_feat_pmu_mappings *pmu_maps;
	struct sonde_feat_caches *caches;
	struct sonde_feat_hybrid_topology *hybrid;
	struct sonde_feat_mem_topology *mem;
	struct sonde_feat_pmu_caps_list *cpu_pmu_caps, *pmu_caps;
	struct sonde_feat_bpf_btf *btf;
	struct sonde_feat_compressed *compressed;
	bool has_dir_format;
	uint64_t dir_format;
	uint64_t clockid_res_ns; /* CLOCKID */
	bool clock_data;	 /* CLOCK_DATA, version 1 */
	struct sonde_feat_clock_data clock;

	/* Time ordering: queue of pending records, sorted per round. */
	struct pdr_qent *q;
	struct pdr_qent *q_tmp; /* merge buffer of the sort, q_tmp_cap entries */
	size_t q_tmp_cap;
	size_t q_len, q_cap, q_head; /* q[q_head..q_ready) are deliverable */
	size_t q_ready;
	bool q_unsorted; /* an entry was queued before an earlier one's time */
	uint64_t max_time;	  /* largest time queued so far */
	uint64_t prev_round_max; /* max_time at the previous round marker */
	uint64_t last_time;

	uint64_t nr_rounds;
	uint64_t nr_type[PDR_NR_TYPES]; /* records met in the stream, by type */
	uint64_t tracing_off, tracing_len; /* TRACING_DATA blob in base, or 0 */
	uint8_t *tracing_copy; /* a pipe's blob (the window moves on), or NULL */
	struct pdr_tp *tp; /* its formats, parsed on demand */
	uint64_t nr_compressed; /* COMPRESSED(2) records scanned */
	struct pdr_comp_info comp;
	struct pdr_zstd *zstd;
	/* Chunk store (perfdata_read_chunk.c): chunk i is chunks[i - chunk0]. */
	struct pdr_chunk *chunks;
	size_t nr_chunks, chunks_cap;
	uint64_t chunk0;
	uint64_t slab;	   /* index + 1 of the open raw slab, 0 if none */
	uint64_t release;  /* index + 1 of a chunk to free at the next next() */
	uint64_t dropped; /* file bytes below this were released (madvise) */
	struct pdr_ahead *ahead; /* read-ahead thread (perfdata_read_ahead.c) */
	uint64_t ahead_next;	 /* pos at which to tell it the next progress */
	char err[256];
	int err_code;
	bool err_pending;  /* open found a problem but the data is usable */
	bool err_returned; /* next() has reported err once */
};

/*
 * Byte-order helpers for the header, attrs, features and header-type
 * records. Kernel records are swapped in place when scanned, so readers of
 * handed-out records use plain host-order loads (pdr_h64 and friends).
 */
static inline uint16_t pdr_rd16(const struct sonde_perfdata_reader *r, const void *p)
{
	uint16_t v;
	__builtin_memcpy(&v, p, 2);
	return r->swap ? __builtin_bswap16(v) : v;
}

static inline uint32_t pdr_rd32(const struct sonde_perfdata_reader *r, const void *p)
{
	uint32_t v;
	__builtin_memcpy(&v, p, 4);
	return r->swap ? __builtin_bswap32(v) : v;
}

static inline uint64_t pdr_rd64(const struct sonde_perfdata_reader *r, const void *p)
{
	uint64_t v;
	__builtin_memcpy(&v, p, 8);
	return r->swap ? __builtin_bswap64(v) : v;
}

static inline uint64_t pdr_h64(const void *p)
{
	uint64_t v;

	__builtin_memcpy(&v, p, 8);
	return v;
}

/*
 * Read-ahead thread for big mapped files: started by the first scan,
 * told the scan position every MiB, releases consumed pages for the
 * reader (pdr_ahead_drop() false: no thread, do it yourself), stopped by
 * close. Output is the same with or without it.
 */
void pdr_ahead_start(struct sonde_perfdata_reader *r);
void pdr_ahead_progress_slow(struct sonde_perfdata_reader *r);
bool pdr_ahead_drop(struct sonde_perfdata_reader *r, uint64_t from,
		    uint64_t to);
void pdr_ahead_stop(struct sonde_perfdata_reader *r);
/*
 * Starts the cache misses of the next records handed out; called after
 * a record of at least PDR_PREFETCH_MIN_SIZE bytes.
 */
#define PDR_PREFETCH_MIN_SIZE 512u
void pdr_prefetch_next(const struct sonde_perfdata_reader *r);
static inline void pdr_ahead_progress(struct sonde_perfdata_reader *r)
{
	if (r->ahead && r->pos >= r->ahead_next)
		pdr_ahead_progress_slow(r);
}

/* Records the first problem; later ones are dropped. Returns -SONDE_ERR_FORMAT. */
__attribute__((format(printf, 3, 4)))
int pdr_fail(struct sonde_perfdata_reader *r, uint64_t off, const char *fmt, ...);

/* Parses the feature sections of a file / one HEADER_FEATURE payload. */
int pdr_parse_features(struct sonde_perfdata_reader *r);
/* Frees the decoded features (cpu_topo, ...). */
void pdr_feat_free(struct sonde_perfdata_reader *r);
int pdr_parse_feature(struct sonde_perfdata_reader *r, int feat,
		      uint64_t off, uint64_t size);

/* Adds an attr (file attrs section or HEADER_ATTR); attr bytes at @p off. */
int pdr_add_attr(struct sonde_perfdata_reader *r, uint64_t off, uint32_t avail,
		 const uint8_t *ids, uint64_t nr_ids);
void pdr_attr_layout(struct pdr_attr *a);
const char *pdr_event_name_default(const struct sonde_perf_event_attr *attr,
				   char *buf, size_t sz);

/* Record stream scanning and ordering. */
int pdr_stream_next(struct sonde_perfdata_reader *r, struct sonde_perfdata_record *rec);
int pdr_attr_of_id(struct sonde_perfdata_reader *r, uint64_t id);
/* Queues kernel record @p (file byte order) found at location @loc. */
int pdr_stream_queue(struct sonde_perfdata_reader *r, const uint8_t *p, uint32_t type,
		     uint16_t size, uint64_t loc);
/* A FINISHED_ROUND marker. */
void pdr_stream_round(struct sonde_perfdata_reader *r);

/*
 * COMPRESSED records (perf record -z). Their records are decompressed into
 * memory the reader owns and queued with a location that has PDR_ZLOC set
 * (chunk index << 32 | byte in chunk) instead of a file offset; those sort
 * after file records of the same time, which only reorders exact ties.
 */
#define PDR_ZLOC (1ULL << 63)
/* Decompresses the COMPRESSED(2) record at @off and queues its records. */
int pdr_zstd_record(struct sonde_perfdata_reader *r, uint64_t off, uint32_t type,
		    uint16_t size);
/* The record stream ended: complains about a record left incomplete. */
void pdr_zstd_finish(struct sonde_perfdata_reader *r);
void pdr_zstd_free(struct pdr_zstd *z);

/* Input byte at stream offset @off (which must be in the window). */
static inline const uint8_t *pdr_ptr(const struct sonde_perfdata_reader *r,
				     uint64_t off)
{
	return r->base + (off - r->base_off);
}

/*
 * Chunks. A new chunk of @cap bytes for the records of COMPRESSED record
 * @src_off (raw false) or for records copied from a pipe (raw true);
 * returns NULL on ENOMEM. Locations in chunks are PDR_ZLOC | index << 32 |
 * byte; queueing one takes a reference, handing it out drops it, and in
 * pipe mode a sealed chunk is freed once no queued record is left in it
 * (at the next next(), so the record just handed out stays valid).
 */
struct pdr_chunk *pdr_chunk_new(struct sonde_perfdata_reader *r, size_t cap,
				uint64_t src_off, bool raw, uint64_t *idx);
struct pdr_chunk *pdr_chunk_get(const struct sonde_perfdata_reader *r, uint64_t idx);
void pdr_chunk_seal(struct sonde_perfdata_reader *r, uint64_t idx);
void pdr_chunk_ref(struct sonde_perfdata_reader *r, uint64_t loc);
void pdr_chunk_unref(struct sonde_perfdata_reader *r, uint64_t loc);
void pdr_chunk_release(struct sonde_perfdata_reader *r);
void pdr_chunks_free(struct sonde_perfdata_reader *r);
/* Copies a pipe record (found at stream offset @off) into the open slab. */
const uint8_t *pdr_slab_add(struct sonde_perfdata_reader *r, const uint8_t *p,
			    uint16_t size, uint64_t off, uint64_t *loc);

static inline const uint8_t *pdr_chunk_at(const struct sonde_perfdata_reader *r,
					  uint64_t loc, uint64_t *off)
{
	const struct pdr_chunk *c = pdr_chunk_get(r, (loc & ~PDR_ZLOC) >> 32);
	const uint8_t *p = c->buf + (uint32_t)loc;

	if (c->raw) {
		*off = pdr_h64(p);
		return p + 8;
	}
	*off = c->src_off;
	return p;
}

/* Where a queued record lives: the input, or a chunk. */
static inline const uint8_t *pdr_rec_at(const struct sonde_perfdata_reader *r,
					uint64_t loc, uint64_t *off)
{
	if (loc & PDR_ZLOC)
		return pdr_chunk_at(r, loc, off);
	*off = loc;
	return r->base + loc;
}

/*
 * Incremental pipe input (perfdata_read_in.c). The read function returns
 * bytes read, 0 at the end, or -1 with errno set (EINTR is retried unless
 * the stop flag is set, which ends the stream like EOF).
 */
typedef ssize_t (*pdr_read_fn)(void *arg, void *buf, size_t n);
/*
 * Opens a reader on a stream: pipe format is read incrementally, a whole
 * file-format image is read first (it needs its sections). @max_read caps
 * one read call (0: no cap), a seam for tests and the fuzzer. @fd (or -1)
 * is polled before blocking, for the wait hook.
 */
struct sonde_perfdata_reader *pdr_open_stream(pdr_read_fn fn, void *arg, int fd,
					      size_t max_read,
					      const struct sonde_perfdata_reader_opts *opts);
/* Makes bytes [off, off + n) of the stream readable (fewer at its end). */
int pdr_in_need(struct sonde_perfdata_reader *r, uint64_t off, uint64_t n);
/* Passes over bytes [from, from + n); returns how many of them there were. */
uint64_t pdr_in_skip(struct sonde_perfdata_reader *r, uint64_t from, uint64_t n);
/*
 * Copies bytes [from, from + n) into a new buffer at *@out (grown as the
 * bytes arrive, so a lying size allocates only what is there; the old
 * *@out is freed). Returns how many of them there were.
 */
uint64_t pdr_in_copy(struct sonde_perfdata_reader *r, uint64_t from, uint64_t n,
		     uint8_t **out);
/* True once the stream ended (EOF, or the stop flag). */
bool pdr_in_eof(const struct sonde_perfdata_reader *r);
bool pdr_in_stopped(const struct sonde_perfdata_reader *r);
/* The reader closes the input fd at close. */
void pdr_in_own_fd(struct sonde_perfdata_reader *r);
void pdr_in_free(struct sonde_perfdata_reader *r);
/* Open's two halves, shared with pdr_open_stream(). */
struct sonde_perfdata_reader *pdr_reader_new(const struct sonde_perfdata_reader_opts *opts);
struct sonde_perfdata_reader *pdr_reader_finish(struct sonde_perfdata_reader *r,
					       const struct sonde_perfdata_reader_opts *opts);
/*
 * For the CLI: @fn is called before the reader blocks waiting for pipe
 * input (to flush output); reading stops like at EOF once *@stop is set
 * (a signal handler installed without SA_RESTART interrupts the read).
 * No effect on a file.
 */
void pdr_set_wait_hook(struct sonde_perfdata_reader *r, void (*fn)(void *), void *arg);
void pdr_set_stop_flag(struct sonde_perfdata_reader *r, const volatile sig_atomic_t *stop);
/* Frees what sonde_perfdata_reader__tp_format() kept (perfdata_read_tp.c). */
void pdr_tp_free(struct sonde_perfdata_reader *r);
/* The TRACING_DATA blob (file feature or pipe record), or NULL. */
static inline const uint8_t *pdr_tracing_data(const struct sonde_perfdata_reader *r,
					      size_t *len)
{
	*len = (size_t)r->tracing_len;
	if (!r->tracing_len)
		return NULL;
	if (r->tracing_copy)
		return r->tracing_copy;
	if (r->in || r->tracing_off > r->len || r->tracing_len > r->len - r->tracing_off)
		return NULL;
	return r->base + r->tracing_off;
}

/* True when the reader reads a pipe incrementally. */
static inline bool pdr_streaming(const struct sonde_perfdata_reader *r)
{
	return r->in != NULL;
}

/*
 * Records are in host order by the time they are handed out (an
 * opposite-endian file is swapped in place as scanned): a SAMPLE decodes
 * with the record layer's sample_view_parse (record_priv.h).
 */
static inline const struct pdr_attr *
pdr_attr_get(const struct sonde_perfdata_reader *r, int idx)
{
	return idx >= 0 && idx < r->nr_attrs ? &r->attrs[idx] : NULL;
}

/* Private state of the perf.data writer, shared by its source files. */
/* A growable byte buffer for feature payloads. */
struct dbuf {
	unsigned char *p;
	size_t len;
	size_t cap;
	bool oom;
};

void dbuf_put(struct dbuf *b, const void *src, size_t len);
void dbuf_u32(struct dbuf *b, uint32_t v);
void dbuf_u64(struct dbuf *b, uint64_t v);
/* perf_header_string: u32 len, then the string NUL-padded to 64 bytes. */
void dbuf_string(struct dbuf *b, const char *s);
void dbuf_pad8(struct dbuf *b);

struct pw_event {
	unsigned char attr[sizeof(struct sonde_perf_event_attr)];
	char *name;
	uint64_t *ids;
	size_t nr_ids;
	uint64_t sample_type;
};

struct pw_group {
	char *name;
	int leader;
	int nr_members;
};

struct pw_build_id {
	char *filename;
	unsigned char id[20];
	size_t id_len;
	bool kernel;
};

/* AUX data written: the AUXTRACE index (perf's HEADER_AUXTRACE). */
struct pw_aux {
	bool feature;      /* write the feature (AUX data was recorded) */
	uint64_t *ent;     /* per AUXTRACE record: file offset, bytes */
	size_t nr, cap;
};

struct sonde_perfdata_writer {
	int fd;
	bool own_fd;
	bool pipe;
	bool begun;
	char *path;     /* NULL when writing to a caller's fd */
	char *final;    /* keep_old: the name @path takes at close */
	int err;        /* first write error, 0 if none */
	char **cmdline;
	size_t cmdline_n;
	char *version;

	struct pw_event *events;
	size_t nr_events;
	struct pw_group *groups;
	size_t nr_groups;
	struct pw_build_id *bids;
	size_t nr_bids;
	void *tracing;
	size_t tracing_len;
	uint32_t attr_size;

	/* Output buffer and offsets (in file bytes). */
	unsigned char *buf;
	size_t buf_len;
	uint64_t data_offset;  /* where the data section starts */
	uint64_t pos;          /* logical end of everything written */
	uint64_t flushed;      /* bytes really on disk */
	uint64_t round_mark;   /* end of the last complete round */
	uint64_t good_mark;    /* last round end known to be on disk */
	bool dirty_round;      /* records since the last round mark */
	/* Round marks still in the buffer, for a partial flush. */
	uint64_t marks[256];
	size_t nr_marks;

	struct sonde_perfdata_writer_stats st;
	struct pw_aux aux;
	/* Blocks reserved ahead of the data (perfdata_write_space.c). */
	bool reserve;          /* a file where reserving pays */
	uint64_t reserved;     /* file bytes reserved so far */
};

/*
 * perfdata_write_space.c: disk space reserved ahead of the writes where
 * that saves the writer CPU (ext4), and given back at close.
 */
void pw_space_init(struct sonde_perfdata_writer *w);
void pw_space_reserve(struct sonde_perfdata_writer *w, uint64_t end);
int pw_space_trim(struct sonde_perfdata_writer *w);
/* Appends @len bytes to the output (perfdata_write.c's buffered writer). */
int pw_out(struct sonde_perfdata_writer *w, const void *src, size_t len);
/* perfdata_write_aux.c: the AUXTRACE index feature, and freeing it. */
bool pw_auxtrace_feature(struct sonde_perfdata_writer *w, struct dbuf *b);
/*
 * cs_etm's AUXTRACE_INFO words in perf 6.1's layout (synth_auxtrace_etm.c):
 * *@out (malloc'd, the caller frees) holds *@nr words. 0 or -errno.
 */
struct sonde_pmu;
int auxtrace_cs_etm_words(const struct sonde_pmu *pmu,
			  const struct sonde_auxtrace_info_opts *o,
			  uint64_t **out, size_t *nr);
void pw_aux_free(struct sonde_perfdata_writer *w);

/* Builds the payload of feature @feat, or returns false if it is not set. */
bool pw_feature(struct sonde_perfdata_writer *w, int feat, struct dbuf *b);
/* The features this writer emits, in ascending order, for file or pipe. */
extern const int pw_file_feats[];
extern const size_t pw_nr_file_feats;
extern const int pw_pipe_feats[];
extern const size_t pw_nr_pipe_feats;

/*
 * synth.c: the records sonde_perfdata_writer__synth_*() write, handed to
 * @fn instead (valid during the call); a non-zero return stops the walk
 * and is returned. For sinks other than a writer (a profile).
 */
typedef int (*perfdata_synth_fn)(const struct sonde_record *rec, void *arg);
enum perfdata_synth_what {
	PERFDATA_SYNTH_KERNEL,	/* the kernel text map */
	PERFDATA_SYNTH_PROCESS, /* process @pid */
	PERFDATA_SYNTH_ALL,	/* every process */
};
int perfdata_synth(enum perfdata_synth_what what, pid_t pid, const struct sonde_synth_opts *opts,
		   perfdata_synth_fn fn, void *arg);

#endif /* SONDE_PERFDATA_PRIV_H */
