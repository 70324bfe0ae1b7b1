// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde script: one line per sample in perf script's layout, then one line
 * per callchain frame; -F picks fields; --json prints JSON lines. Stacks
 * come from the library's profile (sonde/profile.h), hash-consed: each
 * distinct one is rendered to text once and copied for every sample that
 * hits it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "builtin.h"
#include "options.h"
#include "sonde/perfdata_reader.h"
#include "sonde/profile.h"
#include "sonde/record.h"
#include "outbuf.h"
#include "profile_load.h"
#include "profile_warn.h"
#include "sample_slice.h"
#include "script_trace.h"
#include "branch_text.h"
#include "script_brstackoff.h"
#include "script_brstackinsn.h"

/*
 * Distinct stacks script keeps resolved, with their text: the first ones
 * met. Later new stacks are resolved and rendered for their sample only,
 * so memory stays flat however many distinct stacks a file has.
 */
#define SCRIPT_MAX_STACKS 16384

enum {
	F_COMM = 1 << 0,
	F_TID = 1 << 1,
	F_PID = 1 << 2,
	F_TIME = 1 << 3,
	F_CPU = 1 << 4,
	F_EVENT = 1 << 5,
	F_IP = 1 << 6,
	F_SYM = 1 << 7,
	F_SYMOFF = 1 << 8,
	F_DSO = 1 << 9,
	F_PERIOD = 1 << 10,
	F_ADDR = 1 << 11,
	F_TRACE = 1 << 12,
	F_SRCLINE = 1 << 13,
	F_BRSTACK = 1 << 14,
	F_BRSTACKSYM = 1 << 15,
	F_BRSTACKOFF = 1 << 16,
	F_BRSTACKINSN = 1 << 17,
	F_BRSTACKINSNLEN = 1 << 18,
};

static const struct {
	const char *name;
	unsigned bit;
} field_names[] = {
	{ "comm", F_COMM }, { "tid", F_TID },	    { "pid", F_PID },
	{ "time", F_TIME }, { "cpu", F_CPU },	    { "event", F_EVENT },
	{ "ip", F_IP },	    { "sym", F_SYM },	    { "symoff", F_SYMOFF },
	{ "dso", F_DSO },   { "period", F_PERIOD }, { "addr", F_ADDR },
	{ "trace", F_TRACE }, { "srcline", F_SRCLINE },
	{ "brstack", F_BRSTACK }, { "brstacksym", F_BRSTACKSYM },
	{ "brstackoff", F_BRSTACKOFF }, { "brstackinsn", F_BRSTACKINSN },
	{ "brstackinsnlen", F_BRSTACKINSNLEN },
};

/*
 * A sample line's text that repeats: what comes before its time (comm,
 * pid/tid, cpu: one per thread and CPU) and after it (period, event), as
 * last printed. Formatting those numbers was a fifth of script's time.
 */
struct line_part {
	const void *ptr; /* comm or event name: the profile's, reader's strings */
	uint64_t a, b;
	unsigned fields;
	uint8_t len; /* 0: empty */
	char txt[119];
};

#define HEAD_PARTS 64

struct script {
	const char *input;
	const char *fields;
	const char *comms, *pids, *tids, *syms, *cpus, *time;
	struct sample_slice slice; /* --time, -C */
	bool json, ns, force, inline_frames;
	bool cache;		/* --no-cache (--no-kallsyms-cache) clears it */
	const char *kallsyms;	/* --kallsyms FILE */
	const char *vmlinux;	/* -k/--vmlinux FILE */
	int max_stack;
	unsigned want;	  /* fields from -F, 0 = defaults */
	unsigned add, del; /* -F +x,-y */
	struct outbuf out;
	struct script_trace *trace;
	int ev_width, width_attrs;
	struct sonde_perfdata_reader *r;
	struct sonde_profile *prof;
	struct sonde_record_fmt *fmts; /* per event, made when first met */
	bool *fmt_ok;
	int nr_fmts;
	struct stack_text *texts; /* SCRIPT_MAX_STACKS, by stack id */
	size_t nr_texts;
	size_t texts_ready; /* slots faulted in, from the first */
	struct outbuf text_tmp; /* where a stack's text is made (buf NULL: not yet) */
	struct text_chunk *text_mem; /* where it is kept: the newest chunk */
	struct frame_text *lines; /* FRAME_LINES, by frame_key() */
	size_t nr_lines_made;
	struct line_part heads[HEAD_PARTS]; /* by tid */
	struct line_part tail;		    /* period and event */
	uint64_t sec;			    /* the seconds of sec_txt */
	char sec_txt[24];		    /* "%5lu." as last printed, or "" */
	const struct sonde_record *cur; /* the sample being printed */
	int cur_ev;
	struct sonde_profile_branch *br; /* its branch stack, -F brstack* */
	size_t cap_br;
	struct brstackoff *bo; /* -F brstackoff: the objects perf has loaded */
	int max_blocks;	       /* --max-blocks, for -F brstackinsn */
};

/* The kept stacks' texts that do not fit their slot, one after another. */
struct text_chunk {
	struct text_chunk *prev;
	size_t used, cap;
	char buf[];
};

#define TEXT_CHUNK ((size_t)64 << 10)
#define TEXT_CHUNK_MAX ((size_t)1 << 20)

/*
 * A kept stack's text, in its slot when it fits (most do: a few frames):
 * a sample of it then reads one place, not an index and a text elsewhere.
 */
#define TEXT_SLOT 256
#define TEXT_READY 256 /* slots */
/* A stack's frame lines, rendered once for one field set. */
struct stack_text {
	char *buf; /* NULL: empty; else txt, or a chunk's room */
	uint32_t len, cap;
	unsigned fields;
	char txt[TEXT_SLOT - 8 - 3 * 4];
};

