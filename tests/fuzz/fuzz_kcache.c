// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Fuzzes the kallsyms cache table parser (kcache_tab_decode): a cache file
 * is trusted only after these checks, so any input must be rejected or
 * yield a sorted table of non-empty ranges whose names lie in the buffer.
 * Accepted tables are encoded again and must come back byte for byte.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/sonde.h"
#include "kcache.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kcache_sym *syms = NULL, *again = NULL;
	size_t nr = 0, nr2 = 0, len;
	void *enc;

	sonde_set_print(NULL);
	if (kcache_tab_decode(data, size, &syms, &nr))
		return 0;
	for (size_t i = 0; i < nr; i++) {
		const char *n = syms[i].name;

		if (syms[i].start >= syms[i].end)
			abort();
		if (i && syms[i - 1].start >= syms[i].start)
			abort();
		if (n < (const char *)data || n >= (const char *)data + size ||
		    !memchr(n, 0, (size_t)((const char *)data + size - n)))
			abort();
	}
	if (!kcache_tab_encode(syms, nr, &enc, &len)) {
		if (kcache_tab_decode(enc, len, &again, &nr2) || nr2 != nr)
			abort();
		for (size_t i = 0; i < nr; i++)
			if (again[i].start != syms[i].start ||
			    again[i].end != syms[i].end ||
			    strcmp(again[i].name, syms[i].name))
				abort();
		free(again);
		free(enc);
	}
	free(syms);
	return 0;
}
