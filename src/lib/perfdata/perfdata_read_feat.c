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
#include "core_priv.h"
#include "perfdata_priv.h"

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
		struct sonde_feat_build_id *b;
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

	if (nr > (c->end - c->off) / 12) {
		c->bad = true;
		return;
	}
	for (size_t i = 0; i < r->nr_groups; i++)
		free((char *)r->groups[i].name);
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
		struct sonde_feat_group *g = &r->groups[i];

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

/* A string_list into a NULL-terminated array (*nr_out strings). */
static char **str_array(struct cur *c, uint32_t *nr_out)
{
	uint32_t nr = get32(c);
	char **v;

	*nr_out = 0;
	if (c->bad || nr > (c->end - c->off) / 4) {
		c->bad = true;
		return NULL;
	}
	v = calloc((size_t)nr + 1, sizeof(*v));
	if (!v) {
		c->bad = true;
		return NULL;
	}
	for (uint32_t i = 0; i < nr && !c->bad; i++) {
		v[i] = get_str(c);
		if (!v[i])
			c->bad = true;
		else
			*nr_out = i + 1;
	}
	return v;
}

static void str_array_free(const char *const *v)
{
	for (size_t i = 0; v && v[i]; i++)
		free((char *)v[i]);
	free((void *)v);
}

static void cpu_topo_free(struct sonde_feat_cpu_topology *t)
{
	if (!t)
		return;
	str_array_free(t->sockets);
	str_array_free(t->dies);
	str_array_free(t->threads);
	free((void *)t->cpus);
	free(t);
}

/*
 * CPU_TOPOLOGY: socket and thread sibling lists, then (newer perf) a
 * core/socket id pair per CPU, then die siblings and die ids.
 */
static void parse_cpu_topology(struct cur *c)
{
	struct sonde_perfdata_reader *r = c->r;
	struct sonde_feat_cpu_topology *t = calloc(1, sizeof(*t));
	uint32_t nr_cpus = r->nr_cpus_avail;
	struct sonde_feat_cpu_ids *ids = NULL;

	if (!t) {
		c->bad = true;
		return;
	}
	t->sockets = (const char *const *)str_array(c, &t->nr_sockets);
	t->threads = (const char *const *)str_array(c, &t->nr_threads);
	if (!c->bad && c->off < c->end) {
		if ((uint64_t)nr_cpus * 8 > c->end - c->off) {
			c->bad = true;
		} else {
			ids = calloc((size_t)nr_cpus + 1, sizeof(*ids));
			if (!ids)
				c->bad = true;
			for (uint32_t i = 0; i < nr_cpus && !c->bad; i++) {
				ids[i].core = (int32_t)get32(c);
				ids[i].socket = (int32_t)get32(c);
			}
			t->cpus = ids;
			t->nr_cpus = c->bad ? 0 : nr_cpus;
		}
	}
	if (!c->bad && c->off < c->end) {
		t->dies = (const char *const *)str_array(c, &t->nr_dies);
		if (!c->bad && (uint64_t)nr_cpus * 4 > c->end - c->off)
			c->bad = true;
		for (uint32_t i = 0; i < nr_cpus && !c->bad && ids; i++)
			ids[i].die = (int32_t)get32(c);
	}
	if (c->bad) {
		cpu_topo_free(t);
		return;
	}
	cpu_topo_free(r->cpu_topo);
	r->cpu_topo = t;
}

/*
 * A list feature: @nr entries of @size bytes, each allocated and pointed
 * to from a NULL-terminated array (so that the public structs can grow).
 * Returns the array or NULL (c->bad set).
 */
static void **entries(struct cur *c, uint32_t nr, size_t size)
{
	void **v = calloc((size_t)nr + 1, sizeof(*v));

	for (uint32_t i = 0; v && i < nr; i++) {
		v[i] = calloc(1, size);
		if (!v[i]) {
			for (uint32_t k = 0; k < i; k++)
				free(v[k]);
			free(v);
			v = NULL;
		}
	}
	if (!v)
		c->bad = true;
	return v;
}

