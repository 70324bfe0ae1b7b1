// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The histogram of branches (opts.branches), perf report's branch mode:
 * every entry of every sample's branch stack counts 1, in rows summed by
 * the branch keys. perf keeps such rows in red-black trees and compares
 * them with its sort functions, some of which (mispredict, in_tx, abort)
 * are not an order: which rows merge and in which order they print then
 * depend on the trees' shapes. So the rows go through the same three
 * trees perf uses (rows as branches arrive, the collapse when a key has a
 * collapse function, the output order), with perf's comparisons in
 * perf's argument order, and come out as perf's do.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "profile_priv.h"

struct sonde_profile_branch_entry {
	struct prof_rb in;  /* the event's rows as branches arrive */
	struct prof_rb out; /* the collapse tree, then the output tree */
	struct prof_frame from, to;
	struct sonde_profile_branch br; /* the first branch: frames above, flags */
	const char *comm;
	const char *srcline[2]; /* from, to: with those keys */
	uint64_t count;		/* branches that reached this row */
	uint64_t total;		/* after the collapse: with the rows merged in */
	bool hidden;		/* first met in a thread the filters hide */
	bool kernel;		/* its first sample ran in the kernel */
};

typedef struct sonde_profile_branch_entry brow_t;

#define ROW_BLOCK 1024

struct brow_block {
	struct brow_block *prev;
	size_t used;
	brow_t v[ROW_BLOCK];
};

struct prof_brev {
	struct prof_rb_root in;
	struct sonde_profile_branch_stats stats;
	brow_t **rows; /* shown rows in output order, NULL until queried */
	size_t nr_rows;
};

struct prof_brhist {
	enum sonde_profile_key keys[SONDE_PROFILE_KEY_MAX];
	int nr_keys;
	bool want[SONDE_PROFILE_KEY_MAX];
	bool collapse; /* a key with a collapse function (comm), as perf's need_collapse */
	struct prof_brev *evs;
	int nr_evs;
	struct brow_block *blocks;
	struct sonde_profile_branch *buf; /* one sample's branches */
	size_t cap_buf;
};

int prof_brhist_new(struct sonde_profile *p, const enum sonde_profile_key *keys, size_t nr)
{
	static const enum sonde_profile_key def[] = {
		SONDE_PROFILE_KEY_COMM, SONDE_PROFILE_KEY_DSO_FROM, SONDE_PROFILE_KEY_SYM_FROM,
		SONDE_PROFILE_KEY_SYM_TO, SONDE_PROFILE_KEY_CYCLES,
	};
	struct prof_brhist *h;

	if (!keys || !nr) {
		keys = def;
		nr = sizeof(def) / sizeof(def[0]);
	}
	for (size_t i = 0; i < nr; i++)
		if ((unsigned)keys[i] > SONDE_PROFILE_KEY_BRANCH_LAST ||
		    (keys[i] < SONDE_PROFILE_KEY_BRANCH_FIRST && keys[i] != SONDE_PROFILE_KEY_COMM)) {
			errno = EINVAL;
			return -1;
		}
	h = calloc(1, sizeof(*h));
	if (!h) {
		errno = ENOMEM;
		return -1;
	}
	for (size_t i = 0; i < nr; i++)
		if (!h->want[keys[i]]) {
			h->want[keys[i]] = true;
			h->keys[h->nr_keys++] = keys[i];
		}
	h->collapse = h->want[SONDE_PROFILE_KEY_COMM];
	p->brhist = h;
	return 0;
}

void prof_brhist_free(struct sonde_profile *p)
{
	struct prof_brhist *h = p->brhist;

	if (!h)
		return;
	while (h->blocks) {
		struct brow_block *b = h->blocks;

		h->blocks = b->prev;
		free(b);
	}
	for (int i = 0; i < h->nr_evs; i++)
		free(h->evs[i].rows);
	free(h->evs);
	free(h->buf);
	free(h);
	p->brhist = NULL;
}

/*
 * perf's srcline of a branch end (map__srcline()): the line table's
 * answer, else the function and the offset of the object-relative address
 * from its start, else the object and that address; "??:0" outside any
 * object.
 */
static const char *end_srcline(struct sonde_profile *p, const struct prof_frame *f)
{
	const char *sl;
	char buf[512];

	if (!f->dso)
		return "??:0";
	sl = f->dso->kernel ? NULL : prof_dso_srcline(p->m, f->dso, f->addr);
	if (sl)
		return sl;
	if (f->sym)
		snprintf(buf, sizeof(buf), "%s+%" PRIu64, f->sym->name, f->addr - f->sym->start);
	else
		snprintf(buf, sizeof(buf), "%s[%" PRIx64 "]", f->dso->short_name, f->addr);
	return prof_intern(p->m, buf, strlen(buf));
}

