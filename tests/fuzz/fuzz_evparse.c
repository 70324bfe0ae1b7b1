// SPDX-License-Identifier: LGPL-2.1-only
/* libFuzzer target: event specs through the parser and the error display. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/sonde.h"
#include "fuzz_tree.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	sonde_set_print(NULL);
	fuzz_tree_init();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sonde_evspec_list *l = NULL;
	struct sonde_parse_error err;
	char *spec, buf[1024];

	if (size > 4096)
		return 0;
	spec = malloc(size + 1);
	if (!spec)
		return 0;
	memcpy(spec, data, size);
	spec[size] = '\0';
	if (sonde_evspec_list__parse(spec, &l, &err) == 0) {
		size_t n = sonde_evspec_list__count(l);
		FILE *null = fopen("/dev/null", "w");

		for (size_t i = 0; i < n; i++) {
			int leader = sonde_evspec_list__leader(l, i);

			if (leader < 0 || (size_t)leader > i || !sonde_evspec_list__name(l, i))
				abort();
			if (null)
				sonde_perf_event_attr__fprintf(null, sonde_evspec_list__attr(l, i));
			(void)sonde_evspec_list__term(l, i, "call-graph");
		}
		if (null)
			fclose(null);
		sonde_evspec_list__free(l);
	} else {
		if (err.column < 0 || (size_t)err.column > size || !err.message[0])
			abort();
		sonde_parse_error__format(&err, buf, sizeof(buf));
	}
	free(spec);
	return 0;
}
