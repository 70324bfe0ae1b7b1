// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Which PMUs are AUX area tracers. The kernel marks none in sysfs (it only
 * refuses an AUX mapping of any other PMU's event, with EOPNOTSUPP), so
 * perf goes by the PMU's name, and so does this: the name also says which
 * AUXTRACE_INFO layout perf expects for the data. Also perf's default
 * config of such a PMU, which terms then change.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/pmu.h"
#include "core_priv.h"

static bool has_prefix(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

int sonde_pmu_name__auxtrace_type(const char *name)
{
	if (!name)
		return lib_err(EINVAL);
	if (!strcmp(name, "intel_pt"))
		return SONDE_AUXTRACE_INTEL_PT;
	if (!strcmp(name, "intel_bts"))
		return SONDE_AUXTRACE_INTEL_BTS;
	if (!strcmp(name, "cs_etm"))
		return SONDE_AUXTRACE_CS_ETM;
	/* One per SPE implementation (arm_spe_0), one per PCIe root port. */
	if (has_prefix(name, "arm_spe_"))
		return SONDE_AUXTRACE_ARM_SPE;
	if (has_prefix(name, "hisi_ptt"))
		return SONDE_AUXTRACE_HISI_PTT;
	return -ENOENT;
}

/* intel_bts writes struct { u64 from, to, misc; } per branch. */
#define BTS_RECORD_SIZE 24

int sonde_pmu_name__aux_alignment(const char *name)
{
	if (!name)
		return lib_err(EINVAL);
	return sonde_pmu_name__auxtrace_type(name) == SONDE_AUXTRACE_INTEL_BTS ?
	       BTS_RECORD_SIZE : 0;
}

/*
 * perf's cs_etm and arm_spe look for a wrapped snapshot area in its last
 * 512 bytes past the head (cs_etm_buffer_has_wrapped(),
 * arm_spe_buffer_has_wrapped()); intel_pt and intel_bts in the last 4 KiB.
 */
size_t sonde_pmu_name__aux_snapshot_tail(const char *name)
{
	int type = name ? sonde_pmu_name__auxtrace_type(name) : -ENOENT;

	return type == SONDE_AUXTRACE_CS_ETM || type == SONDE_AUXTRACE_ARM_SPE ? 512 : 0;
}

/* The value of a config term: its mask's bits gathered, low bit first. */
static uint64_t term_value(const struct sonde_pmu *pmu, const char *name,
			   uint64_t config)
{
	const struct sonde_pmu_format *f = sonde_pmu__find_format(pmu, name);
	uint64_t v = 0;
	int k = 0;

	if (!f || f->field != SONDE_PMU_CONFIG)
		return 0;
	for (int b = 0; b < 64; b++)
		if (f->bits >> b & 1)
			v |= (config >> b & 1) << k++;
	return v;
}

/*
 * perf's intel_pt_snapshot_ref_buf_size(): two PSB periods (2 KiB << the
 * psb_period term), at most 256 KiB, for a -S size over 64 KiB, when that
 * is less than the area and than half the snapshot size.
 */
size_t sonde_pmu__aux_snapshot_ref_size(const struct sonde_pmu *pmu,
					uint64_t config, size_t area_size,
					size_t snapshot_size)
{
	uint64_t psb, ref;

	if (!pmu || strcmp(sonde_pmu__name(pmu), "intel_pt") ||
	    snapshot_size <= 64 * 1024)
		return 0;
	psb = term_value(pmu, "psb_period", config);
	ref = psb < 8 ? (2048ULL << psb) * 2 : 256 * 1024;
	if (ref > 256 * 1024)
		ref = 256 * 1024;
	if (ref >= area_size || ref >= snapshot_size / 2)
		return 0;
	return (size_t)ref;
}

/* perf's choice among the values a cap allows: @target or the nearest. */
static int pick_bit(unsigned long bits, int target)
{
	int pick = -1;

	for (int pos = 0; bits; bits >>= 1, pos++) {
		if (!(bits & 1))
			continue;
		if (pos <= target || pick < 0)
			pick = pos;
		if (pos >= target)
			break;
	}
	return pick;
}

/* caps/NAME in @base (10 or 16), or @dflt when the PMU lacks it. */
static unsigned long cap(const struct sonde_pmu *pmu, const char *name,
			 int base, unsigned long dflt)
{
	char rel[64], buf[64], *end;
	unsigned long v;

	snprintf(rel, sizeof(rel), "caps/%s", name);
	if (sonde_pmu__read_file(pmu, rel, buf, sizeof(buf)) <= 0)
		return dflt;
	v = strtoul(buf, &end, base);
	return *end ? dflt : v;
}

/* Sets term @name = @v in @config; false when the PMU has no such format. */
static bool term(const struct sonde_pmu *pmu, const char *name, uint64_t v,
		 uint64_t *config)
{
	const struct sonde_pmu_format *f = sonde_pmu__find_format(pmu, name);

	return f && f->field == SONDE_PMU_CONFIG &&
	       !sonde_pmu_format__apply(f, v, config);
}

/*
 * intel_pt with no terms traces nothing useful (pt=0, no timing), so perf
 * starts from "tsc,mtc,mtc_period=P,psb_period=Q,pt,branch" as far as the
 * PMU's caps allow, and stops at the first term the PMU lacks.
 */
static uint64_t intel_pt_default(const struct sonde_pmu *pmu)
{
	unsigned long mtc_periods = 0, psb_periods;
	uint64_t config = 0;

	if (!term(pmu, "tsc", 1, &config))
		return config;
	if (cap(pmu, "mtc", 10, 1)) {
		mtc_periods = cap(pmu, "mtc_periods", 16, 0);
		if (mtc_periods &&
		    (!term(pmu, "mtc", 1, &config) ||
		     !term(pmu, "mtc_period", (uint64_t)pick_bit(mtc_periods, 3), &config)))
			return config;
	}
	if (cap(pmu, "psb_cyc", 10, 1) && mtc_periods) {
		psb_periods = cap(pmu, "psb_periods", 16, 0);
		if (psb_periods &&
		    !term(pmu, "psb_period", (uint64_t)pick_bit(psb_periods, 3), &config))
			return config;
	}
	if (sonde_pmu__find_format(pmu, "pt") && sonde_pmu__find_format(pmu, "branch") &&
	    term(pmu, "pt", 1, &config))
		term(pmu, "branch", 1, &config);
	return config;
}

int sonde_pmu__default_config(const struct sonde_pmu *pmu, uint64_t *config)
{
	if (!pmu || !config)
		return lib_err(EINVAL);
	if (strcmp(sonde_pmu__name(pmu), "intel_pt"))
		return -ENOENT;
	*config = intel_pt_default(pmu);
	return 0;
}
