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
#include <signal.h>
#include <stdint.h>
#include "sonde/common.h"
#include "sonde/perfdata_feat.h"
#include "sonde/abi.h"
#include "sonde/tracefs.h"

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
	/* Room for fields to come; the library zeroes it. */
	uint64_t reserved[2];
};

/**
 * @brief **sonde_perfdata_reader__open()** opens a perf.data file (PERFILE2,
 * file or pipe format, either byte order); @p path "-" reads stdin.
 * The header, attrs and feature sections are parsed here.
 * @return a reader to free with sonde_perfdata_reader__free(), or NULL with
 * errno set (SONDE_ERR_FORMAT for a bad file; the reason and byte offset are
 * in sonde_perfdata_reader__error()).
 */
SONDE_API struct sonde_perfdata_reader *
sonde_perfdata_reader__open(const char *path,
			    const struct sonde_perfdata_reader_opts *opts);

/**
 * @brief **sonde_perfdata_reader__open_mem()** like
 * sonde_perfdata_reader__open() on an in-memory image (copied).
 * @return a reader to free with sonde_perfdata_reader__free(), or NULL
 * with errno set.
 */
SONDE_API struct sonde_perfdata_reader *
sonde_perfdata_reader__open_mem(const void *buf, size_t len,
				const struct sonde_perfdata_reader_opts *opts);

/** @brief **sonde_perfdata_reader__free()** unmaps and frees; NULL is ok. */
SONDE_API void sonde_perfdata_reader__free(struct sonde_perfdata_reader *r);

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
 * Owned by the reader, valid until sonde_perfdata_reader__free().
 */
SONDE_API const char *
sonde_perfdata_reader__error(const struct sonde_perfdata_reader *r);

/** @brief **sonde_perfdata_reader__nr_attrs()** @return number of events. */
SONDE_API int sonde_perfdata_reader__nr_attrs(const struct sonde_perfdata_reader *r);

/**
 * @brief **sonde_perfdata_reader__attr()** returns event @p idx's attr,
 * converted to host order and zero-extended to our struct size.
 * @return the attr, or NULL if @p idx is out of range.
 * Owned by the reader, valid until sonde_perfdata_reader__free().
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

/**
 * @brief **sonde_perfdata_reader__nr_records()**: records of @p type met
 * so far (perf report --stats counts), the header records of a pipe and
 * the contents of COMPRESSED records included.
 */
SONDE_API uint64_t sonde_perfdata_reader__nr_records(const struct sonde_perfdata_reader *r,
						     uint32_t type);

/**
 * @brief **sonde_perfdata_reader__sample_time()**: the first and last
 * sample time from the SAMPLE_TIME feature (a pipe has it at its end only).
 * @return false if the file does not say.
 */
SONDE_API bool sonde_perfdata_reader__sample_time(const struct sonde_perfdata_reader *r,
						  uint64_t *first, uint64_t *last);

/** @brief **sonde_perfdata_reader__is_streaming()**: reads a pipe as data arrives (cannot rewind). */
SONDE_API bool sonde_perfdata_reader__is_streaming(const struct sonde_perfdata_reader *r);

/**
 * @brief **sonde_perfdata_reader__set_stop_flag()**: a streaming reader
 * ends like at EOF once *@p stop is set (a signal handler installed without
 * SA_RESTART interrupts a blocked read). No effect on a file.
 */
SONDE_API void sonde_perfdata_reader__set_stop_flag(struct sonde_perfdata_reader *r,
						    const volatile sig_atomic_t *stop);

/**
 * @brief **sonde_perfdata_reader__set_wait_hook()**: @p fn is called
 * before a streaming reader blocks waiting for input (to flush output).
 * No effect on a file.
 */
SONDE_API void sonde_perfdata_reader__set_wait_hook(struct sonde_perfdata_reader *r,
						    void (*fn)(void *arg), void *arg);

/**
 * @brief **sonde_perfdata_reader__data_section()** the file header's data
 * section, as the header states it (perf report --header's "data offset"
 * and "data size").
 * @return 0, or -ENOENT for pipe format (it has no data section).
 */
