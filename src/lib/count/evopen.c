// SPDX-License-Identifier: LGPL-2.1-only
/*
 * perf_event_open(2) negotiated with the running kernel: shrink attr->size
 * after E2BIG, give up optional features after EINVAL, and remember what
 * this kernel lacks so the next open needs one system call.
 */
#include <fcntl.h>
#include <stddef.h>
#include <string.h>
#include "sonde/sys.h"
#include "count_priv.h"
#include "core_priv.h"

/*
 * Learnt per process: a kernel does not change under a running program,
 * but a new seam table (sonde_sys_set_ops()) stands for another one.
 */
static uint64_t feat_missing;
static uint64_t feat_present;
static uint32_t kernel_attr_size;
/* Features whose loss changes what the caller sees, already warned about. */
static uint64_t feat_warned;
/* sys_ops_generation() when the above was learnt. */
static unsigned learnt_generation;

/* Forgets what was learnt about a kernel behind a seam table since replaced. */
static void forget_replaced_kernel(void)
{
	unsigned gen = sys_ops_generation();

	if (__atomic_load_n(&learnt_generation, __ATOMIC_RELAXED) == gen)
		return;
	__atomic_store_n(&feat_warned, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&feat_missing, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&feat_present, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&kernel_attr_size, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&learnt_generation, gen, __ATOMIC_RELAXED);
}

uint64_t sonde_event_open_missing(void)
{
	forget_replaced_kernel();
	return __atomic_load_n(&feat_missing, __ATOMIC_RELAXED);
}

uint32_t sonde_event_open_kernel_attr_size(void)
{
	forget_replaced_kernel();
	return __atomic_load_n(&kernel_attr_size, __ATOMIC_RELAXED);
}

static const char *const feat_names[SONDE_ATTR_FEAT_MAX] = {
	[SONDE_ATTR_FEAT_READ_LOST] = "read_format LOST",
	[SONDE_ATTR_FEAT_WEIGHT_STRUCT] = "sample_type WEIGHT_STRUCT",
	[SONDE_ATTR_FEAT_BUILD_ID] = "build_id",
	[SONDE_ATTR_FEAT_PAGE_SIZE] = "sample_type DATA_PAGE_SIZE/CODE_PAGE_SIZE",
	[SONDE_ATTR_FEAT_TEXT_POKE] = "text_poke",
	[SONDE_ATTR_FEAT_CGROUP] = "cgroup",
	[SONDE_ATTR_FEAT_SAMPLE_CGROUP] = "sample_type CGROUP",
	[SONDE_ATTR_FEAT_AUX_OUTPUT] = "aux_output",
	[SONDE_ATTR_FEAT_KSYMBOL] = "ksymbol",
	[SONDE_ATTR_FEAT_BPF_EVENT] = "bpf_event",
	[SONDE_ATTR_FEAT_NAMESPACES] = "namespaces",
	[SONDE_ATTR_FEAT_WRITE_BACKWARD] = "write_backward",
	[SONDE_ATTR_FEAT_CONTEXT_SWITCH] = "context_switch",
	[SONDE_ATTR_FEAT_CLOCKID] = "use_clockid",
	[SONDE_ATTR_FEAT_COMM_EXEC] = "comm_exec",
	[SONDE_ATTR_FEAT_CLOEXEC] = "PERF_FLAG_FD_CLOEXEC",
	[SONDE_ATTR_FEAT_SAMPLE_IDENTIFIER] = "sample_type IDENTIFIER",
	[SONDE_ATTR_FEAT_MMAP2] = "mmap2",
	[SONDE_ATTR_FEAT_EXCLUDE_GUEST] = "exclude_guest/exclude_host",
	[SONDE_ATTR_FEAT_SAMPLE_ID_ALL] = "sample_id_all",
	[SONDE_ATTR_FEAT_INHERIT_THREAD] = "inherit_thread",
	[SONDE_ATTR_FEAT_REMOVE_ON_EXEC] = "remove_on_exec",
	[SONDE_ATTR_FEAT_SIGTRAP] = "sigtrap",
};

