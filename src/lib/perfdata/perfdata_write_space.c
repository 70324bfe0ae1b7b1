// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Disk space reserved ahead of the writer on ext4. A buffered write into
 * a delayed-allocation file reserves its blocks and extent entries write
 * by write; into blocks already allocated (unwritten, by fallocate) it
 * only copies. Measured here (2-CPU VM, ext4, 416 KiB writes): 0.21 ms of
 * CPU per MB of writes without the reservation, 0.15 with one of 4 MiB or
 * more ahead. That is CPU the drain loop of a recorder needs at high
 * rates of large samples. On tmpfs the same reservation costs 10% more
 * (fallocate allocates and zeroes the pages), so only ext4 gets it. The
 * blocks past the end of the data are given back when the file closes.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include "perfdata_priv.h"
#include "core_priv.h"

#define EXT4_MAGIC 0xEF53
/* Small files stay as they were: no reservation below this much. */
#define RESERVE_FROM (4u << 20)
/* Each reservation; 4 MiB already saved all there was to save. */
#define RESERVE_STEP (8u << 20)

void pw_space_init(struct sonde_perfdata_writer *w)
{
	struct statfs fs;
	struct stat st;

	w->reserve = !fstat(w->fd, &st) && S_ISREG(st.st_mode) &&
		     !fstatfs(w->fd, &fs) && fs.f_type == EXT4_MAGIC;
}

void pw_space_reserve(struct sonde_perfdata_writer *w, uint64_t end)
{
	if (!w->reserve || end < RESERVE_FROM)
		return;
	while (w->reserved < end) {
		/*
		 * KEEP_SIZE: the file's size stays that of its data, so a
		 * reader never sees the reserved blocks. A failure (no room,
		 * a quota) just ends the reserving: the writes themselves
		 * say whether the data fits.
		 */
		if (fallocate(w->fd, FALLOC_FL_KEEP_SIZE, (off_t)w->reserved,
			      RESERVE_STEP)) {
			pr_debug("perf.data writer: no space reserved ahead: %s\n",
				 strerror(errno));
			w->reserve = false;
			return;
		}
		w->reserved += RESERVE_STEP;
	}
}

int pw_space_trim(struct sonde_perfdata_writer *w)
{
	struct stat st;

	if (!w->reserved)
		return 0;
	w->reserved = 0;
	/* A truncation to the size it has frees the blocks past it. */
	if (fstat(w->fd, &st) || ftruncate(w->fd, st.st_size))
		return -errno;
	return 0;
}
