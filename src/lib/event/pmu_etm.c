// SPDX-License-Identifier: LGPL-2.1-only
/*
 * What perf 6.1 adds to a cs_etm event recorded in per-CPU areas: the
 * trace of one CPU mixes every thread that ran there, so the decoder
 * needs the context ID (which thread) and global timestamps (to order
 * the CPUs' traces). perf turns both on, after checking each CPU's ETM
 * in sysfs can give them, and refuses the recording when one cannot.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/cpumap.h"
#include "sonde/pmu.h"
#include "core_priv.h"

/* The kernel's ETM_OPT_* bits of the event's config. */
#define OPT_CTXTID (1ULL << 14)
#define OPT_CTXTID2 (1ULL << 15)
#define OPT_TS (1ULL << 28)

/* cpuN/@rel of the PMU, a hex register value; -errno when unreadable. */
static int etm_reg(const struct sonde_pmu *pmu, int cpu, const char *rel,
		   uint32_t *out)
{
	char path[96], buf[64], *end;
	long n;

	snprintf(path, sizeof(path), "cpu%d/%s", cpu, rel);
	n = sonde_pmu__read_file(pmu, path, buf, sizeof(buf));
	if (n <= 0)
		return n < 0 ? (int)n : -EIO;
	*out = (uint32_t)strtoul(buf, &end, 16);
	return end == buf ? -EIO : 0;
}

static uint32_t field(uint32_t v, int lo, int hi)
{
	return (v >> lo) & ((1u << (hi - lo + 1)) - 1);
}

/* One CPU's checks, in perf's order: context ID, then timestamps. */
static int check_cpu(const struct sonde_pmu *pmu, int cpu, uint64_t ctxid,
		     char *err, size_t errlen)
{
	uint32_t idr0, idr2;

	/* ETMv3/PTM has neither; an ETMv4 or ETE has TRCIDR0. */
	if (etm_reg(pmu, cpu, "trcidr/trcidr0", &idr0)) {
		snprintf(err, errlen, "CPU %d has no ETMv4 or ETE (no cpu%d/trcidr/trcidr0): no context ID or timestamps in per-CPU trace",
			 cpu, cpu);
		return -EOPNOTSUPP;
	}
	if (etm_reg(pmu, cpu, "trcidr/trcidr2", &idr2)) {
		snprintf(err, errlen, "can't read file cpu%d/trcidr/trcidr2", cpu);
		return -EIO;
	}
	/* TRCIDR2.CIDSIZE: 4 means a 32-bit context ID. */
	if ((ctxid & OPT_CTXTID) && field(idr2, 5, 9) != 4) {
		snprintf(err, errlen, "CONTEXTIDR_EL1 isn't supported (CPU %d)", cpu);
		return -EOPNOTSUPP;
	}
	/* The EL2 context ID goes out as the VMID: 32 bits of it at least. */
	if ((ctxid & OPT_CTXTID2) &&
	    (!field(idr2, 29, 30) || field(idr2, 10, 14) < 4)) {
		snprintf(err, errlen, "CONTEXTIDR_EL2 isn't supported (CPU %d)", cpu);
		return -EOPNOTSUPP;
	}
	/* TRCIDR0.TSSIZE: 0 when there are no global timestamps. */
	if (!field(idr0, 24, 28)) {
		snprintf(err, errlen, "CPU %d's ETM has no global timestamps", cpu);
		return -EOPNOTSUPP;
	}
	return 0;
}

int sonde_pmu__aux_per_cpu_config(const struct sonde_pmu *pmu,
				  const struct sonde_cpu_map *cpus,
				  uint64_t *config, char *err, size_t errlen)
{
	const struct sonde_pmu_format *f;
	char dummy[8];
	uint64_t ctxid;

	if (!pmu || !cpus || !config)
		return lib_err(EINVAL);
	if (strcmp(sonde_pmu__name(pmu), "cs_etm"))
		return -ENOENT;
	if (!err) {
		err = dummy;
		errlen = sizeof(dummy);
	}
	/* The user's context ID choice stands; else the PMU's contextid term
	 * (config:14, or 15 where the kernel runs at EL2). */
	ctxid = *config & (OPT_CTXTID | OPT_CTXTID2);
	f = sonde_pmu__find_format(pmu, "contextid");
	if (!ctxid && f && f->field == SONDE_PMU_CONFIG)
		ctxid = f->bits;
	for (int i = 0; i < sonde_cpu_map__nr(cpus); i++) {
		int cpu = sonde_cpu_map__cpu(cpus, i), e;

		if (cpu < 0)
			continue;
		e = check_cpu(pmu, cpu, ctxid, err, errlen);
		if (e)
			return e;
	}
	*config |= ctxid | OPT_TS;
	return 0;
}
