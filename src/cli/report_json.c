// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde report --json: one object per event with its entries, each with
 * the columns the --stdio table shows (perf has no JSON report; the names
 * follow the table's titles).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "report_cli.h"
#include "report_keys.h"

/* A FIELD key's values in --json: "field name": its text, per column. */
static void put_json_fields(const struct report *rp, struct outbuf *o, int attr, int i,
			    const struct sonde_profile_entry *e)
{
	int cols[64], n = report_field_cols(rp, attr, i, cols, 64);

	for (int c = 0; c < n; c++) {
		struct sonde_profile_field f;
		const char *v = sonde_profile_entry__field(e, cols[c]);

		sonde_profile__field(rp->prof, cols[c], &f);
		ob_putc(o, ',');
		ob_json_str(o, f.name);
		ob_putc(o, ':');
		ob_json_str(o, v ? v : "");
	}
}

/*
 * A column's JSON name: its table title in lower case, each run of other
 * characters than letters and digits one '_' ("guest sys": "guest_sys").
 */
static void json_name(struct outbuf *o, const char *title)
{
	char name[64];
	size_t n = 0;

	for (const char *c = title; *c && n < sizeof(name) - 1; c++) {
		bool alnum = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
			     (*c >= '0' && *c <= '9');

		if (alnum)
			name[n++] = (char)(*c | 0x20 * (*c >= 'A' && *c <= 'Z'));
		else if (n && name[n - 1] != '_')
			name[n++] = '_';
	}
	while (n && name[n - 1] == '_')
		n--;
	name[n] = '\0';
	ob_putc(o, ',');
	ob_json_str(o, name);
	ob_putc(o, ':');
}

/*
 * The output fields --sort names (sys, usr, guest sys, guest usr as
 * shares of @total like "self"; overhead_children's N/A as null with
 * --no-children). Samples and Period are every entry's "samples" and
 * "period" already.
 */
static void json_fields(struct report *rp, const struct sonde_profile_entry *e, uint64_t total)
{
	static const struct {
		const char *title;
		unsigned cpumode;
	} col[RF_NR] = {
		[RF_SYS] = { "sys", SONDE_PERF_RECORD_MISC_KERNEL },
		[RF_USR] = { "usr", SONDE_PERF_RECORD_MISC_USER },
		[RF_GUEST_SYS] = { "guest sys", SONDE_PERF_RECORD_MISC_GUEST_KERNEL },
		[RF_GUEST_USR] = { "guest usr", SONDE_PERF_RECORD_MISC_GUEST_USER },
	};
	struct outbuf *o = &rp->out;

	for (int f = 0; f < rp->nr_fields; f++) {
		int kind = rp->fields[f].kind;

		if (kind == RF_CHILDREN && report_field_shown(rp, f)) {
			ob_puts(o, ",\"children\":null");
		} else if (col[kind].title) {
			uint64_t v = sonde_profile_entry__self_cpumode(e, col[kind].cpumode);

			json_name(o, col[kind].title);
			ob_printf(o, "%.4f", total ? (double)v * 100.0 / (double)total : 0.0);
		}
	}
}

/* A key past the first seven: its table title and cell text, trimmed of blanks. */
static void json_key(struct outbuf *o, const struct sonde_profile_entry *e,
		     enum sonde_profile_key k)
{
	const char *title = report_key_title(k);
	char buf[4096];
	size_t a = 0, z;
	int w;

	if (!title)
		return;
	/* the cell as in a column of its own: as wide as it and the title */
	w = report_key_len(e, k);
	if (w < (int)strlen(title))
		w = (int)strlen(title);
	report_key_text(e, k, w, buf, sizeof(buf));
	z = strlen(buf);
	while (buf[a] == ' ')
		a++;
	while (z > a && buf[z - 1] == ' ')
		z--;
	buf[z] = '\0';
	json_name(o, title);
	ob_json_str(o, buf + a);
}

void report_print_json(struct report *rp)
{
	struct outbuf *o = &rp->out;
	int nr = sonde_perfdata_reader__nr_attrs(rp->r);
	bool first_ev = true;
	char buf[4096];
	uint64_t lost, lost_samples;

	sonde_profile__lost(rp->prof, NULL, &lost, &lost_samples);
	ob_printf(o, "{\"lost_samples\":%" PRIu64 ",\"lost_records\":%" PRIu64
		  ",\"children\":%s,\"events\":[",
		  lost_samples, lost, rp->children ? "true" : "false");
	for (int a = 0; a < nr; a++) {
		size_t n;
		struct sonde_profile_event_stats st = report_event_stats(rp, a);
		uint64_t total = rp->relative ? st.filtered_period : st.period;

		if (!st.samples)
			continue;
		n = sonde_profile__nr_entries(rp->prof, a);
		ob_printf(o, "%s{\"event\":", first_ev ? "" : ",");
		first_ev = false;
		ob_json_str(o, sonde_perfdata_reader__event_name(rp->r, a));
		ob_printf(o, ",\"samples\":%" PRIu64 ",\"event_count\":%" PRIu64 ",\"entries\":[",
			  rp->relative ? st.filtered_samples : st.samples, total);
		for (size_t j = 0, printed = 0; j < n; j++) {
			const struct sonde_profile_entry *e = sonde_profile__entry(rp->prof, a, j);
			uint64_t self = sonde_profile_entry__self(e);
			uint64_t children = sonde_profile_entry__children(e);
			double pct = total ? (double)(rp->children ? children : self) * 100.0 / (double)total : 0;
			const char *sym = sonde_profile_entry__sym(e);

			if (rp->percent_limit > 0 && pct < rp->percent_limit)
				continue;
			ob_printf(o, "%s{", printed++ ? "," : "");
			if (rp->children)
				ob_printf(o, "\"children\":%.4f,\"children_period\":%" PRIu64 ",",
					  total ? (double)children * 100.0 / (double)total : 0.0,
					  children);
			ob_printf(o, "\"self\":%.4f,\"period\":%" PRIu64 ",\"samples\":%" PRIu64,
				  total ? (double)self * 100.0 / (double)total : 0.0, self,
				  sonde_profile_entry__samples(e));
			json_fields(rp, e, total);
			for (int i = 0; i < rp->nr_keys; i++) {
				switch (rp->keys[i]) {
				case RK_COMM:
					ob_puts(o, ",\"comm\":");
					ob_json_str(o, sonde_profile_entry__comm(e));
					break;
				case RK_PID:
					ob_printf(o, ",\"thread\":%d", sonde_profile_entry__tid(e));
					break;
				case RK_TID:
					ob_printf(o, ",\"tid\":%d", sonde_profile_entry__tid(e));
					break;
				case RK_CPU:
					ob_printf(o, ",\"cpu\":%d", sonde_profile_entry__cpu(e));
					break;
				case RK_DSO:
					ob_puts(o, ",\"dso\":");
					ob_json_str(o, sonde_profile_entry__dso(e) ? sonde_profile_entry__dso(e) : "[unknown]");
					break;
				case RK_SYM:
					ob_puts(o, ",\"sym\":");
					if (sym)
						ob_json_str(o, sym);
					else {
						snprintf(buf, sizeof(buf), "0x%" PRIx64,
							 sonde_profile_entry__addr(e));
						ob_json_str(o, buf);
					}
					ob_printf(o, ",\"kernel\":%s",
						  sonde_profile_entry__kernel(e) ? "true" : "false");
					break;
				case RK_SRCLINE:
					ob_puts(o, ",\"srcline\":");
					ob_json_str(o, sonde_profile_entry__srcline(e));
					break;
				case SONDE_PROFILE_KEY_FIELD:
					put_json_fields(rp, o, a, i, e);
					break;
				default:
					json_key(o, e, rp->keys[i]);
					break;
				}
			}
			ob_putc(o, '}');
		}
		ob_puts(o, "]}");
	}
	ob_puts(o, "]}\n");
}
