/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * Records of every type and samples with every field, for the round-trip
 * tests and the fuzz seed corpus. Hand-made, so they cover what this machine
 * cannot produce (branch stacks, weights, data_src, AUX, TEXT_POKE, ...).
 */
#ifndef RECORD_FIXTURES_H
#define RECORD_FIXTURES_H

#include <string.h>
#include "sonde/record.h"

struct rec_case {
	char name[64];
	struct sonde_record_fmt fmt;
	struct sonde_record rec;
};

#define MAX_CASES 512
static struct rec_case cases[MAX_CASES];
static int nr_cases;

static const uint64_t fx_ips[] = {
	SONDE_PERF_CONTEXT_KERNEL, 0xffffffff81000010ULL,
	SONDE_PERF_CONTEXT_USER, 0x401000, 0x401234,
};
static const char fx_raw12[12] = "rawdata12345";
static const char fx_raw5[5] = "abcde";
static struct sonde_perf_branch_entry fx_br[2];
static const uint64_t fx_br_counters[2] = { 7, 9 };
static const uint64_t fx_regs3[3] = { 0x11, 0x7ffd0000, 0x401000 };
static uint64_t fx_regs16[16];
static uint8_t fx_stack[64];
static const uint8_t fx_aux[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
/* Group read: 3 entries of up to 3 words (value, id, lost). */
static const uint64_t fx_group[9] = { 100, 1001, 0, 200, 1002, 1, 300, 1003, 2 };
static const struct sonde_perf_ns_link_info fx_ns[SONDE_NR_NAMESPACES] = {
	{ 4, 4026531840ULL }, { 4, 4026531838ULL }, { 4, 4026531839ULL },
	{ 4, 4026531836ULL }, { 4, 4026531837ULL }, { 4, 4026531841ULL },
	{ 4, 4026531835ULL },
};
static const uint8_t fx_poke[7] = { 0x0f, 0x1f, 0x44, 0x00, 0xe8, 0x10, 0x20 };
static const uint64_t fx_ids[3] = { 11, 12, 13 };
/* intel_bts's AUXTRACE_INFO words: PMU type, TSC conversion, snapshot. */
static const uint64_t fx_auxinfo[6] = { 8, 10, 1500, 1000000, 1, 0 };
static const struct sonde_id_index_entry fx_idx[2] = {
	{ 11, 0, 0, (uint64_t)-1 }, { 12, 0, 1, (uint64_t)-1 },
};
static const struct sonde_id_index_entry2 fx_idx2[2] = { { 0, 0 }, { 0, 1 } };
static const struct sonde_thread_map_entry fx_threads[2] = {
	{ 1234, "worker" }, { 1235, "worker-2" },
};
static const uint8_t fx_feature[16] = "hostname\0\0\0\0\0\0\0";

#define REGS_USER_MASK ((1ULL << SONDE_PERF_REG_X86_AX) | \
			(1ULL << SONDE_PERF_REG_X86_SP) | \
			(1ULL << SONDE_PERF_REG_X86_IP))
#define REGS_INTR_MASK 0xff00ffULL

#define ALL_SAMPLE_BITS ((uint64_t)SONDE_PERF_SAMPLE_MAX - 1)
#define TRAILER_BITS (SONDE_PERF_SAMPLE_TID | SONDE_PERF_SAMPLE_TIME | \
		      SONDE_PERF_SAMPLE_ID | SONDE_PERF_SAMPLE_STREAM_ID | \
		      SONDE_PERF_SAMPLE_CPU | SONDE_PERF_SAMPLE_IDENTIFIER)

static void fx_init(void)
{
	for (int i = 0; i < 16; i++)
		fx_regs16[i] = 0x1000 + (uint64_t)i;
	for (int i = 0; i < 64; i++)
		fx_stack[i] = (uint8_t)(i * 3);
	memset(fx_br, 0, sizeof(fx_br));
	fx_br[0].from = 0x401000;
	fx_br[0].to = 0x402000;
	fx_br[0].mispred = 1;
	fx_br[0].cycles = 1234;
	fx_br[0].type = SONDE_PERF_BR_CALL;
	fx_br[0].spec = 2;
	fx_br[0].new_type = 3;
	fx_br[0].priv = 5;
	fx_br[1].from = 0x402010;
	fx_br[1].to = 0x401008;
	fx_br[1].predicted = 1;
	fx_br[1].in_tx = 1;
	fx_br[1].abort = 1;
	fx_br[1].cycles = 0xffff;
	fx_br[1].type = SONDE_PERF_BR_RET;
	fx_br[1].reserved = 0x40000001;
}

