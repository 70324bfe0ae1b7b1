// SPDX-License-Identifier: LGPL-2.1-only
/* The load progress bar of sonde report (see progress.h). */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "sonde/common.h"
#include "progress.h"

#define BAR_WIDTH 20
#define MIN_COLUMNS 40

/* Library messages may come from loader threads: one writer at a time. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct progress *shown;
static sonde_print_fn_t lib_print;

static void erase_locked(struct progress *p)
{
	if (p->pct >= 0) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		p->pct = -1;
	}
}

/* Warnings must not be glued to the bar: take it off the line first. */
__attribute__((format(printf, 2, 0)))
static int print_hook(enum sonde_print_level level, const char *fmt, va_list ap)
{
	int ret = 0;

	pthread_mutex_lock(&lock);
	if (shown)
		erase_locked(shown);
	if (lib_print)
		ret = lib_print(level, fmt, ap);
	pthread_mutex_unlock(&lock);
	return ret;
}

void progress_start(struct progress *p, const char *title, uint64_t total,
		    bool want)
{
	struct winsize ws;

	p->title = title;
	p->total = total;
	p->pct = -1;
	p->on = want && total && isatty(STDERR_FILENO) &&
		(ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) || !ws.ws_col ||
		 ws.ws_col >= MIN_COLUMNS);
	if (!p->on)
		return;
	pthread_mutex_lock(&lock);
	shown = p;
	lib_print = sonde_set_print(print_hook);
	pthread_mutex_unlock(&lock);
}

void progress_update(struct progress *p, uint64_t done)
{
	int pct, bars;

	if (!p->on)
		return;
	pct = done >= p->total ? 100 : (int)(done * 100 / p->total);
	if (pct == p->pct)
		return;
	bars = pct * BAR_WIDTH / 100;
	pthread_mutex_lock(&lock);
	fprintf(stderr, "\r%s [%.*s%*s] %3d%%", p->title, bars,
		"####################", BAR_WIDTH - bars, "", pct);
	fflush(stderr);
	p->pct = pct;
	pthread_mutex_unlock(&lock);
}

void progress_finish(struct progress *p)
{
	if (!p->on)
		return;
	pthread_mutex_lock(&lock);
	erase_locked(p);
	sonde_set_print(lib_print);
	shown = NULL;
	p->on = false;
	pthread_mutex_unlock(&lock);
}
