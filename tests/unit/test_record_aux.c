// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde record with an AUX area tracer, through a simulated kernel
 * (fake_aux.h: a fake sysfs with intel_pt and cs_etm PMUs, a perf_event_open
 * that maps AUX areas for them only) on a machine that has none. The test
 * plays the PMU: it writes trace bytes into the AUX areas (wrapping the
 * area's end), ITRACE_START and AUX records into the rings, and, for -S,
 * more bytes when record stops the tracer for a snapshot. The file record
 * writes must hold perf's AUXTRACE_INFO before AUXTRACE records carrying
 * exactly those bytes (one record per area and read), the AUXTRACE index
 * feature pointing at them, the AUX records passed through; where perf is
 * installed, perf report --stats counts them, perf script -D decodes them
 * without an error, and sonde report --stats prints what perf prints, on
 * that file and on perf inject's copy of it (a file perf wrote).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <signal.h>
#include <sys/wait.h>
#include "fake_aux.h"
#include "builtin.h"
#include "cli_run.h"

#define AREA 8192 /* -m ,2 with 4 KiB pages */

static struct pmu_sim {
	int aux_fds[8];
	int nr_aux_fds;
	int disables;   /* DISABLE ioctls on the first AUX fd */
	bool stopped;   /* the first area filled: the kernel stopped its tracer */
	int restarts;   /* ENABLEs that restarted it after its area was read */
	bool overwrite; /* the PMU gives aux_head as an offset in the area */
	pid_t pid;
	/* Last: record_with() resets all before it, a test names it once. */
	char mark[128]; /* made at the first snapshot, for the workload */
} pmu;

static bool have_perf(void)
{
	return !system("command -v perf >/dev/null 2>&1");
}

static bool four_k_pages(void)
{
	return sysconf(_SC_PAGESIZE) == 4096;
}

/* A test's directory under /tmp and the file it records there. */
struct scratch {
	char dir[64];
	char path[96];
};

/*
 * Skips unless pages are 4 KiB (the areas' sizes below assume them) and,
 * with @two_cpus, two CPUs are online. Then makes @tmpl's directory, names
 * @file and the PMU's mark file in it, and builds the fake sysfs.
 */
static void scratch_begin(struct scratch *t, const char *tmpl, const char *file,
			  bool two_cpus)
{
	if (two_cpus && (!four_k_pages() || sysconf(_SC_NPROCESSORS_ONLN) < 2)) {
		print_message("SKIP: needs 4 KiB pages and two online CPUs\n");
		skip();
	}
	if (!four_k_pages()) {
		print_message("SKIP: needs 4 KiB pages\n");
		skip();
	}
	snprintf(t->dir, sizeof(t->dir), "%s", tmpl);
	assert_non_null(mkdtemp(t->dir));
	snprintf(t->path, sizeof(t->path), "%s/%s", t->dir, file);
	snprintf(pmu.mark, sizeof(pmu.mark), "%s/mark", t->dir);
	fake_aux_sysfs();
}

/* Undoes scratch_begin(), the recorded file included. */
static void scratch_end(struct scratch *t)
{
	fake_aux_sysfs_remove();
	unlink(t->path);
	rmdir(t->dir);
}

/* Full trace: CPU 0's area wraps (7000..10000), CPU 1 has 100 bytes. */
static void pmu_full_trace(int fd)
{
	struct sonde_record rec;
	int n = pmu.nr_aux_fds++;

	pmu.aux_fds[n] = fd;
	pmu.pid = fa.fd[fd].pid;
	memset(&rec, 0, sizeof(rec));
	if (n == 0) {
		fake_aux_pc(fd)->aux_tail = 7000;
		fake_aux_write(fd, 7000, 3000, 1, 10000);
		rec.type = SONDE_PERF_RECORD_ITRACE_START;
		rec.itrace_start.pid = rec.itrace_start.tid = (uint32_t)pmu.pid;
		fake_aux_put(fd, &rec);
		rec.type = SONDE_PERF_RECORD_AUX;
		rec.aux.aux_offset = 7000;
		rec.aux.aux_size = 3000;
		fake_aux_put(fd, &rec);
	} else if (n == 1) {
		fake_aux_write(fd, 0, 100, 50, 100);
		rec.type = SONDE_PERF_RECORD_AUX;
		rec.aux.aux_size = 100;
		rec.aux.flags = SONDE_PERF_AUX_FLAG_TRUNCATED;
		fake_aux_put(fd, &rec);
	}
}

/*
 * cmd_record through the simulated kernel, the PMU (reset, but for its
 * mark) moving in @on_map and @on_ioctl (either may be NULL); the real
 * system calls back after it.
 */
static int record_with(void (*on_map)(int fd), void (*on_ioctl)(int fd, unsigned long req),
		       int argc, const char **argv)
{
	int ret;

	memset(&pmu, 0, offsetof(struct pmu_sim, mark));
	fake_aux_install();
	fa.on_aux_map = on_map;
	fa.on_ioctl = on_ioctl;
	ret = cmd_record(argc, argv);
	sonde_sys_set_ops(NULL);
	return ret;
}

static int run_record(int argc, const char **argv)
{
	return record_with(pmu_full_trace, NULL, argc, argv);
}

/* Reads @len bytes at @off of @path. */
static void file_bytes(const char *path, uint64_t off, void *buf, size_t len)
{
	FILE *f = fopen(path, "rb");

	assert_non_null(f);
	assert_int_equal(fseek(f, (long)off, SEEK_SET), 0);
	assert_int_equal(fread(buf, 1, len, f), len);
	fclose(f);
}

/* The AUXTRACE feature's entries {offset, size} (at most @max), or -1. */
static int auxtrace_index(const char *path, uint64_t *ent, int max)
{
	struct sonde_perf_file_header h;
	struct sonde_perf_file_section sec;
	uint64_t nr;
	int before = 0;

	file_bytes(path, 0, &h, sizeof(h));
	if (!(h.adds_features[0] & (1ULL << SONDE_FEAT_AUXTRACE)))
		return -1;
	for (int b = 0; b < SONDE_FEAT_AUXTRACE; b++)
		before += !!(h.adds_features[0] & (1ULL << b));
	file_bytes(path, h.data.offset + h.data.size + (uint64_t)before * sizeof(sec),
		   &sec, sizeof(sec));
	file_bytes(path, sec.offset, &nr, 8);
	assert_int_equal(sec.size, 8 + nr * 16);
	assert_true((int)nr <= max);
	if (nr)
		file_bytes(path, sec.offset + 8, ent, (size_t)nr * 16);
	return (int)nr;
}

struct seen {
	int info_at, first_auxtrace_at, n;
	uint32_t info_type;
	uint64_t info_priv[32];
	uint64_t nr_priv;
	int nr_auxtrace, nr_aux, nr_itrace;
	struct sonde_record_auxtrace at[8];
	uint64_t at_off[8];
};

/*
 * Walks the data section as perf does (the reader hands out the kernel's
 * records only; AUXTRACE_INFO and AUXTRACE are the file's own).
 */
static void scan(const char *path, struct seen *s)
{
	struct sonde_perfdata_reader *r = sonde_perfdata_reader__open(path, NULL);
	struct sonde_perf_file_header h;
	struct sonde_record_fmt fmt;
	uint64_t off, end;
	int i = 0;

	assert_non_null(r);
	assert_int_equal(sonde_record_fmt__from_attr(&fmt,
			 sonde_perfdata_reader__attr(r, 0)), 0);
	sonde_perfdata_reader__free(r);
	memset(s, 0, sizeof(*s));
	s->info_at = s->first_auxtrace_at = -1;
	file_bytes(path, 0, &h, sizeof(h));
	for (off = h.data.offset, end = off + h.data.size; off < end; i++) {
		_Alignas(8) unsigned char buf[65536];
		struct sonde_perf_event_header eh;
		struct sonde_record d;

		file_bytes(path, off, &eh, sizeof(eh));
		assert_true(eh.size >= 8 && off + eh.size <= end);
		file_bytes(path, off, buf, eh.size);
		assert_int_equal(sonde_record__decode(&fmt, buf, eh.size, &d), 0);
		switch (eh.type) {
		case SONDE_PERF_RECORD_AUXTRACE_INFO:
			s->info_at = i;
			s->info_type = d.auxtrace_info.type;
			s->nr_priv = d.auxtrace_info.nr_priv;
			assert_true(s->nr_priv <= 32);
			memcpy(s->info_priv, d.auxtrace_info.priv, s->nr_priv * 8);
			break;
		case SONDE_PERF_RECORD_AUXTRACE:
			if (s->first_auxtrace_at < 0)
				s->first_auxtrace_at = i;
			assert_true(s->nr_auxtrace < 8);
			s->at_off[s->nr_auxtrace] = off;
			s->at[s->nr_auxtrace++] = d.auxtrace;
			off += d.auxtrace.size; /* the data after it */
			break;
		case SONDE_PERF_RECORD_AUX:
			s->nr_aux++;
			break;
		case SONDE_PERF_RECORD_ITRACE_START:
			s->nr_itrace++;
			break;
		default:
			break;
		}
		off += eh.size;
	}
	assert_int_equal(off, end);
	s->n = i;
}

/* The bytes the PMU wrote: seed, seed + 1, ... */
static void assert_pattern(const unsigned char *p, size_t len, unsigned seed)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != (unsigned char)(seed + i))
			fail_msg("AUX byte %zu is %u, want %u", i, p[i],
				 (unsigned char)(seed + i));
}

