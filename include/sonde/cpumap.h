/* SPDX-License-Identifier: LGPL-2.1-only */
/* Sets of CPUs to open events on: parsed lists ("0-3,5") or "any CPU". */
#ifndef SONDE_CPUMAP_H
#define SONDE_CPUMAP_H

#include <stddef.h>
#include "sonde/common.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sonde_cpu_map;

/**
 * @brief **sonde_cpu_map__parse()** parses a CPU list such as "0-3,5"
 * (NULL or "" = every online CPU) and checks each CPU is online. The
 * online CPUs are read from devices/system/cpu/online under
 * $SONDE_SYSFS_ROOT (unset or empty: /sys), the tree the PMUs come from.
 * On error a message with the column and what was expected goes into
 * @p err (may be NULL). Free with sonde_cpu_map__free().
 * @return the map, or NULL with errno EINVAL (syntax), ERANGE (a CPU not
 * online), ENOMEM, or the errno of reading the online list.
 */
SONDE_API struct sonde_cpu_map *sonde_cpu_map__parse(const char *list,
						     char *err, size_t errlen);

/** @brief **sonde_cpu_map__new()** is sonde_cpu_map__parse() without the
 * message (it is logged at WARN). Free with sonde_cpu_map__free().
 * @return the map, or NULL with errno set. */
SONDE_API struct sonde_cpu_map *sonde_cpu_map__new(const char *list);

/** @brief **sonde_cpu_map__new_any()** is the one-entry map {-1}: "any CPU"
 * (per-task counting). Free with sonde_cpu_map__free().
 * @return the map, or NULL with errno ENOMEM. */
SONDE_API struct sonde_cpu_map *sonde_cpu_map__new_any(void);

/** @brief **sonde_cpu_map__free()** frees @p map (NULL is fine). */
SONDE_API void sonde_cpu_map__free(struct sonde_cpu_map *map);

/** @brief **sonde_cpu_map__nr()** @return the number of entries. */
SONDE_API int sonde_cpu_map__nr(const struct sonde_cpu_map *map);

/** @brief **sonde_cpu_map__cpu()** @return entry @p idx (-1 = any CPU),
 * or -EINVAL when out of range. */
SONDE_API int sonde_cpu_map__cpu(const struct sonde_cpu_map *map, int idx);

#ifdef __cplusplus
}
#endif
#endif /* SONDE_CPUMAP_H */
