// SPDX-License-Identifier: LGPL-2.1-only
/*
 * include/sonde/abi.h against the build host's <linux/perf_event.h>: every
 * offset, size, bitfield position and constant the host header also has.
 * The host header may be older than ours: what it lacks is skipped (guarded
 * by its own macros or by <linux/version.h>), never failed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <linux/version.h>
#include <linux/perf_event.h>
#include "sonde/abi.h"

#ifndef KERNEL_VERSION
#define KERNEL_VERSION(a, b, c) (((a) << 16) + ((b) << 8) + (c))
#endif
#define HOST_AT_LEAST(a, b) (LINUX_VERSION_CODE >= KERNEL_VERSION(a, b, 0))

static int mismatches;
static int compared;

static void report(const char *what, unsigned long long ours,
		   unsigned long long host)
{
	compared++;
	if (ours == host)
		return;
	mismatches++;
	printf("mismatch: %s: sonde %#llx, host %#llx\n", what, ours, host);
}

/* Constants: SONDE_X against X. */
#define K(name) report(#name, (unsigned long long)(SONDE_##name), \
		       (unsigned long long)(name))

/* Plain struct members: offset and size. */
#define F(ours, host, field) do {                                         \
	report(#host "." #field " offset", offsetof(struct ours, field),  \
	       offsetof(struct host, field));                             \
	report(#host "." #field " size",                                  \
	       sizeof(((struct ours *)0)->field),                         \
	       sizeof(((struct host *)0)->field));                        \
} while (0)

/*
 * Bitfields have no offsetof: set the field to all ones in each struct and
 * compare the 64-bit word that holds it.
 */
#define BITS(ours, host, word_off, field, ones) do {                      \
	struct ours o_;                                                   \
	struct host h_;                                                   \
	uint64_t wo_, wh_;                                                \
	memset(&o_, 0, sizeof(o_));                                       \
	memset(&h_, 0, sizeof(h_));                                       \
	o_.field = (ones);                                                \
	h_.field = (ones);                                                \
	memcpy(&wo_, (char *)&o_ + (word_off), 8);                        \
	memcpy(&wh_, (char *)&h_ + (word_off), 8);                        \
	report(#host "." #field " bits", wo_, wh_);                       \
} while (0)

#define ATTR_FLAGS_OFF offsetof(struct perf_event_attr, read_format) + 8
#define ABIT(field, ones) \
	BITS(sonde_perf_event_attr, perf_event_attr, ATTR_FLAGS_OFF, field, ones)

