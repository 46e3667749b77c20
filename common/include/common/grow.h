/* SPDX-License-Identifier: MIT */
/* Growing an array, written once (after git's ALLOC_GROW):
 *
 *     if (LTT_GROW(v, n + 1, cap))
 *             return -ENOMEM;
 *     v[n++] = x;
 *
 * makes room for at least `need` elements in the array v of capacity cap (both lvalues; cap of any
 * integer type), doubling from LTT_GROW_MIN, and evaluates to 0, or -ENOMEM when the size overflows
 * cap's type or size_t, or realloc fails: then v and cap are unchanged, and so is what v held.
 * LTT_GROW_ZERO also zeroes the new elements (tables whose empty slot is zero); LTT_GROW_FROM takes
 * the first capacity (a large first block where many elements are expected). Not for the event path:
 * it allocates. */
#ifndef LTT_COMMON_GROW_H
#define LTT_COMMON_GROW_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define LTT_GROW_MIN 16

/* The capacity after cap for at least need elements (cap doubled, from first), 0 on overflow. */
static inline size_t ltt_grow_nr(size_t cap, size_t need, size_t first)
{
	size_t nc = cap ? cap : first;

	while (nc < need) {
		if (nc > SIZE_MAX / 2)
			return 0;
		nc *= 2;
	}
	return nc;
}

/* Reallocates *p from cap to ncap elements of size bytes, zeroing the new ones if zero. */
static inline int ltt_grow_to(void **p, size_t cap, size_t ncap, size_t size, int zero)
{
	void *np;

	if (!ncap || ncap > SIZE_MAX / size)
		return -ENOMEM;
	np = realloc(*p, ncap * size);
	if (!np)
		return -ENOMEM;
	if (zero)
		memset((char *)np + cap * size, 0, (ncap - cap) * size);
	*p = np;
	return 0;
}

#define LTT_GROW_(v, need, cap, first, zero)                                                     \
	__extension__({                                                                          \
		int ltt_g_rc_ = 0;                                                               \
		size_t ltt_g_need_ = (size_t)(need), ltt_g_cap_ = (size_t)(cap);                 \
		if (__builtin_expect(ltt_g_need_ > ltt_g_cap_, 0)) {                             \
			size_t ltt_g_nc_ = ltt_grow_nr(ltt_g_cap_, ltt_g_need_, (first));        \
			__typeof__(cap) ltt_g_tc_ = (__typeof__(cap))ltt_g_nc_;                  \
			void *ltt_g_p_ = (v);                                                    \
			if ((size_t)ltt_g_tc_ != ltt_g_nc_ || !(ltt_g_tc_ > 0) ||                \
			    ltt_grow_to(&ltt_g_p_, ltt_g_cap_, ltt_g_nc_, sizeof(*(v)), (zero))) \
				ltt_g_rc_ = -ENOMEM;                                             \
			else {                                                                   \
				(v) = ltt_g_p_;                                                  \
				(cap) = ltt_g_tc_;                                               \
			}                                                                        \
		}                                                                                \
		ltt_g_rc_;                                                                       \
	})

#define LTT_GROW(v, need, cap)		   LTT_GROW_(v, need, cap, LTT_GROW_MIN, 0)
#define LTT_GROW_ZERO(v, need, cap)	   LTT_GROW_(v, need, cap, LTT_GROW_MIN, 1)
#define LTT_GROW_FROM(v, need, cap, first) LTT_GROW_(v, need, cap, first, 0)
#define LTT_GROW_ZERO_FROM(v, need, cap, first) LTT_GROW_(v, need, cap, first, 1)

#endif