SONDE_API int sonde_perfdata_reader__data_section(const struct sonde_perfdata_reader *r,
						  uint64_t *offset, uint64_t *size);

/**
 * @brief **sonde_perfdata_reader__event_ids()** the sample ids of event
 * @p idx (the attr's ids section, or a pipe's HEADER_ATTR record).
 * @param nr receives how many there are (0 when none or @p idx is out of
 * range).
 * @return the ids, owned by the reader until it is freed, or NULL when none.
 */
SONDE_API const uint64_t *
sonde_perfdata_reader__event_ids(const struct sonde_perfdata_reader *r, int idx,
				 uint32_t *nr);

/*
 * Decoded header feature sections, for printing them (sonde report
 * --header lays them out as perf does). Owned by the reader; NULL when the
 * file lacks the feature or its section is corrupt. Read the structs
 * through these pointers only: fields may be added at their end.
 */

/**
 * @brief **sonde_perfdata_reader__nr_cpus()** NRCPUS: CPUs online and
 * available on the recording machine.
 * @return 0, or -ENOENT when the file lacks the feature.
 */
SONDE_API int sonde_perfdata_reader__nr_cpus(const struct sonde_perfdata_reader *r,
					     uint32_t *online, uint32_t *avail);

/**
 * @brief **sonde_perfdata_reader__total_mem()** TOTAL_MEM: the recording
 * machine's memory in kB.
 * @return 0, or -ENOENT when the file lacks the feature.
 */
SONDE_API int sonde_perfdata_reader__total_mem(const struct sonde_perfdata_reader *r,
					       uint64_t *kb);

/**
 * @brief **sonde_perfdata_reader__clockid_res()** CLOCKID: the resolution
 * of the sampling clock (attr.clockid) in ns, as perf record -k stores it.
 * @return 0, or -ENOENT when the file lacks the feature.
 */
SONDE_API int sonde_perfdata_reader__clockid_res(const struct sonde_perfdata_reader *r,
						 uint64_t *ns);

/* CLOCK_DATA: one moment read on the wall clock and on the sampling clock. */
struct sonde_feat_clock_data {
	uint32_t version;		/* 1: the only one perf knows */
	uint32_t clockid;		/* attr.clockid */
	uint64_t tod_ns;		/* wall clock (CLOCK_REALTIME) */
	uint64_t clockid_ns;		/* the sampling clock */
};

/**
 * @brief **sonde_perfdata_reader__clock_data()** @return CLOCK_DATA; NULL
 * also for a version other than 1, which perf refuses ("reference time
 * disabled") although the feature bit is set.
 * Owned by the reader, valid until sonde_perfdata_reader__free().
 */
SONDE_API const struct sonde_feat_clock_data *
sonde_perfdata_reader__clock_data(const struct sonde_perfdata_reader *r);

/* GROUP_DESC: one event group, named by its leader. */
struct sonde_feat_group {
	const char *name;		/* NULL for perf's "{anon_group}" */
	uint32_t leader;		/* event index of the leader */
	uint32_t nr_members;		/* the leader included */
};

/** @brief **sonde_perfdata_reader__nr_groups()** @return GROUP_DESC's groups (0 without). */
SONDE_API size_t sonde_perfdata_reader__nr_groups(const struct sonde_perfdata_reader *r);

/**
 * @brief **sonde_perfdata_reader__group()** @return group @p idx, or NULL
 * out of range. Owned by the reader, valid until
 * sonde_perfdata_reader__free().
 */
SONDE_API const struct sonde_feat_group *
sonde_perfdata_reader__group(const struct sonde_perfdata_reader *r, size_t idx);

/* One BUILD_ID entry: the build id of an object the samples hit. */
struct sonde_feat_build_id {
	int32_t pid;			/* -1 for the kernel's, as perf writes */
	uint16_t misc;			/* PERF_RECORD_MISC_KERNEL/_USER, ... */
	uint8_t size;			/* bytes of @id in use (20 for SHA-1) */
	uint8_t id[20];
	const char *filename;
};