/*
 * One frame line as printed, keyed by what it is made from: symbol and
 * object (compared by pointer: the profile's strings live as long as it
 * does), the map-relative address (the ip without an object), which with
 * them fixes the offset, and the fields. Distinct stacks share most of
 * their frames. The text is kept in the slot: copying a fixed-size block
 * costs less than a call to copy a short string.
 */
#define FRAME_TEXT 112

struct frame_text {
	const char *sym, *dso;
	uint64_t addr;
	unsigned fields;
	bool inlined;
	uint8_t len; /* 0: empty */
	char txt[FRAME_TEXT];
};

#define FRAME_LINES 8192

/* The sample fields script prints, with perf's values for absent ones. */
struct smp {
	uint64_t ip, time, addr, period;
	uint32_t pid, tid, cpu;
	const void *raw;
	uint32_t raw_size;
};

static int parse_fields(struct script *s)
{
	char *copy, *tok, *save = NULL;

	if (!s->fields)
		return 0;
	copy = strdup(s->fields);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char mode = 0;
		unsigned bit = 0;
		char *colon = strchr(tok, ':');

		if (colon) /* "sw:ip,sym": per-type lists apply to every event here */
			tok = colon + 1;
		if (*tok == '+' || *tok == '-')
			mode = *tok++;
		for (size_t i = 0; i < sizeof(field_names) / sizeof(field_names[0]); i++)
			if (!strcmp(tok, field_names[i].name))
				bit = field_names[i].bit;
		if (!bit) {
			fprintf(stderr, "sonde script: -F: unknown field '%s' (known: comm, tid, pid, time, cpu, event, trace, ip, sym, symoff, dso, srcline, period, addr, brstack, brstacksym, brstackoff, brstackinsn, brstackinsnlen)\n",
				tok);
			free(copy);
			return -EINVAL;
		}
		if (mode == '+')
			s->add |= bit;
		else if (mode == '-')
			s->del |= bit;
		else
			s->want |= bit;
	}
	free(copy);
	return 0;
}

static unsigned fields_for(const struct script *s, const struct sonde_perf_event_attr *a)
{
	uint64_t st = a->sample_type;
	unsigned f;

	if (s->want)
		f = s->want;
	else if (a->type == SONDE_PERF_TYPE_TRACEPOINT) {
		/* perf's defaults for tracepoints: the fields, no ip/sym/period */
		f = F_COMM | F_TID | F_EVENT | F_TRACE;
		if (st & SONDE_PERF_SAMPLE_TIME)
			f |= F_TIME;
		if (st & SONDE_PERF_SAMPLE_CPU)
			f |= F_CPU;
	} else {
		f = F_COMM | F_TID | F_EVENT | F_IP | F_SYM | F_SYMOFF | F_DSO | F_PERIOD;
		if (st & SONDE_PERF_SAMPLE_TIME)
			f |= F_TIME;
		if (st & SONDE_PERF_SAMPLE_CPU)
			f |= F_CPU;
	}
	return (f | s->add) & ~s->del;
}

/*
 * A field the user named that this event's samples do not carry, or NULL.
 * perf refuses such a request too, instead of printing made-up values.
 * (A fixed -c period needs no PERIOD bit: it is the attr's.)
 */
static const char *missing_field(const struct script *s, const struct sonde_perf_event_attr *a,
				 const char **hint)
{
	static const struct {
		unsigned bit;
		uint64_t need;
		const char *name, *hint;
	} req[] = {
		{ F_TIME, SONDE_PERF_SAMPLE_TIME, "time", "recorded without timestamps: perf record -T" },
		{ F_CPU, SONDE_PERF_SAMPLE_CPU, "cpu", "recorded without CPU numbers: record with -a or -C, or perf record --sample-cpu" },
		{ F_ADDR, SONDE_PERF_SAMPLE_ADDR, "addr", "recorded without data addresses: perf record -d" },
		{ F_IP, SONDE_PERF_SAMPLE_IP, "ip", "recorded without instruction pointers" },
		{ F_TID | F_PID, SONDE_PERF_SAMPLE_TID, "pid/tid", "recorded without thread ids" },
		{ F_BRSTACK | F_BRSTACKSYM | F_BRSTACKOFF | F_BRSTACKINSN | F_BRSTACKINSNLEN,
		  SONDE_PERF_SAMPLE_BRANCH_STACK, "brstack",
		  "recorded without branch stacks: record -b or -j" },
	};
	unsigned asked = s->want | s->add;

	for (size_t i = 0; i < sizeof(req) / sizeof(req[0]); i++)
		if ((asked & req[i].bit) && !(a->sample_type & req[i].need)) {
			*hint = req[i].hint;
			return req[i].name;
		}
	return NULL;
}

typedef struct sonde_profile_frame frame_t;

/* " sym+0xoff (dso)" for one frame, as perf prints it. */
static void put_frame_tail(struct outbuf *o, const frame_t *fr, unsigned f)
{
	const char *sym = sonde_profile_frame__sym(fr);
	const char *dso = sonde_profile_frame__dso(fr);

	if (f & F_SYM) {
		ob_putc(o, ' ');
		if (sym) {
			ob_puts(o, sym);
			if (f & F_SYMOFF) {
				ob_puts(o, "+0x");
				ob_hex(o, sonde_profile_frame__sym_offset(fr), 0);
			}
		} else {
			ob_puts(o, "[unknown]");
		}
	}
	if ((f & F_DSO) && (sonde_profile_frame__kind(fr) & SONDE_PROFILE_FRAME_INLINED)) {
		ob_puts(o, " (inlined)");
	} else if (f & F_DSO) {
		ob_puts(o, " (");
		ob_puts(o, dso ? dso : "[unknown]");
		ob_putc(o, ')');
	}
}

