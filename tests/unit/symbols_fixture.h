/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * What both symbol tests set up (test_symbols.c on the public API and
 * test_symbols_internal.c on the layer's own tables): a scratch directory
 * in tmpdir for the group, a shell for the commands that build test files,
 * a file writer, a print callback that hides the errors a case provokes,
 * and the check of a name a call returns for the caller to free.
 * Public API only, since test_symbols.c builds against libsonde.so too.
 */
#ifndef SONDE_TEST_SYMBOLS_FIXTURE_H
#define SONDE_TEST_SYMBOLS_FIXTURE_H

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "sonde/sonde.h"

/* Paths here are short; truncation checks would only add noise. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

static char tmpdir[PATH_MAX];

static inline int silent(enum sonde_print_level l, const char *f, va_list ap)
{
	(void)l; (void)f; (void)ap;
	return 0;
}

__attribute__((format(printf, 1, 2)))
static inline void sh(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	assert_int_equal(system(cmd), 0);
}

static inline void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* @got (freed here) is @want, or NULL where @want is. */
static inline void check_owned_name(char *got, const char *want)
{
	if (!want) {
		assert_null(got);
		return;
	}
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

/* Group fixtures: a fresh tmpdir, removed with all it holds. */
static inline void symtest_tmpdir_make(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/sonde-symtest-XXXXXX");
	assert_non_null(mkdtemp(tmpdir));
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	return system(cmd);
}

#endif
