// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Fuzz target for the perf.data reader: the input is a perf.data image
 * (file or pipe format, either byte order). Every record goes through the
 * sample decoder, the thread/map model and the stack cache, in time order
 * and (when the last input byte is odd) in file order too. A tracepoint
 * sample's RAW data is printed with the format the reader finds in the
 * image's TRACING_DATA (sonde_perfdata_reader__tp_format(), as script and
 * report's trace key do; tracefs is pointed at nothing, so only the
 * image's formats are used), and a file with tracepoint events is read
 * into a profile whose keys are every field of them (perf's trace_fields,
 * as printed and /raw): the formats' offsets and sizes on the RAW data.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/sonde.h"
#include "perfdata_priv.h"
#include "profile_priv.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* The host's tracefs is not input: leave it out of the runs. */
	setenv("SONDE_TRACEFS_ROOT", "/nonexistent/sonde-fuzz-tracefs", 1);
	return 0;
}

struct src {
	const uint8_t *p;
	size_t len, pos;
};

static ssize_t src_read(void *arg, void *buf, size_t n)
{
	struct src *s = arg;

	if (n > s->len - s->pos)
		n = s->len - s->pos;
	memcpy(buf, s->p + s->pos, n);
	s->pos += n;
	return (ssize_t)n;
}

static const char *fake_sym(void *ctx, uint64_t addr, uint64_t *off)
{
	(void)ctx;
	*off = addr & 0xff;
	return addr & 1 ? "f" : NULL;
}

/* A tracepoint sample's text, as script prints it. */
static void trace_text(struct sonde_perfdata_reader *r, int idx, const struct sample_view *s)
{
	char err[96], out[256];
	SONDE_OPTS(sonde_perfdata_tp_opts, o, .sym = fake_sym, .errbuf = err,
		   .errbuf_size = sizeof(err));
	const struct sonde_tp_format *fmt;
	const struct sonde_tp_print *p;
	int rc = sonde_perfdata_reader__tp_format(r, idx, &o, &fmt, &p);

	if (rc < 0)
		return;
	(void)sonde_tp_format__field_count(fmt);
	if (p && s->raw)
		(void)sonde_tp_print__format(p, s->raw, s->raw_size, out, sizeof(out));
	/* And without a namer: a second evaluator of the same format. */
	if (sonde_perfdata_reader__tp_format(r, idx, NULL, &fmt, &p) != rc)
		abort();
}

/* Every tracepoint field as a key, and each entry's text in each column. */
static void run_fields(const uint8_t *data, size_t size)
{
	static const enum sonde_profile_key keys[] = { SONDE_PROFILE_KEY_FIELD,
						       SONDE_PROFILE_KEY_FIELD };
	static const char *const fields[] = { "trace_fields", "trace_fields/raw" };
	SONDE_OPTS(sonde_profile_opts, po, .keys = keys, .nr_keys = 2, .fields = fields,
		   .nr_fields = 2);
	struct sonde_perfdata_reader *r = sonde_perfdata_reader__open_mem(data, size, NULL);
	struct sonde_profile *p = NULL;
	bool tp = false;

	for (int i = 0; r && i < sonde_perfdata_reader__nr_attrs(r); i++)
		tp |= pdr_attr_get(r, i)->attr.type == SONDE_PERF_TYPE_TRACEPOINT;
	if (tp)
		p = sonde_profile__new(&po);
	if (p && !sonde_profile__set_reader(p, r)) {
		(void)sonde_profile__add_reader(p, r);
		for (int c = 0; c < sonde_profile__nr_fields(p); c++) {
			struct sonde_profile_field f;
			size_t n;

			if (sonde_profile__field(p, c, &f) || f.width < (int)strlen(f.name))
				abort();
			n = sonde_profile__nr_entries(p, f.ev);
			for (size_t i = 0; i < n; i++) {
				const char *t = sonde_profile_entry__field(
					sonde_profile__entry(p, f.ev, i), c);

				if (t && strlen(t) > (1u << 20))
					abort();
			}
		}
	}
	sonde_profile__free(p);
	sonde_perfdata_reader__free(r);
}

