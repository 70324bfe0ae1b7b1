// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Tracepoint print fmt evaluation (sonde_tp_print__*, <sonde/tracefs.h>):
 * the format file's "print fmt" evaluated on a record the way perf script
 * shows tracepoint samples. The text is untrusted (it comes from the
 * recorded file), so the lexer and parser bound every length and the
 * nesting depth; the record data is untrusted too, so every field access
 * is checked against its size. The argument list is
 * parsed once into expression trees; each record then evaluates them on
 * its raw data. Integers are 64-bit two's complement values, narrowed by
 * casts and by the printf length modifier as C would; strings are char
 * arrays, __data_loc strings, literals and __print_flags/symbolic output.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/tracefs.h"
#include "core_priv.h"

#define MAX_DEPTH 64

enum tok { T_END, T_NUM, T_STR, T_ID, T_OP };

/* Two-character operators are encoded as a * 256 + b. */
#define OP2(a, b) ((a) * 256 + (b))

struct lexer {
	const char *p;
	enum tok t;
	int op;
	uint64_t num;
	char text[1024];	/* identifier or string literal */
	size_t len;
	bool bad;
};

enum node_kind {
	N_NUM, N_STR, N_FIELD, N_GETSTR, N_UNARY, N_BINARY, N_COND, N_CAST,
	N_FLAGS, N_SYMBOLIC,
};

struct pair {
	struct node *value;
	char *text;
};

struct node {
	enum node_kind kind;
	int op;
	uint64_t num;		/* N_NUM; N_CAST: size in bytes */
	bool is_signed;		/* N_CAST */
	char *str;		/* N_STR; N_FLAGS: delimiter */
	const struct sonde_tp_field *field;
	struct node *a, *b, *c;	/* N_FIELD: a = index expression */
	struct pair *pairs;
	size_t nr_pairs;
};

enum len_mod { LEN_INT, LEN_LONG, LEN_SHORT, LEN_CHAR };

struct item {
	char *text;		/* literal text, or NULL for a conversion */
	size_t len;
	char flags[32];		/* "-+ #0" width and precision */
	enum len_mod mod;
	char conv;		/* d u x X o c s p; S = %pS, N = %ps */
	struct node *arg;
};

struct sonde_tp_print {
	const struct sonde_tp_format *fmt;
	sonde_tp_sym_fn sym;	/* names %pS/%ps addresses, or NULL */
	void *sym_ctx;
	struct item *items;
	size_t nr_items;
	struct node **nodes;	/* every node, for freeing */
	size_t nr_nodes;
};

struct val {
	bool is_str;
	uint64_t v;
	const char *s;
	size_t n;
};

/* Room for strings built while evaluating one record. */
struct scratch {
	char buf[4096];
	size_t len;
};

/*
 * The caller's buffer, filled like snprintf: @len counts every byte of
 * the text, only the first @size - 1 are stored.
 */
struct sink {
	char *buf;
	size_t size, len;
};

static void sink_write(struct sink *o, const char *s, size_t n)
{
	if (o->len < o->size) {
		size_t room = o->size - o->len;

		memcpy(o->buf + o->len, s, n < room ? n : room);
	}
	o->len += n;
}

static void sink_puts(struct sink *o, const char *s)
{
	sink_write(o, s, strlen(s));
}

__attribute__((format(printf, 2, 3)))
static void sink_printf(struct sink *o, const char *fmt, ...)
{
	size_t room = o->len < o->size ? o->size - o->len : 0;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? o->buf + o->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n;
}

/* ---- lexer ---- */

