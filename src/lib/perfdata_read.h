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

struct pdr_qent {
	uint64_t time;
	uint64_t off; /* file order tie-break and record location */
	int32_t attr_idx;
};

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
	char **group_desc;
	size_t nr_group_desc;
	char *cpu_topology; /* rendered text for --header */

	/* Time ordering: queue of pending records, sorted per round. */
	struct pdr_qent *q;
	size_t q_len, q_cap, q_head; /* q[q_head..q_ready) are deliverable */
	size_t q_ready;
	uint64_t max_time;	  /* largest time queued so far */
	uint64_t prev_round_max; /* max_time at the previous round marker */
	uint64_t last_time;

	uint64_t nr_rounds;
	uint64_t nr_type[PDR_NR_TYPES]; /* records met in the stream, by type */
	uint64_t tracing_off, tracing_len; /* TRACING_DATA blob in base, or 0 */
	uint64_t dropped; /* file bytes below this were released (madvise) */
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
