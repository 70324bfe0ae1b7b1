// SPDX-License-Identifier: LGPL-2.1-only
/*
 * perf.data feature sections: the table after the data section (file mode)
 * or HEADER_FEATURE payloads (pipe mode). Every length is checked against the
 * section; a bad section is reported and skipped, the rest still parsed.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "perfdata_read.h"

struct cur {
	struct sonde_perfdata_reader *r;
	uint64_t off, end;
	bool bad;
};

static bool need(struct cur *c, uint64_t n)
{
	/* off can be past end after a skip (EVENT_DESC's attr size). */
	if (c->bad || c->off > c->end || n > c->end - c->off) {
		c->bad = true;
		return false;
	}
	return true;
}

static uint32_t get32(struct cur *c)
{
	uint32_t v;

	if (!need(c, 4))
		return 0;
	v = pdr_rd32(c->r, pdr_ptr(c->r, c->off));
	c->off += 4;
	return v;
}

static uint64_t get64(struct cur *c)
{
	uint64_t v;

	if (!need(c, 8))
		return 0;
	v = pdr_rd64(c->r, pdr_ptr(c->r, c->off));
	c->off += 8;
	return v;
}

/* perf_header_string: u32 len, len bytes, NUL-terminated inside. */
static char *get_str(struct cur *c)
{
	uint32_t len = get32(c);
	const char *s;
	size_t n;
	char *out;

	if (!need(c, len))
		return NULL;
	s = (const char *)pdr_ptr(c->r, c->off);
	n = strnlen(s, len);
	c->off += len;
	out = malloc(n + 1);
	if (!out) {
		c->bad = true;
		return NULL;
	}
	memcpy(out, s, n);
	out[n] = 0;
	return out;
}

/* string_list joined with @sep. */
static char *get_str_list(struct cur *c, const char *sep)
{
	uint32_t nr = get32(c);
	size_t len = 0;
	char *out = NULL;

	if (nr > c->end - c->off) /* every string takes >= 4 bytes */
		c->bad = true;
	for (uint32_t i = 0; i < nr && !c->bad; i++) {
		char *s = get_str(c), *n;
		size_t sl;

		if (!s)
			break;
		sl = strlen(s);
		n = realloc(out, len + sl + strlen(sep) + 1);
		if (!n) {
			free(s);
			c->bad = true;
			break;
		}
		out = n;
		if (len) {
			strcpy(out + len, sep);
			len += strlen(sep);
		}
		memcpy(out + len, s, sl + 1);
		len += sl;
		free(s);
	}
	if (!out && !c->bad)
		out = strdup("");
	return out;
}

static void set_name(struct sonde_perfdata_reader *r, int idx, char *name)
{
	if (idx < 0 || idx >= r->nr_attrs) {
		free(name);
		return;
	}
	free(r->attrs[idx].name);
	r->attrs[idx].name = name;
}

static void parse_event_desc(struct cur *c)
{
	struct sonde_perfdata_reader *r = c->r;
	uint32_t nr = get32(c), asz = get32(c);

	if (asz < 8 || nr > (c->end - c->off) / asz) {
		c->bad = true;
		return;
	}
	for (uint32_t i = 0; i < nr && !c->bad; i++) {
		uint32_t nr_ids;
		char *name;
		int idx = -1;

		c->off += asz; /* the attr itself: we have it already */
		if (!need(c, 0))
			return;
		nr_ids = get32(c);
		name = get_str(c);
		if (!name || !need(c, (uint64_t)nr_ids * 8)) {
			free(name);
			return;
		}
		if (nr_ids) {
			uint64_t id = pdr_rd64(r, pdr_ptr(r, c->off));

			for (int k = 0; k < r->nr_attrs && idx < 0; k++)
				for (uint32_t j = 0; j < r->attrs[k].nr_ids; j++)
					if (r->attrs[k].ids[j] == id) {
						idx = k;
						break;
					}
		}
		if (idx < 0 && nr == (uint32_t)r->nr_attrs)
			idx = (int)i;
		c->off += (uint64_t)nr_ids * 8;
		set_name(r, idx, name);
	}
}

