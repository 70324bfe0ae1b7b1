// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The histogram keys past perf's first seven (sonde_profile_entry__keys()):
 * values a sample carries (weight, transaction, cgroup, time, page sizes,
 * the memory keys' data source and addresses, the CPU's socket) and
 * values of the frame an entry stands for (source file, function and map
 * sizes, address, the parent caller).
 *
 * The values of the keys set are interned as one struct prof_xkey, so a
 * group of samples and an entry each compare one pointer more, and a
 * profile without these keys pays nothing else. An xkey's identity is
 * what perf's sort functions compare; what it shows beyond that (the full
 * data source, the data address resolved) is the first sample's, as in a
 * perf entry that later samples merge into.
 */
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sonde/tracefs.h"
#include "event_priv.h"
#include "profile_priv.h"

/* What the keys compare: zero where a key is not set (no padding bytes). */
struct prof_xid {
	/* of the sample */
	uint64_t weight, transaction, cgroup, time, code_ps, data_ps, phys;
	uint64_t daddr, iaddr, dcl, cg_dev, cg_ino, data_src;
	const char *ddso; /* dso_daddr: the object's interned short name */
	int32_t socket, dcl_pid;
	uint32_t ins_lat, p_stage;
	uint32_t dcl_mode, dcl_map;
	/* of the frame */
	const char *parent, *srcfile;
	const char *trace; /* a tracepoint's text, interned */
	const struct prof_frow *frow; /* the FIELD keys' values, interned */
	uint64_t sym_size, dso_size, ip;
	const char *ipc_dso, *ipc_iname;
	uint64_t ipc_start, ipc_end, ipc_addr, ipc_sym;
};

/* What an entry shows beyond its identity: its first sample's. */
struct prof_xshow {
	uint64_t data_src;
	struct prof_frame dfr, ifr; /* the data and code addresses resolved */
	const char *cgroup_name;
	char dcl_level;
	bool has_sym, has_dso, has_dfr, has_ifr;
};

struct prof_xkey {
	struct prof_xid id;
	struct prof_xshow show;
};

/*
 * An event's tracepoint print fmt, for the trace key, found at its first
 * sample: the reader's, or made here (own) when there is no reader.
 */
struct prof_tp {
	const struct sonde_tp_format *fmt;
	const struct sonde_tp_print *print;
	struct sonde_tp_format *own;
	struct sonde_tp_print *own_print;
	bool tried;
};

struct prof_cgroup {
	uint64_t id;
	const char *path;
};

struct prof_ns {
	int32_t pid, tid;
	uint64_t dev, ino;
};

struct prof_keys {
	struct hashtab tab;	/* of struct prof_xkey, by identity */
	const struct prof_xkey *last;
	regex_t parent_re;
	bool have_re;
	uint64_t quantum;	/* time key step, ns */
	uint64_t cl_size;	/* cache line, for dcacheline */
	uint64_t src_mask;	/* data_src bits the memory keys compare */
	struct hashtab cgroups; /* of struct prof_cgroup, by id */
	struct hashtab ns;	/* of struct prof_ns, by tid: the cgroup namespace */
	const struct prof_group *pg; /* the last group whose parent was found */
	const char *parent;
	struct prof_tp *tps;	/* by event index, for the trace key */
	int nr_tps;
};

#define K(name) SONDE_PROFILE_KEY_##name

/* Keys whose value the sample carries (the record must be decoded). */
static const enum sonde_profile_key sample_keys[] = {
	K(SOCKET), K(LOCAL_WEIGHT), K(WEIGHT), K(TRANSACTION), K(CGROUP), K(CGROUP_ID),
	K(TIME), K(CODE_PAGE_SIZE), K(LOCAL_INS_LAT), K(INS_LAT), K(LOCAL_P_STAGE_CYC),
	K(P_STAGE_CYC), K(SYM_DADDR), K(SYM_IADDR), K(DSO_DADDR), K(LOCKED), K(TLB), K(MEM),
	K(SNOOP), K(DCACHELINE), K(PHYS_DADDR), K(DATA_PAGE_SIZE), K(BLOCKED), K(TRACE), K(FIELD),
};

/* Keys whose value the entry's frame gives. */
static const enum sonde_profile_key frame_keys[] = {
	K(PARENT), K(SRCFILE), K(SYM_SIZE), K(DSO_SIZE), K(IPC_NULL), K(ADDR),
};

#define NR(a) (sizeof(a) / sizeof((a)[0]))

