// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde record: sample a command, processes, threads or the whole system
 * into a perf.data file (or pipe) that Linux perf reads. One ring per CPU
 * shared by every event on that CPU, drained from one poll loop with a
 * FINISHED_ROUND after each pass.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "builtin.h"
#include "options.h"
#include "record_cli.h"

static volatile sig_atomic_t done, child_exited, snapshot_req;

static void on_stop(int sig)
{
	(void)sig;
	done = 1;
}

static void on_child(int sig)
{
	(void)sig;
	child_exited = 1;
}

static void on_usr2(int sig)
{
	(void)sig;
	snapshot_req = 1;
}

static int parse_event_cb(const struct option *opt, const char *arg,
			  bool unset)
{
	struct rec_opts *o = opt->value;

	if (unset)
		return 0;
	/* Reported after the options, with exit 1 and no usage, as stat. */
	if (rec_events_parse(&o->evs, arg))
		o->bad_event = true;
	return 0;
}

/* -j MODE[,MODE...]: perf's branch filter names. */
static int parse_branch_cb(const struct option *opt, const char *arg,
			   bool unset)
{
	struct rec_opts *o = opt->value;
	uint64_t mode;

	if (unset) {
		o->branch_stack = 0;
		return 0;
	}
	if (sonde_branch_sample_type__parse(arg, &mode)) {
		fprintf(stderr, "sonde record: unknown branch filter in '%s' "
			"(any, any_call, any_ret, ind_call, ind_jmp, call, cond, "
			"stack, u, k, hv, in_tx, no_tx, abort_tx, save_type, priv)\n", arg);
		return -1;
	}
	o->branch_stack = mode;
	return 0;
}

/* -k NAME|N: perf's clock names, with or without CLOCK_, any case. */
static int parse_clockid_cb(const struct option *opt, const char *arg,
			    bool unset)
{
	static const struct { const char *name; int id; } clocks[] = {
		{ "monotonic", CLOCK_MONOTONIC }, { "mono", CLOCK_MONOTONIC },
		{ "monotonic_raw", CLOCK_MONOTONIC_RAW },
		{ "raw", CLOCK_MONOTONIC_RAW },
		{ "realtime", CLOCK_REALTIME }, { "real", CLOCK_REALTIME },
		{ "boottime", CLOCK_BOOTTIME }, { "boot", CLOCK_BOOTTIME },
		{ "tai", CLOCK_TAI },
	};
	struct rec_opts *o = opt->value;
	const char *n = arg;
	char *end;
	long id;

	if (unset) {
		o->clockid = -1;
		return 0;
	}
	if (!strncasecmp(n, "CLOCK_", 6))
		n += 6;
	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		if (!strcasecmp(n, clocks[i].name)) {
			o->clockid = clocks[i].id;
			return 0;
		}
	}
	id = strtol(arg, &end, 0);
	if (*arg && !*end && id >= 0 && id < 64) {
		o->clockid = (int)id;
		return 0;
	}
	fprintf(stderr, "sonde record: unknown clock '%s' (monotonic, "
		"monotonic_raw, realtime, boottime, tai, or a number)\n", arg);
	return -1;
}

static int parse_branch_any_cb(const struct option *opt, const char *arg,
			       bool unset)
{
	struct rec_opts *o = opt->value;

	(void)arg;
	o->branch_stack = unset ? 0 : SONDE_PERF_SAMPLE_BRANCH_ANY;
	return 0;
}

/* -S[e][SIZE] / --aux-sample[=SIZE]: checked once the events are known. */
static int parse_snapshot_cb(const struct option *opt, const char *arg,
			     bool unset)
{
	struct rec_opts *o = opt->value;

	o->aux_snapshot = unset ? NULL : arg ? arg : "";
	return 0;
}

static int parse_aux_sample_cb(const struct option *opt, const char *arg,
			       bool unset)
{
	struct rec_opts *o = opt->value;

	o->aux_sample = unset ? NULL : arg ? arg : "";
	return 0;
}

static int parse_filter_cb(const struct option *opt, const char *arg,
			   bool unset)
{
	struct rec_opts *o = opt->value;

	if (unset)
		return 0;
	return rec_events_add_filter(&o->evs, arg) ? -1 : 0;
}

static int read_int_file(const char *path, long *v)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%ld", v) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