static void parse_build_ids(struct cur *c)
{
	struct sonde_perfdata_reader *r = c->r;

	while (!c->bad && c->end - c->off >= 8) {
		const uint8_t *p = pdr_ptr(r, c->off);
		uint16_t misc = pdr_rd16(r, p + 4), size = pdr_rd16(r, p + 6);
		struct pdr_build_id *b;
		const char *fn;
		size_t fl;

		/* header 8 + pid 4 + build_id 24 */
		if (size < 36 || size > c->end - c->off) {
			c->bad = true;
			return;
		}
		b = realloc(r->build_ids, (r->nr_build_ids + 1) * sizeof(*b));
		if (!b) {
			c->bad = true;
			return;
		}
		r->build_ids = b;
		b = &b[r->nr_build_ids];
		b->pid = (int32_t)pdr_rd32(r, p + 8);
		b->misc = misc;
		memcpy(b->id, p + 12, 20);
		/* misc bit 15 = the size byte after the id is valid */
		b->size = (misc & (1 << 15)) ? p[32] : 20;
		if (b->size > 20)
			b->size = 20;
		fn = (const char *)p + 36;
		fl = strnlen(fn, size - 36);
		b->filename = strndup(fn, fl);
		if (!b->filename) {
			c->bad = true;
			return;
		}
		r->nr_build_ids++;
		c->off += size;
	}
}

/* Text the header dump prints for a feature: grows as lines are added. */
struct tb {
	char *s;
	size_t len, cap;
	bool bad;
};

__attribute__((format(printf, 2, 3)))
static void tb_printf(struct tb *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->bad)
		return;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		t->bad = true;
		return;
	}
	if (t->len + (size_t)n + 1 > t->cap) {
		size_t cap = (t->len + (size_t)n + 1) * 2;
		char *p = realloc(t->s, cap);

		if (!p) {
			t->bad = true;
			return;
		}
		t->s = p;
		t->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
	va_end(ap);
	t->len += (size_t)n;
}

static void tb_free(struct tb *t)
{
	free(t->s);
	*t = (struct tb){ 0 };
}

/* Hands the text to feature @feat (empty text counts: the feature is there). */
static void set_info(struct cur *c, int feat, struct tb *t)
{
	struct sonde_perfdata_reader *r = c->r;

	if (c->bad || t->bad || feat < 0 || feat >= 32) {
		if (t->bad)
			c->bad = true;
		tb_free(t);
		return;
	}
	free(r->feat_info[feat]);
	r->feat_info[feat] = t->s ? t->s : strdup("");
	*t = (struct tb){ 0 };
}

/* A string_list, one "# <label><string>" line per string. */
static void str_lines(struct cur *c, struct tb *t, const char *label, uint32_t *nr_out)
{
	uint32_t nr = get32(c);

	if (nr > (c->end - c->off) / 4) {
		c->bad = true;
		return;
	}
	for (uint32_t i = 0; i < nr && !c->bad; i++) {
		char *s = get_str(c);

		if (s)
			tb_printf(t, "# %s%s\n", label, s);
		free(s);
	}
	if (nr_out)
		*nr_out = nr;
}

static void parse_group_desc(struct cur *c)
{
	struct sonde_perfdata_reader *r = c->r;
	uint32_t nr = get32(c);

	if (nr > (c->end - c->off) / 12) {
		c->bad = true;
		return;
	}
	for (size_t i = 0; i < r->nr_groups; i++)
		free(r->groups[i].name);
	free(r->groups);
	r->groups = NULL;
	r->nr_groups = 0;
	if (!nr)
		return;
	r->groups = calloc(nr, sizeof(*r->groups));
	if (!r->groups) {
		c->bad = true;
		return;
	}
	for (uint32_t i = 0; i < nr && !c->bad; i++) {
		char *name = get_str(c);
		struct pdr_group *g = &r->groups[i];

		g->leader = get32(c);
		g->nr_members = get32(c);
		if (!name || c->bad) {
			free(name);
			return;
		}
		/* perf writes unnamed groups as "{anon_group}" and prints "". */
		if (!strcmp(name, "{anon_group}")) {
			free(name);
			name = NULL;
		}
		g->name = name;
		r->nr_groups++;
	}
}

/*
 * CPU_TOPOLOGY: socket and thread sibling lists, then (newer perf) a
 * core/socket id pair per CPU, then die siblings and die ids. perf prints
 * sockets, dies, threads, then one line per CPU.
 */
