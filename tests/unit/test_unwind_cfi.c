// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The CFI fast path of the DWARF unwinder against libdwfl (the unwinder
 * forced onto its slow path): constructed stacks through functions with
 * hand-written CFI in this binary, then real REGS_USER + STACK_USER
 * samples of the report workload. Both ways must give the same addresses,
 * and the fast path must take the samples it models.
 * Static-only: it forces the unwinder's private modes (unwinder_set_mode)
 * and drives uw_cfi_*() against libdwfl.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "sonde/sonde.h"
#include "sonde/unwind.h"
#include "core_priv.h"
#include "unwind_priv.h"

/*
 * Subjects with known CFI. Only their addresses and CFI matter: nothing
 * calls them. A return address points one byte into its function (the
 * caller's row is looked up at return address - 1).
 */
__asm__(
	".text\n"
	/* Frame on RBP: CFA = RBP + 16, RA at CFA - 8, RBP at CFA - 16. */
	".p2align 4\n"
	".globl t_rbp_fn\n.hidden t_rbp_fn\n.type t_rbp_fn,@function\n"
	"t_rbp_fn:\n"
	".cfi_startproc\n"
	"pushq %rbp\n"
	".cfi_def_cfa_offset 16\n"
	".cfi_offset %rbp, -16\n"
	"movq %rsp, %rbp\n"
	".cfi_def_cfa_register %rbp\n"
	".globl t_rbp_body\n.hidden t_rbp_body\n"
	"t_rbp_body:\n"
	"nop\nnop\n"
	"popq %rbp\n"
	".cfi_def_cfa %rsp, 8\n"
	"ret\n"
	".cfi_endproc\n"
	".size t_rbp_fn, .-t_rbp_fn\n"
	/* Plain: CFA = RSP + 8, RA at CFA - 8, RBP same value. */
	".p2align 4\n"
	".globl t_mid_fn\n.hidden t_mid_fn\n.type t_mid_fn,@function\n"
	"t_mid_fn:\n"
	".cfi_startproc\n"
	"nop\n"
	".globl t_mid_ret\n.hidden t_mid_ret\n"
	"t_mid_ret:\n"
	"nop\nnop\nret\n"
	".cfi_endproc\n"
	".size t_mid_fn, .-t_mid_fn\n"
	/* Outermost, like _start: the return address is undefined. */
	".p2align 4\n"
	".globl t_top_fn\n.hidden t_top_fn\n.type t_top_fn,@function\n"
	"t_top_fn:\n"
	".cfi_startproc\n"
	".cfi_undefined %rip\n"
	"nop\n"
	".globl t_top_ret\n.hidden t_top_ret\n"
	"t_top_ret:\n"
	"nop\nret\n"
	".cfi_endproc\n"
	".size t_top_fn, .-t_top_fn\n"
	/*
	 * PLT-like: CFA is the expression RSP + 8 + ((RIP & 15) >= 11) * 8
	 * (DW_CFA_def_cfa_expression: breg7 8, breg16 0, lit15, and, lit11,
	 * ge, lit3, shl, plus).
	 */
	".p2align 4\n"
	".globl t_plt_fn\n.hidden t_plt_fn\n.type t_plt_fn,@function\n"
	"t_plt_fn:\n"
	".cfi_startproc\n"
	".cfi_escape 0x0f,0x0b,0x77,0x08,0x80,0x00,0x3f,0x1a,0x3b,0x2a,"
	"0x33,0x24,0x22\n"
	"nop\nnop\nnop\nret\n"
	".cfi_endproc\n"
	".size t_plt_fn, .-t_plt_fn\n"
	/* A signal trampoline's CIE ('S'). */
	".p2align 4\n"
	".globl t_sig_fn\n.hidden t_sig_fn\n.type t_sig_fn,@function\n"
	"t_sig_fn:\n"
	".cfi_startproc\n"
	".cfi_signal_frame\n"
	"nop\nnop\nret\n"
	".cfi_endproc\n"
	".size t_sig_fn, .-t_sig_fn\n"
	/* No CFI at all: .eh_frame has no row for it. */
	".p2align 4\n"
	".globl t_nocfi_fn\n.hidden t_nocfi_fn\n.type t_nocfi_fn,@function\n"
	"t_nocfi_fn:\n"
	"nop\nnop\nret\n"
	".size t_nocfi_fn, .-t_nocfi_fn\n"
	".previous\n");

