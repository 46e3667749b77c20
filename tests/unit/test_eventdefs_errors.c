/* SPDX-License-Identifier: MIT */
/* Parse errors of the facility model beyond the golden corpus (tests/eventdefs/bad/ and
 * tests/e2e/eventdefs_errors.sh): line numbers past libxml2's 16-bit limit, large inputs, error
 * buffers, files that cannot be read. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ltt/eventdefs.h>

static int parse_err(const char *xml, size_t len, char *err, size_t errlen)
{
	struct ltt_eventdefs *d = (struct ltt_eventdefs *)1;
	int r = ltt_eventdefs_parse_mem(xml, len, "big.xml", &d, err, errlen);

	if (r)
		ck_assert_ptr_null(d);
	else
		ltt_eventdefs_free(d);
	return r;
}

/* A facility whose struct has n fields, one per line, the last one a duplicate of the first. */
static char *many_fields(unsigned n, size_t *len)
{
	size_t cap = 64 + (size_t)n * 48;
	char *s = malloc(cap), *p = s;

	ck_assert_ptr_nonnull(s);
	p += sprintf(p, "<facility name=\"f\"><event name=\"e\"><struct>\n");	/* line 1 */
	for (unsigned i = 0; i < n; i++)					/* lines 2 .. n+1 */
		p += sprintf(p, "<field name=\"f%u\"><uint size=\"1\"/></field>\n", i);
	p += sprintf(p, "<field name=\"f0\"><uint size=\"1\"/></field>\n");	/* line n+2 */
	p += sprintf(p, "</struct></event></facility>\n");
	*len = (size_t)(p - s);
	return s;
}

START_TEST(line_numbers_past_65535)
{
	char err[256];
	size_t len;
	char *xml = many_fields(70000, &len);

	ck_assert_int_eq(parse_err(xml, len, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "big.xml:70002: duplicate field name 'f0'");
	free(xml);
}
END_TEST

START_TEST(large_struct_parses)
{
	struct ltt_eventdefs *d;
	char err[256];
	size_t len;
	char *xml = many_fields(100000, &len);
	static const char dup[] = "<field name=\"f0\"><uint size=\"1\"/></field>\n";
	char *last = strstr(xml, "\n<field name=\"f0\"><uint size=\"1\"/></field>\n</struct>");

	/* drop the duplicate: 100000 distinct fields */
	ck_assert_ptr_nonnull(last);
	last++;
	memmove(last, last + strlen(dup), strlen(last + strlen(dup)) + 1);
	ck_assert_msg(ltt_eventdefs_parse_mem(xml, strlen(xml), "big.xml", &d, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(d->facilities[0].events[0].body->n_fields, 100000);
	ck_assert_uint_eq(d->facilities[0].events[0].body->fixed_size[LTT_ARCH_LP64], 100000);
	ck_assert_uint_eq(d->facilities[0].events[0].body->fields[99999].line, 100001);
	ltt_eventdefs_free(d);
	free(xml);
}
END_TEST

START_TEST(too_many_attributes)
{
	char xml[2048], err[256];
	size_t n = 0;

	n += (size_t)sprintf(xml, "<facility name=\"f\">\n<event");
	for (int i = 0; i < 40; i++)
		n += (size_t)sprintf(xml + n, " a%d=\"1\"", i);
	n += (size_t)sprintf(xml + n, "/></facility>");
	ck_assert_int_eq(parse_err(xml, n, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "big.xml:2: more than 32 attributes in one element");
}
END_TEST

START_TEST(exponential_expansion)
{
	/* t0 holds two t1, which hold two t2, ...: 2^40 nodes once expanded; refused, not hashed */
	char xml[8192], err[256];
	size_t n = 0;

	n += (size_t)sprintf(xml, "<facility name=\"f\"><event name=\"e\"><typeref name=\"t0\"/></event>\n");
	for (int i = 0; i < 40; i++)
		n += (size_t)sprintf(xml + n, "<type name=\"t%d\"><struct><field name=\"a\"><typeref name=\"t%d\"/>"
				     "</field><field name=\"b\"><typeref name=\"t%d\"/></field></struct></type>\n",
				     i, i + 1, i + 1);
	n += (size_t)sprintf(xml + n, "<type name=\"t40\"><struct/></type></facility>");
	ck_assert_int_eq(parse_err(xml, n, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "big.xml:1: facility 'f' has more than 1000000 types once typerefs are expanded");
}
END_TEST

START_TEST(error_buffers)
{
	static const char bad[] = "<facility name=\"f\"><event name=\"e\"><struct><field name=\"a\">"
				  "<int size=\"3\"/></field></struct></event></facility>";
	char small[12];

	memset(small, 'x', sizeof(small));
	ck_assert_int_eq(parse_err(bad, sizeof(bad) - 1, small, sizeof(small)), -EINVAL);
	ck_assert_str_eq(small, "big.xml:1: ");	/* truncated, always terminated */
	ck_assert_int_eq(parse_err(bad, sizeof(bad) - 1, NULL, 0), -EINVAL);
	/* a buffer that is not NUL-terminated, and one with a NUL in it */
	ck_assert_int_eq(parse_err("<facility name=\"f\"/>", 10, small, sizeof(small)), -EINVAL);
	ck_assert_int_eq(parse_err("<facility\0name=\"f\"/>", 20, small, sizeof(small)), -EINVAL);
}
END_TEST

START_TEST(unreadable_files)
{
	struct ltt_eventdefs *d;
	char err[256];

	ck_assert_int_eq(ltt_eventdefs_parse_file("/nonexistent/x.xml", &d, err, sizeof(err)), -ENOENT);
	ck_assert_ptr_null(d);
	ck_assert_str_eq(err, "/nonexistent/x.xml: cannot open: No such file or directory");
	ck_assert_int_eq(ltt_eventdefs_parse_file("/", &d, err, sizeof(err)), -EISDIR);
	ck_assert_ptr_null(d);
	ck_assert_str_eq(err, "/: cannot read: Is a directory");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("eventdefs_errors");
	TCase *tc = tcase_create("errors");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, line_numbers_past_65535);
	tcase_add_test(tc, large_struct_parses);
	tcase_add_test(tc, too_many_attributes);
	tcase_add_test(tc, exponential_expansion);
	tcase_add_test(tc, error_buffers);
	tcase_add_test(tc, unreadable_files);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
