// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Hash-consed resolved stacks. The key is the raw sample (ip + callchain
 * words) plus the address space it was taken in (process and its map
 * generation, kernel map generation), so a hit can reuse the resolution
 * done for an earlier sample exactly.
 */
#include <stdlib.h>
#include <string.h>
#include "core_priv.h"
#include "profile_priv.h"
#include "sonde/unwind.h"

/* Room for a full chain where every frame expands into a few inlines. */
#define PROF_TMP_FRAMES (SONDE_PERF_MAX_STACK_DEPTH * 8 + 8)

/*
 * Recent resolutions, by address in sets of two: distinct stacks share
 * most of their frames, and a symbol table's binary search misses the
 * cache at every step. An answer holds while its address space is
 * unchanged. (Direct-mapped, a few thousand hot addresses collided often
 * enough that one lookup in twenty searched the symbol table again.)
 */
#define LOC_CACHE_SIZE 8192

struct loc_cached {
	const struct prof_proc *proc; /* NULL: empty (no space, nothing to cache) */
	uint32_t gen;
	uint32_t sym_off1; /* prof_frame's */
	struct prof_loc loc;
};

struct prof_stacks {
	struct prof_machine *m;
	struct hashtab tab; /* of struct prof_stack, by raw sample and address space */
	int max_stack;
	bool caller_order; /* keep the chain's outermost entries */
	struct prof_frame *tmp;
	uint64_t unwind_failures;
	bool no_inline;
	bool defer_inline;
	struct prof_stack **pending; /* new stacks not expanded yet */
	size_t nr_pending, cap_pending;
	struct loc_cached *locs; /* LOC_CACHE_SIZE entries */
	size_t nr_made; /* stacks made, kept or not */
	/* The stacks' own memory, so that a bounded cache can drop it at once. */
	struct hugearena arena;
	struct hugearena scratch; /* the transient stacks' */
	size_t limit; /* 0, or the count beyond which stacks are transient */
};

static void *stack_alloc(struct prof_stacks *c, size_t n)
{
	void *p = hugearena_alloc(&c->arena, n);

	return p ? p : prof_alloc(c->m, n); /* the machine's: its policy */
}

void prof_stacks_set_limit(struct prof_stacks *c, size_t max)
{
	c->limit = max;
}

/* Swaps the arena for the scratch one: a transient stack's memory. */
static void use_scratch(struct prof_stacks *c)
{
	struct hugearena k = c->arena;

	c->arena = c->scratch;
	c->scratch = k;
}

void prof_stacks_set_inline(struct prof_stacks *c, bool on)
{
	c->no_inline = !on;
}

void prof_stacks_defer_inline(struct prof_stacks *c)
{
	c->defer_inline = true;
}

struct prof_stacks *prof_stacks_new(struct prof_machine *m, int max_stack, bool caller_order)
{
	struct prof_stacks *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->m = m;
	hashtab_init(&c->tab);
	c->max_stack = max_stack > 0 ? max_stack : SONDE_PERF_MAX_STACK_DEPTH;
	c->caller_order = caller_order;
	c->tmp = calloc(PROF_TMP_FRAMES, sizeof(*c->tmp));
	c->locs = calloc(LOC_CACHE_SIZE, sizeof(*c->locs));
	if (!c->tmp || !c->locs) {
		prof_stacks_free(c);
		return NULL;
	}
	return c;
}

void prof_stacks_free(struct prof_stacks *c)
{
	if (!c)
		return;
	hashtab_free(&c->tab);
	free(c->tmp);
	free(c->locs);
	free(c->pending);
	hugearena_free(&c->arena);
	hugearena_free(&c->scratch);
	free(c);
}

size_t prof_stacks_count(const struct prof_stacks *c)
{
	return hashtab_count(&c->tab);
}

void prof_stacks_foreach(struct prof_stacks *c, void (*fn)(struct prof_stack *, void *),
			void *arg)
{
	size_t pos = 0;
	struct prof_stack *s;

	while ((s = hashtab_next(&c->tab, &pos)))
		fn(s, arg);
}

