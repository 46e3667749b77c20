/* SPDX-License-Identifier: MIT */
/* A string set sized once (common/hashmap.h): names_add never allocates. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"

int names_init(struct names *s, size_t expected)
{
	memset(s, 0, sizeof(*s));
	return names_map_reserve(&s->m, expected + 1) ? -ENOMEM : 0;
}

void names_free(struct names *s)
{
	names_map_free(&s->m);
}

int names_add(struct names *s, const char *name, uint32_t idx, uint32_t *existing)
{
	int added;
	uint32_t *v = names_map_put(&s->m, name, &added);

	if (!v)
		return 1;	/* cannot happen within the expected count (reserved) */
	if (added) {
		*v = idx;
		return 1;
	}
	if (existing)
		*existing = *v;
	return 0;
}

int names_find(const struct names *s, const char *name, uint32_t *idx)
{
	const uint32_t *v = names_map_find(&s->m, name);

	if (!v)
		return -ENOENT;
	*idx = *v;
	return 0;
}