extern const char t_rbp_fn[], t_rbp_body[], t_mid_fn[], t_mid_ret[],
	t_top_fn[], t_top_ret[], t_plt_fn[], t_sig_fn[], t_nocfi_fn[];

#define A(sym) ((uint64_t)(uintptr_t)(sym))

/* Far from any mapping: reads past the copy find nothing. */
#define FAKE_SP 0x10000000000ULL
#define BP_IP_SP_MASK ((1ULL << SONDE_PERF_REG_X86_BP) | \
		       (1ULL << SONDE_PERF_REG_X86_SP) | \
		       (1ULL << SONDE_PERF_REG_X86_IP))

struct synth {
	uint64_t regs[3];	/* BP, SP, IP: mask bit order */
	uint64_t stack[16];
	uint64_t stack_size;
};

struct both {
	uint64_t fast[64], slow[64];
	int nf, ns;
	struct uw_counts cf;
};

/* Maps this program's executable mappings as the file @p path. */
static void add_self_as(struct sonde_unwinder *uw, const char *path)
{
	char exe[PATH_MAX], line[4352];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	FILE *f = fopen("/proc/self/maps", "re");
	int added = 0;

	assert_true(n > 0);
	exe[n] = 0;
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start, end, off;
		char perms[8];
		int pos = 0;

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &start, &end,
			   perms, &off, &pos) < 4 || !pos || perms[2] != 'x')
			continue;
		line[strcspn(line, "\n")] = 0;
		if (strcmp(line + pos, exe))
			continue;
		assert_int_equal(sonde_unwinder__add_map(uw, start, end - start,
							 off, path), 0);
		added++;
	}
	fclose(f);
	assert_true(added >= 1);
}

/*
 * Unwinds @p t through the fast path and through libdwfl alone, with this
 * process's mappings, or only this program's as the file @p as if not NULL.
 */
static void unwind_both_as(const struct synth *t, size_t max, struct both *b,
			   const char *as)
{
	struct sonde_unwind_sample s = {
		.tid = getpid(), .abi = SONDE_PERF_SAMPLE_REGS_ABI_64,
		.regs_mask = BP_IP_SP_MASK, .regs = t->regs, .nr_regs = 3,
		.stack = t->stack, .stack_size = t->stack_size,
	};
	struct sonde_unwinder *f = sonde_unwinder__new(getpid(), NULL);
	struct sonde_unwinder *sl = sonde_unwinder__new(getpid(), NULL);

	assert_non_null(f);
	assert_non_null(sl);
	if (as) {
		add_self_as(f, as);
		add_self_as(sl, as);
	} else {
		assert_true(sonde_unwinder__add_proc_maps(f, getpid()) >= 1);
		assert_true(sonde_unwinder__add_proc_maps(sl, getpid()) >= 1);
	}
	unwinder_set_mode(f, UW_MODE_AUTO);
	unwinder_set_mode(sl, UW_MODE_SLOW);
	b->nf = sonde_unwinder__unwind(f, &s, b->fast, max);
	b->ns = sonde_unwinder__unwind(sl, &s, b->slow, max);
	unwinder_counts(f, &b->cf);
	sonde_unwinder__free(f);
	sonde_unwinder__free(sl);
	assert_int_equal(b->nf, b->ns);
	assert_memory_equal(b->fast, b->slow, (size_t)b->nf * 8);
}

static void unwind_both(const struct synth *t, size_t max, struct both *b)
{
	unwind_both_as(t, max, b, NULL);
}

/* rbp_fn (CFA on RBP) <- mid_fn <- top_fn (RA undefined). */
static void rbp_chain(struct synth *t)
{
	memset(t, 0, sizeof(*t));
	t->regs[0] = FAKE_SP + 16;		/* RBP */
	t->regs[1] = FAKE_SP;			/* RSP */
	t->regs[2] = A(t_rbp_body);		/* RIP */
	t->stack[2] = FAKE_SP + 0x1234;		/* saved RBP at CFA - 16 */
	t->stack[3] = A(t_mid_ret);		/* RA at CFA - 8 */
	t->stack[4] = A(t_top_ret);		/* mid_fn's RA */
	t->stack_size = 6 * 8;
}

