/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * The profile: decoded records in, symbolized stacks, a histogram and call
 * trees out. A profile keeps the machine state the records describe
 * (threads, comms, address spaces, objects), turns every sample into a
 * stack of frames (frame-pointer callchains, DWARF-unwound user stacks,
 * inlined functions, kernel and JIT code) and weighs it by the sample's
 * period per event. Its records come from anywhere: a perf.data file or
 * pipe (sonde_profile__add_reader()), or a live ring decoded with
 * sonde_record__decode() (sonde_profile__add_record()), after
 * sonde_profile__synth_process() has described what already ran.
 *
 * Ownership: every handle a getter returns (entries, nodes, stacks,
 * frames, strings) belongs to the profile and stays valid until
 * sonde_profile__free(); entry and node arrays are rebuilt, and earlier
 * entry/node handles die, when records are added after a query or the
 * children mode changes.
 *
 * Thread safety: a profile is used by one thread at a time (it may start
 * helper threads of its own to load symbols); distinct profiles are
 * independent.
 */
#ifndef SONDE_PROFILE_H
#define SONDE_PROFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "sonde/common.h"
#include "sonde/abi.h"
#include "sonde/record.h"
#include "sonde/perfdata_reader.h"
#include "sonde/synth.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sonde_profile;	    /* samples -> stacks -> histogram, trees */
struct sonde_profile_entry; /* one histogram row */
struct sonde_profile_node;  /* one node of an entry's call tree */
struct sonde_profile_stack; /* one distinct symbolized stack */
struct sonde_profile_frame; /* one frame of a stack */

/* Histogram keys, perf report's --sort names. */
enum sonde_profile_key {
	SONDE_PROFILE_KEY_COMM,	   /* "comm": the command */
	SONDE_PROFILE_KEY_PID,	   /* "pid": the thread, shown as tid:comm */
	SONDE_PROFILE_KEY_TID,	   /* "tid" */
	SONDE_PROFILE_KEY_DSO,	   /* "dso": the object (file, [kernel.kallsyms]) */
	SONDE_PROFILE_KEY_SYM,	   /* "sym": the function */
	SONDE_PROFILE_KEY_CPU,	   /* "cpu" */
	SONDE_PROFILE_KEY_SRCLINE, /* "srcline": file:line */
	/*
	 * Branch keys, for a profile of branches (opts.branches), perf's
	 * --branch-stack sort names. Each names one side of a branch: where
	 * it was taken (from) or where it went (to).
	 */
	SONDE_PROFILE_KEY_DSO_FROM,	/* "dso_from": the object */
	SONDE_PROFILE_KEY_DSO_TO,	/* "dso_to" */
	SONDE_PROFILE_KEY_SYM_FROM,	/* "symbol_from": the function */
	SONDE_PROFILE_KEY_SYM_TO,	/* "symbol_to" */
	SONDE_PROFILE_KEY_SRCLINE_FROM, /* "srcline_from": file:line */
	SONDE_PROFILE_KEY_SRCLINE_TO,	/* "srcline_to" */
	SONDE_PROFILE_KEY_ADDR_FROM,	/* "addr_from": object and address */
	SONDE_PROFILE_KEY_ADDR_TO,	/* "addr_to" */
	SONDE_PROFILE_KEY_CYCLES,	/* "cycles": cycles since the last branch */
	SONDE_PROFILE_KEY_MISPREDICT,	/* "mispredict": predicted or not */
	SONDE_PROFILE_KEY_IN_TX,	/* "in_tx": in a transaction */
	SONDE_PROFILE_KEY_ABORT,	/* "abort": a transaction abort */
	/*
	 * More of perf 6.1's keys (its sort.c), for the usual histogram.
	 * Their values are read with sonde_profile_entry__keys().
	 */
	SONDE_PROFILE_KEY_PARENT,	  /* "parent": the first caller matching opts.parent */
	SONDE_PROFILE_KEY_SOCKET,	  /* "socket": the CPU's socket (the file's CPU_TOPOLOGY) */
	SONDE_PROFILE_KEY_SRCFILE,	  /* "srcfile": the source file of srcline, "" without one */
	SONDE_PROFILE_KEY_SYM_SIZE,	  /* "symbol_size": the function's size */
	SONDE_PROFILE_KEY_DSO_SIZE,	  /* "dso_size": the size of the object's map */
	SONDE_PROFILE_KEY_LOCAL_WEIGHT,	  /* "local_weight": the sample's weight */
	SONDE_PROFILE_KEY_WEIGHT,	  /* "weight": the same, shown times the samples */
	SONDE_PROFILE_KEY_TRANSACTION,	  /* "transaction": PERF_SAMPLE_TRANSACTION flags */
	SONDE_PROFILE_KEY_TRACE,	  /* "trace": a tracepoint sample's text from its print fmt */
	SONDE_PROFILE_KEY_CGROUP,	  /* "cgroup": PERF_SAMPLE_CGROUP, named by CGROUP records */
	SONDE_PROFILE_KEY_CGROUP_ID,	  /* "cgroup_id": the thread's cgroup namespace (dev, inode) */
	SONDE_PROFILE_KEY_IPC_NULL,	  /* "ipc_null": the function, shown as perf's "-" IPC */
	SONDE_PROFILE_KEY_TIME,		  /* "time": sample time, cut to opts.time_quantum */
	SONDE_PROFILE_KEY_CODE_PAGE_SIZE, /* "code_page_size": PERF_SAMPLE_CODE_PAGE_SIZE */
	SONDE_PROFILE_KEY_LOCAL_INS_LAT,  /* "local_ins_lat": the weight's instruction latency */
	SONDE_PROFILE_KEY_INS_LAT,	  /* "ins_lat": the same, shown times the samples */
	SONDE_PROFILE_KEY_LOCAL_P_STAGE_CYC, /* "local_p_stage_cyc": the weight's third part */
	SONDE_PROFILE_KEY_P_STAGE_CYC,	  /* "p_stage_cyc": the same, shown times the samples */
	SONDE_PROFILE_KEY_ADDR,		  /* "addr": the sampled address */
	/*
	 * Memory keys, for a profile of memory accesses (opts.mem_mode),
	 * perf's --mem-mode sort names: the sample's data address (ADDR),
	 * its source (DATA_SRC) and physical address and page size.
	 */
	SONDE_PROFILE_KEY_SYM_DADDR,	  /* "symbol_daddr": the data address resolved */
	SONDE_PROFILE_KEY_SYM_IADDR,	  /* "symbol_iaddr": the code address resolved */
	SONDE_PROFILE_KEY_DSO_DADDR,	  /* "dso_daddr": the object holding the data */
	SONDE_PROFILE_KEY_LOCKED,	  /* "locked": a locked access */
	SONDE_PROFILE_KEY_TLB,		  /* "tlb": the TLB access */
	SONDE_PROFILE_KEY_MEM,		  /* "mem": the memory level */
	SONDE_PROFILE_KEY_SNOOP,	  /* "snoop": the snoop result */
	SONDE_PROFILE_KEY_DCACHELINE,	  /* "dcacheline": the data's cache line */
	SONDE_PROFILE_KEY_PHYS_DADDR,	  /* "phys_daddr": the data's physical address */
	SONDE_PROFILE_KEY_DATA_PAGE_SIZE, /* "data_page_size": the data's page size */
	SONDE_PROFILE_KEY_BLOCKED,	  /* "blocked": what blocked the access */
	/*
	 * A tracepoint field, perf's dynamic sort keys: each FIELD in
	 * opts.keys takes the next of opts.fields, which names the fields.
	 */
	SONDE_PROFILE_KEY_FIELD,
	SONDE_PROFILE_KEY_MAX,
};

