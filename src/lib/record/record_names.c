// SPDX-License-Identifier: LGPL-2.1-only
/* Names for dumps and scripts: record types, sample_type and read_format bits. */
#include <stdio.h>
#include "record_priv.h"

static const char *const kernel_names[] = {
	[SONDE_PERF_RECORD_MMAP] = "PERF_RECORD_MMAP",
	[SONDE_PERF_RECORD_LOST] = "PERF_RECORD_LOST",
	[SONDE_PERF_RECORD_COMM] = "PERF_RECORD_COMM",
	[SONDE_PERF_RECORD_EXIT] = "PERF_RECORD_EXIT",
	[SONDE_PERF_RECORD_THROTTLE] = "PERF_RECORD_THROTTLE",
	[SONDE_PERF_RECORD_UNTHROTTLE] = "PERF_RECORD_UNTHROTTLE",
	[SONDE_PERF_RECORD_FORK] = "PERF_RECORD_FORK",
	[SONDE_PERF_RECORD_READ] = "PERF_RECORD_READ",
	[SONDE_PERF_RECORD_SAMPLE] = "PERF_RECORD_SAMPLE",
	[SONDE_PERF_RECORD_MMAP2] = "PERF_RECORD_MMAP2",
	[SONDE_PERF_RECORD_AUX] = "PERF_RECORD_AUX",
	[SONDE_PERF_RECORD_ITRACE_START] = "PERF_RECORD_ITRACE_START",
	[SONDE_PERF_RECORD_LOST_SAMPLES] = "PERF_RECORD_LOST_SAMPLES",
	[SONDE_PERF_RECORD_SWITCH] = "PERF_RECORD_SWITCH",
	[SONDE_PERF_RECORD_SWITCH_CPU_WIDE] = "PERF_RECORD_SWITCH_CPU_WIDE",
	[SONDE_PERF_RECORD_NAMESPACES] = "PERF_RECORD_NAMESPACES",
	[SONDE_PERF_RECORD_KSYMBOL] = "PERF_RECORD_KSYMBOL",
	[SONDE_PERF_RECORD_BPF_EVENT] = "PERF_RECORD_BPF_EVENT",
	[SONDE_PERF_RECORD_CGROUP] = "PERF_RECORD_CGROUP",
	[SONDE_PERF_RECORD_TEXT_POKE] = "PERF_RECORD_TEXT_POKE",
	[SONDE_PERF_RECORD_AUX_OUTPUT_HW_ID] = "PERF_RECORD_AUX_OUTPUT_HW_ID",
};

static const char *const user_names[] = {
	"PERF_RECORD_HEADER_ATTR",
	"PERF_RECORD_HEADER_EVENT_TYPE",
	"PERF_RECORD_HEADER_TRACING_DATA",
	"PERF_RECORD_HEADER_BUILD_ID",
	"PERF_RECORD_FINISHED_ROUND",
	"PERF_RECORD_ID_INDEX",
	"PERF_RECORD_AUXTRACE_INFO",
	"PERF_RECORD_AUXTRACE",
	"PERF_RECORD_AUXTRACE_ERROR",
	"PERF_RECORD_THREAD_MAP",
	"PERF_RECORD_CPU_MAP",
	"PERF_RECORD_STAT_CONFIG",
	"PERF_RECORD_STAT",
	"PERF_RECORD_STAT_ROUND",
	"PERF_RECORD_EVENT_UPDATE",
	"PERF_RECORD_TIME_CONV",
	"PERF_RECORD_HEADER_FEATURE",
	"PERF_RECORD_COMPRESSED",
	"PERF_RECORD_FINISHED_INIT",
	"PERF_RECORD_COMPRESSED2",
};
_Static_assert(ARRAY_SIZE(user_names) == SONDE_PERF_RECORD_HEADER_MAX -
					 SONDE_PERF_RECORD_USER_TYPE_START,
	       "one name per user record type");

const char *sonde_record_type_name(uint32_t type)
{
	if (type < ARRAY_SIZE(kernel_names))
		return kernel_names[type];
	if (type >= SONDE_PERF_RECORD_USER_TYPE_START &&
	    type < SONDE_PERF_RECORD_HEADER_MAX)
		return user_names[type - SONDE_PERF_RECORD_USER_TYPE_START];
	return NULL;
}

static const char *const sample_bits[] = {
	"IP", "TID", "TIME", "ADDR", "READ", "CALLCHAIN", "ID", "CPU",
	"PERIOD", "STREAM_ID", "RAW", "BRANCH_STACK", "REGS_USER",
	"STACK_USER", "WEIGHT", "DATA_SRC", "IDENTIFIER", "TRANSACTION",
	"REGS_INTR", "PHYS_ADDR", "AUX", "CGROUP", "DATA_PAGE_SIZE",
	"CODE_PAGE_SIZE", "WEIGHT_STRUCT",
};
_Static_assert(1U << ARRAY_SIZE(sample_bits) == SONDE_PERF_SAMPLE_MAX,
	       "one name per sample_type bit");

static const char *const read_bits[] = {
	"TOTAL_TIME_ENABLED", "TOTAL_TIME_RUNNING", "ID", "GROUP", "LOST",
};
_Static_assert(1U << ARRAY_SIZE(read_bits) == SONDE_PERF_FORMAT_MAX,
	       "one name per read_format bit");

const char *sonde_sample_type_bit_name(uint64_t bit)
{
	if (!bit || (bit & (bit - 1)))
		return NULL;
	unsigned int i = (unsigned int)__builtin_ctzll(bit);

	return i < ARRAY_SIZE(sample_bits) ? sample_bits[i] : NULL;
}

static int bits_str(uint64_t v, const char *const *names, size_t nnames,
		    char *buf, size_t size)
{
	size_t len = 0;
	uint64_t unknown = 0;

	if (size)
		buf[0] = 0;
	for (unsigned int i = 0; i < 64; i++) {
		const char *s;
		size_t n;

		if (!(v & (1ULL << i)))
			continue;
		if (i >= nnames) {
			unknown |= 1ULL << i;
			continue;
		}
		s = names[i];
		n = strlen(s);
		if (len && len + 1 < size)
			buf[len] = '|', buf[len + 1] = 0;
		len += len ? 1 : 0;
		if (len < size)
			snprintf(buf + len, size - len, "%s", s);
		len += n;
	}
	if (unknown) {
		char tmp[24];
		int n = snprintf(tmp, sizeof(tmp), "%s0x%llx", len ? "|" : "",
				 (unsigned long long)unknown);

		if (len < size)
			snprintf(buf + len, size - len, "%s", tmp);
		len += (size_t)n;
	}
	return (int)len;
}

int sonde_sample_type_str(uint64_t sample_type, char *buf, size_t size)
{
	return bits_str(sample_type, sample_bits, ARRAY_SIZE(sample_bits), buf,
			size);
}

int sonde_read_format_str(uint64_t read_format, char *buf, size_t size)
{
	return bits_str(read_format, read_bits, ARRAY_SIZE(read_bits), buf, size);
}
