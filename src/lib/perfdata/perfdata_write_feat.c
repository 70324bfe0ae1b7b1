// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Feature section payloads of perf.data, in the encodings perf reads:
 * strings are u32 length + NUL-padded to 64 bytes, lists are u32 count +
 * strings, NRCPUS is "available" then "online".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "perfdata_priv.h"
#include "core_priv.h"

const int pw_file_feats[] = {
	SONDE_FEAT_TRACING_DATA, SONDE_FEAT_BUILD_ID, SONDE_FEAT_HOSTNAME,
	SONDE_FEAT_OSRELEASE, SONDE_FEAT_VERSION, SONDE_FEAT_ARCH,
	SONDE_FEAT_NRCPUS, SONDE_FEAT_CPUDESC, SONDE_FEAT_TOTAL_MEM,
	SONDE_FEAT_CMDLINE, SONDE_FEAT_EVENT_DESC, SONDE_FEAT_CPU_TOPOLOGY,
	SONDE_FEAT_BRANCH_STACK, SONDE_FEAT_GROUP_DESC, SONDE_FEAT_AUXTRACE,
	SONDE_FEAT_SAMPLE_TIME, SONDE_FEAT_CLOCKID,
	SONDE_FEAT_CLOCK_DATA,
};
const size_t pw_nr_file_feats = ARRAY_SIZE(pw_file_feats);

/* perf never sends TRACING_DATA / BUILD_ID as features in a pipe. */
const int pw_pipe_feats[] = {
	SONDE_FEAT_HOSTNAME, SONDE_FEAT_OSRELEASE, SONDE_FEAT_VERSION,
	SONDE_FEAT_ARCH, SONDE_FEAT_NRCPUS, SONDE_FEAT_CPUDESC,
	SONDE_FEAT_TOTAL_MEM, SONDE_FEAT_CMDLINE, SONDE_FEAT_EVENT_DESC,
	SONDE_FEAT_CPU_TOPOLOGY, SONDE_FEAT_GROUP_DESC,
};
const size_t pw_nr_pipe_feats = ARRAY_SIZE(pw_pipe_feats);

void dbuf_put(struct dbuf *b, const void *src, size_t len)
{
	if (b->oom || !len)
		return;
	if (b->len + len > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		unsigned char *p;

		while (cap < b->len + len)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p) {
			b->oom = true;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	if (src)
		memcpy(b->p + b->len, src, len);
	else
		memset(b->p + b->len, 0, len);
	b->len += len;
}

void dbuf_u32(struct dbuf *b, uint32_t v)
{
	dbuf_put(b, &v, sizeof(v));
}

void dbuf_u64(struct dbuf *b, uint64_t v)
{
	dbuf_put(b, &v, sizeof(v));
}

void dbuf_string(struct dbuf *b, const char *s)
{
	size_t n = strlen(s) + 1;
	size_t padded = (n + 63) & ~(size_t)63;

	dbuf_u32(b, (uint32_t)padded);
	dbuf_put(b, s, n);
	dbuf_put(b, NULL, padded - n);
}

void dbuf_pad8(struct dbuf *b)
{
	dbuf_put(b, NULL, (8 - b->len % 8) % 8);
}

/* First "model name" of /proc/cpuinfo, trimmed. */
static bool cpu_desc(char *out, size_t size)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];
	bool found = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		char *c = strchr(line, ':');

		if (strncmp(line, "model name", 10) || !c)
			continue;
		c++;
		while (*c == ' ' || *c == '\t')
			c++;
		c[strcspn(c, "\n")] = 0;
		snprintf(out, size, "%s", c);
		found = true;
		break;
	}
	fclose(f);
	return found;
}

static bool total_mem_kb(uint64_t *kb)
{
	FILE *f = fopen("/proc/meminfo", "r");
	unsigned long long v;
	bool ok = false;

	if (!f)
		return false;
	if (fscanf(f, "MemTotal: %llu kB", &v) == 1) {
		*kb = v;
		ok = true;
	}
	fclose(f);
	return ok;
}

/* One line of /sys/devices/system/cpu/cpuN/topology/@file. */
static bool topo_read(long cpu, const char *file, char *buf, size_t size)
{
	char path[128];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%ld/topology/%s",
		 cpu, file);
	f = fopen(path, "r");
	if (!f)
		return false;
	ok = fgets(buf, (int)size, f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return ok;
}

