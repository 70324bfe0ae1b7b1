// SPDX-License-Identifier: LGPL-2.1-only
/*
 * cs_etm's AUXTRACE_INFO words, as perf 6.1 lays them out
 * (tools/perf/util/cs-etm.h, header version 1): a three-word header
 * (version, PMU type << 32 | number of CPUs, snapshot mode), then one
 * block per CPU the trace may come from: magic (which tracer the CPU has:
 * ETE, ETMv4 or ETMv3/PTM), CPU number, how many register words follow,
 * then the registers. OpenCSD cannot decode a CPU's trace without them
 * (its trace ID, ID registers, the configuration it ran with), and only
 * the recording machine has them: the ID registers come from the PMU's
 * cpuN/ directories in sysfs, the configuration from the event's config.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "sonde/cpumap.h"
#include "sonde/pmu.h"
#include "perfdata_priv.h"
#include "core_priv.h"

#define ETM_HEADER_VERSION 1
#define ETM_HEADER_WORDS 3
#define ETM_COMMON_WORDS 3 /* magic, CPU, number of register words */
#define ETMV3_REGS 4       /* ETMCR, ETMTRACEIDR, ETMCCER, ETMIDR */
#define ETMV4_REGS 7       /* TRCCONFIGR, TRCTRACEIDR, TRCIDR0/1/2/8, TRCAUTHSTATUS */
#define ETE_REGS 8         /* ETMv4's and TRCDEVARCH */

#define ETMV3_MAGIC 0x3030303030303030ULL
#define ETMV4_MAGIC 0x4040404040404040ULL
#define ETE_MAGIC 0x5050505050505050ULL

/* The event's option bits (the kernel's ETM_OPT_*, also ETMv3's ETMCR). */
#define OPT_BRANCH_BROADCAST 8
#define OPT_CYCACC 12
#define OPT_CTXTID 14
#define OPT_CTXTID2 15
#define OPT_TS 28
#define OPT_RETSTK 29

/* ...and where ETMv4's TRCCONFIGR has them (the kernel's ETM4_CFG_BIT_*). */
#define CFG_BB 3
#define CFG_CYCACC 4
#define CFG_CTXTID 6
#define CFG_VMID 7
#define CFG_TS 11
#define CFG_RETSTK 12
#define CFG_VMID_OPT 15

enum etm_kind { ETMV3, ETMV4, ETE };

static bool bit(uint64_t v, int n)
{
	return (v >> n) & 1;
}

static uint64_t etmv4_config(uint64_t config)
{
	uint64_t c = 0;

	c |= (uint64_t)bit(config, OPT_CYCACC) << CFG_CYCACC;
	c |= (uint64_t)bit(config, OPT_CTXTID) << CFG_CTXTID;
	c |= (uint64_t)bit(config, OPT_TS) << CFG_TS;
	c |= (uint64_t)bit(config, OPT_RETSTK) << CFG_RETSTK;
	if (bit(config, OPT_CTXTID2))
		c |= (1ULL << CFG_VMID) | (1ULL << CFG_VMID_OPT);
	c |= (uint64_t)bit(config, OPT_BRANCH_BROADCAST) << CFG_BB;
	return c;
}

/*
 * cpuN/@rel of the PMU as perf reads it: a hex u32, 0 when missing or
 * unreadable; perf hands it on through an int, so bit 31 extends into
 * the upper word.
 */
static int ro_reg(const struct sonde_pmu *pmu, int cpu, const char *rel,
		  uint64_t *out)
{
	char path[96], buf[64], *end;
	unsigned long long v;

	*out = 0;
	snprintf(path, sizeof(path), "cpu%d/%s", cpu, rel);
	if (sonde_pmu__read_file(pmu, path, buf, sizeof(buf)) <= 0)
		return -ENOENT;
	v = strtoull(buf, &end, 16);
	if (end == buf)
		return -EINVAL;
	*out = (uint64_t)(int64_t)(int32_t)(uint32_t)v;
	return 0;
}

/* ETE: TRCDEVARCH says architecture version 5, part 0xA13 (ETMv4: 4). */
static enum etm_kind etm_kind(const struct sonde_pmu *pmu, int cpu)
{
	uint64_t v;

