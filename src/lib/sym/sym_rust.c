// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Rust symbol demangling: the legacy scheme (Itanium-shaped _ZN...E with a
 * trailing 17h<16 hex> hash, which is dropped as perf does) and the v0
 * scheme (_R...).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sym_priv.h"

struct sbuf {
	char *s;
	size_t len, cap;
	bool err;
};

static void sb_putn(struct sbuf *b, const char *s, size_t n)
{
	if (b->err)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		char *ns;

		while (b->len + n + 1 > cap)
			cap *= 2;
		/* Demangled names are short; a huge one is an attack. */
		if (cap > (1u << 20)) {
			b->err = true;
			return;
		}
		ns = realloc(b->s, cap);
		if (!ns) {
			b->err = true;
			return;
		}
		b->s = ns;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
}

static void sb_puts(struct sbuf *b, const char *s)
{
	sb_putn(b, s, strlen(s));
}

static char *sb_finish(struct sbuf *b)
{
	if (b->err || !b->s) {
		free(b->s);
		return NULL;
	}
	return b->s;
}

bool sym_is_rust_legacy(const char *name)
{
	size_t n = strlen(name), i;
	const char *h;

	/* _ZN ... 17h<16 hex>E */
	if (n < 3 + 20 + 1 || strncmp(name, "_ZN", 3) || name[n - 1] != 'E')
		return false;
	h = name + n - 1 - 16 - 3;
	if (strncmp(h, "17h", 3))
		return false;
	for (i = 0; i < 16; i++)
		if (!isxdigit((unsigned char)h[3 + i]))
			return false;
	return true;
}

static const struct {
	const char *esc;
	char c;
} rust_escapes[] = {
	{ "SP", '@' }, { "BP", '*' }, { "RF", '&' }, { "LT", '<' },
	{ "GT", '>' }, { "LP", '(' }, { "RP", ')' }, { "C", ',' },
};

/* One legacy path component with its $..$ and .. escapes undone. */
static bool legacy_ident(struct sbuf *b, const char *s, size_t n)
{
	size_t i = 0, j;

	if (n >= 2 && s[0] == '_' && s[1] == '$')
		i = 1;
	while (i < n) {
		if (s[i] == '$') {
			const char *e = memchr(s + i + 1, '$', n - i - 1);
			size_t k = e ? (size_t)(e - (s + i + 1)) : 0;
			bool ok = false;

			if (!e)
				return false;
			for (j = 0; j < sizeof(rust_escapes) / sizeof(rust_escapes[0]); j++) {
				if (strlen(rust_escapes[j].esc) == k &&
				    !memcmp(rust_escapes[j].esc, s + i + 1, k)) {
					sb_putn(b, &rust_escapes[j].c, 1);
					ok = true;
				}
			}
			if (!ok && k >= 2 && k <= 7 && s[i + 1] == 'u') {
				char hex[8];
				unsigned long cp;
				char *endp;

				memcpy(hex, s + i + 2, k - 1);
				hex[k - 1] = 0;
				cp = strtoul(hex, &endp, 16);
				if (*endp || cp > 0x7f)
					return false;
				{
					char c = (char)cp;

					sb_putn(b, &c, 1);
				}
				ok = true;
			}
			if (!ok)
				return false;
			i += k + 2;
		} else if (s[i] == '.' && i + 1 < n && s[i + 1] == '.') {
			sb_puts(b, "::");
			i += 2;
		} else {
			sb_putn(b, s + i, 1);
			i++;
		}
	}
	return true;
}

char *sym_rust_legacy_demangle(const char *name)
{
	const char *p = name + 3, *end = name + strlen(name) - 1 - 19;
	struct sbuf b = { 0 };
	bool first = true;

	/* end points at the "17h<hash>" component, which is dropped. */
	while (p < end) {
		size_t n = 0;

		if (!isdigit((unsigned char)*p))
			goto bad;
		while (p < end && isdigit((unsigned char)*p)) {
			n = n * 10 + (size_t)(*p - '0');
			if (n > 4096)
				goto bad;
			p++;
		}
		if (!n || n > (size_t)(end - p))
			goto bad;
		if (!first)
			sb_puts(&b, "::");
		first = false;
		if (!legacy_ident(&b, p, n))
			goto bad;
		p += n;
	}
	if (p != end || first)
		goto bad;
	return sb_finish(&b);
bad:
	free(b.s);
	return NULL;
}

/* ---- v0 (_R...) ---- */

