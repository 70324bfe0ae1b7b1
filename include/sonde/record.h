/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * Decoding and encoding of perf records: every record the kernel writes into
 * the ring buffer, every PERF_RECORD_SAMPLE field, the sample_id_all trailer,
 * and the user-space record types perf.data adds (64 and up).
 *
 * Decoding fills a plain struct. Variable-length parts (callchain, raw data,
 * branch entries, registers, stack dump, strings) are pointers into the
 * record's own bytes: nothing is allocated, and the struct is only valid while
 * those bytes are. Array pointers (const uint64_t *, branch entries, ...) may
 * be dereferenced only if the record starts 8-byte aligned, as records in the
 * ring buffer and in perf.data's data section do; the decoder itself never
 * needs alignment.
 *
 * Layout knowledge is kept in one place: the same walker decodes, validates
 * (never past header.size, -SONDE_ERR_FORMAT with the offending offset) and
 * byte-swaps records written on a machine of the other byte order.
 */
#ifndef SONDE_RECORD_H
#define SONDE_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include "sonde/common.h"
#include "sonde/abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Which MMAP2 layout to expect (struct sonde_record_fmt.mmap2_build_id).
 * Readers of perf.data trust the misc bit PERF_RECORD_MISC_MMAP_BUILD_ID, as
 * perf does, and synthesized records may carry build ids whatever the attr
 * says. Records straight from a kernel ring cannot be trusted that way: the
 * kernel (seen on 6.18) leaves the bit set in the MMAP2 records of an event
 * without attr.build_id when another event saw the same mmap with build_id,
 * while their body still holds maj/min/ino. Decode those with
 * SONDE_RECORD_BUILD_ID_OFF, or repair them with sonde_record__fixup().
 */
enum sonde_mmap2_build_id {
	SONDE_RECORD_BUILD_ID_MISC = 0, /* trust the misc bit (files) */
	SONDE_RECORD_BUILD_ID_OFF = 1,	/* kernel ring, attr.build_id = 0 */
	SONDE_RECORD_BUILD_ID_ON = 2,	/* attr.build_id = 1: the misc bit says */
};

/*
 * The attr fields that decide a record's layout. Plain data: fill it by hand
 * or with sonde_record_fmt__from_attr().
 */
struct sonde_record_fmt {
	uint64_t sample_type;	     /* SONDE_PERF_SAMPLE_* */
	uint64_t read_format;	     /* SONDE_PERF_FORMAT_* */
	uint64_t branch_sample_type; /* HW_INDEX / COUNTERS change the layout */
	uint64_t sample_regs_user;   /* popcount = registers per REGS_USER */
	uint64_t sample_regs_intr;   /* popcount = registers per REGS_INTR */
	bool sample_id_all;	     /* non-sample records carry the trailer */
	uint8_t mmap2_build_id;	     /* enum sonde_mmap2_build_id */
	/* Room for fields to come: leave it zero. */
	uint64_t reserved[2];
};

/**
 * @brief **sonde_record_fmt__from_attr()** copies the layout-deciding fields
 * of @p attr into @p fmt.
 * @return 0; -SONDE_ERR_UNSUPPORTED if @p attr uses sample_type or
 * read_format bits this library does not know (records could not be walked).
 */
SONDE_API int sonde_record_fmt__from_attr(struct sonde_record_fmt *fmt,
					  const struct sonde_perf_event_attr *attr);

/**
 * @brief **sonde_record_fmt__id_hdr_size()** is the size in bytes of the
 * sample_id trailer non-sample records carry under @p fmt (0 without
 * sample_id_all).
 */
SONDE_API size_t sonde_record_fmt__id_hdr_size(const struct sonde_record_fmt *fmt);

/* ---- decoded pieces ---- */

