// SPDX-License-Identifier: LGPL-2.1-only
/*
 * script -F brstackinsn, as perf 6.1 walks it
 * (perf_sample__fprintf_brstackinsn()): the first branch's source alone,
 * then each block from a branch's target to the next branch's source,
 * instruction by instruction from the object file's bytes (the library's
 * x86 length decoder, sonde/insn.h, with perf's rules), the branch that
 * ends a block annotated with its flags and, when the hardware counted
 * them, the block's cycles, the running total and the instructions per
 * cycle; then the last target up to the sample's ip. A function's name
 * heads the lines that enter it. perf's walk rules are kept: a block
 * whose ends lie in different spaces (user/kernel) takes the next
 * branch's source as its end, a block longer than perf's buffer is
 * skipped, a walk that misses the block's end says so.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "sonde/insn.h"
#include "script_brstackinsn.h"

/* perf's buffer for one block, and the most one instruction can add. */
#define MAXBB 16384u
#define MAXINSN SONDE_X86_MAX_INSN

struct walk {
	struct outbuf *o;
	struct sonde_profile *p;
	int32_t pid, tid;
	const struct brstackinsn_opts *opts;
	bool kernel; /* the space of the last block read (perf's x.cpumode) */
	bool is64;
	/* the function of the last name line, in the objects' offsets */
	bool have_last;
	uint64_t last_start, last_end;
	int total_cycles;
	uint8_t buf[MAXBB];
};

/* perf's machine__kernel_ip() on x86-64: the upper half is the kernel's. */
static bool kernel_ip(uint64_t ip)
{
	return ip >> 63;
}

/*
 * perf's grab_bb(): the bytes of [@start, @end] and the instruction that
 * may run past @end. <= 0 when there are none; -1 (perf's -ENXIO) when
 * the two ends are in different spaces.
 */
static long grab(struct walk *w, uint64_t start, uint64_t end)
{
	bool kernel;

	if (!start || !end)
		return 0;
	kernel = kernel_ip(start);
	w->kernel = kernel;
	if (kernel != kernel_ip(end))
		return -1;
	if (end - start > MAXBB - MAXINSN)
		return 0;
	return (long)sonde_profile__read_code(w->p, w->pid, w->tid, kernel, start, w->buf,
					      (size_t)(end - start + MAXINSN), &w->is64);
}

/* perf's dump_insn(): "insn: 55 48 89 e5 ", or "<bad>"; the length in *@ilen. */
static void put_insn(struct outbuf *o, const uint8_t *b, long len, bool is64, int *ilen,
		     bool *branch, int width)
{
	struct sonde_x86_insn x;
	char text[8 + 3 * MAXINSN];
	int n;

	if (sonde_x86_insn__decode(b, len > 0 ? (size_t)len : 0, is64, &x)) {
		snprintf(text, sizeof(text), "<bad>");
	} else {
		*ilen = x.length;
		*branch = x.branch;
		n = snprintf(text, sizeof(text), "insn: ");
		for (int i = 0; i < x.length; i++)
			n += snprintf(text + n, sizeof(text) - (size_t)n, "%02x ", b[i]);
	}
	ob_printf(o, "%-*s", width, text);
}

static void put_ip(struct outbuf *o, uint64_t ip)
{
	ob_printf(o, "\t%016" PRIx64 "\t", ip);
}

/* perf's ip__fprintf_sym(): "\tname+off:" when @addr enters another function. */
static void put_sym(struct walk *w, uint64_t addr)
{
	const struct sonde_profile_frame *fr =
		sonde_profile__resolve(w->p, w->pid, w->tid, w->kernel, addr);
	uint64_t a = sonde_profile_frame__addr(fr), off, start;
	const char *sym;

	if (w->have_last && a >= w->last_start && a < w->last_end)
		return;
	sym = sonde_profile_frame__sym(fr);
	if (!sym)
		return;
	off = sonde_profile_frame__sym_offset(fr);
	start = a - off;
	ob_printf(w->o, "\t%s", sym);
	if (off)
		ob_printf(w->o, "%+d", (int)off);
	ob_putc(w->o, ':');
	/* Where the code is there is an object: perf's addr2line answers
	 * "??:0" for an address without a line, which it leaves out. */
	if (w->opts->srcline) {
		const char *sl = sonde_profile_frame__srcline(w->p, fr);

		if (sl)
			ob_printf(w->o, "\t%s", sl);
	}
	ob_putc(w->o, '\n');
	w->have_last = true;
	w->last_start = start;
	w->last_end = start + sonde_profile_frame__sym_size(fr);
}

