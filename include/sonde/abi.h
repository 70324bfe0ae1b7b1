/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * sonde's own definition of the perf_event_open(2) kernel ABI.
 *
 * Every kernel name NAME / name is spelled SONDE_NAME / sonde_name here so this
 * header can sit beside the build host's <linux/perf_event.h> (which may be
 * older or newer) without clashing. Layouts follow the man page; sizes and
 * offsets are pinned by the static asserts at the end and compared with the
 * host header by tests/unit/test_abi_layout.c.
 */
#ifndef SONDE_ABI_H
#define SONDE_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- event types (attr.type) ---- */
enum sonde_perf_type_id {
	SONDE_PERF_TYPE_HARDWARE = 0,
	SONDE_PERF_TYPE_SOFTWARE = 1,
	SONDE_PERF_TYPE_TRACEPOINT = 2,
	SONDE_PERF_TYPE_HW_CACHE = 3,
	SONDE_PERF_TYPE_RAW = 4,
	SONDE_PERF_TYPE_BREAKPOINT = 5,
	SONDE_PERF_TYPE_MAX,
};

/* Extended hardware type: the PMU type id sits in config bits 32..63. */
#define SONDE_PERF_PMU_TYPE_SHIFT 32
#define SONDE_PERF_HW_EVENT_MASK 0xffffffffULL

enum sonde_perf_hw_id {
	SONDE_PERF_COUNT_HW_CPU_CYCLES = 0,
	SONDE_PERF_COUNT_HW_INSTRUCTIONS = 1,
	SONDE_PERF_COUNT_HW_CACHE_REFERENCES = 2,
	SONDE_PERF_COUNT_HW_CACHE_MISSES = 3,
	SONDE_PERF_COUNT_HW_BRANCH_INSTRUCTIONS = 4,
	SONDE_PERF_COUNT_HW_BRANCH_MISSES = 5,
	SONDE_PERF_COUNT_HW_BUS_CYCLES = 6,
	SONDE_PERF_COUNT_HW_STALLED_CYCLES_FRONTEND = 7,
	SONDE_PERF_COUNT_HW_STALLED_CYCLES_BACKEND = 8,
	SONDE_PERF_COUNT_HW_REF_CPU_CYCLES = 9,
	SONDE_PERF_COUNT_HW_MAX,
};

/* Hardware cache events: config = id | (op << 8) | (result << 16). */
enum sonde_perf_hw_cache_id {
	SONDE_PERF_COUNT_HW_CACHE_L1D = 0,
	SONDE_PERF_COUNT_HW_CACHE_L1I = 1,
	SONDE_PERF_COUNT_HW_CACHE_LL = 2,
	SONDE_PERF_COUNT_HW_CACHE_DTLB = 3,
	SONDE_PERF_COUNT_HW_CACHE_ITLB = 4,
	SONDE_PERF_COUNT_HW_CACHE_BPU = 5,
	SONDE_PERF_COUNT_HW_CACHE_NODE = 6,
	SONDE_PERF_COUNT_HW_CACHE_MAX,
};

enum sonde_perf_hw_cache_op_id {
	SONDE_PERF_COUNT_HW_CACHE_OP_READ = 0,
	SONDE_PERF_COUNT_HW_CACHE_OP_WRITE = 1,
	SONDE_PERF_COUNT_HW_CACHE_OP_PREFETCH = 2,
	SONDE_PERF_COUNT_HW_CACHE_OP_MAX,
};

enum sonde_perf_hw_cache_op_result_id {
	SONDE_PERF_COUNT_HW_CACHE_RESULT_ACCESS = 0,
	SONDE_PERF_COUNT_HW_CACHE_RESULT_MISS = 1,
	SONDE_PERF_COUNT_HW_CACHE_RESULT_MAX,
};

enum sonde_perf_sw_ids {
	SONDE_PERF_COUNT_SW_CPU_CLOCK = 0,
	SONDE_PERF_COUNT_SW_TASK_CLOCK = 1,
	SONDE_PERF_COUNT_SW_PAGE_FAULTS = 2,
	SONDE_PERF_COUNT_SW_CONTEXT_SWITCHES = 3,
	SONDE_PERF_COUNT_SW_CPU_MIGRATIONS = 4,
	SONDE_PERF_COUNT_SW_PAGE_FAULTS_MIN = 5,
	SONDE_PERF_COUNT_SW_PAGE_FAULTS_MAJ = 6,
	SONDE_PERF_COUNT_SW_ALIGNMENT_FAULTS = 7,
	SONDE_PERF_COUNT_SW_EMULATION_FAULTS = 8,
	SONDE_PERF_COUNT_SW_DUMMY = 9,
	SONDE_PERF_COUNT_SW_BPF_OUTPUT = 10,
	SONDE_PERF_COUNT_SW_CGROUP_SWITCHES = 11,
	SONDE_PERF_COUNT_SW_MAX,
};