static void next(struct lexer *lx)
{
	const char *p = lx->p;

	while (isspace((unsigned char)*p))
		p++;
	lx->len = 0;
	if (!*p) {
		lx->t = T_END;
	} else if (isdigit((unsigned char)*p)) {
		char *end;

		lx->num = strtoull(p, &end, 0);
		p = end;
		while (*p == 'u' || *p == 'U' || *p == 'l' || *p == 'L')
			p++;
		lx->t = T_NUM;
	} else if (isalpha((unsigned char)*p) || *p == '_') {
		while (isalnum((unsigned char)*p) || *p == '_') {
			if (lx->len + 1 < sizeof(lx->text))
				lx->text[lx->len++] = *p;
			p++;
		}
		lx->text[lx->len] = 0;
		lx->t = T_ID;
	} else if (*p == '"') {
		for (p++; *p && *p != '"'; p++) {
			char c = *p;

			if (c == '\\' && p[1]) {
				c = *++p;
				c = c == 'n' ? '\n' : c == 't' ? '\t' : c;
			}
			if (lx->len + 1 < sizeof(lx->text))
				lx->text[lx->len++] = c;
		}
		if (*p != '"')
			lx->bad = true;
		else
			p++;
		lx->text[lx->len] = 0;
		lx->t = T_STR;
	} else {
		static const char *const two[] = {
			"->", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
		};

		lx->t = T_OP;
		lx->op = *p++;
		for (size_t i = 0; i < sizeof(two) / sizeof(two[0]); i++)
			if (lx->op == two[i][0] && *p == two[i][1]) {
				lx->op = OP2(two[i][0], two[i][1]);
				p++;
				break;
			}
	}
	lx->p = p;
}

static bool is_op(const struct lexer *lx, int op)
{
	return lx->t == T_OP && lx->op == op;
}

static bool expect(struct lexer *lx, int op)
{
	if (!is_op(lx, op)) {
		lx->bad = true;
		return false;
	}
	next(lx);
	return true;
}

/* ---- parser ---- */

struct parser {
	struct lexer lx;
	struct sonde_tp_print *p;
	int depth;
	bool in_pair;	/* parsing a __print_flags/symbolic value */
};

static struct node *new_node(struct parser *ps, enum node_kind kind)
{
	struct node *n, **v;

	v = realloc(ps->p->nodes, (ps->p->nr_nodes + 1) * sizeof(*v));
	if (!v)
		return NULL;
	ps->p->nodes = v;
	n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	v[ps->p->nr_nodes++] = n;
	n->kind = kind;
	return n;
}

static struct node *parse_expr(struct parser *ps);
static struct node *parse_unary(struct parser *ps);

static const struct sonde_tp_field *field_named(struct parser *ps, const char *name)
{
	return sonde_tp_format__find_field(ps->p->fmt, name);
}

/* { value, "text" }, ... up to the closing parenthesis. */
static bool parse_pairs(struct parser *ps, struct node *n)
{
	while (is_op(&ps->lx, ',')) {
		struct pair *v;

		next(&ps->lx);
		if (!expect(&ps->lx, '{'))
			return false;
		v = realloc(n->pairs, (n->nr_pairs + 1) * sizeof(*v));
		if (!v)
			return false;
		n->pairs = v;
		v[n->nr_pairs].text = NULL;
		ps->in_pair = true;
		v[n->nr_pairs].value = parse_expr(ps);
		ps->in_pair = false;
		n->nr_pairs++;
		if (!v[n->nr_pairs - 1].value || !expect(&ps->lx, ','))
			return false;
		if (ps->lx.t != T_STR) {
			/* The kernel's { 0, NULL } end marker: no name. */
			if (!parse_expr(ps) || !expect(&ps->lx, '}'))
				return false;
			continue;
		}
		v[n->nr_pairs - 1].text = strdup(ps->lx.text);
		next(&ps->lx);
		if (!v[n->nr_pairs - 1].text || !expect(&ps->lx, '}'))
			return false;
	}
	return expect(&ps->lx, ')');
}

/*
 * A cast's type words: its size and signedness; size 0 leaves the value
 * alone (a typedef not known here).
 */
