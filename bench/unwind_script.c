// SPDX-License-Identifier: LGPL-2.1-only
/*
 * DWARF unwinding benchmark driver (built by bench/unwind.sh): reads a
 * perf.data recorded with --call-graph dwarf, feeds MMAP/MMAP2 records to
 * one sonde_unwinder per process, unwinds every sample and prints one
 * symbolized frame per line, like `perf script -F ip,sym`: the kernel part
 * of PERF_SAMPLE_CALLCHAIN (kallsyms), then the DWARF-unwound user part.
 *   unwind_script perf.data    -> frames on stdout, summary on stderr
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "sonde/sonde.h"
#include "sonde/perfdata_reader.h"
#include "sonde/record.h"

struct map {
	uint64_t start, end, pgoff;
	struct sonde_dso *dso;	/* NULL when not a file */
	char *path;
};

struct proc {
	uint32_t pid;
	struct sonde_unwinder *uw;
	struct map *maps;
	size_t nr, cap;
};

static struct proc *procs;
static size_t nr_procs;

static struct proc *proc_get(uint32_t pid)
{
	size_t i;

	for (i = 0; i < nr_procs; i++)
		if (procs[i].pid == pid)
			return &procs[i];
	procs = realloc(procs, (nr_procs + 1) * sizeof(*procs));
	memset(&procs[nr_procs], 0, sizeof(*procs));
	procs[nr_procs].pid = pid;
	procs[nr_procs].uw = sonde_unwinder__new((pid_t)pid, NULL);
	return &procs[nr_procs++];
}

int main(int argc, char **argv)
{
	struct sonde_perfdata_reader *r;
	struct sonde_perfdata_record pr;
	struct sonde_symcache *c;
	struct sonde_record_fmt fmt;
	static char out[1 << 16];
	uint64_t ips[128], kips[128];
	struct sonde_dso *kdso;
	long samples = 0, frames = 0;

	if (argc < 2)
		return 2;
	setvbuf(stdout, out, _IOFBF, sizeof(out));
	r = sonde_perfdata_reader__open(argv[1], NULL);
	if (!r) {
		perror(argv[1]);
		return 1;
	}
	sonde_record_fmt__from_attr(&fmt, sonde_perfdata_reader__attr(r, 0));
	/* SONDE_KCACHE=dir: keep a kallsyms copy there (opt-in cache). */
	{
		SONDE_OPTS(sonde_symcache_opts, o,
			   .kallsyms_cache_dir = getenv("SONDE_KCACHE"));
		c = sonde_symcache__new(&o);
	}
	kdso = sonde_symcache__kernel(c);
	/* kallsyms loads on the second core while samples are unwound. */
	sonde_dso__prefetch(kdso);
	while (sonde_perfdata_reader__next(r, &pr) == 1) {
		struct sonde_record rec;
		struct proc *p;

		if (sonde_record__decode(&fmt, pr.hdr, pr.size, &rec))
			continue;
		if (rec.type == SONDE_PERF_RECORD_MMAP ||
		    rec.type == SONDE_PERF_RECORD_MMAP2) {
			const struct sonde_record_mmap *m = &rec.mmap;
			struct map *mp;

			if (rec.type == SONDE_PERF_RECORD_MMAP2 &&
			    !(m->prot & PROT_EXEC))
				continue;
			p = proc_get(m->pid);
			sonde_unwinder__add_map(p->uw, m->addr, m->len,
						m->pgoff, m->filename);
			if (p->nr == p->cap) {
				p->cap = p->cap ? 2 * p->cap : 16;
				p->maps = realloc(p->maps,
						  p->cap * sizeof(*p->maps));
			}
			mp = &p->maps[p->nr++];
			mp->start = m->addr;
			mp->end = m->addr + m->len;
			mp->pgoff = m->pgoff;
			mp->path = strdup(m->filename);
			mp->dso = m->filename[0] == '/' ?
				sonde_symcache__dso(c, m->filename, NULL, 0) :
				!strcmp(m->filename, "[vdso]") ?
				sonde_symcache__vdso(c) : NULL;
			continue;
		}
		if (rec.type != SONDE_PERF_RECORD_SAMPLE)
			continue;
		{
			const struct sonde_sample *s = &rec.sample;
			struct sonde_unwind_sample us = {
				.tid = (pid_t)s->tid,
				.abi = s->regs_user.abi,
				.regs_mask = fmt.sample_regs_user,
				.regs = s->regs_user.regs,
				.nr_regs = s->regs_user.nr,
				.stack = s->stack_user.data,
				.stack_size = s->stack_user.dyn_size,
			};
			size_t nk = 0, j;
			int n, i;

			if (s->sample_type & SONDE_PERF_SAMPLE_CALLCHAIN)
				sonde_callchain__split(s->callchain.ips,
						       s->callchain.nr, kips,
						       128, &nk, NULL, 0, NULL);
			for (j = 0; j < nk; j++) {
				const struct sonde_symbol *ks =
					sonde_dso__find(kdso, kips[j], NULL);

				printf("\t%16" PRIx64 " %s\n", kips[j],
				       ks ? sonde_dso__sym_name(kdso, ks) :
					    "[unknown]");
				frames++;
			}
			p = proc_get(s->pid);
			n = sonde_unwinder__unwind(p->uw, &us, ips, 128);
			samples++;
			for (i = 0; i < n; i++) {
				const struct sonde_symbol *sym = NULL;
				struct map *mp = NULL;
				size_t k;

				for (k = p->nr; k-- > 0;)
					if (ips[i] >= p->maps[k].start &&
					    ips[i] < p->maps[k].end) {
						mp = &p->maps[k];
						break;
					}
				if (mp && mp->dso)
					sym = sonde_dso__find(mp->dso,
						sonde_dso__map_to_vaddr(mp->dso,
							mp->start, mp->pgoff,
							ips[i]), NULL);
				printf("\t%16" PRIx64 " %s\n", ips[i],
				       sym ? sonde_dso__sym_name(mp->dso, sym) :
					     "[unknown]");
				frames++;
			}
			putchar('\n');
		}
	}
	fprintf(stderr, "%ld samples, %ld frames\n", samples, frames);
	sonde_dso__put(kdso);
	sonde_symcache__free(c);
	sonde_perfdata_reader__free(r);
	return 0;
}
