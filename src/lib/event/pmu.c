// SPDX-License-Identifier: LGPL-2.1-only
/*
 * PMU discovery: every directory under bus/event_source/devices with its
 * type, format terms, event aliases and cpumask. Limits keep a hostile or
 * broken sysfs from costing unbounded memory or time.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "sonde/pmu.h"
#include "core_priv.h"

#define MAX_PMUS 1024
#define MAX_FORMATS 256
#define MAX_ALIASES 65536
#define MAX_NAME 255
#define FILE_CAP 4096

struct sonde_pmu {
	char *name;
	char *dir;      /* its sysfs directory, for sonde_pmu__read_file() */
	uint32_t type;
	char *cpumask;
	struct sonde_pmu_format *formats;
	size_t nr_formats;
	struct sonde_pmu_alias *aliases;
	size_t nr_aliases;
};

struct sonde_pmus {
	struct sonde_pmu *pmus;
	size_t nr;
};

static bool parse_u64_dec(const char **p, const char *end, uint64_t *v,
			  uint64_t max)
{
	const char *s = *p;
	uint64_t x = 0;

	if (s >= end || !isdigit((unsigned char)*s))
		return false;
	while (s < end && isdigit((unsigned char)*s)) {
		x = x * 10 + (uint64_t)(*s - '0');
		if (x > max)
			return false;
		s++;
	}
	*p = s;
	*v = x;
	return true;
}

int sonde_pmu_format__parse(const char *buf, size_t len,
			    enum sonde_pmu_config_field *field, uint64_t *bits)
{
	const char *p = buf, *end = buf + len;
	uint64_t mask = 0;
	int f;

	if (!buf || !field || !bits)
		return lib_err(EINVAL);
	while (p < end && isspace((unsigned char)*p))
		p++;
	while (end > p && (isspace((unsigned char)end[-1]) || !end[-1]))
		end--;
	if (end - p < 6 || memcmp(p, "config", 6))
		return -SONDE_ERR_PARSE;
	p += 6;
	f = SONDE_PMU_CONFIG;
	if (p < end && *p >= '1' && *p <= '3') {
		f = *p - '0';
		p++;
	}
	if (p == end) {
		/* "config" alone: the whole word. */
		*field = (enum sonde_pmu_config_field)f;
		*bits = ~0ULL;
		return 0;
	}
	if (*p++ != ':')
		return -SONDE_ERR_PARSE;
	for (;;) {
		uint64_t lo, hi;

		if (!parse_u64_dec(&p, end, &lo, 63))
			return -SONDE_ERR_PARSE;
		hi = lo;
		if (p < end && *p == '-') {
			p++;
			if (!parse_u64_dec(&p, end, &hi, 63) || hi < lo)
				return -SONDE_ERR_PARSE;
		}
		for (uint64_t b = lo; b <= hi; b++)
			mask |= 1ULL << b;
		if (p == end)
			break;
		if (*p++ != ',')
			return -SONDE_ERR_PARSE;
	}
	*field = (enum sonde_pmu_config_field)f;
	*bits = mask;
	return 0;
}

int sonde_pmu_format__apply(const struct sonde_pmu_format *fmt, uint64_t value,
			    uint64_t *word)
{
	uint64_t out = 0;
	int vbit = 0;

	if (!fmt || !word)
		return lib_err(EINVAL);
	for (int b = 0; b < 64; b++) {
		if (!(fmt->bits & (1ULL << b)))
			continue;
		if (value & (1ULL << vbit))
			out |= 1ULL << b;
		vbit++;
	}
	if (vbit < 64 && (value >> vbit))
		return -ERANGE;
	*word |= out;
	return 0;
}

static bool name_ok(const char *n)
{
	size_t len = strlen(n);

	if (!len || len > MAX_NAME || n[0] == '.')
		return false;
	for (const char *c = n; *c; c++)
		if ((unsigned char)*c < 0x21 || *c == '/' || *c == 0x7f)
			return false;
	return true;
}