/* ---- attr.sample_type bits, in the order their fields appear ---- */
enum sonde_perf_event_sample_format {
	SONDE_PERF_SAMPLE_IP = 1U << 0,
	SONDE_PERF_SAMPLE_TID = 1U << 1,
	SONDE_PERF_SAMPLE_TIME = 1U << 2,
	SONDE_PERF_SAMPLE_ADDR = 1U << 3,
	SONDE_PERF_SAMPLE_READ = 1U << 4,
	SONDE_PERF_SAMPLE_CALLCHAIN = 1U << 5,
	SONDE_PERF_SAMPLE_ID = 1U << 6,
	SONDE_PERF_SAMPLE_CPU = 1U << 7,
	SONDE_PERF_SAMPLE_PERIOD = 1U << 8,
	SONDE_PERF_SAMPLE_STREAM_ID = 1U << 9,
	SONDE_PERF_SAMPLE_RAW = 1U << 10,
	SONDE_PERF_SAMPLE_BRANCH_STACK = 1U << 11,
	SONDE_PERF_SAMPLE_REGS_USER = 1U << 12,
	SONDE_PERF_SAMPLE_STACK_USER = 1U << 13,
	SONDE_PERF_SAMPLE_WEIGHT = 1U << 14,
	SONDE_PERF_SAMPLE_DATA_SRC = 1U << 15,
	SONDE_PERF_SAMPLE_IDENTIFIER = 1U << 16,
	SONDE_PERF_SAMPLE_TRANSACTION = 1U << 17,
	SONDE_PERF_SAMPLE_REGS_INTR = 1U << 18,
	SONDE_PERF_SAMPLE_PHYS_ADDR = 1U << 19,
	SONDE_PERF_SAMPLE_AUX = 1U << 20,
	SONDE_PERF_SAMPLE_CGROUP = 1U << 21,
	SONDE_PERF_SAMPLE_DATA_PAGE_SIZE = 1U << 22,
	SONDE_PERF_SAMPLE_CODE_PAGE_SIZE = 1U << 23,
	SONDE_PERF_SAMPLE_WEIGHT_STRUCT = 1U << 24,
	SONDE_PERF_SAMPLE_MAX = 1U << 25, /* not ABI: first unknown bit */
};

#define SONDE_PERF_SAMPLE_WEIGHT_TYPE \
	(SONDE_PERF_SAMPLE_WEIGHT | SONDE_PERF_SAMPLE_WEIGHT_STRUCT)

/* ---- attr.branch_sample_type ---- */
enum sonde_perf_branch_sample_type_shift {
	SONDE_PERF_SAMPLE_BRANCH_USER_SHIFT = 0,
	SONDE_PERF_SAMPLE_BRANCH_KERNEL_SHIFT = 1,
	SONDE_PERF_SAMPLE_BRANCH_HV_SHIFT = 2,
	SONDE_PERF_SAMPLE_BRANCH_ANY_SHIFT = 3,
	SONDE_PERF_SAMPLE_BRANCH_ANY_CALL_SHIFT = 4,
	SONDE_PERF_SAMPLE_BRANCH_ANY_RETURN_SHIFT = 5,
	SONDE_PERF_SAMPLE_BRANCH_IND_CALL_SHIFT = 6,
	SONDE_PERF_SAMPLE_BRANCH_ABORT_TX_SHIFT = 7,
	SONDE_PERF_SAMPLE_BRANCH_IN_TX_SHIFT = 8,
	SONDE_PERF_SAMPLE_BRANCH_NO_TX_SHIFT = 9,
	SONDE_PERF_SAMPLE_BRANCH_COND_SHIFT = 10,
	SONDE_PERF_SAMPLE_BRANCH_CALL_STACK_SHIFT = 11,
	SONDE_PERF_SAMPLE_BRANCH_IND_JUMP_SHIFT = 12,
	SONDE_PERF_SAMPLE_BRANCH_CALL_SHIFT = 13,
	SONDE_PERF_SAMPLE_BRANCH_NO_FLAGS_SHIFT = 14,
	SONDE_PERF_SAMPLE_BRANCH_NO_CYCLES_SHIFT = 15,
	SONDE_PERF_SAMPLE_BRANCH_TYPE_SAVE_SHIFT = 16,
	SONDE_PERF_SAMPLE_BRANCH_HW_INDEX_SHIFT = 17,
	SONDE_PERF_SAMPLE_BRANCH_PRIV_SAVE_SHIFT = 18,
	SONDE_PERF_SAMPLE_BRANCH_COUNTERS_SHIFT = 19,
	SONDE_PERF_SAMPLE_BRANCH_MAX_SHIFT,
};

