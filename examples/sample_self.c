// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Sampling yourself into a perf.data file with the public API only: one
 * task-clock event, its ring buffer, the records describing this process's
 * existing maps, and the perf.data writer. The file argv[1] opens in
 * `perf report` (without an argument a temporary file is written and
 * removed). Exits 77
 * when the kernel refuses the event, 1 when no sample arrived.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sonde/sonde.h>

static volatile unsigned long sink;

static void burn(long ms)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int i = 0; i < 100000; i++)
			sink += (unsigned long)i * 3;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 +
		 (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

int main(int argc, char **argv)
{
	char tmp[64];
	const char *path = argv[1];
	struct sonde_perf_event_attr attr = {
		.size = sizeof(attr),
		.type = SONDE_PERF_TYPE_SOFTWARE,
		.config = SONDE_PERF_COUNT_SW_TASK_CLOCK,
		.sample_freq = 2000,
		.sample_type = SONDE_PERF_SAMPLE_IP | SONDE_PERF_SAMPLE_TID |
			       SONDE_PERF_SAMPLE_TIME | SONDE_PERF_SAMPLE_PERIOD,
	};
	const struct sonde_perf_event_header *ev;
	struct sonde_perfdata_writer_stats st;
	struct sonde_perfdata_writer *w;
	struct sonde_ring *ring;
	uint64_t id;
	int fd, err;

	if (argc < 2) {
		snprintf(tmp, sizeof(tmp), "/tmp/sample_self.%d.data", (int)getpid());
		path = tmp;
	}
	attr.freq = 1;
	attr.disabled = 1;
	attr.sample_id_all = 1;
	attr.exclude_kernel = 1; /* works under perf_event_paranoid 2 */
	attr.exclude_hv = 1;
	attr.mmap = attr.comm = attr.task = attr.mmap2 = 1;
	fd = sonde_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0) {
		fprintf(stderr, "sample_self: cannot open task-clock: %s\n",
			strerror(-fd));
		return 77;
	}
	ring = sonde_ring__new(fd, NULL);
	w = sonde_perfdata_writer__new(path, NULL);
	if (!ring || !w) {
		perror("sample_self");
		return 1;
	}
	sonde_perfdata_writer__add_event(w, &attr, "task-clock:u");
	if (ioctl(fd, SONDE_PERF_EVENT_IOC_ID, &id) == 0)
		sonde_perfdata_writer__add_ids(w, 0, &id, 1);
	if (sonde_perfdata_writer__begin(w))
		return 1;
	/* Our own maps predate the event: describe them, or nothing symbolizes. */
	sonde_perfdata_writer__synth_kernel(w, &attr);
	sonde_perfdata_writer__synth_process(w, &attr, getpid(), NULL);
	sonde_perfdata_writer__finish_init(w);
	ioctl(fd, SONDE_PERF_EVENT_IOC_ENABLE, 0);
	for (int pass = 0; pass < 10; pass++) {
		burn(20);
		sonde_ring__read_init(ring);
		while (sonde_ring__read_event(ring, &ev) == 1)
			sonde_perfdata_writer__write(w, ev);
		sonde_ring__read_done(ring);
		sonde_perfdata_writer__finish_round(w);
	}
	ioctl(fd, SONDE_PERF_EVENT_IOC_DISABLE, 0);
	sonde_perfdata_writer__stats(w, &st);
	err = sonde_perfdata_writer__finish(w);
	sonde_ring__free(ring);
	close(fd);
	if (err) {
		fprintf(stderr, "sample_self: writing %s: %s\n", path, strerror(-err));
		return 1;
	}
	printf("sample_self: wrote %llu samples to %s\n",
	       (unsigned long long)st.samples, path);
	if (argc < 2)
		unlink(path);
	return st.samples ? 0 : 1;
}