static void cast_type(const char *words, struct node *n)
{
	static const struct { const char *w; int size; bool sgn; } types[] = {
		{ "char", 1, true }, { "short", 2, true }, { "int", 4, true },
		{ "long", 8, true }, { "bool", 1, false }, { "_Bool", 1, false },
		{ "u8", 1, false }, { "s8", 1, true }, { "__u8", 1, false },
		{ "__s8", 1, true }, { "u16", 2, false }, { "s16", 2, true },
		{ "__u16", 2, false }, { "__s16", 2, true }, { "u32", 4, false },
		{ "s32", 4, true }, { "__u32", 4, false }, { "__s32", 4, true },
		{ "u64", 8, false }, { "s64", 8, true }, { "__u64", 8, false },
		{ "__s64", 8, true }, { "size_t", 8, false },
		{ "ssize_t", 8, true }, { "gfp_t", 4, false },
		{ "pid_t", 4, true },
	};
	char buf[256], *save = NULL, *w;
	bool is_unsigned = false;

	n->num = 0;
	n->is_signed = true;
	snprintf(buf, sizeof(buf), "%s", words);
	for (w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (!strcmp(w, "*")) {
			n->num = 8;
			is_unsigned = true;
			break;
		}
		if (!strcmp(w, "unsigned")) {
			is_unsigned = true;
			if (!n->num)
				n->num = 4;
			continue;
		}
		for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
			if (!strcmp(w, types[i].w)) {
				/* "long int", "short int": the first word rules */
				if (!n->num || strcmp(w, "int"))
					n->num = (uint64_t)types[i].size;
				if (!types[i].sgn)
					is_unsigned = true;
			}
	}
	n->is_signed = !is_unsigned;
}

/* After '(': a cast when only type words and '*' come before ')'. */
static bool looks_like_cast(const struct lexer *at, char *words, size_t size)
{
	struct lexer lx = *at;
	size_t len = 0;
	int nr = 0;

	words[0] = 0;
	while (lx.t == T_ID || is_op(&lx, '*')) {
		const char *w = lx.t == T_ID ? lx.text : "*";

		if (lx.t == T_ID && (!strcmp(lx.text, "REC") ||
				     !strncmp(lx.text, "__", 2) ||
				     !strcmp(lx.text, "sizeof")) &&
		    strncmp(lx.text, "__u", 3) && strncmp(lx.text, "__s", 3))
			return false;
		len += (size_t)snprintf(words + len, size - len, "%s ", w);
		if (len >= size)
			return false;
		nr++;
		next(&lx);
	}
	return nr && is_op(&lx, ')');
}

static struct node *parse_primary(struct parser *ps)
{
	struct lexer *lx = &ps->lx;
	struct node *n;

	if (lx->t == T_NUM) {
		n = new_node(ps, N_NUM);
		if (n)
			n->num = lx->num;
		next(lx);
		return n;
	}
	if (lx->t == T_STR) {
		n = new_node(ps, N_STR);
		if (!n || !(n->str = strdup(lx->text)))
			return NULL;
		next(lx);
		return n;
	}
	if (is_op(lx, '(')) {
		char words[256];

		next(lx);
		if (looks_like_cast(lx, words, sizeof(words))) {
			while (!is_op(lx, ')'))
				next(lx);
			next(lx);
			n = new_node(ps, N_CAST);
			if (!n)
				return NULL;
			cast_type(words, n);
			n->a = parse_unary(ps);
			return n->a ? n : NULL;
		}
		n = parse_expr(ps);
		return n && expect(lx, ')') ? n : NULL;
	}
	if (lx->t != T_ID)
		return NULL;
	if (!strcmp(lx->text, "REC")) {
		next(lx);
		if (!expect(lx, OP2('-', '>')) || lx->t != T_ID)
			return NULL;
		n = new_node(ps, N_FIELD);
		if (!n || !(n->field = field_named(ps, lx->text)))
			return NULL;
		next(lx);
		if (is_op(lx, '[')) {
			next(lx);
			n->a = parse_expr(ps);
			if (!n->a || !expect(lx, ']') || !n->field->array_len)
				return NULL;
		}
		return n;
	}
	if (!strcmp(lx->text, "__get_str")) {
		next(lx);
		if (!expect(lx, '(') || lx->t != T_ID)
			return NULL;
		n = new_node(ps, N_GETSTR);
		if (!n || !(n->field = field_named(ps, lx->text)))
			return NULL;
		next(lx);
		return expect(lx, ')') ? n : NULL;
	}
	if (!strcmp(lx->text, "__print_flags") ||
	    !strcmp(lx->text, "__print_symbolic")) {
		bool flags = lx->text[8] == 'f';

		next(lx);
		if (!expect(lx, '('))
			return NULL;
		n = new_node(ps, flags ? N_FLAGS : N_SYMBOLIC);
		if (!n || !(n->a = parse_expr(ps)))
			return NULL;
		if (flags) {
			if (!expect(lx, ',') || lx->t != T_STR ||
			    !(n->str = strdup(lx->text)))
				return NULL;
			next(lx);
		}
		return parse_pairs(ps, n) ? n : NULL;
	}
	if (ps->in_pair && strncmp(lx->text, "__", 2)) {
		/*
		 * A name the kernel left in the format (a macro or enum it
		 * did not export): perf knows the softirq and hrtimer restart
		 * names, and takes any other as -1, which matches nothing but
		 * a zero value of __print_flags.
		 */
		static const struct { const char *name; uint64_t v; } known[] = {
			{ "HI_SOFTIRQ", 0 }, { "TIMER_SOFTIRQ", 1 },
			{ "NET_TX_SOFTIRQ", 2 }, { "NET_RX_SOFTIRQ", 3 },
			{ "BLOCK_SOFTIRQ", 4 }, { "IRQ_POLL_SOFTIRQ", 5 },
			{ "TASKLET_SOFTIRQ", 6 }, { "SCHED_SOFTIRQ", 7 },
			{ "HRTIMER_SOFTIRQ", 8 }, { "RCU_SOFTIRQ", 9 },
			{ "HRTIMER_NORESTART", 0 }, { "HRTIMER_RESTART", 1 },
		};

		n = new_node(ps, N_NUM);
		if (!n)
			return NULL;
		n->num = ~0ULL;
		for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
			if (!strcmp(lx->text, known[i].name))
				n->num = known[i].v;
		next(lx);
		return n;
	}
	return NULL;	/* other helpers */
}

