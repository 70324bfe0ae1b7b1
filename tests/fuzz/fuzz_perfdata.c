// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Fuzz target for the perf.data reader: the input is a perf.data image
 * (file or pipe format, either byte order). Every record goes through the
 * sample decoder, the thread/map model and the stack cache, in time order
 * and (when the last input byte is odd) in file order too.
 */
#include <stddef.h>
#include <stdint.h>
#include "sonde/sonde.h"
#include "perfdata_read.h"
#include "anl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void run(const uint8_t *data, size_t size, bool unordered)
{
	SONDE_OPTS(sonde_perfdata_reader_opts, o, .unordered = unordered);
	struct sonde_perfdata_reader *r = sonde_perfdata_reader__open_mem(data, size, &o);
	struct sonde_perfdata_record rec;
	struct anl_machine *m;
	struct anl_stacks *st;

	if (!r)
		return;
	m = anl_machine_new();
	st = m ? anl_stacks_new(m, 128) : NULL;
	for (int i = 0; i < sonde_perfdata_reader__nr_attrs(r); i++)
		(void)sonde_perfdata_reader__event_name(r, i);
	while (st && sonde_perfdata_reader__next(r, &rec) > 0) {
		const struct pdr_attr *a = pdr_attr_get(r, rec.attr_idx >= 0 ? rec.attr_idx : 0);
		struct pdr_sample s;
		struct anl_thread *t;

		if (rec.type != SONDE_PERF_RECORD_SAMPLE) {
			anl_machine_process(m, r, &rec);
			continue;
		}
		if (!a || pdr_parse_sample(r, a, (const uint8_t *)rec.hdr, rec.size, &s))
			continue;
		t = anl_thread_findnew(m, (int32_t)s.pid, (int32_t)s.tid);
		anl_stack_get(st, r, t, rec.misc, s.ip, s.callchain, s.nr_callchain);
	}
	(void)sonde_perfdata_reader__error(r);
	anl_stacks_free(st);
	anl_machine_free(m);
	sonde_perfdata_reader__close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	sonde_set_print(NULL);
	run(data, size, false);
	if (size && (data[size - 1] & 1))
		run(data, size, true);
	return 0;
}
