/* SPDX-License-Identifier: MIT */
/* The growable buffer of the protobuf writer (pb.h). */
#include "common/grow.h"
#include "pb.h"

#define PB_MAX (1u << 30)	/* a packet larger than this is refused (-ENOMEM) */

int pb_grow(struct pb *p, size_t n)
{
	if (p->error)
		return p->error;
	if (p->len + n > PB_MAX || LTT_GROW_FROM(p->buf, p->len + n, p->cap, 4096))
		p->error = -ENOMEM;
	return p->error;
}

void pb_free(struct pb *p)
{
	free(p->buf);
	memset(p, 0, sizeof(*p));
}
