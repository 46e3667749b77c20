/* SPDX-License-Identifier: MIT */
/* ltt pack / ltt unpack: round trips, manifests, damaged archives, replacing targets, private
 * extraction and ltt_manifest_verify. */
#include <check.h>
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <stdlib.h>
#include <string.h>

#include "reader/archive.h"
#include "reader/manifest.h"
#include "test_pack_util.h"

static const char *const files[] = { "info/system.xml", "eventdefs/demo.xml", "control/facilities",
				     "control/processes", "control/interrupts", "cpu/0", "cpu/1" };
#define NFILES (sizeof(files) / sizeof(files[0]))

static char err[1024];

static void assert_same_trace(const char *a, const char *b)
{
	char pa[4096], pb[4096];

	for (size_t i = 0; i < NFILES; i++) {
		snprintf(pa, sizeof(pa), "%s/%s", a, files[i]);
		snprintf(pb, sizeof(pb), "%s/%s", b, files[i]);
		ck_assert_msg(same_file(pa, pb), "%s and %s differ", pa, pb);
	}
}

static void pack_t(void)
{
	mk_trace("t");
	ck_assert_int_eq(ltt_archive_pack("t", "t.tar.gz", NULL, err, sizeof(err)), 0);
}

START_TEST(round_trip_is_byte_identical)
{
	struct ltt_unpack_options uo = { 0 };
	struct stat st_in, st_out;

	pack_t();
	ck_assert_int_eq(ltt_archive_unpack("t.tar.gz", "out", &uo, err, sizeof(err)), 0);
	ck_assert_int_eq(uo.manifest_found, 1);
	assert_same_trace("t", "out");
	ck_assert_int_eq(access("out/info/manifest.xml", R_OK), 0);
	ck_assert_int_eq(count_entries("out"), 4);
	ck_assert_int_eq(count_entries("out/cpu"), 2);
	ck_assert_int_eq(count_entries("."), 3);	/* t, t.tar.gz, out: no temporary left */
	/* Zero-filled tails come back as holes when the original had them. */
	ck_assert_int_eq(stat("t/cpu/1", &st_in), 0);
	ck_assert_int_eq(stat("out/cpu/1", &st_out), 0);
	ck_assert_int_eq(st_out.st_size, 1 << 20);
	if (st_in.st_blocks * 512 < st_in.st_size)
		ck_assert_int_le(st_out.st_blocks, st_in.st_blocks);
}
END_TEST

START_TEST(packing_twice_gives_the_same_bytes)
{
	pack_t();
	ck_assert_int_eq(ltt_archive_pack("t", "again.tar.gz", NULL, err, sizeof(err)), 0);
	ck_assert(same_file("t.tar.gz", "again.tar.gz"));
}
END_TEST

/* Several 1 MiB gzip members compressed on 1, 2 or 5 threads: the same bytes, and a valid round trip. */
START_TEST(threads_do_not_change_the_bytes)
{
	struct ltt_pack_options one = { .threads = 1 }, two = { .threads = 2 }, five = { .threads = 5 };
	struct ltt_unpack_options uo = { 0 };
	unsigned char *buf = malloc(9 << 20);
	uint32_t x = 1;

	ck_assert_ptr_nonnull(buf);
	mk_trace("t");
	for (size_t i = 0; i < (9u << 20); i++) {
		x = x * 1103515245u + 12345u;
		buf[i] = (i / 4096) % 3 ? (unsigned char)(x >> 24) : 0;	/* data, and runs of zeros */
	}
	put_file("t/cpu/2", buf, 9 << 20);
	free(buf);
	ck_assert_int_eq(ltt_archive_pack("t", "1.tar.gz", &one, err, sizeof(err)), 0);
	ck_assert_int_eq(ltt_archive_pack("t", "2.tar.gz", &two, err, sizeof(err)), 0);
	ck_assert_int_eq(ltt_archive_pack("t", "5.tar.gz", &five, err, sizeof(err)), 0);
	ck_assert(same_file("1.tar.gz", "2.tar.gz"));
	ck_assert(same_file("1.tar.gz", "5.tar.gz"));
	ck_assert_int_eq(ltt_archive_unpack("5.tar.gz", "out", &uo, err, sizeof(err)), 0);
	assert_same_trace("t", "out");
	ck_assert(same_file("t/cpu/2", "out/cpu/2"));
	/* Standard gzip reads the members as one stream. */
	ck_assert_int_eq(system("gzip -t 5.tar.gz"), 0);
}
END_TEST

