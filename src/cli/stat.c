// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde stat: count events for a command, a process, a thread, CPUs or a
 * cgroup, and print the counts with perf stat's layout (plain, CSV or
 * JSON). This file owns the options, their checks and the run loop; the
 * other stat_*.c files each do one part (see stat_cli.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include "sonde/evlist.h"
#include "evname.h"
#include "builtin.h"
#include "options.h"
#include "stat_cli.h"

static const char *const stat_usage[] = {
	"sonde stat [<options>] [--] <command> [<args>]",
	"sonde stat [<options>] -p PID | -t TID | -a [-C CPUS] | -G CGROUP "
	"[-- sleep N]",
	NULL,
};

static struct stat_opts opts = { .run_count = 1, .big_num = true };

static int add_event(const struct option *opt, const char *arg, bool unset)
{
	struct stat_opts *o = opt->value;

	if (unset) {
		o->nr_specs = 0;
		return 0;
	}
	if (o->nr_specs >= (int)(sizeof(o->event_specs) /
				 sizeof(o->event_specs[0]))) {
		fprintf(stderr, "sonde stat: too many -e options (at most %zu; "
			"list several events in one -e)\n",
			sizeof(o->event_specs) / sizeof(o->event_specs[0]));
		return -1;
	}
	o->event_filters[o->nr_specs] = NULL;
	o->event_specs[o->nr_specs++] = arg;
	return 0;
}

/* --filter EXPR: the tracepoint filter of the -e before it (as perf). */
static int add_filter(const struct option *opt, const char *arg, bool unset)
{
	struct stat_opts *o = opt->value;
	char **f, *joined;

	if (unset || !o->nr_specs) {
		fprintf(stderr, "sonde stat: --filter option should follow a "
			"-e tracepoint option\n");
		return -1;
	}
	f = &o->event_filters[o->nr_specs - 1];
	/* A second --filter narrows the first, as perf appends with &&. */
	if (*f ? asprintf(&joined, "(%s) && (%s)", *f, arg) < 0 :
		 !(joined = strdup(arg))) {
		fprintf(stderr, "sonde stat: out of memory\n");
		return -1;
	}
	free(*f);
	*f = joined;
	return 0;
}

static bool per_cpu;

static const struct option stat_options[] = {
	OPT_GROUP("Events"),
	OPT_CALLBACK('e', "event", &opts, "<event>",
		     "event to count (perf's spec syntax, groups as '{a,b}')",
		     add_event),
	OPT_CALLBACK(0, "filter", &opts, "<expr>",
		     "tracepoint filter for the -e before it (\"prev_pid != 0\")",
		     add_filter),
	OPT_BOOLEAN(0, "no-scale", &opts.no_scale,
		    "do not scale counts of multiplexed events"),
	OPT_INCR('d', "detailed", &opts.detailed,
		 "add cache events: -d L1/LLC, -dd L1i/TLB, -ddd prefetch"),
	OPT_BOOLEAN('i', "no-inherit", &opts.no_inherit,
		    "do not count the children of the target"),
	OPT_GROUP("Target"),
	OPT_STRING('p', "pid", &opts.pid, "<pid>", "count an existing process"),
	OPT_STRING('t', "tid", &opts.tid, "<tid>", "count an existing thread"),
	OPT_BOOLEAN('a', "all-cpus", &opts.system_wide,
		    "count on every CPU (system-wide)"),
	OPT_STRING('C', "cpu", &opts.cpu_list, "<cpus>",
		   "count on these CPUs only (\"0-3,5\")"),
	OPT_STRING('G', "cgroup", &opts.cgroup, "<cgroup>",
		   "count the tasks of a cgroup (name or path)"),
	OPT_GROUP("Aggregation"),
	OPT_BOOLEAN('A', "no-aggr", &opts.no_aggr, "one row per CPU"),
	OPT_BOOLEAN(0, "per-cpu", &per_cpu, "one row per CPU (as -A)"),
	OPT_BOOLEAN(0, "per-core", &opts.per_core, "one row per core"),
	OPT_BOOLEAN(0, "per-die", &opts.per_die, "one row per die"),
	OPT_BOOLEAN(0, "per-socket", &opts.per_socket, "one row per socket"),
	OPT_BOOLEAN(0, "per-node", &opts.per_node, "one row per NUMA node"),
	OPT_BOOLEAN(0, "per-thread", &opts.per_thread, "one row per thread"),
	OPT_GROUP("Timing"),
	OPT_INTEGER('r', "repeat", &opts.run_count, "<n>",
		    "run the command n times; print means and noise"),
	OPT_UINTEGER('I', "interval-print", &opts.interval_ms, "<ms>",
		     "print the counts every <ms> milliseconds"),
	OPT_UINTEGER(0, "interval-count", &opts.interval_count, "<n>",
		     "print this many intervals, then stop printing"),
	OPT_INTEGER('D', "delay", &opts.delay_ms, "<ms>",
		    "start counting <ms> milliseconds after the command starts"),
	OPT_GROUP("Output"),
	OPT_STRING('o', "output", &opts.output, "<file>",
		   "write the counts to <file> instead of stderr"),
	OPT_STRING('x', "field-separator", &opts.csv_sep, "<sep>",
		   "CSV output with this separator"),
	OPT_BOOLEAN('j', "json", &opts.json,
		    "JSON output: one object per line"),
	OPT_BOOLEAN('B', "big-num", &opts.big_num,
		    "group digits as the locale does (default; --no-big-num)"),
	OPT_END(),
};

static int usage_error(const char *msg)
{
	fprintf(stderr, "sonde stat: %s\n", msg);
	return 129;
}

/* Checks the options against each other; 0 or the exit status. */
static int check_options(struct stat_opts *o)
{
	int modes;

	if (per_cpu)
		o->no_aggr = true;
	if (o->cgroup)
		o->system_wide = true; /* cgroups are counted per CPU */
	if (o->run_count < 1)
		return usage_error("-r/--repeat needs a count of at least 1");
	if (o->interval_ms && o->interval_ms < 10)
		return usage_error("-I/--interval-print must be at least 10 ms");
	if (o->interval_count && !o->interval_ms)
		return usage_error("--interval-count needs -I/--interval-print");
	if (o->interval_ms && o->run_count > 1)
		return usage_error("-I/--interval-print cannot be used with -r");
	if (o->delay_ms < 0)
		return usage_error("-D/--delay takes milliseconds >= 0");
	if (o->csv_sep && o->json)
		return usage_error("-x and -j/--json are exclusive: pick one "
				   "output format");
	if (o->csv_sep && !o->csv_sep[0])
		return usage_error("-x needs a non-empty separator");
	if (o->pid && o->tid)
		return usage_error("-p and -t are exclusive");
	if ((o->pid || o->tid) && (o->system_wide || o->cpu_list))
		return usage_error("-p/-t count a task; -a/-C/-G count CPUs: "
				   "pick one target");
	if (o->run_count > 1 && !o->argc)
		return usage_error("-r/--repeat needs a command to repeat");
	if (!o->argc && !o->pid && !o->tid && !o->system_wide && !o->cpu_list)
		return usage_error("nothing to count: give a command, or "
				   "-p PID, -t TID, -a, -C CPUS or -G CGROUP");
	if (o->delay_ms && !o->argc)
		return usage_error("-D/--delay needs a command to delay");
	modes = o->no_aggr + o->per_core + o->per_die + o->per_socket +
		o->per_node + o->per_thread;
	if (modes > 1)
		return usage_error("pick one of -A/--per-cpu, --per-core, "
				   "--per-die, --per-socket, --per-node, "
				   "--per-thread");
	if ((o->no_aggr || o->per_core || o->per_die || o->per_socket ||
	     o->per_node) && !o->system_wide && !o->cpu_list)
		return usage_error("-A/--per-cpu/--per-core/--per-die/"
				   "--per-socket/--per-node need CPUs to count "
				   "on: add -a or -C");
	if (o->per_thread && (o->system_wide || o->cpu_list))
		return usage_error("--per-thread counts tasks: use it with -p, "
				   "-t or a command, not -a/-C/-G");
	o->mode = o->no_aggr ? SONDE_STAT_AGGR_NONE :
		  o->per_core ? SONDE_STAT_AGGR_CORE :
		  o->per_die ? SONDE_STAT_AGGR_DIE :
		  o->per_socket ? SONDE_STAT_AGGR_SOCKET :
		  o->per_node ? SONDE_STAT_AGGR_NODE :
		  o->per_thread ? SONDE_STAT_AGGR_THREAD : SONDE_STAT_AGGR_GLOBAL;
	return 0;
}

bool stat_lib_warned;

/*
 * The library's warnings read as ours: "sonde stat: CPU 2 is not online"
 * rather than a second, "libsonde: "-prefixed voice.
 */
__attribute__((format(printf, 2, 0)))
static int lib_print(enum sonde_print_level level, const char *fmt,
		     va_list ap)
{
	char buf[1024];
	const char *msg = buf;

	if (level != SONDE_WARN)
		return 0;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	if (!strncmp(msg, "libsonde: ", 10))
		msg += 10;
	stat_lib_warned = true;
	return fprintf(stderr, "sonde stat: %s", msg);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double tv_s(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec * 1e-6;
}

/* Everything one run needs, and what the interval printer reads. */
struct run {
	const struct stat_opts *o;
	struct sonde_evlist *list;
	struct stat_events ev;
	struct sonde_stat_reader *rd;
	struct stat_report *rep;
	struct sonde_stat_count *cells;
	double t0;
	unsigned int ticks;
};

static unsigned int read_flags(const struct stat_opts *o, bool delta)
{
	return (delta ? SONDE_STAT_READ_DELTA : 0) |
	       (o->no_scale ? SONDE_STAT_READ_NO_SCALE : 0);
}

static bool tick(void *arg)
{
	struct run *r = arg;

	if (sonde_stat_reader__read(r->rd, r->list, read_flags(r->o, true),
				    r->cells) == 0)
		stat_report_interval(r->rep, &r->ev, r->rd, r->cells,
				     now_s() - r->t0,
				     r->o->interval_ms * 1e6);
	r->ticks++;
	return !r->o->interval_count || r->ticks < r->o->interval_count;
}

/* What the runs of -r add up to; the last run's events label the rows. */
struct acc {
	struct stat_events ev;
	struct sonde_stat_reader *rd;
	struct stat_stats *val;
	struct sonde_stat_count *last;
	int ncells;
	struct stat_stats wall;
	struct rusage ru;
	int status;
	bool have_status;
};

static void acc_free(struct acc *a)
{
	stat_events_free(&a->ev);
	sonde_stat_reader__free(a->rd);
	free(a->val);
	free(a->last);
}

static void add_tv(struct timeval *sum, const struct timeval *v)
{
	sum->tv_sec += v->tv_sec;
	sum->tv_usec += v->tv_usec;
	if (sum->tv_usec >= 1000000) {
		sum->tv_sec++;
		sum->tv_usec -= 1000000;
	}
}

/*
 * Warns once for every -e event that cannot be counted here, and why; not
 * in the machine-readable formats, whose stream carries only counts.
 */
static void warn_unsupported(const struct stat_opts *o, struct run *r)
{
	if (o->json || o->csv_sep)
		return;
	for (int e = 0; e < r->ev.nr; e++) {
		struct sonde_evsel *es = sonde_evlist__evsel(r->list, e);
		const char *why = sonde_evsel__open_error(es);

		if (!r->ev.evs[e].implicit && !sonde_evsel__supported(es))
			fprintf(stderr, "sonde stat: %s: %s\n",
				r->ev.evs[e].name, why ? why : "not supported");
	}
}

static bool user_only_warned;

/*
 * After the paranoid fallback, label the events as perf does
 * (task-clock:u; those that did not open too, as perf's were user-only
 * from the start) and say it once, in one line, for all of them.
 */
static void mark_user_only(struct run *r, const bool *kern, int nr)
{
	bool fell = false;

	for (int e = 0; e < nr; e++) {
		struct sonde_evsel *es = sonde_evlist__evsel(r->list, e);

		if (kern[e] && sonde_evsel__supported(es) &&
		    sonde_evsel__attr(es)->exclude_kernel)
			fell = true;
	}
	if (!fell)
		return;
	if (!user_only_warned)
		fprintf(stderr, "sonde stat: kernel.perf_event_paranoid forbids counting kernel code: counting user space only (:u)\n");
	user_only_warned = true; /* once, not on every -r run */
	for (int e = 0; e < nr && e < r->ev.nr; e++) {
		struct stat_ev *se = &r->ev.evs[e];
		char *n;

		/* A kernel-only event (:k) has no user part to fall back to. */
		if (!kern[e] || !se->name ||
		    sonde_evsel__attr(sonde_evlist__evsel(r->list, e))->exclude_user)
			continue;
		n = evname_with_u(se->name);
		if (!n)
			continue;
		free(se->name);
		se->name = n;
		se->ev.name = n;
	}
}

/* Opens the events on the target; 0 or the exit status (error printed). */
static int setup(const struct stat_opts *o, struct run *r,
		 struct stat_wait *w)
{
	SONDE_OPTS(sonde_evlist_open_opts, oo, .keep_unsupported = true,
		   .no_inherit = o->no_inherit, .user_fallback = true);
	bool *kern;
	int err, nr;

	r->list = sonde_evlist__new();
	if (!r->list) {
		fprintf(stderr, "sonde stat: out of memory\n");
		return 1;
	}
	if (stat_events_build(o, r->list, &r->ev))
		return 1;
	if (o->argc) {
		w->child = stat_workload_prepare(o, r->list);
		if (w->child < 0)
			return 1;
	}
	if (stat_target_setup(o, r->list, w->watch, &w->nr_watch))
		return 1;
	/* Which events count kernel code before open: perf_event_paranoid may
	 * make the library fall back to user space only (like perf). */
	nr = sonde_evlist__nr(r->list);
	kern = calloc((size_t)nr + 1, sizeof(*kern));
	if (!kern) {
		fprintf(stderr, "sonde stat: out of memory\n");
		return 1;
	}
	for (int e = 0; e < nr; e++)
		kern[e] = !sonde_evsel__attr(sonde_evlist__evsel(r->list, e))->exclude_kernel;
	err = sonde_evlist__open(r->list, &oo);
	if (err) {
		bool said = false;

		/*
		 * Each event's own reason: the setting or capability missing;
		 * only the cause that stopped the open, and each reason once
		 * (a seccomp filter refuses every event alike).
		 */
		for (int e = 0; e < nr; e++) {
			struct sonde_evsel *es = sonde_evlist__evsel(r->list, e);
			const char *why = sonde_evsel__open_error(es);
			int same = 0;
			bool dup = false;

			if (!why || !*why || sonde_evsel__open_errno(es) != -err)
				continue;
			for (int p = 0; p < nr && !dup; p++) {
				struct sonde_evsel *ps = sonde_evlist__evsel(r->list, p);
				const char *pw = sonde_evsel__open_error(ps);

				if (p == e || !pw || sonde_evsel__open_errno(ps) != -err ||
				    strcmp(pw, why))
					continue;
				if (p < e)
					dup = true;
				else
					same++;
			}
			if (dup)
				continue;
			if (same)
				fprintf(stderr, "sonde stat: cannot open '%s' and %d more event%s: %s\n",
					sonde_evsel__name(es), same, same > 1 ? "s" : "", why);
			else
				fprintf(stderr, "sonde stat: cannot open '%s': %s\n",
					sonde_evsel__name(es), why);
			said = true;
		}
		if (!said)
			fprintf(stderr, "sonde stat: cannot open the events: %s\n",
				strerror(-err));
		free(kern);
		return 1;
	}
	mark_user_only(r, kern, nr);
	free(kern);
	if (stat_events_set_filters(&r->ev, r->list))
		return 1;
	r->rd = sonde_stat_reader__new(r->list, o->mode, r->ev.nr);
	if (!r->rd) {
		fprintf(stderr, "sonde stat: out of memory\n");
		return 1;
	}
	r->cells = calloc((size_t)(sonde_stat_reader__nr_aggr(r->rd) * r->ev.nr) + 1,
			  sizeof(*r->cells));
	if (!r->cells) {
		fprintf(stderr, "sonde stat: out of memory\n");
		return 1;
	}
	return 0;
}

/* Starts counting: the command's exec, then CPUs and other tasks. */
static int start(const struct stat_opts *o, struct run *r,
		 struct stat_wait *w)
{
	int err;

	/*
	 * Events on CPUs, cgroups or another task start now, before a
	 * command that only times the count; the command's own events start
	 * at its exec (enable_on_exec).
	 */
	if (o->pid || o->tid || o->system_wide || o->cpu_list)
		sonde_evlist__enable(r->list);
	r->t0 = now_s();
	if (o->argc) {
		err = stat_workload_start(o, r->list);
		if (err) {
			waitpid(w->child, NULL, 0);
			w->child = -1;
			return err == -ENOENT ? 127 : 126;
		}
	}
	if (o->delay_ms) {
		struct timespec d = { o->delay_ms / 1000,
				      (long)(o->delay_ms % 1000) * 1000000 };

		while (nanosleep(&d, &d) && errno == EINTR)
			;
		sonde_evlist__reset(r->list);
		r->t0 = now_s();
	}
	return 0;
}

/* Folds this run's counts into @acc, which takes the run's rows. */
static void collect(const struct stat_opts *o, struct run *r,
		    struct acc *acc)
{
	int n = sonde_stat_reader__nr_aggr(r->rd) * r->ev.nr;

	if (!acc->val) {
		acc->val = calloc((size_t)n + 1, sizeof(*acc->val));
		acc->last = calloc((size_t)n + 1, sizeof(*acc->last));
		acc->ncells = n;
	}
	if (acc->val && acc->last && n == acc->ncells &&
	    sonde_stat_reader__read(r->rd, r->list, read_flags(o, false),
				    r->cells) == 0) {
		for (int i = 0; i < n; i++) {
			if (r->cells[i].status == SONDE_STAT_OK)
				stat_stats_update(&acc->val[i],
						  r->cells[i].val);
			acc->last[i] = r->cells[i];
		}
	}
	stat_events_free(&acc->ev);
	sonde_stat_reader__free(acc->rd);
	acc->ev = r->ev;
	acc->rd = r->rd;
	memset(&r->ev, 0, sizeof(r->ev));
	r->rd = NULL;
}

/* One run. Returns 0, or the exit status of a failure (error printed). */
static int run_once(const struct stat_opts *o, struct stat_report *rep,
		    struct acc *acc, bool first, int *stop_signal)
{
	struct run r = { .o = o, .rep = rep };
	struct rusage ru = { 0 };
	struct stat_wait w = { .child = -1, .ru = &ru };
	int ret;
	double t1;

	ret = setup(o, &r, &w);
	if (ret)
		goto out;
	if (first)
		warn_unsupported(o, &r);
	stat_signals_block();
	ret = start(o, &r, &w);
	if (ret) {
		stat_signals_restore();
		goto out;
	}
	stat_wait(&w, o->interval_ms, tick, &r);
	t1 = now_s();
	sonde_evlist__disable(r.list);
	stat_signals_restore();
	*stop_signal = w.stop_signal;

	if (o->interval_ms) {
		/* The last, partial interval, as perf prints it. */
		if (!o->interval_count || r.ticks < o->interval_count)
			tick(&r);
	} else {
		collect(o, &r, acc);
	}
	stat_stats_update(&acc->wall, t1 - r.t0);
	if (w.child > 0 && w.child_done) {
		acc->status = w.status;
		acc->have_status = true;
		add_tv(&acc->ru.ru_utime, &ru.ru_utime);
		add_tv(&acc->ru.ru_stime, &ru.ru_stime);
	}
out:
	sonde_stat_reader__free(r.rd);
	stat_events_free(&r.ev);
	free(r.cells);
	sonde_evlist__free(r.list);
	return ret;
}

/* The means of -r, with each cell's noise. */
static void finish_counts(const struct acc *acc, struct sonde_stat_count *out)
{
	for (int i = 0; i < acc->ncells; i++) {
		out[i] = acc->last[i];
		if (acc->val[i].n > 0 && out[i].status == SONDE_STAT_OK) {
			out[i].val = acc->val[i].mean;
			out[i].noise_pct = stat_stats_rel_pct(&acc->val[i]);
		}
	}
}

static int exit_status(const struct acc *acc, int stop_signal)
{
	if (acc->have_status) {
		if (WIFEXITED(acc->status))
			return WEXITSTATUS(acc->status);
		if (WIFSIGNALED(acc->status))
			return 128 + WTERMSIG(acc->status);
	}
	/* ^C is how counting without a command ends: a success. */
	(void)stop_signal;
	return 0;
}

int cmd_stat(int argc, const char **argv)
{
	struct stat_report rep;
	struct acc acc = { 0 };
	int ret = 0, stop = 0, runs = 0;
	FILE *out = stderr;

	opts.argc = parse_options(argc, argv, stat_options, stat_usage,
				  PARSE_OPT_STOP_AT_NON_OPTION);
	opts.argv = argv;
	ret = check_options(&opts);
	if (ret) {
		if (ret == 129)
			usage_with_options_fp(stat_usage, stat_options, false);
		return ret;
	}
	if (opts.output) {
		out = fopen(opts.output, "w");
		if (!out) {
			fprintf(stderr, "sonde stat: cannot write '%s': %s\n",
				opts.output, strerror(errno));
			return 1;
		}
	}
	{
		/* events x CPUs x threads fds: use the hard limit, as perf
		 * and sonde record do; past it the open fails and says so. */
		struct rlimit rl;

		if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
			rl.rlim_cur = rl.rlim_max;
			setrlimit(RLIMIT_NOFILE, &rl);
		}
	}
	stat_report_init(&rep, out, &opts);
	sonde_set_print(lib_print);
	for (runs = 0; runs < opts.run_count && !stop; runs++) {
		ret = run_once(&opts, &rep, &acc, runs == 0, &stop);
		if (ret)
			break;
	}
	if (!ret && !opts.interval_ms && acc.val) {
		struct sonde_stat_count *cells = calloc((size_t)acc.ncells + 1,
						  sizeof(*cells));
		struct stat_footer f = {
			.run_count = opts.run_count,
			.wall_mean_s = acc.wall.mean,
			.wall_stddev_s = stat_stats_stddev_mean(&acc.wall),
			.show_rusage = opts.argc && !opts.pid && !opts.tid &&
				       !opts.system_wide && !opts.cpu_list,
			.user_s = tv_s(&acc.ru.ru_utime),
			.sys_s = tv_s(&acc.ru.ru_stime),
		};

		if (cells) {
			/* A ^C'd -r prints what the finished runs counted. */
			rep.cfg.run_count = runs;
			opts.run_count = runs;
			f.run_count = runs;
			finish_counts(&acc, cells);
			stat_report_header(&rep);
			stat_report_table(&rep, &acc.ev, acc.rd, cells,
					  acc.wall.mean * 1e9);
			stat_report_footer(&rep, &f);
			free(cells);
		}
	}
	if (!ret)
		ret = exit_status(&acc, stop);
	acc_free(&acc);
	/* An earlier flush may have failed already: ferror() remembers. */
	if (out != stderr && (ferror(out) | fclose(out))) {
		fprintf(stderr, "sonde stat: cannot write '%s': %s\n",
			opts.output, errno ? strerror(errno) : "write error");
		if (!ret)
			ret = 1;
	}
	return ret;
}
