// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Fuzzes the symbolizer's parsers. The first byte picks the target:
 * 0 kallsyms text, 1 perf-PID.map text, 2 demangler (C++/Rust legacy/v0),
 * 3 an ELF image loaded through the symbol cache (from a memfd), then
 * looked up at a few addresses, 4 a /sys/kernel/notes blob.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "sonde/sonde.h"
#include "sym_priv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_table(const struct sonde_symbol *syms, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		if (i && syms[i - 1].start >= syms[i].start)
			abort();
		if (!syms[i].name || strlen(syms[i].name) > (1u << 20))
			abort();
		if (sym_table_find(syms, nr, syms[i].start) == NULL &&
		    syms[i].size)
			abort();
	}
}

static void fuzz_text(const uint8_t *data, size_t size, bool kallsyms)
{
	struct sonde_symbol *syms = NULL;
	size_t nr = 0;
	char *buf = malloc(size + 1);

	if (!buf)
		return;
	memcpy(buf, data, size);
	buf[size] = 0;
	if (!(kallsyms ? sym_parse_kallsyms(buf, size, &syms, &nr) :
			 sym_parse_perfmap(buf, size, &syms, &nr)))
		check_table(syms, nr);
	free(syms);
	free(buf);
}

static void fuzz_demangle(const uint8_t *data, size_t size)
{
	char *name = malloc(size + 1), *out;

	if (!name)
		return;
	memcpy(name, data, size);
	name[size] = 0;
	out = sonde_demangle(name);
	free(out);
	/* Force each Rust path whatever the prefix says. */
	if (size > 2) {
		out = sym_rust_v0_demangle(name);
		free(out);
		if (sym_is_rust_legacy(name))
			free(sym_rust_legacy_demangle(name));
	}
	free(name);
}

static void fuzz_elf(const uint8_t *data, size_t size)
{
	struct sonde_symcache *c;
	struct sonde_dso *d;
	const struct sonde_symbol *syms;
	char path[64];
	size_t nr, i;
	int fd;

	fd = memfd_create("fuzz-elf", 0);
	if (fd < 0)
		return;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	SONDE_OPTS(sonde_symcache_opts, o, .no_debug_files = true);
	c = sonde_symcache__new(&o);
	d = sonde_symcache__dso(c, path, NULL, 0);
	nr = sonde_dso__symbols(d, &syms);
	check_table(syms, nr);
	for (i = 0; i < 8; i++)
		sonde_dso__find(d, sonde_dso__map_to_vaddr(d, 0x400000, 0,
							   0x400000 + i * 0x123),
				NULL);
	sonde_dso__put(d);
	sonde_symcache__free(c);
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	sonde_set_print(NULL);
	if (!size)
		return 0;
	switch (data[0] % 5) {
	case 0:
		fuzz_text(data + 1, size - 1, true);
		break;
	case 1:
		fuzz_text(data + 1, size - 1, false);
		break;
	case 2:
		fuzz_demangle(data + 1, size - 1);
		break;
	case 3:
		fuzz_elf(data + 1, size - 1);
		break;
	default: {
		uint8_t out[64];

		sym_notes_build_id(data + 1, size - 1, out, sizeof(out));
	}
	}
	return 0;
}
