// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The record codec in a nutshell: synthesize COMM, MMAP2 and SAMPLE records
 * the way a perf.data writer does (sample_id_all trailer included), then walk
 * the buffer as a reader does, decoding and printing each record. Exits 1 if
 * anything read back differs from what was written.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sonde/sonde.h>

int main(void)
{
	struct sonde_perf_event_attr attr = { .size = sizeof(attr) };
	static const uint64_t ips[] = { SONDE_PERF_CONTEXT_USER, 0x401234, 0x401100 };
	uint64_t buf[128]; /* 8-byte aligned, as records must be */
	struct sonde_record_fmt fmt;
	struct sonde_record r;
	size_t used = 0;
	uint32_t pid = (uint32_t)getpid();
	char line[256];
	int n;

	attr.sample_type = SONDE_PERF_SAMPLE_IDENTIFIER | SONDE_PERF_SAMPLE_IP |
			   SONDE_PERF_SAMPLE_TID | SONDE_PERF_SAMPLE_TIME |
			   SONDE_PERF_SAMPLE_PERIOD | SONDE_PERF_SAMPLE_CALLCHAIN;
	attr.sample_id_all = 1;
	if (sonde_record_fmt__from_attr(&fmt, &attr))
		return 1;

	/* COMM */
	memset(&r, 0, sizeof(r));
	r.type = SONDE_PERF_RECORD_COMM;
	r.comm.pid = r.comm.tid = pid;
	r.comm.comm = "example";
	r.sample_id.pid = r.sample_id.tid = pid;
	r.sample_id.time = 1000;
	r.sample_id.identifier = 42;
	n = sonde_record__encode(&fmt, &r, (char *)buf + used, sizeof(buf) - used);
	if (n < 0)
		return 1;
	used += (size_t)n;

	/* MMAP2 of the executable */
	memset(&r, 0, sizeof(r));
	r.type = SONDE_PERF_RECORD_MMAP2;
	r.misc = SONDE_PERF_RECORD_MISC_USER;
	r.mmap.pid = r.mmap.tid = pid;
	r.mmap.addr = 0x400000;
	r.mmap.len = 0x2000;
	r.mmap.prot = 5;
	r.mmap.flags = 2;
	r.mmap.filename = "/usr/bin/example";
	r.sample_id.pid = r.sample_id.tid = pid;
	r.sample_id.time = 1001;
	r.sample_id.identifier = 42;
	n = sonde_record__encode(&fmt, &r, (char *)buf + used, sizeof(buf) - used);
	if (n < 0)
		return 1;
	used += (size_t)n;

	/* SAMPLE with a callchain */
	memset(&r, 0, sizeof(r));
	r.type = SONDE_PERF_RECORD_SAMPLE;
	r.misc = SONDE_PERF_RECORD_MISC_USER;
	r.sample.identifier = 42;
	r.sample.ip = 0x401234;
	r.sample.pid = r.sample.tid = pid;
	r.sample.time = 1002;
	r.sample.period = 100000;
	r.sample.callchain.nr = 3;
	r.sample.callchain.ips = ips;
	n = sonde_record__encode(&fmt, &r, (char *)buf + used, sizeof(buf) - used);
	if (n < 0)
		return 1;
	used += (size_t)n;

	/* Read it back. */
	for (size_t off = 0; off < used; off += r.size) {
		uint64_t id;

		if (sonde_record__decode(&fmt, (char *)buf + off, used - off, &r)) {
			printf("bad record at %zu+%u: %s\n", off, r.err_offset,
			       r.err_what);
			return 1;
		}
		if (sonde_record__id(&fmt, (char *)buf + off, used - off, &id) ||
		    id != 42)
			return 1;
		sonde_record__snprintf(&r, line, sizeof(line));
		printf("0x%04zx [%#4x]: %s\n", off, r.size, line);
		if (r.type == SONDE_PERF_RECORD_SAMPLE &&
		    (r.sample.callchain.nr != 3 || r.sample.callchain.ips[1] != 0x401234))
			return 1;
	}
	return 0;
}
