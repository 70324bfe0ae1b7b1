// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Which PMUs are AUX area tracers. The kernel marks none in sysfs (it only
 * refuses an AUX mapping of any other PMU's event, with EOPNOTSUPP), so
 * perf goes by the PMU's name, and so does this: the name also says which
 * AUXTRACE_INFO layout perf expects for the data.
 */
#include <errno.h>
#include <string.h>
#include "sonde/pmu.h"
#include "internal.h"

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
