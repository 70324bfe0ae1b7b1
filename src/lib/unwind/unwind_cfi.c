// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The fast path of DWARF unwinding. libdwfl re-derives the CFI row of
 * every frame of every sample (and allocates a frame state per frame); but
 * a profile hits the same few thousand PCs over and over. Here each
 * distinct PC is looked up in libdw once and the row is boiled down to
 * what x86-64 code needs: CFA = RSP or RBP + offset, and for the return
 * address, RSP and RBP one of undefined / same value / saved at CFA + off /
 * CFA + off. A frame then costs a hash probe and a load or two from the
 * sample's stack copy.
 *
 * The result must be exactly libdwfl's (elfutils frame_unwind.c), so the
 * rules mirror it step by step: the row is looked up at the PC for the
 * first frame and at PC - 1 for callers (which are reported as PC - 1);
 * .eh_frame first, then .debug_frame; a register whose rule fails to
 * evaluate is unset; an unset or undefined return address, or a zero one,
 * ends the unwind. A PC without CFI (or outside every module) gets
 * libdwfl's x86-64 frame-pointer step: RBP is the frame, the return
 * address above it, and the step must move the stack pointer up. Anything
 * not modelled (a rule that is a DWARF expression or names another
 * register, a signal frame) sends the whole sample back to libdwfl.
 */
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include "core_priv.h"
#include "unwind_priv.h"

/* DWARF register numbers of x86-64. */
#define DW_RBP 6
#define DW_RSP 7
#define DW_RA 16

/* How a register of the caller is recovered. */
enum rule_kind {
	RK_UNSET,	/* the rule failed: libdwfl leaves it unset */
	RK_UNDEF,	/* DW_CFA_undefined */
	RK_SAME,	/* same value as in this frame */
	RK_AT,		/* saved at CFA + off */
	RK_VAL,		/* is CFA + off */
	RK_OTHER,	/* anything else: only libdwfl knows */
};

#define CFA_NONE 0xff	/* no CFA: every rule using it fails */

struct cfi_rule {
	uint64_t cfa_off, ra_off, sp_off, bp_off;
	uint8_t cfa_reg;	/* DW_RSP, DW_RBP or CFA_NONE */
	uint8_t ra, sp, bp;	/* enum rule_kind */
	bool fallback;		/* this PC needs libdwfl */
	bool no_cfi;		/* no row here: the frame-pointer step */
	/*
	 * The shape of nearly every frame: a CFA, the return address saved
	 * at CFA + off, RSP = CFA + off, RBP the same or saved. Walked
	 * without the general rule evaluation.
	 */
	bool plain;
};

/* Recently used rules, direct-mapped by key: most frames stop here. */
#define RECENT_BITS 10

struct recent {
	uint64_t key;		/* 0: empty (keys are lookup address + 1) */
	uint32_t idx;		/* into rules */
};

/*
 * The rules in the order they were compiled, found through the one hash
 * table by their lookup address + 1, which is also the hash: a slot whose
 * stored hash equals the key is the rule, without touching the rule.
 */
struct uw_cfi {
	struct hashtab by_key;	/* of rule index + 1, as a pointer */
	struct cfi_rule *rules;
	size_t count, cap;
	struct recent recent[1u << RECENT_BITS];
	/* Modules asked whether they may have .debug_frame, and the answer. */
	struct frame_known {
		Dwfl_Module *mod;
		bool possible;
	} *known;
	size_t nr_known, known_cap;
	size_t dwarf_loads;
};

struct uw_cfi *uw_cfi_new(void)
{
	return calloc(1, sizeof(struct uw_cfi));
}

void uw_cfi_free(struct uw_cfi *c)
{
	if (!c)
		return;
	hashtab_free(&c->by_key);
	free(c->rules);
	free(c->known);
	free(c);
}

void uw_cfi_flush(struct uw_cfi *c)
{
	/* Cheap when empty: a rebuild reports every module in a row. */
	if (!c || !c->count)
		return;
	hashtab_clear(&c->by_key);
	memset(c->recent, 0, sizeof(c->recent));
	c->count = 0;
}

void uw_cfi_reset(struct uw_cfi *c)
{
	if (!c)
		return;
	uw_cfi_flush(c);
	/* The old Dwfl's modules are freed: their addresses mean nothing. */
	c->nr_known = 0;
}

