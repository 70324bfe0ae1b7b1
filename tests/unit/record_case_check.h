/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * The checks both record codec tests run on the cases of
 * record_fixtures.h (test_record.c on the public API, also against
 * libsonde.so, and test_record_internal.c): CHECK() fails naming the case
 * in cname, encode_alloc() encodes a case into a buffer of its own,
 * proving on the way that the size query and a short buffer hold, and
 * expect_bad() checks that damage is refused at its offset. Public API only.
 */
#ifndef SONDE_TEST_RECORD_CASE_CHECK_H
#define SONDE_TEST_RECORD_CASE_CHECK_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/sonde.h"
#include "record_fixtures.h"

/* The case being checked, named in each failure. */
static const char *cname = "";

#define CHECK(cond, ...)                                                   \
	do {                                                               \
		if (!(cond)) {                                             \
			print_error("%s: ", cname);                        \
			print_error(__VA_ARGS__);                          \
			print_error("\n");                                 \
			fail();                                            \
		}                                                          \
	} while (0)

/* Case @c encoded into a new buffer (the caller frees), its size in @len. */
static inline uint8_t *encode_alloc(const struct rec_case *c, int *len)
{
	int n = sonde_record__encode(&c->fmt, &c->rec, NULL, 0);
	uint8_t *buf;

	CHECK(n >= 8, "size query gave %d", n);
	buf = calloc(1, (size_t)n + 8);
	assert_non_null(buf);
	/* One byte short is refused, not overrun. */
	CHECK(sonde_record__encode(&c->fmt, &c->rec, buf, (size_t)n - 1) ==
	      -ENOSPC, "short buffer accepted");
	CHECK(sonde_record__encode(&c->fmt, &c->rec, buf, (size_t)n) == n,
	      "encode size differs from the size query");
	*len = n;
	return buf;
}

/* @buf is refused as a bad format at @off, with @what in its reason. */
static inline void expect_bad(const struct sonde_record_fmt *fmt, const void *buf,
			      size_t len, uint32_t off, const char *what)
{
	struct sonde_record d;

	assert_int_equal(sonde_record__decode(fmt, buf, len, &d),
			 -SONDE_ERR_FORMAT);
	assert_int_equal(errno, SONDE_ERR_FORMAT);
	if (d.err_offset != off || !strstr(d.err_what, what))
		print_error("got offset %u '%s', want %u '%s'\n", d.err_offset,
			    d.err_what, off, what);
	assert_int_equal(d.err_offset, off);
	assert_non_null(strstr(d.err_what, what));
}

#endif
