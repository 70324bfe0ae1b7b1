// SPDX-License-Identifier: LGPL-2.1-only
/* Accessors of a parsed event list and the perf-style error rendering. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "sonde/evparse.h"
#include "core_priv.h"
#include "event_priv.h"

static const struct evspec *get(const struct sonde_evspec_list *l, size_t i)
{
	if (!l || i >= l->nr) {
		errno = EINVAL;
		return NULL;
	}
	return &l->ev[i];
}

size_t sonde_evspec_list__count(const struct sonde_evspec_list *l)
{
	return l ? l->nr : 0;
}

const struct sonde_perf_event_attr *
sonde_evspec_list__attr(const struct sonde_evspec_list *l, size_t i)
{
	const struct evspec *ev = get(l, i);

	return ev ? &ev->attr : NULL;
}

const char *sonde_evspec_list__name(const struct sonde_evspec_list *l, size_t i)
{
	const struct evspec *ev = get(l, i);

	return ev ? ev->name : NULL;
}

int sonde_evspec_list__leader(const struct sonde_evspec_list *l, size_t i)
{
	const struct evspec *ev = get(l, i);

	return ev ? ev->leader : lib_err(EINVAL);
}

const char *sonde_evspec_list__pmu(const struct sonde_evspec_list *l, size_t i)
{
	const struct evspec *ev = get(l, i);

	return ev ? ev->pmu : NULL;
}

const char *sonde_evspec_list__cpumask(const struct sonde_evspec_list *l,
				       size_t i)
{
	const struct evspec *ev = get(l, i);

	return ev ? ev->cpumask : NULL;
}

const char *
sonde_evspec_list__probe_target(const struct sonde_evspec_list *l, size_t i)
{
	const struct evspec *ev = get(l, i);

	return ev ? ev->probe_target : NULL;
}

unsigned int sonde_evspec_list__flags(const struct sonde_evspec_list *l,
				      size_t i)
{
	const struct evspec *ev = get(l, i);

	return ev ? ev->flags : 0;
}

const char *sonde_evspec_list__term(const struct sonde_evspec_list *l, size_t i,
				    const char *key)
{
	const struct evspec *ev = get(l, i);

	for (size_t k = 0; ev && key && k < ev->nr_terms; k++)
		if (!strcmp(ev->terms[k].key, key))
			return ev->terms[k].val;
	return NULL;
}

double sonde_evspec_list__scale(const struct sonde_evspec_list *l, size_t i,
				const char **unit)
{
	const struct evspec *ev = get(l, i);

	if (unit)
		*unit = ev && ev->unit ? ev->unit : "";
	return ev ? ev->scale : 1.0;
}

int sonde_parse_error__format(const struct sonde_parse_error *err, char *buf,
			      size_t size)
{
	static const char head[] = "event syntax error: '";
	int col, n;

	if (!err || !buf || !size)
		return lib_err(EINVAL);
	col = err->column < 0 ? 0 : err->column;
	/* A long spec's error keeps "..." and the text around the column
	 * (ev_perr()): the caret goes where the column is in that window. */
	if (col >= ERR_WIN_COL && !strncmp(err->spec, "...", 3) &&
	    (size_t)col > strlen(err->spec))
		col = 3 + ERR_WIN_BEFORE;
	if ((size_t)col > strlen(err->spec))
		col = (int)strlen(err->spec);
	n = snprintf(buf, size, "%s%s'\n%*s\\___ %s", head, err->spec,
		     (int)(sizeof(head) - 1) + col, "", err->message);
	/*
	 * The spec came from a command line: its control bytes must not
	 * reach a terminal (escape sequences). One '?' each keeps the caret
	 * under its column; the message names such a byte in hex.
	 */
	for (char *p = buf + sizeof(head) - 1; *p && p < buf + size; p++) {
		if (*p == '\'' && p[1] == '\n')
			break;
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	}
	return n;
}