/* The branch keys, from the first to the last: they need opts.branches. */
#define SONDE_PROFILE_KEY_BRANCH_FIRST SONDE_PROFILE_KEY_DSO_FROM
#define SONDE_PROFILE_KEY_BRANCH_LAST SONDE_PROFILE_KEY_ABORT
/* The memory keys, from the first to the last: they need opts.mem_mode. */
#define SONDE_PROFILE_KEY_MEM_FIRST SONDE_PROFILE_KEY_SYM_DADDR
#define SONDE_PROFILE_KEY_MEM_LAST SONDE_PROFILE_KEY_BLOCKED

/**
 * @brief **sonde_profile_key__parse()** maps a perf --sort name ("comm",
 * "command", "pid", "tid", "dso", "sym", "symbol", "cpu", "srcline", and
 * the other keys' names above) to its key. Like perf, a name may be cut
 * short: the first key of perf's tables (its usual keys, then the branch
 * keys, then the memory keys) that starts with it, in any case, is taken
 * ("sym" is "symbol", "srcf" is "srcfile").
 * @return the key, or -EINVAL for a name perf's report sorting does not know
 * here.
 */
SONDE_API int sonde_profile_key__parse(const char *name);

/*
 * Frames one stack keeps at most, the sample's own included: a callchain
 * is read up to twice the kernel's default depth (perf_event_max_stack),
 * room for a kernel and a user part.
 */
#define SONDE_PROFILE_MAX_FRAMES (2 * SONDE_PERF_MAX_STACK_DEPTH + 1)

struct sonde_profile_opts {
	size_t sz;
	/* Histogram keys in sort order; NULL/0: comm, dso, sym. */
	const enum sonde_profile_key *keys;
	size_t nr_keys;
	/* Use callchains: stacks of every frame (else the sample ip only). */
	bool callchains;
	/* Build a call tree per histogram entry (needs callchains). */
	bool call_trees;
	/* Trees and children accumulation outermost caller first. */
	bool caller_order;
	/* Callchain entries kept per sample, as perf's --max-stack counts
	 * them (the first is the sample's own ip): the innermost ones, or
	 * with caller_order the outermost ones, as perf keeps them (a
	 * DWARF-unwound user part: its innermost ones, counted apart); 0:
	 * 127. Above SONDE_PROFILE_MAX_FRAMES it is that bound; negative is
	 * refused (EINVAL). */
	int max_stack;
	/* Do not expand DWARF-unwound frames into inlined functions. */
	bool no_inline;
	/* Keep kernel symbols and DWARF answers in the per-user cache
	 * ($XDG_CACHE_HOME/sonde) unless SONDE_NO_CACHE is set. */
	bool cache;
	/* Kernel symbols from this kallsyms file (the recorded kernel's). */
	const char *kallsyms;
	/* Kernel symbols from this vmlinux (its build id must be the recorded
	 * one). Without either, a file of another kernel is named from perf's
	 * build-id cache, or not at all. */
	const char *vmlinux;
	/* Keep every counted sample's time and thread, in order, for views
	 * over time (export's firefox and html timelines): 8 bytes a sample.
	 * Merged profiles have none. */
	bool timeline;
	/* Distinct stacks kept for sonde_profile__sample_stack(); 0: no bound.
	 * The first ones met are kept; a new stack beyond them is resolved
	 * for its sample only (valid until the next call, id UINT32_MAX), so
	 * memory stays flat for a one-pass reader (script) however many
	 * stacks a file has. Counted samples hold their stacks: the first one
	 * lifts the bound. */
	size_t max_stacks;
	/*
	 * A profile of branches, perf report's branch mode (--branch-stack):
	 * every entry of every sample's branch stack counts 1 in the branch
	 * histogram (sonde_profile__nr_branch_entries()), summed by @keys,
	 * which then may be COMM and the branch keys only (NULL/0: comm,
	 * dso_from, symbol_from, symbol_to, cycles, perf's default). Samples
	 * make no stacks or entries of the usual histogram then.
	 */
	bool branches;
	/*
	 * Branch history, perf report's --branch-history: a sample's branch
	 * stack starts its call chain, each branch as two frames (its
	 * target, then its source; the oldest branch first in caller order,
	 * loops folded as perf folds them), the callchain after them. Call
	 * tree nodes are then told apart by object and address, not by
	 * function, and count the branches through them
	 * (sonde_profile_node__branch()). Needs call_trees.
	 */
	bool branch_history;
	/*
	 * A profile of memory accesses, perf report's --mem-mode: a sample
	 * weighs its weight (PERF_SAMPLE_WEIGHT, 1 where that is 0) instead
	 * of its period, and the memory keys may be used. Needs samples that
	 * carry DATA_SRC for the data source keys, ADDR for the data address.
	 */
	bool mem_mode;
	/*
	 * The parent key's pattern, perf's -p: a POSIX extended regular
	 * expression; the parent is the first function of the sample's
	 * call chain, from the sample outwards, whose name matches.
	 * NULL: perf's default, "^sys_|^do_page_fault". Copied.
	 */
	const char *parent;
	/* The time key's step in ns (perf's --time-quantum); 0: 100 ms. */
	uint64_t time_quantum;
	/*
	 * Where the weights stand in the histogram's order, as perf sorts
	 * when its --sort names "overhead" (self), "overhead_children",
	 * "sample" (samples), "overhead_sys" (self in kernel mode),
	 * "overhead_us" (user), "overhead_guest_sys", "overhead_guest_us".
	 * All 0 (the default): the children weight (children mode), then
	 * the self weight, then the keys. k > 0: after those, the weight is
	 * the k-th compare, counting keys and placed weights (the keys fill
	 * the places no weight takes, in their order); two weights at one
	 * place are refused (EINVAL). 0 keeps the self and children weights
	 * first, the others out of the order; -1 leaves any out. The
	 * children weight compares only in children mode.
	 */
	int self_at, children_at;
	int samples_at, sys_at, usr_at, guest_sys_at, guest_usr_at;
	/*
	 * No keys: one entry per event holds every sample, as perf's report
	 * shows a --sort of output fields only ("overhead", "sample").
	 * keys/nr_keys must be NULL/0.
	 */
	bool no_keys;
	/*
	 * The tracepoint fields the FIELD keys of @keys name, one each in
	 * their order, as perf's --sort names them: "prev_pid" (that field of
	 * every tracepoint event that has one), "sched:sched_switch.prev_pid"
	 * (one event's: its full name, a part of it that names one event, or
	 * "%N", the N-th event), "EVENT.*" (all of an event's fields),
	 * "trace_fields" (every field of every tracepoint event), each with
	 * an optional "/raw" (the value itself, not as the print fmt shows
	 * it). A field key orders and shows only the histograms of its
	 * events. They are matched against the events when the reader is set
	 * (sonde_profile__set_reader() fails with ENOENT when one names no
	 * field there), else (or after that failure, as on a pipe, which
	 * declares its events later) at the first sample, where a name that
	 * matches nothing makes no column. Copied.
	 */
	const char *const *fields;
	size_t nr_fields;
	size_t : 0;
};
#define sonde_profile_opts__last_field nr_fields

