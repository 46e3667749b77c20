/* SPDX-License-Identifier: MIT */
/* The rings' geometry from the memory budget (recorder/budget.h, doc/recorder.md "Memory"), with the
 * CPU count faked: the table of doc/recorder.md for 2, 64 and 256 CPUs at the default budget (32 MiB
 * of CPU rings whatever the count: 16 x 1 MiB, 4 x 128 KiB, 2 x 64 KiB per CPU), LTT_BUFFER_SIZE's
 * budgets, and explicit settings (LTT_BLOCKS wins; an explicit block size is kept). */
#include <check.h>

#include "recorder/budget.h"

static void geom(unsigned ncpu, uint64_t budget, size_t bs_opt, unsigned blocks_opt, size_t want_bs,
		 unsigned want_blocks)
{
	size_t bs;
	unsigned blocks;

	ltt_ring_budget(ncpu, budget, bs_opt, blocks_opt, &bs, &blocks);
	ck_assert_msg(bs == want_bs && blocks == want_blocks,
		      "%u CPUs, budget %llu, bs %zu, blocks %u: got %u x %zu, want %u x %zu", ncpu,
		      (unsigned long long)budget, bs_opt, blocks_opt, blocks, bs, want_blocks, want_bs);
}

START_TEST(table_default)
{
	/* doc/recorder.md "Memory": the table */
	geom(1, 0, 0, 0, 1u << 20, 32);
	geom(2, 0, 0, 0, 1u << 20, 16);
	geom(64, 0, 0, 0, 128u << 10, 4);
	geom(256, 0, 0, 0, 64u << 10, 2);
	/* never more than the budget for the CPU rings, up to 256 CPUs */
	for (unsigned n = 1; n <= 256; n++) {
		size_t bs;
		unsigned blocks;

		ltt_ring_budget(n, 0, 0, 0, &bs, &blocks);
		ck_assert_uint_le((uint64_t)n * blocks * bs, LTT_BUFFER_SIZE_DEFAULT);
		ck_assert_uint_gt((uint64_t)n * blocks * bs * 2, LTT_BUFFER_SIZE_DEFAULT);
		ck_assert_uint_ge(blocks, 2);
	}
}
END_TEST

START_TEST(budgets)
{
	geom(2, 8u << 20, 0, 0, 1u << 20, 4);
	geom(2, 1u << 20, 0, 0, 128u << 10, 4);
	geom(64, 8u << 20, 0, 0, 64u << 10, 2);	/* less than 2 blocks of 64 KiB a CPU: 2 (over budget) */
	geom(4, 1ull << 30, 0, 0, 1u << 20, 256);
	geom(2, 3u << 20, 0, 0, 256u << 10, 4);		/* 1.5 MiB a CPU: 4 x 256 KiB (the power of two below) */
}
END_TEST

START_TEST(explicit)
{
	geom(64, 0, 0, 16, 1u << 20, 16);		/* LTT_BLOCKS: the old geometry, 16 x 1 MiB a CPU */
	geom(64, 0, 4096, 0, 4096, 128);		/* LTT_BLOCK_SIZE: kept, the budget gives the blocks */
	geom(2, 0, 4u << 20, 8, 4u << 20, 8);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("budget");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, table_default);
	tcase_add_test(tc, budgets);
	tcase_add_test(tc, explicit);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed != 0;
}
