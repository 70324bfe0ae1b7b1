// SPDX-License-Identifier: LGPL-2.1-only
/*
 * perf_event_attr in the layout of perf 6.1's -vv dump, so `sonde list
 * --attr SPEC` and `perf stat -vv -e SPEC` can be diffed line by line.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include "sonde/evparse.h"
#include "core_priv.h"

static const char *const sample_bits[] = {
	"IP", "TID", "TIME", "ADDR", "READ", "CALLCHAIN", "ID", "CPU",
	"PERIOD", "STREAM_ID", "RAW", "BRANCH_STACK", "REGS_USER",
	"STACK_USER", "WEIGHT", "DATA_SRC", "IDENTIFIER", "TRANSACTION",
	"REGS_INTR", "PHYS_ADDR", "AUX", "CGROUP", "DATA_PAGE_SIZE",
	"CODE_PAGE_SIZE", "WEIGHT_STRUCT", NULL,
};

static const char *const read_bits[] = {
	"TOTAL_TIME_ENABLED", "TOTAL_TIME_RUNNING", "ID", "GROUP", "LOST",
	NULL,
};

static const char *const branch_bits[] = {
	"USER", "KERNEL", "HV", "ANY", "ANY_CALL", "ANY_RETURN", "IND_CALL",
	"ABORT_TX", "IN_TX", "NO_TX", "COND", "CALL_STACK", "IND_JUMP",
	"CALL", "NO_FLAGS", "NO_CYCLES", "TYPE_SAVE", "HW_INDEX",
	"PRIV_SAVE", NULL,
};

/* Renders a bit mask as NAME|NAME, unknown bits as a trailing hex value. */
static void bit_names(char *buf, size_t sz, uint64_t v, const char *const *names)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int b = 0; names[b] && v; b++) {
		if (!(v & (1ULL << b)))
			continue;
		off += (size_t)snprintf(buf + off, sz - off, "%s%s", off ? "|" : "", names[b]);
		v &= ~(1ULL << b);
		if (off >= sz)
			off = sz - 1;
	}
	if (v)
		snprintf(buf + off, sz - off, "%s%#" PRIx64, off ? "|" : "", v);
}

struct walk {
	sonde_attr_field_fn fn;
	void *ctx;
};

static void line(struct walk *w, const char *name, bool hex, uint64_t v)
{
	char val[64];

	if (!v)
		return;
	if (hex)
		snprintf(val, sizeof(val), "%#" PRIx64, v);
	else
		snprintf(val, sizeof(val), "%" PRIu64, v);
	w->fn(w->ctx, name, val);
}

static void bits(struct walk *w, const char *name, uint64_t v, const char *const *names)
{
	char buf[512];

	if (!v)
		return;
	bit_names(buf, sizeof(buf), v, names);
	w->fn(w->ctx, name, buf);
}

#define U false
#define X true

/*
 * Every non-zero field in perf's order, with perf's names and value
 * formats. Both the -vv dump and the perf.data header's "# event :" line
 * are built from this walk.
 */