size_t uw_cfi_count(const struct uw_cfi *c)
{
	return c ? c->count : 0;
}

size_t uw_cfi_dwarf_loads(const struct uw_cfi *c)
{
	return c ? c->dwarf_loads : 0;
}

/* Classifies a register rule as libdwfl's handle_cfi would evaluate it. */
static uint8_t classify(Dwarf_Frame *fr, int regno, uint64_t *off)
{
	Dwarf_Op mem[3], *ops = NULL;
	size_t nops = 0, i = 1;

	*off = 0;
	if (dwarf_frame_register(fr, regno, mem, &ops, &nops) != 0)
		return RK_UNSET;
	if (!nops)
		return ops == mem ? RK_UNDEF : ops == NULL ? RK_SAME : RK_UNSET;
	/* call_frame_cfa [plus_uconst n] [stack_value]: libdw's offset rules */
	if (ops[0].atom != DW_OP_call_frame_cfa)
		return RK_OTHER;
	if (i < nops && ops[i].atom == DW_OP_plus_uconst)
		*off = ops[i++].number;
	if (i == nops)
		return RK_AT;
	if (i + 1 == nops && ops[i].atom == DW_OP_stack_value)
		return RK_VAL;
	return RK_OTHER;
}

/* One row of @p cfi at @p pc (module-relative); false: no row there. */
static bool rule_from_cfi(Dwarf_CFI *cfi, Dwarf_Addr pc, struct cfi_rule *r)
{
	Dwarf_Frame *fr = NULL;
	Dwarf_Addr start, end;
	Dwarf_Op *ops = NULL;
	size_t nops = 0;
	bool signal = false;
	int ra;

	if (!cfi || dwarf_cfi_addrframe(cfi, pc, &fr) != 0)
		return false;
	ra = dwarf_frame_info(fr, &start, &end, &signal);
	r->cfa_reg = CFA_NONE;
	if (dwarf_frame_cfa(fr, &ops, &nops) == 0 && nops) {
		if (nops == 1 && ops[0].atom == DW_OP_bregx &&
		    (ops[0].number == DW_RSP || ops[0].number == DW_RBP)) {
			r->cfa_reg = (uint8_t)ops[0].number;
			r->cfa_off = ops[0].number2;
		} else if (nops == 1 && (ops[0].atom == DW_OP_breg7 ||
					 ops[0].atom == DW_OP_breg6)) {
			r->cfa_reg = ops[0].atom == DW_OP_breg7 ? DW_RSP : DW_RBP;
			r->cfa_off = ops[0].number;
		} else {
			r->fallback = true;	/* e.g. PLT: CFA expression */
		}
	}
	r->ra = classify(fr, DW_RA, &r->ra_off);
	r->sp = classify(fr, DW_RSP, &r->sp_off);
	r->bp = classify(fr, DW_RBP, &r->bp_off);
	if (ra != DW_RA || signal || r->ra == RK_OTHER)
		r->fallback = true;
	r->plain = !r->fallback && r->cfa_reg != CFA_NONE && r->ra == RK_AT &&
		   r->sp == RK_VAL && (r->bp == RK_SAME || r->bp == RK_AT);
	free(fr);
	return true;
}

/*
 * dwfl_module_dwarf_cfi(), but NULL without loading the module's DWARF
 * when it cannot hold a .debug_frame (asked once per module).
 */
static Dwarf_CFI *debug_frame(struct uw_cfi *c, Dwfl_Module *mod,
			      Dwarf_Addr *bias)
{
	size_t i;

	for (i = 0; i < c->nr_known && c->known[i].mod != mod; i++)
		;
	if (i == c->nr_known) {
		if (c->nr_known == c->known_cap) {
			size_t ncap = c->known_cap ? c->known_cap * 2 : 16;
			struct frame_known *nk = realloc(c->known, ncap * sizeof(*nk));

			/* Without memory: libdwfl answers, as it always may. */
			if (!nk)
				return dwfl_module_dwarf_cfi(mod, bias);
			c->known = nk;
			c->known_cap = ncap;
		}
		c->known[i].mod = mod;
		c->known[i].possible = uw_debug_frame_possible(mod);
		c->nr_known++;
		c->dwarf_loads += c->known[i].possible;
	}
	return c->known[i].possible ? dwfl_module_dwarf_cfi(mod, bias) : NULL;
}

