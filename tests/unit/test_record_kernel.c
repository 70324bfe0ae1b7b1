// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Records from the real kernel: a cpu-clock sampling event on this process
 * with as many sample fields and side-band records as a software event can
 * give, read from a small ring buffer by a local reader (the library's ring
 * module is someone else's), then every record decoded, checked for
 * consistency and re-encoded to the very bytes the kernel wrote.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>
#include "sonde/sonde.h"

#define RING_PAGES 64

static volatile uint64_t sink;

static void spin_ms(int ms)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		for (int i = 0; i < 10000; i++)
			sink += (uint64_t)i * 7;
		clock_gettime(CLOCK_MONOTONIC, &b);
	} while ((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000 < ms);
}

static void *thread_fn(void *arg)
{
	spin_ms(5);
	return arg;
}

static void workload(void)
{
	pthread_t t;
	void *m;
	int fd;

	prctl(PR_SET_NAME, "sonde-rec-test");
	/* An executable file mapping makes an MMAP2 record. */
	fd = open("/proc/self/exe", O_RDONLY);
	if (fd >= 0) {
		m = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
		if (m != MAP_FAILED)
			munmap(m, 4096);
		close(fd);
	}
	if (pthread_create(&t, NULL, thread_fn, NULL) == 0)
		pthread_join(t, NULL);
	spin_ms(60);
	usleep(2000); /* a context switch or two */
	spin_ms(20);
}

struct seen {
	unsigned int by_type[SONDE_PERF_RECORD_MAX];
	uint64_t last_time[1024];
};

static void check_sample(const struct sonde_record_fmt *fmt,
			 const struct sonde_sample *s, uint64_t my_id,
			 struct seen *seen)
{
	uint64_t st = fmt->sample_type;

	assert_int_equal(s->pid, getpid());
	assert_int_equal(s->identifier, my_id);
	assert_int_equal(s->id, my_id);
	assert_int_equal(s->stream_id, my_id);
	assert_true(s->cpu < 1024);
	assert_true(s->period > 0);
	/* Time never goes back on one CPU. */
	assert_true(s->time >= seen->last_time[s->cpu]);
	seen->last_time[s->cpu] = s->time;
	if (st & SONDE_PERF_SAMPLE_CALLCHAIN) {
		assert_true(s->callchain.nr >= 1);
		assert_true(s->callchain.ips[0] >= (uint64_t)SONDE_PERF_CONTEXT_MAX);
	}
	if (st & SONDE_PERF_SAMPLE_READ) {
		assert_int_equal(s->read.nr, 1);
		assert_int_equal(s->read.id, my_id);
		assert_true(s->read.time_enabled >= s->read.time_running);
	}
	if (st & SONDE_PERF_SAMPLE_REGS_USER) {
		assert_true(s->regs_user.abi == SONDE_PERF_SAMPLE_REGS_ABI_NONE ||
			    s->regs_user.abi == SONDE_PERF_SAMPLE_REGS_ABI_64);
		if (s->regs_user.abi)
			assert_int_equal(s->regs_user.nr,
					 __builtin_popcountll(fmt->sample_regs_user));
	}
	if (st & SONDE_PERF_SAMPLE_STACK_USER) {
		assert_true(s->stack_user.dyn_size <= s->stack_user.size);
		if (s->regs_user.abi)
			assert_int_equal(s->stack_user.size, 512);
	}
	if (st & SONDE_PERF_SAMPLE_DATA_PAGE_SIZE)
		assert_true((s->data_page_size & (s->data_page_size - 1)) == 0);
	if (st & SONDE_PERF_SAMPLE_CODE_PAGE_SIZE)
		assert_true((s->code_page_size & (s->code_page_size - 1)) == 0);
}

