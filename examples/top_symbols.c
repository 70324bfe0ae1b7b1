// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The top N functions of a perf.data file, with the public API alone:
 *
 *     top_symbols [FILE [N]]
 *
 * A sonde_profile reads every record of the file, resolves the samples'
 * addresses into functions and sums their periods; its histogram, keyed
 * by object and function, comes out sorted. Without FILE the example
 * writes its own perf.data first (this process's maps, and samples whose
 * addresses are in its own functions, 3:2:1), reads that, and exits 1
 * unless the functions come out in that order.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sonde/sonde.h>

/* Functions for the generated samples to land in (kept out of line). */
static __attribute__((noinline, used)) int hot(int x) { return x * 3 + 1; }
static __attribute__((noinline, used)) int warm(int x) { return x * 5 + 2; }
static __attribute__((noinline, used)) int cool(int x) { return x * 7 + 3; }

static int write_sample(struct sonde_perfdata_writer *w, const struct sonde_record_fmt *fmt,
			uint64_t ip, uint64_t time)
{
	struct sonde_record r;
	uint64_t buf[16];
	int n;

	memset(&r, 0, sizeof(r));
	r.type = SONDE_PERF_RECORD_SAMPLE;
	r.misc = SONDE_PERF_RECORD_MISC_USER;
	r.sample.ip = ip;
	r.sample.pid = r.sample.tid = (uint32_t)getpid();
	r.sample.time = time;
	r.sample.period = 1000;
	n = sonde_record__encode(fmt, &r, buf, sizeof(buf));
	return n < 0 ? n : sonde_perfdata_writer__write(w, (const void *)buf);
}

/* perf.data at @path: this process's maps, 3 samples in hot, 2 warm, 1 cool. */
static int generate(const char *path)
{
	struct sonde_perf_event_attr attr = { .size = sizeof(attr) };
	int (*const fns[])(int) = { hot, hot, hot, warm, warm, cool };
	struct sonde_perfdata_writer *w;
	struct sonde_record_fmt fmt;
	int err;

	attr.type = SONDE_PERF_TYPE_SOFTWARE;
	attr.config = SONDE_PERF_COUNT_SW_CPU_CLOCK;
	attr.sample_period = 1000;
	attr.sample_type = SONDE_PERF_SAMPLE_IP | SONDE_PERF_SAMPLE_TID |
			   SONDE_PERF_SAMPLE_TIME | SONDE_PERF_SAMPLE_PERIOD;
	attr.sample_id_all = 1;
	attr.mmap = attr.comm = 1;
	if (sonde_record_fmt__from_attr(&fmt, &attr))
		return -1;
	w = sonde_perfdata_writer__new(path, NULL);
	if (!w)
		return -1;
	err = sonde_perfdata_writer__add_event(w, &attr, "cpu-clock");
	if (!err)
		err = sonde_perfdata_writer__begin(w);
	if (!err)
		err = sonde_perfdata_writer__synth_process(w, &attr, getpid(), NULL);
	for (size_t i = 0; !err && i < sizeof(fns) / sizeof(fns[0]); i++)
		err = write_sample(w, &fmt, (uint64_t)(uintptr_t)fns[i] + 1, 1000 + i);
	if (err) {
		sonde_perfdata_writer__free(w);
		return -1;
	}
	return sonde_perfdata_writer__finish(w) ? -1 : 0;
}

int main(int argc, char **argv)
{
	static const enum sonde_profile_key keys[] = { SONDE_PROFILE_KEY_DSO,
						       SONDE_PROFILE_KEY_SYM };
	SONDE_OPTS(sonde_profile_opts, opts, .keys = keys, .nr_keys = 2);
	char tmp[] = "/tmp/top_symbols.XXXXXX";
	const char *path = argc > 1 ? argv[1] : tmp;
	int top = argc > 2 ? atoi(argv[2]) : 10, ret = 0;
	struct sonde_perfdata_reader *r;
	struct sonde_profile *p;

	if (argc == 1) {
		int fd = mkstemp(tmp);

		if (fd < 0 || close(fd) || generate(tmp)) {
			perror("top_symbols: cannot write the example's perf.data");
			unlink(tmp);
			return 1;
		}
	}
	r = sonde_perfdata_reader__open(path, NULL);
	p = sonde_profile__new(&opts);
	if (!r || !p || sonde_profile__add_reader(p, r) < 0) {
		fprintf(stderr, "top_symbols: %s: cannot read it\n", path);
		ret = 1;
		goto out;
	}
	for (int ev = 0; ev < sonde_profile__nr_events(p); ev++) {
		struct sonde_profile_event_stats st;
		size_t n = sonde_profile__nr_entries(p, ev);

		sonde_profile__event_stats(p, ev, &st);
		if (!st.samples)
			continue;
		printf("%s: %" PRIu64 " samples\n", sonde_profile__event_name(p, ev), st.samples);
		for (size_t i = 0; i < n && (int)i < top; i++) {
			const struct sonde_profile_entry *e = sonde_profile__entry(p, ev, i);
			const char *sym = sonde_profile_entry__sym(e);
			const char *dso = sonde_profile_entry__dso_short(e);

			printf("%6.2f%%  %-20s %s\n",
			       100.0 * (double)sonde_profile_entry__self(e) / (double)st.period,
			       dso ? dso : "[unknown]", sym ? sym : "[unknown]");
		}
	}
	if (argc == 1) {
		/* Our own samples: the functions in the order they were hit. */
		static const char *const want[] = { "hot", "warm", "cool" };

		for (size_t i = 0; i < 3; i++) {
			const struct sonde_profile_entry *e = sonde_profile__entry(p, 0, i);
			const char *sym = e ? sonde_profile_entry__sym(e) : NULL;

			if (!sym || strcmp(sym, want[i])) {
				fprintf(stderr, "top_symbols: entry %zu is %s, expected %s\n", i,
					sym ? sym : "(none)", want[i]);
				ret = 1;
			}
		}
	}
out:
	sonde_profile__free(p);
	sonde_perfdata_reader__free(r);
	if (argc == 1)
		unlink(tmp);
	return ret;
}
