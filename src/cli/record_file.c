// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde record: the start of the file - its events, ids, groups,
 * tracepoint formats and the build-id notes, then the synthesized records of
 * what already runs (kernel maps, processes and their maps) - and the
 * events enabled once it is written.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "record_cli.h"

/* perf record's words when a process's maps took too long (not with -q). */
static void map_timeout_warn(pid_t pid, void *ctx)
{
	const struct rec_opts *o = ctx;

	if (!o->quiet)
		fprintf(stderr, "Reading /proc/%d/task/%d/maps time out. You may want to increase the time limit by --proc-map-timeout\n",
			(int)pid, (int)pid);
}

int rec_file_begin(struct rec_state *s, char **cmdline)
{
	struct rec_opts *o = s->o;
	int err = 0;

	{
		SONDE_OPTS(sonde_perfdata_writer_opts, wo,
			   .keep_old = strcmp(o->output, "-") != 0,
			   .cmdline = (const char *const *)cmdline);
		struct stat prev;

		/* To tell, after a failure, our file from the one it was to replace. */
		if (!stat(o->output, &prev)) {
			s->prev_ino = (unsigned long long)prev.st_ino;
			s->prev_dev = (unsigned long long)prev.st_dev;
		}
		s->w = sonde_perfdata_writer__new(o->output, &wo);
	}
	if (!s->w) {
		fprintf(stderr, "sonde record: cannot create %s: %s\n", o->output, strerror(errno));
		err = -errno;
		return err;
	}
	for (size_t i = 0; i < o->evs.nr; i++) {
		struct rec_event *e = &o->evs.ev[i];
		int idx = sonde_perfdata_writer__add_event(s->w, &e->attr, e->name);

		if (idx >= 0)
			sonde_perfdata_writer__add_ids(s->w, idx, e->ids, e->nr_ids);
	}
	for (size_t i = 0; i < o->evs.nr; i++)
		if (o->evs.ev[i].leader == (int)i && o->evs.ev[i].nr_members > 1)
			sonde_perfdata_writer__add_group(s->w, (int)i,
							 o->evs.ev[i].nr_members, NULL);
	if (o->evs.nr_tracepoints) {
		void *blob;
		size_t len;

		err = sonde_tracing_data_build((const char *const *)o->evs.tracepoints,
					       o->evs.nr_tracepoints, &blob, &len);
		if (err) {
			fprintf(stderr, "sonde record: cannot read the tracepoint formats: %s\n",
				strerror(-err));
			return err;
		}
		sonde_perfdata_writer__set_tracing_data(s->w, blob, len);
		free(blob);
	}
	/* perf writes no build-id table into a pipe. */
	if (!o->no_buildid && strcmp(o->output, "-") && !(s->bids = rec_bids_new(o)))
		return -ENOMEM;
	err = sonde_perfdata_writer__begin(s->w);
	if (err) {
		fprintf(stderr, "sonde record: cannot write %s: %s\n", o->output, strerror(-err));
		return err;
	}
	err = rec_aux_begin(s);
	if (err)
		return err;
	{
		const struct sonde_perf_event_attr *track = &o->evs.ev[0].attr;
		/* perf's 0 ms gives up at the first line: a nanosecond does too. */
		SONDE_OPTS(sonde_synth_opts, so,
			   .data_maps = o->evs.ev[0].attr.sample_stack_user != 0,
			   .proc_map_timeout_ns = o->proc_map_timeout ?
						  o->proc_map_timeout * 1000000ull : 1,
			   .on_timeout = map_timeout_warn, .ctx = o);

		for (size_t i = 0; i < o->evs.nr; i++)
			if (o->evs.ev[i].attr.mmap)
				track = &o->evs.ev[i].attr;
		err = sonde_perfdata_writer__synth_kernel(s->w, track);
		if (!err && o->all_cpus) {
			err = sonde_perfdata_writer__synth_all(s->w, track, &so);
			if (s->bids)
				(void)sonde_buildid_hits__note_all_procs(s->bids);
		} else if (!err && (o->pid || o->tid)) {
			/* The process of each thread, once. */
			pid_t last = 0;

			for (size_t t = 0; !err && t < s->nr_tids; t++) {
				char path[64], line[128];
				long tgid = s->tids[t];
				FILE *f;

				snprintf(path, sizeof(path), "/proc/%d/status", (int)s->tids[t]);
				f = fopen(path, "r");
				while (f && fgets(line, sizeof(line), f))
					if (sscanf(line, "Tgid: %ld", &tgid) == 1)
						break;
				if (f)
					fclose(f);
				if ((pid_t)tgid != last) {
					err = sonde_perfdata_writer__synth_process(
						s->w, track, (pid_t)tgid, &so);
					if (s->bids)
						(void)sonde_buildid_hits__note_proc(s->bids, (pid_t)tgid);
				}
				last = (pid_t)tgid;
			}
		}
		if (!err)
			err = sonde_perfdata_writer__finish_init(s->w);
		/*
		 * Enable after the synthesis: /proc walking is slow and the
		 * rings are not drained meanwhile.
		 */
		if (!s->workload_target || !s->per_task)
			rec_enable_events(s, true);
		if (err) {
			fprintf(stderr, "sonde record: cannot write %s: %s\n", o->output, strerror(-err));
			return err;
		}
	}
	return 0;
}
