// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde report --branch-stack, as perf 6.1's branch mode prints it: every
 * entry of every sample's branch stack is one count (perf's "pseudo period
 * of 1"), summed by the sort keys (comm, dso_from, dso_to, symbol_from,
 * symbol_to, cycles), in perf's order: count, then each key as perf's
 * sort functions compare it, then first seen. The entries come resolved
 * from the profile (sonde_profile__sample_branches()); this file only
 * sums and prints them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/perfdata_feat.h"
#include "branch_text.h"
#include "report_branch.h"

enum bkey { BK_COMM, BK_DSO_FROM, BK_DSO_TO, BK_SYM_FROM, BK_SYM_TO, BK_CYCLES, BK_MAX };

static const struct {
	const char *name, *title;
} bkeys[BK_MAX] = {
	[BK_COMM] = { "comm", "Command" },
	[BK_DSO_FROM] = { "dso_from", "Source Shared Object" },
	[BK_DSO_TO] = { "dso_to", "Target Shared Object" },
	[BK_SYM_FROM] = { "symbol_from", "Source Symbol" },
	[BK_SYM_TO] = { "symbol_to", "Target Symbol" },
	[BK_CYCLES] = { "cycles", "Basic Block Cycles" },
};

/* perf's width for an address where there is no symbol (or object). */
#define UNRESOLVED_WIDTH 16

/* One end of a branch, what the keys compare and print. */
struct bend {
	const char *dso;  /* short name, NULL outside any map */
	const char *sym;  /* NULL if unresolved */
	uint64_t start;	  /* the function's start (map-relative), with sym */
	uint64_t ip;	  /* the address as recorded */
	uint64_t addr;	  /* map-relative (perf's al_addr), ip outside maps */
	char level;	  /* '.', 'k', or 'H' outside any map */
};

struct bent {
	int ev;
	const char *comm;
	struct bend from, to;
	unsigned cycles;
	uint64_t count;
	size_t seq;
	/* perf keeps an entry's filter verdict from its first branch: a
	 * thread filter hides a row first met in another thread, and counts
	 * every branch of a row it shows. */
	bool hidden;
	/* The first branch summed here: perf's statistics count its flags. */
	struct sonde_perf_branch_entry first;
};

struct report_branch {
	enum bkey keys[BK_MAX];
	int nr_keys;
	bool want[BK_MAX];
	struct bent *ents;
	size_t nr, cap;
	size_t *slots; /* open addressing: index + 1, 0 = empty */
	size_t nr_slots;
	uint64_t *nr_branches; /* per event, in the time and cpu slice */
	int nr_evs;
	struct sonde_record_fmt *fmts;
	bool *fmt_ok;
	int nr_fmts;
	struct sonde_profile_branch *br;
	size_t cap_br;
	/* perf's branch_type_stat */
	uint64_t counts[SONDE_PERF_BR_MAX], new_counts[8];
	uint64_t cond_fwd, cond_bwd, cross_4k, cross_2m;
};

bool report_branch_available(struct sonde_perfdata_reader *r)
{
	return sonde_perfdata_reader__has_feature(r, SONDE_FEAT_BRANCH_STACK);
}

struct report_branch *report_branch_new(const char *sort)
{
	struct report_branch *rb = calloc(1, sizeof(*rb));
	char *copy = strdup(sort ? sort : REPORT_BRANCH_SORT), *tok, *save = NULL;

	if (!rb || !copy) {
		fprintf(stderr, "sonde report: out of memory\n");
		goto fail;
	}
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int k = -1;

		while (*tok == ' ')
			tok++;
		if (!strcmp(tok, "overhead"))
			continue;
		for (int i = 0; i < BK_MAX; i++)
			if (!strcmp(tok, bkeys[i].name))
				k = i;
		if (k < 0) {
			fprintf(stderr, "sonde report: --sort: '%s' is not a branch key (with --branch-stack: comm, dso_from, dso_to, symbol_from, symbol_to, cycles)\n",
				tok);
			goto fail;
		}
		if (!rb->want[k]) {
			rb->want[k] = true;
			rb->keys[rb->nr_keys++] = (enum bkey)k;
		}
	}
	if (!rb->nr_keys) {
		fprintf(stderr, "sonde report: --sort: no keys given\n");
		goto fail;
	}
	free(copy);
	return rb;
