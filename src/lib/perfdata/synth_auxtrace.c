// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The AUXTRACE_INFO record perf needs before any AUXTRACE record: which AUX
 * area tracer made the data and the facts about the recording that only
 * the recording machine knows (its PMU type number, TSC conversion,
 * config bits, snapshot or full trace, per-CPU or per-thread areas), laid
 * out as perf 6.1's recording code for that tracer lays them out, because
 * perf's decoder for the type reads them by position.
 *
 * cs_etm's layout (per-CPU ETM registers) is in synth_auxtrace_etm.c.
 * For a tracer whose layout these files do not know (new PMUs), the record
 * says UNKNOWN and holds the
 * facts every perf layout starts from: PMU type, time_shift, time_mult,
 * time_zero, cap_user_time_zero (intel_bts's first five words), then
 * snapshot mode and per-CPU areas. perf refuses UNKNOWN when it decodes
 * (perf script, perf report: "failed to process type: 70") but counts the
 * data (perf report --stats); a decoder written later finds what it cannot
 * recover from anywhere else.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/perfdata.h"
#include "sonde/pmu.h"
#include "sonde/ring.h"
#include "sonde/synth.h"
#include "perfdata_priv.h"
#include "core_priv.h"
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

/* perf 6.1's word indexes (tools/perf/util/intel-pt.h, intel-bts.h). */
enum {
	PT_PMU_TYPE, PT_TIME_SHIFT, PT_TIME_MULT, PT_TIME_ZERO,
	PT_CAP_USER_TIME_ZERO, PT_TSC_BIT, PT_NORETCOMP_BIT,
	PT_HAVE_SCHED_SWITCH, PT_SNAPSHOT_MODE, PT_PER_CPU_MMAPS, PT_MTC_BIT,
	PT_MTC_FREQ_BITS, PT_TSC_CTC_N, PT_TSC_CTC_D, PT_CYC_BIT,
	PT_MAX_NONTURBO_RATIO, PT_FILTER_STR_LEN, PT_PRIV_MAX,
};
#define BTS_PRIV_MAX 6
#define SPE_PRIV_MAX 2     /* PMU type, per-CPU areas */
#define PTT_PRIV_MAX 1     /* PMU type */
#define GENERIC_PRIV_MAX 7
#define FILTER_MAX 4096

struct tsc {
	uint64_t shift, mult, zero, cap_zero;
};

static void read_tsc(const struct sonde_perf_event_mmap_page *pc, struct tsc *t)
{
	struct sonde_time_conv tc;

	memset(t, 0, sizeof(*t));
	if (!pc || sonde_mmap_page__time_conv(pc, &tc))
		return; /* no usable TSC: the decoders then go without */
	t->shift = tc.time_shift;
	t->mult = tc.time_mult;
	t->zero = tc.time_zero;
	t->cap_zero = tc.time_mult != 0;
}

/* The attr bits of a one-bit format term ("tsc"): its mask, or 0. */
static uint64_t format_bits(const struct sonde_pmu *pmu, const char *name)
{
	const struct sonde_pmu_format *f = sonde_pmu__find_format(pmu, name);

	return f && f->field == SONDE_PMU_CONFIG ? f->bits : 0;
}

/* The lowest set bit of a term's mask: what term=1 sets, as perf reads it. */
static uint64_t term_one(const struct sonde_pmu *pmu, const char *name)
{
	uint64_t m = format_bits(pmu, name);

	return m & -m;
}

/* CPUID leaf 0x15: TSC / core crystal clock ratio (0 where unknown). */
static void tsc_ctc_ratio(uint64_t *n, uint64_t *d)
{
	*n = *d = 0;
#if defined(__x86_64__) || defined(__i386__)
	{
		unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;

		if (__get_cpuid(0x15, &eax, &ebx, &ecx, &edx)) {
			*n = ebx;
			*d = eax;
		}
	}
#endif
}

static uint64_t read_ulong(const struct sonde_pmu *pmu, const char *rel)
{
	char buf[64], *end;
	unsigned long long v;

	if (sonde_pmu__read_file(pmu, rel, buf, sizeof(buf)) <= 0)
		return 0;
	v = strtoull(buf, &end, 10);
	return *end ? 0 : v;
}

static size_t intel_pt(const struct sonde_pmu *pmu, const struct tsc *t,
		       const struct sonde_auxtrace_info_opts *o, uint64_t *priv)
{
	const char *filter = OPTS_GET(o, filter, NULL);
	size_t flen = filter ? strlen(filter) : 0;

	priv[PT_PMU_TYPE] = sonde_pmu__type(pmu);
	priv[PT_TIME_SHIFT] = t->shift;
	priv[PT_TIME_MULT] = t->mult;
	priv[PT_TIME_ZERO] = t->zero;
	priv[PT_CAP_USER_TIME_ZERO] = t->cap_zero;
	priv[PT_TSC_BIT] = term_one(pmu, "tsc");
	priv[PT_NORETCOMP_BIT] = term_one(pmu, "noretcomp");
	priv[PT_HAVE_SCHED_SWITCH] = (uint64_t)OPTS_GET(o, have_sched_switch, 0);
	priv[PT_SNAPSHOT_MODE] = OPTS_GET(o, snapshot, false);
	priv[PT_PER_CPU_MMAPS] = OPTS_GET(o, per_cpu, false);
	priv[PT_MTC_BIT] = term_one(pmu, "mtc");
	priv[PT_MTC_FREQ_BITS] = format_bits(pmu, "mtc_period");
	tsc_ctc_ratio(&priv[PT_TSC_CTC_N], &priv[PT_TSC_CTC_D]);
	priv[PT_CYC_BIT] = term_one(pmu, "cyc");
	priv[PT_MAX_NONTURBO_RATIO] = read_ulong(pmu, "max_nonturbo_ratio");
	priv[PT_FILTER_STR_LEN] = flen;
	if (!flen)
		return PT_PRIV_MAX;
	/* The string, NUL-terminated and padded to whole words. */
	memcpy(&priv[PT_PRIV_MAX], filter, flen);
	return PT_PRIV_MAX + (flen + 1 + 7) / 8;
}

static size_t generic(const struct sonde_pmu *pmu, const struct tsc *t,
		      const struct sonde_auxtrace_info_opts *o, uint64_t *priv,
		      size_t max)
{
	uint64_t all[GENERIC_PRIV_MAX] = {
		sonde_pmu__type(pmu), t->shift, t->mult, t->zero, t->cap_zero,
		OPTS_GET(o, snapshot, false), OPTS_GET(o, per_cpu, false),
	};

	memcpy(priv, all, max * sizeof(uint64_t));
	return max;
}

static const struct sonde_pmu *pmu_of_type(const struct sonde_pmus *pmus,
					   uint32_t type)
{
	for (size_t i = 0; i < sonde_pmus__count(pmus); i++) {
		const struct sonde_pmu *p = sonde_pmus__get(pmus, i);

		if (sonde_pmu__type(p) == type)
			return p;
	}
	return NULL;
}

int sonde_perfdata_writer__synth_auxtrace_info(struct sonde_perfdata_writer *w,
					       const struct sonde_auxtrace_info_opts *o)
{
	SONDE_OPTS(sonde_pmus_opts, po);
	const struct sonde_perf_event_attr *attr;
	const char *filter;
	const struct sonde_pmu *pmu;
	struct sonde_pmus *pmus;
	struct tsc t;
	uint64_t *rec, *etm = NULL;
	size_t nr, etm_nr = 0;
	int type, err;

	if (!w || !OPTS_VALID(o, sonde_auxtrace_info_opts))
		return lib_err(EINVAL);
	attr = OPTS_GET(o, attr, NULL);
	filter = OPTS_GET(o, filter, NULL);
	if (!attr || (filter && strlen(filter) >= FILTER_MAX))
		return lib_err(EINVAL);
	po.sysfs_root = OPTS_GET(o, sysfs_root, NULL);
	pmus = sonde_pmus__load(&po);
	if (!pmus)
		return lib_err(errno);
	pmu = pmu_of_type(pmus, attr->type);
	type = pmu ? sonde_pmu_name__auxtrace_type(sonde_pmu__name(pmu)) : -ENOENT;
	if (type < 0) {
		pr_debug("AUXTRACE_INFO: no AUX area tracer has PMU type %u\n",
			 attr->type);
		sonde_pmus__free(pmus);
		return lib_err(ENOENT);
	}
	if (type == SONDE_AUXTRACE_CS_ETM &&
	    (err = auxtrace_cs_etm_words(pmu, o, &etm, &etm_nr))) {
		sonde_pmus__free(pmus);
		return lib_err(-err);
	}
	/* Header, type + reserved, words, the filter string. */
	rec = calloc(2 + PT_PRIV_MAX + FILTER_MAX / 8 + 1 + etm_nr, sizeof(uint64_t));
	if (!rec) {
		free(etm);
		sonde_pmus__free(pmus);
		return lib_err(ENOMEM);
	}
	read_tsc(OPTS_GET(o, pc, NULL), &t);
	switch (type) {
	case SONDE_AUXTRACE_INTEL_PT:
		nr = intel_pt(pmu, &t, o, rec + 2);
		break;
	case SONDE_AUXTRACE_INTEL_BTS:
		nr = generic(pmu, &t, o, rec + 2, BTS_PRIV_MAX);
		break;
	case SONDE_AUXTRACE_ARM_SPE:
		rec[2] = sonde_pmu__type(pmu);
		rec[3] = OPTS_GET(o, per_cpu, false);
		nr = SPE_PRIV_MAX;
		break;
	case SONDE_AUXTRACE_HISI_PTT:
		rec[2] = sonde_pmu__type(pmu);
		nr = PTT_PRIV_MAX;
		break;
	case SONDE_AUXTRACE_CS_ETM:
		memcpy(rec + 2, etm, etm_nr * sizeof(uint64_t));
		nr = etm_nr;
		break;
	default:
		type = SONDE_AUXTRACE_UNKNOWN;
		nr = generic(pmu, &t, o, rec + 2, GENERIC_PRIV_MAX);
		break;
	}
	free(etm);
	sonde_pmus__free(pmus);
	{
		struct sonde_perf_event_header *h = (void *)rec;
		uint32_t tw[2] = { (uint32_t)type, 0 };

		h->type = SONDE_PERF_RECORD_AUXTRACE_INFO;
		h->misc = 0;
		h->size = (uint16_t)((2 + nr) * 8);
		memcpy(&rec[1], tw, sizeof(tw));
		err = sonde_perfdata_writer__write(w, h);
	}
	free(rec);
	if (err)
		return err;
	w->aux.feature = true;
	return type;
}
