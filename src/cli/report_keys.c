// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde report: the columns of the keys past perf's first seven, as perf
 * 6.1 prints them (its sort.c snprintf functions and the minimum widths
 * of hists__calc_col_len()), from the values the profile hands out
 * (sonde_profile_entry__keys()).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "report_keys.h"

#define K(name) SONDE_PROFILE_KEY_##name
/* An address's hex digits (perf's BITS_PER_LONG / 4). */
#define ADDR_DIGITS 16
/* perf's width of an unresolved symbol: "[x] " and "0x" and the digits. */
#define UNRES_LEN (ADDR_DIGITS + 4 + 2)

const char *report_key_title(enum sonde_profile_key k)
{
	switch (k) {
	case K(PARENT): return "Parent symbol";
	case K(SOCKET): return "Socket";
	case K(SRCFILE): return "Source File";
	case K(SYM_SIZE): return "Symbol size";
	case K(DSO_SIZE): return "DSO size";
	case K(LOCAL_WEIGHT): return "Local Weight";
	case K(WEIGHT): return "Weight";
	case K(TRANSACTION): return "Transaction                ";
	case K(TRACE): return "Trace output";
	case K(CGROUP): return "Cgroup";
	case K(CGROUP_ID): return "cgroup id (dev/inode)";
	case K(IPC_NULL): return "IPC   [IPC Coverage]";
	case K(TIME): return "Time";
	case K(CODE_PAGE_SIZE): return "Code Page Size";
	case K(LOCAL_INS_LAT): return "Local INSTR Latency";
	case K(INS_LAT): return "INSTR Latency";
	case K(LOCAL_P_STAGE_CYC): return "Local Pipeline Stage Cycle";
	case K(P_STAGE_CYC): return "Pipeline Stage Cycle";
	case K(ADDR): return "Address";
	case K(SYM_DADDR): return "Data Symbol";
	case K(SYM_IADDR): return "Code Symbol";
	case K(DSO_DADDR): return "Data Object";
	case K(LOCKED): return "Locked";
	case K(TLB): return "TLB access";
	case K(MEM): return "Memory access";
	case K(SNOOP): return "Snoop";
	case K(DCACHELINE): return "Data Cacheline";
	case K(PHYS_DADDR): return "Data Physical Address";
	case K(DATA_PAGE_SIZE): return "Data Page Size";
	case K(BLOCKED): return "Blocked";
	default: return NULL;
	}
}

bool report_key_pads(enum sonde_profile_key k)
{
	switch (k) {
	case K(PARENT): case K(SOCKET): case K(SYM_SIZE): case K(DSO_SIZE):
	case K(LOCAL_WEIGHT): case K(WEIGHT): case K(TRANSACTION): case K(IPC_NULL):
	case K(CODE_PAGE_SIZE): case K(LOCAL_INS_LAT): case K(INS_LAT):
	case K(LOCAL_P_STAGE_CYC): case K(P_STAGE_CYC): case K(ADDR): case K(DSO_DADDR):
	case K(TLB): case K(MEM): case K(SNOOP): case K(PHYS_DADDR): case K(DATA_PAGE_SIZE):
		return true;
	default:
		return false;
	}
}

static struct sonde_profile_entry_keys keys_of(const struct sonde_profile_entry *e)
{
	struct sonde_profile_entry_keys v;

	sonde_profile_entry__keys(e, &v);
	return v;
}

/* perf's transaction flags text (txbits), and its width when any is set. */
static const struct {
	uint64_t flag;
	const char *name;
	bool skip_for_len;
} txbits[] = {
	{ 1u << 0, "EL ", false },	  { 1u << 1, "TX ", true },	{ 1u << 2, "SYNC ", true },
	{ 1u << 3, "ASYNC ", false },	  { 1u << 4, "RETRY ", false }, { 1u << 5, "CON ", false },
	{ 1u << 6, "CAP-WRITE ", true }, { 1u << 7, "CAP-READ ", false },
};
#define NR_TXBITS (sizeof(txbits) / sizeof(txbits[0]))

static int transaction_len(void)
{
	int len = 4; /* ":XX " */

	for (size_t i = 0; i < NR_TXBITS; i++)
		if (!txbits[i].skip_for_len)
			len += (int)strlen(txbits[i].name);
	return len;
}

