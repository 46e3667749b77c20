/* SPDX-License-Identifier: MIT */
/* A string set with open addressing (FNV-1a hash, linear probing), sized once. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"

struct names_slot {
	const char *name;
	uint32_t idx;
};

static uint64_t hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

int names_init(struct names *s, size_t expected)
{
	size_t cap = 16;

	while (cap < 2 * expected + 2) {
		if (cap > SIZE_MAX / 4 / sizeof(struct names_slot))
			return -ENOMEM;
		cap *= 2;
	}
	s->slots = calloc(cap, sizeof(*s->slots));
	if (!s->slots)
		return -ENOMEM;
	s->mask = cap - 1;
	return 0;
}

void names_free(struct names *s)
{
	free(s->slots);
	s->slots = NULL;
}

int names_add(struct names *s, const char *name, uint32_t idx, uint32_t *existing)
{
	for (size_t i = hash(name) & s->mask;; i = (i + 1) & s->mask) {
		struct names_slot *e = &s->slots[i];

		if (!e->name) {
			e->name = name;
			e->idx = idx;
			return 1;
		}
		if (!strcmp(e->name, name)) {
			if (existing)
				*existing = e->idx;
			return 0;
		}
	}
}

int names_find(const struct names *s, const char *name, uint32_t *idx)
{
	for (size_t i = hash(name) & s->mask;; i = (i + 1) & s->mask) {
		const struct names_slot *e = &s->slots[i];

		if (!e->name)
			return -ENOENT;
		if (!strcmp(e->name, name)) {
			*idx = e->idx;
			return 0;
		}
	}
}
