// SPDX-License-Identifier: LGPL-2.1-only
/*
 * DWARF unwinding of user stack samples through libdwfl: one Dwfl per
 * address space, every mapped ELF reported once (so libdwfl parses and
 * caches its CFI once), thread callbacks that serve the sample's registers
 * and its stack copy.
 */
#include <fcntl.h>
#include <sys/mman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include "sonde/abi.h"
#include "sonde/unwind.h"
#include "core_priv.h"
#include "sym_priv.h"
#include "unwind_priv.h"

struct uw_module {
	char *path;
	/* What find_elf opens: the file (root_dir applied) or "[vdso]". */
	char *file;
	uint64_t low, high;	/* address range of the reported image */
	bool ok;		/* an ELF image, reported to libdwfl */
	bool gone;		/* unmapped: overlapped by a newer mapping */
};

struct sonde_unwinder {
	Dwfl *dwfl;
	pid_t pid;
	bool reporting;		/* inside dwfl_report_begin_add .. _end */
	bool attached;
	bool rebuild;		/* modules went away: new Dwfl before use */
	enum uw_mode mode;
	struct uw_cfi *cfi;	/* rules per PC of this Dwfl's modules */
	uint64_t nr_fast, nr_slow;
	char *root_dir;
	struct uw_module *mods;
	size_t nr_mods, cap_mods;

	/* Where IP, SP and BP sit in the registers of samples of this mask. */
	uint64_t slots_mask;
	int slot_ip, slot_sp, slot_bp;	/* -1: not sampled */
	bool slots_known;

	/* The sample being unwound. */
	const struct sonde_unwind_sample *cur;
	uint64_t sp;
	uint64_t *ips;
	size_t max, nr;
};

static int find_elf_nofd(Dwfl_Module *mod, void **userdata,
			 const char *modname, Dwarf_Addr base,
			 char **file_name, Elf **elfp);

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = find_elf_nofd,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/* perf x86 register index -> value, 0 (and false) if not sampled. */
static bool perf_reg(const struct sonde_unwind_sample *s, unsigned int r,
		     uint64_t *val)
{
	uint64_t below;
	unsigned int idx;

	*val = 0;
	if (r >= 64 || !(s->regs_mask & (1ULL << r)))
		return false;
	below = s->regs_mask & ((1ULL << r) - 1);
	idx = (unsigned int)__builtin_popcountll(below);
	if (idx >= s->nr_regs)
		return false;
	*val = s->regs[idx];
	return true;
}

/* Index of perf register @p r among the sampled ones, or -1. */
static int reg_slot(uint64_t mask, unsigned int r)
{
	if (!(mask & (1ULL << r)))
		return -1;
	return __builtin_popcountll(mask & ((1ULL << r) - 1));
}

/* perf_reg() for a slot reg_slot() found: false (and 0) if absent. */
static bool reg_at(const struct sonde_unwind_sample *s, int slot, uint64_t *val)
{
	*val = 0;
	if (slot < 0 || (uint32_t)slot >= s->nr_regs)
		return false;
	*val = s->regs[slot];
	return true;
}

/* DWARF x86-64 register n <- perf register dwarf_to_perf[n]. */
static const unsigned char dwarf_to_perf[17] = {
	SONDE_PERF_REG_X86_AX, SONDE_PERF_REG_X86_DX, SONDE_PERF_REG_X86_CX,
	SONDE_PERF_REG_X86_BX, SONDE_PERF_REG_X86_SI, SONDE_PERF_REG_X86_DI,
	SONDE_PERF_REG_X86_BP, SONDE_PERF_REG_X86_SP, SONDE_PERF_REG_X86_R8,
	SONDE_PERF_REG_X86_R9, SONDE_PERF_REG_X86_R10, SONDE_PERF_REG_X86_R11,
	SONDE_PERF_REG_X86_R12, SONDE_PERF_REG_X86_R13, SONDE_PERF_REG_X86_R14,
	SONDE_PERF_REG_X86_R15, SONDE_PERF_REG_X86_IP,
};

static pid_t cb_next_thread(Dwfl *dwfl, void *dwfl_arg, void **thread_argp)
{
	struct sonde_unwinder *uw = dwfl_arg;

	(void)dwfl;
	if (*thread_argp)
		return 0;
	*thread_argp = uw;
	return uw->cur ? uw->cur->tid : uw->pid;
}

