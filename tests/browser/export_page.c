// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Test driver for the pictures until `sonde export` calls them:
 *
 *     export_page html|svg|folded IN.data OUT [BASE.data]
 *
 * reads IN (and BASE for a differential page) into profiles with whole
 * callchains and writes the HTML page or the SVG flame graph of event 0;
 * "folded" writes collapsed stacks (outermost first, sample counts), the
 * yardstick of bench/bench-html.sh's size target.
 */
#include <stdio.h>
#include <string.h>
#include <sonde/sonde.h>
#include "export-priv.h"

static struct sonde_profile *load(const char *path, struct sonde_perfdata_reader **r)
{
	SONDE_OPTS(sonde_profile_opts, opts, .callchains = true);
	struct sonde_profile *p;

	*r = sonde_perfdata_reader__open(path, NULL);
	p = sonde_profile__new(&opts);
	if (!*r || !p || sonde_profile__add_reader(p, *r) < 0) {
		fprintf(stderr, "export_page: %s: cannot read it\n", path);
		sonde_profile__free(p);
		return NULL;
	}
	return p;
}

static int put_folded(const struct sonde_profile_stack *st, uint64_t weight, uint64_t samples,
		      void *arg)
{
	FILE *o = arg;

	(void)weight;
	for (uint32_t i = sonde_profile_stack__nr_frames(st); i-- > 0;) {
		const char *s = sonde_profile_frame__sym(sonde_profile_stack__frame(st, i));

		fprintf(o, "%s%s", s ? s : "[unknown]", i ? ";" : "");
	}
	fprintf(o, " %llu\n", (unsigned long long)samples);
	return 0;
}

int main(int argc, char **argv)
{
	struct sonde_perfdata_reader *r = NULL, *rb = NULL;
	struct sonde_profile *p = NULL, *base = NULL;
	struct export_ctx x = { .event = 0, .title = "sonde profile" };
	int err = 1;

	if (argc < 4 || (strcmp(argv[1], "html") && strcmp(argv[1], "svg") &&
			 strcmp(argv[1], "folded"))) {
		fprintf(stderr, "usage: export_page html|svg|folded IN.data OUT [BASE.data]\n");
		return 2;
	}
	p = load(argv[2], &r);
	if (p && argc > 4) {
		base = load(argv[4], &rb);
		x.title = "sonde diff";
	}
	x.base = base;
	x.out = fopen(argv[3], "w");
	if (p && (argc <= 4 || base) && x.out) {
		err = argv[1][0] == 'h' ? export_html(p, &x)
		      : argv[1][0] == 's' ? export_svg(p, &x)
					  : sonde_profile__foreach_stack(p, 0, put_folded, x.out);
		if (err)
			fprintf(stderr, "export_page: %s\n", strerror(-err));
	}
	if (x.out && fclose(x.out))
		err = 1;
	sonde_profile__free(base);
	sonde_profile__free(p);
	sonde_perfdata_reader__close(rb);
	sonde_perfdata_reader__close(r);
	return err ? 1 : 0;
}
