// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Whether libdwfl could find a .debug_frame for a module, decided from
 * section headers alone. dwfl_module_dwarf_cfi() loads the module's whole
 * DWARF to look (libdw decompresses every debug section first: ~6 ms for
 * ld.so's debug file), and the debug files of distributions carry no
 * .debug_frame: their CFI is .eh_frame, in the object itself. A PC that
 * .eh_frame does not cover (ld.so's _start) would pay for that load in
 * every run.
 *
 * libdwfl takes its DWARF from the module's file or from the separate
 * debug file its find_debuginfo callback returns (elfutils find_dw); when
 * neither has a section libdw would take for .debug_frame (.debug_frame,
 * .zdebug_frame, their .dwo and .gnu.debuglto_ forms), the answer is NULL
 * whichever it took. Anything unsure answers "possible": libdwfl decides.
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <gelf.h>
#include "unwind_priv.h"

/* 1: a section libdw could read as .debug_frame, 0: none, -1: unreadable. */
static int has_frame_section(Elf *elf)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return -1;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			return -1;
		if (sh.sh_type == SHT_NOBITS)
			continue; /* libdw skips them too */
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name)
			return -1;
		if (strstr(name, "debug_frame"))
			return 1;
	}
	return 0;
}

static bool file_may_have_frame(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *elf;
	int has;

	if (fd < 0)
		return true;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	has = elf && elf_kind(elf) == ELF_K_ELF ? has_frame_section(elf) : -1;
	elf_end(elf);
	close(fd);
	return has != 0;
}

bool uw_debug_frame_possible(Dwfl_Module *mod)
{
	const char *debugfile = NULL;
	Dwarf_Addr bias;
	Elf *elf = dwfl_module_getelf(mod, &bias);

	if (!elf || has_frame_section(elf) != 0)
		return true;
	/*
	 * libdwfl's own search for the separate debug file, which its symbol
	 * table lookup runs without loading DWARF (when the file itself has
	 * no .symtab); the DWARF load later reuses what it found.
	 */
	dwfl_module_getsymtab(mod);
	dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, &debugfile);
	return !debugfile || file_may_have_frame(debugfile);
}
