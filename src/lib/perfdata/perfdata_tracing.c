// SPDX-License-Identifier: LGPL-2.1-only
/*
 * perf's TRACING_DATA blob: how tracepoint records are laid out, copied
 * from tracefs so a reader on another machine can decode the raw data.
 *
 *   "\x17\x08\x44tracing" "0.6\0" u8 big_endian u8 sizeof(long) u32 page
 *   "header_page\0" u64 len, bytes; "header_event\0" u64 len, bytes
 *   u32 nr ftrace formats (0 here)
 *   u32 nr systems; each: "sys\0" u32 nr; each: u64 len, format bytes
 *   u32 kallsyms len (0), u32 printk len (0), u64 saved cmdlines len (0)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "perfdata_priv.h"
#include "core_priv.h"

static const char *tracefs_root(void)
{
	static const char *const roots[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};
	struct stat st;

	for (size_t i = 0; i < ARRAY_SIZE(roots); i++) {
		char p[128];

		snprintf(p, sizeof(p), "%s/events/header_page", roots[i]);
		if (!stat(p, &st))
			return roots[i];
	}
	return NULL;
}

/* Reads a whole (procfs-like, size 0 in stat) file into @b: u64 len + data. */
static int put_file(struct dbuf *b, const char *path, bool len32)
{
	FILE *f = fopen(path, "r");
	struct dbuf tmp = { 0 };
	char chunk[4096];
	size_t n;

	if (!f)
		return -errno;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		dbuf_put(&tmp, chunk, n);
	fclose(f);
	if (tmp.oom) {
		free(tmp.p);
		return -ENOMEM;
	}
	if (len32)
		dbuf_u32(b, (uint32_t)tmp.len);
	else
		dbuf_u64(b, tmp.len);
	dbuf_put(b, tmp.p, tmp.len);
	free(tmp.p);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int sonde_tracing_data_build(const char *const *tracepoints, size_t nr,
			     void **blob, size_t *len)
{
	static const unsigned char magic[] = { 0x17, 0x08, 0x44 };
	const char *root = tracefs_root();
	struct dbuf b = { 0 };
	char path[512], **tps = NULL;
	size_t nsys = 0, i;
	unsigned char u8v;
	int err = 0;

	if (!blob || !len || (nr && !tracepoints))
		return lib_err(EINVAL);
	if (!root) {
		pr_warn("tracefs is not mounted: mount -t tracefs nodev /sys/kernel/tracing\n");
		return lib_err(ENOENT);
	}
	/* Sorted copies, so events of one system are adjacent. */
	tps = calloc(nr + 1, sizeof(*tps));
	if (!tps)
		return lib_err(ENOMEM);
	for (i = 0; i < nr; i++) {
		tps[i] = strdup(tracepoints[i]);
		if (!tps[i] || !strchr(tps[i], ':')) {
			err = tps[i] ? -EINVAL : -ENOMEM;
			goto out;
		}
	}
	qsort(tps, nr, sizeof(*tps), cmp_str);

	dbuf_put(&b, magic, sizeof(magic));
	dbuf_put(&b, "tracing", 7);
	dbuf_put(&b, "0.6", 4);
	u8v = 0; /* little endian: this writer only runs natively */
	{
		union { uint16_t s; unsigned char c[2]; } e = { .s = 1 };

		u8v = e.c[0] ? 0 : 1;
	}
	dbuf_put(&b, &u8v, 1);
	u8v = sizeof(long);
	dbuf_put(&b, &u8v, 1);
	dbuf_u32(&b, (uint32_t)sysconf(_SC_PAGESIZE));

	dbuf_put(&b, "header_page", 12);
	snprintf(path, sizeof(path), "%s/events/header_page", root);
	err = put_file(&b, path, false);
	if (err)
		goto out;
	dbuf_put(&b, "header_event", 13);
	snprintf(path, sizeof(path), "%s/events/header_event", root);
	err = put_file(&b, path, false);
	if (err)
		goto out;
	dbuf_u32(&b, 0); /* ftrace's own formats: none needed */

	for (i = 0; i < nr; i++) {
		size_t sl = (size_t)(strchr(tps[i], ':') - tps[i]);

		if (!i || strncmp(tps[i], tps[i - 1], sl + 1))
			nsys++;
	}
	dbuf_u32(&b, (uint32_t)nsys);
	for (i = 0; i < nr;) {
		size_t sl = (size_t)(strchr(tps[i], ':') - tps[i]), j;

		dbuf_put(&b, tps[i], sl);
		dbuf_put(&b, "", 1);
		for (j = i; j < nr && !strncmp(tps[j], tps[i], sl + 1); j++)
			;
		dbuf_u32(&b, (uint32_t)(j - i));
		for (; i < j; i++) {
			snprintf(path, sizeof(path), "%s/events/%.*s/%s/format",
				 root, (int)sl, tps[i], tps[i] + sl + 1);
			err = put_file(&b, path, false);
			if (err) {
				pr_warn("cannot read %s: %s\n", path,
					strerror(-err));
				goto out;
			}
		}
	}
	dbuf_u32(&b, 0); /* kallsyms */
	dbuf_u32(&b, 0); /* ftrace printk formats */
	dbuf_u64(&b, 0); /* saved cmdlines */
	if (b.oom)
		err = -ENOMEM;
out:
	for (i = 0; i < nr; i++)
		free(tps[i]);
	free(tps);
	if (err) {
		free(b.p);
		return lib_err(err);
	}
	*blob = b.p;
	*len = b.len;
	return 0;
}
