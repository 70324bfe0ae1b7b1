/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * Event lists: events (optionally in groups) opened over a target - the
 * calling process, a child command, a process with all its threads, one
 * thread, CPUs system-wide, or a cgroup - then enabled, read, aggregated.
 */
#ifndef SONDE_EVLIST_H
#define SONDE_EVLIST_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "sonde/common.h"
#include "sonde/abi.h"
#include "sonde/cpumap.h"
#include "sonde/threadmap.h"
#include "sonde/evsel.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sonde_evlist;

/** @brief **sonde_evlist__new()** makes an empty list targeting the
 * calling thread. Free with sonde_evlist__free().
 * @return the list, or NULL with errno ENOMEM. */
SONDE_API struct sonde_evlist *sonde_evlist__new(void);

/** @brief **sonde_evlist__free()** closes and frees @p list (NULL is fine);
 * a prepared child that was never started is killed and reaped. */
SONDE_API void sonde_evlist__free(struct sonde_evlist *list);

/**
 * @brief **sonde_evlist__add()** appends an event built from @p attr (copied;
 * size 0 means sizeof) named @p name (copied; NULL = "event<idx>"). With
 * @p leader_idx >= 0 it joins the group led by that (earlier, leading)
 * event; -1 makes it stand alone or lead a new group.
 * @return the new event's index, or -errno (-EBUSY once open).
 */
SONDE_API int sonde_evlist__add(struct sonde_evlist *list,
				const struct sonde_perf_event_attr *attr,
				const char *name, int leader_idx);

/**
 * @brief **sonde_evlist__add_spec()** parses an event spec ("cycles,
 * {task-clock,page-faults}:u", see sonde_evspec_list__parse()) and adds
 * every event with its group. On a parse error the message (column, caret,
 * what was expected) is written into @p err (may be NULL).
 * @return the number of events added, or -errno (-SONDE_ERR_PARSE for a
 * bad spec, -EOPNOTSUPP when built without the parser).
 */
SONDE_API int sonde_evlist__add_spec(struct sonde_evlist *list,
				     const char *spec, char *err,
				     size_t errlen);

/** @brief **sonde_evlist__nr()** @return the number of events. */
SONDE_API int sonde_evlist__nr(const struct sonde_evlist *list);

/**
 * @brief **sonde_evlist__evsel()** @return event @p idx, or NULL. Owned by
 * @p list, valid until sonde_evlist__free().
 */
SONDE_API struct sonde_evsel *sonde_evlist__evsel(struct sonde_evlist *list,
						  int idx);

/**
 * @brief **sonde_evlist__set_maps()** sets the CPUs and threads to open on;
 * the list takes ownership of both (NULL keeps the current one).
 * @return 0, or -EBUSY once open.
 */
SONDE_API int sonde_evlist__set_maps(struct sonde_evlist *list,
				     struct sonde_cpu_map *cpus,
				     struct sonde_thread_map *threads);

/**
 * @brief **sonde_evlist__cpus()** @return the CPU map in use. Owned by @p
 * list, valid until sonde_evlist__free().
 */
SONDE_API const struct sonde_cpu_map *
sonde_evlist__cpus(const struct sonde_evlist *list);

/**
 * @brief **sonde_evlist__threads()** @return the thread map in use. Owned
 * by @p list, valid until sonde_evlist__free().
 */
SONDE_API const struct sonde_thread_map *
sonde_evlist__threads(const struct sonde_evlist *list);

/** @brief **sonde_evlist__target_pid()** targets every thread of process
 * @p pid (/proc/PID/task), on any CPU. @return 0 or -errno (-ESRCH). */
SONDE_API int sonde_evlist__target_pid(struct sonde_evlist *list, pid_t pid);

/** @brief **sonde_evlist__target_tid()** targets the one thread @p tid.
 * @return 0 or -errno. */
SONDE_API int sonde_evlist__target_tid(struct sonde_evlist *list, pid_t tid);

/**
 * @brief **sonde_evlist__target_cpus()** counts system-wide on the CPUs of
 * @p cpu_list ("0-3,5"; NULL = every online CPU), one fd per CPU.
 * @return 0 or -errno (-EINVAL syntax, -ERANGE CPU not online; logged).
 */