/**
 * @brief **sonde_perfdata_reader__nr_build_ids()** @return BUILD_ID
 * entries: the file's feature section, or a pipe's HEADER_BUILD_ID records
 * read so far (they come at its end; an entry got before the stream's end
 * may move when another arrives, so read them once the records are read).
 */
SONDE_API size_t sonde_perfdata_reader__nr_build_ids(const struct sonde_perfdata_reader *r);

/**
 * @brief **sonde_perfdata_reader__build_id()** @return entry @p idx, or
 * NULL out of range. Owned by the reader, valid until
 * sonde_perfdata_reader__free().
 */
SONDE_API const struct sonde_feat_build_id *
sonde_perfdata_reader__build_id(const struct sonde_perfdata_reader *r, size_t idx);

/* One CPU's ids in CPU_TOPOLOGY. */
struct sonde_feat_cpu_ids {
	int32_t core, socket, die; /* die: 0 without die lists */
	int32_t reserved;	   /* room for a field to come; zero */
};

struct sonde_feat_cpu_topology {
	uint32_t nr_sockets;
	const char *const *sockets;	/* "sibling sockets" CPU lists */
	uint32_t nr_dies;		/* 0: no die lists (older perf) */
	const char *const *dies;
	uint32_t nr_threads;
	const char *const *threads;
	uint32_t nr_cpus;		/* entries of @cpus: NRCPUS' available
					 * CPUs, 0 when the file has no ids */
	const struct sonde_feat_cpu_ids *cpus;
};

/**
 * @brief **sonde_perfdata_reader__cpu_topology()** @return CPU_TOPOLOGY.
 * Owned by the reader, valid until sonde_perfdata_reader__free().
 */
SONDE_API const struct sonde_feat_cpu_topology *
sonde_perfdata_reader__cpu_topology(const struct sonde_perfdata_reader *r);

/* NUMA_TOPOLOGY: one entry per node. */
struct sonde_feat_numa_node {
	uint32_t node;
	uint64_t mem_total_kb, mem_free_kb;
	const char *cpus;		/* CPU list, "0-3" */
};

struct sonde_feat_numa_topology {
	uint32_t nr;
	const struct sonde_feat_numa_node *const *nodes;
};

/**
 * @brief **sonde_perfdata_reader__numa_topology()** @return NUMA_TOPOLOGY.
 * Owned by the reader, valid until sonde_perfdata_reader__free().
 */
SONDE_API const struct sonde_feat_numa_topology *
sonde_perfdata_reader__numa_topology(const struct sonde_perfdata_reader *r);

/* PMU_MAPPINGS: the PMUs of the recording machine and their types. */
struct sonde_feat_pmu_mapping {
	const char *name;
	uint32_t type;
};

struct sonde_feat_pmu_mappings {
	uint32_t nr;
	const struct sonde_feat_pmu_mapping *const *pmus;
};

/**
 * @brief **sonde_perfdata_reader__pmu_mappings()** @return PMU_MAPPINGS.
 * Owned by the reader, valid until sonde_perfdata_reader__free().
 */
SONDE_API const struct sonde_feat_pmu_mappings *
sonde_perfdata_reader__pmu_mappings(const struct sonde_perfdata_reader *r);

/* CACHE: one entry per cache of the recording CPU. */
struct sonde_feat_cache {
	uint32_t level, line_size, sets, ways;
	const char *type;		/* "Data", "Instruction", "Unified" */
	const char *size;		/* as sysfs wrote it: "32K" */
	const char *map;		/* shared_cpu_list */
};

struct sonde_feat_caches {
	uint32_t nr;
	const struct sonde_feat_cache *const *caches;
};

/**
 * @brief **sonde_perfdata_reader__caches()** @return CACHE. Owned by the
 * reader, valid until sonde_perfdata_reader__free().
 */
SONDE_API const struct sonde_feat_caches *
sonde_perfdata_reader__caches(const struct sonde_perfdata_reader *r);

/* HYBRID_TOPOLOGY: the CPUs of each core type's PMU. */
struct sonde_feat_hybrid_pmu {
	const char *pmu;		/* "cpu_core" */
	const char *cpus;
};