static bool cb_get_thread(Dwfl *dwfl, pid_t tid, void *dwfl_arg,
			  void **thread_argp)
{
	(void)dwfl;
	(void)tid;
	*thread_argp = dwfl_arg;
	return true;
}

/* Reads 8 bytes at a vaddr of a module from its file image. */
bool uw_read_from_elf(Dwfl *dwfl, uint64_t addr, uint64_t *result)
{
	Dwfl_Module *mod = dwfl_addrmodule(dwfl, addr);
	Dwarf_Addr bias;
	size_t i, nph, size;
	const char *raw;
	Elf *elf;

	if (!mod || !(elf = dwfl_module_getelf(mod, &bias)))
		return false;
	raw = elf_rawfile(elf, &size);
	if (!raw || elf_getphdrnum(elf, &nph))
		return false;
	addr -= bias;
	for (i = 0; i < nph; i++) {
		GElf_Phdr ph;
		uint64_t off;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (addr < ph.p_vaddr || ph.p_filesz < 8 ||
		    addr - ph.p_vaddr > ph.p_filesz - 8)
			continue;
		off = ph.p_offset + (addr - ph.p_vaddr);
		if (off > size || size - off < 8)
			return false;
		memcpy(result, raw + off, 8);
		return true;
	}
	return false;
}

static bool cb_memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result,
			   void *arg)
{
	struct sonde_unwinder *uw = arg;
	const struct sonde_unwind_sample *s = uw->cur;

	if (s && addr >= uw->sp && s->stack_size >= 8 &&
	    addr - uw->sp <= s->stack_size - 8) {
		memcpy(result, (const char *)s->stack + (addr - uw->sp), 8);
		return true;
	}
	return uw_read_from_elf(dwfl, addr, result);
}

static bool cb_set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct sonde_unwinder *uw = arg;
	Dwarf_Word regs[17];
	uint64_t v;
	unsigned int i;

	for (i = 0; i < 17; i++) {
		perf_reg(uw->cur, dwarf_to_perf[i], &v);
		regs[i] = v;
	}
	if (!dwfl_thread_state_registers(thread, 0, 17, regs))
		return false;
	dwfl_thread_state_register_pc(thread, regs[16]);
	return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = cb_next_thread,
	.get_thread = cb_get_thread,
	.memory_read = cb_memory_read,
	.set_initial_registers = cb_set_initial_registers,
};

struct sonde_unwinder *sonde_unwinder__new(pid_t pid,
					   const struct sonde_unwinder_opts *opts)
{
	struct sonde_unwinder *uw;
	const char *root;

	if (!OPTS_VALID(opts, sonde_unwinder_opts))
		return lib_err_ptr(EINVAL);
	uw = calloc(1, sizeof(*uw));
	if (!uw)
		return lib_err_ptr(ENOMEM);
	root = OPTS_GET(opts, root_dir, NULL);
	uw->root_dir = strdup(root ? root : "");
	uw->dwfl = dwfl_begin(&offline_callbacks);
	uw->cfi = uw_cfi_new();
	uw->pid = pid > 0 ? pid : 1;
	/* A check switch: unwind every sample through libdwfl alone. */
	if (secure_getenv("SONDE_UNWIND") &&
	    !strcmp(secure_getenv("SONDE_UNWIND"), "slow"))
		uw->mode = UW_MODE_SLOW;
	if (!uw->root_dir || !uw->dwfl || !uw->cfi) {
		sonde_unwinder__free(uw);
		return lib_err_ptr(ENOMEM);
	}
	return uw;
}

void sonde_unwinder__free(struct sonde_unwinder *uw)
{
	size_t i;

	if (!uw)
		return;
	if (uw->nr_fast || uw->nr_slow)
		pr_debug("unwind: pid %d: %llu samples by CFI rules (%zu PCs), "
			 "%llu through libdwfl\n", (int)uw->pid,
			 (unsigned long long)uw->nr_fast,
			 uw_cfi_count(uw->cfi),
			 (unsigned long long)uw->nr_slow);
	if (uw->dwfl) {
		if (uw->reporting)
			dwfl_report_end(uw->dwfl, NULL, NULL);
		dwfl_end(uw->dwfl);
	}
	for (i = 0; i < uw->nr_mods; i++) {
		free(uw->mods[i].path);
		free(uw->mods[i].file);
	}
	free(uw->mods);
	free(uw->root_dir);
	uw_cfi_free(uw->cfi);
	free(uw);
}