static void parse_cpu_topology(struct cur *c)
{
	struct sonde_perfdata_reader *r = c->r;
	struct tb sock = { 0 }, thr = { 0 }, die = { 0 }, out = { 0 };
	uint32_t nr_cpus = r->nr_cpus_avail, nr_dies = 0;
	uint32_t *ids = NULL; /* core, socket, die per cpu */
	bool have_ids = false;

	str_lines(c, &sock, "sibling sockets : ", NULL);
	str_lines(c, &thr, "sibling threads : ", NULL);
	if (!c->bad && c->off < c->end) {
		if ((uint64_t)nr_cpus * 8 > c->end - c->off) {
			c->bad = true;
		} else {
			ids = calloc((size_t)nr_cpus + 1, 3 * sizeof(*ids));
			if (!ids)
				c->bad = true;
			for (uint32_t i = 0; i < nr_cpus && !c->bad; i++) {
				ids[3 * i] = get32(c);
				ids[3 * i + 1] = get32(c);
			}
			have_ids = !c->bad;
		}
	}
	if (!c->bad && c->off < c->end) {
		str_lines(c, &die, "sibling dies    : ", &nr_dies);
		if (!c->bad && (uint64_t)nr_cpus * 4 > c->end - c->off)
			c->bad = true;
		for (uint32_t i = 0; i < nr_cpus && !c->bad && ids; i++)
			ids[3 * i + 2] = get32(c);
	}
	if (!c->bad) {
		tb_printf(&out, "%s", sock.s ? sock.s : "");
		if (nr_dies)
			tb_printf(&out, "%s", die.s ? die.s : "");
		tb_printf(&out, "%s", thr.s ? thr.s : "");
		if (nr_dies && have_ids)
			for (uint32_t i = 0; i < nr_cpus; i++)
				tb_printf(&out, "# CPU %u: Core ID %d, Die ID %d, Socket ID %d\n", i,
					  (int32_t)ids[3 * i], (int32_t)ids[3 * i + 2],
					  (int32_t)ids[3 * i + 1]);
		else if (nr_dies)
			tb_printf(&out, "# Core ID, Die ID and Socket ID information is not available\n");
		else if (have_ids)
			for (uint32_t i = 0; i < nr_cpus; i++)
				tb_printf(&out, "# CPU %u: Core ID %d, Socket ID %d\n", i,
					  (int32_t)ids[3 * i], (int32_t)ids[3 * i + 1]);
		else
			tb_printf(&out, "# Core ID and Socket ID information is not available\n");
		set_info(c, SONDE_FEAT_CPU_TOPOLOGY, &out);
	}
	free(ids);
	tb_free(&sock);
	tb_free(&thr);
	tb_free(&die);
	tb_free(&out);
}

static void parse_numa_topology(struct cur *c)
{
	struct tb t = { 0 };
	uint32_t nr = get32(c);

	if (nr > (c->end - c->off) / 24) {
		c->bad = true;
		return;
	}
	for (uint32_t i = 0; i < nr && !c->bad; i++) {
		uint32_t node = get32(c);
		uint64_t total = get64(c), avail = get64(c);
		char *cpus = get_str(c);

		if (cpus)
			tb_printf(&t, "# node%u meminfo  : total = %" PRIu64 " kB, free = %" PRIu64
				      " kB\n# node%u cpu list : %s\n",
				  node, total, avail, node, cpus);
		free(cpus);
	}
	set_info(c, SONDE_FEAT_NUMA_TOPOLOGY, &t);
}

static void parse_pmu_mappings(struct cur *c)
{
	struct tb t = { 0 };
	uint32_t nr = get32(c);

	if (nr > (c->end - c->off) / 8) {
		c->bad = true;
		return;
	}
	if (!nr)
		tb_printf(&t, "# pmu mappings: not available\n");
	else
		tb_printf(&t, "# pmu mappings: ");
	for (uint32_t i = 0; i < nr && !c->bad; i++) {
		uint32_t type = get32(c);
		char *name = get_str(c);

		if (name)
			tb_printf(&t, "%s%s = %u", i ? ", " : "", name, type);
		free(name);
	}
	if (nr)
		tb_printf(&t, "\n");
	set_info(c, SONDE_FEAT_PMU_MAPPINGS, &t);
}