/* The sample_id_all trailer; each field is valid if its bit is in sample_type. */
struct sonde_sample_id {
	uint32_t pid, tid;	 /* TID */
	uint64_t time;		 /* TIME */
	uint64_t id;		 /* ID */
	uint64_t stream_id;	 /* STREAM_ID */
	uint32_t cpu, cpu_res;	 /* CPU */
	uint64_t identifier;	 /* IDENTIFIER */
	/*
	 * Room for fields to come: struct sonde_record embeds this ahead of
	 * its union, so a field added without room would move the union.
	 * The decoders zero it.
	 */
	uint64_t reserved[2];
};
#ifndef __cplusplus
_Static_assert(sizeof(struct sonde_sample_id) == 64, "sonde_sample_id: ABI size");
#endif

/*
 * struct read_format, as in a sample (PERF_SAMPLE_READ) or PERF_RECORD_READ.
 * Without PERF_FORMAT_GROUP the single counter is in value/id/lost and nr = 1.
 * With it, @group points at nr entries of sonde_read_values__entry_words()
 * u64s each: value, then id if FORMAT_ID, then lost if FORMAT_LOST; read them
 * with sonde_read_values__entry().
 */
struct sonde_read_values {
	uint64_t nr;
	uint64_t time_enabled;	 /* FORMAT_TOTAL_TIME_ENABLED */
	uint64_t time_running;	 /* FORMAT_TOTAL_TIME_RUNNING */
	uint64_t value, id, lost; /* single counter */
	const uint64_t *group;	 /* FORMAT_GROUP entries */
};

/** @brief **sonde_read_values__entry_words()**: u64s per group entry. */
SONDE_API unsigned int sonde_read_values__entry_words(uint64_t read_format);

/**
 * @brief **sonde_read_values__entry()** returns entry @p i of a group read
 * (fields absent from @p read_format are 0). For a single read, i = 0 gives
 * value/id/lost.
 * @return 0, or -EINVAL if @p i >= nr.
 */
SONDE_API int sonde_read_values__entry(const struct sonde_read_values *rv,
				       uint64_t read_format, uint64_t i,
				       struct sonde_perf_read_group_entry *out);

/* Registers: nr = popcount(mask) if abi != ABI_NONE, else 0 (no regs). */
struct sonde_sample_regs {
	uint64_t abi;
	uint32_t nr;
	const uint64_t *regs;
};

/*
 * One PERF_RECORD_SAMPLE. Fields are valid when their bit is in
 * sample_type (copied from the fmt at decode). @identifier and @id are kept
 * apart so a record re-encodes byte for byte; the kernel writes the same
 * value into both.
 */
struct sonde_sample {
	uint64_t sample_type;
	uint64_t identifier;		/* IDENTIFIER */
	uint64_t ip;			/* IP */
	uint32_t pid, tid;		/* TID */
	uint64_t time;			/* TIME */
	uint64_t addr;			/* ADDR */
	uint64_t id;			/* ID */
	uint64_t stream_id;		/* STREAM_ID */
	uint32_t cpu, cpu_res;		/* CPU */
	uint64_t period;		/* PERIOD */
	struct sonde_read_values read;	/* READ */
	struct {			/* CALLCHAIN */
		uint64_t nr;
		const uint64_t *ips;
	} callchain;
	struct {			/* RAW: size includes the kernel's padding */
		uint32_t size;
		const void *data;
	} raw;
	struct {			/* BRANCH_STACK */
		uint64_t nr;
		uint64_t hw_idx;	/* if branch_sample_type has HW_INDEX */
		const struct sonde_perf_branch_entry *entries;
		const uint64_t *counters; /* nr u64s if BRANCH_COUNTERS, else NULL */
	} branch;
	struct sonde_sample_regs regs_user; /* REGS_USER */
	struct {			/* STACK_USER: dyn_size only if size != 0 */
		uint64_t size;
		const void *data;
		uint64_t dyn_size;
	} stack_user;
	union sonde_perf_sample_weight weight; /* WEIGHT or WEIGHT_STRUCT */
	union sonde_perf_mem_data_src data_src; /* DATA_SRC */
	uint64_t transaction;		/* TRANSACTION */
	struct sonde_sample_regs regs_intr; /* REGS_INTR */
	uint64_t phys_addr;		/* PHYS_ADDR */
	uint64_t cgroup;		/* CGROUP */
	uint64_t data_page_size;	/* DATA_PAGE_SIZE */
	uint64_t code_page_size;	/* CODE_PAGE_SIZE */
	struct {			/* AUX */
		uint64_t size;
		const void *data;
	} aux;
};