enum sonde_perf_branch_sample_type {
	SONDE_PERF_SAMPLE_BRANCH_USER = 1U << SONDE_PERF_SAMPLE_BRANCH_USER_SHIFT,
	SONDE_PERF_SAMPLE_BRANCH_KERNEL = 1U << SONDE_PERF_SAMPLE_BRANCH_KERNEL_SHIFT,
	SONDE_PERF_SAMPLE_BRANCH_HV = 1U << SONDE_PERF_SAMPLE_BRANCH_HV_SHIFT,
	SONDE_PERF_SAMPLE_BRANCH_ANY = 1U << SONDE_PERF_SAMPLE_BRANCH_ANY_SHIFT,
	SONDE_PERF_SAMPLE_BRANCH_ANY_CALL = 1U << SONDE_PERF_SAMPLE_BRANCH_ANY_CALL_SHIFT,
	SONDE_PERF_SAMPLE_BRANCH_ANY_RETURN = 1U << SONDE_PERF_SAMPLE_BRANCH_ANY_RETURN_SHIFT,
	SONDE_PERF_SAMPLE_BRANCH_IND_CALL = 1U << SONDE_PERF_SAMPLE_BRANCH_IND_CALL_SHIFT,
	SONDE_PERF_SAMPLE_BRANCH_ABORT_TX = 1U << SONDE_PERF_SAMPLE_BRANCH_ABORT_TX_SHIFT,
	SONDE_PERF_SAMPLE_BRANCH_IN_TX = 1U << SONDE_PERF_SAMPLE_BRANCH_IN_TX_SHIFT,
	SONDE_PERF_SAMPLE_BRANCH_NO_TX = 1U << SONDE_PERF_SAMPLE_BRANCH_NO_TX_SHIFT,
	SONDE_PERF_SAMPLE_BRANCH_COND = 1U << SONDE_PERF_SAMPLE_BRANCH_COND_SHIFT,
	SONDE_PERF_SAMPLE_BRANCH_CALL_STACK = 1U << SONDE_PERF_SAMPLE_BRANCH_CALL_STACK_SHIFT,
	SONDE_PERF_SAMPLE_BRANCH_IND_JUMP = 1U << SONDE_PERF_SAMPLE_BRANCH_IND_JUMP_SHIFT,
	SONDE_PERF_SAMPLE_BRANCH_CALL = 1U << SONDE_PERF_SAMPLE_BRANCH_CALL_SHIFT,
	SONDE_PERF_SAMPLE_BRANCH_NO_FLAGS = 1U << SONDE_PERF_SAMPLE_BRANCH_NO_FLAGS_SHIFT,
	SONDE_PERF_SAMPLE_BRANCH_NO_CYCLES = 1U << SONDE_PERF_SAMPLE_BRANCH_NO_CYCLES_SHIFT,
	SONDE_PERF_SAMPLE_BRANCH_TYPE_SAVE = 1U << SONDE_PERF_SAMPLE_BRANCH_TYPE_SAVE_SHIFT,
	SONDE_PERF_SAMPLE_BRANCH_HW_INDEX = 1U << SONDE_PERF_SAMPLE_BRANCH_HW_INDEX_SHIFT,
	SONDE_PERF_SAMPLE_BRANCH_PRIV_SAVE = 1U << SONDE_PERF_SAMPLE_BRANCH_PRIV_SAVE_SHIFT,
	SONDE_PERF_SAMPLE_BRANCH_COUNTERS = 1U << SONDE_PERF_SAMPLE_BRANCH_COUNTERS_SHIFT,
	SONDE_PERF_SAMPLE_BRANCH_MAX = 1U << SONDE_PERF_SAMPLE_BRANCH_MAX_SHIFT,
};

#define SONDE_PERF_SAMPLE_BRANCH_PLM_ALL \
	(SONDE_PERF_SAMPLE_BRANCH_USER | SONDE_PERF_SAMPLE_BRANCH_KERNEL | \
	 SONDE_PERF_SAMPLE_BRANCH_HV)

/* Branch type stored in sonde_perf_branch_entry.type. */
enum {
	SONDE_PERF_BR_UNKNOWN = 0,
	SONDE_PERF_BR_COND = 1,
	SONDE_PERF_BR_UNCOND = 2,
	SONDE_PERF_BR_IND = 3,
	SONDE_PERF_BR_CALL = 4,
	SONDE_PERF_BR_IND_CALL = 5,
	SONDE_PERF_BR_RET = 6,
	SONDE_PERF_BR_SYSCALL = 7,
	SONDE_PERF_BR_SYSRET = 8,
	SONDE_PERF_BR_COND_CALL = 9,
	SONDE_PERF_BR_COND_RET = 10,
	SONDE_PERF_BR_ERET = 11,
	SONDE_PERF_BR_IRQ = 12,
	SONDE_PERF_BR_SERROR = 13,
	SONDE_PERF_BR_NO_TX = 14,
	SONDE_PERF_BR_EXTEND_ABI = 15,
	SONDE_PERF_BR_MAX,
};

/* ---- sample registers (x86-64 order of perf_regs.h) ---- */
enum sonde_perf_event_x86_regs {
	SONDE_PERF_REG_X86_AX, SONDE_PERF_REG_X86_BX, SONDE_PERF_REG_X86_CX,
	SONDE_PERF_REG_X86_DX, SONDE_PERF_REG_X86_SI, SONDE_PERF_REG_X86_DI,
	SONDE_PERF_REG_X86_BP, SONDE_PERF_REG_X86_SP, SONDE_PERF_REG_X86_IP,
	SONDE_PERF_REG_X86_FLAGS, SONDE_PERF_REG_X86_CS, SONDE_PERF_REG_X86_SS,
	SONDE_PERF_REG_X86_DS, SONDE_PERF_REG_X86_ES, SONDE_PERF_REG_X86_FS,
	SONDE_PERF_REG_X86_GS, SONDE_PERF_REG_X86_R8, SONDE_PERF_REG_X86_R9,
	SONDE_PERF_REG_X86_R10, SONDE_PERF_REG_X86_R11, SONDE_PERF_REG_X86_R12,
	SONDE_PERF_REG_X86_R13, SONDE_PERF_REG_X86_R14, SONDE_PERF_REG_X86_R15,
	SONDE_PERF_REG_X86_64_MAX = SONDE_PERF_REG_X86_R15 + 1,
};

enum sonde_perf_sample_regs_abi {
	SONDE_PERF_SAMPLE_REGS_ABI_NONE = 0,
	SONDE_PERF_SAMPLE_REGS_ABI_32 = 1,
	SONDE_PERF_SAMPLE_REGS_ABI_64 = 2,
};

/* ---- sample transaction flags ---- */
enum {
	SONDE_PERF_TXN_ELISION = 1 << 0,
	SONDE_PERF_TXN_TRANSACTION = 1 << 1,
	SONDE_PERF_TXN_SYNC = 1 << 2,
	SONDE_PERF_TXN_ASYNC = 1 << 3,
	SONDE_PERF_TXN_RETRY = 1 << 4,
	SONDE_PERF_TXN_CONFLICT = 1 << 5,
	SONDE_PERF_TXN_CAPACITY_WRITE = 1 << 6,
	SONDE_PERF_TXN_CAPACITY_READ = 1 << 7,
	SONDE_PERF_TXN_MAX = 1 << 8,
};
#define SONDE_PERF_TXN_ABORT_MASK (0xffffffffULL << 32)
#define SONDE_PERF_TXN_ABORT_SHIFT 32

