// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Code at an address of a thread's address space: its name, and its
 * bytes from the object file mapped there, for the instruction walks of
 * script -F brstackinsn. The space is the one asked (perf decides it by
 * the address: the kernel's upper half).
 */
#include <errno.h>
#include <string.h>
#include "profile_priv.h"

static void resolve(struct sonde_profile *p, int32_t pid, int32_t tid, bool kernel,
		    uint64_t addr, struct prof_loc *loc)
{
	struct prof_thread *t = kernel ? NULL : prof_thread_findnew(p->m, pid, tid);

	prof_resolve(p->m, t, kernel, addr, loc);
}

const struct sonde_profile_frame *sonde_profile__resolve(struct sonde_profile *p, int32_t pid,
							 int32_t tid, bool kernel, uint64_t addr)
{
	struct prof_loc loc;

	if (!p) {
		errno = EINVAL;
		return NULL;
	}
	resolve(p, pid, tid, kernel, addr, &loc);
	memset(&p->code_frame, 0, sizeof(p->code_frame));
	p->code_frame.dso = loc.dso;
	p->code_frame.sym = loc.sym;
	p->code_frame.addr = loc.addr;
	p->code_frame.ip = addr;
	p->code_frame.kernel = loc.kernel;
	return (const struct sonde_profile_frame *)&p->code_frame;
}

ssize_t sonde_profile__read_code(struct sonde_profile *p, int32_t pid, int32_t tid, bool kernel,
				 uint64_t addr, void *buf, size_t len, bool *is64)
{
	struct prof_loc loc;
	bool b64 = false;
	size_t n;

	if (!p || (!buf && len))
		return -EINVAL;
	resolve(p, pid, tid, kernel, addr, &loc);
	if (!loc.map || !loc.dso)
		return 0;
	n = prof_dso_read(p->m, loc.dso, loc.addr, buf, len, &b64);
	if (is64)
		*is64 = b64;
	return (ssize_t)n;
}

uint64_t sonde_profile_frame__sym_size(const struct sonde_profile_frame *f)
{
	const struct prof_frame *fr = (const struct prof_frame *)f;

	return fr->sym ? fr->sym->end - fr->sym->start : 0;
}
