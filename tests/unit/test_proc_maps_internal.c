// SPDX-License-Identifier: LGPL-2.1-only
/*
 * core's /proc/PID/maps parser, the one synthesis, the unwinder and the
 * build-id collector share, on a fake maps file with odd lines.
 * Static-only: proc_maps_read() and proc_maps_parse_line() live in
 * core_priv.h; the public callers are tested through it in
 * test_buildid_hits, test_synth_timeout and test_unwind.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "core_priv.h"

struct seen {
	int n;
	struct proc_map maps[16];
	char names[16][256];
};

static int keep(const struct proc_map *m, void *arg)
{
	struct seen *s = arg;

	assert_true(s->n < 16);
	s->maps[s->n] = *m;
	snprintf(s->names[s->n], sizeof(s->names[0]), "%s", m->name);
	s->n++;
	return 0;
}

static void read_text(const char *text, struct seen *s)
{
	FILE *f = tmpfile();

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	rewind(f);
	memset(s, 0, sizeof(*s));
	assert_int_equal(proc_maps_read(f, keep, s), 0);
	fclose(f);
}

/* Every field of the lines the kernel prints. */
static void test_fields(void **state)
{
	struct seen s;

	(void)state;
	read_text("55d0c0a00000-55d0c0a28000 r-xp 00002000 fd:01 1311234                    /usr/bin/my prog\n"
		  "7ffd1b5f2000-7ffd1b5f4000 r-xp 00000000 00:00 0                          [vdso]\n"
		  "7f0000000000-7f0000021000 rw-p 00000000 00:00 0 \n"
		  "7f0000100000-7f0000200000 r-xs 00001000 08:1f 42                         /tmp/x (deleted)\n"
		  "7f0000300000-7f0000400000 ---p 00000000 00:00 0",
		  &s);
	assert_int_equal(s.n, 5);
	assert_int_equal(s.maps[0].start, 0x55d0c0a00000);
	assert_int_equal(s.maps[0].end, 0x55d0c0a28000);
	assert_int_equal(s.maps[0].pgoff, 0x2000);
	assert_int_equal(s.maps[0].maj, 0xfd);
	assert_int_equal(s.maps[0].min, 1);
	assert_int_equal(s.maps[0].ino, 1311234);
	assert_int_equal(s.maps[0].prot, PROT_READ | PROT_EXEC);
	assert_false(s.maps[0].shared);
	assert_string_equal(s.maps[0].perms, "r-xp");
	/* Spaces inside a name are the name's. */
	assert_string_equal(s.names[0], "/usr/bin/my prog");
	assert_false(s.maps[0].deleted);
	assert_string_equal(s.names[1], "[vdso]");
	/* Anonymous: an empty name, with or without the trailing space. */
	assert_string_equal(s.names[2], "");
	assert_int_equal(s.maps[2].prot, PROT_READ | PROT_WRITE);
	assert_string_equal(s.names[3], "/tmp/x (deleted)");
	assert_true(s.maps[3].deleted);
	assert_true(s.maps[3].shared);
	assert_int_equal(s.maps[3].maj, 8);
	assert_int_equal(s.maps[3].min, 0x1f);
	assert_string_equal(s.names[4], "");
	assert_int_equal(s.maps[4].prot, 0);
}

/* A bad line is skipped, the ones around it are read. */
static void test_bad_lines_skipped(void **state)
{
	struct seen s;

	(void)state;
	read_text("1000-2000 r-xp 00000000 00:00 0 /a\n"
		  "garbage\n"
		  "\n"
		  "1000-2000 r-xp\n"                            /* fields missing */
		  "1000-2000 r-xp 00000000 00:00\n"             /* no inode */
		  "1000-2000 r-xp 00000000 0000 0 /b\n"         /* no ':' */
		  "2000-1000 r-xp 00000000 00:00 0 /c\n"        /* end < start */
		  "1000-2000 rwxq 00000000 00:00 0 /d\n"        /* bad perms */
		  "1000-2000 r-x 00000000 00:00 0 /e\n"         /* short perms */
		  "11112222333344445-2000 r-xp 0 00:00 0 /f\n"  /* 17 hex digits */
		  "1000-2000 r-xp 0 00:00 99999999999999999999 /g\n" /* > 2^64 */
		  "1000-2000 r-xp 0 00:00 12x /h\n"             /* inode then junk */
		  "0x1000-2000 r-xp 0 00:00 0 /i\n"
		  "1000-2000 r-xp 0 100000000:0 0 /j\n"         /* major past 32 bits */
		  "3000-4000 --xp 00000000 00:00 0 /z\n",
		  &s);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.names[0], "/a");
	assert_string_equal(s.names[1], "/z");
	assert_int_equal(s.maps[1].prot, PROT_EXEC);
}

