// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The writer/reader compatibility matrix: what libsonde writes, in file and
 * pipe mode, must read the same in perf report, perf script, sonde report
 * and sonde script, for every kind of stream sonde record produces (no call
 * chain, frame-pointer chains, DWARF regs + stack, branch stacks, several
 * events, tracepoints), for every attr size up to perf 6.1's (the "wide"
 * cells set the last field of VER4..VER7, one per id pattern: the writer
 * stores the smallest size that holds the attr) and for event ids across
 * the bit patterns that matter.
 *
 * The ids come through the syscall seam: each cell opens its events with
 * sonde_evlist__open() on a fake kernel whose PERF_EVENT_IOC_ID answers the
 * cell's pattern, and hands sonde_evsel__id() to the writer, as sonde record
 * does. Patterns: 0x1 and 0x800 are PERF_SAMPLE_BRANCH_USER and
 * PERF_SAMPLE_BRANCH_CALL_STACK when a reader takes ids for attr bytes
 * (perf 6.1 crashed on the latter, issue 11), 0xfff all low bits, and a high
 * bit with 0x800. Real ids are a global kernel counter, so the real
 * recordings (tests/cli/test_compat_matrix.sh) cannot choose them.
 *
 * Samples are made up here (this machine has no PMU for branch stacks):
 * each event gets HOT samples in compat_hot() and COLD in compat_cold(),
 * functions of this very binary, mapped by sonde_perfdata_writer__synth_process() from
 * /proc/self/maps, so every reader symbolizes them from the file. Every
 * reader must count every sample, per event, and name compat_hot on top.
 *
 * Not here: compressed streams (the writer does not compress; perf record
 * -z files are read by both tools in tests/cli/test_compat_matrix.sh).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sonde/sonde.h"
#include "sonde/perfdata.h"
#include "sonde/synth.h"
#include "sonde/sys.h"
#include "sonde/cpumap.h"
#include "cli_run.h"

#define PERF "/usr/bin/perf"
#define HOT 20
#define COLD 10
#define MAX_EV 2
#define NR_CPU 2

__attribute__((noinline, used)) void compat_hot(void);
__attribute__((noinline, used)) void compat_cold(void);

__attribute__((noinline, used)) void compat_hot(void)
{
	__asm__ volatile("nop; nop; nop; nop; nop; nop; nop; nop" ::: "memory");
}

__attribute__((noinline, used)) void compat_cold(void)
{
	__asm__ volatile("nop; nop; nop; nop; nop; nop; nop; nop" ::: "memory");
	compat_hot();
}

enum kind { K_PLAIN, K_FP, K_DWARF, K_BRANCH, K_MULTI, K_TRACEPOINT, K_WIDE, K_NR };
static const char *const kind_name[K_NR] = {
	"plain", "fp", "dwarf", "branch", "multi", "tracepoint", "wide",
};

static const uint64_t patterns[] = {
	0x1, 0x800, 0xfff, 0x8000000000000800ULL,
};

static char dir[] = "/tmp/sonde-compat-XXXXXX";
static char sonde_bin[PATH_MAX + 16];
static uint64_t forced_id;  /* the seam's next IOC_ID answer */
static long tp_id = -1;     /* sched:sched_switch, or -1 */
static void *tp_blob;
static size_t tp_len;

/* ---- the fake kernel: fds on /dev/null, ids from the cell ---- */

static int fake_open(struct sonde_perf_event_attr *attr, pid_t pid, int cpu,
		     int group_fd, unsigned long flags)
{
	(void)attr; (void)pid; (void)cpu; (void)group_fd; (void)flags;
	return open("/dev/null", O_RDONLY | O_CLOEXEC);
}

static int fake_ioctl(int fd, unsigned long request, unsigned long arg)
{
	(void)fd;
	if (request == SONDE_PERF_EVENT_IOC_ID) {
		memcpy((void *)arg, &forced_id, sizeof(forced_id));
		forced_id += 0x10000; /* the next fd's id differs, same low bits */
	}
	return 0;
}

/* ---- cells ---- */

struct cell {
	bool pipe;
	enum kind kind;
	uint64_t pattern;
	size_t pattern_idx;	/* K_WIDE: which attr size */
	int nr_ev;
	unsigned int want[MAX_EV];	/* samples per event */
	char path[PATH_MAX];
};

struct result {
	int nr_ev;
	unsigned int n[MAX_EV];
	char top[MAX_EV][64];
};

