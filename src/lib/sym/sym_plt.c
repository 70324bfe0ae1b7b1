// SPDX-License-Identifier: LGPL-2.1-only
/*
 * PLT stubs have no symbols of their own: like perf, name each one after
 * the function its GOT slot is relocated to. The i-th stub of .plt (after
 * the header that calls the lazy resolver) and of .plt.sec (the stubs IBT
 * binaries call; .plt then only holds the lazy-binding entries) uses the
 * i-th GOT slot, so the .rela.plt/.rel.plt entries are ordered by slot
 * address first: linkers put IRELATIVE ones last in the section.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sym_priv.h"

struct plt_rel {
	uint64_t slot;
	uint64_t sym;
	uint64_t addend;
};

static int rel_cmp(const void *a, const void *b)
{
	const struct plt_rel *x = a, *y = b;

	return x->slot < y->slot ? -1 : x->slot > y->slot;
}

static Elf_Scn *section_named(Elf *elf, size_t shstrndx, const char *name,
			      GElf_Shdr *sh, size_t *index)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		const char *n;

		if (!gelf_getshdr(scn, sh))
			continue;
		n = elf_strptr(elf, shstrndx, sh->sh_name);
		if (n && !strcmp(n, name)) {
			if (index)
				*index = elf_ndxscn(scn);
			return scn;
		}
	}
	return NULL;
}

/* Header and entry size of .plt per machine (x86: both sh_entsize). */
static void plt_sizes(const GElf_Ehdr *eh, const GElf_Shdr *plt,
		      uint64_t *header, uint64_t *entry)
{
	switch (eh->e_machine) {
	case EM_ARM:
		*header = 20;
		*entry = 12;
		break;
	case EM_AARCH64:
		*header = 32;
		*entry = 16;
		break;
	case EM_X86_64:
	case EM_386:
		*header = *entry = plt->sh_entsize ? plt->sh_entsize : 16;
		break;
	default:
		*header = *entry = plt->sh_entsize;
	}
}

/* The relocations of .rela.plt (or .rel.plt), sorted by GOT slot. */
static int read_rels(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh,
		     struct plt_rel **out, size_t *nr)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	bool rela = sh->sh_type == SHT_RELA;
	struct plt_rel *v;
	size_t n, i;

	*nr = 0;
	if (!data || !sh->sh_entsize || (sh->sh_type != SHT_RELA &&
					 sh->sh_type != SHT_REL))
		return 0;
	n = data->d_size / gelf_fsize(elf, rela ? ELF_T_RELA : ELF_T_REL, 1,
				      EV_CURRENT);
	v = calloc(n ? n : 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		GElf_Rela ra;
		GElf_Rel r;

		if (rela) {
			if (!gelf_getrela(data, (int)i, &ra))
				break;
		} else {
			if (!gelf_getrel(data, (int)i, &r))
				break;
			ra.r_offset = r.r_offset;
			ra.r_info = r.r_info;
			ra.r_addend = 0;
		}
		v[i].slot = ra.r_offset;
		v[i].sym = GELF_R_SYM(ra.r_info); /* gelf widens ELF32 infos */
		v[i].addend = (uint64_t)ra.r_addend;
	}
	qsort(v, i, sizeof(*v), rel_cmp);
	*out = v;
	*nr = i;
	return 0;
}

static const char *dynsym_name(Elf *elf, Elf_Data *syms, size_t strndx,
			       uint64_t idx)
{
	const char *name;
	GElf_Sym s;

	if (!idx || idx > INT32_MAX || !gelf_getsym(syms, (int)idx, &s))
		return "";
	name = elf_strptr(elf, strndx, s.st_name);
	return name ? name : "";
}

/* Appends the stubs of one section: @p first at its start, then @p step. */
static size_t add_stubs(struct sym_plt_entry *v, size_t k,
			const GElf_Shdr *sec, uint64_t first, uint64_t step,
			const struct plt_rel *rels, size_t nrels, Elf *elf,
			Elf_Data *syms, size_t strndx)
{
	uint64_t end = sec->sh_addr + sec->sh_size;

	for (size_t i = 0; i < nrels && step; i++) {
		uint64_t at = sec->sh_addr + first + i * step;

		if (at < sec->sh_addr || at + step > end || at + step < at)
			break;
		v[k].start = at;
		v[k].size = step;
		v[k].name = dynsym_name(elf, syms, strndx, rels[i].sym);
		v[k].addend = rels[i].addend;
		v[k].slot = rels[i].slot;
		k++;
	}
	return k;
}

int sym_plt_entries(Elf *elf, struct sym_plt_entry **out)
{
	GElf_Shdr rel_sh, dyn_sh, plt_sh, sec_sh;
	Elf_Scn *rel, *dyn, *plt, *sec;
	struct sym_plt_entry *v;
	struct plt_rel *rels = NULL;
	uint64_t header, entry;
	size_t shstrndx, dyn_idx, nrels, k;
	Elf_Data *syms;
	GElf_Ehdr eh;
	int err;

	*out = NULL;
	if (!gelf_getehdr(elf, &eh) || elf_getshdrstrndx(elf, &shstrndx))
		return 0;
	dyn = section_named(elf, shstrndx, ".dynsym", &dyn_sh, &dyn_idx);
	rel = section_named(elf, shstrndx, ".rela.plt", &rel_sh, NULL);
	if (!rel)
		rel = section_named(elf, shstrndx, ".rel.plt", &rel_sh, NULL);
	plt = section_named(elf, shstrndx, ".plt", &plt_sh, NULL);
	if (!dyn || !rel || !plt || rel_sh.sh_link != dyn_idx ||
	    plt_sh.sh_type != SHT_PROGBITS || dyn_sh.sh_type != SHT_DYNSYM)
		return 0;
	syms = elf_getdata(dyn, NULL);
	if (!syms)
		return 0;
	err = read_rels(elf, rel, &rel_sh, &rels, &nrels);
	if (err || !nrels) {
		free(rels);
		return err;
	}
	sec = NULL;
	if (eh.e_machine == EM_X86_64 || eh.e_machine == EM_386) {
		sec = section_named(elf, shstrndx, ".plt.sec", &sec_sh, NULL);
		if (sec && sec_sh.sh_type != SHT_PROGBITS)
			sec = NULL;
	}
	v = calloc(2 * nrels, sizeof(*v));
	if (!v) {
		free(rels);
		return -ENOMEM;
	}
	plt_sizes(&eh, &plt_sh, &header, &entry);
	/* A .plt of exactly one entry per slot has no header (-z now). */
	if (entry && plt_sh.sh_size == nrels * entry)
		header = 0;
	k = add_stubs(v, 0, &plt_sh, header, entry, rels, nrels, elf, syms,
		      dyn_sh.sh_link);
	if (sec)
		k = add_stubs(v, k, &sec_sh, 0,
			      sec_sh.sh_entsize ? sec_sh.sh_entsize : 16,
			      rels, nrels, elf, syms, dyn_sh.sh_link);
	free(rels);
	if (!k) {
		free(v);
		return 0;
	}
	*out = v;
	return (int)k;
}

int sym_plt_name(const struct sym_plt_entry *e, const char *name, char *buf,
		 size_t size)
{
	if (!name)
		name = e->name;
	if (!*name)
		return snprintf(buf, size, "*ABS*+0x%llx@plt",
				(unsigned long long)e->addend);
	return snprintf(buf, size, "%s@plt", name);
}
