// SPDX-License-Identifier: LGPL-2.1-only
/*
 * KSYMBOL records applied by the profile, as perf 6.1's
 * machine__process_ksymbol() does: a register outside every kernel map
 * makes a map of its own whose object and symbol carry the record's name
 * (a BPF program, a trampoline, out-of-line kernel code); an unregister
 * removes that map again. On a file written here, sonde report and sonde
 * script name the samples as perf report and perf script do on it.
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

static char path[64];

#define PROG 0xffffffffc0a00000ULL
#define TRAMP 0xffffffffc0b00000ULL
#define OOL 0xffffffffc0c00000ULL
#define NOWHERE 0xffffffffc0d00000ULL
#define KTEXT 0xffffffff81000000ULL
#define PROG_NAME "bpf_prog_0123456789abcdef_sonde_spin"
#define PROG2_NAME "bpf_prog_fedcba9876543210_sonde_next"
#define TRAMP_NAME "bpf_trampoline_6442451234"
#define OOL_NAME "kprobe_insn_page"

static void put(struct sonde_perfdata_writer *w, const struct sonde_record_fmt *fmt,
		struct sonde_record *r)
{
	_Alignas(8) unsigned char buf[512];

	r->sample_id.pid = r->sample_id.tid = 100;
	r->sample_id.time = r->sample.time;
	assert_true(sonde_record__encode(fmt, r, buf, sizeof(buf)) > 0);
	assert_int_equal(sonde_perfdata_writer__write(w, (void *)buf), 0);
}

static uint64_t now;

static void put_ksym(struct sonde_perfdata_writer *w, const struct sonde_record_fmt *fmt,
		     uint64_t addr, uint32_t len, uint16_t type, bool unreg, const char *name)
{
	struct sonde_record r;

	memset(&r, 0, sizeof(r));
	r.type = SONDE_PERF_RECORD_KSYMBOL;
	r.ksymbol.addr = addr;
	r.ksymbol.len = len;
	r.ksymbol.ksym_type = type;
	r.ksymbol.flags = unreg ? SONDE_PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER : 0;
	r.ksymbol.name = name;
	r.sample.time = now;
	now += 1000;
	put(w, fmt, &r);
}

static void put_sample(struct sonde_perfdata_writer *w, const struct sonde_record_fmt *fmt,
		       uint64_t ip)
{
	struct sonde_record r;

	memset(&r, 0, sizeof(r));
	r.type = SONDE_PERF_RECORD_SAMPLE;
	r.misc = SONDE_PERF_RECORD_MISC_KERNEL;
	r.sample.sample_type = fmt->sample_type;
	r.sample.ip = ip;
	r.sample.pid = r.sample.tid = 100;
	r.sample.time = now;
	now += 1000;
	r.sample.period = 1000;
	put(w, fmt, &r);
}

/* The file; @tracked: its event asked for KSYMBOL records (perf's always do). */
static void write_file(bool tracked)
{
	const char *argv[] = { "sonde", "record", NULL };
	SONDE_OPTS(sonde_perfdata_writer_opts, o, .cmdline = argv);
	struct sonde_perf_event_attr a = {
		.size = sizeof(a),
		.type = SONDE_PERF_TYPE_SOFTWARE,
		.config = SONDE_PERF_COUNT_SW_CPU_CLOCK,
		.sample_type = SONDE_PERF_SAMPLE_IP | SONDE_PERF_SAMPLE_TID |
			       SONDE_PERF_SAMPLE_TIME | SONDE_PERF_SAMPLE_PERIOD,
		.sample_period = 1000,
		.sample_id_all = 1,
		.mmap = 1,
		.comm = 1,
		.mmap2 = 1,
		.ksymbol = tracked,
	};
	struct sonde_perfdata_writer *w = sonde_perfdata_writer__new(path, &o);
	struct sonde_record_fmt fmt;
	struct sonde_record r;

	now = 1000000;
	assert_non_null(w);
	assert_int_equal(sonde_record_fmt__from_attr(&fmt, &a), 0);
	assert_int_equal(sonde_perfdata_writer__add_event(w, &a, "cpu-clock"), 0);
	assert_int_equal(sonde_perfdata_writer__begin(w), 0);
	memset(&r, 0, sizeof(r));
	r.type = SONDE_PERF_RECORD_COMM;
	r.comm.pid = r.comm.tid = 100;
	r.comm.comm = "bpfload";
	r.sample.time = now;
	now += 1000;
	put(w, &fmt, &r);
	/* Before any register: nothing names these. */
	put_sample(w, &fmt, PROG + 0x10);
	put_ksym(w, &fmt, PROG, 0x400, SONDE_PERF_RECORD_KSYMBOL_TYPE_BPF, false, PROG_NAME);
	put_ksym(w, &fmt, TRAMP, 0x80, SONDE_PERF_RECORD_KSYMBOL_TYPE_BPF, false, TRAMP_NAME);
	put_ksym(w, &fmt, OOL, 0x1000, SONDE_PERF_RECORD_KSYMBOL_TYPE_OOL, false, OOL_NAME);
	for (int i = 0; i < 6; i++)
		put_sample(w, &fmt, PROG + 0x40 * (uint64_t)i);
	put_sample(w, &fmt, PROG + 0x3ff);
	put_sample(w, &fmt, PROG + 0x400); /* one past its end */
	put_sample(w, &fmt, TRAMP + 0x8);
	put_sample(w, &fmt, TRAMP + 0x8);
	put_sample(w, &fmt, OOL + 0x123);
	put_sample(w, &fmt, NOWHERE + 0x10);
	put_sample(w, &fmt, KTEXT + 4);
	put_ksym(w, &fmt, PROG, 0x400, SONDE_PERF_RECORD_KSYMBOL_TYPE_BPF, true, PROG_NAME);
	put_sample(w, &fmt, PROG + 0x20);
	/* The address used again by another program. */
	put_ksym(w, &fmt, PROG, 0x200, SONDE_PERF_RECORD_KSYMBOL_TYPE_BPF, false, PROG2_NAME);
	put_sample(w, &fmt, PROG + 0x20);
	put_sample(w, &fmt, PROG + 0x300);
	/* A second register inside a KSYMBOL's map adds a symbol to its object. */
	put_ksym(w, &fmt, OOL + 0x800, 0x10, SONDE_PERF_RECORD_KSYMBOL_TYPE_OOL, false, "optinsn");
	put_sample(w, &fmt, OOL + 0x8);
	put_sample(w, &fmt, OOL + 0x808);
	assert_int_equal(sonde_perfdata_writer__finish_round(w), 0);
	assert_int_equal(sonde_perfdata_writer__finish(w), 0);
}