/* ---- attr.read_format ---- */
enum sonde_perf_event_read_format {
	SONDE_PERF_FORMAT_TOTAL_TIME_ENABLED = 1U << 0,
	SONDE_PERF_FORMAT_TOTAL_TIME_RUNNING = 1U << 1,
	SONDE_PERF_FORMAT_ID = 1U << 2,
	SONDE_PERF_FORMAT_GROUP = 1U << 3,
	SONDE_PERF_FORMAT_LOST = 1U << 4,
	SONDE_PERF_FORMAT_MAX = 1U << 5,
};

/* ---- attr.size generations ---- */
#define SONDE_PERF_ATTR_SIZE_VER0 64  /* first published struct */
#define SONDE_PERF_ATTR_SIZE_VER1 72  /* config2 */
#define SONDE_PERF_ATTR_SIZE_VER2 80  /* branch_sample_type */
#define SONDE_PERF_ATTR_SIZE_VER3 96  /* sample_regs_user, sample_stack_user */
#define SONDE_PERF_ATTR_SIZE_VER4 104 /* sample_regs_intr */
#define SONDE_PERF_ATTR_SIZE_VER5 112 /* aux_watermark */
#define SONDE_PERF_ATTR_SIZE_VER6 120 /* aux_sample_size */
#define SONDE_PERF_ATTR_SIZE_VER7 128 /* sig_data */
#define SONDE_PERF_ATTR_SIZE_VER8 136 /* config3 */

/* The attribute structure handed to perf_event_open(2). */
struct sonde_perf_event_attr {
	uint32_t type;
	uint32_t size;
	uint64_t config;
	union {
		uint64_t sample_period;
		uint64_t sample_freq;
	};
	uint64_t sample_type;
	uint64_t read_format;

	uint64_t disabled : 1,
		inherit : 1,
		pinned : 1,
		exclusive : 1,
		exclude_user : 1,
		exclude_kernel : 1,
		exclude_hv : 1,
		exclude_idle : 1,
		mmap : 1,
		comm : 1,
		freq : 1,
		inherit_stat : 1,
		enable_on_exec : 1,
		task : 1,
		watermark : 1,
		precise_ip : 2,
		mmap_data : 1,
		sample_id_all : 1,
		exclude_host : 1,
		exclude_guest : 1,
		exclude_callchain_kernel : 1,
		exclude_callchain_user : 1,
		mmap2 : 1,
		comm_exec : 1,
		use_clockid : 1,
		context_switch : 1,
		write_backward : 1,
		namespaces : 1,
		ksymbol : 1,
		bpf_event : 1,
		aux_output : 1,
		cgroup : 1,
		text_poke : 1,
		build_id : 1,
		inherit_thread : 1,
		remove_on_exec : 1,
		sigtrap : 1,
		__reserved_1 : 26;

	union {
		uint32_t wakeup_events;
		uint32_t wakeup_watermark;
	};
	uint32_t bp_type;
	union {
		uint64_t bp_addr;
		uint64_t kprobe_func;
		uint64_t uprobe_path;
		uint64_t config1;
	};
	union {
		uint64_t bp_len;
		uint64_t kprobe_addr;
		uint64_t probe_offset;
		uint64_t config2;
	};
	uint64_t branch_sample_type;
	uint64_t sample_regs_user;
	uint32_t sample_stack_user;
	int32_t clockid;
	uint64_t sample_regs_intr;
	uint32_t aux_watermark;
	uint16_t sample_max_stack;
	uint16_t __reserved_2;
	uint32_t aux_sample_size;
	union {
		uint32_t aux_action;
		struct {
			uint32_t aux_start_paused : 1,
				aux_pause : 1,
				aux_resume : 1,
				__reserved_3 : 29;
		};
	};
	uint64_t sig_data;
	uint64_t config3;
};

/* ---- breakpoints (attr.bp_type / bp_len) ---- */
enum {
	SONDE_HW_BREAKPOINT_EMPTY = 0,
	SONDE_HW_BREAKPOINT_R = 1,
	SONDE_HW_BREAKPOINT_W = 2,
	SONDE_HW_BREAKPOINT_RW = SONDE_HW_BREAKPOINT_R | SONDE_HW_BREAKPOINT_W,
	SONDE_HW_BREAKPOINT_X = 4,
	SONDE_HW_BREAKPOINT_INVALID = SONDE_HW_BREAKPOINT_RW | SONDE_HW_BREAKPOINT_X,
};

enum {
	SONDE_HW_BREAKPOINT_LEN_1 = 1,
	SONDE_HW_BREAKPOINT_LEN_2 = 2,
	SONDE_HW_BREAKPOINT_LEN_3 = 3,
	SONDE_HW_BREAKPOINT_LEN_4 = 4,
	SONDE_HW_BREAKPOINT_LEN_5 = 5,
	SONDE_HW_BREAKPOINT_LEN_6 = 6,
	SONDE_HW_BREAKPOINT_LEN_7 = 7,
	SONDE_HW_BREAKPOINT_LEN_8 = 8,
};