void unwinder_set_mode(struct sonde_unwinder *uw, enum uw_mode mode)
{
	uw->mode = mode;
}

void unwinder_counts(const struct sonde_unwinder *uw, struct uw_counts *c)
{
	c->fast = uw->nr_fast;
	c->slow = uw->nr_slow;
	c->rules = uw_cfi_count(uw->cfi);
	c->dwarf_loads = uw_cfi_dwarf_loads(uw->cfi);
}

/*
 * Is this mapping already covered: a path known not to be ELF, or a
 * segment of an image of @p path reported around @p start?
 */
static bool map_known(struct sonde_unwinder *uw, const char *path,
		      uint64_t start)
{
	size_t i;

	for (i = 0; i < uw->nr_mods; i++) {
		struct uw_module *m = &uw->mods[i];

		if (m->gone || strcmp(m->path, path))
			continue;
		if (!m->ok || (start >= m->low && start < m->high))
			return true;
	}
	return false;
}

/*
 * A new image over older ones (dlclose + dlopen, exec): the old modules
 * are gone. libdwfl cannot drop modules, so the Dwfl is rebuilt before the
 * next unwind.
 */
static void retire_overlaps(struct sonde_unwinder *uw, uint64_t low,
			    uint64_t high)
{
	size_t i;

	for (i = 0; i < uw->nr_mods; i++) {
		struct uw_module *m = &uw->mods[i];

		if (!m->ok || m->gone || m->high <= low || m->low >= high)
			continue;
		m->gone = true;
		uw->rebuild = true;
	}
}

static int report_module(struct sonde_unwinder *uw, struct uw_module *m)
{
	Dwfl_Module *mod;
	void **ud = NULL;

	if (!uw->reporting) {
		dwfl_report_begin_add(uw->dwfl);
		uw->reporting = true;
	}
	/* PCs without a module so far may fall in this one now. */
	uw_cfi_flush(uw->cfi);
	mod = dwfl_report_module(uw->dwfl, m->path, m->low, m->high);
	if (!mod) {
		pr_debug("unwind: %s: %s\n", m->file, dwfl_errmsg(-1));
		return -SONDE_ERR_FORMAT;
	}
	dwfl_module_info(mod, &ud, NULL, NULL, NULL, NULL, NULL, NULL);
	if (ud)
		*ud = m->file;	/* a separate allocation: stable */
	return 0;
}

/* A fresh Dwfl with the modules still mapped (CFI is parsed again). */
static int rebuild_dwfl(struct sonde_unwinder *uw)
{
	Dwfl *n = dwfl_begin(&offline_callbacks);
	size_t i;

	if (!n)
		return -ENOMEM;
	if (uw->reporting)
		dwfl_report_end(uw->dwfl, NULL, NULL);
	dwfl_end(uw->dwfl);
	uw->dwfl = n;
	uw_cfi_reset(uw->cfi);
	uw->reporting = false;
	uw->attached = false;
	uw->rebuild = false;
	for (i = 0; i < uw->nr_mods; i++)
		if (uw->mods[i].ok && !uw->mods[i].gone)
			report_module(uw, &uw->mods[i]);
	return 0;
}

/*
 * The vdso's CFI: this process's vdso (same kernel, as perf assumes),
 * copied into a memfd so that libelf can map it like a file.
 */
static int vdso_fd(void)
{
	size_t size = 0;
	char *img = NULL;
	int fd, err;

	err = sym_vdso_image(&img, &size);
	if (err) {
		errno = -err;
		return -1;
	}
	fd = memfd_create("sonde-vdso", MFD_CLOEXEC);
	if (fd >= 0 && (write(fd, img, size) != (ssize_t)size ||
			lseek(fd, 0, SEEK_SET))) {
		close(fd);
		fd = -1;
		errno = EIO;
	}
	free(img);
	return fd;
}

/*
 * Where an ELF file mapped at @p start from file offset @p pgoff lands:
 * the PT_LOAD holding that offset gives vaddr = p_vaddr + (off - p_offset),
 * so bias = start - pgoff + p_offset - p_vaddr. The module's range is what
 * libdwfl derives from the bias: first PT_LOAD aligned down to the last
 * PT_LOAD's end.
 */
