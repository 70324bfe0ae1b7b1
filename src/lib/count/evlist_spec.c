// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde_evlist__add_spec(): event specs ("task-clock,{cycles,instructions}:u")
 * through the event-spec parser, added with their groups. Built against
 * sonde/evparse.h when the tree has it.
 */
#include <stdio.h>
#include "sonde/evctl.h"
#include "count_priv.h"
#include "core_priv.h"

#if defined(__has_include)
#if __has_include("sonde/evparse.h")
#define HAVE_EVPARSE 1
#include "sonde/evparse.h"
#endif
#endif

#ifdef HAVE_EVPARSE
int sonde_evlist__add_spec(struct sonde_evlist *l, const char *spec, char *err,
			   size_t errlen)
{
	struct sonde_parse_error perr = { 0 };
	struct sonde_evspec_list *specs = NULL;
	int base, ret;
	size_t n;

	if (err && errlen)
		err[0] = '\0';
	if (!l || !spec)
		return lib_err(EINVAL);
	if (l->open)
		return lib_err(EBUSY);
	ret = sonde_evspec_list__parse(spec, &specs, &perr);
	if (ret) {
		if (err && errlen)
			sonde_parse_error__format(&perr, err, errlen);
		return lib_err(ret);
	}
	base = l->nr;
	n = sonde_evspec_list__count(specs);
	for (size_t i = 0; i < n; i++) {
		int leader = sonde_evspec_list__leader(specs, i);

		ret = sonde_evlist__add(l, sonde_evspec_list__attr(specs, i),
					sonde_evspec_list__name(specs, i),
					leader < 0 || (size_t)leader == i ? -1 :
					base + leader);
		/* :W on a leader: split the group rather than fail. */
		if (ret >= 0 && (leader < 0 || (size_t)leader == i) &&
		    (sonde_evspec_list__flags(specs, i) & SONDE_EVSPEC_WEAK_GROUP) &&
		    sonde_evsel__set_weak_group(sonde_evlist__evsel(l, ret), true))
			ret = -EINVAL;
		if (ret >= 0 && sonde_evspec_list__probe_target(specs, i))
			ret = sonde_evsel__set_probe_target(
				sonde_evlist__evsel(l, ret),
				sonde_evspec_list__probe_target(specs, i));
		if (ret < 0) {
			if (err && errlen)
				snprintf(err, errlen, "cannot add event '%s'",
					 sonde_evspec_list__name(specs, i));
			sonde_evspec_list__free(specs);
			return ret;
		}
	}
	sonde_evspec_list__free(specs);
	return (int)n;
}
#else
int sonde_evlist__add_spec(struct sonde_evlist *l, const char *spec, char *err,
			   size_t errlen)
{
	(void)l;
	(void)spec;
	if (err && errlen)
		snprintf(err, errlen, "this libsonde was built without the "
			 "event-spec parser");
	return lib_err(EOPNOTSUPP);
}
#endif
