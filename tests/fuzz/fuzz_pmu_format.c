// SPDX-License-Identifier: LGPL-2.1-only
/*
 * libFuzzer target for the sysfs/tracefs text parsers. The first byte picks
 * the parser: 0 format file ("config:0-7,32-35"), 1 tracefs format file,
 * 2 alias/term text (as written in events/<name>, parsed as pmu terms).
 */
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

static void format_file(const char *p, size_t n)
{
	struct sonde_pmu_format f = { .name = "x" };
	uint64_t w = 0;

	if (sonde_pmu_format__parse(p, n, &f.field, &f.bits) == 0) {
		if (f.field > SONDE_PMU_CONFIG3 || !f.bits)
			abort();
		sonde_pmu_format__apply(&f, 0x5a5a5a5a5a5a5a5aULL, &w);
		if (w & ~f.bits)
			abort();
	}
}

static void tp_format(const char *p, size_t n)
{
	size_t off = 0;
	struct sonde_tp_format *f = sonde_tp_format__parse(p, n, &off);

	if (!f) {
		if (off > n)
			abort();
		return;
	}
	for (size_t i = 0; i < sonde_tp_format__field_count(f); i++) {
		const struct sonde_tp_field *fl = sonde_tp_format__field(f, i);

		if (!fl->name || !fl->type ||
		    sonde_tp_format__find_field(f, fl->name) == NULL)
			abort();
	}
	sonde_tp_format__free(f);
}

static void alias_terms(const char *p, size_t n)
{
	struct sonde_evspec_list *l = NULL;
	char *spec = malloc(n + 6);

	if (!spec)
		return;
	memcpy(spec, "cpu/", 4);
	memcpy(spec + 4, p, n);
	spec[4 + n] = '/';
	spec[5 + n] = '\0';
	if (!sonde_evspec_list__parse(spec, &l, NULL))
		sonde_evspec_list__free(l);
	free(spec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy;

	if (size < 1 || size > 65536)
		return 0;
	/* An exact-size heap copy: ASan catches any read past the length. */
	copy = malloc(size - 1 ? size - 1 : 1);
	if (!copy)
		return 0;
	memcpy(copy, data + 1, size - 1);
	switch (data[0] % 3) {
	case 0:
		format_file(copy, size - 1);
		break;
	case 1:
		tp_format(copy, size - 1);
		break;
	default:
		alias_terms(copy, size - 1);
		break;
	}
	free(copy);
	return 0;
}
