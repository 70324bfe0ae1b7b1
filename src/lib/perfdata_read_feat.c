// SPDX-License-Identifier: LGPL-2.1-only
/*
 * perf.data feature sections: the table after the data section (file mode)
 * or HEADER_FEATURE payloads (pipe mode). Every length is checked against the
 * section; a bad section is reported and skipped, the rest still parsed.
 */
#include <errno.h>
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
	if (c->bad || n > c->end - c->off) {
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
	v = pdr_rd32(c->r, c->r->base + c->off);
	c->off += 4;
	return v;
}

static uint64_t get64(struct cur *c)
{
	uint64_t v;

	if (!need(c, 8))
		return 0;
	v = pdr_rd64(c->r, c->r->base + c->off);
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
	s = (const char *)c->r->base + c->off;
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
			uint64_t id = pdr_rd64(r, r->base + c->off);

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
		const uint8_t *p = r->base + c->off;
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

static void parse_group_desc(struct cur *c)
{
	struct sonde_perfdata_reader *r = c->r;
	uint32_t nr = get32(c);

	if (nr > c->end - c->off) {
		c->bad = true;
		return;
	}
	for (uint32_t i = 0; i < nr && !c->bad; i++) {
		char *name = get_str(c), **g;
		uint32_t leader = get32(c), members = get32(c);
		char buf[512];

		if (!name || c->bad) {
			free(name);
			return;
		}
		snprintf(buf, sizeof(buf), "%s: leader %u, %u members", name,
			 leader, members);
		free(name);
		g = realloc(r->group_desc, (r->nr_group_desc + 1) * sizeof(*g));
		if (!g)
			return;
		r->group_desc = g;
		g[r->nr_group_desc] = strdup(buf);
		if (g[r->nr_group_desc])
			r->nr_group_desc++;
	}
}

static void parse_cpu_topology(struct cur *c)
{
	struct sonde_perfdata_reader *r = c->r;
	char *cores = get_str_list(c, ", ");
	char *threads = cores ? get_str_list(c, ", ") : NULL;
	char buf[4096];

	if (cores && threads) {
		snprintf(buf, sizeof(buf), "sibling cores   : %s\n# sibling threads : %s",
			 cores, threads);
		free(r->cpu_topology);
		r->cpu_topology = strdup(buf);
	}
	free(cores);
	free(threads);
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
	default:
		/* The rest: presence is all the reports use. */
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
