// SPDX-License-Identifier: LGPL-2.1-only
/*
 * ELF symbol tables through libelf: .symtab (from the file or a separate
 * debug file found by build id or .gnu_debuglink), else .dynsym; the
 * build-id note; PT_LOAD headers for map address -> vaddr translation.
 */
#include <fcntl.h>
#include <libelf.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core_priv.h"
#include "sym_priv.h"

#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID 3
#endif

static void elf_lib_init(void)
{
	static atomic_bool done;

	if (!atomic_load_explicit(&done, memory_order_acquire)) {
		elf_version(EV_CURRENT);
		atomic_store_explicit(&done, true, memory_order_release);
	}
}

/* Scans one block of notes for NT_GNU_BUILD_ID. */
static int note_build_id(Elf_Data *data, uint8_t *buf, size_t size)
{
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nh;

	while (off < data->d_size &&
	       (off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
		    memcmp((char *)data->d_buf + name_off, "GNU", 4))
			continue;
		if (nh.n_descsz == 0)
			continue;
		size_t n = nh.n_descsz < size ? nh.n_descsz : size;
		memcpy(buf, (char *)data->d_buf + desc_off, n);
		return (int)n;
	}
	return 0;
}

/* Section notes first (present in debug files), then PT_NOTE segments. */
int sym_elf_build_id(Elf *elf, uint8_t *buf, size_t size)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t i, nph;
	int n;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		d = elf_getdata(scn, NULL);
		if (d && (n = note_build_id(d, buf, size)) > 0)
			return n;
	}
	if (elf_getphdrnum(elf, &nph))
		return 0;
	for (i = 0; i < nph; i++) {
		GElf_Phdr ph;
		Elf_Data *d;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_NOTE)
			continue;
		d = elf_getdata_rawchunk(elf, (int64_t)ph.p_offset,
					 ph.p_filesz, ELF_T_NHDR);
		if (d && (n = note_build_id(d, buf, size)) > 0)
			return n;
	}
	return 0;
}

Elf *sym_elf_open(const char *path, int *fdp)
{
	Elf *elf;
	int fd;

	elf_lib_init();
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || gelf_getclass(elf) ==
	    ELFCLASSNONE) {
		if (elf)
			elf_end(elf);
		close(fd);
		errno = SONDE_ERR_FORMAT;
		return NULL;
	}
	*fdp = fd;
	return elf;
}

void sym_elf_close(Elf *elf, int fd)
{
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
}

int sonde_elf_build_id(const char *path, uint8_t *buf, size_t size)
{
	Elf *elf;
	int fd, n;

	elf = sym_elf_open(path, &fd);
	if (!elf)
		return lib_err(errno);
	n = sym_elf_build_id(elf, buf, size);
	sym_elf_close(elf, fd);
	return n;
}

int sym_mem_build_id(char *image, size_t len, uint8_t *buf, size_t size)
{
	Elf *elf;
	int n;

	elf_lib_init();
	elf = elf_memory(image, len);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		if (elf)
			elf_end(elf);
		return lib_err(SONDE_ERR_FORMAT);
	}
	n = sym_elf_build_id(elf, buf, size);
	elf_end(elf);
	return n;
}

static Elf_Scn *find_section(Elf *elf, Elf64_Word type, const char *name)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *n;

		if (!gelf_getshdr(scn, &sh))
			continue;
		if (type != SHT_NULL && sh.sh_type != type)
			continue;
		if (!name)
			return scn;
		n = elf_strptr(elf, shstrndx, sh.sh_name);
		if (n && !strcmp(n, name))
			return scn;
	}
	return NULL;
}

static void hex_build_id(const uint8_t *bid, size_t n, char *out)
{
	static const char hx[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		out[2 * i] = hx[bid[i] >> 4];
		out[2 * i + 1] = hx[bid[i] & 15];
	}
	out[2 * n] = 0;
}

/*
 * Opens @p path as a candidate debug file for a file whose build id is
 * @p bid (if known) and which must carry .symtab.
 */
