// SPDX-License-Identifier: LGPL-2.1-only
/*
 * perf_event_open(2) errno values turned into sentences that say what was
 * refused and what would allow it: the paranoid level, the capability, the
 * fd limit, the attr field the kernel lacks.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sonde/sys.h"
#include "count_priv.h"
#include "core_priv.h"

static struct evopen_paths paths = {
	.paranoid = "/proc/sys/kernel/perf_event_paranoid",
	.status = "/proc/self/status",
	.max_stack = "/proc/sys/kernel/perf_event_max_stack",
	.max_rate = "/proc/sys/kernel/perf_event_max_sample_rate",
	.pmu_dir = "/sys/bus/event_source/devices",
};

void evopen_set_paths(const struct evopen_paths *p)
{
	if (p->paranoid)
		paths.paranoid = p->paranoid;
	if (p->status)
		paths.status = p->status;
	if (p->max_stack)
		paths.max_stack = p->max_stack;
	if (p->max_rate)
		paths.max_rate = p->max_rate;
	if (p->pmu_dir)
		paths.pmu_dir = p->pmu_dir;
}

const struct evopen_paths *evopen_get_paths(void)
{
	return &paths;
}

/* First integer in a small /proc file; false when unreadable. */
static bool read_long(const char *path, long *out)
{
	FILE *f = fopen(path, "re");
	bool ok;

	if (!f)
		return false;
	ok = fscanf(f, "%ld", out) == 1;
	fclose(f);
	return ok;
}

/* "Seccomp: 2" in /proc/self/status means a filter is installed. */
static bool seccomp_filtered(void)
{
	FILE *f = fopen(paths.status, "re");
	char line[256];
	bool filtered = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Seccomp:", 8)) {
			filtered = atoi(line + 8) == 2;
			break;
		}
	}
	fclose(f);
	return filtered;
}

/* Accumulates into a bounded buffer, counting what did not fit. */
struct msg {
	char *buf;
	size_t len;
	size_t used;
};

__attribute__((format(printf, 2, 3)))
static void add(struct msg *m, const char *fmt, ...)
{
	va_list ap;
	size_t room = m->used < m->len ? m->len - m->used : 0;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? m->buf + m->used : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		m->used += (size_t)n;
}

static const char *type_name(uint32_t type)
{
	switch (type) {
	case SONDE_PERF_TYPE_HARDWARE: return "hardware";
	case SONDE_PERF_TYPE_SOFTWARE: return "software";
	case SONDE_PERF_TYPE_TRACEPOINT: return "tracepoint";
	case SONDE_PERF_TYPE_HW_CACHE: return "hardware cache";
	case SONDE_PERF_TYPE_RAW: return "raw";
	case SONDE_PERF_TYPE_BREAKPOINT: return "breakpoint";
	default: return "dynamic PMU";
	}
}

static bool is_hw(const struct sonde_perf_event_attr *a)
{
	return a && (a->type == SONDE_PERF_TYPE_HARDWARE ||
		     a->type == SONDE_PERF_TYPE_HW_CACHE ||
		     a->type == SONDE_PERF_TYPE_RAW);
}

static bool have_cpu_pmu(void)
{
	static const char *const names[] = { "cpu", "cpu_core", "cpu_atom",
					     "armv8_pmuv3_0", "cpum_cf" };
	char path[512];
	struct stat st;

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(path, sizeof(path), "%s/%s", paths.pmu_dir, names[i]);
		if (!stat(path, &st))
			return true;
	}
	return false;
}

static void describe_event(struct msg *m, const struct sonde_perf_event_attr *a)
{
	if (a)
		add(m, "%s event (type %u, config %#llx)", type_name(a->type),
		    a->type, (unsigned long long)a->config);
	else
		add(m, "the event");
}

/* Where the kernel lives: the top half of the address space. */
static bool kernel_address(uint64_t addr)
{
	return sizeof(long) == 8 ? addr >= 0xffff800000000000ULL :
				   addr >= 0xc0000000ULL;
}

