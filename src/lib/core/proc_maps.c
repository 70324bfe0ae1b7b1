// SPDX-License-Identifier: LGPL-2.1-only
/*
 * /proc/PID/maps, the one parser: side-band synthesis, the unwinder's
 * modules and the build ids of a recording all read it. The text is
 * untrusted (a fuzz target feeds it): a bad line is skipped with its
 * column in a debug message, never half-read.
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include "core_priv.h"

/* Hex digits at *@p into @v (at most 16 of them); false on none or overflow. */
static bool hex_field(const char **p, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;
	int n = 0;

	for (;; s++, n++) {
		unsigned int d;

		if (*s >= '0' && *s <= '9')
			d = (unsigned int)(*s - '0');
		else if (*s >= 'a' && *s <= 'f')
			d = (unsigned int)(*s - 'a' + 10);
		else if (*s >= 'A' && *s <= 'F')
			d = (unsigned int)(*s - 'A' + 10);
		else
			break;
		if (n == 16)
			return false;
		x = x << 4 | d;
	}
	*v = x;
	*p = s;
	return n > 0;
}

static bool dec_field(const char **p, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;

	for (; *s >= '0' && *s <= '9'; s++) {
		if (x > (UINT64_MAX - 9) / 10)
			return false;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	if (s == *p)
		return false;
	*v = x;
	*p = s;
	return true;
}

static bool expect(const char **p, char c)
{
	if (**p != c)
		return false;
	(*p)++;
	return true;
}

int proc_maps_parse_line(char *line, struct proc_map *m, size_t *col)
{
	static const char deleted[] = " (deleted)";
	const char *p = line;
	uint64_t maj, min;
	size_t n;

	memset(m, 0, sizeof(*m));
	line[strcspn(line, "\n")] = 0;
	if (!hex_field(&p, &m->start) || !expect(&p, '-') ||
	    !hex_field(&p, &m->end) || m->end < m->start || !expect(&p, ' '))
		goto bad;
	/* r/-, w/-, x/-, then s(hared) or p(rivate) */
	if ((p[0] != 'r' && p[0] != '-') || (p[1] != 'w' && p[1] != '-') ||
	    (p[2] != 'x' && p[2] != '-') || (p[3] != 's' && p[3] != 'p'))
		goto bad;
	memcpy(m->perms, p, 4);
	m->prot = (p[0] == 'r' ? PROT_READ : 0) | (p[1] == 'w' ? PROT_WRITE : 0) |
		  (p[2] == 'x' ? PROT_EXEC : 0);
	m->shared = p[3] == 's';
	p += 4;
	if (!expect(&p, ' ') || !hex_field(&p, &m->pgoff) || !expect(&p, ' ') ||
	    !hex_field(&p, &maj) || maj > UINT32_MAX || !expect(&p, ':') ||
	    !hex_field(&p, &min) || min > UINT32_MAX || !expect(&p, ' ') ||
	    !dec_field(&p, &m->ino))
		goto bad;
	m->maj = (uint32_t)maj;
	m->min = (uint32_t)min;
	/* The kernel pads to the name's column; no name: anonymous. */
	if (*p && *p != ' ')
		goto bad;
	while (*p == ' ')
		p++;
	m->name = line + (p - line);
	n = strlen(m->name);
	m->deleted = n >= sizeof(deleted) - 1 &&
		     !strcmp(m->name + n - (sizeof(deleted) - 1), deleted);
	return 0;
bad:
	if (col)
		*col = (size_t)(p - line);
	return -EINVAL;
}

/*
 * The next line of @f into @line (without its newline): its length, -1 at
 * the end, or -2 for a line too long for @line, read through and dropped.
 * Read by bytes, not fgets(), so that a NUL in the text cannot hide where
 * a line ends.
 */
static long next_line(FILE *f, char *line, size_t cap)
{
	size_t n = 0;
	bool lost = false;
	int c;

	while ((c = getc_unlocked(f)) != EOF && c != '\n') {
		if (n + 1 < cap)
			line[n++] = (char)c;
		else
			lost = true;
	}
	if (c == EOF && !n && !lost)
		return -1;
	line[n] = 0;
	return lost ? -2 : (long)n;
}

int proc_maps_read(FILE *f, proc_maps_fn fn, void *ctx)
{
	char line[PROC_MAPS_LINE_MAX];
	unsigned long nr = 0;
	long len;
	int err;

	while ((len = next_line(f, line, sizeof(line))) != -1) {
		struct proc_map m;
		size_t col = 0;

		nr++;
		if (len == -2) {
			/* Longer than any path the kernel prints: skip it whole. */
			pr_debug("maps line %lu: longer than %d bytes, skipped\n", nr,
				 PROC_MAPS_LINE_MAX - 1);
			continue;
		}
		if (proc_maps_parse_line(line, &m, &col)) {
			pr_debug("maps line %lu, column %zu: not a mapping, skipped\n", nr,
				 col + 1);
			continue;
		}
		err = fn(&m, ctx);
		if (err)
			return err;
	}
	return 0;
}

int proc_maps_each(pid_t pid, proc_maps_fn fn, void *ctx)
{
	char path[64];
	FILE *f;
	int err;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	else /* this process, whichever pid namespace /proc shows */
		snprintf(path, sizeof(path), "/proc/self/maps");
	f = fopen(path, "re");
	if (!f)
		return -errno;
	err = proc_maps_read(f, fn, ctx);
	fclose(f);
	return err;
}
