// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde_profile__export(): checks the options, sets up buffered output and
 * hands the profile to the format's function.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export_priv.h"

static const struct {
	const char *name, *file;
} formats[SONDE_EXPORT_FORMAT_MAX] = {
	[SONDE_EXPORT_FOLDED] = { "folded", "perf.folded" },
	[SONDE_EXPORT_SVG] = { "svg", "perf.svg" },
	[SONDE_EXPORT_HTML] = { "html", "perf.html" },
	[SONDE_EXPORT_PPROF] = { "pprof", "perf.pb.gz" },
	[SONDE_EXPORT_SPEEDSCOPE] = { "speedscope", "perf.speedscope.json" },
	[SONDE_EXPORT_FIREFOX] = { "firefox", "perf.firefox.json" },
};

int sonde_export_format__parse(const char *name)
{
	for (int i = 0; name && i < SONDE_EXPORT_FORMAT_MAX; i++)
		if (!strcmp(name, formats[i].name))
			return i;
	return -EINVAL;
}

const char *sonde_export_format__name(enum sonde_export_format fmt)
{
	return (unsigned int)fmt < SONDE_EXPORT_FORMAT_MAX ? formats[fmt].name : NULL;
}

const char *sonde_export_format__file_name(enum sonde_export_format fmt)
{
	return (unsigned int)fmt < SONDE_EXPORT_FORMAT_MAX ? formats[fmt].file : NULL;
}

/* ---- buffered output ---- */

#define EXPORT_BUF (256 * 1024)

static void out_flush(struct export_out *o)
{
	if (o->len && !o->err) {
		int r = o->write(o->ctx, o->buf, o->len);

		if (r < 0)
			o->err = r;
	}
	o->len = 0;
}

void export_put(const struct export_ctx *x, const void *buf, size_t len)
{
	struct export_out *o = x->out;

	if (o->err)
		return;
	if (o->len + len > o->cap) {
		out_flush(o);
		if (len > o->cap) {
			int r = o->write(o->ctx, buf, len);

			if (r < 0)
				o->err = r;
			return;
		}
	}
	memcpy(o->buf + o->len, buf, len);
	o->len += len;
}

void export_puts(const struct export_ctx *x, const char *s)
{
	export_put(x, s, strlen(s));
}

void export_printf(const struct export_ctx *x, const char *fmt, ...)
{
	struct export_out *o = x->out;
	va_list ap;
	int n;

	if (o->err)
		return;
	if (o->cap - o->len < 512)
		out_flush(o);
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->len, o->cap - o->len, fmt, ap);
	va_end(ap);
	if (n < 0) {
		o->err = -EINVAL;
	} else if ((size_t)n < o->cap - o->len) {
		o->len += (size_t)n;
	} else { /* longer than the room left: format it on the heap */
		char *s = malloc((size_t)n + 1);

		if (!s) {
			o->err = -ENOMEM;
			return;
		}
		va_start(ap, fmt);
		vsnprintf(s, (size_t)n + 1, fmt, ap);
		va_end(ap);
		export_put(x, s, (size_t)n);
		free(s);
	}
}

char *export_room_slow(const struct export_ctx *x, size_t n)
{
	struct export_out *o = x->out;

	if (o->err || n > o->cap)
		return NULL;
	if (o->cap - o->len < n)
		out_flush(o);
	return o->err ? NULL : o->buf + o->len;
}

