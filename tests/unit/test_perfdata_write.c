// SPDX-License-Identifier: LGPL-2.1-only
/*
 * perf.data writer: attr sizing, the file layout (header written last,
 * feature table right after the data), pipe framing, abandoning, and a
 * write error in the middle (RLIMIT_FSIZE) that must leave a file valid up
 * to the last complete round.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "sonde/sonde.h"
#include "sonde/perfdata.h"

static char dir[] = "/tmp/sonde-pdw-XXXXXX";
static char path[256];

static int setup(void **state)
{
	(void)state;
	strcpy(dir, "/tmp/sonde-pdw-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/t.data", dir);
	return 0;
}

static int teardown(void **state)
{
	char old[300];

	(void)state;
	snprintf(old, sizeof(old), "%s.old", path);
	unlink(path);
	unlink(old);
	rmdir(dir);
	return 0;
}

static void base_attr(struct sonde_perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = SONDE_PERF_TYPE_SOFTWARE;
	a->config = SONDE_PERF_COUNT_SW_TASK_CLOCK;
	a->sample_type = SONDE_PERF_SAMPLE_IP | SONDE_PERF_SAMPLE_TID |
			 SONDE_PERF_SAMPLE_TIME | SONDE_PERF_SAMPLE_PERIOD;
	a->sample_freq = 4000;
	a->freq = 1;
	a->sample_id_all = 1;
}

static void test_attr_size(void **state)
{
	struct sonde_perf_event_attr a;

	(void)state;
	base_attr(&a);
	assert_int_equal(sonde_perfdata_attr_size(&a), 64);
	a.config2 = 1;
	assert_int_equal(sonde_perfdata_attr_size(&a), 72);
	a.sample_regs_user = 0xff0fff;
	assert_int_equal(sonde_perfdata_attr_size(&a), 96);
	a.sig_data = 1;
	assert_int_equal(sonde_perfdata_attr_size(&a), 128);
}

/* A sample: IP, pid/tid, time, period. */
struct sample {
	struct sonde_perf_event_header h;
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time, period;
};

