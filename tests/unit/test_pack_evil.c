/* SPDX-License-Identifier: MIT */
/* ltt unpack refuses hostile and broken archives, each with its own message, leaving nothing behind
 * (neither in the target's directory nor in a private temporary directory). */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "reader/archive.h"
#include "test_pack_util.h"

#define SYS "<system cpu=\"1\"/>\n"

static char err[1024];

/* Unpacks evil.tar.gz both ways; checks the error, the message, and that nothing was left. */
static void refused(int expect_ret, const char *expect_msg, uint64_t max_bytes)
{
	struct ltt_unpack_options uo = { .max_bytes = max_bytes };
	char *dir = (char *)"unset";
	int ret;

	err[0] = '\0';
	ret = ltt_archive_unpack("evil.tar.gz", "out", &uo, err, sizeof(err));
	ck_assert_int_eq(ret, expect_ret);
	ck_assert_str_eq(err, expect_msg);
	ck_assert_int_eq(count_entries("."), 1);	/* evil.tar.gz alone: no out, no .out.unpack-* */

	if (max_bytes)
		return;	/* the private extraction has its own limit (LTT_UNPACK_MAX) */
	ck_assert_int_eq(mkdir("tmp", 0700), 0);
	setenv("TMPDIR", "tmp", 1);
	err[0] = '\0';
	ret = ltt_archive_unpack_private("evil.tar.gz", &dir, err, sizeof(err));
	ck_assert_int_eq(ret, expect_ret);
	ck_assert_ptr_null(dir);
	ck_assert_str_eq(err, expect_msg);
	ck_assert_int_eq(count_entries("tmp"), 0);
}

#define HEAD { "t/", AE_IFDIR, NULL, NULL, 0, 0 }, { "t/info/", AE_IFDIR, NULL, NULL, 0, 0 }, \
	     { "t/info/system.xml", AE_IFREG, SYS, NULL, 0, 0 }
#define N(a) (sizeof(a) / sizeof((a)[0]))

START_TEST(absolute_path)
{
	const struct raw_entry e[] = { HEAD, { "/t/cpu/0", AE_IFREG, "x", NULL, 0, 0 } };

	mk_archive("evil.tar.gz", e, N(e));
	refused(-EINVAL, "evil.tar.gz: entry '/t/cpu/0': absolute path", 0);
}
END_TEST

START_TEST(dot_dot)
{
	const struct raw_entry e[] = { HEAD, { "t/cpu/../../../etc/cron.d/x", AE_IFREG, "x", NULL, 0, 0 } };

	mk_archive("evil.tar.gz", e, N(e));
	refused(-EINVAL, "evil.tar.gz: entry 't/cpu/../../../etc/cron.d/x': '..' in its path", 0);
}
END_TEST

START_TEST(symbolic_link)
{
	const struct raw_entry e[] = { HEAD, { "t/cpu/", AE_IFDIR, NULL, NULL, 0, 0 },
				       { "t/cpu/0", AE_IFLNK, NULL, "/etc/passwd", 0, 0 } };

	mk_archive("evil.tar.gz", e, N(e));
	refused(-EINVAL, "evil.tar.gz: entry 't/cpu/0': symbolic link "
		"(a trace holds only directories and regular files)", 0);
}
END_TEST

START_TEST(hard_link)
{
	const struct raw_entry e[] = { HEAD, { "t/cpu/0", AE_IFREG, NULL, "t/info/system.xml", 1, 0 } };

	mk_archive("evil.tar.gz", e, N(e));
	refused(-EINVAL, "evil.tar.gz: entry 't/cpu/0': hard link "
		"(a trace holds only directories and regular files)", 0);
}
END_TEST

START_TEST(devices_and_fifos)
{
	static const struct { unsigned type; const char *what; } k[] = {
		{ AE_IFCHR, "character device" }, { AE_IFBLK, "block device" }, { AE_IFIFO, "fifo" },
	};

	for (size_t i = 0; i < N(k); i++) {
		const struct raw_entry e[] = { HEAD, { "t/cpu/0", k[i].type, NULL, NULL, 0, 0 } };
		char msg[256];

		mk_archive("evil.tar.gz", e, N(e));
		snprintf(msg, sizeof(msg), "evil.tar.gz: entry 't/cpu/0': %s "
			 "(a trace holds only directories and regular files)", k[i].what);
		refused(-EINVAL, msg, 0);
		ck_assert_int_eq(unlink("evil.tar.gz"), 0);
		rmdir("tmp");
	}
}
END_TEST