static void test_attr_layout(void **state)
{
	F(sonde_perf_event_attr, perf_event_attr, type);
	F(sonde_perf_event_attr, perf_event_attr, size);
	F(sonde_perf_event_attr, perf_event_attr, config);
	F(sonde_perf_event_attr, perf_event_attr, sample_period);
	F(sonde_perf_event_attr, perf_event_attr, sample_freq);
	F(sonde_perf_event_attr, perf_event_attr, sample_type);
	F(sonde_perf_event_attr, perf_event_attr, read_format);
	F(sonde_perf_event_attr, perf_event_attr, wakeup_events);
	F(sonde_perf_event_attr, perf_event_attr, wakeup_watermark);
	F(sonde_perf_event_attr, perf_event_attr, bp_type);
	F(sonde_perf_event_attr, perf_event_attr, bp_addr);
	F(sonde_perf_event_attr, perf_event_attr, config1);
	F(sonde_perf_event_attr, perf_event_attr, bp_len);
	F(sonde_perf_event_attr, perf_event_attr, config2);
#if HOST_AT_LEAST(4, 17)
	F(sonde_perf_event_attr, perf_event_attr, kprobe_func);
	F(sonde_perf_event_attr, perf_event_attr, uprobe_path);
	F(sonde_perf_event_attr, perf_event_attr, kprobe_addr);
	F(sonde_perf_event_attr, perf_event_attr, probe_offset);
#endif
#ifdef PERF_ATTR_SIZE_VER2
	F(sonde_perf_event_attr, perf_event_attr, branch_sample_type);
#endif
#ifdef PERF_ATTR_SIZE_VER3
	F(sonde_perf_event_attr, perf_event_attr, sample_regs_user);
	F(sonde_perf_event_attr, perf_event_attr, sample_stack_user);
#endif
#ifdef PERF_ATTR_SIZE_VER4
	F(sonde_perf_event_attr, perf_event_attr, clockid);
	F(sonde_perf_event_attr, perf_event_attr, sample_regs_intr);
#endif
#ifdef PERF_ATTR_SIZE_VER5
	F(sonde_perf_event_attr, perf_event_attr, aux_watermark);
	F(sonde_perf_event_attr, perf_event_attr, sample_max_stack);
#endif
#ifdef PERF_ATTR_SIZE_VER6
	F(sonde_perf_event_attr, perf_event_attr, aux_sample_size);
#endif
#ifdef PERF_ATTR_SIZE_VER7
	F(sonde_perf_event_attr, perf_event_attr, sig_data);
#endif
#ifdef PERF_ATTR_SIZE_VER8
	F(sonde_perf_event_attr, perf_event_attr, config3);
#endif
#if HOST_AT_LEAST(6, 13)
	BITS(sonde_perf_event_attr, perf_event_attr,
	     offsetof(struct perf_event_attr, aux_action) & ~7UL,
	     aux_start_paused, 1);
	BITS(sonde_perf_event_attr, perf_event_attr,
	     offsetof(struct perf_event_attr, aux_action) & ~7UL, aux_pause, 1);
	BITS(sonde_perf_event_attr, perf_event_attr,
	     offsetof(struct perf_event_attr, aux_action) & ~7UL, aux_resume, 1);
#endif
	/* Our struct is never smaller than the host's. */
	assert_true(sizeof(struct sonde_perf_event_attr) >=
		    sizeof(struct perf_event_attr));

	ABIT(disabled, 1);
	ABIT(inherit, 1);
	ABIT(pinned, 1);
	ABIT(exclusive, 1);
	ABIT(exclude_user, 1);
	ABIT(exclude_kernel, 1);
	ABIT(exclude_hv, 1);
	ABIT(exclude_idle, 1);
	ABIT(mmap, 1);
	ABIT(comm, 1);
	ABIT(freq, 1);
	ABIT(inherit_stat, 1);
	ABIT(enable_on_exec, 1);
	ABIT(task, 1);
	ABIT(watermark, 1);
	ABIT(precise_ip, 3);
	ABIT(mmap_data, 1);
	ABIT(sample_id_all, 1);
	ABIT(exclude_host, 1);
	ABIT(exclude_guest, 1);
	ABIT(exclude_callchain_kernel, 1);
	ABIT(exclude_callchain_user, 1);
#if HOST_AT_LEAST(3, 12)
	ABIT(mmap2, 1);
#endif
#if HOST_AT_LEAST(3, 16)
	ABIT(comm_exec, 1);
#endif
#if HOST_AT_LEAST(4, 1)
	ABIT(use_clockid, 1);
#endif
#if HOST_AT_LEAST(4, 3)
	ABIT(context_switch, 1);
#endif
#if HOST_AT_LEAST(4, 7)
	ABIT(write_backward, 1);
#endif
#if HOST_AT_LEAST(4, 12)
	ABIT(namespaces, 1);
#endif
#if HOST_AT_LEAST(5, 1)
	ABIT(ksymbol, 1);
	ABIT(bpf_event, 1);
#endif
#if HOST_AT_LEAST(5, 4)
	ABIT(aux_output, 1);
#endif
#if HOST_AT_LEAST(5, 7)
	ABIT(cgroup, 1);
#endif
#if HOST_AT_LEAST(5, 9)
	ABIT(text_poke, 1);
#endif
#if HOST_AT_LEAST(5, 12)
	ABIT(build_id, 1);
#endif
#ifdef PERF_ATTR_SIZE_VER7
	ABIT(inherit_thread, 1);
	ABIT(remove_on_exec, 1);
	ABIT(sigtrap, 1);
#endif
	printf("attr: %d comparisons\n", compared);
	assert_int_equal(mismatches, 0);
}

#define MBIT(field) BITS(sonde_perf_event_mmap_page, perf_event_mmap_page, \
			 offsetof(struct perf_event_mmap_page, capabilities), \
			 field, 1)

