/* SPDX-License-Identifier: LGPL-2.1-only */
/* Private state of the perf.data writer, shared by its source files. */
#ifndef SONDE_PERFDATA_WRITE_H
#define SONDE_PERFDATA_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "sonde/perfdata.h"
#include "sonde/record.h"
#include "sonde/synth.h"

/* A growable byte buffer for feature payloads. */
struct dbuf {
	unsigned char *p;
	size_t len;
	size_t cap;
	bool oom;
};

void dbuf_put(struct dbuf *b, const void *src, size_t len);
void dbuf_u32(struct dbuf *b, uint32_t v);
void dbuf_u64(struct dbuf *b, uint64_t v);
/* perf_header_string: u32 len, then the string NUL-padded to 64 bytes. */
void dbuf_string(struct dbuf *b, const char *s);
void dbuf_pad8(struct dbuf *b);

struct pw_event {
	unsigned char attr[sizeof(struct sonde_perf_event_attr)];
	char *name;
	uint64_t *ids;
	size_t nr_ids;
	uint64_t sample_type;
};

struct pw_group {
	char *name;
	int leader;
	int nr_members;
};

struct pw_build_id {
	char *filename;
	unsigned char id[20];
	size_t id_len;
	bool kernel;
};

/* AUX data written: the AUXTRACE index (perf's HEADER_AUXTRACE). */
struct pw_aux {
	bool feature;      /* write the feature (AUX data was recorded) */
	uint64_t *ent;     /* per AUXTRACE record: file offset, bytes */
	size_t nr, cap;
};

struct sonde_perfdata_writer {
	int fd;
	bool own_fd;
	bool pipe;
	bool begun;
	char *path;     /* NULL when writing to a caller's fd */
	char *final;    /* keep_old: the name @path takes at close */
	int err;        /* first write error, 0 if none */
	char **cmdline;
	size_t cmdline_n;
	char *version;

	struct pw_event *events;
	size_t nr_events;
	struct pw_group *groups;
	size_t nr_groups;
	struct pw_build_id *bids;
	size_t nr_bids;
	void *tracing;
	size_t tracing_len;
	uint32_t attr_size;

	/* Output buffer and offsets (in file bytes). */
	unsigned char *buf;
	size_t buf_len;
	uint64_t data_offset;  /* where the data section starts */
	uint64_t pos;          /* logical end of everything written */
	uint64_t flushed;      /* bytes really on disk */
	uint64_t round_mark;   /* end of the last complete round */
	uint64_t good_mark;    /* last round end known to be on disk */
	bool dirty_round;      /* records since the last round mark */
	/* Round marks still in the buffer, for a partial flush. */
	uint64_t marks[256];
	size_t nr_marks;

	struct sonde_perfdata_writer_stats st;
	struct pw_aux aux;
};

/* Appends @len bytes to the output (perfdata_write.c's buffered writer). */
int pw_out(struct sonde_perfdata_writer *w, const void *src, size_t len);
/* perfdata_write_aux.c: the AUXTRACE index feature, and freeing it. */
bool pw_auxtrace_feature(struct sonde_perfdata_writer *w, struct dbuf *b);
void pw_aux_free(struct sonde_perfdata_writer *w);

/* Builds the payload of feature @feat, or returns false if it is not set. */
bool pw_feature(struct sonde_perfdata_writer *w, int feat, struct dbuf *b);
/* The features this writer emits, in ascending order, for file or pipe. */
extern const int pw_file_feats[];
extern const size_t pw_nr_file_feats;
extern const int pw_pipe_feats[];
extern const size_t pw_nr_pipe_feats;

/*
 * synth.c: the records sonde_perfdata_writer__synth_*() write, handed to
 * @fn instead (valid during the call); a non-zero return stops the walk
 * and is returned. For sinks other than a writer (a profile).
 */
typedef int (*perfdata_synth_fn)(const struct sonde_record *rec, void *arg);
enum perfdata_synth_what {
	PERFDATA_SYNTH_KERNEL,	/* the kernel text map */
	PERFDATA_SYNTH_PROCESS, /* process @pid */
	PERFDATA_SYNTH_ALL,	/* every process */
};
int perfdata_synth(enum perfdata_synth_what what, pid_t pid, const struct sonde_synth_opts *opts,
		   perfdata_synth_fn fn, void *arg);

#endif /* SONDE_PERFDATA_WRITE_H */