/*
 * "  file:line" under a frame, or perf's "object[address]" without one,
 * after @lead. (perf 6.1 names the file of the compile unit for lines of
 * inlined headers; sonde names the header the line is in.)
 */
static bool put_srcline(struct script *s, struct outbuf *o, const frame_t *fr, const char *lead)
{
	const char *sl;

	if (!sonde_profile_frame__dso(fr))
		return false; /* perf prints nothing for an address outside any map */
	sl = sonde_profile_frame__srcline(s->prof, fr);
	ob_puts(o, lead);
	ob_puts(o, "  ");
	if (sl) {
		ob_puts(o, sl);
	} else {
		ob_puts(o, sonde_profile_frame__dso_short(fr));
		ob_putc(o, '[');
		ob_hex(o, (sonde_profile_frame__kind(fr) & SONDE_PROFILE_FRAME_KERNEL) ?
			  sonde_profile_frame__ip(fr) : sonde_profile_frame__addr(fr), 0);
		ob_putc(o, ']');
	}
	return true;
}

/* "\taddress sym+0xoff (dso)\n", as perf prints a frame. */
static void frame_line(struct outbuf *o, const frame_t *fr, unsigned f)
{
	ob_putc(o, '\t');
	if (f & F_IP)
		ob_hex(o, sonde_profile_frame__dso(fr) ? sonde_profile_frame__addr(fr)
						       : sonde_profile_frame__ip(fr), 16);
	put_frame_tail(o, fr, f);
	ob_putc(o, '\n');
}

/*
 * Faults in the pages of [@p, @p + @n) at once (best effort: Linux 5.14
 * on), for a cache read all over before it is written: a fresh page read
 * first faults twice. Only once a run is big enough to fill it.
 */
static void populate(void *p, size_t n)
{
	uintptr_t lo = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
	uintptr_t hi = ((uintptr_t)p + n) & ~(uintptr_t)4095;

	if (hi > lo)
		(void)madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
}

/* Room for a kept stack's text of @n bytes, or NULL. */
static char *text_alloc(struct script *s, size_t n)
{
	struct text_chunk *c = s->text_mem;

	if (!c || c->cap - c->used < n) {
		/* a first small chunk, then 1 MB ones that will fill: faulted in at once */
		size_t want = c ? TEXT_CHUNK_MAX : TEXT_CHUNK, cap = n > want ? n : want;

		c = malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		if (s->text_mem)
			populate(c, sizeof(*c) + cap);
		c->used = 0;
		c->prev = s->text_mem;
		c->cap = cap;
		s->text_mem = c;
	}
	c->used += n;
	return c->buf + c->used - n;
}

/* The slot of frame @fr's line in s->lines, filled; NULL: print it uncached. */
static const struct frame_text *frame_text(struct script *s, const frame_t *fr, unsigned f)
{
	const char *sym = sonde_profile_frame__sym(fr), *dso = sonde_profile_frame__dso(fr);
	uint64_t addr = dso ? sonde_profile_frame__addr(fr) : sonde_profile_frame__ip(fr);
	bool inl = (f & F_DSO) && (sonde_profile_frame__kind(fr) & SONDE_PROFILE_FRAME_INLINED);
	uint64_t h = ((uintptr_t)sym ^ (addr * 0x9e3779b97f4a7c15ULL) ^ (uintptr_t)dso) *
		     0xff51afd7ed558ccdULL;
	struct frame_text *c;
	struct outbuf tmp;
	char buf[FRAME_TEXT * 2];

	if (!s->lines && !(s->lines = calloc(FRAME_LINES, sizeof(*s->lines))))
		return NULL;
	/* Sets of two, the newest first: direct-mapped, one in twenty collided. */
	c = &s->lines[(h >> 40) & (FRAME_LINES - 2)];
	for (int w = 0; w < 2; w++)
		if (c[w].len && c[w].sym == sym && c[w].dso == dso && c[w].addr == addr &&
		    c[w].inlined == inl && c[w].fields == f)
			return &c[w];
	/* A line longer than a slot is printed each time (ob_* never grow buf). */
	if (strlen(sym ? sym : "") + strlen(dso ? dso : "") + 64 > sizeof(buf))
		return NULL;
	tmp = (struct outbuf){ .buf = buf, .cap = sizeof(buf), .fd = -1 };
	frame_line(&tmp, fr, f);
	if (tmp.len > FRAME_TEXT)
		return NULL;
	/* Many lines made: it will be read all over. */
	if (++s->nr_lines_made == 16)
		populate(s->lines, FRAME_LINES * sizeof(*s->lines));
	c[1] = c[0];
	*c = (struct frame_text){ .sym = sym, .dso = dso, .addr = addr, .fields = f,
				  .inlined = inl, .len = (uint8_t)tmp.len };
	memcpy(c->txt, buf, tmp.len);
	return c;
}

/* A stack's frame lines, and with @blank the empty line after them. */
static void render_stack(struct script *s, struct outbuf *o, const struct sonde_profile_stack *st,
			 unsigned f, bool blank)
{
	uint32_t n = sonde_profile_stack__nr_frames(st);

	for (uint32_t i = 0; i < n; i++) {
		const frame_t *fr = sonde_profile_stack__frame(st, i);
		const struct frame_text *c = (f & F_SRCLINE) ? NULL : frame_text(s, fr, f);

		if (c) {
			/* A whole slot's worth: a fixed copy, then only len counts. */
			ob_reserve(o, FRAME_TEXT);
			memcpy(o->buf + o->len, c->txt, FRAME_TEXT);
			o->len += c->len;
			continue;
		}
		frame_line(o, fr, f);
		if ((f & F_SRCLINE) && put_srcline(s, o, fr, ""))
			ob_putc(o, '\n');
	}
	if (blank)
		ob_putc(o, '\n');
}

