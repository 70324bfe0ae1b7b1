// SPDX-License-Identifier: LGPL-2.1-only
/*
 * perf.data reader: opening (mmap or slurp a pipe), the file/pipe header and
 * the attrs section. Feature sections are in perfdata_read_feat.c, the record
 * stream and time ordering in perfdata_read_stream.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sonde/sys.h"
#include "core_priv.h"
#include "perfdata_priv.h"

#define PERF_MAGIC2 0x32454c4946524550ULL /* "PERFILE2" little-endian */
#define PERF_MAGIC2_SWAPPED 0x50455246494c4532ULL
#define FILE_HDR_SIZE 104
#define FILE_HDR_SIZE_OLD 72
#define PIPE_HDR_SIZE 16

int pdr_fail(struct sonde_perfdata_reader *r, uint64_t off, const char *fmt, ...)
{
	if (!r->err_code) {
		va_list ap;
		int n = snprintf(r->err, sizeof(r->err), "byte offset %llu: ",
				 (unsigned long long)off);
		va_start(ap, fmt);
		if (n > 0 && (size_t)n < sizeof(r->err))
			vsnprintf(r->err + n, sizeof(r->err) - n, fmt, ap);
		va_end(ap);
		r->err_code = SONDE_ERR_FORMAT;
		pr_debug("perf.data: %s\n", r->err);
	}
	return -SONDE_ERR_FORMAT;
}

/* attr field sizes in order, for byte swapping; 0 marks the flag word. */
static const uint8_t attr_fields[] = {
	4, 4, 8, 8, 8, 8, 0, 4, 4, 8, 8, 8, 8, 4, 4, 8, 4, 2, 2, 4, 4, 8, 8,
};

static uint8_t rev8(uint8_t b)
{
	b = (uint8_t)((b & 0xf0) >> 4 | (b & 0x0f) << 4);
	b = (uint8_t)((b & 0xcc) >> 2 | (b & 0x33) << 2);
	return (uint8_t)((b & 0xaa) >> 1 | (b & 0x55) << 1);
}

static void file_attr_swap(uint8_t *p, size_t size)
{
	size_t off = 0;

	for (size_t i = 0; i < ARRAY_SIZE(attr_fields) && off < size; i++) {
		size_t f = attr_fields[i] ? attr_fields[i] : 8;

		if (off + f > size)
			break;
		if (!attr_fields[i]) {
			/* Bitfields are allocated from the other end of each
			 * byte on the other byte order: reverse bits, keep bytes. */
			for (size_t k = 0; k < 8; k++)
				p[off + k] = rev8(p[off + k]);
		} else if (f == 2) {
			uint16_t v;
			memcpy(&v, p + off, 2);
			v = __builtin_bswap16(v);
			memcpy(p + off, &v, 2);
		} else if (f == 4) {
			uint32_t v;
			memcpy(&v, p + off, 4);
			v = __builtin_bswap32(v);
			memcpy(p + off, &v, 4);
		} else {
			uint64_t v;
			memcpy(&v, p + off, 8);
			v = __builtin_bswap64(v);
			memcpy(p + off, &v, 8);
		}
		off += f;
	}
}

