/* SPDX-License-Identifier: MIT */
/* Helpers of the test_pack* suites: hand-made trace directories and hand-made archives. Each test
 * runs in its own fresh working directory (pack_setup / pack_teardown, a checked fixture). */
#ifndef LTT_TEST_PACK_UTIL_H
#define LTT_TEST_PACK_UTIL_H

#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#define PACK_UTIL static __attribute__((unused))

static char pack_workdir[4096];

PACK_UTIL int pack_rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return remove(p);
}

PACK_UTIL void pack_setup(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(pack_workdir, sizeof(pack_workdir), "%s/ltt-test-pack-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(pack_workdir));
	ck_assert_int_eq(chdir(pack_workdir), 0);
}

PACK_UTIL void pack_teardown(void)
{
	if (chdir("/") == 0)
		nftw(pack_workdir, pack_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

PACK_UTIL void put_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	ck_assert_msg(f != NULL, "cannot create %s", path);
	ck_assert_uint_eq(fwrite(data, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

/* A trace directory by hand (the archive code reads tracefiles only to count events): cpu/0 holds
 * 200000 bytes of a pattern, cpu/1 is 1 MiB with 4 KiB of data then a hole. */
PACK_UTIL void mk_trace(const char *dir)
{
	static const char sys[] = "<system cpu=\"2\" endian=\"little\" arch_size=\"LP64\"/>\n";
	static const char core[] = "<facility name=\"demo\"><event name=\"e\"/></facility>\n";
	char p[4096];
	unsigned char *buf = malloc(200000);
	int fd;

	ck_assert_ptr_nonnull(buf);
	for (size_t i = 0; i < 200000; i++)
		buf[i] = (unsigned char)((i * 2654435761u) >> 13);
	ck_assert_int_eq(mkdir(dir, 0755), 0);
	const char *subs[] = { "info", "eventdefs", "control", "cpu" };
	for (int i = 0; i < 4; i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, subs[i]);
		ck_assert_int_eq(mkdir(p, 0755), 0);
	}
	snprintf(p, sizeof(p), "%s/info/system.xml", dir);
	put_file(p, sys, strlen(sys));
	snprintf(p, sizeof(p), "%s/eventdefs/demo.xml", dir);
	put_file(p, core, strlen(core));
	snprintf(p, sizeof(p), "%s/control/facilities", dir);
	put_file(p, "", 0);
	snprintf(p, sizeof(p), "%s/control/processes", dir);
	put_file(p, "", 0);
	snprintf(p, sizeof(p), "%s/control/interrupts", dir);
	put_file(p, "", 0);
	snprintf(p, sizeof(p), "%s/cpu/0", dir);
	put_file(p, buf, 200000);
	snprintf(p, sizeof(p), "%s/cpu/1", dir);
	put_file(p, buf, 4096);
	fd = open(p, O_WRONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, 1 << 20), 0);
	close(fd);
	free(buf);
}

/* 1 when both files exist and hold the same bytes. */
PACK_UTIL int same_file(const char *a, const char *b)
{
	FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
	int ca, cb, same = fa && fb;

	while (same) {
		ca = getc(fa);
		cb = getc(fb);
		if (ca != cb)
			same = 0;
		if (ca == EOF)
			break;
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

/* Entries in dir (not . and ..); -1 if it cannot be opened. */
PACK_UTIL int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}

struct raw_entry {
	const char *path;
	unsigned type;		/* AE_IFREG, AE_IFDIR, AE_IFLNK, AE_IFCHR, ... */
	const char *data;	/* regular files: contents (NUL-terminated) */
	const char *link;	/* symbolic link target, or hard link target when hard */
	int hard;
	int64_t size;		/* > 0: declared size with no data written (for limits) */
};

/* Writes a gzip'd tar holding exactly these entries, with libarchive's writer. */
PACK_UTIL void mk_archive(const char *out, const struct raw_entry *e, size_t n)
{
	struct archive *a = archive_write_new();

	ck_assert_ptr_nonnull(a);
	ck_assert_int_eq(archive_write_add_filter_gzip(a), ARCHIVE_OK);
	ck_assert_int_eq(archive_write_set_format_pax_restricted(a), ARCHIVE_OK);
	ck_assert_int_eq(archive_write_open_filename(a, out), ARCHIVE_OK);
	for (size_t i = 0; i < n; i++) {
		struct archive_entry *en = archive_entry_new();
		size_t len = e[i].data ? strlen(e[i].data) : 0;

		archive_entry_set_pathname(en, e[i].path);
		archive_entry_set_filetype(en, e[i].type);
		archive_entry_set_perm(en, e[i].type == AE_IFDIR ? 0755 : 0644);
		if (e[i].type == AE_IFCHR || e[i].type == AE_IFBLK)
			archive_entry_set_rdev(en, 0x0103);
		if (e[i].link && e[i].hard)
			archive_entry_set_hardlink(en, e[i].link);
		else if (e[i].link)
			archive_entry_set_symlink(en, e[i].link);
		if (e[i].type == AE_IFREG && !e[i].link)
			archive_entry_set_size(en, e[i].size ? e[i].size : (int64_t)len);
		ck_assert_int_ge(archive_write_header(a, en), ARCHIVE_WARN);
		if (len)
			ck_assert_int_eq(archive_write_data(a, e[i].data, len), (ssize_t)len);
		archive_entry_free(en);
	}
	ck_assert_int_eq(archive_write_close(a), ARCHIVE_OK);
	archive_write_free(a);
}

#endif
