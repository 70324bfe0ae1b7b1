// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Branch history (opts.branch_history, perf report --branch-history): a
 * sample's branch stack becomes the start of its call chain, each branch
 * as two frames, its target then its source, as perf's
 * thread__resolve_callchain_sample() adds them: the oldest branch first
 * in caller order (the newest in callee order), loops folded away as
 * perf's remove_loops() folds them (with its hash, collisions and all),
 * then the recorded callchain by perf's index rules. The frames carry
 * what each branch said (prediction, abort, cycles, type, the loop
 * iterations folded into a source) and the call trees sum it per node
 * the way perf's callchain_list counts do: match_chain() on each path
 * through a node, fill_node() for the path that makes it. Trees of
 * branch history match nodes by object and address, perf's
 * CCKEY_ADDRESS.
 *
 * The stacks are hash-consed here (samples with the same address space,
 * ip, branches and callchain share one), wrapped around the struct
 * prof_stack the groups and trees read.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "profile_priv.h"

/* perf's PERF_MAX_BRANCH_DEPTH: a longer stack is corrupted. */
#define MAX_BRANCH_DEPTH 127
/* perf's callchain context markers start here. */
#define CONTEXT_MAX ((uint64_t)-4095)
#define CONTEXT_KERNEL ((uint64_t)-128)
#define CONTEXT_USER ((uint64_t)-512)

/* What a frame of a branch history says about its branch. */
struct prof_hop {
	struct sonde_perf_branch_entry br; /* the branch's flags (and addresses) */
	uint64_t from;	     /* a target's: the branch's source; 0 for a source */
	uint64_t iter_cycles; /* a source's: cycles of the loop turns folded into it */
	uint32_t iters;	     /* a source's: loop turns folded into it */
	bool branch;	     /* part of a branch (else a callchain frame) */
};

struct prof_chain {
	struct prof_stack st; /* first: the groups hold &st */
	struct prof_hop *hops; /* one per frame */
	uint64_t hash;
	const struct prof_proc *proc;
	uint32_t gen, kgen;
	uint16_t misc;
	uint64_t ip;
	size_t nr_key;
	uint64_t *key; /* branch words, then the callchain */
};

/* A node's branch counts (perf's callchain_list counters) and address. */
struct prof_brnode {
	struct sonde_profile_node_branch c;
	uint64_t addr; /* map-relative, for its srcline */
	const char *srcline;
	bool srcline_done;
};

/* ---- perf's remove_loops() ---- */

struct iters {
	uint32_t nr;
	uint64_t cycles;
};

/* perf's hash_64(v, 7): the top 7 bits of the golden-ratio product. */
static unsigned hash7(uint64_t v)
{
	return (unsigned)((v * 0x61C8864680B583EBULL) >> 57);
}

/*
 * Folds repeated runs of branch sources into one, counting the folded
 * turns on the entry after them. perf keeps one slot per hash value and
 * never resolves collisions, so a loop whose source shares a slot with
 * another is not found: the same here.
 */
static int remove_loops(struct sonde_perf_branch_entry *l, int nr, struct iters *it)
{
	unsigned char slot[127];

	memset(slot, 0xff, sizeof(slot));
	for (int i = 0; i < nr; i++) {
		unsigned h = hash7(l[i].from) % 127;

		if (slot[h] == 0xff) {
			slot[h] = (unsigned char)i;
		} else if (l[slot[h]].from == l[i].from) {
			bool loop = true;
			int off = 0, j;

			for (j = slot[h]; j < i && i + off < nr; j++, off++)
				if (l[j].from != l[i + off].from) {
					loop = false;
					break;
				}
			if (loop) {
				j = nr - (i + off);
				if (j > 0) {
					it[i + off].nr++;
					it[i + off].cycles = 0;
					for (int k = 0; k < off; k++)
						it[i + off].cycles += l[i + k].cycles;
					memmove(it + i, it + i + off, (size_t)j * sizeof(*it));
					memmove(l + i, l + i + off, (size_t)j * sizeof(*l));
				}
				nr -= off;
			}
		}
	}
	return nr;
}

/* ---- building a chain ---- */

struct builder {
	struct sonde_profile *p;
	struct prof_thread *t;
	struct prof_frame *fr;
	struct prof_hop *hops;
	size_t nr, cap;
};

static int push(struct builder *b, const struct prof_frame *f, const struct prof_hop *h)
{
	if (b->nr == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 64;
		struct prof_frame *fr = realloc(b->fr, cap * sizeof(*fr));
		struct prof_hop *hp;

		if (!fr)
			return -ENOMEM;
		b->fr = fr;
		hp = realloc(b->hops, cap * sizeof(*hp));
		if (!hp)
			return -ENOMEM;
		b->hops = hp;
		b->cap = cap;
	}
	b->fr[b->nr] = *f;
	b->hops[b->nr++] = *h;
	return 0;
}