static struct rec_case *fx_add(const char *name, uint64_t sample_type,
			       uint64_t read_format, uint64_t branch_type,
			       bool id_all, uint32_t type)
{
	struct rec_case *c = &cases[nr_cases++];

	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->fmt.sample_type = sample_type;
	c->fmt.read_format = read_format;
	c->fmt.branch_sample_type = branch_type;
	c->fmt.sample_regs_user = REGS_USER_MASK;
	c->fmt.sample_regs_intr = REGS_INTR_MASK;
	c->fmt.sample_id_all = id_all;
	c->rec.type = type;
	c->rec.sample_id.pid = 4242;
	c->rec.sample_id.tid = 4243;
	c->rec.sample_id.time = 123456789012ULL;
	c->rec.sample_id.id = 77;
	c->rec.sample_id.stream_id = 78;
	c->rec.sample_id.cpu = 1;
	c->rec.sample_id.identifier = 77;
	return c;
}

/* Every field filled; the fmt decides which ones are written. */
static void fx_fill_sample(struct sonde_sample *s, uint64_t read_format)
{
	s->identifier = 77;
	s->ip = 0x401234;
	s->pid = 4242;
	s->tid = 4243;
	s->time = 123456789012ULL;
	s->addr = 0xdead0000;
	s->id = 77;
	s->stream_id = 78;
	s->cpu = 1;
	s->period = 10000;
	if (read_format & SONDE_PERF_FORMAT_GROUP) {
		static uint64_t pool[MAX_CASES][9];
		uint64_t *g = pool[nr_cases - 1];

		/* Pack the group entries the way read_format lays them out. */
		for (unsigned int i = 0, k = 0; i < 3; i++) {
			g[k++] = fx_group[i * 3];
			if (read_format & SONDE_PERF_FORMAT_ID)
				g[k++] = fx_group[i * 3 + 1];
			if (read_format & SONDE_PERF_FORMAT_LOST)
				g[k++] = fx_group[i * 3 + 2];
		}
		s->read.nr = 3;
		s->read.group = g;
	} else {
		s->read.nr = 1;
		s->read.value = 555;
		if (read_format & SONDE_PERF_FORMAT_ID)
			s->read.id = 77;
		if (read_format & SONDE_PERF_FORMAT_LOST)
			s->read.lost = 3;
	}
	if (read_format & SONDE_PERF_FORMAT_TOTAL_TIME_ENABLED)
		s->read.time_enabled = 1000000;
	if (read_format & SONDE_PERF_FORMAT_TOTAL_TIME_RUNNING)
		s->read.time_running = 900000;
	s->callchain.nr = 5;
	s->callchain.ips = fx_ips;
	s->raw.size = 12;
	s->raw.data = fx_raw12;
	s->branch.nr = 2;
	s->branch.hw_idx = 5;
	s->branch.entries = fx_br;
	s->branch.counters = fx_br_counters;
	s->regs_user.abi = SONDE_PERF_SAMPLE_REGS_ABI_64;
	s->regs_user.nr = 3;
	s->regs_user.regs = fx_regs3;
	s->stack_user.size = 64;
	s->stack_user.data = fx_stack;
	s->stack_user.dyn_size = 40;
	s->weight.var1_dw = 100;
	s->weight.var2_w = 2;
	s->weight.var3_w = 3;
	s->data_src.val = SONDE_PERF_MEM_S(OP, LOAD) | SONDE_PERF_MEM_S(LVL, HIT) |
			  SONDE_PERF_MEM_S(LVL, L1);
	s->transaction = SONDE_PERF_TXN_ELISION | (5ULL << 32);
	s->regs_intr.abi = SONDE_PERF_SAMPLE_REGS_ABI_64;
	s->regs_intr.nr = 16;
	s->regs_intr.regs = fx_regs16;
	s->phys_addr = 0x12345000;
	s->cgroup = 99;
	s->data_page_size = 4096;
	s->code_page_size = 2 << 20;
	s->aux.size = 16;
	s->aux.data = fx_aux;
}

