// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Event modifiers (":ukhGHpPSDIWeb") with perf 6.1's exact semantics: a
 * modifier on one event starts from zeroed exclude bits (dropping the
 * default exclude_guest), a group's starts from each member's own bits, and
 * only the leader takes D and e from a group modifier.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/evparse.h"
#include "sonde/pmu.h"
#include "core_priv.h"
#include "event_priv.h"

const char ev_mod_chars[] = "ukhGHpPSDIWeb";

/*
 * Applies modifier string [m, m+n) at column @col. @group: a group's
 * modifier (perf's add=true: start from the event's own bits).
 */
int ev_apply_mods(struct parser *p, size_t col, const char *m, size_t n,
		      struct evspec *ev, bool group, bool leader)
{
	struct sonde_perf_event_attr *a = &ev->attr;
	int eu = group ? a->exclude_user : 0, ek = group ? a->exclude_kernel : 0;
	int eh = group ? a->exclude_hv : 0, eH = group ? a->exclude_host : 0;
	int eG = group ? a->exclude_guest : 0, eI = group ? a->exclude_idle : 0;
	int precise = group ? a->precise_ip : 0;
	int pinned = group ? a->pinned : 0, exclusive = group ? a->exclusive : 0;
	int exclude = eu | ek | eh, exclude_GH = group ? ev->exclude_GH : 0;
	unsigned flags = 0;

	for (size_t i = 0; i < n; i++)
		if (!m[i] || !strchr(ev_mod_chars, m[i]))
			return ev_perr(p, col + i, SONDE_ERR_PARSE,
				    "unknown modifier '%c', expected some of "
				    "u k h G H I p P S D W e b",
				    isprint((unsigned char)m[i]) ? m[i] : '?');
	/* perf's check_modifier: each letter once (p up to 3 times). */
	if (n > sizeof("ukhGHpppPSDIWeb") - 1)
		return ev_perr(p, col, SONDE_ERR_PARSE,
			    "Bad modifier: too many modifiers");
	for (size_t i = 0; i < n; i++)
		if (m[i] != 'p' && memchr(m + i + 1, m[i], n - i - 1))
			return ev_perr(p, col, SONDE_ERR_PARSE,
				    "Bad modifier: '%c' given twice", m[i]);
	for (size_t i = 0; i < n; i++) {
		switch (m[i]) {
		case 'u':
			if (!exclude)
				exclude = eu = ek = eh = 1;
			if (!exclude_GH)
				eG = 1;
			eu = 0;
			break;
		case 'k':
			if (!exclude)
				exclude = eu = ek = eh = 1;
			ek = 0;
			break;
		case 'h':
			if (!exclude)
				exclude = eu = ek = eh = 1;
			eh = 0;
			break;
		case 'G':
			if (!exclude_GH)
				exclude_GH = eG = eH = 1;
			eG = 0;
			break;
		case 'H':
			if (!exclude_GH)
				exclude_GH = eG = eH = 1;
			eH = 0;
			break;
		case 'I':
			eI = 1;
			break;
		case 'p':
			precise++;
			/* precise sampling implies exclude_guest in perf */
			if (!exclude_GH)
				eG = 1;
			break;
		case 'P':
			flags |= SONDE_EVSPEC_PRECISE_MAX;
			break;
		case 'S':
			flags |= SONDE_EVSPEC_SAMPLE_READ;
			break;
		case 'D':
			pinned = 1;
			break;
		case 'e':
			exclusive = 1;
			break;
		case 'W':
			flags |= SONDE_EVSPEC_WEAK_GROUP;
			break;
		case 'b':
			flags |= SONDE_EVSPEC_BPF_COUNTER;
			break;
		}
	}
	if (precise > 3)
		return ev_perr(p, col, SONDE_ERR_PARSE,
			    "Bad modifier: at most 3 p (precise_ip 0-3)");
	a->exclude_user = (unsigned)eu & 1;
	a->exclude_kernel = (unsigned)ek & 1;
	a->exclude_hv = (unsigned)eh & 1;
	a->exclude_host = (unsigned)eH & 1;
	a->exclude_guest = (unsigned)eG & 1;
	a->exclude_idle = (unsigned)eI & 1;
	a->precise_ip = (unsigned)precise & 3;
	ev->exclude_GH = exclude_GH;
	ev->flags = (ev->flags & ~(unsigned)(SONDE_EVSPEC_PRECISE_MAX |
					     SONDE_EVSPEC_SAMPLE_READ |
					     SONDE_EVSPEC_WEAK_GROUP |
					     SONDE_EVSPEC_BPF_COUNTER)) | flags;
	if (!group || leader) {
		a->pinned = (unsigned)pinned & 1;
		a->exclusive = (unsigned)exclusive & 1;
	}
	return 0;
}