START_TEST(levels_change_size_not_contents)
{
	struct ltt_pack_options fast = { .level = 1 }, best = { .level = 9 }, bad = { .level = 10 };
	struct ltt_unpack_options uo = { 0 };

	mk_trace("t");
	ck_assert_int_eq(ltt_archive_pack("t", "1.tar.gz", &fast, err, sizeof(err)), 0);
	ck_assert_int_eq(ltt_archive_pack("t", "9.tar.gz", &best, err, sizeof(err)), 0);
	ck_assert(!same_file("1.tar.gz", "9.tar.gz"));
	ck_assert_int_eq(ltt_archive_unpack("9.tar.gz", "out", &uo, err, sizeof(err)), 0);
	assert_same_trace("t", "out");
	ck_assert_int_eq(ltt_archive_pack("t", "x.tar.gz", &bad, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "x.tar.gz: gzip level 10 is not in 1..9");
	ck_assert_int_eq(access("x.tar.gz", F_OK), -1);
}
END_TEST

START_TEST(manifest_lists_every_file)
{
	struct ltt_unpack_options uo = { 0 };
	struct ltt_manifest m;
	char *xml;
	size_t len;
	FILE *f;
	unsigned char *buf = malloc(200000);
	char hex[65];

	pack_t();
	ck_assert_int_eq(ltt_archive_unpack("t.tar.gz", "out", &uo, err, sizeof(err)), 0);
	f = fopen("out/info/manifest.xml", "rb");
	ck_assert_ptr_nonnull(f);
	xml = malloc(1 << 16);
	len = fread(xml, 1, 1 << 16, f);
	fclose(f);
	ck_assert_int_eq(ltt_manifest_parse(xml, len, "m", &m, err, sizeof(err)), 0);
	ck_assert_uint_eq(m.n, NFILES);
	ck_assert_str_eq(m.ltt_version, LTT_VERSION);
	ck_assert_int_gt(strlen(m.host), 0);
	/* Sorted by path after parsing: control/facilities, control/interrupts, control/processes,
	 * cpu/0, cpu/1, eventdefs/demo.xml, info/system.xml. */
	ck_assert_str_eq(m.files[3].path, "cpu/0");
	ck_assert_uint_eq(m.files[3].size, 200000);
	for (size_t i = 0; i < 200000; i++)
		buf[i] = (unsigned char)((i * 2654435761u) >> 13);
	ck_assert_int_eq(ltt_sha256_hex_of(buf, 200000, hex), 0);
	ck_assert_str_eq(m.files[3].sha256, hex);
	ck_assert_str_eq(m.files[4].path, "cpu/1");
	ck_assert_uint_eq(m.files[4].size, 1 << 20);
	ck_assert_str_eq(m.files[0].path, "control/facilities");
	ck_assert_str_eq(m.files[0].sha256, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	ltt_manifest_free(&m);
	free(xml);
	free(buf);
}
END_TEST

START_TEST(pack_refuses_what_is_not_a_trace)
{
	mk_trace("t");
	put_file("t/notes.txt", "hi", 2);
	ck_assert_int_eq(ltt_archive_pack("t", "t.tar.gz", NULL, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "t/notes.txt: not part of the trace layout (doc/format.md section 1)");
	ck_assert_int_eq(unlink("t/notes.txt"), 0);
	ck_assert_int_eq(symlink("/etc/passwd", "t/cpu/2"), 0);
	ck_assert_int_eq(ltt_archive_pack("t", "t.tar.gz", NULL, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "t/cpu/2: symbolic link (a trace holds only directories and regular files)");
	ck_assert_int_eq(mkdir("empty", 0755), 0);
	ck_assert_int_eq(ltt_archive_pack("empty", "e.tar.gz", NULL, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "empty: not a trace directory (no info/system.xml)");
	ck_assert_int_eq(ltt_archive_pack("missing", "m.tar.gz", NULL, err, sizeof(err)), -ENOENT);
	ck_assert_str_eq(err, "missing: No such file or directory");
	ck_assert_int_eq(mkdir("flight", 0755), 0);
	ck_assert_int_eq(rename("t", "flight/snapshot-0001"), 0);
	ck_assert_int_eq(mkdir("flight/snapshot-0002", 0755), 0);
	ck_assert_int_eq(ltt_archive_pack("flight", "f.tar.gz", NULL, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "flight: not a trace directory but a flight recorder's, with 2 snapshots: "
			 "pack each snapshot (flight/snapshot-NNNN)");
	ck_assert_int_eq(count_entries("."), 2);	/* flight and empty: no archive, no temporary */
}
END_TEST

START_TEST(repacking_an_unpacked_trace_replaces_its_manifest)
{
	struct ltt_unpack_options uo = { 0 };

	pack_t();
	ck_assert_int_eq(ltt_archive_unpack("t.tar.gz", "out", &uo, err, sizeof(err)), 0);
	ck_assert_int_eq(ltt_archive_pack("out", "out.tar.gz", NULL, err, sizeof(err)), 0);
	ck_assert_int_eq(ltt_archive_unpack("out.tar.gz", "again", &uo, err, sizeof(err)), 0);
	ck_assert_int_eq(uo.manifest_found, 1);
	assert_same_trace("t", "again");
	ck_assert(same_file("out/info/manifest.xml", "again/info/manifest.xml"));
}
END_TEST

START_TEST(existing_target_needs_force)
{
	struct ltt_unpack_options uo = { 0 };

	pack_t();
	ck_assert_int_eq(mkdir("out", 0755), 0);
	put_file("out/old", "old", 3);
	ck_assert_int_eq(ltt_archive_unpack("t.tar.gz", "out", &uo, err, sizeof(err)), -EEXIST);
	ck_assert_str_eq(err, "out: already exists (--force replaces it)");
	ck_assert_int_eq(access("out/old", F_OK), 0);
	uo.force = 1;
	ck_assert_int_eq(ltt_archive_unpack("t.tar.gz", "out/", &uo, err, sizeof(err)), 0);
	ck_assert_int_eq(access("out/old", F_OK), -1);
	assert_same_trace("t", "out");
	ck_assert_int_eq(count_entries("."), 3);
	put_file("file", "x", 1);
	ck_assert_int_eq(ltt_archive_unpack("t.tar.gz", "file", &uo, err, sizeof(err)), -ENOTDIR);
	ck_assert_str_eq(err, "file: exists and is not a directory");
}
END_TEST

START_TEST(trace_name_and_is_packed)
{
	char *name = NULL;

	pack_t();
	ck_assert_int_eq(ltt_archive_trace_name("t.tar.gz", &name, err, sizeof(err)), 0);
	ck_assert_str_eq(name, "t");
	free(name);
	ck_assert_int_eq(ltt_archive_is_packed("t.tar.gz"), 1);
	ck_assert_int_eq(ltt_archive_is_packed("t"), 0);
	ck_assert_int_eq(ltt_archive_is_packed("t/info/system.xml"), 0);
	ck_assert_int_eq(ltt_archive_is_packed("nothing-here"), 0);
}
END_TEST

START_TEST(private_extraction)
{
	char *dir = NULL, tmp[4200];

	pack_t();
	ck_assert_int_eq(mkdir("tmp", 0700), 0);
	snprintf(tmp, sizeof(tmp), "%s/tmp", pack_workdir);
	setenv("TMPDIR", tmp, 1);
	ck_assert_int_eq(ltt_archive_unpack_private("t.tar.gz", &dir, err, sizeof(err)), 0);
	ck_assert_ptr_nonnull(dir);
	ck_assert_int_eq(strncmp(dir, tmp, strlen(tmp)), 0);
	ck_assert_str_eq(strrchr(dir, '/'), "/t");
	assert_same_trace("t", dir);
	ck_assert_int_eq(ltt_manifest_verify(dir, err, sizeof(err)), 0);
	ck_assert_int_eq(count_entries("tmp"), 1);
	ltt_archive_remove_private(dir);
	ck_assert_int_eq(count_entries("tmp"), 0);
	ltt_archive_remove_private(NULL);
}
END_TEST

/* Runs `body` in a child that has unpacked t.tar.gz privately into ./tmp; returns its wait status. */
static int in_child(void (*body)(char *dir))
{
	char tmp[4200];
	int status;
	pid_t pid;

	snprintf(tmp, sizeof(tmp), "%s/tmp", pack_workdir);
	setenv("TMPDIR", tmp, 1);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		char *dir = NULL;

		if (ltt_archive_unpack_private("t.tar.gz", &dir, err, sizeof(err)) || count_entries("tmp") != 1)
			_exit(99);
		body(dir);
		_exit(98);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	return status;
}

static void die_by_sigpipe(char *dir)
{
	(void)dir;
	raise(SIGPIPE);
}

static void plain_exit(char *dir)
{
	(void)dir;
	exit(0);
}

/* A forked grandchild's exit() leaves its parent's directory alone. */
static void fork_then_exit(char *dir)
{
	pid_t pid = fork();
	int status;

	if (pid == 0)
		exit(0);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || count_entries("tmp") != 1)
		_exit(97);
	ltt_archive_remove_private(dir);
	_exit(count_entries("tmp") == 0 ? 0 : 96);
}

/* The private directory does not outlive a process that never closed its reader. */
START_TEST(private_directory_removed_at_exit_and_on_signals)
{
	int status;

	pack_t();
	ck_assert_int_eq(mkdir("tmp", 0700), 0);
	status = in_child(die_by_sigpipe);
	ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE, "status %#x", status);
	ck_assert_int_eq(count_entries("tmp"), 0);
	status = in_child(plain_exit);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %#x", status);
	ck_assert_int_eq(count_entries("tmp"), 0);
	status = in_child(fork_then_exit);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %#x", status);
	ck_assert_int_eq(count_entries("tmp"), 0);
	/* A program that chose to ignore SIGPIPE keeps its choice. */
	signal(SIGPIPE, SIG_IGN);
	status = in_child(die_by_sigpipe);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 98, "status %#x", status);
	ck_assert_int_eq(count_entries("tmp"), 1);	/* _exit skips the exit hook */
}
END_TEST

/* A hand-made archive whose manifest disagrees with its files. */
static void mk_mismatched(const char *manifest_files)
{
	char manifest[2048];
	const struct raw_entry e[] = {
		{ "t/", AE_IFDIR, NULL, NULL, 0, 0 },
		{ "t/info/system.xml", AE_IFREG, "<system/>\n", NULL, 0, 0 },
		{ "t/cpu/0", AE_IFREG, "abc", NULL, 0, 0 },
		{ "t/info/manifest.xml", AE_IFREG, manifest, NULL, 0, 0 },
	};

	snprintf(manifest, sizeof(manifest), "<manifest version=\"1\">\n%s</manifest>\n", manifest_files);
	mk_archive("bad.tar.gz", e, sizeof(e) / sizeof(e[0]));
}

#define SYS_OK "<file path=\"info/system.xml\" size=\"10\" " \
	"sha256=\"23f3f7c36e5d4c8e0b6e2ccf33f6bba5bc3a1e9e6fd7bad29a49b0cd8ce9c5c4\"/>\n"
#define ABC "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

static void mismatch(const char *manifest_files, const char *expect)
{
	struct ltt_unpack_options uo = { 0 };

	mk_mismatched(manifest_files);
	ck_assert_int_eq(ltt_archive_unpack("bad.tar.gz", "out", &uo, err, sizeof(err)), -EBADMSG);
	ck_assert_str_eq(err, expect);
	ck_assert_int_eq(count_entries("."), 1);
	/* --no-verify takes it anyway */
	uo.no_verify = 1;
	ck_assert_int_eq(ltt_archive_unpack("bad.tar.gz", "out", &uo, err, sizeof(err)), 0);
	ck_assert_int_eq(uo.manifest_found, 1);
}

START_TEST(manifest_wrong_digest)
{
	char hex[65], expect[1024];

	ck_assert_int_eq(ltt_sha256_hex_of("<system/>\n", 10, hex), 0);
	snprintf(expect, sizeof(expect), "bad.tar.gz: t/info/system.xml: SHA-256 %s, the manifest says "
		 "0000000000000000000000000000000000000000000000000000000000000000", hex);
	mismatch("<file path=\"info/system.xml\" size=\"10\" "
		 "sha256=\"0000000000000000000000000000000000000000000000000000000000000000\"/>\n"
		 "<file path=\"cpu/0\" size=\"3\" sha256=\"" ABC "\"/>\n", expect);
}
END_TEST

START_TEST(manifest_wrong_size_missing_and_unlisted)
{
	char hex[65], files_xml[1024];

	ck_assert_int_eq(ltt_sha256_hex_of("<system/>\n", 10, hex), 0);
	snprintf(files_xml, sizeof(files_xml), "<file path=\"info/system.xml\" size=\"10\" sha256=\"%s\"/>\n"
		 "<file path=\"cpu/0\" size=\"4\" sha256=\"" ABC "\"/>\n", hex);
	mismatch(files_xml, "bad.tar.gz: t/cpu/0: 3 bytes, the manifest says 4");
	ck_assert_int_eq(system("rm -rf out bad.tar.gz"), 0);
	snprintf(files_xml, sizeof(files_xml), "<file path=\"info/system.xml\" size=\"10\" sha256=\"%s\"/>\n"
		 "<file path=\"cpu/0\" size=\"3\" sha256=\"" ABC "\"/>\n"
		 "<file path=\"cpu/1\" size=\"3\" sha256=\"" ABC "\"/>\n", hex);
	mismatch(files_xml, "bad.tar.gz: t/cpu/1: in the manifest but missing");
	ck_assert_int_eq(system("rm -rf out bad.tar.gz"), 0);
	mismatch("<file path=\"cpu/0\" size=\"3\" sha256=\"" ABC "\"/>\n",
		 "bad.tar.gz: t/info/system.xml: not listed in the manifest");
	ck_assert_int_eq(system("rm -rf out bad.tar.gz"), 0);
	mismatch("", "bad.tar.gz: t/info/system.xml: not listed in the manifest "
		 "(and 1 more manifest mismatch)");
}
END_TEST

START_TEST(manifest_malformed)
{
	struct ltt_unpack_options uo = { 0 };

	mismatch("<file path=\"cpu/0\" size=\"3\"/>\n",
		 "bad.tar.gz: t/info/manifest.xml: line 2: <file> needs path, size and sha256");
	ck_assert_int_eq(system("rm -rf out bad.tar.gz"), 0);
	mismatch("<file path=\"../../etc/passwd\" size=\"3\" sha256=\"" ABC "\"/>\n",
		 "bad.tar.gz: t/info/manifest.xml: line 2: path '../../etc/passwd' is not a file of the trace layout");
	ck_assert_int_eq(system("rm -rf out bad.tar.gz"), 0);
	mismatch("<file path=\"cpu/0\" size=\"-3\" sha256=\"" ABC "\"/>\n",
		 "bad.tar.gz: t/info/manifest.xml: line 2: size '-3' is not a decimal number");
	ck_assert_int_eq(system("rm -rf out bad.tar.gz"), 0);
	mismatch("<file path=\"cpu/0\" size=\"3\" sha256=\"" ABC "\"/>\n"
		 "<file path=\"cpu/0\" size=\"3\" sha256=\"" ABC "\"/>\n",
		 "bad.tar.gz: t/info/manifest.xml: 'cpu/0' is listed twice");
	ck_assert_int_eq(system("rm -rf out bad.tar.gz"), 0);
	/* Not well-formed: libxml2 words the message, the line is ours. */
	mk_mismatched("<file path=\"cpu/0\" size=\"3\" sha256=\"" ABC "\">\n");
	ck_assert_int_eq(ltt_archive_unpack("bad.tar.gz", "out", &uo, err, sizeof(err)), -EBADMSG);
	ck_assert_msg(!strncmp(err, "bad.tar.gz: t/info/manifest.xml: line ", 38), "got: %s", err);
	ck_assert_int_eq(count_entries("."), 1);
}
END_TEST

static void flip(const char *path, long off)
{
	FILE *f = fopen(path, "r+b");
	int c;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fseek(f, off, SEEK_SET), 0);
	c = getc(f);
	ck_assert_int_ne(c, EOF);
	ck_assert_int_eq(fseek(f, off, SEEK_SET), 0);
	putc(c ^ 0x55, f);
	fclose(f);
}

/* Damage to the compressed bytes is refused (inflate error, gzip CRC-32 or length, manifest) and
 * leaves nothing; the rare flip that decodes to the same bytes (unused bits) yields the trace intact.
 * Never wrong data. */
START_TEST(corrupted_archive)
{
	struct ltt_unpack_options uo = { 0 };
	struct stat st;
	int refusals = 0;

	pack_t();
	ck_assert_int_eq(stat("t.tar.gz", &st), 0);
	for (long off = 20; off < st.st_size; off += st.st_size / 29) {
		ck_assert_int_eq(system("cp t.tar.gz bad.tar.gz"), 0);
		flip("bad.tar.gz", off);
		if (ltt_archive_unpack("bad.tar.gz", "out", &uo, err, sizeof(err)) == 0) {
			assert_same_trace("t", "out");
			ck_assert_int_eq(system("rm -rf out"), 0);
		} else {
			ck_assert_msg(strncmp(err, "bad.tar.gz: ", 12) == 0, "got: %s", err);
			refusals++;
		}
		ck_assert_int_eq(count_entries("."), 3);	/* t, t.tar.gz, bad.tar.gz */
	}
	ck_assert_int_gt(refusals, 0);
}
END_TEST

static void refused_with(const char *what)
{
	struct ltt_unpack_options uo = { 0 };

	ck_assert_int_eq(ltt_archive_unpack("bad.tar.gz", "out", &uo, err, sizeof(err)), -EBADMSG);
	ck_assert_msg(!strncmp(err, "bad.tar.gz: offset ", 19) && strstr(err, what), "got: %s", err);
	ck_assert_int_eq(access("out", F_OK), -1);
}

/* The gzip trailer is checked even though tar stops reading before it, and even without a manifest. */
START_TEST(gzip_trailer_and_garbage)
{
	const struct raw_entry e[] = {
		{ "t/", AE_IFDIR, NULL, NULL, 0, 0 },
		{ "t/info/system.xml", AE_IFREG, "<system/>\n", NULL, 0, 0 },
	};
	struct stat st;

	mk_archive("t.tar.gz", e, 2);
	ck_assert_int_eq(stat("t.tar.gz", &st), 0);
	ck_assert_int_eq(system("cp t.tar.gz bad.tar.gz"), 0);
	flip("bad.tar.gz", st.st_size - 8);
	refused_with("corrupt archive: incorrect data check");
	ck_assert_int_eq(system("cp t.tar.gz bad.tar.gz"), 0);
	flip("bad.tar.gz", st.st_size - 3);
	refused_with("corrupt archive: incorrect length check");
	ck_assert_int_eq(system("cp t.tar.gz bad.tar.gz && echo junk >> bad.tar.gz"), 0);
	refused_with("corrupt archive: data after the end of the gzip stream");
	ck_assert_int_eq(system("cp t.tar.gz bad.tar.gz"), 0);
	ck_assert_int_eq(truncate("bad.tar.gz", st.st_size - 4), 0);
	refused_with("corrupt archive: truncated gzip data");
	ck_assert_int_eq(truncate("bad.tar.gz", st.st_size / 2), 0);
	refused_with(": truncated gzip data");
	/* Two gzip members one after the other are one valid gzip stream. */
	ck_assert_int_eq(system("cp t.tar.gz bad.tar.gz && printf '' | gzip >> bad.tar.gz"), 0);
	{
		struct ltt_unpack_options uo = { 0 };

		ck_assert_int_eq(ltt_archive_unpack("bad.tar.gz", "out", &uo, err, sizeof(err)), 0);
		ck_assert_int_eq(uo.manifest_found, 0);
	}
}
END_TEST

START_TEST(verify_directory)
{
	struct ltt_unpack_options uo = { 0 };
	FILE *f;

	pack_t();
	ck_assert_int_eq(ltt_manifest_verify("t", err, sizeof(err)), 0);	/* no manifest: nothing to check */
	ck_assert_int_eq(ltt_archive_unpack("t.tar.gz", "out", &uo, err, sizeof(err)), 0);
	ck_assert_int_eq(ltt_manifest_verify("out", err, sizeof(err)), 0);
	put_file("out/cpu/7", "", 0);
	ck_assert_int_eq(ltt_manifest_verify("out", err, sizeof(err)), -EBADMSG);
	ck_assert_str_eq(err, "out/cpu/7: not listed in the manifest");
	ck_assert_int_eq(unlink("out/cpu/7"), 0);
	f = fopen("out/cpu/0", "r+b");
	ck_assert_ptr_nonnull(f);
	fputc(0xff, f);
	fclose(f);
	ck_assert_int_eq(ltt_manifest_verify("out", err, sizeof(err)), -EBADMSG);
	ck_assert_msg(strstr(err, "out/cpu/0: SHA-256 ") == err && strstr(err, ", the manifest says "),
		      "got: %s", err);
	ck_assert_int_eq(ltt_manifest_verify_as("out", "t.tar.gz", err, sizeof(err)), -EBADMSG);
	ck_assert_msg(strstr(err, "t.tar.gz/cpu/0: SHA-256 ") == err, "got: %s", err);
	ck_assert_int_eq(unlink("out/control/interrupts"), 0);
	ck_assert_int_eq(ltt_manifest_verify("out", err, sizeof(err)), -EBADMSG);
	ck_assert_msg(strstr(err, "out/cpu/0: SHA-256 ") == err &&
		      strstr(err, " (and 1 more manifest mismatch)"), "got: %s", err);
	/* Files outside the layout are not the manifest's business. */
	ck_assert_int_eq(ltt_archive_unpack("t.tar.gz", "again", &uo, err, sizeof(err)), 0);
	put_file("again/README", "notes", 5);
	ck_assert_int_eq(ltt_manifest_verify("again", err, sizeof(err)), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("pack");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, pack_setup, pack_teardown);
	tcase_add_test(tc, round_trip_is_byte_identical);
	tcase_add_test(tc, packing_twice_gives_the_same_bytes);
	tcase_add_test(tc, threads_do_not_change_the_bytes);
	tcase_add_test(tc, levels_change_size_not_contents);
	tcase_add_test(tc, manifest_lists_every_file);
	tcase_add_test(tc, pack_refuses_what_is_not_a_trace);
	tcase_add_test(tc, repacking_an_unpacked_trace_replaces_its_manifest);
	tcase_add_test(tc, existing_target_needs_force);
	tcase_add_test(tc, trace_name_and_is_packed);
	tcase_add_test(tc, private_extraction);
	tcase_add_test(tc, private_directory_removed_at_exit_and_on_signals);
	tcase_add_test(tc, manifest_wrong_digest);
	tcase_add_test(tc, manifest_wrong_size_missing_and_unlisted);
	tcase_add_test(tc, manifest_malformed);
	tcase_add_test(tc, corrupted_archive);
	tcase_add_test(tc, gzip_trailer_and_garbage);
	tcase_add_test(tc, verify_directory);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