void pdr_attr_layout(struct pdr_attr *a)
{
	uint64_t st = a->attr.sample_type;
	int n = 0;

	memset(&a->fmt, 0, sizeof(a->fmt));
	/* Unknown sample_type bits: the codec refuses; later records fail. */
	sonde_record_fmt__from_attr(&a->fmt, &a->attr);
	a->trailer_size = 0;
	a->trailer_time_off = -1;
	a->trailer_id_off = -1;
	a->sample_id_off = -1;
	a->sample_time_off = -1;
	if (st & SONDE_PERF_SAMPLE_TIME)
		a->sample_time_off = (int16_t)(8 + 8 * (!!(st & SONDE_PERF_SAMPLE_IDENTIFIER) +
							!!(st & SONDE_PERF_SAMPLE_IP) +
							!!(st & SONDE_PERF_SAMPLE_TID)));
	if (st & SONDE_PERF_SAMPLE_IDENTIFIER)
		a->sample_id_off = 0;
	else if (st & SONDE_PERF_SAMPLE_ID) {
		n = 0;
		if (st & SONDE_PERF_SAMPLE_IP)
			n++;
		if (st & SONDE_PERF_SAMPLE_TID)
			n++;
		if (st & SONDE_PERF_SAMPLE_TIME)
			n++;
		if (st & SONDE_PERF_SAMPLE_ADDR)
			n++;
		a->sample_id_off = (int16_t)(n * 8);
	}
	if (!a->attr.sample_id_all)
		return;
	/* The trailer, read from the end: IDENTIFIER, CPU, STREAM_ID, ID, TIME, TID. */
	n = 0;
	if (st & SONDE_PERF_SAMPLE_IDENTIFIER) {
		n++;
		a->trailer_id_off = 8;
	}
	if (st & SONDE_PERF_SAMPLE_CPU)
		n++;
	if (st & SONDE_PERF_SAMPLE_STREAM_ID)
		n++;
	if (st & SONDE_PERF_SAMPLE_ID) {
		n++;
		if (a->trailer_id_off < 0)
			a->trailer_id_off = (int16_t)(n * 8);
	}
	if (st & SONDE_PERF_SAMPLE_TIME) {
		n++;
		a->trailer_time_off = (int16_t)(n * 8);
	}
	if (st & SONDE_PERF_SAMPLE_TID)
		n++;
	a->trailer_size = (uint16_t)(n * 8);
}

int pdr_add_attr(struct sonde_perfdata_reader *r, uint64_t off, uint32_t avail,
		 const uint8_t *ids, uint64_t nr_ids)
{
	uint8_t buf[sizeof(struct sonde_perf_event_attr)];
	struct pdr_attr *a, *na;
	uint32_t size;

	if (r->nr_attrs >= PDR_MAX_ATTRS)
		return pdr_fail(r, off, "more than %d events", PDR_MAX_ATTRS);
	if (avail < 8)
		return pdr_fail(r, off, "attr truncated (%u bytes)", avail);
	size = pdr_rd32(r, pdr_ptr(r, off) + 4);
	if (!size)
		size = SONDE_PERF_ATTR_SIZE_VER0;
	if (size < SONDE_PERF_ATTR_SIZE_VER0 || size > avail)
		return pdr_fail(r, off + 4, "attr.size %u invalid (%u bytes available)",
				size, avail);
	memset(buf, 0, sizeof(buf));
	/* Newer attrs than ours: the fields we know come first, keep those. */
	memcpy(buf, pdr_ptr(r, off), size < sizeof(buf) ? size : sizeof(buf));
	if (r->swap)
		file_attr_swap(buf, size < sizeof(buf) ? size : sizeof(buf));
	na = realloc(r->attrs, (r->nr_attrs + 1) * sizeof(*na));
	if (!na)
		return -ENOMEM;
	r->attrs = na;
	a = &na[r->nr_attrs];
	memset(a, 0, sizeof(*a));
	memcpy(&a->attr, buf, sizeof(a->attr));
	a->attr.size = size;
	if (nr_ids) {
		struct pdr_id_ent *m;

		a->ids = calloc(nr_ids, sizeof(uint64_t));
		m = realloc(r->idmap, (r->nr_ids + nr_ids) * sizeof(*m));
		if (!a->ids || !m) {
			free(a->ids);
			if (m)
				r->idmap = m;
			return -ENOMEM;
		}
		r->idmap = m;
		for (uint64_t i = 0; i < nr_ids; i++) {
			a->ids[i] = pdr_rd64(r, ids + i * 8);
			m[r->nr_ids].id = a->ids[i];
			m[r->nr_ids].attr_idx = r->nr_attrs;
			r->nr_ids++;
		}
		a->nr_ids = (uint32_t)nr_ids;
		r->idmap_sorted = false;
	}
	pdr_attr_layout(a);
	r->nr_attrs++;
	return 0;
}