static struct rec_case *fx_sample(const char *name, uint64_t st, uint64_t rf,
				  uint64_t bt)
{
	struct rec_case *c = fx_add(name, st, rf, bt, true,
				    SONDE_PERF_RECORD_SAMPLE);

	c->rec.misc = SONDE_PERF_RECORD_MISC_USER;
	fx_fill_sample(&c->rec.sample, rf);
	c->rec.sample.sample_type = st;
	return c;
}

static void fx_samples(void)
{
	char name[64];
	uint64_t all = ALL_SAMPLE_BITS & ~(uint64_t)SONDE_PERF_SAMPLE_WEIGHT;
	uint64_t rf_all = SONDE_PERF_FORMAT_MAX - 1;
	uint64_t bt_all = SONDE_PERF_SAMPLE_BRANCH_ANY |
			  SONDE_PERF_SAMPLE_BRANCH_HW_INDEX |
			  SONDE_PERF_SAMPLE_BRANCH_COUNTERS;
	struct rec_case *c;

	/* Each field alone. */
	for (int b = 0; b < 25; b++) {
		uint64_t bit = 1ULL << b;

		snprintf(name, sizeof(name), "sample-%s",
			 sonde_sample_type_bit_name(bit));
		fx_sample(name, bit, rf_all, bt_all);
	}
	fx_sample("sample-all", all, rf_all, bt_all);
	fx_sample("sample-all-weight", (all & ~(uint64_t)SONDE_PERF_SAMPLE_WEIGHT_STRUCT) |
		  SONDE_PERF_SAMPLE_WEIGHT, rf_all, bt_all);
	fx_sample("sample-typical", SONDE_PERF_SAMPLE_IDENTIFIER | SONDE_PERF_SAMPLE_IP |
		  SONDE_PERF_SAMPLE_TID | SONDE_PERF_SAMPLE_TIME |
		  SONDE_PERF_SAMPLE_PERIOD | SONDE_PERF_SAMPLE_CALLCHAIN, 0, 0);
	fx_sample("sample-id-no-identifier", SONDE_PERF_SAMPLE_IP |
		  SONDE_PERF_SAMPLE_TID | SONDE_PERF_SAMPLE_TIME |
		  SONDE_PERF_SAMPLE_ID | SONDE_PERF_SAMPLE_CPU, 0, 0);
	/* Every read_format combination. */
	for (uint64_t rf = 0; rf < SONDE_PERF_FORMAT_MAX; rf++) {
		snprintf(name, sizeof(name), "sample-read-rf%llu",
			 (unsigned long long)rf);
		fx_sample(name, SONDE_PERF_SAMPLE_READ | SONDE_PERF_SAMPLE_TID,
			  rf, 0);
	}
	/* Branch stack with and without hw_idx and counters. */
	for (int v = 0; v < 4; v++) {
		uint64_t bt = SONDE_PERF_SAMPLE_BRANCH_ANY |
			      (v & 1 ? SONDE_PERF_SAMPLE_BRANCH_HW_INDEX : 0) |
			      (v & 2 ? SONDE_PERF_SAMPLE_BRANCH_COUNTERS : 0);

		snprintf(name, sizeof(name), "sample-branch-v%d", v);
		c = fx_sample(name, SONDE_PERF_SAMPLE_BRANCH_STACK |
			      SONDE_PERF_SAMPLE_IP, 0, bt);
		if (!(bt & SONDE_PERF_SAMPLE_BRANCH_HW_INDEX))
			c->rec.sample.branch.hw_idx = 0;
		if (!(bt & SONDE_PERF_SAMPLE_BRANCH_COUNTERS))
			c->rec.sample.branch.counters = NULL;
	}
	c = fx_sample("sample-branch-empty", SONDE_PERF_SAMPLE_BRANCH_STACK,
		      0, SONDE_PERF_SAMPLE_BRANCH_ANY);
	c->rec.sample.branch.nr = 0;
	c->rec.sample.branch.hw_idx = 0;
	c->rec.sample.branch.entries = NULL;
	c->rec.sample.branch.counters = NULL;
	/* Regs with ABI_NONE carry no values. */
	c = fx_sample("sample-regs-abi-none", SONDE_PERF_SAMPLE_REGS_USER |
		      SONDE_PERF_SAMPLE_REGS_INTR | SONDE_PERF_SAMPLE_TIME, 0, 0);
	c->rec.sample.regs_user = (struct sonde_sample_regs){ 0 };
	c->rec.sample.regs_intr = (struct sonde_sample_regs){ 0 };
	/* Empty user stack: no dyn_size. */
	c = fx_sample("sample-stack-empty", SONDE_PERF_SAMPLE_STACK_USER |
		      SONDE_PERF_SAMPLE_WEIGHT, 0, 0);
	c->rec.sample.stack_user.size = 0;
	c->rec.sample.stack_user.data = NULL;
	c->rec.sample.stack_user.dyn_size = 0;
	/* Raw data whose size needs padding, and an empty callchain. */
	c = fx_sample("sample-raw-unaligned", SONDE_PERF_SAMPLE_RAW |
		      SONDE_PERF_SAMPLE_CALLCHAIN | SONDE_PERF_SAMPLE_AUX, 0, 0);
	c->rec.sample.raw.size = 5;
	c->rec.sample.raw.data = fx_raw5;
	c->rec.sample.callchain.nr = 0;
	c->rec.sample.callchain.ips = NULL;
	c->rec.sample.aux.size = 0;
	c->rec.sample.aux.data = NULL;
	fx_sample("sample-none", 0, 0, 0);
}

