// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Branch stacks of samples, resolved: the source and target of every
 * entry named like a frame, for `script -F brstack*` and the histogram
 * of branches (profile_brhist.c). An entry is looked up where the sample ran first; a
 * branch may cross into the other space (a syscall, an interrupt), so an
 * address no map of that space holds is tried in the other, as perf's
 * thread__find_symbol_fb() does.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "profile_priv.h"

/* perf's machine__kernel_ip() without a kernel map: the upper half. */
static bool kernel_half(uint64_t addr)
{
	return addr >> 63;
}

void prof_branch_resolve(struct sonde_profile *p, struct prof_thread *t, bool kernel,
			 uint64_t addr, struct prof_frame *out)
{
	struct prof_loc loc;

	prof_resolve(p->m, t, kernel, addr, &loc);
	if (!loc.dso && kernel_half(addr) != kernel) {
		kernel = !kernel;
		prof_resolve(p->m, t, kernel, addr, &loc);
	}
	memset(out, 0, sizeof(*out));
	out->dso = loc.dso;
	out->sym = loc.sym;
	out->addr = loc.addr;
	out->ip = addr;
	out->kernel = loc.kernel;
}

int sonde_profile__sample_branches(struct sonde_profile *p, int ev,
				   const struct sonde_record *rec,
				   struct sonde_profile_branch *buf, size_t cap)
{
	const struct sonde_sample *ss;
	struct prof_thread *t;
	size_t nr, n;
	bool kernel;
	int ei;

	if (!p || !rec || rec->type != SONDE_PERF_RECORD_SAMPLE || (cap && !buf))
		return -EINVAL;
	if (ev < 0 || ev >= p->nr_evs)
		prof_sync_reader(p); /* a pipe's new events */
	ei = prof_route(p, ev, rec);
	if (ei < 0)
		return -ENOENT;
	ss = &rec->sample;
	if (!(p->evs[ei].fmt.sample_type & SONDE_PERF_SAMPLE_BRANCH_STACK) || !ss->branch.entries)
		return 0;
	if (ss->branch.nr > INT32_MAX / 2)
		return -EINVAL;
	nr = (size_t)ss->branch.nr;
	n = nr < cap ? nr : cap;
	if (2 * n > p->cap_br_frames) {
		struct prof_frame *v = realloc(p->br_frames, 2 * n * sizeof(*v));

		if (!v)
			return -ENOMEM;
		p->br_frames = v;
		p->cap_br_frames = 2 * n;
	}
	t = (p->evs[ei].fmt.sample_type & SONDE_PERF_SAMPLE_TID)
		    ? prof_thread_findnew(p->m, (int32_t)ss->pid, (int32_t)ss->tid)
		    : NULL;
	kernel = (rec->misc & SONDE_PERF_RECORD_MISC_CPUMODE_MASK) ==
		 SONDE_PERF_RECORD_MISC_KERNEL;
	for (size_t i = 0; i < n; i++) {
		struct prof_frame *fr = &p->br_frames[2 * i];

		memset(&buf[i], 0, sizeof(buf[i]));
		memcpy(&buf[i].entry, &ss->branch.entries[i], sizeof(buf[i].entry));
		prof_branch_resolve(p, t, kernel, buf[i].entry.from, &fr[0]);
		prof_branch_resolve(p, t, kernel, buf[i].entry.to, &fr[1]);
		buf[i].from = (const struct sonde_profile_frame *)&fr[0];
		buf[i].to = (const struct sonde_profile_frame *)&fr[1];
	}
	return (int)nr;
}
