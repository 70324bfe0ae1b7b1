// SPDX-License-Identifier: LGPL-2.1-only
/*
 * TEXT_POKE records applied as perf 6.1's machine__process_text_poke()
 * does outside AUX decoding: the new bytes are written into the code perf
 * reads for the kernel object mapped there. perf can read back only
 * out-of-line code (a KSYMBOL_TYPE_OOL object: zeros but for the pokes)
 * or objects it has a file for; sonde reads no kernel file, so it keeps
 * the pokes of out-of-line code, which sonde_profile__read_code() and
 * script -F brstackinsn read, as perf script does on the same file.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sonde/sonde.h"
#include "builtin.h"
#include "cli_run.h"

#define OOL 0xffffffffc0c00000ULL
#define OOL_LEN 0x100
#define ELSEWHERE 0xffffffffc0e00000ULL

static char path[64];
static uint64_t now;

static void put(struct sonde_perfdata_writer *w, const struct sonde_record_fmt *fmt,
		struct sonde_record *r)
{
	_Alignas(8) unsigned char buf[1024];

	r->sample_id.pid = r->sample_id.tid = 100;
	r->sample_id.time = now;
	r->sample.time = now;
	now += 1000;
	assert_true(sonde_record__encode(fmt, r, buf, sizeof(buf)) > 0);
	assert_int_equal(sonde_perfdata_writer__write(w, (void *)buf), 0);
}

static void put_poke(struct sonde_perfdata_writer *w, const struct sonde_record_fmt *fmt,
		     uint16_t misc, uint64_t addr, const uint8_t *old, uint16_t old_len,
		     const uint8_t *new, uint16_t new_len)
{
	uint8_t bytes[256];
	struct sonde_record r;

	memcpy(bytes, old, old_len);
	memcpy(bytes + old_len, new, new_len);
	memset(&r, 0, sizeof(r));
	r.type = SONDE_PERF_RECORD_TEXT_POKE;
	r.misc = misc;
	r.text_poke.addr = addr;
	r.text_poke.old_len = old_len;
	r.text_poke.new_len = new_len;
	r.text_poke.bytes = bytes;
	put(w, fmt, &r);
}

/* A sample in the code whose last two branches were @b (newest first). */
static void put_sample(struct sonde_perfdata_writer *w, const struct sonde_record_fmt *fmt,
		       const struct sonde_perf_branch_entry *b, unsigned int nr)
{
	struct sonde_record r;

	memset(&r, 0, sizeof(r));
	r.type = SONDE_PERF_RECORD_SAMPLE;
	r.misc = SONDE_PERF_RECORD_MISC_KERNEL;
	r.sample.sample_type = fmt->sample_type;
	r.sample.ip = b[0].from;
	r.sample.pid = r.sample.tid = 100;
	r.sample.period = 1000;
	r.sample.branch.nr = nr;
	r.sample.branch.entries = b;
	put(w, fmt, &r);
}

static void write_file(void)
{
	const char *argv[] = { "sonde", "record", NULL };
	SONDE_OPTS(sonde_perfdata_writer_opts, o, .cmdline = argv);
	struct sonde_perf_event_attr a = {
		.size = sizeof(a),
		.type = SONDE_PERF_TYPE_SOFTWARE,
		.config = SONDE_PERF_COUNT_SW_CPU_CLOCK,
		.sample_type = SONDE_PERF_SAMPLE_IP | SONDE_PERF_SAMPLE_TID |
			       SONDE_PERF_SAMPLE_TIME | SONDE_PERF_SAMPLE_PERIOD |
			       SONDE_PERF_SAMPLE_BRANCH_STACK,
		.branch_sample_type = SONDE_PERF_SAMPLE_BRANCH_ANY,
		.sample_period = 1000,
		.sample_id_all = 1,
		.mmap = 1,
		.comm = 1,
		.mmap2 = 1,
		.ksymbol = 1,
		.text_poke = 1,
	};
	/* Zeros until poked: nops, a jump over the next ones, nops, ret. */
	uint8_t code[0x40], none[1] = { 0 }, mov[3] = { 0x48, 0x89, 0xe5 };
	struct sonde_perf_branch_entry br[2] = {
		{ .from = OOL + 0x30, .to = 0xffffffff81000000ULL },
		{ .from = OOL + 0x10, .to = OOL + 0x20 },
	};
	struct sonde_perfdata_writer *w = sonde_perfdata_writer__new(path, &o);
	struct sonde_record_fmt fmt;
	struct sonde_record r;

	memset(code, 0x90, sizeof(code));
	code[0x10] = 0xeb;
	code[0x11] = 0x0e;
	code[0x30] = 0xc3;
	now = 1000000;
	assert_non_null(w);
	assert_int_equal(sonde_record_fmt__from_attr(&fmt, &a), 0);
	assert_int_equal(sonde_perfdata_writer__add_event(w, &a, "cpu-clock"), 0);
	assert_int_equal(sonde_perfdata_writer__begin(w), 0);
	memset(&r, 0, sizeof(r));
	r.type = SONDE_PERF_RECORD_COMM;
	r.comm.pid = r.comm.tid = 100;
	r.comm.comm = "poker";
	put(w, &fmt, &r);
	memset(&r, 0, sizeof(r));
	r.type = SONDE_PERF_RECORD_KSYMBOL;
	r.ksymbol.addr = OOL;
	r.ksymbol.len = OOL_LEN;
	r.ksymbol.ksym_type = SONDE_PERF_RECORD_KSYMBOL_TYPE_OOL;
	r.ksymbol.name = "ftrace_trampoline";
	put(w, &fmt, &r);
	/* Before any poke the code reads as zeros (add %al,(%rax)). */
	put_sample(w, &fmt, br, 2);
	put_poke(w, &fmt, SONDE_PERF_RECORD_MISC_KERNEL, OOL, none, 0, code, sizeof(code));
	put_sample(w, &fmt, br, 2);
	/* A poke that replaces a nop run by a mov, old bytes given. */
	put_poke(w, &fmt, SONDE_PERF_RECORD_MISC_KERNEL, OOL + 0x24, code, 3, mov, 3);
	/* Not kernel code, and nothing mapped there: both ignored. */
	put_poke(w, &fmt, SONDE_PERF_RECORD_MISC_USER, OOL + 0x20, none, 0, (const uint8_t *)"\xcc", 1);
	put_poke(w, &fmt, SONDE_PERF_RECORD_MISC_KERNEL, ELSEWHERE, none, 0, (const uint8_t *)"\xcc", 1);
	put_sample(w, &fmt, br, 2);
	assert_int_equal(sonde_perfdata_writer__finish_round(w), 0);
	assert_int_equal(sonde_perfdata_writer__finish(w), 0);
}