static void test_mmap_page_layout(void **state)
{
	mismatches = 0;
	report("sizeof mmap_page", sizeof(struct sonde_perf_event_mmap_page),
	       sizeof(struct perf_event_mmap_page));
	F(sonde_perf_event_mmap_page, perf_event_mmap_page, version);
	F(sonde_perf_event_mmap_page, perf_event_mmap_page, compat_version);
	F(sonde_perf_event_mmap_page, perf_event_mmap_page, lock);
	F(sonde_perf_event_mmap_page, perf_event_mmap_page, index);
	F(sonde_perf_event_mmap_page, perf_event_mmap_page, offset);
	F(sonde_perf_event_mmap_page, perf_event_mmap_page, time_enabled);
	F(sonde_perf_event_mmap_page, perf_event_mmap_page, time_running);
	F(sonde_perf_event_mmap_page, perf_event_mmap_page, data_head);
	F(sonde_perf_event_mmap_page, perf_event_mmap_page, data_tail);
#if HOST_AT_LEAST(3, 12)
	F(sonde_perf_event_mmap_page, perf_event_mmap_page, capabilities);
	F(sonde_perf_event_mmap_page, perf_event_mmap_page, pmc_width);
	F(sonde_perf_event_mmap_page, perf_event_mmap_page, time_shift);
	F(sonde_perf_event_mmap_page, perf_event_mmap_page, time_mult);
	F(sonde_perf_event_mmap_page, perf_event_mmap_page, time_offset);
	F(sonde_perf_event_mmap_page, perf_event_mmap_page, time_zero);
	F(sonde_perf_event_mmap_page, perf_event_mmap_page, size);
	MBIT(cap_bit0);
	MBIT(cap_bit0_is_deprecated);
	MBIT(cap_user_rdpmc);
	MBIT(cap_user_time);
	MBIT(cap_user_time_zero);
#endif
#if HOST_AT_LEAST(4, 1)
	F(sonde_perf_event_mmap_page, perf_event_mmap_page, data_offset);
	F(sonde_perf_event_mmap_page, perf_event_mmap_page, data_size);
	F(sonde_perf_event_mmap_page, perf_event_mmap_page, aux_head);
	F(sonde_perf_event_mmap_page, perf_event_mmap_page, aux_tail);
	F(sonde_perf_event_mmap_page, perf_event_mmap_page, aux_offset);
	F(sonde_perf_event_mmap_page, perf_event_mmap_page, aux_size);
#endif
#if HOST_AT_LEAST(5, 12)
	F(sonde_perf_event_mmap_page, perf_event_mmap_page, time_cycles);
	F(sonde_perf_event_mmap_page, perf_event_mmap_page, time_mask);
	MBIT(cap_user_time_short);
#endif
	assert_int_equal(mismatches, 0);
}

static void test_record_structs(void **state)
{
	mismatches = 0;
	F(sonde_perf_event_header, perf_event_header, type);
	F(sonde_perf_event_header, perf_event_header, misc);
	F(sonde_perf_event_header, perf_event_header, size);
	F(sonde_perf_branch_entry, perf_branch_entry, from);
	F(sonde_perf_branch_entry, perf_branch_entry, to);
	BITS(sonde_perf_branch_entry, perf_branch_entry, 16, mispred, 1);
	BITS(sonde_perf_branch_entry, perf_branch_entry, 16, predicted, 1);
	BITS(sonde_perf_branch_entry, perf_branch_entry, 16, in_tx, 1);
	BITS(sonde_perf_branch_entry, perf_branch_entry, 16, abort, 1);
	BITS(sonde_perf_branch_entry, perf_branch_entry, 16, cycles, 0xffff);
#if HOST_AT_LEAST(4, 14)
	BITS(sonde_perf_branch_entry, perf_branch_entry, 16, type, 0xf);
#endif
#if HOST_AT_LEAST(6, 1)
	BITS(sonde_perf_branch_entry, perf_branch_entry, 16, spec, 3);
	BITS(sonde_perf_branch_entry, perf_branch_entry, 16, new_type, 0xf);
	BITS(sonde_perf_branch_entry, perf_branch_entry, 16, priv, 7);
#endif
	report("sizeof branch_entry", sizeof(struct sonde_perf_branch_entry),
	       sizeof(struct perf_branch_entry));
#if HOST_AT_LEAST(4, 12)
	F(sonde_perf_ns_link_info, perf_ns_link_info, dev);
	F(sonde_perf_ns_link_info, perf_ns_link_info, ino);
#endif
#if HOST_AT_LEAST(5, 12)
	{
		union sonde_perf_sample_weight o = { 0 };
		union perf_sample_weight h = { 0 };

		o.var1_dw = h.var1_dw = 0x11223344;
		o.var2_w = h.var2_w = 0x5566;
		o.var3_w = h.var3_w = 0x7788;
		report("perf_sample_weight", o.full, h.full);
	}
#endif
	/* mem data_src bitfields: set each to all ones, compare the word. */
#define DS(field, ones) do {                                             \
	union sonde_perf_mem_data_src o_ = { 0 };                         \
	union perf_mem_data_src h_ = { 0 };                               \
	o_.field = (ones);                                                \
	h_.field = (ones);                                                \
	report("perf_mem_data_src." #field, o_.val, h_.val);              \
} while (0)
	DS(mem_op, 0x1f);
	DS(mem_lvl, 0x3fff);
	DS(mem_snoop, 0x1f);
	DS(mem_lock, 3);
	DS(mem_dtlb, 0x7f);
#if HOST_AT_LEAST(4, 14)
	DS(mem_lvl_num, 0xf);
	DS(mem_remote, 1);
	DS(mem_snoopx, 3);
#endif
#if HOST_AT_LEAST(5, 16)
	DS(mem_blk, 7);
	DS(mem_hops, 7);
#endif
	assert_int_equal(mismatches, 0);
}

