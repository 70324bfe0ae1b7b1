// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Self-sampling with overflow signals, as perf_event_open(2) describes it
 * under "Overflow handling": a software event (cpu-clock) with a sample
 * period of N ns, a ring buffer, a signal on every overflow (O_ASYNC,
 * F_SETSIG, F_SETOWN_EX), and an overflow limit of one set with
 * PERF_EVENT_IOC_REFRESH so that each overflow disables the event and sends
 * POLL_HUP; the handler re-arms it with REFRESH. The samples are read from
 * the ring after the handler, in the main loop, and there must be exactly
 * one per signal. Exits 77 when the kernel refuses the event.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sonde/sonde.h>

#define PERIOD_NS 500000 /* one overflow per 0.5 ms of CPU time */
#define WANT 50

static volatile sig_atomic_t signals, hups, strays;
static volatile int event_fd = -1;
static volatile unsigned long sink;

static void on_overflow(int sig, siginfo_t *si, void *uc)
{
	struct sonde_overflow_info in;
	int saved = errno;

	(void)sig; (void)uc;
	if (sonde_overflow_info__decode(si, &in) != 1 || in.fd != event_fd) {
		strays++;
	} else {
		signals++;
		if (in.code == POLL_HUP) {
			/* The limit of one overflow is used up: re-arm. */
			hups++;
			sonde_perf_event_ioc_refresh(in.fd, 1);
		}
	}
	errno = saved;
}

static unsigned long drain(struct sonde_ring *ring)
{
	const struct sonde_perf_event_header *ev;
	unsigned long n = 0;

	sonde_ring__read_init(ring);
	while (sonde_ring__read_event(ring, &ev) == 1)
		n += ev->type == SONDE_PERF_RECORD_SAMPLE;
	sonde_ring__read_done(ring);
	return n;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(void)
{
	struct sonde_perf_event_attr attr = {
		.size = sizeof(attr),
		.type = SONDE_PERF_TYPE_SOFTWARE,
		.config = SONDE_PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = PERIOD_NS,
		.sample_type = SONDE_PERF_SAMPLE_IP | SONDE_PERF_SAMPLE_TID,
		.wakeup_events = 1, /* a wakeup, hence a signal, per sample */
		.disabled = 1,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	/* A real-time signal queues; the man page's SIGIO would do too here,
	 * as the event stays disabled until the handler re-arms it. */
	SONDE_OPTS(sonde_overflow_signal_opts, sig, .signo = SIGRTMIN);
	struct sigaction sa = { .sa_sigaction = on_overflow,
				.sa_flags = SA_SIGINFO | SA_RESTART };
	struct sonde_ring *ring;
	unsigned long samples = 0;
	double end;
	int fd, err;

	fd = sonde_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0) {
		printf("overflow_signal: cannot open cpu-clock: %s\n",
		       strerror(-fd));
		return 77;
	}
	event_fd = fd;
	ring = sonde_ring__new(fd, NULL);
	if (!ring) {
		perror("overflow_signal: ring");
		return 1;
	}
	sigemptyset(&sa.sa_mask);
	sigaction(SIGRTMIN, &sa, NULL);
	err = sonde_overflow_signal__setup(fd, &sig);
	if (!err)
		err = sonde_perf_event_ioc_refresh(fd, 1); /* enable, limit 1 */
	if (err) {
		fprintf(stderr, "overflow_signal: %s\n", strerror(-err));
		return 1;
	}

	end = now() + 10;
	while (signals < WANT && now() < end) {
		for (int i = 0; i < 100000; i++)
			sink += (unsigned long)i;
		samples += drain(ring);
	}
	sonde_perf_event_ioc_disable(fd, false);
	samples += drain(ring);
	sonde_ring__free(ring);
	close(fd);

	printf("overflow_signal: %d signals (%d POLL_HUP re-armed), %lu samples "
	       "in the ring, %d stray\n", (int)signals, (int)hups, samples,
	       (int)strays);
	if (signals < WANT || strays || hups != signals ||
	    samples != (unsigned long)signals) {
		fprintf(stderr, "overflow_signal: expected %d overflows, one "
			"POLL_HUP signal and one sample each\n", WANT);
		return 1;
	}
	return 0;
}