static void test_cfa_rbp_and_undefined_ra(void **state)
{
	struct synth t;
	struct both b;

	rbp_chain(&t);
	unwind_both(&t, 64, &b);
	assert_int_equal(b.nf, 3);
	assert_int_equal(b.fast[0], A(t_rbp_body));
	assert_int_equal(b.fast[1], A(t_mid_ret) - 1);
	assert_int_equal(b.fast[2], A(t_top_ret) - 1);
	assert_int_equal(b.cf.fast, 1);
	assert_int_equal(b.cf.slow, 0);
}

static void test_read_past_copy_stops(void **state)
{
	struct synth t;
	struct both b;

	rbp_chain(&t);
	t.stack_size = 4 * 8;	/* mid_fn's return address is not in it */
	unwind_both(&t, 64, &b);
	assert_int_equal(b.nf, 2);
	assert_int_equal(b.fast[1], A(t_mid_ret) - 1);
	assert_int_equal(b.cf.fast, 1);
}

static void test_max_frames(void **state)
{
	struct synth t;
	struct both b;

	memset(&t, 0, sizeof(t));
	t.regs[1] = FAKE_SP;
	t.regs[2] = A(t_mid_ret);
	for (int i = 0; i < 16; i++)
		t.stack[i] = A(t_mid_ret);	/* mid_fn calls itself */
	t.stack_size = sizeof(t.stack);
	unwind_both(&t, 5, &b);
	assert_int_equal(b.nf, 5);
	assert_int_equal(b.cf.fast, 1);
	/* Past the copy: the walk ends where the stack does. */
	unwind_both(&t, 64, &b);
	assert_int_equal(b.nf, 17);
	/* Return address 0 ends it too. */
	t.stack[3] = 0;
	unwind_both(&t, 64, &b);
	assert_int_equal(b.nf, 4);
	assert_int_equal(b.cf.fast, 1);
}

static void test_expression_falls_back(void **state)
{
	struct synth t;
	struct both b;

	memset(&t, 0, sizeof(t));
	t.regs[1] = FAKE_SP;
	t.regs[2] = A(t_plt_fn) + 1;
	t.stack[0] = A(t_top_ret);
	t.stack_size = 8 * 8;
	unwind_both(&t, 64, &b);
	assert_int_equal(b.cf.fast, 0);
	assert_int_equal(b.cf.slow, 1);
	/* libdwfl evaluated the expression: CFA = RSP + 8. */
	assert_int_equal(b.nf, 2);
	assert_int_equal(b.fast[1], A(t_top_ret) - 1);

	/* Only the caller is PLT-like: still the whole sample. */
	t.regs[2] = A(t_mid_fn);
	t.stack[0] = A(t_plt_fn) + 1;
	t.stack[1] = A(t_top_ret);
	unwind_both(&t, 64, &b);
	assert_int_equal(b.cf.slow, 1);
	assert_int_equal(b.nf, 3);

	/* A signal frame's CIE: libdwfl's business too. */
	t.regs[2] = A(t_sig_fn) + 1;
	t.stack[0] = A(t_top_ret);
	unwind_both(&t, 64, &b);
	assert_int_equal(b.cf.fast, 0);
	assert_int_equal(b.cf.slow, 1);

	/* An IP with no room for a table key. */
	t.regs[2] = UINT64_MAX;
	unwind_both(&t, 64, &b);
	assert_int_equal(b.cf.slow, 1);
	assert_int_equal(b.nf, 1);
}

