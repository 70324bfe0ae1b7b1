// SPDX-License-Identifier: LGPL-2.1-only
/*
 * struct sonde_profile: options, filters, events, and records in. Samples
 * are resolved into hash-consed stacks (profile_resolve.c) and summed into
 * groups here; profile_hist.c makes the histogram from the groups.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "core_priv.h"
#include "perfdata_priv.h"
#include "profile_priv.h"

#define PROF_MAX_CPUS 4096

#define K(name) SONDE_PROFILE_KEY_##name

/*
 * perf 6.1's sort names in the order of its tables (sort.c: the usual
 * keys, the output columns, the branch keys, the memory keys), which is
 * the order a shortened name is looked up in. -1: a column of perf's
 * that is no key here (a name that reaches it first is refused).
 */
static const struct {
	const char *name;
	int key;
} perf_keys[] = {
	{ "pid", K(PID) }, { "comm", K(COMM) }, { "dso", K(DSO) }, { "symbol", K(SYM) },
	{ "parent", K(PARENT) }, { "cpu", K(CPU) }, { "socket", K(SOCKET) },
	{ "srcline", K(SRCLINE) }, { "srcfile", K(SRCFILE) },
	{ "local_weight", K(LOCAL_WEIGHT) }, { "weight", K(WEIGHT) },
	{ "transaction", K(TRANSACTION) }, { "trace", K(TRACE) },
	{ "symbol_size", K(SYM_SIZE) }, { "dso_size", K(DSO_SIZE) }, { "cgroup", K(CGROUP) },
	{ "cgroup_id", K(CGROUP_ID) }, { "ipc_null", K(IPC_NULL) }, { "time", K(TIME) },
	{ "code_page_size", K(CODE_PAGE_SIZE) }, { "local_ins_lat", K(LOCAL_INS_LAT) },
	{ "ins_lat", K(INS_LAT) }, { "local_p_stage_cyc", K(LOCAL_P_STAGE_CYC) },
	{ "p_stage_cyc", K(P_STAGE_CYC) }, { "addr", K(ADDR) },
	{ "overhead", -1 }, { "overhead_sys", -1 }, { "overhead_us", -1 },
	{ "overhead_guest_sys", -1 }, { "overhead_guest_us", -1 }, { "overhead_children", -1 },
	{ "sample", -1 }, { "period", -1 },
	{ "dso_from", K(DSO_FROM) }, { "dso_to", K(DSO_TO) }, { "symbol_from", K(SYM_FROM) },
	{ "symbol_to", K(SYM_TO) }, { "mispredict", K(MISPREDICT) }, { "in_tx", K(IN_TX) },
	{ "abort", K(ABORT) }, { "cycles", K(CYCLES) }, { "srcline_from", K(SRCLINE_FROM) },
	{ "srcline_to", K(SRCLINE_TO) }, { "ipc_lbr", -1 }, { "addr_from", K(ADDR_FROM) },
	{ "addr_to", K(ADDR_TO) },
	{ "symbol_daddr", K(SYM_DADDR) }, { "symbol_iaddr", K(SYM_IADDR) },
	{ "dso_daddr", K(DSO_DADDR) }, { "locked", K(LOCKED) }, { "tlb", K(TLB) },
	{ "mem", K(MEM) }, { "snoop", K(SNOOP) }, { "dcacheline", K(DCACHELINE) },
	{ "phys_daddr", K(PHYS_DADDR) }, { "data_page_size", K(DATA_PAGE_SIZE) },
	{ "blocked", K(BLOCKED) },
};

int sonde_profile_key__parse(const char *name)
{
	size_t n = name ? strlen(name) : 0;

	if (!n)
		return -EINVAL;
	/* sonde's own names: a tid key, and perf's older spellings */
	if (!strcasecmp(name, "tid"))
		return K(TID);
	if (!strcasecmp(name, "sym"))
		return K(SYM);
	if (!strcasecmp(name, "command"))
		return K(COMM);
	/* like perf: the first name that starts with it, in any case */
	for (size_t i = 0; i < sizeof(perf_keys) / sizeof(perf_keys[0]); i++)
		if (!strncasecmp(name, perf_keys[i].name, n))
			return perf_keys[i].key >= 0 ? perf_keys[i].key : -EINVAL;
	return -EINVAL;
}

/* The opts rules of STYLE.md: known size, zero bytes past the known fields. */
static bool opts_valid(const void *opts, size_t sz, size_t known)
{
	const unsigned char *b = opts;

	if (sz < sizeof(size_t))
		return false;
	for (size_t i = known; i < sz; i++)
		if (b[i])
			return false;
	return true;
}

#define OPTS_KNOWN(type, field) \
	(offsetof(struct type, field) + sizeof(((struct type *)0)->field))