START_TEST(outside_layout)
{
	static const char *const paths[] = { "t/notes.txt", "t/cpu/0/x", "t/info/other.xml", "t/cpu/01",
					     "t/control/.hidden", "t//cpu/0", "t/./cpu/0" };

	for (size_t i = 0; i < N(paths); i++) {
		const struct raw_entry e[] = { HEAD, { paths[i], AE_IFREG, "x", NULL, 0, 0 } };
		char msg[256];

		mk_archive("evil.tar.gz", e, N(e));
		snprintf(msg, sizeof(msg), "evil.tar.gz: entry '%s': not part of the trace layout "
			 "(doc/format.md section 1)", paths[i]);
		refused(-EINVAL, msg, 0);
		ck_assert_int_eq(unlink("evil.tar.gz"), 0);
		rmdir("tmp");
	}
}
END_TEST

START_TEST(second_top_directory)
{
	const struct raw_entry e[] = { HEAD, { "u/cpu/0", AE_IFREG, "x", NULL, 0, 0 } };

	mk_archive("evil.tar.gz", e, N(e));
	refused(-EINVAL, "evil.tar.gz: entry 'u/cpu/0': outside the trace directory 't'", 0);
}
END_TEST

START_TEST(directory_where_a_file_goes)
{
	const struct raw_entry e[] = { HEAD, { "t/cpu/0/", AE_IFDIR, NULL, NULL, 0, 0 } };

	mk_archive("evil.tar.gz", e, N(e));
	refused(-EINVAL, "evil.tar.gz: entry 't/cpu/0/': a directory where the trace layout has a file", 0);
}
END_TEST

START_TEST(duplicate_entry)
{
	const struct raw_entry e[] = { HEAD, { "t/info/system.xml", AE_IFREG, "<system/>", NULL, 0, 0 } };

	mk_archive("evil.tar.gz", e, N(e));
	refused(-EEXIST, "evil.tar.gz: entry 't/info/system.xml': duplicate entry", 0);
}
END_TEST

START_TEST(expands_past_limit)
{
	const struct raw_entry e[] = { HEAD, { "t/cpu/0", AE_IFREG, NULL, NULL, 0, 600 },
				       { "t/cpu/1", AE_IFREG, NULL, NULL, 0, 600 } };

	mk_archive("evil.tar.gz", e, N(e));
	refused(-EFBIG, "evil.tar.gz: expands past the limit of 1000 bytes at entry 't/cpu/1' "
		"(raise it with --max-size)", 1000);
}
END_TEST

START_TEST(private_limit_from_environment)
{
	const struct raw_entry e[] = { HEAD, { "t/cpu/0", AE_IFREG, NULL, NULL, 0, 5000 } };
	char *dir = NULL;

	mk_archive("evil.tar.gz", e, N(e));
	ck_assert_int_eq(mkdir("tmp", 0700), 0);
	setenv("TMPDIR", "tmp", 1);
	setenv("LTT_UNPACK_MAX", "4K", 1);
	ck_assert_int_eq(ltt_archive_unpack_private("evil.tar.gz", &dir, err, sizeof(err)), -EFBIG);
	ck_assert_str_eq(err, "evil.tar.gz: expands past the limit of 4096 bytes at entry 't/cpu/0' "
			 "(raise it with LTT_UNPACK_MAX)");
	ck_assert_int_eq(count_entries("tmp"), 0);
	setenv("LTT_UNPACK_MAX", "8K", 1);
	ck_assert_int_eq(ltt_archive_unpack_private("evil.tar.gz", &dir, err, sizeof(err)), 0);
	ck_assert_int_eq(count_entries("tmp"), 1);
	ltt_archive_remove_private(dir);
	ck_assert_int_eq(count_entries("tmp"), 0);
}
END_TEST

START_TEST(no_system_xml)
{
	const struct raw_entry e[] = { { "t/", AE_IFDIR, NULL, NULL, 0, 0 },
				       { "t/cpu/0", AE_IFREG, "x", NULL, 0, 0 } };

	mk_archive("evil.tar.gz", e, N(e));
	refused(-EBADMSG, "evil.tar.gz: no t/info/system.xml: not a packed trace", 0);
}
END_TEST