static struct node *parse_unary(struct parser *ps)
{
	struct node *n;

	if (++ps->depth > MAX_DEPTH)
		return NULL;
	if (is_op(&ps->lx, '-') || is_op(&ps->lx, '~') || is_op(&ps->lx, '!') ||
	    is_op(&ps->lx, '+')) {
		int op = ps->lx.op;

		next(&ps->lx);
		n = new_node(ps, N_UNARY);
		if (!n || !(n->a = parse_unary(ps)))
			return NULL;
		n->op = op;
	} else {
		n = parse_primary(ps);
	}
	ps->depth--;
	return n;
}

static int precedence(const struct lexer *lx)
{
	if (lx->t != T_OP)
		return 0;
	switch (lx->op) {
	case OP2('|', '|'): return 1;
	case OP2('&', '&'): return 2;
	case '|': return 3;
	case '^': return 4;
	case '&': return 5;
	case OP2('=', '='): case OP2('!', '='): return 6;
	case '<': case '>': case OP2('<', '='): case OP2('>', '='): return 7;
	case OP2('<', '<'): case OP2('>', '>'): return 8;
	case '+': case '-': return 9;
	case '*': case '/': case '%': return 10;
	default: return 0;
	}
}

static struct node *parse_binary(struct parser *ps, int min)
{
	struct node *lhs = parse_unary(ps);
	int prec;

	while (lhs && (prec = precedence(&ps->lx)) >= min) {
		struct node *n = new_node(ps, N_BINARY);

		if (!n)
			return NULL;
		n->op = ps->lx.op;
		next(&ps->lx);
		n->a = lhs;
		n->b = parse_binary(ps, prec + 1);
		if (!n->b)
			return NULL;
		lhs = n;
	}
	return lhs;
}

static struct node *parse_expr(struct parser *ps)
{
	struct node *c, *n;

	if (++ps->depth > MAX_DEPTH)
		return NULL;
	c = parse_binary(ps, 1);
	if (c && is_op(&ps->lx, '?')) {
		next(&ps->lx);
		n = new_node(ps, N_COND);
		if (!n)
			return NULL;
		n->a = c;
		n->b = parse_expr(ps);
		if (!n->b || !expect(&ps->lx, ':') || !(n->c = parse_expr(ps)))
			return NULL;
		c = n;
	}
	ps->depth--;
	return c;
}

/* ---- the literal ---- */

static bool add_item(struct sonde_tp_print *p, const struct item *it)
{
	struct item *v = realloc(p->items, (p->nr_items + 1) * sizeof(*v));

	if (!v)
		return false;
	p->items = v;
	v[p->nr_items++] = *it;
	return true;
}

