// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Text symbol tables: /proc/kallsyms (kernel + [module] symbols) and
 * /tmp/perf-PID.map (JIT). Both are parsed in place: names point into the
 * file buffer the DSO keeps.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core_priv.h"
#include "sym_priv.h"

/* 64 MiB: far above any real kallsyms (~20 MB) or JIT map. */

/* Reads all of @p fd (closing it) into a NUL-terminated malloc'd buffer. */
static int read_fd(int fd, char **bufp, size_t *lenp, size_t max)
{
	size_t len = 0, cap = 1 << 16;
	char *buf, *nb;
	ssize_t n;

	buf = malloc(cap);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	/* /proc files report size 0: read until EOF. */
	for (;;) {
		if (cap - len < 2) {
			if (cap >= max) {
				free(buf);
				close(fd);
				return -EFBIG;
			}
			cap *= 2;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				close(fd);
				return -ENOMEM;
			}
			buf = nb;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = -errno;

			free(buf);
			close(fd);
			return err;
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = 0;
	*bufp = buf;
	*lenp = len;
	return 0;
}

int sym_read_file(const char *path, char **bufp, size_t *lenp, size_t max)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	return read_fd(fd, bufp, lenp, max);
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Parses hex digits at *p (no 0x); false if none or more than 16. */
static bool parse_hex(char **p, char *end, uint64_t *out)
{
	uint64_t v = 0;
	int n = 0, h;

	while (*p < end && (h = hexval(**p)) >= 0) {
		if (++n > 16)
			return false;
		v = (v << 4) | (uint64_t)h;
		(*p)++;
	}
	*out = v;
	return n > 0;
}

static int grow(struct sonde_symbol **syms, size_t *cap, size_t nr)
{
	struct sonde_symbol *n;

	if (nr < *cap)
		return 0;
	*cap = *cap ? *cap * 2 : 1024;
	n = realloc(*syms, *cap * sizeof(**syms));
	if (!n)
		return -ENOMEM;
	*syms = n;
	return 0;
}

int sym_kallsyms_lines(char *buf, size_t len, struct sonde_symbol **out,
		       size_t *nrp)
{
	struct sonde_symbol *syms = NULL;
	size_t nr = 0, cap = 0, lines = 0, nonzero = 0;
	char *p = buf, *end = buf + len;

	while (p < end) {
		char *eol = memchr(p, '\n', (size_t)(end - p));
		char *name, *mod = NULL, *q;
		uint64_t addr;
		char type;

		if (!eol)
			eol = end;
		*eol = 0;
		q = p;
		p = eol + 1;
		if (!parse_hex(&q, eol, &addr) || q + 3 > eol || *q != ' ' ||
		    q[2] != ' ')
			continue;
		lines++;
		if (addr)
			nonzero++;
		type = q[1];
		name = q + 3;
		if (!*name)
			continue;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		q = strchr(name, '\t');
		if (q) {
			*q++ = 0;
			if (*q == '[') {
				char *rb = strchr(++q, ']');

				if (rb)
					*rb = 0;
				mod = q;
			}
		}
		if (grow(&syms, &cap, nr)) {
			free(syms);
			return -ENOMEM;
		}
		syms[nr] = (struct sonde_symbol){
			.start = addr, .name = name, .module = mod,
			.binding = type == 'T' ? SONDE_SYM_GLOBAL :
				   type == 't' ? SONDE_SYM_LOCAL : SONDE_SYM_WEAK,
		};
		nr++;
	}
	if (lines && !nonzero) {
		free(syms);
		return -EACCES;
	}
	*out = syms;
	*nrp = nr;
	return 0;
}

int sym_parse_kallsyms(char *buf, size_t len, struct sonde_symbol **out,
		       size_t *nrp)
{
	struct sonde_symbol *syms;
	size_t nr;
	int err = sym_kallsyms_lines(buf, len, &syms, &nr);

	if (err)
		return err;
	/*
	 * perf 6.1 sizes kallsyms symbols up to the next one (so of the
	 * aliases at one address, the last line is the one with a size, and
	 * the one it keeps) ...
	 */
	nr = sym_table_finish(syms, nr, SYM_DUP_LAST);
	/* Hidden: the lines are there, no function has an address. */
	if (nr && !syms[nr - 1].start) {
		free(syms);
		return -EACCES;
	}
	*out = syms;
	*nrp = nr;
	/*
	 * ... except across the edge between vmlinux and the modules
	 * (gigabytes apart): there a symbol ends on the page after the one
	 * it starts on (symbols__fixup_end()).
	 */
	for (size_t i = 0; i + 1 < nr; i++) {
		uint64_t end = ((syms[i].start + 4096 + 4095) & ~4095ULL);

		if (!syms[i].module == !syms[i + 1].module)
			continue;
		if (end - syms[i].start < syms[i].size)
			syms[i].size = end - syms[i].start;
	}
	return 0;
}

int sym_parse_perfmap(char *buf, size_t len, struct sonde_symbol **out,
		      size_t *nrp)
{
	struct sonde_symbol *syms = NULL;
	size_t nr = 0, cap = 0;
	char *p = buf, *end = buf + len;

	while (p < end) {
		char *eol = memchr(p, '\n', (size_t)(end - p));
		uint64_t start, size;
		char *q;

		if (!eol)
			eol = end;
		*eol = 0;
		if (eol > p && eol[-1] == '\r')
			eol[-1] = 0;
		q = p;
		p = eol + 1;
		if (q + 2 < eol && q[0] == '0' && (q[1] == 'x' || q[1] == 'X'))
			q += 2;
		if (!parse_hex(&q, eol, &start) || *q != ' ')
			continue;
		q++;
		if (q + 2 < eol && q[0] == '0' && (q[1] == 'x' || q[1] == 'X'))
			q += 2;
		if (!parse_hex(&q, eol, &size) || *q != ' ' || !q[1])
			continue;
		if (grow(&syms, &cap, nr)) {
			free(syms);
			return -ENOMEM;
		}
		syms[nr] = (struct sonde_symbol){
			.start = start, .size = size, .name = q + 1,
			.binding = SONDE_SYM_GLOBAL,
		};
		nr++;
	}
	*out = syms;
	*nrp = sym_table_finish(syms, nr, SYM_DUP_LAST);
	return 0;
}

int sym_notes_build_id(const uint8_t *buf, size_t len, uint8_t *out,
		       size_t size)
{
	size_t off = 0;

	/* Elf_Nhdr: u32 namesz, descsz, type; name and desc 4-aligned. */
	while (len - off >= 12) {
		uint32_t namesz, descsz, type;
		size_t name_off, desc_off, next;

		memcpy(&namesz, buf + off, 4);
		memcpy(&descsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		name_off = off + 12;
		if (namesz > len || descsz > len)
			return 0;
		desc_off = name_off + (((size_t)namesz + 3) & ~(size_t)3);
		next = desc_off + (((size_t)descsz + 3) & ~(size_t)3);
		if (desc_off > len || next > len || desc_off + descsz > len)
			return 0;
		if (type == 3 && namesz == 4 && !memcmp(buf + name_off, "GNU", 4) &&
		    descsz) {
			size_t n = descsz < size ? descsz : size;

			memcpy(out, buf + desc_off, n);
			return (int)n;
		}
		off = next;
	}
	return 0;
}

int sym_perfmap_read(const char *path, char **text, struct sonde_symbol **syms,
		     size_t *nr, int *status)
{
	struct stat st;
	size_t len;
	uid_t me = geteuid();
	int fd, err;

	*text = NULL;
	*syms = NULL;
	*nr = 0;
	/* Check the file we read, not the name: no symlinks, fstat the fd. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &st)) {
		err = -errno;
		pr_debug("%s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		*status = err == -ELOOP ? SONDE_DSO_REFUSED : SONDE_DSO_MISSING;
		if (err == -ELOOP)
			pr_warn("%s is a symbolic link: refusing to use it\n",
				path);
		return err;
	}
	/* Anyone can write /tmp: trust only our own files or root's (perf). */
	if (st.st_uid != me && st.st_uid != 0) {
		close(fd);
		pr_warn("%s is owned by uid %u, not by you (uid %u) or root: "
			"refusing to use it; JIT frames show as [unknown] "
			"(chown the file to use it)\n",
			path, (unsigned int)st.st_uid, (unsigned int)me);
		*status = SONDE_DSO_REFUSED;
		return -EACCES;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		*status = SONDE_DSO_MISSING;
		return -EINVAL;
	}
	err = read_fd(fd, text, &len, SYM_TEXT_MAX);
	if (!err)
		err = sym_parse_perfmap(*text, len, syms, nr);
	if (err) {
		free(*text);
		*text = NULL;
		*status = SONDE_DSO_MISSING;
		return err;
	}
	*status = *nr ? SONDE_DSO_OK : SONDE_DSO_NO_SYMBOLS;
	return 0;
}

static bool has_prefix(const char *s, size_t len, const char *pre)
{
	size_t n = strlen(pre);

	return len >= n && !memcmp(s, pre, n);
}

bool sym_is_jit_memory(const char *name, size_t len)
{
	return (len == 6 && !memcmp(name, "//anon", 6)) ||
	       has_prefix(name, len, "/dev/zero") ||
	       has_prefix(name, len, "/anon_hugepage") ||
	       has_prefix(name, len, "[stack") ||
	       has_prefix(name, len, "/SYSV") ||
	       (len == 6 && !memcmp(name, "[heap]", 6));
}

int sym_perfmap_load(struct sonde_dso *dso)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dso->jit_dir, dso->path);
	return sym_perfmap_read(path, &dso->text, &dso->syms, &dso->nr,
				&dso->status);
}