/*
 * [start, end) in sample time (ns); 0 leaves that side open. The filter
 * takes an array of these, so the size is the array's stride and ABI:
 * fields to come take the reserved room, which callers leave zero
 * (sonde_profile__set_filter() refuses a range where it is not).
 */
struct sonde_profile_time_range {
	uint64_t start, end;
	uint64_t reserved[2];
};
#ifndef __cplusplus
_Static_assert(sizeof(struct sonde_profile_time_range) == 32,
	       "sonde_profile_time_range: ABI size (the filter's array stride)");
#endif

/*
 * Which samples count. Every list that is set must match; NULL/0 matches
 * everything. comm, pid, tid, cpu and time select samples as they are
 * added (time and cpu choose the slice the event's totals are of); dso and sym select histogram entries (matched on the entry's
 * object, by short or full name, and symbol name). The lists are copied.
 */
struct sonde_profile_filter {
	size_t sz;
	const char *const *comms;
	size_t nr_comms;
	const int32_t *pids;
	size_t nr_pids;
	const int32_t *tids;
	size_t nr_tids;
	const int32_t *cpus;
	size_t nr_cpus;
	const struct sonde_profile_time_range *times;
	size_t nr_times;
	const char *const *dsos;
	size_t nr_dsos;
	const char *const *syms;
	size_t nr_syms;
	size_t : 0;
};
#define sonde_profile_filter__last_field nr_syms

/**
 * @brief **sonde_profile__new()** makes an empty profile.
 * @param opts NULL for the defaults.
 * @return the profile, to free with sonde_profile__free(); NULL with errno
 * (ENOMEM, EINVAL for bad opts).
 */
SONDE_API struct sonde_profile *sonde_profile__new(const struct sonde_profile_opts *opts);

/** @brief **sonde_profile__free()** frees @p p and everything it handed out; NULL is a no-op. */
SONDE_API void sonde_profile__free(struct sonde_profile *p);

/**
 * @brief **sonde_profile__set_filter()** replaces the filter (NULL: none).
 * Call before adding samples: samples already added stay as they were.
 * @return 0, -EINVAL (bad opts, a cpu beyond 4095, a time range whose
 * reserved room is not zero), -ENOMEM.
 */
SONDE_API int sonde_profile__set_filter(struct sonde_profile *p,
					const struct sonde_profile_filter *f);

/**
 * @brief **sonde_profile__add_event()** declares an event whose samples
 * will be added, with the sample ids the kernel gives it (to route records
 * that carry SAMPLE_ID or SAMPLE_IDENTIFIER). @p attr, @p ids and @p name
 * are copied.
 * @return the event's index (0, 1, ... in call order), -EINVAL, -ENOMEM,
 * or -SONDE_ERR_UNSUPPORTED for a sample layout the codec does not know.
 */
SONDE_API int sonde_profile__add_event(struct sonde_profile *p,
				       const struct sonde_perf_event_attr *attr,
				       const uint64_t *ids, size_t nr_ids, const char *name);

/**
 * @brief **sonde_profile__add_record()** applies one decoded record:
 * COMM, FORK, MMAP and MMAP2 update the machine state, EXIT releases its
 * thread once the records' times have passed it by ten seconds (its late
 * samples still name it until then), LOST and LOST_SAMPLES are counted,
 * SAMPLE is resolved, filtered and weighed.
 * @param event the event the record belongs to, or -1 to find it by the
 * record's sample id among the ids of sonde_profile__add_event().
 * @return 1 if a sample was counted, 0 if the record was applied or
 * filtered out, -ENOENT for a sample of no known event.
 */
SONDE_API int sonde_profile__add_record(struct sonde_profile *p, int event,
					const struct sonde_record *rec);

/**
 * @brief **sonde_profile__set_reader()** makes the events of @p r the
 * profile's (same indexes, a pipe's as they arrive) and checks the objects
 * met against the file's build ids. @p r must outlive the profile; a
 * profile takes one reader and no sonde_profile__add_event() with it.
 * sonde_profile__add_perfdata_record() calls it on first use.
 * @return 0, -EINVAL (another reader, or events declared), -ENOMEM.
 */
SONDE_API int sonde_profile__set_reader(struct sonde_profile *p, struct sonde_perfdata_reader *r);

/**
 * @brief **sonde_profile__add_perfdata_record()** applies a record handed
 * out by sonde_perfdata_reader__next() on @p r, whose events become the
 * profile's (same indexes; a pipe's events as they arrive). Records of one
 * profile must all come from the same reader, which must outlive the
 * profile (the file's build ids are checked against the objects met).
 * @return as sonde_profile__add_record(); -SONDE_ERR_FORMAT for a sample
 * that does not decode.
 */
SONDE_API int sonde_profile__add_perfdata_record(struct sonde_profile *p,
						 struct sonde_perfdata_reader *r,
						 const struct sonde_perfdata_record *rec);

/**
 * @brief **sonde_profile__add_reader()** reads every remaining record of
 * @p r into @p p (sonde_profile__add_perfdata_record() in a loop).
 * @return the number of samples counted, or the reader's negative error
 * (the records before the problem stay in the profile).
 */
SONDE_API int64_t sonde_profile__add_reader(struct sonde_profile *p,
					    struct sonde_perfdata_reader *r);

/*
 * What already runs, for profiles fed from live rings: the kernel reports
 * COMM, FORK and MMAP only for what happens after an event opens, so
 * these describe the rest from /proc, as the writer's synth methods do
 * for a file (sonde_perfdata_writer__synth_kernel() and the others make
 * the same records). Call them once the events are open, before adding
 * the rings' records.
 */

/**
 * @brief **sonde_profile__synth_kernel()** adds the kernel text's map
 * (from _text to _etext of /proc/kallsyms), for kernel frames.
 * @return 0 (also when kallsyms hides the addresses), -EINVAL.
 */
SONDE_API int sonde_profile__synth_kernel(struct sonde_profile *p);

/**
 * @brief **sonde_profile__synth_process()** adds the threads (COMM, FORK)
 * and executable maps (MMAP2, with build ids read from the files unless
 * opts.no_build_ids) of process @p pid.
 * @param opts NULL for the defaults.
 * @return 0 (also when the process is gone), -EINVAL, or -errno.
 */
SONDE_API int sonde_profile__synth_process(struct sonde_profile *p, pid_t pid,
					   const struct sonde_synth_opts *opts);