/* No CFI (no module here): libdwfl's x86-64 frame-pointer step. */
static void test_frame_pointer_step(void **state)
{
	struct synth t;
	struct both b;

	memset(&t, 0, sizeof(t));
	t.regs[0] = FAKE_SP + 16;		/* RBP */
	t.regs[1] = FAKE_SP;
	t.regs[2] = FAKE_SP + 0x100;		/* in no module */
	t.stack[2] = FAKE_SP + 32;		/* saved RBP */
	t.stack[3] = FAKE_SP + 0x200;		/* RA, in no module either */
	t.stack[4] = 0;
	t.stack[5] = A(t_top_ret);		/* back into CFI */
	t.stack_size = 8 * 8;
	unwind_both(&t, 64, &b);
	assert_int_equal(b.cf.fast, 1);
	assert_int_equal(b.nf, 3);
	assert_int_equal(b.fast[1], FAKE_SP + 0x1ff);
	assert_int_equal(b.fast[2], A(t_top_ret) - 1);

	/* RBP 0: no step. */
	t.regs[0] = 0;
	unwind_both(&t, 64, &b);
	assert_int_equal(b.cf.fast, 1);
	assert_int_equal(b.nf, 1);

	/* The saved RBP below the copy reads as 0: the step still goes. */
	t.regs[0] = FAKE_SP - 8;
	t.stack[0] = A(t_top_ret);
	unwind_both(&t, 64, &b);
	assert_int_equal(b.cf.fast, 1);
	assert_int_equal(b.nf, 2);
	assert_int_equal(b.fast[1], A(t_top_ret) - 1);

	/* The return address past the copy: no step. */
	t.regs[0] = FAKE_SP + 16;
	t.stack_size = 3 * 8;
	unwind_both(&t, 64, &b);
	assert_int_equal(b.nf, 1);

	/*
	 * RBP into this program's code, readable from its file, below the
	 * stack: the step would move the stack pointer down, so it is not
	 * taken.
	 */
	t.regs[0] = A(t_mid_fn);
	t.regs[1] = 0x7fff00000000ULL;
	t.stack_size = 8 * 8;
	assert_true(A(t_mid_fn) + 16 <= t.regs[1]);
	unwind_both(&t, 64, &b);
	assert_int_equal(b.cf.fast, 1);
	assert_int_equal(b.nf, 1);
}

/*
 * A PC .eh_frame does not cover, in an object whose separate debug file
 * (found by its debuglink, sections compressed, as distributions ship
 * them) has no .debug_frame: libdwfl's frame-pointer step, decided
 * without loading that DWARF. This program itself (DWARF in the file, no
 * debug file looked for) leaves the question to libdwfl.
 */
static void test_no_debug_frame_no_dwarf_load(void **state)
{
	char dir[] = "/tmp/sonde-uwcfi-XXXXXX", exe[PATH_MAX];
	char bin[64], dbg[80], cmd[2 * PATH_MAX + 512];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct synth t;
	struct both b;

	assert_true(n > 0);
	exe[n] = 0;
	if (system("objcopy --version >/dev/null 2>&1")) {
		printf("SKIP: objcopy is not installed\n");
		skip();
	}
	assert_non_null(mkdtemp(dir));
	snprintf(bin, sizeof(bin), "%s/subject", dir);
	snprintf(dbg, sizeof(dbg), "%s.debug", bin);
	snprintf(cmd, sizeof(cmd),
		 "objcopy --only-keep-debug --compress-debug-sections=zlib '%s' '%s' &&"
		 " objcopy --strip-all --add-gnu-debuglink='%s' '%s' '%s'",
		 exe, dbg, dbg, exe, bin);
	assert_int_equal(system(cmd), 0);

	memset(&t, 0, sizeof(t));
	t.regs[0] = FAKE_SP + 16;		/* RBP */
	t.regs[1] = FAKE_SP;
	t.regs[2] = A(t_nocfi_fn) + 1;
	t.stack[3] = A(t_top_ret);		/* above the saved RBP (0) */
	t.stack_size = 8 * 8;
	unwind_both_as(&t, 64, &b, bin);
	assert_int_equal(b.nf, 2);
	assert_int_equal(b.fast[1], A(t_top_ret) - 1);
	assert_int_equal(b.cf.fast, 1);
	assert_int_equal(b.cf.dwarf_loads, 0);

	/* A debug file with a .debug_frame section (empty): libdwfl decides. */
	snprintf(cmd, sizeof(cmd),
		 "objcopy --add-section .debug_frame=/dev/null '%s' '%s.f' &&"
		 " mv '%s.f' '%s' &&"
		 " objcopy --strip-all --add-gnu-debuglink='%s' '%s' '%s'",
		 dbg, dbg, dbg, dbg, dbg, exe, bin);
	assert_int_equal(system(cmd), 0);
	unwind_both_as(&t, 64, &b, bin);
	assert_int_equal(b.nf, 2);
	assert_int_equal(b.cf.dwarf_loads, 1);

	unwind_both(&t, 64, &b);
	assert_int_equal(b.nf, 2);
	assert_int_equal(b.cf.dwarf_loads, 1);
	unlink(bin);
	unlink(dbg);
	rmdir(dir);
}