static int id_cmp(const void *a, const void *b)
{
	const struct pdr_id_ent *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

int pdr_attr_of_id(struct sonde_perfdata_reader *r, uint64_t id)
{
	size_t lo = 0, hi;

	if (!r->idmap_sorted) {
		if (r->nr_ids)
			qsort(r->idmap, r->nr_ids, sizeof(*r->idmap), id_cmp);
		r->idmap_sorted = true;
	}
	hi = r->nr_ids;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (r->idmap[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < r->nr_ids && r->idmap[lo].id == id)
		return r->idmap[lo].attr_idx;
	return r->nr_attrs == 1 ? 0 : -1;
}

static bool sect_ok(const struct sonde_perfdata_reader *r, uint64_t off, uint64_t size)
{
	return off <= r->len && size <= r->len - off;
}

static int parse_file_header(struct sonde_perfdata_reader *r)
{
	const uint8_t *b = r->base;
	uint64_t hsize = pdr_rd64(r, b + 8);
	uint64_t attr_size, attrs_off, attrs_size;

	if (hsize == PIPE_HDR_SIZE) {
		r->pipe = true;
		r->data_off = PIPE_HDR_SIZE;
		/* Read as it arrives: the end is known at EOF. */
		r->data_end = r->in ? UINT64_MAX : r->len;
		return 0;
	}
	if (hsize != FILE_HDR_SIZE && hsize != FILE_HDR_SIZE_OLD)
		return pdr_fail(r, 8, "header size %llu, expected 104 (file) or 16 (pipe)",
				(unsigned long long)hsize);
	if (r->len < hsize)
		return pdr_fail(r, r->len, "file ends inside the %llu-byte header",
				(unsigned long long)hsize);
	attr_size = pdr_rd64(r, b + 16);
	attrs_off = pdr_rd64(r, b + 24);
	attrs_size = pdr_rd64(r, b + 32);
	r->data_off = pdr_rd64(r, b + 40);
	r->data_end = pdr_rd64(r, b + 48);
	if (hsize == FILE_HDR_SIZE)
		for (int i = 0; i < 4; i++)
			r->feat_bits[i] = pdr_rd64(r, b + 72 + 8 * i);
	if (attr_size == 0)
		return pdr_fail(r, 16, "attr_size is 0: was the recording terminated properly?");
	if (attr_size < SONDE_PERF_ATTR_SIZE_VER0 + 16 || attr_size > 65536)
		return pdr_fail(r, 16, "attr_size %llu is invalid",
				(unsigned long long)attr_size);
	if (!sect_ok(r, attrs_off, attrs_size))
		return pdr_fail(r, 24, "attrs section {%llu, %llu} runs past the end of the file (%llu bytes)",
				(unsigned long long)attrs_off,
				(unsigned long long)attrs_size,
				(unsigned long long)r->len);
	if (!sect_ok(r, r->data_off, r->data_end)) {
		/* A recording cut short: keep what is there, report it. */
		pdr_fail(r, 40, "data section {%llu, %llu} runs past the end of the file (%llu bytes): file truncated",
			 (unsigned long long)r->data_off,
			 (unsigned long long)r->data_end, (unsigned long long)r->len);
		r->err_pending = true;
		if (r->data_off > r->len)
			r->data_off = r->len;
		r->data_end = r->len;
		memset(r->feat_bits, 0, sizeof(r->feat_bits));
	} else {
		r->data_end += r->data_off;
	}
	for (uint64_t i = 0; i + attr_size <= attrs_size; i += attr_size) {
		uint64_t off = attrs_off + i;
		uint64_t ids_off = pdr_rd64(r, b + off + attr_size - 16);
		uint64_t ids_size = pdr_rd64(r, b + off + attr_size - 8);
		int err;

		if (!sect_ok(r, ids_off, ids_size) || ids_size % 8)
			return pdr_fail(r, off + attr_size - 16,
					"ids section {%llu, %llu} of event %llu is invalid",
					(unsigned long long)ids_off,
					(unsigned long long)ids_size,
					(unsigned long long)(i / attr_size));
		err = pdr_add_attr(r, off, (uint32_t)(attr_size - 16),
				   b + ids_off, ids_size / 8);
		if (err)
			return err;
	}
	if (!r->nr_attrs)
		return pdr_fail(r, 24, "no events in the attrs section");
	return pdr_parse_features(r);
}

static int reader_init(struct sonde_perfdata_reader *r)
{
	uint64_t magic;

	if (r->len < PIPE_HDR_SIZE)
		return pdr_fail(r, r->len, "file too short for a perf.data header (%llu bytes)",
				(unsigned long long)r->len);
	memcpy(&magic, r->base, 8);
	if (magic == PERF_MAGIC2_SWAPPED)
		r->swap = true;
	else if (magic != PERF_MAGIC2) {
		if (!memcmp(r->base, "PERFFILE", 8))
			return pdr_fail(r, 0, "legacy PERFFILE (v1) format is not supported");
		return pdr_fail(r, 0, "not a perf.data file (bad magic)");
	}
	r->pos = 0;
	return parse_file_header(r);
}

struct sonde_perfdata_reader *
pdr_reader_new(const struct sonde_perfdata_reader_opts *opts)
{
	struct sonde_perfdata_reader *r;

	if (!OPTS_VALID(opts, sonde_perfdata_reader_opts))
		return lib_err_ptr(EINVAL);
	r = calloc(1, sizeof(*r));
	if (!r)
		return lib_err_ptr(ENOMEM);
	r->unordered = OPTS_GET(opts, unordered, false);
	return r;
}

struct sonde_perfdata_reader *pdr_reader_finish(struct sonde_perfdata_reader *r,
					       const struct sonde_perfdata_reader_opts *opts)
{
	int err = reader_init(r);
	char *eb = OPTS_GET(opts, errbuf, NULL);
	size_t esz = OPTS_GET(opts, errbuf_size, 0);

	if (err && !r->err_pending) {
		if (eb && esz)
			snprintf(eb, esz, "%s", r->err_code ? r->err : "cannot read");
		sonde_perfdata_reader__free(r);
		return lib_err_ptr(err);
	}
	return r;
}

static ssize_t fd_read(void *arg, void *buf, size_t n)
{
	return sonde_sys_ops()->read((int)(intptr_t)arg, buf, n);
}

struct sonde_perfdata_reader *
sonde_perfdata_reader__open(const char *path, const struct sonde_perfdata_reader_opts *opts)
{
	struct sonde_perfdata_reader *r;
	struct stat st;
	int fd, err;

	r = pdr_reader_new(opts);
	if (!r)
		return NULL;
	fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : dup(0);
	if (fd < 0) {
		err = errno;
		free(r);
		return lib_err_ptr(err);
	}
	if (OPTS_GET(opts, check_owner, false) && strcmp(path, "-") &&
	    fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid &&
	    st.st_uid != geteuid()) {
		char *eb = OPTS_GET(opts, errbuf, NULL);
		size_t esz = OPTS_GET(opts, errbuf_size, 0);

		if (eb && esz)
			snprintf(eb, esz, "not owned by current user or root (use -f to override)");
		close(fd);
		free(r);
		return lib_err_ptr(EPERM);
	}
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		uint64_t magic = 0;
		int prot = PROT_READ;
		void *m;

		/* Opposite-endian records are swapped in place: private copy-on-write. */
		if (pread(fd, &magic, 8, 0) == 8 && magic == PERF_MAGIC2_SWAPPED)
			prot |= PROT_WRITE;
		m = mmap(NULL, (size_t)st.st_size, prot, MAP_PRIVATE, fd, 0);

		if (m == MAP_FAILED) {
			err = errno;
			close(fd);
			free(r);
			return lib_err_ptr(err);
		}
		/*
		 * What readahead brings from disk for this mapping comes in
		 * 2 MiB folios, which this and later readers map with one
		 * entry each instead of 512 (a 200 MB file: ~1 ms of page
		 * faults and unmapping instead of ~15-30). Not sequential
		 * too: reclaim would then take these pages first, and the
		 * next report reads the same file. Without THP, as before.
		 */
		if (madvise(m, (size_t)st.st_size, MADV_HUGEPAGE))
			madvise(m, (size_t)st.st_size, MADV_SEQUENTIAL);
		r->base = m;
		r->len = (uint64_t)st.st_size;
		r->mapped = true;
	} else {
		/* stdin, a pipe, a FIFO: read as the data arrives. */
		free(r);
		r = pdr_open_stream(fd_read, (void *)(intptr_t)fd, fd, 0, opts);
		err = errno;
		if (r && pdr_streaming(r)) {
			pdr_in_own_fd(r); /* closed by close */
			return r;
		}
		close(fd);
		if (!r)
			errno = err;
		return r;
	}
	close(fd);
	return pdr_reader_finish(r, opts);
}

struct sonde_perfdata_reader *
sonde_perfdata_reader__open_mem(const void *buf, size_t len,
				const struct sonde_perfdata_reader_opts *opts)
{
	struct sonde_perfdata_reader *r = pdr_reader_new(opts);
	uint8_t *copy;

	if (!r)
		return NULL;
	copy = malloc(len ? len : 1);
	if (!copy) {
		free(r);
		return lib_err_ptr(ENOMEM);
	}
	memcpy(copy, buf, len);
	r->base = copy;
	r->len = len;
	return pdr_reader_finish(r, opts);
}

void sonde_perfdata_reader__free(struct sonde_perfdata_reader *r)
{
	if (!r)
		return;
	pdr_ahead_stop(r);
	pdr_in_free(r);
	pdr_chunks_free(r);
	free(r->tracing_copy);
	pdr_tp_free(r);
	if (r->mapped)
		munmap((void *)r->base, r->len);
	else
		free((void *)r->base);
	for (int i = 0; i < r->nr_attrs; i++) {
		free(r->attrs[i].name);
		free(r->attrs[i].ids);
	}
	free(r->attrs);
	free(r->idmap);
	for (int i = 0; i < SONDE_FEAT_MAX; i++)
		free(r->feat_str[i]);
	for (size_t i = 0; i < r->nr_build_ids; i++)
		free((char *)r->build_ids[i].filename);
	free(r->build_ids);
	for (size_t i = 0; i < r->nr_groups; i++)
		free((char *)r->groups[i].name);
	free(r->groups);
	pdr_feat_free(r);
	free(r->q);
	pdr_zstd_free(r->zstd);
	free(r->q_tmp);
	free(r);
}

int sonde_perfdata_reader__next(struct sonde_perfdata_reader *r,
				struct sonde_perfdata_record *rec)
{
	if (!r || !rec)
		return lib_err(EINVAL);
	rec->reserved[0] = rec->reserved[1] = 0;
	return pdr_stream_next(r, rec);
}

const char *sonde_perfdata_reader__error(const struct sonde_perfdata_reader *r)
{
	return r && r->err_code ? r->err : NULL;
}

int sonde_perfdata_reader__nr_attrs(const struct sonde_perfdata_reader *r)
{
	return r ? r->nr_attrs : 0;
}

const struct sonde_perf_event_attr *
sonde_perfdata_reader__attr(const struct sonde_perfdata_reader *r, int idx)
{
	const struct pdr_attr *a = r ? pdr_attr_get(r, idx) : NULL;

	return a ? &a->attr : NULL;
}

static const char *const sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches",
	"cpu-migrations", "minor-faults", "major-faults", "alignment-faults",
	"emulation-faults", "dummy", "bpf-output", "cgroup-switches",
};
static const char *const hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses",
	"branches", "branch-misses", "bus-cycles", "stalled-cycles-frontend",
	"stalled-cycles-backend", "ref-cycles",
};

