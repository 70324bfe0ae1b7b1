// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Overflow notification: the fcntl setup checked on a simulated event fd
 * (the fake kernel's /dev/null fd takes the same fcntls), siginfo decoding
 * on hand-made siginfos, and on the real kernel: a POLL_IN signal per
 * wakeup, POLL_HUP when the REFRESH limit runs out (re-armed from the
 * handler), and attr.sigtrap's SIGTRAP with sig_data on page faults.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "sonde/sonde.h"

/*
 * The simulated event fd is a pipe: unlike /dev/null it supports fasync,
 * so O_ASYNC sticks as on a perf fd.
 */
static int pipe_open(struct sonde_perf_event_attr *a, pid_t pid, int cpu,
		     int group_fd, unsigned long flags)
{
	static int p[2];

	(void)a; (void)pid; (void)cpu; (void)group_fd; (void)flags;
	if (pipe2(p, O_CLOEXEC))
		return -1;
	close(p[1]);
	return p[0];
}

static int fake_fd(void)
{
	struct sonde_sys_ops ops = { .perf_event_open = pipe_open };
	struct sonde_perf_event_attr a = {
		.type = SONDE_PERF_TYPE_SOFTWARE,
		.size = sizeof(a),
		.sample_period = 1000,
	};

	sonde_sys_set_ops(&ops);
	return sonde_event_open(&a, 0, -1, -1, 0);
}

static void test_setup_fcntls(void **state)
{
	SONDE_OPTS(sonde_overflow_signal_opts, o, .signo = SIGRTMIN + 2);
	struct f_owner_ex owner;
	int fd = fake_fd();

	assert_true(fd >= 0);
	assert_int_equal(sonde_overflow_signal__setup(fd, &o), 0);
	assert_int_equal(fcntl(fd, F_GETSIG), SIGRTMIN + 2);
	assert_int_equal(fcntl(fd, F_GETOWN_EX, &owner), 0);
	assert_int_equal(owner.type, F_OWNER_TID);
	assert_int_equal(owner.pid, gettid());
	assert_true(fcntl(fd, F_GETFL) & O_ASYNC);

	/* Defaults: SIGIO to the calling thread. */
	assert_int_equal(sonde_overflow_signal__setup(fd, NULL), 0);
	assert_int_equal(fcntl(fd, F_GETSIG), SIGIO);

	assert_int_equal(sonde_overflow_signal__clear(fd), 0);
	assert_false(fcntl(fd, F_GETFL) & O_ASYNC);
	assert_int_equal(fcntl(fd, F_GETSIG), 0);
	close(fd);
	sonde_sys_set_ops(NULL);
}

static void test_setup_errors(void **state)
{
	SONDE_OPTS(sonde_overflow_signal_opts, kill, .signo = SIGKILL);
	SONDE_OPTS(sonde_overflow_signal_opts, huge, .signo = NSIG);
	struct sonde_overflow_signal_opts small = { .sz = 4 };
	int fd = fake_fd();

	assert_int_equal(sonde_overflow_signal__setup(fd, &kill), -EINVAL);
	assert_int_equal(sonde_overflow_signal__setup(fd, &huge), -EINVAL);
	assert_int_equal(sonde_overflow_signal__setup(fd, &small), -EINVAL);
	assert_int_equal(sonde_overflow_signal__setup(-1, NULL), -EBADF);
	assert_int_equal(sonde_overflow_signal__clear(-1), -EBADF);
	close(fd);
	assert_int_equal(sonde_overflow_signal__setup(fd, NULL), -EBADF);
	sonde_sys_set_ops(NULL);
}

static void test_decode(void **state)
{
	struct sonde_overflow_info in;
	siginfo_t si;
	char *perf;
	unsigned long data = 0xfeedbeefUL;
	uint32_t type = SONDE_PERF_TYPE_BREAKPOINT, flags = 0;

	memset(&si, 0, sizeof(si));
	si.si_signo = SIGRTMIN;
	si.si_code = POLL_IN;
	si.si_fd = 42;
	assert_int_equal(sonde_overflow_info__decode(&si, &in), 1);
	assert_int_equal(in.fd, 42);
	assert_int_equal(in.code, POLL_IN);
	assert_false(in.sigtrap);

	si.si_code = POLL_HUP;
	assert_int_equal(sonde_overflow_info__decode(&si, &in), 1);
	assert_int_equal(in.code, POLL_HUP);

	/* SIGCHLD's CLD_EXITED has POLL_IN's value: not ours. */
	si.si_signo = SIGCHLD;
	si.si_code = CLD_EXITED;
	assert_int_equal(sonde_overflow_info__decode(&si, &in), 0);

	/* TRAP_PERF: data, type, flags right after si_addr. */
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGTRAP;
	si.si_code = SONDE_TRAP_PERF;
	si.si_addr = (void *)0x1234;
	perf = (char *)&si.si_addr + sizeof(void *);
	memcpy(perf, &data, sizeof(data));
	memcpy(perf + sizeof(data), &type, 4);
	memcpy(perf + sizeof(data) + 4, &flags, 4);
	assert_int_equal(sonde_overflow_info__decode(&si, &in), 1);
	assert_true(in.sigtrap);
	assert_int_equal(in.sig_data, 0xfeedbeef);
	assert_int_equal(in.perf_type, SONDE_PERF_TYPE_BREAKPOINT);
	assert_int_equal(in.addr, 0x1234);
	assert_int_equal(in.fd, -1);

	si.si_code = 1; /* TRAP_BRKPT: a debugger's, not perf's */
	assert_int_equal(sonde_overflow_info__decode(&si, &in), 0);
	assert_int_equal(sonde_overflow_info__decode(NULL, &in), -EINVAL);
}

/* ---- real kernel ---- */

static volatile sig_atomic_t n_in, n_hup, n_bad, n_trap;
static volatile int sig_fd = -1;
static volatile bool rearm;
static struct sonde_overflow_info last_trap;

static void on_overflow(int sig, siginfo_t *si, void *uc)
{
	struct sonde_overflow_info in;
	int saved = errno;

	(void)sig; (void)uc;
	if (sonde_overflow_info__decode(si, &in) != 1 || in.fd != sig_fd) {
		n_bad++;
	} else if (in.code == POLL_HUP) {
		n_hup++;
		if (rearm)
			sonde_perf_event_ioc_refresh(in.fd, 1);
	} else if (in.code == POLL_IN) {
		n_in++;
	} else {
		n_bad++;
	}
	errno = saved;
}

static volatile uintptr_t trap_target;
static volatile sig_atomic_t n_trap_at_target, n_trap_bad_data;

/* Other faults may trap too (a sanitizer's shadow pages): count apart. */
static void on_trap(int sig, siginfo_t *si, void *uc)
{
	struct sonde_overflow_info in;

	(void)sig; (void)uc;
	if (sonde_overflow_info__decode(si, &in) == 1 && in.sigtrap) {
		n_trap++;
		if (in.sig_data != 0x5eed || in.code != SONDE_TRAP_PERF)
			n_trap_bad_data++;
		if (in.addr == trap_target) {
			last_trap = in;
			n_trap_at_target++;
		}
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Where the busy loops write, so no compiler drops them. */
static volatile unsigned long spin_sink;

/* Spin (on CPU, so cpu-clock overflows) until @want signals or 5 s. */
static void spin_until(volatile sig_atomic_t *cnt, int want)
{
	double end = now() + 5;

	while (*cnt < want && now() < end)
		for (int i = 0; i < 100000; i++)
			spin_sink += (unsigned long)i;
}

static int open_clock(bool disabled)
{
	struct sonde_perf_event_attr a = {
		.type = SONDE_PERF_TYPE_SOFTWARE,
		.config = SONDE_PERF_COUNT_SW_CPU_CLOCK,
		.size = sizeof(a),
		.sample_period = 200000, /* ns of CPU time */
		.sample_type = SONDE_PERF_SAMPLE_IP,
		.wakeup_events = 1,
		.disabled = disabled,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};

	return sonde_event_open(&a, 0, -1, -1, 0);
}

static void install(int sig, void (*fn)(int, siginfo_t *, void *))
{
	struct sigaction sa = { .sa_sigaction = fn, .sa_flags = SA_SIGINFO };

	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(sig, &sa, NULL), 0);
}

static void test_real_poll_in(void **state)
{
	SONDE_OPTS(sonde_overflow_signal_opts, o, .signo = SIGRTMIN + 1);
	struct sonde_ring *ring;
	int fd = open_clock(true);

	if (fd < 0)
		skip();
	/* Wakeups need a ring to wake up: sampling events write there. */
	ring = sonde_ring__new(fd, NULL);
	assert_non_null(ring);
	install(SIGRTMIN + 1, on_overflow);
	n_in = n_hup = n_bad = 0;
	sig_fd = fd;
	assert_int_equal(sonde_overflow_signal__setup(fd, &o), 0);
	assert_int_equal(sonde_perf_event_ioc_enable(fd, false), 0);
	spin_until(&n_in, 5);
	assert_int_equal(sonde_perf_event_ioc_disable(fd, false), 0);
	assert_true(n_in >= 5);
	assert_int_equal(n_hup, 0);
	assert_int_equal(n_bad, 0);
	sonde_ring__free(ring);
	close(fd);
	signal(SIGRTMIN + 1, SIG_DFL);
}

static void test_real_refresh_hup(void **state)
{
	SONDE_OPTS(sonde_overflow_signal_opts, o, .signo = SIGRTMIN + 1);
	struct sonde_ring *ring;
	uint64_t before;
	int fd = open_clock(true);

	if (fd < 0)
		skip();
	ring = sonde_ring__new(fd, NULL);
	assert_non_null(ring);
	install(SIGRTMIN + 1, on_overflow);
	n_in = n_hup = n_bad = 0;
	sig_fd = fd;
	rearm = true;
	assert_int_equal(sonde_overflow_signal__setup(fd, &o), 0);
	/* REFRESH enables the event for one overflow at a time. */
	assert_int_equal(sonde_perf_event_ioc_refresh(fd, 1), 0);
	spin_until(&n_hup, 5);
	rearm = false;
	assert_true(n_hup >= 5);
	assert_int_equal(n_bad, 0);

	/* Not re-armed: after the next HUP the event stays disabled. */
	spin_until(&n_hup, n_hup + 1);
	assert_int_equal(read(fd, &before, sizeof(before)), 8);
	{
		uint64_t after;

		for (long i = 0; i < 20000000; i++)
			spin_sink += (unsigned long)i;
		assert_int_equal(read(fd, &after, sizeof(after)), 8);
		assert_int_equal(after, before);
	}
	assert_int_equal(sonde_perf_event_ioc_refresh(fd, 0), -EINVAL);
	sonde_ring__free(ring);
	close(fd);
	signal(SIGRTMIN + 1, SIG_DFL);
}

/* The faulting write alone: no sanitizer shadow access around it. */
__attribute__((noinline, no_sanitize("address", "undefined")))
static void touch(volatile char *p)
{
	p[0] = 1;
}

static void test_real_sigtrap(void **state)
{
	struct sonde_perf_event_attr a = {
		.type = SONDE_PERF_TYPE_SOFTWARE,
		.config = SONDE_PERF_COUNT_SW_PAGE_FAULTS,
		.size = sizeof(a),
		.sample_period = 1,
		.sample_type = SONDE_PERF_SAMPLE_ADDR,
		.exclude_kernel = 1,
		.sigtrap = 1,
		.remove_on_exec = 1,
		.sig_data = 0x5eed,
	};
	long page = sysconf(_SC_PAGESIZE);
	char *p;
	int fd;

	fd = sonde_event_open(&a, 0, -1, -1, 0);
	if (fd == -EINVAL || fd == -E2BIG || fd == -EOPNOTSUPP) {
		print_message("skip: kernel lacks attr.sigtrap (%d)\n", fd);
		skip();
	}
	assert_true(fd >= 0);
	install(SIGTRAP, on_trap);
	n_trap = n_trap_at_target = n_trap_bad_data = 0;
	p = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(p != MAP_FAILED);
	trap_target = (uintptr_t)p;
	touch(p); /* one fault there, one synchronous SIGTRAP */
	assert_int_equal(n_trap_at_target, 1);
	assert_true(n_trap >= 1);
	assert_int_equal(n_trap_bad_data, 0);
	assert_int_equal(last_trap.sig_data, 0x5eed);
	assert_int_equal(last_trap.code, SONDE_TRAP_PERF);
	assert_int_equal(last_trap.addr, (uint64_t)(uintptr_t)p);
	/* si_perf_type is 5.14+; zero from an older kernel. */
	assert_true(last_trap.perf_type == SONDE_PERF_TYPE_SOFTWARE ||
		    last_trap.perf_type == 0);
	munmap(p, (size_t)page);
	close(fd);
	signal(SIGTRAP, SIG_DFL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_setup_fcntls),
		cmocka_unit_test(test_setup_errors),
		cmocka_unit_test(test_decode),
		cmocka_unit_test(test_real_poll_in),
		cmocka_unit_test(test_real_refresh_hup),
		cmocka_unit_test(test_real_sigtrap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