struct v0 {
	const char *s;		/* after "_R" */
	size_t len, pos;
	int depth;
	bool err;
	struct sbuf *out;
};

#define V0_MAX_DEPTH 64

static bool v0_eat(struct v0 *p, char c)
{
	if (p->pos < p->len && p->s[p->pos] == c) {
		p->pos++;
		return true;
	}
	return false;
}

static char v0_peek(const struct v0 *p)
{
	return p->pos < p->len ? p->s[p->pos] : 0;
}

static char v0_next(struct v0 *p)
{
	if (p->pos >= p->len) {
		p->err = true;
		return 0;
	}
	return p->s[p->pos++];
}

/* {0-9a-zA-Z} "_": "_" is 0, otherwise the digits' value + 1. */
static uint64_t v0_base62(struct v0 *p)
{
	uint64_t v = 0;
	char c;

	if (v0_eat(p, '_'))
		return 0;
	while (!p->err && (c = v0_next(p)) != '_') {
		unsigned int d;

		if (c >= '0' && c <= '9')
			d = (unsigned int)(c - '0');
		else if (c >= 'a' && c <= 'z')
			d = 10 + (unsigned int)(c - 'a');
		else if (c >= 'A' && c <= 'Z')
			d = 36 + (unsigned int)(c - 'A');
		else {
			p->err = true;
			return 0;
		}
		if (v > (UINT64_MAX - d) / 62) {
			p->err = true;
			return 0;
		}
		v = v * 62 + d;
	}
	return p->err ? 0 : v + 1;
}

static uint64_t v0_opt_disambiguator(struct v0 *p)
{
	return v0_eat(p, 's') ? v0_base62(p) : 0;
}

static uint64_t v0_decimal(struct v0 *p)
{
	uint64_t v = 0;

	if (!isdigit((unsigned char)v0_peek(p))) {
		p->err = true;
		return 0;
	}
	if (v0_peek(p) == '0') {
		p->pos++;
		return 0;
	}
	while (isdigit((unsigned char)v0_peek(p))) {
		v = v * 10 + (uint64_t)(v0_next(p) - '0');
		if (v > (1u << 20)) {
			p->err = true;
			return 0;
		}
	}
	return v;
}

/* ["u"] decimal ["_"] bytes -> printed (punycode shown raw). */
static void v0_ident(struct v0 *p)
{
	bool puny = v0_eat(p, 'u');
	uint64_t n = v0_decimal(p);

	if (p->err)
		return;
	v0_eat(p, '_');
	if (n > p->len - p->pos) {
		p->err = true;
		return;
	}
	if (puny)
		sb_puts(p->out, "punycode{");
	sb_putn(p->out, p->s + p->pos, (size_t)n);
	if (puny)
		sb_puts(p->out, "}");
	p->pos += (size_t)n;
}

static void v0_path(struct v0 *p, bool in_value);
static void v0_type(struct v0 *p);
static void v0_const(struct v0 *p);

/* Runs @p fn at the position a backref names (which must lie before). */
static void v0_backref(struct v0 *p, void (*fn)(struct v0 *, bool), bool arg,
		       void (*tfn)(struct v0 *))
{
	size_t start = p->pos - 1, save;
	uint64_t target = v0_base62(p);

	if (p->err || target >= start) {
		p->err = true;
		return;
	}
	save = p->pos;
	p->pos = (size_t)target;
	if (fn)
		fn(p, arg);
	else
		tfn(p);
	p->pos = save;
}

static bool v0_enter(struct v0 *p)
{
	if (p->err || ++p->depth > V0_MAX_DEPTH) {
		p->err = true;
		return false;
	}
	return true;
}

static void v0_lifetime(struct v0 *p)
{
	uint64_t v = v0_base62(p);

	if (v)
		sb_puts(p->out, "'_ ");
}

static void v0_generic_arg(struct v0 *p)
{
	if (v0_eat(p, 'L')) {
		uint64_t v = v0_base62(p);

		sb_puts(p->out, v ? "'_" : "'_");
	} else if (v0_eat(p, 'K')) {
		v0_const(p);
	} else {
		v0_type(p);
	}
}

/* An impl's path, parsed but not printed: only its self type is. */
static void v0_skip_path(struct v0 *p)
{
	struct sbuf *save = p->out, tmp = { 0 };

	p->out = &tmp;
	v0_path(p, false);
	p->out = save;
	free(tmp.s);
}