/* Distinct values of @file over the CPUs, as a perf string list. */
static bool topo_list(struct dbuf *b, long nr, const char *file)
{
	char seen[64][128];
	uint32_t n = 0;
	char v[128];

	for (long c = 0; c < nr; c++) {
		bool dup = false;

		if (!topo_read(c, file, v, sizeof(v)))
			continue; /* offline CPU */
		for (uint32_t i = 0; i < n && !dup; i++)
			dup = !strcmp(seen[i], v);
		if (dup)
			continue;
		if (n == 64)
			return false;
		snprintf(seen[n++], sizeof(seen[0]), "%s", v);
	}
	if (!n)
		return false;
	dbuf_u32(b, n);
	for (uint32_t i = 0; i < n; i++)
		dbuf_string(b, seen[i]);
	return true;
}

static uint32_t topo_u32(long cpu, const char *file)
{
	char v[32];

	return topo_read(cpu, file, v, sizeof(v)) ? (uint32_t)atol(v) : (uint32_t)-1;
}

/*
 * CPU_TOPOLOGY: package siblings, thread siblings, {core, socket} per
 * available CPU, then die siblings and die ids (perf's newer layout).
 */
static bool put_cpu_topology(struct dbuf *b)
{
	long nr = sysconf(_SC_NPROCESSORS_CONF);

	if (nr <= 0 || nr > 4096)
		return false;
	if (!topo_list(b, nr, "core_siblings_list") ||
	    !topo_list(b, nr, "thread_siblings_list"))
		return false;
	for (long c = 0; c < nr; c++) {
		dbuf_u32(b, topo_u32(c, "core_id"));
		dbuf_u32(b, topo_u32(c, "physical_package_id"));
	}
	if (!topo_list(b, nr, "die_cpus_list"))
		return true; /* kernels without dies: the older layout */
	for (long c = 0; c < nr; c++)
		dbuf_u32(b, topo_u32(c, "die_id"));
	return true;
}

static void put_build_ids(struct sonde_perfdata_writer *w, struct dbuf *b)
{
	for (size_t i = 0; i < w->nr_bids; i++) {
		const struct pw_build_id *e = &w->bids[i];
		size_t n = strlen(e->filename) + 1;
		size_t padded = (n + 63) & ~(size_t)63;
		/* header, pid, build_id[20] + size byte + 3 reserved */
		struct sonde_perf_event_header h = {
			.type = SONDE_PERF_RECORD_HEADER_BUILD_ID,
			.misc = (uint16_t)((e->kernel ? SONDE_PERF_RECORD_MISC_KERNEL :
					     SONDE_PERF_RECORD_MISC_USER) |
					   (1U << 15) /* build-id size is valid */),
			.size = (uint16_t)(8 + 4 + 24 + padded),
		};
		int32_t pid = -1; /* the host machine */
		unsigned char id[24] = { 0 };

		memcpy(id, e->id, e->id_len);
		id[20] = (unsigned char)e->id_len;
		dbuf_put(b, &h, sizeof(h));
		dbuf_put(b, &pid, sizeof(pid));
		dbuf_put(b, id, sizeof(id));
		dbuf_put(b, e->filename, n);
		dbuf_put(b, NULL, padded - n);
	}
}

/* perf's HEADER_BRANCH_STACK (no payload): an event samples branch stacks. */
static bool has_branch_stack(const struct sonde_perfdata_writer *w)
{
	for (size_t i = 0; i < w->nr_events; i++)
		if (w->events[i].sample_type & SONDE_PERF_SAMPLE_BRANCH_STACK)
			return true;
	return false;
}

static void put_event_desc(struct sonde_perfdata_writer *w, struct dbuf *b)
{
	dbuf_u32(b, (uint32_t)w->nr_events);
	dbuf_u32(b, w->attr_size);
	for (size_t i = 0; i < w->nr_events; i++) {
		const struct pw_event *ev = &w->events[i];
		struct sonde_perf_event_attr a;

		memcpy(&a, ev->attr, sizeof(a));
		a.size = w->attr_size;
		dbuf_put(b, &a, w->attr_size);
		dbuf_u32(b, (uint32_t)ev->nr_ids);
		dbuf_string(b, ev->name);
		dbuf_put(b, ev->ids, ev->nr_ids * 8);
	}
}

/* The clock the events sample with (attr.use_clockid), or -1. */
static int events_clockid(const struct sonde_perfdata_writer *w)
{
	for (size_t i = 0; i < w->nr_events; i++) {
		struct sonde_perf_event_attr a;

		memcpy(&a, w->events[i].attr, sizeof(a));
		if (a.use_clockid)
			return a.clockid;
	}
	return -1;
}