/* The rows of a --stdio report: its lines not starting with '#'. */
static char *rows(const char *report)
{
	char *out = calloc(1, strlen(report) + 1), *o = out;

	assert_non_null(out);
	for (const char *l = report; *l;) {
		const char *nl = strchr(l, '\n');
		size_t n = nl ? (size_t)(nl - l + 1) : strlen(l);

		if (l[0] != '#' && l[0] != '\n') {
			memcpy(o, l, n);
			o += n;
		}
		l += n;
	}
	return out;
}

/* perf 6.1's lines on this file (checked with it; names, offsets, objects). */
static const char script_text[] =
	"         bpfload   100     0.001001:       1000 cpu-clock:  ffffffffc0a00010 [unknown] ([unknown])\n"
	"         bpfload   100     0.001005:       1000 cpu-clock:  ffffffffc0a00000 " PROG_NAME "+0x0 (" PROG_NAME ")\n"
	"         bpfload   100     0.001006:       1000 cpu-clock:  ffffffffc0a00040 " PROG_NAME "+0x40 (" PROG_NAME ")\n"
	"         bpfload   100     0.001007:       1000 cpu-clock:  ffffffffc0a00080 " PROG_NAME "+0x80 (" PROG_NAME ")\n"
	"         bpfload   100     0.001008:       1000 cpu-clock:  ffffffffc0a000c0 " PROG_NAME "+0xc0 (" PROG_NAME ")\n"
	"         bpfload   100     0.001009:       1000 cpu-clock:  ffffffffc0a00100 " PROG_NAME "+0x100 (" PROG_NAME ")\n"
	"         bpfload   100     0.001010:       1000 cpu-clock:  ffffffffc0a00140 " PROG_NAME "+0x140 (" PROG_NAME ")\n"
	"         bpfload   100     0.001011:       1000 cpu-clock:  ffffffffc0a003ff " PROG_NAME "+0x3ff (" PROG_NAME ")\n"
	"         bpfload   100     0.001012:       1000 cpu-clock:  ffffffffc0a00400 [unknown] ([unknown])\n"
	"         bpfload   100     0.001013:       1000 cpu-clock:  ffffffffc0b00008 " TRAMP_NAME "+0x8 (" TRAMP_NAME ")\n"
	"         bpfload   100     0.001014:       1000 cpu-clock:  ffffffffc0b00008 " TRAMP_NAME "+0x8 (" TRAMP_NAME ")\n"
	"         bpfload   100     0.001015:       1000 cpu-clock:  ffffffffc0c00123 " OOL_NAME "+0x123 (" OOL_NAME ")\n"
	"         bpfload   100     0.001016:       1000 cpu-clock:  ffffffffc0d00010 [unknown] ([unknown])\n"
	"         bpfload   100     0.001017:       1000 cpu-clock:  ffffffff81000004 [unknown] ([unknown])\n"
	"         bpfload   100     0.001019:       1000 cpu-clock:  ffffffffc0a00020 [unknown] ([unknown])\n"
	"         bpfload   100     0.001021:       1000 cpu-clock:  ffffffffc0a00020 " PROG2_NAME "+0x20 (" PROG2_NAME ")\n"
	"         bpfload   100     0.001022:       1000 cpu-clock:  ffffffffc0a00300 [unknown] ([unknown])\n"
	"         bpfload   100     0.001024:       1000 cpu-clock:  ffffffffc0c00008 " OOL_NAME "+0x8 (" OOL_NAME ")\n"
	"         bpfload   100     0.001025:       1000 cpu-clock:  ffffffffc0c00808 " OOL_NAME "+0x808 (" OOL_NAME ")\n";