static size_t parse_pages(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 0);
	size_t pages;

	switch (*end) {
	case 'K': case 'k': v *= 1024; end++; break;
	case 'M': case 'm': v *= 1024 * 1024; end++; break;
	case 'G': case 'g': v *= 1024ULL * 1024 * 1024; end++; break;
	default:
		if (*end)
			return 0;
		return (v && !(v & (v - 1))) ? (size_t)v : 0;
	}
	if (*end == 'B' || *end == 'b')
		end++;
	if (*end)
		return 0;
	pages = (size_t)(v / (unsigned long long)sysconf(_SC_PAGESIZE));
	/* Round a size down to a power of two, like perf. */
	while (pages & (pages - 1))
		pages &= pages - 1;
	return pages;
}

/*
 * The exit status of a workload that ended on its own, passed on as
 * sonde stat does (128 + signal for a signal), and said unless -q.
 */
static int workload_status(const char *name, int status, bool quiet)
{
	if (WIFEXITED(status) && WEXITSTATUS(status)) {
		if (!quiet)
			fprintf(stderr, "sonde record: '%s' exited with status %d\n",
				name, WEXITSTATUS(status));
		return WEXITSTATUS(status);
	}
	if (WIFSIGNALED(status)) {
		if (!quiet)
			fprintf(stderr, "sonde record: '%s' was killed by signal %d (%s)%s\n",
				name, WTERMSIG(status), strsignal(WTERMSIG(status)),
				WCOREDUMP(status) ? ", core dumped" : "");
		return 128 + WTERMSIG(status);
	}
	return 0;
}

static const char *const record_usage[] = {
	"sonde record [<options>] [--] <command> [<args>]",
	"sonde record [<options>] -p <pid> | -t <tid> | -a [--] [<command>]",
	NULL,
};

/*
 * The options after parsing: defaults, checks, the sampling setup.
 * Returns 0, or the exit status: 129 for bad usage, 1 for a bad event.
 */
static int check_options(struct rec_opts *o, struct rec_state *s, int nargs,
			 const struct option *opts)
{
	long max_rate;

	if (!o->output)
		o->output = "perf.data";
	/* -C alone means those CPUs system-wide, as in perf. */
	if (o->cpus && !nargs && !o->pid && !o->tid)
		o->all_cpus = true;
	if (!nargs && !o->pid && !o->tid && !o->all_cpus) {
		fprintf(stderr, "sonde record: nothing to record: give a command, -p PID, -t TID, -a or -C CPUS\n");
		usage_with_options_fp(record_usage, opts, false);
		return 129;
	}
	/* perf's target rule: CPUs win over per-thread rings. */
	if (o->per_thread && (o->all_cpus || o->cpus)) {
		if (!o->quiet)
			fprintf(stderr, "Warning:\nSYSTEM/CPU switch overriding PER-THREAD\n");
		o->per_thread = false;
	}
	if (o->call_graph) {
		if (!strcmp(o->call_graph, "fp")) {
			o->callchain = true;
		} else if (!strncmp(o->call_graph, "dwarf", 5) &&
			   (o->call_graph[5] == 0 || o->call_graph[5] == ',')) {
			unsigned long sz = o->call_graph[5] ?
				strtoul(o->call_graph + 6, NULL, 0) : 8192;

			if (!sz || sz % 8 || sz > 65528 - 512) {
				fprintf(stderr, "sonde record: dwarf stack size must be a multiple of 8 up to 65016, got '%s'\n",
					o->call_graph + 6);
						return 129;
			}
		} else {
			fprintf(stderr, "sonde record: --call-graph takes fp or dwarf[,size], got '%s'\n",
				o->call_graph);
				return 129;
		}
	}
	if (read_int_file("/proc/sys/kernel/perf_event_max_sample_rate", &max_rate))
		max_rate = 0;
	if (o->freq_str) {
		char *end;
		unsigned long f = strtoul(o->freq_str, &end, 10);

		if (!strcmp(o->freq_str, "max") && max_rate > 0) {
			f = (unsigned long)max_rate;
		} else if (*end || !f || f > UINT_MAX) {
			fprintf(stderr, "sonde record: -F wants a frequency in Hz > 0 or 'max', got '%s'\n",
				o->freq_str);
				return 129;
		}
		o->freq = (unsigned int)f;
	}
	if (!o->period && max_rate > 0 && o->freq > (unsigned long)max_rate) {
		fprintf(stderr, "info: Using a maximum frequency rate of %ld Hz (kernel.perf_event_max_sample_rate)\n",
			max_rate);
		o->freq = (unsigned int)max_rate;
	}
	if (o->realtime && (int)o->realtime > sched_get_priority_max(SCHED_FIFO)) {
		fprintf(stderr, "sonde record: -r wants a SCHED_FIFO priority from 1 to %d, got %u\n",
			sched_get_priority_max(SCHED_FIFO), o->realtime);
		return 129;
	}
	s->data_pages = 128;
	if (o->mmap_pages) {
		/* -m DATA[,AUX]: either may be left out ("-m ,64"). */
		const char *comma = strchr(o->mmap_pages, ',');
		size_t dlen = comma ? (size_t)(comma - o->mmap_pages) : strlen(o->mmap_pages);
		char data[64];

		if (dlen < sizeof(data)) {
			memcpy(data, o->mmap_pages, dlen);
			data[dlen] = 0;
		}
		if (dlen >= sizeof(data) || (dlen && !(s->data_pages = parse_pages(data))) ||
		    (comma && !(s->aux_pages = parse_pages(comma + 1)))) {
			fprintf(stderr, "sonde record: -m wants a power-of-two page count or a size like 512K (then ,AUX pages), got '%s'\n",
				o->mmap_pages);
				return 129;
		}
	}
	if (!o->evs.nr && rec_events_parse(&o->evs, "cycles")) {
		return 1;
	}
	if (o->overwrite && rec_events_parse(&o->evs, "dummy")) {
		return 1;
	}
	return rec_aux_check(s);
}

