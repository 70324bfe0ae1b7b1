// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Where a uprobe goes: the file offset of a symbol of an ELF file, which
 * is what the uprobe PMU's probe_offset (and uprobe_events) take, found
 * through the DSO's symbol table and PT_LOAD headers.
 */
#include <string.h>
#include "sonde/symbols.h"
#include "core_priv.h"
#include "sym_priv.h"

int sonde_dso__vaddr_to_offset(struct sonde_dso *dso, uint64_t vaddr,
			       uint64_t *offset)
{
	int err;

	if (!dso || !offset)
		return lib_err(EINVAL);
	if (dso->kind != SONDE_DSO_ELF)
		return lib_err(EOPNOTSUPP);
	err = sonde_dso__load(dso);
	if (err < 0)
		return err;
	for (size_t i = 0; i < dso->nloads; i++) {
		const GElf_Phdr *ph = &dso->loads[i];

		if (vaddr >= ph->p_vaddr && vaddr - ph->p_vaddr < ph->p_filesz) {
			*offset = vaddr - ph->p_vaddr + ph->p_offset;
			return 0;
		}
	}
	return lib_err(ENOENT);
}

int sonde_dso__symbol_offset(struct sonde_dso *dso, const char *symbol,
			     uint64_t *offset)
{
	const struct sonde_symbol *syms, *hit = NULL;
	size_t n;

	if (!dso || !symbol || !offset)
		return lib_err(EINVAL);
	n = sonde_dso__symbols(dso, &syms);
	if (!n)
		return lib_err(sonde_dso__status(dso) == SONDE_DSO_MISSING ?
				 ENOENT : ENODATA);
	/* The raw name first, then the shown one; a global beats a local. */
	for (size_t i = 0; i < n; i++) {
		const struct sonde_symbol *s = &syms[i];

		if (strcmp(s->name, symbol) &&
		    strcmp(sonde_dso__sym_name(dso, s), symbol))
			continue;
		if (!hit || (hit->binding == SONDE_SYM_LOCAL &&
			     s->binding != SONDE_SYM_LOCAL))
			hit = s;
	}
	if (!hit)
		return lib_err(ENOENT);
	return sonde_dso__vaddr_to_offset(dso, hit->start, offset);
}

int sonde_symcache__probe_offset(const char *path, const char *symbol,
				 uint64_t *offset, void *cache)
{
	struct sonde_symcache *c = cache, *own = NULL;
	struct sonde_dso *dso;
	int err;

	if (!path || !symbol || !offset)
		return lib_err(EINVAL);
	if (!c) {
		own = c = sonde_symcache__new(NULL);
		if (!c)
			return lib_err(errno);
	}
	dso = sonde_symcache__dso(c, path, NULL, 0);
	err = dso ? sonde_dso__symbol_offset(dso, symbol, offset) :
		    lib_err(errno);
	sonde_dso__put(dso);
	sonde_symcache__free(own);
	return err;
}