SONDE_API int sonde_evlist__target_cpus(struct sonde_evlist *list,
					const char *cpu_list);

/**
 * @brief **sonde_evlist__target_cgroup()** counts the tasks of cgroup
 * directory @p path on the CPUs of @p cpu_list (NULL = all online)
 * (PERF_FLAG_PID_CGROUP).
 * @return 0, or -errno: -ENOTDIR/-ENOENT for a bad path, -EMEDIUMTYPE when
 * @p path is not on a cgroup file system (logged with the path).
 */
SONDE_API int sonde_evlist__target_cgroup(struct sonde_evlist *list,
					  const char *path,
					  const char *cpu_list);

/**
 * @brief **sonde_evlist__prepare_workload()** forks a child that waits for
 * sonde_evlist__start_workload() and then execs @p argv (PATH searched).
 * With the default target the child becomes the list's target and its
 * events get enable_on_exec, so only the command is counted. With an
 * explicit target set before (CPUs, pid, cgroup) that target stays and the
 * caller enables the list around the command. The child's stdio is left
 * alone.
 * @return the child's pid, or -errno.
 */
SONDE_API pid_t sonde_evlist__prepare_workload(struct sonde_evlist *list,
					       char *const argv[]);

struct sonde_workload_opts {
	size_t sz;
	/*
	 * Reset SIGINT, SIGTERM, SIGPIPE and SIGXFSZ to their defaults in the
	 * child: a caller that ignores them for itself (a recorder writing to
	 * a pipe or up to a file size limit) does not pass that on through
	 * exec.
	 */
	bool default_signals;
	/* The child's stdout goes to its stderr: the caller's stdout carries
	 * data (record -o -). */
	bool stdout_to_stderr;
	size_t : 0;
};
#define sonde_workload_opts__last_field stdout_to_stderr

/**
 * @brief **sonde_evlist__prepare_workload_opts()** is
 * sonde_evlist__prepare_workload() with @p opts (NULL: defaults, the
 * child's signals and stdio untouched).
 * @return the child's pid, or -errno (-EINVAL for bad opts).
 */
SONDE_API pid_t
sonde_evlist__prepare_workload_opts(struct sonde_evlist *list,
				    char *const argv[],
				    const struct sonde_workload_opts *opts);

/**
 * @brief **sonde_evlist__start_workload()** lets the prepared child exec.
 * @return 0, or -errno: the exec's own errno (e.g. -ENOENT for a command
 * that does not exist) when it failed.
 */
SONDE_API int sonde_evlist__start_workload(struct sonde_evlist *list);

/** @brief **sonde_evlist__wait_workload()** waits for the child to end.
 * @return 0 with *@p status (may be NULL) as from waitpid(), or -errno. */
SONDE_API int sonde_evlist__wait_workload(struct sonde_evlist *list,
					  int *status);

struct sonde_evlist_open_opts {
	size_t sz;
	/*
	 * Keep going when an event cannot be opened: it is marked unsupported
	 * (sonde_evsel__supported()) with its errno and message, and the
	 * rest of the list opens. Default: roll everything back and fail.
	 * Running out of memory or file descriptors (ENOMEM, EMFILE,
	 * ENFILE) fails the open either way: it is no event's fault.
	 */
	bool keep_unsupported;
	/* Do not set inherit for child/pid targets (default: inherit). */
	bool no_inherit;
	/* Extra read_format bits (ENABLED|RUNNING|ID are always added). */
	uint64_t read_format;
	/*
	 * When counting kernel code is refused (EACCES/EPERM, e.g.
	 * perf_event_paranoid 2), retry the event user-only (exclude_kernel,
	 * exclude_hv) like perf does; sonde_evsel__attr() then shows it.
	 */
	bool user_fallback;
	/*
	 * Open the attrs exactly as added: no read_format bits, inherit,
	 * disabled or enable_on_exec added (a sampling tool such as record
	 * sets its own). Group members still follow their leader.
	 */
	bool exact_attrs;
	size_t : 0;
};
#define sonde_evlist_open_opts__last_field exact_attrs