/* A user-only software event on ourselves: allowed at level 2. */
static bool user_only_opens(void)
{
	struct sonde_perf_event_attr c = { 0 };
	int fd;

	c.size = sizeof(c);
	c.type = SONDE_PERF_TYPE_SOFTWARE;
	c.config = SONDE_PERF_COUNT_SW_TASK_CLOCK;
	c.disabled = 1;
	c.exclude_kernel = 1;
	c.exclude_hv = 1;
	fd = sonde_sys_ops()->perf_event_open(&c, 0, -1, -1,
					      SONDE_PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return false;
	sonde_sys_ops()->close(fd);
	return true;
}

static void describe_perm(struct msg *m, const struct sonde_perf_event_attr *a,
			  pid_t pid, int cpu)
{
	long level;
	bool have_level = read_long(paths.paranoid, &level);
	bool kernel = a && !a->exclude_kernel;
	bool syswide = pid == -1 && cpu >= 0;
	int want, shown = 0;

	add(m, "permission denied for ");
	describe_event(m, a);
	/* hw_breakpoint_arch_parse(): the trap path is CAP_SYS_ADMIN's only. */
	if (a && a->type == SONDE_PERF_TYPE_BREAKPOINT && kernel_address(a->bp_addr)) {
		add(m, ": a breakpoint on a kernel address (%#llx) needs "
		    "CAP_SYS_ADMIN, whatever kernel.perf_event_paranoid says; "
		    "watch a user-space address instead.",
		    (unsigned long long)a->bp_addr);
		return;
	}
	if (!have_level) {
		add(m, ": %s is unreadable, so perf events may be disabled. "
		    "Run with CAP_PERFMON (Linux 5.8+) or CAP_SYS_ADMIN.",
		    paths.paranoid);
		return;
	}
	add(m, ": kernel.perf_event_paranoid is %ld", level);
	/* Upstream kernels treat 3 and up like 2; only a distro patch
	 * (Debian/Ubuntu) forbids everything. Find out which this is. */
	if (level >= 3 && user_only_opens()) {
		add(m, " (which this kernel treats like 2)");
		level = 2;
		shown = 3;
	}
	if (level >= 3) {
		add(m, ", which forbids unprivileged use of perf events "
		    "altogether (a Debian/Ubuntu setting)");
	} else if (syswide && level >= 1) {
		add(m, "; counting a whole CPU (system-wide, cpu %d) needs it "
		    "at 0 or below", cpu);
	} else if (kernel && level >= 2) {
		add(m, "; counting kernel code needs it at 1 or below");
	} else if (pid > 0) {
		add(m, "; watching pid %d also needs ptrace access to it "
		    "(same user, and kernel.yama.ptrace_scope permitting)",
		    (int)pid);
	}
	want = syswide ? 0 : kernel ? 1 : 2 < level ? 2 : (int)level;
	if (want < level || (shown && want < shown))
		add(m, ". To allow it: `sysctl -w kernel.perf_event_paranoid=%d`, "
		    "or give the program CAP_PERFMON (Linux 5.8+) or CAP_SYS_ADMIN",
		    want);
	else if (pid > 0) /* the setting is not what stands in the way */
		add(m, ". To allow it: run as the user that owns pid %d, or give "
		    "the program CAP_PERFMON (Linux 5.8+) or CAP_SYS_ADMIN",
		    (int)pid);
	else
		add(m, ". To allow it: give the program CAP_PERFMON (Linux 5.8+) "
		    "or CAP_SYS_ADMIN");
	if (kernel && !syswide && level == 2)
		add(m, "; or count user space only: add the :u modifier "
		    "(exclude_kernel=1)");
	add(m, ".");
	if (geteuid() == 0 && level < 3)
		add(m, " (Already root: a security module such as SELinux, or "
		    "kernel lockdown, may be refusing it%s.)",
		    a && (a->exclude_idle || a->exclude_hv) ?
		    "; or this architecture's PMU refuses the exclude_idle / "
		    "exclude_hv setting, which some say with EPERM" : "");
}

/* The attr field that starts at byte @off, for E2BIG messages. */
static const char *field_at(uint32_t off)
{
	static const struct { uint32_t off; const char *name; } f[] = {
		{ 64, "config2 / bp_len" },
		{ 72, "branch_sample_type" },
		{ 80, "sample_regs_user" },
		{ 88, "sample_stack_user" },
		{ 92, "clockid" },
		{ 96, "sample_regs_intr" },
		{ 104, "aux_watermark" },
		{ 108, "sample_max_stack" },
		{ 112, "aux_sample_size" },
		{ 116, "aux_action" },
		{ 120, "sig_data" },
		{ 128, "config3" },
	};
	const char *name = "an unknown field";

	for (size_t i = 0; i < ARRAY_SIZE(f); i++)
		if (f[i].off <= off)
			name = f[i].name;
	return name;
}

static void describe_e2big(struct msg *m, const struct sonde_perf_event_attr *a)
{
	uint32_t ksize = sonde_event_open_kernel_attr_size();
	const unsigned char *p = (const unsigned char *)a;

	if (a && a->size && a->size < SONDE_PERF_ATTR_SIZE_VER0) {
		add(m, "attr.size %u is smaller than the first published "
		    "perf_event_attr (%d bytes, PERF_ATTR_SIZE_VER0): set it "
		    "to sizeof(struct sonde_perf_event_attr).",
		    (unsigned int)a->size, SONDE_PERF_ATTR_SIZE_VER0);
		return;
	}
	if (a && a->size > (uint32_t)sysconf(_SC_PAGESIZE)) {
		add(m, "attr.size %u is larger than a page, which the kernel "
		    "refuses: set it to sizeof(struct sonde_perf_event_attr).",
		    (unsigned int)a->size);
		return;
	}
	add(m, "the kernel does not know the full perf_event_attr");
	if (!a || !ksize) {
		add(m, " (it wanted a smaller or differently sized attr): "
		    "the kernel is older than the attr fields in use.");
		return;
	}
	add(m, ": it knows %u bytes", ksize);
	for (uint32_t i = ksize; i < sizeof(*a); i++) {
		if (p[i]) {
			add(m, " but %s (byte %u) is set; that field needs a "
			    "newer kernel. Leave it at zero to run here.",
			    field_at(i), i);
			return;
		}
	}
	add(m, ".");
}

/*
 * Uncore, msr and similar PMUs only count: EINVAL for any sampling attr.
 * Tell that apart from a bad config by opening the event without it.
 */
static bool counts_without_sampling(const struct sonde_perf_event_attr *a,
				    pid_t pid, int cpu)
{
	struct sonde_perf_event_attr c = { 0 };
	int fd;

	/* The event alone: no sampling, side-band or read_format extras. */
	c.size = sizeof(c);
	c.type = a->type;
	c.config = a->config;
	c.config1 = a->config1;
	c.config2 = a->config2;
	c.exclude_user = a->exclude_user;
	c.exclude_kernel = a->exclude_kernel;
	c.exclude_hv = a->exclude_hv;
	c.disabled = 1;
	fd = sonde_sys_ops()->perf_event_open(&c, pid, cpu, -1,
					      SONDE_PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return false;
	sonde_sys_ops()->close(fd);
	return true;
}

/*
 * A breakpoint's config is unused: the cause is its access, length or
 * address. x86 debug registers watch writes, reads and writes, or
 * execution, never reads alone.
 */
static void describe_bp_einval(struct msg *m, const struct sonde_perf_event_attr *a)
{
	unsigned t = a->bp_type;

#if defined(__x86_64__) || defined(__i386__)
	if (t == SONDE_HW_BREAKPOINT_R) {
		add(m, ": x86 breakpoints cannot watch reads alone; use :rw "
		    "(reads and writes) or :w.");
		return;
	}
#endif
	if ((t & SONDE_HW_BREAKPOINT_X) && t != SONDE_HW_BREAKPOINT_X) {
		add(m, ": an execute breakpoint (x) cannot also watch reads "
		    "or writes; use x alone.");
		return;
	}
	if (t == SONDE_HW_BREAKPOINT_X && a->bp_len != sizeof(long)) {
		add(m, ": an execute breakpoint must be %zu bytes long on "
		    "this machine (drop /LEN).", sizeof(long));
		return;
	}
	add(m, ": access %s%s%s, %llu bytes at %#llx: the address must be "
	    "aligned to the length, and the access and length supported by "
	    "this CPU's debug registers.",
	    t & SONDE_HW_BREAKPOINT_R ? "r" : "", t & SONDE_HW_BREAKPOINT_W ? "w" : "",
	    t & SONDE_HW_BREAKPOINT_X ? "x" : "",
	    (unsigned long long)a->bp_len, (unsigned long long)a->bp_addr);
}

static void describe_einval(struct msg *m, const struct sonde_perf_event_attr *a,
			    pid_t pid, int cpu)
{
	uint64_t missing = sonde_event_open_missing();
	long v;

	if (pid == -1 && cpu == -1) {
		add(m, "pid -1 with cpu -1 (every task on every CPU) is no "
		    "target perf_event_open takes: give a task (pid >= 0) or "
		    "a CPU (cpu >= 0), one event per CPU for system-wide.");
		return;
	}
	add(m, "the kernel rejected an attribute of ");
	describe_event(m, a);
	if (!a) {
		add(m, " (invalid argument).");
		return;
	}
	if (a->freq && a->sample_freq == 0) {
		add(m, ": freq is set with sample_freq 0; give a frequency "
		    "(e.g. -F 1000) or clear freq.");
		return;
	}
	if (a->freq && read_long(paths.max_rate, &v) && v > 0 &&
	    a->sample_freq > (uint64_t)v) {
		add(m, ": sample_freq %llu is above "
		    "kernel.perf_event_max_sample_rate (%ld).",
		    (unsigned long long)a->sample_freq, v);
		return;
	}
	if (a->precise_ip) {
		add(m, ": precise_ip=%u (the :p modifiers) is likely "
		    "unsupported for this event; try fewer p's.",
		    (unsigned int)a->precise_ip);
		return;
	}
	if (a->sample_type & ~(uint64_t)(SONDE_PERF_SAMPLE_MAX - 1)) {
		add(m, ": sample_type %#llx has bits no kernel knows.",
		    (unsigned long long)a->sample_type);
		return;
	}
	if (a->read_format & ~(uint64_t)(SONDE_PERF_FORMAT_MAX - 1)) {
		add(m, ": read_format %#llx has unknown bits.",
		    (unsigned long long)a->read_format);
		return;
	}
	if (a->__reserved_1) {
		add(m, ": reserved flag bits are set.");
		return;
	}
	/* The rules of the 5.13 flags (sigtrap, remove_on_exec, inherit_thread). */
	if (a->sigtrap && !a->remove_on_exec) {
		add(m, ": sigtrap needs remove_on_exec too (no signal may reach a "
		    "program exec'd after the event was opened).");
		return;
	}
	if (a->sigtrap && pid == -1) {
		add(m, ": sigtrap needs a task (pid >= 0), not a CPU-wide event: "
		    "the signal goes to the task that triggered it.");
		return;
	}
	if (a->remove_on_exec && a->enable_on_exec) {
		add(m, ": remove_on_exec and enable_on_exec contradict each "
		    "other; pick one.");
		return;
	}
	if (a->inherit_thread && !a->inherit) {
		add(m, ": inherit_thread only narrows inherit; set inherit too.");
		return;
	}
	for (int f = 0; f < SONDE_ATTR_FEAT_MAX; f++) {
		if ((missing & (1ULL << f)) && evopen_has_feature(a, 0, f)) {
			add(m, ": this kernel lacks %s.",
			    sonde_attr_feature_name(f));
			return;
		}
	}
	if (cpu >= 0 && cpu >= sysconf(_SC_NPROCESSORS_CONF)) {
		add(m, ": cpu %d does not exist.", cpu);
		return;
	}
	if (a->use_clockid) {
		add(m, ": clockid %d may be unsupported.", (int)a->clockid);
		return;
	}
	if (a->inherit && (a->read_format & SONDE_PERF_FORMAT_GROUP)) {
		add(m, ": inherit with read_format GROUP needs Linux 6.0+.");
		return;
	}
	if (a->sample_period && !a->freq &&
	    (int64_t)a->sample_period < 0) {
		add(m, ": sample_period %llu is too large.",
		    (unsigned long long)a->sample_period);
		return;
	}
	if (a->type == SONDE_PERF_TYPE_BREAKPOINT) {
		describe_bp_einval(m, a);
		return;
	}
	if (a->type >= SONDE_PERF_TYPE_MAX && (a->freq || a->sample_period) &&
	    counts_without_sampling(a, pid, cpu)) {
		add(m, ": this PMU counts but cannot sample (it refuses a "
		    "sample period or frequency); count it with `sonde stat` "
		    "instead.");
		return;
	}
	if (a->pinned || a->exclusive) {
		add(m, ": %s is allowed on a group leader only (group_fd -1): "
		    "if this event joins a group, clear it; otherwise config "
		    "%#llx is not a valid %s event.",
		    a->pinned ? "pinned" : "exclusive",
		    (unsigned long long)a->config, type_name(a->type));
		return;
	}
	add(m, ": most likely config %#llx is not a valid %s event, or a "
	    "flag this kernel does not support is set.",
	    (unsigned long long)a->config, type_name(a->type));
}

/* EOPNOTSUPP from sonde_event_open(): a feature it would not drop. */
static bool describe_missing_required(struct msg *m,
				      const struct sonde_perf_event_attr *a)
{
	static const enum sonde_attr_feature req[] = {
		SONDE_ATTR_FEAT_WRITE_BACKWARD, SONDE_ATTR_FEAT_AUX_OUTPUT,
		SONDE_ATTR_FEAT_SIGTRAP,
	};
	uint64_t missing = sonde_event_open_missing();

	for (size_t i = 0; i < ARRAY_SIZE(req); i++) {
		if ((missing & (1ULL << req[i])) &&
		    evopen_has_feature(a, 0, req[i])) {
			add(m, "this kernel lacks %s, which ",
			    sonde_attr_feature_name(req[i]));
			describe_event(m, a);
			add(m, " needs; it cannot be dropped without changing "
			    "the results. A newer kernel is needed.");
			return true;
		}
	}
	return false;
}

/*
 * ENOSPC comes from the breakpoint slot accounting: each CPU has a few
 * debug registers (4 on x86) shared by every breakpoint event and ptrace
 * watchpoint that may run there.
 */
static void describe_enospc(struct msg *m, const struct sonde_perf_event_attr *a)
{
	if (a && a->type == SONDE_PERF_TYPE_BREAKPOINT) {
		add(m, "no free hardware breakpoint slot for the breakpoint at "
		    "%#llx (len %llu): the CPU has only a few debug registers "
		    "(4 on x86), and other breakpoint events on this task or "
		    "CPU, a debugger's watchpoints or another tool hold them. "
		    "Close some breakpoint events or watch fewer addresses.",
		    (unsigned long long)a->bp_addr,
		    (unsigned long long)a->bp_len);
		return;
	}
	describe_event(m, a);
	add(m, " found no room in a fixed kernel resource (ENOSPC; for "
	    "breakpoints: the debug registers).");
}

int sonde_open_error_describe(int err, const struct sonde_perf_event_attr *attr,
			      pid_t pid, int cpu, char *buf, size_t len)
{
	struct msg m = { .buf = buf, .len = len };
	struct rlimit rl;
	long v;

	if (!buf && len)
		return lib_err(EINVAL);
	if (len)
		buf[0] = '\0';
	if (err < 0)
		err = -err;

	switch (err) {
	case EACCES:
	case EPERM:
		if (seccomp_filtered() && err == EPERM) {
			add(&m, "perf_event_open is blocked by a seccomp filter "
			    "(Seccomp: 2 in /proc/self/status): perf events "
			    "are blocked in this container or sandbox. Allow "
			    "the perf_event_open syscall in its seccomp profile "
			    "(Docker: --security-opt seccomp=... or "
			    "--cap-add PERFMON with a recent profile).");
			break;
		}
		describe_perm(&m, attr, pid, cpu);
		break;
	case ENOSYS:
		if (attr && (attr->sample_type & SONDE_PERF_SAMPLE_STACK_USER)) {
			add(&m, "user stack sampling (PERF_SAMPLE_STACK_USER, "
			    "DWARF call graphs) is not supported by this "
			    "architecture or kernel: record frame-pointer call "
			    "chains instead (call-graph=fp).");
			break;
		}
		add(&m, "perf_event_open is not available: the kernel was "
		    "built without CONFIG_PERF_EVENTS, or perf events are "
		    "blocked in this container (a seccomp filter returning "
		    "ENOSYS).");
		break;
	case ENOENT:
	case ENODEV:
	case EOPNOTSUPP:
		if (err == EOPNOTSUPP && attr && describe_missing_required(&m, attr))
			break;
		describe_event(&m, attr);
		if (err == EOPNOTSUPP)
			add(&m, " asks for a feature this CPU or kernel does not "
			    "support");
		else
			add(&m, " is not supported by this CPU or kernel");
		if (is_hw(attr) && !have_cpu_pmu())
			add(&m, ": no hardware PMU is exposed (%s/cpu is "
			    "missing), as is common in virtual machines; use "
			    "software events such as task-clock instead",
			    paths.pmu_dir);
		else if (err == EOPNOTSUPP && attr && attr->sample_period)
			add(&m, " (sampling may need an overflow interrupt this "
			    "PMU lacks, or a branch stack / precise_ip it "
			    "cannot give)");
		else if (err == ENODEV && cpu >= 0)
			add(&m, " on cpu %d (offline, or not served by this PMU)",
			    cpu);
		add(&m, ".");
		break;
	case EMFILE:
		if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
			add(&m, "too many open files: the fd limit "
			    "(RLIMIT_NOFILE) is %llu and each event needs one "
			    "fd per CPU and thread. ",
			    (unsigned long long)rl.rlim_cur);
			if (rl.rlim_max == RLIM_INFINITY || rl.rlim_max > rl.rlim_cur)
				add(&m, "Raise it with `ulimit -n %llu`",
				    (unsigned long long)(rl.rlim_max == RLIM_INFINITY ?
							 rl.rlim_cur * 4 : rl.rlim_max));
			else
				add(&m, "That is also the hard limit: raise it as "
				    "root (`ulimit -Hn %llu`, or limits.conf)",
				    (unsigned long long)rl.rlim_cur * 4);
			add(&m, ", or count fewer events/threads.");
		} else {
			add(&m, "too many open files; raise `ulimit -n`.");
		}
		break;
	case ENFILE:
		add(&m, "the system-wide file table is full (fs.file-max).");
		break;
	case ESRCH:
		add(&m, "no process or thread %d: it does not exist or has "
		    "already exited.", (int)pid);
		break;
	case EBUSY:
		add(&m, "the PMU is busy: another user holds it exclusively "
		    "(an exclusive or pinned event, or a tool or hypervisor "
		    "owning the counters).");
		break;
	case EOVERFLOW:
		add(&m, "the requested callchain is too deep: "
		    "sample_max_stack %u",
		    attr ? (unsigned int)attr->sample_max_stack : 0U);
		if (read_long(paths.max_stack, &v))
			add(&m, " exceeds kernel.perf_event_max_stack (%ld); "
			    "lower it or raise the sysctl.", v);
		else
			add(&m, " exceeds kernel.perf_event_max_stack.");
		break;
	case E2BIG:
		describe_e2big(&m, attr);
		break;
	case EINVAL:
		describe_einval(&m, attr, pid, cpu);
		break;
	case ENOSPC:
		describe_enospc(&m, attr);
		break;
	case EINTR:
		add(&m, "perf_event_open was interrupted by a signal while it "
		    "waited for the target task (for instance one in the "
		    "middle of an exec); the kernel does not restart it: "
		    "call it again.");
		/* probe_event_enable(): one trace_uprobe, perf's or ftrace's. */
		if (!attr || attr->type == SONDE_PERF_TYPE_TRACEPOINT)
			add(&m, " For a uprobe tracepoint, EINTR also means "
			    "ftrace (tracefs) has the probe enabled: perf and "
			    "ftrace cannot share one; disable it in tracefs.");
		break;
	case EBADF:
		add(&m, "a file descriptor given with the event is not valid: "
		    "the group leader's (group_fd) is closed or no perf "
		    "event, or for a cgroup event (PERF_FLAG_PID_CGROUP) "
		    "pid %d is no open cgroup directory.", (int)pid);
		break;
	case EFAULT:
		add(&m, "the kernel could not read the attr (EFAULT): the "
		    "pointer is invalid, or attr.size");
		if (attr)
			add(&m, " (%u)", (unsigned int)attr->size);
		add(&m, " claims more bytes than the buffer holds.");
		break;
	default:
		add(&m, "perf_event_open failed: %s.", strerror(err));
		break;
	}
	return m.used > INT32_MAX ? INT32_MAX : (int)m.used;
}
