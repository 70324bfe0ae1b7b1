/* SPDX-License-Identifier: LGPL-2.1-only */
/* Bounded reads of the small text files sysfs and tracefs are made of. */
#ifndef SONDE_SYSFS_READ_H
#define SONDE_SYSFS_READ_H

#include <stddef.h>

/*
 * Reads at most @cap - 1 bytes of @dirfd/@name (dirfd may be AT_FDCWD) into
 * @buf and terminates it. Returns the length or -errno; -EFBIG when the file
 * is larger than @cap - 1 (sysfs attributes never are: refuse, do not cut).
 */
long sysfs_read_at(int dirfd, const char *name, char *buf, size_t cap);

/* Strips leading and trailing whitespace in place; returns @s moved. */
char *sysfs_trim(char *s);

/* Directory holding the PMUs for @root (NULL: $SONDE_SYSFS_ROOT or /sys). */
int sysfs_devices_dir(const char *root, char *buf, size_t size);

#endif /* SONDE_SYSFS_READ_H */
