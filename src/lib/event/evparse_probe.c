// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Probes through the kprobe/uprobe PMUs, spelled as bpftrace does:
 * uprobe:PATH:SYMBOL[+OFF], uretprobe:PATH:SYMBOL, kprobe:SYMBOL[+OFF],
 * kretprobe:SYMBOL. No tracefs writes: the attr carries the target
 * (kprobe_func / uprobe_path in config1, a pointer to a string the list
 * owns) and probe_offset in config2; bit "retprobe" of config (the PMU's
 * format, config:0 today) asks for the return probe. A uprobe's SYMBOL is
 * turned into a file offset by the caller's resolver (the symbolizer sits
 * above this layer), or given as a number.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/pmu.h"
#include "event_priv.h"
#include "core_priv.h"

struct probe_kind {
	const char *word;
	const char *pmu;
	bool user;
	bool ret;
};

static const struct probe_kind kinds[] = {
	{ "uprobe", "uprobe", true, false },
	{ "uretprobe", "uprobe", true, true },
	{ "kprobe", "kprobe", false, false },
	{ "kretprobe", "kprobe", false, true },
};

int ev_probe_kind(const char *w, size_t wl)
{
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
		if (strlen(kinds[i].word) == wl && !memcmp(kinds[i].word, w, wl))
			return (int)i;
	return -1;
}

/* The event ends at ',' '}' or the end; paths may hold anything else. */
static size_t field_end(const struct parser *p, size_t from, const char *stops)
{
	while (from < p->len && !strchr(stops, p->s[from]))
		from++;
	return from;
}

/* config bits of the PMU's "retprobe" format term (bit 0 if it has none). */
static int retprobe_bits(const struct sonde_pmu *pmu, uint64_t *config)
{
	const struct sonde_pmu_format *f = sonde_pmu__find_format(pmu, "retprobe");

	if (!f) {
		*config |= 1;
		return 0;
	}
	return sonde_pmu_format__apply(f, 1, config);
}

int ev_parse_probe(struct parser *p, size_t start, size_t wl)
{
	const struct probe_kind *k = &kinds[ev_probe_kind(p->s + start, wl)];
	size_t t0 = start + wl + 1, t1, s0, s1, end;
	char *target = NULL, *sym = NULL;
	const struct sonde_pmu *pmu;
	struct evspec *ev;
	uint64_t off = 0, addr;
	bool have_off = false;
	int err;

	/* uprobe: PATH up to the next ':'; kprobe: no path. */
	if (k->user) {
		t1 = field_end(p, t0, ":,}");
		if (t1 == t0)
			return ev_perr_parse(p, t0, "a binary path (uprobe:PATH:SYMBOL)");
		if (t1 >= p->len || p->s[t1] != ':')
			return ev_perr_parse(p, t1, "':' and a symbol after the path");
		s0 = t1 + 1;
	} else {
		t1 = t0;
		s0 = t0;
	}
	s1 = field_end(p, s0, "+,}");
	if (s1 == s0)
		return ev_perr_parse(p, s0, "a symbol or address");
	end = s1;
	if (s1 < p->len && p->s[s1] == '+') {
		size_t o1 = field_end(p, s1 + 1, ",}");

		if (!ev_parse_num(p->s + s1 + 1, o1 - s1 - 1, &off))
			return ev_perr_parse(p, s1 + 1, "an offset after '+'");
		if (k->ret && off)
			return ev_perr(p, s1, SONDE_ERR_PARSE,
				       "a return probe takes no offset");
		have_off = true;
		end = o1;
	}

	pmu = sonde_pmus__find(ev_get_pmus(p), k->pmu);
	if (!pmu)
		return ev_perr(p, start, ENOENT,
			       "Cannot find PMU `%s'. Missing kernel support? "
			       "(no %s under bus/event_source/devices)",
			       k->pmu, k->pmu);
	ev = ev_new_event(p, start);
	if (!ev)
		return -p->code;
	ev->attr.type = sonde_pmu__type(pmu);
	ev->attr.sample_period = 1;
	err = k->ret ? retprobe_bits(pmu, &ev->attr.config) : 0;
	if (err)
		return ev_perr(p, start, EINVAL, "bad retprobe format in %s", k->pmu);
	if (ev_set_str(&ev->name, p->s + start, end - start) ||
	    ev_set_str(&ev->pmu, k->pmu, strlen(k->pmu)) ||
	    ev_set_str(&sym, p->s + s0, s1 - s0))
		goto nomem;

	if (!k->user) {
		/* kprobe_func + offset, or a bare kernel address. */
		if (ev_parse_num(sym, strlen(sym), &addr)) {
			ev->attr.config2 = addr + off; /* kprobe_addr */
		} else {
			ev->probe_target = sym;
			sym = NULL;
			ev->attr.config2 = off;
		}
	} else {
		if (ev_set_str(&target, p->s + t0, t1 - t0))
			goto nomem;
		if (ev_parse_num(sym, strlen(sym), &addr)) {
			off += addr;
		} else if (!p->probe_resolve) {
			err = ev_perr(p, s0, ENOENT,
				      "cannot find '%s' in %s: this parse has no "
				      "symbol resolver (give a file offset)",
				      sym, target);
			goto out;
		} else {
			err = p->probe_resolve(target, sym, &addr, p->probe_ctx);
			if (err) {
				err = ev_perr(p, s0, err < 0 ? -err : err,
					      "cannot find '%s' in %s: %s", sym,
					      target, strerror(err < 0 ? -err : err));
				goto out;
			}
			off += addr;
		}
		ev->probe_target = target;
		target = NULL;
		ev->attr.config2 = off; /* probe_offset */
	}
	(void)have_off;
	ev->attr.config1 = (uint64_t)(uintptr_t)ev->probe_target;
	p->pos = end;
	err = 0;
out:
	free(sym);
	free(target);
	return err;
nomem:
	free(sym);
	free(target);
	return ev_perr(p, start, ENOMEM, "out of memory");
}
