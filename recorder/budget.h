/* SPDX-License-Identifier: MIT */
/* recorder/budget.h: the rings' geometry from the total memory budget (LTT_BUFFER_SIZE,
 * ltt_options.buffer_size; doc/recorder.md "Memory"). Private to libltt; no state (the unit tests call
 * it with any CPU count). */
#ifndef LTT_RECORDER_BUDGET_H
#define LTT_RECORDER_BUDGET_H

#include <stddef.h>
#include <stdint.h>

#define LTT_BUFFER_SIZE_DEFAULT	(32ull << 20)	/* all CPU rings together: doc/recorder.md "Memory" */
#define LTT_BUDGET_BLOCK_MIN	(64u << 10)	/* the budget shrinks blocks down to this, then rings */
#define LTT_BUDGET_BLOCK_DEFAULT (1u << 20)
#define LTT_BUDGET_BLOCKS_MAX	65536u

/* Block size and blocks per ring for ncpu CPU rings sharing budget bytes (0: the default). bs_opt and
 * blocks_opt are the explicit settings (0: none): explicit blocks win over the budget (the geometry is
 * then bs x blocks per CPU, as before budgets); an explicit block size is kept and the budget gives
 * the blocks. Otherwise each CPU gets budget / ncpu: blocks of 1 MiB, halved (down to 64 KiB) until a
 * ring holds 4, and the largest power of two of blocks that fits, at least 2. */
void ltt_ring_budget(unsigned ncpu, uint64_t budget, size_t bs_opt, unsigned blocks_opt, size_t *bs,
		     unsigned *blocks);

#endif