/* Garbage PCs by the million: the rule table starts over, never grows. */
static void test_rule_table_bounded(void **state)
{
	static const Dwfl_Callbacks cb = {
		.find_elf = dwfl_build_id_find_elf,
		.find_debuginfo = dwfl_standard_find_debuginfo,
		.section_address = dwfl_offline_section_address,
	};
	struct uw_cfi_sample s = { .sp = FAKE_SP };
	struct uw_cfi *c = uw_cfi_new();
	Dwfl *dwfl = dwfl_begin(&cb);
	uint64_t ips[4];
	size_t peak = 0;

	assert_non_null(c);
	assert_non_null(dwfl);
	dwfl_report_begin(dwfl);
	dwfl_report_end(dwfl, NULL, NULL);
	for (uint64_t i = 0; i < UW_CFI_MAX_RULES + 1000; i++) {
		s.ip = 0x100000 + i;
		/* No module, RBP 0: one frame, after a rule lookup. */
		assert_int_equal(uw_cfi_unwind(c, dwfl, &s, ips, 4), 1);
		if (uw_cfi_count(c) > peak)
			peak = uw_cfi_count(c);
	}
	assert_int_equal(peak, UW_CFI_MAX_RULES);
	assert_true(uw_cfi_count(c) < 2000);
	uw_cfi_flush(c);
	assert_int_equal(uw_cfi_count(c), 0);
	uw_cfi_free(c);
	dwfl_end(dwfl);
}

/* ---- real samples ---- */

#define RING_PAGES 128
#define STACK_BYTES 8192
#define REGS_MASK 0xff0fffULL	/* AX..SS, R8..R15: perf's default */

struct real {
	struct sonde_unwinder *fast, *slow;
	pid_t pid;
	int samples, mismatches;
};

static void handle_sample(const uint8_t *p, size_t size, struct real *st)
{
	const uint8_t *end = p + size;
	struct sonde_unwind_sample s = { 0 };
	uint64_t a[SONDE_PERF_MAX_STACK_DEPTH], b[SONDE_PERF_MAX_STACK_DEPTH];
	uint64_t stack_size;
	uint32_t pid_tid[2];
	int na, nb;

	memcpy(pid_tid, p, 8);
	p += 8;
	s.tid = (pid_t)pid_tid[1];
	memcpy(&s.abi, p, 8);
	p += 8;
	if (!s.abi)
		return;
	s.regs_mask = REGS_MASK;
	s.nr_regs = (uint32_t)__builtin_popcountll(REGS_MASK);
	s.regs = (const uint64_t *)(const void *)p;
	p += 8 * s.nr_regs;
	memcpy(&stack_size, p, 8);
	p += 8;
	if (stack_size) {
		s.stack = p;
		p += stack_size;
		memcpy(&s.stack_size, p, 8);
	}
	assert_true(p <= end);
	if (!st->fast) {
		/* The program's mappings are in place by its first sample. */
		st->fast = sonde_unwinder__new(st->pid, NULL);
		st->slow = sonde_unwinder__new(st->pid, NULL);
		assert_true(sonde_unwinder__add_proc_maps(st->fast, st->pid) >= 2);
		assert_true(sonde_unwinder__add_proc_maps(st->slow, st->pid) >= 2);
		unwinder_set_mode(st->slow, UW_MODE_SLOW);
	}
	na = sonde_unwinder__unwind(st->fast, &s, a, ARRAY_SIZE(a));
	nb = sonde_unwinder__unwind(st->slow, &s, b, ARRAY_SIZE(b));
	st->samples++;
	if (na != nb || memcmp(a, b, (size_t)(na > 0 ? na : 0) * 8)) {
		st->mismatches++;
		printf("# mismatch: fast %d frames, libdwfl %d\n", na, nb);
		for (int i = 0; i < na || i < nb; i++)
			printf("#   %#18" PRIx64 " %#18" PRIx64 "\n",
			       i < na ? a[i] : 0, i < nb ? b[i] : 0);
	}
}

