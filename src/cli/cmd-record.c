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
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "builtin.h"
#include "options.h"
#include "record.h"

/* x86-64 user registers for DWARF unwinding: all but ds/es/fs/gs. */
#define REGS_USER_MASK 0xff0fffULL

struct rec_opts {
	const char *output;
	const char *pid;
	const char *tid;
	const char *cpus;
	const char *call_graph;
	const char *mmap_pages;
	unsigned int freq;
	uint64_t period;
	bool all_cpus;
	bool callchain;
	bool switch_events;
	bool inherit;
	bool overwrite;
	bool quiet;
	int verbose;
	struct rec_events evs;
	bool user_events;
};

struct rec_state {
	struct rec_opts *o;
	int *cpus;
	size_t nr_cpus;
	pid_t *tids;
	size_t nr_tids;
	bool per_task;        /* pid != -1 */
	pid_t child;
	/* Per CPU: [2c] forward ring, [2c + 1] overwrite (backward) ring. */
	struct sonde_ring **rings;
	struct pollfd *pfds;
	size_t nr_pfds;
	struct sonde_perfdata_writer *w;
	unsigned long wakeups;
	int werr;
	size_t data_pages;
};

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
	o->user_events = true;
	return rec_events_parse(&o->evs, arg) ? -1 : 0;
}

/* "0-3,5" -> sorted list; returns count or -1. */
static int parse_cpu_list(const char *s, int **out)
{
	int *v = NULL, n = 0;

	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b;

		if (end == s || a < 0 || a > 4096)
			goto bad;
		b = a;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s || b < a || b > 4096)
				goto bad;
		}
		for (long c = a; c <= b; c++) {
			int *nv = realloc(v, (size_t)(n + 1) * sizeof(*v));

			if (!nv)
				goto bad;
			v = nv;
			v[n++] = (int)c;
		}
		s = end;
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			goto bad;
		else
			break;
	}
	*out = v;
	return n;
bad:
	free(v);
	return -1;
}

static int online_cpus(int **out)
{
	char buf[1024];
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	int n = -1;

	if (f && fgets(buf, sizeof(buf), f))
		n = parse_cpu_list(buf, out);
	if (f)
		fclose(f);
	if (n <= 0) {
		long c = sysconf(_SC_NPROCESSORS_ONLN);

		*out = calloc((size_t)(c > 0 ? c : 1), sizeof(int));
		for (n = 0; *out && n < (c > 0 ? c : 1); n++)
			(*out)[n] = n;
	}
	return n;
}

