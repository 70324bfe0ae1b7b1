/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * Exports: a profile written in the formats other tools read. Every format
 * is a view of the profile's distinct stacks (sonde_profile__foreach_stack()
 * and the per-thread sample groups behind it): nothing is aggregated twice,
 * and stacks are always whole, whatever report's children mode or call
 * graph options would print.
 *
 * The per-thread views (folded's commands, pprof's thread labels,
 * speedscope's and firefox's threads) need a profile made with the comm,
 * pid and tid keys (sonde_profile_opts.keys); with fewer keys threads
 * fold together as the profile folded them. firefox (and html's timeline)
 * need sonde_profile_opts.timeline: without it firefox says -EINVAL.
 *
 * Output goes through a write callback, so a caller writes to a file, a
 * socket or memory alike; the library never opens files itself.
 *
 * Thread safety: as the profile's (one thread at a time per profile).
 */
#ifndef SONDE_EXPORT_H
#define SONDE_EXPORT_H

#include <stddef.h>
#include <stdint.h>
#include "sonde/common.h"
#include "sonde/profile.h"

#ifdef __cplusplus
extern "C" {
#endif

enum sonde_export_format {
	SONDE_EXPORT_FOLDED,	 /* "folded": comm;root;...;leaf count per line */
	SONDE_EXPORT_SVG,	 /* "svg": a static flame graph */
	SONDE_EXPORT_HTML,	 /* "html": one self-contained interactive page */
	SONDE_EXPORT_PPROF,	 /* "pprof": gzipped profile.proto */
	SONDE_EXPORT_SPEEDSCOPE, /* "speedscope": speedscope's JSON file format */
	SONDE_EXPORT_FIREFOX,	 /* "firefox": the Firefox Profiler's (Gecko) JSON */
	SONDE_EXPORT_FORMAT_MAX,
};

/**
 * @brief **sonde_export_format__parse()** maps a format name ("folded",
 * "svg", "html", "pprof", "speedscope", "firefox") to its value.
 * @return the format, or -EINVAL for an unknown name.
 */
SONDE_API int sonde_export_format__parse(const char *name);

/**
 * @brief **sonde_export_format__name()**: the format's name, NULL if out of
 * range. A static string.
 */
SONDE_API const char *sonde_export_format__name(enum sonde_export_format fmt);

/**
 * @brief **sonde_export_format__file_name()**: the output name perf-like
 * tools use for the format ("perf.folded", "perf.svg", "perf.html",
 * "perf.pb.gz", "perf.speedscope.json", "perf.firefox.json"), NULL if out
 * of range. A static string.
 */
SONDE_API const char *sonde_export_format__file_name(enum sonde_export_format fmt);

/**
 * @brief **sonde_export_write_fn** receives the output in pieces, in order.
 * Returning a negative errno stops the export with that value.
 */
typedef int (*sonde_export_write_fn)(void *ctx, const void *buf, size_t len);

struct sonde_export_opts {
	size_t sz;
	/* Shown by the formats that have a title (html, svg, speedscope's
	 * name, firefox's product); NULL: the event's name. */
	const char *title;
	/* The profile's event to export (sonde_profile__add_event() index). */
	int event;
	/* When the recording started (ns since the Unix epoch) and how long
	 * it lasted (ns), for pprof's time_nanos/duration_nanos and firefox's
	 * startTime; 0 if unknown. */
	uint64_t time_ns;
	uint64_t duration_ns;
	/* With a baseline, the flame graphs (html, svg) draw the difference
	 * from it to the exported profile (grown red, shrunk blue); the
	 * other formats have no differential view and say -EOPNOTSUPP. */
	struct sonde_profile *baseline;
	/* The baseline's event drawn against @event (default 0): callers pair
	 * events as they see fit, e.g. by attr type and config as perf diff. */
	int baseline_event;
	size_t : 0;
};
#define sonde_export_opts__last_field baseline_event

/**
 * @brief **sonde_profile__export()** writes event @p opts->event of @p p in
 * format @p fmt through @p write (called with @p ctx). The profile is not
 * changed, apart from the symbol and source-line lookups it caches.
 * @param opts NULL for the defaults (event 0, no title, no times).
 * @return 0; -EINVAL (bad format, event or opts); -EOPNOTSUPP for a format
 * this build lacks; -ENOMEM; or the write callback's negative value. On an
 * error part of the output may have been written.
 */
SONDE_API int sonde_profile__export(struct sonde_profile *p, enum sonde_export_format fmt,
				    sonde_export_write_fn write, void *ctx,
				    const struct sonde_export_opts *opts);

#ifdef __cplusplus
}
#endif
#endif /* SONDE_EXPORT_H */