/* ---- group read layout (PERF_FORMAT_GROUP) ---- */
struct sonde_perf_read_group_entry {
	uint64_t value;
	uint64_t id;   /* if PERF_FORMAT_ID */
	uint64_t lost; /* if PERF_FORMAT_LOST */
};

/* ---- ioctls ---- */
#define SONDE_PERF_IOC_MAGIC '$'
#define SONDE_PERF_EVENT_IOC_ENABLE 0x2400u
#define SONDE_PERF_EVENT_IOC_DISABLE 0x2401u
#define SONDE_PERF_EVENT_IOC_REFRESH 0x2402u
#define SONDE_PERF_EVENT_IOC_RESET 0x2403u
#define SONDE_PERF_EVENT_IOC_PERIOD 0x40082404u            /* _IOW('$', 4, u64) */
#define SONDE_PERF_EVENT_IOC_SET_OUTPUT 0x2405u
#define SONDE_PERF_EVENT_IOC_SET_FILTER 0x40082406u        /* _IOW('$', 6, char *) */
#define SONDE_PERF_EVENT_IOC_ID 0x80082407u                /* _IOR('$', 7, u64 *) */
#define SONDE_PERF_EVENT_IOC_SET_BPF 0x40042408u           /* _IOW('$', 8, u32) */
#define SONDE_PERF_EVENT_IOC_PAUSE_OUTPUT 0x40042409u      /* _IOW('$', 9, u32) */
#define SONDE_PERF_EVENT_IOC_QUERY_BPF 0xc008240au         /* _IOWR('$', 10, ptr) */
#define SONDE_PERF_EVENT_IOC_MODIFY_ATTRIBUTES 0x4008240bu /* _IOW('$', 11, ptr) */

enum sonde_perf_event_ioc_flags {
	SONDE_PERF_IOC_FLAG_GROUP = 1U << 0,
};

/* ---- perf_event_open(2) flags ---- */
#define SONDE_PERF_FLAG_FD_NO_GROUP (1UL << 0)
#define SONDE_PERF_FLAG_FD_OUTPUT (1UL << 1)
#define SONDE_PERF_FLAG_PID_CGROUP (1UL << 2)
#define SONDE_PERF_FLAG_FD_CLOEXEC (1UL << 3)

/* ---- prctl(2) options that toggle all counters of the calling task ---- */
#define SONDE_PR_TASK_PERF_EVENTS_DISABLE 31
#define SONDE_PR_TASK_PERF_EVENTS_ENABLE 32

/* ---- the first mmap page ---- */
struct sonde_perf_event_mmap_page {
	uint32_t version;
	uint32_t compat_version;
	uint32_t lock;  /* seqlock */
	uint32_t index; /* hardware counter + 1, 0 = not readable by rdpmc */
	int64_t offset;
	uint64_t time_enabled;
	uint64_t time_running;
	union {
		uint64_t capabilities;
		struct {
			uint64_t cap_bit0 : 1,
				cap_bit0_is_deprecated : 1,
				cap_user_rdpmc : 1,
				cap_user_time : 1,
				cap_user_time_zero : 1,
				cap_user_time_short : 1,
				cap_____res : 58;
		};
	};
	uint16_t pmc_width;
	uint16_t time_shift;
	uint32_t time_mult;
	uint64_t time_offset;
	uint64_t time_zero;
	uint32_t size;
	uint32_t __reserved_1;
	uint64_t time_cycles;
	uint64_t time_mask;
	uint8_t __reserved[116 * 8];
	uint64_t data_head;
	uint64_t data_tail;
	uint64_t data_offset;
	uint64_t data_size;
	uint64_t aux_head;
	uint64_t aux_tail;
	uint64_t aux_offset;
	uint64_t aux_size;
};

/* ---- record header and misc bits ---- */
struct sonde_perf_event_header {
	uint32_t type;
	uint16_t misc;
	uint16_t size;
};

#define SONDE_PERF_RECORD_MISC_CPUMODE_MASK (7 << 0)
#define SONDE_PERF_RECORD_MISC_CPUMODE_UNKNOWN (0 << 0)
#define SONDE_PERF_RECORD_MISC_KERNEL (1 << 0)
#define SONDE_PERF_RECORD_MISC_USER (2 << 0)
#define SONDE_PERF_RECORD_MISC_HYPERVISOR (3 << 0)
#define SONDE_PERF_RECORD_MISC_GUEST_KERNEL (4 << 0)
#define SONDE_PERF_RECORD_MISC_GUEST_USER (5 << 0)
#define SONDE_PERF_RECORD_MISC_PROC_MAP_PARSE_TIMEOUT (1 << 12)
#define SONDE_PERF_RECORD_MISC_MMAP_DATA (1 << 13)
#define SONDE_PERF_RECORD_MISC_COMM_EXEC (1 << 13)
#define SONDE_PERF_RECORD_MISC_FORK_EXEC (1 << 13)
#define SONDE_PERF_RECORD_MISC_SWITCH_OUT (1 << 13)
#define SONDE_PERF_RECORD_MISC_EXACT_IP (1 << 14)
#define SONDE_PERF_RECORD_MISC_SWITCH_OUT_PREEMPT (1 << 14)
#define SONDE_PERF_RECORD_MISC_MMAP_BUILD_ID (1 << 14)
#define SONDE_PERF_RECORD_MISC_EXT_RESERVED (1 << 15)