/* Reads @len bytes of the data after AUXTRACE record @i (48 bytes) of @path. */
static void auxtrace_data(const char *path, const struct seen *s, int i, void *buf,
			  size_t len)
{
	file_bytes(path, s->at_off[i] + 48, buf, len);
}

/* AUXTRACE record @i's first @len bytes of data are the PMU's from @seed. */
static void assert_auxtrace_pattern(const char *path, const struct seen *s, int i,
				    size_t len, unsigned seed)
{
	unsigned char *data = malloc(len);

	assert_non_null(data);
	auxtrace_data(path, s, i, data, len);
	assert_pattern(data, len, seed);
	free(data);
}

/*
 * sonde report or script (argv[0]) in this process: what it writes to
 * @fd (malloc'd), its exit status in @ret. With @fd 1 its standard error
 * stays the test's; with 2 its standard output is discarded.
 */
static char *sonde_output(const char **argv, int argc, int fd, int *ret)
{
	char path[] = "/tmp/sonde-auxout-XXXXXX";
	int t = mkstemp(path), null = open("/dev/null", O_WRONLY), so, se;
	char *out;
	FILE *f;

	assert_true(t >= 0 && null >= 0);
	fflush(stdout);
	fflush(stderr);
	so = dup(1);
	se = dup(2);
	dup2(fd == 1 ? t : null, 1);
	if (fd == 2)
		dup2(t, 2);
	*ret = strcmp(argv[0], "script") ? cmd_report(argc, argv) :
					    cmd_script(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(so);
	close(se);
	close(null);
	close(t);
	f = fopen(path, "r");
	assert_non_null(f);
	out = cr_slurp(f);
	fclose(f);
	unlink(path);
	return out;
}

/* perf script (-D when @dump) on @path: what it prints on stdout and
 * stderr (malloc'd); pclose()'s status in @st. */
static char *perf_script(const char *path, bool dump, int *st)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "perf script -f%s -i %s 2>&1", dump ? " -D" : "", path);
	return cr_shell(cmd, st);
}

/* perf and sonde agree on report --stats; perf script -D decodes it all. */
static void check_with_readers(const char *path, bool decodable,
			       const char *want_dump)
{
	const char *stats[] = { "report", "--stats", "-i", path, NULL };
	const char *script[] = { "script", "-i", path, NULL };
	const char *rep[] = { "report", "--stdio", "-i", path, NULL };
	char cmd[512], *ours, *theirs;
	int ret, st;

	ours = sonde_output(stats, 4, 1, &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(ours, "AUXTRACE events:"));
	free(sonde_output(script, 3, 1, &ret));
	assert_int_equal(ret, 0);
	free(sonde_output(rep, 4, 1, &ret));
	assert_int_equal(ret, 0);
	if (!have_perf()) {
		print_message("SKIP (part): perf is not installed, no comparison\n");
		free(ours);
		return;
	}
	snprintf(cmd, sizeof(cmd), "perf report -f --stats -i %s 2>/dev/null", path);
	theirs = cr_shell(cmd, &st);
	assert_int_equal(st, 0);
	assert_string_equal(ours, theirs);
	free(theirs);
	free(ours);
	theirs = perf_script(path, true, &st);
	if (decodable) {
		if (st)
			fail_msg("perf script -D failed: %.2000s", theirs);
		assert_null(strstr(theirs, "failed to process"));
		assert_non_null(strstr(theirs, want_dump));
	} else {
		/* perf refuses the UNKNOWN tracer's data, as documented. */
		assert_non_null(strstr(theirs, "failed to process type: 70"));
	}
	free(theirs);
}