/*
 * A kept stack's frame lines, rendered once; cached by stack id (the
 * profile numbers the stacks it keeps 0..SCRIPT_MAX_STACKS-1). NULL for
 * one it does not keep (id UINT32_MAX): that one is rendered in place.
 */
static const char *stack_text(struct script *s, const struct sonde_profile_stack *st, unsigned f,
			      size_t *len)
{
	uint32_t id = sonde_profile_stack__id(st);
	struct stack_text *c;
	struct outbuf *tmp;

	if (id >= SCRIPT_MAX_STACKS)
		return NULL;
	if (!s->texts) {
		s->texts = calloc(SCRIPT_MAX_STACKS, sizeof(*s->texts));
		if (!s->texts)
			return NULL;
		s->nr_texts = SCRIPT_MAX_STACKS;
	}
	/*
	 * Ids are given in the order stacks are first met: the slots fill
	 * from the first, 64 kB faulted in at a time before they are read.
	 */
	while (id >= s->texts_ready) {
		populate(&s->texts[s->texts_ready], TEXT_READY * sizeof(*s->texts));
		s->texts_ready += TEXT_READY;
	}
	c = &s->texts[id];
	if (c->buf && c->fields == f) {
		*len = c->len;
		return c->buf;
	}
	/* Made in one buffer, then kept at its size: one allocation a stack. */
	if (!s->text_tmp.buf)
		ob_init_mem(&s->text_tmp);
	tmp = &s->text_tmp;
	tmp->len = 0;
	render_stack(s, tmp, st, f, true);
	if (tmp->len > UINT32_MAX)
		return NULL;
	if (tmp->len <= sizeof(c->txt)) {
		c->buf = c->txt;
	} else if (!c->buf || c->buf == c->txt || c->cap < tmp->len) {
		char *b = text_alloc(s, tmp->len);

		if (!b)
			return NULL;
		c->buf = b;
		c->cap = (uint32_t)tmp->len;
	}
	memcpy(c->buf, tmp->buf, tmp->len);
	c->len = (uint32_t)tmp->len;
	c->fields = f;
	*len = c->len;
	return c->buf;
}

static int event_width(struct script *s)
{
	int n = sonde_perfdata_reader__nr_attrs(s->r);

	if (n != s->width_attrs) {
		s->ev_width = 0;
		for (int i = 0; i < n; i++) {
			int l = (int)strlen(sonde_perfdata_reader__event_name(s->r, i));

			if (l > s->ev_width)
				s->ev_width = l;
		}
		s->width_attrs = n;
	}
	return s->ev_width;
}

/*
 * The sample's branch stack after its other fields, as perf prints it:
 * brstack wins over brstacksym, which wins over brstackoff; the objects
 * with -F dso.
 */
/* The current sample's branch stack into s->br: how many, 0 without one. */
static int sample_branches(struct script *s)
{
	int n = sonde_profile__sample_branches(s->prof, s->cur_ev, s->cur, s->br, s->cap_br);

	if (n > 0 && (size_t)n > s->cap_br) {
		struct sonde_profile_branch *v = realloc(s->br, (size_t)n * sizeof(*v));

		if (!v)
			return 0;
		s->br = v;
		s->cap_br = (size_t)n;
		n = sonde_profile__sample_branches(s->prof, s->cur_ev, s->cur, s->br, s->cap_br);
	}
	return n > 0 ? n : 0;
}

static void put_branches(struct script *s, struct outbuf *o, unsigned f)
{
	int n;

	if (!(f & (F_BRSTACK | F_BRSTACKSYM | F_BRSTACKOFF | F_BRSTACKINSN | F_BRSTACKINSNLEN)))
		return;
	n = sample_branches(s);
	if (n > 0 && (f & F_BRSTACKOFF) && !(f & (F_BRSTACK | F_BRSTACKSYM)))
		brstackoff_put(s->bo, o, s->br, (size_t)n, f & F_DSO);
	else if (n > 0 && (f & (F_BRSTACK | F_BRSTACKSYM)))
		branch_put_stack(o, s->br, (size_t)n,
				 (f & F_BRSTACK) ? BRANCH_ADDR : BRANCH_SYM, f & F_DSO);
	if (n > 0 && (f & (F_BRSTACKINSN | F_BRSTACKINSNLEN))) {
		const struct sonde_sample *ss = &s->cur->sample;
		bool tid = ss->sample_type & SONDE_PERF_SAMPLE_TID;
		struct brstackinsn_opts bo = { .ilen = f & F_BRSTACKINSNLEN,
					       .srcline = f & F_SRCLINE,
					       .max_blocks = s->max_blocks };

		brstackinsn_put(o, s->prof, tid ? (int32_t)ss->pid : -1, tid ? (int32_t)ss->tid : -1,
				ss->ip, s->br, (size_t)n, &bo);
	}
}

static void end_line(struct script *s, struct outbuf *o, unsigned f)
{
	put_branches(s, o, f);
	ob_putc(o, '\n');
}

/*
 * Room for a line part rendered into @o: from here on no ob_* call of it
 * flushes (each reserves what it writes), so it can be copied out after.
 */
#define PART_ROOM 512

/* Where a part starts in @o, or SIZE_MAX when it may not fit in one buffer. */
static size_t part_begin(struct outbuf *o, size_t longest)
{
	if (longest > PART_ROOM)
		return SIZE_MAX;
	ob_reserve(o, PART_ROOM);
	return o->len;
}

/* Keeps what was written since @start as @lp's text, if it fits. */
static void part_keep(struct line_part *lp, const struct outbuf *o, size_t start)
{
	size_t n = o->len - start;

	lp->len = 0;
	if (start == SIZE_MAX || !n || n > sizeof(lp->txt))
		return;
	memcpy(lp->txt, o->buf + start, n);
	lp->len = (uint8_t)n;
}