struct sonde_profile *sonde_profile__new(const struct sonde_profile_opts *opts)
{
	struct sonde_profile_opts o = { .sz = sizeof(o) };
	struct sonde_profile *p;
	int max_stack;

	if (opts) {
		if (!opts_valid(opts, opts->sz, OPTS_KNOWN(sonde_profile_opts, nr_fields))) {
			errno = EINVAL;
			return NULL;
		}
		memcpy(&o, opts, opts->sz < sizeof(o) ? opts->sz : sizeof(o));
	}
	if (o.max_stack < 0 || (o.mem_mode && o.branches) ||
	    (o.no_keys && (o.keys || o.nr_keys || o.branches))) {
		errno = EINVAL;
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	if (o.branches) {
		/* The histogram of branches has keys of its own. */
		if (prof_brhist_new(p, o.keys, o.nr_keys)) {
			free(p);
			return NULL;
		}
		o.keys = NULL;
	}
	if ((!o.keys || !o.nr_keys) && !o.no_keys) {
		static const enum sonde_profile_key def[] = {
			SONDE_PROFILE_KEY_COMM, SONDE_PROFILE_KEY_DSO, SONDE_PROFILE_KEY_SYM,
		};

		o.keys = def;
		o.nr_keys = 3;
	}
	for (size_t i = 0, nf = 0; i < o.nr_keys; i++) {
		if (o.keys[i] == K(FIELD)) {
			/* each takes its own place: SONDE_PROFILE_KEY_MAX + which */
			if (p->nr_keys < SONDE_PROFILE_KEY_MAX)
				p->order[p->nr_keys++] =
					(enum sonde_profile_key)(SONDE_PROFILE_KEY_MAX + (int)nf);
			nf++;
			p->keys[K(FIELD)] = true;
			continue;
		}
		if ((unsigned)o.keys[i] >= SONDE_PROFILE_KEY_MAX ||
		    (o.keys[i] >= K(BRANCH_FIRST) && o.keys[i] <= K(BRANCH_LAST)) ||
		    (o.keys[i] >= K(MEM_FIRST) && o.keys[i] <= K(MEM_LAST) && !o.mem_mode)) {
			free(p);
			errno = EINVAL;
			return NULL;
		}
		if (p->nr_keys < SONDE_PROFILE_KEY_MAX)
			p->order[p->nr_keys++] = o.keys[i];
		p->keys[o.keys[i]] = true;
	}
	{
		size_t nf = 0;
		int err;

		for (size_t i = 0; i < o.nr_keys; i++)
			nf += o.keys[i] == K(FIELD);
		err = prof_fields_new(p, &o, nf);
		if (err) {
			prof_fields_free(p);
			free(p);
			errno = -err;
			return NULL;
		}
	}
	if (prof_keys_new(p, &o)) {
		int err = errno;

		prof_keys_free(p);
		prof_fields_free(p);
		free(p);
		errno = err;
		return NULL;
	}
	p->callchains = o.callchains;
	p->branch_history = o.branch_history;
	p->timeline = o.timeline;
	p->trees = o.call_trees && o.callchains;
	p->caller = o.caller_order;
	if (prof_order_new(p, &o)) {
		prof_keys_free(p);
		prof_fields_free(p);
		free(p);
		errno = EINVAL;
		return NULL;
	}
	max_stack = !o.max_stack ? SONDE_PERF_MAX_STACK_DEPTH :
		    o.max_stack < SONDE_PROFILE_MAX_FRAMES ? o.max_stack : SONDE_PROFILE_MAX_FRAMES;
	p->m = prof_machine_new();
	if (p->m && o.cache)
		prof_machine_default_cache(p->m);
	/* map_size() reads a stack's process maps when the histogram is built. */
	if (p->m && p->keys[K(DSO_SIZE)])
		prof_machine_keep_procs(p->m);
	if (p->m && prof_machine_set_kernel_symbols(p->m, o.kallsyms, o.vmlinux)) {
		prof_machine_free(p->m);
		p->m = NULL;
	}
	p->chain_max_stack = max_stack;
	p->stacks = p->m ? prof_stacks_new(p->m, max_stack, p->caller) : NULL;
	if (!p->stacks) {
		sonde_profile__free(p);
		errno = ENOMEM;
		return NULL;
	}
	prof_stacks_set_inline(p->stacks, !o.no_inline);
	prof_stacks_set_limit(p->stacks, o.max_stacks);
	p->bounded = o.max_stacks != 0;
	/* Frames are read after the load: debug info opens meanwhile. */
	prof_stacks_defer_inline(p->stacks);
	return p;
}

static void free_strs(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void free_filter(struct sonde_profile *p)
{
	free_strs(p->f_comm, p->nr_f_comm);
	free_strs(p->f_dso, p->nr_f_dso);
	free_strs(p->f_sym, p->nr_f_sym);
	free(p->f_pid);
	free(p->f_tid);
	free(p->f_cpu);
	free(p->f_time);
	p->f_comm = p->f_dso = p->f_sym = NULL;
	p->f_pid = p->f_tid = NULL;
	p->f_cpu = NULL;
	p->f_time = NULL;
	p->nr_f_comm = p->nr_f_dso = p->nr_f_sym = p->nr_f_pid = p->nr_f_tid = 0;
	p->nr_f_time = 0;
}

void sonde_profile__free(struct sonde_profile *p)
{
	if (!p)
		return;
	prof_brhist_free(p);
	prof_hist_free(p);
	prof_columns_reset(p, true);
	prof_keys_free(p);
	prof_fields_free(p);
	prof_chains_free(p);
	hashtab_free(&p->ents);
	hashtab_free(&p->kids);
	hugearena_free(&p->group_mem);
	hashtab_free(&p->groups);
	bigalloc_free(&p->tl_mem);
	free(p->tl_hi);
	for (int i = 0; i < p->nr_evs; i++) {
		free(p->evs[i].name);
		free(p->evs[i].ids);
		free(p->evs[i].sorted);
	}
	free(p->evs);
	free_filter(p);
	free(p->br_frames);
	prof_stacks_free(p->stacks);
	prof_machine_free(p->m);
	free(p);
}

static int copy_strs(char ***out, size_t *nr, const char *const *in, size_t n)
{
	if (!in || !n)
		return 0;
	*out = calloc(n, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		(*out)[i] = strdup(in[i] ? in[i] : "");
		if (!(*out)[i])
			return -ENOMEM;
		*nr = i + 1;
	}
	return 0;
}

static int copy_ints(int32_t **out, size_t *nr, const int32_t *in, size_t n)
{
	if (!in || !n)
		return 0;
	*out = malloc(n * sizeof(**out));
	if (!*out)
		return -ENOMEM;
	memcpy(*out, in, n * sizeof(**out));
	*nr = n;
	return 0;
}

int sonde_profile__set_filter(struct sonde_profile *p, const struct sonde_profile_filter *f)
{
	struct sonde_profile_filter o = { .sz = sizeof(o) };
	int err = 0;

	if (!p)
		return -EINVAL;
	if (f) {
		if (!opts_valid(f, f->sz, OPTS_KNOWN(sonde_profile_filter, nr_syms)))
			return -EINVAL;
		memcpy(&o, f, f->sz < sizeof(o) ? f->sz : sizeof(o));
	}
	for (size_t i = 0; i < o.nr_cpus; i++)
		if (!o.cpus || o.cpus[i] < 0 || o.cpus[i] >= PROF_MAX_CPUS)
			return -EINVAL;
	/* Refused now, so that a later field in the room cannot be misread. */
	if (o.nr_times > SIZE_MAX / sizeof(*o.times))
		return -EINVAL;
	for (size_t i = 0; o.times && i < o.nr_times; i++)
		if (o.times[i].reserved[0] || o.times[i].reserved[1])
			return -EINVAL;
	free_filter(p);
	if (o.cpus && o.nr_cpus) {
		p->f_cpu = calloc(PROF_MAX_CPUS / 8, 1);
		if (!p->f_cpu)
			return -ENOMEM;
		for (size_t i = 0; i < o.nr_cpus; i++)
			p->f_cpu[o.cpus[i] / 8] |= (uint8_t)(1 << (o.cpus[i] % 8));
	}
	if (o.times && o.nr_times) {
		p->f_time = malloc(o.nr_times * sizeof(*p->f_time));
		if (!p->f_time)
			return -ENOMEM;
		memcpy(p->f_time, o.times, o.nr_times * sizeof(*p->f_time));
		p->nr_f_time = o.nr_times;
	}
	err = copy_strs(&p->f_comm, &p->nr_f_comm, o.comms, o.nr_comms);
	if (!err)
		err = copy_strs(&p->f_dso, &p->nr_f_dso, o.dsos, o.nr_dsos);
	if (!err)
		err = copy_strs(&p->f_sym, &p->nr_f_sym, o.syms, o.nr_syms);
	if (!err)
		err = copy_ints(&p->f_pid, &p->nr_f_pid, o.pids, o.nr_pids);
	if (!err)
		err = copy_ints(&p->f_tid, &p->nr_f_tid, o.tids, o.nr_tids);
	p->dirty = true;
	return err;
}

int prof_event_new(struct sonde_profile *p, const struct sonde_perf_event_attr *attr,
		   const struct sonde_record_fmt *fmt, const uint64_t *ids, size_t nr_ids,
		   const char *name)
{
	struct prof_event *ev;

	if (p->nr_evs == p->cap_evs) {
		int cap = p->cap_evs ? p->cap_evs * 2 : 8;
		struct prof_event *v = realloc(p->evs, (size_t)cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		p->evs = v;
		p->cap_evs = cap;
	}
	ev = &p->evs[p->nr_evs];
	memset(ev, 0, sizeof(*ev));
	ev->attr = *attr;
	p->m->ksym_tracked |= attr->ksymbol;
	ev->fmt = *fmt;
	sample_plan_make(fmt, &ev->plan);
	ev->period0 = attr->freq ? 1 : attr->sample_period;
	ev->name = strdup(name ? name : "");
	if (nr_ids) {
		ev->ids = malloc(nr_ids * sizeof(*ev->ids));
		if (ev->ids)
			memcpy(ev->ids, ids, nr_ids * sizeof(*ev->ids));
		ev->nr_ids = nr_ids;
	}
	if (!ev->name || (nr_ids && !ev->ids)) {
		free(ev->name);
		free(ev->ids);
		return -ENOMEM;
	}
	return p->nr_evs++;
}

int sonde_profile__add_event(struct sonde_profile *p, const struct sonde_perf_event_attr *attr,
			     const uint64_t *ids, size_t nr_ids, const char *name)
{
	struct sonde_record_fmt fmt;
	int err;

	if (!p || !attr || (nr_ids && !ids) || p->reader)
		return -EINVAL;
	err = sonde_record_fmt__from_attr(&fmt, attr);
	if (err)
		return err;
	return prof_event_new(p, attr, &fmt, ids, nr_ids, name);
}

/* ---- sample groups ---- */

static uint64_t group_hash(int ev, const char *comm, int32_t pid, int32_t tid, int32_t cpu,
			   const struct prof_stack *st)
{
	return hashtab_mix(hashtab_mix(hashtab_mix((uintptr_t)st, (uintptr_t)comm),
				       ((uint64_t)(uint32_t)pid << 32) | (uint32_t)tid),
			   ((uint64_t)(uint32_t)cpu << 32) | (uint32_t)ev);
}

size_t prof_nr_groups(const struct sonde_profile *p)
{
	return p->nr_groups;
}

static bool group_is(const struct prof_group *s, int ev, const char *comm, int32_t pid,
		     int32_t tid, int32_t cpu, const struct prof_stack *st,
		     const struct prof_xkey *x, unsigned cpumode)
{
	return s->st == st && s->comm == comm && s->pid == pid && s->tid == tid && s->cpu == cpu &&
	       s->ev == ev && s->x == x && s->cpumode == cpumode;
}

static void group_index(struct sonde_profile *p, struct prof_group *s)
{
	uint64_t h = group_hash(s->ev, s->comm, s->pid, s->tid, s->cpu, s->st);

	if (s->x)
		h = hashtab_mix(h, (uintptr_t)s->x);
	if (hashtab_insert(&p->groups, h, s))
		abort();
}

/* A counted sample's group holds its stack: opts.max_stacks no longer applies. */
static void prof_unbound(struct sonde_profile *p)
{
	if (p->bounded) {
		prof_stacks_set_limit(p->stacks, 0);
		p->bounded = false;
	}
}

/*
 * A stack's last two groups hang on it; the table holds only the groups
 * of stacks that have more (a stack has one or two in most profiles:
 * one a thread), so that a profile of a million distinct stacks does
 * not index a million groups it never looks up.
 */
struct prof_group *prof_group_get(struct sonde_profile *p, int ev, const char *comm, int32_t pid,
				  int32_t tid, int32_t cpu, struct prof_stack *st,
				  const struct prof_xkey *x, unsigned cpumode,
				  const struct prof_thread *th)
{
	struct prof_group *s = p->last_group;
	struct hashtab_probe probe;
	uint64_t h;

	if (s && group_is(s, ev, comm, pid, tid, cpu, st, x, cpumode))
		return s;
	/*
	 * The stack was just found, so its line is at hand; the table's is
	 * not. Two: a stack's samples often come from two threads in turn.
	 */
	for (int i = 0; i < 2; i++) {
		s = st->group[i];
		if (s && group_is(s, ev, comm, pid, tid, cpu, st, x, cpumode)) {
			st->group[i] = st->group[0];
			st->group[0] = s;
			p->last_group = s;
			return s;
		}
	}
	s = NULL;
	if (st->many_groups) {
		h = group_hash(ev, comm, pid, tid, cpu, st);
		if (x)
			h = hashtab_mix(h, (uintptr_t)x);
		for (s = hashtab_probe_first(&p->groups, h, &probe); s;
		     s = hashtab_probe_next(&p->groups, &probe))
			if (group_is(s, ev, comm, pid, tid, cpu, st, x, cpumode))
				break;
	} else if (st->group[1]) { /* a third: the stack's groups go in the table */
		group_index(p, st->group[0]);
		group_index(p, st->group[1]);
		st->many_groups = true;
	}
	if (!s) {
		if (!p->gblocks || p->gblocks->used == PROF_GROUP_BLOCK) {
			struct prof_group_block *b = hugearena_alloc(&p->group_mem, sizeof(*b));

			if (!b)
				abort();
			b->prev = p->gblocks;
			b->used = 0;
			p->gblocks = b;
		}
		s = &p->gblocks->v[p->gblocks->used++];
		memset(s, 0, sizeof(*s));
		s->ev = ev;
		s->comm = comm;
		s->pid = pid;
		s->tid = tid;
		s->cpu = cpu;
		s->st = st;
		s->x = x;
		s->cpumode = cpumode & SONDE_PERF_RECORD_MISC_CPUMODE_MASK;
		s->seq = p->nr_groups++;
		if (th) {
			s->th_pid = th->pid;
			s->th_tid = th->tid;
		}
		if (st->many_groups)
			group_index(p, s);
		prof_unbound(p);
	}
	p->last_group = s;
	st->group[1] = st->group[0];
	st->group[0] = s;
	return s;
}

struct prof_group **prof_groups_sorted(struct sonde_profile *p, size_t *nr)
{
	size_t n = p->nr_groups;
	struct prof_group **v = malloc((n + 1) * sizeof(*v));

	if (!v)
		abort();
	/* seq numbers the groups 0..n-1 in creation order. */
	for (struct prof_group_block *b = p->gblocks; b; b = b->prev)
		for (size_t i = 0; i < b->used; i++)
			v[b->v[i].seq] = &b->v[i];
	*nr = n;
	return v;
}

/* ---- records in ---- */

static bool time_ok(const struct sonde_profile *p, uint64_t t)
{
	if (!p->nr_f_time)
		return true;
	for (size_t i = 0; i < p->nr_f_time; i++) {
		const struct sonde_profile_time_range *tr = &p->f_time[i];

		if ((!tr->start || t >= tr->start) && (!tr->end || t < tr->end))
			return true;
	}
	return false;
}

static bool int_in(const int32_t *list, size_t nr, int32_t v)
{
	for (size_t i = 0; i < nr; i++)
		if (list[i] == v)
			return true;
	return false;
}

static bool str_in(char *const *list, size_t nr, const char *s)
{
	for (size_t i = 0; i < nr; i++)
		if (!strcmp(list[i], s))
			return true;
	return false;
}

/* The stack of @s (an event's sample), with the thread it ran in. */
static struct prof_stack *sample_stack(struct sonde_profile *p, const struct prof_event *ev,
				      uint16_t misc, const struct sample_view *s,
				      struct prof_thread **tp)
{
	struct prof_thread *t = prof_thread_findnew(p->m, (int32_t)s->pid, (int32_t)s->tid);

	*tp = t;
	return prof_sample_stack(p->stacks, p->reader, ev->fmt.sample_type, t, misc, s,
				p->callchains);
}

/*
 * The time and CPU filters choose the samples the profile is about: its
 * totals (and so the shares) are of that slice, as in perf; pid, tid and
 * comm only hide entries of the whole.
 */
bool prof_in_slice(const struct sonde_profile *p, uint64_t time, uint32_t cpu)
{
	if (p->nr_f_time && !time_ok(p, time))
		return false;
	return !p->f_cpu ||
	       (cpu < PROF_MAX_CPUS && (p->f_cpu[cpu / 8] & (1 << (cpu % 8))));
}

bool prof_thread_shown(struct sonde_profile *p, int32_t pid, int32_t tid, const char *comm)
{
	if (p->nr_f_pid && !int_in(p->f_pid, p->nr_f_pid, pid))
		return false;
	if (p->nr_f_tid && !int_in(p->f_tid, p->nr_f_tid, tid))
		return false;
	if (p->nr_f_comm) {
		if (!comm)
			comm = prof_thread_findnew(p->m, pid, tid)->comm;
		if (!str_in(p->f_comm, p->nr_f_comm, comm))
			return false;
	}
	return true;
}

/* timeline_add()'s other cases: growing, a new high half, too many. */
static void timeline_add_slow(struct sonde_profile *p, uint64_t time, const struct prof_group *g)
{
	uint64_t hi = time >> 32;

	if (p->tl_overflow || p->nr_tl >= UINT32_MAX || g->seq >= UINT32_MAX) {
		p->tl_overflow = true;
		return;
	}
	if (p->nr_tl == p->tl_room) {
		if (bigalloc_reserve(&p->tl_mem, (p->nr_tl + 1) * sizeof(*p->tl)))
			abort(); /* as the groups do on OOM */
		p->tl = p->tl_mem.p;
		p->tl_room = p->tl_mem.size / sizeof(*p->tl);
		if (p->tl_room > UINT32_MAX) /* the limit: caught above, off the fast path */
			p->tl_room = UINT32_MAX;
	}
	if (hi != p->tl_last_hi) {
		if (p->nr_tl_hi == p->cap_tl_hi) {
			size_t cap = p->cap_tl_hi ? 2 * p->cap_tl_hi : 16;
			struct prof_tl_hi *v = realloc(p->tl_hi, cap * sizeof(*v));

			if (!v)
				abort();
			p->tl_hi = v;
			p->cap_tl_hi = cap;
		}
		p->tl_hi[p->nr_tl_hi++] = (struct prof_tl_hi){ p->nr_tl, hi };
		p->tl_last_hi = hi;
	}
	p->tl[p->nr_tl++] = (struct prof_tl){ (uint32_t)time, (uint32_t)g->seq };
}

/* Appends a counted sample to the timeline (struct prof_tl). */
static inline void timeline_add(struct sonde_profile *p, uint64_t time, const struct prof_group *g)
{
	if (p->nr_tl < p->tl_room && time >> 32 == p->tl_last_hi && !(g->seq >> 32))
		p->tl[p->nr_tl++] = (struct prof_tl){ (uint32_t)time, (uint32_t)g->seq };
	else
		timeline_add_slow(p, time, g);
}

/*
 * Filters, resolves and counts one sample of event @ei (@rec: decoded,
 * for branch history). 1 if counted.
 */
static int add_sample(struct sonde_profile *p, int ei, uint16_t misc, const struct sample_view *s,
		      const struct sonde_record *rec)
{
	struct prof_event *ev = &p->evs[ei];
	struct prof_thread *t;
	struct prof_stack *st;
	struct prof_group *g;
	/* perf's --mem-mode weighs a sample by its cost (profile_keys.c) */
	uint64_t period = p->mem_mode && rec ? prof_keys_mem_cost(rec) : s->period;

	/* Most reports filter nothing: no call per sample to learn that. */
	if ((p->nr_f_time || p->f_cpu) && !prof_in_slice(p, s->time, s->cpu))
		return 0;
	ev->stats.samples++;
	ev->stats.period += period;
	if ((p->nr_f_pid || p->nr_f_tid || p->nr_f_comm) &&
	    !prof_thread_shown(p, (int32_t)s->pid, (int32_t)s->tid, NULL))
		return 0;
	if ((ev->fmt.sample_type & SONDE_PERF_SAMPLE_CALLCHAIN) || p->branch_history)
		p->have_callchains = true;
	prof_unbound(p); /* before the stack: a transient one would not last */
	st = p->branch_history && rec ? prof_chain_stack(p, ei, misc, s, rec, &t)
				      : sample_stack(p, ev, misc, s, &t);
	g = prof_group_get(p, ei, t->comm,
			   p->keys[SONDE_PROFILE_KEY_PID] ? t->pid : 0,
			   p->keys[SONDE_PROFILE_KEY_PID] || p->keys[SONDE_PROFILE_KEY_TID] ? t->tid : 0,
			   p->keys[SONDE_PROFILE_KEY_CPU] ? (int32_t)s->cpu : 0, st,
			   p->kx_sample && rec ? prof_keys_sample(p, ei, misc, rec, t) : NULL,
			   misc & SONDE_PERF_RECORD_MISC_CPUMODE_MASK, t);
	g->period += period;
	g->nr++;
	p->dirty = true;
	if (p->timeline)
		timeline_add(p, s->time, g);
	return 1;
}

/* The event a record belongs to: @event, else by its sample id. */
int prof_route(const struct sonde_profile *p, int event, const struct sonde_record *rec)
{
	uint64_t id;
	bool have = false;

	if (event >= 0)
		return event < p->nr_evs ? event : -ENOENT;
	if (rec->type == SONDE_PERF_RECORD_SAMPLE) {
		uint64_t t = rec->sample.sample_type;

		have = t & (SONDE_PERF_SAMPLE_IDENTIFIER | SONDE_PERF_SAMPLE_ID);
		id = (t & SONDE_PERF_SAMPLE_IDENTIFIER) ? rec->sample.identifier : rec->sample.id;
	} else {
		have = rec->has_sample_id;
		id = rec->sample_id.id ? rec->sample_id.id : rec->sample_id.identifier;
	}
	if (!have)
		return p->nr_evs == 1 ? 0 : -ENOENT;
	for (int i = 0; i < p->nr_evs; i++)
		for (size_t j = 0; j < p->evs[i].nr_ids; j++)
			if (p->evs[i].ids[j] == id)
				return i;
	return p->nr_evs == 1 && !p->evs[0].nr_ids ? 0 : -ENOENT;
}

int sonde_profile__add_record(struct sonde_profile *p, int event, const struct sonde_record *rec)
{
	struct sample_view s;
	int ei;

	if (!p || !rec)
		return -EINVAL;
	if (rec->type != SONDE_PERF_RECORD_SAMPLE) {
		prof_machine_process_record(p->m, rec);
		prof_keys_record(p, rec);
		if (rec->type == SONDE_PERF_RECORD_LOST_SAMPLES) {
			ei = prof_route(p, event, rec);
			if (ei >= 0)
				p->evs[ei].stats.lost_samples += rec->lost_samples.lost;
		}
		return 0;
	}
	ei = prof_route(p, event, rec);
	if (ei < 0)
		return ei;
	/* A live feed's clock: the threads that exited long before go. */
	if (p->evs[ei].fmt.sample_type & SONDE_PERF_SAMPLE_TIME)
		prof_machine_clock(p->m, rec->sample.time);
	if (p->brhist)
		return prof_brhist_add(p, ei, rec);
	sample_view_of(&p->evs[ei].fmt, p->evs[ei].period0, &rec->sample, &s);
	return add_sample(p, ei, rec->misc, &s, rec);
}

static int synth_record(const struct sonde_record *rec, void *arg)
{
	return sonde_profile__add_record(arg, -1, rec) < 0 ? -EINVAL : 0;
}

int sonde_profile__synth_kernel(struct sonde_profile *p)
{
	return p ? perfdata_synth(PERFDATA_SYNTH_KERNEL, 0, NULL, synth_record, p) : -EINVAL;
}

int sonde_profile__synth_process(struct sonde_profile *p, pid_t pid,
				 const struct sonde_synth_opts *opts)
{
	return p ? perfdata_synth(PERFDATA_SYNTH_PROCESS, pid, opts, synth_record, p) : -EINVAL;
}

int sonde_profile__synth_all(struct sonde_profile *p, const struct sonde_synth_opts *opts)
{
	return p ? perfdata_synth(PERFDATA_SYNTH_ALL, 0, opts, synth_record, p) : -EINVAL;
}

/* A pipe declares its events as it goes: take up the new ones. */
static int sync_events(struct sonde_profile *p, const struct sonde_perfdata_reader *r)
{
	int nr = sonde_perfdata_reader__nr_attrs(r);

	while (p->nr_evs < nr) {
		const struct pdr_attr *a = pdr_attr_get(r, p->nr_evs);
		int err = prof_event_new(p, &a->attr, &a->fmt, a->ids, a->nr_ids, a->name);

		if (err < 0)
			return err;
	}
	return 0;
}

int sonde_profile__set_reader(struct sonde_profile *p, struct sonde_perfdata_reader *r)
{
	if (!p || !r || (p->reader && p->reader != r) || (!p->reader && p->nr_evs))
		return -EINVAL;
	int err;

	p->reader = r;
	err = sync_events(p, r);
	/* perf matches its dynamic keys against the events it has then */
	return err ? err : prof_fields_resolve(p);
}

int prof_sync_reader(struct sonde_profile *p)
{
	return p->reader ? sync_events(p, p->reader) : 0;
}

int sonde_profile__add_perfdata_record(struct sonde_profile *p, struct sonde_perfdata_reader *r,
				       const struct sonde_perfdata_record *rec)
{
	const struct prof_event *ev;
	struct sample_view smp;
	int ai, err;

	if (!p || !rec)
		return -EINVAL;
	/* The reader met a new attr (pipe mode) only when its count grew. */
	if (p->reader != r) {
		err = sonde_profile__set_reader(p, r);
		if (err == -ENOENT)
			err = 0; /* a pipe declares its events later: matched at the first sample */
	}
	else
		err = p->nr_evs < r->nr_attrs ? sync_events(p, r) : 0;
	if (err)
		return err;
	ai = rec->attr_idx >= 0 ? rec->attr_idx : 0;
	if (rec->type != SONDE_PERF_RECORD_SAMPLE) {
		prof_machine_process(p->m, r, rec);
		if (p->kx && (rec->type == SONDE_PERF_RECORD_CGROUP ||
			      rec->type == SONDE_PERF_RECORD_NAMESPACES) && p->nr_evs) {
			struct sonde_record d;

			if (!sonde_record__decode(&p->evs[ai < p->nr_evs ? ai : 0].fmt, rec->hdr,
						  rec->size, &d))
				prof_keys_record(p, &d);
		}
		if (rec->type == SONDE_PERF_RECORD_LOST_SAMPLES && rec->size >= 16 &&
		    ai < p->nr_evs)
			p->evs[ai].stats.lost_samples += pdr_h64((const uint8_t *)rec->hdr + 8);
		return 0;
	}
	if (ai >= p->nr_evs) /* synced above: every attr of the reader is an event */
		return -ENOENT;
	ev = &p->evs[ai];
	if (p->brhist) {
		struct sonde_record d;

		if (sonde_record__decode(&ev->fmt, rec->hdr, rec->size, &d) ||
		    d.type != SONDE_PERF_RECORD_SAMPLE)
			return -SONDE_ERR_FORMAT;
		return prof_brhist_add(p, ai, &d);
	}
	if (p->branch_history || p->kx_sample) { /* they read what the fast parse skips */
		struct sonde_record d;

		if (sonde_record__decode(&ev->fmt, rec->hdr, rec->size, &d))
			return -SONDE_ERR_FORMAT;
		sample_view_of(&ev->fmt, ev->period0, &d.sample, &smp);
		return add_sample(p, ai, rec->misc, &smp, &d);
	}
	if (sample_view_parse(&ev->fmt, &ev->plan, ev->period0, (const uint8_t *)rec->hdr,
			      rec->size, &smp))
		return -SONDE_ERR_FORMAT;
	return add_sample(p, ai, rec->misc, &smp, NULL);
}

int64_t sonde_profile__add_reader(struct sonde_profile *p, struct sonde_perfdata_reader *r)
{
	struct sonde_perfdata_record rec;
	int64_t n = 0;
	int err;

	if (!p || !r)
		return -EINVAL;
	while ((err = sonde_perfdata_reader__next(r, &rec)) > 0)
		if (sonde_profile__add_perfdata_record(p, r, &rec) > 0)
			n++;
	return err < 0 ? err : n;
}

/* ---- what was read ---- */

int sonde_profile__nr_events(const struct sonde_profile *p)
{
	return p ? p->nr_evs : 0;
}

const char *sonde_profile__event_name(const struct sonde_profile *p, int ev)
{
	if (!p || ev < 0 || ev >= p->nr_evs)
		return NULL;
	/* A pipe may name its events after declaring them. */
	if (p->reader && ev < sonde_perfdata_reader__nr_attrs(p->reader))
		return sonde_perfdata_reader__event_name(p->reader, ev);
	return p->evs[ev].name;
}

int sonde_profile__event_stats(struct sonde_profile *p, int ev,
			       struct sonde_profile_event_stats *out)
{
	if (!p || !out || ev < 0 || ev >= p->nr_evs)
		return -EINVAL;
	prof_hist_build(p);
	*out = p->evs[ev].stats;
	return 0;
}

int sonde_profile__baseline_stats(struct sonde_profile *p, int ev,
				  struct sonde_profile_event_stats *out)
{
	if (!p || !out || ev < 0 || ev >= p->nr_evs)
		return -EINVAL;
	prof_hist_build(p);
	*out = p->evs[ev].base_stats;
	return 0;
}

void sonde_profile__lost(const struct sonde_profile *p, uint64_t *lost_records, uint64_t *lost,
			 uint64_t *lost_samples)
{
	struct prof_stats *st = prof_machine_stats(p->m);

	if (lost_records)
		*lost_records = st->nr_records[SONDE_PERF_RECORD_LOST];
	if (lost)
		*lost = st->lost;
	if (lost_samples)
		*lost_samples = st->lost_samples;
}

void sonde_profile__aux_stats(const struct sonde_profile *p,
			      struct sonde_profile_aux_stats *out)
{
	const struct prof_stats *st;

	if (!out)
		return;
	memset(out, 0, sizeof(*out));
	if (!p)
		return;
	st = prof_machine_stats(p->m);
	out->records = st->nr_records[SONDE_PERF_RECORD_AUX];
	out->truncated = st->aux_truncated;
	out->partial = st->aux_partial;
	out->collision = st->aux_collision;
}

uint64_t sonde_profile__proc_map_timeouts(const struct sonde_profile *p)
{
	return p ? prof_machine_stats(p->m)->proc_map_timeouts : 0;
}

bool sonde_profile__has_callchains(const struct sonde_profile *p)
{
	return p && p->have_callchains;
}

uint64_t sonde_profile__unwind_failures(const struct sonde_profile *p)
{
	return p ? prof_stacks_unwind_failures(p->stacks) : 0;
}

void sonde_profile__set_children(struct sonde_profile *p, bool on)
{
	if (p && p->children != on) {
		p->children = on;
		p->dirty = true;
	}
}
