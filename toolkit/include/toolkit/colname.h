/* SPDX-License-Identifier: MIT */
/* The names of generated columns (issue 34, point 6): `ltt sql`'s per-type tables and the Python
 * module's to_numpy name a column after its field, nested structs flattened with `_` (`s.a` -> `s_a`),
 * and two leaves of one event type must never share a column (before 28 Nov 2026 a field `ts_ns_`
 * next to a field `ts_ns`, or `s_a` next to a struct `s` holding `a`, wrote one field into the other's
 * column). The rule, one place for both (doc/cli.md "ltt sql"):
 *   1. a name equal to a leading column (`ts_ns`, ...) gets `_` appended until it is not one;
 *   2. a name an earlier leaf of the same type took (SQL names are case-insensitive: `A` and `a`
 *      collide) becomes NAME_2, NAME_3, ... the first that is neither taken nor leading.
 * Leaves are named in body order, so the same layout always gives the same names. */
#ifndef LTT_TOOLKIT_COLNAME_H
#define LTT_TOOLKIT_COLNAME_H

#include <stddef.h>

/* Writes into buf (size bytes) the column name of a leaf whose flattened name is flat: rule 1 against
 * lead[0 .. nlead), rule 2 asking taken(arg, name) whether an earlier leaf of the type holds name.
 * Returns 0, or -ENAMETOOLONG when the name does not fit (the caller refuses the type). */
int colname_make(char *buf, size_t size, const char *flat, const char *const *lead, unsigned nlead,
		 int (*taken)(void *arg, const char *name), void *arg);

#endif
