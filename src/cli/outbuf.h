/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * A growable output buffer with cheap number formatting, for commands that
 * print millions of lines (script, report). Writes to a fd in large chunks
 * or collects into memory.
 */
#ifndef SONDE_CLI_OUTBUF_H
#define SONDE_CLI_OUTBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct outbuf {
	char *buf;
	size_t len, cap;
	int fd;	 /* -1: memory only */
	int err; /* first write error (errno) */
};

void ob_init_fd(struct outbuf *o, int fd);
void ob_init_mem(struct outbuf *o);
void ob_flush(struct outbuf *o);
void ob_free(struct outbuf *o);
/* Makes room (flushing or growing) for @n more bytes; ob_reserve() when needed. */
void ob_grow(struct outbuf *o, size_t n);
void ob_hex(struct outbuf *o, uint64_t v, int width);
void ob_dec(struct outbuf *o, uint64_t v);
void ob_dec_pad(struct outbuf *o, int64_t v, int width, bool right);
void ob_dec_zpad(struct outbuf *o, uint64_t v, int width);
void ob_pad_str(struct outbuf *o, const char *s, int width, bool right);
void ob_json_str(struct outbuf *o, const char *s);
/*
 * A JSON number while a double holds it exactly (up to 2^53), else the
 * same digits as a string: JavaScript and jq read every number as a
 * double and would change the low digits of, say, a CLOCK_REALTIME time.
 */
#define OB_JSON_EXACT (1ULL << 53)
void ob_json_u64(struct outbuf *o, uint64_t v);
__attribute__((format(printf, 2, 3)))
void ob_printf(struct outbuf *o, const char *fmt, ...);

/* Room for @n more bytes: inline, as script asks it for every line it copies. */
static inline void ob_reserve(struct outbuf *o, size_t n)
{
	if (o->len + n > o->cap)
		ob_grow(o, n);
}

static inline void ob_write(struct outbuf *o, const void *p, size_t n)
{
	ob_reserve(o, n);
	memcpy(o->buf + o->len, p, n);
	o->len += n;
}

static inline void ob_putc(struct outbuf *o, char c)
{
	if (o->len + 1 > o->cap)
		ob_grow(o, 1);
	o->buf[o->len++] = c;
}

static inline void ob_puts(struct outbuf *o, const char *s)
{
	ob_write(o, s, strlen(s));
}

#endif /* SONDE_CLI_OUTBUF_H */