static void to_frame(const struct prof_loc *loc, uint64_t addr, struct prof_frame *f)
{
	memset(f, 0, sizeof(*f));
	f->dso = loc->map || loc->dso ? loc->dso : NULL;
	f->sym = f->dso ? loc->sym : NULL;
	f->addr = f->dso ? loc->addr : addr;
	f->ip = addr;
	f->kernel = loc->kernel;
}

/*
 * perf's thread__find_cpumode_addr_location(): a branch address is looked
 * up in user space, then in the kernel's.
 */
static void branch_frame(struct builder *b, uint64_t addr, struct prof_frame *f)
{
	struct prof_loc loc;

	prof_resolve(b->p->m, b->t, false, addr, &loc);
	if (!loc.map) {
		if (addr >> 63) {
			prof_resolve(b->p->m, b->t, true, addr, &loc);
		} else {
			memset(&loc, 0, sizeof(loc));
			loc.addr = loc.ip = addr;
		}
	}
	to_frame(&loc, addr, f);
}

/* A callchain address in the space the context markers say. */
static void chain_frame(struct builder *b, bool kernel, uint64_t addr, struct prof_frame *f)
{
	struct prof_loc loc;

	prof_resolve(b->p->m, kernel ? NULL : b->t, kernel, addr, &loc);
	if (!kernel && !loc.map) {
		memset(&loc, 0, sizeof(loc));
		loc.addr = loc.ip = addr;
	}
	to_frame(&loc, addr, f);
}

/*
 * Word @i of a callchain. A record need not start 8-byte aligned (perf
 * pads no FEATURE record of a pipe file), so the arrays the decoder
 * points into are read with memcpy (sonde/record.h).
 */
static uint64_t ip_at(const uint64_t *ips, int64_t i)
{
	uint64_t v;

	memcpy(&v, (const uint8_t *)ips + i * 8, 8);
	return v;
}

/* perf's find_prev_cpumode(): the marker that rules the entries before @ent. */
static void prev_mode(const uint64_t *ips, int64_t ent, bool *kernel)
{
	while (--ent >= 0) {
		uint64_t ip = ip_at(ips, ent);

		if (ip >= CONTEXT_MAX) {
			if (ip == CONTEXT_KERNEL || ip == CONTEXT_USER)
				*kernel = ip == CONTEXT_KERNEL;
			return;
		}
	}
}

/* The frames in perf's cursor order, then stored for the tree's direction. */
static int build(struct builder *b, const struct sonde_sample *ss, bool has_chain, bool caller,
		 int max_stack)
{
	const struct sonde_perf_branch_entry *entries = ss->branch.entries;
	const uint64_t *ips = has_chain ? ss->callchain.ips : NULL;
	int64_t chain_nr = has_chain ? (int64_t)ss->callchain.nr : 0;
	int first_call = 0, nr = 0;
	bool kernel = false;

	if (entries && ss->branch.nr && ss->branch.nr <= MAX_BRANCH_DEPTH) {
		struct sonde_perf_branch_entry be[MAX_BRANCH_DEPTH];
		struct iters it[MAX_BRANCH_DEPTH];

		nr = (int)ss->branch.nr < max_stack ? (int)ss->branch.nr : max_stack;
		for (int i = 0; i < nr; i++) {
			uint64_t call;

			if (caller) {
				memcpy(&be[i], &entries[ss->branch.nr - (uint64_t)i - 1], sizeof(be[i]));
				continue;
			}
			memcpy(&be[i], &entries[i], sizeof(be[i]));
			/* A return address is a call's source plus its length (< 8). */
			if (!ips || first_call >= chain_nr)
				continue;
			call = ip_at(ips, first_call);
			if (call >= CONTEXT_MAX)
				first_call++;
			else if (be[i].from < call && be[i].from >= call - 8)
				first_call++;
		}
		memset(it, 0, sizeof(it));
		nr = remove_loops(be, nr, it);
		for (int i = 0; i < nr; i++) {
			struct prof_hop h = { .br = be[i], .from = be[i].from, .branch = true };
			struct prof_frame f;

			branch_frame(b, be[i].to, &f);
			if (push(b, &f, &h))
				return -ENOMEM;
			h.from = 0;
			h.iters = it[i].nr;
			h.iter_cycles = it[i].cycles;
			branch_frame(b, be[i].from, &f);
			if (push(b, &f, &h))
				return -ENOMEM;
		}
		if (!chain_nr)
			return 0;
		chain_nr -= nr;
	}
	if (!ips)
		return 0;
	if (caller)
		prev_mode(ips, (int64_t)ss->callchain.nr - first_call, &kernel);
	for (int64_t i = first_call, n = 0; i < chain_nr && n < max_stack; i++) {
		int64_t j = caller ? (int64_t)ss->callchain.nr - i - 1 : i;
		uint64_t ip = ip_at(ips, j);
		struct prof_hop h = { 0 };
		struct prof_frame f;

		if (ip >= CONTEXT_MAX) {
			if (caller)
				prev_mode(ips, j, &kernel);
			else if (ip == CONTEXT_KERNEL || ip == CONTEXT_USER)
				kernel = ip == CONTEXT_KERNEL;
			continue;
		}
		n++;
		chain_frame(b, kernel, ip, &f);
		if (push(b, &f, &h))
			return -ENOMEM;
	}
	return 0;
}