static void v0_path(struct v0 *p, bool in_value)
{
	char tag;

	if (!v0_enter(p))
		return;
	tag = v0_next(p);
	switch (tag) {
	case 'C':
		v0_opt_disambiguator(p);
		v0_ident(p);
		break;
	case 'M':
		v0_opt_disambiguator(p);
		v0_skip_path(p);
		sb_puts(p->out, "<");
		v0_type(p);
		sb_puts(p->out, ">");
		break;
	case 'X':
		v0_opt_disambiguator(p);
		v0_skip_path(p);
		/* fall through */
	case 'Y':
		sb_puts(p->out, "<");
		v0_type(p);
		sb_puts(p->out, " as ");
		v0_path(p, false);
		sb_puts(p->out, ">");
		break;
	case 'N': {
		char ns = v0_next(p);
		uint64_t dis;

		if (!isalpha((unsigned char)ns)) {
			p->err = true;
			break;
		}
		v0_path(p, in_value);
		sb_puts(p->out, "::");
		dis = v0_opt_disambiguator(p);
		if (isupper((unsigned char)ns)) {
			char num[32];
			size_t mark = p->out->len;

			sb_puts(p->out, "{");
			if (ns == 'C')
				sb_puts(p->out, "closure");
			else if (ns == 'S')
				sb_puts(p->out, "shim");
			else
				sb_putn(p->out, &ns, 1);
			mark = p->out->len;
			v0_ident(p);
			if (p->out->len != mark && !p->out->err) {
				/* {closure:name#N}: grow by one first, then shift. */
				sb_putn(p->out, ":", 1);
				if (!p->out->err) {
					memmove(p->out->s + mark + 1, p->out->s + mark,
						p->out->len - 1 - mark);
					p->out->s[mark] = ':';
				}
			}
			snprintf(num, sizeof(num), "#%llu}",
				 (unsigned long long)dis);
			sb_puts(p->out, num);
		} else {
			v0_ident(p);
		}
		break;
	}
	case 'I': {
		bool first = true;

		v0_path(p, in_value);
		sb_puts(p->out, in_value ? "::<" : "<");
		while (!p->err && !v0_eat(p, 'E')) {
			if (!first)
				sb_puts(p->out, ", ");
			first = false;
			v0_generic_arg(p);
		}
		sb_puts(p->out, ">");
		break;
	}
	case 'B':
		v0_backref(p, v0_path, in_value, NULL);
		break;
	default:
		p->err = true;
	}
	p->depth--;
}

static const char *v0_basic(char c)
{
	switch (c) {
	case 'a': return "i8";
	case 'b': return "bool";
	case 'c': return "char";
	case 'd': return "f64";
	case 'e': return "str";
	case 'f': return "f32";
	case 'h': return "u8";
	case 'i': return "isize";
	case 'j': return "usize";
	case 'l': return "i32";
	case 'm': return "u32";
	case 'n': return "i128";
	case 'o': return "u128";
	case 's': return "i16";
	case 't': return "u16";
	case 'u': return "()";
	case 'v': return "...";
	case 'x': return "i64";
	case 'y': return "u64";
	case 'z': return "!";
	case 'p': return "_";
	default: return NULL;
	}
}

static void v0_type_list(struct v0 *p, const char *sep, size_t *count)
{
	*count = 0;
	while (!p->err && !v0_eat(p, 'E')) {
		if (*count)
			sb_puts(p->out, sep);
		v0_type(p);
		(*count)++;
	}
}

static void v0_fn_sig(struct v0 *p)
{
	size_t n;

	if (v0_eat(p, 'G'))
		v0_base62(p);
	if (v0_eat(p, 'U'))
		sb_puts(p->out, "unsafe ");
	if (v0_eat(p, 'K')) {
		sb_puts(p->out, "extern \"");
		if (v0_eat(p, 'C'))
			sb_puts(p->out, "C");
		else
			v0_ident(p);
		sb_puts(p->out, "\" ");
	}
	sb_puts(p->out, "fn(");
	v0_type_list(p, ", ", &n);
	sb_puts(p->out, ")");
	if (v0_peek(p) == 'u') {
		p->pos++;	/* returns () */
	} else {
		sb_puts(p->out, " -> ");
		v0_type(p);
	}
}

