// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The report model's side of the kallsyms cache (kcache.h): the kernel
 * DSO's finished table (anl_dso.c's read of /proc/kallsyms) stored as, and
 * loaded from, the pre-parsed "ksymtab" format.
 */
#include <stdlib.h>
#include "internal.h"
#include "anl_priv.h"
#include "kcache.h"

/*
 * The table from the per-user cache (kcache.h), mapped: the names stay in
 * the mapping and only the pages of names printed are ever read. False on
 * any miss.
 */
bool anl_kallsyms_from_cache(struct anl_dso *d, const char *path)
{
	const void *map;
	size_t len, nr = 0;

	if (kcache_map(path, 1u << 28, &map, &len))
		return false;
	if (kcache_tab_check(map, len, &nr) || !nr) {
		pr_debug("%s: not a valid kernel symbol cache, rebuilding it\n",
			 path);
		kcache_unmap(map, len);
		return false;
	}
	d->syms = calloc(nr, sizeof(*d->syms));
	if (!d->syms) {
		kcache_unmap(map, len);
		return false;
	}
	for (size_t i = 0; i < nr; i++) {
		struct kcache_sym ks;

		kcache_tab_get(map, i, &ks);
		d->syms[i].start = ks.start;
		d->syms[i].end = ks.end;
		d->syms[i].name = ks.name;
	}
	d->nr_syms = nr;
	d->has_syms = true;
	d->names_map = map; /* the names point into it */
	d->names_map_len = len;
	return true;
}

void anl_kallsyms_to_cache(const struct anl_machine *m,
			      const struct anl_dso *d, const char *path)
{
	struct kcache_sym *ks = malloc(d->nr_syms * sizeof(*ks));
	size_t len;
	void *buf;

	if (!ks)
		return;
	for (size_t i = 0; i < d->nr_syms; i++) {
		ks[i].start = d->syms[i].start;
		ks[i].end = d->syms[i].end;
		ks[i].name = d->syms[i].name;
	}
	if (!kcache_tab_encode(ks, d->nr_syms, &buf, &len)) {
		if (kcache_write(m->kcache_dir, path, buf, len))
			pr_debug("cannot write the kernel symbol cache %s\n",
				 path);
		free(buf);
	}
	free(ks);
}