static void *slurp(const char *p, size_t *len)
{
	FILE *f = fopen(p, "r");
	char *buf;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void test_file_layout(void **state)
{
	const char *argv[] = { "sonde", "record", "-a", NULL };
	SONDE_OPTS(sonde_perfdata_writer_opts, o, .cmdline = argv);
	struct sonde_perfdata_writer *w;
	struct sonde_perf_event_attr a;
	struct sonde_perf_file_header h;
	struct sonde_perfdata_writer_stats st;
	uint64_t ids[2] = { 11, 12 };
	struct sample s = { .h = { SONDE_PERF_RECORD_SAMPLE, 2, sizeof(s) },
			    .ip = 0x1234, .pid = 1, .tid = 1, .period = 1 };
	struct stat sb;
	unsigned char *buf;
	size_t len;

	(void)state;
	w = sonde_perfdata_writer__new(path, &o);
	assert_non_null(w);
	assert_int_equal(stat(path, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0600);
	base_attr(&a);
	assert_int_equal(sonde_perfdata_writer__add_event(w, &a, "task-clock"), 0);
	assert_int_equal(sonde_perfdata_writer__add_ids(w, 0, ids, 2), 0);
	assert_int_equal(sonde_perfdata_writer__begin(w), 0);
	assert_int_equal(sonde_perfdata_writer__add_ids(w, 0, ids, 2), -EBUSY);
	for (int i = 0; i < 10; i++) {
		s.time = 1000 + (uint64_t)i;
		assert_int_equal(sonde_perfdata_writer__write(w, &s.h), 0);
		if (i % 3 == 2)
			assert_int_equal(sonde_perfdata_writer__finish_round(w), 0);
	}
	/* Until close the header is all zeros: never a header that lies. */
	buf = slurp(path, &len);
	memset(&h, 0xff, sizeof(h));
	if (len >= sizeof(h))
		memcpy(&h, buf, sizeof(h));
	else
		memset(&h, 0, sizeof(h));
	assert_int_equal(h.magic, 0);
	free(buf);
	sonde_perfdata_writer__stats(w, &st);
	assert_int_equal(st.samples, 10);
	assert_int_equal(st.first_time, 1000);
	assert_int_equal(st.last_time, 1009);
	assert_int_equal(sonde_perfdata_writer__finish(w), 0);

	buf = slurp(path, &len);
	memcpy(&h, buf, sizeof(h));
	assert_int_equal(h.magic, SONDE_PERFDATA_MAGIC);
	assert_int_equal(h.size, 104);
	assert_int_equal(h.attr_size, 64 + 16);
	assert_int_equal(h.attrs.size, 80);
	/* ids right after the header, then the attr pointing at them */
	assert_memory_equal(buf + 104, ids, 16);
	assert_int_equal(h.attrs.offset, 120);
	{
		struct sonde_perf_file_section ids_sec;

		memcpy(&ids_sec, buf + h.attrs.offset + 64, sizeof(ids_sec));
		assert_int_equal(ids_sec.offset, 104);
		assert_int_equal(ids_sec.size, 16);
	}
	/* 10 samples + 3 round marks */
	assert_int_equal(h.data.size, 10 * sizeof(s) + 3 * 8);
	/* HOSTNAME, CMDLINE, EVENT_DESC, SAMPLE_TIME set; no tracing data */
	assert_true(h.adds_features[0] & (1ULL << SONDE_FEAT_HOSTNAME));
	assert_true(h.adds_features[0] & (1ULL << SONDE_FEAT_CMDLINE));
	assert_true(h.adds_features[0] & (1ULL << SONDE_FEAT_EVENT_DESC));
	assert_true(h.adds_features[0] & (1ULL << SONDE_FEAT_SAMPLE_TIME));
	assert_false(h.adds_features[0] & (1ULL << SONDE_FEAT_TRACING_DATA));
	/* No event samples branch stacks (test_record_branch has one that does). */
	assert_false(h.adds_features[0] & (1ULL << SONDE_FEAT_BRANCH_STACK));
	{
		/* The feature table follows the data; HOSTNAME is first. */
		struct sonde_perf_file_section fs;
		uint32_t slen;
		uint64_t feat_off = h.data.offset + h.data.size;

		memcpy(&fs, buf + feat_off, sizeof(fs));
		assert_true(fs.offset + fs.size <= len);
		memcpy(&slen, buf + fs.offset, 4);
		assert_int_equal(slen % 64, 0);
		assert_int_equal(fs.size, 4 + slen);
	}
	free(buf);
}

static void write_file(const char *p, const char *text)
{
	int fd = open(p, O_CREAT | O_WRONLY | O_TRUNC, 0644);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static bool file_is(const char *p, const char *text)
{
	char buf[64] = "";
	int fd = open(p, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n == (ssize_t)strlen(text) && !memcmp(buf, text, (size_t)n);
}

/* An abandoned recording (the command did not run) destroys nothing. */
static void test_keep_old_and_abandon(void **state)
{
	SONDE_OPTS(sonde_perfdata_writer_opts, o, .keep_old = true);
	struct sonde_perfdata_writer *w;
	char old[300];

	(void)state;
	snprintf(old, sizeof(old), "%s.old", path);
	write_file(path, "previous");
	write_file(old, "older");
	w = sonde_perfdata_writer__new(path, &o);
	assert_non_null(w);
	sonde_perfdata_writer__free(w);
	assert_true(file_is(path, "previous"));
	assert_true(file_is(old, "older"));
	unlink(old);
}

/* A complete recording rotates: FILE -> FILE.old, the new data -> FILE. */
static void test_keep_old_rotates_at_close(void **state)
{
	SONDE_OPTS(sonde_perfdata_writer_opts, o, .keep_old = true);
	struct sonde_perfdata_writer *w;
	struct sonde_perf_event_attr a;
	struct sonde_perf_file_header h;
	char old[300];
	int fd;

	(void)state;
	snprintf(old, sizeof(old), "%s.old", path);
	write_file(path, "previous");
	write_file(old, "older");
	w = sonde_perfdata_writer__new(path, &o);
	assert_non_null(w);
	base_attr(&a);
	assert_int_equal(sonde_perfdata_writer__add_event(w, &a, "cycles"), 0);
	/* Until close, FILE is the previous recording. */
	assert_true(file_is(path, "previous"));
	assert_int_equal(sonde_perfdata_writer__finish(w), 0);
	assert_true(file_is(old, "previous"));
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(read(fd, &h, sizeof(h)), (ssize_t)sizeof(h));
	close(fd);
	assert_int_equal(h.magic, SONDE_PERFDATA_MAGIC);
	unlink(old);
}

static void test_pipe_framing(void **state)
{
	SONDE_OPTS(sonde_perfdata_writer_opts, o);
	struct sonde_perfdata_writer *w;
	struct sonde_perf_event_attr a;
	struct sample s = { .h = { SONDE_PERF_RECORD_SAMPLE, 2, sizeof(s) } };
	unsigned char buf[65536];
	size_t len = 0, off;
	uint64_t ph[2], feat = 0;
	/* Bit 0x800 of an id is PERF_SAMPLE_BRANCH_CALL_STACK if misread. */
	const uint64_t ids[2] = { 0x800, 0x8000000000000801ULL };
	int p[2], feats = 0, idx;
	ssize_t n;

	(void)state;
	assert_int_equal(pipe(p), 0);
	w = sonde_perfdata_writer__new_fd(p[1], &o);
	assert_non_null(w);
	base_attr(&a);
	idx = sonde_perfdata_writer__add_event(w, &a, "task-clock");
	assert_int_equal(sonde_perfdata_writer__add_ids(w, idx, ids, 2), 0);
	assert_int_equal(sonde_perfdata_writer__begin(w), 0);
	sonde_perfdata_writer__write(w, &s.h);
	sonde_perfdata_writer__finish_round(w);
	assert_int_equal(sonde_perfdata_writer__finish(w), 0);
	close(p[1]);
	while ((n = read(p[0], buf + len, sizeof(buf) - len)) > 0)
		len += (size_t)n;
	close(p[0]);
	memcpy(ph, buf, 16);
	assert_int_equal(ph[0], SONDE_PERFDATA_MAGIC);
	assert_int_equal(ph[1], 16);
	off = 16;
	{
		struct sonde_perf_event_header h;

		struct sonde_perf_event_attr got;
		uint64_t got_ids[2];

		memcpy(&h, buf + off, 8);
		assert_int_equal(h.type, SONDE_PERF_RECORD_HEADER_ATTR);
		/*
		 * perf 6.1 finds the ids after its own 128-byte attr whatever
		 * attr.size says: a 64-byte attr would put them in config2
		 * and branch_sample_type (0x800: branch call stack, a crash).
		 */
		assert_int_equal(h.size, 8 + 128 + 2 * 8);
		memcpy(&got, buf + off + 8, sizeof(got));
		assert_int_equal(got.size, 128);
		assert_int_equal(got.config2, 0);
		assert_int_equal(got.branch_sample_type, 0);
		memcpy(got_ids, buf + off + 8 + 128, sizeof(got_ids));
		assert_int_equal(got_ids[0], ids[0]);
		assert_int_equal(got_ids[1], ids[1]);
		off += h.size;
		for (;;) {
			memcpy(&h, buf + off, 8);
			assert_true(h.size >= 8 && off + h.size <= len);
			if (h.type != SONDE_PERF_RECORD_HEADER_FEATURE)
				break;
			memcpy(&feat, buf + off + 8, 8);
			feats++;
			off += h.size;
		}
		/* The last feature record is the perf 6.1 end marker. */
		assert_int_equal(feat, SONDE_FEAT_LAST_61);
		assert_true(feats > 5);
		assert_int_equal(h.type, SONDE_PERF_RECORD_SAMPLE);
		off += h.size;
		memcpy(&h, buf + off, 8);
		assert_int_equal(h.type, SONDE_PERF_RECORD_FINISHED_ROUND);
		assert_int_equal(off + 8, len);
	}
}

/*
 * Child: RLIMIT_FSIZE stops the writes partway; close() keeps the rounds
 * that reached the disk. Exit 0 when the failure was reported.
 */
static int fsize_child(void)
{
	struct rlimit rl = { 200000, 200000 };
	struct sonde_perfdata_writer *w;
	struct sonde_perf_event_attr a;
	struct sample s = { .h = { SONDE_PERF_RECORD_SAMPLE, 2, sizeof(s) } };
	int err = 0;

	signal(SIGXFSZ, SIG_IGN);
	sonde_set_print(NULL);
	setrlimit(RLIMIT_FSIZE, &rl);
	w = sonde_perfdata_writer__new(path, NULL);
	if (!w)
		return 2;
	base_attr(&a);
	sonde_perfdata_writer__add_event(w, &a, "task-clock");
	if (sonde_perfdata_writer__begin(w))
		return 3;
	for (int i = 0; i < 100000 && !err; i++) {
		s.time = (uint64_t)i;
		err = sonde_perfdata_writer__write(w, &s.h);
		if (!err && i % 1000 == 999)
			err = sonde_perfdata_writer__finish_round(w);
	}
	if (err != -EFBIG)
		return 4;
	return sonde_perfdata_writer__finish(w) == -EFBIG ? 0 : 5;
}

static void test_write_error_keeps_rounds(void **state)
{
	struct sonde_perf_file_header h;
	unsigned char *buf;
	size_t len;
	pid_t pid;
	int status;

	(void)state;
	pid = fork();
	if (!pid)
		_exit(fsize_child());
	waitpid(pid, &status, 0);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	buf = slurp(path, &len);
	assert_true(len <= 200000);
	memcpy(&h, buf, sizeof(h));
	assert_int_equal(h.magic, SONDE_PERFDATA_MAGIC);
	/* Whole rounds only: (1000 samples + mark) each, nothing half done. */
	assert_true(h.data.size > 0);
	assert_int_equal(h.data.size % (1000 * sizeof(struct sample) + 8), 0);
	assert_true(h.data.offset + h.data.size <= len);
	free(buf);
}

/* AUX bytes land as AUXTRACE + padded payload inside the data section. */
static void test_aux_record(void **state)
{
	struct sonde_perfdata_writer *w;
	struct sonde_perf_event_attr a;
	struct sonde_perfdata_aux where = { .offset = 4096, .idx = 1,
					    .tid = 7, .cpu = 1 };
	struct sonde_perf_file_header h;
	unsigned char data[13], *buf;
	uint64_t body[3];
	size_t len;

	(void)state;
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (unsigned char)(0xa0 + i);
	w = sonde_perfdata_writer__new(path, NULL);
	assert_non_null(w);
	base_attr(&a);
	sonde_perfdata_writer__add_event(w, &a, "task-clock");
	assert_int_equal(sonde_perfdata_writer__begin(w), 0);
	assert_int_equal(sonde_perfdata_writer__write_aux(w, data, sizeof(data), &where), 0);
	assert_int_equal(sonde_perfdata_writer__finish_round(w), 0);
	assert_int_equal(sonde_perfdata_writer__finish(w), 0);
	buf = slurp(path, &len);
	memcpy(&h, buf, sizeof(h));
	/* 48-byte record + 16 bytes of padded data + round mark */
	assert_int_equal(h.data.size, 48 + 16 + 8);
	{
		struct sonde_perf_event_header rh;

		memcpy(&rh, buf + h.data.offset, 8);
		assert_int_equal(rh.type, SONDE_PERF_RECORD_AUXTRACE);
		assert_int_equal(rh.size, 48);
		memcpy(body, buf + h.data.offset + 8, sizeof(body));
		assert_int_equal(body[0], 16); /* padded size */
		assert_int_equal(body[1], 4096);
		assert_memory_equal(buf + h.data.offset + 48, data, sizeof(data));
	}
	free(buf);
}

/* The AUXTRACE feature section of @buf's file: {count, entries...}. */
static const uint64_t *auxtrace_feature(const unsigned char *buf,
					const struct sonde_perf_file_header *h)
{
	struct sonde_perf_file_section sec;
	int before = 0;

	if (!(h->adds_features[0] & (1ULL << SONDE_FEAT_AUXTRACE)))
		return NULL;
	for (int b = 0; b < SONDE_FEAT_AUXTRACE; b++)
		before += !!(h->adds_features[0] & (1ULL << b));
	memcpy(&sec, buf + h->data.offset + h->data.size + before * sizeof(sec),
	       sizeof(sec));
	return (const uint64_t *)(buf + sec.offset);
}

/*
 * A span that wraps the area is one AUXTRACE record with both parts; a
 * file gets the AUXTRACE feature indexing every AUXTRACE record (perf's
 * decoders find them through it), a pipe gets none.
 */
static void test_aux_span_index(void **state)
{
	struct sonde_perfdata_writer *w;
	struct sonde_perf_event_attr a;
	struct sonde_perfdata_aux where = { .offset = 1000, .cpu = 1 };
	unsigned char part1[5] = { 1, 2, 3, 4, 5 }, part2[11], *buf;
	struct sonde_aux_span span = {
		.offset = 1000, .size = 16, .data = { part1, part2 },
		.len = { 5, 11 },
	};
	struct sonde_perf_file_header h;
	const uint64_t *idx;
	uint64_t body[3];
	size_t len;

	(void)state;
	for (size_t i = 0; i < sizeof(part2); i++)
		part2[i] = (unsigned char)(6 + i);
	w = sonde_perfdata_writer__new(path, NULL);
	assert_non_null(w);
	base_attr(&a);
	sonde_perfdata_writer__add_event(w, &a, "task-clock");
	assert_int_equal(sonde_perfdata_writer__write_aux_span(w, &span, &where), -EINVAL);
	assert_int_equal(sonde_perfdata_writer__begin(w), 0);
	assert_int_equal(sonde_perfdata_writer__write_aux_span(w, &span, &where), 0);
	assert_int_equal(sonde_perfdata_writer__finish_round(w), 0);
	where.offset = 1016;
	assert_int_equal(sonde_perfdata_writer__write_aux(w, part1, 3, &where), 0);
	assert_int_equal(sonde_perfdata_writer__finish_round(w), 0);
	assert_int_equal(sonde_perfdata_writer__finish(w), 0);
	buf = slurp(path, &len);
	memcpy(&h, buf, sizeof(h));
	memcpy(body, buf + h.data.offset + 8, sizeof(body));
	assert_int_equal(body[0], 16);
	assert_int_equal(body[1], 1000);
	for (int i = 0; i < 16; i++)
		assert_int_equal(buf[h.data.offset + 48 + i], i + 1);
	idx = auxtrace_feature(buf, &h);
	assert_non_null(idx);
	assert_int_equal(idx[0], 2);
	assert_int_equal(idx[1], h.data.offset);
	assert_int_equal(idx[2], 48);
	/* After the first record, its data and the round mark. */
	assert_int_equal(idx[3], h.data.offset + 48 + 16 + 8);
	assert_int_equal(idx[4], 48);
	free(buf);

	/* A pipe: the same records inline, no index. */
	{
		int fd = open(path, O_WRONLY | O_TRUNC);
		SONDE_OPTS(sonde_perfdata_writer_opts, wo, .pipe = true);

		assert_true(fd >= 0);
		w = sonde_perfdata_writer__new_fd(fd, &wo);
		assert_non_null(w);
		sonde_perfdata_writer__add_event(w, &a, "task-clock");
		assert_int_equal(sonde_perfdata_writer__begin(w), 0);
		assert_int_equal(sonde_perfdata_writer__write_aux_span(w, &span, &where), 0);
		assert_int_equal(sonde_perfdata_writer__finish(w), 0);
		close(fd);
	}
	{
		struct sonde_perfdata_reader *r = sonde_perfdata_reader__open(path, NULL);
		struct sonde_perfdata_record rec;

		assert_non_null(r);
		assert_true(sonde_perfdata_reader__is_pipe(r));
		while (sonde_perfdata_reader__next(r, &rec) > 0)
			;
		assert_int_equal(sonde_perfdata_reader__nr_records(r, SONDE_PERF_RECORD_AUXTRACE), 1);
		assert_false(sonde_perfdata_reader__has_feature(r, SONDE_FEAT_AUXTRACE));
		sonde_perfdata_reader__free(r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attr_size),
		cmocka_unit_test_setup_teardown(test_file_layout, setup, teardown),
		cmocka_unit_test_setup_teardown(test_keep_old_and_abandon, setup, teardown),
		cmocka_unit_test_setup_teardown(test_keep_old_rotates_at_close, setup, teardown),
		cmocka_unit_test(test_pipe_framing),
		cmocka_unit_test_setup_teardown(test_write_error_keeps_rounds, setup, teardown),
		cmocka_unit_test_setup_teardown(test_aux_record, setup, teardown),
		cmocka_unit_test_setup_teardown(test_aux_span_index, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