/* Frees a list feature: its entries, each with @nstr strings at @str_off... */
static void entries_free(void *const *v, const size_t *str_offs, size_t nstr)
{
	for (size_t i = 0; v && v[i]; i++) {
		for (size_t k = 0; k < nstr; k++)
			free(*(char **)((char *)v[i] + str_offs[k]));
		free(v[i]);
	}
	free((void *)v);
}

static const size_t numa_strs[] = { offsetof(struct sonde_feat_numa_node, cpus) };
static const size_t map_strs[] = { offsetof(struct sonde_feat_pmu_mapping, name) };
static const size_t cache_strs[] = {
	offsetof(struct sonde_feat_cache, type), offsetof(struct sonde_feat_cache, size),
	offsetof(struct sonde_feat_cache, map),
};
static const size_t hybrid_strs[] = {
	offsetof(struct sonde_feat_hybrid_pmu, pmu), offsetof(struct sonde_feat_hybrid_pmu, cpus),
};

#define LIST_FREE(p, field, strs) do {						\
	if (p)									\
		entries_free((void *const *)(p)->field, strs, ARRAY_SIZE(strs));	\
	free(p);								\
} while (0)

static void parse_numa_topology(struct cur *c)
{
	struct sonde_feat_numa_topology *t = calloc(1, sizeof(*t));
	uint32_t nr = get32(c);
	struct sonde_feat_numa_node **v;

	if (!t || nr > (c->end - c->off) / 24) {
		c->bad = true;
		free(t);
		return;
	}
	v = (struct sonde_feat_numa_node **)entries(c, nr, sizeof(**v));
	t->nodes = (const struct sonde_feat_numa_node *const *)v;
	for (uint32_t i = 0; v && i < nr && !c->bad; i++) {
		v[i]->node = get32(c);
		v[i]->mem_total_kb = get64(c);
		v[i]->mem_free_kb = get64(c);
		v[i]->cpus = get_str(c);
		if (!v[i]->cpus)
			c->bad = true;
	}
	t->nr = nr;
	if (c->bad) {
		LIST_FREE(t, nodes, numa_strs);
		return;
	}
	LIST_FREE(c->r->numa, nodes, numa_strs);
	c->r->numa = t;
}

static void parse_pmu_mappings(struct cur *c)
{
	struct sonde_feat_pmu_mappings *t = calloc(1, sizeof(*t));
	uint32_t nr = get32(c);
	struct sonde_feat_pmu_mapping **v;

	if (!t || nr > (c->end - c->off) / 8) {
		c->bad = true;
		free(t);
		return;
	}
	v = (struct sonde_feat_pmu_mapping **)entries(c, nr, sizeof(**v));
	t->pmus = (const struct sonde_feat_pmu_mapping *const *)v;
	for (uint32_t i = 0; v && i < nr && !c->bad; i++) {
		v[i]->type = get32(c);
		v[i]->name = get_str(c);
		if (!v[i]->name)
			c->bad = true;
	}
	t->nr = nr;
	if (c->bad) {
		LIST_FREE(t, pmus, map_strs);
		return;
	}
	LIST_FREE(c->r->pmu_maps, pmus, map_strs);
	c->r->pmu_maps = t;
}

static void parse_cache(struct cur *c)
{
	struct sonde_feat_caches *t = calloc(1, sizeof(*t));
	uint32_t ver = get32(c), nr = get32(c);
	struct sonde_feat_cache **v;

	if (!t || c->bad || ver != 1 || nr > (c->end - c->off) / 28) {
		c->bad = true;
		free(t);
		return;
	}
	v = (struct sonde_feat_cache **)entries(c, nr, sizeof(**v));
	t->caches = (const struct sonde_feat_cache *const *)v;
	for (uint32_t i = 0; v && i < nr && !c->bad; i++) {
		v[i]->level = get32(c);
		v[i]->line_size = get32(c);
		v[i]->sets = get32(c);
		v[i]->ways = get32(c);
		v[i]->type = get_str(c);
		v[i]->size = v[i]->type ? get_str(c) : NULL;
		v[i]->map = v[i]->size ? get_str(c) : NULL;
		if (!v[i]->map)
			c->bad = true;
	}
	t->nr = nr;
	if (c->bad) {
		LIST_FREE(t, caches, cache_strs);
		return;
	}
	LIST_FREE(c->r->caches, caches, cache_strs);
	c->r->caches = t;
}

