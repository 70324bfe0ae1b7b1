// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Unwinding: the PERF_CONTEXT_* callchain walker on hand-made chains, and
 * DWARF unwinding of real REGS_USER + STACK_USER samples of a helper built
 * without frame pointers (so only CFI can unwind it), symbolized with the
 * symbol cache and checked for main <- uw_outer <- uw_middle <- uw_inner.
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
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "sonde/sonde.h"
#include "sonde/unwind.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

static void test_callchain_iter(void **state)
{
	const uint64_t chain[] = {
		SONDE_PERF_CONTEXT_KERNEL, 0xffffffff81000010,
		0xffffffff81000020, SONDE_PERF_CONTEXT_USER, 0x401000,
		0x401100, 0x401200,
	};
	const uint64_t nomark[] = { 0xffffffff81000010, 0x7f0000001000 };
	struct sonde_callchain_iter it;
	uint64_t k[4], u[2], ip;
	size_t nk, nu;
	int ctx, n = 0;

	memset(&it, 0xa5, sizeof(it));
	sonde_callchain_iter__init(&it, chain, ARRAY_SIZE(chain));
	assert_int_equal(it.reserved[0] | it.reserved[1], 0);
	while (sonde_callchain_iter__next(&it, &ip, &ctx)) {
		assert_true(ip < SONDE_PERF_CONTEXT_MAX);
		assert_int_equal(ctx, n < 2 ? SONDE_CALLCHAIN_KERNEL :
					      SONDE_CALLCHAIN_USER);
		n++;
	}
	assert_int_equal(n, 5);
	sonde_callchain__split(chain, ARRAY_SIZE(chain), k, 4, &nk, u, 2, &nu);
	assert_int_equal(nk, 2);
	assert_int_equal(nu, 2);	/* capped */
	assert_int_equal(k[1], 0xffffffff81000020);
	assert_int_equal(u[0], 0x401000);
	/* No markers: guessed from the address. */
	sonde_callchain__split(nomark, 2, k, 4, &nk, u, 2, &nu);
	assert_int_equal(nk, 1);
	assert_int_equal(nu, 1);
	/* Empty and NULL. */
	sonde_callchain__split(NULL, 5, k, 4, &nk, u, 2, &nu);
	assert_int_equal(nk + nu, 0);
}

static void test_bad_samples(void **state)
{
	struct sonde_unwinder *uw = sonde_unwinder__new(1, NULL);
	struct sonde_unwind_sample s = { .abi = SONDE_PERF_SAMPLE_REGS_ABI_NONE };
	uint64_t regs[2] = { 0x1000, 0x7ffd0000 }, ips[4];

	assert_non_null(uw);
	assert_int_equal(sonde_unwinder__unwind(uw, &s, ips, 4), -ENODATA);
	s.abi = SONDE_PERF_SAMPLE_REGS_ABI_32;
	assert_int_equal(sonde_unwinder__unwind(uw, &s, ips, 4), -EOPNOTSUPP);
	s.abi = SONDE_PERF_SAMPLE_REGS_ABI_64;
	s.regs_mask = 1ULL << SONDE_PERF_REG_X86_IP;	/* no SP */
	s.regs = regs;
	s.nr_regs = 1;
	assert_int_equal(sonde_unwinder__unwind(uw, &s, ips, 4), -EINVAL);
	/* IP + SP, no modules, no stack: just the IP. */
	s.regs_mask |= 1ULL << SONDE_PERF_REG_X86_SP;
	s.nr_regs = 2;
	sonde_set_print(NULL);
	assert_int_equal(sonde_unwinder__unwind(uw, &s, ips, 4), 1);
	assert_int_equal(ips[0], 0x7ffd0000);	/* SP < IP in mask order */
	assert_int_equal(sonde_unwinder__add_map(uw, 0x1000, 0x1000, 0,
						 "[vdso]"), 0);
	assert_int_equal(sonde_unwinder__add_map(uw, 0x1000, 0x1000, 0,
						 "/nonexistent"), -ENOENT);
	sonde_unwinder__free(uw);
}

/* ---- real samples ---- */

#define RING_PAGES 32
#define STACK_BYTES 8192
/* AX..SS and R8..R15: what x86-64 accepts (perf's default mask). */
#define REGS_MASK 0xff0fffULL

struct pmap {
	uint64_t start, end, pgoff;
	char path[512];
};

static int read_maps(pid_t pid, struct pmap *m, int max)
{
	char path[64], line[700];
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (n < max && fgets(line, sizeof(line), f)) {
		char perms[8];
		int pos = 0;

		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64
			   " %*s %*s %n", &m[n].start, &m[n].end, perms,
			   &m[n].pgoff, &pos) < 4 || !pos || perms[2] != 'x')
			continue;
		line[strcspn(line, "\n")] = 0;
		snprintf(m[n].path, sizeof(m[n].path), "%s", line + pos);
		n++;
	}
	fclose(f);
	return n;
}

