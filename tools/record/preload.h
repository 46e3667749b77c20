/* SPDX-License-Identifier: MIT */
/* tools/record/preload.h: making a program that is not linked with libltt load it (LD_PRELOAD), for
 * `ltt record --functions` on an unmodified -pg binary and any other option that needs libltt in a
 * program built without it. One helper, to be reused (/work/notes/preload.md). */
#ifndef LTT_TOOLS_RECORD_PRELOAD_H
#define LTT_TOOLS_RECORD_PRELOAD_H

#include <stddef.h>

/* Whether the program prog (a path, or a name looked up in PATH as execvp does) is linked with libltt
 * (its file names libltt.so or holds libltt's symbols): 1, 0, or a negative errno when it cannot be
 * read. */
int preload_linked(const char *prog);
/* Whether prog calls a function-tracing hook (mcount, __fentry__, __cyg_profile_func_enter: built with
 * -pg, -pg -mfentry or -finstrument-functions): which (PRELOAD_HOOK_PG | PRELOAD_HOOK_CYG), 0 for none,
 * or a negative errno. */
#define PRELOAD_HOOK_PG	 1 /* mcount or __fentry__ (also in a program linked with libltt.a) */
#define PRELOAD_HOOK_CYG 2 /* __cyg_profile_func_enter */
int preload_hooks(const char *prog);
/* The libltt.so beside this ltt (BINDIR/../lib/libltt.so.1, as built and as installed) into out:
 * 0, or -ENOENT with why set. */
int preload_library(char *out, size_t n, char *why, size_t whylen);
/* Puts lib first in LD_PRELOAD of this process's environment (for the exec that follows): 0 or -errno. */
int preload_set(const char *lib);

#endif