static void mem_free(struct sonde_feat_mem_topology *t)
{
	for (uint32_t i = 0; t && t->nodes && t->nodes[i]; i++) {
		free((void *)t->nodes[i]->bitmap);
		free((void *)t->nodes[i]);
	}
	if (t)
		free((void *)t->nodes);
	free(t);
}

/* MEM_TOPOLOGY: version, block size, nodes; each node a bitmap of blocks. */
static void parse_mem_topology(struct cur *c)
{
	struct sonde_feat_mem_topology *t = calloc(1, sizeof(*t));
	uint64_t ver = get64(c), bsize = get64(c), nr = get64(c);
	struct sonde_feat_mem_node **v;

	if (!t || c->bad || ver != 1 || nr > (c->end - c->off) / 24) {
		c->bad = true;
		free(t);
		return;
	}
	t->version = ver;
	t->block_size = bsize;
	v = (struct sonde_feat_mem_node **)entries(c, (uint32_t)nr, sizeof(**v));
	t->nodes = (const struct sonde_feat_mem_node *const *)v;
	for (uint64_t i = 0; v && i < nr && !c->bad; i++) {
		uint64_t nwords, *bits;

		v[i]->node = get64(c);
		v[i]->size = get64(c);
		v[i]->nr_bits = get64(c);
		nwords = v[i]->nr_bits / 64 + (v[i]->nr_bits % 64 != 0);
		if (c->bad || nwords > (c->end - c->off) / 8) {
			c->bad = true;
			break;
		}
		bits = calloc(nwords + 1, 8);
		if (!bits) {
			c->bad = true;
			break;
		}
		for (uint64_t w = 0; w < nwords; w++)
			bits[w] = get64(c);
		v[i]->bitmap = bits;
	}
	t->nr = (uint32_t)nr;
	if (c->bad) {
		mem_free(t);
		return;
	}
	mem_free(c->r->mem);
	c->r->mem = t;
}

static void caps_free(struct sonde_feat_pmu_caps_list *t)
{
	for (uint32_t i = 0; t && t->pmus && t->pmus[i]; i++) {
		struct sonde_feat_pmu_caps *p = (struct sonde_feat_pmu_caps *)t->pmus[i];

		for (uint32_t k = 0; k < p->nr; k++) {
			free((void *)p->names[k]);
			free((void *)p->values[k]);
		}
		free((void *)p->names);
		free((void *)p->values);
		free((void *)p->pmu);
		free(p);
	}
	if (t)
		free((void *)t->pmus);
	free(t);
}

/* @nr "name=value" pairs into @p. */
static void caps_read(struct cur *c, struct sonde_feat_pmu_caps *p, uint32_t nr)
{
	const char **names = calloc((size_t)nr + 1, sizeof(*names));
	const char **values = calloc((size_t)nr + 1, sizeof(*values));

	p->names = names;
	p->values = values;
	if (!names || !values) {
		c->bad = true;
		return;
	}
	for (uint32_t i = 0; i < nr && !c->bad; i++) {
		names[i] = get_str(c);
		values[i] = names[i] ? get_str(c) : NULL;
		if (!values[i]) {
			free((void *)names[i]);
			names[i] = NULL;
			c->bad = true;
			break;
		}
		p->nr = i + 1;
	}
}