static const char *symbolize(struct sonde_symcache *c, struct pmap *m, int nm,
			     uint64_t ip)
{
	const struct sonde_symbol *s;
	struct sonde_dso *d;
	const char *name = "[unknown]";
	int i;

	for (i = 0; i < nm; i++) {
		if (ip < m[i].start || ip >= m[i].end || m[i].path[0] != '/')
			continue;
		d = sonde_symcache__dso(c, m[i].path, NULL, 0);
		s = sonde_dso__find(d, sonde_dso__map_to_vaddr(d, m[i].start,
							       m[i].pgoff, ip),
				    NULL);
		if (s)
			name = s->name;	/* the cache keeps d alive */
		sonde_dso__put(d);
		break;
	}
	return name;
}

struct stats {
	int samples, top_inner, full;
};

/* One fully unwound sample, kept for replay through another unwinder. */
static struct {
	bool have;
	uint64_t regs[32];
	uint32_t nr_regs;
	pid_t tid;
	uint64_t stack_size;
	uint8_t stack[STACK_BYTES];
} saved;

static void save_sample(const struct sonde_unwind_sample *s)
{
	if (saved.have || s->nr_regs > 32 || s->stack_size > STACK_BYTES)
		return;
	memcpy(saved.regs, s->regs, s->nr_regs * 8);
	saved.nr_regs = s->nr_regs;
	saved.tid = s->tid;
	saved.stack_size = s->stack_size;
	memcpy(saved.stack, s->stack, s->stack_size);
	saved.have = true;
}

static void handle_sample(const uint8_t *p, size_t size,
			  struct sonde_unwinder *uw, struct sonde_symcache *c,
			  struct pmap *m, int nm, struct stats *st)
{
	const uint8_t *end = p + size;
	struct sonde_unwind_sample s = { 0 };
	static const char *want[] = { "uw_inner", "uw_middle", "uw_outer",
				      "main" };
	uint64_t ips[64], stack_size;
	uint32_t pid_tid[2];
	int n, i, w = 0;

	p += 8;				/* IP */
	memcpy(pid_tid, p, 8);
	p += 8;
	s.tid = (pid_t)pid_tid[1];
	memcpy(&s.abi, p, 8);
	p += 8;
	if (s.abi) {
		s.regs_mask = REGS_MASK;
		s.nr_regs = (uint32_t)__builtin_popcountll(REGS_MASK);
		s.regs = (const uint64_t *)p;
		p += 8 * s.nr_regs;
	}
	memcpy(&stack_size, p, 8);
	p += 8;
	if (stack_size) {
		s.stack = p;
		p += stack_size;
		memcpy(&s.stack_size, p, 8);
	}
	assert_true(p <= end);
	if (!s.abi)
		return;
	st->samples++;
	n = sonde_unwinder__unwind(uw, &s, ips, ARRAY_SIZE(ips));
	assert_true(n >= 1);
	if (strcmp(symbolize(c, m, nm, ips[0]), "uw_inner"))
		return;
	st->top_inner++;
	for (i = 0; i < n && w < 4; i++)
		if (!strcmp(symbolize(c, m, nm, ips[i]), want[w]))
			w++;
	if (w == 4) {
		st->full++;
		save_sample(&s);
	}
	else if (getenv("VERBOSE"))
		for (i = 0; i < n; i++)
			printf("  #%d %#" PRIx64 " %s\n", i, ips[i],
			       symbolize(c, m, nm, ips[i]));
}

/* Unwinds every sample waiting in @r (the library's ring reader). */
static void drain(struct sonde_ring *r, struct sonde_unwinder *uw,
		  struct sonde_symcache *c, struct pmap *m, int nm,
		  struct stats *st)
{
	const struct sonde_perf_event_header *h;

	if (sonde_ring__read_init(r) <= 0)
		return;
	while (sonde_ring__read_event(r, &h) > 0)
		if (h->type == SONDE_PERF_RECORD_SAMPLE)
			handle_sample((const uint8_t *)(h + 1), h->size - sizeof(*h),
				      uw, c, m, nm, st);
	sonde_ring__read_done(r);
}

/*
 * A stale image (as after dlclose, or before exec) overlapping the live
 * one must not shadow it: replay a good sample through an unwinder that
 * first saw libc mapped where the program now is.
 */
static void replay_over_stale(pid_t pid, struct pmap *m, int nm,
			      struct sonde_symcache *c)
{
	struct sonde_unwinder *uw = sonde_unwinder__new(pid, NULL);
	struct sonde_unwind_sample s = {
		.tid = saved.tid, .abi = SONDE_PERF_SAMPLE_REGS_ABI_64,
		.regs_mask = REGS_MASK, .regs = saved.regs,
		.nr_regs = saved.nr_regs, .stack = saved.stack,
		.stack_size = saved.stack_size,
	};
	uint64_t ips[64];
	int i, n, prog = -1;

