/* SPDX-License-Identifier: MIT */
/* recorder/stackdelta.h: the delta encoding of stack samples (core.stack_sample, TraceLog's `sam str`):
 * a sample keeps the frames, from the bottom, that the thread's previous sample had at the same
 * positions, and carries the rest. Inline and async-signal-safe (used in the sampling handler); the
 * reader's side is toolkit/stack_decode.c, tested against this in tests/unit/test_stackdelta.c. */
#ifndef LTT_RECORDER_STACKDELTA_H
#define LTT_RECORDER_STACKDELTA_H

#include <stdint.h>

/* Frames of cur[0..n) (bottom first) equal to prev[0..depth) from the bottom. */
static inline unsigned ltt_stack_match(const uint64_t *prev, unsigned depth, const uint64_t *cur, unsigned n)
{
	unsigned m = 0;

	while (m < n && m < depth && prev[m] == cur[m])
		m++;
	return m;
}

#endif
