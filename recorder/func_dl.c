/* SPDX-License-Identifier: MIT */
/* recorder/func_dl.c: dlopen() and dlclose() of the program while function tracing records
 * (doc/recorder.md "Function tracing", Reading): the memory map (core.mapping) is recorded again as
 * soon as the set of loaded objects changed, so the functions of a library loaded later are named like
 * the program's. The stack sampler polls the same change (recorder/maps.c) but only while it samples,
 * and once per period: calls made right after a dlopen would come before their mapping.
 *
 * dlopen() looks at its caller (the object whose DT_RUNPATH it searches, $ORIGIN): so the wrapper
 * (func_x86_64.S) jumps straight to the C library's while functions are not traced, leaving the
 * program as the caller; while they are, it calls through ltt_func_dlopen() here, and a program that
 * dlopens a bare name found through its own DT_RUNPATH should name the path (doc/recorder.md). */
#include <dlfcn.h>
#include <stdlib.h>
#include <unistd.h>

#include "func_internal.h"
#include "profile.h"

#define NOINST __attribute__((no_instrument_function))

typedef void *(*dlopen_fn)(const char *, int);
typedef int (*dlclose_fn)(void *);

/* Read by func_x86_64.S's dlopen and dlclose (resolved at load: never NULL after it). */
void *ltt_func_real_dlopen, *ltt_func_real_dlclose;

static NOINST void *resolve(const char *name)
{
	void *f = dlsym(RTLD_NEXT, name);

	if (!f) {
		static const char msg[] = "ltt: function tracing: dlopen/dlclose of the C library not found; aborting\n";

		if (write(2, msg, sizeof(msg) - 1) < 0)
			abort();
		abort();
	}
	return f;
}

__attribute__((constructor(102))) static void dl_init(void)
{
	ltt_func_real_dlopen = resolve("dlopen");
	ltt_func_real_dlclose = resolve("dlclose");
}

NOINST void *ltt_func_dlopen(const char *file, int mode)
{
	void *h;

	if (!ltt_func_real_dlopen)	/* a constructor that ran before libltt's */
		ltt_func_real_dlopen = resolve("dlopen");
	h = ((dlopen_fn)ltt_func_real_dlopen)(file, mode);

	if (h && ltt_read(&ltt_func_on))
		ltt_maps_poll();	/* records the map again if the set of objects changed */
	return h;
}

NOINST int ltt_func_dlclose(void *h)
{
	int rc;

	if (!ltt_func_real_dlclose)
		ltt_func_real_dlclose = resolve("dlclose");
	rc = ((dlclose_fn)ltt_func_real_dlclose)(h);

	if (ltt_read(&ltt_func_on))
		ltt_maps_poll();
	return rc;
}