static Elf *try_debug_file(const char *path, const uint8_t *bid,
			   size_t bid_size, int *fdp)
{
	uint8_t dbid[SYM_BUILD_ID_MAX];
	Elf *elf;
	int n;

	elf = sym_elf_open(path, fdp);
	if (!elf)
		return NULL;
	if (bid_size) {
		n = sym_elf_build_id(elf, dbid, sizeof(dbid));
		if (n > 0 && ((size_t)n != bid_size || memcmp(dbid, bid, bid_size))) {
			pr_debug("%s: build id differs, ignored\n", path);
			goto out;
		}
	}
	if (find_section(elf, SHT_SYMTAB, NULL))
		return elf;
out:
	sym_elf_close(elf, *fdp);
	*fdp = -1;
	return NULL;
}

/* DEBUGDIR/.build-id/xx/yyyy.debug of the id @p bid. */
static Elf *find_by_build_id(const char *root_dir, const char *debug_dir,
			     const uint8_t *bid, size_t bid_size, int *fdp,
			     char **found)
{
	char hex[2 * SYM_BUILD_ID_MAX + 1], path[PATH_MAX];
	Elf *elf;

	if (bid_size < 2)
		return NULL;
	hex_build_id(bid, bid_size, hex);
	snprintf(path, sizeof(path), "%s%s/.build-id/%.2s/%s.debug",
		 root_dir, debug_dir, hex, hex + 2);
	elf = try_debug_file(path, bid, bid_size, fdp);
	if (elf)
		*found = strdup(path);
	return elf;
}

Elf *sym_find_in_buildid_cache(const char *buildid_dir, const uint8_t *want,
			       size_t want_size, int *fdp, char **found)
{
	char hex[2 * SYM_BUILD_ID_MAX + 1], path[PATH_MAX];
	uint8_t bid[SYM_BUILD_ID_MAX];
	Elf *elf;
	int i, n;

	if (!buildid_dir || !buildid_dir[0] || want_size < 2)
		return NULL;
	hex_build_id(want, want_size, hex);
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s%s",
			 buildid_dir, hex, hex + 2, i ? "" : "/elf");
		elf = sym_elf_open(path, fdp);
		if (!elf)
			continue;
		n = sym_elf_build_id(elf, bid, sizeof(bid));
		if (n > 0 && sym_same_build_id(want, want_size, bid, (size_t)n) &&
		    (find_section(elf, SHT_SYMTAB, NULL) ||
		     find_section(elf, SHT_DYNSYM, NULL))) {
			*found = strdup(path);
			return elf;
		}
		sym_elf_close(elf, *fdp);
		*fdp = -1;
	}
	return NULL;
}

/* .gnu_debuglink of @p elf (@p file): DIR/name, DIR/.debug/name, DEBUGDIR/DIR/name. */
static Elf *find_by_debuglink(Elf *self, const char *file,
			      const char *root_dir, const char *debug_dir,
			      const uint8_t *bid, size_t bid_size, int *fdp,
			      char **found)
{
	char dir[PATH_MAX], path[PATH_MAX], name[256];
	size_t root_len = strlen(root_dir);
	Elf_Scn *scn;
	Elf_Data *d;
	char *slash;
	Elf *elf;
	int i;

	if (!self)
		return NULL;
	scn = find_section(self, SHT_PROGBITS, ".gnu_debuglink");
	if (!scn || !(d = elf_getdata(scn, NULL)) || !d->d_size)
		return NULL;
	if (!memchr(d->d_buf, 0, d->d_size) ||
	    strlen(d->d_buf) >= sizeof(name) || !*(char *)d->d_buf)
		return NULL;
	strcpy(name, d->d_buf);
	if (strchr(name, '/'))
		return NULL;
	snprintf(dir, sizeof(dir), "%s", file);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	else
		strcpy(dir, ".");
	if (strncmp(dir, root_dir, root_len))
		root_len = 0; /* not under the root: DEBUGDIR/DIR as is */
	for (i = 0; i < 3; i++) {
		if (i == 0)
			snprintf(path, sizeof(path), "%s/%s", dir, name);
		else if (i == 1)
			snprintf(path, sizeof(path), "%s/.debug/%s", dir, name);
		else
			snprintf(path, sizeof(path), "%s%s%s/%s", root_dir,
				 debug_dir, dir + root_len, name);
		if (!strcmp(path, file))
			continue;
		elf = try_debug_file(path, bid, bid_size, fdp);
		if (elf) {
			*found = strdup(path);
			return elf;
		}
	}
	return NULL;
}