/** @brief **sonde_profile__synth_all()**: sonde_profile__synth_process() for every process in /proc. */
SONDE_API int sonde_profile__synth_all(struct sonde_profile *p,
				       const struct sonde_synth_opts *opts);

/* ---- what was read ---- */

/** @brief **sonde_profile__nr_events()**: events declared or seen so far. */
SONDE_API int sonde_profile__nr_events(const struct sonde_profile *p);

/** @brief **sonde_profile__event_name()**: the event's name, NULL if @p ev is out of range. */
SONDE_API const char *sonde_profile__event_name(const struct sonde_profile *p, int ev);

/* Per-event counts (sonde_profile__event_stats()). */
struct sonde_profile_event_stats {
	uint64_t samples;	   /* samples in the time and cpu slice, before the other filters */
	uint64_t period;	   /* their period sum */
	uint64_t filtered_samples; /* samples whose entry passes every filter */
	uint64_t filtered_period;
	uint64_t lost_samples;	   /* from LOST_SAMPLES records */
	/* Room for fields to come; the library zeroes it. */
	uint64_t reserved[2];
};

/**
 * @brief **sonde_profile__event_stats()** fills @p out for event @p ev.
 * @return 0, or -EINVAL if @p ev is out of range.
 */
SONDE_API int sonde_profile__event_stats(struct sonde_profile *p, int ev,
					 struct sonde_profile_event_stats *out);

/**
 * @brief **sonde_profile__lost()**: records the recording dropped, as
 * LOST records say (@p lost_records chunks holding @p lost records) and
 * as LOST_SAMPLES records say (@p lost_samples); any pointer may be NULL.
 */
SONDE_API void sonde_profile__lost(const struct sonde_profile *p, uint64_t *lost_records,
				   uint64_t *lost, uint64_t *lost_samples);

/* What the AUX records of a recording say (sonde_profile__aux_stats()). */
struct sonde_profile_aux_stats {
	uint64_t records;   /* PERF_RECORD_AUX records */
	uint64_t truncated; /* with PERF_AUX_FLAG_TRUNCATED: data lost, area full */
	uint64_t partial;   /* with PERF_AUX_FLAG_PARTIAL: gaps in the data */
	uint64_t collision; /* with PERF_AUX_FLAG_COLLISION: a sample collided */
	/* Room for fields to come; the library zeroes it. */
	uint64_t reserved[2];
};

/**
 * @brief **sonde_profile__aux_stats()** fills @p out with the AUX records
 * read so far and how many carry each flag, for perf's "AUX data lost N
 * times out of M" warnings.
 */
SONDE_API void sonde_profile__aux_stats(const struct sonde_profile *p,
					struct sonde_profile_aux_stats *out);

/**
 * @brief **sonde_profile__proc_map_timeouts()**: MMAP2 records marked
 * PERF_RECORD_MISC_PROC_MAP_PARSE_TIMEOUT, each a process whose
 * /proc/PID/maps the recorder gave up reading (perf's --proc-map-timeout).
 */
SONDE_API uint64_t sonde_profile__proc_map_timeouts(const struct sonde_profile *p);

/** @brief **sonde_profile__has_callchains()**: a counted sample carried a callchain. */
SONDE_API bool sonde_profile__has_callchains(const struct sonde_profile *p);

/** @brief **sonde_profile__unwind_failures()**: DWARF samples not unwound past their ip. */
SONDE_API uint64_t sonde_profile__unwind_failures(const struct sonde_profile *p);

/* ---- the histogram ---- */

/**
 * @brief **sonde_profile__set_children()** turns perf's children mode on
 * or off (default off): each function of a stack is also credited with
 * the weight of what it called. The histogram is rebuilt at the next query.
 */
SONDE_API void sonde_profile__set_children(struct sonde_profile *p, bool on);

/**
 * @brief **sonde_profile__nr_entries()**: the histogram rows of event
 * @p ev that pass the filters and carry weight, sorted as perf report sorts
 * them (by children or self weight, then perf's tie rules, then the keys).
 * Entries are made from the samples at the first query after samples were
 * added. @return the count; 0 for an unknown event.
 */
SONDE_API size_t sonde_profile__nr_entries(struct sonde_profile *p, int ev);

/** @brief **sonde_profile__entry()**: row @p i of sonde_profile__nr_entries(), NULL past the end. */
SONDE_API const struct sonde_profile_entry *sonde_profile__entry(struct sonde_profile *p, int ev,
								size_t i);

/** @brief **sonde_profile_entry__self()**: weight (period) of samples in the entry itself. */
SONDE_API uint64_t sonde_profile_entry__self(const struct sonde_profile_entry *e);
/** @brief **sonde_profile_entry__children()**: self plus what it called (children mode). */
SONDE_API uint64_t sonde_profile_entry__children(const struct sonde_profile_entry *e);
/**
 * @brief **sonde_profile_entry__self_cpumode()**: the part of the self
 * weight whose samples were taken in @p cpumode (their header's misc &
 * SONDE_PERF_RECORD_MISC_CPUMODE_MASK): SONDE_PERF_RECORD_MISC_KERNEL,
 * _USER, _GUEST_KERNEL or _GUEST_USER, perf's sys, usr, guest sys and
 * guest usr columns. 0 for any other cpumode (perf splits no other).
 */
SONDE_API uint64_t sonde_profile_entry__self_cpumode(const struct sonde_profile_entry *e,
						     unsigned cpumode);
/** @brief **sonde_profile_entry__samples()**: samples in the entry itself. */
SONDE_API uint64_t sonde_profile_entry__samples(const struct sonde_profile_entry *e);
/** @brief **sonde_profile_entry__comm()**: the command, NULL unless a comm or pid key is set. */
SONDE_API const char *sonde_profile_entry__comm(const struct sonde_profile_entry *e);
/**
 * @brief **sonde_profile_entry__thread_comm()**: the last command of the
 * thread of the entry's first sample (perf sizes its comm and pid columns
 * by it), NULL unless a comm or pid key is set. Owned by the profile.
 */
SONDE_API const char *sonde_profile_entry__thread_comm(const struct sonde_profile_entry *e);
/** @brief **sonde_profile_entry__tid()**: the thread (0 unless a pid or tid key is set). */
SONDE_API int32_t sonde_profile_entry__tid(const struct sonde_profile_entry *e);
/** @brief **sonde_profile_entry__cpu()**: the CPU (0 unless the cpu key is set, -1 unknown). */
SONDE_API int32_t sonde_profile_entry__cpu(const struct sonde_profile_entry *e);
/** @brief **sonde_profile_entry__dso()**: the object's path or name, NULL if unknown or not a key. */
SONDE_API const char *sonde_profile_entry__dso(const struct sonde_profile_entry *e);
/** @brief **sonde_profile_entry__dso_short()**: its basename as perf shows it. */
SONDE_API const char *sonde_profile_entry__dso_short(const struct sonde_profile_entry *e);
/** @brief **sonde_profile_entry__sym()**: the function, NULL if unresolved or not a key. */
SONDE_API const char *sonde_profile_entry__sym(const struct sonde_profile_entry *e);
/** @brief **sonde_profile_entry__inlined()**: the function is inlined where it was sampled. */
SONDE_API bool sonde_profile_entry__inlined(const struct sonde_profile_entry *e);
/** @brief **sonde_profile_entry__addr()**: without a function, the address (map-relative if in an object). */
SONDE_API uint64_t sonde_profile_entry__addr(const struct sonde_profile_entry *e);
/** @brief **sonde_profile_entry__kernel()**: kernel code (perf's [k]) rather than user ([.]). */
SONDE_API bool sonde_profile_entry__kernel(const struct sonde_profile_entry *e);
/** @brief **sonde_profile_entry__srcline()**: "file.c:12" (or perf's fallback), NULL unless a key. */
SONDE_API const char *sonde_profile_entry__srcline(const struct sonde_profile_entry *e);