static bool part_is(const struct line_part *lp, const void *ptr, uint64_t a, uint64_t b,
		    unsigned f)
{
	return lp->len && lp->ptr == ptr && lp->a == a && lp->b == b && lp->fields == f;
}

static void part_set_key(struct line_part *lp, const void *ptr, uint64_t a, uint64_t b,
			 unsigned f)
{
	lp->ptr = ptr;
	lp->a = a;
	lp->b = b;
	lp->fields = f;
}

/* comm, pid/tid and cpu, as perf prints them before the time. */
static void put_head(struct outbuf *o, const struct smp *smp, const char *comm, unsigned f,
		     bool chain)
{
	if (f & F_COMM) {
		if (chain && (f & F_IP)) {
			ob_puts(o, comm);
			ob_putc(o, ' ');
		} else {
			ob_pad_str(o, comm, 16, true);
			ob_putc(o, ' ');
		}
	}
	if ((f & F_PID) && (f & F_TID)) {
		ob_dec_pad(o, (int64_t)(int32_t)smp->pid, 5, true);
		ob_putc(o, '/');
		ob_dec_pad(o, (int64_t)(int32_t)smp->tid, 5, false);
		ob_putc(o, ' ');
	} else if (f & F_PID) {
		ob_dec_pad(o, (int64_t)(int32_t)smp->pid, 5, true);
		ob_putc(o, ' ');
	} else if (f & F_TID) {
		ob_dec_pad(o, (int64_t)(int32_t)smp->tid, 5, true);
		ob_putc(o, ' ');
	}
	if (f & F_CPU) {
		ob_putc(o, '[');
		ob_dec_zpad(o, smp->cpu, 3);
		ob_puts(o, "] ");
	}
}

/* "%5lu.%06lu: " (or nanoseconds with --ns); the seconds as last printed. */
static void put_time(struct script *s, struct outbuf *o, uint64_t t)
{
	uint64_t sec = t / 1000000000ULL;

	if (!s->sec_txt[0] || s->sec != sec) {
		snprintf(s->sec_txt, sizeof(s->sec_txt), "%5" PRIu64 ".", sec);
		s->sec = sec;
	}
	ob_puts(o, s->sec_txt);
	if (s->ns)
		ob_dec_zpad(o, t % 1000000000ULL, 9);
	else
		ob_dec_zpad(o, (t % 1000000000ULL) / 1000, 6);
	ob_puts(o, ": ");
}

static void print_sample_text(struct script *s, const struct sonde_perfdata_record *rec,
			      const struct smp *smp, const char *comm,
			      const struct sonde_profile_stack *st, unsigned f, bool chain)
{
	struct outbuf *o = &s->out;
	bool chain_ip = chain && (f & F_IP);
	struct line_part *lp = &s->heads[smp->tid % HEAD_PARTS];
	uint64_t ids = (uint64_t)smp->pid << 32 | smp->tid;

	if (part_is(lp, comm, ids, (uint64_t)smp->cpu << 1 | chain_ip, f)) {
		ob_write(o, lp->txt, lp->len);
	} else {
		size_t start = part_begin(o, strlen(comm) + 64);

		put_head(o, smp, comm, f, chain);
		part_keep(lp, o, start);
		part_set_key(lp, comm, ids, (uint64_t)smp->cpu << 1 | chain_ip, f);
	}
	if (f & F_TIME)
		put_time(s, o, smp->time);
	if (f & (F_PERIOD | F_EVENT)) {
		/* perf right-aligns event names to the longest one in the file */
		int ai = rec->attr_idx >= 0 ? rec->attr_idx : 0;
		const char *ev = sonde_perfdata_reader__event_name(s->r, ai);
		int w = event_width(s);
		uint64_t key = (uint64_t)w << 32 | (uint32_t)ai;

		lp = &s->tail;
		if (part_is(lp, ev, smp->period, key, f)) {
			ob_write(o, lp->txt, lp->len);
		} else {
			size_t start = part_begin(o, strlen(ev) + (size_t)w + 32);

			if (f & F_PERIOD) {
				ob_dec_pad(o, (int64_t)smp->period, 10, true);
				ob_putc(o, ' ');
			}
			if (f & F_EVENT) {
				ob_pad_str(o, ev, w, true);
				ob_puts(o, ": ");
			}
			part_keep(lp, o, start);
			part_set_key(lp, ev, smp->period, key, f);
		}
	}
	if (f & F_ADDR) {
		ob_hex(o, smp->addr, 16);
		ob_putc(o, ' ');
	}
	if ((f & F_TRACE) && smp->raw) {
		const struct sonde_perf_event_attr *a =
			sonde_perfdata_reader__attr(s->r, rec->attr_idx >= 0 ? rec->attr_idx : 0);

		if (a && a->type == SONDE_PERF_TYPE_TRACEPOINT)
			script_trace_fields(s->trace, o, rec->attr_idx >= 0 ? rec->attr_idx : 0,
					    smp->raw, smp->raw_size);
		if (!(f & F_IP)) {
			end_line(s, o, f);
			return;
		}
	} else if (!(f & F_IP)) {
		/* Like perf: sym, symoff, dso and srcline describe the ip. */
		end_line(s, o, f);
		return;
	}
	if (chain) {
		size_t len = 0;
		const char *txt = stack_text(s, st, f, &len);

		/* The frame lines, then the rest of the sample before its blank line. */
		ob_putc(o, '\n');
		if (txt)
			ob_write(o, txt, len ? len - 1 : 0);
		else
			render_stack(s, o, st, f, false);
		end_line(s, o, f);
		return;
	}
	ob_putc(o, ' ');
	ob_hex(o, smp->ip, 16);
	if (f & (F_SYM | F_DSO))
		put_frame_tail(o, sonde_profile_stack__frame(st, 0), f);
	/* Like perf: the ip's line, then what follows the ip (branch stacks). */
	if (f & F_SRCLINE)
		put_srcline(s, o, sonde_profile_stack__frame(st, 0), "\n");
	end_line(s, o, f);
}

