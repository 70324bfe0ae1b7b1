// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Reading TRACING_DATA blobs (sonde_tracing_data__for_each_format()): a hand-made blob in either
 * byte order, every truncation of it refused with an offset and no crash,
 * and a round trip through the writer (sonde_tracing_data_build) when
 * tracefs is here.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/perfdata.h"
#include "sonde/perfdata_reader.h"
#include "sonde/tracefs.h"

struct seen {
	int n;
	char sys[4][32];
	char text[4][64];
};

static int collect(void *ctx, const char *sys, const char *text, size_t len)
{
	struct seen *s = ctx;

	if (s->n < 4) {
		snprintf(s->sys[s->n], sizeof(s->sys[0]), "%s", sys);
		snprintf(s->text[s->n], sizeof(s->text[0]), "%.*s", (int)len, text);
	}
	s->n++;
	return 0;
}

static size_t put(uint8_t *b, size_t at, uint64_t v, int n, bool big)
{
	for (int i = 0; i < n; i++)
		b[at + (size_t)i] = (uint8_t)(v >> (8 * (big ? n - 1 - i : i)));
	return at + (size_t)n;
}

static size_t put_s(uint8_t *b, size_t at, const char *s)
{
	memcpy(b + at, s, strlen(s) + 1);
	return at + strlen(s) + 1;
}

/* magic, "0.6", order, long size, page size, headers, 1 ftrace format,
 * systems "sched" (2 formats) and "irq" (1), kallsyms, printk, cmdlines. */
static size_t make_blob(uint8_t *b, bool big)
{
	static const uint8_t magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a',
					   'c', 'i', 'n', 'g' };
	size_t at = 0;

	memcpy(b, magic, 10);
	at = put_s(b, 10, "0.6");
	b[at++] = big;
	b[at++] = 8;
	at = put(b, at, 4096, 4, big);
	at = put_s(b, at, "header_page");
	at = put(b, at, 3, 8, big);
	at = put_s(b, at, "hp") ;
	at = put_s(b, at, "header_event");
	at = put(b, at, 2, 8, big);
	at = put_s(b, at, "h");
	at = put(b, at, 1, 4, big);
	at = put(b, at, 2, 8, big);
	at = put_s(b, at, "f");
	at = put(b, at, 2, 4, big);
	at = put_s(b, at, "sched");
	at = put(b, at, 2, 4, big);
	at = put(b, at, 5, 8, big);
	memcpy(b + at, "ID: 1", 5);
	at += 5;
	at = put(b, at, 5, 8, big);
	memcpy(b + at, "ID: 2", 5);
	at += 5;
	at = put_s(b, at, "irq");
	at = put(b, at, 1, 4, big);
	at = put(b, at, 5, 8, big);
	memcpy(b + at, "ID: 3", 5);
	at += 5;
	at = put(b, at, 0, 4, big);
	at = put(b, at, 0, 4, big);
	return put(b, at, 0, 8, big);
}

static void test_handmade(void **state)
{
	uint8_t b[512];

	(void)state;
	for (int big = 0; big < 2; big++) {
		struct seen s = { 0 };
		size_t len = make_blob(b, big), off = 0;

		assert_int_equal(sonde_tracing_data__for_each_format(b, len, collect, &s, NULL), 0);
		assert_int_equal(s.n, 3);
		assert_string_equal(s.sys[0], "sched");
		assert_string_equal(s.text[1], "ID: 2");
		assert_string_equal(s.sys[2], "irq");
		assert_string_equal(s.text[2], "ID: 3");
		/* Cut anywhere before the last format: refused, with where. */
		for (size_t cut = 0; cut < len - 20; cut++) {
			memset(&s, 0, sizeof(s));
			assert_true(sonde_tracing_data__for_each_format(b, cut, collect, &s,
							     &off) < 0);
			assert_true(off <= cut);
		}
	}
	/* A size that wraps past the end is refused, not followed. */
	make_blob(b, false);
	memset(b + 10 + 4 + 2 + 4 + 12, 0xff, 8);
	assert_true(sonde_tracing_data__for_each_format(b, 200, collect, &(struct seen){ 0 },
					     NULL) < 0);
}

static int find_switch(void *ctx, const char *sys, const char *text, size_t len)
{
	struct sonde_tp_format *fmt = sonde_tp_format__parse(text, len, NULL);
	int found = fmt && !strcmp(sys, "sched") &&
		    sonde_tp_format__find_field(fmt, "prev_state") ? 1 : 0;

	(void)ctx;
	sonde_tp_format__free(fmt);
	return found;
}

static void test_round_trip(void **state)
{
	const char *tps[] = { "sched:sched_switch", "irq:irq_handler_entry" };
	void *blob;
	size_t len;

	(void)state;
	if (sonde_tracing_data_build(tps, 2, &blob, &len)) {
		printf("SKIP: no tracefs with sched_switch here\n");
		skip();
	}
	assert_int_equal(sonde_tracing_data__for_each_format(blob, len, find_switch, NULL,
						  NULL), 1);
	free(blob);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_handmade),
		cmocka_unit_test(test_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