/* prof_frame's sym_off1 for @loc. */
static uint32_t loc_sym_off1(const struct prof_loc *loc)
{
	uint64_t off;

	if (!loc->sym)
		return 0;
	off = (loc->dso ? prof_dso_vaddr(loc->dso, loc->addr) : loc->addr) - loc->sym->start;
	return off < UINT32_MAX ? (uint32_t)off + 1 : 0;
}

/* prof_resolve() through the cache of recent answers; the frame at @fr. */
static void resolve(struct prof_stacks *c, struct prof_thread *t, bool kernel, uint64_t ip,
		    struct prof_frame *fr)
{
	const struct prof_proc *p = kernel ? c->m->kproc : (t ? t->proc : NULL);
	struct loc_cached *e, tmp;

	if (!p) {
		e = &tmp;
	} else {
		e = &c->locs[(hashtab_mix((uintptr_t)p, ip) >> 20) & (LOC_CACHE_SIZE - 2)];
		if (e->proc == p && e->gen == p->gen && e->loc.ip == ip &&
		    e->loc.kernel == kernel)
			goto out;
		if (e[1].proc == p && e[1].gen == p->gen && e[1].loc.ip == ip &&
		    e[1].loc.kernel == kernel) {
			e++;
			goto out;
		}
		e[1] = e[0]; /* the newest answer first, the older one kept */
	}
	prof_resolve(c->m, t, kernel, ip, &e->loc);
	e->proc = p;
	e->gen = p ? p->gen : 0;
	e->sym_off1 = loc_sym_off1(&e->loc);
out:
	fr->dso = e->loc.dso;
	fr->sym = e->loc.sym;
	fr->addr = e->loc.addr;
	fr->ip = ip;
	fr->kernel = kernel;
	fr->sym_off1 = e->sym_off1;
}

/*
 * Like perf 6.1, DWARF-unwound frames show the functions inlined at their
 * address, innermost first; the frame itself stays when the outermost
 * DWARF name is its symbol, else the DWARF name replaces it.
 */
static size_t expand_inlines(struct prof_stacks *c, size_t nf)
{
	struct prof_frame *out;
	size_t no = 0;
	bool any = false;

	if (c->no_inline)
		return nf;
	for (size_t i = 0; i < nf; i++)
		if (c->tmp[i].unwound && c->tmp[i].sym && c->tmp[i].dso)
			any = true;
	if (!any)
		return nf;
	out = malloc(PROF_TMP_FRAMES * sizeof(*out));
	if (!out)
		return nf;
	for (size_t i = 0; i < nf && no < PROF_TMP_FRAMES; i++) {
		const struct prof_frame *fr = &c->tmp[i];
		const char *names[8];
		int k = 0, j;

		if (fr->unwound && fr->sym && fr->dso)
			k = prof_dso_inlines(c->m, fr->dso, fr->addr, names, 8);
		for (j = 0; j < k && no < PROF_TMP_FRAMES; j++) {
			if (!strcmp(names[j], fr->sym->name))
				break;
			out[no] = *fr;
			out[no].sym = prof_inline_sym(c->m, fr->dso, fr->sym, names[j]);
			no++;
		}
		if (k && j == k)
			continue; /* the DWARF name stood in for the symbol */
		if (no < PROF_TMP_FRAMES)
			out[no++] = *fr;
	}
	memcpy(c->tmp, out, no * sizeof(*out));
	free(out);
	return no;
}

/*
 * Deferred: @s keeps its raw frames until prof_stacks_finish(); the debug
 * info of their objects starts opening now, on another thread.
 */
static bool defer(struct prof_stacks *c, struct prof_stack *s, size_t nf)
{
	bool any = false;

	if (!c->defer_inline || c->no_inline)
		return false;
	for (size_t i = 0; i < nf; i++)
		if (c->tmp[i].unwound && c->tmp[i].sym && c->tmp[i].dso) {
			prof_dso_prefetch_dwarf(c->m, c->tmp[i].dso, c->tmp[i].addr);
			any = true;
		}
	if (!any)
		return false;
	if (c->nr_pending == c->cap_pending) {
		size_t cap = c->cap_pending ? c->cap_pending * 2 : 256;
		struct prof_stack **n = realloc(c->pending, cap * sizeof(*n));

		if (!n)
			return false;
		c->pending = n;
		c->cap_pending = cap;
	}
	c->pending[c->nr_pending++] = s;
	s->nr_frames = (uint32_t)nf;
	s->frames = stack_alloc(c, nf * sizeof(*s->frames));
	memcpy(s->frames, c->tmp, nf * sizeof(*s->frames));
	return true;
}