static void test_record_full_trace(void **state)
{
	struct scratch t;
	const char *path = t.path;
	const char *argv[] = { "record", "-q", "-N", "-e", "intel_pt//", "-m", ",2",
			       "-o", path, "--", "true", NULL };
	unsigned char data[AREA];
	uint64_t ent[16];
	struct seen s;
	int ret, nidx;

	(void)state;
	scratch_begin(&t, "/tmp/sonde-auxrec-XXXXXX", "pt.data", true);
	ret = run_record(11, argv);
	assert_int_equal(ret, 0);
	assert_int_equal(pmu.nr_aux_fds, 2);
	/* The tracer as perf opens it, its area writable: full trace. */
	{
		const struct fake_aux_fd *f = &fa.fd[pmu.aux_fds[0]];

		assert_int_equal(f->attr.type, FAKE_PT_TYPE);
		assert_int_equal(f->attr.sample_period, 1);
		assert_false(f->attr.freq);
		assert_int_equal(f->aux_len, AREA);
		assert_true(f->aux_prot & PROT_WRITE);
		assert_int_equal(f->attr.aux_watermark, AREA / 4);
	}

	scan(path, &s);
	/* AUXTRACE_INFO first, in perf's intel_pt layout. */
	assert_true(s.info_at >= 0 && s.info_at < s.first_auxtrace_at);
	assert_int_equal(s.info_type, SONDE_AUXTRACE_INTEL_PT);
	assert_int_equal(s.nr_priv, 17);
	assert_int_equal(s.info_priv[0], FAKE_PT_TYPE);   /* PMU type */
	assert_int_equal(s.info_priv[5], 1 << 10);        /* tsc bit */
	assert_int_equal(s.info_priv[6], 1 << 11);        /* noretcomp bit */
	assert_int_equal(s.info_priv[7], 2);              /* switch events, per task */
	assert_int_equal(s.info_priv[8], 0);              /* not a snapshot */
	assert_int_equal(s.info_priv[9], 1);              /* per-CPU areas */
	assert_int_equal(s.info_priv[10], 1 << 9);        /* mtc bit */
	assert_int_equal(s.info_priv[11], 0xfULL << 14);  /* mtc_period bits */
	assert_int_equal(s.info_priv[14], 1 << 1);        /* cyc bit */
	assert_int_equal(s.info_priv[15], 24);            /* max_nonturbo_ratio */
	assert_int_equal(s.info_priv[16], 0);             /* no filter */
	/* The records the PMU put in the rings, passed through. */
	assert_int_equal(s.nr_itrace, 1);
	assert_int_equal(s.nr_aux, 2);
	/* One AUXTRACE per area: CPU 0's 3000 bytes wrap the area's end. */
	assert_int_equal(s.nr_auxtrace, 2);
	assert_int_equal(s.at[0].offset, 7000);
	assert_int_equal(s.at[0].size, 3000);
	assert_int_equal(s.at[0].cpu, 0);
	assert_int_equal(s.at[0].idx, 0);
	assert_int_equal(s.at[0].tid, (uint32_t)pmu.pid);
	assert_auxtrace_pattern(path, &s, 0, 3000, 1);
	assert_int_equal(s.at[1].offset, 0);
	assert_int_equal(s.at[1].size, 104); /* 100, padded to 8 */
	assert_int_equal(s.at[1].cpu, 1);
	assert_int_equal(s.at[1].idx, 1);
	auxtrace_data(path, &s, 1, data, 104);
	assert_pattern(data, 100, 50);
	/* The index perf's decoders use: each AUXTRACE record, 48 bytes. */
	nidx = auxtrace_index(path, ent, 8);
	assert_int_equal(nidx, 2);
	assert_int_equal(ent[0], s.at_off[0]);
	assert_int_equal(ent[1], 48);
	assert_int_equal(ent[2], s.at_off[1]);
	assert_int_equal(ent[3], 48);

	check_with_readers(path, true, ". ... Intel Processor Trace data: size 3000 bytes");
	if (have_perf()) {
		/* Decoding (not dumping) walks the index: it must be right. */
		char cmd[256], *out;
		int st;

		out = perf_script(path, false, &st);
		assert_null(strstr(out, "failed to process"));
		free(out);
		/* The same data in a file perf wrote (its own AUXTRACE index). */
		snprintf(cmd, sizeof(cmd), "perf inject -f -i %s -o %s.perf 2>&1", path, path);
		free(cr_shell(cmd, &st));
		assert_int_equal(st, 0);
		snprintf(cmd, sizeof(cmd), "%s.perf", path);
		check_with_readers(cmd, true, ". ... Intel Processor Trace data: size 3000 bytes");
		unlink(cmd);
	}
	scratch_end(&t);
}

/*
 * -o -: the AUX data inline in the stream, after each AUXTRACE record.
 * perf 6.1 seeks to that data by its offset in the stream, which misses
 * by the pipe header's 16 bytes when stdin is a redirected file (the seek
 * works): it reads through a real pipe here, where the seek fails.
 */
static void test_record_pipe(void **state)
{
	struct scratch t;
	const char *path = t.path;
	const char *argv[] = { "record", "-q", "-N", "-e", "intel_pt//", "-m", ",2",
			       "-o", "-", "--", "true", NULL };
	const char *stats[] = { "report", "--stats", "-i", path, NULL };
	char cmd[256], *ours, *theirs;
	int fd, saved, ret, st;

	(void)state;
	scratch_begin(&t, "/tmp/sonde-auxpipe-XXXXXX", "pipe.data", true);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	fflush(stdout);
	saved = dup(1);
	dup2(fd, 1);
	close(fd);
	ret = run_record(11, argv);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	assert_int_equal(ret, 0);
	ours = sonde_output(stats, 4, 1, &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(ours, "        AUXTRACE events:          2"));
	if (have_perf()) {
		snprintf(cmd, sizeof(cmd), "cat %s | perf report -f --stats -i - 2>/dev/null", path);
		theirs = cr_shell(cmd, &st);
		assert_int_equal(st, 0);
		assert_string_equal(ours, theirs);
		free(theirs);
		snprintf(cmd, sizeof(cmd), "cat %s | perf script -f -D -i - 2>&1", path);
		theirs = cr_shell(cmd, &st);
		assert_int_equal(st, 0);
		assert_null(strstr(theirs, "failed to process"));
		assert_non_null(strstr(theirs, "PERF_RECORD_AUXTRACE_INFO type: 1"));
		assert_non_null(strstr(theirs, ". ... Intel Processor Trace data: size 3000 bytes"));
		assert_non_null(strstr(theirs, ". ... Intel Processor Trace data: size 104 bytes"));
		free(theirs);
	} else {
		print_message("SKIP (part): perf is not installed\n");
	}
	free(ours);
	scratch_end(&t);
}