static void make_attr(const struct cell *c, int i, struct sonde_perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = SONDE_PERF_TYPE_SOFTWARE;
	a->config = i ? SONDE_PERF_COUNT_SW_TASK_CLOCK : SONDE_PERF_COUNT_SW_CPU_CLOCK;
	a->sample_type = SONDE_PERF_SAMPLE_IP | SONDE_PERF_SAMPLE_TID |
			 SONDE_PERF_SAMPLE_TIME | SONDE_PERF_SAMPLE_PERIOD;
	a->sample_period = 100000;
	a->sample_id_all = 1;
	a->exclude_guest = 1;
	a->disabled = 1;
	a->mmap = a->comm = a->task = i == 0;
	a->read_format = SONDE_PERF_FORMAT_ID | SONDE_PERF_FORMAT_LOST;
	switch (c->kind) {
	case K_FP:
		a->sample_type |= SONDE_PERF_SAMPLE_CALLCHAIN;
		break;
	case K_DWARF:
		/* What record --call-graph dwarf asks for. */
		a->sample_type |= SONDE_PERF_SAMPLE_CALLCHAIN |
				  SONDE_PERF_SAMPLE_REGS_USER |
				  SONDE_PERF_SAMPLE_STACK_USER;
		a->sample_regs_user = 0xff0fffULL;
		a->sample_stack_user = 256;
		a->exclude_callchain_user = 1;
		break;
	case K_BRANCH:
		a->sample_type |= SONDE_PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type = SONDE_PERF_SAMPLE_BRANCH_ANY |
					SONDE_PERF_SAMPLE_BRANCH_USER;
		break;
	case K_MULTI:
		a->sample_type |= SONDE_PERF_SAMPLE_IDENTIFIER;
		break;
	case K_TRACEPOINT:
		a->type = SONDE_PERF_TYPE_TRACEPOINT;
		a->config = (uint64_t)tp_id;
		a->sample_type |= SONDE_PERF_SAMPLE_RAW;
		a->sample_period = 1;
		break;
	case K_WIDE:
		/*
		 * The last field of each attr size, none of which changes
		 * what a sample holds: VER4 (104), VER5 (112), VER6 (120),
		 * VER7 (128).
		 */
		switch (c->pattern_idx % 4) {
		case 0:
			a->sample_regs_intr = 1;
			break;
		case 1:
			a->sample_max_stack = 64;
			break;
		case 2:
			a->aux_sample_size = 4096;
			break;
		default:
			a->sig_data = 0xc0ffee;
			break;
		}
		break;
	default:
		break;
	}
}

static int write_sample(struct sonde_perfdata_writer *w,
			const struct sonde_record_fmt *fmt, const struct cell *c,
			uint64_t id, uint64_t ip, uint64_t caller, uint64_t t)
{
	unsigned char buf[4096];
	uint64_t chain[3] = { SONDE_PERF_CONTEXT_USER, ip, caller };
	uint64_t regs[20] = { 0 };
	unsigned char stack[256] = { 0 };
	unsigned char raw[124] = { 0 };
	struct sonde_perf_branch_entry br[2];
	struct sonde_record r;
	int n;

	memset(&r, 0, sizeof(r));
	memset(br, 0, sizeof(br));
	r.type = SONDE_PERF_RECORD_SAMPLE;
	r.misc = SONDE_PERF_RECORD_MISC_USER;
	r.sample.sample_type = fmt->sample_type;
	r.sample.identifier = id;
	r.sample.ip = ip;
	r.sample.pid = r.sample.tid = (uint32_t)getpid();
	r.sample.time = t;
	r.sample.period = 100000;
	if (c->kind == K_FP) {
		r.sample.callchain.nr = 3;
		r.sample.callchain.ips = chain;
	}
	if (c->kind == K_DWARF) {
		/* No user frames in the chain (exclude_callchain_user). */
		regs[6] = (uint64_t)(uintptr_t)stack;	/* BP */
		regs[7] = (uint64_t)(uintptr_t)stack;	/* SP */
		regs[8] = ip;				/* IP */
		r.sample.regs_user.abi = SONDE_PERF_SAMPLE_REGS_ABI_64;
		r.sample.regs_user.nr = 20;
		r.sample.regs_user.regs = regs;
		r.sample.stack_user.size = sizeof(stack);
		r.sample.stack_user.data = stack;
		r.sample.stack_user.dyn_size = sizeof(stack);
	}
	if (c->kind == K_BRANCH) {
		br[0].from = caller;
		br[0].to = ip;
		br[1].from = ip;
		br[1].to = caller;
		r.sample.branch.nr = 2;
		r.sample.branch.entries = br;
	}
	if (c->kind == K_TRACEPOINT) {
		r.sample.raw.size = sizeof(raw);
		r.sample.raw.data = raw;
	}
	n = sonde_record__encode(fmt, &r, buf, sizeof(buf));
	if (n < 0)
		return n;
	return sonde_perfdata_writer__write(w, (void *)buf);
}

