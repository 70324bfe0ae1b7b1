// SPDX-License-Identifier: LGPL-2.1-only
/* PERF_SAMPLE_CALLCHAIN walking: context markers in, tagged addresses out. */
#include <string.h>
#include "sonde/abi.h"
#include "sonde/unwind.h"
#include "core_priv.h"

static int marker_ctx(uint64_t v)
{
	switch (v) {
	case SONDE_PERF_CONTEXT_HV:
		return SONDE_CALLCHAIN_HV;
	case SONDE_PERF_CONTEXT_KERNEL:
		return SONDE_CALLCHAIN_KERNEL;
	case SONDE_PERF_CONTEXT_USER:
		return SONDE_CALLCHAIN_USER;
	case SONDE_PERF_CONTEXT_GUEST_KERNEL:
		return SONDE_CALLCHAIN_GUEST_KERNEL;
	case SONDE_PERF_CONTEXT_GUEST_USER:
		return SONDE_CALLCHAIN_GUEST_USER;
	default:
		/* PERF_CONTEXT_GUEST and unknown markers: context unknown. */
		return SONDE_CALLCHAIN_UNKNOWN;
	}
}

void sonde_callchain_iter__init(struct sonde_callchain_iter *it,
				const uint64_t *chain, size_t nr)
{
	memset(it, 0, sizeof(*it));
	it->chain = chain;
	it->nr = chain ? nr : 0;
	it->ctx = SONDE_CALLCHAIN_UNKNOWN;
}

static int guess_ctx(uint64_t v)
{
	return (v >> 63) ? SONDE_CALLCHAIN_KERNEL : SONDE_CALLCHAIN_USER;
}

bool sonde_callchain_iter__next(struct sonde_callchain_iter *it, uint64_t *ip,
				int *ctx)
{
	while (it->pos < it->nr) {
		uint64_t v = it->chain[it->pos++];

		if (v >= SONDE_PERF_CONTEXT_MAX) {
			it->ctx = marker_ctx(v);
			continue;
		}
		*ip = v;
		if (ctx)
			*ctx = it->ctx == SONDE_CALLCHAIN_UNKNOWN ? guess_ctx(v) :
								    it->ctx;
		return true;
	}
	return false;
}

int sonde_callchain__split(const uint64_t *chain, size_t nr,
			   uint64_t *kernel, size_t kmax, size_t *nr_kernel,
			   uint64_t *user, size_t umax, size_t *nr_user)
{
	struct sonde_callchain_iter it;
	size_t nk = 0, nu = 0;
	uint64_t v;
	int ctx;

	sonde_callchain_iter__init(&it, chain, nr);
	while (sonde_callchain_iter__next(&it, &v, &ctx)) {
		if (ctx == SONDE_CALLCHAIN_KERNEL && nk < kmax)
			kernel[nk++] = v;
		else if (ctx == SONDE_CALLCHAIN_USER && nu < umax)
			user[nu++] = v;
	}
	if (nr_kernel)
		*nr_kernel = nk;
	if (nr_user)
		*nr_user = nu;
	return 0;
}
