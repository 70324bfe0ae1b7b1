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
	char tmp[16];
	int n = 0;

	do {
		tmp[n++] = dig[v & 15];
		v >>= 4;
	} while (v);
	ob_reserve(o, (size_t)(n > width ? n : width));
	for (int i = n; i < width; i++)
		o->buf[o->len++] = ' ';
	while (n)
		o->buf[o->len++] = tmp[--n];
}

/* "00".."99": two digits per division by 100 (script prints a time per line). */
static const char dec_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* Writes @v's digits to end in @end; returns where they start. */
static char *utoa_end(char *end, uint64_t v)
{
	while (v >= 100) {
		end -= 2;
		memcpy(end, dec_pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10) {
		end -= 2;
		memcpy(end, dec_pairs + 2 * v, 2);
	} else {
		*--end = (char)('0' + v);
	}
	return end;
}

void ob_dec(struct outbuf *o, uint64_t v)
{
	char tmp[24];
	char *p = utoa_end(tmp + sizeof(tmp), v);

	ob_write(o, p, (size_t)(tmp + sizeof(tmp) - p));
}

void ob_dec_pad(struct outbuf *o, int64_t v, int width, bool right)
{
	char tmp[24];
	bool neg = v < 0;
	char *p = utoa_end(tmp + sizeof(tmp), neg ? (uint64_t)0 - (uint64_t)v : (uint64_t)v);
	int len;

	if (neg)
		*--p = '-';
	len = (int)(tmp + sizeof(tmp) - p);
	ob_reserve(o, (size_t)(len > width ? len : width));
	if (right)
		for (int i = len; i < width; i++)
			o->buf[o->len++] = ' ';
	memcpy(o->buf + o->len, p, (size_t)len);
	o->len += (size_t)len;
	if (!right)
		for (int i = len; i < width; i++)
			o->buf[o->len++] = ' ';
}

void ob_dec_zpad(struct outbuf *o, uint64_t v, int width)
{
	char tmp[48];
	char *end = tmp + sizeof(tmp), *p = utoa_end(end, v);

	/* Zeros beyond the buffer's room first (no caller asks that many). */
	for (int i = (int)(end - tmp); i < width; i++)
		ob_putc(o, '0');
	/* The zeros go in front, in the same buffer: one copy out. */
	while (end - p < width && p > tmp)
		*--p = '0';
	ob_write(o, p, (size_t)(end - p));
}

void ob_pad_str(struct outbuf *o, const char *s, int width, bool right)
{
	size_t l = strlen(s);
	size_t pad = (int)l < width ? (size_t)width - l : 0;

	ob_reserve(o, l + pad);
	if (right)
		for (size_t i = 0; i < pad; i++)
			o->buf[o->len++] = ' ';
	memcpy(o->buf + o->len, s, l);
	o->len += l;
	if (!right)
		for (size_t i = 0; i < pad; i++)
			o->buf[o->len++] = ' ';
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