/* perf's cache line size: the running machine's, as its cl_address() takes it. */
static uint64_t cacheline_size(void)
{
	long n = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);

	return n > 0 && !(n & (n - 1)) ? (uint64_t)n : 64;
}

int prof_keys_new(struct sonde_profile *p, const struct sonde_profile_opts *o)
{
	struct prof_keys *kx;
	bool any = o->mem_mode;

	for (size_t i = 0; i < NR(sample_keys); i++)
		if (p->keys[sample_keys[i]])
			p->kx_sample = any = true;
	for (size_t i = 0; i < NR(frame_keys); i++)
		if (p->keys[frame_keys[i]])
			p->kx_frame = any = true;
	/* with a symbol key, ipc_null tells apart what it does already */
	if (p->keys[K(IPC_NULL)] && p->keys[K(SYM)]) {
		p->kx_frame = false;
		for (size_t i = 0; i < NR(frame_keys); i++)
			if (p->keys[frame_keys[i]] && frame_keys[i] != K(IPC_NULL))
				p->kx_frame = true;
		any = p->kx_frame || p->kx_sample || o->mem_mode;
	}
	p->mem_mode = o->mem_mode;
	if (o->mem_mode)
		p->kx_sample = true; /* the weight is the sample's cost */
	if (!any)
		return 0;
	kx = calloc(1, sizeof(*kx));
	if (!kx)
		return -1;
	hashtab_init(&kx->tab);
	hashtab_init(&kx->cgroups);
	hashtab_init(&kx->ns);
	kx->quantum = o->time_quantum ? o->time_quantum : 100000000ULL;
	kx->cl_size = cacheline_size();
	if (p->keys[K(LOCKED)])
		kx->src_mask |= 3ULL << 24;
	if (p->keys[K(TLB)])
		kx->src_mask |= 0x7fULL << 26;
	if (p->keys[K(MEM)])
		kx->src_mask |= 0x3fffULL << 5;
	if (p->keys[K(SNOOP)])
		kx->src_mask |= 0x1fULL << 19;
	if (p->keys[K(BLOCKED)])
		kx->src_mask |= 7ULL << 40;
	p->kx = kx;
	if (p->keys[K(PARENT)]) {
		if (regcomp(&kx->parent_re, o->parent ? o->parent : "^sys_|^do_page_fault",
			    REG_EXTENDED | REG_NOSUB)) {
			errno = EINVAL;
			return -1;
		}
		kx->have_re = true;
	}
	return 0;
}

void prof_keys_free(struct sonde_profile *p)
{
	struct prof_keys *kx = p->kx;
	size_t pos = 0;
	void *v;

	if (!kx)
		return;
	if (kx->have_re)
		regfree(&kx->parent_re);
	/* the xkeys live in the machine's arena */
	hashtab_free(&kx->tab);
	while ((v = hashtab_next(&kx->cgroups, &pos)))
		free(v);
	hashtab_free(&kx->cgroups);
	pos = 0;
	while ((v = hashtab_next(&kx->ns, &pos)))
		free(v);
	hashtab_free(&kx->ns);
	for (int i = 0; i < kx->nr_tps; i++) {
		sonde_tp_print__free(kx->tps[i].own_print);
		sonde_tp_format__free(kx->tps[i].own);
	}
	free(kx->tps);
	free(kx);
	p->kx = NULL;
}

static const struct prof_xkey *intern(struct sonde_profile *p, const struct prof_xkey *k)
{
	struct prof_keys *kx = p->kx;
	struct hashtab_probe probe;
	struct prof_xkey *e;
	uint64_t h;

	if (kx->last && !memcmp(&kx->last->id, &k->id, sizeof(k->id)))
		return kx->last;
	h = prof_words_hash(&k->id, sizeof(k->id));
	for (e = hashtab_probe_first(&kx->tab, h, &probe); e;
	     e = hashtab_probe_next(&kx->tab, &probe))
		if (!memcmp(&e->id, &k->id, sizeof(k->id)))
			return kx->last = e;
	e = prof_alloc(p->m, sizeof(*e));
	memcpy(e, k, sizeof(*e));
	if (hashtab_insert(&kx->tab, h, e))
		abort(); /* as the groups do on OOM */
	return kx->last = e;
}