/*
 * Addresses as "0x..." strings: JSON numbers are doubles to JavaScript
 * and jq, which would round a kernel address's low digits away.
 */
static void put_addr_json(struct outbuf *o, uint64_t addr)
{
	ob_puts(o, "\"0x");
	ob_hex(o, addr, 0);
	ob_putc(o, '"');
}

static void put_sym_dso_json(struct outbuf *o, const frame_t *fr, bool symoff)
{
	const char *sym = sonde_profile_frame__sym(fr), *dso = sonde_profile_frame__dso(fr);

	ob_puts(o, ",\"sym\":");
	if (sym)
		ob_json_str(o, sym);
	else
		ob_puts(o, "null");
	if (sym && symoff) {
		ob_puts(o, ",\"symoff\":");
		ob_dec(o, sonde_profile_frame__sym_offset(fr));
	}
	ob_puts(o, ",\"dso\":");
	if (dso)
		ob_json_str(o, dso);
	else
		ob_puts(o, "null");
}

static void put_frame_json(struct outbuf *o, const frame_t *fr)
{
	ob_puts(o, "{\"ip\":");
	put_addr_json(o, sonde_profile_frame__ip(fr));
	put_sym_dso_json(o, fr, true);
	ob_putc(o, '}');
}

static void print_sample_json(struct script *s, const struct sonde_perfdata_record *rec,
			      const struct smp *smp, const char *comm,
			      const struct sonde_profile_stack *st, bool chain)
{
	struct outbuf *o = &s->out;
	const struct sonde_perf_event_attr *a = sonde_perfdata_reader__attr(s->r, rec->attr_idx >= 0 ? rec->attr_idx : 0);

	ob_puts(o, "{\"comm\":");
	ob_json_str(o, comm);
	ob_puts(o, ",\"pid\":");
	ob_dec_pad(o, (int32_t)smp->pid, 0, true);
	ob_puts(o, ",\"tid\":");
	ob_dec_pad(o, (int32_t)smp->tid, 0, true);
	if (a->sample_type & SONDE_PERF_SAMPLE_CPU) {
		ob_puts(o, ",\"cpu\":");
		ob_dec(o, smp->cpu);
	}
	if (a->sample_type & SONDE_PERF_SAMPLE_TIME) {
		ob_puts(o, ",\"time\":");
		ob_json_u64(o, smp->time);
	}
	ob_puts(o, ",\"event\":");
	ob_json_str(o, sonde_perfdata_reader__event_name(s->r, rec->attr_idx >= 0 ? rec->attr_idx : 0));
	ob_puts(o, ",\"period\":");
	ob_json_u64(o, smp->period);
	ob_puts(o, ",\"ip\":");
	put_addr_json(o, smp->ip);
	put_sym_dso_json(o, sonde_profile_stack__frame(st, 0), false);
	if (chain) {
		ob_puts(o, ",\"callchain\":[");
		for (uint32_t i = 0; i < sonde_profile_stack__nr_frames(st); i++) {
			if (i)
				ob_putc(o, ',');
			put_frame_json(o, sonde_profile_stack__frame(st, i));
		}
		ob_putc(o, ']');
	}
	if (a->sample_type & SONDE_PERF_SAMPLE_BRANCH_STACK) {
		int n = sample_branches(s);

		ob_puts(o, ",\"brstack\":");
		branch_put_json(o, s->br, (size_t)n);
	}
	ob_puts(o, "}\n");
}

/* Is @v in the comma separated list @list? (NULL list = everything) */
static bool in_list(const char *list, const char *v)
{
	size_t n;

	if (!list)
		return true; /* no -c: nothing to measure per sample */
	n = strlen(v);
	for (const char *p = list; *p;) {
		size_t l = strcspn(p, ",");

		if (l == n && !strncmp(p, v, n))
			return true;
		p += l;
		if (*p == ',')
			p++;
	}
	return false;
}

static bool id_in_list(const char *list, uint32_t id)
{
	char buf[16];

	if (!list)
		return true; /* no --pid/--tid: no number to format per sample */
	snprintf(buf, sizeof(buf), "%d", (int32_t)id);
	return in_list(list, buf);
}

/*
 * -S: the sample's symbol by name or address, as perf script matches it:
 * the symbol's start, the sample's address, or its address in the object.
 */
static bool sym_wanted(const char *list, const frame_t *fr)
{
	const char *sym = sonde_profile_frame__sym(fr);
	uint64_t ip = sonde_profile_frame__ip(fr);
	char buf[32];

	if (!list)
		return true;
	if (sym) {
		if (in_list(list, sym))
			return true;
		snprintf(buf, sizeof(buf), "0x%" PRIx64,
			 ip - sonde_profile_frame__sym_offset(fr));
		if (in_list(list, buf))
			return true;
	}
	snprintf(buf, sizeof(buf), "0x%" PRIx64, ip);
	if (in_list(list, buf))
		return true;
	snprintf(buf, sizeof(buf), "0x%" PRIx64, sonde_profile_frame__addr(fr));
	return in_list(list, buf);
}

static void flush_out(void *arg)
{
	ob_flush(arg);
}

/* Kernel functions named in tracepoint text (%pS): the report's kallsyms. */
static const char *kernel_sym(void *ctx, uint64_t addr, uint64_t *off)
{
	struct script *s = ctx;
	uint64_t start;
	const char *name;

	if (!s->prof)
		return NULL;
	name = sonde_profile__kernel_sym(s->prof, addr, &start);
	if (name)
		*off = addr - start;
	return name;
}