/* ---- the stacks ---- */

static uint64_t chain_hash(const struct prof_chain *k)
{
	uint64_t h = hashtab_mix((uintptr_t)k->proc, ((uint64_t)k->gen << 32) | k->kgen);

	h = hashtab_mix(h, ((uint64_t)k->misc << 48) ^ k->ip);
	return hashtab_mix(h, hashtab_bytes_hash(k->key, k->nr_key * sizeof(*k->key)));
}

static bool chain_eq(const struct prof_chain *a, const struct prof_chain *b)
{
	return a->proc == b->proc && a->gen == b->gen && a->kgen == b->kgen && a->misc == b->misc &&
	       a->ip == b->ip && a->nr_key == b->nr_key &&
	       !memcmp(a->key, b->key, a->nr_key * sizeof(*a->key));
}

/* The sample's branches (and callchain) as words: what its frames depend on. */
static uint64_t *chain_key(const struct sonde_sample *ss, bool has_chain, size_t *nr)
{
	size_t nb = ss->branch.entries ? (size_t)ss->branch.nr * 3 : 0;
	size_t nc = has_chain ? (size_t)ss->callchain.nr : 0;
	uint64_t *k;

	if (nb > 3 * MAX_BRANCH_DEPTH + 3)
		nb = 0; /* corrupted: perf takes no branches from it */
	if (nc > (1u << 20))
		return NULL;
	k = malloc((nb + nc + 2) * sizeof(*k));
	if (!k)
		return NULL;
	k[0] = nb;
	if (nb) /* a sample without a branch stack has no entries pointer */
		memcpy(k + 1, ss->branch.entries, nb * sizeof(*k));
	k[1 + nb] = nc;
	if (nc)
		memcpy(k + 2 + nb, ss->callchain.ips, nc * sizeof(*k));
	*nr = nb + nc + 2;
	return k;
}

struct prof_stack *prof_chain_stack(struct sonde_profile *p, int ei, uint16_t misc,
				   const struct sample_view *s, const struct sonde_record *rec,
				   struct prof_thread **tp)
{
	const struct prof_event *ev = &p->evs[ei];
	bool has_chain = ev->fmt.sample_type & SONDE_PERF_SAMPLE_CALLCHAIN;
	struct prof_thread *t = prof_thread_findnew(p->m, (int32_t)s->pid, (int32_t)s->tid);
	struct prof_chain k = { 0 }, *c;
	struct hashtab_probe probe;
	struct builder b = { .p = p, .t = t };
	struct prof_stack *self;
	int max_stack = p->chain_max_stack;

	*tp = t;
	k.proc = t->proc;
	k.gen = t->proc ? t->proc->gen : 0;
	k.kgen = p->m->kproc ? p->m->kproc->gen : 0;
	k.misc = misc & SONDE_PERF_RECORD_MISC_CPUMODE_MASK;
	k.ip = s->ip;
	k.key = chain_key(&rec->sample, has_chain, &k.nr_key);
	if (!k.key)
		abort(); /* as the groups do on OOM */
	k.hash = chain_hash(&k);
	for (c = hashtab_probe_first(&p->chains, k.hash, &probe); c;
	     c = hashtab_probe_next(&p->chains, &probe))
		if (chain_eq(c, &k)) {
			free(k.key);
			return &c->st;
		}
	c = calloc(1, sizeof(*c));
	/* The sample's own location, for the entry: the stack of its ip. */
	self = prof_sample_stack(p->stacks, p->reader, ev->fmt.sample_type & ~SONDE_PERF_SAMPLE_CALLCHAIN,
				t, misc, s, false);
	if (!c || !self || build(&b, &rec->sample, has_chain, p->caller, max_stack) ||
	    hashtab_insert(&p->chains, k.hash, c))
		abort();
	*c = k;
	c->st.proc = t->proc;
	c->st.self = self->self;
	c->st.nr_frames = (uint32_t)b.nr;
	c->st.frames = b.nr ? malloc(b.nr * sizeof(*b.fr)) : NULL;
	c->hops = b.nr ? malloc(b.nr * sizeof(*b.hops)) : NULL;
	if (b.nr && (!c->st.frames || !c->hops))
		abort();
	/* The tree walks frames from the last in caller order, the first in callee order. */
	for (size_t i = 0; i < b.nr; i++) {
		size_t to = p->caller ? b.nr - 1 - i : i;

		c->st.frames[to] = b.fr[i];
		c->hops[to] = b.hops[i];
	}
	free(b.fr);
	free(b.hops);
	return &c->st;
}