static void parse_cache(struct cur *c)
{
	struct tb t = { 0 };
	uint32_t ver = get32(c), nr = get32(c);

	if (c->bad || ver != 1 || nr > (c->end - c->off) / 28) {
		c->bad = true;
		return;
	}
	tb_printf(&t, "# CPU cache info:\n");
	for (uint32_t i = 0; i < nr && !c->bad; i++) {
		uint32_t level = get32(c);
		char *type, *size, *map;

		c->off += 12; /* line size, sets, ways */
		if (c->off > c->end) {
			c->bad = true;
			break;
		}
		type = get_str(c);
		size = type ? get_str(c) : NULL;
		map = size ? get_str(c) : NULL;
		if (map)
			tb_printf(&t, "#  L%d %-15s %8s [%s]\n", (int)level, type, size, map);
		free(type);
		free(size);
		free(map);
	}
	set_info(c, SONDE_FEAT_CACHE, &t);
}

/* perf's unit_number__scnprintf: divide by 1024 while the result stays > 1. */
static void unit_number(char *buf, size_t sz, uint64_t n)
{
	static const char units[] = "BKMG";
	int i = 0;

	while (n / 1024 > 1 && i < 3) {
		n /= 1024;
		i++;
	}
	snprintf(buf, sz, "%" PRIu64 "%c", n, units[i]);
}

/*
 * MEM_TOPOLOGY: version, block size, nodes; each node a bitmap of memory
 * blocks, printed as ranges. perf renders the ranges into 100 bytes, so a
 * longer list is cut there too.
 */
static void parse_mem_topology(struct cur *c)
{
	struct tb t = { 0 };
	uint64_t ver = get64(c), bsize = get64(c), nr = get64(c);

	if (c->bad || ver != 1 || nr > (c->end - c->off) / 24) {
		c->bad = true;
		return;
	}
	tb_printf(&t, "# memory nodes (nr %d, block size 0x%llx):\n", (int)nr,
		  (unsigned long long)bsize);
	for (uint64_t i = 0; i < nr && !c->bad; i++) {
		uint64_t node = get64(c), nbits, nwords, weight = 0;
		int64_t run = -1;
		char map[100] = "", size[50];
		size_t ml = 0;

		get64(c); /* the size perf stores; it prints bsize * blocks */
		nbits = get64(c);
		nwords = nbits / 64 + (nbits % 64 != 0);
		if (c->bad || nwords > (c->end - c->off) / 8) {
			c->bad = true;
			break;
		}
		for (uint64_t b = 0; b <= nbits; b++) {
			bool set = false;

			if (b < nbits)
				set = (pdr_rd64(c->r, pdr_ptr(c->r, c->off) + b / 64 * 8) >> (b % 64)) & 1;
			weight += set;
			if (set && run < 0)
				run = (int64_t)b;
			if (!set && run >= 0 && ml < sizeof(map) - 1) {
				int n;

				if ((uint64_t)run == b - 1)
					n = snprintf(map + ml, sizeof(map) - ml, "%s%" PRId64,
						     ml ? "," : "", run);
				else
					n = snprintf(map + ml, sizeof(map) - ml, "%s%" PRId64 "-%" PRIu64,
						     ml ? "," : "", run, b - 1);
				ml += (size_t)n;
				if (ml > sizeof(map) - 1)
					ml = sizeof(map) - 1;
				run = -1;
			}
		}
		c->off += nwords * 8;
		unit_number(size, sizeof(size), bsize * weight);
		tb_printf(&t, "#  %3" PRIu64 " [%s]: %s\n", node, size, map);
	}
	set_info(c, SONDE_FEAT_MEM_TOPOLOGY, &t);
}

/* "name=value" pairs, printed by perf as one "# <pmu> pmu capabilities:" line. */
static void pmu_caps(struct cur *c, struct tb *t, uint32_t nr, struct tb *line)
{
	for (uint32_t i = 0; i < nr && !c->bad; i++) {
		char *name = get_str(c), *val = name ? get_str(c) : NULL;

		if (val)
			tb_printf(line, "%s%s=%s", i ? ", " : "", name, val);
		free(name);
		free(val);
	}
	(void)t;
}

static void print_caps(struct tb *t, const char *pmu, uint32_t nr, const struct tb *line)
{
	if (!nr)
		tb_printf(t, "# %s pmu capabilities: not available\n", pmu);
	else
		tb_printf(t, "# %s pmu capabilities: %s\n", pmu, line->s ? line->s : "");
}