static void v0_dyn(struct v0 *p)
{
	bool first = true;

	if (v0_eat(p, 'G'))
		v0_base62(p);
	sb_puts(p->out, "dyn ");
	while (!p->err && !v0_eat(p, 'E')) {
		if (!first)
			sb_puts(p->out, " + ");
		first = false;
		v0_path(p, false);
		while (!p->err && v0_eat(p, 'p')) {
			sb_puts(p->out, "<");
			v0_ident(p);
			sb_puts(p->out, " = ");
			v0_type(p);
			sb_puts(p->out, ">");
		}
	}
	if (v0_eat(p, 'L'))
		v0_base62(p);
	else
		p->err = true;
}

static void v0_type(struct v0 *p)
{
	const char *basic;
	char c;
	size_t n;

	if (!v0_enter(p))
		return;
	c = v0_peek(p);
	if ((basic = v0_basic(c))) {
		p->pos++;
		sb_puts(p->out, basic);
		p->depth--;
		return;
	}
	switch (c) {
	case 'A':
	case 'S':
		p->pos++;
		sb_puts(p->out, "[");
		v0_type(p);
		if (c == 'A') {
			sb_puts(p->out, "; ");
			v0_const(p);
		}
		sb_puts(p->out, "]");
		break;
	case 'R':
	case 'Q':
		p->pos++;
		sb_puts(p->out, c == 'R' ? "&" : "&mut ");
		if (v0_eat(p, 'L'))
			v0_lifetime(p);
		v0_type(p);
		break;
	case 'P':
	case 'O':
		p->pos++;
		sb_puts(p->out, c == 'P' ? "*const " : "*mut ");
		v0_type(p);
		break;
	case 'F':
		p->pos++;
		v0_fn_sig(p);
		break;
	case 'T':
		p->pos++;
		sb_puts(p->out, "(");
		v0_type_list(p, ", ", &n);
		if (n == 1)
			sb_puts(p->out, ",");
		sb_puts(p->out, ")");
		break;
	case 'D':
		p->pos++;
		v0_dyn(p);
		break;
	case 'B':
		p->pos++;
		v0_backref(p, NULL, false, v0_type);
		break;
	default:
		v0_path(p, false);
	}
	p->depth--;
}

static void v0_const(struct v0 *p)
{
	const char *basic;
	uint64_t v = 0;
	bool neg, big = false;
	char c, num[48];
	int digits = 0;

	if (!v0_enter(p))
		return;
	if (v0_eat(p, 'p')) {
		sb_puts(p->out, "_");
		p->depth--;
		return;
	}
	if (v0_eat(p, 'B')) {
		v0_backref(p, NULL, false, v0_const);
		p->depth--;
		return;
	}
	c = v0_next(p);
	basic = v0_basic(c);
	if (!basic) {
		p->err = true;
		return;
	}
	neg = v0_eat(p, 'n');
	while (!p->err && (c = v0_next(p)) != '_') {
		int h = isdigit((unsigned char)c) ? c - '0' :
			(c >= 'a' && c <= 'f') ? c - 'a' + 10 : -1;

		if (h < 0) {
			p->err = true;
			break;
		}
		if (++digits > 16)
			big = true;
		v = (v << 4) | (uint64_t)h;
	}
	if (big)
		snprintf(num, sizeof(num), "{big}");
	else if (!strcmp(basic, "bool"))
		snprintf(num, sizeof(num), "%s", v ? "true" : "false");
	else if (!strcmp(basic, "char") && v >= 0x20 && v < 0x7f)
		snprintf(num, sizeof(num), "'%c'", (char)v);
	else
		snprintf(num, sizeof(num), "%s%llu", neg ? "-" : "",
			 (unsigned long long)v);
	sb_puts(p->out, num);
	p->depth--;
}

char *sym_rust_v0_demangle(const char *name)
{
	struct sbuf b = { 0 };
	struct v0 p = { 0 };
	size_t n = strlen(name);

	if (n < 3 || strncmp(name, "_R", 2))
		return NULL;
	p.s = name + 2;
	p.len = n - 2;
	p.out = &b;
	/* Optional encoding version. */
	if (isdigit((unsigned char)v0_peek(&p)))
		v0_decimal(&p);
	v0_path(&p, true);
	/* An instantiating crate may follow; a '.' suffix is vendor data. */
	if (!p.err && p.pos < p.len && v0_peek(&p) != '.') {
		struct sbuf tmp = { 0 };

		p.out = &tmp;
		v0_path(&p, false);
		free(tmp.s);
		p.out = &b;
	}
	if (p.err || (p.pos < p.len && p.s[p.pos] != '.')) {
		free(b.s);
		return NULL;
	}
	return sb_finish(&b);
}
