/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * A tiny perf.data image builder for tests and benchmarks (file or pipe
 * format, either byte order). Writes the layout perf documents; only what
 * the tests need. Header-only so bench/ can use it too.
 */
#ifndef SONDE_TEST_PDGEN_H
#define SONDE_TEST_PDGEN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct pdgen {
	uint8_t *buf;
	size_t len, cap;
	bool swap, pipe;
	uint64_t sample_type;
	size_t data_off;
	uint32_t attr_size; /* bytes of attr written; 0 = 128 (VER7) */
};

static inline void pdg_reserve(struct pdgen *g, size_t n)
{
	if (g->len + n > g->cap) {
		while (g->len + n > g->cap)
			g->cap = g->cap ? g->cap * 2 : 4096;
		g->buf = realloc(g->buf, g->cap);
		if (!g->buf)
			abort();
	}
}

static inline void pdg_bytes(struct pdgen *g, const void *p, size_t n)
{
	pdg_reserve(g, n);
	memcpy(g->buf + g->len, p, n);
	g->len += n;
}

static inline void pdg_16(struct pdgen *g, uint16_t v)
{
	if (g->swap)
		v = __builtin_bswap16(v);
	pdg_bytes(g, &v, 2);
}

static inline void pdg_32(struct pdgen *g, uint32_t v)
{
	if (g->swap)
		v = __builtin_bswap32(v);
	pdg_bytes(g, &v, 4);
}

static inline void pdg_64(struct pdgen *g, uint64_t v)
{
	if (g->swap)
		v = __builtin_bswap64(v);
	pdg_bytes(g, &v, 8);
}

static inline void pdg_set64(struct pdgen *g, size_t off, uint64_t v)
{
	if (g->swap)
		v = __builtin_bswap64(v);
	memcpy(g->buf + off, &v, 8);
}

static inline uint8_t pdg_rev8(uint8_t b)
{
	uint8_t r = 0;

	for (int i = 0; i < 8; i++)
		if (b & (1u << i))
			r |= (uint8_t)(1u << (7 - i));
	return r;
}

static inline uint32_t pdg_attr_size(const struct pdgen *g)
{
	return g->attr_size ? g->attr_size : 128;
}

/* An attr of pdg_attr_size() bytes: software event @config, flags as given. */
static inline void pdg_attr(struct pdgen *g, uint32_t type, uint64_t config, uint64_t period,
			    uint64_t sample_type, uint64_t flags)
{
	size_t start = g->len, want = pdg_attr_size(g);

	pdg_32(g, type);
	pdg_32(g, (uint32_t)want);
	pdg_64(g, config);
	pdg_64(g, period);
	pdg_64(g, sample_type);
	pdg_64(g, 0); /* read_format */
	if (g->swap) {
		uint8_t b[8];

		memcpy(b, &flags, 8);
		for (int i = 0; i < 8; i++)
			b[i] = pdg_rev8(b[i]);
		pdg_bytes(g, b, 8);
	} else {
		pdg_bytes(g, &flags, 8);
	}
	pdg_32(g, 0);
	pdg_32(g, 0);
	for (int i = 0; i < 9; i++)
		pdg_64(g, 0); /* config1 .. sig_data, 72 bytes */
	/* Older attrs are cut short, newer ones carry zeroed unknown fields. */
	if (g->len - start > want)
		g->len = start + want;
	while (g->len - start < want)
		pdg_bytes(g, "", 1);
}

/* flags: mmap|comm|sample_id_all|exclude_guest|mmap2|comm_exec */
#define PDG_FLAGS ((1ULL << 8) | (1ULL << 9) | (1ULL << 18) | (1ULL << 20) | (1ULL << 23))

static inline void pdg_string(struct pdgen *g, const char *s)
{
	size_t n = strlen(s) + 1, padded = (n + 63) / 64 * 64;
	static const uint8_t zero[64];

	pdg_32(g, (uint32_t)padded);
	pdg_bytes(g, s, n);
	pdg_bytes(g, zero, padded - n);
}

/* File mode: header + one attr; records follow. */
static inline void pdg_file_begin(struct pdgen *g, uint64_t sample_type, uint64_t period)
{
	g->sample_type = sample_type;
	pdg_64(g, 0x32454c4946524550ULL);
	pdg_64(g, 104);
	pdg_64(g, pdg_attr_size(g) + 16);
	pdg_64(g, 104); /* attrs */
	pdg_64(g, pdg_attr_size(g) + 16);
	pdg_64(g, 0); /* data: patched */
	pdg_64(g, 0);
	pdg_64(g, 0);
	pdg_64(g, 0);
	pdg_64(g, (1ULL << 3) | (1ULL << 21)); /* HOSTNAME, SAMPLE_TIME */
	pdg_64(g, 0);
	pdg_64(g, 0);
	pdg_64(g, 0);
	pdg_attr(g, 1, 0, period, sample_type, PDG_FLAGS);
	pdg_64(g, 0); /* ids section: none */
	pdg_64(g, 0);
	g->data_off = g->len;
}

