// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The DWARF answer cache file format (sym_priv.h): encoder, validator and
 * lookups straight on the (mapped) file.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core_priv.h"
#include "sym_priv.h"

/*
 * Layout, host byte order (the file never leaves this machine):
 *   u8  magic[8]   "SONDEDW2" (the digit: bump it when what the DWARF
 *                  lookups return changes, so old answers are not reused)
 *   u64 nr         answers
 *   u64 names_len  bytes of names
 *   nr x { u64 vaddr; u32 name_off; u8 kind; u8 nr_names; u16 zero; }
 *   names          each answer's names back to back, NUL-terminated
 */
#define DWC_MAGIC "SONDEDW2"
#define DWC_HDR KCACHE_TAB_HDR
#define DWC_ENT 16u

static int key_cmp(uint64_t va, int ka, uint64_t vb, int kb)
{
	if (va != vb)
		return va < vb ? -1 : 1;
	return ka < kb ? -1 : ka > kb;
}

int dwc_encode(const struct dwc_ans *ans, size_t nr, void **bufp, size_t *lenp)
{
	size_t names = 0, len, off = 0;
	uint8_t *buf, *e;

	for (size_t i = 0; i < nr; i++) {
		if (ans[i].kind > DWC_SRCLINE || ans[i].nr > DWC_MAX_NAMES ||
		    (i && key_cmp(ans[i - 1].vaddr, ans[i - 1].kind,
				  ans[i].vaddr, ans[i].kind) >= 0))
			return -EINVAL;
		for (int j = 0; j < ans[i].nr; j++)
			names += strlen(ans[i].names[j]) + 1;
	}
	if (names > UINT32_MAX)
		return -EFBIG;
	len = DWC_HDR + nr * DWC_ENT + names;
	buf = calloc(1, len);
	if (!buf)
		return -ENOMEM;
	kcache_tab_header(buf, DWC_MAGIC, nr, names);
	e = buf + DWC_HDR;
	for (size_t i = 0; i < nr; i++, e += DWC_ENT) {
		uint32_t o = (uint32_t)off;

		memcpy(e, &ans[i].vaddr, 8);
		memcpy(e + 8, &o, 4);
		e[12] = ans[i].kind;
		e[13] = ans[i].nr;
		for (int j = 0; j < ans[i].nr; j++) {
			size_t n = strlen(ans[i].names[j]) + 1;

			memcpy(buf + DWC_HDR + nr * DWC_ENT + off, ans[i].names[j], n);
			off += n;
		}
	}
	*bufp = buf;
	*lenp = len;
	return 0;
}

int dwc_check(const void *data, size_t len, size_t *nrp)
{
	const uint8_t *buf = data, *e, *names;
	uint64_t nr, names_len, prev_va = 0;
	int prev_kind = 0;

	if (kcache_tab_header_check(buf, len, DWC_MAGIC, DWC_ENT, &nr, &names_len))
		return -errno;
	if (names_len > UINT32_MAX) /* name offsets are u32 */
		return lib_err(SONDE_ERR_FORMAT);
	names = buf + DWC_HDR + nr * DWC_ENT;
	e = buf + DWC_HDR;
	for (size_t i = 0; i < nr; i++, e += DWC_ENT) {
		uint64_t va;
		uint32_t off;
		int kind = e[12], n = e[13];

		memcpy(&va, e, 8);
		memcpy(&off, e + 8, 4);
		if (kind > DWC_SRCLINE || n > DWC_MAX_NAMES ||
		    (kind == DWC_SRCLINE && n > 1) || e[14] || e[15] ||
		    (i && key_cmp(prev_va, prev_kind, va, kind) >= 0) ||
		    (n && off >= names_len))
			return lib_err(SONDE_ERR_FORMAT);
		/* Each name ends before the end of the buffer. */
		for (int j = 0; j < n; j++) {
			const uint8_t *z;

			if (off >= names_len)
				return lib_err(SONDE_ERR_FORMAT);
			z = memchr(names + off, 0, (size_t)(names_len - off));
			if (!z)
				return lib_err(SONDE_ERR_FORMAT);
			off = (uint32_t)(z - names) + 1;
		}
		prev_va = va;
		prev_kind = kind;
	}
	*nrp = (size_t)nr;
	return 0;
}

static void ent_key(const uint8_t *buf, size_t i, uint64_t *va, int *kind)
{
	const uint8_t *e = buf + DWC_HDR + i * DWC_ENT;

	memcpy(va, e, 8);
	*kind = e[12];
}

void dwc_get(const void *data, size_t i, struct dwc_ans *out)
{
	const uint8_t *buf = data, *e = buf + DWC_HDR + i * DWC_ENT;
	const char *p;
	uint64_t nr;
	uint32_t off;

	memcpy(&nr, buf + 8, 8);
	memcpy(&out->vaddr, e, 8);
	memcpy(&off, e + 8, 4);
	out->kind = e[12];
	out->nr = e[13];
	p = (const char *)buf + DWC_HDR + nr * DWC_ENT + off;
	for (int j = 0; j < out->nr; j++) {
		out->names[j] = p;
		p += strlen(p) + 1;
	}
}

long dwc_find(const void *data, size_t nr, uint64_t vaddr, int kind)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t va;
		int k, c;

		ent_key(data, mid, &va, &k);
		c = key_cmp(va, k, vaddr, kind);
		if (!c)
			return (long)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}