/**
 * @brief **sonde_evlist__open()** opens every event on every CPU x thread
 * through sonde_event_open(). Group members follow their leader's fd. On
 * failure everything opened so far is closed again (unless
 * keep_unsupported) and the failing event carries the errno and message.
 * @return 0, or -errno of the first failure.
 */
SONDE_API int sonde_evlist__open(struct sonde_evlist *list,
				 const struct sonde_evlist_open_opts *opts);

/** @brief **sonde_evlist__close()** closes every fd (the list can be opened
 * again). */
SONDE_API void sonde_evlist__close(struct sonde_evlist *list);

/** @brief **sonde_evlist__enable()** enables every group (leaders with
 * PERF_IOC_FLAG_GROUP). @return 0 or -errno. */
SONDE_API int sonde_evlist__enable(struct sonde_evlist *list);

/** @brief **sonde_evlist__disable()** disables every group.
 * @return 0 or -errno. */
SONDE_API int sonde_evlist__disable(struct sonde_evlist *list);

/** @brief **sonde_evlist__reset()** zeroes every group's counts
 * (PERF_EVENT_IOC_RESET with PERF_IOC_FLAG_GROUP). @return 0 or -errno. */
SONDE_API int sonde_evlist__reset(struct sonde_evlist *list);

struct sonde_ring;
struct sonde_ring_aux_opts;
struct sonde_aux_span;

struct sonde_evlist_mmap_opts {
	size_t sz;
	/* Data pages per ring, a power of two; 0 means 128 (512 KiB). */
	size_t data_pages;
	/*
	 * AUX area pages (a power of two) for each forward ring whose first
	 * event is of a PMU with an AUX area (intel_pt, cs_etm, arm_spe...);
	 * rings of other PMUs (the kernel answers EOPNOTSUPP) get none. 0:
	 * no AUX areas.
	 */
	size_t aux_pages;
	/*
	 * Map the AUX areas read-only: the PMU overwrites old data instead of
	 * stopping when full (AUX overwrite mode, perf record -S); read them
	 * with sonde_evlist__read_aux_spans() and a snapshot.
	 */
	bool aux_overwrite;
	size_t : 0;
};
#define sonde_evlist_mmap_opts__last_field aux_overwrite

/**
 * @brief **sonde_evlist__mmap()** maps the ring buffers of an open list, as
 * libperf's perf_evlist__mmap() does: one ring per CPU of the list (or per
 * thread when it counts on any CPU), which every other event of that CPU
 * or thread shares through PERF_EVENT_IOC_SET_OUTPUT. Events opened with
 * attr.write_backward get overwrite rings of their own, one per CPU or
 * thread too. Every event fd joins the poll set of sonde_evlist__poll().
 * The list owns the rings: sonde_evlist__munmap(), sonde_evlist__close()
 * and sonde_evlist__free() unmap them.
 * @return 0, or -errno: -EBADF when the list is not open, -EBUSY when
 * already mapped, -EPERM over kernel.perf_event_mlock_kb (unprivileged),
 * -EINVAL for a page count that is not a power of two, or for events
 * on any CPU opened with inherit (the kernel maps no per-thread ring of an
 * inherited event: open with no_inherit, or on CPUs). Nothing stays
 * mapped on failure.
 */
SONDE_API int sonde_evlist__mmap(struct sonde_evlist *list,
				 const struct sonde_evlist_mmap_opts *opts);

/** @brief **sonde_evlist__munmap()** unmaps the rings (NULL or unmapped
 * is fine); the events stay open. */
SONDE_API void sonde_evlist__munmap(struct sonde_evlist *list);

/** @brief **sonde_evlist__nr_rings()** @return the number of rings mapped
 * (0 before sonde_evlist__mmap()). */
SONDE_API int sonde_evlist__nr_rings(const struct sonde_evlist *list);

/** @brief **sonde_evlist__ring()** @return ring @p idx (0 ..
 * nr_rings - 1; CPU or thread order, forward ring before overwrite ring),
 * owned by the list, or NULL with errno EINVAL. */