static void set_signals(void)
{
	struct sigaction sa = { 0 }, old_hup;

	/* A new recording (the tests run several in one process). */
	done = child_exited = snapshot_req = 0;
	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* A hang-up (terminal closed, ssh dropped) finishes the file like ^C,
	 * unless nohup asked to ignore it. */
	if (!sigaction(SIGHUP, NULL, &old_hup) && old_hup.sa_handler != SIG_IGN)
		sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_child;
	sigaction(SIGCHLD, &sa, NULL);
	sa.sa_handler = on_usr2;
	sigaction(SIGUSR2, &sa, NULL);
	/* Past RLIMIT_FSIZE, let write() fail with EFBIG instead of dying;
	 * likewise EPIPE when the -o - reader goes away, so the workload is
	 * stopped and the error reported. */
	signal(SIGXFSZ, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	{
		/* events x CPUs x threads fds: use the hard limit, as perf does. */
		struct rlimit rl;

		if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
			rl.rlim_cur = rl.rlim_max;
			setrlimit(RLIMIT_NOFILE, &rl);
		}
	}
}

/* What to record: the CPUs, the threads of -p/-t, the workload. */
static int setup_targets(struct rec_state *s, const char **cmd, int nargs)
{
	struct rec_opts *o = s->o;
	int err = 0;

	/* Targets. */
	{
		char cerr[256] = "";
		int n = rec_cpu_list(o->cpus, &s->cpus, cerr, sizeof(cerr));

		if (n <= 0) {
			fprintf(stderr, "sonde record: CPU list '%s': %s\n",
				o->cpus ? o->cpus : "online", cerr[0] ? cerr : strerror(n ? -n : EINVAL));
			err = -EINVAL;
			return err;
		}
		s->nr_cpus = (size_t)n;
	}
	set_signals();
	if (o->pid)
		err = rec_add_pid_threads(s, o->pid);
	else if (o->tid)
		err = rec_add_tid_list(s, o->tid);
	if (err)
		return err;
	s->list = sonde_evlist__new();
	if (!s->list) {
		err = -ENOMEM;
		return err;
	}
	if (nargs) {
		SONDE_OPTS(sonde_workload_opts, wo, .default_signals = true,
			   .stdout_to_stderr = !strcmp(o->output, "-"));

		s->child = sonde_evlist__prepare_workload_opts(s->list, (char *const *)cmd, &wo);
		if (s->child < 0) {
			fprintf(stderr, "sonde record: cannot start the workload: %s\n",
				strerror((int)-s->child));
			err = (int)s->child;
			s->child = 0;
			return err;
		}
		/* With -p/-t the command only sets how long to record, as
		 * in perf and sonde stat. */
		s->workload_target = !o->pid && !o->tid;
		err = s->workload_target ? rec_add_tid(s, s->child) : 0;
		if (err)
			return err;
	}
	return 0;
}