/* ---- perf's comparisons (sort.c), (left, right) as perf passes them ---- */

/* perf subtracts addresses: the sign of the wrapped difference. */
static int64_t addr_cmp(uint64_t l, uint64_t r)
{
	return (int64_t)(r - l);
}

static int64_t str_cmp(const char *l, const char *r)
{
	return strcmp(l, r);
}

static int64_t dso_cmp(const struct prof_frame *l, const struct prof_frame *r)
{
	if (!l->dso || !r->dso)
		return prof_cmp_null(r->dso, l->dso);
	/* Short names are interned: one pointer per name. */
	if (l->dso->short_key == r->dso->short_key)
		return 0;
	return str_cmp(l->dso->short_name, r->dso->short_name);
}

/*
 * perf finds a row's srclines when a comparison first needs them, and
 * prints "(null)" for one no comparison reached: so do we.
 */
static const char *row_srcline(struct sonde_profile *p, brow_t *e, bool to)
{
	if (!e->srcline[to])
		e->srcline[to] = end_srcline(p, to ? &e->to : &e->from);
	return e->srcline[to];
}

/* Inlined into row_cmp(): a lookup makes a dozen compares per branch. */
static inline __attribute__((always_inline)) int64_t key_cmp(struct sonde_profile *p,
							     enum sonde_profile_key k, brow_t *l,
							     brow_t *r)
{
	const struct sonde_perf_branch_entry *fl = &l->br.entry, *fr = &r->br.entry;
	bool to = false;

	switch (k) {
	case SONDE_PROFILE_KEY_COMM: /* interned */
		return r->comm == l->comm ? 0 : str_cmp(r->comm, l->comm);
	case SONDE_PROFILE_KEY_DSO_TO:
		to = true;
		/* fallthrough */
	case SONDE_PROFILE_KEY_DSO_FROM:
		return dso_cmp(to ? &l->to : &l->from, to ? &r->to : &r->from);
	case SONDE_PROFILE_KEY_SYM_TO:
		to = true;
		/* fallthrough */
	case SONDE_PROFILE_KEY_SYM_FROM: {
		const struct prof_frame *a = to ? &l->to : &l->from, *b = to ? &r->to : &r->from;

		if (!a->sym && !b->sym)
			return addr_cmp(a->ip, b->ip);
		return prof_sym_cmp(a->sym, b->sym);
	}
	case SONDE_PROFILE_KEY_SRCLINE_TO:
		to = true;
		/* fallthrough */
	case SONDE_PROFILE_KEY_SRCLINE_FROM:
		return str_cmp(row_srcline(p, r, to), row_srcline(p, l, to));
	case SONDE_PROFILE_KEY_ADDR_TO:
		to = true;
		/* fallthrough */
	case SONDE_PROFILE_KEY_ADDR_FROM: {
		const struct prof_frame *a = to ? &l->to : &l->from, *b = to ? &r->to : &r->from;
		int64_t c = dso_cmp(a, b);

		return c ? c : addr_cmp(a->ip, b->ip);
	}
	case SONDE_PROFILE_KEY_CYCLES:
		return (int64_t)fl->cycles - (int64_t)fr->cycles;
	/* These three say "differs", never which way: not an order. */
	case SONDE_PROFILE_KEY_MISPREDICT:
		return fl->mispred != fr->mispred || fl->predicted != fr->predicted;
	case SONDE_PROFILE_KEY_IN_TX:
		return fl->in_tx != fr->in_tx;
	case SONDE_PROFILE_KEY_ABORT:
		return fl->abort != fr->abort;
	default:
		return 0;
	}
}

static int64_t row_cmp(struct sonde_profile *p, brow_t *l, brow_t *r)
{
	const struct prof_brhist *h = p->brhist;

	for (int i = 0; i < h->nr_keys; i++) {
		int64_t c = key_cmp(p, h->keys[i], l, r);

		if (c)
			return c;
	}
	return 0;
}

/* ---- adding branches ---- */

static struct prof_brev *brev(struct prof_brhist *h, int ei)
{
	if (ei >= h->nr_evs) {
		struct prof_brev *v = realloc(h->evs, (size_t)(ei + 1) * sizeof(*v));

		if (!v)
			return NULL;
		memset(v + h->nr_evs, 0, (size_t)(ei + 1 - h->nr_evs) * sizeof(*v));
		h->evs = v;
		h->nr_evs = ei + 1;
	}
	return &h->evs[ei];
}

static brow_t *row_new(struct prof_brhist *h, const brow_t *k)
{
	brow_t *e;

	if (!h->blocks || h->blocks->used == ROW_BLOCK) {
		struct brow_block *b = malloc(sizeof(*b));

		if (!b)
			return NULL;
		b->prev = h->blocks;
		b->used = 0;
		h->blocks = b;
	}
	e = &h->blocks->v[h->blocks->used++];
	*e = *k;
	e->br.from = (const struct sonde_profile_frame *)&e->from;
	e->br.to = (const struct sonde_profile_frame *)&e->to;
	return e;
}

