// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Event terms ("pmu/event=0x3c,umask=1,period=1000/"): the term list
 * syntax, the terms every event takes, sysfs format terms (ORed into
 * config..config3 as perf does), sysfs aliases and the tool-only terms
 * kept for the consumer.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "sonde/evparse.h"
#include "sonde/pmu.h"
#include "core_priv.h"
#include "event_priv.h"

const char ev_common_terms[] =
	"config,config1,config2,config3,name,period,freq,percore,metric-id";

/* Terms that only the tools act on (stored for sonde_evspec_list__term). */
static const char *const tool_terms[] = {
	"call-graph", "stack-size", "max-stack", "max-events", "inherit",
	"no-inherit", "overwrite", "no-overwrite", "percore", "aux-output",
	"aux-sample-size", "aux-action", "metric-id", "driver-config",
	"branch_type", "time", NULL,
};

/* The subset perf allows on tracepoints. */
static const char tp_terms[] =
	"call-graph,stack-size,max-stack,max-events,inherit,no-inherit,"
	"overwrite,no-overwrite";

static bool is_term_key_char(char c, bool first)
{
	if (isalpha((unsigned char)c) || c == '_')
		return true;
	return !first && (isdigit((unsigned char)c) || c == '-' || c == '.');
}

static bool is_term_val_char(char c)
{
	return c && (isalnum((unsigned char)c) || strchr("_-.+:@*?", c));
}

/*
 * Parses "key[=value],..." from @s (length @len) starting at *pos up to the
 * terminator @stop (or end when 0). Columns are offset by @base.
 */
