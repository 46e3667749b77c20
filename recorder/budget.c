/* SPDX-License-Identifier: MIT */
/* recorder/budget.c: the rings' geometry from the total memory budget (budget.h). */
#include "budget.h"

void ltt_ring_budget(unsigned ncpu, uint64_t budget, size_t bs_opt, unsigned blocks_opt, size_t *bs,
		     unsigned *blocks)
{
	uint64_t per, n;

	*bs = bs_opt ? bs_opt : LTT_BUDGET_BLOCK_DEFAULT;
	if (blocks_opt) {
		*blocks = blocks_opt;
		return;
	}
	per = (budget ? budget : LTT_BUFFER_SIZE_DEFAULT) / (ncpu ? ncpu : 1);
	if (!bs_opt)
		while (*bs > LTT_BUDGET_BLOCK_MIN && per / *bs < 4)
			*bs /= 2;
	n = per / *bs;
	*blocks = 2;
	while ((uint64_t)*blocks * 2 <= n && *blocks < LTT_BUDGET_BLOCKS_MAX)
		*blocks *= 2;
}
