// SPDX-License-Identifier: LGPL-2.1-only
/*
 * A reader's tracepoint formats (sonde_perfdata_reader__tp_format()): the
 * recording's TRACING_DATA parsed once, every format in it, looked up by
 * the attr's id; else this machine's tracefs by the event's name. Each
 * event's answer and its print fmt evaluators are kept with the reader,
 * so report's trace key and script's lines cost one lookup per sample.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/perfdata_reader.h"
#include "core_priv.h"
#include "event_priv.h"
#include "perfdata_priv.h"

/* An evaluator of one event's print fmt, for one %pS namer. */
struct tp_print_ent {
	sonde_tp_sym_fn sym;
	void *sym_ctx;
	struct sonde_tp_print *print; /* NULL: print fmt not understood */
	struct tp_print_ent *next;
};

struct tp_event {
	bool tried;
	int rc;				  /* the answer of the first call */
	const struct sonde_tp_format *fmt; /* recorded, or own */
	struct sonde_tp_format *own;	  /* from tracefs */
	struct tp_print_ent *prints;
};

struct pdr_tp {
	struct sonde_tp_format **rec; /* the formats of TRACING_DATA */
	size_t nr_rec;
	bool rec_loaded, rec_bad;
	size_t bad_off, td_len;
	struct tp_event *ev;	/* by attr index */
	int nr_ev;
};

void pdr_tp_free(struct sonde_perfdata_reader *r)
{
	struct pdr_tp *t = r->tp;

	if (!t)
		return;
	for (int i = 0; i < t->nr_ev; i++) {
		struct tp_print_ent *e = t->ev[i].prints, *next;

		for (; e; e = next) {
			next = e->next;
			sonde_tp_print__free(e->print);
			free(e);
		}
		sonde_tp_format__free(t->ev[i].own);
	}
	for (size_t i = 0; i < t->nr_rec; i++)
		sonde_tp_format__free(t->rec[i]);
	free(t->rec);
	free(t->ev);
	free(t);
	r->tp = NULL;
}

static int add_recorded(void *ctx, const char *sys, const char *text, size_t len)
{
	struct pdr_tp *t = ctx;
	struct sonde_tp_format *fmt, **v;

	(void)sys;
	fmt = sonde_tp_format__parse(text, len, NULL);
	if (!fmt)
		return 0; /* one bad format spoils only its event */
	v = realloc(t->rec, (t->nr_rec + 1) * sizeof(*v));
	if (!v) {
		sonde_tp_format__free(fmt);
		return -ENOMEM;
	}
	t->rec = v;
	v[t->nr_rec++] = fmt;
	return 0;
}

/* The recording's formats, once its TRACING_DATA has been met. */
static int load_recorded(struct sonde_perfdata_reader *r, struct pdr_tp *t)
{
	const uint8_t *td;
	size_t len = 0;
	int err;

	if (t->rec_loaded || !(td = pdr_tracing_data(r, &len)))
		return 0;
	t->rec_loaded = true;
	t->td_len = len;
	err = sonde_tracing_data__for_each_format(td, len, add_recorded, t, &t->bad_off);
	if (err == -ENOMEM) {
		/* Undone, so that a later call tries again. */
		while (t->nr_rec)
			sonde_tp_format__free(t->rec[--t->nr_rec]);
		t->rec_loaded = false;
		return lib_err(ENOMEM);
	}
	/* The formats before the corrupt spot still serve. */
	t->rec_bad = err < 0;
	return 0;
}

static struct tp_event *event_slot(struct pdr_tp *t, int idx)
{
	if (idx >= t->nr_ev) {
		struct tp_event *v = realloc(t->ev, (size_t)(idx + 1) * sizeof(*v));

		if (!v)
			return NULL;
		memset(v + t->nr_ev, 0, (size_t)(idx + 1 - t->nr_ev) * sizeof(*v));
		t->ev = v;
		t->nr_ev = idx + 1;
	}
	return &t->ev[idx];
}