/* Compiles the rule for lookup address @p a, as __libdwfl_frame_unwind. */
static void compile(struct uw_cfi *c, Dwfl *dwfl, uint64_t a,
		    struct cfi_rule *r)
{
	Dwfl_Module *mod = dwfl_addrmodule(dwfl, a);
	Dwarf_Addr bias = 0;
	Dwarf_CFI *cfi;

	memset(r, 0, sizeof(*r));
	if (mod) {
		cfi = dwfl_module_eh_cfi(mod, &bias);
		if (cfi && rule_from_cfi(cfi, a - bias, r))
			return;
		cfi = debug_frame(c, mod, &bias);
		if (cfi && rule_from_cfi(cfi, a - bias, r))
			return;
	}
	r->no_cfi = true;
}

static const struct cfi_rule *lookup_slow(struct uw_cfi *c, Dwfl *dwfl,
					  uint64_t a, struct recent *e)
{
	uint64_t key = a + 1;
	struct hashtab_probe pr;
	void *v = hashtab_probe_first(&c->by_key, key, &pr);
	struct cfi_rule *r;

	if (v) {
		e->key = key;
		e->idx = (uint32_t)((uintptr_t)v - 1);
		return &c->rules[e->idx];
	}
	if (c->count >= UW_CFI_MAX_RULES)
		uw_cfi_flush(c);	/* start over rather than grow */
	if (c->count == c->cap) {
		size_t ncap = c->cap ? c->cap * 2 : 512;
		struct cfi_rule *nr = realloc(c->rules, ncap * sizeof(*nr));

		if (!nr)
			return NULL;
		c->rules = nr;
		c->cap = ncap;
	}
	if (hashtab_insert(&c->by_key, key, (void *)(uintptr_t)(c->count + 1)))
		return NULL;
	r = &c->rules[c->count++];
	compile(c, dwfl, a, r);
	e->key = key;
	e->idx = (uint32_t)(c->count - 1);
	return r;
}

static inline const struct cfi_rule *lookup(struct uw_cfi *c, Dwfl *dwfl,
					    uint64_t a)
{
	uint64_t key = a + 1;
	struct recent *e = &c->recent[(key * 0x9e3779b97f4a7c15ULL) >>
				      (64 - RECENT_BITS)];

	if (e->key == key)
		return &c->rules[e->idx];
	return lookup_slow(c, dwfl, a, e);
}

/* A register of the frame being unwound. */
struct reg {
	uint64_t val;
	uint8_t state;	/* REG_SET, REG_UNSET or REG_UNKNOWN */
};

enum { REG_UNSET, REG_SET, REG_UNKNOWN };

/* Where one walk reads memory: the sample's stack copy, else the files. */
struct mem {
	Dwfl *dwfl;
	const uint8_t *stack;	/* copied from address sp */
	uint64_t sp;
	uint64_t room;		/* 8-byte loads start below sp + room */
};

/* libdwfl's memory_read callback: the stack copy, else the mapped files. */
static inline __attribute__((always_inline)) bool
read8(const struct mem *m, uint64_t addr, uint64_t *val)
{
	if (addr >= m->sp && addr - m->sp < m->room) {
		memcpy(val, m->stack + (addr - m->sp), 8);
		return true;
	}
	return uw_read_from_elf(m->dwfl, addr, val);
}

/*
 * The caller's value of a register under rule @p kind. @p cfa_ok false:
 * the CFA did not evaluate, so CFA-relative rules fail.
 */
static inline __attribute__((always_inline)) struct reg
recover(const struct mem *m, uint8_t kind, uint64_t off,
	bool cfa_ok, uint64_t cfa, struct reg same)
{
	struct reg r = { 0, REG_UNSET };

	switch (kind) {
	case RK_SAME:
		return same;
	case RK_AT:
		if (cfa_ok && read8(m, cfa + off, &r.val))
			r.state = REG_SET;
		break;
	case RK_VAL:
		if (cfa_ok) {
			r.val = cfa + off;
			r.state = REG_SET;
		}
		break;
	case RK_OTHER:
		r.state = REG_UNKNOWN;
		break;
	default:
		break;
	}
	return r;
}