/* The column of the first bad field, for the debug message. */
static void test_error_column(void **state)
{
	char line[128];
	struct proc_map m;
	size_t col = 99;

	(void)state;
	strcpy(line, "1000-2000 r-xp 00000000 00:00\n");
	assert_int_equal(proc_maps_parse_line(line, &m, &col), -EINVAL);
	assert_int_equal(col, strlen("1000-2000 r-xp 00000000 00:00"));
	strcpy(line, "1000-2000 rwxq 0 00:00 0");
	assert_int_equal(proc_maps_parse_line(line, &m, &col), -EINVAL);
	assert_int_equal(col, strlen("1000-2000 "));
	strcpy(line, "");
	assert_int_equal(proc_maps_parse_line(line, &m, NULL), -EINVAL);
}

/*
 * A line longer than any the kernel prints is skipped whole: its tail is
 * not taken for the next line.
 */
static void test_long_line(void **state)
{
	size_t n = 3 * PROC_MAPS_LINE_MAX;
	char *text = malloc(n + 256);
	struct seen s;
	size_t at;

	(void)state;
	assert_non_null(text);
	at = (size_t)sprintf(text, "1000-2000 r-xp 0 00:00 0 /");
	memset(text + at, 'a', n);
	at += n;
	/* A tail that would parse as a mapping if read as a line. */
	at += (size_t)sprintf(text + at, " 5000-6000 r-xp 0 00:00 0 /tail\n"
					 "7000-8000 r-xp 0 00:00 0 /next\n");
	text[at] = 0;
	read_text(text, &s);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.names[0], "/next");
	free(text);
}

/* A NUL inside a line ends its name, not the line: the next one is read. */
static void test_nul_in_line(void **state)
{
	static const char text[] = "1000-2000 r-xp 0 00:00 0 /a\0junk\n"
				   "2000-3000 r-xp 0 00:00 0 /b\n";
	FILE *f = tmpfile();
	struct seen s;

	(void)state;
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, sizeof(text) - 1, f), sizeof(text) - 1);
	rewind(f);
	memset(&s, 0, sizeof(s));
	assert_int_equal(proc_maps_read(f, keep, &s), 0);
	fclose(f);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.names[0], "/a");
	assert_string_equal(s.names[1], "/b");
}

static int stop_at_second(const struct proc_map *m, void *arg)
{
	int *n = arg;

	(void)m;
	return ++*n == 2 ? 7 : 0;
}

/* The callback's nonzero return stops the reading and is returned. */
static void test_callback_stops(void **state)
{
	FILE *f = tmpfile();
	int n = 0;

	(void)state;
	assert_non_null(f);
	fputs("1000-2000 r-xp 0 00:00 0 /a\n2000-3000 r-xp 0 00:00 0 /b\n"
	      "3000-4000 r-xp 0 00:00 0 /c\n", f);
	rewind(f);
	assert_int_equal(proc_maps_read(f, stop_at_second, &n), 7);
	assert_int_equal(n, 2);
	fclose(f);
}

static int find_self(const struct proc_map *m, void *arg)
{
	uintptr_t ip = (uintptr_t)arg;

	return m->start <= ip && ip < m->end && (m->prot & PROT_EXEC) && m->name[0] == '/';
}

/* This process's own maps: its code is in an executable file mapping. */
static void test_own_maps(void **state)
{
	(void)state;
	assert_int_equal(proc_maps_each(getpid(), find_self, (void *)(uintptr_t)test_own_maps), 1);
	assert_int_equal(proc_maps_each(0, find_self, (void *)(uintptr_t)test_own_maps), 1);
	assert_int_equal(proc_maps_each(-1, find_self, NULL), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_bad_lines_skipped),
		cmocka_unit_test(test_error_column),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_nul_in_line),
		cmocka_unit_test(test_callback_stops),
		cmocka_unit_test(test_own_maps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