static void fx_kernel_records(bool id_all)
{
	static const char *const sfx[2] = { "noid", "id" };
	uint64_t st = TRAILER_BITS | SONDE_PERF_SAMPLE_IP;
	uint64_t rf = SONDE_PERF_FORMAT_TOTAL_TIME_ENABLED |
		      SONDE_PERF_FORMAT_TOTAL_TIME_RUNNING |
		      SONDE_PERF_FORMAT_ID | SONDE_PERF_FORMAT_LOST;
	char name[64];
	struct rec_case *c;

#define K(tname, type) \
	(snprintf(name, sizeof(name), "%s-%s", tname, sfx[id_all]), \
	 fx_add(name, st, rf, 0, id_all, type))

	c = K("mmap", SONDE_PERF_RECORD_MMAP);
	c->rec.misc = SONDE_PERF_RECORD_MISC_USER;
	c->rec.mmap = (struct sonde_record_mmap){ .pid = 10, .tid = 11,
		.addr = 0x400000, .len = 0x1000, .pgoff = 0,
		.filename = "/usr/bin/true" };
	c = K("mmap2", SONDE_PERF_RECORD_MMAP2);
	c->rec.misc = SONDE_PERF_RECORD_MISC_USER;
	c->rec.mmap = (struct sonde_record_mmap){ .pid = 10, .tid = 11,
		.addr = 0x7f0000000000ULL, .len = 0x21000, .pgoff = 0x1000,
		.maj = 8, .min = 1, .ino = 123456, .ino_generation = 7,
		.prot = 5, .flags = 2,
		.filename = "/usr/lib/x86_64-linux-gnu/libc.so.6" };
	c = K("mmap2-buildid", SONDE_PERF_RECORD_MMAP2);
	c->rec.misc = SONDE_PERF_RECORD_MISC_USER |
		      SONDE_PERF_RECORD_MISC_MMAP_BUILD_ID;
	c->rec.mmap = (struct sonde_record_mmap){ .pid = 10, .tid = 11,
		.addr = 0x7f0000000000ULL, .len = 0x21000, .pgoff = 0x1000,
		.build_id_size = 20, .prot = 5, .flags = 2,
		.filename = "/lib/ld.so" };
	for (int i = 0; i < 20; i++)
		c->rec.mmap.build_id[i] = (uint8_t)(0xa0 + i);
	c = K("mmap2-empty-name", SONDE_PERF_RECORD_MMAP2);
	c->rec.mmap.filename = "";
	c = K("lost", SONDE_PERF_RECORD_LOST);
	c->rec.lost = (struct sonde_record_lost){ .id = 77, .lost = 12 };
	c = K("comm", SONDE_PERF_RECORD_COMM);
	c->rec.misc = SONDE_PERF_RECORD_MISC_COMM_EXEC;
	c->rec.comm = (struct sonde_record_comm){ .pid = 10, .tid = 10,
						  .comm = "sonde-test" };
	c = K("comm-8", SONDE_PERF_RECORD_COMM);
	c->rec.comm = (struct sonde_record_comm){ .pid = 1, .tid = 1,
						  .comm = "1234567" };
	c = K("exit", SONDE_PERF_RECORD_EXIT);
	c->rec.task = (struct sonde_record_task){ 10, 1, 12, 10, 999 };
	c = K("fork", SONDE_PERF_RECORD_FORK);
	c->rec.task = (struct sonde_record_task){ 12, 10, 13, 12, 1000 };
	c = K("throttle", SONDE_PERF_RECORD_THROTTLE);
	c->rec.throttle = (struct sonde_record_throttle){ 5000, 77, 78 };
	c = K("unthrottle", SONDE_PERF_RECORD_UNTHROTTLE);
	c->rec.throttle = (struct sonde_record_throttle){ 6000, 77, 78 };
	c = K("read", SONDE_PERF_RECORD_READ);
	c->rec.read.pid = 10;
	c->rec.read.tid = 11;
	c->rec.read.values = (struct sonde_read_values){ .nr = 1,
		.time_enabled = 10, .time_running = 9, .value = 1234,
		.id = 77, .lost = 1 };
	c = K("read-group", SONDE_PERF_RECORD_READ);
	c->fmt.read_format = SONDE_PERF_FORMAT_MAX - 1;
	c->rec.read.pid = 10;
	c->rec.read.tid = 11;
	c->rec.read.values = (struct sonde_read_values){ .nr = 3,
		.time_enabled = 10, .time_running = 9, .group = fx_group };
	c = K("aux", SONDE_PERF_RECORD_AUX);
	c->rec.aux = (struct sonde_record_aux){ 4096, 8192,
		SONDE_PERF_AUX_FLAG_TRUNCATED | SONDE_PERF_AUX_FLAG_PARTIAL };
	c = K("itrace_start", SONDE_PERF_RECORD_ITRACE_START);
	c->rec.itrace_start = (struct sonde_record_itrace_start){ 10, 11 };
	c = K("lost_samples", SONDE_PERF_RECORD_LOST_SAMPLES);
	c->rec.lost_samples.lost = 42;
	c = K("switch", SONDE_PERF_RECORD_SWITCH);
	c->rec.misc = SONDE_PERF_RECORD_MISC_SWITCH_OUT;
	c = K("switch_cpu_wide", SONDE_PERF_RECORD_SWITCH_CPU_WIDE);
	c->rec.misc = SONDE_PERF_RECORD_MISC_SWITCH_OUT |
		      SONDE_PERF_RECORD_MISC_SWITCH_OUT_PREEMPT;
	c->rec.switch_cpu_wide = (struct sonde_record_switch){ 20, 21 };
	c = K("namespaces", SONDE_PERF_RECORD_NAMESPACES);
	c->rec.namespaces = (struct sonde_record_namespaces){ 10, 11,
		SONDE_NR_NAMESPACES, fx_ns };
	c = K("ksymbol", SONDE_PERF_RECORD_KSYMBOL);
	c->rec.ksymbol = (struct sonde_record_ksymbol){ 0xffffffffc0001000ULL,
		0x80, SONDE_PERF_RECORD_KSYMBOL_TYPE_BPF, 0,
		"bpf_prog_6deef7357e7b4530_sd_fw_ingress" };
	c = K("ksymbol-unreg", SONDE_PERF_RECORD_KSYMBOL);
	c->rec.ksymbol = (struct sonde_record_ksymbol){ 0xffffffffc0001000ULL,
		0x80, SONDE_PERF_RECORD_KSYMBOL_TYPE_BPF,
		SONDE_PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER, "x" };
	c = K("bpf_event", SONDE_PERF_RECORD_BPF_EVENT);
	c->rec.bpf_event = (struct sonde_record_bpf_event){
		SONDE_PERF_BPF_EVENT_PROG_LOAD, 0, 42,
		{ 1, 2, 3, 4, 5, 6, 7, 8 } };
	c = K("cgroup", SONDE_PERF_RECORD_CGROUP);
	c->rec.cgroup = (struct sonde_record_cgroup){ 99,
		"/system.slice/sonde.service" };
	c = K("text_poke", SONDE_PERF_RECORD_TEXT_POKE);
	c->rec.misc = SONDE_PERF_RECORD_MISC_KERNEL;
	c->rec.text_poke = (struct sonde_record_text_poke){
		0xffffffff81001000ULL, 2, 5, fx_poke };
	c = K("text_poke-empty", SONDE_PERF_RECORD_TEXT_POKE);
	c->rec.text_poke = (struct sonde_record_text_poke){
		0xffffffff81001000ULL, 0, 0, NULL };
	c = K("aux_output_hw_id", SONDE_PERF_RECORD_AUX_OUTPUT_HW_ID);
	c->rec.aux_output_hw_id.hw_id = 0x1234;
	c = K("unknown-kernel-type", 60);
	c->rec.body = fx_feature;
	c->rec.body_size = 16;
	c->rec.has_sample_id = id_all;
#undef K
}