static const char report_rows[] =
	"    36.84%  bpfload  " PROG_NAME "  [k] " PROG_NAME "\n"
	"    15.79%  bpfload  " OOL_NAME "                      [k] " OOL_NAME "\n"
	"    10.53%  bpfload  " TRAMP_NAME "             [k] " TRAMP_NAME "\n"
	"     5.26%  bpfload  " PROG2_NAME "  [k] " PROG2_NAME "\n"
	"     5.26%  bpfload  [unknown]                             [k] 0xffffffff81000004\n"
	"     5.26%  bpfload  [unknown]                             [k] 0xffffffffc0a00010\n"
	"     5.26%  bpfload  [unknown]                             [k] 0xffffffffc0a00020\n"
	"     5.26%  bpfload  [unknown]                             [k] 0xffffffffc0a00300\n"
	"     5.26%  bpfload  [unknown]                             [k] 0xffffffffc0a00400\n"
	"     5.26%  bpfload  [unknown]                             [k] 0xffffffffc0d00010\n";

static void make_file(bool tracked)
{
	char dir[] = "/tmp/sonde-ksym-XXXXXX";

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/k.data", dir);
	write_file(tracked);
}

static void drop_file(void)
{
	char *slash = strrchr(path, '/');

	unlink(path);
	*slash = 0;
	rmdir(path);
}

static void test_script_names(void **state)
{
	static const char *const args[] = { "script", NULL };
	char *ours, *theirs;

	(void)state;
	make_file(true);
	ours = cr_run(cmd_script, args, path, 1);
	assert_string_equal(ours, script_text);
	theirs = cr_perf("perf script", path, false);
	if (theirs) {
		assert_string_equal(ours, theirs);
		free(theirs);
	} else {
		print_message("SKIP (part): perf is not installed, no comparison\n");
	}
	free(ours);
	drop_file();
}