Elf *sym_find_debug_file(Elf *elf, const char *file, const char *root_dir,
			 const char *debug_dir, const uint8_t *bid,
			 size_t bid_size, int *fdp, char **found)
{
	Elf *dbg = find_by_build_id(root_dir, debug_dir, bid, bid_size, fdp,
				    found);

	if (!dbg)
		dbg = find_by_debuglink(elf, file, root_dir, debug_dir, bid,
					bid_size, fdp, found);
	return dbg;
}

/*
 * "name@plt" for the PLT stubs of @p elf (the runtime file), written into
 * one buffer (*@p names, malloc'd); raw names, demangled on display.
 */
static size_t add_plt_symbols(Elf *elf, struct sonde_symbol **symsp, size_t nr,
			      size_t *cap, char **names)
{
	struct sym_plt_entry *e = NULL;
	struct sonde_symbol *syms;
	size_t len = 0, off = 0;
	int n, i;

	n = elf ? sym_plt_entries(elf, &e) : 0;
	if (n <= 0)
		return nr;
	for (i = 0; i < n; i++)
		len += (size_t)sym_plt_name(&e[i], NULL, NULL, 0) + 1;
	syms = *symsp;
	if (nr + (size_t)n > *cap) {
		syms = realloc(syms, (nr + (size_t)n) * sizeof(*syms));
		if (!syms)
			goto out;
		*symsp = syms;
		*cap = nr + (size_t)n;
	}
	*names = malloc(len);
	if (!*names)
		goto out;
	for (i = 0; i < n; i++) {
		char *name = *names + off;

		off += (size_t)sym_plt_name(&e[i], NULL, name, len - off) + 1;
		memset(&syms[nr], 0, sizeof(syms[nr]));
		syms[nr].start = e[i].start;
		syms[nr].size = e[i].size;
		syms[nr].name = name;
		syms[nr].binding = SONDE_SYM_GLOBAL;
		nr++;
	}
out:
	free(e);
	return nr;
}

/*
 * The function symbols of @p scn, as perf 6.1 takes them: FUNC and IFUNC,
 * and untyped labels in code sections (asm entry points); not undefined,
 * absolute or other special-section ones, nor at address 0.
 */
static int collect_symbols(Elf *elf, Elf_Scn *scn, Elf *plt_elf,
			   struct sonde_symbol **out, size_t *nr_out,
			   char **plt_names)
{
	struct sonde_symbol *syms;
	Elf_Data *data;
	GElf_Shdr sh;
	size_t i, n, nr = 0, nsec;
	bool *exec;

	if (!gelf_getshdr(scn, &sh) || !sh.sh_entsize)
		return lib_err(SONDE_ERR_FORMAT);
	data = elf_getdata(scn, NULL);
	if (!data)
		return lib_err(SONDE_ERR_FORMAT);
	n = data->d_size / gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
	syms = calloc(n ? n : 1, sizeof(*syms));
	if (!syms)
		return lib_err(ENOMEM);
	/* Which sections hold code: untyped labels there count (perf too). */
	if (elf_getshdrnum(elf, &nsec) || nsec > (1u << 20))
		nsec = 0;
	exec = calloc(nsec ? nsec : 1, 1);
	if (!exec) {
		free(syms);
		return lib_err(ENOMEM);
	}
	for (i = 1; i < nsec; i++) {
		Elf_Scn *sc = elf_getscn(elf, i);
		GElf_Shdr ssh;

		exec[i] = sc && gelf_getshdr(sc, &ssh) &&
			  (ssh.sh_flags & SHF_EXECINSTR);
	}
	for (i = 0; i < n; i++) {
		GElf_Sym s;
		const char *name;
		int type;

		if (!gelf_getsym(data, (int)i, &s))
			break;
		type = GELF_ST_TYPE(s.st_info);
		if (s.st_shndx == SHN_UNDEF || s.st_shndx >= SHN_LORESERVE ||
		    !s.st_value)
			continue;
		if (type != STT_FUNC && type != STT_GNU_IFUNC &&
		    !(type == STT_NOTYPE && s.st_shndx < nsec &&
		      exec[s.st_shndx]))
			continue;
		name = elf_strptr(elf, sh.sh_link, s.st_name);
		if (!name || !*name)
			continue;
		syms[nr].start = s.st_value;
		syms[nr].size = s.st_size;
		syms[nr].name = name;
		switch (GELF_ST_BIND(s.st_info)) {
		case STB_GLOBAL:
			syms[nr].binding = SONDE_SYM_GLOBAL;
			break;
		case STB_WEAK:
			syms[nr].binding = SONDE_SYM_WEAK;
			break;
		default:
			syms[nr].binding = SONDE_SYM_LOCAL;
		}
		nr++;
	}
	free(exec);
	/* Before sizes are synthesized: _init must not swallow the .plt. */
	*plt_names = NULL;
	nr = add_plt_symbols(plt_elf, &syms, nr, &n, plt_names);
	*out = syms;
	*nr_out = sym_table_finish(syms, nr, SYM_DUP_BEST);
	return 0;
}