/* perf's hists__findnew_entry(): a row the keys call equal on the way down, or a new one. */
static brow_t *row_findnew(struct sonde_profile *p, struct prof_brev *ev, brow_t *k)
{
	struct prof_rb **link = &ev->in.top, *parent = NULL;
	brow_t *e;

	while (*link) {
		int64_t c;

		parent = *link;
		e = (brow_t *)((char *)parent - offsetof(brow_t, in));
		c = row_cmp(p, e, k);
		if (!c)
			return e;
		link = c < 0 ? &parent->left : &parent->right;
	}
	e = row_new(p->brhist, k);
	if (e)
		prof_rb_insert(&ev->in, &e->in, parent, link);
	return e;
}

/*
 * perf's branch_type_count(): branch @f from @from to @to, @n times, into
 * an event's branch stats or a branch tree node's counts (the same
 * counters in two public structs).
 */
void prof_brtype_count(struct prof_brtype_ctr c, const struct sonde_perf_branch_entry *f,
		       uint64_t from, uint64_t to, uint64_t n)
{
	if (f->type == SONDE_PERF_BR_UNKNOWN || !from)
		return;
	if (f->type == SONDE_PERF_BR_EXTEND_ABI)
		c.new_types[f->new_type & 7] += n;
	else
		c.types[f->type] += n;
	if (f->type == SONDE_PERF_BR_COND) {
		if (to > from)
			*c.cond_fwd += n;
		else
			*c.cond_bwd += n;
	}
	if ((from & ~(uint64_t)0x1fffff) != (to & ~(uint64_t)0x1fffff))
		*c.cross_2m += n;
	else if ((from & ~(uint64_t)0xfff) != (to & ~(uint64_t)0xfff))
		*c.cross_4k += n;
}

int prof_brhist_add(struct sonde_profile *p, int ei, const struct sonde_record *rec)
{
	struct prof_brhist *h = p->brhist;
	const struct prof_event *pev = &p->evs[ei];
	const struct sonde_sample *ss = &rec->sample;
	uint64_t type = pev->fmt.sample_type;
	struct prof_brev *ev;
	brow_t k;
	int n;

	if (!prof_in_slice(p, (type & SONDE_PERF_SAMPLE_TIME) ? ss->time : 0,
			   (type & SONDE_PERF_SAMPLE_CPU) ? ss->cpu : (uint32_t)-1))
		return 0;
	p->evs[ei].stats.samples++;
	p->evs[ei].stats.period += (type & SONDE_PERF_SAMPLE_PERIOD) ? ss->period : 0;
	n = sonde_profile__sample_branches(p, ei, rec, h->buf, h->cap_buf);
	if (n > 0 && (size_t)n > h->cap_buf) {
		struct sonde_profile_branch *v = realloc(h->buf, (size_t)n * sizeof(*v));

		if (!v)
			return -ENOMEM;
		h->buf = v;
		h->cap_buf = (size_t)n;
		n = sonde_profile__sample_branches(p, ei, rec, h->buf, h->cap_buf);
	}
	if (n <= 0)
		return n < 0 ? n : 1;
	ev = brev(h, ei);
	if (!ev)
		return -ENOMEM;
	memset(&k, 0, sizeof(k));
	k.comm = sonde_profile__sample_comm(p, (int32_t)ss->pid, (int32_t)ss->tid);
	k.kernel = (rec->misc & SONDE_PERF_RECORD_MISC_CPUMODE_MASK) == SONDE_PERF_RECORD_MISC_KERNEL;
	k.hidden = (type & SONDE_PERF_SAMPLE_TID)
			   ? !prof_thread_shown(p, (int32_t)ss->pid, (int32_t)ss->tid, k.comm)
			   : !prof_thread_shown(p, -1, -1, k.comm);
	for (int i = 0; i < n; i++) {
		brow_t *e;

		k.from = *(const struct prof_frame *)h->buf[i].from;
		k.to = *(const struct prof_frame *)h->buf[i].to;
		k.br.entry = h->buf[i].entry;
		k.srcline[0] = k.srcline[1] = NULL;
		e = row_findnew(p, ev, &k);
		if (!e)
			return -ENOMEM;
		e->count++;
		ev->stats.branches++;
		/* on the flags of the row's first branch, as perf counts */
		prof_brtype_count(PROF_BRTYPE_CTR(&ev->stats), &e->br.entry,
				  e->br.entry.from, e->br.entry.to, 1);
		free(ev->rows); /* the order is made again at the next query */
		ev->rows = NULL;
	}
	return 1;
}

