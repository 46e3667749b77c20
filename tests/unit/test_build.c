/* SPDX-License-Identifier: MIT */
/* The harness itself: a Check suite links against every library. */
#include <check.h>
#include <stdlib.h>

#include <ltt/ltt.h>

START_TEST(not_recording_by_default)
{
	ck_assert_int_eq(ltt_is_recording(), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("build");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, not_recording_by_default);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
