// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde list 'uprobe:PATH[:GLOB]': the functions of a binary a uprobe can
 * go on, in the spelling -e takes (bpftrace's `-l` does the same), from
 * the library's symbol tables.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/symbols.h"
#include "list_probe.h"

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

bool list_probe_spec(const char *arg)
{
	return !strncmp(arg, "uprobe:", 7) || !strncmp(arg, "uretprobe:", 10);
}

int list_probes(const char *arg)
{
	const char *kind_end = strchr(arg, ':') + 1, *glob_sep;
	char path[4096], glob[512] = "*";
	const struct sonde_symbol *syms;
	struct sonde_symcache *cache;
	struct sonde_dso *dso;
	const char **names;
	size_t n, nn = 0;
	int shown = 0;

	glob_sep = strchr(kind_end, ':');
	if (glob_sep) {
		snprintf(glob, sizeof(glob), "%s", glob_sep + 1);
		if (!glob[0])
			strcpy(glob, "*");
	}
	snprintf(path, sizeof(path), "%.*s",
		 (int)(glob_sep ? glob_sep - kind_end : (long)strlen(kind_end)),
		 kind_end);
	cache = sonde_symcache__new(NULL);
	dso = cache ? sonde_symcache__dso(cache, path, NULL, 0) : NULL;
	if (!dso) {
		fprintf(stderr, "sonde list: %s: %s\n", path, strerror(errno));
		sonde_symcache__free(cache);
		return 1;
	}
	n = sonde_dso__symbols(dso, &syms);
	if (!n) {
		fprintf(stderr, "sonde list: %s: no symbols (%s)\n", path,
			sonde_dso__status(dso) == SONDE_DSO_MISSING ?
			"no such file" : "no symbol table");
		sonde_dso__put(dso);
		sonde_symcache__free(cache);
		return 1;
	}
	names = calloc(n, sizeof(*names));
	for (size_t i = 0; names && i < n; i++) {
		const char *name = syms[i].name;

		if (syms[i].size && !fnmatch(glob, name, 0))
			names[nn++] = name;
	}
	if (names) {
		qsort(names, nn, sizeof(*names), by_name);
		for (size_t i = 0; i < nn; i++) {
			if (i && !strcmp(names[i], names[i - 1]))
				continue;
			printf("%.*s%s:%s\n", (int)(kind_end - arg), arg, path,
			       names[i]);
			shown++;
		}
	}
	free(names);
	sonde_dso__put(dso);
	sonde_symcache__free(cache);
	if (!shown)
		fprintf(stderr, "sonde list: no function of %s matches '%s'\n",
			path, glob);
	return shown ? 0 : 1;
}
