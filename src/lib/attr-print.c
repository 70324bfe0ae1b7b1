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
#include "internal.h"

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

struct out {
	FILE *fp;
	int n;
	int err;
};

static void line(struct out *o, const char *name, bool hex, uint64_t v)
{
	char val[64];
	int w;

	if (!v || o->err)
		return;
	if (hex)
		snprintf(val, sizeof(val), "%#" PRIx64, v);
	else
		snprintf(val, sizeof(val), "%" PRIu64, v);
	w = fprintf(o->fp, "  %-32s %s\n", name, val);
	if (w < 0)
		o->err = -EIO;
	else
		o->n += w;
}

static void bits(struct out *o, const char *name, uint64_t v,
		 const char *const *names)
{
	char buf[512];
	size_t off = 0;
	int w;

	if (!v || o->err)
		return;
	buf[0] = '\0';
	for (int b = 0; names[b] && v; b++) {
		if (!(v & (1ULL << b)))
			continue;
		off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s%s",
					off ? "|" : "", names[b]);
		v &= ~(1ULL << b);
		if (off >= sizeof(buf))
			off = sizeof(buf) - 1;
	}
	if (v)
		snprintf(buf + off, sizeof(buf) - off, "%s%#" PRIx64,
			 off ? "|" : "", v);
	w = fprintf(o->fp, "  %-32s %s\n", name, buf);
	if (w < 0)
		o->err = -EIO;
	else
		o->n += w;
}

#define U false
#define X true

int sonde_perf_event_attr__fprintf(FILE *fp,
				   const struct sonde_perf_event_attr *a)
{
	struct out o = { .fp = fp };

	if (!fp || !a)
		return sonde_err(EINVAL);
	if (fprintf(fp, "perf_event_attr:\n") < 0)
		return sonde_err(EIO);
	o.n = 17;
	line(&o, "type", U, a->type);
	line(&o, "size", U, a->size);
	line(&o, "config", X, a->config);
	line(&o, "{ sample_period, sample_freq }", U, a->sample_period);
	bits(&o, "sample_type", a->sample_type, sample_bits);
	bits(&o, "read_format", a->read_format, read_bits);
	line(&o, "disabled", U, a->disabled);
	line(&o, "inherit", U, a->inherit);
	line(&o, "pinned", U, a->pinned);
	line(&o, "exclusive", U, a->exclusive);
	line(&o, "exclude_user", U, a->exclude_user);
	line(&o, "exclude_kernel", U, a->exclude_kernel);
	line(&o, "exclude_hv", U, a->exclude_hv);
	line(&o, "exclude_idle", U, a->exclude_idle);
	line(&o, "mmap", U, a->mmap);
	line(&o, "comm", U, a->comm);
	line(&o, "freq", U, a->freq);
	line(&o, "inherit_stat", U, a->inherit_stat);
	line(&o, "enable_on_exec", U, a->enable_on_exec);
	line(&o, "task", U, a->task);
	line(&o, "watermark", U, a->watermark);
	line(&o, "precise_ip", U, a->precise_ip);
	line(&o, "mmap_data", U, a->mmap_data);
	line(&o, "sample_id_all", U, a->sample_id_all);
	line(&o, "exclude_host", U, a->exclude_host);
	line(&o, "exclude_guest", U, a->exclude_guest);
	line(&o, "exclude_callchain_kernel", U, a->exclude_callchain_kernel);
	line(&o, "exclude_callchain_user", U, a->exclude_callchain_user);
	line(&o, "mmap2", U, a->mmap2);
	line(&o, "comm_exec", U, a->comm_exec);
	line(&o, "use_clockid", U, a->use_clockid);
	line(&o, "context_switch", U, a->context_switch);
	line(&o, "write_backward", U, a->write_backward);
	line(&o, "namespaces", U, a->namespaces);
	line(&o, "ksymbol", U, a->ksymbol);
	line(&o, "bpf_event", U, a->bpf_event);
	line(&o, "aux_output", U, a->aux_output);
	line(&o, "cgroup", U, a->cgroup);
	line(&o, "text_poke", U, a->text_poke);
	line(&o, "build_id", U, a->build_id);
	line(&o, "inherit_thread", U, a->inherit_thread);
	line(&o, "remove_on_exec", U, a->remove_on_exec);
	line(&o, "sigtrap", U, a->sigtrap);
	line(&o, "{ wakeup_events, wakeup_watermark }", U, a->wakeup_events);
	line(&o, "bp_type", U, a->bp_type);
	line(&o, "{ bp_addr, config1 }", X, a->bp_addr);
	line(&o, "{ bp_len, config2 }", X, a->bp_len);
	bits(&o, "branch_sample_type", a->branch_sample_type, branch_bits);
	line(&o, "sample_regs_user", X, a->sample_regs_user);
	line(&o, "sample_stack_user", U, a->sample_stack_user);
	if (a->clockid && !o.err) {
		int w = fprintf(fp, "  %-32s %d\n", "clockid", a->clockid);

		o.n += w > 0 ? w : 0;
	}
	line(&o, "sample_regs_intr", X, a->sample_regs_intr);
	line(&o, "aux_watermark", U, a->aux_watermark);
	line(&o, "sample_max_stack", U, a->sample_max_stack);
	line(&o, "aux_sample_size", U, a->aux_sample_size);
	line(&o, "sig_data", X, a->sig_data);
	/* perf 6.1 predates config3; newer perf prints it here. */
	line(&o, "config3", X, a->config3);
	return o.err ? sonde_err(o.err) : o.n;
}
