// SPDX-License-Identifier: LGPL-2.1-only
/*
 * What a reader knows beyond its records, for programs on the public API
 * (sonde report's --stats and --time, a pipe reader that stops on a
 * signal): counts by record type, the sample time span, streaming hooks.
 */
#include "perfdata_priv.h"

uint64_t sonde_perfdata_reader__nr_records(const struct sonde_perfdata_reader *r,
					   uint32_t type)
{
	return r && type < PDR_NR_TYPES ? r->nr_type[type] : 0;
}

bool sonde_perfdata_reader__sample_time(const struct sonde_perfdata_reader *r,
					uint64_t *first, uint64_t *last)
{
	if (!r || (!r->first_sample_time && !r->last_sample_time))
		return false;
	*first = r->first_sample_time;
	*last = r->last_sample_time;
	return true;
}

bool sonde_perfdata_reader__is_streaming(const struct sonde_perfdata_reader *r)
{
	return r && pdr_streaming(r);
}

void sonde_perfdata_reader__set_stop_flag(struct sonde_perfdata_reader *r,
					  const volatile sig_atomic_t *stop)
{
	pdr_set_stop_flag(r, stop);
}

void sonde_perfdata_reader__set_wait_hook(struct sonde_perfdata_reader *r,
					  void (*fn)(void *arg), void *arg)
{
	pdr_set_wait_hook(r, fn, arg);
}