void prof_stacks_finish(struct prof_stacks *c)
{
	for (size_t i = 0; i < c->nr_pending; i++) {
		struct prof_stack *s = c->pending[i];
		size_t nf = s->nr_frames;

		memcpy(c->tmp, s->frames, nf * sizeof(*s->frames));
		nf = expand_inlines(c, nf);
		if (nf != s->nr_frames) {
			if (s->transient)
				use_scratch(c);
			s->frames = stack_alloc(c, nf * sizeof(*s->frames));
			if (s->transient)
				use_scratch(c);
		}
		s->nr_frames = (uint32_t)nf;
		memcpy(s->frames, c->tmp, nf * sizeof(*s->frames));
	}
	c->nr_pending = 0;
}

/*
 * Every sample hashes its whole chain. Each word is multiplied on its own
 * and folded in with a rotation, so the multiplies overlap and a word costs
 * the fold's two steps, not a multiply's latency after the word before.
 * Two lanes take the words in pairs (other multiplier on the odd ones):
 * half the loop's steps, two short dependency chains instead of one long;
 * the end mixes the lot once. (A multiply on the running hash per word made
 * the chain of a 12-frame sample a ~80-cycle dependency.)
 */
#define CHAIN_K0 0x9e3779b97f4a7c15ULL
#define CHAIN_K1 0xc2b2ae3d27d4eb4fULL

static inline uint64_t chain_rot(uint64_t h)
{
	return (h << 23) | (h >> 41);
}

static inline uint64_t chain_hash(uint64_t h, uint64_t g, const uint8_t *chain, uint64_t nr)
{
	uint64_t i;

	for (i = 0; i + 2 <= nr; i += 2) {
		uint64_t w[2];

		memcpy(w, chain + i * 8, 16);
		h = chain_rot(h) ^ (w[0] * CHAIN_K0);
		g = chain_rot(g) ^ (w[1] * CHAIN_K1);
	}
	if (i < nr) {
		uint64_t w;

		memcpy(&w, chain + i * 8, 8);
		h = chain_rot(h) ^ (w * CHAIN_K0);
	}
	return hashtab_mix(h, g);
}

/* The chains are most often equal (a hit): in pairs of words, no call. */
static inline bool chain_eq(const uint64_t *raw, const uint8_t *chain, uint64_t nr)
{
	uint64_t diff = 0, i;

	for (i = 0; i + 2 <= nr; i += 2) {
		uint64_t w[2];

		memcpy(w, chain + i * 8, 16);
		diff |= (raw[i] ^ w[0]) | (raw[i + 1] ^ w[1]);
	}
	if (i < nr) {
		uint64_t w;

		memcpy(&w, chain + i * 8, 8);
		diff |= raw[i] ^ w;
	}
	return !diff;
}

/*
 * Which of the @nr words of @chain perf's thread__resolve_callchain()
 * keeps: it counts the entries (not the context words) up to max_stack,
 * the first ones, or the outermost ones in caller order; the
 * DWARF-unwound part, which its unwinder adds, is counted apart and
 * always from the sample up.
 */
static void keep_entries(const struct prof_stacks *c, const uint8_t *chain, uint64_t nr,
			 bool *keep)
{
	uint64_t total = 0, seen[2] = { 0, 0 }, max = (uint64_t)c->max_stack;
	int part = 0;

	/* caller order: the recorded part's length, to keep its last ones */
	for (uint64_t i = 0; c->caller_order && i < nr; i++) {
		uint64_t w = pdr_h64(chain + i * 8);

		if (w == PROF_CONTEXT_UNWOUND)
			break;
		total += w < (uint64_t)SONDE_PERF_CONTEXT_MAX;
	}
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t w = pdr_h64(chain + i * 8);

		keep[i] = false;
		if (w == PROF_CONTEXT_UNWOUND)
			part = 1;
		if (w >= (uint64_t)SONDE_PERF_CONTEXT_MAX)
			continue;
		if (c->caller_order && !part)
			keep[i] = seen[part] + max >= total;
		else
			keep[i] = seen[part] < max;
		seen[part]++;
	}
}