/* Record types the kernel writes into the ring buffer. */
enum sonde_perf_event_type {
	SONDE_PERF_RECORD_MMAP = 1,
	SONDE_PERF_RECORD_LOST = 2,
	SONDE_PERF_RECORD_COMM = 3,
	SONDE_PERF_RECORD_EXIT = 4,
	SONDE_PERF_RECORD_THROTTLE = 5,
	SONDE_PERF_RECORD_UNTHROTTLE = 6,
	SONDE_PERF_RECORD_FORK = 7,
	SONDE_PERF_RECORD_READ = 8,
	SONDE_PERF_RECORD_SAMPLE = 9,
	SONDE_PERF_RECORD_MMAP2 = 10,
	SONDE_PERF_RECORD_AUX = 11,
	SONDE_PERF_RECORD_ITRACE_START = 12,
	SONDE_PERF_RECORD_LOST_SAMPLES = 13,
	SONDE_PERF_RECORD_SWITCH = 14,
	SONDE_PERF_RECORD_SWITCH_CPU_WIDE = 15,
	SONDE_PERF_RECORD_NAMESPACES = 16,
	SONDE_PERF_RECORD_KSYMBOL = 17,
	SONDE_PERF_RECORD_BPF_EVENT = 18,
	SONDE_PERF_RECORD_CGROUP = 19,
	SONDE_PERF_RECORD_TEXT_POKE = 20,
	SONDE_PERF_RECORD_AUX_OUTPUT_HW_ID = 21,
	SONDE_PERF_RECORD_MAX,
};

/* Record types perf's user space adds to perf.data (not from the kernel). */
enum sonde_perf_user_event_type {
	SONDE_PERF_RECORD_USER_TYPE_START = 64,
	SONDE_PERF_RECORD_HEADER_ATTR = 64,
	SONDE_PERF_RECORD_HEADER_EVENT_TYPE = 65, /* deprecated */
	SONDE_PERF_RECORD_HEADER_TRACING_DATA = 66,
	SONDE_PERF_RECORD_HEADER_BUILD_ID = 67,
	SONDE_PERF_RECORD_FINISHED_ROUND = 68,
	SONDE_PERF_RECORD_ID_INDEX = 69,
	SONDE_PERF_RECORD_AUXTRACE_INFO = 70,
	SONDE_PERF_RECORD_AUXTRACE = 71,
	SONDE_PERF_RECORD_AUXTRACE_ERROR = 72,
	SONDE_PERF_RECORD_THREAD_MAP = 73,
	SONDE_PERF_RECORD_CPU_MAP = 74,
	SONDE_PERF_RECORD_STAT_CONFIG = 75,
	SONDE_PERF_RECORD_STAT = 76,
	SONDE_PERF_RECORD_STAT_ROUND = 77,
	SONDE_PERF_RECORD_EVENT_UPDATE = 78,
	SONDE_PERF_RECORD_TIME_CONV = 79,
	SONDE_PERF_RECORD_HEADER_FEATURE = 80,
	SONDE_PERF_RECORD_COMPRESSED = 81,
	SONDE_PERF_RECORD_FINISHED_INIT = 82,
	SONDE_PERF_RECORD_COMPRESSED2 = 83,
	SONDE_PERF_RECORD_HEADER_MAX,
};

/*
 * Which AUX area tracer an AUXTRACE_INFO record describes: perf's enum
 * auxtrace_type (perf 6.1). perf decodes only the known ones and refuses
 * UNKNOWN ("failed to process type: 70").
 */
enum sonde_auxtrace_type {
	SONDE_AUXTRACE_UNKNOWN = 0,
	SONDE_AUXTRACE_INTEL_PT = 1,
	SONDE_AUXTRACE_INTEL_BTS = 2,
	SONDE_AUXTRACE_CS_ETM = 3,
	SONDE_AUXTRACE_ARM_SPE = 4,
	SONDE_AUXTRACE_S390_CPUMSF = 5,
	SONDE_AUXTRACE_HISI_PTT = 6,
};

#define SONDE_PERF_AUX_FLAG_TRUNCATED 0x01
#define SONDE_PERF_AUX_FLAG_OVERWRITE 0x02
#define SONDE_PERF_AUX_FLAG_PARTIAL 0x04
#define SONDE_PERF_AUX_FLAG_COLLISION 0x08
#define SONDE_PERF_AUX_FLAG_PMU_FORMAT_TYPE_MASK 0xff00

enum sonde_perf_record_ksymbol_type {
	SONDE_PERF_RECORD_KSYMBOL_TYPE_UNKNOWN = 0,
	SONDE_PERF_RECORD_KSYMBOL_TYPE_BPF = 1,
	SONDE_PERF_RECORD_KSYMBOL_TYPE_OOL = 2,
	SONDE_PERF_RECORD_KSYMBOL_TYPE_MAX,
};
#define SONDE_PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER (1 << 0)

enum sonde_perf_bpf_event_type {
	SONDE_PERF_BPF_EVENT_UNKNOWN = 0,
	SONDE_PERF_BPF_EVENT_PROG_LOAD = 1,
	SONDE_PERF_BPF_EVENT_PROG_UNLOAD = 2,
	SONDE_PERF_BPF_EVENT_MAX,
};
#define SONDE_BPF_TAG_SIZE 8
#define SONDE_BUILD_ID_MAX_SIZE 20

/* NAMESPACES record: the index of each namespace in its array. */
enum {
	SONDE_NET_NS_INDEX = 0,
	SONDE_UTS_NS_INDEX = 1,
	SONDE_IPC_NS_INDEX = 2,
	SONDE_PID_NS_INDEX = 3,
	SONDE_USER_NS_INDEX = 4,
	SONDE_MNT_NS_INDEX = 5,
	SONDE_CGROUP_NS_INDEX = 6,
	SONDE_NR_NAMESPACES,
};