int sym_elf_table(Elf *elf, Elf *plt_elf, struct sonde_symbol **syms,
		  size_t *nr, char **plt_names)
{
	Elf_Scn *scn = find_section(elf, SHT_SYMTAB, NULL);

	*syms = NULL;
	*nr = 0;
	*plt_names = NULL;
	if (!scn)
		scn = find_section(elf, SHT_DYNSYM, NULL);
	return scn ? collect_symbols(elf, scn, plt_elf, syms, nr, plt_names) : 0;
}

static void read_loads(struct sonde_dso *dso, Elf *elf)
{
	size_t i, nph;

	dso->nloads = 0;
	if (elf_getphdrnum(elf, &nph))
		return;
	for (i = 0; i < nph && dso->nloads < SYM_MAX_LOADS; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD)
			dso->loads[dso->nloads++] = ph;
	}
}

/* perf's copy of a recorded vdso: DIR/.build-id/xx/yyyy/vdso. */
static Elf *find_recorded_vdso(const char *buildid_dir, const uint8_t *want,
			       size_t wlen, int *fdp, char **found)
{
	char hex[2 * SYM_BUILD_ID_MAX + 1], path[PATH_MAX];
	uint8_t have[SYM_BUILD_ID_MAX];
	Elf *elf;
	int n;

	if (!buildid_dir[0] || wlen < 2)
		return NULL;
	hex_build_id(want, wlen, hex);
	snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s/vdso", buildid_dir,
		 hex, hex + 2);
	elf = sym_elf_open(path, fdp);
	if (!elf)
		return NULL;
	n = sym_elf_build_id(elf, have, sizeof(have));
	if (n > 0 && sym_same_build_id(want, wlen, have, (size_t)n)) {
		*found = strdup(path);
		return elf;
	}
	sym_elf_close(elf, *fdp);
	*fdp = -1;
	return NULL;
}

/* Why a changed object shows no names: said once, when it is loaded. */
static void warn_other_build(const struct sonde_dso *dso, const char *file)
{
	char want[2 * SYM_BUILD_ID_MAX + 1], have[2 * SYM_BUILD_ID_MAX + 1];

	hex_build_id(dso->want_bid, dso->want_bid_size, want);
	hex_build_id(dso->bid, dso->bid_size, have);
	if (dso->mem)
		pr_warn("%s of the recording is another build (build id %s, "
			"this kernel's %s) and no copy of it is in perf's "
			"build-id cache (%s/.build-id): its samples are shown "
			"by address\n", dso->path, want, have, dso->buildid_dir);
	else
		pr_warn("%s changed since the recording (build id %s, recorded "
			"%s) and no copy of the recorded one is in perf's "
			"build-id cache (%s/.build-id) or %s%s/.build-id: its "
			"samples are shown by address\n", file,
			have[0] ? have : "none", want, dso->buildid_dir,
			dso->root_dir, dso->debug_dir);
}

/*
 * dso->elf (the file, NULL when it is gone) is not the recorded build:
 * perf's copy of the recorded one replaces it (1: load that one as the
 * file), else the debug file of the recorded id gives the symbols and the
 * recorded layout (0). Else no symbols (-errno), with a warning when a
 * changed file is there.
 */