static void make_file(void)
{
	char dir[] = "/tmp/sonde-poke-XXXXXX";

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/p.data", dir);
	write_file();
}

static void drop_file(void)
{
	char *slash = strrchr(path, '/');

	unlink(path);
	*slash = 0;
	rmdir(path);
}

/* The code as the file leaves it: zeros, the pokes of kernel mode over them. */
static void test_read_code(void **state)
{
	struct sonde_perfdata_reader *r;
	struct sonde_profile *p;
	uint8_t buf[0x200], want[OOL_LEN];
	bool is64 = false;

	(void)state;
	make_file();
	r = sonde_perfdata_reader__open(path, NULL);
	assert_non_null(r);
	p = sonde_profile__new(NULL);
	assert_non_null(p);
	assert_true(sonde_profile__add_reader(p, r) > 0);
	memset(want, 0, sizeof(want));
	memset(want, 0x90, 0x40);
	want[0x10] = 0xeb;
	want[0x11] = 0x0e;
	want[0x30] = 0xc3;
	memcpy(want + 0x24, "\x48\x89\xe5", 3);
	/* Up to the object's end, not past it. */
	assert_int_equal(sonde_profile__read_code(p, -1, -1, true, OOL, buf, sizeof(buf), &is64),
			 OOL_LEN);
	assert_memory_equal(buf, want, OOL_LEN);
	assert_true(is64 == (sizeof(void *) == 8));
	assert_int_equal(sonde_profile__read_code(p, -1, -1, true, OOL + 0x23, buf, 3, &is64), 3);
	assert_memory_equal(buf, "\x90\x48\x89", 3);
	assert_int_equal(sonde_profile__read_code(p, -1, -1, true, ELSEWHERE, buf, 4, &is64), 0);
	sonde_profile__free(p);
	sonde_perfdata_reader__free(r);
	drop_file();
}

/* Each sample's walk reads the code as it was then, as perf script does. */
static void test_brstackinsn(void **state)
{
	static const char *const args[] = { "script", "-F", "brstackinsn", NULL };
	char *ours, *theirs;

	(void)state;
	make_file();
	ours = cr_run(cmd_script, args, path, 1);
	/* Zeros before the poke, the jump and nops after, then the mov. */
	assert_non_null(strstr(ours, "\tffffffffc0c00010\tinsn: 00 00                   \t#\n"));
	assert_non_null(strstr(ours, "\tffffffffc0c00010\tinsn: eb 0e                   \t#\n"
				     "\tffffffffc0c00020\tinsn: 90 \n"));
	assert_non_null(strstr(ours, "\tffffffffc0c00024\tinsn: 48 89 e5 \n"));
	assert_null(strstr(ours, "insn: cc"));
	theirs = cr_perf("perf script -F brstackinsn", path, false);
	if (theirs) {
		assert_string_equal(ours, theirs);
		free(theirs);
	} else {
		print_message("SKIP (part): perf is not installed, no comparison\n");
	}
	free(ours);
	drop_file();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_code),
		cmocka_unit_test(test_brstackinsn),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
