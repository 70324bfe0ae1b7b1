// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The header's plain fields for programs on the public API (sonde report
 * --header prints them as perf does): the data section, event ids, and
 * the small features decoded into the reader (NRCPUS, TOTAL_MEM, CLOCKID,
 * CLOCK_DATA, GROUP_DESC, BUILD_ID). The structured features are in
 * perfdata_read_feat.c.
 */
#include <errno.h>
#include "core_priv.h"
#include "perfdata_priv.h"

/* The feature bit set and @r valid: what each small getter checks first. */
static int has(const struct sonde_perfdata_reader *r, int feat)
{
	if (!r)
		return lib_err(EINVAL);
	return sonde_perfdata_reader__has_feature(r, feat) ? 0 : lib_err(ENOENT);
}

int sonde_perfdata_reader__data_section(const struct sonde_perfdata_reader *r,
					uint64_t *offset, uint64_t *size)
{
	if (!r || !offset || !size)
		return lib_err(EINVAL);
	if (r->pipe)
		return lib_err(ENOENT);
	*offset = r->data_off;
	*size = r->data_end - r->data_off;
	return 0;
}

const uint64_t *sonde_perfdata_reader__event_ids(const struct sonde_perfdata_reader *r,
						 int idx, uint32_t *nr)
{
	const struct pdr_attr *a = r ? pdr_attr_get(r, idx) : NULL;
	uint32_t n = a ? a->nr_ids : 0;

	if (nr)
		*nr = n;
	return n ? a->ids : NULL;
}

int sonde_perfdata_reader__nr_cpus(const struct sonde_perfdata_reader *r,
				   uint32_t *online, uint32_t *avail)
{
	int err = has(r, SONDE_FEAT_NRCPUS);

	if (err)
		return err;
	*online = r->nr_cpus_online;
	*avail = r->nr_cpus_avail;
	return 0;
}

int sonde_perfdata_reader__total_mem(const struct sonde_perfdata_reader *r, uint64_t *kb)
{
	int err = has(r, SONDE_FEAT_TOTAL_MEM);

	if (err)
		return err;
	*kb = r->total_mem;
	return 0;
}

int sonde_perfdata_reader__clockid_res(const struct sonde_perfdata_reader *r, uint64_t *ns)
{
	int err = has(r, SONDE_FEAT_CLOCKID);

	if (err)
		return err;
	*ns = r->clockid_res_ns;
	return 0;
}

const struct sonde_feat_clock_data *
sonde_perfdata_reader__clock_data(const struct sonde_perfdata_reader *r)
{
	return r && r->clock_data ? &r->clock : NULL;
}

size_t sonde_perfdata_reader__nr_groups(const struct sonde_perfdata_reader *r)
{
	return r ? r->nr_groups : 0;
}

const struct sonde_feat_group *
sonde_perfdata_reader__group(const struct sonde_perfdata_reader *r, size_t idx)
{
	return r && idx < r->nr_groups ? &r->groups[idx] : NULL;
}

size_t sonde_perfdata_reader__nr_build_ids(const struct sonde_perfdata_reader *r)
{
	return r ? r->nr_build_ids : 0;
}

const struct sonde_feat_build_id *
sonde_perfdata_reader__build_id(const struct sonde_perfdata_reader *r, size_t idx)
{
	return r && idx < r->nr_build_ids ? &r->build_ids[idx] : NULL;
}