const char *pdr_event_name_default(const struct sonde_perf_event_attr *a,
				   char *buf, size_t sz)
{
	char mods[8];
	int m = 0;
	const char *base = NULL;
	char tmp[64];

	if (a->type == SONDE_PERF_TYPE_SOFTWARE && a->config < ARRAY_SIZE(sw_names))
		base = sw_names[a->config];
	else if (a->type == SONDE_PERF_TYPE_HARDWARE && a->config < ARRAY_SIZE(hw_names))
		base = hw_names[a->config];
	else if (a->type == SONDE_PERF_TYPE_RAW)
		snprintf(tmp, sizeof(tmp), "raw 0x%llx", (unsigned long long)a->config);
	else if (a->type == SONDE_PERF_TYPE_TRACEPOINT)
		snprintf(tmp, sizeof(tmp), "tracepoint %llu", (unsigned long long)a->config);
	else if (a->type == SONDE_PERF_TYPE_BREAKPOINT)
		snprintf(tmp, sizeof(tmp), "mem:0x%llx", (unsigned long long)a->bp_addr);
	else
		snprintf(tmp, sizeof(tmp), "unknown attr type: %u", a->type);
	if (!base)
		base = tmp;
	if (a->exclude_kernel || a->exclude_user || a->exclude_hv) {
		if (!a->exclude_user)
			mods[m++] = 'u';
		if (!a->exclude_kernel)
			mods[m++] = 'k';
		if (!a->exclude_hv)
			mods[m++] = 'h';
	}
	if (!a->exclude_host && !a->exclude_guest) {
		mods[m++] = 'H';
		mods[m++] = 'G';
	}
	mods[m] = 0;
	snprintf(buf, sz, "%s%s%s", base, m ? ":" : "", mods);
	return buf;
}