static uint64_t ts_ns(const struct timespec *t)
{
	return (uint64_t)t->tv_sec * 1000000000ULL + (uint64_t)t->tv_nsec;
}

/*
 * CLOCKID: the clock's resolution in ns; CLOCK_DATA: version 1, the
 * clockid, then one moment on the wall clock and on that clock, so perf
 * can show sample times as time of day (perf record -k writes both).
 */
static bool clock_feature(const struct sonde_perfdata_writer *w, int feat,
			  struct dbuf *b)
{
	int id = events_clockid(w);
	struct timespec t, tod;

	if (id < 0)
		return false;
	if (feat == SONDE_FEAT_CLOCKID) {
		if (clock_getres(id, &t))
			return false;
		dbuf_u64(b, ts_ns(&t));
		return true;
	}
	if (clock_gettime(CLOCK_REALTIME, &tod) || clock_gettime(id, &t))
		return false;
	dbuf_u32(b, 1);
	dbuf_u32(b, (uint32_t)id);
	dbuf_u64(b, ts_ns(&tod));
	dbuf_u64(b, ts_ns(&t));
	return true;
}

bool pw_feature(struct sonde_perfdata_writer *w, int feat, struct dbuf *b)
{
	struct utsname u;
	char desc[256];
	uint64_t kb;

	switch (feat) {
	case SONDE_FEAT_TRACING_DATA:
		if (!w->tracing)
			return false;
		dbuf_put(b, w->tracing, w->tracing_len);
		return true;
	case SONDE_FEAT_BUILD_ID:
		if (!w->nr_bids)
			return false;
		put_build_ids(w, b);
		return true;
	case SONDE_FEAT_HOSTNAME:
	case SONDE_FEAT_OSRELEASE:
	case SONDE_FEAT_ARCH:
		if (uname(&u))
			return false;
		dbuf_string(b, feat == SONDE_FEAT_HOSTNAME ? u.nodename :
			       feat == SONDE_FEAT_OSRELEASE ? u.release :
			       u.machine);
		return true;
	case SONDE_FEAT_VERSION:
		dbuf_string(b, w->version);
		return true;
	case SONDE_FEAT_NRCPUS: {
		long conf = sysconf(_SC_NPROCESSORS_CONF);
		long onl = sysconf(_SC_NPROCESSORS_ONLN);

		dbuf_u32(b, (uint32_t)(conf > 0 ? conf : 1));
		dbuf_u32(b, (uint32_t)(onl > 0 ? onl : 1));
		return true;
	}
	case SONDE_FEAT_CPUDESC:
		if (!cpu_desc(desc, sizeof(desc)))
			return false;
		dbuf_string(b, desc);
		return true;
	case SONDE_FEAT_TOTAL_MEM:
		if (!total_mem_kb(&kb))
			return false;
		dbuf_u64(b, kb);
		return true;
	case SONDE_FEAT_CMDLINE:
		if (!w->cmdline_n)
			return false;
		dbuf_u32(b, (uint32_t)w->cmdline_n);
		for (size_t i = 0; i < w->cmdline_n; i++)
			dbuf_string(b, w->cmdline[i] ? w->cmdline[i] : "");
		return true;
	case SONDE_FEAT_EVENT_DESC:
		put_event_desc(w, b);
		return true;
	case SONDE_FEAT_CPU_TOPOLOGY: {
		size_t mark = b->len;

		if (put_cpu_topology(b))
			return true;
		b->len = mark;
		return false;
	}
	case SONDE_FEAT_BRANCH_STACK:
		return has_branch_stack(w);
	case SONDE_FEAT_GROUP_DESC:
		if (!w->nr_groups)
			return false;
		dbuf_u32(b, (uint32_t)w->nr_groups);
		for (size_t i = 0; i < w->nr_groups; i++) {
			dbuf_string(b, w->groups[i].name);
			dbuf_u32(b, (uint32_t)w->groups[i].leader);
			dbuf_u32(b, (uint32_t)w->groups[i].nr_members);
		}
		return true;
	case SONDE_FEAT_AUXTRACE:
		return pw_auxtrace_feature(w, b);
	case SONDE_FEAT_CLOCKID:
	case SONDE_FEAT_CLOCK_DATA:
		return clock_feature(w, feat, b);
	case SONDE_FEAT_SAMPLE_TIME:
		if (!w->st.samples)
			return false;
		dbuf_u64(b, w->st.first_time);
		dbuf_u64(b, w->st.last_time);
		return true;
	default:
		return false;
	}
}