uint64_t prof_keys_mem_cost(const struct sonde_record *rec)
{
	const struct sonde_sample *s = &rec->sample;
	uint64_t w = 0;

	if (s->sample_type & SONDE_PERF_SAMPLE_WEIGHT)
		w = s->weight.full;
	else if (s->sample_type & SONDE_PERF_SAMPLE_WEIGHT_STRUCT)
		w = s->weight.var1_dw;
	return w ? w : 1;
}

/* The socket of @cpu in the file's CPU_TOPOLOGY, -1 unknown (perf's al->socket). */
static int32_t socket_of(const struct sonde_profile *p, int64_t cpu)
{
	const struct sonde_feat_cpu_topology *t =
		p->reader ? sonde_perfdata_reader__cpu_topology(p->reader) : NULL;

	if (!t || cpu < 0 || (uint64_t)cpu >= t->nr_cpus)
		return -1;
	return t->cpus[cpu].socket;
}

static const struct prof_cgroup *cgroup_find(const struct prof_keys *kx, uint64_t id)
{
	struct hashtab_probe probe;
	struct prof_cgroup *c;

	for (c = hashtab_probe_first(&kx->cgroups, hashtab_mix(id, 0), &probe); c;
	     c = hashtab_probe_next(&kx->cgroups, &probe))
		if (c->id == id)
			return c;
	return NULL;
}

static struct prof_ns *ns_find(const struct prof_keys *kx, int32_t pid, int32_t tid)
{
	struct hashtab_probe probe;
	struct prof_ns *n;

	for (n = hashtab_probe_first(&kx->ns, hashtab_mix((uint32_t)tid, (uint32_t)pid), &probe);
	     n; n = hashtab_probe_next(&kx->ns, &probe))
		if (n->tid == tid && n->pid == pid)
			return n;
	return NULL;
}

/* The namespace link perf reads a thread's cgroup_id from (its index 6). */
#define CGROUP_NS_INDEX 6

void prof_keys_record(struct sonde_profile *p, const struct sonde_record *rec)
{
	struct prof_keys *kx = p->kx;

	if (!kx)
		return;
	if (rec->type == SONDE_PERF_RECORD_CGROUP && p->keys[K(CGROUP)] &&
	    !cgroup_find(kx, rec->cgroup.id)) {
		struct prof_cgroup *c = malloc(sizeof(*c));
		const char *path = rec->cgroup.path ? rec->cgroup.path : "";

		if (!c)
			return;
		c->id = rec->cgroup.id;
		c->path = prof_intern(p->m, path, strlen(path));
		if (hashtab_insert(&kx->cgroups, hashtab_mix(c->id, 0), c))
			free(c);
	} else if (rec->type == SONDE_PERF_RECORD_NAMESPACES && p->keys[K(CGROUP_ID)]) {
		const struct sonde_record_namespaces *r = &rec->namespaces;
		struct prof_ns *n = ns_find(kx, (int32_t)r->pid, (int32_t)r->tid);

		if (!n) {
			n = calloc(1, sizeof(*n));
			if (!n)
				return;
			n->pid = (int32_t)r->pid;
			n->tid = (int32_t)r->tid;
			if (hashtab_insert(&kx->ns, hashtab_mix((uint32_t)n->tid, (uint32_t)n->pid),
					   n)) {
				free(n);
				return;
			}
		}
		/* perf keeps the thread's latest; a short record has no cgroup link */
		n->dev = n->ino = 0;
		if (r->nr > CGROUP_NS_INDEX && r->link) {
			struct sonde_perf_ns_link_info l;

			/* a pipe file's records need not be aligned (sonde/record.h) */
			memcpy(&l, &r->link[CGROUP_NS_INDEX], sizeof(l));
			n->dev = l.dev;
			n->ino = l.ino;
		}
	}
}

static bool memory_key(const struct sonde_profile *p)
{
	for (int k = K(MEM_FIRST); k <= K(MEM_LAST); k++)
		if (p->keys[k])
			return true;
	return false;
}

