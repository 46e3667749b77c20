/* SPDX-License-Identifier: MIT */
/* The delta encoding of stack samples round-trips: stacks encoded as the recorder does
 * (recorder/stackdelta.h: frames unchanged from the bottom, then the new ones) and decoded by the
 * reader (toolkit/stack_decode.c) give back every stack exactly, over random walks of push, pop
 * and change; a sample after a lost one (depth 65535) or building on an unknown state is refused until
 * a whole one comes; inconsistent samples are refused. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "recorder/stackdelta.h"
#include "toolkit/profile.h"

START_TEST(roundtrip_random)
{
	uint64_t prev[PROF_MAX_DEPTH], cur[PROF_MAX_DEPTH];
	unsigned pdepth = 0, n = 0, whole = 0;
	struct prof_stack st;
	unsigned seed = 12345;

	memset(&st, 0, sizeof(st));
	for (int i = 0; i < 200000; i++) {
		unsigned op = (unsigned)rand_r(&seed) % 4, m;

		/* the new stack: from the previous one, pop some, push some, change the top */
		n = pdepth;
		memcpy(cur, prev, sizeof(uint64_t) * n);
		if (op == 0 && n)
			n -= 1 + (unsigned)rand_r(&seed) % n;
		if (op <= 1)
			while (n < PROF_MAX_DEPTH && rand_r(&seed) % 3)
				cur[n++] = 0x400000u + (unsigned)rand_r(&seed) % 64;
		if (n && op == 2)
			cur[n - 1] += 1 + (unsigned)rand_r(&seed) % 5;
		if (op == 3 && n)
			cur[(unsigned)rand_r(&seed) % n] ^= 0x10;	/* a frame in the middle */
		m = (i % 64) ? ltt_stack_match(prev, pdepth, cur, n) : 0;
		whole += m == 0;
		ck_assert_int_eq(prof_stack_apply(&st, m, pdepth, cur + m, n - m), 1);
		ck_assert_uint_eq(st.depth, n);
		ck_assert_int_eq(memcmp(st.ips, cur, sizeof(uint64_t) * n), 0);
		memcpy(prev, cur, sizeof(uint64_t) * n);
		pdepth = n;
	}
	ck_assert_uint_ge(whole, 200000 / 64);
}
END_TEST

START_TEST(match_exact)
{
	uint64_t a[] = { 1, 2, 3, 4 }, b[] = { 1, 2, 9, 4, 5 };

	ck_assert_uint_eq(ltt_stack_match(a, 4, b, 5), 2);
	ck_assert_uint_eq(ltt_stack_match(a, 4, a, 4), 4);
	ck_assert_uint_eq(ltt_stack_match(a, 2, a, 4), 2);
	ck_assert_uint_eq(ltt_stack_match(a, 4, a, 0), 0);
}
END_TEST

START_TEST(unknown_and_bad)
{
	uint64_t f[] = { 10, 20, 30 };
	struct prof_stack st;

	memset(&st, 0, sizeof(st));
	/* the reader starts mid-stream: a delta is not applicable, a whole sample is */
	ck_assert_int_eq(prof_stack_apply(&st, 2, 3, f, 1), 0);
	ck_assert_int_eq(prof_stack_apply(&st, 0, 7, f, 3), 1);
	ck_assert_uint_eq(st.depth, 3);
	ck_assert_int_eq(prof_stack_apply(&st, 3, 3, f, 0), 1);	/* same stack */
	ck_assert_uint_eq(st.depth, 3);
	ck_assert_int_eq(prof_stack_apply(&st, 1, 3, f + 2, 1), 1);
	ck_assert_uint_eq(st.depth, 2);
	ck_assert(st.ips[0] == 10 && st.ips[1] == 30);
	/* a sample after a lost one */
	ck_assert_int_eq(prof_stack_apply(&st, 1, PROF_DEPTH_UNKNOWN, f, 1), 0);
	ck_assert_int_eq(st.known, 0);
	ck_assert_int_eq(prof_stack_apply(&st, 0, PROF_DEPTH_UNKNOWN, f, 2), 1);
	/* inconsistent: wrong previous depth, match beyond it, too deep */
	ck_assert_int_eq(prof_stack_apply(&st, 1, 5, f, 1), -EINVAL);
	ck_assert_int_eq(prof_stack_apply(&st, 0, 0, f, 2), 1);
	ck_assert_int_eq(prof_stack_apply(&st, 3, 2, f, 0), -EINVAL);
	ck_assert_int_eq(prof_stack_apply(&st, 0, 0, f, 2), 1);
	ck_assert_int_eq(prof_stack_apply(&st, 2, 2, f, PROF_MAX_DEPTH - 1), -EINVAL);
	ck_assert_int_eq(st.known, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("stackdelta");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, roundtrip_random);
	tcase_add_test(tc, match_exact);
	tcase_add_test(tc, unknown_and_bad);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed != 0;
}