static int module_range(Elf *elf, uint64_t start, uint64_t pgoff,
			uint64_t *low, uint64_t *high)
{
	uint64_t bias = 0, lo = UINT64_MAX, hi = 0;
	bool found = false;
	size_t i, nph;
	GElf_Ehdr eh;

	if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh) ||
	    elf_getphdrnum(elf, &nph))
		return -SONDE_ERR_FORMAT;
	for (i = 0; i < nph; i++) {
		GElf_Phdr ph;
		uint64_t seg_off, align;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		align = ph.p_align > 1 ? ph.p_align : 1;
		if (lo == UINT64_MAX)
			lo = ph.p_vaddr & ~(align - 1);
		if (ph.p_vaddr + ph.p_memsz > hi)
			hi = ph.p_vaddr + ph.p_memsz;
		seg_off = ph.p_offset & ~(uint64_t)0xfff;
		if (!found && pgoff >= seg_off &&
		    pgoff < ph.p_offset + ph.p_filesz) {
			bias = start - pgoff + ph.p_offset - ph.p_vaddr;
			found = true;
		}
	}
	if (lo == UINT64_MAX || hi <= lo)
		return -SONDE_ERR_FORMAT;
	if (eh.e_type != ET_DYN)
		bias = 0;	/* ET_EXEC runs at its link addresses */
	else if (!found)
		return -SONDE_ERR_FORMAT;
	*low = bias + lo;
	*high = bias + hi;
	return 0;
}

/* Opens @p file (or the vdso) as an Elf that needs no descriptor. */
static Elf *open_elf_nofd(const char *file)
{
	Elf *elf;
	int fd;

	elf_version(EV_CURRENT);
	fd = !strcmp(file, "[vdso]") ? vdso_fd() :
				       open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	/* Mapped now: no open file per module and process. */
	if (elf)
		elf_cntl(elf, ELF_C_FDDONE);
	close(fd);
	if (elf && elf_kind(elf) != ELF_K_ELF) {
		elf_end(elf);
		errno = SONDE_ERR_FORMAT;
		elf = NULL;
	}
	return elf;
}

/* libdwfl's find_elf: hand over the Elf alone (fd -1), opened lazily. */
static int find_elf_nofd(Dwfl_Module *mod, void **userdata,
			 const char *modname, Dwarf_Addr base,
			 char **file_name, Elf **elfp)
{
	const char *file = *userdata;

	(void)mod;
	(void)modname;
	(void)base;
	*elfp = file ? open_elf_nofd(file) : NULL;
	if (*elfp && file_name)
		*file_name = strdup(file);
	return -1;
}

int sonde_unwinder__add_map(struct sonde_unwinder *uw, uint64_t start,
			    uint64_t len, uint64_t pgoff, const char *path)
{
	char file[4096];
	struct uw_module *m;
	uint64_t low = 0, high = 0;
	Elf *elf;
	int err;

	if (!uw || !path || !len)
		return lib_err(EINVAL);
	if (path[0] != '/' && strcmp(path, "[vdso]"))
		return 0;	/* [heap], //anon, [stack], ... */
	if (map_known(uw, path, start))
		return 0;
	if (uw->nr_mods == uw->cap_mods) {
		size_t cap = uw->cap_mods ? uw->cap_mods * 2 : 16;
		struct uw_module *n = realloc(uw->mods, cap * sizeof(*n));

		if (!n)
			return lib_err(ENOMEM);
		uw->mods = n;
		uw->cap_mods = cap;
	}
	if (path[0] == '[')
		snprintf(file, sizeof(file), "%s", path);
	else
		snprintf(file, sizeof(file), "%s%s", uw->root_dir, path);
	m = &uw->mods[uw->nr_mods];
	m->path = strdup(path);
	m->file = strdup(file);
	m->ok = false;
	m->gone = false;
	m->low = m->high = 0;
	if (!m->path || !m->file) {
		free(m->path);
		free(m->file);
		return lib_err(ENOMEM);
	}
	uw->nr_mods++;

	/* Headers only, for the range; libdwfl maps the file when needed. */
	errno = 0;
	elf = open_elf_nofd(file);
	if (!elf) {
		err = errno ? errno : SONDE_ERR_FORMAT;
		pr_debug("unwind: %s: cannot read ELF (%d)\n", file, err);
		return lib_err(err);
	}
	err = module_range(elf, start, pgoff, &low, &high);
	elf_end(elf);
	if (err) {
		pr_debug("unwind: %s: not an ELF file with that mapping\n", file);
		return lib_err(err);
	}
	retire_overlaps(uw, low, high);
	m->low = low;
	m->high = high;
	if (!uw->rebuild) {
		err = report_module(uw, m);
		if (err)
			return lib_err(err);
	}
	/* With a rebuild pending, the rebuild reports it. */
	m->ok = true;
	return 0;
}