static int use_recorded_build(struct sonde_dso *dso, char *file, size_t size)
{
	Elf *cached, *dbg_elf = NULL;
	char *found = NULL;
	int fd = -1;

	cached = dso->mem ? find_recorded_vdso(dso->buildid_dir, dso->want_bid,
					       dso->want_bid_size, &fd, &found) :
		 sym_find_in_buildid_cache(dso->buildid_dir, dso->want_bid,
					   dso->want_bid_size, &fd, &found);
	if (cached) {
		pr_debug("%s: using the recorded copy %s\n", dso->path, found);
		sym_elf_close(dso->elf, dso->fd);
		dso->elf = cached;
		dso->fd = fd;
		snprintf(file, size, "%s", found);
		free(found);
		dso->bid_size = (size_t)sym_elf_build_id(dso->elf, dso->bid,
							  sizeof(dso->bid));
		read_loads(dso, dso->elf);
		return 1;
	}
	if (!dso->no_debug_files)
		dbg_elf = find_by_build_id(dso->root_dir, dso->debug_dir,
					   dso->want_bid, dso->want_bid_size,
					   &fd, &found);
	if (dbg_elf) {
		/* The debug file's phdrs describe the recorded layout. */
		read_loads(dso, dbg_elf);
		dso->symelf = dbg_elf;
		dso->symfd = fd;
		dso->symfile = found;
		/* Without the file's PLT: not the recorded one. */
		if (collect_symbols(dbg_elf, find_section(dbg_elf, SHT_SYMTAB, NULL),
				    NULL, &dso->syms, &dso->nr, &dso->plt_names)) {
			dso->status = SONDE_DSO_BAD_ELF;
			return lib_err(SONDE_ERR_FORMAT);
		}
		dso->status = dso->nr ? SONDE_DSO_OK : SONDE_DSO_NO_SYMBOLS;
		return 0;
	}
	if (!dso->elf) {
		dso->status = SONDE_DSO_MISSING; /* [unknown] as always: no word */
		return lib_err(ENOENT);
	}
	warn_other_build(dso, file);
	dso->status = SONDE_DSO_BUILD_ID_MISMATCH;
	return lib_err(ESTALE);
}

int sym_elf_load(struct sonde_dso *dso)
{
	char file[PATH_MAX], *dbg = NULL;
	Elf *plt_elf = NULL;
	Elf_Scn *scn;
	int fd = -1, err;

	snprintf(file, sizeof(file), "%s%s", dso->root_dir, dso->path);
	dso->fd = dso->symfd = -1;
	if (dso->mem) {
		elf_lib_init();
		dso->elf = elf_memory(dso->mem, dso->mem_size);
		if (!dso->elf || elf_kind(dso->elf) != ELF_K_ELF) {
			dso->status = SONDE_DSO_BAD_ELF;
			return lib_err(SONDE_ERR_FORMAT);
		}
		snprintf(file, sizeof(file), "%s", dso->path);
	} else {
		dso->elf = sym_elf_open(file, &dso->fd);
	}
	if (!dso->elf && !dso->want_bid_size) {
		err = errno;
		dso->status = err == SONDE_ERR_FORMAT ? SONDE_DSO_BAD_ELF :
							SONDE_DSO_MISSING;
		pr_debug("%s: cannot read ELF: %s\n", file, strerror(err));
		return lib_err(err);
	}
	if (dso->elf) {
		dso->bid_size = (size_t)sym_elf_build_id(dso->elf, dso->bid,
							  sizeof(dso->bid));
		read_loads(dso, dso->elf);
	}
	if (dso->want_bid_size &&
	    !sym_same_build_id(dso->want_bid, dso->want_bid_size, dso->bid,
			       dso->bid_size)) {
		/* Changed or gone since the recording. */
		err = use_recorded_build(dso, file, sizeof(file));
		if (err <= 0)
			return err;
	}
	dso->elf_file = strdup(file);
	plt_elf = dso->elf;
	scn = find_section(dso->elf, SHT_SYMTAB, NULL);
	if (scn) {
		dso->symelf = dso->elf;
		dso->symfile = strdup(file);
		goto collect;
	}
	if (!dso->no_debug_files) {
		dso->symelf = sym_find_debug_file(dso->elf, file,
						  dso->root_dir, dso->debug_dir,
						  dso->bid, dso->bid_size,
						  &fd, &dbg);
		if (dso->symelf) {
			dso->symfd = fd;
			dso->symfile = dbg;
			scn = find_section(dso->symelf, SHT_SYMTAB, NULL);
			goto collect;
		}
	}
	scn = find_section(dso->elf, SHT_DYNSYM, NULL);
	if (!scn) {
		dso->status = SONDE_DSO_NO_SYMBOLS;
		return 0;
	}
	dso->symelf = dso->elf;
	dso->symfile = strdup(file);
collect:
	if (collect_symbols(dso->symelf, scn, plt_elf, &dso->syms, &dso->nr,
			    &dso->plt_names)) {
		dso->status = SONDE_DSO_BAD_ELF;
		return lib_err(SONDE_ERR_FORMAT);
	}
	dso->status = dso->nr ? SONDE_DSO_OK : SONDE_DSO_NO_SYMBOLS;
	return 0;
}