/*
 * -r: the recorder (not the workload, forked before) runs at a SCHED_FIFO
 * priority, as perf's -r does: its reader then runs as soon as a ring
 * wakes it, at the cost of the CPU it takes from everything else.
 */
static int set_realtime(const struct rec_opts *o)
{
	struct sched_param sp = { .sched_priority = (int)o->realtime };

	if (!o->realtime || !sched_setscheduler(0, SCHED_FIFO, &sp))
		return 0;
	fprintf(stderr, "sonde record: cannot run at SCHED_FIFO priority %u: %s%s\n",
		o->realtime, strerror(errno),
		errno == EPERM ? " (needs CAP_SYS_NICE, or RLIMIT_RTPRIO as high: ulimit -r)" : "");
	return -errno;
}

/* Lets the workload exec; a failed exec abandons the new file. */
static int start_workload(struct rec_state *s, const char **cmd, int *wstatus)
{
	int err;

	if (s->child <= 0)
		return 0;
	err = sonde_evlist__start_workload(s->list);
	if (err) {
		fprintf(stderr, "sonde record: cannot run '%s': %s\n", cmd[0],
			strerror(-err));
		sonde_evlist__wait_workload(s->list, NULL);
		s->child = 0;
		sonde_perfdata_writer__free(s->w);
		s->w = NULL;
		/* The shell's codes, as sonde stat returns them. */
		*wstatus = err == -ENOENT ? 127 : 126;
	}
	return err;
}

/*
 * Reads the rings until the workload ends, the targets are gone, a signal
 * says stop, or a write fails.
 */
static void record_loop(struct rec_state *s, int *status)
{
	struct rec_opts *o = s->o;

	while (!s->werr) {
		bool all_hup;
		size_t got;
		int n;

		{
			bool snap = snapshot_req;

			snapshot_req = 0; /* before the pass: a new request waits */
			got = rec_drain(s, snap);
		}
		if (done)
			break;
		if (child_exited && s->child > 0 &&
		    waitpid(s->child, status, WNOHANG) == s->child) {
			s->child = 0;
			break;
		}
		/*
		 * Data came in during the pass: read again before sleeping,
		 * as perf does. Waiting for the next wakeup instead leaves
		 * the rings filling while the reader is off the CPU.
		 */
		if (got)
			continue;
		n = sonde_evlist__poll(s->list, 500);
		if (n > 0)
			s->wakeups++;
		/* No fd left to watch (every target thread gone before it
		 * could be opened) counts as all hung up. */
		all_hup = !sonde_evlist__nr_polled(s->list);
		if (all_hup && !s->child && !o->all_cpus)
			break; /* every target task is gone */
	}
}

/* The last records, lost-sample counts, the file's end and the summary. */
static int finish(struct rec_state *s, int *status)
{
	struct rec_opts *o = s->o;
	struct sonde_perfdata_writer_stats st;
	int err = 0;

	rec_enable_events(s, false);
	s->stopping = true;
	if (!s->werr)
		rec_drain(s, true);
	if (!s->werr)
		rec_save_lost_counts(s);
	if (s->werr)
		fprintf(stderr, "sonde record: failed to write %s: %s; recording stopped\n",
			o->output, strerror(-s->werr));
	if (s->child > 0) {
		kill(s->child, SIGTERM);
		waitpid(s->child, status, 0);
		s->child = 0;
	}
	if (s->bids)
		rec_bids_finish(s->bids, s->w, !o->no_buildid_cache);
	sonde_perfdata_writer__stats(s->w, &st);
	err = sonde_perfdata_writer__finish(s->w);
	s->w = NULL;
	if (err && !s->werr)
		fprintf(stderr, "sonde record: failed to finish %s: %s\n", o->output, strerror(-err));
	/* Lost samples are reported even with -q: never silently dropped. */
	if (st.lost || st.lost_samples)
		fprintf(stderr, "[ sonde record: Lost samples: %llu in LOST records (ring full), %llu counted by the kernel per event (LOST_SAMPLES); try -m with more pages or a lower -F ]\n",
			(unsigned long long)st.lost,
			(unsigned long long)st.lost_samples);
	if (!o->quiet) {
		fprintf(stderr, "[ sonde record: Woken up %lu times to write data ]\n", s->wakeups);
		/* A failure while closing (the last flush) counts too. */
		if (s->werr || err) {
			struct stat sb;

			if (!strcmp(o->output, "-"))
				; /* the pipe reader has what got through */
			else if (stat(o->output, &sb))
				fprintf(stderr, "[ sonde record: Nothing kept: %s was removed ]\n",
					o->output);
			else if (s->prev_ino && (unsigned long long)sb.st_ino == s->prev_ino &&
				 (unsigned long long)sb.st_dev == s->prev_dev)
				fprintf(stderr, "[ sonde record: Nothing kept: %s is still the previous recording ]\n",
					o->output);
			else
				fprintf(stderr, "[ sonde record: Kept %.3f MB %s: the data up to the last complete round before the error ]\n",
					(double)sb.st_size / (1024.0 * 1024.0), o->output);
		} else {
			fprintf(stderr, "[ sonde record: Captured and wrote %.3f MB %s (%llu samples) ]\n",
				(double)st.bytes / (1024.0 * 1024.0),
				strcmp(o->output, "-") ? o->output : "(pipe)",
				(unsigned long long)st.samples);
		}
	}
	if (s->werr && !err)
		err = s->werr;
	return err;
}