struct proc_maps_add {
	struct sonde_unwinder *uw;
	int n; /* modules added */
};

static int add_proc_map(const struct proc_map *m, void *arg)
{
	struct proc_maps_add *pa = arg;

	if ((m->prot & PROT_EXEC) &&
	    !sonde_unwinder__add_map(pa->uw, m->start, m->end - m->start, m->pgoff,
				     m->name))
		pa->n++;
	return 0;
}

int sonde_unwinder__add_proc_maps(struct sonde_unwinder *uw, pid_t pid)
{
	struct proc_maps_add pa = { .uw = uw };
	int err;

	if (!uw)
		return lib_err(EINVAL);
	err = proc_maps_each(pid, add_proc_map, &pa);
	return err < 0 ? lib_err(-err) : pa.n;
}

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct sonde_unwinder *uw = arg;
	bool activation = false;
	Dwarf_Addr pc;

	if (!dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	if (!activation)
		pc--;
	uw->ips[uw->nr++] = pc;
	return uw->nr < uw->max ? DWARF_CB_OK : DWARF_CB_ABORT;
}

int sonde_unwinder__unwind(struct sonde_unwinder *uw,
			   const struct sonde_unwind_sample *s, uint64_t *ips,
			   size_t max)
{
	struct uw_cfi_sample cs;
	uint64_t ip;
	int n;

	if (!uw || !s || (!ips && max))
		return lib_err(EINVAL);
	if (s->abi == SONDE_PERF_SAMPLE_REGS_ABI_NONE)
		return lib_err(ENODATA);
	if (s->abi != SONDE_PERF_SAMPLE_REGS_ABI_64)
		return lib_err(EOPNOTSUPP);
	/* Every sample of a recording has the same mask: count bits once. */
	if (!uw->slots_known || uw->slots_mask != s->regs_mask) {
		uw->slot_ip = reg_slot(s->regs_mask, SONDE_PERF_REG_X86_IP);
		uw->slot_sp = reg_slot(s->regs_mask, SONDE_PERF_REG_X86_SP);
		uw->slot_bp = reg_slot(s->regs_mask, SONDE_PERF_REG_X86_BP);
		uw->slots_mask = s->regs_mask;
		uw->slots_known = true;
	}
	if (!reg_at(s, uw->slot_ip, &ip) || !reg_at(s, uw->slot_sp, &uw->sp) ||
	    (s->stack_size && !s->stack))
		return lib_err(EINVAL);
	if (!max)
		return 0;
	if (uw->rebuild && rebuild_dwfl(uw))
		return lib_err(ENOMEM);
	if (uw->reporting) {
		dwfl_report_end(uw->dwfl, NULL, NULL);
		uw->reporting = false;
	}
	if (!uw->attached) {
		/* NULL Elf: libdwfl takes the architecture from a module. */
		if (!dwfl_attach_state(uw->dwfl, NULL, uw->pid,
				       &thread_callbacks, uw)) {
			pr_debug("unwind: attach: %s\n", dwfl_errmsg(-1));
			/* No modules yet: the IP is all we know. */
			ips[0] = ip;
			return 1;
		}
		uw->attached = true;
	}
	if (uw->mode != UW_MODE_SLOW) {
		cs.ip = ip;
		cs.sp = uw->sp;
		/* Unsampled registers read as 0, as libdwfl is given them. */
		reg_at(s, uw->slot_bp, &cs.bp);
		cs.stack = s->stack;
		cs.stack_size = s->stack ? s->stack_size : 0;
		n = uw_cfi_unwind(uw->cfi, uw->dwfl, &cs, ips, max);
		if (n != UW_CFI_FALLBACK) {
			uw->nr_fast++;
			return n;
		}
	}
	uw->nr_slow++;
	uw->cur = s;
	uw->ips = ips;
	uw->max = max;
	uw->nr = 0;
	/* Stops with an error at the outermost frame or missing CFI: fine. */
	dwfl_getthread_frames(uw->dwfl, s->tid > 0 ? s->tid : uw->pid,
			      frame_cb, uw);
	uw->cur = NULL;
	if (!uw->nr) {
		ips[0] = ip;
		uw->nr = 1;
	}
	return (int)uw->nr;
}