static void parse_cpu_pmu_caps(struct cur *c)
{
	struct tb t = { 0 }, line = { 0 };
	uint32_t nr = get32(c);

	if (nr > (c->end - c->off) / 8) {
		c->bad = true;
		return;
	}
	pmu_caps(c, &t, nr, &line);
	print_caps(&t, "cpu", nr, &line);
	tb_free(&line);
	set_info(c, SONDE_FEAT_CPU_PMU_CAPS, &t);
}

static void parse_pmu_caps(struct cur *c)
{
	struct tb t = { 0 };
	uint32_t nr_pmu = get32(c);

	if (nr_pmu > (c->end - c->off) / 8) {
		c->bad = true;
		return;
	}
	for (uint32_t i = 0; i < nr_pmu && !c->bad; i++) {
		struct tb line = { 0 };
		uint32_t nr = get32(c);
		char *pmu;

		if (nr > (c->end - c->off) / 8)
			c->bad = true;
		pmu_caps(c, &t, nr, &line);
		pmu = get_str(c);
		if (pmu)
			print_caps(&t, pmu, nr, &line);
		free(pmu);
		tb_free(&line);
	}
	set_info(c, SONDE_FEAT_PMU_CAPS, &t);
}

static void parse_hybrid_topology(struct cur *c)
{
	struct tb t = { 0 };
	uint32_t nr = get32(c);

	if (nr > (c->end - c->off) / 8) {
		c->bad = true;
		return;
	}
	tb_printf(&t, "# hybrid cpu system:\n");
	for (uint32_t i = 0; i < nr && !c->bad; i++) {
		char *pmu = get_str(c), *cpus = pmu ? get_str(c) : NULL;

		if (cpus)
			tb_printf(&t, "# %s cpu list : %s\n", pmu, cpus);
		free(pmu);
		free(cpus);
	}
	set_info(c, SONDE_FEAT_HYBRID_TOPOLOGY, &t);
}

static void parse_bpf_btf(struct cur *c)
{
	struct tb t = { 0 };
	uint32_t nr = get32(c);

	if (nr > (c->end - c->off) / 8) {
		c->bad = true;
		return;
	}
	for (uint32_t i = 0; i < nr && !c->bad; i++) {
		uint32_t id = get32(c), len = get32(c);

		if (!need(c, len))
			break;
		c->off += len;
		tb_printf(&t, "# btf info of id %u\n", id);
	}
	set_info(c, SONDE_FEAT_BPF_BTF, &t);
}

/* Also kept in r->comp: the decompressor needs the type and ring size. */
static void parse_compressed(struct cur *c)
{
	struct pdr_comp_info *ci = &c->r->comp;
	struct tb t = { 0 };
	uint32_t ver = get32(c), type = get32(c), level = get32(c), ratio = get32(c);
	uint32_t mmap_len = get32(c);

	if (!c->bad) {
		ci->version = ver;
		ci->type = type;
		ci->level = level;
		ci->ratio = ratio;
		ci->mmap_len = mmap_len;
	}
	tb_printf(&t, "# compressed : %s, level = %d, ratio = %d\n",
		  type == 1 ? "Zstd" : "Unknown", (int)level, (int)ratio);
	set_info(c, SONDE_FEAT_COMPRESSED, &t);
}

static void parse_dir_format(struct cur *c)
{
	struct tb t = { 0 };
	uint64_t ver = get64(c);

	tb_printf(&t, "# directory data version : %" PRIu64 "\n", ver);
	set_info(c, SONDE_FEAT_DIR_FORMAT, &t);
}

static void parse_clock_data(struct cur *c)
{
	struct sonde_perfdata_reader *r = c->r;
	uint32_t ver = get32(c), clockid = get32(c);
	uint64_t tod = get64(c), cns = get64(c);

	/* perf refuses other versions and then prints "reference time disabled". */
	r->clock_data = !c->bad && ver == 1;
	r->clock_clockid = clockid;
	r->clock_tod_ns = tod;
	r->clock_clockid_ns = cns;
}