struct prof_stack *prof_stack_get(struct prof_stacks *c, const struct sonde_perfdata_reader *r,
				struct prof_thread *t, uint16_t misc, uint64_t ip,
				const uint8_t *callchain, uint64_t nr)
{
	struct prof_machine *m = c->m;
	const struct prof_proc *proc = t ? t->proc : NULL;
	uint32_t gen = proc ? proc->gen : 0, kgen = m->kproc->gen;
	bool kernel = (misc & SONDE_PERF_RECORD_MISC_CPUMODE_MASK) ==
		      SONDE_PERF_RECORD_MISC_KERNEL;
	uint64_t ip_key = ip ^ ((uint64_t)kernel << 63), h;
	struct hashtab_probe probe;
	struct prof_stack *s;
	size_t nf = 0;
	bool transient = false, leaf_cut = false;
	bool keep[SONDE_PERF_MAX_STACK_DEPTH * 2];

	(void)r; /* records are in host order by now */
	if (nr > SONDE_PERF_MAX_STACK_DEPTH * 2)
		nr = SONDE_PERF_MAX_STACK_DEPTH * 2;
	/* The lanes start from the rest of the key: one mix at the end for all. */
	h = chain_hash((uintptr_t)proc ^ (ip_key * CHAIN_K1),
		       (((uint64_t)gen << 32) | kgen) ^ (nr * CHAIN_K0), callchain, nr);
	/* Equal 64-bit hashes are compared in full: the slot holds the hash. */
	for (s = hashtab_probe_first(&c->tab, h, &probe); s;
	     s = hashtab_probe_next(&c->tab, &probe)) {
		if (s->proc == proc && s->gen == gen && s->kgen == kgen &&
		    s->nr_raw == nr + 1 && s->raw[0] == ip_key &&
		    chain_eq(s->raw + 1, callchain, nr))
			return s;
	}
	/* A new stack: resolve every frame once. */
	if (++c->nr_made == 16) /* many more to come: read all over */
		hugemem_populate(c->locs, LOC_CACHE_SIZE * sizeof(*c->locs));
	if (c->limit && hashtab_count(&c->tab) >= c->limit) {
		transient = true;
		use_scratch(c);
		/* The last transient stack is done with unless it awaits finish. */
		if (!c->nr_pending)
			hugearena_reset(&c->arena);
	}
	s = stack_alloc(c, sizeof(*s));
	s->proc = proc;
	s->gen = gen;
	s->kgen = kgen;
	s->nr_raw = (uint32_t)nr + 1;
	s->raw = stack_alloc(c, (nr + 1) * 8);
	s->raw[0] = ip_key;
	if (nr)
		memcpy(s->raw + 1, callchain, nr * 8);
	s->priv = NULL;
	s->priv2 = 0;
	s->group[0] = s->group[1] = NULL;
	s->many_groups = false;
	s->transient = transient;
	resolve(c, t, kernel, ip, &c->tmp[nf]);
	c->tmp[nf++].unwound = false;
	keep_entries(c, callchain, nr, keep);
	{
		bool k = kernel, skip = false, first = true, unwound = false;

		for (uint64_t i = 0; i < nr; i++) {
			uint64_t w = pdr_h64(callchain + i * 8);

			if (w >= (uint64_t)SONDE_PERF_CONTEXT_MAX) {
				skip = false;
				unwound = false;
				if (w == (uint64_t)SONDE_PERF_CONTEXT_KERNEL)
					k = true;
				else if (w == (uint64_t)SONDE_PERF_CONTEXT_USER)
					k = false;
				else if (w == PROF_CONTEXT_UNWOUND) {
					k = false;
					unwound = true;
				} else
					skip = true; /* hypervisor / guest: not ours */
				continue;
			}
			if (skip)
				continue;
			if (first) {
				first = false;
				if (w == ip) {
					c->tmp[0].unwound = unwound;
					/* perf's chain starts above the sample: so do its graphs */
					leaf_cut = !keep[i];
					continue; /* the sample ip again */
				}
			}
			if (!keep[i])
				continue;
			resolve(c, t, k, w, &c->tmp[nf]);
			c->tmp[nf++].unwound = unwound;
		}
	}
	s->self = c->tmp[0];
	if (leaf_cut) /* frames hold what perf's chain holds; self the sample */
		memmove(c->tmp, c->tmp + 1, --nf * sizeof(*c->tmp));
	if (!defer(c, s, nf)) {
		nf = expand_inlines(c, nf);
		s->nr_frames = (uint32_t)nf;
		s->frames = stack_alloc(c, nf * sizeof(*s->frames));
		memcpy(s->frames, c->tmp, nf * sizeof(*s->frames));
	}
	if (transient) {
		use_scratch(c);
		return s;
	}
	/* Out of memory: the stack stays usable, only not shared. */
	(void)hashtab_insert(&c->tab, h, s);
	return s;
}