/*
 * -S: the areas are mapped read-only (the PMU overwrites); the PMU gives
 * aux_head as an offset in the area, as intel_pt does. Bytes 0..999 are
 * there at the start; when record stops the tracer for the SIGUSR2
 * snapshot it writes 500 more; when record stops it at the end it writes
 * a whole area's worth, wrapping to where it was.
 */
static void pmu_snapshot_map(int fd)
{
	pmu.aux_fds[pmu.nr_aux_fds++] = fd;
	if (pmu.nr_aux_fds == 1)
		fake_aux_write(fd, 0, 1000, 3, 1000);
}

static void pmu_snapshot_ioctl(int fd, unsigned long req)
{
	if (!pmu.nr_aux_fds || fd != pmu.aux_fds[0] ||
	    req != SONDE_PERF_EVENT_IOC_DISABLE)
		return;
	if (++pmu.disables == 1) {
		FILE *f;

		fake_aux_write(fd, 1000, 500, 3 + 1000, 1500);
		f = fopen(pmu.mark, "w");
		if (f)
			fclose(f);
	} else if (pmu.disables == 2) {
		fake_aux_write(fd, 1500, AREA, 9, 1500);
	}
}

static void record_snapshot(const char *opt, const char *path, struct seen *s)
{
	char sh[256];
	const char *argv[] = { "record", "-q", "-N", "-e", "intel_pt//", "-m", ",2",
			       opt, "-o", path, "--", "sh", "-c", sh, NULL };

	snprintf(sh, sizeof(sh),
		 "kill -USR2 $PPID; while [ ! -e %s ]; do sleep 0.01; done", pmu.mark);
	assert_int_equal(record_with(pmu_snapshot_map, pmu_snapshot_ioctl, 14, argv), 0);
	assert_int_equal(fa.fd[pmu.aux_fds[0]].aux_prot & PROT_WRITE, 0);
	scan(path, s);
	assert_int_equal(s->info_type, SONDE_AUXTRACE_INTEL_PT);
	assert_int_equal(s->info_priv[8], 1); /* snapshot mode */
	assert_true(s->info_at < s->first_auxtrace_at);
}

static void test_record_snapshot(void **state)
{
	struct scratch t;
	const char *path = t.path;
	struct seen s;

	(void)state;
	scratch_begin(&t, "/tmp/sonde-auxsnap-XXXXXX", "snap.data", false);

	/* -Se: the SIGUSR2 snapshot, then the whole area at the end. */
	record_snapshot("-Se", path, &s);
	assert_int_equal(pmu.disables, 2);
	assert_int_equal(s.nr_auxtrace, 2);
	assert_int_equal(s.at[0].offset, 0);
	assert_int_equal(s.at[0].size, 1504);
	assert_auxtrace_pattern(path, &s, 0, 1500, 3);
	/* Wrapped: the area, oldest byte (just after the head) first. */
	assert_int_equal(s.at[1].offset, 1500);
	assert_int_equal(s.at[1].size, AREA);
	assert_auxtrace_pattern(path, &s, 1, AREA, 9);
	check_with_readers(path, true, ". ... Intel Processor Trace data: size 8192 bytes");
	unlink(path);
	unlink(pmu.mark);

	/* -S: the SIGUSR2 snapshot only. */
	record_snapshot("-S", path, &s);
	assert_int_equal(s.nr_auxtrace, 1);
	assert_int_equal(s.at[0].size, 1504);
	unlink(path);
	unlink(pmu.mark);

	/* -S with a size: the newest 1000 bytes of the snapshot. */
	record_snapshot("-S1000", path, &s);
	assert_int_equal(s.nr_auxtrace, 1);
	assert_int_equal(s.at[0].offset, 500);
	assert_int_equal(s.at[0].size, 1000);
	assert_auxtrace_pattern(path, &s, 0, 1000, 3 + 500);
	unlink(pmu.mark);
	scratch_end(&t);
}

/*
 * perf's intel_pt reference buffer: -Se131072 on a 128 KiB area (over
 * 64 KiB, so perf keeps 2 PSB periods, 4 KiB here, per area). Three
 * snapshots (two SIGUSR2, one at the end); the PMU gives aux_head as an
 * offset in the area and writes, while record has it stopped: 500 bytes;
 * then 100; then almost a whole area, wrapping to offset 1000.
 */
#define BIG (128 * 1024)

static void pmu_ref_ioctl(int fd, unsigned long req)
{
	char mark[160];
	FILE *f;

	if (!pmu.nr_aux_fds || fd != pmu.aux_fds[0] ||
	    req != SONDE_PERF_EVENT_IOC_DISABLE)
		return;
	switch (++pmu.disables) {
	case 1:
		fake_aux_write(fd, 1000, 500, 3 + 1000, 1500);
		break;
	case 2:
		fake_aux_write(fd, 1500, 100, 3 + 1500, 1600);
		break;
	case 3:
		fake_aux_write(fd, 1600, BIG - 600, 11, 1000);
		break;
	default:
		return;
	}
	snprintf(mark, sizeof(mark), "%s%d", pmu.mark, pmu.disables);
	f = fopen(mark, "w");
	if (f)
		fclose(f);
}

static void record_ref(const char *opt, const char *path, struct seen *s)
{
	char sh[512];
	const char *argv[] = { "record", "-q", "-N", "-e", "intel_pt//", "-m", ",32",
			       opt, "-o", path, "--", "sh", "-c", sh, NULL };

	snprintf(sh, sizeof(sh),
		 "kill -USR2 $PPID; while [ ! -e %s1 ]; do sleep 0.01; done; "
		 "kill -USR2 $PPID; while [ ! -e %s2 ]; do sleep 0.01; done",
		 pmu.mark, pmu.mark);
	assert_int_equal(record_with(pmu_snapshot_map, pmu_ref_ioctl, 14, argv), 0);
	assert_int_equal(pmu.disables, 3);
	scan(path, s);
	assert_int_equal(s->nr_auxtrace, 3);
	/* The first snapshot: 1500 bytes, not wrapped either way. */
	assert_int_equal(s->at[0].offset, 0);
	assert_int_equal(s->at[0].size, 1504);
	/* The last: wrapped either way, the whole area from the head on. */
	assert_int_equal(s->at[2].offset, 1000);
	assert_int_equal(s->at[2].size, BIG);
}

static void unlink_marks(void)
{
	char mark[160];

	for (int i = 1; i <= 3; i++) {
		snprintf(mark, sizeof(mark), "%s%d", pmu.mark, i);
		unlink(mark);
	}
}