/* The data address resolved as perf's ip__resolve_data() does: the sample's space only. */
static void resolve_data(struct sonde_profile *p, struct prof_thread *t, bool kernel,
			 uint64_t addr, struct prof_xkey *k)
{
	struct prof_loc loc;

	prof_resolve(p->m, t, kernel, addr, &loc);
	k->show.has_dfr = true;
	k->show.dfr.dso = loc.dso;
	k->show.dfr.sym = loc.sym;
	k->show.dfr.addr = loc.addr;
	k->show.dfr.ip = addr;
	k->show.dfr.kernel = kernel;
	if (p->keys[K(DSO_DADDR)])
		k->id.ddso = loc.dso ? loc.dso->short_key : NULL;
	if (p->keys[K(DCACHELINE)]) {
		/*
		 * perf's order of cache lines: by cpumode, with a map or not,
		 * by process for user space (objects carry no device ids here,
		 * so every user map counts as anonymous), then by line.
		 */
		k->id.dcl_mode = kernel ? SONDE_PERF_RECORD_MISC_KERNEL : SONDE_PERF_RECORD_MISC_USER;
		k->id.dcl_map = loc.map != NULL;
		k->id.dcl_pid = loc.map && !kernel ? t->pid : 0;
		k->id.dcl = loc.addr & ~(p->kx->cl_size - 1);
		k->show.dcl_level = !loc.map ? 'X' : kernel ? 'k' : '.';
	}
}

static void memory_values(struct sonde_profile *p, const struct sonde_sample *s, uint64_t type,
			  struct prof_thread *t, bool kernel, struct prof_xkey *k)
{
	k->show.data_src = (type & SONDE_PERF_SAMPLE_DATA_SRC) ? s->data_src.val
		/* perf's PERF_MEM_DATA_SRC_NONE: every part N/A */
		: (1ULL << 0) | (1ULL << 5) | (1ULL << 19) | (1ULL << 24) | (1ULL << 26);
	k->id.data_src = k->show.data_src & p->kx->src_mask;
	if (p->keys[K(SYM_DADDR)])
		k->id.daddr = s->addr;
	if (p->keys[K(SYM_DADDR)] || p->keys[K(DSO_DADDR)] || p->keys[K(DCACHELINE)])
		resolve_data(p, t, kernel, s->addr, k);
	if (p->keys[K(SYM_IADDR)]) {
		k->id.iaddr = s->ip;
		k->show.has_ifr = true;
		prof_branch_resolve(p, t, kernel, s->ip, &k->show.ifr);
	}
	if (p->keys[K(PHYS_DADDR)])
		k->id.phys = s->phys_addr;
	if (p->keys[K(DATA_PAGE_SIZE)])
		k->id.data_ps = s->data_page_size;
}

/*
 * The print fmt of tracepoint event @ei: the reader's answer (the
 * recording's format, else this machine's), or for a profile fed without a
 * reader this machine's tracefs by the event's name. NULL when neither has
 * it or the fmt is not understood.
 */
static struct prof_tp *tp_of(struct sonde_profile *p, int ei)
{
	struct prof_keys *kx = p->kx;
	const struct prof_event *ev = &p->evs[ei];
	struct prof_tp *tp;

	if (!kx || ev->attr.type != SONDE_PERF_TYPE_TRACEPOINT)
		return NULL;
	if (ei >= kx->nr_tps) {
		struct prof_tp *v = realloc(kx->tps, (size_t)(ei + 1) * sizeof(*v));

		if (!v)
			return NULL;
		memset(v + kx->nr_tps, 0, (size_t)(ei + 1 - kx->nr_tps) * sizeof(*v));
		kx->tps = v;
		kx->nr_tps = ei + 1;
	}
	tp = &kx->tps[ei];
	if (!tp->tried) {
		const struct sonde_tp_format *fmt;

		tp->tried = true;
		if (p->reader) {
			if (sonde_perfdata_reader__tp_format(p->reader, ei, NULL, &fmt,
							     &tp->print) >= 0)
				tp->fmt = fmt;
		} else {
			tp->own = tp_format_this_kernel(ev->name, (int64_t)ev->attr.config);
			tp->own_print = tp->own ? sonde_tp_print__new(tp->own, NULL) : NULL;
			tp->print = tp->own_print;
			tp->fmt = tp->own;
		}
	}
	return tp;
}

static const struct sonde_tp_print *tp_print_of(struct sonde_profile *p, int ei)
{
	const struct prof_tp *tp = tp_of(p, ei);

	return tp ? tp->print : NULL;
}

void prof_keys_tp(struct sonde_profile *p, int ei, const struct sonde_tp_format **fmt,
		  const struct sonde_tp_print **print)
{
	const struct prof_tp *tp = ei >= 0 && ei < p->nr_evs ? tp_of(p, ei) : NULL;

	if (fmt)
		*fmt = tp ? tp->fmt : NULL;
	if (print)
		*print = tp ? tp->print : NULL;
}

const struct prof_frow *prof_keys_frow(const struct prof_xkey *x)
{
	return x ? x->id.frow : NULL;
}

