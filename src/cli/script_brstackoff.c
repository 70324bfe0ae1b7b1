// SPDX-License-Identifier: LGPL-2.1-only
/*
 * perf 6.1's brstackoff prints an address as map_ip (its offset into the
 * mapped file) unless the object "adjusts symbols", which every user ELF
 * object (and the vDSO) does once perf has loaded its symbols. brstackoff
 * itself loads none: only the objects a sample's ip (or printed
 * callchain) was symbolized in so far count, so an object reached only
 * by branches prints offsets until a sample lands in it, and one whose
 * file is gone always does. Kernel and JIT addresses print as they are
 * (their maps are identity maps).
 */
#include <stdlib.h>
#include <string.h>
#include "branch_text.h"
#include "script_brstackoff.h"
#include "sonde/symbols.h"

/* Objects by their name pointer (the profile interns them). */
struct obj {
	const char *name;
	bool loaded;
	int absolute; /* -1 unknown, 0, 1 */
};

struct brstackoff {
	struct obj *v;
	size_t nr, cap;
};

struct brstackoff *brstackoff_new(void)
{
	return calloc(1, sizeof(struct brstackoff));
}

void brstackoff_free(struct brstackoff *bo)
{
	if (bo)
		free(bo->v);
	free(bo);
}

static struct obj *obj_of(struct brstackoff *bo, const char *name)
{
	for (size_t i = 0; i < bo->nr; i++)
		if (bo->v[i].name == name)
			return &bo->v[i];
	if (bo->nr == bo->cap) {
		size_t n = bo->cap ? bo->cap * 2 : 16;
		struct obj *v = realloc(bo->v, n * sizeof(*v));

		if (!v)
			return NULL;
		bo->v = v;
		bo->cap = n;
	}
	bo->v[bo->nr] = (struct obj){ name, false, -1 };
	return &bo->v[bo->nr++];
}

/*
 * Would perf's load succeed: is @path an ELF file we can read? The
 * library's answer, from the opening its symbolizer loads with (libelf
 * takes the header whole, as perf's does, not only the magic); the build
 * id itself is not wanted.
 */
static bool elf_loadable(const char *path)
{
	uint8_t id[20];

	return sonde_elf_build_id(path, id, sizeof(id)) >= 0;
}

void brstackoff_loaded(struct brstackoff *bo, const struct sonde_profile_frame *fr)
{
	const char *name = fr ? sonde_profile_frame__dso(fr) : NULL;
	struct obj *ob = name ? obj_of(bo, name) : NULL;

	if (ob)
		ob->loaded = true;
}

static uint64_t offset_of(struct brstackoff *bo, const struct sonde_profile_frame *fr)
{
	const char *name = sonde_profile_frame__dso(fr);
	struct obj *ob;

	if (!name || (sonde_profile_frame__kind(fr) &
		      (SONDE_PROFILE_FRAME_KERNEL | SONDE_PROFILE_FRAME_JIT)))
		return sonde_profile_frame__ip(fr);
	ob = obj_of(bo, name);
	if (ob && ob->loaded) {
		if (ob->absolute < 0)
			ob->absolute = !strcmp(name, "[vdso]") || elf_loadable(name);
		if (ob->absolute)
			return sonde_profile_frame__ip(fr);
	}
	return sonde_profile_frame__addr(fr);
}

static void put_dso(struct outbuf *o, const struct sonde_profile_frame *fr)
{
	const char *dso = sonde_profile_frame__dso(fr);

	ob_putc(o, '(');
	ob_puts(o, dso ? dso : "[unknown]");
	ob_putc(o, ')');
}

void brstackoff_put(struct brstackoff *bo, struct outbuf *o, const struct sonde_profile_branch *b,
		    size_t n, bool dso)
{
	for (size_t i = 0; i < n; i++) {
		ob_puts(o, " 0x");
		ob_hex(o, offset_of(bo, b[i].from), 0);
		if (dso)
			put_dso(o, b[i].from);
		ob_puts(o, "/0x");
		ob_hex(o, offset_of(bo, b[i].to), 0);
		if (dso)
			put_dso(o, b[i].to);
		branch_put_flags(o, &b[i].entry);
	}
}
