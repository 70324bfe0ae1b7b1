/* SPDX-License-Identifier: LGPL-2.1-only */
/* Sets of threads to open events on: self, one tid, all tasks of a pid. */
#ifndef SONDE_THREADMAP_H
#define SONDE_THREADMAP_H

#include <sys/types.h>
#include "sonde/common.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sonde_thread_map;

/** @brief **sonde_thread_map__new_self()** is {0}: the calling thread
 * (and, with inherit, threads it creates later). Free with
 * sonde_thread_map__free(). @return the map or NULL + errno. */
SONDE_API struct sonde_thread_map *sonde_thread_map__new_self(void);

/** @brief **sonde_thread_map__new_any()** is {-1}: any task (system-wide
 * per-CPU counting). Free with sonde_thread_map__free().
 * @return the map or NULL + errno. */
SONDE_API struct sonde_thread_map *sonde_thread_map__new_any(void);

/**
 * @brief **sonde_thread_map__new_pid()** lists every thread of process
 * @p pid from /proc/PID/task. Free with sonde_thread_map__free().
 * @return the map, or NULL with errno ESRCH (no such process) or ENOMEM.
 */
SONDE_API struct sonde_thread_map *sonde_thread_map__new_pid(pid_t pid);

/** @brief **sonde_thread_map__new_tid()** is the one thread @p tid. Free
 * with sonde_thread_map__free(). @return the map or NULL + errno. */
SONDE_API struct sonde_thread_map *sonde_thread_map__new_tid(pid_t tid);

/** @brief **sonde_thread_map__new_array()** is the @p nr threads of
 * @p tids (copied, order kept), e.g. the threads of several -p/-t lists.
 * Free with sonde_thread_map__free().
 * @return the map, or NULL with errno EINVAL (nr <= 0, a tid <= 0) or
 * ENOMEM. */
SONDE_API struct sonde_thread_map *sonde_thread_map__new_array(const pid_t *tids,
							       int nr);

/** @brief **sonde_thread_map__free()** frees @p map (NULL is fine). */
SONDE_API void sonde_thread_map__free(struct sonde_thread_map *map);

/** @brief **sonde_thread_map__nr()** @return the number of entries. */
SONDE_API int sonde_thread_map__nr(const struct sonde_thread_map *map);

/** @brief **sonde_thread_map__pid()** @return entry @p idx (0 = self,
 * -1 = any), or -EINVAL when out of range. */
SONDE_API pid_t sonde_thread_map__pid(const struct sonde_thread_map *map,
				      int idx);

#ifdef __cplusplus
}
#endif
#endif /* SONDE_THREADMAP_H */