/* The order features are given up in: newest kernel feature first. */
static const enum sonde_attr_feature drop_order[SONDE_ATTR_FEAT_MAX] = {
	SONDE_ATTR_FEAT_READ_LOST,		/* 6.0 */
	SONDE_ATTR_FEAT_SIGTRAP,		/* 5.13 */
	SONDE_ATTR_FEAT_REMOVE_ON_EXEC,
	SONDE_ATTR_FEAT_INHERIT_THREAD,
	SONDE_ATTR_FEAT_WEIGHT_STRUCT,		/* 5.12 */
	SONDE_ATTR_FEAT_BUILD_ID,
	SONDE_ATTR_FEAT_PAGE_SIZE,		/* 5.11 */
	SONDE_ATTR_FEAT_TEXT_POKE,
	SONDE_ATTR_FEAT_CGROUP,
	SONDE_ATTR_FEAT_SAMPLE_CGROUP,
	SONDE_ATTR_FEAT_AUX_OUTPUT,
	SONDE_ATTR_FEAT_KSYMBOL,
	SONDE_ATTR_FEAT_BPF_EVENT,
	SONDE_ATTR_FEAT_NAMESPACES,
	SONDE_ATTR_FEAT_WRITE_BACKWARD,
	SONDE_ATTR_FEAT_CONTEXT_SWITCH,
	SONDE_ATTR_FEAT_CLOCKID,
	SONDE_ATTR_FEAT_COMM_EXEC,
	SONDE_ATTR_FEAT_CLOEXEC,
	SONDE_ATTR_FEAT_SAMPLE_IDENTIFIER,
	SONDE_ATTR_FEAT_MMAP2,
	SONDE_ATTR_FEAT_EXCLUDE_GUEST,
	SONDE_ATTR_FEAT_SAMPLE_ID_ALL,
};

const char *sonde_attr_feature_name(enum sonde_attr_feature f)
{
	if ((unsigned int)f >= SONDE_ATTR_FEAT_MAX)
		return "unknown";
	return feat_names[f];
}

/* Dropping these would silently change what the caller gets back. */
static bool feature_required(enum sonde_attr_feature f)
{
	return f == SONDE_ATTR_FEAT_AUX_OUTPUT ||
	       f == SONDE_ATTR_FEAT_WRITE_BACKWARD ||
	       f == SONDE_ATTR_FEAT_SIGTRAP;
}

/* Dropped, these leave an event that works but not as asked: say so. */
static const char *feature_loss(enum sonde_attr_feature f)
{
	switch (f) {
	case SONDE_ATTR_FEAT_INHERIT_THREAD:
		return "events follow child processes too, not only threads";
	case SONDE_ATTR_FEAT_REMOVE_ON_EXEC:
		return "events stay open across exec";
	default:
		return NULL;
	}
}

/* Once per process and feature, whichever event lost it first. */
static void warn_lost(const struct sonde_perf_event_attr *asked,
		      unsigned long aflags,
		      const struct sonde_perf_event_attr *got,
		      unsigned long gflags)
{
	for (int f = 0; f < SONDE_ATTR_FEAT_MAX; f++) {
		const char *loss = feature_loss(f);

		if (!loss || !evopen_has_feature(asked, aflags, f) ||
		    evopen_has_feature(got, gflags, f) ||
		    (__atomic_fetch_or(&feat_warned, 1ULL << f,
				       __ATOMIC_RELAXED) & (1ULL << f)))
			continue;
		pr_warn("this kernel lacks %s (Linux 5.13+): opened without "
			"it, %s\n", feat_names[f], loss);
	}
}

