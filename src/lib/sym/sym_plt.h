/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * PLT entries as symbols ("name@plt"), decoded from the relocations that
 * fill their GOT slots, for the symbolizer's ELF tables (sym_elf.c).
 */
#ifndef SONDE_SYM_PLT_H
#define SONDE_SYM_PLT_H

#include <stddef.h>
#include <stdint.h>
#include <gelf.h>

struct sym_plt_entry {
	uint64_t start;		/* ELF vaddr */
	uint64_t size;
	const char *name;	/* .dynsym name (raw, may be mangled) or "" */
	uint64_t addend;	/* for unnamed (IRELATIVE) slots */
	uint64_t slot;		/* the GOT slot the stub jumps through */
};

/*
 * The PLT stubs of @p elf (the runtime file, not a debug file: those have
 * .plt as NOBITS): .plt entries after its header and, on x86, the .plt.sec
 * stubs that IBT binaries call instead. Entry i belongs to the relocation
 * with the i-th lowest GOT slot. Names point into @p elf's string table.
 * @return the number of entries, *@p out malloc'd (NULL when 0), or -errno.
 */
int sym_plt_entries(Elf *elf, struct sym_plt_entry **out);

/*
 * Writes the display name of @p e ("name@plt", or "*ABS*+0x<addend>@plt"
 * for a slot with no symbol) into @p buf, with @p name replacing e->name
 * when not NULL (a demangled form). Returns snprintf's result.
 */
int sym_plt_name(const struct sym_plt_entry *e, const char *name, char *buf,
		 size_t size);

#endif /* SONDE_SYM_PLT_H */
