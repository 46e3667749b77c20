/* SPDX-License-Identifier: MIT */
/* One binary min-heap, written once and instantiated per element type so that the comparison inlines
 * (the reader's merge runs it once per event):
 *
 *     static inline int before(const struct x *a, const struct x *b) { return a->t < b->t; }
 *     LTT_HEAP_DEFINE(xheap, struct x *, before)
 *
 * defines static inline functions over an array h of n elements of that type, h[0] the least (the
 * one no other is `before`; ties in any order, so make `before` total, e.g. by a rank):
 *     xheap_sift_down(h, n, i)  h[i] moved down to its place (after h[0] was replaced or grew)
 *     xheap_sift_up(h, i)       h[i] moved up to its place (after it was added at the end or shrank)
 *     xheap_make(h, n)          any array made a heap
 *     xheap_push(h, &n, x)      x added (h has room for n + 1)
 *     xheap_pop(h, &n)          h[0] removed (n > 0); the caller reads it first
 * No allocation: the caller owns the array. */
#ifndef LTT_COMMON_HEAP_H
#define LTT_COMMON_HEAP_H

#include <stddef.h>

#define LTT_HEAP_DEFINE(name, type, before)						\
static inline __attribute__((unused)) void name##_sift_down(type *h, size_t n, size_t i)	\
{											\
	type x = h[i];									\
											\
	for (;;) {									\
		size_t c = 2 * i + 1;							\
											\
		if (c >= n)								\
			break;								\
		if (c + 1 < n && before(h[c + 1], h[c]))				\
			c++;								\
		if (!before(h[c], x))							\
			break;								\
		h[i] = h[c];								\
		i = c;									\
	}										\
	h[i] = x;									\
}											\
											\
static inline __attribute__((unused)) void name##_sift_up(type *h, size_t i)		\
{											\
	type x = h[i];									\
											\
	while (i > 0) {									\
		size_t p = (i - 1) / 2;							\
											\
		if (!before(x, h[p]))							\
			break;								\
		h[i] = h[p];								\
		i = p;									\
	}										\
	h[i] = x;									\
}											\
											\
static inline __attribute__((unused)) void name##_make(type *h, size_t n)		\
{											\
	for (size_t i = n / 2; i-- > 0; )						\
		name##_sift_down(h, n, i);						\
}											\
											\
static inline __attribute__((unused)) void name##_push(type *h, size_t *n, type x)	\
{											\
	h[*n] = x;									\
	name##_sift_up(h, (*n)++);							\
}											\
											\
static inline __attribute__((unused)) void name##_pop(type *h, size_t *n)		\
{											\
	h[0] = h[--*n];									\
	if (*n)										\
		name##_sift_down(h, *n, 0);						\
}

#endif