const char *sonde_perfdata_reader__event_name(const struct sonde_perfdata_reader *r,
					      int idx)
{
	struct pdr_attr *a;
	char buf[96];

	if (!r || idx < 0 || idx >= r->nr_attrs)
		return NULL;
	a = &r->attrs[idx];
	if (!a->name) {
		pdr_event_name_default(&a->attr, buf, sizeof(buf));
		a->name = strdup(buf);
	}
	return a->name ? a->name : "?";
}

bool sonde_perfdata_reader__has_feature(const struct sonde_perfdata_reader *r, int feat)
{
	if (!r || feat < 0 || feat >= SONDE_FEAT_MAX)
		return false;
	return (r->feat_bits[feat / 64] >> (feat % 64)) & 1;
}

const char *sonde_perfdata_reader__feature_string(const struct sonde_perfdata_reader *r,
						  int feat)
{
	if (!r || feat < 0 || feat >= SONDE_FEAT_MAX)
		return NULL;
	return r->feat_str[feat];
}

bool sonde_perfdata_reader__is_pipe(const struct sonde_perfdata_reader *r)
{
	return r && r->pipe;
}

bool sonde_perfdata_reader__needs_swap(const struct sonde_perfdata_reader *r)
{
	return r && r->swap;
}

uint64_t sonde_perfdata_reader__data_size(const struct sonde_perfdata_reader *r)
{
	if (r && r->in && !r->scan_done)
		return r->len - r->data_off; /* a pipe: what arrived so far */
	return r ? r->data_end - r->data_off : 0;
}

uint64_t sonde_perfdata_reader__progress(const struct sonde_perfdata_reader *r)
{
	return r && r->pos > r->data_off ? r->pos - r->data_off : 0;
}