static void transaction_text(uint64_t t, char *buf, size_t sz)
{
	size_t l = 0;

	buf[0] = 0;
	for (size_t i = 0; i < NR_TXBITS; i++)
		if ((t & txbits[i].flag) && l < sz)
			l += (size_t)snprintf(buf + l, sz - l, "%s", txbits[i].name);
	if (t && !(t & (txbits[2].flag | txbits[3].flag)) && l < sz)
		l += (size_t)snprintf(buf + l, sz - l, "NEITHER ");
	if ((t >> 32) && l < sz)
		snprintf(buf + l, sz - l, ":%" PRIx64, t >> 32);
}

/* perf's get_page_size_name(): "4K", "2M", N/A for 0. */
static void page_size_text(uint64_t n, char *buf, size_t sz)
{
	static const char unit[] = "BKMG";
	int i = 0;

	if (!n) {
		snprintf(buf, sz, "N/A");
		return;
	}
	while (n / 1024 > 1 && i < 3) {
		n /= 1024;
		i++;
	}
	snprintf(buf, sz, "%" PRIu64 "%c", n, unit[i]);
}

/* perf's perf_mem__*_scnprintf() texts of a data source. */
static void cat(char *buf, size_t sz, const char *s)
{
	size_t l = strlen(buf);

	if (l < sz)
		snprintf(buf + l, sz - l, "%s", s);
}

static void bits_text(uint64_t m, const char *const *names, size_t n, bool *any, char *buf,
		      size_t sz)
{
	for (size_t i = 0; m && i < n; i++, m >>= 1) {
		if (!(m & 1))
			continue;
		if (*any)
			cat(buf, sz, " or ");
		cat(buf, sz, names[i]);
		*any = true;
	}
}

static void tlb_text(union sonde_perf_mem_data_src d, char *buf, size_t sz)
{
	static const char *const names[] = { "N/A", "HIT", "MISS", "L1", "L2", "Walker", "Fault" };
	uint64_t m = d.mem_dtlb;
	bool any = false;

	buf[0] = 0;
	bits_text(m & ~(uint64_t)6, names, 7, &any, buf, sz);
	if (!buf[0])
		cat(buf, sz, "N/A");
	if (m & 2)
		cat(buf, sz, " hit");
	if (m & 4)
		cat(buf, sz, " miss");
}

static void lvl_text(union sonde_perf_mem_data_src d, char *buf, size_t sz)
{
	static const char *const lvl[] = {
		"N/A", "HIT", "MISS", "L1", "LFB/MAB", "L2", "L3", "Local RAM",
		"Remote RAM (1 hop)", "Remote RAM (2 hops)", "Remote Cache (1 hop)",
		"Remote Cache (2 hops)", "I/O", "Uncached",
	};
	static const char *const lvlnum[16] = {
		[0x09] = "CXL", [0x0a] = "I/O", [0x0b] = "Any cache", [0x0c] = "LFB/MAB",
		[0x0d] = "RAM", [0x0e] = "PMEM", [0x0f] = "N/A",
	};
	static const char *const hops[] = {
		"N/A", "core, same node", "node, same socket", "socket, same board", "board",
	};
	uint64_t m = d.mem_lvl;
	bool any = false;
	char tmp[32];

	buf[0] = 0;
	if (d.mem_remote)
		cat(buf, sz, "Remote ");
	if (d.mem_hops) {
		snprintf(tmp, sizeof(tmp), "%s ", d.mem_hops < 5 ? hops[d.mem_hops] : "");
		cat(buf, sz, tmp);
	} else {
		bits_text(m & ~(uint64_t)6, lvl, 14, &any, buf, sz);
	}
	if (d.mem_lvl_num) {
		if (any)
			cat(buf, sz, " or ");
		if (lvlnum[d.mem_lvl_num])
			cat(buf, sz, lvlnum[d.mem_lvl_num]);
		else {
			snprintf(tmp, sizeof(tmp), "L%d", (int)d.mem_lvl_num);
			cat(buf, sz, tmp);
		}
	}
	if (!buf[0])
		cat(buf, sz, "N/A");
	if (m & 2)
		cat(buf, sz, " hit");
	if (m & 4)
		cat(buf, sz, " miss");
}

static void snoop_text(union sonde_perf_mem_data_src d, char *buf, size_t sz)
{
	static const char *const snoop[] = { "N/A", "None", "Hit", "Miss", "HitM" };
	static const char *const snoopx[] = { "Fwd", "Peer" };
	bool any = false;

	buf[0] = 0;
	bits_text(d.mem_snoop, snoop, 5, &any, buf, sz);
	any = buf[0] != 0;
	bits_text(d.mem_snoopx, snoopx, 2, &any, buf, sz);
	if (!buf[0])
		cat(buf, sz, "N/A");
}

