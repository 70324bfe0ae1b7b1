// SPDX-License-Identifier: LGPL-2.1-only
/*
 * pprof: profile.proto (github.com/google/pprof, proto/profile.proto),
 * encoded here by hand and gzip-compressed, as `go tool pprof`, Pyroscope,
 * Parca and Grafana read it. One sample per thread and distinct stack,
 * valued [samples, period] and labelled with the thread; a location per
 * address with its inlined functions as extra lines (innermost first);
 * a mapping per object with the file's build id, the profiled program
 * first (pprof's main binary).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "export_priv.h"
#include "core_priv.h"
#include "perfdata_priv.h"
#include "profile_priv.h"

/* ---- protobuf wire format ---- */

struct pb {
	uint8_t *buf;
	size_t len, cap;
	bool oom;
};

static void pb_raw(struct pb *b, const void *p, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		uint8_t *nb;

		while (cap < b->len + n)
			cap *= 2;
		nb = realloc(b->buf, cap);
		if (!nb) {
			b->oom = true;
			return;
		}
		b->buf = nb;
		b->cap = cap;
	}
	memcpy(b->buf + b->len, p, n);
	b->len += n;
}

static void pb_varint(struct pb *b, uint64_t v)
{
	uint8_t tmp[10];
	size_t n = 0;

	do {
		tmp[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	pb_raw(b, tmp, n);
}

enum { WIRE_VARINT = 0, WIRE_LEN = 2 };

/* A varint field; proto3 leaves zeros out. */
static void pb_u64(struct pb *b, unsigned int field, uint64_t v)
{
	if (!v)
		return;
	pb_varint(b, (uint64_t)field << 3 | WIRE_VARINT);
	pb_varint(b, v);
}

static void pb_bytes(struct pb *b, unsigned int field, const void *p, size_t n)
{
	pb_varint(b, (uint64_t)field << 3 | WIRE_LEN);
	pb_varint(b, n);
	pb_raw(b, p, n);
}

/* @sub as a message field of @b; @sub is emptied for reuse. */
static void pb_msg(struct pb *b, unsigned int field, struct pb *sub)
{
	if (sub->oom)
		b->oom = true;
	pb_bytes(b, field, sub->buf, sub->len);
	sub->len = 0;
}

/* A packed repeated varint field. */
static void pb_packed(struct pb *b, struct pb *tmp, unsigned int field, const uint64_t *v,
		      size_t n)
{
	for (size_t i = 0; i < n; i++)
		pb_varint(tmp, v[i]);
	pb_msg(b, field, tmp);
}

/* ---- profile.proto field numbers ---- */

enum {
	PROFILE_SAMPLE_TYPE = 1, PROFILE_SAMPLE = 2, PROFILE_MAPPING = 3, PROFILE_LOCATION = 4,
	PROFILE_FUNCTION = 5, PROFILE_STRING_TABLE = 6, PROFILE_TIME_NANOS = 9,
	PROFILE_DURATION_NANOS = 10, PROFILE_PERIOD_TYPE = 11, PROFILE_PERIOD = 12,
};
enum { VALUE_TYPE_TYPE = 1, VALUE_TYPE_UNIT = 2 };
enum { SAMPLE_LOCATION_ID = 1, SAMPLE_VALUE = 2, SAMPLE_LABEL = 3 };
enum { LABEL_KEY = 1, LABEL_STR = 2, LABEL_NUM = 3 };
enum {
	MAPPING_ID = 1, MAPPING_MEMORY_START = 2, MAPPING_MEMORY_LIMIT = 3, MAPPING_FILENAME = 5,
	MAPPING_BUILD_ID = 6, MAPPING_HAS_FUNCTIONS = 7, MAPPING_HAS_INLINE_FRAMES = 10,
};
enum { LOCATION_ID = 1, LOCATION_MAPPING_ID = 2, LOCATION_ADDRESS = 3, LOCATION_LINE = 4 };
enum { LINE_FUNCTION_ID = 1 };
enum { FUNCTION_ID = 1, FUNCTION_NAME = 2, FUNCTION_SYSTEM_NAME = 3, FUNCTION_FILENAME = 4 };

/* ---- tables: strings, functions, mappings, locations ---- */

struct str_ent {
	const char *s;
	uint64_t idx;
};

struct fn_ent {
	uint64_t name, file; /* string indexes */
	uint64_t id;
};

struct map_ent {
	const struct prof_dso *dso;
	uint64_t id, start, limit;
	uint64_t samples; /* samples whose stack passes through it */
	size_t last;	  /* the export group last counted (+1): once per stack */
	bool comm_exe;	  /* its file is named as a command that ran it */
};

struct loc_ent {
	const struct prof_dso *dso;
	uint64_t ip;
	uint64_t id, map_id;
	uint64_t fns[8]; /* function ids, innermost first */
	uint32_t nr_fns;
};

struct pprof {
	struct sonde_profile *p;
	struct pb out, tmp, tmp2;
	struct hashtab strs, fns, maps, locs;
	struct str_ent *str_v;
	size_t nr_strs;
	struct fn_ent *fn_v;
	size_t nr_fns;
	struct map_ent *map_v;
	size_t nr_maps;
	struct loc_ent *loc_v;
	size_t nr_locs;
	char **owned; /* strings made here (build ids), freed at the end */
	size_t nr_owned;
	bool oom;
};

/* Grows @v (elements of @size) to hold @nr + 1. */
static void *grow(void *v, size_t nr, size_t size)
{
	if (nr & (nr - 1) && nr > 16)
		return v; /* room left: sizes go 16, 32, 64, ... */
	return realloc(v, (nr < 16 ? 16 : nr * 2) * size);
}

static bool str_eq(const void *val, const void *key, void *ctx)
{
	struct pprof *pp = ctx;

	return !strcmp(pp->str_v[(uintptr_t)val - 1].s, key);
}

/* The string's index in string_table (0 is ""). */
static uint64_t str_idx(struct pprof *pp, const char *s)
{
	uint64_t h;
	void *v;

	if (!s || !*s)
		return 0;
	h = hashtab_bytes_hash(s, strlen(s));
	v = hashtab_find(&pp->strs, h, str_eq, s, pp);
	if (v)
		return pp->str_v[(uintptr_t)v - 1].idx;
	{
		struct str_ent *n = grow(pp->str_v, pp->nr_strs, sizeof(*n));

		if (!n) {
			pp->oom = true;
			return 0;
		}
		pp->str_v = n;
		n[pp->nr_strs] = (struct str_ent){ s, pp->nr_strs + 1 };
		if (hashtab_insert(&pp->strs, h, (void *)(uintptr_t)(pp->nr_strs + 1))) {
			pp->oom = true;
			return 0;
		}
		return n[pp->nr_strs++].idx;
	}
}

/* str_idx() of a string that does not outlive the call. */
static uint64_t str_idx_copy(struct pprof *pp, const char *s)
{
	char **n = grow(pp->owned, pp->nr_owned, sizeof(*n));

	if (!n || !(n[pp->nr_owned] = strdup(s))) {
		if (n)
			pp->owned = n;
		pp->oom = true;
		return 0;
	}
	pp->owned = n;
	return str_idx(pp, n[pp->nr_owned++]);
}

static bool fn_eq(const void *val, const void *key, void *ctx)
{
	const struct fn_ent *a = &((struct pprof *)ctx)->fn_v[(uintptr_t)val - 1], *b = key;

	return a->name == b->name && a->file == b->file;
}

static uint64_t fn_id(struct pprof *pp, const char *name, const char *file)
{
	struct fn_ent k = { str_idx(pp, name), str_idx(pp, file), 0 };
	uint64_t h = hashtab_mix(hashtab_mix(0, k.name), k.file);
	void *v = hashtab_find(&pp->fns, h, fn_eq, &k, pp);
	struct fn_ent *n;

	if (v)
		return pp->fn_v[(uintptr_t)v - 1].id;
	n = grow(pp->fn_v, pp->nr_fns, sizeof(*n));
	if (!n) {
		pp->oom = true;
		return 0;
	}
	pp->fn_v = n;
	k.id = pp->nr_fns + 1;
	n[pp->nr_fns++] = k;
	if (hashtab_insert(&pp->fns, h, (void *)(uintptr_t)k.id))
		pp->oom = true;
	return k.id;
}

static bool map_eq(const void *val, const void *key, void *ctx)
{
	return ((struct pprof *)ctx)->map_v[(uintptr_t)val - 1].dso == key;
}

/* The mapping of @dso, its range widened to hold @ip (map-relative @addr). */
static uint64_t map_id(struct pprof *pp, const struct prof_dso *dso, uint64_t ip, uint64_t addr)
{
	uint64_t h = hashtab_mix(0, (uintptr_t)dso);
	void *v = hashtab_find(&pp->maps, h, map_eq, dso, pp);
	uint64_t base = ip >= addr ? ip - addr : ip;
	struct map_ent *m;

	if (!dso)
		return 0;
	if (v) {
		m = &pp->map_v[(uintptr_t)v - 1];
	} else {
		m = grow(pp->map_v, pp->nr_maps, sizeof(*m));
		if (!m) {
			pp->oom = true;
			return 0;
		}
		pp->map_v = m;
		m = &m[pp->nr_maps];
		*m = (struct map_ent){ .dso = dso, .id = ++pp->nr_maps, .start = base,
				       .limit = ip + 1 };
		if (hashtab_insert(&pp->maps, h, (void *)(uintptr_t)m->id))
			pp->oom = true;
	}
	if (base < m->start)
		m->start = base;
	if (ip + 1 > m->limit)
		m->limit = ip + 1;
	return m->id;
}

static bool loc_eq(const void *val, const void *key, void *ctx)
{
	const struct loc_ent *a = &((struct pprof *)ctx)->loc_v[(uintptr_t)val - 1], *b = key;

	return a->ip == b->ip && a->dso == b->dso && a->nr_fns == b->nr_fns &&
	       !memcmp(a->fns, b->fns, a->nr_fns * sizeof(a->fns[0]));
}

static const char *frame_file(const struct prof_frame *f)
{
	return f->dso ? f->dso->name : NULL;
}

/*
 * The location of frames[*i]: the address with the functions inlined
 * there (frames that share its ip), innermost first. Advances *i past them.
 */
static uint64_t loc_id(struct pprof *pp, const struct prof_stack *st, uint32_t *i)
{
	const struct prof_frame *f = &st->frames[*i];
	struct loc_ent k = { .dso = f->dso, .ip = f->ip };
	uint64_t h;
	void *v;
	struct loc_ent *n;

	for (;;) {
		const struct prof_frame *g = &st->frames[*i];

		k.fns[k.nr_fns++] = fn_id(pp, export_frame_name((const void *)g), frame_file(g));
		(*i)++;
		if (!(g->sym && g->sym->inlined) || *i >= st->nr_frames ||
		    st->frames[*i].ip != g->ip || k.nr_fns == sizeof(k.fns) / sizeof(k.fns[0]))
			break;
	}
	h = hashtab_mix(hashtab_mix(hashtab_mix(0, k.ip), (uintptr_t)k.dso), k.fns[0]);
	v = hashtab_find(&pp->locs, h, loc_eq, &k, pp);
	if (v)
		return pp->loc_v[(uintptr_t)v - 1].id;
	n = grow(pp->loc_v, pp->nr_locs, sizeof(*n));
	if (!n) {
		pp->oom = true;
		return 0;
	}
	pp->loc_v = n;
	k.id = pp->nr_locs + 1;
	k.map_id = map_id(pp, f->dso, f->ip, f->addr);
	n[pp->nr_locs++] = k;
	if (hashtab_insert(&pp->locs, h, (void *)(uintptr_t)k.id))
		pp->oom = true;
	return k.id;
}

/* ---- the profile message ---- */

static void value_type(struct pprof *pp, unsigned int field, const char *type, const char *unit)
{
	pb_u64(&pp->tmp, VALUE_TYPE_TYPE, str_idx(pp, type));
	pb_u64(&pp->tmp, VALUE_TYPE_UNIT, str_idx(pp, unit));
	pb_msg(&pp->out, field, &pp->tmp);
}

static void label(struct pprof *pp, const char *key, const char *str, int64_t num)
{
	pb_u64(&pp->tmp2, LABEL_KEY, str_idx(pp, key));
	pb_u64(&pp->tmp2, LABEL_STR, str_idx(pp, str));
	pb_u64(&pp->tmp2, LABEL_NUM, (uint64_t)num);
	pb_msg(&pp->tmp, SAMPLE_LABEL, &pp->tmp2);
}

/*
 * The kernel truncates a command to 15 bytes: @comm names the file
 * @short_name when it is the name's start, whole or cut there.
 */
static bool comm_names(const char *comm, const char *short_name)
{
	size_t n = comm ? strlen(comm) : 0;

	return n && !strncmp(short_name, comm, n) && (!short_name[n] || n == 15);
}

/* Group @gi (@g) passes through mapping @id: counted once per group. */
static void count_map(struct pprof *pp, uint64_t id, const struct export_group *g, size_t gi)
{
	struct map_ent *m;

	if (!id)
		return;
	m = &pp->map_v[id - 1];
	if (m->last == gi + 1)
		return;
	m->last = gi + 1;
	m->samples += g->samples;
	if (!m->comm_exe && comm_names(g->comm, m->dso->short_name))
		m->comm_exe = true;
}

static int put_samples(struct pprof *pp, const struct export_ctx *x)
{
	struct export_group *g;
	uint64_t *ids = NULL;
	size_t n, cap = 0;

	g = export_groups(pp->p, x, &n);
	if (!g)
		return -ENOMEM;
	for (size_t i = 0; i < n && !pp->oom; i++) {
		const struct prof_stack *st = (const struct prof_stack *)g[i].st;
		uint64_t vals[2] = { g[i].samples, g[i].weight };
		size_t nr = 0;

		if (cap < st->nr_frames + 1) {
			free(ids);
			cap = st->nr_frames + 1;
			ids = malloc(cap * sizeof(*ids));
			if (!ids) {
				free(g);
				return -ENOMEM;
			}
		}
		for (uint32_t f = 0; f < st->nr_frames;)
			ids[nr++] = loc_id(pp, st, &f);
		for (size_t k = 0; k < nr && !pp->oom; k++)
			count_map(pp, pp->loc_v[ids[k] - 1].map_id, &g[i], i);
		pb_packed(&pp->tmp, &pp->tmp2, SAMPLE_LOCATION_ID, ids, nr);
		pb_packed(&pp->tmp, &pp->tmp2, SAMPLE_VALUE, vals, 2);
		label(pp, "comm", g[i].comm, 0);
		label(pp, "pid", NULL, g[i].pid);
		label(pp, "tid", NULL, g[i].tid);
		pb_msg(&pp->out, PROFILE_SAMPLE, &pp->tmp);
	}
	free(ids);
	free(g);
	return 0;
}

/* The recording's build id of @name (HEADER_BUILD_ID), or NULL. */
static const struct sonde_feat_build_id *build_id(const struct sonde_profile *p, const char *name)
{
	const struct sonde_perfdata_reader *r = p->reader;

	for (size_t i = 0; r && name && i < r->nr_build_ids; i++)
		if (r->build_ids[i].filename && !strcmp(r->build_ids[i].filename, name))
			return &r->build_ids[i];
	return NULL;
}

static void put_mapping(struct pprof *pp, const struct map_ent *m)
{
	const struct sonde_feat_build_id *hb = build_id(pp->p, m->dso->name);
	struct sonde_feat_build_id mb;
	const struct sonde_feat_build_id *b = hb;
	char hex[41];

	/* else the one its MMAP2 record carried */
	if (!b && m->dso->mmap_bid_size) {
		memset(&mb, 0, sizeof(mb));
		mb.size = m->dso->mmap_bid_size;
		memcpy(mb.id, m->dso->mmap_bid, sizeof(m->dso->mmap_bid));
		b = &mb;
	}

	pb_u64(&pp->tmp, MAPPING_ID, m->id);
	pb_u64(&pp->tmp, MAPPING_MEMORY_START, m->start);
	pb_u64(&pp->tmp, MAPPING_MEMORY_LIMIT, m->limit);
	pb_u64(&pp->tmp, MAPPING_FILENAME, str_idx(pp, m->dso->name));
	if (b) {
		for (unsigned int j = 0; j < b->size && j < 20; j++)
			snprintf(hex + 2 * j, 3, "%02x", b->id[j]);
		hex[2 * (b->size < 20 ? b->size : 20)] = 0;
		pb_u64(&pp->tmp, MAPPING_BUILD_ID, str_idx_copy(pp, hex));
	}
	pb_u64(&pp->tmp, MAPPING_HAS_FUNCTIONS, m->dso->has_syms);
	pb_u64(&pp->tmp, MAPPING_HAS_INLINE_FRAMES, 1);
	pb_msg(&pp->out, PROFILE_MAPPING, &pp->tmp);
}

/* A shared library by its name (libc.so.6, x.so): not a main binary. */
static bool is_library(const char *short_name)
{
	const char *so = strstr(short_name, ".so");

	return so && (!so[3] || so[3] == '.');
}

/* How well @m stands for the profiled program: the higher the better. */
static int main_rank(const struct map_ent *m)
{
	if (m->dso->kernel || m->dso->jit || m->dso->name[0] != '/' || !m->samples)
		return 0;
	return m->comm_exe ? 3 : !is_library(m->dso->short_name) ? 2 : 1;
}

/*
 * pprof takes the first mapping for the main binary: the executable of
 * the profiled command (named as its command, else not a library), the
 * one with the most samples; then user code, then the kernel.
 */
static void put_tables(struct pprof *pp)
{
	const struct map_ent *main_map = NULL;

	for (size_t i = 0; i < pp->nr_maps; i++) {
		const struct map_ent *m = &pp->map_v[i];
		int r = main_rank(m), best = main_map ? main_rank(main_map) : 0;

		if (r > best || (r && r == best && m->samples > main_map->samples))
			main_map = m;
	}
	if (main_map)
		put_mapping(pp, main_map);
	for (int kernel = 0; kernel < 2; kernel++)
		for (size_t i = 0; i < pp->nr_maps; i++)
			if (pp->map_v[i].dso->kernel == kernel && &pp->map_v[i] != main_map)
				put_mapping(pp, &pp->map_v[i]);
	for (size_t i = 0; i < pp->nr_locs; i++) {
		const struct loc_ent *l = &pp->loc_v[i];

		pb_u64(&pp->tmp, LOCATION_ID, l->id);
		pb_u64(&pp->tmp, LOCATION_MAPPING_ID, l->map_id);
		pb_u64(&pp->tmp, LOCATION_ADDRESS, l->ip);
		for (uint32_t j = 0; j < l->nr_fns; j++) {
			pb_u64(&pp->tmp2, LINE_FUNCTION_ID, l->fns[j]);
			pb_msg(&pp->tmp, LOCATION_LINE, &pp->tmp2);
		}
		pb_msg(&pp->out, PROFILE_LOCATION, &pp->tmp);
	}
	for (size_t i = 0; i < pp->nr_fns; i++) {
		const struct fn_ent *f = &pp->fn_v[i];

		pb_u64(&pp->tmp, FUNCTION_ID, f->id);
		pb_u64(&pp->tmp, FUNCTION_NAME, f->name);
		pb_u64(&pp->tmp, FUNCTION_SYSTEM_NAME, f->name);
		pb_u64(&pp->tmp, FUNCTION_FILENAME, f->file);
		pb_msg(&pp->out, PROFILE_FUNCTION, &pp->tmp);
	}
	/* Last: every table above has added its strings by now. */
	pb_bytes(&pp->out, PROFILE_STRING_TABLE, "", 0);
	for (size_t i = 0; i < pp->nr_strs; i++)
		pb_bytes(&pp->out, PROFILE_STRING_TABLE, pp->str_v[i].s, strlen(pp->str_v[i].s));
}

static int gzip_out(const struct export_ctx *x, const uint8_t *buf, size_t len)
{
	uint8_t chunk[64 * 1024];
	z_stream z = { 0 };
	int zr;

	/* windowBits 15 + 16: a gzip header and trailer around the deflate stream. */
	if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -ENOMEM;
	z.next_in = (Bytef *)buf;
	z.avail_in = (uInt)len; /* profiles stay far below 4 GiB */
	do {
		z.next_out = chunk;
		z.avail_out = sizeof(chunk);
		zr = deflate(&z, Z_FINISH);
		export_put(x, chunk, sizeof(chunk) - z.avail_out);
	} while (zr == Z_OK);
	deflateEnd(&z);
	return zr == Z_STREAM_END ? 0 : -EIO;
}

int export_pprof(struct sonde_profile *p, const struct export_ctx *x)
{
	struct pprof pp = { .p = p };
	const char *unit = export_period_unit(p, x->ev);
	int ret;

	hashtab_init(&pp.strs);
	hashtab_init(&pp.fns);
	hashtab_init(&pp.maps);
	hashtab_init(&pp.locs);
	/* The last sample type is pprof's default: the period, as report weighs. */
	value_type(&pp, PROFILE_SAMPLE_TYPE, "samples", "count");
	value_type(&pp, PROFILE_SAMPLE_TYPE, x->event_name, unit);
	value_type(&pp, PROFILE_PERIOD_TYPE, x->event_name, unit);
	if (!p->evs[x->ev].attr.freq)
		pb_u64(&pp.out, PROFILE_PERIOD, p->evs[x->ev].attr.sample_period);
	pb_u64(&pp.out, PROFILE_TIME_NANOS, x->opts.time_ns);
	pb_u64(&pp.out, PROFILE_DURATION_NANOS, x->opts.duration_ns);
	ret = put_samples(&pp, x);
	if (!ret) {
		put_tables(&pp);
		ret = pp.oom || pp.out.oom || pp.tmp.oom || pp.tmp2.oom ? -ENOMEM
			: gzip_out(x, pp.out.buf, pp.out.len);
	}
	hashtab_free(&pp.strs);
	hashtab_free(&pp.fns);
	hashtab_free(&pp.maps);
	hashtab_free(&pp.locs);
	free(pp.str_v);
	free(pp.fn_v);
	free(pp.map_v);
	free(pp.loc_v);
	for (size_t i = 0; i < pp.nr_owned; i++)
		free(pp.owned[i]);
	free(pp.owned);
	free(pp.out.buf);
	free(pp.tmp.buf);
	free(pp.tmp2.buf);
	return ret;
}
