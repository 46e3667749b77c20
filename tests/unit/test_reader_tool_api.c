/* SPDX-License-Identifier: MIT */
/* The reader API the tools used to work around (doc/reader.md): info/system.xml read alone
 * (ltt_system_read: exact attributes, both dialects, every failure with its code and one line), and
 * the per-type slot every event's const type carries (ltt_event_type.user: NULL at open, one per type
 * and reader, written without a cast). */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <ltt/reader.h>

static char work[256];

static void write_system(const char *dir, const char *text)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/info", dir);
	mkdir(dir, 0755);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/info/system.xml", dir);
	f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

START_TEST(system_attributes_exact)
{
	char dir[300], err[256] = "";
	struct ltt_system *s;

	snprintf(dir, sizeof(dir), "%s/a", work);
	write_system(dir, "<?xml version=\"1.0\"?>\n<system node_name=\"h&amp;&lt;1&gt;\" ltt_pid=\"4242\"\n"
		     "\tltt_mode=\"flight\" empty=\"\" endian=\"little\"/>\n");
	ck_assert_int_eq(ltt_system_read(dir, &s, err, sizeof(err)), 0);
	ck_assert_str_eq(ltt_system_attr(s, "node_name"), "h&<1>");
	ck_assert_str_eq(ltt_system_attr(s, "ltt_pid"), "4242");
	ck_assert_str_eq(ltt_system_attr(s, "ltt_mode"), "flight");
	ck_assert_str_eq(ltt_system_attr(s, "empty"), "");
	ck_assert_ptr_null(ltt_system_attr(s, "ltt"));		/* no prefix match */
	ck_assert_ptr_null(ltt_system_attr(s, "mode"));
	ck_assert_str_eq(err, "");
	ltt_system_free(s);
	ltt_system_free(NULL);
}
END_TEST

/* The 2004 tools' dialect: bare values, which libxml2 refuses. */
START_TEST(system_bare_values)
{
	char dir[300];
	struct ltt_system *s;

	snprintf(dir, sizeof(dir), "%s/b", work);
	write_system(dir, "<system node_name=host2004 cpu=2 ltt_major_version=2 big_endian=0>\n"
		     "Linux 2.6.9\n</system>\n");
	ck_assert_int_eq(ltt_system_read(dir, &s, NULL, 0), 0);
	ck_assert_str_eq(ltt_system_attr(s, "node_name"), "host2004");
	ck_assert_str_eq(ltt_system_attr(s, "cpu"), "2");
	ck_assert_str_eq(ltt_system_attr(s, "big_endian"), "0");
	ltt_system_free(s);
}
END_TEST

START_TEST(system_failures)
{
	char dir[300], exp[400], err[512];
	struct ltt_system *s = (struct ltt_system *)1;

	snprintf(dir, sizeof(dir), "%s/none", work);
	ck_assert_int_eq(ltt_system_read(dir, &s, err, sizeof(err)), -ENOENT);
	ck_assert_ptr_null(s);
	snprintf(exp, sizeof(exp), "%s/info/system.xml: missing (not a trace directory?)", dir);
	ck_assert_str_eq(err, exp);

	snprintf(dir, sizeof(dir), "%s/bad", work);
	write_system(dir, "<?xml version=\"1.0\"?>\n<trace\n");
	ck_assert_int_eq(ltt_system_read(dir, &s, err, sizeof(err)), -EBADMSG);
	ck_assert_ptr_null(s);
	snprintf(exp, sizeof(exp), "%s/info/system.xml: line 1: malformed XML (expected one <system> element)",
		 dir);
	ck_assert_str_eq(err, exp);

	snprintf(dir, sizeof(dir), "%s/notfile", work);
	mkdir(dir, 0755);
	snprintf(exp, sizeof(exp), "%s/info", dir);
	mkdir(exp, 0755);
	snprintf(exp, sizeof(exp), "%s/info/system.xml", dir);
	mkdir(exp, 0755);
	ck_assert_int_eq(ltt_system_read(dir, &s, err, sizeof(err)), -EBADMSG);
	snprintf(exp, sizeof(exp), "%s/info/system.xml: not a regular file", dir);
	ck_assert_str_eq(err, exp);
}
END_TEST