/* Writes @c's file; ids are what the seam gave sonde_evlist__open(). */
static void write_cell(struct cell *c)
{
	struct sonde_sys_ops ops = { .perf_event_open = fake_open,
				     .ioctl = fake_ioctl };
	struct sonde_perf_event_attr attr[MAX_EV];
	struct sonde_record_fmt fmt[MAX_EV];
	uint64_t ids[MAX_EV][NR_CPU];
	struct sonde_evlist *list;
	struct sonde_perfdata_writer *w;
	uint64_t hot = (uint64_t)(uintptr_t)compat_hot + 4;
	uint64_t cold = (uint64_t)(uintptr_t)compat_cold + 4;
	uint64_t t = 1000000000;

	c->nr_ev = c->kind == K_MULTI ? 2 : 1;
	c->want[0] = HOT + COLD;
	c->want[1] = HOT / 2 + COLD / 2 + 1; /* differs from event 0 */
	snprintf(c->path, sizeof(c->path), "%s/%s-%s-%llx.data", dir,
		 c->pipe ? "pipe" : "file", kind_name[c->kind],
		 (unsigned long long)c->pattern);

	list = sonde_evlist__new();
	assert_non_null(list);
	for (int i = 0; i < c->nr_ev; i++) {
		make_attr(c, i, &attr[i]);
		assert_true(sonde_evlist__add(list, &attr[i], NULL, -1) >= 0);
	}
	/*
	 * Two CPUs (the fake kernel does not mind which), so two ids per
	 * event as record has on a 2-CPU machine: perf 6.1 misread the
	 * second one as branch_sample_type.
	 */
	assert_int_equal(sonde_evlist__set_maps(list, sonde_cpu_map__new("0-1"), NULL), 0);
	forced_id = c->pattern;
	sonde_sys_set_ops(&ops);
	assert_int_equal(sonde_evlist__open(list, NULL), 0);
	for (int i = 0; i < c->nr_ev; i++)
		for (int k = 0; k < NR_CPU; k++)
			assert_int_equal(sonde_evsel__id(sonde_evlist__evsel(list, i),
							 k, 0, &ids[i][k]), 0);
	sonde_evlist__free(list);
	sonde_sys_set_ops(NULL);
	assert_int_equal(ids[0][0], c->pattern);
	assert_int_equal(ids[0][1] & 0xffff, c->pattern & 0xffff);

	{
		/* The pipe format saved to a file; readers get it through a pipe. */
		SONDE_OPTS(sonde_perfdata_writer_opts, wo, .pipe = c->pipe);

		w = sonde_perfdata_writer__new(c->path, &wo);
	}
	assert_non_null(w);
	for (int i = 0; i < c->nr_ev; i++) {
		int idx = sonde_perfdata_writer__add_event(w, &attr[i],
			c->kind == K_TRACEPOINT ? "sched:sched_switch" :
			i ? "task-clock" : "cpu-clock");

		assert_true(idx >= 0);
		assert_int_equal(sonde_perfdata_writer__add_ids(w, idx, ids[i], NR_CPU), 0);
		assert_int_equal(sonde_record_fmt__from_attr(&fmt[i], &attr[i]), 0);
	}
	if (c->kind == K_TRACEPOINT)
		assert_int_equal(sonde_perfdata_writer__set_tracing_data(w, tp_blob, tp_len), 0);
	assert_int_equal(sonde_perfdata_writer__begin(w), 0);
	assert_int_equal(sonde_perfdata_writer__synth_process(w, &attr[0], getpid(), NULL), 0);
	assert_int_equal(sonde_perfdata_writer__finish_init(w), 0);
	for (int i = 0; i < c->nr_ev; i++) {
		unsigned int nhot = i ? HOT / 2 + 1 : HOT, ncold = i ? COLD / 2 : COLD;

		for (unsigned int k = 0; k < nhot + ncold; k++)
			assert_int_equal(write_sample(w, &fmt[i], c, ids[i][k % NR_CPU],
						      k < nhot ? hot : cold,
						      k < nhot ? cold : cold + 8,
						      t += 1000), 0);
	}
	assert_int_equal(sonde_perfdata_writer__finish_round(w), 0);
	assert_int_equal(sonde_perfdata_writer__finish(w), 0);
	if (c->kind == K_WIDE && !c->pipe) {
		/*
		 * The file header's attr_size (offset 16) is the attr's size
		 * and its ids' file section (16 bytes): the size meant.
		 */
		static const uint64_t want[4] = { 104 + 16, 112 + 16, 120 + 16, 128 + 16 };
		uint64_t got = 0;
		FILE *f = fopen(c->path, "rb");

		assert_non_null(f);
		assert_int_equal(fseek(f, 16, SEEK_SET), 0);
		assert_int_equal(fread(&got, 8, 1, f), 1);
		fclose(f);
		assert_int_equal(got, want[c->pattern_idx % 4]);
	}
}