/* Event @i's record layout, made once; NULL if the codec cannot walk it. */
static const struct sonde_record_fmt *event_fmt(struct script *s, int i)
{
	if (i >= s->nr_fmts) {
		int n = sonde_perfdata_reader__nr_attrs(s->r);
		struct sonde_record_fmt *v;
		bool *ok;

		if (i >= n)
			return NULL;
		v = realloc(s->fmts, (size_t)n * sizeof(*v));
		if (v)
			s->fmts = v;
		ok = realloc(s->fmt_ok, (size_t)n * sizeof(*ok));
		if (ok)
			s->fmt_ok = ok;
		if (!v || !ok)
			return NULL;
		for (int k = s->nr_fmts; k < n; k++)
			s->fmt_ok[k] = !sonde_record_fmt__from_attr(&s->fmts[k],
						sonde_perfdata_reader__attr(s->r, k));
		s->nr_fmts = n;
	}
	return s->fmt_ok[i] ? &s->fmts[i] : NULL;
}

/* The fields of a decoded sample, as perf script shows absent ones. */
static void sample_fields(const struct sonde_perf_event_attr *a, const struct sonde_sample *ss,
			  struct smp *m)
{
	memset(m, 0, sizeof(*m));
	m->ip = ss->ip;
	m->pid = m->tid = m->cpu = (uint32_t)-1;
	if (a->sample_type & SONDE_PERF_SAMPLE_TID) {
		m->pid = ss->pid;
		m->tid = ss->tid;
	}
	if (a->sample_type & SONDE_PERF_SAMPLE_CPU)
		m->cpu = ss->cpu;
	m->time = ss->time;
	m->addr = ss->addr;
	m->period = (a->sample_type & SONDE_PERF_SAMPLE_PERIOD) ? ss->period
		    : (a->freq ? 1 : a->sample_period);
	if (a->sample_type & SONDE_PERF_SAMPLE_RAW) {
		m->raw = ss->raw.data;
		m->raw_size = ss->raw.size;
	}
}