static bool add_text(struct sonde_tp_print *p, const char *s, size_t n)
{
	struct item it = { 0 };

	if (!n)
		return true;
	it.text = malloc(n);
	if (!it.text)
		return false;
	memcpy(it.text, s, n);
	it.len = n;
	if (!add_item(p, &it)) {
		free(it.text);
		return false;
	}
	return true;
}

/* Splits the (unescaped) literal into text and conversions. */
static bool parse_literal(struct sonde_tp_print *p, const char *lit, size_t n)
{
	size_t i = 0, start = 0;

	while (i < n) {
		struct item it = { 0 };
		size_t fl;

		if (lit[i] != '%') {
			i++;
			continue;
		}
		if (!add_text(p, lit + start, i - start))
			return false;
		i++;
		if (i < n && lit[i] == '%') {
			start = i++;
			continue;
		}
		fl = strspn(lit + i, "-+ #0123456789.");
		if (fl >= sizeof(it.flags) || i + fl >= n)
			return false;
		memcpy(it.flags, lit + i, fl);
		i += fl;
		if (lit[i] == 'h') {
			it.mod = LEN_SHORT;
			if (lit[++i] == 'h') {
				it.mod = LEN_CHAR;
				i++;
			}
		}
		while (i < n && strchr("lzjtLq", lit[i])) {
			it.mod = LEN_LONG;
			i++;
		}
		if (i >= n || !strchr("diuxXocsp", lit[i]))
			return false;
		it.conv = lit[i] == 'i' ? 'd' : lit[i];
		if (it.conv == 'p')
			it.mod = LEN_LONG;
		i++;
		/* Kernel functions: %pS/%pF with the offset, %ps/%pf without. */
		if (it.conv == 'p' && i < n && strchr("SFsf", lit[i])) {
			it.conv = lit[i] == 'S' || lit[i] == 'F' ? 'S' : 'N';
			it.mod = LEN_LONG;
			i++;
			if (!add_item(p, &it))
				return false;
			start = i;
			continue;
		}
		/* Other pointer extensions (%pM, %pI4...) are not handled. */
		if (it.conv == 'p' && i < n && isalnum((unsigned char)lit[i]))
			return false;
		if (!add_item(p, &it))
			return false;
		start = i;
	}
	return add_text(p, lit + start, n - start);
}

void sonde_tp_print__free(struct sonde_tp_print *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nr_items; i++)
		free(p->items[i].text);
	for (size_t i = 0; i < p->nr_nodes; i++) {
		struct node *n = p->nodes[i];

		for (size_t k = 0; k < n->nr_pairs; k++)
			free(n->pairs[k].text);
		free(n->pairs);
		free(n->str);
		free(n);
	}
	free(p->items);
	free(p->nodes);
	free(p);
}

struct sonde_tp_print *sonde_tp_print__new(const struct sonde_tp_format *fmt,
					   const struct sonde_tp_print_opts *opts)
{
	const char *pf = fmt ? sonde_tp_format__print_fmt(fmt) : NULL;
	struct parser ps = { 0 };
	struct sonde_tp_print *p;

	if (!fmt || !OPTS_VALID(opts, sonde_tp_print_opts))
		return lib_err_ptr(EINVAL);
	if (!pf)
		return lib_err_ptr(SONDE_ERR_UNSUPPORTED);
	p = calloc(1, sizeof(*p));
	if (!p)
		return lib_err_ptr(ENOMEM);
	p->fmt = fmt;
	p->sym = OPTS_GET(opts, sym, NULL);
	p->sym_ctx = OPTS_GET(opts, sym_ctx, NULL);
	ps.p = p;
	ps.lx.p = pf;
	next(&ps.lx);
	if (ps.lx.t != T_STR || ps.lx.bad || ps.lx.len + 1 >= sizeof(ps.lx.text) ||
	    !parse_literal(p, ps.lx.text, ps.lx.len))
		goto fail;
	next(&ps.lx);
	for (size_t i = 0; i < p->nr_items; i++) {
		if (p->items[i].text)
			continue;
		if (!expect(&ps.lx, ','))
			goto fail;
		ps.depth = 0;
		p->items[i].arg = parse_expr(&ps);
		if (!p->items[i].arg || ps.lx.bad)
			goto fail;
	}
	if (ps.lx.t != T_END)
		goto fail;
	return p;
fail:
	/* Malformed, or a helper this evaluator does not know: same answer. */
	sonde_tp_print__free(p);
	return lib_err_ptr(SONDE_ERR_UNSUPPORTED);
}