bool evopen_has_feature(const struct sonde_perf_event_attr *a,
			unsigned long flags, enum sonde_attr_feature f)
{
	switch (f) {
	case SONDE_ATTR_FEAT_READ_LOST:
		return a->read_format & SONDE_PERF_FORMAT_LOST;
	case SONDE_ATTR_FEAT_WEIGHT_STRUCT:
		return a->sample_type & SONDE_PERF_SAMPLE_WEIGHT_STRUCT;
	case SONDE_ATTR_FEAT_BUILD_ID:
		return a->build_id;
	case SONDE_ATTR_FEAT_PAGE_SIZE:
		return a->sample_type & (SONDE_PERF_SAMPLE_DATA_PAGE_SIZE |
					 SONDE_PERF_SAMPLE_CODE_PAGE_SIZE);
	case SONDE_ATTR_FEAT_TEXT_POKE:
		return a->text_poke;
	case SONDE_ATTR_FEAT_CGROUP:
		return a->cgroup;
	case SONDE_ATTR_FEAT_SAMPLE_CGROUP:
		return a->sample_type & SONDE_PERF_SAMPLE_CGROUP;
	case SONDE_ATTR_FEAT_AUX_OUTPUT:
		return a->aux_output;
	case SONDE_ATTR_FEAT_KSYMBOL:
		return a->ksymbol;
	case SONDE_ATTR_FEAT_BPF_EVENT:
		return a->bpf_event;
	case SONDE_ATTR_FEAT_NAMESPACES:
		return a->namespaces;
	case SONDE_ATTR_FEAT_WRITE_BACKWARD:
		return a->write_backward;
	case SONDE_ATTR_FEAT_CONTEXT_SWITCH:
		return a->context_switch;
	case SONDE_ATTR_FEAT_CLOCKID:
		return a->use_clockid;
	case SONDE_ATTR_FEAT_COMM_EXEC:
		return a->comm_exec;
	case SONDE_ATTR_FEAT_CLOEXEC:
		return flags & SONDE_PERF_FLAG_FD_CLOEXEC;
	case SONDE_ATTR_FEAT_SAMPLE_IDENTIFIER:
		return a->sample_type & SONDE_PERF_SAMPLE_IDENTIFIER;
	case SONDE_ATTR_FEAT_MMAP2:
		return a->mmap2;
	case SONDE_ATTR_FEAT_EXCLUDE_GUEST:
		return a->exclude_guest || a->exclude_host;
	case SONDE_ATTR_FEAT_SAMPLE_ID_ALL:
		return a->sample_id_all;
	case SONDE_ATTR_FEAT_INHERIT_THREAD:
		return a->inherit_thread;
	case SONDE_ATTR_FEAT_REMOVE_ON_EXEC:
		return a->remove_on_exec;
	case SONDE_ATTR_FEAT_SIGTRAP:
		return a->sigtrap;
	case SONDE_ATTR_FEAT_MAX:
		break;
	}
	return false;
}

/* Give up @f the way an older kernel would have done it. */
static void drop_feature(struct sonde_perf_event_attr *a, unsigned long *flags,
			 enum sonde_attr_feature f)
{
	switch (f) {
	case SONDE_ATTR_FEAT_READ_LOST:
		a->read_format &= ~(uint64_t)SONDE_PERF_FORMAT_LOST;
		break;
	case SONDE_ATTR_FEAT_WEIGHT_STRUCT:
		a->sample_type &= ~(uint64_t)SONDE_PERF_SAMPLE_WEIGHT_STRUCT;
		a->sample_type |= SONDE_PERF_SAMPLE_WEIGHT;
		break;
	case SONDE_ATTR_FEAT_BUILD_ID:
		a->build_id = 0;
		break;
	case SONDE_ATTR_FEAT_PAGE_SIZE:
		a->sample_type &= ~(uint64_t)(SONDE_PERF_SAMPLE_DATA_PAGE_SIZE |
					      SONDE_PERF_SAMPLE_CODE_PAGE_SIZE);
		break;
	case SONDE_ATTR_FEAT_TEXT_POKE:
		a->text_poke = 0;
		break;
	case SONDE_ATTR_FEAT_CGROUP:
		a->cgroup = 0;
		break;
	case SONDE_ATTR_FEAT_SAMPLE_CGROUP:
		a->sample_type &= ~(uint64_t)SONDE_PERF_SAMPLE_CGROUP;
		break;
	case SONDE_ATTR_FEAT_AUX_OUTPUT:
		a->aux_output = 0;
		break;
	case SONDE_ATTR_FEAT_KSYMBOL:
		a->ksymbol = 0;
		break;
	case SONDE_ATTR_FEAT_BPF_EVENT:
		a->bpf_event = 0;
		break;
	case SONDE_ATTR_FEAT_NAMESPACES:
		a->namespaces = 0;
		break;
	case SONDE_ATTR_FEAT_WRITE_BACKWARD:
		a->write_backward = 0;
		break;
	case SONDE_ATTR_FEAT_CONTEXT_SWITCH:
		a->context_switch = 0;
		break;
	case SONDE_ATTR_FEAT_CLOCKID:
		a->use_clockid = 0;
		a->clockid = 0;
		break;
	case SONDE_ATTR_FEAT_COMM_EXEC:
		a->comm_exec = 0;
		break;
	case SONDE_ATTR_FEAT_CLOEXEC:
		*flags &= ~SONDE_PERF_FLAG_FD_CLOEXEC;
		break;
	case SONDE_ATTR_FEAT_SAMPLE_IDENTIFIER:
		a->sample_type &= ~(uint64_t)SONDE_PERF_SAMPLE_IDENTIFIER;
		a->sample_type |= SONDE_PERF_SAMPLE_ID;
		break;
	case SONDE_ATTR_FEAT_MMAP2:
		a->mmap2 = 0;
		a->mmap = 1;
		break;
	case SONDE_ATTR_FEAT_EXCLUDE_GUEST:
		a->exclude_guest = 0;
		a->exclude_host = 0;
		break;
	case SONDE_ATTR_FEAT_SAMPLE_ID_ALL:
		a->sample_id_all = 0;
		break;
	case SONDE_ATTR_FEAT_INHERIT_THREAD:
		a->inherit_thread = 0;
		break;
	case SONDE_ATTR_FEAT_REMOVE_ON_EXEC:
		a->remove_on_exec = 0;
		break;
	case SONDE_ATTR_FEAT_SIGTRAP:
		a->sigtrap = 0;
		break;
	case SONDE_ATTR_FEAT_MAX:
		break;
	}
}

