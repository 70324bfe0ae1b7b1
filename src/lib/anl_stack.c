// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Hash-consed resolved stacks. The key is the raw sample (ip + callchain
 * words) plus the address space it was taken in (process and its map
 * generation, kernel map generation), so a hit can reuse the resolution
 * done for an earlier sample exactly.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "anl_priv.h"

struct anl_stacks {
	struct anl_machine *m;
	struct anl_stack **tab;
	size_t mask, count;
	int max_stack;
	struct anl_frame *tmp;
};

struct anl_stacks *anl_stacks_new(struct anl_machine *m, int max_stack)
{
	struct anl_stacks *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->m = m;
	c->mask = 4095;
	c->tab = calloc(c->mask + 1, sizeof(*c->tab));
	c->max_stack = max_stack > 0 ? max_stack : SONDE_PERF_MAX_STACK_DEPTH;
	c->tmp = calloc((size_t)SONDE_PERF_MAX_STACK_DEPTH * 2 + 2, sizeof(*c->tmp));
	if (!c->tab || !c->tmp) {
		anl_stacks_free(c);
		return NULL;
	}
	return c;
}

void anl_stacks_free(struct anl_stacks *c)
{
	if (!c)
		return;
	free(c->tab);
	free(c->tmp);
	free(c);
}

size_t anl_stacks_count(const struct anl_stacks *c)
{
	return c->count;
}

void anl_stacks_foreach(struct anl_stacks *c, void (*fn)(struct anl_stack *, void *),
			void *arg)
{
	for (size_t i = 0; i <= c->mask; i++)
		for (struct anl_stack *s = c->tab[i]; s; s = s->next)
			fn(s, arg);
}

static inline uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdULL;
}

static void grow(struct anl_stacks *c)
{
	size_t nmask = c->mask * 2 + 1;
	struct anl_stack **nt = calloc(nmask + 1, sizeof(*nt));

	if (!nt)
		return;
	for (size_t i = 0; i <= c->mask; i++) {
		struct anl_stack *s = c->tab[i], *nx;

		for (; s; s = nx) {
			nx = s->next;
			s->next = nt[s->hash & nmask];
			nt[s->hash & nmask] = s;
		}
	}
	free(c->tab);
	c->tab = nt;
	c->mask = nmask;
}

struct anl_stack *anl_stack_get(struct anl_stacks *c, const struct sonde_perfdata_reader *r,
				struct anl_thread *t, uint16_t misc, uint64_t ip,
				const uint8_t *callchain, uint64_t nr)
{
	struct anl_machine *m = c->m;
	const struct anl_proc *proc = t ? t->proc : NULL;
	uint32_t gen = proc ? proc->gen : 0, kgen = m->kproc->gen;
	bool kernel = (misc & SONDE_PERF_RECORD_MISC_CPUMODE_MASK) ==
		      SONDE_PERF_RECORD_MISC_KERNEL;
	uint64_t h = mix((uintptr_t)proc, ((uint64_t)gen << 32) | kgen);
	struct anl_stack *s;
	size_t nf = 0;

	if (nr > SONDE_PERF_MAX_STACK_DEPTH * 2)
		nr = SONDE_PERF_MAX_STACK_DEPTH * 2;
	h = mix(h, ip ^ ((uint64_t)kernel << 63));
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t w;

		memcpy(&w, callchain + i * 8, 8);
		h = mix(h, w);
	}
	for (s = c->tab[h & c->mask]; s; s = s->next) {
		if (s->hash == h && s->proc == proc && s->gen == gen && s->kgen == kgen &&
		    s->nr_raw == nr + 1 && s->raw[0] == (ip ^ ((uint64_t)kernel << 63)) &&
		    !memcmp(s->raw + 1, callchain, nr * 8))
			return s;
	}
	/* A new stack: resolve every frame once. */
	s = anl_alloc(m, sizeof(*s));
	s->hash = h;
	s->proc = proc;
	s->gen = gen;
	s->kgen = kgen;
	s->nr_raw = (uint32_t)nr + 1;
	s->raw = anl_alloc(m, (nr + 1) * 8);
	s->raw[0] = ip ^ ((uint64_t)kernel << 63);
	if (nr)
		memcpy(s->raw + 1, callchain, nr * 8);
	s->priv = NULL;
	s->priv2 = 0;
	{
		struct anl_loc loc;

		anl_resolve(m, t, kernel, ip, &loc);
		c->tmp[nf].dso = loc.dso;
		c->tmp[nf].sym = loc.sym;
		c->tmp[nf].addr = loc.addr;
		c->tmp[nf].ip = ip;
		c->tmp[nf].kernel = kernel;
		nf++;
	}
	{
		bool k = kernel, skip = false, first = true;

		for (uint64_t i = 0; i < nr && nf < (size_t)c->max_stack; i++) {
			uint64_t w = pdr_rd64(r, callchain + i * 8);
			struct anl_loc loc;

			if (w >= (uint64_t)SONDE_PERF_CONTEXT_MAX) {
				skip = false;
				if (w == (uint64_t)SONDE_PERF_CONTEXT_KERNEL)
					k = true;
				else if (w == (uint64_t)SONDE_PERF_CONTEXT_USER)
					k = false;
				else
					skip = true; /* hypervisor / guest: not ours */
				continue;
			}
			if (skip)
				continue;
			if (first) {
				first = false;
				if (w == ip)
					continue; /* the sample ip again */
			}
			anl_resolve(m, t, k, w, &loc);
			c->tmp[nf].dso = loc.dso;
			c->tmp[nf].sym = loc.sym;
			c->tmp[nf].addr = loc.addr;
			c->tmp[nf].ip = w;
			c->tmp[nf].kernel = k;
			nf++;
		}
	}
	s->nr_frames = (uint32_t)nf;
	s->frames = anl_alloc(m, nf * sizeof(*s->frames));
	memcpy(s->frames, c->tmp, nf * sizeof(*s->frames));
	s->next = c->tab[h & c->mask];
	c->tab[h & c->mask] = s;
	if (++c->count > c->mask)
		grow(c);
	return s;
}