/* ---- readers ---- */

/* "# Samples: N  of event 'x'" then the first row's last word. */
static void parse_report(const char *out, struct result *res)
{
	const char *l = out;
	int ev = -1;
	bool want_top = false;

	memset(res, 0, sizeof(*res));
	while (l && *l) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);
		unsigned int n;

		if (sscanf(l, "# Samples: %u", &n) == 1 && ev + 1 < MAX_EV) {
			res->n[++ev] = n;
			want_top = true;
		} else if (want_top && ev >= 0 && len && l[0] != '#' &&
			   memchr(l, '%', len)) {
			const char *e = l + len, *s;

			while (e > l && (e[-1] == ' ' || e[-1] == '\r'))
				e--;
			s = e;
			while (s > l && s[-1] != ' ')
				s--;
			snprintf(res->top[ev], sizeof(res->top[ev]), "%.*s",
				 (int)(e - s), s);
			want_top = false;
		}
		l = nl ? nl + 1 : NULL;
	}
	res->nr_ev = ev + 1;
}

/*
 * -F event,pid,ip,sym: a sample line has the event name and a colon; its
 * symbol is the first compat_* word from there on (the chain, if printed,
 * comes on the lines below).
 */
static void parse_script(const char *out, const struct cell *c,
			 struct result *res)
{
	unsigned int hot[MAX_EV] = { 0 }, cold[MAX_EV] = { 0 };
	const char *l = out;
	int ev = -1;
	bool named = true;

	memset(res, 0, sizeof(*res));
	res->nr_ev = c->nr_ev;
	while (l && *l) {
		const char *nl = strchr(l, '\n');
		char line[512];
		const char *w, *h, *k;

		snprintf(line, sizeof(line), "%.*s", (int)(nl ? nl - l : (long)strlen(l)), l);
		w = line + strspn(line, " \t");
		if (strstr(w, "cpu-clock:") || strstr(w, "task-clock:") ||
		    strstr(w, "sched:sched_switch:")) {
			ev = strstr(w, "task-clock:") != NULL;
			res->n[ev]++;
			named = false;
		}
		h = strstr(line, "compat_hot");
		k = strstr(line, "compat_cold");
		if (ev >= 0 && !named && (h || k)) {
			if (h && (!k || h < k))
				hot[ev]++;
			else
				cold[ev]++;
			named = true;
		}
		l = nl ? nl + 1 : NULL;
	}
	for (int i = 0; i < c->nr_ev; i++)
		snprintf(res->top[i], sizeof(res->top[i]), "%s",
			 hot[i] > cold[i] ? "compat_hot" :
			 cold[i] > hot[i] ? "compat_cold" : "(none)");
}

static void check(const struct cell *c, const char *reader, const char *cmd,
		  bool report, int *failures)
{
	struct result res;
	int rc;
	char *out = cr_shell(cmd, &rc);
	bool ok;

	if (report)
		parse_report(out, &res);
	else
		parse_script(out, c, &res);
	ok = rc == 0 && res.nr_ev == c->nr_ev;
	for (int i = 0; ok && i < c->nr_ev; i++)
		ok = res.n[i] == c->want[i] && !strcmp(res.top[i], "compat_hot");
	if (!ok) {
		(*failures)++;
		printf("FAIL %s %s ids 0x%llx: %s: exit %d, %d events:",
		       c->pipe ? "pipe" : "file", kind_name[c->kind],
		       (unsigned long long)c->pattern, reader, rc, res.nr_ev);
		for (int i = 0; i < res.nr_ev; i++)
			printf(" %u samples (want %u) top '%s'", res.n[i],
			       c->want[i], res.top[i]);
		printf("\n  %s\n%.2000s\n", cmd, out);
	}
	free(out);
}