/*
 * The values of an entry's other keys (sonde_profile_entry__keys()): each
 * field is set when its key is one of the profile's, zero otherwise. The
 * "weight" keys (weight, ins_lat, p_stage_cyc) hold one sample's value;
 * perf shows the global ones times sonde_profile_entry__samples().
 */
struct sonde_profile_entry_keys {
	const char *parent;	 /* parent: the function, NULL for perf's "[other]" */
	int32_t socket;		 /* socket: -1 unknown */
	const char *srcfile;	 /* srcfile: "" without line info */
	uint64_t sym_size;	 /* symbol_size */
	bool has_sym;		 /* symbol_size: a function was found */
	uint64_t dso_size;	 /* dso_size: the map's size */
	bool has_dso;		 /* dso_size: an object was found */
	uint64_t weight;	 /* local_weight, weight */
	uint32_t ins_lat;	 /* local_ins_lat, ins_lat (WEIGHT_STRUCT's var2) */
	uint32_t p_stage_cyc;	 /* local_p_stage_cyc, p_stage_cyc (its var3) */
	uint64_t transaction;	 /* transaction: PERF_TXN_* flags and abort code */
	const char *trace;	 /* trace: the tracepoint's text; NULL for other events */
	uint64_t cgroup;	 /* cgroup: the id, 0 without one */
	const char *cgroup_name; /* cgroup: its path from a CGROUP record, NULL unknown */
	uint64_t cgroup_dev;	 /* cgroup_id: the namespace's device */
	uint64_t cgroup_ino;	 /* cgroup_id: its inode */
	uint64_t time;		 /* time: ns, cut to the quantum */
	uint64_t code_page_size; /* code_page_size */
	uint64_t addr;		 /* addr: the sampled address (not map-relative) */
	/* the memory keys */
	union sonde_perf_mem_data_src data_src; /* locked, tlb, mem, snoop, blocked */
	uint64_t daddr;		 /* symbol_daddr: the data address */
	const struct sonde_profile_frame *data; /* symbol_daddr, dso_daddr, dcacheline: it resolved */
	uint64_t iaddr;		 /* symbol_iaddr: the code address */
	const struct sonde_profile_frame *code; /* symbol_iaddr: it resolved */
	uint64_t dcacheline;	 /* dcacheline: the line's address in its map */
	char dcacheline_level;	 /* dcacheline: perf's level, 's' shared, 'X' no map */
	uint64_t phys_addr;	 /* phys_daddr */
	uint64_t data_page_size; /* data_page_size */
	/* Room for fields to come; the library zeroes it. */
	uint64_t reserved[8];
};

/**
 * @brief **sonde_profile_entry__keys()** fills @p out with the values of
 * entry @p e's keys beyond the ones with getters of their own. The
 * strings and frames belong to the profile.
 * @return 0, -EINVAL for NULL.
 */
SONDE_API int sonde_profile_entry__keys(const struct sonde_profile_entry *e,
					struct sonde_profile_entry_keys *out);

/*
 * A column the FIELD keys make: one field of one tracepoint event, shown
 * in that event's histogram only.
 */
struct sonde_profile_field {
	int ev;		  /* the event whose histogram it orders and shows */
	int key;	  /* which FIELD key of opts.keys made it: 0 the first */
	const char *name; /* the field's name: the column's title */
	int width;	  /* perf's width of the column (title, type, values) */
	bool raw;	  /* "/raw": the value itself, not the print fmt's text */
	/* Room for fields to come; the library zeroes it. */
	uint64_t reserved[4];
};

/**
 * @brief **sonde_profile__nr_fields()** counts the columns the FIELD keys
 * make (perf's order: by key, then event, then the format's field order).
 * @return the count; 0 before they are matched or without FIELD keys.
 */
SONDE_API int sonde_profile__nr_fields(const struct sonde_profile *p);

/**
 * @brief **sonde_profile__field()** fills @p out with column @p i. Its
 * width covers the values added so far: ask after the last sample. The
 * name belongs to the profile.
 * @return 0, -EINVAL for NULL or an @p i out of range.
 */
SONDE_API int sonde_profile__field(const struct sonde_profile *p, int i,
				   struct sonde_profile_field *out);

/**
 * @brief **sonde_profile_entry__field()**: entry @p e's value of column
 * @p i as perf prints it: its token of the print fmt's text (the first
 * sample's), else (and with "/raw") the field's value alone.
 * @return the text, owned by the profile; NULL when @p e is not of the
 * column's event.
 */
SONDE_API const char *sonde_profile_entry__field(const struct sonde_profile_entry *e, int i);

/* ---- call trees ---- */

/**
 * @brief **sonde_profile_entry__tree()**: the root of the entry's call
 * tree (a node without a frame), NULL without call trees. Its children are
 * the first frames of the paths: the entry's function itself in callee
 * order, the outermost callers in caller order (opts.caller_order).
 */
SONDE_API const struct sonde_profile_node *
sonde_profile_entry__tree(const struct sonde_profile_entry *e);

/** @brief **sonde_profile_entry__depth()**: frames on the entry's longest tree path. */
SONDE_API uint32_t sonde_profile_entry__depth(const struct sonde_profile_entry *e);

enum sonde_profile_order {
	SONDE_PROFILE_BY_WEIGHT,    /* total weight, heaviest first (perf's graph) */
	/*
	 * perf's own order of siblings (its flat order, and its order of
	 * equal weights): by object (those the file's build-id table lacks
	 * first, the latest met first; then the table's, the last listed
	 * first; no object last), then by function address (else ip),
	 * highest first; inlined functions by name, last in the alphabet
	 * first.
	 */
	SONDE_PROFILE_BY_ADDR_DESC,
};

/**
 * @brief **sonde_profile_node__children()** stores in @p buf (room for
 * @p cap) the children of @p n in @p order: by weight, those whose total
 * is at least @p min and not 0 (ties as SONDE_PROFILE_BY_ADDR_DESC); by
 * address, every child.
 * @return how many children qualify (may exceed @p cap, like snprintf).
 */
SONDE_API size_t sonde_profile_node__children(const struct sonde_profile_node *n, uint64_t min,
					      enum sonde_profile_order order,
					      const struct sonde_profile_node **buf, size_t cap);