static int find_format(struct sonde_perfdata_reader *r, struct pdr_tp *t,
		       struct tp_event *e, int idx, int64_t id)
{
	int err = load_recorded(r, t);

	if (err)
		return err;
	for (size_t i = 0; i < t->nr_rec; i++)
		if (sonde_tp_format__id(t->rec[i]) == id) {
			e->fmt = t->rec[i];
			return SONDE_TP_RECORDED;
		}
	e->own = tp_format_this_kernel(sonde_perfdata_reader__event_name(r, idx), id);
	if (e->own) {
		e->fmt = e->own;
		return SONDE_TP_TRACEFS;
	}
	if (errno == ENOMEM)
		return -ENOMEM;
	return t->rec_bad ? -SONDE_ERR_FORMAT : -ENOENT;
}

static const struct sonde_tp_print *print_for(struct tp_event *e, sonde_tp_sym_fn sym,
					      void *sym_ctx, int *err)
{
	SONDE_OPTS(sonde_tp_print_opts, po, .sym = sym, .sym_ctx = sym_ctx);
	struct tp_print_ent *p;

	for (p = e->prints; p; p = p->next)
		if (p->sym == sym && p->sym_ctx == sym_ctx)
			return p->print;
	p = calloc(1, sizeof(*p));
	if (!p) {
		*err = -ENOMEM;
		return NULL;
	}
	p->sym = sym;
	p->sym_ctx = sym_ctx;
	/* NULL when not understood: kept, so it is not compiled again. */
	p->print = sonde_tp_print__new(e->fmt, &po);
	if (!p->print && errno == ENOMEM) {
		free(p);
		*err = -ENOMEM;
		return NULL;
	}
	p->next = e->prints;
	e->prints = p;
	return p->print;
}

int sonde_perfdata_reader__tp_format(struct sonde_perfdata_reader *r, int idx,
				     const struct sonde_perfdata_tp_opts *opts,
				     const struct sonde_tp_format **fmt,
				     const struct sonde_tp_print **print)
{
	const struct sonde_perf_event_attr *a;
	char *errbuf = OPTS_GET(opts, errbuf, NULL);
	size_t errbuf_size = OPTS_GET(opts, errbuf_size, 0);
	const struct sonde_tp_print *pr = NULL;
	struct tp_event *e;
	struct pdr_tp *t;
	int rc, err = 0;

	if (fmt)
		*fmt = NULL;
	if (print)
		*print = NULL;
	if (errbuf && errbuf_size)
		errbuf[0] = 0;
	if (!r || !fmt || !OPTS_VALID(opts, sonde_perfdata_tp_opts) ||
	    (errbuf && !errbuf_size))
		return lib_err(EINVAL);
	a = sonde_perfdata_reader__attr(r, idx);
	if (!a || a->type != SONDE_PERF_TYPE_TRACEPOINT)
		return lib_err(EINVAL);
	if (!r->tp && !(r->tp = calloc(1, sizeof(*r->tp))))
		return lib_err(ENOMEM);
	t = r->tp;
	e = event_slot(t, idx);
	if (!e)
		return lib_err(ENOMEM);
	if (!e->tried) {
		rc = find_format(r, t, e, idx, (int64_t)a->config);
		if (rc == -ENOMEM)
			return lib_err(ENOMEM); /* not decided: may be asked again */
		e->tried = true;
		e->rc = rc;
	}
	if (t->rec_bad && errbuf)
		snprintf(errbuf, errbuf_size,
			 "TRACING_DATA is corrupt at byte %zu of its %zu", t->bad_off,
			 t->td_len);
	if (e->rc < 0)
		return lib_err(-e->rc);
	if (print) {
		pr = print_for(e, OPTS_GET(opts, sym, NULL), OPTS_GET(opts, sym_ctx, NULL), &err);
		if (err)
			return lib_err(-err);
	}
	*fmt = e->fmt;
	if (print)
		*print = pr;
	return e->rc | (t->rec_bad ? SONDE_TP_BAD_TRACING_DATA : 0);
}
