/* SPDX-License-Identifier: MIT */
/* The growable buffer of the protobuf writer (pb.h). */
#include "pb.h"

#define PB_MAX (1u << 30)	/* a packet larger than this is refused (-ENOMEM) */

int pb_grow(struct pb *p, size_t n)
{
	size_t cap = p->cap ? p->cap : 4096;
	uint8_t *b;

	if (p->error)
		return p->error;
	while (cap < p->len + n)
		cap *= 2;
	if (cap > PB_MAX || !(b = realloc(p->buf, cap))) {
		p->error = -ENOMEM;
		return p->error;
	}
	p->buf = b;
	p->cap = cap;
	return 0;
}

void pb_free(struct pb *p)
{
	free(p->buf);
	memset(p, 0, sizeof(*p));
}
