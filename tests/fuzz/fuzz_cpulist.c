// SPDX-License-Identifier: LGPL-2.1-only
/* CPU-list parser: any text gives a map or an error message, never a crash. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/cpumap.h"
#include "core_priv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), err[160];
	struct sonde_cpu_map *m;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	sonde_set_print(NULL);
	m = sonde_cpu_map__parse(s, err, sizeof(err));
	if (m) {
		/* Ascending, unique, within bounds. */
		for (int i = 1; i < sonde_cpu_map__nr(m); i++)
			if (sonde_cpu_map__cpu(m, i) <= sonde_cpu_map__cpu(m, i - 1))
				abort();
	} else if (!err[0]) {
		abort(); /* every failure says why */
	}
	sonde_cpu_map__free(m);
	free(s);
	return 0;
}