/* Unwinds every sample waiting in @r (the library's ring reader). */
static void drain(struct sonde_ring *r, struct real *st)
{
	const struct sonde_perf_event_header *h;

	if (sonde_ring__read_init(r) <= 0)
		return;
	while (sonde_ring__read_event(r, &h) > 0)
		if (h->type == SONDE_PERF_RECORD_SAMPLE)
			handle_sample((const uint8_t *)(h + 1), h->size - sizeof(*h), st);
	sonde_ring__read_done(r);
}

static void test_real_samples_agree(void **state)
{
	struct sonde_perf_event_attr attr = { 0 };
	char exe[PATH_MAX], helper[PATH_MAX + 32];
	SONDE_OPTS(sonde_ring_opts, ropts, .data_pages = RING_PAGES);
	struct real st = { 0 };
	struct uw_counts cf;
	int go[2], fd, status, i;
	struct sonde_ring *ring;
	ssize_t n;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	assert_true(n > 0);
	exe[n] = 0;
	*strrchr(exe, '/') = 0;
	snprintf(helper, sizeof(helper), "%s/../helpers/report_workload", exe);
	if (access(helper, X_OK)) {
		printf("SKIP: %s not built (make helpers)\n", helper);
		skip();
	}
	assert_int_equal(pipe(go), 0);
	st.pid = fork();
	assert_true(st.pid >= 0);
	if (!st.pid) {
		char c;

		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		if (!freopen("/dev/null", "w", stdout))
			_exit(1);
		execl(helper, helper, "single", "600", (char *)NULL);
		_exit(127);
	}
	close(go[0]);
	attr.type = SONDE_PERF_TYPE_SOFTWARE;
	attr.config = SONDE_PERF_COUNT_SW_CPU_CLOCK;
	attr.size = sizeof(attr);
	attr.sample_period = 2000000;	/* 2 ms of CPU time */
	attr.sample_type = SONDE_PERF_SAMPLE_TID | SONDE_PERF_SAMPLE_REGS_USER |
			   SONDE_PERF_SAMPLE_STACK_USER;
	attr.sample_regs_user = REGS_MASK;
	attr.sample_stack_user = STACK_BYTES;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.disabled = 1;
	attr.enable_on_exec = 1;
	fd = sonde_perf_event_open(&attr, st.pid, -1, -1, 0);
	if (fd < 0) {
		kill(st.pid, SIGKILL);
		waitpid(st.pid, NULL, 0);
		printf("SKIP: cannot open cpu-clock with REGS_USER+STACK_USER: "
		       "%s (perf_event_paranoid?)\n", strerror(-fd));
		skip();
	}
	ring = sonde_ring__new(fd, &ropts);
	assert_non_null(ring);
	assert_int_equal(write(go[1], "g", 1), 1);
	close(go[1]);
	for (i = 0; i < 300; i++) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		poll(&p, 1, 10);
		drain(ring, &st);
		if (waitpid(st.pid, &status, WNOHANG) == st.pid) {
			drain(ring, &st);
			st.pid = 0;
			break;
		}
	}
	if (st.pid) {
		kill(st.pid, SIGKILL);
		waitpid(st.pid, &status, 0);
	}
	sonde_ring__free(ring);
	close(fd);
	memset(&cf, 0, sizeof(cf));
	if (st.fast)
		unwinder_counts(st.fast, &cf);
	printf("# %d samples: %" PRIu64 " by CFI rules (%" PRIu64 " PCs), %"
	       PRIu64 " through libdwfl, %d differ\n", st.samples, cf.fast,
	       cf.rules, cf.slow, st.mismatches);
	sonde_unwinder__free(st.fast);
	sonde_unwinder__free(st.slow);
	assert_true(st.samples >= 20);
	assert_int_equal(st.mismatches, 0);
	/* The workload's frames all have plain CFI. */
	assert_true(cf.fast * 10 >= (uint64_t)st.samples * 9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cfa_rbp_and_undefined_ra),
		cmocka_unit_test(test_read_past_copy_stops),
		cmocka_unit_test(test_max_frames),
		cmocka_unit_test(test_expression_falls_back),
		cmocka_unit_test(test_frame_pointer_step),
		cmocka_unit_test(test_no_debug_frame_no_dwarf_load),
		cmocka_unit_test(test_rule_table_bounded),
		cmocka_unit_test(test_real_samples_agree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