struct sonde_perf_ns_link_info {
	uint64_t dev;
	uint64_t ino;
};

/* ---- callchain context markers ---- */
enum sonde_perf_callchain_context {
	SONDE_PERF_CONTEXT_HV = (uint64_t)-32,
	SONDE_PERF_CONTEXT_KERNEL = (uint64_t)-128,
	SONDE_PERF_CONTEXT_USER = (uint64_t)-512,
	SONDE_PERF_CONTEXT_GUEST = (uint64_t)-2048,
	SONDE_PERF_CONTEXT_GUEST_KERNEL = (uint64_t)-2176,
	SONDE_PERF_CONTEXT_GUEST_USER = (uint64_t)-2560,
	SONDE_PERF_CONTEXT_MAX = (uint64_t)-4095,
};
#define SONDE_PERF_MAX_STACK_DEPTH 127
#define SONDE_PERF_MAX_CONTEXTS_PER_STACK 8

/* ---- one branch-stack entry ---- */
struct sonde_perf_branch_entry {
	uint64_t from;
	uint64_t to;
	uint64_t mispred : 1, /* target mispredicted */
		predicted : 1, /* target predicted */
		in_tx : 1,     /* in transaction */
		abort : 1,     /* transaction abort */
		cycles : 16,   /* cycle count to last branch */
		type : 4,      /* branch type */
		spec : 2,      /* branch speculation info */
		new_type : 4,  /* additional branch type */
		priv : 3,      /* privilege level */
		reserved : 31;
};

/* ---- PERF_SAMPLE_WEIGHT_STRUCT ---- */
union sonde_perf_sample_weight {
	uint64_t full;
	struct {
		uint32_t var1_dw;
		uint16_t var2_w;
		uint16_t var3_w;
	};
};

/* ---- PERF_SAMPLE_DATA_SRC ---- */
union sonde_perf_mem_data_src {
	uint64_t val;
	struct {
		uint64_t mem_op : 5,
			mem_lvl : 14,
			mem_snoop : 5,
			mem_lock : 2,
			mem_dtlb : 7,
			mem_lvl_num : 4,
			mem_remote : 1,
			mem_snoopx : 2,
			mem_blk : 3,
			mem_hops : 3,
			mem_rsvd : 18;
	};
};

#define SONDE_PERF_MEM_OP_NA 0x01
#define SONDE_PERF_MEM_OP_LOAD 0x02
#define SONDE_PERF_MEM_OP_STORE 0x04
#define SONDE_PERF_MEM_OP_PFETCH 0x08
#define SONDE_PERF_MEM_OP_EXEC 0x10
#define SONDE_PERF_MEM_OP_SHIFT 0

#define SONDE_PERF_MEM_LVL_NA 0x01
#define SONDE_PERF_MEM_LVL_HIT 0x02
#define SONDE_PERF_MEM_LVL_MISS 0x04
#define SONDE_PERF_MEM_LVL_L1 0x08
#define SONDE_PERF_MEM_LVL_LFB 0x10
#define SONDE_PERF_MEM_LVL_L2 0x20
#define SONDE_PERF_MEM_LVL_L3 0x40
#define SONDE_PERF_MEM_LVL_LOC_RAM 0x80
#define SONDE_PERF_MEM_LVL_REM_RAM1 0x100
#define SONDE_PERF_MEM_LVL_REM_RAM2 0x200
#define SONDE_PERF_MEM_LVL_REM_CCE1 0x400
#define SONDE_PERF_MEM_LVL_REM_CCE2 0x800
#define SONDE_PERF_MEM_LVL_IO 0x1000
#define SONDE_PERF_MEM_LVL_UNC 0x2000
#define SONDE_PERF_MEM_LVL_SHIFT 5

#define SONDE_PERF_MEM_REMOTE_REMOTE 0x01
#define SONDE_PERF_MEM_REMOTE_SHIFT 37

#define SONDE_PERF_MEM_LVLNUM_L1 0x01
#define SONDE_PERF_MEM_LVLNUM_L2 0x02
#define SONDE_PERF_MEM_LVLNUM_L3 0x03
#define SONDE_PERF_MEM_LVLNUM_L4 0x04
#define SONDE_PERF_MEM_LVLNUM_L2_MHB 0x05
#define SONDE_PERF_MEM_LVLNUM_MSC 0x06
#define SONDE_PERF_MEM_LVLNUM_UNC 0x08
#define SONDE_PERF_MEM_LVLNUM_CXL 0x09
#define SONDE_PERF_MEM_LVLNUM_IO 0x0a
#define SONDE_PERF_MEM_LVLNUM_ANY_CACHE 0x0b
#define SONDE_PERF_MEM_LVLNUM_LFB 0x0c
#define SONDE_PERF_MEM_LVLNUM_RAM 0x0d
#define SONDE_PERF_MEM_LVLNUM_PMEM 0x0e
#define SONDE_PERF_MEM_LVLNUM_NA 0x0f
#define SONDE_PERF_MEM_LVLNUM_SHIFT 33

#define SONDE_PERF_MEM_SNOOP_NA 0x01
#define SONDE_PERF_MEM_SNOOP_NONE 0x02
#define SONDE_PERF_MEM_SNOOP_HIT 0x04
#define SONDE_PERF_MEM_SNOOP_MISS 0x08
#define SONDE_PERF_MEM_SNOOP_HITM 0x10
#define SONDE_PERF_MEM_SNOOP_SHIFT 19

#define SONDE_PERF_MEM_SNOOPX_FWD 0x01
#define SONDE_PERF_MEM_SNOOPX_PEER 0x02
#define SONDE_PERF_MEM_SNOOPX_SHIFT 38