static inline void pdg_file_end(struct pdgen *g, uint64_t first, uint64_t last)
{
	size_t data_size = g->len - g->data_off, tab, p1;

	pdg_set64(g, 40, g->data_off);
	pdg_set64(g, 48, data_size);
	tab = g->len;
	pdg_64(g, 0);
	pdg_64(g, 0);
	pdg_64(g, 0);
	pdg_64(g, 0);
	p1 = g->len;
	pdg_string(g, "pdgen-host");
	pdg_set64(g, tab, p1);
	pdg_set64(g, tab + 8, g->len - p1);
	p1 = g->len;
	pdg_64(g, first);
	pdg_64(g, last);
	pdg_set64(g, tab + 16, p1);
	pdg_set64(g, tab + 24, 16);
}

/* Pipe mode: 16-byte header, HEADER_ATTR, HEADER_FEATURE(HOSTNAME). */
static inline void pdg_pipe_begin(struct pdgen *g, uint64_t sample_type, uint64_t period)
{
	size_t start;

	g->pipe = true;
	g->sample_type = sample_type;
	pdg_64(g, 0x32454c4946524550ULL);
	pdg_64(g, 16);
	pdg_32(g, 64);
	pdg_16(g, 0);
	pdg_16(g, (uint16_t)(8 + pdg_attr_size(g)));
	pdg_attr(g, 1, 0, period, sample_type, PDG_FLAGS);
	start = g->len;
	pdg_32(g, 80);
	pdg_16(g, 0);
	pdg_16(g, 0); /* patched */
	pdg_64(g, 3);
	pdg_string(g, "pdgen-host");
	{
		uint16_t sz = (uint16_t)(g->len - start);

		if (g->swap)
			sz = __builtin_bswap16(sz);
		memcpy(g->buf + start + 6, &sz, 2);
	}
	g->data_off = g->len;
}

/* sample_id trailer for TID|TIME|CPU|IDENTIFIER-free attrs (TID, TIME). */
static inline void pdg_trailer(struct pdgen *g, uint32_t pid, uint32_t tid, uint64_t time)
{
	pdg_32(g, pid);
	pdg_32(g, tid);
	pdg_64(g, time);
}

static inline void pdg_comm(struct pdgen *g, uint32_t pid, uint32_t tid, const char *comm,
			    uint64_t time)
{
	size_t n = (strlen(comm) + 1 + 7) / 8 * 8;
	char name[64] = { 0 };

	memcpy(name, comm, strlen(comm));
	pdg_32(g, 3);
	pdg_16(g, 0);
	pdg_16(g, (uint16_t)(8 + 8 + n + 16));
	pdg_32(g, pid);
	pdg_32(g, tid);
	pdg_bytes(g, name, n);
	pdg_trailer(g, pid, tid, time);
}

static inline void pdg_mmap(struct pdgen *g, uint32_t pid, uint64_t start, uint64_t len,
			    uint64_t pgoff, const char *path, uint64_t time)
{
	size_t n = (strlen(path) + 1 + 7) / 8 * 8;
	char name[256] = { 0 };

	memcpy(name, path, strlen(path));
	pdg_32(g, 1);
	pdg_16(g, 2); /* user */
	pdg_16(g, (uint16_t)(8 + 32 + n + 16));
	pdg_32(g, pid);
	pdg_32(g, pid);
	pdg_64(g, start);
	pdg_64(g, len);
	pdg_64(g, pgoff);
	pdg_bytes(g, name, n);
	pdg_trailer(g, pid, pid, time);
}

/* SAMPLE with IP|TID|TIME|PERIOD[|CALLCHAIN]. */
static inline void pdg_sample(struct pdgen *g, uint32_t pid, uint32_t tid, uint64_t time,
			      uint64_t ip, uint64_t period, const uint64_t *chain, unsigned nr)
{
	bool cc = g->sample_type & (1u << 5);
	uint16_t size = (uint16_t)(8 + 32 + (cc ? 8 + 8 * (nr + 1) : 0));

	pdg_32(g, 9);
	pdg_16(g, 2);
	pdg_16(g, size);
	pdg_64(g, ip);
	pdg_32(g, pid);
	pdg_32(g, tid);
	pdg_64(g, time);
	pdg_64(g, period);
	if (cc) {
		pdg_64(g, nr + 1);
		pdg_64(g, (uint64_t)-512); /* PERF_CONTEXT_USER */
		for (unsigned i = 0; i < nr; i++)
			pdg_64(g, chain[i]);
	}
}

static inline void pdg_round(struct pdgen *g)
{
	pdg_32(g, 68);
	pdg_16(g, 0);
	pdg_16(g, 8);
}

#endif /* SONDE_TEST_PDGEN_H */
