/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * The HTML profile's timeline (private): each sample's time, thread and
 * flame node, written into the page's data for its time and thread
 * filters.
 */
#ifndef SONDE_EXPORT_HTML_TIMELINE_H
#define SONDE_EXPORT_HTML_TIMELINE_H

#include <stdint.h>
#include "export_priv.h"
#include "flame.h"

/*
 * Writes the timeline's JSON object for the samples of event x->ev that
 * @fl holds (@pos: each node's depth-first position in the page), or
 * null when @p kept no timeline (sonde_profile_opts.timeline) or has no
 * such sample. 0 or -errno.
 */
int html_timeline_put(struct sonde_profile *p, const struct export_ctx *x, const struct flame *fl,
		      const uint32_t *pos);

#endif /* SONDE_EXPORT_HTML_TIMELINE_H */
