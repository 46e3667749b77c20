/* SPDX-License-Identifier: MIT */
/* The JSON syntax check the event format uses for data_json values (toolkit/trace2_text.c): a value
 * that does not parse is written as a string, so the output stays one JSON object per line. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "toolkit/trace2_text.h"

static int valid(const char *s)
{
	return t2_json_valid(s, strlen(s));
}

START_TEST(accepts_json_values)
{
	static const char *const good[] = {
		"0", "-1", "3.25", "1e9", "-0.5E-3", "true", "false", "null", "\"\"", "\"a\\\"b\\\\c\\u00e9\\n\"",
		"[]", "{}", " [ 1 , 2 ] ", "{\"a\":[1,{\"b\":null}],\"c\":\"d\"}", "[[[[[]]]]]", "\"caf\xc3\xa9\"",
	};

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		ck_assert_msg(valid(good[i]), "rejected %s", good[i]);
}
END_TEST

START_TEST(rejects_everything_else)
{
	static const char *const bad[] = {
		"", " ", "01", "1.", ".5", "1e", "+1", "tru", "nul", "\"abc", "\"a\nb\"", "\"\\x\"", "\"\\u12\"",
		"[", "]", "[1,]", "[,1]", "{\"a\"}", "{\"a\":}", "{a:1}", "{\"a\":1,}", "1 2", "[1] x", "{}{}",
		"[1}", "{\"a\":1]",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(!valid(bad[i]), "accepted '%s'", bad[i]);
	/* embedded NUL: the value stops being valid where the given length says */
	ck_assert(!t2_json_valid("[1]\0", 4));
	ck_assert(t2_json_valid("[1]\0", 3));
}
END_TEST

START_TEST(depth_is_bounded)
{
	char deep[200];

	memset(deep, '[', 100);
	memset(deep + 100, ']', 100);
	ck_assert(!t2_json_valid(deep, sizeof(deep)));	/* 100 levels: beyond the bound, rejected */
	ck_assert(t2_json_valid(deep + 40, 120));	/* 60 levels: accepted */
}
END_TEST

int main(void)
{
	Suite *s = suite_create("app_json");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, accepts_json_values);
	tcase_add_test(tc, rejects_everything_else);
	tcase_add_test(tc, depth_is_bounded);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
