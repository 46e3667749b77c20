/* SPDX-License-Identifier: MIT */
/* The decimal writers of ltt dump's formats (toolkit/dump_format.h: dump_put_u64, dump_put_time,
 * used on every event of the text and JSON output): every digit count, every boundary between the
 * 4-, 8- and 16-digit pieces they are written in, and a pseudo-random sweep, against printf. */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "toolkit/dump_out.h"

static void check_u64(uint64_t v)
{
	char got[32], want[32], *e;

	memset(got, 'x', sizeof(got));
	e = dump_put_u64(got, v);
	*e = 0;
	snprintf(want, sizeof(want), "%" PRIu64, v);
	ck_assert_msg(!strcmp(got, want), "dump_put_u64(%s) wrote %s", want, got);
	ck_assert_int_le(e - got, 20);
}

static void check_time(uint64_t ns)
{
	char got[40], want[40], *e;

	memset(got, 'x', sizeof(got));
	e = dump_put_time(got, ns);
	*e = 0;
	snprintf(want, sizeof(want), "%" PRIu64 ".%09" PRIu64, ns / 1000000000u, ns % 1000000000u);
	ck_assert_msg(!strcmp(got, want), "dump_put_time(%" PRIu64 ") wrote %s, not %s", ns, got, want);
	ck_assert_int_le(e - got, 30);
}

START_TEST(u64_boundaries)
{
	uint64_t p = 1;

	check_u64(0);
	check_u64(UINT64_MAX);
	for (int d = 0; d < 20; d++, p *= 10) {
		for (uint64_t k = 1; k <= 9; k++)
			check_u64(p * k);
		check_u64(p - 1);
		check_u64(p + 1);
		check_u64(p * 10 - 1);
	}
	check_u64(10000000000000000000ull);
	check_u64(9999999999999999ull);
	check_u64(10000000000000000ull);
	check_u64(100000000ull * 100000000ull - 1);
}
END_TEST

START_TEST(u64_sweep)
{
	uint64_t x = 88172645463325252ull;

	for (int i = 0; i < 50000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		check_u64(x);
		check_u64(x >> (i % 64));
		check_time(x >> (i % 64));
	}
	for (uint64_t v = 0; v < 100000; v++)
		check_u64(v);
}
END_TEST

START_TEST(time_boundaries)
{
	check_time(0);
	check_time(1);
	check_time(999999999);
	check_time(1000000000);
	check_time(1795499828223303629ull);
	check_time(1795499828000000000ull);
	check_time(1795499828099999999ull);
	check_time(UINT64_MAX);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("dump_digits");
	TCase *tc = tcase_create("digits");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, u64_boundaries);
	tcase_add_test(tc, u64_sweep);
	tcase_add_test(tc, time_boundaries);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