static void test_record_snapshot_ref(void **state)
{
	struct scratch t;
	const char *path = t.path;
	unsigned char *data;
	struct seen s;

	(void)state;
	scratch_begin(&t, "/tmp/sonde-auxref-XXXXXX", "ref.data", false);
	data = malloc(BIG);
	assert_non_null(data);

	/* -S without a size: no reference buffer; the second snapshot is the
	 * 100 new bytes (the area has not wrapped). */
	record_ref("-Se", path, &s);
	assert_int_equal(s.at[1].offset, 1500);
	assert_int_equal(s.at[1].size, 104);
	unlink(path);
	unlink_marks();

	/*
	 * -Se131072: perf's reference buffer. The second snapshot finds the
	 * area's last 4 KiB unlike its copy (the bytes before the first
	 * snapshot's head: perf 6.1 compares the same region every time), so
	 * it counts as wrapped and stores the whole area, oldest byte after
	 * the head first, as perf does.
	 */
	record_ref("-Se131072", path, &s);
	assert_int_equal(s.at[1].offset, 1600);
	assert_int_equal(s.at[1].size, BIG);
	auxtrace_data(path, &s, 1, data, BIG);
	for (size_t i = 0; i < BIG - 1600; i++)
		if (data[i])
			fail_msg("byte %zu of the area after the head: %u, want 0", i, data[i]);
	assert_pattern(data + BIG - 1600, 1600, 3);
	auxtrace_data(path, &s, 2, data, BIG);
	assert_pattern(data + BIG - 1000, 1000, (unsigned)(11 + BIG - 1600));
	check_with_readers(path, true, ". ... Intel Processor Trace data: size 131072 bytes");
	unlink_marks();
	free(data);
	scratch_end(&t);
}

/*
 * Where a snapshot area shows it wrapped, by PMU as perf 6.1 looks: the
 * PMU gives aux_head as an offset; 0..999 are there at the start, it
 * writes 1000..4999 before the SIGUSR2 snapshot (into the area's last
 * 4 KiB, not its last 512 bytes) and 5000..7999 before the one at the
 * end (the head within the last 512 bytes, nothing written past it).
 */
static void pmu_tail_ioctl(int fd, unsigned long req)
{
	FILE *f;

	if (!pmu.nr_aux_fds || fd != pmu.aux_fds[0] ||
	    req != SONDE_PERF_EVENT_IOC_DISABLE)
		return;
	if (++pmu.disables == 1) {
		fake_aux_write(fd, 1000, 4000, 3 + 1000, 5000);
		f = fopen(pmu.mark, "w");
		if (f)
			fclose(f);
	} else if (pmu.disables == 2) {
		fake_aux_write(fd, 5000, 3000, 3 + 5000, 8000);
	}
}

static void record_tail(const char *ev, const char *path, struct seen *s)
{
	char sh[256];
	const char *argv[] = { "record", "-q", "-N", "-e", ev, "-C", "0", "-m", ",2",
			       "-Se", "-o", path, "--", "sh", "-c", sh, NULL };

	snprintf(sh, sizeof(sh),
		 "kill -USR2 $PPID; while [ ! -e %s ]; do sleep 0.01; done", pmu.mark);
	assert_int_equal(record_with(pmu_snapshot_map, pmu_tail_ioctl, 16, argv), 0);
	assert_int_equal(pmu.disables, 2);
	scan(path, s);
	assert_int_equal(s->nr_auxtrace, 2);
	unlink(path);
	unlink(pmu.mark);
}

static void test_record_snapshot_tail(void **state)
{
	struct scratch t;
	const char *path = t.path;
	const char *arm[] = { "cs_etm//", "arm_spe_0//" };
	struct seen s;

	(void)state;
	scratch_begin(&t, "/tmp/sonde-auxtail-XXXXXX", "tail.data", false);
	/* cs_etm_buffer_has_wrapped(), arm_spe_buffer_has_wrapped(): the
	 * last 512 bytes past the head are zero, so neither has wrapped. */
	for (int i = 0; i < 2; i++) {
		record_tail(arm[i], path, &s);
		assert_int_equal(s.info_type, i ? SONDE_AUXTRACE_ARM_SPE : SONDE_AUXTRACE_CS_ETM);
		assert_int_equal(s.at[0].offset, 0);
		assert_int_equal(s.at[0].size, 5000);
		assert_int_equal(s.at[1].offset, 5000);
		assert_int_equal(s.at[1].size, 3000);
	}
	/* intel_pt looks at the last 4 KiB: wrapped at the first snapshot. */
	record_tail("intel_pt//", path, &s);
	assert_int_equal(s.at[0].offset, 5000);
	assert_int_equal(s.at[0].size, AREA);
	scratch_end(&t);
}

/* --aux-sample: the group's other events sample the area; no AUXTRACE. */
static void test_record_aux_sample(void **state)
{
	struct scratch t;
	const char *path = t.path;
	const char *argv[] = { "record", "-q", "-N", "-e", "{intel_pt//,cpu-clock}",
			       "--aux-sample=8192", "-m", ",2", "-o", path, "--",
			       "true", NULL };
	const struct sonde_perf_event_attr *a;
	struct sonde_perfdata_reader *r;
	struct seen s;

	(void)state;
	scratch_begin(&t, "/tmp/sonde-auxsmp-XXXXXX", "smp.data", true);
	assert_int_equal(run_record(12, argv), 0);
	/* Samples copy from the area: mapped for overwrite, as perf does. */
	assert_int_equal(pmu.nr_aux_fds, 2);
	assert_int_equal(fa.fd[pmu.aux_fds[0]].aux_prot & PROT_WRITE, 0);
	r = sonde_perfdata_reader__open(path, NULL);
	assert_non_null(r);
	assert_int_equal(sonde_perfdata_reader__nr_attrs(r), 3);
	a = sonde_perfdata_reader__attr(r, 0);
	assert_int_equal(a->type, FAKE_PT_TYPE);
	assert_int_equal(a->aux_sample_size, 0);
	a = sonde_perfdata_reader__attr(r, 1);
	assert_int_equal(a->aux_sample_size, 8192);
	assert_true(a->sample_type & SONDE_PERF_SAMPLE_AUX);
	sonde_perfdata_reader__free(r);
	scan(path, &s);
	assert_int_equal(s.info_type, SONDE_AUXTRACE_INTEL_PT);
	assert_int_equal(s.nr_auxtrace, 0);
	unlink(path);

	/* An aux-sample-size term joins the AUX event's group, as in perf. */
	{
		const char *argv2[] = { "record", "-q", "-N", "-e",
					"intel_pt//,cpu-clock/aux-sample-size=64/",
					"-m", ",2", "-o", path, "--", "true", NULL };

		assert_int_equal(run_record(11, argv2), 0);
		r = sonde_perfdata_reader__open(path, NULL);
		assert_non_null(r);
		a = sonde_perfdata_reader__attr(r, 1);
		assert_int_equal(a->aux_sample_size, 64);
		assert_true(a->sample_type & SONDE_PERF_SAMPLE_AUX);
		assert_int_equal(sonde_perfdata_reader__nr_groups(r), 1);
		assert_int_equal(sonde_perfdata_reader__group(r, 0)->leader, 0);
		assert_int_equal(sonde_perfdata_reader__group(r, 0)->nr_members, 2);
		sonde_perfdata_reader__free(r);
	}
	scratch_end(&t);
}