static void attr_fields(const struct sonde_perf_event_attr *a,
			sonde_attr_field_fn fn, void *ctx)
{
	struct walk wk = { .fn = fn, .ctx = ctx }, *w = &wk;

	line(w, "type", U, a->type);
	line(w, "size", U, a->size);
	line(w, "config", X, a->config);
	line(w, "{ sample_period, sample_freq }", U, a->sample_period);
	bits(w, "sample_type", a->sample_type, sample_bits);
	bits(w, "read_format", a->read_format, read_bits);
	line(w, "disabled", U, a->disabled);
	line(w, "inherit", U, a->inherit);
	line(w, "pinned", U, a->pinned);
	line(w, "exclusive", U, a->exclusive);
	line(w, "exclude_user", U, a->exclude_user);
	line(w, "exclude_kernel", U, a->exclude_kernel);
	line(w, "exclude_hv", U, a->exclude_hv);
	line(w, "exclude_idle", U, a->exclude_idle);
	line(w, "mmap", U, a->mmap);
	line(w, "comm", U, a->comm);
	line(w, "freq", U, a->freq);
	line(w, "inherit_stat", U, a->inherit_stat);
	line(w, "enable_on_exec", U, a->enable_on_exec);
	line(w, "task", U, a->task);
	line(w, "watermark", U, a->watermark);
	line(w, "precise_ip", U, a->precise_ip);
	line(w, "mmap_data", U, a->mmap_data);
	line(w, "sample_id_all", U, a->sample_id_all);
	line(w, "exclude_host", U, a->exclude_host);
	line(w, "exclude_guest", U, a->exclude_guest);
	line(w, "exclude_callchain_kernel", U, a->exclude_callchain_kernel);
	line(w, "exclude_callchain_user", U, a->exclude_callchain_user);
	line(w, "mmap2", U, a->mmap2);
	line(w, "comm_exec", U, a->comm_exec);
	line(w, "use_clockid", U, a->use_clockid);
	line(w, "context_switch", U, a->context_switch);
	line(w, "write_backward", U, a->write_backward);
	line(w, "namespaces", U, a->namespaces);
	line(w, "ksymbol", U, a->ksymbol);
	line(w, "bpf_event", U, a->bpf_event);
	line(w, "aux_output", U, a->aux_output);
	line(w, "cgroup", U, a->cgroup);
	line(w, "text_poke", U, a->text_poke);
	line(w, "build_id", U, a->build_id);
	line(w, "inherit_thread", U, a->inherit_thread);
	line(w, "remove_on_exec", U, a->remove_on_exec);
	line(w, "sigtrap", U, a->sigtrap);
	line(w, "{ wakeup_events, wakeup_watermark }", U, a->wakeup_events);
	line(w, "bp_type", U, a->bp_type);
	line(w, "{ bp_addr, config1 }", X, a->bp_addr);
	line(w, "{ bp_len, config2 }", X, a->bp_len);
	bits(w, "branch_sample_type", a->branch_sample_type, branch_bits);
	line(w, "sample_regs_user", X, a->sample_regs_user);
	line(w, "sample_stack_user", U, a->sample_stack_user);
	if (a->clockid) {
		char val[16];

		snprintf(val, sizeof(val), "%d", a->clockid);
		fn(ctx, "clockid", val);
	}
	line(w, "sample_regs_intr", X, a->sample_regs_intr);
	line(w, "aux_watermark", U, a->aux_watermark);
	line(w, "sample_max_stack", U, a->sample_max_stack);
	line(w, "aux_sample_size", U, a->aux_sample_size);
	line(w, "sig_data", X, a->sig_data);
	/* perf 6.1 predates config3; newer perf prints it here. */
	line(w, "config3", X, a->config3);
}

struct out {
	FILE *fp;
	int n;
	int err;
};

static void out_field(void *ctx, const char *name, const char *val)
{
	struct out *o = ctx;
	int w;

	if (o->err)
		return;
	w = fprintf(o->fp, "  %-32s %s\n", name, val);
	if (w < 0)
		o->err = -EIO;
	else
		o->n += w;
}

int sonde_perf_event_attr__for_each_field(const struct sonde_perf_event_attr *attr,
					  sonde_attr_field_fn fn, void *ctx)
{
	if (!attr || !fn)
		return lib_err(EINVAL);
	attr_fields(attr, fn, ctx);
	return 0;
}

int sonde_perf_event_attr__fprintf(FILE *fp,
				   const struct sonde_perf_event_attr *a)
{
	struct out o = { .fp = fp };

	if (!fp || !a)
		return lib_err(EINVAL);
	if (fprintf(fp, "perf_event_attr:\n") < 0)
		return lib_err(EIO);
	o.n = 17;
	attr_fields(a, out_field, &o);
	return o.err ? lib_err(o.err) : o.n;
}