/*
 * Strings (filename, comm, name, path) point at the NUL-terminated text in
 * the record. *_size is the room the record gives it (NUL and padding
 * included); the encoder uses it when it is large enough, else the kernel's
 * ALIGN(strlen + 1, 8). Leave it 0 when building a record.
 */

/* PERF_RECORD_MMAP and PERF_RECORD_MMAP2. */
struct sonde_record_mmap {
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	/* MMAP2, inode variant */
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	/* MMAP2 build-id variant (see enum sonde_mmap2_build_id) */
	bool has_build_id;	/* set by decode; encode goes by fmt + misc */
	uint8_t build_id_size;
	uint8_t build_id[SONDE_BUILD_ID_MAX_SIZE];
	/* MMAP2 */
	uint32_t prot, flags;
	const char *filename;
	uint16_t filename_size;
};

struct sonde_record_lost { uint64_t id, lost; };

struct sonde_record_comm {
	uint32_t pid, tid;
	const char *comm;
	uint16_t comm_size;
};

/* PERF_RECORD_FORK and PERF_RECORD_EXIT. */
struct sonde_record_task {
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};

/* PERF_RECORD_THROTTLE and PERF_RECORD_UNTHROTTLE. */
struct sonde_record_throttle { uint64_t time, id, stream_id; };

struct sonde_record_read {
	uint32_t pid, tid;
	struct sonde_read_values values;
};

struct sonde_record_aux { uint64_t aux_offset, aux_size, flags; };
struct sonde_record_itrace_start { uint32_t pid, tid; };
struct sonde_record_lost_samples { uint64_t lost; };

/* PERF_RECORD_SWITCH_CPU_WIDE (PERF_RECORD_SWITCH has no body). */
struct sonde_record_switch { uint32_t next_prev_pid, next_prev_tid; };

struct sonde_record_namespaces {
	uint32_t pid, tid;
	uint64_t nr;
	const struct sonde_perf_ns_link_info *link;
};

struct sonde_record_ksymbol {
	uint64_t addr;
	uint32_t len;
	uint16_t ksym_type, flags;
	const char *name;
	uint16_t name_size;
};

struct sonde_record_bpf_event {
	uint16_t type, flags;
	uint32_t id;
	uint8_t tag[SONDE_BPF_TAG_SIZE];
};

struct sonde_record_cgroup {
	uint64_t id;
	const char *path;
	uint16_t path_size;
};

/* bytes = old_len old bytes then new_len new bytes. */
struct sonde_record_text_poke {
	uint64_t addr;
	uint16_t old_len, new_len;
	const uint8_t *bytes;
};

struct sonde_record_aux_output_hw_id { uint64_t hw_id; };

/* ---- user-space (perf.data) records ---- */

/*
 * HEADER_ATTR: attr is copied out (zero past attr_size, so every field may be
 * read); bytes of a larger, newer attr beyond sizeof(attr) are skipped on
 * decode and written as zeros on encode. attr_size = 0 on encode means
 * attr.size.
 */
struct sonde_record_header_attr {
	struct sonde_perf_event_attr attr;
	uint32_t attr_size;
	uint64_t nr_ids;
	const uint64_t *ids;
};

/*
 * HEADER_TRACING_DATA: @size bytes of tracing data FOLLOW the record (they
 * are not counted in header.size). perf 6.1 writes a 12-byte record, newer
 * perf pads it to 16 (@padded).
 */