/* "00" to "99": two digits a step halve the divisions. */
const char export_digits2[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* Two digits at a time, backwards from @q; 32-bit steps are cheaper. */
static void digits_back(char *q, uint64_t v)
{
	uint32_t w;

	while (v > UINT32_MAX) {
		memcpy(q -= 2, export_digits2 + 2 * (v % 100), 2);
		v /= 100;
	}
	for (w = (uint32_t)v; w >= 100; w /= 100)
		memcpy(q -= 2, export_digits2 + 2 * (w % 100), 2);
	if (w >= 10)
		memcpy(q - 2, export_digits2 + 2 * w, 2);
	else
		q[-1] = (char)('0' + w);
}

char *export_fmt_u64(char *p, uint64_t v)
{
	static const uint64_t pow10[20] = {
		1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
		100000000ull, 1000000000ull, 10000000000ull, 100000000000ull,
		1000000000000ull, 10000000000000ull, 100000000000000ull,
		1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
		1000000000000000000ull, 10000000000000000000ull,
	};
	/* digits: log10(2) ~ 1233 / 4096 of the bits, then one check */
	unsigned int t = (unsigned int)(64 - __builtin_clzll(v | 1)) * 1233 >> 12;
	unsigned int n = t + 1 - ((v | 1) < pow10[t]);

	digits_back(p + n, v);
	return p + n;
}

void export_u64(const struct export_ctx *x, uint64_t v)
{
	char *p = export_room(x, EXPORT_U64_MAX);

	if (p)
		export_commit(x, (size_t)(export_fmt_u64(p, v) - p));
}

void export_json_str(const struct export_ctx *x, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const char *run;

	if (!s) {
		export_puts(x, "null");
		return;
	}
	export_put(x, "\"", 1);
	for (run = s; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char esc[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };

		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		export_put(x, run, (size_t)(s - run));
		run = s + 1;
		if (c == '"' || c == '\\') {
			esc[1] = (char)c;
			export_put(x, esc, 2);
		} else {
			export_put(x, esc, sizeof(esc));
		}
	}
	export_put(x, run, (size_t)(s - run));
	export_put(x, "\"", 1);
}

const char *export_frame_name(const struct sonde_profile_frame *f)
{
	const char *s = sonde_profile_frame__sym(f);

	if (s)
		return s;
	s = sonde_profile_frame__dso_short(f);
	return s ? s : "[unknown]";
}

/* ---- dispatch ---- */

static bool opts_valid(const struct sonde_export_opts *o)
{
	size_t known = offsetof(struct sonde_export_opts, sonde_export_opts__last_field) +
		       sizeof(o->sonde_export_opts__last_field);

	if (o->sz < sizeof(size_t))
		return false;
	for (size_t i = known; i < o->sz; i++) /* newer fields must be unset */
		if (((const unsigned char *)o)[i])
			return false;
	return true;
}

int sonde_profile__export(struct sonde_profile *p, enum sonde_export_format fmt,
			  sonde_export_write_fn write, void *ctx,
			  const struct sonde_export_opts *opts)
{
	int (*const fns[SONDE_EXPORT_FORMAT_MAX])(struct sonde_profile *,
						   const struct export_ctx *) = {
		[SONDE_EXPORT_FOLDED] = export_folded,
		[SONDE_EXPORT_SVG] = export_svg,
		[SONDE_EXPORT_HTML] = export_html,
		[SONDE_EXPORT_PPROF] = export_pprof,
		[SONDE_EXPORT_SPEEDSCOPE] = export_speedscope,
		[SONDE_EXPORT_FIREFOX] = export_firefox,
	};
	struct export_out out = { .write = write, .ctx = ctx, .cap = EXPORT_BUF };
	struct export_ctx x = { .out = &out };
	int ret;

	if (!p || !write || (unsigned int)fmt >= SONDE_EXPORT_FORMAT_MAX)
		return -EINVAL;
	if (opts) {
		if (!opts_valid(opts))
			return -EINVAL;
		memcpy(&x.opts, opts, opts->sz < sizeof(x.opts) ? opts->sz : sizeof(x.opts));
	}
	x.opts.sz = sizeof(x.opts);
	x.ev = x.opts.event;
	if (x.ev < 0 || x.ev >= sonde_profile__nr_events(p))
		return -EINVAL;
	if (!fns[fmt])
		return -EOPNOTSUPP;
	if (x.opts.baseline && fmt != SONDE_EXPORT_HTML && fmt != SONDE_EXPORT_SVG)
		return -EOPNOTSUPP;
	if (x.opts.baseline && (x.opts.baseline_event < 0 ||
				x.opts.baseline_event >= sonde_profile__nr_events(x.opts.baseline)))
		return -EINVAL;
	x.event_name = sonde_profile__event_name(p, x.ev);
	if (!x.event_name)
		x.event_name = "";
	x.title = x.opts.title ? x.opts.title : x.event_name;
	out.buf = malloc(out.cap);
	if (!out.buf)
		return -ENOMEM;
	ret = fns[fmt](p, &x);
	out_flush(&out);
	if (!ret)
		ret = out.err;
	free(out.buf);
	return ret;
}