struct sonde_feat_hybrid_topology {
	uint32_t nr;
	const struct sonde_feat_hybrid_pmu *const *pmus;
};

/**
 * @brief **sonde_perfdata_reader__hybrid_topology()** @return
 * HYBRID_TOPOLOGY. Owned by the reader, valid until
 * sonde_perfdata_reader__free().
 */
SONDE_API const struct sonde_feat_hybrid_topology *
sonde_perfdata_reader__hybrid_topology(const struct sonde_perfdata_reader *r);

/* MEM_TOPOLOGY: each node's memory blocks as a bitmap. */
struct sonde_feat_mem_node {
	uint64_t node;
	uint64_t size;			/* bytes, as perf stored it */
	uint64_t nr_bits;		/* blocks covered by @bitmap */
	const uint64_t *bitmap;		/* bit b: block b is on this node */
};

struct sonde_feat_mem_topology {
	uint64_t version;
	uint64_t block_size;		/* bytes per block */
	uint32_t nr;
	const struct sonde_feat_mem_node *const *nodes;
};

/**
 * @brief **sonde_perfdata_reader__mem_topology()** @return MEM_TOPOLOGY.
 * Owned by the reader, valid until sonde_perfdata_reader__free().
 */
SONDE_API const struct sonde_feat_mem_topology *
sonde_perfdata_reader__mem_topology(const struct sonde_perfdata_reader *r);

/* One PMU's capabilities (name=value pairs from sysfs caps/). */
struct sonde_feat_pmu_caps {
	const char *pmu;		/* "cpu" for CPU_PMU_CAPS */
	uint32_t nr;
	const char *const *names;
	const char *const *values;
};

struct sonde_feat_pmu_caps_list {
	uint32_t nr;
	const struct sonde_feat_pmu_caps *const *pmus;
};

/**
 * @brief **sonde_perfdata_reader__pmu_caps()** @return CPU_PMU_CAPS (one
 * PMU, "cpu") for @p feat SONDE_FEAT_CPU_PMU_CAPS, PMU_CAPS for
 * SONDE_FEAT_PMU_CAPS.
 * Owned by the reader, valid until sonde_perfdata_reader__free().
 */
SONDE_API const struct sonde_feat_pmu_caps_list *
sonde_perfdata_reader__pmu_caps(const struct sonde_perfdata_reader *r, int feat);

/* BPF_BTF: the ids of the BTF objects the file carries. */
struct sonde_feat_bpf_btf {
	uint32_t nr;
	const uint32_t *ids;
};

/**
 * @brief **sonde_perfdata_reader__bpf_btf()** @return BPF_BTF. Owned by the
 * reader, valid until sonde_perfdata_reader__free().
 */
SONDE_API const struct sonde_feat_bpf_btf *
sonde_perfdata_reader__bpf_btf(const struct sonde_perfdata_reader *r);

/* COMPRESSED: how the records were compressed (perf record -z). */
struct sonde_feat_compressed {
	uint32_t version;
	uint32_t type;			/* 1: Zstd */
	uint32_t level, ratio;
	uint32_t mmap_len;		/* ring size: bounds one record's output */
};

/**
 * @brief **sonde_perfdata_reader__compressed()** @return COMPRESSED. Owned
 * by the reader, valid until sonde_perfdata_reader__free().
 */
SONDE_API const struct sonde_feat_compressed *
sonde_perfdata_reader__compressed(const struct sonde_perfdata_reader *r);

/**
 * @brief **sonde_perfdata_reader__dir_format()** reads DIR_FORMAT's data
 * version into @p version.
 * @return 0, or -ENOENT when the file lacks it (or it is corrupt).
 */
SONDE_API int sonde_perfdata_reader__dir_format(const struct sonde_perfdata_reader *r,
						uint64_t *version);

/**
 * @brief **sonde_perfdata_reader__tracing_data()** returns the TRACING_DATA
 * blob (the tracefs formats of the recording machine): the file's feature
 * section, or a pipe's record once it has been read.
 * @param len receives its size (0 when absent); may be NULL.
 * @return the blob, owned by the reader, or NULL when there is none.
 */