/* perf's trace key: the tracepoint's print fmt on the sample's RAW data. */
static const char *trace_text(struct sonde_profile *p, int ei, const struct sonde_sample *s)
{
	const struct sonde_tp_print *tp = tp_print_of(p, ei);
	char buf[1024], *big = NULL;
	const char *text;
	int n;

	if (!tp || !s->raw.data)
		return NULL;
	n = sonde_tp_print__format(tp, s->raw.data, s->raw.size, buf, sizeof(buf));
	if (n < 0)
		return NULL;
	text = buf;
	if ((size_t)n >= sizeof(buf)) {
		big = malloc((size_t)n + 1);
		if (!big || sonde_tp_print__format(tp, s->raw.data, s->raw.size, big,
						   (size_t)n + 1) < 0) {
			free(big);
			return NULL;
		}
		text = big;
	}
	text = prof_intern(p->m, text, (size_t)n);
	free(big);
	return text;
}

const struct prof_xkey *prof_keys_sample(struct sonde_profile *p, int ei, uint16_t misc,
					 const struct sonde_record *rec, struct prof_thread *t)
{
	const struct sonde_sample *s = &rec->sample;
	uint64_t type = p->evs[ei].fmt.sample_type;
	const bool *has = p->keys;
	bool kernel = (misc & SONDE_PERF_RECORD_MISC_CPUMODE_MASK) == SONDE_PERF_RECORD_MISC_KERNEL;
	struct prof_xkey k;

	if (!p->kx)
		return NULL;
	memset(&k, 0, sizeof(k));
	if (has[K(SOCKET)])
		k.id.socket = socket_of(p, (type & SONDE_PERF_SAMPLE_CPU) ? (int64_t)s->cpu : -1);
	if (has[K(LOCAL_WEIGHT)] || has[K(WEIGHT)])
		k.id.weight = (type & SONDE_PERF_SAMPLE_WEIGHT) ? s->weight.full
			      : (type & SONDE_PERF_SAMPLE_WEIGHT_STRUCT) ? s->weight.var1_dw : 0;
	if ((has[K(LOCAL_INS_LAT)] || has[K(INS_LAT)]) && (type & SONDE_PERF_SAMPLE_WEIGHT_STRUCT))
		k.id.ins_lat = s->weight.var2_w;
	if ((has[K(LOCAL_P_STAGE_CYC)] || has[K(P_STAGE_CYC)]) &&
	    (type & SONDE_PERF_SAMPLE_WEIGHT_STRUCT))
		k.id.p_stage = s->weight.var3_w;
	if (has[K(TRANSACTION)] && (type & SONDE_PERF_SAMPLE_TRANSACTION))
		k.id.transaction = s->transaction;
	if (has[K(CGROUP)] && (type & SONDE_PERF_SAMPLE_CGROUP) && s->cgroup) {
		const struct prof_cgroup *c = cgroup_find(p->kx, s->cgroup);

		k.id.cgroup = s->cgroup;
		k.show.cgroup_name = c ? c->path : NULL;
	}
	if (has[K(CGROUP_ID)]) {
		const struct prof_ns *n = ns_find(p->kx, t->pid, t->tid);

		if (n) {
			k.id.cg_dev = n->dev;
			k.id.cg_ino = n->ino;
		}
	}
	if (has[K(TIME)])
		k.id.time = s->time / p->kx->quantum * p->kx->quantum;
	if (has[K(CODE_PAGE_SIZE)] && (type & SONDE_PERF_SAMPLE_CODE_PAGE_SIZE))
		k.id.code_ps = s->code_page_size;
	if (has[K(TRACE)] && (type & SONDE_PERF_SAMPLE_RAW))
		k.id.trace = trace_text(p, ei, s);
	if (has[K(FIELD)] && (type & SONDE_PERF_SAMPLE_RAW))
		k.id.frow = prof_fields_row(p, ei, s->raw.data, s->raw.size);
	if (memory_key(p))
		memory_values(p, s, type, t, kernel, &k);
	return intern(p, &k);
}

/*
 * perf 6.1 checks a callchain entry against the sample's entries made so
 * far with a template that lacks these values (zero there): a sample
 * with any of them not zero is counted again at every entry of its
 * chain, recursion and the sampled function itself included.
 */
