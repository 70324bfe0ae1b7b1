// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde report --header / --header-only [-I]: the perf.data header in perf
 * 6.1's layout, line for line, so the two can be diffed. The feature
 * sections are printed in feature-bit order, as perf does; the sections
 * perf keeps behind -I (topologies, caches) print a one-line hint without
 * it. Build ids are not part of perf's header dump (perf buildid-list
 * prints them), so they are not printed here either.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "report_cli.h"
#include "report_feat.h"
#include "sonde/evparse.h"
#include "sonde/perfdata.h"

/* perf 6.1's feature names, for "info available" and "missing features". */
static const char *const feat_names[SONDE_FEAT_LAST_61] = {
	[SONDE_FEAT_TRACING_DATA] = "TRACING_DATA",
	[SONDE_FEAT_BUILD_ID] = "BUILD_ID",
	[SONDE_FEAT_HOSTNAME] = "HOSTNAME",
	[SONDE_FEAT_OSRELEASE] = "OSRELEASE",
	[SONDE_FEAT_VERSION] = "VERSION",
	[SONDE_FEAT_ARCH] = "ARCH",
	[SONDE_FEAT_NRCPUS] = "NRCPUS",
	[SONDE_FEAT_CPUDESC] = "CPUDESC",
	[SONDE_FEAT_CPUID] = "CPUID",
	[SONDE_FEAT_TOTAL_MEM] = "TOTAL_MEM",
	[SONDE_FEAT_CMDLINE] = "CMDLINE",
	[SONDE_FEAT_EVENT_DESC] = "EVENT_DESC",
	[SONDE_FEAT_CPU_TOPOLOGY] = "CPU_TOPOLOGY",
	[SONDE_FEAT_NUMA_TOPOLOGY] = "NUMA_TOPOLOGY",
	[SONDE_FEAT_BRANCH_STACK] = "BRANCH_STACK",
	[SONDE_FEAT_PMU_MAPPINGS] = "PMU_MAPPINGS",
	[SONDE_FEAT_GROUP_DESC] = "GROUP_DESC",
	[SONDE_FEAT_AUXTRACE] = "AUXTRACE",
	[SONDE_FEAT_STAT] = "STAT",
	[SONDE_FEAT_CACHE] = "CACHE",
	[SONDE_FEAT_SAMPLE_TIME] = "SAMPLE_TIME",
	[SONDE_FEAT_MEM_TOPOLOGY] = "MEM_TOPOLOGY",
	[SONDE_FEAT_CLOCKID] = "CLOCKID",
	[SONDE_FEAT_DIR_FORMAT] = "DIR_FORMAT",
	[SONDE_FEAT_BPF_PROG_INFO] = "BPF_PROG_INFO",
	[SONDE_FEAT_BPF_BTF] = "BPF_BTF",
	[SONDE_FEAT_COMPRESSED] = "COMPRESSED",
	[SONDE_FEAT_CPU_PMU_CAPS] = "CPU_PMU_CAPS",
	[SONDE_FEAT_CLOCK_DATA] = "CLOCK_DATA",
	[SONDE_FEAT_HYBRID_TOPOLOGY] = "HYBRID_TOPOLOGY",
	[SONDE_FEAT_PMU_CAPS] = "PMU_CAPS",
};

/* perf's clockid names; the first name of an id is the one it prints. */
static const char *clockid_name(uint32_t id)
{
	switch (id) {
	case 0: return "realtime";
	case 1: return "monotonic";
	case 4: return "monotonic_raw";
	case 7: return "boottime";
	case 11: return "tai";
	default: return "(not found)";
	}
}

static void attr_field(void *ctx, const char *name, const char *val)
{
	ob_printf(ctx, ", %s = %s", name, val);
}

static void print_events(struct outbuf *o, const struct sonde_perfdata_reader *r)
{
	int nr = sonde_perfdata_reader__nr_attrs(r);

	if (!nr) {
		ob_puts(o, "# event desc: not available or unable to read\n");
		return;
	}
	for (int i = 0; i < nr; i++) {
		uint32_t nr_ids;
		const uint64_t *ids = sonde_perfdata_reader__event_ids(r, i, &nr_ids);

		/* perf's own layout, empty field after the name included. */
		ob_printf(o, "# event : name = %s, ", sonde_perfdata_reader__event_name(r, i));
		if (nr_ids) {
			ob_puts(o, ", id = {");
			for (uint32_t j = 0; j < nr_ids; j++)
				ob_printf(o, "%s %" PRIu64, j ? "," : "", ids[j]);
			ob_puts(o, " }");
		}
		sonde_perf_event_attr__for_each_field(sonde_perfdata_reader__attr(r, i), attr_field, o);
		ob_putc(o, '\n');
	}
}