/** @brief **sonde_profile_node__nr_children()**: children of @p n, with no threshold. */
SONDE_API size_t sonde_profile_node__nr_children(const struct sonde_profile_node *n);
/** @brief **sonde_profile_node__parent()**: NULL for a root. */
SONDE_API const struct sonde_profile_node *
sonde_profile_node__parent(const struct sonde_profile_node *n);
/** @brief **sonde_profile_node__self()**: weight of the paths that end at @p n. */
SONDE_API uint64_t sonde_profile_node__self(const struct sonde_profile_node *n);
/** @brief **sonde_profile_node__total()**: self plus everything below @p n. */
SONDE_API uint64_t sonde_profile_node__total(const struct sonde_profile_node *n);
/** @brief **sonde_profile_node__nr_self()**: samples of the paths that end at @p n. */
SONDE_API uint64_t sonde_profile_node__nr_self(const struct sonde_profile_node *n);
/** @brief **sonde_profile_node__nr_total()**: samples through @p n (perf's -g ...,count). */
SONDE_API uint64_t sonde_profile_node__nr_total(const struct sonde_profile_node *n);
/** @brief **sonde_profile_node__sym()**: the function, NULL if unresolved (then see __ip()). */
SONDE_API const char *sonde_profile_node__sym(const struct sonde_profile_node *n);
/** @brief **sonde_profile_node__inlined()**: the function was inlined there. */
SONDE_API bool sonde_profile_node__inlined(const struct sonde_profile_node *n);
/** @brief **sonde_profile_node__ip()**: the address of the frame's first occurrence. */
SONDE_API uint64_t sonde_profile_node__ip(const struct sonde_profile_node *n);
/** @brief **sonde_profile_node__dso()**: the object's path or name, NULL if unknown. */
SONDE_API const char *sonde_profile_node__dso(const struct sonde_profile_node *n);

/*
 * What the branches through a node of a branch history tree said
 * (sonde_profile_node__branch()), summed as perf sums its callchain
 * counts: the node is a branch's target or its source, as the last
 * branch through it had it.
 */
struct sonde_profile_node_branch {
	uint64_t branches;  /* branch frames through the node; 0: a callchain frame */
	bool target;	    /* a target (else a source) */
	uint64_t predicted; /* as a target: branches predicted */
	uint64_t aborts;    /* as a target: transaction aborts */
	uint64_t cycles;    /* as a source: cycles since the branch before */
	uint64_t iters;	    /* as a source: loop turns folded into it */
	uint64_t iter_cycles; /* their cycles */
	uint64_t from_count; /* as a source: branches after the first (perf's divisor of iters) */
	/* as a target: branch types, as sonde_profile_branch_stats counts them */
	uint64_t types[SONDE_PERF_BR_MAX];
	uint64_t new_types[8];
	uint64_t cond_fwd, cond_bwd, cross_4k, cross_2m;
	/* Room for fields to come; the library zeroes it. */
	uint64_t reserved[4];
};

/**
 * @brief **sonde_profile_node__branch()** fills @p out with the branch
 * counts of node @p n of a branch history tree (opts.branch_history).
 * @return 0, -ENOENT for a node of another tree, -EINVAL.
 */
SONDE_API int sonde_profile_node__branch(struct sonde_profile *p,
					 const struct sonde_profile_node *n,
					 struct sonde_profile_node_branch *out);

/**
 * @brief **sonde_profile_node__srcline()**: a branch history node's source
 * line as perf shows it after the function: "file.c:12" from the line
 * table, else "+offset" into its function, else "object[address]"; NULL
 * for a node without an object or of another tree. Owned by @p p.
 */
SONDE_API const char *sonde_profile_node__srcline(struct sonde_profile *p,
						  const struct sonde_profile_node *n);

/* ---- stacks and frames ---- */

/* Frame kinds (sonde_profile_frame__kind(), a bit set). */
#define SONDE_PROFILE_FRAME_KERNEL  (1u << 0) /* kernel code */
#define SONDE_PROFILE_FRAME_JIT	    (1u << 1) /* JIT code (perf-PID.map) */
#define SONDE_PROFILE_FRAME_INLINED (1u << 2) /* function inlined at the address */
#define SONDE_PROFILE_FRAME_UNWOUND (1u << 3) /* from the DWARF unwinder */

/**
 * @brief **sonde_profile__sample_stack()** resolves the sample of @p rec
 * (a decoded SAMPLE of event @p ev, -1 to route by id) into its stack
 * without counting it, as `perf script` needs. The machine state must be
 * up to date: add the side-band records first.
 * @return the stack (owned by @p p; one beyond opts.max_stacks is valid
 * until the next call only), or NULL with errno (ENOENT no such event,
 * EINVAL not a sample).
 */
SONDE_API const struct sonde_profile_stack *
sonde_profile__sample_stack(struct sonde_profile *p, int ev, const struct sonde_record *rec);

/** @brief **sonde_profile__sample_comm()**: the command of thread @p tid of @p pid (interned, never NULL). */
SONDE_API const char *sonde_profile__sample_comm(struct sonde_profile *p, int32_t pid,
						 int32_t tid);

/**
 * @brief **sonde_profile__stack_fn** is called by
 * sonde_profile__foreach_stack() per distinct stack with its weight
 * (period) and sample count; returning non-zero stops the walk with that
 * value.
 */
typedef int (*sonde_profile__stack_fn)(const struct sonde_profile_stack *st, uint64_t weight,
				       uint64_t samples, void *arg);

/**
 * @brief **sonde_profile__foreach_stack()** calls @p fn for every distinct
 * stack of event @p ev with the samples (after the sample filters) that
 * hit it, in the order the stacks were first met.
 * @return 0, @p fn's non-zero value, or -EINVAL for an unknown event.
 */
SONDE_API int sonde_profile__foreach_stack(struct sonde_profile *p, int ev,
					   sonde_profile__stack_fn fn, void *arg);

/** @brief **sonde_profile_stack__id()**: a number for the stack, dense from 0 per profile (UINT32_MAX: a stack beyond opts.max_stacks, not kept). */
SONDE_API uint32_t sonde_profile_stack__id(const struct sonde_profile_stack *st);
/** @brief **sonde_profile_stack__nr_frames()**: frames, the sampled one first (inlines expanded), unless opts.max_stack kept only outer callers (caller_order): then __self() alone holds it. */
SONDE_API uint32_t sonde_profile_stack__nr_frames(const struct sonde_profile_stack *st);
/** @brief **sonde_profile_stack__frame()**: frame @p i (0 = innermost), NULL past the end. */
SONDE_API const struct sonde_profile_frame *
sonde_profile_stack__frame(const struct sonde_profile_stack *st, uint32_t i);
/** @brief **sonde_profile_stack__self()**: the sampled address itself, never inline-expanded. */
SONDE_API const struct sonde_profile_frame *
sonde_profile_stack__self(const struct sonde_profile_stack *st);