static int add_tid(struct rec_state *s, pid_t tid)
{
	pid_t *n = realloc(s->tids, (s->nr_tids + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	s->tids = n;
	n[s->nr_tids++] = tid;
	return 0;
}

/* The threads of each PID in a comma list, from /proc/PID/task. */
static int add_pid_threads(struct rec_state *s, const char *list)
{
	char *copy = strdup(list), *save = NULL, *tok;
	int err = 0;

	for (tok = strtok_r(copy, ",", &save); tok && !err;
	     tok = strtok_r(NULL, ",", &save)) {
		char path[64], *end;
		long pid = strtol(tok, &end, 10);
		struct dirent **names;
		int n;

		if (*end || pid <= 0) {
			fprintf(stderr, "sonde record: -p wants process ids, got '%s'\n", tok);
			err = -EINVAL;
			break;
		}
		snprintf(path, sizeof(path), "/proc/%ld/task", pid);
		n = scandir(path, &names, NULL, alphasort);
		if (n < 0) {
			fprintf(stderr, "sonde record: no such process %ld\n", pid);
			err = -ESRCH;
			break;
		}
		for (int i = 0; i < n; i++) {
			if (names[i]->d_name[0] != '.' && !err)
				err = add_tid(s, (pid_t)atol(names[i]->d_name));
			free(names[i]);
		}
		free(names);
	}
	free(copy);
	return err;
}

static int add_tid_list(struct rec_state *s, const char *list)
{
	char *copy = strdup(list), *save = NULL, *tok;
	int err = 0;

	for (tok = strtok_r(copy, ",", &save); tok && !err;
	     tok = strtok_r(NULL, ",", &save)) {
		char *end;
		long tid = strtol(tok, &end, 10);

		if (*end || tid <= 0) {
			fprintf(stderr, "sonde record: -t wants thread ids, got '%s'\n", tok);
			err = -EINVAL;
		} else {
			err = add_tid(s, (pid_t)tid);
		}
	}
	free(copy);
	return err;
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

/* The library says why and what to change; we add which event. */
static void explain_open_error(const struct rec_event *e, int err, int cpu,
			       pid_t tid)
{
	char msg[1024];

	if (err == ESRCH) {
		fprintf(stderr, "sonde record: thread %d no longer exists\n", (int)tid);
		return;
	}
	sonde_open_error_describe(err, &e->attr, tid, cpu, msg, sizeof(msg));
	fprintf(stderr, "sonde record: cannot open '%s' on CPU %d: %s\n",
		e->name, cpu, msg);
}

static bool no_pmu(int err)
{
	return err == ENOENT || err == ENODEV || err == EOPNOTSUPP ||
	       err == ENXIO || err == EINVAL;
}

static void setup_attrs(struct rec_state *s)
{
	struct rec_opts *o = s->o;
	bool multi = o->evs.nr > 1;
	size_t track = 0;

	/*
	 * Overwrite mode: the side-band (COMM/MMAP/FORK) would be overwritten
	 * along with old samples, leaving the snapshot unsymbolizable; a
	 * dummy event carries it in a normal ring instead (added last).
	 */
	if (o->overwrite)
		track = o->evs.nr - 1;

	for (size_t i = 0; i < o->evs.nr; i++) {
		struct rec_event *e = &o->evs.ev[i];
		struct sonde_perf_event_attr *a = &e->attr;
		bool leader = e->leader == (int)i;

		a->size = sizeof(*a);
		a->sample_type = SONDE_PERF_SAMPLE_IP | SONDE_PERF_SAMPLE_TID |
				 SONDE_PERF_SAMPLE_TIME | SONDE_PERF_SAMPLE_PERIOD;
		if (multi)
			a->sample_type |= SONDE_PERF_SAMPLE_IDENTIFIER;
		if (o->all_cpus || o->cpus)
			a->sample_type |= SONDE_PERF_SAMPLE_CPU;
		if (a->type == SONDE_PERF_TYPE_TRACEPOINT) {
			a->sample_type |= SONDE_PERF_SAMPLE_RAW;
			if (!e->period_set)
				a->sample_period = o->period ? o->period : 1;
		} else if (e->period_set) {
			a->freq = 0; /* the spec's period= wins */
		} else if (e->freq_set) {
			a->freq = 1;
		} else if (o->period) {
			a->sample_period = o->period;
		} else {
			a->freq = 1;
			a->sample_freq = o->freq;
		}
		if (o->callchain)
			a->sample_type |= SONDE_PERF_SAMPLE_CALLCHAIN;
		if (o->call_graph && !strncmp(o->call_graph, "dwarf", 5)) {
			unsigned long sz = 8192;

			if (o->call_graph[5] == ',')
				sz = strtoul(o->call_graph + 6, NULL, 0);
			a->sample_type |= SONDE_PERF_SAMPLE_CALLCHAIN |
					  SONDE_PERF_SAMPLE_REGS_USER |
					  SONDE_PERF_SAMPLE_STACK_USER;
			a->sample_regs_user = REGS_USER_MASK;
			a->sample_stack_user = (uint32_t)sz;
			a->exclude_callchain_user = 1;
		}
		a->sample_id_all = 1;
		a->exclude_guest = 1;
		a->inherit = s->per_task && o->inherit;
		a->write_backward = o->overwrite && i != track;
		/*
		 * Wake at a quarter full rather than the kernel's half: more
		 * headroom before LOST when samples are large (DWARF) or the
		 * ring is small, for a few more wakeups.
		 */
		a->watermark = 1;
		a->wakeup_watermark = (uint32_t)(s->data_pages * (size_t)sysconf(_SC_PAGESIZE) / 4);
		if (leader) {
			a->disabled = 1;
			/* Only task events can wait for the exec. */
			a->enable_on_exec = s->child > 0 && s->per_task;
		}
		if (i == track) {
			/* Side-band once, on one event only. */
			a->mmap = a->comm = a->task = 1;
			a->mmap2 = a->comm_exec = 1;
			/* DWARF: .eh_frame lives in non-exec segments, see those. */
			a->mmap_data = o->call_graph && !strncmp(o->call_graph, "dwarf", 5);
			a->build_id = getenv("SONDE_NO_BUILDID") ? 0 : 1;
			a->context_switch = o->switch_events;
		}
	}
}

static int open_events(struct rec_state *s)
{
	struct rec_opts *o = s->o;
	size_t nt = s->per_task ? s->nr_tids : 1;

	for (size_t i = 0; i < o->evs.nr; i++) {
		o->evs.ev[i].fds = malloc(s->nr_cpus * nt * sizeof(int));
		o->evs.ev[i].ids = calloc(s->nr_cpus * nt, sizeof(uint64_t));
		if (!o->evs.ev[i].fds || !o->evs.ev[i].ids)
			return -ENOMEM;
		for (size_t k = 0; k < s->nr_cpus * nt; k++)
			o->evs.ev[i].fds[k] = -1;
	}
	for (size_t c = 0; c < s->nr_cpus; c++) {
		for (size_t t = 0; t < nt; t++) {
			size_t k = c * nt + t;

			for (size_t i = 0; i < o->evs.nr; i++) {
				struct rec_event *e = &o->evs.ev[i];
				int gfd = e->leader == (int)i ? -1 :
					  o->evs.ev[e->leader].fds[k];
				pid_t tid = s->per_task ? s->tids[t] : -1;
				int fd;
retry:
				fd = sonde_event_open(&e->attr, tid,
							   s->cpus[c], gfd, 0);
				if (fd == -ESRCH && s->per_task && !s->child)
					continue; /* thread exited meanwhile */
				if (fd < 0 && e->attr.type == SONDE_PERF_TYPE_HARDWARE &&
				    e->attr.config == 0 && no_pmu(-fd)) {
					/* perf's fallback when there is no PMU. */
					fprintf(stderr, "Warning:\nThe cycles event is not supported, falling back to cpu-clock\n");
					e->attr.type = SONDE_PERF_TYPE_SOFTWARE;
					e->attr.config = SONDE_PERF_COUNT_SW_CPU_CLOCK;
					free(e->name);
					e->name = strdup("cpu-clock");
					goto retry;
				}
				if ((fd == -EACCES || fd == -EPERM) && s->per_task &&
				    !e->attr.exclude_kernel) {
					/* perf's fallback under perf_event_paranoid 2. */
					fprintf(stderr, "Warning:\nkernel.perf_event_paranoid forbids kernel samples: falling back to user space only for '%s' (:u)\n",
						e->name);
					e->attr.exclude_kernel = 1;
					e->attr.exclude_hv = 1;
					goto retry;
				}
				if (fd < 0) {
					explain_open_error(e, -fd, s->cpus[c], tid);
					return fd;
				}
				e->fds[k] = fd;
				if (ioctl(fd, SONDE_PERF_EVENT_IOC_ID, &e->ids[e->nr_ids]) == 0)
					e->nr_ids++;
			}
		}
	}
	return 0;
}

static int setup_rings(struct rec_state *s)
{
	struct rec_opts *o = s->o;
	size_t nt = s->per_task ? s->nr_tids : 1;

	s->rings = calloc(2 * s->nr_cpus, sizeof(*s->rings));
	s->pfds = calloc(s->nr_cpus * nt * o->evs.nr + 1, sizeof(*s->pfds));
	if (!s->rings || !s->pfds)
		return -ENOMEM;
	for (size_t c = 0; c < s->nr_cpus; c++) {
		for (size_t t = 0; t < nt; t++) {
			for (size_t i = 0; i < o->evs.nr; i++) {
				int fd = o->evs.ev[i].fds[c * nt + t];
				bool back = o->evs.ev[i].attr.write_backward;
				struct sonde_ring **r = &s->rings[2 * c + back];
				SONDE_OPTS(sonde_ring_opts, ro,
					   .data_pages = s->data_pages,
					   .overwrite = back);

				if (fd < 0)
					continue;
				if (!*r) {
					*r = sonde_ring__new(fd, &ro);
					if (!*r) {
						int err = errno;

						fprintf(stderr, "sonde record: cannot map a %zu-page ring buffer: %s%s\n",
							s->data_pages, strerror(err),
							err == EPERM ? " (over kernel.perf_event_mlock_kb: use -m with fewer pages)" : "");
						return -err;
					}
				} else if (sonde_ring__add_event(*r, fd)) {
					fprintf(stderr, "sonde record: cannot share the ring of CPU %d: %s\n",
						s->cpus[c], strerror(errno));
					return -errno;
				}
				s->pfds[s->nr_pfds].fd = fd;
				s->pfds[s->nr_pfds].events = POLLIN;
				s->nr_pfds++;
			}
		}
	}
	return 0;
}

static void enable_events(struct rec_state *s, bool on)
{
	struct rec_opts *o = s->o;
	size_t nt = s->per_task ? s->nr_tids : 1;

	for (size_t i = 0; i < o->evs.nr; i++) {
		if (o->evs.ev[i].leader != (int)i)
			continue;
		for (size_t k = 0; k < s->nr_cpus * nt; k++)
			if (o->evs.ev[i].fds[k] >= 0)
				ioctl(o->evs.ev[i].fds[k],
				      on ? SONDE_PERF_EVENT_IOC_ENABLE :
					   SONDE_PERF_EVENT_IOC_DISABLE, 0);
	}
}

/* One pass over the rings; the overwrite ones only for a snapshot. */
static void drain(struct rec_state *s, bool snapshot)
{
	const struct sonde_perf_event_header *ev;

	for (size_t c = 0; c < 2 * s->nr_cpus; c++) {
		struct sonde_ring *r = s->rings[c];

		if (c % 2 && !snapshot)
			continue;
		if (!r || sonde_ring__read_init(r) <= 0) {
			if (r)
				sonde_ring__read_done(r);
			continue;
		}
		while (!s->werr && sonde_ring__read_event(r, &ev) == 1)
			s->werr = sonde_perfdata_writer__write(s->w, ev);
		sonde_ring__read_done(r);
	}
	if (!s->werr)
		s->werr = sonde_perfdata_writer__finish_round(s->w);
}

/* The workload: forked now, exec'd when we write to @go. */
static pid_t start_workload(const char **argv, int *go, int *errp, bool pipe_out)
{
	int gp[2], ep[2];
	pid_t pid;

	if (pipe2(gp, O_CLOEXEC) || pipe2(ep, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		char c;
		int e;

		close(gp[1]);
		close(ep[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		if (pipe_out)
			dup2(STDERR_FILENO, STDOUT_FILENO); /* stdout is the data */
		if (read(gp[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[0], (char *const *)argv);
		e = errno;
		if (write(ep[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(gp[0]);
	close(ep[1]);
	*go = gp[1];
	*errp = ep[0];
	return pid;
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

static const char *const record_usage[] = {
	"sonde record [<options>] [--] <command> [<args>]",
	"sonde record [<options>] -p <pid> | -t <tid> | -a",
	NULL,
};

int cmd_record(int argc, const char **argv)
{
	struct rec_opts o = { .output = NULL, .freq = 4000, .inherit = true };
	struct rec_state s = { .o = &o };
	struct option opts[] = {
		OPT_CALLBACK('e', "event", &o, "<event>",
			     "event(s) to sample: name, sys:tracepoint, {a,b} group", parse_event_cb),
		OPT_UINTEGER('F', "freq", &o.freq, "<hz>", "sample frequency (default 4000)"),
		OPT_U64('c', "count", &o.period, "<n>", "sample every n events instead of -F"),
		OPT_BOOLEAN('g', NULL, &o.callchain, "record call chains (frame pointers)"),
		OPT_STRING(0, "call-graph", &o.call_graph, "fp|dwarf[,size]",
			   "call chain mode; dwarf copies 8192 bytes of user stack"),
		OPT_STRING('m', "mmap-pages", &o.mmap_pages, "<pages>",
			   "ring buffer data pages per CPU (power of two, or 512K, 2M)"),
		OPT_STRING('o', "output", &o.output, "<file>", "output file (default perf.data; - for a pipe)"),
		OPT_STRING('p', "pid", &o.pid, "<pid>", "record existing process(es), comma list"),
		OPT_STRING('t', "tid", &o.tid, "<tid>", "record existing thread(s), comma list"),
		OPT_BOOLEAN('a', "all-cpus", &o.all_cpus, "system-wide from all CPUs"),
		OPT_STRING('C', "cpu", &o.cpus, "<cpus>", "only these CPUs (with -a), e.g. 0,2-3"),
		OPT_BOOLEAN(0, "switch-events", &o.switch_events, "record context switches"),
		OPT_BOOLEAN(0, "inherit", &o.inherit, "follow child tasks (--no-inherit: do not)"),
		OPT_BOOLEAN(0, "overwrite", &o.overwrite,
			    "flight recorder: keep only the newest data, snapshot on SIGUSR2 and at exit"),
		OPT_BOOLEAN('q', "quiet", &o.quiet, "no summary"),
		OPT_INCR('v', "verbose", &o.verbose, "more messages"),
		OPT_END(),
	};
	struct sonde_perfdata_writer_stats st;
	struct sigaction sa = { 0 };
	const char **cmd;
	int nargs, go = -1, errp = -1, err = 0, status = 0;
	char **cmdline = NULL;
	long max_rate;

	cmdline = calloc((size_t)argc + 2, sizeof(char *));
	if (!cmdline)
		return 1;
	cmdline[0] = "sonde";
	for (int i = 0; i < argc; i++)
		cmdline[i + 1] = (char *)argv[i];
	nargs = parse_options(argc, argv, opts, record_usage,
			      PARSE_OPT_STOP_AT_NON_OPTION);
	cmd = argv;
	if (!o.output)
		o.output = "perf.data";
	if (!nargs && !o.pid && !o.tid && !o.all_cpus) {
		fprintf(stderr, "sonde record: nothing to record: give a command, -p PID, -t TID or -a\n");
		usage_with_options_fp(record_usage, opts, false);
		free(cmdline);
		return 129;
	}
	if (nargs && (o.pid || o.tid)) {
		fprintf(stderr, "sonde record: a command cannot be combined with -p/-t\n");
		free(cmdline);
		return 129;
	}
	if (o.call_graph) {
		if (!strcmp(o.call_graph, "fp")) {
			o.callchain = true;
		} else if (!strncmp(o.call_graph, "dwarf", 5) &&
			   (o.call_graph[5] == 0 || o.call_graph[5] == ',')) {
			unsigned long sz = o.call_graph[5] ?
				strtoul(o.call_graph + 6, NULL, 0) : 8192;

			if (!sz || sz % 8 || sz > 65528 - 512) {
				fprintf(stderr, "sonde record: dwarf stack size must be a multiple of 8 up to 65016, got '%s'\n",
					o.call_graph + 6);
				free(cmdline);
				return 129;
			}
		} else {
			fprintf(stderr, "sonde record: --call-graph takes fp or dwarf[,size], got '%s'\n",
				o.call_graph);
			free(cmdline);
			return 129;
		}
	}
	if (!o.period && !o.freq) {
		fprintf(stderr, "sonde record: -F must be > 0\n");
		free(cmdline);
		return 129;
	}
	if (!o.period && !read_int_file("/proc/sys/kernel/perf_event_max_sample_rate", &max_rate) &&
	    max_rate > 0 && o.freq > (unsigned long)max_rate) {
		fprintf(stderr, "info: Using a maximum frequency rate of %ld Hz (kernel.perf_event_max_sample_rate)\n",
			max_rate);
		o.freq = (unsigned int)max_rate;
	}
	s.data_pages = 128;
	if (o.mmap_pages) {
		s.data_pages = parse_pages(o.mmap_pages);
		if (!s.data_pages) {
			fprintf(stderr, "sonde record: -m wants a power-of-two page count or a size like 512K, got '%s'\n",
				o.mmap_pages);
			free(cmdline);
			return 129;
		}
	}
	if (!o.evs.nr && rec_events_parse(&o.evs, "cycles")) {
		free(cmdline);
		return 1;
	}
	if (o.overwrite && rec_events_parse(&o.evs, "dummy")) {
		free(cmdline);
		return 1;
	}

	/* Targets. */
	if (o.cpus) {
		int n = parse_cpu_list(o.cpus, &s.cpus);

		if (n <= 0) {
			fprintf(stderr, "sonde record: bad CPU list '%s' (expected e.g. 0,2-3)\n", o.cpus);
			err = -EINVAL;
			goto out;
		}
		s.nr_cpus = (size_t)n;
	} else {
		int n = online_cpus(&s.cpus);

		s.nr_cpus = n > 0 ? (size_t)n : 0;
	}
	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_child;
	sigaction(SIGCHLD, &sa, NULL);
	sa.sa_handler = on_usr2;
	sigaction(SIGUSR2, &sa, NULL);
	/* Past RLIMIT_FSIZE, let write() fail with EFBIG instead of dying. */
	signal(SIGXFSZ, SIG_IGN);
	if (o.pid)
		err = add_pid_threads(&s, o.pid);
	else if (o.tid)
		err = add_tid_list(&s, o.tid);
	if (err)
		goto out;
	if (nargs) {
		s.child = start_workload(cmd, &go, &errp, !strcmp(o.output, "-"));
		if (s.child < 0) {
			fprintf(stderr, "sonde record: cannot start the workload: %s\n", strerror(errno));
			err = -errno;
			goto out;
		}
		err = add_tid(&s, s.child);
		if (err)
			goto out;
	}
	s.per_task = s.nr_tids > 0 && !o.all_cpus;
	setup_attrs(&s);
	err = open_events(&s);
	if (err)
		goto out;
	err = setup_rings(&s);
	if (err)
		goto out;

	{
		SONDE_OPTS(sonde_perfdata_writer_opts, wo,
			   .keep_old = strcmp(o.output, "-") != 0,
			   .cmdline = (const char *const *)cmdline);

		s.w = sonde_perfdata_writer__new(o.output, &wo);
	}
	if (!s.w) {
		fprintf(stderr, "sonde record: cannot create %s: %s\n", o.output, strerror(errno));
		err = -errno;
		goto out;
	}
	for (size_t i = 0; i < o.evs.nr; i++) {
		struct rec_event *e = &o.evs.ev[i];
		int idx = sonde_perfdata_writer__add_event(s.w, &e->attr, e->name);

		if (idx >= 0)
			sonde_perfdata_writer__add_ids(s.w, idx, e->ids, e->nr_ids);
	}
	for (size_t i = 0; i < o.evs.nr; i++)
		if (o.evs.ev[i].leader == (int)i && o.evs.ev[i].nr_members > 1)
			sonde_perfdata_writer__add_group(s.w, (int)i,
							 o.evs.ev[i].nr_members, NULL);
	if (o.evs.nr_tracepoints) {
		void *blob;
		size_t len;

		err = sonde_tracing_data_build((const char *const *)o.evs.tracepoints,
					       o.evs.nr_tracepoints, &blob, &len);
		if (err) {
			fprintf(stderr, "sonde record: cannot read the tracepoint formats: %s\n",
				strerror(-err));
			goto out;
		}
		sonde_perfdata_writer__set_tracing_data(s.w, blob, len);
		free(blob);
	}
	{
		uint8_t kid[20];
		int kl = sonde_kernel_build_id(kid, sizeof(kid));

		if (kl > 0)
			sonde_perfdata_writer__add_build_id(s.w, "[kernel.kallsyms]",
							    kid, (size_t)kl, true);
	}
	err = sonde_perfdata_writer__begin(s.w);
	if (err) {
		fprintf(stderr, "sonde record: cannot write %s: %s\n", o.output, strerror(-err));
		goto out;
	}
	{
		const struct sonde_perf_event_attr *track = &o.evs.ev[0].attr;
		SONDE_OPTS(sonde_synth_opts, so,
			   .data_maps = o.evs.ev[0].attr.sample_stack_user != 0);

		for (size_t i = 0; i < o.evs.nr; i++)
			if (o.evs.ev[i].attr.mmap)
				track = &o.evs.ev[i].attr;
		err = sonde_synth_kernel(s.w, track);
		if (!err && o.all_cpus)
			err = sonde_synth_all(s.w, track, &so);
		else if (!err && (o.pid || o.tid)) {
			/* The process of each thread, once. */
			pid_t last = 0;

			for (size_t t = 0; !err && t < s.nr_tids; t++) {
				char path[64], line[128];
				long tgid = s.tids[t];
				FILE *f;

				snprintf(path, sizeof(path), "/proc/%d/status", (int)s.tids[t]);
				f = fopen(path, "r");
				while (f && fgets(line, sizeof(line), f))
					if (sscanf(line, "Tgid: %ld", &tgid) == 1)
						break;
				if (f)
					fclose(f);
				if ((pid_t)tgid != last)
					err = sonde_synth_process(s.w, track, (pid_t)tgid, &so);
				last = (pid_t)tgid;
			}
		}
		if (!err)
			err = sonde_perfdata_writer__finish_init(s.w);
		/*
		 * Enable after the synthesis: /proc walking is slow and the
		 * rings are not drained meanwhile.
		 */
		if (!s.child || !s.per_task)
			enable_events(&s, true);
		if (err) {
			fprintf(stderr, "sonde record: cannot write %s: %s\n", o.output, strerror(-err));
			goto out;
		}
	}
	if (s.child > 0) {
		int e = 0;

		if (write(go, "g", 1) != 1 || read(errp, &e, sizeof(e)) == sizeof(e)) {
			fprintf(stderr, "sonde record: cannot run '%s': %s\n", cmd[0],
				strerror(e ? e : EPIPE));
			waitpid(s.child, NULL, 0);
			s.child = 0;
			err = -e;
			sonde_perfdata_writer__free(s.w);
			s.w = NULL;
			goto out;
		}
	}

	while (!s.werr) {
		int n = poll(s.pfds, s.nr_pfds, 500);
		bool all_hup = s.nr_pfds > 0;

		if (n > 0)
			s.wakeups++;
		for (size_t i = 0; i < s.nr_pfds; i++) {
			if (s.pfds[i].revents & (POLLHUP | POLLERR))
				s.pfds[i].fd = -s.pfds[i].fd - 1; /* stop polling it */
			if (s.pfds[i].fd >= 0)
				all_hup = false;
		}
		drain(&s, snapshot_req);
		snapshot_req = 0;
		if (done)
			break;
		if (child_exited && s.child > 0 &&
		    waitpid(s.child, &status, WNOHANG) == s.child) {
			s.child = 0;
			break;
		}
		if (all_hup && !s.child && !o.all_cpus)
			break; /* every target task is gone */
	}
	enable_events(&s, false);
	if (!s.werr)
		drain(&s, true);
	if (s.werr)
		fprintf(stderr, "sonde record: failed to write %s: %s; recording stopped\n",
			o.output, strerror(-s.werr));
	if (s.child > 0) {
		kill(s.child, SIGTERM);
		waitpid(s.child, &status, 0);
		s.child = 0;
	}
	sonde_perfdata_writer__stats(s.w, &st);
	err = sonde_perfdata_writer__close(s.w);
	s.w = NULL;
	if (err && !s.werr)
		fprintf(stderr, "sonde record: failed to finish %s: %s\n", o.output, strerror(-err));
	/* Lost samples are reported even with -q: never silently dropped. */
	if (st.lost || st.lost_samples)
		fprintf(stderr, "[ sonde record: Lost %llu samples: %llu in LOST records (ring full; try -m with more pages or a lower -F), %llu in LOST_SAMPLES ]\n",
			(unsigned long long)(st.lost + st.lost_samples),
			(unsigned long long)st.lost,
			(unsigned long long)st.lost_samples);
	if (!o.quiet) {
		fprintf(stderr, "[ sonde record: Woken up %lu times to write data ]\n", s.wakeups);
		if (s.werr) {
			struct stat sb;

			fprintf(stderr, "[ sonde record: Kept %.3f MB %s: the data up to the last complete round before the error ]\n",
				stat(o.output, &sb) ? 0.0 : (double)sb.st_size / (1024.0 * 1024.0),
				o.output);
		} else {
			fprintf(stderr, "[ sonde record: Captured and wrote %.3f MB %s (%llu samples) ]\n",
				(double)st.bytes / (1024.0 * 1024.0),
				strcmp(o.output, "-") ? o.output : "(pipe)",
				(unsigned long long)st.samples);
		}
	}
	if (s.werr && !err)
		err = s.werr;
out:
	if (s.child > 0) {
		kill(s.child, SIGKILL);
		waitpid(s.child, NULL, 0);
	}
	if (go >= 0)
		close(go);
	if (errp >= 0)
		close(errp);
	sonde_perfdata_writer__free(s.w);
	for (size_t c = 0; s.rings && c < 2 * s.nr_cpus; c++)
		sonde_ring__free(s.rings[c]);
	free(s.rings);
	for (size_t i = 0; i < o.evs.nr; i++) {
		size_t nt = s.per_task ? s.nr_tids : 1;

		for (size_t k = 0; o.evs.ev[i].fds && k < s.nr_cpus * nt; k++)
			if (o.evs.ev[i].fds[k] >= 0)
				close(o.evs.ev[i].fds[k]);
	}
	rec_events_free(&o.evs);
	free(s.pfds);
	free(s.cpus);
	free(s.tids);
	free(cmdline);
	(void)status;
	return err ? 1 : 0;
}