static void test_sample_and_format_bits(void **state)
{
	mismatches = 0;
	K(PERF_TYPE_HARDWARE); K(PERF_TYPE_SOFTWARE); K(PERF_TYPE_TRACEPOINT);
	K(PERF_TYPE_HW_CACHE); K(PERF_TYPE_RAW); K(PERF_TYPE_BREAKPOINT);
	K(PERF_TYPE_MAX);
	K(PERF_COUNT_HW_CPU_CYCLES); K(PERF_COUNT_HW_INSTRUCTIONS);
	K(PERF_COUNT_HW_CACHE_REFERENCES); K(PERF_COUNT_HW_CACHE_MISSES);
	K(PERF_COUNT_HW_BRANCH_INSTRUCTIONS); K(PERF_COUNT_HW_BRANCH_MISSES);
	K(PERF_COUNT_HW_BUS_CYCLES);
#if HOST_AT_LEAST(3, 3)
	K(PERF_COUNT_HW_STALLED_CYCLES_FRONTEND);
	K(PERF_COUNT_HW_STALLED_CYCLES_BACKEND);
	K(PERF_COUNT_HW_REF_CPU_CYCLES); K(PERF_COUNT_HW_MAX);
#endif
	K(PERF_COUNT_HW_CACHE_L1D); K(PERF_COUNT_HW_CACHE_L1I);
	K(PERF_COUNT_HW_CACHE_LL); K(PERF_COUNT_HW_CACHE_DTLB);
	K(PERF_COUNT_HW_CACHE_ITLB); K(PERF_COUNT_HW_CACHE_BPU);
#if HOST_AT_LEAST(3, 1)
	K(PERF_COUNT_HW_CACHE_NODE); K(PERF_COUNT_HW_CACHE_MAX);
#endif
	K(PERF_COUNT_HW_CACHE_OP_READ); K(PERF_COUNT_HW_CACHE_OP_WRITE);
	K(PERF_COUNT_HW_CACHE_OP_PREFETCH); K(PERF_COUNT_HW_CACHE_OP_MAX);
	K(PERF_COUNT_HW_CACHE_RESULT_ACCESS); K(PERF_COUNT_HW_CACHE_RESULT_MISS);
	K(PERF_COUNT_HW_CACHE_RESULT_MAX);
	K(PERF_COUNT_SW_CPU_CLOCK); K(PERF_COUNT_SW_TASK_CLOCK);
	K(PERF_COUNT_SW_PAGE_FAULTS); K(PERF_COUNT_SW_CONTEXT_SWITCHES);
	K(PERF_COUNT_SW_CPU_MIGRATIONS); K(PERF_COUNT_SW_PAGE_FAULTS_MIN);
	K(PERF_COUNT_SW_PAGE_FAULTS_MAJ);
#if HOST_AT_LEAST(2, 6) && LINUX_VERSION_CODE >= KERNEL_VERSION(2, 6, 33)
	K(PERF_COUNT_SW_ALIGNMENT_FAULTS); K(PERF_COUNT_SW_EMULATION_FAULTS);
#endif
#if HOST_AT_LEAST(3, 12)
	K(PERF_COUNT_SW_DUMMY);
#endif
#if HOST_AT_LEAST(4, 4)
	K(PERF_COUNT_SW_BPF_OUTPUT);
#endif
#if HOST_AT_LEAST(5, 13)
	K(PERF_COUNT_SW_CGROUP_SWITCHES); K(PERF_COUNT_SW_MAX);
#endif
#ifdef PERF_PMU_TYPE_SHIFT
	K(PERF_PMU_TYPE_SHIFT); K(PERF_HW_EVENT_MASK);
#endif

	K(PERF_SAMPLE_IP); K(PERF_SAMPLE_TID); K(PERF_SAMPLE_TIME);
	K(PERF_SAMPLE_ADDR); K(PERF_SAMPLE_READ); K(PERF_SAMPLE_CALLCHAIN);
	K(PERF_SAMPLE_ID); K(PERF_SAMPLE_CPU); K(PERF_SAMPLE_PERIOD);
	K(PERF_SAMPLE_STREAM_ID); K(PERF_SAMPLE_RAW);
#if HOST_AT_LEAST(3, 4)
	K(PERF_SAMPLE_BRANCH_STACK);
#endif
#if HOST_AT_LEAST(3, 7)
	K(PERF_SAMPLE_REGS_USER); K(PERF_SAMPLE_STACK_USER);
	K(PERF_SAMPLE_REGS_ABI_NONE); K(PERF_SAMPLE_REGS_ABI_32);
	K(PERF_SAMPLE_REGS_ABI_64);
#endif
#if HOST_AT_LEAST(3, 10)
	K(PERF_SAMPLE_WEIGHT); K(PERF_SAMPLE_DATA_SRC);
#endif
#if HOST_AT_LEAST(3, 12)
	K(PERF_SAMPLE_IDENTIFIER);
#endif
#if HOST_AT_LEAST(3, 13)
	K(PERF_SAMPLE_TRANSACTION);
	K(PERF_TXN_ELISION); K(PERF_TXN_TRANSACTION); K(PERF_TXN_SYNC);
	K(PERF_TXN_ASYNC); K(PERF_TXN_RETRY); K(PERF_TXN_CONFLICT);
	K(PERF_TXN_CAPACITY_WRITE); K(PERF_TXN_CAPACITY_READ);
	K(PERF_TXN_MAX); K(PERF_TXN_ABORT_MASK); K(PERF_TXN_ABORT_SHIFT);
#endif
#if HOST_AT_LEAST(4, 2)
	K(PERF_SAMPLE_REGS_INTR);
#endif
#if HOST_AT_LEAST(4, 13)
	K(PERF_SAMPLE_PHYS_ADDR);
#endif
#if HOST_AT_LEAST(5, 5)
	K(PERF_SAMPLE_AUX);
#endif
#if HOST_AT_LEAST(5, 7)
	K(PERF_SAMPLE_CGROUP);
#endif
#if HOST_AT_LEAST(5, 11)
	K(PERF_SAMPLE_DATA_PAGE_SIZE); K(PERF_SAMPLE_CODE_PAGE_SIZE);
#endif
#if HOST_AT_LEAST(5, 12)
	K(PERF_SAMPLE_WEIGHT_STRUCT); K(PERF_SAMPLE_MAX);
	K(PERF_SAMPLE_WEIGHT_TYPE);
#endif

	K(PERF_FORMAT_TOTAL_TIME_ENABLED); K(PERF_FORMAT_TOTAL_TIME_RUNNING);
	K(PERF_FORMAT_ID); K(PERF_FORMAT_GROUP);
#if HOST_AT_LEAST(6, 0)
	K(PERF_FORMAT_LOST); K(PERF_FORMAT_MAX);
#endif
	K(PERF_ATTR_SIZE_VER0);
#ifdef PERF_ATTR_SIZE_VER1
	K(PERF_ATTR_SIZE_VER1);
#endif
#ifdef PERF_ATTR_SIZE_VER2
	K(PERF_ATTR_SIZE_VER2);
#endif
#ifdef PERF_ATTR_SIZE_VER3
	K(PERF_ATTR_SIZE_VER3);
#endif
#ifdef PERF_ATTR_SIZE_VER4
	K(PERF_ATTR_SIZE_VER4);
#endif
#ifdef PERF_ATTR_SIZE_VER5
	K(PERF_ATTR_SIZE_VER5);
#endif
#ifdef PERF_ATTR_SIZE_VER6
	K(PERF_ATTR_SIZE_VER6);
#endif
#ifdef PERF_ATTR_SIZE_VER7
	K(PERF_ATTR_SIZE_VER7);
#endif
#ifdef PERF_ATTR_SIZE_VER8
	K(PERF_ATTR_SIZE_VER8);
#endif
	assert_int_equal(mismatches, 0);
}

