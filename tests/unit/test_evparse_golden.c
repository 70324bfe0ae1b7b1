// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The event-spec parser against perf 6.1's golden file: every spec of
 * tests/golden/evparse/specs.txt must give the attrs perf 6.1 built
 * (perf61.attr, made by regen.sh from perf stat -vv), compared field by
 * field after the filter of filter_attr.sh (perf stat's own counting
 * fields left out). One process for all 362 specs: tests/cli/test_list.sh
 * ran `sonde list --attr` once per spec, a minute of process start-ups
 * under ASan; it still compares that command with the live perf.
 *
 * Run from the source tree (run_suite.sh does); elsewhere it skips.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/sonde.h"
#include "sonde/evparse.h"

#define DIR "tests/golden/evparse/"

/* The fields filter_attr.sh drops: perf stat sets them for counting. */
static bool dropped(const char *line)
{
	static const char *const names[] = {
		"size", "sample_type", "read_format", "disabled", "inherit",
		"enable_on_exec", "freq",
	};

	if (!strncmp(line, "  { sample_period, sample_freq }", 32))
		return true;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t n = strlen(names[i]);

		if (!strncmp(line + 2, names[i], n) && line[2 + n] == ' ')
			return true;
	}
	return false;
}

/* filter_attr.sh on @in (sonde_perf_event_attr__fprintf's text), to @out. */
static void filter(const char *in, FILE *out)
{
	bool inblk = false;

	while (*in) {
		const char *nl = strchr(in, '\n');
		size_t len = nl ? (size_t)(nl - in) : strlen(in);
		char line[512];

		snprintf(line, sizeof(line), "%.*s", (int)len, in);
		if (!strcmp(line, "perf_event_attr:")) {
			inblk = true;
			fputs("--\n", out);
		} else if (inblk && !strncmp(line, "  ", 2)) {
			if (!dropped(line))
				fprintf(out, "%s\n", line);
		} else {
			inblk = false;
		}
		in = nl ? nl + 1 : in + len;
	}
}

/* What test_list.sh's sonde_dump wrote: "### SPEC" and the filtered attrs. */
static char *dump_specs(FILE *specs, int *nr)
{
	char *out = NULL, line[1024];
	size_t out_len = 0;
	FILE *o = open_memstream(&out, &out_len);

	assert_non_null(o);
	*nr = 0;
	while (fgets(line, sizeof(line), specs)) {
		char *spec = strchr(line, '\t'), *text = NULL;
		size_t text_len = 0;
		struct sonde_evspec_list *l = NULL;
		struct sonde_parse_error perr;
		FILE *t;

		line[strcspn(line, "\n")] = 0;
		if (line[0] == '#' || !line[0] || !spec)
			continue;
		spec++;
		fprintf(o, "### %s\n", spec);
		(*nr)++;
		/* A spec perf 6.1 rejected has no attrs in the golden file. */
		if (sonde_evspec_list__parse(spec, &l, &perr))
			continue;
		t = open_memstream(&text, &text_len);
		assert_non_null(t);
		for (size_t i = 0; i < sonde_evspec_list__count(l); i++)
			sonde_perf_event_attr__fprintf(t, sonde_evspec_list__attr(l, i));
		fclose(t);
		filter(text, o);
		free(text);
		sonde_evspec_list__free(l);
	}
	fclose(o);
	return out;
}

static char *slurp(FILE *f)
{
	char *buf = NULL;
	size_t len = 0, n;
	char chunk[4096];
	FILE *o = open_memstream(&buf, &len);

	assert_non_null(o);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		fwrite(chunk, 1, n, o);
	fclose(o);
	return buf;
}

/* The first line of @got that differs from @want, and its spec; 0 if none. */
static int first_difference(const char *got, const char *want)
{
	const char *spec = "", *g = got, *w = want;
	int lineno = 1;

	while (*g || *w) {
		size_t gl = strcspn(g, "\n"), wl = strcspn(w, "\n");

		if (gl != wl || memcmp(g, w, gl)) {
			printf("FAIL: line %d differs from perf 6.1 under %.*s\n"
			       "  perf 6.1: %.*s\n  sonde:    %.*s\n", lineno,
			       (int)strcspn(spec, "\n"), spec, (int)wl, w, (int)gl, g);
			return lineno;
		}
		if (!strncmp(w, "### ", 4))
			spec = w;
		g += gl + (g[gl] == '\n');
		w += wl + (w[wl] == '\n');
		lineno++;
	}
	return 0;
}

static void test_golden(void **state)
{
	FILE *specs = fopen(DIR "specs.txt", "r"), *gold = fopen(DIR "perf61.attr", "r");
	char *got, *want;
	int nr;

	(void)state;
	if (!specs || !gold) {
		printf("SKIP: %s not here (run from the source tree)\n", DIR);
		if (specs)
			fclose(specs);
		if (gold)
			fclose(gold);
		skip();
	}
	got = dump_specs(specs, &nr);
	want = slurp(gold);
	fclose(specs);
	fclose(gold);
	assert_int_equal(first_difference(got, want), 0);
	assert_true(nr > 300);
	printf("%d specs equal to perf 6.1's attrs\n", nr);
	free(got);
	free(want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