struct sonde_record_tracing_data {
	uint32_t size;
	bool padded;
};

/* HEADER_BUILD_ID. size is meaningful if misc has MISC_BUILD_ID_SIZE. */
#define SONDE_PERF_RECORD_MISC_BUILD_ID_SIZE (1 << 15)
struct sonde_record_build_id {
	int32_t pid;
	uint8_t build_id[SONDE_BUILD_ID_MAX_SIZE];
	uint8_t size;
	const char *filename;
	uint16_t filename_size;
};

struct sonde_id_index_entry { uint64_t id, idx, cpu, tid; };
struct sonde_id_index_entry2 { uint64_t machine_pid, vcpu; };

/* ID_INDEX; entries2 (newer perf) is NULL when the record has none. */
struct sonde_record_id_index {
	uint64_t nr;
	const struct sonde_id_index_entry *entries;
	const struct sonde_id_index_entry2 *entries2;
};

struct sonde_thread_map_entry {
	uint64_t pid;
	char comm[16];
};

struct sonde_record_thread_map {
	uint64_t nr;
	const struct sonde_thread_map_entry *entries;
};

/* TIME_CONV; the fields after time_zero exist only if @extended. */
struct sonde_record_time_conv {
	uint64_t time_shift, time_mult, time_zero;
	bool extended;
	uint64_t time_cycles, time_mask;
	uint8_t cap_user_time_zero, cap_user_time_short;
};

/* HEADER_FEATURE: the payload is the feature section, unswapped. */
struct sonde_record_header_feature {
	uint64_t feat_id;
	const void *data;
	size_t size;
};

/* EVENT_UPDATE types (what the payload is). */
enum sonde_event_update_type {
	SONDE_EVENT_UPDATE_UNIT = 0,	/* NUL-padded string */
	SONDE_EVENT_UPDATE_SCALE = 1,	/* double */
	SONDE_EVENT_UPDATE_NAME = 2,	/* NUL-padded string */
	SONDE_EVENT_UPDATE_CPUS = 3,	/* a CPU_MAP payload, left raw */
};

/*
 * EVENT_UPDATE: unit, scale, name or cpus of the event with @id. @str is
 * set (NUL-terminated within the payload) for UNIT and NAME, @scale for
 * SCALE; @data/@size always hold the raw payload, which the encoder writes.
 */
struct sonde_record_event_update {
	uint64_t type, id;
	const void *data;
	size_t size;
	const char *str;
	double scale;
};

/*
 * AUXTRACE_INFO: the AUX area tracer (@type, enum sonde_auxtrace_type) and
 * its @nr_priv private words, which @type defines (intel_pt: PMU type, TSC
 * conversion, config bits...); perf needs it before any AUXTRACE record.
 */
struct sonde_record_auxtrace_info {
	uint32_t type, reserved;
	const uint64_t *priv;
	uint64_t nr_priv;
};

/* AUXTRACE: @size bytes of AUX data FOLLOW the record. */
struct sonde_record_auxtrace {
	uint64_t size, offset, reference;
	uint32_t idx, tid, cpu, reserved;
};

/*
 * One decoded record. @body/@body_size (the bytes after the header) are set
 * for every type; for types without a typed member (unknown ones, CPU_MAP,
 * STAT, COMPRESSED, ...) they are all there is, and the encoder copies
 * them back. FINISHED_ROUND, FINISHED_INIT and SWITCH have no body.
 */
