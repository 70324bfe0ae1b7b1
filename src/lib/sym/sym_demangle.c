// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Demangling front end. Rust is recognised first (legacy Rust symbols are
 * valid Itanium names too, but the C++ rendering keeps the hash); C++ goes
 * to libstdc++'s __cxa_demangle, loaded with dlopen on first use so that
 * libsonde needs no C++ runtime at link time.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "sym_internal.h"

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

char *sonde_demangle(const char *name)
{
	char *out;
	int status = 0;

	if (!name)
		return lib_err_ptr(EINVAL);
	if (sym_is_rust_legacy(name)) {
		out = sym_rust_legacy_demangle(name);
		if (out)
			return out;
	}
	if (!strncmp(name, "_R", 2)) {
		out = sym_rust_v0_demangle(name);
		if (out)
			return out;
	}
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