/* ---- evaluation ---- */

static uint64_t load(const uint8_t *p, uint32_t size, bool sgn)
{
	uint64_t v = 0;

	switch (size) {
	case 1: { uint8_t x = p[0]; v = sgn ? (uint64_t)(int64_t)(int8_t)x : x; break; }
	case 2: { uint16_t x; memcpy(&x, p, 2); v = sgn ? (uint64_t)(int64_t)(int16_t)x : x; break; }
	case 4: { uint32_t x; memcpy(&x, p, 4); v = sgn ? (uint64_t)(int64_t)(int32_t)x : x; break; }
	case 8: memcpy(&v, p, 8); break;
	default: break;
	}
	return v;
}

static uint64_t narrow(uint64_t v, uint64_t size, bool sgn)
{
	if (!size || size >= 8)
		return v;
	v &= (1ULL << (size * 8)) - 1;
	if (sgn && (v & (1ULL << (size * 8 - 1))))
		v |= ~0ULL << (size * 8);
	return v;
}

static bool is_char_field(const struct sonde_tp_field *f)
{
	return f->type && strstr(f->type, "char") && (f->array_len || f->is_dynamic);
}

static bool field_value(const struct sonde_tp_field *f, const uint8_t *raw,
			size_t size, const struct val *index, struct val *out)
{
	memset(out, 0, sizeof(*out));
	if ((uint64_t)f->offset + f->size > size)
		return false;
	if (f->is_dynamic) {
		uint32_t w = (uint32_t)load(raw + f->offset, 4, false);
		uint32_t off = w & 0xffff, len = w >> 16;

		if (f->is_relative)
			off += f->offset + f->size;
		if (!is_char_field(f) || (uint64_t)off + len > size)
			return false;
		out->is_str = true;
		out->s = (const char *)raw + off;
		out->n = strnlen(out->s, len);
		return true;
	}
	if (index) {
		uint32_t elem = f->size / f->array_len;

		if (index->is_str || index->v >= f->array_len || elem > 8)
			return false;
		out->v = load(raw + f->offset + index->v * elem, elem, f->is_signed);
		return true;
	}
	if (is_char_field(f)) {
		out->is_str = true;
		out->s = (const char *)raw + f->offset;
		out->n = strnlen(out->s, f->size);
		return true;
	}
	if (f->array_len || f->size > 8)
		return false;
	out->v = load(raw + f->offset, f->size, f->is_signed);
	return true;
}

static void scratch_put(struct scratch *sc, const char *s, size_t n)
{
	if (n > sizeof(sc->buf) - sc->len)
		n = sizeof(sc->buf) - sc->len;
	memcpy(sc->buf + sc->len, s, n);
	sc->len += n;
}

static bool eval(const struct node *n, const uint8_t *raw, size_t size,
		 struct scratch *sc, struct val *out);

static bool eval_int(const struct node *n, const uint8_t *raw, size_t size,
		     struct scratch *sc, uint64_t *v)
{
	struct val x;

	if (!eval(n, raw, size, sc, &x) || x.is_str)
		return false;
	*v = x.v;
	return true;
}

static bool binary(int op, uint64_t a, uint64_t b, uint64_t *r)
{
	int64_t sa = (int64_t)a, sb = (int64_t)b;

	switch (op) {
	case '+': *r = a + b; break;
	case '-': *r = a - b; break;
	case '*': *r = a * b; break;
	case '/': case '%':
		if (!b || (sa == INT64_MIN && sb == -1))
			return false;
		*r = (uint64_t)(op == '/' ? sa / sb : sa % sb);
		break;
	case '&': *r = a & b; break;
	case '|': *r = a | b; break;
	case '^': *r = a ^ b; break;
	case OP2('<', '<'): *r = b < 64 ? a << b : 0; break;
	case OP2('>', '>'): *r = b < 64 ? a >> b : 0; break;
	case '<': *r = sa < sb; break;
	case '>': *r = sa > sb; break;
	case OP2('<', '='): *r = sa <= sb; break;
	case OP2('>', '='): *r = sa >= sb; break;
	case OP2('=', '='): *r = a == b; break;
	case OP2('!', '='): *r = a != b; break;
	case OP2('&', '&'): *r = a && b; break;
	case OP2('|', '|'): *r = a || b; break;
	default: return false;
	}
	return true;
}

