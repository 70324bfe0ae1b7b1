/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * Inside the DWARF unwinder: the CFI fast path (unwind_cfi.c) and the
 * libdwfl path (unwind_dwarf.c) it falls back to.
 */
#ifndef SONDE_UNWIND_PRIV_H
#define SONDE_UNWIND_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <elfutils/libdwfl.h>
#include "sonde/unwind.h"

/* Which path sonde_unwinder__unwind() takes. */
enum uw_mode {
	UW_MODE_AUTO = 0,	/* fast path, libdwfl where it cannot decide */
	UW_MODE_SLOW = 1,	/* libdwfl only (SONDE_UNWIND=slow) */
};

/* Samples unwound by each path since the unwinder was made. */
struct uw_counts {
	uint64_t fast, slow;
	uint64_t rules;		/* distinct PCs looked up in libdw */
	uint64_t dwarf_loads;	/* modules whose DWARF was loaded for .debug_frame */
};

void unwinder_set_mode(struct sonde_unwinder *uw, enum uw_mode mode);
void unwinder_counts(const struct sonde_unwinder *uw, struct uw_counts *c);

/* Reads 8 bytes at @p addr from the file image of the module holding it. */
bool uw_read_from_elf(Dwfl *dwfl, uint64_t addr, uint64_t *val);

/*
 * False when libdwfl's dwfl_module_dwarf_cfi(@p mod) is certainly NULL
 * (no .debug_frame in the module or its debug file), found without
 * loading the DWARF; true when it may not be (unwind_debug_frame.c).
 */
bool uw_debug_frame_possible(Dwfl_Module *mod);

/* Rules per PC, compiled from the modules' CFI once. */
struct uw_cfi;

/* Bound on remembered PCs (about 40 MB of rules and slots): hostile stacks cannot grow it. */
#define UW_CFI_MAX_RULES (1u << 19)

struct uw_cfi *uw_cfi_new(void);
void uw_cfi_free(struct uw_cfi *c);
/* Forget every rule: the Dwfl or its modules changed. */
void uw_cfi_flush(struct uw_cfi *c);
/* Forget the rules and what is known of each module: a new Dwfl. */
void uw_cfi_reset(struct uw_cfi *c);
/* Modules whose DWARF the rules had libdwfl load (for .debug_frame). */
size_t uw_cfi_dwarf_loads(const struct uw_cfi *c);
size_t uw_cfi_count(const struct uw_cfi *c);

/* The registers and stack copy of one sample (x86-64). */
struct uw_cfi_sample {
	uint64_t ip, sp, bp;
	const uint8_t *stack;	/* copied from address sp */
	uint64_t stack_size;
};

#define UW_CFI_FALLBACK (-1)

/*
 * Unwinds @p s with the rules of @p dwfl's modules, giving exactly what
 * libdwfl's dwfl_getthread_frames would (innermost first, callers as
 * return address - 1).
 * PCs without CFI take libdwfl's x86-64 frame-pointer step, as there.
 * @return the number of addresses stored (>= 1), or UW_CFI_FALLBACK when
 * some frame needs what only libdwfl does (DWARF expressions, registers
 * other than RSP/RBP, signal frames): unwind the whole sample there.
 */
int uw_cfi_unwind(struct uw_cfi *c, Dwfl *dwfl, const struct uw_cfi_sample *s,
		  uint64_t *ips, size_t max);

#endif