/* What a reader hands out, folded into one value, and how it ends. */
static uint64_t digest(struct sonde_perfdata_reader *r, int *end)
{
	struct sonde_perfdata_record rec;
	uint64_t h = 1469598103934665603ULL;
	int err;

	while ((err = sonde_perfdata_reader__next(r, &rec)) > 0) {
		uint64_t v[4] = { rec.offset, rec.time,
				  (uint64_t)rec.type << 32 | rec.size,
				  (uint64_t)(uint32_t)rec.attr_idx };

		for (int i = 0; i < 4; i++)
			h = (h ^ v[i]) * 1099511628211ULL;
		for (uint16_t i = 0; i < rec.size; i++)
			h = (h ^ ((const uint8_t *)rec.hdr)[i]) * 1099511628211ULL;
	}
	*end = err;
	return h;
}

static void run_stream(const uint8_t *data, size_t size, bool unordered)
{
	SONDE_OPTS(sonde_perfdata_reader_opts, o, .unordered = unordered);
	struct sonde_perfdata_reader *a = sonde_perfdata_reader__open_mem(data, size, &o);
	struct src s = { data, size, 0 };
	struct sonde_perfdata_reader *b;
	const char *ea, *eb;
	int end_a, end_b;
	uint64_t ha, hb;

	b = pdr_open_stream(src_read, &s, -1, size ? 1 + data[0] % 64 : 1, &o);
	if (!a || !b) {
		/* Both refuse, or neither. */
		if (!a != !b)
			abort();
		sonde_perfdata_reader__free(a);
		sonde_perfdata_reader__free(b);
		return;
	}
	ha = digest(a, &end_a);
	hb = digest(b, &end_b);
	ea = sonde_perfdata_reader__error(a);
	eb = sonde_perfdata_reader__error(b);
	if (ha != hb || end_a != end_b || !ea != !eb || (ea && strcmp(ea, eb)))
		abort();
	sonde_perfdata_reader__free(a);
	sonde_perfdata_reader__free(b);
}

static void run(const uint8_t *data, size_t size, bool unordered)
{
	SONDE_OPTS(sonde_perfdata_reader_opts, o, .unordered = unordered);
	struct sonde_perfdata_reader *r = sonde_perfdata_reader__open_mem(data, size, &o);
	struct sonde_perfdata_record rec;
	struct prof_machine *m;
	struct prof_stacks *st;

	if (!r)
		return;
	m = prof_machine_new();
	st = m ? prof_stacks_new(m, 127, false) : NULL;
	for (int i = 0; i < sonde_perfdata_reader__nr_attrs(r); i++)
		(void)sonde_perfdata_reader__event_name(r, i);
	while (st && sonde_perfdata_reader__next(r, &rec) > 0) {
		const struct pdr_attr *a = pdr_attr_get(r, rec.attr_idx >= 0 ? rec.attr_idx : 0);
		struct sample_plan pl;
		struct sample_view s;
		struct prof_thread *t;

		if (rec.type != SONDE_PERF_RECORD_SAMPLE) {
			prof_machine_process(m, r, &rec);
			continue;
		}
		if (!a)
			continue;
		sample_plan_make(&a->fmt, &pl);
		if (sample_view_parse(&a->fmt, &pl, a->attr.freq ? 1 : a->attr.sample_period,
				      (const uint8_t *)rec.hdr, rec.size, &s))
			continue;
		if (a->attr.type == SONDE_PERF_TYPE_TRACEPOINT)
			trace_text(r, rec.attr_idx >= 0 ? rec.attr_idx : 0, &s);
		t = prof_thread_findnew(m, (int32_t)s.pid, (int32_t)s.tid);
		prof_stack_get(st, r, t, rec.misc, s.ip, s.callchain, s.nr_callchain);
	}
	(void)sonde_perfdata_reader__error(r);
	prof_stacks_free(st);
	prof_machine_free(m);
	sonde_perfdata_reader__free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	sonde_set_print(NULL);
	run(data, size, false);
	run_fields(data, size);
	run_stream(data, size, size && (data[size - 1] & 2));
	if (size && (data[size - 1] & 1))
		run(data, size, true);
	return 0;
}
