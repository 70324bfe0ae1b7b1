// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde_perfdata_writer__writev(): batches of whole records, split across
 * buffers anywhere (as a ring's wrap splits them), give the same file and
 * pipe stream, byte for byte, as one __write() per record; short writes
 * and EINTR (from the writev(2) below, which the writer's calls reach)
 * resume where they stopped; a batch that does not hold whole records is
 * refused untouched; a failing disk keeps the complete rounds.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include "sonde/sonde.h"
#include "sonde/perfdata.h"

/* ---- writev(2) with short writes, EINTR and a full disk on demand ---- */

static struct {
	int fd;            /* the fd to misbehave on, -1: none */
	size_t cap;        /* at most this much per call (0: no cap) */
	int eintr_every;   /* every Nth call fails with EINTR (0: never) */
	size_t room;       /* bytes until ENOSPC (0: unlimited) */
	int calls, short_calls, eintrs, multi_buf;
	size_t written;
} wv = { .fd = -1 };

/* Default visibility: libsonde.so's calls must reach it too. */
__attribute__((visibility("default")))
ssize_t writev(int fd, const struct iovec *iov, int iovcnt)
{
	struct iovec v[64];
	size_t want = 0, allow;
	ssize_t n;
	int k = 0;

	if (fd != wv.fd)
		return syscall(SYS_writev, fd, iov, iovcnt);
	wv.calls++;
	if (wv.eintr_every && wv.calls % wv.eintr_every == 0) {
		wv.eintrs++;
		errno = EINTR;
		return -1;
	}
	for (int i = 0; i < iovcnt; i++)
		want += iov[i].iov_len;
	allow = want;
	if (wv.cap && allow > wv.cap)
		allow = wv.cap;
	if (wv.room) {
		if (wv.written >= wv.room) {
			errno = ENOSPC;
			return -1;
		}
		if (allow > wv.room - wv.written)
			allow = wv.room - wv.written;
	}
	wv.multi_buf += iovcnt > 1;
	/* The first @allow bytes of @iov. */
	for (int i = 0; i < iovcnt && allow && k < 64; i++) {
		size_t take = iov[i].iov_len < allow ? iov[i].iov_len : allow;

		v[k].iov_base = iov[i].iov_base;
		v[k++].iov_len = take;
		allow -= take;
	}
	n = syscall(SYS_writev, fd, v, k);
	if (n > 0) {
		wv.written += (size_t)n;
		wv.short_calls += (size_t)n < want;
	}
	return n;
}

/* ---- a stream of records like a ring's ---- */

#define NR_RECS 400
static unsigned char stream[NR_RECS * 9000];
static size_t rec_off[NR_RECS + 1];

/*
 * DWARF-sized samples (IP, TID, TIME, PERIOD, then stack bytes), with a
 * small side-band record, a LOST and a LOST_SAMPLES among them.
 */
static void make_stream(void)
{
	size_t off = 0;

	for (unsigned i = 0; i < NR_RECS; i++) {
		struct sonde_perf_event_header h = { .misc = 2 };
		uint64_t body[4] = { 0x400000 + i, (uint64_t)i << 32 | i,
				     1000 + i, 1 };

		rec_off[i] = off;
		if (i % 37 == 5) {
			h.type = SONDE_PERF_RECORD_LOST;
			h.size = 32;
			body[1] = 3; /* lost count */
		} else if (i % 53 == 7) {
			h.type = SONDE_PERF_RECORD_LOST_SAMPLES;
			h.size = 24;
			body[0] = 5;
		} else if (i % 11 == 3) {
			h.type = SONDE_PERF_RECORD_COMM;
			h.size = 40;
		} else {
			h.type = SONDE_PERF_RECORD_SAMPLE;
			h.size = (uint16_t)(40 + 8 * (i * 131 % 1100));
		}
		memcpy(stream + off, &h, 8);
		memcpy(stream + off + 8, body, h.size - 8 < 32 ? h.size - 8 : 32);
		for (size_t b = 40; b < h.size; b++)
			stream[off + b] = (unsigned char)(i * 7 + b);
		off += h.size;
	}
	rec_off[NR_RECS] = off;
}

/* Passes: records [pass_start[p], pass_start[p + 1]) end with a round. */
static const unsigned pass_start[] = { 0, 1, 9, 60, 61, 200, 333, NR_RECS };
#define NR_PASSES (sizeof(pass_start) / sizeof(pass_start[0]) - 1)

static struct sonde_perfdata_writer *new_writer(const char *p, int fd,
						bool pipe)
{
	SONDE_OPTS(sonde_perfdata_writer_opts, o, .pipe = pipe);
	struct sonde_perfdata_writer *w;
	struct sonde_perf_event_attr a;

	w = fd >= 0 ? sonde_perfdata_writer__new_fd(fd, &o) :
		      sonde_perfdata_writer__new(p, &o);
	assert_non_null(w);
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = SONDE_PERF_TYPE_SOFTWARE;
	a.config = SONDE_PERF_COUNT_SW_CPU_CLOCK;
	a.sample_type = SONDE_PERF_SAMPLE_IP | SONDE_PERF_SAMPLE_TID |
			SONDE_PERF_SAMPLE_TIME | SONDE_PERF_SAMPLE_PERIOD;
	a.sample_id_all = 1;
	assert_true(sonde_perfdata_writer__add_event(w, &a, "cpu-clock") >= 0);
	assert_int_equal(sonde_perfdata_writer__begin(w), 0);
	return w;
}

/* The reference: one __write() per record. */
static void write_per_record(struct sonde_perfdata_writer *w)
{
	for (size_t p = 0; p < NR_PASSES; p++) {
		for (unsigned i = pass_start[p]; i < pass_start[p + 1]; i++)
			assert_int_equal(sonde_perfdata_writer__write(w,
				(const void *)(stream + rec_off[i])), 0);
		assert_int_equal(sonde_perfdata_writer__finish_round(w), 0);
	}
}

/*
 * Each pass as batches of about @batch bytes of whole records, each batch
 * in two buffers cut at an odd offset, mid-record, as a ring wrap cuts.
 * Returns the first error.
 */
static int write_batched(struct sonde_perfdata_writer *w, size_t batch)
{
	int err = 0;

	for (size_t p = 0; p < NR_PASSES && !err; p++) {
		unsigned i = pass_start[p];

		while (i < pass_start[p + 1] && !err) {
			unsigned j = i;
			struct iovec iov[2];
			size_t len, cut;

			while (j < pass_start[p + 1] &&
			       rec_off[j] - rec_off[i] < batch)
				j++;
			len = rec_off[j] - rec_off[i];
			cut = len > 12 ? len / 3 + 4 : len;
			iov[0].iov_base = stream + rec_off[i];
			iov[0].iov_len = cut;
			iov[1].iov_base = stream + rec_off[i] + cut;
			iov[1].iov_len = len - cut;
			err = sonde_perfdata_writer__writev(w, iov, 2);
			i = j;
		}
		if (!err)
			err = sonde_perfdata_writer__finish_round(w);
	}
	return err;
}

static char dir[] = "/tmp/sonde-pdwv-XXXXXX";
static char ref_path[300], got_path[300];

static int setup(void **state)
{
	(void)state;
	strcpy(dir, "/tmp/sonde-pdwv-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(ref_path, sizeof(ref_path), "%s/ref.data", dir);
	snprintf(got_path, sizeof(got_path), "%s/got.data", dir);
	make_stream();
	memset(&wv, 0, sizeof(wv));
	wv.fd = -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	wv.fd = -1;
	unlink(ref_path);
	unlink(got_path);
	rmdir(dir);
	return 0;
}

static unsigned char *slurp(const char *p, size_t *len)
{
	struct stat sb;
	unsigned char *buf;
	int fd = open(p, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &sb), 0);
	buf = malloc((size_t)sb.st_size + 1);
	assert_non_null(buf);
	assert_int_equal(read(fd, buf, (size_t)sb.st_size), sb.st_size);
	close(fd);
	*len = (size_t)sb.st_size;
	return buf;
}

static void assert_same_files(void)
{
	size_t la, lb;
	unsigned char *a = slurp(ref_path, &la), *b = slurp(got_path, &lb);

	assert_int_equal(la, lb);
	assert_memory_equal(a, b, la);
	free(a);
	free(b);
}

static void assert_same_stats(const struct sonde_perfdata_writer_stats *x,
			      const struct sonde_perfdata_writer_stats *y)
{
	assert_int_equal(x->bytes, y->bytes);
	assert_int_equal(x->samples, y->samples);
	assert_int_equal(x->lost, y->lost);
	assert_int_equal(x->lost_samples, y->lost_samples);
	assert_int_equal(x->first_time, y->first_time);
	assert_int_equal(x->last_time, y->last_time);
}

/* Large batches (written from our buffers) and small (copied) alike. */
static void test_same_file_as_per_record(void **state)
{
	static const size_t batches[] = { 100, 5000, 40000, 70000, 1 << 20 };
	struct sonde_perfdata_writer_stats ref, got;
	struct sonde_perfdata_writer *w;

	(void)state;
	w = new_writer(ref_path, -1, false);
	write_per_record(w);
	sonde_perfdata_writer__stats(w, &ref);
	assert_int_equal(sonde_perfdata_writer__finish(w), 0);
	assert_true(ref.samples > 200);
	assert_true(ref.lost > 0 && ref.lost_samples > 0);
	for (size_t b = 0; b < sizeof(batches) / sizeof(batches[0]); b++) {
		w = new_writer(got_path, -1, false);
		assert_int_equal(write_batched(w, batches[b]), 0);
		sonde_perfdata_writer__stats(w, &got);
		assert_int_equal(sonde_perfdata_writer__finish(w), 0);
		assert_same_stats(&ref, &got);
		assert_same_files();
	}
}

/*
 * Short writes that end mid-buffer and mid-record, and EINTR, in file and
 * pipe mode: every byte still goes out once, in order.
 */
static void test_short_writes_and_eintr(void **state)
{
	(void)state;
	for (int pipe = 0; pipe < 2; pipe++) {
		struct sonde_perfdata_writer *w;
		int fd;

		fd = open(ref_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		assert_true(fd >= 0);
		w = new_writer(NULL, fd, pipe);
		write_per_record(w);
		assert_int_equal(sonde_perfdata_writer__finish(w), 0);
		close(fd);

		fd = open(got_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		assert_true(fd >= 0);
		w = new_writer(NULL, fd, pipe);
		memset(&wv, 0, sizeof(wv));
		wv.fd = fd;
		wv.cap = 1000;
		wv.eintr_every = 3;
		assert_int_equal(write_batched(w, 70000), 0);
		assert_int_equal(sonde_perfdata_writer__finish(w), 0);
		wv.fd = -1;
		close(fd);
		/* The cases happened: cut writes, retried EINTRs, and calls
		 * that carried buffer and batch together. */
		assert_true(wv.short_calls > 100);
		assert_true(wv.eintrs > 50);
		assert_true(wv.multi_buf > 10);
		assert_same_files();
	}
}

/* Not whole records: -EINVAL, nothing written or counted. */
static void test_refuses_partial_records(void **state)
{
	struct sonde_perfdata_writer_stats ref, got;
	struct sonde_perfdata_writer *w;
	struct sonde_perf_event_header zero = { .type = 9, .size = 0 };
	struct iovec iov[2];

	(void)state;
	w = new_writer(ref_path, -1, false);
	write_per_record(w);
	sonde_perfdata_writer__stats(w, &ref);
	assert_int_equal(sonde_perfdata_writer__finish(w), 0);

	w = new_writer(got_path, -1, false);
	/* The first two records, less their last 8 bytes. */
	iov[0].iov_base = stream;
	iov[0].iov_len = rec_off[1];
	iov[1].iov_base = stream + rec_off[1];
	iov[1].iov_len = rec_off[2] - rec_off[1] - 8;
	assert_int_equal(sonde_perfdata_writer__writev(w, iov, 2), -EINVAL);
	/* A record past the end of the batch, large enough to go direct. */
	iov[0].iov_len = rec_off[8] + 4;
	assert_int_equal(sonde_perfdata_writer__writev(w, iov, 1), -EINVAL);
	/* A size-0 header, which would never end. */
	iov[0].iov_base = &zero;
	iov[0].iov_len = sizeof(zero);
	assert_int_equal(sonde_perfdata_writer__writev(w, iov, 1), -EINVAL);
	assert_int_equal(sonde_perfdata_writer__writev(w, NULL, 1), -EINVAL);
	assert_int_equal(sonde_perfdata_writer__writev(NULL, iov, 1), -EINVAL);
	assert_int_equal(sonde_perfdata_writer__writev(w, iov, 0), 0);
	write_per_record(w);
	sonde_perfdata_writer__stats(w, &got);
	assert_int_equal(sonde_perfdata_writer__finish(w), 0);
	assert_same_stats(&ref, &got);
	assert_same_files();
}

/*
 * The disk fills in the middle of a direct batch: the file keeps the
 * rounds that reached it whole, ending on a FINISHED_ROUND, and is
 * otherwise the reference's start.
 */
static void test_full_disk_keeps_rounds(void **state)
{
	struct sonde_perf_file_header rh, gh;
	struct sonde_perfdata_writer *w;
	struct sonde_perf_event_header last;
	unsigned char *ref, *got;
	size_t lr, lg;
	int fd;

	(void)state;
	sonde_set_print(NULL);
	w = new_writer(ref_path, -1, false);
	write_per_record(w);
	assert_int_equal(sonde_perfdata_writer__finish(w), 0);

	fd = open(got_path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	w = new_writer(NULL, fd, false);
	memset(&wv, 0, sizeof(wv));
	wv.fd = fd;
	wv.cap = 3000;
	wv.room = rec_off[250]; /* inside the pass of records 200..332 */
	assert_int_equal(write_batched(w, 70000), -ENOSPC);
	assert_int_equal(sonde_perfdata_writer__finish(w), -ENOSPC);
	wv.fd = -1;
	close(fd);
	sonde_set_print(sonde_set_print(NULL));

	ref = slurp(ref_path, &lr);
	got = slurp(got_path, &lg);
	memcpy(&rh, ref, sizeof(rh));
	memcpy(&gh, got, sizeof(gh));
	assert_int_equal(gh.magic, SONDE_PERFDATA_MAGIC);
	assert_int_equal(gh.data.offset, rh.data.offset);
	/* Rounds up to the one before the failing pass: records 0..199. */
	assert_int_equal(gh.data.size, rec_off[200] + 5 * 8);
	assert_memory_equal(got + gh.data.offset, ref + rh.data.offset,
			    gh.data.size);
	memcpy(&last, got + gh.data.offset + gh.data.size - 8, 8);
	assert_int_equal(last.type, SONDE_PERF_RECORD_FINISHED_ROUND);
	free(ref);
	free(got);
}

/*
 * On ext4 a file past a few MB gets its blocks reserved ahead of the
 * writes (cheaper writes for a recorder's drain loop), and the blocks
 * past the data are given back at close; the bytes are the reference's.
 */
static void test_space_reserved_ahead_on_ext4(void **state)
{
	struct sonde_perfdata_writer *w;
	struct statfs fs;
	struct stat sb;
	int rounds = 0;

	(void)state;
	if (statfs(dir, &fs) || fs.f_type != 0xEF53) {
		print_message("SKIP: %s is not on ext4, where space is reserved ahead\n", dir);
		skip();
	}
	w = new_writer(ref_path, -1, false);
	for (int k = 0; k < 7; k++)
		write_per_record(w);
	assert_int_equal(sonde_perfdata_writer__finish(w), 0);

	w = new_writer(got_path, -1, false);
	do {
		assert_int_equal(write_batched(w, 416 << 10), 0);
		assert_int_equal(stat(got_path, &sb), 0);
	} while (++rounds < 7);
	/* Over 9 MB written, the reservation reaches 16 MB. */
	assert_true(sb.st_size > (9 << 20));
	assert_true((uint64_t)sb.st_blocks * 512 >= (uint64_t)sb.st_size + (4 << 20));
	assert_int_equal(sonde_perfdata_writer__finish(w), 0);
	assert_int_equal(stat(got_path, &sb), 0);
	assert_true((uint64_t)sb.st_blocks * 512 < (uint64_t)sb.st_size + (256 << 10));
	assert_same_files();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_same_file_as_per_record,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_short_writes_and_eintr,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_refuses_partial_records,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_full_disk_keeps_rounds,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_space_reserved_ahead_on_ext4,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
