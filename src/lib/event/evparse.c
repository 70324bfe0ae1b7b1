// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Event-spec parser: a hand-written recursive descent over the perf -e
 * grammar (lists, groups, events of every kind, the names perf gives
 * them). Each event becomes the perf_event_attr perf 6.1 would build, with
 * its default exclude_guest; modifiers are in evparse_mods.c, terms in
 * evparse_terms.c.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/stat.h>
#include "sonde/evparse.h"
#include "sonde/pmu.h"
#include "sonde/tracefs.h"
#include "core_priv.h"
#include "event_priv.h"
#define MAX_EVENTS 4096
#define MAX_SPEC 65536

/* ---- errors ---- */

__attribute__((format(printf, 4, 5)))
int ev_perr(struct parser *p, size_t col, int code, const char *fmt, ...)
{
	va_list ap;

	p->code = code;
	if (p->err) {
		/* err->spec holds only the head of a long spec: past it, keep
		 * "..." and the text around the column there instead. */
		if (col >= ERR_WIN_COL && p->len >= sizeof(p->err->spec)) {
			size_t from = col - ERR_WIN_BEFORE;
			size_t n = p->len - from;

			snprintf(p->err->spec, sizeof(p->err->spec), "...%.*s",
				 (int)(n < 2 * ERR_WIN_BEFORE ? n : 2 * ERR_WIN_BEFORE),
				 p->s + from);
		}
		p->err->column = (int)(col > (size_t)INT32_MAX ? INT32_MAX : col);
		va_start(ap, fmt);
		vsnprintf(p->err->message, sizeof(p->err->message), fmt, ap);
		va_end(ap);
	}
	return -code;
}

int ev_perr_parse(struct parser *p, size_t col, const char *expected)
{
	if (col >= p->len)
		return ev_perr(p, col, SONDE_ERR_PARSE,
			    "unexpected end of spec, expected %s", expected);
	if (isprint((unsigned char)p->s[col]))
		return ev_perr(p, col, SONDE_ERR_PARSE,
			    "unexpected '%c', expected %s", p->s[col], expected);
	return ev_perr(p, col, SONDE_ERR_PARSE,
		    "unexpected byte 0x%02x, expected %s",
		    (unsigned char)p->s[col], expected);
}

/* ---- list storage ---- */

static void ev_free(struct evspec *ev)
{
	for (size_t i = 0; i < ev->nr_terms; i++) {
		free(ev->terms[i].key);
		free(ev->terms[i].val);
	}
	free(ev->terms);
	free(ev->name);
	free(ev->pmu);
	free(ev->cpumask);
	free(ev->unit);
	free(ev->probe_target);
}

void sonde_evspec_list__free(struct sonde_evspec_list *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->nr; i++)
		ev_free(&l->ev[i]);
	free(l->ev);
	free(l);
}

static struct evspec *new_event(struct parser *p, size_t col)
{
	struct sonde_evspec_list *l = p->l;
	struct evspec *ev;

	if (l->nr >= MAX_EVENTS) {
		ev_perr(p, col, E2BIG, "too many events (at most %d)", MAX_EVENTS);
		return NULL;
	}
	if (l->nr == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 8;
		void *n = realloc(l->ev, cap * sizeof(*l->ev));

		if (!n) {
			ev_perr(p, col, ENOMEM, "out of memory");
			return NULL;
		}
		l->ev = n;
		l->cap = cap;
	}
	ev = &l->ev[l->nr];
	memset(ev, 0, sizeof(*ev));
	ev->attr.size = sizeof(ev->attr);
	/* perf_guest is off and perf_host on by default in perf. */
	ev->attr.exclude_guest = 1;
	ev->leader = (int)l->nr;
	ev->scale = 1.0;
	l->nr++;
	return ev;
}

struct evspec *ev_new_event(struct parser *p, size_t col)
{
	return new_event(p, col);
}

int ev_set_str(char **dst, const char *s, size_t n)
{
	char *c = strndup(s, n);

	if (!c)
		return -ENOMEM;
	free(*dst);
	*dst = c;
	return 0;
}

