/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * For unit tests that run a sonde command in their own process and
 * compare what it prints with Linux perf on the same file: the command's
 * standard output or error, and perf's, as malloc'd strings.
 */
#ifndef SONDE_TEST_CLI_RUN_H
#define SONDE_TEST_CLI_RUN_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The whole of @f from its start (malloc'd, NUL-terminated). */
static inline char *cr_slurp(FILE *f)
{
	char buf[4096], *out = calloc(1, 1);
	size_t n, len = 0;

	assert_non_null(out);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		out = realloc(out, len + n + 1);
		assert_non_null(out);
		memcpy(out + len, buf, n);
		len += n;
		out[len] = 0;
	}
	return out;
}

/*
 * @cmd(argc, @args + "-f -i" @file) in this process: what it wrote to
 * file descriptor @fd (1 or 2; the other one is discarded), malloc'd.
 * The command must exit 0.
 */
static inline char *cr_run(int (*cmd)(int, const char **), const char *const *args,
			   const char *file, int fd)
{
	const char *argv[24];
	char tmp[] = "/tmp/sonde-cli-run-XXXXXX";
	int t = mkstemp(tmp), null = open("/dev/null", O_WRONLY), so, se, argc = 0;
	char *out;
	FILE *f;

	for (; args[argc] && argc < 20; argc++)
		argv[argc] = args[argc];
	argv[argc++] = "-f";
	argv[argc++] = "-i";
	argv[argc++] = file;
	argv[argc] = NULL;
	assert_true(t >= 0 && null >= 0);
	fflush(stdout);
	fflush(stderr);
	so = dup(1);
	se = dup(2);
	dup2(fd == 1 ? t : null, 1);
	dup2(fd == 2 ? t : null, 2);
	assert_int_equal(cmd(argc, argv), 0);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(so);
	close(se);
	close(null);
	close(t);
	f = fopen(tmp, "r");
	assert_non_null(f);
	out = cr_slurp(f);
	fclose(f);
	unlink(tmp);
	return out;
}

/* @cmd run by the shell: its standard output (malloc'd); pclose()'s
 * status in @status. */
static inline char *cr_shell(const char *cmd, int *status)
{
	FILE *p = popen(cmd, "r");
	char *out;

	assert_non_null(p);
	out = cr_slurp(p);
	*status = pclose(p);
	return out;
}

/*
 * "@perf_cmd -f -i @file" run by the shell: its standard output, or its
 * standard error when @err (malloc'd); NULL when perf is not installed.
 */
static inline char *cr_perf(const char *perf_cmd, const char *file, bool err)
{
	char line[512];
	int status;

	if (system("command -v perf >/dev/null 2>&1"))
		return NULL;
	snprintf(line, sizeof(line), err ? "%s -f -i %s 2>&1 >/dev/null" : "%s -f -i %s 2>/dev/null",
		 perf_cmd, file);
	return cr_shell(line, &status);
}

#endif /* SONDE_TEST_CLI_RUN_H */