/* perf's __print_flags: names of the set bits, then any rest in hex. */
static bool eval_flags(const struct node *n, const uint8_t *raw, size_t size,
		       struct scratch *sc, struct val *out)
{
	size_t start = sc->len;
	bool printed = false;
	uint64_t v, fv;
	char hex[24];

	if (!eval_int(n->a, raw, size, sc, &v))
		return false;
	for (size_t i = 0; i < n->nr_pairs; i++) {
		if (!n->pairs[i].text)
			continue;
		if (!eval_int(n->pairs[i].value, raw, size, sc, &fv))
			return false;
		/* perf's rules: a name it could not evaluate stands for 0 */
		if (!v && (int64_t)fv < 0) {
			scratch_put(sc, n->pairs[i].text, strlen(n->pairs[i].text));
			printed = true;
			break;
		}
		if ((int64_t)fv > 0 && (v & fv) == fv) {
			if (printed)
				scratch_put(sc, n->str, strlen(n->str));
			scratch_put(sc, n->pairs[i].text, strlen(n->pairs[i].text));
			printed = true;
			v &= ~fv;
		}
	}
	if (v) {
		if (printed)
			scratch_put(sc, n->str, strlen(n->str));
		scratch_put(sc, hex, (size_t)snprintf(hex, sizeof(hex), "0x%" PRIx64, v));
	}
	out->is_str = true;
	out->s = sc->buf + start;
	out->n = sc->len - start;
	return true;
}

static bool eval_symbolic(const struct node *n, const uint8_t *raw, size_t size,
			  struct scratch *sc, struct val *out)
{
	uint64_t v, fv;
	size_t start;
	char hex[24];

	if (!eval_int(n->a, raw, size, sc, &v))
		return false;
	out->is_str = true;
	for (size_t i = 0; i < n->nr_pairs; i++) {
		if (!n->pairs[i].text)
			continue;
		if (!eval_int(n->pairs[i].value, raw, size, sc, &fv))
			return false;
		if (fv == v) {
			out->s = n->pairs[i].text;
			out->n = strlen(out->s);
			return true;
		}
	}
	start = sc->len;
	scratch_put(sc, hex, (size_t)snprintf(hex, sizeof(hex), "0x%" PRIx64, v));
	out->s = sc->buf + start;
	out->n = sc->len - start;
	return true;
}

static bool eval(const struct node *n, const uint8_t *raw, size_t size,
		 struct scratch *sc, struct val *out)
{
	struct val a, b;

	memset(out, 0, sizeof(*out));
	switch (n->kind) {
	case N_NUM:
		out->v = n->num;
		return true;
	case N_STR:
		out->is_str = true;
		out->s = n->str;
		out->n = strlen(n->str);
		return true;
	case N_FIELD:
		if (n->a) {
			if (!eval(n->a, raw, size, sc, &a))
				return false;
			return field_value(n->field, raw, size, &a, out);
		}
		return field_value(n->field, raw, size, NULL, out);
	case N_GETSTR:
		return field_value(n->field, raw, size, NULL, out) && out->is_str;
	case N_UNARY:
		if (!eval_int(n->a, raw, size, sc, &out->v))
			return false;
		out->v = n->op == '-' ? 0 - out->v : n->op == '~' ? ~out->v :
			 n->op == '!' ? !out->v : out->v;
		return true;
	case N_CAST:
		if (!eval(n->a, raw, size, sc, out))
			return false;
		if (!out->is_str)
			out->v = narrow(out->v, n->num, n->is_signed);
		return true;
	case N_BINARY:
		if (!eval(n->a, raw, size, sc, &a) || a.is_str)
			return false;
		/* && and || stop early, as in C. */
		if ((n->op == OP2('&', '&') && !a.v) || (n->op == OP2('|', '|') && a.v)) {
			out->v = n->op == OP2('|', '|');
			return true;
		}
		if (!eval(n->b, raw, size, sc, &b) || b.is_str)
			return false;
		return binary(n->op, a.v, b.v, &out->v);
	case N_COND:
		if (!eval(n->a, raw, size, sc, &a))
			return false;
		return eval((a.is_str ? a.s != NULL : a.v != 0) ? n->b : n->c,
			    raw, size, sc, out);
	case N_FLAGS:
		return eval_flags(n, raw, size, sc, out);
	case N_SYMBOLIC:
		return eval_symbolic(n, raw, size, sc, out);
	}
	return false;
}