static void run_cell(struct cell *c, int *failures)
{
	char cmd[PATH_MAX * 4], cat[PATH_MAX + 16], in[PATH_MAX + 16];
	const char *nobr = c->kind == K_BRANCH ? " --no-branch-stack" : "";

	write_cell(c);
	/* Pipe streams go through a real pipe (perf reads a regular stdin
	 * as a file), files by name. */
	cat[0] = 0;
	if (c->pipe)
		snprintf(cat, sizeof(cat), "cat %s | ", c->path);
	snprintf(in, sizeof(in), "-i %s", c->pipe ? "-" : c->path);

	snprintf(cmd, sizeof(cmd), "%stimeout --foreground -k 5 60 " PERF " report -f --stdio "
		 "--no-children --sort sym -g none%s %s 2>/dev/null", cat, nobr, in);
	check(c, "perf report", cmd, true, failures);
	snprintf(cmd, sizeof(cmd), "%stimeout --foreground -k 5 60 " PERF " script -f "
		 "-F event,pid,ip,sym %s 2>/dev/null", cat, in);
	check(c, "perf script", cmd, false, failures);
	snprintf(cmd, sizeof(cmd), "%stimeout --foreground -k 5 60 %s report --stdio --no-children "
		 "--sort sym -g none --no-cache %s 2>/dev/null", cat, sonde_bin, in);
	check(c, "sonde report", cmd, true, failures);
	snprintf(cmd, sizeof(cmd), "%stimeout --foreground -k 5 60 %s script -F event,pid,ip,sym "
		 "--no-cache %s 2>/dev/null", cat, sonde_bin, in);
	check(c, "sonde script", cmd, false, failures);
	if (!getenv("COMPAT_MATRIX_KEEP"))
		unlink(c->path);
}

/*
 * The build against libsonde.so checks that every function the matrix
 * calls is exported: one id pattern per kind does that, the static build
 * runs them all.
 */
#ifdef SONDE_TEST_SHARED
#define NR_PATTERNS 1
#else
#define NR_PATTERNS (sizeof(patterns) / sizeof(patterns[0]))
#endif

static void test_matrix(void **state)
{
	int failures = 0, cells = 0;

	(void)state;
	for (int pipe = 0; pipe < 2; pipe++) {
		for (int k = 0; k < K_NR; k++) {
			if (k == K_TRACEPOINT && tp_id < 0) {
				printf("SKIP cells %s tracepoint: no tracefs with sched:sched_switch here\n",
				       pipe ? "pipe" : "file");
				continue;
			}
			for (size_t p = 0; p < NR_PATTERNS; p++) {
				struct cell c = { .pipe = pipe, .kind = (enum kind)k,
						  .pattern = patterns[p], .pattern_idx = p };

				run_cell(&c, &failures);
				cells++;
			}
		}
	}
	printf("%d cells x 4 readers, %d disagreements\n", cells, failures);
	assert_int_equal(failures, 0);
}

static void find_tracepoint(void)
{
	static const char *const roots[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};
	const char *tp = "sched:sched_switch";

	for (size_t i = 0; i < 2 && tp_id < 0; i++) {
		char p[128];
		FILE *f;

		snprintf(p, sizeof(p), "%s/events/sched/sched_switch/id", roots[i]);
		f = fopen(p, "r");
		if (f && fscanf(f, "%ld", &tp_id) != 1)
			tp_id = -1;
		if (f)
			fclose(f);
	}
	if (tp_id >= 0 && sonde_tracing_data_build(&tp, 1, &tp_blob, &tp_len))
		tp_id = -1;
}

static int setup(void **state)
{
	char self[PATH_MAX];
	ssize_t n;
	char *slash;

	(void)state;
	if (access(PERF, X_OK)) {
		printf("SKIP: %s not installed: it is the oracle of the matrix\n", PERF);
		return 0;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return -1;
	self[n] = 0;
	slash = strrchr(self, '/');
	*slash = 0;
	/* build/tests/test_compat_matrix -> build/sonde */
	snprintf(sonde_bin, sizeof(sonde_bin), "%s/../sonde", self);
	if (getenv("SONDE"))
		snprintf(sonde_bin, sizeof(sonde_bin), "%s", getenv("SONDE"));
	if (!mkdtemp(dir))
		return -1;
	find_tracepoint();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	rmdir(dir);
	free(tp_blob);
	return 0;
}

static void test_matrix_gate(void **state)
{
	if (access(PERF, X_OK) || access(sonde_bin, X_OK)) {
		printf("SKIP: needs %s and %s\n", PERF, sonde_bin[0] ? sonde_bin : "sonde");
		skip();
	}
	test_matrix(state);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matrix_gate),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