fail:
	free(copy);
	free(rb);
	return NULL;
}

void report_branch_free(struct report_branch *rb)
{
	if (!rb)
		return;
	free(rb->ents);
	free(rb->slots);
	free(rb->nr_branches);
	free(rb->fmts);
	free(rb->fmt_ok);
	free(rb->br);
	free(rb);
}

/* ---- perf's comparisons (sort.c): > 0 sorts first ---- */

static int cmp_null(const void *l, const void *r)
{
	if (!l && !r)
		return 0;
	return !l ? -1 : 1;
}

static int cmp_u64_desc(uint64_t l, uint64_t r)
{
	return l < r ? 1 : l > r ? -1 : 0; /* (int64_t)(r - l): lower first */
}

static int cmp_dso(const struct bend *l, const struct bend *r)
{
	int c;

	if (!l->dso || !r->dso)
		return cmp_null(r->dso, l->dso);
	c = strcmp(l->dso, r->dso);
	return c < 0 ? -1 : c > 0;
}

static int cmp_sym(const struct bend *l, const struct bend *r)
{
	if (!l->sym && !r->sym)
		return cmp_u64_desc(l->ip, r->ip);
	if (!l->sym || !r->sym)
		return cmp_null(l->sym, r->sym);
	return cmp_u64_desc(l->start, r->start);
}

static int cmp_key(enum bkey k, const struct bent *l, const struct bent *r)
{
	int c;

	switch (k) {
	case BK_COMM:
		c = strcmp(r->comm, l->comm);
		return c < 0 ? -1 : c > 0;
	case BK_DSO_FROM:
		return cmp_dso(&l->from, &r->from);
	case BK_DSO_TO:
		return cmp_dso(&l->to, &r->to);
	case BK_SYM_FROM:
		return cmp_sym(&l->from, &r->from);
	case BK_SYM_TO:
		return cmp_sym(&l->to, &r->to);
	case BK_CYCLES:
		return l->cycles > r->cycles ? 1 : l->cycles < r->cycles ? -1 : 0;
	default:
		return 0;
	}
}

static bool same_entry(const struct report_branch *rb, const struct bent *a, const struct bent *b)
{
	if (a->ev != b->ev)
		return false;
	for (int i = 0; i < rb->nr_keys; i++)
		if (cmp_key(rb->keys[i], a, b))
			return false;
	return true;
}