/* Misuse gets perf's answers and exit 129, before anything is opened. */
static void test_record_aux_usage(void **state)
{
	static const char *const bad[][10] = {
		{ "record", "-q", "-S", "-e", "cpu-clock", "-o", "/dev/null", "true" },
		{ "record", "-q", "--aux-sample", "-e", "intel_pt//", "-o", "/dev/null", "true" },
		{ "record", "-q", "--aux-sample=70000", "-e", "{intel_pt//,cpu-clock}",
		  "-o", "/dev/null", "true" },
		{ "record", "-q", "-e", "intel_pt//,cs_etm//", "-o", "/dev/null", "true" },
		{ "record", "-q", "-Sx", "-e", "intel_pt//", "-o", "/dev/null", "true" },
		{ "record", "-q", "-S", "-m", ",2", "-S65536", "-e", "intel_pt//", "true" },
		/* aux-sample-size terms: perf's rules for the group. */
		{ "record", "-q", "-e", "cpu-clock/aux-sample-size=64/", "-o", "/dev/null", "true" },
		{ "record", "-q", "-e", "{cpu-clock/aux-sample-size=64/,intel_pt//}", "-o",
		  "/dev/null", "true" },
		{ "record", "-q", "-e", "{cpu-clock,intel_pt//}", "-o", "/dev/null", "true" },
	};
	const int argc[] = { 8, 8, 8, 7, 8, 9, 7, 7, 7 };

	(void)state;
	fake_aux_sysfs();
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *argv[12] = { 0 };
		int ret;

		memcpy(argv, bad[i], sizeof(bad[i]));
		ret = record_with(NULL, NULL, argc[i], argv);
		if (ret != 129)
			fail_msg("case %zu: exit %d, want 129", i, ret);
	}
	fake_aux_sysfs_remove();
}

/*
 * CPU 0's area fills: the kernel truncates (AUX record flag) and disables
 * the tracer. Once record has read the area it must enable the tracer
 * again, which then writes 500 more bytes.
 */
static void pmu_full_area(int fd)
{
	struct sonde_record rec;
	int n = pmu.nr_aux_fds++;

	pmu.aux_fds[n] = fd;
	pmu.pid = fa.fd[fd].pid;
	if (n)
		return;
	memset(&rec, 0, sizeof(rec));
	fake_aux_write(fd, 0, AREA, 1, AREA);
	rec.type = SONDE_PERF_RECORD_AUX;
	rec.aux.aux_size = AREA;
	rec.aux.flags = SONDE_PERF_AUX_FLAG_TRUNCATED;
	fake_aux_put(fd, &rec);
	pmu.stopped = true;
}

static void pmu_restart(int fd, unsigned long req)
{
	struct sonde_record rec;

	if (req != SONDE_PERF_EVENT_IOC_ENABLE || !pmu.nr_aux_fds ||
	    fd != pmu.aux_fds[0] || !pmu.stopped ||
	    fake_aux_pc(fd)->aux_tail != AREA)
		return;
	pmu.stopped = false;
	pmu.restarts++;
	memset(&rec, 0, sizeof(rec));
	fake_aux_write(fd, AREA, 500, 7, AREA + 500);
	rec.type = SONDE_PERF_RECORD_AUX;
	rec.aux.aux_size = 500;
	rec.aux.flags = SONDE_PERF_AUX_FLAG_PARTIAL | SONDE_PERF_AUX_FLAG_COLLISION;
	fake_aux_put(fd, &rec);
}

/* sonde report in this process: what it says on stderr (malloc'd). */
static char *sonde_report_stderr(const char *path)
{
	const char *argv[] = { "report", "--stdio", "-i", path, NULL };
	char *err;
	int ret;

	err = sonde_output(argv, 4, 2, &ret);
	assert_int_equal(ret, 0);
	return err;
}

/* The "Warning:" blocks about AUX data in @text, in order (malloc'd). */
static char *aux_warnings(const char *text)
{
	char *out = calloc(1, strlen(text) + 1);
	const char *w = text;

	assert_non_null(out);
	while ((w = strstr(w, "Warning:\nAUX data"))) {
		const char *end = strstr(w + 1, "Warning:\n");

		end = end ? end : w + strlen(w);
		strncat(out, w, (size_t)(end - w));
		w = end;
	}
	return out;
}

static void test_record_restarts_stopped_tracer(void **state)
{
	struct scratch t;
	const char *path = t.path;
	const char *argv[] = { "record", "-q", "-N", "-e", "intel_pt//", "-m", ",2",
			       "-o", path, "--", "true", NULL };
	struct seen s;

	(void)state;
	scratch_begin(&t, "/tmp/sonde-auxfull-XXXXXX", "full.data", true);
	assert_int_equal(record_with(pmu_full_area, pmu_restart, 11, argv), 0);
	/* perf intel_pt's wakeup at a quarter of a full-trace area. */
	assert_int_equal(fa.fd[pmu.aux_fds[0]].attr.aux_watermark, AREA / 4);
	assert_int_equal(pmu.restarts, 1);
	scan(path, &s);
	assert_int_equal(s.nr_aux, 2);
	assert_int_equal(s.nr_auxtrace, 2);
	assert_int_equal(s.at[0].cpu, 0);
	assert_int_equal(s.at[0].offset, 0);
	assert_int_equal(s.at[0].size, AREA);
	assert_auxtrace_pattern(path, &s, 0, AREA, 1);
	/* What the restarted tracer wrote. */
	assert_int_equal(s.at[1].cpu, 0);
	assert_int_equal(s.at[1].offset, AREA);
	assert_int_equal(s.at[1].size, 504);
	assert_auxtrace_pattern(path, &s, 1, 500, 7);
	/* report says what the AUX records' flags say, as perf 6.1 does. */
	{
		char *err = sonde_report_stderr(path), *ours = aux_warnings(err);

		assert_non_null(strstr(ours, "Warning:\nAUX data lost 1 times out of 2!\n\n"));
		assert_non_null(strstr(ours, "Warning:\nAUX data had gaps in it 1 times out of 2!\n\n"
					     "Are you running a KVM guest in the background?"));
		assert_non_null(strstr(ours, "Warning:\nAUX data detected collision  1 times out of 2!\n\n"));
		if (have_perf()) {
			char cmd[256], *perf_err, *theirs;
			int st;

			snprintf(cmd, sizeof(cmd), "perf report -f --stdio -i %s 2>&1 >/dev/null", path);
			perf_err = cr_shell(cmd, &st);
			theirs = aux_warnings(perf_err);
			assert_string_equal(ours, theirs);
			free(perf_err);
			free(theirs);
		} else {
			print_message("SKIP (part): perf is not installed, no comparison\n");
		}
		free(err);
		free(ours);
	}
	scratch_end(&t);
}

