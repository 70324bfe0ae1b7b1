// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Fuzzes the kernel table format (sym_ktab_load(), the cache file's
 * reader): a cache file is trusted only after these checks, so any input
 * must be rejected or yield a sorted table of non-empty ranges whose
 * names lie in it, each found at its start. Accepted tables are
 * encoded again and must come back the same.
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
	struct sym_ktab *kt, *again;
	struct sonde_symbol *syms;
	size_t nr, len;
	void *enc;

	sonde_set_print(NULL);
	if (sym_ktab_load(data, size, &kt))
		return 0;
	nr = sym_ktab_nr(kt);
	syms = calloc(nr ? nr : 1, sizeof(*syms));
	if (!syms)
		abort();
	for (size_t i = 0; i < nr; i++) {
		struct sonde_symbol *s = &syms[i];

		sym_ktab_get(kt, i, s);
		if (!s->size || s->binding > SONDE_SYM_WEAK)
			abort();
		if (i && syms[i - 1].start >= s->start)
			abort();
		if (strlen(s->name) >= size || (s->module && strlen(s->module) >= size))
			abort();
		/* Its own start finds it (sizes may overlap: nested ELF ones). */
		if (sym_ktab_find(kt, s->start) != i)
			abort();
	}
	if (!sym_ktab_encode(syms, nr, &enc, &len)) {
		if (sym_ktab_load(enc, len, &again) || sym_ktab_nr(again) != nr)
			abort();
		for (size_t i = 0; i < nr; i++) {
			struct sonde_symbol s;

			sym_ktab_get(again, i, &s);
			if (s.start != syms[i].start || s.size != syms[i].size ||
			    strcmp(s.name, syms[i].name) || !s.module != !syms[i].module ||
			    (s.module && strcmp(s.module, syms[i].module)) ||
			    s.binding != syms[i].binding || s.size_synth != syms[i].size_synth)
				abort();
		}
		sym_ktab_free(again);
		free(enc);
	}
	free(syms);
	sym_ktab_free(kt);
	return 0;
}