/** @brief **sonde_profile_frame__sym()**: the function, NULL if unresolved. */
SONDE_API const char *sonde_profile_frame__sym(const struct sonde_profile_frame *f);
/** @brief **sonde_profile_frame__sym_offset()**: the address minus the function's start (0 without one). */
SONDE_API uint64_t sonde_profile_frame__sym_offset(const struct sonde_profile_frame *f);
/** @brief **sonde_profile_frame__dso()**: the object's path or name, NULL if unknown. */
SONDE_API const char *sonde_profile_frame__dso(const struct sonde_profile_frame *f);
/** @brief **sonde_profile_frame__dso_short()**: the object's basename, NULL if unknown. */
SONDE_API const char *sonde_profile_frame__dso_short(const struct sonde_profile_frame *f);
/** @brief **sonde_profile_frame__ip()**: the address as sampled. */
SONDE_API uint64_t sonde_profile_frame__ip(const struct sonde_profile_frame *f);
/** @brief **sonde_profile_frame__addr()**: the map-relative address (the ip without an object). */
SONDE_API uint64_t sonde_profile_frame__addr(const struct sonde_profile_frame *f);
/** @brief **sonde_profile_frame__kind()**: SONDE_PROFILE_FRAME_* bits. */
SONDE_API unsigned int sonde_profile_frame__kind(const struct sonde_profile_frame *f);
/**
 * @brief **sonde_profile_frame__srcline()**: "file.c:12" from the object's
 * line table, or NULL. Owned by @p p.
 */
SONDE_API const char *sonde_profile_frame__srcline(struct sonde_profile *p,
						   const struct sonde_profile_frame *f);

/**
 * @brief **sonde_profile__kernel_sym()**: the kernel function containing
 * @p addr (kallsyms), NULL if none. @p start receives its start if not NULL.
 */
SONDE_API const char *sonde_profile__kernel_sym(struct sonde_profile *p, uint64_t addr,
						uint64_t *start);

/* ---- branch stacks ---- */

/*
 * One entry of a sample's branch stack (PERF_SAMPLE_BRANCH_STACK, what
 * record -b / -j takes), its two addresses resolved like a frame.
 */
struct sonde_profile_branch {
	const struct sonde_profile_frame *from; /* where the branch was taken */
	const struct sonde_profile_frame *to;	/* where it went */
	struct sonde_perf_branch_entry entry;	/* addresses and flags as recorded */
	/* Room for fields to come (callers size the array); zeroed. */
	uint64_t reserved[2];
};

/**
 * @brief **sonde_profile__sample_branches()** resolves the branch stack of
 * the sample of @p rec (a decoded SAMPLE of event @p ev, -1 to route by
 * id) in its thread's address space: each address in the sample's cpumode
 * first, then in the other of user and kernel space, as perf does. The
 * machine state must be up to date: add the side-band records first.
 * @param buf room for @p cap branches, most recent first as recorded
 * (NULL if @p cap is 0).
 * @return how many branches the sample has (0 without a branch stack; may
 * exceed @p cap, like snprintf), or -EINVAL (not a sample), -ENOENT (no
 * such event), -ENOMEM. The frames belong to @p p and stay valid until the
 * next call or sonde_profile__free().
 */
SONDE_API int sonde_profile__sample_branches(struct sonde_profile *p, int ev,
					     const struct sonde_record *rec,
					     struct sonde_profile_branch *buf, size_t cap);

/* ---- code at an address ---- */

/**
 * @brief **sonde_profile__resolve()** names address @p addr of the address
 * space of thread @p tid of process @p pid (the kernel's when @p kernel)
 * like a frame: object, map-relative address, function and offset. Only
 * that space is searched. The machine state must be up to date.
 * @return the frame, owned by @p p and valid until the next call; NULL
 * with errno EINVAL for a NULL @p p.
 */
SONDE_API const struct sonde_profile_frame *
sonde_profile__resolve(struct sonde_profile *p, int32_t pid, int32_t tid, bool kernel,
		       uint64_t addr);

/**
 * @brief **sonde_profile__read_code()** copies up to @p len bytes of the
 * code at @p addr of that address space into @p buf, from the object file
 * mapped there (the recorded build's bytes, sonde_dso__read()); what
 * perf's script -F brstackinsn walks. @p is64 (if not NULL) receives
 * whether the object is 64-bit code.
 * @return the bytes copied (fewer where the file ends); 0 when there is no
 * object file to read there (no map, the kernel's code, JIT code, an
 * object changed since the recording with no copy); -EINVAL.
 */
SONDE_API ssize_t sonde_profile__read_code(struct sonde_profile *p, int32_t pid, int32_t tid,
					   bool kernel, uint64_t addr, void *buf, size_t len,
					   bool *is64);

/** @brief **sonde_profile_frame__sym_size()**: the function's size in bytes, 0 without one. */
SONDE_API uint64_t sonde_profile_frame__sym_size(const struct sonde_profile_frame *f);

/* ---- the histogram of branches (opts.branches) ---- */

struct sonde_profile_branch_entry; /* one row of the branch histogram */

/*
 * Branch counts of an event (sonde_profile__branch_stats()) and perf's
 * "Branch Statistics": each branch is counted by the type of the first
 * branch of its histogram entry, as perf 6.1 counts it, and only if that
 * type is known and its source is not 0.
 */
struct sonde_profile_branch_stats {
	uint64_t branches;	 /* entries of the branch stacks in the time and cpu slice */
	uint64_t shown_branches; /* those in rows the comm, pid and tid filters show */
	uint64_t types[SONDE_PERF_BR_MAX]; /* by PERF_BR_* type */
	uint64_t new_types[8];	 /* PERF_BR_EXTEND_ABI ones, by PERF_BR_NEW_* */
	uint64_t cond_fwd, cond_bwd; /* conditional branches forward / backward */
	uint64_t cross_4k, cross_2m; /* crossing a 4 KiB page (not 2 MiB), a 2 MiB one */
	/* Room for fields to come; the library zeroes it. */
	uint64_t reserved[4];
};

/**
 * @brief **sonde_profile__branch_stats()** fills @p out for event @p ev of
 * a profile of branches (all 0 for another profile).
 * @return 0, or -EINVAL if @p ev is out of range.
 */
SONDE_API int sonde_profile__branch_stats(struct sonde_profile *p, int ev,
					  struct sonde_profile_branch_stats *out);

/**
 * @brief **sonde_profile__nr_branch_entries()**: the rows of event @p ev's
 * branch histogram that the comm, pid and tid filters show, in perf
 * report's order (by count, then by the keys as perf's sort functions
 * compare them, perf's tree order where those are not a total order:
 * mispredict, in_tx and abort). A row first met in a sample those filters
 * hide stays hidden, as in perf. Built at the first query after branches
 * were added; earlier row handles die then.
 * @return the count; 0 for an unknown event or another profile.
 */
SONDE_API size_t sonde_profile__nr_branch_entries(struct sonde_profile *p, int ev);

/** @brief **sonde_profile__branch_entry()**: row @p i of sonde_profile__nr_branch_entries(), NULL past the end. */
SONDE_API const struct sonde_profile_branch_entry *
sonde_profile__branch_entry(struct sonde_profile *p, int ev, size_t i);

