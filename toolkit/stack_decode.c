/* SPDX-License-Identifier: MIT */
/* toolkit/stack_decode.c: core.stack_sample decoding (doc/recorder.md "Profiling"): each sample
 * keeps the first `match` frames of the thread's previous stack (of `depth` frames) and adds `frames`.
 * No libdw here: tests/unit/test_stackdelta.c includes this file. */
#include <errno.h>
#include <string.h>

#include "toolkit/profile.h"

static uint64_t rd(const unsigned char *p, unsigned n, int big)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[big ? i : n - 1 - i] << (8 * (n - 1 - i));
	return v;
}

int prof_sample_read(const struct ltt_event *ev, struct prof_sample *s)
{
	const unsigned char *p = ev->payload;

	/* tid u32, ticks u32, match u16, depth u16, frames: count u16 then u64 each */
	if (ev->size < 14)
		return -EINVAL;
	s->big_endian = ev->big_endian;
	s->tid = (uint32_t)rd(p, 4, s->big_endian);
	s->ticks = (uint32_t)rd(p + 4, 4, s->big_endian);
	s->match = (unsigned)rd(p + 8, 2, s->big_endian);
	s->depth = (unsigned)rd(p + 10, 2, s->big_endian);
	s->nframes = (unsigned)rd(p + 12, 2, s->big_endian);
	if (ev->size != 14 + 8ull * s->nframes)
		return -EINVAL;
	s->frames = p + 14;
	return 0;
}

uint64_t prof_sample_frame(const struct prof_sample *s, unsigned i)
{
	return rd(s->frames + 8 * (size_t)i, 8, s->big_endian);
}

int prof_stack_apply(struct prof_stack *st, unsigned match, unsigned depth, const uint64_t *frames,
		     unsigned nframes)
{
	if (match == 0) {
		st->known = 1;	/* a whole stack: whatever came before does not matter */
	} else if (!st->known || depth == PROF_DEPTH_UNKNOWN) {
		st->known = 0;
		return 0;
	} else if (depth != st->depth || match > depth) {
		st->known = 0;
		return -EINVAL;
	}
	if (match + nframes > PROF_MAX_DEPTH) {
		st->known = 0;
		return -EINVAL;
	}
	memcpy(st->ips + match, frames, 8 * (size_t)nframes);
	st->depth = match + nframes;
	return 1;
}
