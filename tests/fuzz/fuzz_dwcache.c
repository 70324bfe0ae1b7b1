// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Fuzzes the DWARF answer cache parser (dwc_check, dwcache.c): a cache
 * file is trusted only after these checks, so any input must be rejected
 * or yield sorted answers of known kinds whose names lie in the buffer.
 * Accepted files are encoded again and must come back answer for answer.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/sonde.h"
#include "sym_priv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dwc_ans *ans;
	size_t nr = 0, nr2 = 0, len;
	void *enc;

	sonde_set_print(NULL);
	if (dwc_check(data, size, &nr))
		return 0;
	ans = malloc((nr ? nr : 1) * sizeof(*ans));
	if (!ans)
		return 0;
	for (size_t i = 0; i < nr; i++) {
		dwc_get(data, i, &ans[i]);
		if (ans[i].kind > DWC_SRCLINE || ans[i].nr > DWC_MAX_NAMES)
			abort();
		for (int j = 0; j < ans[i].nr; j++) {
			const char *n = ans[i].names[j];

			if (n < (const char *)data || n >= (const char *)data + size ||
			    !memchr(n, 0, (size_t)((const char *)data + size - n)))
				abort();
		}
		if (dwc_find(data, nr, ans[i].vaddr, ans[i].kind) != (long)i)
			abort();
	}
	if (!dwc_encode(ans, nr, &enc, &len)) {
		if (dwc_check(enc, len, &nr2) || nr2 != nr)
			abort();
		for (size_t i = 0; i < nr; i++) {
			struct dwc_ans a;

			dwc_get(enc, i, &a);
			if (a.vaddr != ans[i].vaddr || a.kind != ans[i].kind ||
			    a.nr != ans[i].nr)
				abort();
			for (int j = 0; j < a.nr; j++)
				if (strcmp(a.names[j], ans[i].names[j]))
					abort();
		}
		free(enc);
	} else {
		abort(); /* whatever dwc_check accepts can be written again */
	}
	free(ans);
	return 0;
}