SONDE_API const void *
sonde_perfdata_reader__tracing_data(const struct sonde_perfdata_reader *r,
				    size_t *len);

/* One event format file of a TRACING_DATA blob (text not NUL-terminated). */
typedef int (*sonde_tracing_format_fn)(void *ctx, const char *sys,
				       const char *text, size_t len);

/**
 * @brief **sonde_tracing_data__for_each_format()** walks a TRACING_DATA
 * blob (untrusted: every length is checked against @p len) and calls @p fn
 * for each event format file, in blob order, until it returns non-zero.
 * The text can be given to sonde_tp_format__parse().
 * @param err_off may be NULL; receives the byte offset of a problem.
 * @return 0, the callback's non-zero value, or -SONDE_ERR_FORMAT (errno
 * set) for a corrupt blob.
 */
SONDE_API int sonde_tracing_data__for_each_format(const void *data, size_t len,
						  sonde_tracing_format_fn fn,
						  void *ctx, size_t *err_off);


/* What sonde_perfdata_reader__tp_format() returns on success (bits). */
enum {
	SONDE_TP_RECORDED = 0,	/* the format came from the recording */
	SONDE_TP_TRACEFS = 1,	/* it came from this machine's tracefs */
	/* OR'ed in: the recording's TRACING_DATA is corrupt; formats from
	 * the corrupt spot on were not read (errbuf says where). */
	SONDE_TP_BAD_TRACING_DATA = 2,
};

struct sonde_perfdata_tp_opts {
	size_t sz;		/* sizeof(struct sonde_perfdata_tp_opts) */
	sonde_tp_sym_fn sym;	/* names %pS/%ps for the evaluator; NULL: hex */
	void *sym_ctx;		/* passed to @sym */
	/* If set, receives what is wrong with the recording's TRACING_DATA
	 * (with the byte offset inside it), or "" when nothing is. */
	char *errbuf;
	size_t errbuf_size;
	size_t : 0;
};
#define sonde_perfdata_tp_opts__last_field errbuf_size

/**
 * @brief **sonde_perfdata_reader__tp_format()** finds the format of
 * tracepoint event @p idx (attr.type PERF_TYPE_TRACEPOINT): the recording
 * machine's, from the reader's TRACING_DATA by attr.config (the event id),
 * else this machine's tracefs (sonde_tracefs__root()) by the event's
 * "sys:name" when its ID there is the same one (the same kernel's
 * numbering; another kernel's format is not guessed at). TRACING_DATA is
 * untrusted: it is walked and parsed once per reader, on the first call
 * that finds it (on a pipe, its record comes before the samples: call
 * this when a sample needs it); a format that does not parse spoils only
 * its own event. The answer for @p idx is decided by its first call and
 * kept; evaluators are made once per @p idx and (sym, sym_ctx) pair.
 * Not thread-safe, like the rest of the reader.
 * @param opts may be NULL (addresses in hex, no error text).
 * @param fmt receives the format; owned by the reader, valid until
 * sonde_perfdata_reader__free().
 * @param print may be NULL; receives the print fmt's evaluator
 * (sonde_tp_print__new() with @p opts' sym), owned by the reader and
 * valid until sonde_perfdata_reader__free(), or NULL when the print fmt
 * is not understood (print the fields instead).
 * @return SONDE_TP_RECORDED or SONDE_TP_TRACEFS, with
 * SONDE_TP_BAD_TRACING_DATA OR'ed in when the blob is corrupt; or
 * -EINVAL (no such event, not a tracepoint, bad arguments), -ENOENT
 * (neither the recording nor this machine has it), -SONDE_ERR_FORMAT
 * (the blob is corrupt and this machine does not have it either),
 * -ENOMEM. @p fmt and @p print are NULL on error.
 */
SONDE_API int sonde_perfdata_reader__tp_format(struct sonde_perfdata_reader *r, int idx,
					       const struct sonde_perfdata_tp_opts *opts,
					       const struct sonde_tp_format **fmt,
					       const struct sonde_tp_print **print);

#ifdef __cplusplus
}
#endif
#endif /* SONDE_PERFDATA_READER_H */