bool prof_keys_dedup(const struct sonde_profile *p, const struct prof_xkey *x)
{
	const struct prof_xid *v = x ? &x->id : NULL;
	const bool *has = p->keys;

	if (!v)
		return true;
	return !((has[K(SOCKET)] && v->socket) || (has[K(CGROUP_ID)] && (v->cg_dev || v->cg_ino)) ||
		 (has[K(CGROUP)] && v->cgroup) || (has[K(TIME)] && v->time) ||
		 ((has[K(LOCAL_WEIGHT)] || has[K(WEIGHT)]) && v->weight) ||
		 ((has[K(LOCAL_INS_LAT)] || has[K(INS_LAT)]) && v->ins_lat) ||
		 ((has[K(LOCAL_P_STAGE_CYC)] || has[K(P_STAGE_CYC)]) && v->p_stage) ||
		 (has[K(TRANSACTION)] && v->transaction) ||
		 (has[K(CODE_PAGE_SIZE)] && v->code_ps));
}

/* perf's parent: the first function of the chain, from the sample out, that matches. */
static const char *parent_of(struct sonde_profile *p, const struct prof_group *g)
{
	struct prof_keys *kx = p->kx;
	const struct prof_stack *st = g->st;

	if (kx->pg == g)
		return kx->parent;
	kx->pg = g;
	kx->parent = NULL;
	for (uint32_t i = 0; i < st->nr_frames; i++) {
		const struct prof_sym *sym = st->frames[i].sym;

		/* perf matches the callchain's functions, not what is inlined there */
		if (sym && !sym->inlined && !regexec(&kx->parent_re, sym->name, 0, NULL, 0)) {
			kx->parent = prof_intern(p->m, sym->name, strlen(sym->name));
			break;
		}
	}
	return kx->parent;
}

/* perf's srcfile: the file of the line table's answer, "" without one. */
static const char *srcfile_of(struct sonde_profile *p, const struct prof_frame *fr)
{
	const char *sl = fr->dso && !fr->dso->kernel ? prof_dso_srcline(p->m, fr->dso, fr->addr)
						     : NULL;
	const char *colon = sl ? strchr(sl, ':') : NULL;

	if (!colon || colon == sl)
		return prof_intern(p->m, "", 0);
	return prof_intern(p->m, sl, (size_t)(colon - sl));
}

/* The size of the map @fr lies in (perf's map__size()), 0 without one. */
static uint64_t map_size(struct sonde_profile *p, const struct prof_group *g,
			 const struct prof_frame *fr)
{
	const struct prof_proc *proc = fr->kernel ? p->m->kproc : g->st->proc;
	const struct prof_map *map = proc && fr->dso ? prof_maps_find(proc, fr->ip) : NULL;

	return map ? map->end - map->start : 0;
}

const struct prof_xkey *prof_keys_frame(struct sonde_profile *p, const struct prof_group *g,
					const struct prof_frame *fr)
{
	const bool *has = p->keys;
	struct prof_xkey k;

	if (g->x)
		memcpy(&k, g->x, sizeof(k));
	else
		memset(&k, 0, sizeof(k));
	if (has[K(PARENT)])
		k.id.parent = parent_of(p, g);
	if (has[K(SRCFILE)])
		k.id.srcfile = srcfile_of(p, fr);
	if (has[K(SYM_SIZE)]) {
		k.id.sym_size = fr->sym ? fr->sym->end - fr->sym->start : 0;
		k.show.has_sym = fr->sym != NULL;
	}
	if (has[K(DSO_SIZE)]) {
		k.id.dso_size = map_size(p, g, fr);
		k.show.has_dso = fr->dso != NULL;
	}
	if (has[K(ADDR)])
		k.id.ip = fr->ip;
	if (has[K(IPC_NULL)] && !has[K(SYM)]) {
		/* what perf's sort__sym_cmp compares: the object too without a dso key */
		k.id.ipc_sym = fr->sym != NULL;
		if (!has[K(DSO)])
			k.id.ipc_dso = fr->dso ? fr->dso->short_key : NULL;
		if (fr->sym) {
			k.id.ipc_start = fr->sym->start;
			k.id.ipc_end = fr->sym->end;
			k.id.ipc_iname = fr->sym->inlined ? fr->sym->name : NULL;
		} else {
			k.id.ipc_addr = fr->dso ? fr->addr : fr->ip;
		}
	}
	return intern(p, &k);
}

/* ---- perf's order ---- */

/* The sign of perf's (int64_t)(l - r). */
static int s64_sign(uint64_t l, uint64_t r)
{
	int64_t d = (int64_t)(l - r);

	return (d > 0) - (d < 0);
}