/* CPU_PMU_CAPS (@multi false: the cpu PMU's pairs) or PMU_CAPS (per PMU). */
static void parse_caps(struct cur *c, bool multi)
{
	struct sonde_feat_pmu_caps_list *t = calloc(1, sizeof(*t));
	uint32_t nr_pmu = multi ? get32(c) : 1;
	struct sonde_feat_pmu_caps **v;

	if (!t || nr_pmu > (c->end - c->off) / 8 + !multi) {
		c->bad = true;
		free(t);
		return;
	}
	v = (struct sonde_feat_pmu_caps **)entries(c, nr_pmu, sizeof(**v));
	t->pmus = (const struct sonde_feat_pmu_caps *const *)v;
	for (uint32_t i = 0; v && i < nr_pmu && !c->bad; i++) {
		uint32_t nr = get32(c);

		if (nr > (c->end - c->off) / 8) {
			c->bad = true;
			break;
		}
		caps_read(c, v[i], nr);
		v[i]->pmu = multi ? get_str(c) : strdup("cpu");
		if (!v[i]->pmu)
			c->bad = true;
	}
	t->nr = nr_pmu;
	if (c->bad) {
		caps_free(t);
		return;
	}
	if (multi) {
		caps_free(c->r->pmu_caps);
		c->r->pmu_caps = t;
	} else {
		caps_free(c->r->cpu_pmu_caps);
		c->r->cpu_pmu_caps = t;
	}
}

static void parse_hybrid_topology(struct cur *c)
{
	struct sonde_feat_hybrid_topology *t = calloc(1, sizeof(*t));
	uint32_t nr = get32(c);
	struct sonde_feat_hybrid_pmu **v;

	if (!t || nr > (c->end - c->off) / 8) {
		c->bad = true;
		free(t);
		return;
	}
	v = (struct sonde_feat_hybrid_pmu **)entries(c, nr, sizeof(**v));
	t->pmus = (const struct sonde_feat_hybrid_pmu *const *)v;
	for (uint32_t i = 0; v && i < nr && !c->bad; i++) {
		v[i]->pmu = get_str(c);
		v[i]->cpus = v[i]->pmu ? get_str(c) : NULL;
		if (!v[i]->cpus)
			c->bad = true;
	}
	t->nr = nr;
	if (c->bad) {
		LIST_FREE(t, pmus, hybrid_strs);
		return;
	}
	LIST_FREE(c->r->hybrid, pmus, hybrid_strs);
	c->r->hybrid = t;
}

static void parse_bpf_btf(struct cur *c)
{
	struct sonde_feat_bpf_btf *t = calloc(1, sizeof(*t));
	uint32_t nr = get32(c), *ids;

	if (!t || nr > (c->end - c->off) / 8) {
		c->bad = true;
		free(t);
		return;
	}
	ids = calloc((size_t)nr + 1, sizeof(*ids));
	t->ids = ids;
	if (!ids)
		c->bad = true;
	for (uint32_t i = 0; ids && i < nr && !c->bad; i++) {
		uint32_t len;

		ids[i] = get32(c);
		len = get32(c);
		if (!need(c, len))
			break;
		c->off += len;
		t->nr = i + 1;
	}
	if (c->bad) {
		free(ids);
		free(t);
		return;
	}
	if (c->r->btf)
		free((void *)c->r->btf->ids);
	free(c->r->btf);
	c->r->btf = t;
}

/* Also kept in r->comp: the decompressor needs the type and ring size. */
static void parse_compressed(struct cur *c)
{
	struct pdr_comp_info *ci = &c->r->comp;
	uint32_t ver = get32(c), type = get32(c), level = get32(c), ratio = get32(c);
	uint32_t mmap_len = get32(c);
	struct sonde_feat_compressed *t;

	if (c->bad)
		return;
	ci->version = ver;
	ci->type = type;
	ci->level = level;
	ci->ratio = ratio;
	ci->mmap_len = mmap_len;
	t = c->r->compressed ? c->r->compressed : calloc(1, sizeof(*t));
	if (!t) {
		c->bad = true;
		return;
	}
	*t = (struct sonde_feat_compressed){ .version = ver, .type = type, .level = level,
					     .ratio = ratio, .mmap_len = mmap_len };
	c->r->compressed = t;
}

static void parse_dir_format(struct cur *c)
{
	uint64_t ver = get64(c);

	if (c->bad)
		return;
	c->r->dir_format = ver;
	c->r->has_dir_format = true;
}