char *sym_recorded_object(const char *path, const uint8_t *want, size_t wlen,
			  const char *buildid_dir)
{
	uint8_t have[SYM_BUILD_ID_MAX];
	char *found = NULL;
	int fd = -1, n = 0;
	Elf *elf = sym_elf_open(path, &fd);

	if (elf) {
		n = sym_elf_build_id(elf, have, sizeof(have));
		sym_elf_close(elf, fd);
	}
	if (n > 0 && sym_same_build_id(want, wlen, have, (size_t)n))
		return strdup(path);
	elf = sym_find_in_buildid_cache(buildid_dir, want, wlen, &fd, &found);
	if (!elf)
		return NULL;
	sym_elf_close(elf, fd);
	return found;
}

/*
 * Loading is over: libelf has the files mapped (names point into those
 * mappings), so the descriptors can go. Thousands of DSOs must not cost
 * thousands of open files.
 */
void sym_elf_release_fds(struct sonde_dso *dso)
{
	if (dso->symelf && dso->symelf != dso->elf && dso->symfd >= 0) {
		elf_cntl(dso->symelf, ELF_C_FDDONE);
		close(dso->symfd);
		dso->symfd = -1;
	}
	if (dso->elf && dso->fd >= 0) {
		elf_cntl(dso->elf, ELF_C_FDDONE);
		close(dso->fd);
		dso->fd = -1;
	}
}

void sym_elf_unload(struct sonde_dso *dso)
{
	if (dso->symelf && dso->symelf != dso->elf)
		sym_elf_close(dso->symelf, dso->symfd);
	sym_elf_close(dso->elf, dso->fd);
	dso->elf = dso->symelf = NULL;
	dso->fd = dso->symfd = -1;
}

uint64_t sym_elf_map_to_vaddr(const struct sonde_dso *dso, uint64_t off)
{
	size_t i;

	for (i = 0; i < dso->nloads; i++) {
		const GElf_Phdr *ph = &dso->loads[i];

		if (off >= ph->p_offset && off - ph->p_offset < ph->p_filesz)
			return off - ph->p_offset + ph->p_vaddr;
	}
	/* Past the file image (.bss) of the last segment that starts below. */
	for (i = dso->nloads; i-- > 0;) {
		const GElf_Phdr *ph = &dso->loads[i];

		if (off >= ph->p_offset && off - ph->p_offset < ph->p_memsz)
			return off - ph->p_offset + ph->p_vaddr;
	}
	return off;
}

struct vdso_copy {
	char **image;
	size_t *size;
	int err;
};

static int copy_vdso(const struct proc_map *m, void *arg)
{
	struct vdso_copy *vc = arg;
	size_t n = m->end - m->start;

	if (strcmp(m->name, "[vdso]") || !n || n > (16u << 20))
		return 0;
	*vc->image = malloc(n);
	if (!*vc->image) {
		vc->err = -ENOMEM;
		return 1;
	}
	memcpy(*vc->image, (const void *)(uintptr_t)m->start, n);
	*vc->size = n;
	vc->err = 0;
	return 1;
}

/*
 * This process's vdso, copied out of memory (bounded by its /proc/self/maps
 * entry). perf does the same: the kernel that runs the report is assumed
 * to be the one that ran the workload.
 */
int sym_vdso_image(char **image, size_t *size)
{
	struct vdso_copy vc = { .image = image, .size = size, .err = -ENOENT };
	int err = proc_maps_each(0, copy_vdso, &vc);

	return err < 0 ? err : vc.err;
}