/*
 * --per-thread: one ring, and AUX area, per thread on any CPU (perf's
 * per-thread mmaps): no inherit, no CPU in the samples, no switch events,
 * AUXTRACE_INFO says per-thread areas, each AUXTRACE record names its
 * thread and CPU -1.
 */
static void check_per_thread(const char *path, int nthreads, const pid_t *tids)
{
	struct seen s;

	assert_int_equal(pmu.nr_aux_fds, nthreads);
	for (int i = 0; i < nthreads; i++) {
		const struct fake_aux_fd *f = &fa.fd[pmu.aux_fds[i]];

		assert_int_equal(f->cpu, -1);
		assert_int_equal(f->pid, tids[i]);
		assert_false(f->attr.inherit);
		assert_int_equal(f->attr.sample_type & SONDE_PERF_SAMPLE_CPU, 0);
	}
	for (int fd = 0; fd < FAKE_AUX_MAXFD; fd++)
		if (fa.fd[fd].open && fa.fd[fd].attr.context_switch)
			fail_msg("fd %d records context switches", fd);
	scan(path, &s);
	assert_int_equal(s.info_type, SONDE_AUXTRACE_INTEL_PT);
	assert_int_equal(s.info_priv[7], 0); /* no switch events */
	assert_int_equal(s.info_priv[9], 0); /* per-thread areas */
	assert_int_equal(s.nr_auxtrace, nthreads);
	for (int i = 0; i < nthreads; i++) {
		assert_int_equal(s.at[i].idx, i);
		assert_int_equal(s.at[i].tid, (uint32_t)tids[i]);
		assert_int_equal(s.at[i].cpu, UINT32_MAX);
	}
	assert_int_equal(s.at[0].offset, 7000);
	assert_int_equal(s.at[0].size, 3000);
	if (nthreads > 1)
		assert_int_equal(s.at[1].size, 104);
	check_with_readers(path, true, ". ... Intel Processor Trace data: size 3000 bytes");
	if (have_perf()) {
		char *out, want[64];
		int st;

		out = perf_script(path, true, &st);
		assert_non_null(strstr(out, "  Per-cpu maps        0\n"));
		snprintf(want, sizeof(want), "tid: %d  cpu: -1", (int)tids[0]);
		assert_non_null(strstr(out, want));
		free(out);
	}
}

/* The threads to record: stop the recording once it has begun. */
static void stop_on_enable(int fd, unsigned long req)
{
	if (req == SONDE_PERF_EVENT_IOC_ENABLE && pmu.nr_aux_fds &&
	    fd == pmu.aux_fds[0] && !pmu.restarts++)
		raise(SIGINT);
}

/*
 * record --per-thread -t of two threads (children that wait), stopped
 * by a SIGINT once the events are enabled; the PMU as pmu_full_trace():
 * the first area's data wraps, the second has 100 bytes.
 */
static void record_two_threads(const char *event, const char *path, pid_t *kids)
{
	char tids[64];
	const char *argv[] = { "record", "-q", "-N", "-e", event, "-m", ",2",
			       "--per-thread", "-t", tids, "-o", path, NULL };

	for (int i = 0; i < 2; i++) {
		kids[i] = fork();
		assert_true(kids[i] >= 0);
		if (!kids[i]) {
			pause();
			_exit(0);
		}
	}
	snprintf(tids, sizeof(tids), "%d,%d", (int)kids[0], (int)kids[1]);
	assert_int_equal(record_with(pmu_full_trace, stop_on_enable, 12, argv), 0);
	for (int i = 0; i < 2; i++) {
		kill(kids[i], SIGKILL);
		waitpid(kids[i], NULL, 0);
	}
}

static void test_record_per_thread(void **state)
{
	struct scratch t;
	const char *path = t.path;
	const char *wl[] = { "record", "-q", "-N", "-e", "intel_pt//", "-m", ",2",
			     "--per-thread", "-o", path, "--", "true", NULL };
	pid_t kids[2];

	(void)state;
	scratch_begin(&t, "/tmp/sonde-auxthr-XXXXXX", "thr.data", false);

	/* The workload: its one thread. */
	assert_int_equal(run_record(12, wl), 0);
	check_per_thread(path, 1, &pmu.pid);
	unlink(path);

	/* -t with two threads: two areas. */
	record_two_threads("intel_pt//", path, kids);
	check_per_thread(path, 2, kids);
	unlink(path);

	/* With -a or -C, CPUs win, as in perf (said, unless -q). */
	{
		const char *ca[] = { "record", "-N", "-e", "intel_pt//", "-m", ",2",
				     "--per-thread", "-a", "-o", path, "--", "true", NULL };
		struct seen s;

		assert_int_equal(run_record(12, ca), 0);
		assert_int_equal(fa.fd[pmu.aux_fds[0]].cpu, 0);
		scan(path, &s);
		assert_int_equal(s.info_priv[9], 1); /* per-CPU areas */
	}
	scratch_end(&t);
}

/*
 * intel_bts writes 24-byte branch records: as perf does, each span's
 * first part ends at its last whole record. The first thread's span wraps: its first
 * part (7000..8191) loses 1192 % 24 = 16 bytes before the area's end,
 * the second (0..1807) is kept; CPU 1's 100 bytes lose 100 % 24 = 4.
 */