static int num(uint64_t a, uint64_t b)
{
	return (a > b) - (a < b);
}

static int str(const char *a, const char *b)
{
	int c = strcmp(a ? a : "", b ? b : "");

	return (c > 0) - (c < 0);
}

/* Entries without a value (NULL) after those with one, as perf's cmp_null() puts them. */
static int null_last(const void *a, const void *b)
{
	return !a && !b ? 0 : !a ? 1 : -1;
}

/*
 * ipc_null's object order: perf 6.1's sort__sym_cmp compares the objects'
 * short names first when the sort has no dso key (0 with one).
 */
static int ipc_dso_cmp(const struct sonde_profile *p, const char *a, const char *b)
{
	if (p->keys[K(DSO)] || a == b)
		return 0;
	if (!a || !b)
		return null_last(a, b);
	return str(a, b);
}

/* ipc_null beside a symbol key: perf's sort__sym_cmp on the entries' own symbols. */
static int ipc_sym_cmp(const struct sonde_profile *p, const struct sonde_profile_entry *a,
		       const struct sonde_profile_entry *b)
{
	const struct prof_sym *sa = a->k.sym, *sb = b->k.sym;
	int c;

	if (!sa && !sb)
		return s64_sign(a->k.addr, b->k.addr);
	/* a symbol key keeps the object (dso_id) without a dso key too */
	c = ipc_dso_cmp(p, a->k.dso_id, b->k.dso_id);
	if (c)
		return c;
	if (!sa || !sb)
		return null_last(sa, sb);
	if (sa == sb)
		return 0;
	if (sa->inlined || sb->inlined) {
		c = str(sa->name, sb->name);
		if (c)
			return -c;
		if (sa->start <= sb->end && sa->end >= sb->start)
			return 0;
	}
	return s64_sign(sa->start, sb->start) ?: s64_sign(sa->end, sb->end);
}

/*
 * perf's sort functions, turned around: they answer > 0 for the entry
 * that comes first, these < 0. Where perf subtracts unsigned values into
 * a signed result, so do these (s64_sign).
 */