static void test_branch_bits(void **state)
{
	mismatches = 0;
#if HOST_AT_LEAST(3, 4)
	K(PERF_SAMPLE_BRANCH_USER); K(PERF_SAMPLE_BRANCH_KERNEL);
	K(PERF_SAMPLE_BRANCH_HV); K(PERF_SAMPLE_BRANCH_ANY);
	K(PERF_SAMPLE_BRANCH_ANY_CALL); K(PERF_SAMPLE_BRANCH_ANY_RETURN);
	K(PERF_SAMPLE_BRANCH_IND_CALL); K(PERF_SAMPLE_BRANCH_PLM_ALL);
#endif
#if HOST_AT_LEAST(3, 11)
	K(PERF_SAMPLE_BRANCH_ABORT_TX); K(PERF_SAMPLE_BRANCH_IN_TX);
	K(PERF_SAMPLE_BRANCH_NO_TX);
#endif
#if HOST_AT_LEAST(3, 16)
	K(PERF_SAMPLE_BRANCH_COND);
#endif
#if HOST_AT_LEAST(4, 1)
	K(PERF_SAMPLE_BRANCH_CALL_STACK);
	K(PERF_SAMPLE_BRANCH_USER_SHIFT); K(PERF_SAMPLE_BRANCH_KERNEL_SHIFT);
	K(PERF_SAMPLE_BRANCH_HV_SHIFT); K(PERF_SAMPLE_BRANCH_ANY_SHIFT);
	K(PERF_SAMPLE_BRANCH_ANY_CALL_SHIFT);
	K(PERF_SAMPLE_BRANCH_ANY_RETURN_SHIFT);
	K(PERF_SAMPLE_BRANCH_IND_CALL_SHIFT);
	K(PERF_SAMPLE_BRANCH_ABORT_TX_SHIFT); K(PERF_SAMPLE_BRANCH_IN_TX_SHIFT);
	K(PERF_SAMPLE_BRANCH_NO_TX_SHIFT); K(PERF_SAMPLE_BRANCH_COND_SHIFT);
	K(PERF_SAMPLE_BRANCH_CALL_STACK_SHIFT);
#endif
#if HOST_AT_LEAST(4, 2)
	K(PERF_SAMPLE_BRANCH_IND_JUMP); K(PERF_SAMPLE_BRANCH_IND_JUMP_SHIFT);
#endif
#if HOST_AT_LEAST(4, 4)
	K(PERF_SAMPLE_BRANCH_CALL); K(PERF_SAMPLE_BRANCH_CALL_SHIFT);
#endif
#if HOST_AT_LEAST(4, 9)
	K(PERF_SAMPLE_BRANCH_NO_FLAGS); K(PERF_SAMPLE_BRANCH_NO_CYCLES);
	K(PERF_SAMPLE_BRANCH_NO_FLAGS_SHIFT);
	K(PERF_SAMPLE_BRANCH_NO_CYCLES_SHIFT);
#endif
#if HOST_AT_LEAST(4, 14)
	K(PERF_SAMPLE_BRANCH_TYPE_SAVE); K(PERF_SAMPLE_BRANCH_TYPE_SAVE_SHIFT);
	K(PERF_BR_UNKNOWN); K(PERF_BR_COND); K(PERF_BR_UNCOND); K(PERF_BR_IND);
	K(PERF_BR_CALL); K(PERF_BR_IND_CALL); K(PERF_BR_RET);
	K(PERF_BR_SYSCALL); K(PERF_BR_SYSRET); K(PERF_BR_COND_CALL);
	K(PERF_BR_COND_RET);
#endif
#if HOST_AT_LEAST(5, 7)
	K(PERF_SAMPLE_BRANCH_HW_INDEX); K(PERF_SAMPLE_BRANCH_HW_INDEX_SHIFT);
#endif
#if HOST_AT_LEAST(6, 1)
	K(PERF_SAMPLE_BRANCH_PRIV_SAVE); K(PERF_SAMPLE_BRANCH_PRIV_SAVE_SHIFT);
	K(PERF_BR_ERET); K(PERF_BR_IRQ); K(PERF_BR_SERROR); K(PERF_BR_NO_TX);
	K(PERF_BR_EXTEND_ABI); K(PERF_BR_MAX);
#endif
#if HOST_AT_LEAST(6, 8)
	K(PERF_SAMPLE_BRANCH_COUNTERS); K(PERF_SAMPLE_BRANCH_COUNTERS_SHIFT);
	K(PERF_SAMPLE_BRANCH_MAX_SHIFT); K(PERF_SAMPLE_BRANCH_MAX);
#endif
	assert_int_equal(mismatches, 0);
}