int cmd_record(int argc, const char **argv)
{
	struct rec_opts o = { .output = NULL, .freq = 4000, .inherit = true,
			      .clockid = -1, .proc_map_timeout = 500 };
	struct rec_state s = { .o = &o };
	struct option opts[] = {
		OPT_CALLBACK('e', "event", &o, "<event>",
			     "event(s) to sample: name, sys:tracepoint, {a,b} group", parse_event_cb),
		OPT_CALLBACK('k', "clockid", &o, "<clock>",
			     "sample times on this clock (monotonic, monotonic_raw, realtime, boottime, tai)",
			     parse_clockid_cb),
		OPT_CALLBACK_NOOPT('b', "branch-any", &o,
				   "sample any taken branch (branch stack; -j any)",
				   parse_branch_any_cb),
		OPT_CALLBACK('j', "branch-filter", &o, "<mode>",
			     "sample branch stacks of these types (any,u,call,...)",
			     parse_branch_cb),
		OPT_CALLBACK(0, "filter", &o, "<expr>",
			     "tracepoint filter for the -e before it (\"prev_pid != 0\")",
			     parse_filter_cb),
		OPT_STRING('F', "freq", &o.freq_str, "<hz>|max",
			   "sample frequency (default 4000; max = kernel.perf_event_max_sample_rate)"),
		OPT_U64('c', "count", &o.period, "<n>", "sample every n events instead of -F"),
		OPT_BOOLEAN('g', NULL, &o.callchain, "record call chains (frame pointers)"),
		OPT_STRING(0, "call-graph", &o.call_graph, "fp|dwarf[,size]",
			   "call chain mode; dwarf copies 8192 bytes of user stack"),
		OPT_STRING('m', "mmap-pages", &o.mmap_pages, "<pages>[,<pages>]",
			   "ring buffer data pages per CPU (power of two, or 512K, 2M), then AUX area pages"),
		OPT_CALLBACK_OPTARG('S', "snapshot", &o, "[e][size]",
				    "AUX area snapshots: on SIGUSR2 (and at the end with e), at most size bytes each",
				    parse_snapshot_cb),
		OPT_CALLBACK_OPTARG(0, "aux-sample", &o, "size",
				    "the AUX event's group members sample its area (default 4096 bytes)",
				    parse_aux_sample_cb),
		OPT_STRING('o', "output", &o.output, "<file>", "output file (default perf.data; - for a pipe)"),
		OPT_STRING('p', "pid", &o.pid, "<pid>", "record existing process(es), comma list"),
		OPT_STRING('t', "tid", &o.tid, "<tid>", "record existing thread(s), comma list"),
		OPT_BOOLEAN('a', "all-cpus", &o.all_cpus, "system-wide from all CPUs"),
		OPT_STRING('C', "cpu", &o.cpus, "<cpus>", "only these CPUs (with -a), e.g. 0,2-3"),
		OPT_BOOLEAN(0, "switch-events", &o.switch_events, "record context switches"),
		OPT_UINTEGER(0, "proc-map-timeout", &o.proc_map_timeout, "<ms>",
			     "give up a running process's /proc maps after ms (default 500)"),
		OPT_BOOLEAN(0, "inherit", &o.inherit, "follow child tasks (--no-inherit: do not)"),
		OPT_BOOLEAN(0, "per-thread", &o.per_thread,
			    "a ring buffer (and AUX area) per thread instead of per CPU; no inherit"),
		OPT_BOOLEAN(0, "overwrite", &o.overwrite,
			    "flight recorder: keep only the newest data, snapshot on SIGUSR2 and at exit"),
		OPT_UINTEGER('r', "realtime", &o.realtime, "<prio>",
			     "run the recorder (not the workload) at this SCHED_FIFO priority"),
		OPT_BOOLEAN('q', "quiet", &o.quiet, "no summary, warnings or word on the workload's status"),
		OPT_INCR('v', "verbose", &o.verbose, "more messages"),
		OPT_BOOLEAN('B', "no-buildid", &o.no_buildid,
			    "do not write the build ids of the objects hit into the file (nor cache them)"),
		OPT_BOOLEAN('N', "no-buildid-cache", &o.no_buildid_cache,
			    "do not copy the objects hit into the build-id cache (~/.debug)"),
		OPT_BOOLEAN(0, "buildid-all", &o.buildid_all,
			    "the build ids of every object mapped, not only of those hit"),
		OPT_GROUP("With -p/-t/-a a command only sets the duration. Exit status: the\n"
			  "workload's own (128 + signal if killed), 127/126 when it cannot run,\n"
			  "1 on errors, 129 for bad options, else 0."),
		OPT_END(),
	};
	const char **cmd;
	int nargs, err = 0, status = 0, wstatus = 0;
	char **cmdline = NULL;

	cmdline = calloc((size_t)argc + 2, sizeof(char *));
	if (!cmdline)
		return 1;
	cmdline[0] = "sonde";
	for (int i = 0; i < argc; i++)
		cmdline[i + 1] = (char *)argv[i];
	nargs = parse_options(argc, argv, opts, record_usage,
			      PARSE_OPT_STOP_AT_NON_OPTION);
	cmd = argv;
	if (o.bad_event) {
		rec_events_free(&o.evs);
		free(cmdline);
		return 1;
	}
	err = check_options(&o, &s, nargs, opts);
	if (err) {
		rec_aux_free(s.aux);
		rec_events_free(&o.evs);
		free(cmdline);
		return err;
	}
	err = setup_targets(&s, cmd, nargs);
	if (err)
		goto out;
	s.per_task = s.nr_tids > 0 && !o.all_cpus;
	rec_setup_attrs(&s);
	err = rec_aux_attrs(&s);
	if (err) {
		wstatus = err;
		goto out;
	}
	for (size_t i = 0; o.verbose > 1 && i < o.evs.nr; i++) {
		/* -vv: the attrs as asked, before the kernel sees them. */
		fprintf(stderr, "%s (asked):\n", o.evs.ev[i].name);
		sonde_perf_event_attr__fprintf(stderr, &o.evs.ev[i].attr);
	}
	err = rec_open_events(&s);
	if (err)
		goto out;
	for (size_t i = 0; o.verbose && i < o.evs.nr; i++) {
		/* -v: the attrs as the kernel accepted them, perf -vv style. */
		fprintf(stderr, "%s:\n", o.evs.ev[i].name);
		sonde_perf_event_attr__fprintf(stderr, &o.evs.ev[i].attr);
	}
	err = rec_setup_rings(&s);
	if (!err)
		err = set_realtime(&o);
	if (!err)
		err = rec_file_begin(&s, cmdline);
	if (!err)
		err = start_workload(&s, cmd, &wstatus);
	if (err)
		goto out;
	record_loop(&s, &status);
	if (nargs && !done && !s.child)
		wstatus = workload_status(cmd[0], status, o.quiet);
	err = finish(&s, &status);
	/* A write error outranks the workload's own status. */
	if (err)
		wstatus = 0;
out:
	if (s.child > 0) {
		kill(s.child, SIGKILL);
		waitpid(s.child, NULL, 0);
	}
	sonde_perfdata_writer__free(s.w);
	sonde_buildid_hits__free(s.bids);
	rec_aux_free(s.aux);
	sonde_evlist__free(s.list);
	rec_events_free(&o.evs);
	free(s.cpus);
	free(s.tids);
	free(cmdline);
	if (wstatus)
		return wstatus;
	return err ? 1 : 0;
}