/* ---- summing ---- */

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h;
}

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (s && *s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static uint64_t end_hash(const struct bend *e, bool dso, bool sym)
{
	uint64_t h = 0;

	if (dso)
		h = mix(h, str_hash(e->dso));
	if (sym)
		h = mix(h, e->sym ? e->start : ~e->ip);
	return h;
}

static uint64_t entry_hash(const struct report_branch *rb, const struct bent *e)
{
	uint64_t h = mix(0, (uint64_t)e->ev);

	if (rb->want[BK_COMM])
		h = mix(h, str_hash(e->comm));
	h = mix(h, end_hash(&e->from, rb->want[BK_DSO_FROM], rb->want[BK_SYM_FROM]));
	h = mix(h, end_hash(&e->to, rb->want[BK_DSO_TO], rb->want[BK_SYM_TO]));
	if (rb->want[BK_CYCLES])
		h = mix(h, e->cycles);
	return h;
}

static int grow_slots(struct report_branch *rb)
{
	size_t n = rb->nr_slots ? rb->nr_slots * 2 : 1024;
	size_t *v = calloc(n, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < rb->nr; i++) {
		size_t s = (size_t)entry_hash(rb, &rb->ents[i]) & (n - 1);

		while (v[s])
			s = (s + 1) & (n - 1);
		v[s] = i + 1;
	}
	free(rb->slots);
	rb->slots = v;
	rb->nr_slots = n;
	return 0;
}

static struct bent *find_or_add(struct report_branch *rb, const struct bent *k)
{
	size_t s;

	if (2 * (rb->nr + 1) > rb->nr_slots && grow_slots(rb))
		return NULL;
	s = (size_t)entry_hash(rb, k) & (rb->nr_slots - 1);
	while (rb->slots[s]) {
		struct bent *e = &rb->ents[rb->slots[s] - 1];

		if (same_entry(rb, e, k))
			return e;
		s = (s + 1) & (rb->nr_slots - 1);
	}
	if (rb->nr == rb->cap) {
		size_t n = rb->cap ? rb->cap * 2 : 256;
		struct bent *v = realloc(rb->ents, n * sizeof(*v));

		if (!v)
			return NULL;
		rb->ents = v;
		rb->cap = n;
	}
	rb->ents[rb->nr] = *k;
	rb->ents[rb->nr].seq = rb->nr;
	rb->slots[s] = ++rb->nr;
	return &rb->ents[rb->nr - 1];
}

static void set_end(struct bend *b, const struct sonde_profile_frame *fr)
{
	b->dso = sonde_profile_frame__dso_short(fr);
	b->sym = sonde_profile_frame__sym(fr);
	b->ip = sonde_profile_frame__ip(fr);
	b->addr = b->dso ? sonde_profile_frame__addr(fr) : b->ip;
	b->start = b->sym ? b->addr - sonde_profile_frame__sym_offset(fr) : 0;
	if (!b->dso)
		b->level = 'H';
	else
		b->level = (sonde_profile_frame__kind(fr) & SONDE_PROFILE_FRAME_KERNEL) ? 'k' : '.';
}

/* perf's branch_type_count(), on the flags of the entry's first branch. */
static void count_type(struct report_branch *rb, const struct sonde_perf_branch_entry *f)
{
	uint64_t from = f->from, to = f->to;

	if (f->type == SONDE_PERF_BR_UNKNOWN || !from)
		return;
	if (f->type == SONDE_PERF_BR_EXTEND_ABI)
		rb->new_counts[f->new_type & 7]++;
	else
		rb->counts[f->type]++;
	if (f->type == SONDE_PERF_BR_COND) {
		if (to > from)
			rb->cond_fwd++;
		else
			rb->cond_bwd++;
	}
	if ((from & ~(uint64_t)0x1fffff) != (to & ~(uint64_t)0x1fffff))
		rb->cross_2m++;
	else if ((from & ~(uint64_t)0xfff) != (to & ~(uint64_t)0xfff))
		rb->cross_4k++;
}

static const struct sonde_record_fmt *event_fmt(struct report_branch *rb,
						struct sonde_perfdata_reader *r, int i)
{
	int n = sonde_perfdata_reader__nr_attrs(r);

	if (i < 0 || i >= n)
		return NULL;
	if (n > rb->nr_fmts) {
		struct sonde_record_fmt *v = realloc(rb->fmts, (size_t)n * sizeof(*v));
		bool *ok;

		if (v)
			rb->fmts = v;
		ok = realloc(rb->fmt_ok, (size_t)n * sizeof(*ok));
		if (ok)
			rb->fmt_ok = ok;
		if (!v || !ok)
			return NULL;
		for (int k = rb->nr_fmts; k < n; k++)
			rb->fmt_ok[k] = !sonde_record_fmt__from_attr(&rb->fmts[k],
						sonde_perfdata_reader__attr(r, k));
		rb->nr_fmts = n;
	}
	return rb->fmt_ok[i] ? &rb->fmts[i] : NULL;
}

static bool int_in(const int32_t *v, size_t n, int32_t x)
{
	if (!n)
		return true;
	for (size_t i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

static bool str_in(char *const *v, size_t n, const char *s)
{
	if (!n)
		return true;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return true;
	return false;
}

/*
 * Like perf: the time and cpu slice drops samples, the comm, pid and tid
 * filters only hide entries (the totals and statistics keep them).
 */
static bool in_slice(const struct report *rp, const struct sonde_perf_event_attr *a,
		     const struct sonde_sample *s)
{
	return slice_keep(&rp->ld.f.slice, (a->sample_type & SONDE_PERF_SAMPLE_TIME) ? s->time : 0,
			  (a->sample_type & SONDE_PERF_SAMPLE_CPU) ? s->cpu : (uint32_t)-1);
}

static bool shown(const struct report *rp, const struct sonde_perf_event_attr *a,
		  const struct sonde_sample *s, const char *comm)
{
	bool tid = a->sample_type & SONDE_PERF_SAMPLE_TID;

	const struct prof_filters *f = &rp->ld.f;

	return int_in(f->pids, f->nr_pids, tid ? (int32_t)s->pid : -1) &&
	       int_in(f->tids, f->nr_tids, tid ? (int32_t)s->tid : -1) &&
	       str_in(f->comms, f->nr_comms, comm);
}

void report_branch_add(struct report_branch *rb, struct report *rp,
		       const struct sonde_perfdata_record *rec)
{
	int ai = rec->attr_idx >= 0 ? rec->attr_idx : 0;
	const struct sonde_perf_event_attr *a = sonde_perfdata_reader__attr(rp->r, ai);
	const struct sonde_record_fmt *fmt;
	struct sonde_record d;
	const char *comm;
	bool show;
	int n;

	if (rec->type != SONDE_PERF_RECORD_SAMPLE || !a)
		return;
	fmt = event_fmt(rb, rp->r, ai);
	if (!fmt || sonde_record__decode(fmt, rec->hdr, rec->size, &d) ||
	    d.type != SONDE_PERF_RECORD_SAMPLE)
		return;
	if (!in_slice(rp, a, &d.sample))
		return;
	comm = sonde_profile__sample_comm(rp->prof, (int32_t)d.sample.pid, (int32_t)d.sample.tid);
	show = shown(rp, a, &d.sample, comm);
	n = sonde_profile__sample_branches(rp->prof, ai, &d, rb->br, rb->cap_br);
	if (n > 0 && (size_t)n > rb->cap_br) {
		struct sonde_profile_branch *v = realloc(rb->br, (size_t)n * sizeof(*v));

		if (!v)
			return;
		rb->br = v;
		rb->cap_br = (size_t)n;
		n = sonde_profile__sample_branches(rp->prof, ai, &d, rb->br, rb->cap_br);
	}
	if (n <= 0)
		return;
	if (ai >= rb->nr_evs) {
		uint64_t *v = realloc(rb->nr_branches, (size_t)(ai + 1) * sizeof(*v));

		if (!v)
			return;
		memset(v + rb->nr_evs, 0, (size_t)(ai + 1 - rb->nr_evs) * sizeof(*v));
		rb->nr_branches = v;
		rb->nr_evs = ai + 1;
	}
	for (int i = 0; i < n; i++) {
		struct bent k = { .ev = ai, .comm = comm, .cycles = rb->br[i].entry.cycles };
		struct bent *e;

		set_end(&k.from, rb->br[i].from);
		set_end(&k.to, rb->br[i].to);
		k.first = rb->br[i].entry;
		k.hidden = !show;
		e = find_or_add(rb, &k);
		if (!e)
			return;
		e->count++;
		rb->nr_branches[ai]++;
		count_type(rb, &e->first);
	}
}

/* ---- printing ---- */

static int cmp_output(const void *pa, const void *pb, void *arg)
{
	const struct bent *a = *(const struct bent *const *)pa, *b = *(const struct bent *const *)pb;
	const struct report_branch *rb = arg;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	for (int i = 0; i < rb->nr_keys; i++) {
		int c = cmp_key(rb->keys[i], a, b);

		if (c)
			return -c;
	}
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static void sym_cell(const struct bend *b, char *buf, size_t sz)
{
	if (b->sym)
		snprintf(buf, sz, "[%c] %s", b->level, b->sym);
	else /* perf's %#.16llx: no 0x for 0 */
		snprintf(buf, sz, "[%c] %s%016" PRIx64, b->level, b->addr ? "0x" : "", b->addr);
}

static void cell(const struct bent *e, enum bkey k, char *buf, size_t sz)
{
	switch (k) {
	case BK_COMM:
		snprintf(buf, sz, "%s", e->comm);
		break;
	case BK_DSO_FROM:
	case BK_DSO_TO: {
		const struct bend *b = k == BK_DSO_FROM ? &e->from : &e->to;

		snprintf(buf, sz, "%s", b->dso ? b->dso : "[unknown]");
		break;
	}
	case BK_SYM_FROM:
		sym_cell(&e->from, buf, sz);
		break;
	case BK_SYM_TO:
		sym_cell(&e->to, buf, sz);
		break;
	case BK_CYCLES:
		if (e->cycles) /* perf's %hd */
			snprintf(buf, sz, "%d", (int)(int16_t)e->cycles);
		else
			snprintf(buf, sz, "-");
		break;
	default:
		buf[0] = 0;
	}
}

/*
 * perf's hists__calc_col_len(): a symbol's column is its name plus "[x] ";
 * an end without a symbol makes room for an address (16 + "[x] 0x") and
 * its object column at least 16 wide, whatever the object's name.
 */
static int cell_width(const struct bent *e, enum bkey k)
{
	const struct bend *b = (k == BK_DSO_FROM || k == BK_SYM_FROM) ? &e->from : &e->to;
	char buf[4096];

	switch (k) {
	case BK_DSO_FROM:
	case BK_DSO_TO:
		return b->sym ? (int)strlen(b->dso ? b->dso : "[unknown]") : UNRESOLVED_WIDTH;
	case BK_SYM_FROM:
	case BK_SYM_TO:
		return b->sym ? (int)strlen(b->sym) + 4 : UNRESOLVED_WIDTH + 6;
	case BK_COMM:
		cell(e, k, buf, sizeof(buf));
		return (int)strlen(buf);
	default:
		return 0;
	}
}

static void print_event(struct report_branch *rb, struct report *rp, int ev)
{
	struct outbuf *o = &rp->out;
	uint64_t total = ev < rb->nr_evs ? rb->nr_branches[ev] : 0, shown = 0;
	/* Like perf: a key filtered to one value moves above the table. */
	bool elide_comm = rp->ld.f.nr_comms == 1 && rb->want[BK_COMM];
	const struct bent **v;
	int width[BK_MAX];
	size_t n = 0;
	char buf[4096];

	v = malloc((rb->nr ? rb->nr : 1) * sizeof(*v));
	if (!v)
		return;
	for (size_t i = 0; i < rb->nr; i++)
		if (rb->ents[i].ev == ev && !rb->ents[i].hidden) {
			v[n++] = &rb->ents[i];
			shown += rb->ents[i].count;
		}
	qsort_r(v, n, sizeof(*v), cmp_output, rb);
	/* --percentage relative: of what the filters show, header included */
	if (rp->relative)
		total = shown;
	{
		unsigned long nr = (unsigned long)total;
		char unit = ' ';

		for (int i = 0; i < 3 && nr > 1000; i++) {
			nr /= 1000;
			unit = "KMG"[i];
		}
		ob_printf(o, "# Samples: %lu%c of event '%s'", nr, unit,
			  sonde_perfdata_reader__event_name(rp->r, ev));
		if (rp->ld.time)
			ob_printf(o, " (time slices: %s)", rp->ld.time);
		ob_putc(o, '\n');
	}
	ob_printf(o, "# Event count (approx.): %" PRIu64 "\n#\n", total);
	for (int i = 0; i < rb->nr_keys; i++) {
		width[i] = (int)strlen(bkeys[rb->keys[i]].title);
		for (size_t j = 0; j < n; j++) {
			int w = cell_width(v[j], rb->keys[i]);

			if (w > width[i])
				width[i] = w;
		}
	}
	ob_printf(o, "# %8s", "Overhead");
	for (int i = 0; i < rb->nr_keys; i++)
		if (!(elide_comm && rb->keys[i] == BK_COMM))
			ob_printf(o, "  %-*s", width[i], bkeys[rb->keys[i]].title);
	ob_puts(o, "\n# ........");
	for (int i = 0; i < rb->nr_keys; i++) {
		if (elide_comm && rb->keys[i] == BK_COMM)
			continue;
		ob_puts(o, "  ");
		for (int k = 0; k < width[i]; k++)
			ob_putc(o, '.');
	}
	ob_puts(o, "\n#\n");
	for (size_t j = 0; j < n; j++) {
		double pct = total ? (double)v[j]->count * 100.0 / (double)total : 0;

		if (rp->percent_limit > 0 && pct < rp->percent_limit)
			continue;
		ob_printf(o, "  %7.2f%%", pct);
		for (int i = 0; i < rb->nr_keys; i++) {
			enum bkey k = rb->keys[i];

			if (elide_comm && k == BK_COMM)
				continue;
			cell(v[j], k, buf, sizeof(buf));
			/* perf pads every column but a last symbol one, and cuts
			 * an object name to its column. */
			if (i + 1 == rb->nr_keys && (k == BK_SYM_FROM || k == BK_SYM_TO))
				ob_printf(o, "  %s", buf);
			else if (k == BK_DSO_FROM || k == BK_DSO_TO)
				ob_printf(o, "  %-*.*s", width[i], width[i], buf);
			else
				ob_printf(o, "  %-*s", width[i], buf);
		}
		ob_putc(o, '\n');
		if (o->err)
			break;
	}
	ob_puts(o, "\n\n");
	free(v);
}

/* perf's branch_type_stat_display(): no newline after the last line. */
static void print_type_stats(struct report_branch *rb, struct outbuf *o)
{
	uint64_t total = 0;

	for (int i = 0; i < SONDE_PERF_BR_MAX; i++)
		total += rb->counts[i];
	if (!total)
		return;
	ob_puts(o, "\n#\n# Branch Statistics:\n#");
#define STAT(name, v) \
	if (v) \
		ob_printf(o, "\n%8s: %5.1f%%", name, 100.0 * (double)(v) / (double)total)
	STAT("COND_FWD", rb->cond_fwd);
	STAT("COND_BWD", rb->cond_bwd);
	STAT("CROSS_4K", rb->cross_4k);
	STAT("CROSS_2M", rb->cross_2m);
	for (unsigned i = 0; i < SONDE_PERF_BR_MAX; i++)
		STAT(branch_type_name(i), rb->counts[i]);
	for (unsigned i = 0; i < 8; i++) {
		struct sonde_perf_branch_entry e = { .type = SONDE_PERF_BR_EXTEND_ABI, .new_type = i };

		STAT(branch_entry_type(&e), rb->new_counts[i]);
	}
#undef STAT
}

void report_branch_print(struct report_branch *rb, struct report *rp)
{
	uint64_t lost_samples;

	if (!rp->header)
		ob_puts(&rp->out, "# To display the perf.data header info, please use --header/--header-only options.\n#\n");
	sonde_profile__lost(rp->prof, NULL, NULL, &lost_samples);
	if (rp->ld.f.nr_comms == 1 && rb->want[BK_COMM])
		ob_printf(&rp->out, "# comm: %s\n", rp->ld.f.comms[0]);
	ob_printf(&rp->out, "#\n# Total Lost Samples: %" PRIu64 "\n#\n", lost_samples);
	for (int ev = 0; ev < rb->nr_evs; ev++)
		if (rb->nr_branches[ev])
			print_event(rb, rp, ev);
	print_type_stats(rb, &rp->out);
}
