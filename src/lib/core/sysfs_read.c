// SPDX-License-Identifier: LGPL-2.1-only
/* Bounded reads of sysfs/tracefs text: untrusted input, never unbounded. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core_priv.h"

long sysfs_read_at(int dirfd, const char *name, char *buf, size_t cap)
{
	size_t len = 0;
	int fd, err = 0;

	if (!cap)
		return -EINVAL;
	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t n;

		if (len == cap - 1) {
			char extra;

			/* One more byte tells "exactly full" from "too big". */
			n = read(fd, &extra, 1);
			if (n > 0)
				err = -EFBIG;
			else if (n < 0 && errno == EINTR)
				continue;
			break;
		}
		n = read(fd, buf + len, cap - 1 - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	return err ? err : (long)len;
}

char *sysfs_trim(char *s)
{
	size_t n;

	while (*s && isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

const char *sysfs_root(const char *root)
{
	if (!root)
		root = getenv("SONDE_SYSFS_ROOT");
	return root && *root ? root : "/sys";
}

int sysfs_devices_dir(const char *root, char *buf, size_t size)
{
	int n = snprintf(buf, size, "%s/bus/event_source/devices",
			 sysfs_root(root));

	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	return 0;
}