struct sonde_record {
	uint32_t type;
	uint16_t misc;
	uint16_t size;		/* header.size; set by decode, computed by encode */
	const void *bytes;	/* the record, header included */
	const void *body;
	size_t body_size;
	bool has_sample_id;	/* the trailer was decoded into @sample_id */
	/* On -SONDE_ERR_FORMAT: where inside the record, and what was wrong. */
	uint32_t err_offset;
	const char *err_what;
	struct sonde_sample_id sample_id;
	/*
	 * Last, so that a member that grows moves nothing; the reserved room
	 * keeps the struct's size when one does (up to 384 bytes).
	 */
	union {
		uint64_t reserved_room[48];
		struct sonde_sample sample;
		struct sonde_record_mmap mmap;	/* MMAP, MMAP2 */
		struct sonde_record_lost lost;
		struct sonde_record_comm comm;
		struct sonde_record_task task;	/* FORK, EXIT */
		struct sonde_record_throttle throttle; /* THROTTLE, UNTHROTTLE */
		struct sonde_record_read read;
		struct sonde_record_aux aux;
		struct sonde_record_itrace_start itrace_start;
		struct sonde_record_lost_samples lost_samples;
		struct sonde_record_switch switch_cpu_wide;
		struct sonde_record_namespaces namespaces;
		struct sonde_record_ksymbol ksymbol;
		struct sonde_record_bpf_event bpf_event;
		struct sonde_record_cgroup cgroup;
		struct sonde_record_text_poke text_poke;
		struct sonde_record_aux_output_hw_id aux_output_hw_id;
		struct sonde_record_header_attr header_attr;
		struct sonde_record_tracing_data tracing_data;
		struct sonde_record_build_id build_id;
		struct sonde_record_id_index id_index;
		struct sonde_record_thread_map thread_map;
		struct sonde_record_time_conv time_conv;
		struct sonde_record_header_feature header_feature;
		struct sonde_record_auxtrace auxtrace;
		struct sonde_record_auxtrace_info auxtrace_info;
		struct sonde_record_event_update event_update;
	};
};

/**
 * @brief **sonde_record__decode()** decodes the record at @p buf (at most
 * @p len bytes available) under @p fmt into @p rec. Reads nothing past
 * min(header.size, @p len).
 * @return 0; -SONDE_ERR_FORMAT if the record's fields do not fit its size (or
 * @p fmt), with rec->err_offset / rec->err_what saying where and what; types
 * this library does not know decode to body/body_size only and return 0.
 */
SONDE_API int sonde_record__decode(const struct sonde_record_fmt *fmt,
				   const void *buf, size_t len,
				   struct sonde_record *rec);

/**
 * @brief **sonde_record__encode()** writes @p rec (type, misc and the member
 * for its type, plus the sample_id trailer from rec->sample_id when @p fmt
 * has sample_id_all) into @p buf. With @p buf NULL only computes the size.
 * The header's size is computed, never taken from rec->size.
 * @return the record size (8-byte aligned for kernel types); -ENOSPC if
 * @p size is too small, -E2BIG if the record would exceed 65535 bytes,
 * -EINVAL if @p rec is inconsistent (e.g. NULL array with nr > 0, build id
 * longer than 20 bytes).
 */
SONDE_API int sonde_record__encode(const struct sonde_record_fmt *fmt,
				   const struct sonde_record *rec,
				   void *buf, size_t size);

/**
 * @brief **sonde_record__swap()** byte-swaps the record at @p buf in place,
 * from the other byte order to the host's: header first, then every field
 * by the same layout the decoder uses (@p fmt in host order). Byte arrays
 * (strings, raw/stack/aux data, build ids) are left alone; HEADER_ATTR's attr
 * is swapped like sonde_perf_event_attr__swap(); HEADER_FEATURE payloads,
 * CPU_MAP and unknown bodies are left for their owners.
 * @return 0, or -SONDE_ERR_FORMAT (the record may then be partly swapped).
 */
SONDE_API int sonde_record__swap(const struct sonde_record_fmt *fmt,
				 void *buf, size_t len);

/**
 * @brief **sonde_perf_event_attr__swap()** byte-swaps a perf_event_attr of
 * @p size bytes (only the fields within @p size) from the other byte order,
 * including the flag bit-fields, whose bit order also differs.
 * @return 0, or -SONDE_ERR_FORMAT if @p size is below SONDE_PERF_ATTR_SIZE_VER0
 * or the attr's own size field (after swapping) disagrees with nothing we can
 * read; the attr's size field is not trusted, @p size is.
 */
