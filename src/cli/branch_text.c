// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Branch-stack entries in perf 6.1's words: the flags after each entry
 * (util/branch.c, builtin-script.c print_bstack_flags()) and the type
 * names its report statistics use.
 */
#include "branch_text.h"

static const char *const type_names[SONDE_PERF_BR_MAX] = {
	"N/A", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET", "SYSCALL",
	"SYSRET", "COND_CALL", "COND_RET", "ERET", "IRQ", "SERROR", "NO_TX",
	"", /* EXTEND_ABI: the name is new_type's */
};

/* PERF_BR_NEW_* (new_type when type is EXTEND_ABI). */
static const char *const new_type_names[8] = {
	"FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARCH_1",
	"ARCH_2", "ARCH_3", "ARCH_4", "ARCH_5",
};

const char *branch_type_name(unsigned type)
{
	return type < SONDE_PERF_BR_MAX ? type_names[type] : NULL;
}

const char *branch_entry_type(const struct sonde_perf_branch_entry *e)
{
	if (e->type == SONDE_PERF_BR_UNKNOWN)
		return "";
	if (e->type == SONDE_PERF_BR_EXTEND_ABI)
		return new_type_names[e->new_type & 7];
	return type_names[e->type];
}

void branch_put_flags(struct outbuf *o, const struct sonde_perf_branch_entry *e)
{
	ob_putc(o, '/');
	ob_putc(o, e->predicted ? 'P' : e->mispred ? 'M' : '-');
	ob_putc(o, '/');
	ob_putc(o, e->in_tx ? 'X' : '-');
	ob_putc(o, '/');
	ob_putc(o, e->abort ? 'A' : '-');
	ob_putc(o, '/');
	ob_dec(o, e->cycles);
	ob_putc(o, '/');
	ob_puts(o, branch_entry_type(e));
	ob_putc(o, ' ');
}

static void put_dso(struct outbuf *o, const struct sonde_profile_frame *fr)
{
	const char *dso = sonde_profile_frame__dso(fr);

	ob_putc(o, '(');
	ob_puts(o, dso ? dso : "[unknown]");
	ob_putc(o, ')');
}

/* "sym+0xoff" as perf's symbol__fprintf_symname_offs() prints it. */
static void put_symoff(struct outbuf *o, const struct sonde_profile_frame *fr)
{
	const char *sym = sonde_profile_frame__sym(fr);

	if (!sym) {
		ob_puts(o, "[unknown]");
		return;
	}
	ob_puts(o, sym);
	ob_puts(o, "+0x");
	ob_hex(o, sonde_profile_frame__sym_offset(fr), 0);
}

void branch_put_stack(struct outbuf *o, const struct sonde_profile_branch *b, size_t n,
		      enum branch_style style, bool dso)
{
	for (size_t i = 0; i < n; i++) {
		if (style == BRANCH_ADDR) {
			ob_puts(o, " 0x");
			ob_hex(o, b[i].entry.from, 0);
		} else {
			put_symoff(o, b[i].from);
		}
		if (dso)
			put_dso(o, b[i].from);
		ob_putc(o, '/');
		if (style == BRANCH_ADDR) {
			ob_puts(o, "0x");
			ob_hex(o, b[i].entry.to, 0);
		} else {
			put_symoff(o, b[i].to);
		}
		if (dso)
			put_dso(o, b[i].to);
		branch_put_flags(o, &b[i].entry);
	}
}

/* Addresses as strings, as script --json has them (doubles lose bits). */
static void put_end_json(struct outbuf *o, const char *key, uint64_t addr,
			 const struct sonde_profile_frame *fr)
{
	const char *sym = sonde_profile_frame__sym(fr), *dso = sonde_profile_frame__dso(fr);

	ob_printf(o, "\"%s\":{\"addr\":\"0x", key);
	ob_hex(o, addr, 0);
	ob_puts(o, "\",\"sym\":");
	if (sym) {
		ob_json_str(o, sym);
		ob_puts(o, ",\"symoff\":");
		ob_dec(o, sonde_profile_frame__sym_offset(fr));
	} else {
		ob_puts(o, "null");
	}
	ob_puts(o, ",\"dso\":");
	if (dso)
		ob_json_str(o, dso);
	else
		ob_puts(o, "null");
	ob_putc(o, '}');
}

void branch_put_json(struct outbuf *o, const struct sonde_profile_branch *b, size_t n)
{
	ob_putc(o, '[');
	for (size_t i = 0; i < n; i++) {
		const struct sonde_perf_branch_entry *e = &b[i].entry;
		const char *type = branch_entry_type(e);

		ob_puts(o, i ? ",{" : "{");
		put_end_json(o, "from", e->from, b[i].from);
		ob_putc(o, ',');
		put_end_json(o, "to", e->to, b[i].to);
		ob_printf(o, ",\"mispred\":%s,\"predicted\":%s,\"in_tx\":%s,\"abort\":%s,\"cycles\":%u,\"type\":",
			  e->mispred ? "true" : "false", e->predicted ? "true" : "false",
			  e->in_tx ? "true" : "false", e->abort ? "true" : "false",
			  (unsigned)e->cycles);
		if (*type)
			ob_json_str(o, type);
		else
			ob_puts(o, "null");
		ob_putc(o, '}');
	}
	ob_putc(o, ']');
}