static void test_records_misc_ioctls(void **state)
{
	mismatches = 0;
	K(PERF_RECORD_MMAP); K(PERF_RECORD_LOST); K(PERF_RECORD_COMM);
	K(PERF_RECORD_EXIT); K(PERF_RECORD_THROTTLE); K(PERF_RECORD_UNTHROTTLE);
	K(PERF_RECORD_FORK); K(PERF_RECORD_READ); K(PERF_RECORD_SAMPLE);
#if HOST_AT_LEAST(3, 12)
	K(PERF_RECORD_MMAP2);
#endif
#if HOST_AT_LEAST(4, 1)
	K(PERF_RECORD_AUX); K(PERF_RECORD_ITRACE_START);
#endif
#if HOST_AT_LEAST(4, 2)
	K(PERF_RECORD_LOST_SAMPLES);
#endif
#if HOST_AT_LEAST(4, 3)
	K(PERF_RECORD_SWITCH); K(PERF_RECORD_SWITCH_CPU_WIDE);
#endif
#if HOST_AT_LEAST(4, 12)
	K(PERF_RECORD_NAMESPACES);
	K(NET_NS_INDEX); K(UTS_NS_INDEX); K(IPC_NS_INDEX); K(PID_NS_INDEX);
	K(USER_NS_INDEX); K(MNT_NS_INDEX); K(CGROUP_NS_INDEX);
	K(NR_NAMESPACES);
#endif
#if HOST_AT_LEAST(5, 1)
	K(PERF_RECORD_KSYMBOL); K(PERF_RECORD_BPF_EVENT);
	K(PERF_RECORD_KSYMBOL_TYPE_UNKNOWN); K(PERF_RECORD_KSYMBOL_TYPE_BPF);
	K(PERF_BPF_EVENT_UNKNOWN); K(PERF_BPF_EVENT_PROG_LOAD);
	K(PERF_BPF_EVENT_PROG_UNLOAD); K(PERF_BPF_EVENT_MAX);
	K(PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER);
#endif
#if HOST_AT_LEAST(5, 7)
	K(PERF_RECORD_CGROUP);
#endif
#if HOST_AT_LEAST(5, 9)
	K(PERF_RECORD_TEXT_POKE);
	K(PERF_RECORD_KSYMBOL_TYPE_OOL); K(PERF_RECORD_KSYMBOL_TYPE_MAX);
#endif
#if HOST_AT_LEAST(5, 16)
	K(PERF_RECORD_AUX_OUTPUT_HW_ID); K(PERF_RECORD_MAX);
#endif

#ifdef PERF_RECORD_MISC_CPUMODE_MASK
	K(PERF_RECORD_MISC_CPUMODE_MASK); K(PERF_RECORD_MISC_CPUMODE_UNKNOWN);
	K(PERF_RECORD_MISC_KERNEL); K(PERF_RECORD_MISC_USER);
	K(PERF_RECORD_MISC_HYPERVISOR);
#endif
#ifdef PERF_RECORD_MISC_GUEST_KERNEL
	K(PERF_RECORD_MISC_GUEST_KERNEL); K(PERF_RECORD_MISC_GUEST_USER);
#endif
#ifdef PERF_RECORD_MISC_PROC_MAP_PARSE_TIMEOUT
	K(PERF_RECORD_MISC_PROC_MAP_PARSE_TIMEOUT);
#endif
#ifdef PERF_RECORD_MISC_MMAP_DATA
	K(PERF_RECORD_MISC_MMAP_DATA);
#endif
#ifdef PERF_RECORD_MISC_COMM_EXEC
	K(PERF_RECORD_MISC_COMM_EXEC);
#endif
#ifdef PERF_RECORD_MISC_FORK_EXEC
	K(PERF_RECORD_MISC_FORK_EXEC);
#endif
#ifdef PERF_RECORD_MISC_SWITCH_OUT
	K(PERF_RECORD_MISC_SWITCH_OUT);
#endif
#ifdef PERF_RECORD_MISC_EXACT_IP
	K(PERF_RECORD_MISC_EXACT_IP);
#endif
#ifdef PERF_RECORD_MISC_SWITCH_OUT_PREEMPT
	K(PERF_RECORD_MISC_SWITCH_OUT_PREEMPT);
#endif
#ifdef PERF_RECORD_MISC_MMAP_BUILD_ID
	K(PERF_RECORD_MISC_MMAP_BUILD_ID);
#endif
#ifdef PERF_RECORD_MISC_EXT_RESERVED
	K(PERF_RECORD_MISC_EXT_RESERVED);
#endif
#ifdef PERF_AUX_FLAG_TRUNCATED
	K(PERF_AUX_FLAG_TRUNCATED); K(PERF_AUX_FLAG_OVERWRITE);
#endif
#ifdef PERF_AUX_FLAG_PARTIAL
	K(PERF_AUX_FLAG_PARTIAL);
#endif
#ifdef PERF_AUX_FLAG_COLLISION
	K(PERF_AUX_FLAG_COLLISION);
#endif
#ifdef PERF_AUX_FLAG_PMU_FORMAT_TYPE_MASK
	K(PERF_AUX_FLAG_PMU_FORMAT_TYPE_MASK);
#endif

	K(PERF_EVENT_IOC_ENABLE); K(PERF_EVENT_IOC_DISABLE);
	K(PERF_EVENT_IOC_REFRESH); K(PERF_EVENT_IOC_RESET);
	K(PERF_EVENT_IOC_PERIOD); K(PERF_EVENT_IOC_SET_OUTPUT);
#ifdef PERF_EVENT_IOC_SET_FILTER
	K(PERF_EVENT_IOC_SET_FILTER);
#endif
#ifdef PERF_EVENT_IOC_ID
	K(PERF_EVENT_IOC_ID);
#endif
#ifdef PERF_EVENT_IOC_SET_BPF
	K(PERF_EVENT_IOC_SET_BPF);
#endif
#ifdef PERF_EVENT_IOC_PAUSE_OUTPUT
	K(PERF_EVENT_IOC_PAUSE_OUTPUT);
#endif
#ifdef PERF_EVENT_IOC_QUERY_BPF
	K(PERF_EVENT_IOC_QUERY_BPF);
#endif
#ifdef PERF_EVENT_IOC_MODIFY_ATTRIBUTES
	K(PERF_EVENT_IOC_MODIFY_ATTRIBUTES);
#endif
	K(PERF_IOC_FLAG_GROUP);
#ifdef PERF_FLAG_FD_NO_GROUP
	K(PERF_FLAG_FD_NO_GROUP); K(PERF_FLAG_FD_OUTPUT);
	K(PERF_FLAG_PID_CGROUP);
#endif
#ifdef PERF_FLAG_FD_CLOEXEC
	K(PERF_FLAG_FD_CLOEXEC);
#endif
#ifdef PERF_MAX_STACK_DEPTH
	K(PERF_MAX_STACK_DEPTH);
#endif
#ifdef PERF_MAX_CONTEXTS_PER_STACK
	K(PERF_MAX_CONTEXTS_PER_STACK);
#endif
	K(PERF_CONTEXT_HV); K(PERF_CONTEXT_KERNEL); K(PERF_CONTEXT_USER);
	K(PERF_CONTEXT_GUEST); K(PERF_CONTEXT_GUEST_KERNEL);
	K(PERF_CONTEXT_GUEST_USER); K(PERF_CONTEXT_MAX);
	assert_int_equal(mismatches, 0);
}

