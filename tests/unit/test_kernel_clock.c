/* SPDX-License-Identifier: MIT */
/* Kernel events' one timeline (recorder/kernel_clock.c, doc/format.md section 13): where the trace clock
 * is the TSC, a perf time t becomes the smallest TSC count whose perf time (the kernel's formula,
 * time_zero + (cyc * time_mult) >> time_shift split as the kernel splits it) is at least t. Checked
 * against the forward formula for conversions of 1, 2.4 and 3.9 GHz counters, times around the
 * conversion's steps, and counts where the split matters (past 2^shift); a time before time_zero
 * is 0. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "recorder/kernel.h"

static void check_conv(uint64_t zero, uint32_t mult, uint16_t shift)
{
	struct ltt_kconv c = { 1, zero, mult, shift };
	unsigned seed = mult;

	for (int i = 0; i < 100000; i++) {
		uint64_t cyc = ((uint64_t)rand_r(&seed) << 31 ^ (uint64_t)rand_r(&seed)) % (1ull << 50);
		uint64_t t = ltt_kernel_time_of(&c, cyc), back;

		/* exact times: the smallest count with that time, at most cyc */
		back = ltt_kernel_tsc_of(&c, t);
		ck_assert_uint_le(back, cyc);
		ck_assert_uint_eq(ltt_kernel_time_of(&c, back), t);
		ck_assert(back == 0 || ltt_kernel_time_of(&c, back - 1) < t);
		/* a time between steps: the next step's first count */
		back = ltt_kernel_tsc_of(&c, t + 1);
		ck_assert_uint_ge(ltt_kernel_time_of(&c, back), t + 1);
		ck_assert_uint_lt(ltt_kernel_time_of(&c, back - 1), t + 1);
	}
	ck_assert_uint_eq(ltt_kernel_tsc_of(&c, zero / 2), 0);
}

START_TEST(inverse)
{
	check_conv(123456789, 1u << 31, 31);		/* 1 GHz: 1 ns per cycle */
	check_conv(1000000007, 894784853, 31);		/* 2.4 GHz */
	check_conv(5, 550680852, 31);			/* 3.9 GHz */
	check_conv(0, 3435973836u, 32);			/* 1.25 GHz, shift 32 */
}
END_TEST

int main(void)
{
	Suite *s = suite_create("kernel_clock");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, inverse);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed != 0;
}
