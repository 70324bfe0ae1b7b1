// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The end-of-load warnings of sonde report and sonde script about what
 * the recording could not keep, in perf 6.1's words and on perf's
 * conditions (perf_session__warn_about_errors(), which perf report and
 * perf script both print): AUX records flagged TRUNCATED (the
 * area was full, data lost), PARTIAL (gaps, as a KVM guest in the
 * background causes) and COLLISION; MMAP2 records marked
 * PROC_MAP_PARSE_TIMEOUT (processes whose maps were not all read).
 */
#include <inttypes.h>
#include <stdio.h>
#include "profile_warn.h"

/* perf's sysfs__read_bool(): Y, y or 1 is true. */
static bool kvm_vmm_exclusive(void)
{
	FILE *f = fopen("/sys/module/kvm_intel/parameters/vmm_exclusive", "re");
	int c = f ? fgetc(f) : EOF;

	if (f)
		fclose(f);
	return c == 'Y' || c == 'y' || c == '1';
}

void profile_warn_recording(const struct sonde_profile *p)
{
	struct sonde_profile_aux_stats st;
	uint64_t timeouts = sonde_profile__proc_map_timeouts(p);
	unsigned int nr;

	sonde_profile__aux_stats(p, &st);
	/* perf counts records in an unsigned int. */
	nr = (unsigned int)st.records;
	if (st.truncated)
		fprintf(stderr, "Warning:\nAUX data lost %" PRIu64 " times out of %u!\n\n",
			st.truncated, nr);
	if (st.partial)
		fprintf(stderr, "Warning:\nAUX data had gaps in it %" PRIu64 " times out of %u!\n\n"
			"Are you running a KVM guest in the background?%s\n\n",
			st.partial, nr,
			kvm_vmm_exclusive() ?
			"\nReloading kvm_intel module with vmm_exclusive=0\n"
			"will reduce the gaps to only guest's timeslices." : "");
	if (st.collision)
		fprintf(stderr, "Warning:\nAUX data detected collision  %" PRIu64 " times out of %u!\n\n",
			st.collision, nr);
	/* perf's count is an int. */
	if (timeouts)
		fprintf(stderr, "Warning:\n%d map information files for pre-existing threads were\n"
			"not processed, if there are samples for addresses they\n"
			"will not be resolved, you may find out which are these\n"
			"threads by running with -v and redirecting the output\n"
			"to a file.\nThe time limit to process proc map is too short?\n"
			"Increase it by --proc-map-timeout\n", (int)timeouts);
}