int ev_parse_terms(struct parser *p, const char *s, size_t len,
		       size_t *pos, char stop, size_t base, struct term *t,
		       size_t *nt)
{
	size_t i = *pos, n = 0;

	if (i < len && s[i] == stop) {
		*nt = 0;
		*pos = i;
		return 0;
	}
	for (;;) {
		size_t k;
		struct term *cur;

		while (i < len && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (!n && stop && i < len && s[i] == stop)
			break; /* "pmu/ /": blanks only */
		k = i;
		if (n == MAX_TERMS)
			return ev_perr(p, base + i, E2BIG,
				    "too many terms (at most %d)", MAX_TERMS);
		cur = &t[n];
		memset(cur, 0, sizeof(*cur));
		cur->col = base + i;
		if (i >= len || !is_term_key_char(s[i], true))
			return ev_perr_parse(p, base + i, "a term name");
		while (i < len && is_term_key_char(s[i], false))
			i++;
		if (i - k >= sizeof(cur->key))
			return ev_perr(p, base + k, SONDE_ERR_PARSE,
				    "term name too long");
		memcpy(cur->key, s + k, i - k);
		/* perf's lexer drops blanks between tokens: "period = 1" */
		while (i < len && (s[i] == ' ' || s[i] == '\t') &&
		       i + 1 < len && strchr(" \t=", s[i + 1]))
			i++;
		if (i < len && s[i] == '=') {
			size_t v = ++i;

			while (i < len && (s[i] == ' ' || s[i] == '\t'))
				i++;
			v = i;

			cur->val_col = base + v;
			while (i < len && is_term_val_char(s[i]))
				i++;
			if (i == v)
				return ev_perr_parse(p, base + v, "a term value");
			if (i - v >= sizeof(cur->str))
				return ev_perr(p, base + v, SONDE_ERR_PARSE,
					    "term value too long");
			memcpy(cur->str, s + v, i - v);
			cur->has_val = true;
			if (isdigit((unsigned char)s[v])) {
				if (!ev_parse_num(s + v, i - v, &cur->num))
					return ev_perr(p, base + v, SONDE_ERR_PARSE,
						    "bad number '%s' (decimal or 0x hex, at most 64 bits)",
						    cur->str);
				cur->is_num = true;
			}
		}
		n++;
		while (i < len && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i < len && s[i] == ',') {
			i++;
			continue;
		}
		if ((stop && i < len && s[i] == stop) || (!stop && i == len))
			break;
		return ev_perr_parse(p, base + i,
				  stop ? "',' or the closing '/'" : "','");
	}
	*pos = i;
	*nt = n;
	return 0;
}

static bool in_list(const char *const *list, const char *key)
{
	for (size_t i = 0; list[i]; i++)
		if (!strcmp(list[i], key))
			return true;
	return false;
}

static bool in_csv(const char *csv, const char *key)
{
	size_t kl = strlen(key);

	for (const char *c = csv; *c;) {
		const char *e = strchr(c, ',');
		size_t n = e ? (size_t)(e - c) : strlen(c);

		if (n == kl && !memcmp(c, key, kl))
			return true;
		if (!e)
			break;
		c = e + 1;
	}
	return false;
}

static int need_num(struct parser *p, const struct term *t)
{
	if (!t->has_val)
		return ev_perr(p, t->col, SONDE_ERR_PARSE,
			    "term '%s' needs a value (%s=N)", t->key, t->key);
	if (!t->is_num)
		return ev_perr(p, t->val_col, SONDE_ERR_PARSE,
			    "term '%s' takes a number, not '%s'", t->key,
			    t->str);
	return 0;
}

/* Terms every kind of event shares. Returns 1 when @t was not one. */
static int common_term(struct parser *p, struct evspec *ev,
		       const struct term *t, enum ev_kind kind)
{
	struct sonde_perf_event_attr *a = &ev->attr;
	int err;

	if (kind != K_TP && !strncmp(t->key, "config", 6) &&
	    (!t->key[6] || (t->key[6] >= '1' && t->key[6] <= '3' &&
			    !t->key[7]))) {
		err = need_num(p, t);
		if (err)
			return err;
		switch (t->key[6]) {
		case '\0': a->config = t->num; break;
		case '1': a->config1 = t->num; break;
		case '2': a->config2 = t->num; break;
		default: a->config3 = t->num; break;
		}
		return 0;
	}
	if (kind != K_TP && !strcmp(t->key, "name")) {
		if (!t->has_val)
			return ev_perr(p, t->col, SONDE_ERR_PARSE,
				    "term 'name' needs a value (name=NAME)");
		return ev_set_str(&ev->name, t->str, strlen(t->str)) ?
			ev_perr(p, t->col, ENOMEM, "out of memory") : 0;
	}
	if (kind != K_TP && !strcmp(t->key, "period")) {
		err = need_num(p, t);
		if (err)
			return err;
		a->sample_period = t->num;
		a->freq = 0;
		ev->flags |= SONDE_EVSPEC_PERIOD_SET;
		ev->flags &= ~(unsigned)SONDE_EVSPEC_FREQ_SET;
		return 0;
	}
	if (kind != K_TP && !strcmp(t->key, "freq")) {
		err = need_num(p, t);
		if (err)
			return err;
		a->sample_freq = t->num;
		a->freq = 1;
		ev->flags |= SONDE_EVSPEC_FREQ_SET;
		ev->flags &= ~(unsigned)SONDE_EVSPEC_PERIOD_SET;
		return 0;
	}
	if (in_list(tool_terms, t->key) &&
	    (kind != K_TP || in_csv(tp_terms, t->key))) {
		err = ev_add_kv(ev, t->key, t->has_val ? t->str : "");
		return err ? ev_perr(p, t->col, ENOMEM, "out of memory") : 0;
	}
	return 1;
}

static int unknown_term(struct parser *p, const struct term *t,
			enum ev_kind kind, const struct sonde_pmu *pmu)
{
	char valid[192];
	size_t off = 0;

	if (kind == K_TP)
		return ev_perr(p, t->col, SONDE_ERR_PARSE,
			    "unknown term '%s' for a tracepoint; valid terms: %s",
			    t->key, tp_terms);
	if (!pmu)
		return ev_perr(p, t->col, SONDE_ERR_PARSE,
			    "unknown term '%s'; valid terms: %s", t->key,
			    ev_common_terms);
	valid[0] = '\0';
	for (size_t i = 0; i < sonde_pmu__format_count(pmu); i++) {
		const char *n = sonde_pmu__format(pmu, i)->name;
		int w = snprintf(valid + off, sizeof(valid) - off, "%s,", n);

		if (w < 0 || (size_t)w >= sizeof(valid) - off)
			break;
		off += (size_t)w;
	}
	return ev_perr(p, t->col, SONDE_ERR_PARSE,
		    "unknown term '%s' for pmu '%s'; valid terms: %s%s", t->key,
		    sonde_pmu__name(pmu), valid, ev_common_terms);
}

/* Applies a sysfs alias (e.g. "event=0x3c,umask=0x00") to @ev. */
int ev_apply_alias(struct parser *p, struct evspec *ev,
		       const struct sonde_pmu *pmu,
		       const struct sonde_pmu_alias *al, size_t col)
{
	struct term *t = calloc(MAX_TERMS, sizeof(*t));
	size_t nt = 0, pos = 0;
	struct sonde_parse_error sub = { 0 }, *saved = p->err;
	int err;

	if (!t)
		return ev_perr(p, col, ENOMEM, "out of memory");
	p->err = &sub;
	err = ev_parse_terms(p, al->terms, strlen(al->terms), &pos, 0, 0, t, &nt);
	p->err = saved;
	if (err) {
		free(t);
		return ev_perr(p, col, SONDE_ERR_PARSE,
			    "sysfs alias %s/%s has bad terms '%.60s': %s",
			    sonde_pmu__name(pmu), al->name, al->terms,
			    sub.message);
	}
	err = ev_pmu_terms(p, ev, pmu, t, nt, true, col);
	free(t);
	if (err)
		return err;
	ev->scale = al->scale;
	if (al->unit && ev_set_str(&ev->unit, al->unit, strlen(al->unit)))
		return ev_perr(p, col, ENOMEM, "out of memory");
	return 0;
}

int ev_pmu_terms(struct parser *p, struct evspec *ev,
		     const struct sonde_pmu *pmu, const struct term *t,
		     size_t nt, bool from_alias, size_t alias_col)
{
	for (size_t i = 0; i < nt; i++) {
		const struct sonde_pmu_format *f;
		const struct sonde_pmu_alias *al;
		size_t col = from_alias ? alias_col : t[i].col;
		int err;

		/* perf reads event=NAME as a reference to the alias NAME. */
		if (!from_alias && t[i].has_val && !t[i].is_num &&
		    !strcasecmp(t[i].key, "event")) {
			al = sonde_pmu__find_alias(pmu, t[i].str);
			if (al) {
				err = ev_apply_alias(p, ev, pmu, al, t[i].val_col);
				if (err)
					return err;
				continue;
			}
		}
		f = sonde_pmu__find_format(pmu, t[i].key);
		if (f) {
			uint64_t *w[] = { &ev->attr.config, &ev->attr.config1,
					  &ev->attr.config2, &ev->attr.config3 };
			uint64_t v = 1;

			if (t[i].has_val) {
				if (!t[i].is_num)
					return ev_perr(p, from_alias ? col : t[i].val_col,
						    SONDE_ERR_PARSE,
						    "term '%s' takes a number, not '%s'",
						    t[i].key, t[i].str);
				v = t[i].num;
			}
			if (ev->pmu_default)
				*w[f->field] &= ~f->bits;
			if (sonde_pmu_format__apply(f, v, w[f->field]))
				return ev_perr(p, from_alias ? col : t[i].val_col,
					    SONDE_ERR_PARSE,
					    "value 0x%llx too big for format '%s' (%d bits)",
					    (unsigned long long)v, f->name,
					    __builtin_popcountll(f->bits));
			continue;
		}
		err = common_term(p, ev, &t[i], K_PMU);
		if (err <= 0) {
			if (err < 0)
				return err;
			continue;
		}
		al = !from_alias ? sonde_pmu__find_alias(pmu, t[i].key) : NULL;
		if (al) {
			err = ev_apply_alias(p, ev, pmu, al, t[i].col);
			if (err)
				return err;
			continue;
		}
		if (from_alias)
			return ev_perr(p, col, SONDE_ERR_PARSE,
				    "sysfs alias uses unknown term '%s' for pmu '%s'",
				    t[i].key, sonde_pmu__name(pmu));
		return unknown_term(p, &t[i], K_PMU, pmu);
	}
	return 0;
}

int ev_plain_terms(struct parser *p, struct evspec *ev, enum ev_kind kind,
		       const struct term *t, size_t nt)
{
	for (size_t i = 0; i < nt; i++) {
		int err = common_term(p, ev, &t[i], kind);

		if (err > 0)
			return unknown_term(p, &t[i], kind, NULL);
		if (err)
			return err;
	}
	return 0;
}