#define SONDE_PERF_MEM_LOCK_NA 0x01
#define SONDE_PERF_MEM_LOCK_LOCKED 0x02
#define SONDE_PERF_MEM_LOCK_SHIFT 24

#define SONDE_PERF_MEM_TLB_NA 0x01
#define SONDE_PERF_MEM_TLB_HIT 0x02
#define SONDE_PERF_MEM_TLB_MISS 0x04
#define SONDE_PERF_MEM_TLB_L1 0x08
#define SONDE_PERF_MEM_TLB_L2 0x10
#define SONDE_PERF_MEM_TLB_WK 0x20
#define SONDE_PERF_MEM_TLB_OS 0x40
#define SONDE_PERF_MEM_TLB_SHIFT 26

#define SONDE_PERF_MEM_BLK_NA 0x01
#define SONDE_PERF_MEM_BLK_DATA 0x02
#define SONDE_PERF_MEM_BLK_ADDR 0x04
#define SONDE_PERF_MEM_BLK_SHIFT 40

#define SONDE_PERF_MEM_HOPS_0 0x01
#define SONDE_PERF_MEM_HOPS_1 0x02
#define SONDE_PERF_MEM_HOPS_2 0x03
#define SONDE_PERF_MEM_HOPS_3 0x04
#define SONDE_PERF_MEM_HOPS_SHIFT 43

#define SONDE_PERF_MEM_S(a, s) \
	(((uint64_t)SONDE_PERF_MEM_##a##_##s) << SONDE_PERF_MEM_##a##_SHIFT)

/* ---- layout pins: the sizes and offsets the man page documents ---- */
#ifndef __cplusplus
#include <stddef.h>
_Static_assert(sizeof(struct sonde_perf_event_attr) == SONDE_PERF_ATTR_SIZE_VER8,
	       "perf_event_attr must be VER8 (136 bytes)");
_Static_assert(offsetof(struct sonde_perf_event_attr, config2) + 8 ==
		       SONDE_PERF_ATTR_SIZE_VER1, "VER1 ends after config2");
_Static_assert(offsetof(struct sonde_perf_event_attr, bp_addr) + 8 ==
		       SONDE_PERF_ATTR_SIZE_VER0, "VER0 ends after config1");
_Static_assert(offsetof(struct sonde_perf_event_attr, branch_sample_type) + 8 ==
		       SONDE_PERF_ATTR_SIZE_VER2, "VER2 ends after branch_sample_type");
_Static_assert(offsetof(struct sonde_perf_event_attr, clockid) + 4 ==
		       SONDE_PERF_ATTR_SIZE_VER3, "VER3 ends after clockid");
_Static_assert(offsetof(struct sonde_perf_event_attr, sample_regs_intr) + 8 ==
		       SONDE_PERF_ATTR_SIZE_VER4, "VER4 ends after sample_regs_intr");
_Static_assert(offsetof(struct sonde_perf_event_attr, __reserved_2) + 2 ==
		       SONDE_PERF_ATTR_SIZE_VER5, "VER5 ends after aux_watermark");
_Static_assert(offsetof(struct sonde_perf_event_attr, aux_action) + 4 ==
		       SONDE_PERF_ATTR_SIZE_VER6, "VER6 ends after aux_sample_size");
_Static_assert(offsetof(struct sonde_perf_event_attr, sig_data) + 8 ==
		       SONDE_PERF_ATTR_SIZE_VER7, "VER7 ends after sig_data");
_Static_assert(offsetof(struct sonde_perf_event_attr, config3) + 8 ==
		       SONDE_PERF_ATTR_SIZE_VER8, "VER8 ends after config3");
_Static_assert(offsetof(struct sonde_perf_event_attr, config) == 8, "config");
_Static_assert(offsetof(struct sonde_perf_event_attr, sample_type) == 24, "sample_type");
_Static_assert(offsetof(struct sonde_perf_event_attr, read_format) == 32, "read_format");
_Static_assert(offsetof(struct sonde_perf_event_attr, wakeup_events) == 48, "wakeup");
_Static_assert(offsetof(struct sonde_perf_event_attr, bp_type) == 52, "bp_type");
_Static_assert(sizeof(struct sonde_perf_event_mmap_page) == 1024 + 64,
	       "mmap page control block is 1 KiB of fields + 8 ring words");
_Static_assert(offsetof(struct sonde_perf_event_mmap_page, data_head) == 1024,
	       "data_head starts the second KiB");
_Static_assert(offsetof(struct sonde_perf_event_mmap_page, pmc_width) == 48, "pmc_width");
_Static_assert(offsetof(struct sonde_perf_event_mmap_page, time_offset) == 56, "time_offset");
_Static_assert(offsetof(struct sonde_perf_event_mmap_page, time_zero) == 64, "time_zero");
_Static_assert(offsetof(struct sonde_perf_event_mmap_page, time_cycles) == 80, "time_cycles");
_Static_assert(offsetof(struct sonde_perf_event_mmap_page, aux_size) == 1080, "aux_size");
_Static_assert(sizeof(struct sonde_perf_event_header) == 8, "record header");
_Static_assert(sizeof(struct sonde_perf_branch_entry) == 24, "branch entry");
_Static_assert(sizeof(union sonde_perf_mem_data_src) == 8, "data_src");
_Static_assert(sizeof(union sonde_perf_sample_weight) == 8, "weight");
#endif

#ifdef __cplusplus
}
#endif
#endif /* SONDE_ABI_H */
