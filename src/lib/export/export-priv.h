/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * The export layer (private): views of a sonde_profile written to a
 * stream. Each format is one function over the same context.
 */
#ifndef SONDE_EXPORT_PRIV_H
#define SONDE_EXPORT_PRIV_H

#include <stdio.h>
#include "sonde/profile.h"

struct export_ctx {
	FILE *out;		    /* where the view goes */
	int event;		    /* the profile's event to show */
	const char *title;	    /* shown in the page; NULL: "sonde profile" */
	struct sonde_profile *base; /* diff: the old profile (same event), else NULL */
};

/* A static SVG flame graph. 0, or -errno (-EIO when the stream failed). */
int export_svg(struct sonde_profile *p, const struct export_ctx *x);
/* One self-contained interactive HTML page (differential with x->base). */
int export_html(struct sonde_profile *p, const struct export_ctx *x);

#endif /* SONDE_EXPORT_PRIV_H */