static void fx_user_records(void)
{
	uint64_t st = TRAILER_BITS;
	struct rec_case *c;

#define U(tname, type) fx_add(tname, st, 0, 0, true, type)
	c = U("header_attr", SONDE_PERF_RECORD_HEADER_ATTR);
	c->rec.header_attr.attr.type = SONDE_PERF_TYPE_SOFTWARE;
	c->rec.header_attr.attr.size = SONDE_PERF_ATTR_SIZE_VER7;
	c->rec.header_attr.attr.config = SONDE_PERF_COUNT_SW_TASK_CLOCK;
	c->rec.header_attr.attr.sample_period = 4000;
	c->rec.header_attr.attr.sample_type = st;
	c->rec.header_attr.attr.read_format = SONDE_PERF_FORMAT_ID;
	c->rec.header_attr.attr.disabled = 1;
	c->rec.header_attr.attr.freq = 1;
	c->rec.header_attr.attr.precise_ip = 2;
	c->rec.header_attr.attr.sample_id_all = 1;
	c->rec.header_attr.attr.exclude_guest = 1;
	c->rec.header_attr.attr.sigtrap = 1;
	c->rec.header_attr.attr.aux_pause = 1;
	c->rec.header_attr.attr.sample_regs_user = REGS_USER_MASK;
	c->rec.header_attr.attr.sample_stack_user = 8192;
	c->rec.header_attr.attr.clockid = 1;
	c->rec.header_attr.attr.sample_max_stack = 127;
	c->rec.header_attr.attr.sig_data = 0x55;
	c->rec.header_attr.attr_size = SONDE_PERF_ATTR_SIZE_VER7;
	c->rec.header_attr.nr_ids = 3;
	c->rec.header_attr.ids = fx_ids;
	c = U("header_attr-ver0", SONDE_PERF_RECORD_HEADER_ATTR);
	c->rec.header_attr.attr.size = SONDE_PERF_ATTR_SIZE_VER0;
	c->rec.header_attr.attr.sample_type = SONDE_PERF_SAMPLE_IP;
	c->rec.header_attr.attr.mmap = 1;
	c->rec.header_attr.attr_size = SONDE_PERF_ATTR_SIZE_VER0;
	c = U("tracing_data", SONDE_PERF_RECORD_HEADER_TRACING_DATA);
	c->rec.tracing_data.size = 4096;
	c = U("tracing_data-padded", SONDE_PERF_RECORD_HEADER_TRACING_DATA);
	c->rec.tracing_data.size = 4096;
	c->rec.tracing_data.padded = true;
	c = U("build_id", SONDE_PERF_RECORD_HEADER_BUILD_ID);
	c->rec.misc = SONDE_PERF_RECORD_MISC_USER |
		      SONDE_PERF_RECORD_MISC_BUILD_ID_SIZE;
	c->rec.build_id.pid = -1;
	c->rec.build_id.size = 20;
	for (int i = 0; i < 20; i++)
		c->rec.build_id.build_id[i] = (uint8_t)i;
	c->rec.build_id.filename = "/usr/lib/x86_64-linux-gnu/libc.so.6";
	c->rec.build_id.filename_size = 64; /* perf pads to 64 */
	c = U("finished_round", SONDE_PERF_RECORD_FINISHED_ROUND);
	c = U("finished_init", SONDE_PERF_RECORD_FINISHED_INIT);
	c = U("id_index", SONDE_PERF_RECORD_ID_INDEX);
	c->rec.id_index = (struct sonde_record_id_index){ 2, fx_idx, NULL };
	c = U("id_index-2", SONDE_PERF_RECORD_ID_INDEX);
	c->rec.id_index = (struct sonde_record_id_index){ 2, fx_idx, fx_idx2 };
	c = U("thread_map", SONDE_PERF_RECORD_THREAD_MAP);
	c->rec.thread_map = (struct sonde_record_thread_map){ 2, fx_threads };
	c = U("time_conv-short", SONDE_PERF_RECORD_TIME_CONV);
	c->rec.time_conv = (struct sonde_record_time_conv){ .time_shift = 31,
		.time_mult = 123456, .time_zero = 987654321 };
	c = U("time_conv", SONDE_PERF_RECORD_TIME_CONV);
	c->rec.time_conv = (struct sonde_record_time_conv){ .time_shift = 31,
		.time_mult = 123456, .time_zero = 987654321, .extended = true,
		.time_cycles = 5, .time_mask = 0xffff,
		.cap_user_time_zero = 1, .cap_user_time_short = 1 };
	c = U("header_feature", SONDE_PERF_RECORD_HEADER_FEATURE);
	c->rec.header_feature = (struct sonde_record_header_feature){ 3,
		fx_feature, sizeof(fx_feature) };
	c = U("header_feature-end", SONDE_PERF_RECORD_HEADER_FEATURE);
	c->rec.header_feature.feat_id = 32;
	c = U("auxtrace_info", SONDE_PERF_RECORD_AUXTRACE_INFO);
	c->rec.auxtrace_info = (struct sonde_record_auxtrace_info){
		SONDE_AUXTRACE_INTEL_BTS, 0, fx_auxinfo, 6 };
	c = U("auxtrace_info-empty", SONDE_PERF_RECORD_AUXTRACE_INFO);
	c->rec.auxtrace_info.type = SONDE_AUXTRACE_UNKNOWN;
	c = U("auxtrace", SONDE_PERF_RECORD_AUXTRACE);
	c->rec.auxtrace = (struct sonde_record_auxtrace){ 65536, 4096, 0x77,
		0, 10, 1, 0 };
	c = U("event_update-unit", SONDE_PERF_RECORD_EVENT_UPDATE);
	c->rec.event_update.type = SONDE_EVENT_UPDATE_UNIT;
	c->rec.event_update.id = 77;
	c->rec.event_update.str = "msec";
	c = U("event_update-scale", SONDE_PERF_RECORD_EVENT_UPDATE);
	c->rec.event_update.type = SONDE_EVENT_UPDATE_SCALE;
	c->rec.event_update.id = 77;
	c->rec.event_update.scale = 1e-6;
	c = U("event_update-name", SONDE_PERF_RECORD_EVENT_UPDATE);
	c->rec.event_update.type = SONDE_EVENT_UPDATE_NAME;
	c->rec.event_update.id = 77;
	c->rec.event_update.str = "cpu-clock";
	c = U("event_update-cpus", SONDE_PERF_RECORD_EVENT_UPDATE);
	c->rec.event_update.type = SONDE_EVENT_UPDATE_CPUS;
	c->rec.event_update.id = 77;
	c->rec.event_update.data = fx_feature;
	c->rec.event_update.size = 8;
	c = U("cpu_map-raw", SONDE_PERF_RECORD_CPU_MAP);
	c->rec.body = fx_feature;
	c->rec.body_size = 8;
	c = U("unknown-user-type", 200);
	c->rec.body = fx_feature;
	c->rec.body_size = 16;
#undef U
}

static void fx_build(void)
{
	nr_cases = 0;
	fx_init();
	fx_samples();
	fx_kernel_records(false);
	fx_kernel_records(true);
	fx_user_records();
}

#endif /* RECORD_FIXTURES_H */