/* perf's ip__fprintf_jump(): a block's last instruction, the branch. */
static void put_jump(struct walk *w, uint64_t ip, const struct sonde_perf_branch_entry *e,
		     const uint8_t *b, long len, int insn)
{
	int ilen = 0;
	bool branch;

	put_ip(w->o, ip);
	put_insn(w->o, b, len, w->is64, &ilen, &branch, 30);
	ob_putc(w->o, '\t');
	if (w->opts->ilen)
		ob_printf(w->o, "ilen: %d\t", ilen);
	ob_printf(w->o, "#%s%s%s%s", e->predicted ? " PRED" : "", e->mispred ? " MISPRED" : "",
		  e->in_tx ? " INTX" : "", e->abort ? " ABORT" : "");
	if (e->cycles) {
		w->total_cycles += (int)e->cycles;
		ob_printf(w->o, " %d cycles [%d]", (int)e->cycles, w->total_cycles);
		if (insn) /* perf divides in float */
			ob_printf(w->o, " %.2f IPC", (double)((float)insn / (float)e->cycles));
	}
	ob_putc(w->o, '\n');
}

/* One instruction that is not a block's last; its length, 0 if bad. */
static int put_plain(struct walk *w, uint64_t ip, const uint8_t *b, long len, bool *branch)
{
	int ilen = 0;

	*branch = false;
	put_ip(w->o, ip);
	put_insn(w->o, b, len, w->is64, &ilen, branch, 0);
	if (w->opts->ilen)
		ob_printf(w->o, "\tilen: %d", ilen);
	ob_putc(w->o, '\n');
	return ilen;
}

void brstackinsn_put(struct outbuf *o, struct sonde_profile *p, int32_t pid, int32_t tid,
		     uint64_t ip, const struct sonde_profile_branch *b, size_t n,
		     const struct brstackinsn_opts *opts)
{
	static struct walk w; /* the block buffer is big; script prints on one thread */
	const struct sonde_perf_branch_entry *e0;
	uint64_t start, end;
	long len;
	int nr;

	if (!n)
		return;
	memset(&w, 0, offsetof(struct walk, buf));
	w.o = o;
	w.p = p;
	w.pid = pid;
	w.tid = tid;
	w.opts = opts;
	nr = n > 64 * 1024 ? 64 * 1024 : (int)n;
	/* nr - 1 blocks at most: no + 1 on a max_blocks of INT_MAX */
	if (opts->max_blocks > 0 && nr - 1 > opts->max_blocks)
		nr = opts->max_blocks + 1;
	ob_putc(o, '\n');
	/* The first branch's source, whose block began before the stack. */
	len = grab(&w, b[nr - 1].entry.from, b[nr - 1].entry.from);
	if (len > 0) {
		put_sym(&w, b[nr - 1].entry.from);
		put_jump(&w, b[nr - 1].entry.from, &b[nr - 1].entry, w.buf, len, 0);
	}
	for (int i = nr - 2; i >= 0; i--) {
		unsigned off;
		int insn = 0, ilen = 0;

		start = b[i + 1].entry.to;
		end = b[i].entry.from;
		len = grab(&w, start, end);
		/* Into the kernel and back: the entry was filtered, take the exit. */
		if (len == -1 && i > 0) {
			end = b[--i].entry.from;
			len = grab(&w, start, end);
		}
		if (len <= 0)
			continue;
		for (off = 0; off < (unsigned long)len; off += (unsigned)ilen) {
			uint64_t at = start + off;
			bool branch;

			put_sym(&w, at);
			if (at == end) {
				put_jump(&w, at, &b[i].entry, w.buf + off, len - (long)off, ++insn);
				break;
			}
			ilen = put_plain(&w, at, w.buf + off, len - (long)off, &branch);
			if (!ilen)
				break;
			insn++;
		}
		if (off != end - start)
			ob_puts(o, "\tmismatch of LBR data and executable\n");
	}
	/* The sample hit the last branch: its target has not run. */
	e0 = &b[0].entry;
	if (e0->from == ip || e0->abort)
		return;
	start = e0->to;
	end = ip;
	/* A branch or two the hardware missed: 128 bytes on, up to a branch. */
	if (end < start)
		end = start + 128;
	len = grab(&w, start, end);
	put_sym(&w, start);
	if (len <= 0) {
		bool branch;

		/* The sample's instruction at least. */
		len = grab(&w, ip, ip);
		if (len > 0)
			put_plain(&w, ip, w.buf, len, &branch);
		return;
	}
	for (uint64_t off = 0; off <= end - start;) {
		bool branch;
		int ilen = put_plain(&w, start + off, w.buf + off, len - (long)off, &branch);

		if (!ilen)
			break;
		if (branch && start + off != ip) {
			ob_puts(o, "\t... not reaching sample ...\n");
			break;
		}
		off += (uint64_t)ilen;
	}
}