int prof_keys_cmp(const struct sonde_profile *p, enum sonde_profile_key key,
		  const struct sonde_profile_entry *ea, const struct sonde_profile_entry *eb)
{
	static const struct prof_xkey zero;
	const struct prof_xkey *xa = ea->k.x ? ea->k.x : &zero, *xb = eb->k.x ? eb->k.x : &zero;
	const struct prof_xid *a = &xa->id, *b = &xb->id;
	union sonde_perf_mem_data_src sa = { .val = a->data_src }, sb = { .val = b->data_src };

	if ((int)key >= SONDE_PROFILE_KEY_MAX)
		return prof_fields_cmp(p, (int)key - SONDE_PROFILE_KEY_MAX, a->frow, b->frow);
	switch (key) {
	case K(PARENT):
		if (!a->parent || !b->parent)
			return null_last(a->parent, b->parent);
		return str(a->parent, b->parent);
	case K(SOCKET):
		return (a->socket > b->socket) - (a->socket < b->socket);
	case K(SRCFILE):
		return str(a->srcfile, b->srcfile);
	case K(SYM_SIZE):
		return num(a->sym_size, b->sym_size);
	case K(DSO_SIZE):
		return num(a->dso_size, b->dso_size);
	case K(LOCAL_WEIGHT):
	case K(WEIGHT):
		return s64_sign(b->weight, a->weight);
	case K(LOCAL_INS_LAT):
	case K(INS_LAT):
		return num(b->ins_lat, a->ins_lat);
	case K(LOCAL_P_STAGE_CYC):
	case K(P_STAGE_CYC):
		return num(b->p_stage, a->p_stage);
	case K(TRANSACTION):
		return s64_sign(b->transaction, a->transaction);
	case K(TRACE):
		return str(a->trace, b->trace);
	case K(CGROUP):
		return s64_sign(a->cgroup, b->cgroup);
	case K(CGROUP_ID):
		return s64_sign(b->cg_dev, a->cg_dev) ?: s64_sign(b->cg_ino, a->cg_ino);
	case K(IPC_NULL):
		if (p->keys[K(SYM)])
			return ipc_sym_cmp(p, ea, eb);
		/* perf's sort__sym_cmp: addresses, not names */
		if (!a->ipc_sym && !b->ipc_sym)
			return s64_sign(a->ipc_addr, b->ipc_addr);
		if (ipc_dso_cmp(p, a->ipc_dso, b->ipc_dso))
			return ipc_dso_cmp(p, a->ipc_dso, b->ipc_dso);
		if (!a->ipc_sym || !b->ipc_sym)
			return a->ipc_sym ? -1 : 1;
		if (a->ipc_iname || b->ipc_iname) {
			int c = str(a->ipc_iname ? a->ipc_iname : "", b->ipc_iname ? b->ipc_iname : "");

			if (c)
				return -c;
			if (a->ipc_start <= b->ipc_end && a->ipc_end >= b->ipc_start)
				return 0;
		}
		return s64_sign(a->ipc_start, b->ipc_start) ?: s64_sign(a->ipc_end, b->ipc_end);
	case K(TIME):
		return s64_sign(a->time, b->time);
	case K(CODE_PAGE_SIZE):
		return s64_sign(a->code_ps, b->code_ps);
	case K(ADDR):
		return s64_sign(a->ip, b->ip);
	case K(SYM_DADDR):
		return s64_sign(a->daddr, b->daddr);
	case K(SYM_IADDR):
		return s64_sign(a->iaddr, b->iaddr);
	case K(DSO_DADDR):
		/* perf compares these two the other way round: names descending, none first */
		if (!a->ddso || !b->ddso)
			return a->ddso == b->ddso ? 0 : a->ddso ? 1 : -1;
		return -str(a->ddso, b->ddso);
	case K(LOCKED):
		return num(sa.mem_lock, sb.mem_lock);
	case K(TLB):
		return num(sa.mem_dtlb, sb.mem_dtlb);
	case K(MEM):
		return num(sa.mem_lvl, sb.mem_lvl);
	case K(SNOOP):
		return num(sa.mem_snoop, sb.mem_snoop);
	case K(BLOCKED):
		return num(sa.mem_blk, sb.mem_blk);
	case K(DCACHELINE):
		if (a->dcl_mode != b->dcl_mode)
			return num(a->dcl_mode, b->dcl_mode);
		if (a->dcl_map != b->dcl_map)
			return a->dcl_map ? -1 : 1;
		if (a->dcl_map && a->dcl_mode != SONDE_PERF_RECORD_MISC_KERNEL &&
		    a->dcl_pid != b->dcl_pid)
			return a->dcl_pid > b->dcl_pid ? 1 : -1;
		return num(a->dcl, b->dcl);
	case K(PHYS_DADDR):
		return s64_sign(a->phys, b->phys);
	case K(DATA_PAGE_SIZE):
		return s64_sign(a->data_ps, b->data_ps);
	default:
		return 0;
	}
}

/* ---- the values out ---- */

int sonde_profile_entry__keys(const struct sonde_profile_entry *e,
			      struct sonde_profile_entry_keys *out)
{
	const struct prof_xkey *x;

	if (!e || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->socket = -1;
	x = e->k.x;
	if (!x)
		return 0;
	out->parent = x->id.parent;
	out->socket = x->id.socket;
	out->srcfile = x->id.srcfile;
	out->sym_size = x->id.sym_size;
	out->has_sym = x->show.has_sym;
	out->dso_size = x->id.dso_size;
	out->has_dso = x->show.has_dso;
	out->weight = x->id.weight;
	out->ins_lat = x->id.ins_lat;
	out->p_stage_cyc = x->id.p_stage;
	out->transaction = x->id.transaction;
	out->trace = x->id.trace;
	out->cgroup = x->id.cgroup;
	out->cgroup_name = x->show.cgroup_name;
	out->cgroup_dev = x->id.cg_dev;
	out->cgroup_ino = x->id.cg_ino;
	out->time = x->id.time;
	out->code_page_size = x->id.code_ps;
	out->addr = x->id.ip;
	out->data_src.val = x->show.data_src;
	out->daddr = x->show.has_dfr ? x->show.dfr.ip : 0;
	out->data = x->show.has_dfr ? (const struct sonde_profile_frame *)&x->show.dfr : NULL;
	out->iaddr = x->id.iaddr;
	out->code = x->show.has_ifr ? (const struct sonde_profile_frame *)&x->show.ifr : NULL;
	out->dcacheline = x->id.dcl;
	out->dcacheline_level = x->show.dcl_level;
	out->phys_addr = x->id.phys;
	out->data_page_size = x->id.data_ps;
	return 0;
}
