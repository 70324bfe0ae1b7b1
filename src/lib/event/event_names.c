// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The symbolic event names of the parser's tables, in the order and
 * spelling `perf list` shows them (sonde_event_names__for_each()).
 */
#include <errno.h>
#include <stdio.h>
#include "sonde/evparse.h"
#include "core_priv.h"
#include "event_priv.h"

/* Aliases follow their canonical name and share its config. */
static int each_symbol(const struct ev_symbol *tab, uint32_t type,
		       sonde_event_name_fn fn, void *ctx)
{
	for (int i = 0; tab[i].name; i++) {
		struct sonde_event_name ev = { .name = tab[i].name, .type = type,
					       .config = tab[i].config };
		int ret;

		if (i > 0 && tab[i - 1].config == tab[i].config)
			continue;
		if (tab[i + 1].name && tab[i + 1].config == tab[i].config)
			ev.alias = tab[i + 1].name;
		ret = fn(&ev, ctx);
		if (ret)
			return ret;
	}
	return 0;
}

/* "L1-dcache-loads" and "L1-dcache-load-misses" for every op a cache has. */
static int each_cache(sonde_event_name_fn fn, void *ctx)
{
	static const char *const op_one[] = { "load", "store", "prefetch" };

	for (int t = 0; ev_cache_name(t); t++)
		for (int op = 0; op < 3; op++) {
			char name[64];
			struct sonde_event_name ev = {
				.name = name, .type = SONDE_PERF_TYPE_HW_CACHE,
			};

			if (!ev_cache_op_valid(t, op))
				continue;
			for (int res = 0; res < 2; res++) {
				int ret;

				if (res == 0)
					snprintf(name, sizeof(name), "%s-%s",
						 ev_cache_name(t),
						 ev_cache_op_name(op, 0));
				else
					snprintf(name, sizeof(name), "%s-%s-misses",
						 ev_cache_name(t), op_one[op]);
				ev.config = (uint64_t)t | (uint64_t)op << 8 |
					    (uint64_t)res << 16;
				ret = fn(&ev, ctx);
				if (ret)
					return ret;
			}
		}
	return 0;
}

int sonde_event_names__for_each(uint32_t type, sonde_event_name_fn fn, void *ctx)
{
	if (!fn)
		return lib_err(EINVAL);
	switch (type) {
	case SONDE_PERF_TYPE_HARDWARE:
		return each_symbol(ev_hw_symbols, type, fn, ctx);
	case SONDE_PERF_TYPE_SOFTWARE:
		return each_symbol(ev_sw_symbols, type, fn, ctx);
	case SONDE_PERF_TYPE_HW_CACHE:
		return each_cache(fn, ctx);
	default:
		return lib_err(EINVAL);
	}
}