/* ---- the rows out ---- */

static brow_t *out_row(struct prof_rb *n)
{
	return (brow_t *)((char *)n - offsetof(brow_t, out));
}

/* The rows of @t in order into @v (room for all); their count. */
static size_t walk(const struct prof_rb_root *t, size_t off, brow_t **v)
{
	size_t n = 0;

	for (struct prof_rb *x = prof_rb_first(t); x; x = prof_rb_next(x))
		v[n++] = (brow_t *)((char *)x - off);
	return n;
}

/* perf's hists__collapse_insert_entry(): merged into an equal row, or inserted. */
static void collapse_insert(struct sonde_profile *p, struct prof_rb_root *t, brow_t *e)
{
	struct prof_rb **link = &t->top, *parent = NULL;

	while (*link) {
		brow_t *x = out_row(*link);
		int64_t c;

		parent = *link;
		c = row_cmp(p, x, e);
		if (!c) {
			x->total += e->total;
			return;
		}
		link = c < 0 ? &parent->left : &parent->right;
	}
	prof_rb_insert(t, &e->out, parent, link);
}

/* perf's hist_entry__sort(): the count, then the keys, (new, old) as perf passes them. */
static int64_t sort_cmp(struct sonde_profile *p, brow_t *a, brow_t *b)
{
	if (a->total != b->total)
		return a->total > b->total ? 1 : -1;
	return row_cmp(p, a, b);
}

static void output_insert(struct sonde_profile *p, struct prof_rb_root *t, brow_t *e)
{
	struct prof_rb **link = &t->top, *parent = NULL;

	while (*link) {
		parent = *link;
		link = sort_cmp(p, e, out_row(parent)) > 0 ? &parent->left : &parent->right;
	}
	prof_rb_insert(t, &e->out, parent, link);
}

static struct prof_brev *built_event(struct sonde_profile *p, int ei)
{
	struct prof_brhist *h = p ? p->brhist : NULL;
	struct prof_brev *ev;
	struct prof_rb_root t = { NULL };
	brow_t **v;
	size_t n = 0;

	if (!h || ei < 0 || ei >= h->nr_evs)
		return NULL;
	ev = &h->evs[ei];
	if (ev->rows)
		return ev;
	/* Every row, once: sized by what the blocks hold. */
	for (struct brow_block *b = h->blocks; b; b = b->prev)
		n += b->used;
	v = malloc((n + 1) * sizeof(*v));
	if (!v)
		return NULL;
	n = walk(&ev->in, offsetof(brow_t, in), v);
	for (size_t i = 0; i < n; i++)
		v[i]->total = v[i]->count;
	if (h->collapse) {
		for (size_t i = 0; i < n; i++)
			collapse_insert(p, &t, v[i]);
		n = walk(&t, offsetof(brow_t, out), v);
		t.top = NULL;
	}
	for (size_t i = 0; i < n; i++)
		output_insert(p, &t, v[i]);
	n = walk(&t, offsetof(brow_t, out), v);
	ev->stats.shown_branches = 0;
	ev->nr_rows = 0;
	for (size_t i = 0; i < n; i++)
		if (!v[i]->hidden) {
			ev->stats.shown_branches += v[i]->total;
			v[ev->nr_rows++] = v[i];
		}
	ev->rows = v;
	return ev;
}

int sonde_profile__branch_stats(struct sonde_profile *p, int ev,
				struct sonde_profile_branch_stats *out)
{
	struct prof_brev *e;

	if (!p || !out || ev < 0 || ev >= p->nr_evs)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	e = built_event(p, ev);
	if (e)
		*out = e->stats;
	return 0;
}

size_t sonde_profile__nr_branch_entries(struct sonde_profile *p, int ev)
{
	struct prof_brev *e = built_event(p, ev);

	return e ? e->nr_rows : 0;
}

const struct sonde_profile_branch_entry *sonde_profile__branch_entry(struct sonde_profile *p,
								    int ev, size_t i)
{
	struct prof_brev *e = built_event(p, ev);

	return e && i < e->nr_rows ? e->rows[i] : NULL;
}

uint64_t sonde_profile_branch_entry__count(const struct sonde_profile_branch_entry *e)
{
	return e->total;
}

const struct sonde_profile_branch *
sonde_profile_branch_entry__branch(const struct sonde_profile_branch_entry *e)
{
	return &e->br;
}

bool sonde_profile_branch_entry__kernel(const struct sonde_profile_branch_entry *e)
{
	return e->kernel;
}

const char *sonde_profile_branch_entry__comm(const struct sonde_profile_branch_entry *e)
{
	return e->comm;
}

const char *sonde_profile_branch_entry__srcline(const struct sonde_profile_branch_entry *e, bool to)
{
	return e->srcline[to];
}
