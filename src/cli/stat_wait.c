// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The wait of `sonde stat`: until the workload ends, the watched task goes,
 * or SIGINT/SIGTERM arrives, printing intervals on the way. The three
 * signals are blocked and taken with sigtimedwait(), so none is lost
 * between a check and the wait, and no handler runs at a bad moment.
 */
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <sys/wait.h>
#include <time.h>
#include "stat_cli.h"

static sigset_t wait_set, saved_set;
static bool blocked;

void stat_signals_block(void)
{
	sigemptyset(&wait_set);
	sigaddset(&wait_set, SIGINT);
	sigaddset(&wait_set, SIGTERM);
	sigaddset(&wait_set, SIGCHLD);
	/* A closed terminal, or the reader of -I output gone (| head): stop
	 * like ^C rather than die and leave the workload running. */
	sigaddset(&wait_set, SIGHUP);
	sigaddset(&wait_set, SIGPIPE);
	sigprocmask(SIG_BLOCK, &wait_set, &saved_set);
	blocked = true;
}

void stat_signals_restore(void)
{
	if (blocked)
		sigprocmask(SIG_SETMASK, &saved_set, NULL);
	blocked = false;
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static bool reap(struct stat_wait *w, int flags)
{
	pid_t r;

	if (w->child <= 0 || w->child_done)
		return w->child_done;
	do {
		r = wait4(w->child, &w->status, flags, w->ru);
	} while (r < 0 && errno == EINTR);
	if (r == w->child || (r < 0 && errno == ECHILD))
		w->child_done = true;
	return w->child_done;
}

/* As perf: counting -p/-t goes on while any of the tasks lives. */
static bool any_alive(const struct stat_wait *w)
{
	for (int i = 0; i < w->nr_watch; i++)
		if (!kill(w->watch[i], 0) || errno != ESRCH)
			return true;
	return false;
}

int stat_wait(struct stat_wait *w, unsigned int interval_ms,
	      bool (*tick)(void *arg), void *arg)
{
	int64_t step = (int64_t)interval_ms * 1000000, next = now_ns() + step;

	for (;;) {
		struct timespec ts, *tsp = NULL;
		int64_t left = -1;
		int sig;

		if (reap(w, WNOHANG))
			return 0;
		if (w->nr_watch && !any_alive(w))
			return 0;
		if (step) {
			left = next - now_ns();
			if (left <= 0) {
				next += step;
				if (tick(arg))
					continue;
				/*
				 * --interval-count reached: without a command
				 * that ends the count; a command is still
				 * waited for, as perf does.
				 */
				if (w->child <= 0)
					return 0;
				step = 0;
				continue;
			}
		}
		/* A gone -p/-t target sends no signal: look now and then. */
		if (w->nr_watch && (left < 0 || left > 100000000))
			left = 100000000;
		if (left >= 0) {
			ts.tv_sec = left / 1000000000;
			ts.tv_nsec = left % 1000000000;
			tsp = &ts;
		}
		sig = sigtimedwait(&wait_set, NULL, tsp);
		if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP ||
		    sig == SIGPIPE) {
			w->stop_signal = sig;
			if (sig == SIGPIPE)
				sig = SIGTERM; /* the workload's own pipes are fine */
			if (w->child > 0 && !w->child_done) {
				/*
				 * Stop the workload too (a terminal's ^C has
				 * already reached it) and wait, so its exit
				 * status is what we return.
				 */
				kill(w->child, sig);
				reap(w, 0);
			}
			return 0;
		}
	}
}