static void lock_text(union sonde_perf_mem_data_src d, char *buf, size_t sz)
{
	snprintf(buf, sz, "%s", (d.mem_lock & 1) ? "N/A" : (d.mem_lock & 2) ? "Yes" : "No");
}

static void blk_text(union sonde_perf_mem_data_src d, char *buf, size_t sz)
{
	buf[0] = 0;
	if (!d.mem_blk || (d.mem_blk & 1)) {
		cat(buf, sz, " N/A");
		return;
	}
	if (d.mem_blk & 2)
		cat(buf, sz, " Data");
	if (d.mem_blk & 4)
		cat(buf, sz, " Addr");
}

/* perf's _hist_entry__sym_snprintf() of a resolved address. */
static void sym_text(const struct sonde_profile_frame *f, uint64_t addr, char level, char *buf,
		     size_t sz)
{
	const char *sym = f && sonde_profile_frame__dso(f) ? sonde_profile_frame__sym(f) : NULL;

	if (sym)
		snprintf(buf, sz, "[%c] %s%s", level, sym,
			 (sonde_profile_frame__kind(f) & SONDE_PROFILE_FRAME_INLINED) ? " (inlined)"
										: "");
	else if (addr)
		snprintf(buf, sz, "[%c] 0x%0*" PRIx64, level, ADDR_DIGITS, addr);
	else
		snprintf(buf, sz, "[%c] %0*" PRIx64, level, ADDR_DIGITS, addr);
}

static int sym_len(const struct sonde_profile_frame *f, int extra)
{
	const char *sym = f && sonde_profile_frame__dso(f) ? sonde_profile_frame__sym(f) : NULL;

	return sym ? (int)strlen(sym) + 4 + UNRES_LEN - 4 + extra : UNRES_LEN;
}

int report_key_len(const struct sonde_profile_entry *e, enum sonde_profile_key k)
{
	struct sonde_profile_entry_keys v = keys_of(e);
	const char *dso;

	switch (k) {
	case K(PARENT): return v.parent ? (int)strlen(v.parent) : 0;
	case K(SOCKET): return 6;
	case K(SRCFILE): return v.srcfile ? (int)strlen(v.srcfile) : 0;
	case K(LOCAL_WEIGHT): case K(WEIGHT): return 12;
	case K(TRANSACTION): return v.transaction ? transaction_len() : 0;
	case K(TRACE): return v.trace ? (int)strlen(v.trace) : 0;
	case K(CGROUP):
		return v.cgroup ? (int)strlen(v.cgroup_name ? v.cgroup_name : "unknown") : 6;
	case K(CGROUP_ID): return 20;
	case K(TIME): return 12;
	case K(CODE_PAGE_SIZE): return 6;
	case K(LOCAL_INS_LAT): case K(INS_LAT): return 13;
	case K(LOCAL_P_STAGE_CYC): case K(P_STAGE_CYC): return 13;
	case K(ADDR): return ADDR_DIGITS + 2;
	case K(SYM_DADDR): return sym_len(v.data, 0);
	case K(SYM_IADDR): return sym_len(v.code, 0);
	case K(DCACHELINE): return sym_len(v.data, 1);
	case K(DSO_DADDR):
		dso = v.data ? sonde_profile_frame__dso_short(v.data) : NULL;
		return dso ? (int)strlen(dso) : ADDR_DIGITS;
	case K(LOCKED): return 6;
	case K(TLB): return 22;
	case K(MEM): return 21 + 3;
	case K(SNOOP): return 12;
	case K(PHYS_DADDR): case K(DATA_PAGE_SIZE): return UNRES_LEN;
	case K(BLOCKED): return 10;
	default: return 0;
	}
}