/* perf prints a group from its leader: "# group: name{lead,member,...}". */
static void print_groups(struct outbuf *o, const struct sonde_perfdata_reader *r)
{
	uint32_t left = 0;

	for (int i = 0; i < sonde_perfdata_reader__nr_attrs(r); i++) {
		const struct sonde_feat_group *g = NULL;

		for (size_t k = 0; k < sonde_perfdata_reader__nr_groups(r); k++)
			if (sonde_perfdata_reader__group(r, k)->leader == (uint32_t)i)
				g = sonde_perfdata_reader__group(r, k);
		if (g && g->nr_members > 1) {
			ob_printf(o, "# group: %s{%s", g->name ? g->name : "",
				  sonde_perfdata_reader__event_name(r, i));
			left = g->nr_members - 1;
		} else if (left) {
			ob_printf(o, ",%s", sonde_perfdata_reader__event_name(r, i));
			if (!--left)
				ob_puts(o, "}\n");
		}
	}
}

static void print_clock_data(struct outbuf *o, const struct sonde_perfdata_reader *r)
{
	const struct sonde_feat_clock_data *cd = sonde_perfdata_reader__clock_data(r);
	char date[64] = "<error>";
	const char *name;
	struct tm tm;
	time_t sec;
	long usec;

	if (!cd) {
		ob_puts(o, "# reference time disabled\n");
		return;
	}
	sec = (time_t)(cd->tod_ns / 1000000000);
	usec = (long)(cd->tod_ns % 1000000000 / 1000);
	name = clockid_name(cd->clockid);
	if (localtime_r(&sec, &tm)) {
		char d[48];

		strftime(d, sizeof(d), "%F %T", &tm);
		snprintf(date, sizeof(date), "%s.%06ld", d, usec);
	}
	ob_printf(o, "# clockid: %s (%u)\n", name, cd->clockid);
	ob_printf(o, "# reference time: %s = %lld.%06ld (TOD) = %" PRIu64 ".%09" PRIu64 " (%s)\n",
		  date, (long long)sec, usec, cd->clockid_ns / 1000000000,
		  cd->clockid_ns % 1000000000, name);
}

static void print_feature(struct report *rp, int f)
{
	struct outbuf *o = &rp->out;
	const struct sonde_perfdata_reader *r = rp->r;
	const char *s = sonde_perfdata_reader__feature_string(r, f);
	uint32_t online = 0, avail = 0;
	uint64_t u = 0, first = 0, last = 0;

	switch (f) {
	case SONDE_FEAT_HOSTNAME:
		ob_printf(o, "# hostname : %s\n", s ? s : "");
		break;
	case SONDE_FEAT_OSRELEASE:
		ob_printf(o, "# os release : %s\n", s ? s : "");
		break;
	case SONDE_FEAT_VERSION:
		ob_printf(o, "# perf version : %s\n", s ? s : "");
		break;
	case SONDE_FEAT_ARCH:
		ob_printf(o, "# arch : %s\n", s ? s : "");
		break;
	case SONDE_FEAT_NRCPUS:
		sonde_perfdata_reader__nr_cpus(r, &online, &avail);
		ob_printf(o, "# nrcpus online : %u\n# nrcpus avail : %u\n", online, avail);
		break;
	case SONDE_FEAT_CPUDESC:
		ob_printf(o, "# cpudesc : %s\n", s ? s : "");
		break;
	case SONDE_FEAT_CPUID:
		ob_printf(o, "# cpuid : %s\n", s ? s : "");
		break;
	case SONDE_FEAT_TOTAL_MEM:
		sonde_perfdata_reader__total_mem(r, &u);
		ob_printf(o, "# total memory : %" PRIu64 " kB\n", u);
		break;
	case SONDE_FEAT_CMDLINE:
		/*
		 * perf prints every argument followed by a space, a single
		 * quote in one as \'.
		 */
		ob_puts(o, "# cmdline : ");
		for (const char *p = s ? s : ""; *p; p++)
			if (*p == '\'')
				ob_puts(o, "\\'");
			else
				ob_putc(o, *p);
		ob_puts(o, s && *s ? " \n" : "\n");
		break;
	case SONDE_FEAT_EVENT_DESC:
		print_events(o, r);
		break;
	case SONDE_FEAT_BRANCH_STACK:
		ob_puts(o, "# contains samples with branch stack\n");
		break;
	case SONDE_FEAT_GROUP_DESC:
		print_groups(o, r);
		break;
	case SONDE_FEAT_AUXTRACE:
		ob_puts(o, "# contains AUX area data (e.g. instruction trace)\n");
		break;
	case SONDE_FEAT_STAT:
		ob_puts(o, "# contains stat data\n");
		break;
	case SONDE_FEAT_SAMPLE_TIME:
		sonde_perfdata_reader__sample_time(r, &first, &last);
		ob_printf(o, "# time of first sample : %" PRIu64 ".%06" PRIu64 "\n",
			  first / 1000000000, first % 1000000000 / 1000);
		ob_printf(o, "# time of last sample : %" PRIu64 ".%06" PRIu64 "\n",
			  last / 1000000000, last % 1000000000 / 1000);
		ob_printf(o, "# sample duration : %10.3f ms\n", (double)(last - first) / 1e6);
		break;
	case SONDE_FEAT_CLOCKID:
		sonde_perfdata_reader__clockid_res(r, &u);
		ob_printf(o, "# clockid frequency: %" PRIu64 " MHz\n", u * 1000);
		break;
	case SONDE_FEAT_CLOCK_DATA:
		print_clock_data(o, r);
		break;
	case SONDE_FEAT_CPU_TOPOLOGY:
	case SONDE_FEAT_NUMA_TOPOLOGY:
	case SONDE_FEAT_CACHE:
	case SONDE_FEAT_MEM_TOPOLOGY:
	case SONDE_FEAT_HYBRID_TOPOLOGY:
		if (!rp->show_info) {
			ob_printf(o, "# %s info available, use -I to display\n", feat_names[f]);
			break;
		}
		/* fallthrough */
	default:
		/* TRACING_DATA, BUILD_ID, BPF_PROG_INFO: perf prints nothing. */
		report_feat_text(o, r, f);
		break;
	}
}