/*
 * libdwfl's last resort for x86-64 (the backend's unwind hook): RBP points
 * at the saved RBP with the return address above it. The step is refused
 * when RBP is unset or 0, when the return address cannot be read, or when
 * the stack pointer would not move up (not a frame chain but stray data).
 * @return 1 stepped, 0 the walk ends, -1 a register only libdwfl knows.
 */
static int fp_step(const struct mem *m, struct reg *sp,
		   struct reg *bp, uint64_t *pc)
{
	uint64_t fp = bp->val, old_sp = 0, prev = 0, ret;

	if (sp->state == REG_UNKNOWN || bp->state == REG_UNKNOWN)
		return -1;
	if (bp->state != REG_SET || !fp)
		return 0;
	if (sp->state == REG_SET)
		old_sp = sp->val;
	if (!read8(m, fp, &prev))
		prev = 0;
	if (!read8(m, fp + 8, &ret))
		return 0;
	if (old_sp >= fp + 16)
		return 0;
	*bp = (struct reg){ prev, REG_SET };
	*sp = (struct reg){ fp + 16, REG_SET };
	*pc = ret;
	return 1;
}

int uw_cfi_unwind(struct uw_cfi *c, Dwfl *dwfl, const struct uw_cfi_sample *s,
		  uint64_t *ips, size_t max)
{
	/* Local: stores to @p ips cannot change it, no reloads. */
	const struct mem mem = {
		.dwfl = dwfl, .stack = s->stack, .sp = s->sp,
		.room = s->stack_size >= 8 ? s->stack_size - 7 : 0,
	}, *m = &mem;
	struct reg sp = { s->sp, REG_SET }, bp = { s->bp, REG_SET }, cr, ra;
	uint64_t pc = s->ip, cfa = 0;
	uint64_t warm = s->stack_size < 1024 ? s->stack_size : 1024;
	bool initial = true, cfa_ok;
	size_t n = 0;

	if (!max)
		return 0;
	/*
	 * The walk reads the copy at addresses it learns one load at a time:
	 * start the cache misses of its first lines together instead.
	 */
	for (uint64_t off = 0; off < warm; off += 64)
		__builtin_prefetch(s->stack + off);
	for (;;) {
		/* Callers: the row of the call instruction, not the next. */
		uint64_t a = initial ? pc : pc - 1;
		const struct cfi_rule *r;

		if (a == UINT64_MAX)
			return UW_CFI_FALLBACK;	/* no key for it */
		r = lookup(c, dwfl, a);
		if (!r || r->fallback)
			return UW_CFI_FALLBACK;
		ips[n++] = a;
		if (n >= max)
			return (int)n;
		if (r->no_cfi) {
			int st = fp_step(m, &sp, &bp, &pc);

			if (st <= 0)
				return st < 0 ? UW_CFI_FALLBACK : (int)n;
			initial = false;
			continue;
		}

		cr = r->cfa_reg == DW_RSP ? sp : bp;
		if (r->plain && cr.state == REG_SET) {
			/* What the general rules below give for this shape. */
			cfa = cr.val + r->cfa_off;
			if (!read8(m, cfa + r->ra_off, &pc) || !pc)
				return (int)n;	/* outermost frame, or lost */
			sp = (struct reg){ cfa + r->sp_off, REG_SET };
			if (r->bp == RK_AT) {
				uint64_t v;

				bp = read8(m, cfa + r->bp_off, &v) ?
					     (struct reg){ v, REG_SET } :
					     (struct reg){ 0, REG_UNSET };
			}
			initial = false;
			continue;
		}
		cfa_ok = false;
		if (r->cfa_reg != CFA_NONE) {
			cr = r->cfa_reg == DW_RSP ? sp : bp;
			if (cr.state == REG_UNKNOWN)
				return UW_CFI_FALLBACK;
			cfa_ok = cr.state == REG_SET;
			cfa = cr.val + r->cfa_off;
		}
		/* RA "same value": this frame's RIP, which is its PC. */
		ra = recover(m, r->ra, r->ra_off, cfa_ok, cfa,
			     (struct reg){ pc, REG_SET });
		if (ra.state != REG_SET || !ra.val)
			return (int)n;	/* outermost frame, or lost */
		sp = recover(m, r->sp, r->sp_off, cfa_ok, cfa, sp);
		bp = recover(m, r->bp, r->bp_off, cfa_ok, cfa, bp);
		pc = ra.val;
		initial = false;
	}
}
