/* SPDX-License-Identifier: LGPL-2.1-only */
/* Private state of the perf.data reader and its decoding helpers. */
#ifndef SONDE_PERFDATA_READ_H
#define SONDE_PERFDATA_READ_H

#include <stdbool.h>
#include <stdint.h>
#include "sonde/perfdata_reader.h"
#include "sonde/record.h"

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
};

struct pdr_build_id {
	int32_t pid;
	uint16_t misc;
	uint8_t size;
	uint8_t id[20];
	char *filename;
};

struct pdr_group {
	char *name; /* NULL for perf's "{anon_group}" */
	uint32_t leader, nr_members;
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

struct sonde_perfdata_reader {
	const uint8_t *base; /* whole input */
	uint64_t len;
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
	struct pdr_build_id *build_ids;
	size_t nr_build_ids;
	struct pdr_group *groups; /* GROUP_DESC */
	size_t nr_groups;
	/*
	 * Feature sections rendered the way perf 6.1's header dump prints
	 * them ("# ...\n" lines), for features < 32 that have a body worth
	 * showing (topologies, caches, pmu mappings, ...); NULL if absent.
	 */
	char *feat_info[32];
	uint64_t clockid_res_ns; /* CLOCKID */
	bool clock_data;	 /* CLOCK_DATA, version 1 */
	uint32_t clock_clockid;
	uint64_t clock_tod_ns, clock_clockid_ns;

	/* Time ordering: queue of pending records, sorted per round. */
	struct pdr_qent *q;
	struct pdr_qent *q_tmp; /* merge buffer of the sort, q_tmp_cap entries */
	size_t q_tmp_cap;
	size_t q_len, q_cap, q_head; /* q[q_head..q_ready) are deliverable */
	size_t q_ready;
	uint64_t max_time;	  /* largest time queued so far */
	uint64_t prev_round_max; /* max_time at the previous round marker */
	uint64_t last_time;

	uint64_t nr_rounds;
	uint64_t nr_type[PDR_NR_TYPES]; /* records met in the stream, by type */
	uint64_t tracing_off, tracing_len; /* TRACING_DATA blob in base, or 0 */
	uint64_t nr_compressed; /* COMPRESSED(2) records scanned */
	struct pdr_comp_info comp;
	struct pdr_zstd *zstd;
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
/* The record at PDR_ZLOC location @loc; *@off gets its COMPRESSED record's offset. */
const uint8_t *pdr_zstd_at(const struct sonde_perfdata_reader *r, uint64_t loc,
			   uint64_t *off);

/* Where a queued record lives: the input, or decompressed memory. */
static inline const uint8_t *pdr_rec_at(const struct sonde_perfdata_reader *r,
					uint64_t loc, uint64_t *off)
{
	if (loc & PDR_ZLOC)
		return pdr_zstd_at(r, loc, off);
	*off = loc;
	return r->base + loc;
}

/*
 * A decoded SAMPLE, the fields the reports use (filled from the record
 * codec's struct sonde_sample). Records are in host order by the time they
 * are handed out: an opposite-endian file is swapped in place as scanned.
 */
struct pdr_sample {
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t addr;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu;
	uint64_t period;
	uint64_t nr_callchain;
	const uint8_t *callchain; /* nr_callchain u64 */
	uint32_t raw_size;
	const uint8_t *raw;
	uint64_t regs_abi, regs_mask;
	const uint8_t *regs; /* nr_regs u64 */
	uint32_t nr_regs;
	uint64_t stack_size, stack_dyn_size;
	const uint8_t *stack;
};

int pdr_parse_sample(const struct sonde_perfdata_reader *r, const struct pdr_attr *a,
		     const uint8_t *rec, uint16_t size, struct pdr_sample *s);

static inline const struct pdr_attr *
pdr_attr_get(const struct sonde_perfdata_reader *r, int idx)
{
	return idx >= 0 && idx < r->nr_attrs ? &r->attrs[idx] : NULL;
}

#endif /* SONDE_PERFDATA_READ_H */