static void test_record_bts_whole_records(void **state)
{
	struct scratch t;
	const char *path = t.path;
	const char *percpu[] = { "record", "-q", "-e", "intel_bts//", "-o", path,
				 "--", "true", NULL };
	unsigned char data[AREA];
	struct seen s;
	pid_t kids[2];

	(void)state;
	scratch_begin(&t, "/tmp/sonde-auxbts-XXXXXX", "bts.data", false);
	/* perf's intel_bts takes areas per thread only. */
	assert_int_equal(run_record(8, percpu), 129);
	record_two_threads("intel_bts//", path, kids);
	scan(path, &s);
	assert_int_equal(s.info_type, SONDE_AUXTRACE_INTEL_BTS);
	assert_int_equal(s.nr_auxtrace, 2);
	assert_int_equal(s.at[0].offset, 7000);
	assert_int_equal(s.at[0].size, 1176 + 1808);
	auxtrace_data(path, &s, 0, data, 1176 + 1808);
	assert_pattern(data, 1176, 1);
	assert_pattern(data + 1176, 1808, 1 + 1192);
	assert_int_equal(s.at[1].offset, 0);
	assert_int_equal(s.at[1].size, 96);
	assert_auxtrace_pattern(path, &s, 1, 96, 50);
	check_with_readers(path, true, ". ... Intel BTS data: size 2984 bytes");
	scratch_end(&t);
}

/*
 * cs_etm on CPUs 0 and 1 of the fake sysfs (fake_aux.h: an ETMv4 and an
 * ETE): perf 6.1's AUXTRACE_INFO with each CPU's ETM registers, and the
 * context ID and timestamps perf turns on in per-CPU areas.
 */
static void test_record_cs_etm(void **state)
{
	struct scratch t;
	const char *path = t.path;
	char from[400], to[420];
	const char *argv[] = { "record", "-q", "-N", "-e", "cs_etm/cycacc/", "-C", "0,1",
			       "-m", ",2", "-o", path, "--", "true", NULL };
	/* cycacc as asked; contextid and timestamp added for per-CPU areas. */
	const uint64_t cfg = 1ULL << 12 | 1ULL << 14 | 1ULL << 28;
	const uint64_t v4[] = {
		0x4040404040404040ULL, 0, 7,
		1 << 4 | 1 << 6 | 1 << 11, /* TRCCONFIGR: cycacc, ctxtid, ts */
		0x10, 0x28000ea1, 0x4100f424, 0x20001088, 0, 0xcc,
	};
	const uint64_t ete[] = {
		0x5050505050505050ULL, 1, 8, 1 << 4 | 1 << 6 | 1 << 11, 0x12,
		0x28002ea1, 0x4100fff0, 0x20001088,
		0xffffffff80000001ULL, /* perf passes the u32 through an int */
		0xcc, 0x47725a13,
	};
	struct seen s;

	(void)state;
	scratch_begin(&t, "/tmp/sonde-auxetm-XXXXXX", "etm.data", true);
	assert_int_equal(run_record(13, argv), 0);
	assert_int_equal(fa.fd[pmu.aux_fds[0]].attr.config, cfg);
	assert_true(fa.fd[pmu.aux_fds[0]].attr.sample_type & SONDE_PERF_SAMPLE_CPU);
	scan(path, &s);
	assert_int_equal(s.info_type, SONDE_AUXTRACE_CS_ETM);
	assert_true(s.info_at < s.first_auxtrace_at);
	assert_int_equal(s.nr_priv, 3 + 10 + 11);
	assert_int_equal(s.info_priv[0], 1);                                /* version */
	assert_int_equal(s.info_priv[1], (uint64_t)FAKE_ETM_TYPE << 32 | 2); /* 2 CPUs */
	assert_int_equal(s.info_priv[2], 0);                                /* no snapshot */
	for (size_t i = 0; i < 10; i++)
		if (s.info_priv[3 + i] != v4[i])
			fail_msg("ETMv4 word %zu: %#jx, want %#jx", i,
				 (uintmax_t)s.info_priv[3 + i], (uintmax_t)v4[i]);
	for (size_t i = 0; i < 11; i++)
		if (s.info_priv[13 + i] != ete[i])
			fail_msg("ETE word %zu: %#jx, want %#jx", i,
				 (uintmax_t)s.info_priv[13 + i], (uintmax_t)ete[i]);
	assert_int_equal(s.nr_auxtrace, 2);
	/* perf sets aux_watermark for intel_pt only. */
	assert_int_equal(fa.fd[pmu.aux_fds[0]].attr.aux_watermark, 0);
	/* OpenCSD names the decoder it made last. */
	check_with_readers(path, true, "CoreSight ETE Trace data: size 0xbb8 bytes");
	if (have_perf()) {
		char *out;
		int st;

		/* perf's own reading of the blocks, register by register. */
		out = perf_script(path, true, &st);
		assert_non_null(strstr(out, "\tMagic number\t\t       4040404040404040\n"
					    "\tCPU\t\t\t       0\n"));
		assert_non_null(strstr(out, "\tTRCCONFIGR\t\t       850\n"));
		assert_non_null(strstr(out, "\tTRCIDR8\t\t\t       ffffffff80000001\n"));
		assert_non_null(strstr(out, "\tTRCDEVARCH                     47725a13\n"));
		free(out);
	}
	unlink(path);

	/* CPU 1 without an ETMv4 (no trcidr/): perf refuses per-CPU areas... */
	snprintf(from, sizeof(from), "%s/bus/event_source/devices/cs_etm/cpu1/trcidr", fa.sysfs);
	snprintf(to, sizeof(to), "%s.off", from);
	assert_int_equal(rename(from, to), 0);
	{
		/* A fresh argv: the option parser reorders the one it had. */
		const char *again[] = { "record", "-q", "-N", "-e", "cs_etm//", "-C", "0,1",
					"-m", ",2", "-o", path, "--", "true", NULL };

		assert_int_equal(run_record(13, again), 1);
	}
	assert_int_equal(access(path, F_OK), -1);
	/* ...but areas per thread need neither context IDs nor timestamps. */
	{
		const char *pt[] = { "record", "-q", "-N", "-e", "cs_etm//", "--per-thread",
				     "-m", ",2", "-o", path, "--", "true", NULL };

		assert_int_equal(run_record(12, pt), 0);
		assert_int_equal(fa.fd[pmu.aux_fds[0]].attr.config, 0);
		scan(path, &s);
		assert_int_equal(s.info_type, SONDE_AUXTRACE_CS_ETM);
	}
	assert_int_equal(rename(to, from), 0);
	scratch_end(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_full_trace),
		cmocka_unit_test(test_record_pipe),
		cmocka_unit_test(test_record_snapshot),
		cmocka_unit_test(test_record_snapshot_ref),
		cmocka_unit_test(test_record_snapshot_tail),
		cmocka_unit_test(test_record_aux_sample),
		cmocka_unit_test(test_record_aux_usage),
		cmocka_unit_test(test_record_restarts_stopped_tracer),
		cmocka_unit_test(test_record_per_thread),
		cmocka_unit_test(test_record_bts_whole_records),
		cmocka_unit_test(test_record_cs_etm),
	};

	/* The snapshot test's workload signals us; record installs the
	 * handler, but not before the first test. */
	signal(SIGUSR2, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