void report_key_text(const struct sonde_profile_entry *e, enum sonde_profile_key k, int w,
		     char *buf, size_t sz)
{
	struct sonde_profile_entry_keys v = keys_of(e);
	char level = sonde_profile_entry__kernel(e) ? 'k' : '.';
	uint64_t nr = sonde_profile_entry__samples(e);
	char t[256];

	t[0] = 0;
	switch (k) {
	case K(PARENT):
		snprintf(buf, sz, "%-*.*s", w, w, v.parent ? v.parent : "[other]");
		return;
	case K(SOCKET):
		snprintf(buf, sz, "%*.*d", w, w - 3, v.socket);
		return;
	case K(SRCFILE):
		snprintf(buf, sz, "%-.*s", w, v.srcfile ? v.srcfile : "");
		return;
	case K(SYM_SIZE):
	case K(DSO_SIZE):
		/* perf prints the size through %d */
		if (k == K(SYM_SIZE) ? v.has_sym : v.has_dso)
			snprintf(buf, sz, "%*d", w,
				 (int)(uint32_t)(k == K(SYM_SIZE) ? v.sym_size : v.dso_size));
		else
			snprintf(buf, sz, "%*s", w, "unknown");
		return;
	case K(LOCAL_WEIGHT):
		snprintf(buf, sz, "%-*" PRIu64, w, v.weight);
		return;
	case K(WEIGHT):
		snprintf(buf, sz, "%-*" PRIu64, w, v.weight * nr);
		return;
	case K(LOCAL_INS_LAT):
	case K(LOCAL_P_STAGE_CYC):
		snprintf(buf, sz, "%-*u", w, k == K(LOCAL_INS_LAT) ? v.ins_lat : v.p_stage_cyc);
		return;
	case K(INS_LAT):
	case K(P_STAGE_CYC):
		snprintf(buf, sz, "%-*u", w,
			 (unsigned)((k == K(INS_LAT) ? v.ins_lat : v.p_stage_cyc) * nr));
		return;
	case K(TRANSACTION):
		transaction_text(v.transaction, t, sizeof(t));
		snprintf(buf, sz, "%-*s", w, t);
		return;
	case K(TRACE):
		snprintf(buf, sz, "%-.*s", w, v.trace ? v.trace : "N/A");
		return;
	case K(CGROUP):
		snprintf(buf, sz, "%s",
			 !v.cgroup ? "N/A" : v.cgroup_name ? v.cgroup_name : "unknown");
		return;
	case K(CGROUP_ID):
		snprintf(buf, sz, "%" PRIu64 "/0x%" PRIx64, v.cgroup_dev, v.cgroup_ino);
		return;
	case K(IPC_NULL):
		snprintf(buf, sz, "%-*s", w, "-      -");
		return;
	case K(TIME):
		snprintf(t, sizeof(t), "%" PRIu64 ".%06" PRIu64, v.time / 1000000000,
			 v.time % 1000000000 / 1000);
		snprintf(buf, sz, "%-.*s", w, t);
		return;
	case K(CODE_PAGE_SIZE):
	case K(DATA_PAGE_SIZE):
		page_size_text(k == K(CODE_PAGE_SIZE) ? v.code_page_size : v.data_page_size, t,
			       sizeof(t));
		snprintf(buf, sz, "%-*s", w, t);
		return;
	case K(ADDR):
		snprintf(buf, sz, "%-#*" PRIx64, w, v.addr);
		return;
	case K(SYM_DADDR):
		sym_text(v.data, v.daddr, level, buf, sz);
		return;
	case K(SYM_IADDR):
		sym_text(v.code, v.iaddr, level, buf, sz);
		return;
	case K(DCACHELINE):
		sym_text(v.data, v.dcacheline, v.dcacheline_level ? v.dcacheline_level : level, buf,
			 sz);
		return;
	case K(DSO_DADDR): {
		const char *d = v.data ? sonde_profile_frame__dso_short(v.data) : NULL;

		snprintf(buf, sz, "%-*.*s", w, w, d ? d : "[unknown]");
		return;
	}
	case K(LOCKED):
		lock_text(v.data_src, t, sizeof(t));
		snprintf(buf, sz, "%.*s", w, t);
		return;
	case K(BLOCKED):
		blk_text(v.data_src, t, sizeof(t));
		snprintf(buf, sz, "%.*s", w, t);
		return;
	case K(TLB):
	case K(MEM):
	case K(SNOOP):
		if (k == K(TLB))
			tlb_text(v.data_src, t, sizeof(t));
		else if (k == K(MEM))
			lvl_text(v.data_src, t, sizeof(t));
		else
			snoop_text(v.data_src, t, sizeof(t));
		snprintf(buf, sz, "%-*s", w, t);
		return;
	case K(PHYS_DADDR): {
		/* perf pads to the column and cuts there */
		int n = snprintf(buf, sz, "[%c] %#.*" PRIx64, level, ADDR_DIGITS, v.phys_addr);

		if (n >= 0 && n < w && (size_t)w < sz) {
			memset(buf + n, ' ', (size_t)(w - n));
			buf[w] = 0;
		} else if (w >= 0 && (size_t)w < sz) {
			buf[w] = 0;
		}
		return;
	}
	default:
		buf[0] = 0;
	}
}