SONDE_API struct sonde_ring *sonde_evlist__ring(const struct sonde_evlist *list,
						int idx);

/* Where a chunk of AUX data comes from (value struct). */
struct sonde_evlist_aux_chunk {
	uint64_t offset; /* position in the ring's AUX stream (aux_tail) */
	int ring;        /* index for sonde_evlist__ring() */
	int cpu;         /* the ring's CPU, -1 for a per-thread ring */
	pid_t tid;       /* the ring's thread, -1 for a per-CPU ring */
};

/**
 * @brief **sonde_evlist__read_aux()** hands the new AUX data of every ring
 * mapped with an AUX area (sonde_evlist_mmap_opts.aux_pages) to @p cb,
 * at most two chunks per ring (where it wraps), in ring order, then frees
 * the space (aux_tail). Data overwritten before the read is skipped: the
 * newest aux_pages of it are kept. A non-zero return from @p cb stops the
 * pass and leaves that ring's data unconsumed. Not thread-safe.
 * @return bytes handed over, or -errno / @p cb's negative value
 * (-ECANCELED for a positive one).
 */
SONDE_API int64_t
sonde_evlist__read_aux(struct sonde_evlist *list,
		       int (*cb)(const void *data, size_t len,
				 const struct sonde_evlist_aux_chunk *where,
				 void *ctx),
		       void *ctx);

/* Where an AUX span comes from (value struct). */
struct sonde_evlist_aux_where {
	int ring;        /* index for sonde_evlist__ring() */
	int cpu;         /* the ring's CPU, -1 for a per-thread ring */
	pid_t tid;       /* the ring's thread, -1 for a per-CPU ring */
};

/**
 * @brief **sonde_evlist__read_aux_spans()** is sonde_evlist__read_aux()
 * with one span per ring (sonde_ring__aux_read_span(): both parts of
 * data that wraps the area together, as perf writes one AUXTRACE record
 * per area and read) and @p opts for snapshot reads (NULL: normal reads).
 * A non-zero return from @p cb stops the pass and leaves that ring's data
 * unconsumed. Not thread-safe.
 * @return bytes handed over, or -errno / @p cb's negative value
 * (-ECANCELED for a positive one).
 */
SONDE_API int64_t
sonde_evlist__read_aux_spans(struct sonde_evlist *list,
			     const struct sonde_ring_aux_opts *opts,
			     int (*cb)(const struct sonde_aux_span *span,
				       const struct sonde_evlist_aux_where *where,
				       void *ctx),
			     void *ctx);

/** @brief **sonde_evlist__nr_aux()** @return how many rings have an AUX
 * area (0 before sonde_evlist__mmap() or without aux_pages). */
SONDE_API int sonde_evlist__nr_aux(const struct sonde_evlist *list);

/**
 * @brief **sonde_evlist__poll()** waits up to @p timeout_ms (-1: no limit)
 * for a wakeup on any event fd of the mapped list. Fds whose task is gone
 * (POLLHUP/POLLERR) leave the poll set; sonde_evlist__nr_polled() says how
 * many remain. Not thread-safe against other calls on the same list.
 * @return the number of fds with events (0 on timeout), or -errno
 * (-EINTR when a signal came first, -EINVAL before sonde_evlist__mmap()).
 */
SONDE_API int sonde_evlist__poll(struct sonde_evlist *list, int timeout_ms);

/** @brief **sonde_evlist__nr_polled()** @return the event fds still
 * watched by sonde_evlist__poll(); 0 once every target task is gone. */
SONDE_API int sonde_evlist__nr_polled(const struct sonde_evlist *list);

/** @brief **sonde_task_events_enable()** enables every counter attached to
 * the calling task (prctl PR_TASK_PERF_EVENTS_ENABLE). @return 0 or -errno. */
SONDE_API int sonde_task_events_enable(void);

/** @brief **sonde_task_events_disable()** disables them
 * (prctl PR_TASK_PERF_EVENTS_DISABLE). @return 0 or -errno. */
SONDE_API int sonde_task_events_disable(void);

#ifdef __cplusplus
}
#endif
#endif /* SONDE_EVLIST_H */
