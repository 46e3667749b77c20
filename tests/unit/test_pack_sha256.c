/* SPDX-License-Identifier: MIT */
/* SHA-256 (OpenSSL libcrypto, as the manifest uses it) against the FIPS 180-4 examples, the trace
 * layout rules, and size parsing. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "reader/archive.h"
#include "reader/manifest.h"

static void digest_hex(const void *data, size_t len, char hex[LTT_SHA256_HEX_LEN + 1])
{
	ck_assert_int_eq(ltt_sha256_hex_of(data, len, hex), 0);
}

START_TEST(fips_one_block)
{
	char hex[65];

	digest_hex("abc", 3, hex);
	ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}
END_TEST

START_TEST(fips_empty)
{
	char hex[65];

	digest_hex("", 0, hex);
	ck_assert_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}
END_TEST

START_TEST(fips_two_blocks)
{
	static const char m[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	char hex[65];

	ck_assert_uint_eq(strlen(m), 56);	/* 448 bits: the padding needs a second block */
	digest_hex(m, strlen(m), hex);
	ck_assert_str_eq(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}
END_TEST

START_TEST(fips_896_bits)
{
	static const char m[] = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
				"ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
	char hex[65];

	ck_assert_uint_eq(strlen(m), 112);
	digest_hex(m, strlen(m), hex);
	ck_assert_str_eq(hex, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}
END_TEST

START_TEST(fips_million_a)
{
	char *m = malloc(1000000), hex[65];

	ck_assert_ptr_nonnull(m);
	memset(m, 'a', 1000000);
	digest_hex(m, 1000000, hex);
	ck_assert_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	free(m);
}
END_TEST

/* Feeding the same bytes in uneven pieces (crossing block boundaries every way) changes nothing. */
START_TEST(pieces_equal_one_shot)
{
	unsigned char m[1000];
	char one[LTT_SHA256_HEX_LEN + 1], inc[LTT_SHA256_HEX_LEN + 1];

	for (size_t i = 0; i < sizeof(m); i++)
		m[i] = (unsigned char)(i * 7 + 3);
	digest_hex(m, sizeof(m), one);
	for (size_t step = 1; step <= 130; step++) {
		EVP_MD_CTX *c = ltt_sha256_new();

		ck_assert_ptr_nonnull(c);
		for (size_t off = 0; off < sizeof(m); off += step)
			ck_assert_int_eq(EVP_DigestUpdate(c, m + off, off + step > sizeof(m) ? sizeof(m) - off : step), 1);
		ck_assert_int_eq(ltt_sha256_end(c, inc), 0);
		ck_assert_str_eq(one, inc);
	}
}
END_TEST

/* Lengths around the 55/56/64-byte padding edges, against digests of sha256sum. */
START_TEST(padding_edges)
{
	static const struct { size_t n; const char *hex; } v[] = {
		{ 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318" },
		{ 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a" },
		{ 63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34" },
		{ 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb" },
		{ 65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0" },
	};
	char m[65], hex[65];

	memset(m, 'a', sizeof(m));
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		digest_hex(m, v[i].n, hex);
		ck_assert_str_eq(hex, v[i].hex);
	}
}
END_TEST

START_TEST(layout_kinds)
{
	ck_assert_int_eq(ltt_layout_kind(""), LTT_LAYOUT_DIR);
	ck_assert_int_eq(ltt_layout_kind("cpu"), LTT_LAYOUT_DIR);
	ck_assert_int_eq(ltt_layout_kind("info"), LTT_LAYOUT_DIR);
	ck_assert_int_eq(ltt_layout_kind("info/system.xml"), LTT_LAYOUT_FILE);
	ck_assert_int_eq(ltt_layout_kind("info/bookmarks.xml"), LTT_LAYOUT_FILE);
	ck_assert_int_eq(ltt_layout_kind("info/manifest.xml"), LTT_LAYOUT_FILE);
	ck_assert_int_eq(ltt_layout_kind("info/other.xml"), LTT_LAYOUT_OUTSIDE);
	ck_assert_int_eq(ltt_layout_kind("eventdefs/core.xml"), LTT_LAYOUT_FILE);
	ck_assert_int_eq(ltt_layout_kind("eventdefs/core.1a2b3c4d.xml"), LTT_LAYOUT_FILE);
	ck_assert_int_eq(ltt_layout_kind("eventdefs/.xml"), LTT_LAYOUT_OUTSIDE);
	ck_assert_int_eq(ltt_layout_kind("eventdefs/core.txt"), LTT_LAYOUT_OUTSIDE);
	ck_assert_int_eq(ltt_layout_kind("control/facilities"), LTT_LAYOUT_TRACEFILE);
	ck_assert_int_eq(ltt_layout_kind("control/my_own-file"), LTT_LAYOUT_TRACEFILE);
	ck_assert_int_eq(ltt_layout_kind("control/.hidden"), LTT_LAYOUT_OUTSIDE);
	ck_assert_int_eq(ltt_layout_kind("control/a b"), LTT_LAYOUT_OUTSIDE);
	ck_assert_int_eq(ltt_layout_kind("cpu/0"), LTT_LAYOUT_TRACEFILE);
	ck_assert_int_eq(ltt_layout_kind("cpu/127"), LTT_LAYOUT_TRACEFILE);
	ck_assert_int_eq(ltt_layout_kind("cpu/007"), LTT_LAYOUT_OUTSIDE);
	ck_assert_int_eq(ltt_layout_kind("cpu/x"), LTT_LAYOUT_OUTSIDE);
	ck_assert_int_eq(ltt_layout_kind("cpu/0/1"), LTT_LAYOUT_OUTSIDE);
	ck_assert_int_eq(ltt_layout_kind("notes.txt"), LTT_LAYOUT_OUTSIDE);
	ck_assert_int_eq(ltt_layout_kind("control"), LTT_LAYOUT_DIR);
}
END_TEST

START_TEST(sizes)
{
	uint64_t v;

	ck_assert_int_eq(ltt_archive_parse_size("4096", &v), 0);
	ck_assert_uint_eq(v, 4096);
	ck_assert_int_eq(ltt_archive_parse_size("4G", &v), 0);
	ck_assert_uint_eq(v, 4ull << 30);
	ck_assert_int_eq(ltt_archive_parse_size("10MiB", &v), 0);
	ck_assert_uint_eq(v, 10ull << 20);
	ck_assert_int_eq(ltt_archive_parse_size("3k", &v), 0);
	ck_assert_uint_eq(v, 3072);
	ck_assert_int_eq(ltt_archive_parse_size("", &v), -EINVAL);
	ck_assert_int_eq(ltt_archive_parse_size("0", &v), -EINVAL);
	ck_assert_int_eq(ltt_archive_parse_size("12Q", &v), -EINVAL);
	ck_assert_int_eq(ltt_archive_parse_size("G", &v), -EINVAL);
	ck_assert_int_eq(ltt_archive_parse_size("-1", &v), -EINVAL);
	ck_assert_int_eq(ltt_archive_parse_size("99999999999T", &v), -ERANGE);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("pack_sha256");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, fips_one_block);
	tcase_add_test(tc, fips_empty);
	tcase_add_test(tc, fips_two_blocks);
	tcase_add_test(tc, fips_896_bits);
	tcase_add_test(tc, fips_million_a);
	tcase_add_test(tc, pieces_equal_one_shot);
	tcase_add_test(tc, padding_edges);
	tcase_add_test(tc, layout_kinds);
	tcase_add_test(tc, sizes);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