/* Undo drop_feature(): copy @f's fields back from the attr that had it. */
static void restore_feature(struct sonde_perf_event_attr *a,
			    unsigned long *flags,
			    const struct sonde_perf_event_attr *o,
			    unsigned long oflags, enum sonde_attr_feature f)
{
	uint64_t st_bits = 0, rf_bits = 0;

	switch (f) {
	case SONDE_ATTR_FEAT_READ_LOST:
		rf_bits = SONDE_PERF_FORMAT_LOST;
		break;
	case SONDE_ATTR_FEAT_WEIGHT_STRUCT:
		st_bits = SONDE_PERF_SAMPLE_WEIGHT_STRUCT | SONDE_PERF_SAMPLE_WEIGHT;
		break;
	case SONDE_ATTR_FEAT_PAGE_SIZE:
		st_bits = SONDE_PERF_SAMPLE_DATA_PAGE_SIZE |
			  SONDE_PERF_SAMPLE_CODE_PAGE_SIZE;
		break;
	case SONDE_ATTR_FEAT_SAMPLE_CGROUP:
		st_bits = SONDE_PERF_SAMPLE_CGROUP;
		break;
	case SONDE_ATTR_FEAT_SAMPLE_IDENTIFIER:
		st_bits = SONDE_PERF_SAMPLE_IDENTIFIER | SONDE_PERF_SAMPLE_ID;
		break;
	case SONDE_ATTR_FEAT_BUILD_ID:
		a->build_id = o->build_id;
		break;
	case SONDE_ATTR_FEAT_TEXT_POKE:
		a->text_poke = o->text_poke;
		break;
	case SONDE_ATTR_FEAT_CGROUP:
		a->cgroup = o->cgroup;
		break;
	case SONDE_ATTR_FEAT_AUX_OUTPUT:
		a->aux_output = o->aux_output;
		break;
	case SONDE_ATTR_FEAT_KSYMBOL:
		a->ksymbol = o->ksymbol;
		break;
	case SONDE_ATTR_FEAT_BPF_EVENT:
		a->bpf_event = o->bpf_event;
		break;
	case SONDE_ATTR_FEAT_NAMESPACES:
		a->namespaces = o->namespaces;
		break;
	case SONDE_ATTR_FEAT_WRITE_BACKWARD:
		a->write_backward = o->write_backward;
		break;
	case SONDE_ATTR_FEAT_CONTEXT_SWITCH:
		a->context_switch = o->context_switch;
		break;
	case SONDE_ATTR_FEAT_CLOCKID:
		a->use_clockid = o->use_clockid;
		a->clockid = o->clockid;
		break;
	case SONDE_ATTR_FEAT_COMM_EXEC:
		a->comm_exec = o->comm_exec;
		break;
	case SONDE_ATTR_FEAT_CLOEXEC:
		*flags = (*flags & ~SONDE_PERF_FLAG_FD_CLOEXEC) |
			 (oflags & SONDE_PERF_FLAG_FD_CLOEXEC);
		break;
	case SONDE_ATTR_FEAT_MMAP2:
		a->mmap2 = o->mmap2;
		a->mmap = o->mmap;
		break;
	case SONDE_ATTR_FEAT_EXCLUDE_GUEST:
		a->exclude_guest = o->exclude_guest;
		a->exclude_host = o->exclude_host;
		break;
	case SONDE_ATTR_FEAT_SAMPLE_ID_ALL:
		a->sample_id_all = o->sample_id_all;
		break;
	case SONDE_ATTR_FEAT_INHERIT_THREAD:
		a->inherit_thread = o->inherit_thread;
		break;
	case SONDE_ATTR_FEAT_REMOVE_ON_EXEC:
		a->remove_on_exec = o->remove_on_exec;
		break;
	case SONDE_ATTR_FEAT_SIGTRAP:
		a->sigtrap = o->sigtrap;
		break;
	case SONDE_ATTR_FEAT_MAX:
		break;
	}
	a->sample_type = (a->sample_type & ~st_bits) | (o->sample_type & st_bits);
	a->read_format = (a->read_format & ~rf_bits) | (o->read_format & rf_bits);
}

