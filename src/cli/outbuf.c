// SPDX-License-Identifier: LGPL-2.1-only
/* Output buffer: see outbuf.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "outbuf.h"

#define OB_CHUNK (64 << 10)

void ob_init_fd(struct outbuf *o, int fd)
{
	memset(o, 0, sizeof(*o));
	o->fd = fd;
	o->cap = OB_CHUNK;
	o->buf = malloc(o->cap);
	if (!o->buf)
		abort();
}

void ob_init_mem(struct outbuf *o)
{
	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->cap = 256;
	o->buf = malloc(o->cap);
	if (!o->buf)
		abort();
}

void ob_flush(struct outbuf *o)
{
	size_t off = 0;

	if (o->fd < 0)
		return;
	while (off < o->len && !o->err) {
		ssize_t n = write(o->fd, o->buf + off, o->len - off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			o->err = errno;
			break;
		}
		off += (size_t)n;
	}
	o->len = 0;
}

void ob_free(struct outbuf *o)
{
	free(o->buf);
	o->buf = NULL;
}

void ob_grow(struct outbuf *o, size_t n)
{
	if (o->len + n <= o->cap)
		return;
	if (o->fd >= 0) {
		ob_flush(o);
		if (n <= o->cap)
			return;
	}
	while (o->cap < o->len + n)
		o->cap *= 2;
	o->buf = realloc(o->buf, o->cap);
	if (!o->buf)
		abort();
}


void ob_hex(struct outbuf *o, uint64_t v, int width)
{
	static const char dig[] = "0123456789abcdef";
	/* the digit count from the highest set bit, then written in place */
	int n = v ? (64 - __builtin_clzll(v) + 3) / 4 : 1;
	char *q;

	ob_reserve(o, (size_t)(n > width ? n : width));
	for (int i = n; i < width; i++)
		o->buf[o->len++] = ' ';
	q = o->buf + o->len + n;
	o->len += (size_t)n;
	while (n--) {
		*--q = dig[v & 15];
		v >>= 4;
	}
}

/* "00".."99": two digits a division (script prints a time per sample). */
static const char digit_pairs[] = "00010203040506070809101112131415161718192021222324"
				  "25262728293031323334353637383940414243444546474849"
				  "50515253545556575859606162636465666768697071727374"
				  "75767778798081828384858687888990919293949596979899";

/* The digits of @v in @tmp, lowest first; their count. */
static int utoa(char *tmp, uint64_t v)
{
	int n = 0;

	while (v >= 100) {
		unsigned d = (unsigned)(v % 100) * 2;

		v /= 100;
		tmp[n++] = digit_pairs[d + 1];
		tmp[n++] = digit_pairs[d];
	}
	if (v >= 10) {
		tmp[n++] = digit_pairs[v * 2 + 1];
		tmp[n++] = digit_pairs[v * 2];
	} else {
		tmp[n++] = (char)('0' + v);
	}
	return n;
}

/* How many decimal digits @v has: from its bit length, then one check. */
static int dec_digits(uint64_t v)
{
	static const uint64_t pow10[20] = {
		1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
		100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL,
		1000000000000ULL, 10000000000000ULL, 100000000000000ULL,
		1000000000000000ULL, 10000000000000000ULL, 100000000000000000ULL,
		1000000000000000000ULL, 10000000000000000000ULL,
	};
	/* 1233 / 4096 ~ log10(2): bits * that is the digit count or one more */
	int n = ((64 - __builtin_clzll(v | 1)) * 1233) >> 12;

	return n + 1 - (n && v < pow10[n]);
}

void ob_dec(struct outbuf *o, uint64_t v)
{
	ob_dec_zpad(o, v, 0);
}

void ob_dec_pad(struct outbuf *o, int64_t v, int width, bool right)
{
	char tmp[24];
	bool neg = v < 0;
	int n = utoa(tmp, neg ? (uint64_t)0 - (uint64_t)v : (uint64_t)v);
	int len = n + neg;

	ob_reserve(o, (size_t)(len > width ? len : width));
	if (right)
		for (int i = len; i < width; i++)
			o->buf[o->len++] = ' ';
	if (neg)
		o->buf[o->len++] = '-';
	while (n)
		o->buf[o->len++] = tmp[--n];
	if (!right)
		for (int i = len; i < width; i++)
			o->buf[o->len++] = ' ';
}

/* Written where it goes, last digit first: no copy turned around. */
void ob_dec_zpad(struct outbuf *o, uint64_t v, int width)
{
	int n = dec_digits(v), len = n > width ? n : width;
	char *start, *q;

	ob_reserve(o, (size_t)len);
	start = o->buf + o->len;
	q = start + len;
	o->len += (size_t)len;
	while (v >= 100) {
		unsigned d = (unsigned)(v % 100) * 2;

		v /= 100;
		*--q = digit_pairs[d + 1];
		*--q = digit_pairs[d];
	}
	if (v >= 10) {
		*--q = digit_pairs[v * 2 + 1];
		*--q = digit_pairs[v * 2];
	} else {
		*--q = (char)('0' + v);
	}
	while (q > start)
		*--q = '0';
}

void ob_pad_str(struct outbuf *o, const char *s, int width, bool right)
{
	size_t l = strlen(s);
	size_t pad = (int)l < width ? (size_t)width - l : 0;

	ob_reserve(o, l + pad);
	if (right) {
		memset(o->buf + o->len, ' ', pad);
		o->len += pad;
	}
	memcpy(o->buf + o->len, s, l);
	o->len += l;
	if (!right) {
		memset(o->buf + o->len, ' ', pad);
		o->len += pad;
	}
}

void ob_json_str(struct outbuf *o, const char *s)
{
	ob_putc(o, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			ob_putc(o, '\\');
			ob_putc(o, (char)c);
		} else if (c < 0x20) {
			char e[8];

			snprintf(e, sizeof(e), "\\u%04x", c);
			ob_puts(o, e);
		} else {
			ob_putc(o, (char)c);
		}
	}
	ob_putc(o, '"');
}

void ob_json_u64(struct outbuf *o, uint64_t v)
{
	if (v <= OB_JSON_EXACT) {
		ob_dec(o, v);
		return;
	}
	ob_putc(o, '"');
	ob_dec(o, v);
	ob_putc(o, '"');
}

void ob_printf(struct outbuf *o, const char *fmt, ...)
{
	size_t room = o->cap - o->len;
	va_list ap;
	int n;

	/* Format once where it fits, which is nearly always. */
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->len, room, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= room) {
		ob_reserve(o, (size_t)n + 1);
		va_start(ap, fmt);
		vsnprintf(o->buf + o->len, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	o->len += (size_t)n;
}