uint64_t prof_stacks_unwind_failures(const struct prof_stacks *c)
{
	return c->unwind_failures;
}

/* The process's unwinder, created with every mapping known so far. */
static struct sonde_unwinder *proc_unwinder(struct prof_machine *m, struct prof_proc *p)
{
	const char *file;

	if (p->uw)
		return p->uw;
	p->uw = sonde_unwinder__new(p->pid, NULL);
	if (!p->uw)
		return NULL;
	for (size_t i = 0; i < p->nr_maps; i++) {
		const struct prof_map *mp = &p->maps[i];

		if (mp->dso && mp->dso->name[0] == '/' &&
		    (file = prof_dso_unwind_file(m, mp->dso)))
			sonde_unwinder__add_map(p->uw, mp->start, mp->end - mp->start, mp->pgoff,
						file);
	}
	return p->uw;
}

struct prof_stack *prof_sample_stack(struct prof_stacks *c, const struct sonde_perfdata_reader *r,
				   uint64_t sample_type, struct prof_thread *t, uint16_t misc,
				   const struct sample_view *s, bool use_callchain)
{
	const uint64_t want = SONDE_PERF_SAMPLE_REGS_USER | SONDE_PERF_SAMPLE_STACK_USER;
	uint64_t chain[SONDE_PERF_MAX_STACK_DEPTH * 2 + 4];
	uint64_t ips[SONDE_PERF_MAX_STACK_DEPTH];
	struct sonde_unwind_sample us;
	struct sonde_unwinder *uw;
	size_t n = 0;
	int got;

	if (!use_callchain)
		return prof_stack_get(c, r, t, misc, s->ip, NULL, 0);
	if ((sample_type & want) != want || !s->regs_abi || !s->stack_dyn_size ||
	    !t || !t->proc || t->proc == c->m->kproc)
		return prof_stack_get(c, r, t, misc, s->ip, s->callchain, s->nr_callchain);
	/* Kernel part as recorded, user part from the DWARF unwinder. */
	for (uint64_t i = 0; i < s->nr_callchain && n < SONDE_PERF_MAX_STACK_DEPTH; i++) {
		uint64_t w = pdr_h64(s->callchain + i * 8);

		if (w == (uint64_t)SONDE_PERF_CONTEXT_USER)
			break;
		chain[n++] = w;
	}
	uw = proc_unwinder(c->m, t->proc);
	memset(&us, 0, sizeof(us));
	us.tid = (pid_t)s->tid;
	us.abi = s->regs_abi;
	us.regs_mask = s->regs_mask;
	us.regs = (const uint64_t *)(const void *)s->regs;
	us.nr_regs = s->nr_regs;
	us.stack = s->stack;
	us.stack_size = s->stack_dyn_size;
	got = uw ? sonde_unwinder__unwind(uw, &us, ips, SONDE_PERF_MAX_STACK_DEPTH) : -1;
	if (got > 0) {
		chain[n++] = PROF_CONTEXT_UNWOUND;
		for (int i = 0; i < got; i++)
			chain[n++] = ips[i];
	}
	if (got <= 1)
		c->unwind_failures++;
	return prof_stack_get(c, r, t, misc, s->ip, (const uint8_t *)chain, n);
}
