/* SPDX-License-Identifier: MIT */
/* Private to libltt-eventdefs: a set of names for duplicate checks and look-ups in linear time (a
 * hostile file may hold a million fields in one struct). */
#ifndef LTT_EVENTDEFS_NAMES_H
#define LTT_EVENTDEFS_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "common/hashmap.h"

LTT_MAP_DEFINE(names_map, const char *, uint32_t, ltt_hash_str, ltt_eq_str)

struct names {
	struct names_map m;	/* sized once for the expected count (names_init) */
};

/* Prepares a set for up to `expected` names: 0 or -ENOMEM. */
int names_init(struct names *s, size_t expected);
void names_free(struct names *s);

/* Adds name with value idx: 1 if added, 0 if already present (*existing set to its value). The name
 * is not copied: it must outlive the set. At most `expected` names may be added. */
int names_add(struct names *s, const char *name, uint32_t idx, uint32_t *existing);

/* The value of name: 0 and *idx set, or -ENOENT. */
int names_find(const struct names *s, const char *name, uint32_t *idx);

#endif