/** @brief **sonde_profile_branch_entry__count()**: the branches summed in the row. */
SONDE_API uint64_t sonde_profile_branch_entry__count(const struct sonde_profile_branch_entry *e);
/**
 * @brief **sonde_profile_branch_entry__branch()**: the row's first branch:
 * its source and target resolved like frames (owned by the profile) and
 * its addresses and flags as recorded, which the flag keys (cycles,
 * mispredict, in_tx, abort) print.
 */
SONDE_API const struct sonde_profile_branch *
sonde_profile_branch_entry__branch(const struct sonde_profile_branch_entry *e);
/** @brief **sonde_profile_branch_entry__kernel()**: the row's first sample ran in the kernel (perf's [k] level of the addr keys). */
SONDE_API bool sonde_profile_branch_entry__kernel(const struct sonde_profile_branch_entry *e);
/** @brief **sonde_profile_branch_entry__comm()**: the command (interned, never NULL). */
SONDE_API const char *sonde_profile_branch_entry__comm(const struct sonde_profile_branch_entry *e);
/**
 * @brief **sonde_profile_branch_entry__srcline()** of the source (@p to
 * false) or target: "file.c:12" from the object's line table, else perf's
 * "sym+offset", "object[addr]" or "??:0". Like perf, a row's srcline is
 * found when a comparison of its key first needs it: NULL unless that
 * side's srcline key is set and was reached (perf prints "(null)" then;
 * sonde_profile_frame__srcline() answers for any frame).
 */
SONDE_API const char *sonde_profile_branch_entry__srcline(const struct sonde_profile_branch_entry *e,
							 bool to);

/* ---- combining profiles ---- */

/**
 * @brief **sonde_profile__merge()** adds the samples of @p src, times
 * @p factor (1 to merge, -1 to subtract), into @p dst, event by event
 * (index i of @p src into index i of @p dst, declared in @p dst by name
 * if missing). Stacks are matched by their frames' objects, functions and
 * addresses, so profiles read from different files combine. Weights
 * that would fall below 0 stop at 0. @p src is not changed.
 * @return 0, -EINVAL (@p factor 0, @p dst == @p src), -ENOMEM.
 */
SONDE_API int sonde_profile__merge(struct sonde_profile *dst, struct sonde_profile *src,
				   int factor);

/**
 * @brief **sonde_profile__add_baseline()** merges the samples of @p base
 * into @p p as its baseline: a second weight beside the profile's own,
 * kept apart from it (sonde_profile__merge() with factor 1 into that
 * weight). Events are matched by name (declared in @p p if missing),
 * stacks as sonde_profile__merge() matches them. The histogram then holds
 * the entries of either profile, paired by the sort keys: read each
 * one's sonde_profile_entry__self() and sonde_profile_entry__baseline(),
 * and the totals with sonde_profile__event_stats() and
 * sonde_profile__baseline_stats() — what `sonde diff` prints. Entries
 * only the baseline has sort after the others (their self weight is 0);
 * call trees and children weights stay the profile's own. @p base is not
 * changed; call it again to add more.
 * @return 0, -EINVAL (NULL, @p p == @p base), -ENOMEM.
 */
SONDE_API int sonde_profile__add_baseline(struct sonde_profile *p, struct sonde_profile *base);

/**
 * @brief **sonde_profile__set_baseline()** makes event @p base_ev of
 * @p base the baseline of event @p ev of @p p, in place of the baseline
 * that event had: one event paired with another whatever their names, as
 * perf diff pairs events by their attr type and config. Stacks and
 * entries pair as with sonde_profile__add_baseline(); the other events
 * are not changed, and @p base is not.
 * @return 0, -EINVAL (NULL, @p p == @p base, an event out of range),
 * -ENOMEM.
 */
SONDE_API int sonde_profile__set_baseline(struct sonde_profile *p, int ev,
					  struct sonde_profile *base, int base_ev);

/**
 * @brief **sonde_profile__baseline_stats()** fills @p out for event @p ev
 * with the baseline's counts (all 0 without sonde_profile__add_baseline()).
 * @return 0, or -EINVAL if @p ev is out of range.
 */
SONDE_API int sonde_profile__baseline_stats(struct sonde_profile *p, int ev,
					    struct sonde_profile_event_stats *out);

/** @brief **sonde_profile_entry__baseline()**: the baseline's self weight (period) in the entry. */
SONDE_API uint64_t sonde_profile_entry__baseline(const struct sonde_profile_entry *e);
/** @brief **sonde_profile_entry__baseline_samples()**: the baseline's samples in the entry. */
SONDE_API uint64_t sonde_profile_entry__baseline_samples(const struct sonde_profile_entry *e);

/**
 * @brief **sonde_profile__add_column()** pairs event @p src_ev of @p src
 * with event @p ev of @p p as one more column of that event's histogram:
 * perf diff's table of a baseline (@p p) and several files, one column
 * each. Stacks are matched as sonde_profile__merge() matches them, entries
 * by the sort keys: the event's histogram then holds the entries of @p p
 * and of every column, an entry that only columns have at a self weight
 * of 0, sorted after the others. Column 0 is @p p's own weight; the
 * columns added to an event are numbered from 1 in the order of the calls.
 * Read an entry's with sonde_profile_entry__column() and the totals with
 * sonde_profile__column_stats(). Columns weigh self only: children
 * weights, call trees and the baseline stay @p p's own. @p src is not
 * changed and may be freed afterwards (the columns keep copies).
 * @return the column's number (1 or more), or -EINVAL (NULL, @p p == @p src,
 * an event out of range), -ENOMEM.
 */
SONDE_API int sonde_profile__add_column(struct sonde_profile *p, int ev,
					struct sonde_profile *src, int src_ev);

/** @brief **sonde_profile__nr_columns()**: event @p ev's columns with its own (column 0): 1 + the columns added; 0 for an event out of range. */
SONDE_API int sonde_profile__nr_columns(struct sonde_profile *p, int ev);

/**
 * @brief **sonde_profile__column_stats()** fills @p out for column @p col
 * of event @p ev: the counts of the event it was paired with, its
 * filtered ones by @p p's filters (column 0: sonde_profile__event_stats()).
 * @return 0, or -EINVAL if @p ev or @p col is out of range.
 */
SONDE_API int sonde_profile__column_stats(struct sonde_profile *p, int ev, int col,
					  struct sonde_profile_event_stats *out);

/** @brief **sonde_profile_entry__column()**: column @p col's self weight (period) in the entry; 0 for a column its event does not have. */
SONDE_API uint64_t sonde_profile_entry__column(const struct sonde_profile_entry *e, int col);
/** @brief **sonde_profile_entry__column_samples()**: column @p col's samples in the entry; 0 for a column its event does not have. */
SONDE_API uint64_t sonde_profile_entry__column_samples(const struct sonde_profile_entry *e,
						      int col);

#ifdef __cplusplus
}
#endif
#endif /* SONDE_PROFILE_H */