static bool tail_is_zero(const struct sonde_perf_event_attr *a, uint32_t from)
{
	const unsigned char *p = (const unsigned char *)a;

	for (size_t i = from; i < sizeof(*a); i++)
		if (p[i])
			return false;
	return true;
}

static void mark(uint64_t *set, uint64_t bits)
{
	__atomic_fetch_or(set, bits, __ATOMIC_RELAXED);
}

static uint64_t present_mask(const struct sonde_perf_event_attr *a,
			     unsigned long flags)
{
	uint64_t m = 0;

	for (int f = 0; f < SONDE_ATTR_FEAT_MAX; f++)
		if (evopen_has_feature(a, flags, f))
			m |= 1ULL << f;
	return m;
}

/* One raw attempt; the kernel may rewrite attr->size (E2BIG). */
static int try_open(struct sonde_perf_event_attr *a, pid_t pid, int cpu,
		    int group_fd, unsigned long flags)
{
	int fd = sonde_sys_ops()->perf_event_open(a, pid, cpu, group_fd, flags);

	if (fd < 0)
		return -errno;
	/* Kernels before 3.14 lack the flag: set it the racy old way. */
	if (!(flags & SONDE_PERF_FLAG_FD_CLOEXEC))
		fcntl(fd, F_SETFD, FD_CLOEXEC);
	mark(&feat_present, present_mask(a, flags));
	return fd;
}

/*
 * The EINVAL dance: give features up newest first until the kernel takes
 * the attr, then put back the ones given up before the last, one at a time,
 * so a feature is only remembered missing when the kernel really lacks it.
 */