/* Every PERF_MEM_* the host defines (all are macros, so #ifdef works). */
#define MEM(name) do { K(PERF_MEM_##name); } while (0)

static void test_mem_data_src(void **state)
{
	mismatches = 0;
#ifdef PERF_MEM_OP_NA
	MEM(OP_NA); MEM(OP_LOAD); MEM(OP_STORE); MEM(OP_PFETCH); MEM(OP_EXEC);
	MEM(OP_SHIFT);
	MEM(LVL_NA); MEM(LVL_HIT); MEM(LVL_MISS); MEM(LVL_L1); MEM(LVL_LFB);
	MEM(LVL_L2); MEM(LVL_L3); MEM(LVL_LOC_RAM); MEM(LVL_REM_RAM1);
	MEM(LVL_REM_RAM2); MEM(LVL_REM_CCE1); MEM(LVL_REM_CCE2); MEM(LVL_IO);
	MEM(LVL_UNC); MEM(LVL_SHIFT);
	MEM(SNOOP_NA); MEM(SNOOP_NONE); MEM(SNOOP_HIT); MEM(SNOOP_MISS);
	MEM(SNOOP_HITM); MEM(SNOOP_SHIFT);
	MEM(LOCK_NA); MEM(LOCK_LOCKED); MEM(LOCK_SHIFT);
	MEM(TLB_NA); MEM(TLB_HIT); MEM(TLB_MISS); MEM(TLB_L1); MEM(TLB_L2);
	MEM(TLB_WK); MEM(TLB_OS); MEM(TLB_SHIFT);
#endif
#ifdef PERF_MEM_REMOTE_REMOTE
	MEM(REMOTE_REMOTE); MEM(REMOTE_SHIFT);
#endif
#ifdef PERF_MEM_LVLNUM_L1
	MEM(LVLNUM_L1); MEM(LVLNUM_L2); MEM(LVLNUM_L3); MEM(LVLNUM_L4);
	MEM(LVLNUM_ANY_CACHE); MEM(LVLNUM_LFB); MEM(LVLNUM_RAM);
	MEM(LVLNUM_PMEM); MEM(LVLNUM_NA); MEM(LVLNUM_SHIFT);
#endif
#ifdef PERF_MEM_LVLNUM_L2_MHB
	MEM(LVLNUM_L2_MHB);
#endif
#ifdef PERF_MEM_LVLNUM_MSC
	MEM(LVLNUM_MSC);
#endif
#ifdef PERF_MEM_LVLNUM_UNC
	MEM(LVLNUM_UNC);
#endif
#ifdef PERF_MEM_LVLNUM_CXL
	MEM(LVLNUM_CXL);
#endif
#ifdef PERF_MEM_LVLNUM_IO
	MEM(LVLNUM_IO);
#endif
#ifdef PERF_MEM_SNOOPX_FWD
	MEM(SNOOPX_FWD); MEM(SNOOPX_SHIFT);
#endif
#ifdef PERF_MEM_SNOOPX_PEER
	MEM(SNOOPX_PEER);
#endif
#ifdef PERF_MEM_BLK_NA
	MEM(BLK_NA); MEM(BLK_DATA); MEM(BLK_ADDR); MEM(BLK_SHIFT);
#endif
#ifdef PERF_MEM_HOPS_0
	MEM(HOPS_0); MEM(HOPS_SHIFT);
#endif
#ifdef PERF_MEM_HOPS_1
	MEM(HOPS_1); MEM(HOPS_2); MEM(HOPS_3);
#endif
#ifdef PERF_MEM_S
	report("PERF_MEM_S(LVL, HIT)", SONDE_PERF_MEM_S(LVL, HIT),
	       PERF_MEM_S(LVL, HIT));
	report("PERF_MEM_S(SNOOP, HITM)", SONDE_PERF_MEM_S(SNOOP, HITM),
	       PERF_MEM_S(SNOOP, HITM));
#endif
	assert_int_equal(mismatches, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attr_layout),
		cmocka_unit_test(test_mmap_page_layout),
		cmocka_unit_test(test_record_structs),
		cmocka_unit_test(test_sample_and_format_bits),
		cmocka_unit_test(test_branch_bits),
		cmocka_unit_test(test_records_misc_ioctls),
		cmocka_unit_test(test_mem_data_src),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