static int cmp_format(const void *a, const void *b)
{
	return strcmp(((const struct sonde_pmu_format *)a)->name,
		      ((const struct sonde_pmu_format *)b)->name);
}

static int cmp_alias(const void *a, const void *b)
{
	return strcmp(((const struct sonde_pmu_alias *)a)->name,
		      ((const struct sonde_pmu_alias *)b)->name);
}

static int cmp_pmu(const void *a, const void *b)
{
	return strcmp(((const struct sonde_pmu *)a)->name,
		      ((const struct sonde_pmu *)b)->name);
}

/* Makes room for item n in *arr (capacity 8, then doubling at powers of 2). */
static int grow(void **arr, size_t n, size_t elem)
{
	void *p;

	if (n && (n < 8 || (n & (n - 1))))
		return 0;
	p = realloc(*arr, (n ? n * 2 : 8) * elem);
	if (!p)
		return -ENOMEM;
	*arr = p;
	return 0;
}

static void load_formats(struct sonde_pmu *pmu, int pmufd)
{
	char buf[FILE_CAP];
	struct dirent *de;
	DIR *d;
	int fd = openat(pmufd, "format", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return;
	}
	while ((de = readdir(d)) && pmu->nr_formats < MAX_FORMATS) {
		struct sonde_pmu_format f = { 0 };
		long n;

		if (!name_ok(de->d_name))
			continue;
		n = sysfs_read_at(dirfd(d), de->d_name, buf, sizeof(buf));
		if (n < 0 || sonde_pmu_format__parse(buf, (size_t)n, &f.field,
						     &f.bits)) {
			pr_debug("pmu %s: ignoring format/%s\n", pmu->name,
				 de->d_name);
			continue;
		}
		if (grow((void **)&pmu->formats, pmu->nr_formats,
			 sizeof(f)))
			break;
		f.name = strdup(de->d_name);
		if (!f.name)
			break;
		pmu->formats[pmu->nr_formats++] = f;
	}
	closedir(d);
	if (pmu->nr_formats)
		qsort(pmu->formats, pmu->nr_formats, sizeof(*pmu->formats),
		      cmp_format);
}

static bool has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a > b && !strcmp(s + a - b, suf);
}

static void alias_attrs(struct sonde_pmu_alias *a, int evfd)
{
	char path[MAX_NAME + 16], buf[256];
	long n;

	a->scale = 1.0;
	snprintf(path, sizeof(path), "%s.scale", a->name);
	n = sysfs_read_at(evfd, path, buf, sizeof(buf));
	if (n > 0) {
		char *end;
		double v = strtod(sysfs_trim(buf), &end);

		if (end != buf && !*end && v == v && v != 0)
			a->scale = v;
	}
	snprintf(path, sizeof(path), "%s.unit", a->name);
	n = sysfs_read_at(evfd, path, buf, sizeof(buf));
	if (n > 0) {
		char *u = sysfs_trim(buf);

		if (*u)
			a->unit = strdup(u);
	}
}

static void load_aliases(struct sonde_pmu *pmu, int pmufd)
{
	char buf[FILE_CAP];
	struct dirent *de;
	DIR *d;
	int fd = openat(pmufd, "events", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return;
	}
	while ((de = readdir(d)) && pmu->nr_aliases < MAX_ALIASES) {
		struct sonde_pmu_alias a = { 0 };
		long n;

		if (!name_ok(de->d_name) || has_suffix(de->d_name, ".scale") ||
		    has_suffix(de->d_name, ".unit") ||
		    has_suffix(de->d_name, ".per-pkg") ||
		    has_suffix(de->d_name, ".snapshot"))
			continue;
		n = sysfs_read_at(dirfd(d), de->d_name, buf, sizeof(buf));
		if (n < 0 || memchr(buf, '\0', (size_t)n)) {
			pr_debug("pmu %s: ignoring events/%s\n", pmu->name,
				 de->d_name);
			continue;
		}
		if (grow((void **)&pmu->aliases, pmu->nr_aliases, sizeof(a)))
			break;
		a.name = strdup(de->d_name);
		a.terms = strdup(sysfs_trim(buf));
		if (!a.name || !a.terms) {
			free((char *)a.name);
			free((char *)a.terms);
			break;
		}
		alias_attrs(&a, dirfd(d));
		pmu->aliases[pmu->nr_aliases++] = a;
	}
	closedir(d);
	if (pmu->nr_aliases)
		qsort(pmu->aliases, pmu->nr_aliases, sizeof(*pmu->aliases),
		      cmp_alias);
}

