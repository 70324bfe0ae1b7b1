// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The perf_event_open(2) man page example - count the instructions of one
 * printf - written with libsonde. Where the CPU has no usable PMU (many
 * VMs) instructions cannot be opened: the example says why and counts the
 * printf's task-clock instead, as `sonde stat` would show <not supported>.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sonde/sonde.h>

int main(void)
{
	struct sonde_perf_event_attr insns = {
		.type = SONDE_PERF_TYPE_HARDWARE,
		.config = SONDE_PERF_COUNT_HW_INSTRUCTIONS,
	};
	struct sonde_perf_event_attr clock = {
		.type = SONDE_PERF_TYPE_SOFTWARE,
		.config = SONDE_PERF_COUNT_SW_TASK_CLOCK,
	};
	SONDE_OPTS(sonde_evlist_open_opts, opts, .keep_unsupported = true);
	struct sonde_evlist *list = sonde_evlist__new();
	int ret;

	if (!list)
		return 1;
	insns.disabled = clock.disabled = 1;
	insns.exclude_kernel = clock.exclude_kernel = 1;
	insns.exclude_hv = clock.exclude_hv = 1;
	sonde_evlist__add(list, &insns, "instructions", -1);
	sonde_evlist__add(list, &clock, "task-clock", -1);
	sonde_set_print(NULL); /* the reasons are printed below */
	ret = sonde_evlist__open(list, &opts);
	if (ret) {
		printf("cannot count here: %s\n",
		       sonde_evsel__open_error(sonde_evlist__evsel(list, 0)));
		sonde_evlist__free(list);
		return 77;
	}

	sonde_evlist__reset(list);
	sonde_evlist__enable(list);
	printf("Measuring instruction count for this printf\n");
	sonde_evlist__disable(list);

	for (int i = 0; i < sonde_evlist__nr(list); i++) {
		struct sonde_evsel *e = sonde_evlist__evsel(list, i);
		struct sonde_count c;

		if (!sonde_evsel__supported(e)) {
			printf("%-13s <not supported>: %s\n",
			       sonde_evsel__name(e), sonde_evsel__open_error(e));
			continue;
		}
		if (sonde_evsel__read_total(e, &c)) {
			printf("%s: read failed\n", sonde_evsel__name(e));
			sonde_evlist__free(list);
			return 1;
		}
		printf("%-13s %llu%s\n", sonde_evsel__name(e),
		       (unsigned long long)c.scaled,
		       i == 0 ? " instructions" : " ns");
	}
	sonde_evlist__free(list);
	return 0;
}