	for (i = 0; i < nm; i++)
		if (strstr(m[i].path, "unwind_nofp"))
			prog = i;
	assert_true(prog >= 0);
	/* Unwind once with only the stale module, so a Dwfl is attached. */
	assert_int_equal(sonde_unwinder__add_map(uw, m[prog].start,
			 0x100000, 0, "/usr/lib/x86_64-linux-gnu/libc.so.6"), 0);
	sonde_unwinder__unwind(uw, &s, ips, 64);
	for (i = 0; i < nm; i++)
		sonde_unwinder__add_map(uw, m[i].start, m[i].end - m[i].start,
					m[i].pgoff, m[i].path);
	n = sonde_unwinder__unwind(uw, &s, ips, 64);
	assert_true(n >= 4);
	assert_string_equal(symbolize(c, m, nm, ips[0]), "uw_inner");
	assert_string_equal(symbolize(c, m, nm, ips[1]), "uw_middle");
	assert_string_equal(symbolize(c, m, nm, ips[2]), "uw_outer");
	assert_string_equal(symbolize(c, m, nm, ips[3]), "main");
	sonde_unwinder__free(uw);
	saved.have = false;
}

static int open_fds(void)
{
	char path[64];
	int n = 0, fd;

	for (fd = 0; fd < 1024; fd++) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		n += !access(path, F_OK);
	}
	return n;
}

static void unwind_real(const char *name)
{
	struct sonde_perf_event_attr attr = { 0 };
	char exe[PATH_MAX], helper[PATH_MAX], buf[16];
	struct sonde_symcache *c;
	struct sonde_unwinder *uw;
	struct stats st = { 0 };
	struct pmap maps[64];
	SONDE_OPTS(sonde_ring_opts, ropts, .data_pages = RING_PAGES);
	int pfd[2], fd, nm, i, status, fds;
	struct sonde_ring *ring;
	ssize_t n;
	pid_t pid;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	assert_true(n > 0);
	exe[n] = 0;
	*strrchr(exe, '/') = 0;
	snprintf(helper, sizeof(helper), "%s/../helpers/%s", exe, name);
	if (access(helper, X_OK)) {
		printf("SKIP: %s not built (make helpers)\n", helper);
		skip();
	}
	assert_int_equal(pipe(pfd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		dup2(pfd[1], 1);
		execl(helper, helper, "1500", (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	n = read(pfd[0], buf, sizeof(buf));
	assert_true(n > 0);

	attr.type = SONDE_PERF_TYPE_SOFTWARE;
	attr.config = SONDE_PERF_COUNT_SW_CPU_CLOCK;
	attr.size = sizeof(attr);
	attr.sample_period = 5000000;	/* 5 ms of CPU time */
	attr.sample_type = SONDE_PERF_SAMPLE_IP | SONDE_PERF_SAMPLE_TID |
			   SONDE_PERF_SAMPLE_REGS_USER |
			   SONDE_PERF_SAMPLE_STACK_USER;
	attr.sample_regs_user = REGS_MASK;
	attr.sample_stack_user = STACK_BYTES;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = sonde_perf_event_open(&attr, pid, -1, -1, 0);
	if (fd < 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		printf("SKIP: cannot open cpu-clock with REGS_USER+STACK_USER: "
		       "%s (perf_event_paranoid?)\n", strerror(-fd));
		skip();
	}
	ring = sonde_ring__new(fd, &ropts);
	assert_non_null(ring);

	fds = open_fds();
	uw = sonde_unwinder__new(pid, NULL);
	assert_true(sonde_unwinder__add_proc_maps(uw, pid) >= 2);
	nm = read_maps(pid, maps, 64);
	c = sonde_symcache__new(NULL);
	for (i = 0; i < 40 && st.top_inner < 40; i++) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		poll(&p, 1, 20);
		drain(ring, uw, c, maps, nm, &st);
	}
	/* Modules and DSOs are mapped, not held open: no fd per file. */
	assert_int_equal(open_fds(), fds);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	sonde_ring__free(ring);
	close(fd);
	close(pfd[0]);
	sonde_unwinder__free(uw);
	printf("# %s: %d samples, %d in uw_inner, %d fully unwound to main\n",
	       name, st.samples, st.top_inner, st.full);
	assert_true(saved.have);
	replay_over_stale(pid, maps, nm, c);
	sonde_symcache__free(c);
	assert_true(st.top_inner >= 5);
	/* Nearly every sample in the spin loop must unwind completely. */
	assert_true(st.full * 10 >= st.top_inner * 8);
}

/* PIE (ET_DYN, load bias) and -no-pie (ET_EXEC, link addresses). */
static void test_dwarf_unwind_real(void **state)
{
	unwind_real("unwind_nofp");
}

static void test_dwarf_unwind_real_nopie(void **state)
{
	unwind_real("unwind_nofp_nopie");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_callchain_iter),
		cmocka_unit_test(test_bad_samples),
		cmocka_unit_test(test_dwarf_unwind_real),
		cmocka_unit_test(test_dwarf_unwind_real_nopie),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