static void parse_clock_data(struct cur *c)
{
	struct sonde_perfdata_reader *r = c->r;
	uint32_t ver = get32(c), clockid = get32(c);
	uint64_t tod = get64(c), cns = get64(c);

	/* perf refuses other versions and then prints "reference time disabled". */
	r->clock_data = !c->bad && ver == 1;
	r->clock.version = ver;
	r->clock.clockid = clockid;
	r->clock.tod_ns = tod;
	r->clock.clockid_ns = cns;
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
		parse_caps(&c, false);
		break;
	case SONDE_FEAT_CLOCK_DATA:
		parse_clock_data(&c);
		break;
	case SONDE_FEAT_HYBRID_TOPOLOGY:
		parse_hybrid_topology(&c);
		break;
	case SONDE_FEAT_PMU_CAPS:
		parse_caps(&c, true);
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

const struct sonde_feat_cpu_topology *
sonde_perfdata_reader__cpu_topology(const struct sonde_perfdata_reader *r)
{
	return r ? r->cpu_topo : NULL;
}

const struct sonde_feat_numa_topology *
sonde_perfdata_reader__numa_topology(const struct sonde_perfdata_reader *r)
{
	return r ? r->numa : NULL;
}

const struct sonde_feat_pmu_mappings *
sonde_perfdata_reader__pmu_mappings(const struct sonde_perfdata_reader *r)
{
	return r ? r->pmu_maps : NULL;
}

const struct sonde_feat_caches *
sonde_perfdata_reader__caches(const struct sonde_perfdata_reader *r)
{
	return r ? r->caches : NULL;
}

const struct sonde_feat_hybrid_topology *
sonde_perfdata_reader__hybrid_topology(const struct sonde_perfdata_reader *r)
{
	return r ? r->hybrid : NULL;
}

void pdr_feat_free(struct sonde_perfdata_reader *r)
{
	cpu_topo_free(r->cpu_topo);
	r->cpu_topo = NULL;
	LIST_FREE(r->numa, nodes, numa_strs);
	r->numa = NULL;
	LIST_FREE(r->pmu_maps, pmus, map_strs);
	r->pmu_maps = NULL;
	LIST_FREE(r->caches, caches, cache_strs);
	r->caches = NULL;
	LIST_FREE(r->hybrid, pmus, hybrid_strs);
	r->hybrid = NULL;
	mem_free(r->mem);
	r->mem = NULL;
	caps_free(r->cpu_pmu_caps);
	caps_free(r->pmu_caps);
	r->cpu_pmu_caps = r->pmu_caps = NULL;
	if (r->btf)
		free((void *)r->btf->ids);
	free(r->btf);
	r->btf = NULL;
	free(r->compressed);
	r->compressed = NULL;
}

const struct sonde_feat_mem_topology *
sonde_perfdata_reader__mem_topology(const struct sonde_perfdata_reader *r)
{
	return r ? r->mem : NULL;
}

const struct sonde_feat_pmu_caps_list *
sonde_perfdata_reader__pmu_caps(const struct sonde_perfdata_reader *r, int feat)
{
	if (!r)
		return NULL;
	return feat == SONDE_FEAT_CPU_PMU_CAPS ? r->cpu_pmu_caps :
	       feat == SONDE_FEAT_PMU_CAPS ? r->pmu_caps : NULL;
}

const struct sonde_feat_bpf_btf *
sonde_perfdata_reader__bpf_btf(const struct sonde_perfdata_reader *r)
{
	return r ? r->btf : NULL;
}

const struct sonde_feat_compressed *
sonde_perfdata_reader__compressed(const struct sonde_perfdata_reader *r)
{
	return r ? r->compressed : NULL;
}

int sonde_perfdata_reader__dir_format(const struct sonde_perfdata_reader *r,
				      uint64_t *version)
{
	if (!r || !version)
		return lib_err(EINVAL);
	if (!r->has_dir_format)
		return lib_err(ENOENT);
	*version = r->dir_format;
	return 0;
}