int cmd_script(int argc, const char **argv)
{
	struct script s = {
		.input = "perf.data",
		.max_stack = SONDE_PERF_MAX_STACK_DEPTH,
		.inline_frames = true,
		.cache = true,
	};
	const struct option opts[] = {
		OPT_STRING('i', "input", &s.input, "file", "input file name (default perf.data, - for stdin)"),
		OPT_STRING('F', "fields", &s.fields, "list",
			   "fields: comm,tid,pid,time,cpu,event,ip,sym,symoff,dso,srcline,period,addr,trace,brstack,brstacksym,brstackoff,brstackinsn,brstackinsnlen (+x / -x to add / remove)"),
		OPT_BOOLEAN(0, "json", &s.json, "one JSON object per sample"),
		OPT_STRING('c', "comms", &s.comms, "list", "only samples of these commands (comma separated)"),
		OPT_STRING(0, "comm", &s.comms, "list", "same as --comms"),
		OPT_STRING(0, "pid", &s.pids, "list", "only samples of these process ids"),
		OPT_STRING(0, "tid", &s.tids, "list", "only samples of these thread ids"),
		OPT_STRING('S', "symbols", &s.syms, "list", "only samples in these symbols (names or 0x addresses)"),
		OPT_STRING('C', "cpu", &s.cpus, "list", "only samples taken on these CPUs, e.g. 0-3,5"),
		OPT_STRING(0, "time", &s.time, "range", "time slice: start,end in seconds, or percent slices 10%-20%,..."),
		OPT_BOOLEAN(0, "ns", &s.ns, "print times in nanoseconds"),
		OPT_BOOLEAN(0, "inline", &s.inline_frames, "show functions inlined at DWARF-unwound addresses (default; --no-inline)"),
		OPT_INTEGER(0, "max-stack", &s.max_stack, "n", "frames per callchain to print (default 127)"),
		OPT_INTEGER(0, "max-blocks", &s.max_blocks, "n", "blocks of code to print per sample with -F brstackinsn (default all)"),
		OPT_BOOLEAN('f', "force", &s.force, "read a file owned by another user (not root)"),
		OPT_BOOLEAN(0, "cache", &s.cache, "keep kernel symbols and DWARF answers in ~/.cache/sonde between runs (default; --no-cache)"),
		OPT_BOOLEAN(0, "kallsyms-cache", &s.cache, "same as --cache"),
		OPT_STRING(0, "kallsyms", &s.kallsyms, "file",
			   "kernel symbols from this kallsyms file (the recorded kernel's)"),
		OPT_STRING('k', "vmlinux", &s.vmlinux, "file",
			   "kernel symbols from this vmlinux (its build id must be the recorded one)"),
		OPT_END(),
	};
	const char *const usage[] = { "sonde script [<options>]", NULL };
	struct sonde_perfdata_record rec;
	int n, err, ret = 0;
	bool bad_field = false;

	n = parse_options(argc, argv, opts, usage, 0);
	if (n > 0) {
		fprintf(stderr, "sonde script: unexpected argument '%s'\n", argv[0]);
		return 129;
	}
	if (parse_fields(&s))
		return 129;
	if (s.max_stack < 0) {
		fprintf(stderr, "sonde script: --max-stack: expected 0 or more frames, got %d\n",
			s.max_stack);
		return 129;
	}
	if (((s.want | s.add) & F_BRSTACKOFF) && !(s.bo = brstackoff_new())) {
		fprintf(stderr, "sonde script: out of memory\n");
		return 1;
	}
	if (slice_parse_cpus(&s.slice, "sonde script", s.cpus) ||
	    slice_parse_time(&s.slice, "sonde script", s.time)) {
		slice_free(&s.slice);
		return 129;
	}
	s.r = prof_open_input("sonde script", s.input, !s.force);
	if (!s.r) {
		slice_free(&s.slice);
		return 1;
	}
	{
		/* The reader knows the span; sample_slice.c sees public API only. */
		struct slice_span span = { 0, 0,
					   sonde_perfdata_reader__is_streaming(s.r) };

		sonde_perfdata_reader__sample_time(s.r, &span.first, &span.last);
		if (slice_resolve(&s.slice, "sonde script", s.r, s.input, &span)) {
			sonde_perfdata_reader__free(s.r);
			slice_free(&s.slice);
			return 1;
		}
	}
	{
		SONDE_OPTS(sonde_profile_opts, po, .callchains = true,
			   .max_stack = !s.max_stack ? 1
					: s.max_stack < SONDE_PROFILE_MAX_FRAMES ? s.max_stack
										 : SONDE_PROFILE_MAX_FRAMES,
			   .no_inline = !s.inline_frames,
			   .cache = s.cache, .kallsyms = s.kallsyms, .vmlinux = s.vmlinux,
			   .max_stacks = SCRIPT_MAX_STACKS);

		s.prof = sonde_profile__new(&po);
		if (!s.prof || sonde_profile__set_reader(s.prof, s.r)) {
			fprintf(stderr, "sonde script: out of memory\n");
			sonde_profile__free(s.prof);
			sonde_perfdata_reader__free(s.r);
			return 1;
		}
	}
	ob_init_fd(&s.out, 1);
	/* A pipe: what was printed shows up before the reader waits for more. */
	sonde_perfdata_reader__set_wait_hook(s.r, flush_out, &s.out);
	s.trace = script_trace_new(s.r, kernel_sym, &s);
	while ((err = sonde_perfdata_reader__next(s.r, &rec)) > 0) {
		const struct sonde_perf_event_attr *a;
		const struct sonde_record_fmt *fmt;
		const struct sonde_profile_stack *st;
		struct sonde_record d;
		struct smp smp;
		const char *comm;
		int ai = rec.attr_idx >= 0 ? rec.attr_idx : 0;
		unsigned f;
		bool chain;

		if (rec.type != SONDE_PERF_RECORD_SAMPLE) {
			sonde_profile__add_perfdata_record(s.prof, s.r, &rec);
			continue;
		}
		a = sonde_perfdata_reader__attr(s.r, ai);
		fmt = a ? event_fmt(&s, ai) : NULL;
		if (!fmt || sonde_record__decode(fmt, rec.hdr, rec.size, &d) ||
		    d.type != SONDE_PERF_RECORD_SAMPLE)
			continue;
		sample_fields(a, &d.sample, &smp);
		if (!slice_keep(&s.slice, smp.time, smp.cpu) ||
		    !id_in_list(s.pids, smp.pid) || !id_in_list(s.tids, smp.tid))
			continue;
		comm = sonde_profile__sample_comm(s.prof, (int32_t)smp.pid, (int32_t)smp.tid);
		if (!in_list(s.comms, comm))
			continue;
		chain = a->sample_type & SONDE_PERF_SAMPLE_CALLCHAIN;
		st = sonde_profile__sample_stack(s.prof, ai, &d);
		if (!st || !sym_wanted(s.syms, sonde_profile_stack__frame(st, 0)))
			continue;
		f = fields_for(&s, a);
		if (s.bo) {
			/* Like perf: the objects a sample was symbolized in. */
			uint32_t nf = chain && (f & F_IP) ? sonde_profile_stack__nr_frames(st) : 0;

			brstackoff_loaded(s.bo, sonde_profile_stack__self(st));
			for (uint32_t i = 0; i < nf; i++)
				brstackoff_loaded(s.bo, sonde_profile_stack__frame(st, i));
		}
		if (!s.json && (s.want | s.add)) {
			const char *hint, *miss = missing_field(&s, a, &hint);

			if (miss) {
				ob_flush(&s.out);
				fprintf(stderr, "sonde script: -F %s: the samples of event '%s' do not carry it (%s)\n",
					miss, sonde_perfdata_reader__event_name(s.r, ai), hint);
				bad_field = true;
				break;
			}
		}
		s.cur = &d;
		s.cur_ev = ai;
		if (s.json)
			print_sample_json(&s, &rec, &smp, comm, st, chain);
		else
			print_sample_text(&s, &rec, &smp, comm, st, f, chain);
		if (s.out.err)
			break;
	}
	ob_flush(&s.out);
	/* perf script ends with perf report's warnings about the recording. */
	if (!bad_field)
		profile_warn_recording(s.prof);
	if (bad_field) {
		ret = 1;
	} else if (err < 0) {
		fprintf(stderr, "sonde script: %s: %s (output above is complete up to that point)\n",
			s.input, sonde_perfdata_reader__error(s.r) ?: "read error");
		ret = 1;
	}
	if (s.out.err && s.out.err != EPIPE) {
		fprintf(stderr, "sonde script: write error: %s\n", strerror(s.out.err));
		ret = 1;
	}
	script_trace_free(s.trace);
	while (s.text_mem) {
		struct text_chunk *c = s.text_mem;

		s.text_mem = c->prev;
		free(c);
	}
	free(s.texts);
	if (s.text_tmp.buf)
		ob_free(&s.text_tmp);
	free(s.lines);
	free(s.br);
	brstackoff_free(s.bo);
	free(s.fmts);
	free(s.fmt_ok);
	sonde_profile__free(s.prof);
	sonde_perfdata_reader__free(s.r);
	slice_free(&s.slice);
	ob_free(&s.out);
	return ret;
}