SONDE_API int sonde_perf_event_attr__swap(void *attr, size_t size);

/**
 * @brief **sonde_record__id()** finds the event id of the record at @p buf
 * without decoding it: the IDENTIFIER slot (first u64 of a sample, last of
 * any other kernel record's trailer), or failing that the ID slot.
 * @return 0 and *@p id; -ENOENT if @p fmt puts no id in this record type;
 * -SONDE_ERR_FORMAT if the record is too short to hold it.
 */
SONDE_API int sonde_record__id(const struct sonde_record_fmt *fmt,
			       const void *buf, size_t len, uint64_t *id);

/**
 * @brief **sonde_record__fixup()** repairs, in place, what the kernel gets
 * wrong in a record straight from the ring buffer of the event opened with
 * @p attr, before the record is stored or decoded: clears
 * PERF_RECORD_MISC_MMAP_BUILD_ID on an MMAP2 record when attr.build_id is 0
 * (see enum sonde_mmap2_build_id). Writers of perf.data should run every
 * kernel record through it, as perf itself trusts that bit.
 * @return 1 if the record was changed, 0 if not, -SONDE_ERR_FORMAT if
 * @p len cannot hold the record's header or size.
 */
SONDE_API int sonde_record__fixup(const struct sonde_perf_event_attr *attr,
				  void *buf, size_t len);

/**
 * @brief **sonde_record__sample_id()** reads the where/when fields of the
 * record at @p buf without decoding it: for a sample its leading TID, TIME,
 * ID, STREAM_ID, CPU and IDENTIFIER (all at fixed places), for any other
 * kernel record its sample_id trailer. For sorting and demultiplexing.
 * @return 0 and *@p sid (fields absent from sample_type are 0); -ENOENT for
 * records without them (user types, or no sample_id_all);
 * -SONDE_ERR_FORMAT if the record is too short.
 */
SONDE_API int sonde_record__sample_id(const struct sonde_record_fmt *fmt,
				      const void *buf, size_t len,
				      struct sonde_sample_id *sid);

/**
 * @brief **sonde_record_type_name()** gives "PERF_RECORD_MMAP2" and the like,
 * for kernel and perf.data user types.
 * @return a static string, or NULL for a type this library does not know.
 */
SONDE_API const char *sonde_record_type_name(uint32_t type);

/**
 * @brief **sonde_sample_type_bit_name()** gives "IP", "TID", ... for one
 * SONDE_PERF_SAMPLE_* bit.
 * @return a static string, or NULL if @p bit is not exactly one known bit.
 */
SONDE_API const char *sonde_sample_type_bit_name(uint64_t bit);

/**
 * @brief **sonde_sample_type_str()** renders @p sample_type as "IP|TID|TIME"
 * (unknown bits as hex) into @p buf, always NUL-terminated.
 * @return the length the full string needs, like snprintf.
 */
SONDE_API int sonde_sample_type_str(uint64_t sample_type, char *buf, size_t size);

/**
 * @brief **sonde_record__snprintf()** describes a decoded record on one line,
 * close to `perf report -D` (e.g. "PERF_RECORD_COMM exec: ls:4242/4242"),
 * into @p buf (may be NULL with @p size 0), always NUL-terminated.
 * @return the length the full line needs, like snprintf; -EINVAL if
 * @p rec is NULL.
 */
SONDE_API int sonde_record__snprintf(const struct sonde_record *rec,
				     char *buf, size_t size);

/**
 * @brief **sonde_read_format_str()** renders @p read_format as
 * "TOTAL_TIME_ENABLED|ID|GROUP" into @p buf, always NUL-terminated.
 * @return the length the full string needs, like snprintf.
 */
SONDE_API int sonde_read_format_str(uint64_t read_format, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif /* SONDE_RECORD_H */
