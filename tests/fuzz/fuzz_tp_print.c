// SPDX-License-Identifier: LGPL-2.1-only
/*
 * libFuzzer target for sonde script's tracepoint text: the print fmt
 * evaluator (sonde_tp_print__*) and the TRACING_DATA walker.
 * First byte even: the rest up to a NUL is a "print fmt:" line over a
 * fixed set of fields, what follows the NUL is the record's raw data.
 * First byte odd: the rest is a TRACING_DATA blob, each format parsed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sonde/sonde.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	sonde_set_print(NULL);
	return 0;
}

static const char fields[] =
	"name: t\nID: 7\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:unsigned int a;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:long b;\toffset:16;\tsize:8;\tsigned:1;\n"
	"\tfield:char c[8];\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:__data_loc char[] s;\toffset:32;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned long arr[2];\toffset:40;\tsize:16;\tsigned:0;\n\n"
	"print fmt: ";

static const char *sym(void *ctx, uint64_t addr, uint64_t *off)
{
	(void)ctx;
	*off = addr & 0xff;
	return addr & 1 ? "f" : NULL;
}

static void render(const struct sonde_tp_format *fmt, const uint8_t *raw,
		   size_t n)
{
	SONDE_OPTS(sonde_tp_print_opts, po, .sym = sym);
	struct sonde_tp_print *p = sonde_tp_print__new(fmt, &po);
	char out[256];
	int len;

	if (!p)
		return;
	/* A small buffer first: the truncation path, then the whole text. */
	len = sonde_tp_print__format(p, raw, n, out, sizeof(out));
	if (len >= (int)sizeof(out)) {
		char *big = malloc((size_t)len + 1);

		if (big && sonde_tp_print__format(p, raw, n, big, (size_t)len + 1) != len)
			abort();
		free(big);
	}
	sonde_tp_print__free(p);
}

static int each(void *ctx, const char *sys, const char *text, size_t len)
{
	struct sonde_tp_format *fmt = sonde_tp_format__parse(text, len, NULL);
	static const uint8_t zero[128];

	(void)ctx;
	(void)sys;
	if (fmt)
		render(fmt, zero, sizeof(zero));
	sonde_tp_format__free(fmt);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul;
	char *text;
	size_t n;
	struct sonde_tp_format *fmt;

	if (!size)
		return 0;
	if (data[0] & 1) {
		sonde_tracing_data__for_each_format(data + 1, size - 1, each, NULL, NULL);
		return 0;
	}
	data++;
	size--;
	nul = memchr(data, 0, size);
	n = nul ? (size_t)(nul - data) : size;
	text = malloc(sizeof(fields) + n + 1);
	if (!text)
		return 0;
	memcpy(text, fields, sizeof(fields) - 1);
	memcpy(text + sizeof(fields) - 1, data, n);
	text[sizeof(fields) - 1 + n] = '\n';
	fmt = sonde_tp_format__parse(text, sizeof(fields) + n, NULL);
	if (fmt)
		render(fmt, nul ? nul + 1 : data + size,
		       nul ? size - n - 1 : 0);
	sonde_tp_format__free(fmt);
	free(text);
	return 0;
}