int pdr_parse_feature(struct sonde_perfdata_reader *r, int feat, uint64_t off,
		      uint64_t size)
{
	struct cur c = { .r = r, .off = off, .end = off + size };

	if (off > r->len || size > r->len - off)
		return pdr_fail(r, off, "feature %d section {%llu, %llu} runs past the end of the file",
				feat, (unsigned long long)off, (unsigned long long)size);
	if (feat >= 0 && feat < SONDE_FEAT_MAX)
		r->feat_bits[feat / 64] |= 1ULL << (feat % 64);
	switch (feat) {
	case SONDE_FEAT_HOSTNAME:
	case SONDE_FEAT_OSRELEASE:
	case SONDE_FEAT_VERSION:
	case SONDE_FEAT_ARCH:
	case SONDE_FEAT_CPUDESC:
	case SONDE_FEAT_CPUID:
		free(r->feat_str[feat]);
		r->feat_str[feat] = get_str(&c);
		break;
	case SONDE_FEAT_CMDLINE:
		free(r->feat_str[feat]);
		r->feat_str[feat] = get_str_list(&c, " ");
		break;
	case SONDE_FEAT_NRCPUS:
		r->nr_cpus_avail = get32(&c);
		r->nr_cpus_online = get32(&c);
		break;
	case SONDE_FEAT_TOTAL_MEM:
		r->total_mem = get64(&c);
		break;
	case SONDE_FEAT_SAMPLE_TIME:
		r->first_sample_time = get64(&c);
		r->last_sample_time = get64(&c);
		break;
	case SONDE_FEAT_EVENT_DESC:
		parse_event_desc(&c);
		break;
	case SONDE_FEAT_BUILD_ID:
		parse_build_ids(&c);
		break;
	case SONDE_FEAT_GROUP_DESC:
		parse_group_desc(&c);
		break;
	case SONDE_FEAT_CPU_TOPOLOGY:
		parse_cpu_topology(&c);
		break;
	case SONDE_FEAT_TRACING_DATA:
		/* Where the formats are: script decodes tracepoints with them. */
		r->tracing_off = off;
		r->tracing_len = size;
		break;
	case SONDE_FEAT_NUMA_TOPOLOGY:
		parse_numa_topology(&c);
		break;
	case SONDE_FEAT_PMU_MAPPINGS:
		parse_pmu_mappings(&c);
		break;
	case SONDE_FEAT_CACHE:
		parse_cache(&c);
		break;
	case SONDE_FEAT_MEM_TOPOLOGY:
		parse_mem_topology(&c);
		break;
	case SONDE_FEAT_CLOCKID:
		r->clockid_res_ns = get64(&c);
		break;
	case SONDE_FEAT_DIR_FORMAT:
		parse_dir_format(&c);
		break;
	case SONDE_FEAT_BPF_BTF:
		parse_bpf_btf(&c);
		break;
	case SONDE_FEAT_COMPRESSED:
		parse_compressed(&c);
		break;
	case SONDE_FEAT_CPU_PMU_CAPS:
		parse_cpu_pmu_caps(&c);
		break;
	case SONDE_FEAT_CLOCK_DATA:
		parse_clock_data(&c);
		break;
	case SONDE_FEAT_HYBRID_TOPOLOGY:
		parse_hybrid_topology(&c);
		break;
	case SONDE_FEAT_PMU_CAPS:
		parse_pmu_caps(&c);
		break;
	default:
		/*
		 * BPF_PROG_INFO and the rest: presence is all
		 * the reports (and perf's header dump) use.
		 */
		break;
	}
	if (c.bad)
		return pdr_fail(r, c.off, "feature %d section is corrupt", feat);
	return 0;
}

int pdr_parse_features(struct sonde_perfdata_reader *r)
{
	uint64_t tab = r->data_end;
	uint64_t bits[4];
	int nr = 0;

	memcpy(bits, r->feat_bits, sizeof(bits));
	for (int f = 0; f < SONDE_FEAT_MAX; f++) {
		uint64_t ent, off, size;

		if (!((bits[f / 64] >> (f % 64)) & 1))
			continue;
		ent = tab + (uint64_t)nr * 16;
		nr++;
		if (ent > r->len || r->len - ent < 16) {
			/* Not fatal: the records are still usable. */
			pdr_fail(r, ent, "feature section table truncated at feature %d", f);
			r->err_pending = true;
			break;
		}
		off = pdr_rd64(r, r->base + ent);
		size = pdr_rd64(r, r->base + ent + 8);
		if (pdr_parse_feature(r, f, off, size))
			r->err_pending = true;
	}
	return 0;
}