void prof_chains_free(struct sonde_profile *p)
{
	size_t pos = 0;
	struct prof_chain *c;

	while ((c = hashtab_next(&p->chains, &pos))) {
		free(c->st.frames);
		free(c->hops);
		free(c->key);
		free(c);
	}
	hashtab_free(&p->chains);
	free(p->brnodes);
	p->brnodes = NULL;
	p->nr_brnodes = p->cap_brnodes = 0;
}

const struct prof_hop *prof_chain_hops(const struct prof_stack *st)
{
	return ((const struct prof_chain *)st)->hops;
}

/* ---- the trees' counts ---- */

void prof_chain_nodes_reset(struct sonde_profile *p)
{
	p->nr_brnodes = 0;
}

void prof_chain_count(struct sonde_profile *p, struct sonde_profile_node *node,
		      const struct prof_frame *fr, const struct prof_hop *hops, int i, uint64_t nr,
		      bool made)
{
	const struct prof_hop *h = &hops[i];
	uint32_t *br = &p->node_br[node - p->node_v];
	struct prof_brnode *bn;
	struct sonde_profile_node_branch *c;

	if (!*br) {
		if (p->nr_brnodes == p->cap_brnodes) {
			size_t cap = p->cap_brnodes ? p->cap_brnodes * 2 : 1024;
			struct prof_brnode *v = realloc(p->brnodes, cap * sizeof(*v));

			if (!v || cap > UINT32_MAX)
				abort(); /* as the trees do on OOM */
			p->brnodes = v;
			p->cap_brnodes = cap;
		}
		bn = &p->brnodes[p->nr_brnodes++];
		memset(bn, 0, sizeof(*bn));
		bn->addr = fr->addr;
		*br = (uint32_t)p->nr_brnodes;
		node->has_br = 1;
	}
	bn = &p->brnodes[*br - 1];
	c = &bn->c;
	if (!h->branch || !nr)
		return;
	c->branches += nr;
	if (h->from) { /* a target: perf's branch_from is set */
		c->target = true;
		if (h->br.predicted)
			c->predicted += nr;
		if (h->br.abort)
			c->aborts += nr;
		prof_brtype_count(PROF_BRTYPE_CTR(c), &h->br, h->from, fr->ip, nr);
	} else {
		/* fill_node() makes a source's node without counting it in from_count */
		c->target = false;
		c->cycles += nr * h->br.cycles;
		c->iters += nr * h->iters;
		c->iter_cycles += nr * h->iter_cycles;
		c->from_count += made ? nr - 1 : nr;
	}
}

static const struct prof_brnode *brnode(const struct sonde_profile *p,
					const struct sonde_profile_node *n)
{
	uint32_t br;

	if (!p || !n || !p->node_br || n < p->node_v || n >= p->node_v + p->nr_nodes)
		return NULL;
	br = p->node_br[n - p->node_v];
	return br && br <= p->nr_brnodes ? &p->brnodes[br - 1] : NULL;
}

int sonde_profile_node__branch(struct sonde_profile *p, const struct sonde_profile_node *n,
			       struct sonde_profile_node_branch *out)
{
	const struct prof_brnode *bn;

	if (!p || !n || !out)
		return -EINVAL;
	bn = brnode(p, n);
	if (!bn)
		return -ENOENT;
	*out = bn->c;
	return 0;
}

/*
 * perf's callchain_srcline() for an address-keyed node: the line table's
 * answer, else "+offset" into its function (perf shows no name there),
 * else "object[address]".
 */
const char *sonde_profile_node__srcline(struct sonde_profile *p, const struct sonde_profile_node *n)
{
	struct prof_brnode *bn = (struct prof_brnode *)brnode(p, n);
	char buf[256];

	if (!bn || !n->fr || !n->fr->dso)
		return NULL;
	if (bn->srcline_done)
		return bn->srcline;
	bn->srcline_done = true;
	bn->srcline = n->fr->dso->kernel ? NULL : prof_dso_srcline(p->m, n->fr->dso, bn->addr);
	if (bn->srcline)
		return bn->srcline;
	if (n->fr->sym)
		snprintf(buf, sizeof(buf), "+%" PRIu64,
			 prof_dso_vaddr(n->fr->dso, bn->addr) - n->fr->sym->start);
	else
		snprintf(buf, sizeof(buf), "%s[%" PRIx64 "]", n->fr->dso->short_name, bn->addr);
	bn->srcline = prof_intern(p->m, buf, strlen(buf));
	return bn->srcline;
}