static struct ltt_reader *open_trace(const char *path)
{
	struct ltt_reader_options opt = { 0 };
	struct ltt_reader *r;
	char err[512];
	const char *paths[1] = { path };

	ck_assert_msg(!ltt_reader_open(&r, paths, 1, &opt, err, sizeof(err)), "%s", err);
	return r;
}

/* Counts, per type, the events seen in the type's own slot: a tool's per-type state, no cast. */
START_TEST(type_slot_per_type_and_reader)
{
	const char *build = getenv("BUILD") && *getenv("BUILD") ? getenv("BUILD") : "build";
	const char *src = getenv("SRCDIR") && *getenv("SRCDIR") ? getenv("SRCDIR") : ".";
	char cmd[2048], path[300];
	struct ltt_reader *r, *r2;
	const struct ltt_trace_info *t, *t2;
	struct ltt_event ev;
	uint64_t *counts, total = 0, events = 0;

	snprintf(path, sizeof(path), "%s/t", work);
	snprintf(cmd, sizeof(cmd), "%s/tests/progs/mktrace -o %s -c 2 -b 4096 -f %s/tests/golden/reader/types.xml "
		 "-s %s/tests/golden/reader/types.script", build, path, src, src);
	ck_assert_int_eq(system(cmd), 0);
	r = open_trace(path);
	r2 = open_trace(path);
	t = ltt_reader_trace(r, 0);
	t2 = ltt_reader_trace(r2, 0);
	ck_assert_uint_gt(t->nevent_types, 2);
	counts = calloc(t->nevent_types, sizeof(*counts));
	ck_assert_ptr_nonnull(counts);
	for (unsigned k = 0; k < t->nevent_types; k++) {
		const struct ltt_event_type *ty = t->event_types[k];

		ck_assert_ptr_nonnull(ty->user);
		ck_assert_ptr_null(*ty->user);			/* NULL at open */
		ck_assert_ptr_ne(ty->user, t2->event_types[k]->user);	/* one per reader */
		for (unsigned j = 0; j < k; j++)
			ck_assert_ptr_ne(ty->user, t->event_types[j]->user);	/* one per type */
		*ty->user = &counts[k];
	}
	while (ltt_reader_next(r, &ev) == 1) {
		uint64_t *n = *ev.type->user;	/* the event's type is const, its slot is not */

		ck_assert_ptr_nonnull(n);
		ck_assert_ptr_eq(ev.type, ltt_trace_event_type(t, ev.id));
		(*n)++;
		events++;
	}
	for (unsigned k = 0; k < t->nevent_types; k++) {
		ck_assert_ptr_eq(*t->event_types[k]->user, &counts[k]);
		ck_assert_ptr_null(*t2->event_types[k]->user);	/* the other reader's slots untouched */
		total += counts[k];
	}
	ck_assert_uint_gt(events, 0);
	ck_assert_uint_eq(total, events);
	ltt_reader_close(r);
	ltt_reader_close(r2);
	free(counts);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("reader_tool_api");
	TCase *tc = tcase_create("api");
	SRunner *sr;
	int failed;
	char cmd[300];

	snprintf(work, sizeof(work), "%s/ltt-test-reader-api-XXXXXX",
		 getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(work)) {
		perror("mkdtemp");
		return EXIT_FAILURE;
	}
	tcase_add_test(tc, system_attributes_exact);
	tcase_add_test(tc, system_bare_values);
	tcase_add_test(tc, system_failures);
	tcase_add_test(tc, type_slot_per_type_and_reader);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", work);
	if (system(cmd))
		failed++;
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