void report_print_header(struct report *rp)
{
	struct outbuf *o = &rp->out;
	const struct sonde_perfdata_reader *r = rp->r;
	bool pipe = sonde_perfdata_reader__is_pipe(r);
	uint64_t data_off = 0, data_size = 0;
	struct stat st;
	char when[64] = "\n";

	/* A pipe has no data section: perf prints zeros. */
	sonde_perfdata_reader__data_section(r, &data_off, &data_size);
	/* Like perf: the file's modification time, in local time. */
	if ((!strcmp(rp->input, "-") ? fstat(0, &st) : stat(rp->input, &st)) == 0) {
		time_t t = st.st_mtime;

		if (!ctime_r(&t, when))
			snprintf(when, sizeof(when), "\n");
	}
	ob_puts(o, "# ========\n");
	ob_printf(o, "# captured on    : %s", when);
	ob_puts(o, "# header version : 1\n");
	ob_printf(o, "# data offset    : %" PRIu64 "\n", data_off);
	ob_printf(o, "# data size      : %" PRIu64 "\n", data_size);
	ob_printf(o, "# feat offset    : %" PRIu64 "\n", pipe ? 0 : data_off + data_size);
	/*
	 * perf prints a pipe's features as their records arrive, after the
	 * closing rule, and has no missing-features line for it.
	 */
	if (pipe)
		ob_puts(o, "# ========\n#\n");
	for (int f = 1; f < SONDE_FEAT_LAST_61; f++)
		if (sonde_perfdata_reader__has_feature(r, f))
			print_feature(rp, f);
	if (pipe)
		return;
	ob_puts(o, "# missing features: ");
	for (int f = 1; f < SONDE_FEAT_LAST_61; f++)
		if (!sonde_perfdata_reader__has_feature(r, f))
			ob_printf(o, "%s ", feat_names[f]);
	ob_puts(o, "\n# ========\n#\n");
}

/*
 * --buildid-list: sonde's extra, since the header dump leaves build ids
 * out as perf's does. The layout of `perf buildid-list -i FILE`.
 */
void report_print_buildids(struct report *rp)
{
	const struct sonde_perfdata_reader *r = rp->r;

	for (size_t i = 0; i < sonde_perfdata_reader__nr_build_ids(r); i++) {
		const struct sonde_feat_build_id *b = sonde_perfdata_reader__build_id(r, i);

		for (int k = 0; k < b->size; k++)
			ob_printf(&rp->out, "%02x", b->id[k]);
		ob_printf(&rp->out, " %s\n", b->filename);
	}
}
