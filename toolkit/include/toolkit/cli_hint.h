/* SPDX-License-Identifier: MIT */
/* toolkit/cli_hint.h: one line for a command line that does not parse (toolkit/cli_hint.c). */
#ifndef LTT_TOOLKIT_CLI_HINT_H
#define LTT_TOOLKIT_CLI_HINT_H

#include <stddef.h>

struct option;

/* The one of cands[n] nearest to word by edit distance (at most 1 for words under 6 characters, 2
 * under 12, else 3), or NULL when none is that near or two are as near. */
const char *ltt_cli_nearest(const char *word, const char *const *cands, size_t n);

/* After getopt_long() returned c, '?' or ':' (its optstring starts with ':', or "+:", and opterr is
 * 0): prints "ltt CMD: --opt needs a value: --opt N (see ltt CMD --help)" (the value's name from
 * usage), "option '--s' is ambiguous: --since, --stats (...)" or "unknown option '--limt'; did you
 * mean --limit? (...)", and returns 2 (the exit status of a usage error). */
int ltt_cli_option_error(const char *cmd, const char *usage, int c, int argc, char **argv,
			 const struct option *lo);

#endif