	if (!ro_reg(pmu, cpu, "mgmt/trcdevarch", &v) &&
	    ((v >> 12) & 0xf) == 5 && (v & 0xfff) == 0xa13)
		return ETE;
	if (!ro_reg(pmu, cpu, "trcidr/trcidr0", &v))
		return ETMV4;
	return ETMV3;
}

static size_t block_words(enum etm_kind k)
{
	return ETM_COMMON_WORDS +
	       (k == ETE ? ETE_REGS : k == ETMV4 ? ETMV4_REGS : ETMV3_REGS);
}

/* perf's trace ID of a CPU's ETM (CORESIGHT_ETM_PMU_SEED + 2 * cpu). */
static uint64_t trace_id(int cpu)
{
	return 0x10 + (uint64_t)cpu * 2;
}

static size_t cpu_block(const struct sonde_pmu *pmu, int cpu, enum etm_kind k,
			uint64_t config, uint64_t *w)
{
	static const char *const v4[] = {
		"trcidr/trcidr0", "trcidr/trcidr1", "trcidr/trcidr2",
		"trcidr/trcidr8", "mgmt/trcauthstatus", "mgmt/trcdevarch",
	};
	uint64_t *r = w + ETM_COMMON_WORDS;
	size_t nregs = block_words(k) - ETM_COMMON_WORDS;

	w[0] = k == ETE ? ETE_MAGIC : k == ETMV4 ? ETMV4_MAGIC : ETMV3_MAGIC;
	w[1] = (uint64_t)cpu;
	w[2] = nregs;
	if (k == ETMV3) {
		r[0] = config;
		r[1] = trace_id(cpu);
		if (ro_reg(pmu, cpu, "mgmt/etmccer", &r[2]) |
		    ro_reg(pmu, cpu, "mgmt/etmidr", &r[3]))
			pr_debug("cs_etm: CPU %d has no readable ETM registers in sysfs: zero in AUXTRACE_INFO\n",
				 cpu);
		return block_words(k);
	}
	r[0] = etmv4_config(config);
	r[1] = trace_id(cpu);
	for (size_t i = 0; i + 2 < nregs; i++)
		if (ro_reg(pmu, cpu, v4[i], &r[2 + i]))
			pr_debug("cs_etm: cannot read cpu%d/%s: 0 in AUXTRACE_INFO\n",
				 cpu, v4[i]);
	return block_words(k);
}

int auxtrace_cs_etm_words(const struct sonde_pmu *pmu,
			  const struct sonde_auxtrace_info_opts *o,
			  uint64_t **out, size_t *nr)
{
	const struct sonde_perf_event_attr *attr = OPTS_GET(o, attr, NULL);
	const struct sonde_cpu_map *cpus = OPTS_GET(o, cpus, NULL);
	struct sonde_cpu_map *online = NULL;
	enum etm_kind *kind;
	size_t n = ETM_HEADER_WORDS;
	uint64_t *w = NULL;
	int nc, err = 0;

	/* Areas per thread (any CPU): the trace may come from any online CPU. */
	if (!cpus || sonde_cpu_map__nr(cpus) <= 0 || sonde_cpu_map__cpu(cpus, 0) < 0) {
		cpus = online = sonde_cpu_map__new(NULL);
		if (!online)
			return -errno;
	}
	nc = sonde_cpu_map__nr(cpus);
	kind = calloc((size_t)nc, sizeof(*kind));
	if (!kind) {
		sonde_cpu_map__free(online);
		return -ENOMEM;
	}
	for (int i = 0; i < nc; i++) {
		kind[i] = etm_kind(pmu, sonde_cpu_map__cpu(cpus, i));
		n += block_words(kind[i]);
	}
	/* The record's size is 16 bits: 8 bytes of header, 8 of type. */
	if ((n + 2) * 8 > 0xffff)
		err = -E2BIG;
	else if (!(w = calloc(n, sizeof(*w))))
		err = -ENOMEM;
	if (!err) {
		size_t at = ETM_HEADER_WORDS;

		w[0] = ETM_HEADER_VERSION;
		w[1] = (uint64_t)sonde_pmu__type(pmu) << 32 | (uint32_t)nc;
		w[2] = OPTS_GET(o, snapshot, false);
		for (int i = 0; i < nc; i++)
			at += cpu_block(pmu, sonde_cpu_map__cpu(cpus, i), kind[i],
					attr->config, w + at);
		*out = w;
		*nr = at;
	}
	free(kind);
	sonde_cpu_map__free(online);
	return err;
}