int ev_add_kv(struct evspec *ev, const char *key, const char *val)
{
	struct ev_kv *n;

	for (size_t i = 0; i < ev->nr_terms; i++)
		if (!strcmp(ev->terms[i].key, key)) {
			char *v = strdup(val);

			if (!v)
				return -ENOMEM;
			free(ev->terms[i].val);
			ev->terms[i].val = v;
			return 0;
		}
	n = realloc(ev->terms, (ev->nr_terms + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	ev->terms = n;
	n[ev->nr_terms].key = strdup(key);
	n[ev->nr_terms].val = strdup(val);
	if (!n[ev->nr_terms].key || !n[ev->nr_terms].val) {
		free(n[ev->nr_terms].key);
		free(n[ev->nr_terms].val);
		return -ENOMEM;
	}
	ev->nr_terms++;
	return 0;
}

/* ---- lexing helpers ---- */

static bool is_word_char(char c)
{
	return (unsigned char)c > 0x20 && (unsigned char)c < 0x7f &&
	       !strchr(",{}/:=", c);
}

static size_t word_end(const struct parser *p, size_t from)
{
	while (from < p->len && is_word_char(p->s[from]))
		from++;
	return from;
}

/* Numbers as perf's lexer takes them: 0x hex or decimal, no overflow. */
bool ev_parse_num(const char *s, size_t len, uint64_t *v)
{
	uint64_t x = 0;
	size_t i = 0;
	bool hex = len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');

	if (!len)
		return false;
	if (hex)
		i = 2;
	for (; i < len; i++) {
		unsigned d;
		char c = s[i];

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (hex && c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (hex && c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return false;
		if (hex) {
			if (x >> 60)
				return false;
			x = x << 4 | d;
		} else {
			if (x > (UINT64_MAX - d) / 10)
				return false;
			x = x * 10 + d;
		}
	}
	*v = x;
	return true;
}

static bool parse_raw(const char *s, size_t len, uint64_t *v)
{
	uint64_t x = 0;

	if (len < 2 || s[0] != 'r' || len > 17)
		return false;
	for (size_t i = 1; i < len; i++) {
		char c = s[i];
		unsigned d;

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return false;
		x = x << 4 | d;
	}
	*v = x;
	return true;
}

/*
 * The name perf gives an event it did not name itself: its lexer's token,
 * i.e. "pmu/.../mods" when the text has that shape, else the text up to
 * the first , { } or /.
 */
static int lexer_name(struct parser *p, size_t start, char **out)
{
	const char *s = p->s + start, *e = p->s + p->len;
	const char *q = s, *r;

	while (q < e && !strchr(" ,{}/", *q))
		q++;
	if (q > s && q < e && *q == '/') {
		r = q + 1;
		while (r < e && *r != '/')
			r++;
		if (r < e) {
			r++;
			while (r < e && !strchr(" ,{}/", *r))
				r++;
			return ev_set_str(out, s, (size_t)(r - s));
		}
	}
	q = s;
	while (q < e && !strchr(",{}/", *q))
		q++;
	return ev_set_str(out, s, (size_t)(q - s));
}

/* ---- sysfs / tracefs lookups ---- */

static const struct sonde_pmus *get_pmus(struct parser *p)
{
	if (!p->pmus_loaded) {
		SONDE_OPTS(sonde_pmus_opts, o, .sysfs_root = p->sysfs_root);

		p->pmus = sonde_pmus__load(&o);
		p->pmus_loaded = true;
	}
	return p->pmus;
}

const struct sonde_pmus *ev_get_pmus(struct parser *p)
{
	return get_pmus(p);
}

static bool have_cpu_pmu(struct parser *p)
{
	char dir[4096], path[4200];
	struct stat st;

	if (p->have_cpu_pmu < 0) {
		p->have_cpu_pmu = 0;
		if (!sysfs_devices_dir(p->sysfs_root, dir, sizeof(dir))) {
			snprintf(path, sizeof(path), "%s/cpu", dir);
			p->have_cpu_pmu = !stat(path, &st);
		}
	}
	return p->have_cpu_pmu;
}

static const char *tracefs_root(struct parser *p)
{
	if (!p->tracefs_state) {
		if (p->tracefs_opt) {
			snprintf(p->tracefs, sizeof(p->tracefs), "%s",
				 p->tracefs_opt);
			p->tracefs_state = 1;
		} else {
			int err = sonde_tracefs__root(p->tracefs,
						      sizeof(p->tracefs), true);

			p->tracefs_state = err ? err : 1;
		}
	}
	return p->tracefs_state > 0 ? p->tracefs : NULL;
}

static int set_pmu(struct evspec *ev, const char *name, const char *cpumask)
{
	if (name && ev_set_str(&ev->pmu, name, strlen(name)))
		return -ENOMEM;
	if (cpumask && ev_set_str(&ev->cpumask, cpumask, strlen(cpumask)))
		return -ENOMEM;
	return 0;
}

/* ---- events ---- */

struct tp_ctx {
	struct parser *p;
	const char *root;
	size_t col;
	size_t first;
	int err;
};

static int add_tracepoint(struct parser *p, const char *root, const char *sys,
			  const char *name, size_t col)
{
	int64_t id = sonde_tracepoint__id(root, sys, name);
	struct evspec *ev;
	char full[600];

	if (id < 0) {
		if (id == -ENOENT)
			return ev_perr(p, col, ENOENT,
				    "unknown tracepoint '%s:%s' (no %s/events/%s/%s)",
				    sys, name, root, sys, name);
		if (id == -EACCES || id == -EPERM)
			return ev_perr(p, col, (int)-id,
				    "cannot read %s/events/%s/%s/id: permission "
				    "denied (tracefs is root-only here)",
				    root, sys, name);
		return ev_perr(p, col, (int)-id, "cannot read tracepoint %s:%s: %s",
			    sys, name, strerror((int)-id));
	}
	ev = new_event(p, col);
	if (!ev)
		return -p->code;
	ev->attr.type = SONDE_PERF_TYPE_TRACEPOINT;
	ev->attr.config = (uint64_t)id;
	ev->attr.sample_period = 1;
	snprintf(full, sizeof(full), "%s:%s", sys, name);
	if (ev_set_str(&ev->name, full, strlen(full)) ||
	    set_pmu(ev, "tracepoint", NULL))
		return ev_perr(p, col, ENOMEM, "out of memory");
	return 0;
}

static int tp_glob_cb(const char *sys, const char *name, void *vctx)
{
	struct tp_ctx *c = vctx;

	c->err = add_tracepoint(c->p, c->root, sys, name, c->col);
	return c->err ? 1 : 0;
}

static bool has_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

static bool tp_name_ok(const char *s)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_-.*?[]!", *s))
			return false;
	return true;
}

static int parse_tracepoint(struct parser *p, size_t start, size_t sys_end,
			    size_t *first_out)
{
	char sys[256], name[256];
	size_t ns = sys_end + 1, ne = word_end(p, ns);
	const char *root;
	int err;

	*first_out = p->l->nr;
	if (ne == ns) {
		char what[300];

		/* Name the system the user wrote, not a placeholder. */
		snprintf(what, sizeof(what), "a tracepoint name after '%.*s:'",
			 (int)(sys_end - start < 256 ? sys_end - start : 256),
			 p->s + start);
		return ev_perr_parse(p, ns, what);
	}
	if (sys_end - start >= sizeof(sys) || ne - ns >= sizeof(name))
		return ev_perr(p, start, SONDE_ERR_PARSE, "tracepoint name too long");
	memcpy(sys, p->s + start, sys_end - start);
	sys[sys_end - start] = '\0';
	memcpy(name, p->s + ns, ne - ns);
	name[ne - ns] = '\0';
	if (!tp_name_ok(sys))
		return ev_perr(p, start, SONDE_ERR_PARSE,
			    "unknown event '%s' (not a hardware, software or "
			    "cache event, nor a tracepoint system)", sys);
	if (!tp_name_ok(name))
		return ev_perr(p, ns, SONDE_ERR_PARSE,
			    "bad character in tracepoint name '%s'", name);
	root = tracefs_root(p);
	/* Mounted but root-only (mode 0700, the default): say so. */
	if (!root && !access("/sys/kernel/tracing", F_OK) &&
	    access("/sys/kernel/tracing", R_OK | X_OK))
		return ev_perr(p, start, EACCES,
			    "tracepoint '%s:%s': tracefs (/sys/kernel/tracing) is "
			    "not readable by this user; run as root, or open it "
			    "up (mount -o remount,mode=755 /sys/kernel/tracing)",
			    sys, name);
	if (!root)
		return ev_perr(p, start, ENOENT,
			    "tracepoint '%s:%s' needs tracefs, which is not "
			    "mounted (mount -t tracefs nodev /sys/kernel/tracing)",
			    sys, name);
	p->pos = ne;
	if (has_glob(sys) || has_glob(name)) {
		struct tp_ctx c = { .p = p, .root = root, .col = start };

		err = sonde_tracefs__for_each(root, sys, name, tp_glob_cb, &c);
		if (c.err)
			return c.err;
		if (err < 0)
			return ev_perr(p, start, (int)-err,
				    "cannot list tracepoints under %s: %s", root,
				    strerror(-err));
		if (p->l->nr == *first_out)
			return ev_perr(p, start, ENOENT,
				    "no tracepoint matches '%s:%s'", sys, name);
		return 0;
	}
	return add_tracepoint(p, root, sys, name, start);
}

/* Where the number in [s, s + len) goes wrong: its first bad digit, or
 * @len when every digit is fine (and the number too big). */
static size_t bad_digit(const char *s, size_t len)
{
	size_t i = len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 2 : 0;
	bool hex = i == 2;

	while (i < len && (isdigit((unsigned char)s[i]) ||
			   (hex && isxdigit((unsigned char)s[i]))))
		i++;
	return i;
}

static int parse_breakpoint(struct parser *p, size_t start)
{
	size_t i = start + 4, a = i, mods = 0, nmods = 0;
	uint64_t addr, len = 0;
	unsigned type = 0;
	struct evspec *ev;
	int err;

	while (i < p->len && isalnum((unsigned char)p->s[i]))
		i++;
	if (i == a)
		return ev_perr_parse(p, a, "a breakpoint address (mem:ADDR[/LEN][:rwx])");
	if (!ev_parse_num(p->s + a, i - a, &addr)) {
		size_t b = bad_digit(p->s + a, i - a);

		if (b == i - a)
			return ev_perr(p, a, SONDE_ERR_PARSE,
				    "'%.*s' is not a breakpoint address: more than 64 bits",
				    (int)(i - a), p->s + a);
		return ev_perr(p, a + b, SONDE_ERR_PARSE,
			    "'%.*s' is not a breakpoint address: '%c' is not a digit (decimal, or hex after 0x)",
			    (int)(i - a), p->s + a, p->s[a + b]);
	}
	if (i < p->len && p->s[i] == '/') {
		size_t l = ++i;

		while (i < p->len && isalnum((unsigned char)p->s[i]))
			i++;
		if (i == l || !ev_parse_num(p->s + l, i - l, &len))
			return ev_perr_parse(p, l, "a breakpoint length after '/'");
		/* The kernel's only widths; anything else is an EINVAL at open. */
		if (len != 0 && len != 1 && len != 2 && len != 4 && len != 8)
			return ev_perr(p, l, SONDE_ERR_PARSE,
				    "breakpoint length %llu: expected 1, 2, 4 or 8 bytes",
				    (unsigned long long)len);
	}
	if (i < p->len && p->s[i] == ':') {
		size_t m = ++i;

		while (i < p->len && !strchr(",}:/", p->s[i]))
			i++;
		/*
		 * A field with r, w or x in it is the access (modifiers have
		 * none of these letters): name its bad letter as such.
		 */
		if (i > m && strcspn(p->s + m, "rwx") < i - m) {
			for (size_t k = m; k < i; k++) {
				unsigned bit = p->s[k] == 'r' ? SONDE_HW_BREAKPOINT_R :
					       p->s[k] == 'w' ? SONDE_HW_BREAKPOINT_W :
					       p->s[k] == 'x' ? SONDE_HW_BREAKPOINT_X : 0;

				if (!bit && isprint((unsigned char)p->s[k]))
					return ev_perr(p, k, SONDE_ERR_PARSE,
						    "unknown breakpoint access '%c': expected r, w and/or x (modifiers go after another ':', as in mem:ADDR:rw:u)",
						    p->s[k]);
				if (!bit)
					return ev_perr_parse(p, k, "r, w or x (breakpoint access)");

				if (type & bit)
					return ev_perr(p, k, SONDE_ERR_PARSE,
						    "'%c' given twice in breakpoint access (r, w, x each at most once)",
						    p->s[k]);
				type |= bit;
			}
			if (i < p->len && p->s[i] == ':') {
				mods = ++i;
				while (i < p->len && !strchr(",}:/", p->s[i]))
					i++;
				nmods = i - mods;
				if (!nmods)
					return ev_perr_parse(p, mods, "modifiers");
			}
		} else {
			mods = m;
			nmods = i - m;
		}
		if (i < p->len && (p->s[i] == ':' || p->s[i] == '/'))
			return ev_perr_parse(p, i, "',' or the end of the event");
	}
	if (!type)
		type = SONDE_HW_BREAKPOINT_RW;
	if (!len)
		len = type == SONDE_HW_BREAKPOINT_X ? sizeof(long) :
						      SONDE_HW_BREAKPOINT_LEN_4;
	ev = new_event(p, start);
	if (!ev)
		return -p->code;
	ev->attr.type = SONDE_PERF_TYPE_BREAKPOINT;
	ev->attr.bp_type = type;
	ev->attr.bp_addr = addr;
	ev->attr.bp_len = len;
	ev->attr.sample_period = 1;
	if (set_pmu(ev, "breakpoint", NULL) || lexer_name(p, start, &ev->name))
		return ev_perr(p, start, ENOMEM, "out of memory");
	if (nmods) {
		err = ev_apply_mods(p, mods, p->s + mods, nmods, ev, false, true);
		if (err)
			return err;
	}
	p->pos = i;
	return 0;
}

/* Reads event modifiers after a ':' (or right after a closing '/'). */
static int trailing_mods(struct parser *p, size_t from, size_t first,
			 bool after_colon)
{
	size_t i = from;
	int err;

	while (i < p->len && !strchr(",} \t", p->s[i]))
		i++;
	(void)after_colon;
	if (i == from) {
		/* perf accepts a bare trailing ':' ("cycles:") as no modifier */
		p->pos = i;
		return 0;
	}
	for (size_t e = first; e < p->l->nr; e++) {
		err = ev_apply_mods(p, from, p->s + from, i - from, &p->l->ev[e],
				 false, true);
		if (err)
			return err;
	}
	p->pos = i;
	return 0;
}

/* Sets up one event of a known kind; @pmu for K_PMU. */
static struct evspec *symbol_event(struct parser *p, enum ev_kind kind,
				   uint64_t config, size_t col)
{
	struct evspec *ev = new_event(p, col);
	int err = 0;

	if (!ev)
		return NULL;
	switch (kind) {
	case K_HW:
		ev->attr.type = SONDE_PERF_TYPE_HARDWARE;
		break;
	case K_SW:
		ev->attr.type = SONDE_PERF_TYPE_SOFTWARE;
		err = set_pmu(ev, "software", NULL);
		break;
	case K_CACHE:
		ev->attr.type = SONDE_PERF_TYPE_HW_CACHE;
		break;
	case K_RAW:
		ev->attr.type = SONDE_PERF_TYPE_RAW;
		break;
	default:
		break;
	}
	if (!err && (kind == K_HW || kind == K_CACHE || kind == K_RAW) &&
	    have_cpu_pmu(p))
		err = set_pmu(ev, "cpu", NULL);
	ev->attr.config = config;
	if (err) {
		ev_perr(p, col, ENOMEM, "out of memory");
		return NULL;
	}
	return ev;
}

/* Bare word that is a sysfs alias of one or more PMUs ("tsc"). */
static int alias_event(struct parser *p, size_t start, size_t end,
		       size_t *first)
{
	const struct sonde_pmus *pmus = get_pmus(p);
	char word[256];

	*first = p->l->nr;
	if (end - start >= sizeof(word))
		return 1;
	memcpy(word, p->s + start, end - start);
	word[end - start] = '\0';
	for (size_t i = 0; i < sonde_pmus__count(pmus); i++) {
		const struct sonde_pmu *pmu = sonde_pmus__get(pmus, i);
		const struct sonde_pmu_alias *al = sonde_pmu__find_alias(pmu, word);
		struct evspec *ev;
		int err;

		if (!al)
			continue;
		ev = new_event(p, start);
		if (!ev)
			return -p->code;
		ev->attr.type = sonde_pmu__type(pmu);
		if (set_pmu(ev, sonde_pmu__name(pmu), sonde_pmu__cpumask(pmu)))
			return ev_perr(p, start, ENOMEM, "out of memory");
		err = ev_apply_alias(p, ev, pmu, al, start);
		if (err)
			return err;
	}
	return p->l->nr == *first ? 1 : 0;
}

/* The most helpful thing to say about a word that names nothing. */
static int unknown_event(struct parser *p, size_t start, const char *w,
			 size_t wl)
{
	const struct ev_symbol *tabs[] = { ev_hw_symbols, ev_sw_symbols };
	int shown = (int)(wl > 64 ? 64 : wl);

	for (size_t t = 0; t < 2; t++)
		for (int i = 0; tabs[t][i].name; i++)
			if (strlen(tabs[t][i].name) == wl &&
			    !strncasecmp(tabs[t][i].name, w, wl))
				return ev_perr(p, start, SONDE_ERR_PARSE,
					    "unknown event '%.*s': names are "
					    "case-sensitive, did you mean '%s'?",
					    shown, w, tabs[t][i].name);
	if (wl > 17 && w[0] == 'r' && strspn(w + 1, "0123456789abcdefABCDEF") >= wl - 1)
		return ev_perr(p, start, SONDE_ERR_PARSE,
			    "raw event '%.*s' has more than 16 hex digits "
			    "(rNNN: config in hex, at most 64 bits)", shown, w);
	if (w[0] == 'r' && wl > 2 && w[1] == '0' && (w[2] == 'x' || w[2] == 'X'))
		return ev_perr(p, start, SONDE_ERR_PARSE,
			    "raw event '%.*s': write rNNN without 0x (the "
			    "digits are hex already)", shown, w);
	return ev_perr(p, start, SONDE_ERR_PARSE,
		    "unknown event '%.*s' (see 'sonde list'; tracepoints are "
		    "written sys:name)", shown, w);
}

/* True when [from, next , or } or end) is only modifier letters. */
static bool mods_follow(const struct parser *p, size_t from)
{
	size_t i = from;

	while (i < p->len && p->s[i] && strchr(ev_mod_chars, p->s[i]))
		i++;
	return i > from && (i == p->len || p->s[i] == ',' || p->s[i] == '}');
}

static int parse_event(struct parser *p)
{
	size_t start = p->pos, end = word_end(p, start), first = p->l->nr;
	const char *w = p->s + start;
	size_t wl = end - start;
	enum ev_kind kind;
	uint64_t config = 0;
	bool valid = true;
	const struct sonde_pmu *pmu = NULL;
	int idx, err = 0;
	char next;

	/* "cpu-clock :u" as perf's lexer sees it: blanks between tokens */
	{
		size_t b = end;

		while (b < p->len && (p->s[b] == ' ' || p->s[b] == '\t'))
			b++;
		if (b > end && b < p->len && (p->s[b] == ':' || p->s[b] == '/'))
			end = b;
	}
	next = end < p->len ? p->s[end] : '\0';

	if (!wl)
		return ev_perr_parse(p, start, "an event name");
	if (wl == 3 && !memcmp(w, "mem", 3) && next == ':')
		return parse_breakpoint(p, start);
	if (next == ':' && ev_probe_kind(w, wl) >= 0)
		return ev_parse_probe(p, start, wl);

	if ((idx = ev_find_symbol(ev_hw_symbols, w, wl)) >= 0) {
		kind = K_HW;
		config = ev_hw_symbols[idx].config;
	} else if ((idx = ev_find_symbol(ev_sw_symbols, w, wl)) >= 0) {
		kind = K_SW;
		config = ev_sw_symbols[idx].config;
	} else if (wl == 13 && !memcmp(w, "duration_time", 13)) {
		kind = K_SW; /* a tool event perf counts on a dummy */
		config = SONDE_PERF_COUNT_SW_DUMMY;
	} else if (!ev_parse_cache(w, wl, &config, &valid)) {
		kind = K_CACHE;
		if (!valid)
			return ev_perr(p, start, EINVAL,
				    "'%.*s': this cache has no such operation "
				    "(see 'sonde list cache')", (int)wl, w);
	} else if (parse_raw(w, wl, &config)) {
		kind = K_RAW;
	} else if (next == ':' && mods_follow(p, end + 1) &&
		   !(err = alias_event(p, start, end, &first))) {
		/* "tsc:u": a sysfs alias with modifiers, not a tracepoint */
		p->pos = end;
		for (size_t e = first; e < p->l->nr; e++)
			if (lexer_name(p, start, &p->l->ev[e].name))
				return ev_perr(p, start, ENOMEM, "out of memory");
		return trailing_mods(p, end + 1, first, true);
	} else if (next == ':') {
		if (err < 0)
			return err;
		err = parse_tracepoint(p, start, end, &first);
		if (err)
			return err;
		goto after_tp;
	} else if (next == '/') {
		char name[256];

		if (wl >= sizeof(name))
			return ev_perr(p, start, ENOENT, "PMU name too long");
		memcpy(name, w, wl);
		name[wl] = '\0';
		pmu = sonde_pmus__find(get_pmus(p), name);
		if (!pmu)
			return ev_perr(p, start, ENOENT,
				    "Cannot find PMU `%s'. Missing kernel support? "
				    "(no %s under bus/event_source/devices)",
				    name, name);
		kind = K_PMU;
	} else {
		err = alias_event(p, start, end, &first);
		if (err < 0)
			return err;
		if (err > 0)
			return unknown_event(p, start, w, wl);
		p->pos = end;
		for (size_t e = first; e < p->l->nr; e++)
			if (!p->l->ev[e].name &&
			    lexer_name(p, start, &p->l->ev[e].name))
				return ev_perr(p, start, ENOMEM, "out of memory");
		if (next == ':')
			return trailing_mods(p, end + 1, first, true);
		return 0;
	}

	/* One event of a fixed kind, then optional /terms/ or :mods. */
	{
		struct evspec *ev;

		if (kind == K_PMU) {
			ev = new_event(p, start);
			if (ev) {
				ev->attr.type = sonde_pmu__type(pmu);
				ev->pmu_default = !sonde_pmu__default_config(
					pmu, &ev->attr.config);
				if (set_pmu(ev, sonde_pmu__name(pmu),
					    sonde_pmu__cpumask(pmu))) {
					ev_perr(p, start, ENOMEM, "out of memory");
					ev = NULL;
				}
			}
		} else {
			ev = symbol_event(p, kind, config, start);
		}
		if (!ev)
			return -p->code;
		if (kind == K_CACHE && ev_set_str(&ev->name, w, wl))
			return ev_perr(p, start, ENOMEM, "out of memory");
		p->pos = end;
		if (next == '/') {
			struct term *t = calloc(MAX_TERMS, sizeof(*t));
			size_t nt = 0, pos = end + 1;

			if (!t)
				return ev_perr(p, start, ENOMEM, "out of memory");
			err = ev_parse_terms(p, p->s, p->len, &pos, '/', 0, t, &nt);
			if (!err)
				err = kind == K_PMU ?
					ev_pmu_terms(p, ev, pmu, t, nt, false, 0) :
					ev_plain_terms(p, ev, kind, t, nt);
			free(t);
			if (err)
				return err;
			if (pos >= p->len)
				return ev_perr_parse(p, pos, "the closing '/'");
			p->pos = pos + 1;
			if (p->pos < p->len && p->s[p->pos] == ':')
				return ev_perr(p, p->pos, SONDE_ERR_PARSE,
					    "unexpected ':': modifiers follow the "
					    "closing '/' directly (pmu/terms/u)");
			err = trailing_mods(p, p->pos, first, false);
		} else if (next == ':') {
			err = trailing_mods(p, end + 1, first, true);
		} else {
			err = 0;
		}
		if (err)
			return err;
		if (!ev->name && lexer_name(p, start, &ev->name))
			return ev_perr(p, start, ENOMEM, "out of memory");
		if ((kind == K_HW || kind == K_CACHE) && !p->in_group)
			return ev_hybrid_expand(p, (size_t)(ev - p->l->ev), start);
		return 0;
	}

after_tp:
	{
		size_t b = p->pos;

		while (b < p->len && (p->s[b] == ' ' || p->s[b] == '\t'))
			b++;
		if (b > p->pos && b < p->len && (p->s[b] == ':' || p->s[b] == '/'))
			p->pos = b;
	}
	if (p->pos < p->len && p->s[p->pos] == '/') {
		struct term *t = calloc(MAX_TERMS, sizeof(*t));
		size_t nt = 0, pos = p->pos + 1;

		if (!t)
			return ev_perr(p, start, ENOMEM, "out of memory");
		err = ev_parse_terms(p, p->s, p->len, &pos, '/', 0, t, &nt);
		for (size_t e = first; !err && e < p->l->nr; e++)
			err = ev_plain_terms(p, &p->l->ev[e], K_TP, t, nt);
		free(t);
		if (err)
			return err;
		if (pos >= p->len)
			return ev_perr_parse(p, pos, "the closing '/'");
		p->pos = pos + 1;
		return trailing_mods(p, p->pos, first, false);
	}
	if (p->pos < p->len && p->s[p->pos] == ':')
		return trailing_mods(p, p->pos + 1, first, true);
	return 0;
}

static void skip_space(struct parser *p)
{
	while (p->pos < p->len && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t'))
		p->pos++;
}

/* "{a,b}:mods" or perf's named form "name{a,b}:mods" (@name may be NULL). */
static int parse_group(struct parser *p, const char *name, size_t name_len)
{
	size_t open = p->pos, first = p->l->nr;
	int err;

	p->pos++;
	p->in_group = true;
	for (;;) {
		skip_space(p);
		if (p->pos < p->len && p->s[p->pos] == '{')
			return ev_perr(p, p->pos, SONDE_ERR_PARSE,
				    "groups cannot nest");
		if (p->pos < p->len && p->s[p->pos] == '}')
			return ev_perr_parse(p, p->pos, "an event name");
		err = parse_event(p);
		if (err)
			return err;
		skip_space(p);
		if (p->pos < p->len && p->s[p->pos] == ',') {
			p->pos++;
			continue;
		}
		if (p->pos < p->len && p->s[p->pos] == '}')
			break;
		if (p->pos >= p->len)
			return ev_perr(p, open, SONDE_ERR_PARSE,
				    "group opened here is not closed by '}'");
		return ev_perr_parse(p, p->pos, "',' or '}'");
	}
	p->in_group = false;
	p->pos++;
	for (size_t e = first; e < p->l->nr; e++)
		p->l->ev[e].leader = (int)first;
	if (name) {
		char buf[256];

		snprintf(buf, sizeof(buf), "%.*s", (int)name_len, name);
		if (ev_add_kv(&p->l->ev[first], "group", buf))
			return ev_perr(p, open, ENOMEM, "out of memory");
	}
	skip_space(p);
	if (p->pos < p->len && p->s[p->pos] == ':') {
		size_t m = ++p->pos, i = m;

		while (i < p->len && !strchr(", \t", p->s[i]))
			i++;
		for (size_t e = first; i > m && e < p->l->nr; e++) {
			err = ev_apply_mods(p, m, p->s + m, i - m, &p->l->ev[e],
					 true, e == first);
			if (err)
				return err;
		}
		p->pos = i;
	}
	return 0;
}

static int parse_list(struct parser *p)
{
	int err;

	for (;;) {
		size_t w, b;

		skip_space(p);
		w = word_end(p, p->pos);
		b = w;
		while (b < p->len && (p->s[b] == ' ' || p->s[b] == '\t'))
			b++;
		if (p->pos < p->len && p->s[p->pos] == '{')
			err = parse_group(p, NULL, 0);
		else if (w > p->pos && b < p->len && p->s[b] == '{') {
			const char *name = p->s + p->pos;
			size_t nl = w - p->pos;

			p->pos = b;
			err = parse_group(p, name, nl);
		} else
			err = parse_event(p);
		if (err)
			return err;
		skip_space(p);
		if (p->pos == p->len)
			return 0;
		if (p->s[p->pos] != ',')
			return ev_perr_parse(p, p->pos, "',' or the end of the spec");
		p->pos++;
		if (p->pos == p->len)
			return ev_perr_parse(p, p->pos, "an event after ','");
	}
}

int sonde_evspec_list__parse_opts(const char *spec,
				  const struct sonde_evspec_opts *opts,
				  struct sonde_evspec_list **out,
				  struct sonde_parse_error *err)
{
	struct parser p = { .have_cpu_pmu = -1 };
	size_t n;
	int ret;

	if (err) {
		memset(err, 0, sizeof(*err));
		if (spec)
			snprintf(err->spec, sizeof(err->spec), "%s", spec);
	}
	if (!spec || !out || !OPTS_VALID(opts, sonde_evspec_opts))
		return lib_err(EINVAL);
	*out = NULL;
	n = strnlen(spec, MAX_SPEC + 1);
	p.s = spec;
	p.len = n;
	p.err = err;
	p.sysfs_root = OPTS_GET(opts, sysfs_root, NULL);
	p.tracefs_opt = OPTS_GET(opts, tracefs_root, NULL);
	p.probe_resolve = OPTS_GET(opts, probe_resolve, NULL);
	p.probe_ctx = OPTS_GET(opts, probe_ctx, NULL);
	if (n > MAX_SPEC) {
		ev_perr(&p, 0, E2BIG, "spec longer than %d bytes", MAX_SPEC);
		return lib_err(E2BIG);
	}
	p.l = calloc(1, sizeof(*p.l));
	if (!p.l)
		return lib_err(ENOMEM);
	ret = parse_list(&p);
	sonde_pmus__free(p.pmus);
	if (ret) {
		sonde_evspec_list__free(p.l);
		return lib_err(ret);
	}
	*out = p.l;
	return 0;
}

int sonde_evspec_list__parse(const char *spec, struct sonde_evspec_list **out,
			     struct sonde_parse_error *err)
{
	return sonde_evspec_list__parse_opts(spec, NULL, out, err);
}