static void pmu_free(struct sonde_pmu *pmu)
{
	for (size_t i = 0; i < pmu->nr_formats; i++)
		free((char *)pmu->formats[i].name);
	for (size_t i = 0; i < pmu->nr_aliases; i++) {
		free((char *)pmu->aliases[i].name);
		free((char *)pmu->aliases[i].terms);
		free((char *)pmu->aliases[i].unit);
	}
	free(pmu->formats);
	free(pmu->aliases);
	free(pmu->cpumask);
	free(pmu->dir);
	free(pmu->name);
}

/* Fills @pmu from its directory; false when it has no usable type. */
static bool load_pmu(struct sonde_pmu *pmu, int devfd, const char *devdir,
		     const char *name)
{
	char buf[FILE_CAP];
	const char *p;
	uint64_t type;
	long n;
	int fd = openat(devfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return false;
	n = sysfs_read_at(fd, "type", buf, sizeof(buf));
	p = n > 0 ? sysfs_trim(buf) : "";
	if (n <= 0 || !parse_u64_dec(&p, p + strlen(p), &type, UINT32_MAX) ||
	    *p) {
		pr_debug("pmu %s: no usable type file\n", name);
		close(fd);
		return false;
	}
	memset(pmu, 0, sizeof(*pmu));
	pmu->name = strdup(name);
	if (!pmu->name || asprintf(&pmu->dir, "%s/%s", devdir, name) < 0) {
		free(pmu->name);
		close(fd);
		return false;
	}
	pmu->type = (uint32_t)type;
	n = sysfs_read_at(fd, "cpumask", buf, sizeof(buf));
	if (n > 0 && *sysfs_trim(buf))
		pmu->cpumask = strdup(sysfs_trim(buf));
	load_formats(pmu, fd);
	load_aliases(pmu, fd);
	close(fd);
	return true;
}

struct sonde_pmus *sonde_pmus__load(const struct sonde_pmus_opts *opts)
{
	char dir[4096];
	struct sonde_pmus *pmus;
	struct dirent *de;
	DIR *d;
	int err;

	if (!OPTS_VALID(opts, sonde_pmus_opts))
		return lib_err_ptr(EINVAL);
	err = sysfs_devices_dir(OPTS_GET(opts, sysfs_root, NULL), dir,
				sizeof(dir));
	if (err)
		return lib_err_ptr(err);
	pmus = calloc(1, sizeof(*pmus));
	if (!pmus)
		return lib_err_ptr(ENOMEM);
	d = opendir(dir);
	if (!d)
		return pmus; /* no PMUs at all is a valid (if sad) answer */
	while ((de = readdir(d)) && pmus->nr < MAX_PMUS) {
		struct sonde_pmu pmu;

		if (!name_ok(de->d_name))
			continue;
		if (grow((void **)&pmus->pmus, pmus->nr, sizeof(pmu))) {
			closedir(d);
			sonde_pmus__free(pmus);
			return lib_err_ptr(ENOMEM);
		}
		if (load_pmu(&pmu, dirfd(d), dir, de->d_name))
			pmus->pmus[pmus->nr++] = pmu;
	}
	closedir(d);
	if (pmus->nr)
		qsort(pmus->pmus, pmus->nr, sizeof(*pmus->pmus), cmp_pmu);
	return pmus;
}

void sonde_pmus__free(struct sonde_pmus *pmus)
{
	if (!pmus)
		return;
	for (size_t i = 0; i < pmus->nr; i++)
		pmu_free(&pmus->pmus[i]);
	free(pmus->pmus);
	free(pmus);
}

size_t sonde_pmus__count(const struct sonde_pmus *pmus)
{
	return pmus ? pmus->nr : 0;
}

const struct sonde_pmu *sonde_pmus__get(const struct sonde_pmus *pmus, size_t i)
{
	return pmus && i < pmus->nr ? &pmus->pmus[i] : NULL;
}

const struct sonde_pmu *sonde_pmus__find(const struct sonde_pmus *pmus,
					 const char *name)
{
	if (!pmus || !name)
		return lib_err_ptr(EINVAL);
	for (size_t i = 0; i < pmus->nr; i++)
		if (!strcmp(pmus->pmus[i].name, name))
			return &pmus->pmus[i];
	for (size_t i = 0; i < pmus->nr; i++)
		if (!strncmp(pmus->pmus[i].name, "uncore_", 7) &&
		    !strcmp(pmus->pmus[i].name + 7, name))
			return &pmus->pmus[i];
	return lib_err_ptr(ENOENT);
}

const char *sonde_pmu__name(const struct sonde_pmu *pmu)
{
	return pmu ? pmu->name : NULL;
}

uint32_t sonde_pmu__type(const struct sonde_pmu *pmu)
{
	return pmu ? pmu->type : 0;
}

const char *sonde_pmu__cpumask(const struct sonde_pmu *pmu)
{
	return pmu ? pmu->cpumask : NULL;
}

size_t sonde_pmu__format_count(const struct sonde_pmu *pmu)
{
	return pmu ? pmu->nr_formats : 0;
}

const struct sonde_pmu_format *sonde_pmu__format(const struct sonde_pmu *pmu,
						 size_t i)
{
	return pmu && i < pmu->nr_formats ? &pmu->formats[i] : NULL;
}

const struct sonde_pmu_format *sonde_pmu__find_format(const struct sonde_pmu *pmu,
						      const char *name)
{
	for (size_t i = 0; pmu && name && i < pmu->nr_formats; i++)
		if (!strcmp(pmu->formats[i].name, name))
			return &pmu->formats[i];
	return NULL;
}

size_t sonde_pmu__alias_count(const struct sonde_pmu *pmu)
{
	return pmu ? pmu->nr_aliases : 0;
}

const struct sonde_pmu_alias *sonde_pmu__alias(const struct sonde_pmu *pmu,
					       size_t i)
{
	return pmu && i < pmu->nr_aliases ? &pmu->aliases[i] : NULL;
}

const struct sonde_pmu_alias *sonde_pmu__find_alias(const struct sonde_pmu *pmu,
						    const char *name)
{
	for (size_t i = 0; pmu && name && i < pmu->nr_aliases; i++)
		if (!strcasecmp(pmu->aliases[i].name, name))
			return &pmu->aliases[i];
	return NULL;
}

long sonde_pmu__read_file(const struct sonde_pmu *pmu, const char *rel,
			  char *buf, size_t size)
{
	char path[4096];
	long n;

	if (!pmu || !rel || !buf || !size || strstr(rel, ".."))
		return lib_err(EINVAL);
	if (snprintf(path, sizeof(path), "%s/%s", pmu->dir, rel) >=
	    (int)sizeof(path))
		return lib_err(ENAMETOOLONG);
	n = sysfs_read_at(AT_FDCWD, path, buf, size);
	if (n < 0)
		return lib_err((int)-n);
	{
		char *t = sysfs_trim(buf);

		memmove(buf, t, strlen(t) + 1);
	}
	return (long)strlen(buf);
}