START_TEST(not_gzip)
{
	put_file("evil.tar.gz", "hello, world\n", 13);
	refused(-EBADMSG, "evil.tar.gz: not a gzip file (a packed trace is a .tar.gz)", 0);
}
END_TEST

START_TEST(gzip_but_not_tar)
{
	static const char text[] = "this is a gzip'd text file, not a tar archive at all\n";
	gzFile g = gzopen("evil.tar.gz", "wb");
	struct ltt_unpack_options uo = { 0 };

	ck_assert_ptr_nonnull(g);
	for (int i = 0; i < 100; i++)
		ck_assert_int_eq(gzwrite(g, text, sizeof(text) - 1), (int)sizeof(text) - 1);
	ck_assert_int_eq(gzclose(g), Z_OK);
	ck_assert_int_lt(ltt_archive_unpack("evil.tar.gz", "out", &uo, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "evil.tar.gz: offset ") == err && strstr(err, ": not a tar archive: "),
		      "got: %s", err);
	ck_assert_int_eq(count_entries("."), 1);
}
END_TEST

/* A tar archive followed, inside the gzip stream, by much more than any tar padding. */
START_TEST(bomb_after_the_archive)
{
	static char tarbuf[64 << 10];
	static const char zeros[1 << 16];
	struct archive *a = archive_write_new();
	struct archive_entry *en = archive_entry_new();
	struct ltt_unpack_options uo = { 0 };
	size_t used = 0;
	gzFile g;

	ck_assert_int_eq(archive_write_set_format_pax_restricted(a), ARCHIVE_OK);
	ck_assert_int_eq(archive_write_open_memory(a, tarbuf, sizeof(tarbuf), &used), ARCHIVE_OK);
	archive_entry_set_pathname(en, "t/info/system.xml");
	archive_entry_set_filetype(en, AE_IFREG);
	archive_entry_set_perm(en, 0644);
	archive_entry_set_size(en, (int64_t)strlen(SYS));
	ck_assert_int_eq(archive_write_header(a, en), ARCHIVE_OK);
	ck_assert_int_eq(archive_write_data(a, SYS, strlen(SYS)), (ssize_t)strlen(SYS));
	ck_assert_int_eq(archive_write_close(a), ARCHIVE_OK);
	archive_write_free(a);
	archive_entry_free(en);
	g = gzopen("evil.tar.gz", "wb");
	ck_assert_ptr_nonnull(g);
	ck_assert_int_eq(gzwrite(g, tarbuf, (unsigned)used), (int)used);
	for (int i = 0; i < 17 * 16; i++)	/* 17 MiB of zeros */
		ck_assert_int_eq(gzwrite(g, zeros, sizeof(zeros)), (int)sizeof(zeros));
	ck_assert_int_eq(gzclose(g), Z_OK);
	ck_assert_int_eq(ltt_archive_unpack("evil.tar.gz", "out", &uo, err, sizeof(err)), -EBADMSG);
	ck_assert_msg(!strncmp(err, "evil.tar.gz: offset ", 20) &&
		      strstr(err, ": corrupt archive: more than 16777216 bytes after the end of the tar archive"),
		      "got: %s", err);
	ck_assert_int_eq(count_entries("."), 1);
}
END_TEST

START_TEST(empty_archive)
{
	mk_archive("evil.tar.gz", NULL, 0);
	refused(-EBADMSG, "evil.tar.gz: empty archive", 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("pack_evil");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, pack_setup, pack_teardown);
	tcase_add_test(tc, absolute_path);
	tcase_add_test(tc, dot_dot);
	tcase_add_test(tc, symbolic_link);
	tcase_add_test(tc, hard_link);
	tcase_add_test(tc, devices_and_fifos);
	tcase_add_test(tc, outside_layout);
	tcase_add_test(tc, second_top_directory);
	tcase_add_test(tc, directory_where_a_file_goes);
	tcase_add_test(tc, duplicate_entry);
	tcase_add_test(tc, expands_past_limit);
	tcase_add_test(tc, private_limit_from_environment);
	tcase_add_test(tc, no_system_xml);
	tcase_add_test(tc, not_gzip);
	tcase_add_test(tc, gzip_but_not_tar);
	tcase_add_test(tc, bomb_after_the_archive);
	tcase_add_test(tc, empty_archive);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