/* The conversion's format is rebuilt from checked flags and a fixed letter. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static bool put_conv(struct sink *o, const struct item *it, const struct val *v,
		     sonde_tp_sym_fn sym, void *ctx)
{
	char cfmt[48];
	uint64_t x;

	if (it->conv == 'S' || it->conv == 'N') {
		uint64_t off = 0;
		const char *name;

		if (v->is_str)
			return false;
		name = sym ? sym(ctx, v->v, &off) : NULL;
		if (!name)
			sink_printf(o, "0x%" PRIx64, v->v);
		else if (it->conv == 'S')
			sink_printf(o, "%s+0x%" PRIx64, name, off);
		else
			sink_puts(o, name);
		return true;
	}

	if (it->conv == 's') {
		if (!v->is_str)
			return false;
		snprintf(cfmt, sizeof(cfmt), "%%%s.*s", it->flags);
		if (strchr(it->flags, '.'))
			snprintf(cfmt, sizeof(cfmt), "%%%ss", it->flags);
		if (strchr(it->flags, '.')) {
			char *s = strndup(v->s, v->n);

			if (!s)
				return false;
			sink_printf(o, cfmt, s);
			free(s);
		} else {
			sink_printf(o, cfmt, (int)v->n, v->s);
		}
		return true;
	}
	if (v->is_str)
		return false;
	x = v->v;
	switch (it->mod) {
	case LEN_INT: x = narrow(x, 4, it->conv == 'd'); break;
	case LEN_SHORT: x = narrow(x, 2, it->conv == 'd'); break;
	case LEN_CHAR: x = narrow(x, 1, it->conv == 'd'); break;
	case LEN_LONG: break;
	}
	if (it->conv == 'p') {
		if (x)
			sink_printf(o, "0x%" PRIx64, x);
		else
			sink_puts(o, "(nil)");
	} else if (it->conv == 'c') {
		snprintf(cfmt, sizeof(cfmt), "%%%sc", it->flags);
		sink_printf(o, cfmt, (int)(char)x);
	} else if (it->conv == 'd') {
		snprintf(cfmt, sizeof(cfmt), "%%%slld", it->flags);
		sink_printf(o, cfmt, (long long)x);
	} else {
		snprintf(cfmt, sizeof(cfmt), "%%%sll%c", it->flags, it->conv);
		sink_printf(o, cfmt, (unsigned long long)(it->mod == LEN_INT ?
				   (uint32_t)x : x));
	}
	return true;
}
#pragma GCC diagnostic pop

int sonde_tp_print__format(const struct sonde_tp_print *p, const void *raw,
			   size_t raw_size, char *buf, size_t size)
{
	struct scratch scr, *sc = &scr;
	struct sink o = { .buf = buf, .size = size };
	bool ok = true;

	if (!p || (!raw && raw_size) || (!buf && size))
		return lib_err(EINVAL);
	sc->len = 0;
	for (size_t i = 0; ok && i < p->nr_items; i++) {
		const struct item *it = &p->items[i];
		struct val v;

		if (it->text)
			sink_write(&o, it->text, it->len);
		else
			ok = eval(it->arg, raw, raw_size, sc, &v) &&
			     put_conv(&o, it, &v, p->sym, p->sym_ctx);
	}
	if (!ok || o.len > INT_MAX) {
		if (size)
			buf[0] = 0;
		return lib_err(ok ? EOVERFLOW : SONDE_ERR_FORMAT);
	}
	if (size)
		buf[o.len < size ? o.len : size - 1] = 0;
	return (int)o.len;
}