static int open_event(struct sonde_perf_event_attr *attr, const char **dropped)
{
	int fd = sonde_perf_event_open(attr, 0, -1, -1, 0);

	if (fd == -EINVAL || fd == -EOPNOTSUPP) {
		/* Older kernels: fall back to the fields every 5.x kernel has. */
		*dropped = "cgroup/page-size fields and newer side-band bits";
		attr->sample_type &= ~(uint64_t)(SONDE_PERF_SAMPLE_CGROUP |
						 SONDE_PERF_SAMPLE_DATA_PAGE_SIZE |
						 SONDE_PERF_SAMPLE_CODE_PAGE_SIZE);
		attr->read_format &= ~(uint64_t)SONDE_PERF_FORMAT_LOST;
		attr->cgroup = attr->text_poke = attr->build_id = 0;
		fd = sonde_perf_event_open(attr, 0, -1, -1, 0);
	}
	return fd;
}

static void test_kernel_records(void **state)
{
	struct sonde_perf_event_attr attr = { .size = sizeof(attr) };
	long page = sysconf(_SC_PAGESIZE);
	size_t map_len = (size_t)page * (RING_PAGES + 1);
	struct sonde_perf_event_mmap_page *pc;
	struct sonde_record_fmt fmt;
	const char *dropped = NULL;
	static struct seen seen;
	uint64_t my_id = 0, head, tail, total = 0;
	uint8_t *data, rec[65536], out[65536];
	char why[128];
	int fd;

	attr.type = SONDE_PERF_TYPE_SOFTWARE;
	attr.config = SONDE_PERF_COUNT_SW_CPU_CLOCK;
	attr.sample_period = 1000000; /* 1 ms of CPU */
	attr.sample_type = SONDE_PERF_SAMPLE_IDENTIFIER | SONDE_PERF_SAMPLE_IP |
		SONDE_PERF_SAMPLE_TID | SONDE_PERF_SAMPLE_TIME |
		SONDE_PERF_SAMPLE_ADDR | SONDE_PERF_SAMPLE_ID |
		SONDE_PERF_SAMPLE_STREAM_ID | SONDE_PERF_SAMPLE_CPU |
		SONDE_PERF_SAMPLE_PERIOD | SONDE_PERF_SAMPLE_READ |
		SONDE_PERF_SAMPLE_CALLCHAIN | SONDE_PERF_SAMPLE_RAW |
		SONDE_PERF_SAMPLE_REGS_USER | SONDE_PERF_SAMPLE_STACK_USER |
		SONDE_PERF_SAMPLE_REGS_INTR | SONDE_PERF_SAMPLE_CGROUP |
		SONDE_PERF_SAMPLE_DATA_PAGE_SIZE | SONDE_PERF_SAMPLE_CODE_PAGE_SIZE;
	attr.read_format = SONDE_PERF_FORMAT_TOTAL_TIME_ENABLED |
			   SONDE_PERF_FORMAT_TOTAL_TIME_RUNNING |
			   SONDE_PERF_FORMAT_ID | SONDE_PERF_FORMAT_LOST;
	attr.sample_regs_user = (1ULL << SONDE_PERF_REG_X86_BP) |
				(1ULL << SONDE_PERF_REG_X86_SP) |
				(1ULL << SONDE_PERF_REG_X86_IP);
	attr.sample_regs_intr = attr.sample_regs_user;
	attr.sample_stack_user = 512;
	attr.disabled = 1;
	attr.exclude_kernel = 0;
	attr.mmap = attr.mmap2 = attr.comm = attr.comm_exec = attr.task = 1;
	attr.sample_id_all = 1;
	attr.context_switch = 1;
	attr.namespaces = 1;
	attr.ksymbol = attr.bpf_event = attr.cgroup = 1;
	attr.mmap_data = 1;
	attr.build_id = 0;
	attr.wakeup_events = 1;

	fd = open_event(&attr, &dropped);
	if (fd < 0) {
		printf("SKIP: cpu-clock sampling event: %s\n",
		       sonde_strerror(fd, why, sizeof(why)));
		skip();
	}
	if (dropped)
		printf("note: kernel refused the full attr; dropped %s\n", dropped);
	assert_int_equal(sonde_record_fmt__from_attr(&fmt, &attr), 0);
	assert_int_equal(sonde_sys_ops()->ioctl(fd, SONDE_PERF_EVENT_IOC_ID,
						(unsigned long)&my_id), 0);
	pc = sonde_sys_ops()->mmap(NULL, map_len, PROT_READ | PROT_WRITE,
				   MAP_SHARED, fd, 0);
	if (pc == MAP_FAILED) {
		printf("SKIP: mmap of the ring: %s\n", strerror(errno));
		close(fd);
		skip();
	}
	data = (uint8_t *)pc + page;

	sonde_sys_ops()->ioctl(fd, SONDE_PERF_EVENT_IOC_ENABLE, 0);
	workload();
	sonde_sys_ops()->ioctl(fd, SONDE_PERF_EVENT_IOC_DISABLE, 0);

	head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
	tail = pc->data_tail;
	assert_true(head - tail <= (uint64_t)page * RING_PAGES);
	while (tail < head) {
		size_t size_ring = (size_t)page * RING_PAGES;
		struct sonde_perf_event_header h;
		struct sonde_record r;
		size_t off = tail % size_ring;
		int n;

		/* Copy out, unwrapping records that straddle the end. */
		memcpy(&h, data + off, sizeof(h));
		assert_true(h.size >= 8);
		for (size_t i = 0; i < h.size; i++)
			rec[i] = data[(off + i) % size_ring];
		tail += h.size;
		total++;

		if (sonde_record__decode(&fmt, rec, h.size, &r) != 0) {
			print_error("%s (type %u size %u) at +%u: %s\n",
				    sonde_record_type_name(r.type), r.type, h.size,
				    r.err_offset, r.err_what);
			fail();
		}
		if (r.type < SONDE_PERF_RECORD_MAX)
			seen.by_type[r.type]++;
		/* The kernel's bytes come back exactly. */
		n = sonde_record__encode(&fmt, &r, out, sizeof(out));
		if (n != h.size || memcmp(out, rec, h.size)) {
			print_error("%s re-encodes differently (%d vs %u)\n",
				    sonde_record_type_name(r.type), n, h.size);
			fail();
		}
		if (r.type == SONDE_PERF_RECORD_SAMPLE) {
			check_sample(&fmt, &r.sample, my_id, &seen);
		} else if (r.type != SONDE_PERF_RECORD_LOST) {
			uint64_t id;

			assert_true(r.has_sample_id);
			assert_int_equal(r.sample_id.identifier, my_id);
			assert_int_equal(r.sample_id.id, my_id);
			assert_int_equal(sonde_record__id(&fmt, rec, h.size, &id), 0);
			assert_int_equal(id, my_id);
		}
		if (r.type == SONDE_PERF_RECORD_COMM && r.sample_id.pid == (uint32_t)getpid() &&
		    !strcmp(r.comm.comm, "sonde-rec-test"))
			seen.by_type[0]++; /* our own rename */
		if (r.type == SONDE_PERF_RECORD_MMAP2 || r.type == SONDE_PERF_RECORD_MMAP)
			assert_non_null(r.mmap.filename);
	}
	__atomic_store_n(&pc->data_tail, tail, __ATOMIC_RELEASE);
	printf("# %llu records: %u samples, %u comm, %u mmap2, %u fork, %u switch\n",
	       (unsigned long long)total, seen.by_type[SONDE_PERF_RECORD_SAMPLE],
	       seen.by_type[SONDE_PERF_RECORD_COMM],
	       seen.by_type[SONDE_PERF_RECORD_MMAP2],
	       seen.by_type[SONDE_PERF_RECORD_FORK],
	       seen.by_type[SONDE_PERF_RECORD_SWITCH]);
	assert_true(seen.by_type[SONDE_PERF_RECORD_SAMPLE] > 10);
	assert_true(seen.by_type[0] >= 1);
	assert_true(seen.by_type[SONDE_PERF_RECORD_MMAP2] >= 1);
	assert_true(seen.by_type[SONDE_PERF_RECORD_FORK] >= 1);
	munmap(pc, map_len);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_records),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