static void test_report_rows(void **state)
{
	static const char *const args[] = { "report", "--stdio", NULL };
	char *ours, *ours_rows, *theirs;

	(void)state;
	make_file(true);
	ours = cr_run(cmd_report, args, path, 1);
	ours_rows = rows(ours);
	assert_string_equal(ours_rows, report_rows);
	theirs = cr_perf("perf report --stdio", path, false);
	if (theirs) {
		char *theirs_rows = rows(theirs);

		assert_string_equal(ours_rows, theirs_rows);
		free(theirs_rows);
		free(theirs);
	} else {
		print_message("SKIP (part): perf is not installed, no comparison\n");
	}
	free(ours_rows);
	free(ours);
	drop_file();
}

static void test_export_folded(void **state)
{
	static const char *const args[] = { "export", "--format", "folded", "-o", "-", NULL };
	char *ours;

	(void)state;
	make_file(true);
	ours = cr_run(cmd_export, args, path, 1);
	assert_string_equal(ours, "bpfload;[unknown] 6\n"
				  "bpfload;" PROG_NAME " 7\n"
				  "bpfload;" PROG2_NAME " 1\n"
				  "bpfload;" TRAMP_NAME " 2\n"
				  "bpfload;" OOL_NAME " 3\n");
	free(ours);
	drop_file();
}

/* The library's answers once the whole file is in. */
static void test_profile_state(void **state)
{
	struct sonde_perfdata_reader *r;
	const struct sonde_profile_frame *f;
	struct sonde_profile *p;

	(void)state;
	make_file(true);
	r = sonde_perfdata_reader__open(path, NULL);
	assert_non_null(r);
	p = sonde_profile__new(NULL);
	assert_non_null(p);
	assert_true(sonde_profile__add_reader(p, r) > 0);
	/* The address reused: the later program, map-relative as perf. */
	f = sonde_profile__resolve(p, 100, 100, true, PROG + 0x20);
	assert_string_equal(sonde_profile_frame__sym(f), PROG2_NAME);
	assert_string_equal(sonde_profile_frame__dso(f), PROG2_NAME);
	assert_int_equal(sonde_profile_frame__addr(f), 0x20);
	assert_int_equal(sonde_profile_frame__sym_offset(f), 0x20);
	assert_true(sonde_profile_frame__kind(f) & SONDE_PROFILE_FRAME_KERNEL);
	/* Past the new program's end: its map is shorter. */
	f = sonde_profile__resolve(p, 100, 100, true, PROG + 0x300);
	assert_null(sonde_profile_frame__sym(f));
	assert_null(sonde_profile_frame__dso(f));
	/* The first symbol of an object keeps its addresses. */
	f = sonde_profile__resolve(p, 100, 100, true, OOL + 0x8);
	assert_string_equal(sonde_profile_frame__sym(f), OOL_NAME);
	f = sonde_profile__resolve(p, 100, 100, true, TRAMP + 0x7f);
	assert_string_equal(sonde_profile_frame__sym(f), TRAMP_NAME);
	sonde_profile__free(p);
	sonde_perfdata_reader__free(r);
	drop_file();
}

/*
 * A recording that did not ask for KSYMBOL records (sonde's before now):
 * they are applied all the same, and what no map covers is still looked
 * up in the kernel's table.
 */
static void test_untracked(void **state)
{
	struct sonde_perfdata_reader *r;
	const struct sonde_profile_frame *f;
	struct sonde_profile *p;

	(void)state;
	make_file(false);
	r = sonde_perfdata_reader__open(path, NULL);
	assert_non_null(r);
	p = sonde_profile__new(NULL);
	assert_non_null(p);
	assert_true(sonde_profile__add_reader(p, r) > 0);
	f = sonde_profile__resolve(p, 100, 100, true, TRAMP + 0x8);
	assert_string_equal(sonde_profile_frame__sym(f), TRAMP_NAME);
	f = sonde_profile__resolve(p, 100, 100, true, NOWHERE);
	assert_string_equal(sonde_profile_frame__dso(f), "[kernel.kallsyms]");
	sonde_profile__free(p);
	sonde_perfdata_reader__free(r);
	drop_file();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_script_names),
		cmocka_unit_test(test_report_rows),
		cmocka_unit_test(test_export_folded),
		cmocka_unit_test(test_profile_state),
		cmocka_unit_test(test_untracked),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
