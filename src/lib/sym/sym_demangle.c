// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Demangling front end, the one both sonde_demangle() and the names
 * shown (sonde_dso__sym_name(), the report model) use. Rust is recognised first (legacy Rust symbols are valid
 * Itanium names too, but the C++ rendering keeps the hash); C++ goes to
 * libstdc++'s __cxa_demangle, loaded with dlopen on first use so that
 * libsonde needs no C++ runtime at link time.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core_priv.h"
#include "sym_priv.h"

typedef char *(*cxa_demangle_fn)(const char *mangled, char *buf, size_t *n,
				 int *status);

static cxa_demangle_fn cxa_demangle;
static pthread_once_t cxa_once = PTHREAD_ONCE_INIT;

static void cxa_load(void)
{
	void *h;

	/* Already in the process (a C++ program linking libsonde)? */
	cxa_demangle = (cxa_demangle_fn)dlsym(RTLD_DEFAULT, "__cxa_demangle");
	if (cxa_demangle)
		return;
	h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
	if (!h) {
		pr_debug("C++ demangling off: %s\n", dlerror());
		return;
	}
	cxa_demangle = (cxa_demangle_fn)dlsym(h, "__cxa_demangle");
}

/* Rust legacy (hash dropped) or v0; NULL when @p name is neither. */
static char *demangle_rust(const char *name)
{
	if (sym_is_rust_legacy(name))
		return sym_rust_legacy_demangle(name);
	if (!strncmp(name, "_R", 2))
		return sym_rust_v0_demangle(name);
	return NULL;
}

/* C++ with parameters; NULL (errno set) when it cannot be demangled. */
static char *demangle_cxx(const char *name)
{
	char *out;
	int status = 0;

	if (strncmp(name, "_Z", 2))
		return lib_err_ptr(EINVAL);
	pthread_once(&cxa_once, cxa_load);
	if (!cxa_demangle)
		return lib_err_ptr(ENOSYS);
	out = cxa_demangle(name, NULL, NULL, &status);
	if (!out || status) {
		free(out);
		return lib_err_ptr(EINVAL);
	}
	return out;
}

char *sonde_demangle(const char *name)
{
	char *out;

	if (!name)
		return lib_err_ptr(EINVAL);
	out = demangle_rust(name);
	return out ? out : demangle_cxx(name);
}

/*
 * perf shows demangled C++ names without parameters or return type
 * ("ns::f<int>"), so cut the last top-level "(...)" and what follows, and
 * a return type before the name of a template function.
 */
static void strip_params(char *d)
{
	size_t n = strlen(d), start = 0;
	int depth = 0;

	for (size_t i = n; i-- > 0;) {
		if (d[i] == ')') {
			depth++;
		} else if (d[i] == '(') {
			if (--depth == 0) {
				n = i;
				break;
			}
		}
	}
	depth = 0;
	for (size_t i = 0; i < n; i++) {
		if (d[i] == '<' || d[i] == '(')
			depth++;
		else if ((d[i] == '>' || d[i] == ')') && depth > 0)
			depth--;
		else if (d[i] == ' ' && !depth && strncmp(d, "operator", 8))
			start = i + 1;
	}
	if (start >= n)
		start = 0;
	memmove(d, d + start, n - start);
	d[n - start] = 0;
}

char *sym_demangle_perf(const char *name)
{
	char *out;

	/* Most names are not mangled: no call, no errno, no allocation. */
	if (name[0] != '_' || (name[1] != 'Z' && name[1] != 'R'))
		return NULL;
	/* Rust names keep their "<T as Trait>" spaces: no stripping. */
	out = demangle_rust(name);
	if (out)
		return out;
	out = demangle_cxx(name);
	if (out)
		strip_params(out);
	return out;
}

char *sym_shown_name(const char *raw, bool jit)
{
	size_t n = strlen(raw);
	char *base, *dm, *out = NULL;

	if (jit)
		return NULL;
	/* "_ZN2ns1fEv@plt": the target demangled, then the suffix. */
	if (n > 4 && raw[0] == '_' && !strcmp(raw + n - 4, "@plt")) {
		base = strndup(raw, n - 4);
		dm = base ? sym_demangle_perf(base) : NULL;
		if (dm && asprintf(&out, "%s@plt", dm) < 0)
			out = NULL;
		free(dm);
		free(base);
		return out;
	}
	return sym_demangle_perf(raw);
}
