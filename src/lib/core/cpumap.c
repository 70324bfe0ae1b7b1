// SPDX-License-Identifier: LGPL-2.1-only
/*
 * CPU lists: "0-3,5" parsing, checked against the online CPUs (read from
 * $SONDE_SYSFS_ROOT like the PMUs, or /sys).
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core_priv.h"

/* Largest CPU number accepted: keeps the bitmap bounded. */
#define CPU_LIMIT 8192

/*
 * Parses @s into @set (CPU_LIMIT bits). On error fills @err with the
 * column (1-based) and what was expected, and returns -EINVAL/-ERANGE.
 */
static int parse_list(const char *s, unsigned char *set, char *err,
		      size_t errlen)
{
	const char *p = s;

	while (*p) {
		long a, b;
		char *end;

		if (!isdigit((unsigned char)*p)) {
			snprintf(err, errlen, "column %d: expected a CPU number",
				 (int)(p - s) + 1);
			return -EINVAL;
		}
		a = strtol(p, &end, 10);
		b = a;
		if (*end == '-') {
			if (!isdigit((unsigned char)end[1])) {
				snprintf(err, errlen, "column %d: expected the "
					 "end of the range", (int)(end - s) + 2);
				return -EINVAL;
			}
			p = end + 1;
			b = strtol(p, &end, 10);
			if (b < a) {
				snprintf(err, errlen, "column %d: range %ld-%ld "
					 "goes backwards", (int)(p - s) + 1, a, b);
				return -EINVAL;
			}
		}
		if (a >= CPU_LIMIT || b >= CPU_LIMIT) {
			snprintf(err, errlen, "column %d: CPU %ld is beyond %d",
				 (int)(p - s) + 1, b, CPU_LIMIT - 1);
			return -ERANGE;
		}
		for (long c = a; c <= b; c++)
			set[c / 8] |= 1u << (c % 8);
		p = end;
		if (*p == ',') {
			p++;
			if (!*p) {
				snprintf(err, errlen, "column %d: expected a CPU "
					 "number after ','", (int)(p - s) + 1);
				return -EINVAL;
			}
		} else if (*p && !isspace((unsigned char)*p)) {
			snprintf(err, errlen, "column %d: expected ',' or '-'",
				 (int)(p - s) + 1);
			return -EINVAL;
		} else if (*p) {
			p++; /* trailing newline from sysfs */
		}
	}
	return 0;
}

/* Where the online CPUs are listed: under the sysfs the PMUs come from too. */
static int online_path(char *buf, size_t size)
{
	int n = snprintf(buf, size, "%s/devices/system/cpu/online",
			 sysfs_root(NULL));

	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

static int read_online(const char *path, unsigned char *set)
{
	char buf[4096], err[128];
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return parse_list(buf, set, err, sizeof(err));
}

static struct sonde_cpu_map *from_set(const unsigned char *set)
{
	struct sonde_cpu_map *m;
	int nr = 0;

	for (int c = 0; c < CPU_LIMIT; c++)
		nr += (set[c / 8] >> (c % 8)) & 1;
	m = malloc(sizeof(*m) + (size_t)nr * sizeof(int));
	if (!m)
		return lib_err_ptr(ENOMEM);
	m->nr = 0;
	for (int c = 0; c < CPU_LIMIT; c++)
		if ((set[c / 8] >> (c % 8)) & 1)
			m->cpu[m->nr++] = c;
	return m;
}

struct sonde_cpu_map *sonde_cpu_map__parse(const char *list, char *err,
					   size_t errlen)
{
	unsigned char want[CPU_LIMIT / 8] = { 0 }, online[CPU_LIMIT / 8] = { 0 };
	char dummy[160], path[PATH_MAX];
	int ret;

	if (!err || !errlen) {
		err = dummy;
		errlen = sizeof(dummy);
	}
	err[0] = '\0';
	ret = online_path(path, sizeof(path));
	if (!ret)
		ret = read_online(path, online);
	if (ret) {
		snprintf(err, errlen, "cannot read online CPUs from %s", path);
		return lib_err_ptr(ret);
	}
	if (!list || !*list)
		return from_set(online);
	ret = parse_list(list, want, err, errlen);
	if (ret)
		return lib_err_ptr(ret);
	for (int c = 0; c < CPU_LIMIT; c++) {
		if (((want[c / 8] >> (c % 8)) & 1) &&
		    !((online[c / 8] >> (c % 8)) & 1)) {
			snprintf(err, errlen, "CPU %d is not online", c);
			return lib_err_ptr(ERANGE);
		}
	}
	return from_set(want);
}

struct sonde_cpu_map *sonde_cpu_map__new(const char *list)
{
	char err[160];
	struct sonde_cpu_map *m = sonde_cpu_map__parse(list, err, sizeof(err));

	if (!m) {
		int e = errno;

		pr_warn("CPU list '%s': %s\n", list ? list : "", err);
		errno = e;
	}
	return m;
}

struct sonde_cpu_map *sonde_cpu_map__new_any(void)
{
	struct sonde_cpu_map *m = malloc(sizeof(*m) + sizeof(int));

	if (!m)
		return lib_err_ptr(ENOMEM);
	m->nr = 1;
	m->cpu[0] = -1;
	return m;
}

void sonde_cpu_map__free(struct sonde_cpu_map *map)
{
	free(map);
}

int sonde_cpu_map__nr(const struct sonde_cpu_map *map)
{
	return map ? map->nr : 0;
}

int sonde_cpu_map__cpu(const struct sonde_cpu_map *map, int idx)
{
	if (!map || idx < 0 || idx >= map->nr)
		return -EINVAL;
	return map->cpu[idx];
}