static int negotiate_features(struct sonde_perf_event_attr *a, pid_t pid,
			      int cpu, int group_fd, unsigned long *flags)
{
	const struct sonde_perf_event_attr orig = *a;
	const unsigned long oflags = *flags;
	enum sonde_attr_feature dropped[SONDE_ATTR_FEAT_MAX];
	uint64_t known = __atomic_load_n(&feat_present, __ATOMIC_RELAXED);
	int n = 0, fd = -EINVAL;

	for (int i = 0; i < SONDE_ATTR_FEAT_MAX; i++) {
		enum sonde_attr_feature f = drop_order[i];

		if (!evopen_has_feature(a, *flags, f) || (known & (1ULL << f)))
			continue;
		dropped[n++] = f;
		drop_feature(a, flags, f);
		pr_debug("kernel refused the attr (EINVAL): retrying without %s\n",
			 feat_names[f]);
		fd = try_open(a, pid, cpu, group_fd, *flags);
		if (fd >= 0 || fd != -EINVAL)
			break;
	}
	if (fd < 0)
		return fd;

	mark(&feat_missing, 1ULL << dropped[n - 1]);
	/* Put back what was dropped before the decisive one, if accepted. */
	for (int i = 0; i < n - 1; i++) {
		struct sonde_perf_event_attr t = *a;
		unsigned long tf = *flags;
		int fd2;

		restore_feature(&t, &tf, &orig, oflags, dropped[i]);
		fd2 = try_open(&t, pid, cpu, group_fd, tf);
		if (fd2 >= 0) {
			sonde_sys_ops()->close(fd);
			fd = fd2;
			*a = t;
			*flags = tf;
		} else {
			mark(&feat_missing, 1ULL << dropped[i]);
		}
	}
	for (int i = 0; i < n; i++) {
		if (feature_required(dropped[i]) &&
		    !evopen_has_feature(a, *flags, dropped[i])) {
			sonde_sys_ops()->close(fd);
			pr_debug("kernel lacks %s, which cannot be dropped\n",
				 feat_names[dropped[i]]);
			return -EOPNOTSUPP;
		}
	}
	return fd;
}

int sonde_event_open(struct sonde_perf_event_attr *attr, pid_t pid, int cpu,
		     int group_fd, unsigned long flags)
{
	struct sonde_perf_event_attr a;
	/* Through the getters: a kernel behind a replaced seam is forgotten. */
	uint64_t missing = sonde_event_open_missing();
	uint32_t ksize = sonde_event_open_kernel_attr_size();
	unsigned long oflags0;
	int fd;

	if (!attr)
		return lib_err(EINVAL);
	a = *attr;
	if (!a.size || a.size > sizeof(a))
		a.size = sizeof(a);
	flags |= SONDE_PERF_FLAG_FD_CLOEXEC;
	oflags0 = flags;

	/* Skip the dance for what this kernel is known to lack. */
	for (int f = 0; missing && f < SONDE_ATTR_FEAT_MAX; f++) {
		if (!(missing & (1ULL << f)) || !evopen_has_feature(&a, flags, f))
			continue;
		if (feature_required(f))
			return lib_err(EOPNOTSUPP);
		drop_feature(&a, &flags, f);
	}
	if (ksize && a.size > ksize) {
		if (!tail_is_zero(&a, ksize) && a.use_clockid &&
		    ksize <= offsetof(struct sonde_perf_event_attr, clockid))
			drop_feature(&a, &flags, SONDE_ATTR_FEAT_CLOCKID);
		if (!tail_is_zero(&a, ksize))
			return lib_err(E2BIG);
		a.size = ksize;
	}

	fd = try_open(&a, pid, cpu, group_fd, flags);
	if (fd == -E2BIG) {
		uint32_t want = a.size;

		/* The kernel wrote its own size; 0 or ours means no advice. */
		if (want < SONDE_PERF_ATTR_SIZE_VER0 || want >= sizeof(a))
			return lib_err(E2BIG);
		__atomic_store_n(&kernel_attr_size, want, __ATOMIC_RELAXED);
		/* clockid is the one optional field past VER0..VER2 sizes. */
		if (!tail_is_zero(&a, want) && a.use_clockid &&
		    want <= offsetof(struct sonde_perf_event_attr, clockid)) {
			drop_feature(&a, &flags, SONDE_ATTR_FEAT_CLOCKID);
			mark(&feat_missing, 1ULL << SONDE_ATTR_FEAT_CLOCKID);
		}
		if (!tail_is_zero(&a, want))
			return lib_err(E2BIG);
		pr_debug("kernel knows %u-byte attrs: retrying with that size\n",
			 want);
		fd = try_open(&a, pid, cpu, group_fd, flags);
	}
	if (fd == -EINVAL) {
		struct sonde_perf_event_attr orig = a;
		unsigned long oflags = flags;

		fd = negotiate_features(&a, pid, cpu, group_fd, &flags);
		if (fd == -EINVAL) {
			a = orig;
			flags = oflags;
		}
	}
	if (fd < 0)
		return lib_err(fd);
	warn_lost(attr, oflags0, &a, flags);
	*attr = a;
	return fd;
}
