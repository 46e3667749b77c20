/* SPDX-License-Identifier: MIT */
/* common/format.h against doc/format.md: the builtin records byte for byte (sections 4, 6 and 7), the
 * block geometry at its edges, the byte-order aware reads and the real time of a cycle count. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/format.h"

START_TEST(records_bytes)
{
	char p[64];
	struct ltt_fmt_anchor a;
	/* block_start at cycle 0x1122334455667788, 3 s 4 ns, block 7: little-endian bytes of section 6 */
	static const unsigned char mark[26] = { 17,   0,    0x88, 0x77, 0x66, 0x55, 3,	  0,	0,
						0,    4,    0,	  0,	0,    0x88, 0x77, 0x66, 0x55,
						0x44, 0x33, 0x22, 0x11, 7,    0,    0,	  0 };
	static const unsigned char lost[15] = { 1, 0, 0x88, 0x77, 0x66, 0x55, 9, 0, 0, 0, 0, 0, 0, 0, 3 };
	static const unsigned char blost[18] = { 2, 0, 0x88, 0x77, 0x66, 0x55, 5, 0, 0,
						 0, 6, 0,    0,	   0,	 0,    0, 0, 0 };

	if (LTT_HOST_BE)
		return; /* the expected bytes are little-endian */
	memset(p, 0xAA, sizeof(p));
	ltt_fmt_block_mark(p, LTT_B_BLOCK_START, 0x1122334455667788ull, 3, 4, 7);
	ck_assert_mem_eq(p, mark, sizeof(mark));
	ck_assert_uint_eq((unsigned char)p[26], 0xAA); /* nothing written past the record */
	ltt_fmt_anchor_get(p + LTT_FMT_HEADER, 0, 1, &a);
	ck_assert_uint_eq(a.sec, 3);
	ck_assert_uint_eq(a.nsec, 4);
	ck_assert_uint_eq(a.cycles, 0x1122334455667788ull);
	ck_assert_uint_eq(a.block_id, 7);
	ck_assert_uint_eq(ltt_fmt_mark_block_id(p, 0), 7);
	ck_assert_uint_eq(ltt_fmt_mark_cycles(p, 0), 0x1122334455667788ull);
	ck_assert_uint_eq(ltt_fmt_id(p, 0), LTT_B_BLOCK_START);
	ck_assert_uint_eq(ltt_fmt_time(p, 0), 0x55667788u);

	memset(p, 0xAA, sizeof(p));
	ltt_fmt_heartbeat(p, 0x1122334455667788ull, 3, 4);
	ck_assert_uint_eq(ltt_get16(p), LTT_B_HEARTBEAT);
	ck_assert_mem_eq(p + 2, mark + 2, 20);
	ck_assert_uint_eq((unsigned char)p[LTT_HEARTBEAT_SIZE], 0xAA);

	memset(p, 0xAA, sizeof(p));
	ltt_fmt_events_lost(p, 0x1122334455667788ull, 9, LTT_LOST_CAUSE_TORN);
	ck_assert_mem_eq(p, lost, sizeof(lost));
	ck_assert_uint_eq((unsigned char)p[LTT_LOST_RECORD_SIZE], 0xAA);

	memset(p, 0xAA, sizeof(p));
	ltt_fmt_blocks_lost(p, 0x1122334455667788ull, 5, 6);
	ck_assert_mem_eq(p, blost, sizeof(blost));
	ck_assert_uint_eq((unsigned char)p[LTT_BLOCKS_LOST_SIZE], 0xAA);
}
END_TEST

START_TEST(lost_records_in_cause_order)
{
	uint64_t n[LTT_LOST_CAUSE_COUNT] = { 0 };
	char p[LTT_LOST_CAUSE_COUNT * LTT_LOST_RECORD_SIZE];

	ck_assert_uint_eq(ltt_fmt_lost_records(p, 1, n), 0);
	n[LTT_LOST_CAUSE_KERNEL] = 2;
	n[LTT_LOST_CAUSE_BUFFER_FULL] = 5;
	ck_assert_uint_eq(ltt_fmt_lost_records(p, 1, n), 2 * LTT_LOST_RECORD_SIZE);
	ck_assert_uint_eq(ltt_get64(p + LTT_FMT_HEADER), 5);
	ck_assert_uint_eq((unsigned char)p[14], LTT_LOST_CAUSE_BUFFER_FULL);
	ck_assert_uint_eq(ltt_get64(p + 15 + LTT_FMT_HEADER), 2);
	ck_assert_uint_eq((unsigned char)p[15 + 14], LTT_LOST_CAUSE_KERNEL);
}
END_TEST

START_TEST(geometry_edges)
{
	/* section 4: 26 <= E <= block_size - 30; the trailer at block_size - 4 */
	ck_assert_uint_eq(ltt_block_trailer_off(4096), 4092);
	ck_assert_uint_eq(ltt_block_end_max(4096), 4066);
	ck_assert(!ltt_block_end_ok(4096, 25));
	ck_assert(ltt_block_end_ok(4096, 26));
	ck_assert(ltt_block_end_ok(4096, 4066));
	ck_assert(!ltt_block_end_ok(4096, 4067));
	ck_assert(!ltt_block_end_ok(4096, -1));
	ck_assert(!ltt_block_end_ok(40, 26)); /* no room for both marks and the trailer */
	ck_assert(ltt_block_end_ok(56, 26));
	ck_assert(ltt_block_end_ok((uint64_t)1 << 31, ((int64_t)1 << 31) - 30));
	ck_assert_uint_eq(ltt_block_fill(4096, 26), 4096 - 4 - 52);
	ck_assert_uint_eq(ltt_block_fill(4096, 4066), 0);
	/* the recorder's largest payload: block_size - 128 bytes with the header (section 4) */
	ck_assert_uint_eq(ltt_block_max_payload(4096), 4096 - 128 - 6);
}
END_TEST

START_TEST(summary_and_close)
{
	uint32_t bs = 4096, e = LTT_BLOCK_MARK_SIZE + LTT_BLOCKS_LOST_SIZE;
	char *b = malloc(bs), next[LTT_BLOCK_MARK_SIZE];

	ck_assert_ptr_nonnull(b);
	memset(b, 0x5A, bs);
	ltt_fmt_block_mark(next, LTT_B_BLOCK_START, 1000, 1, 2, 42);
	ltt_fmt_summary_block(b, bs, next, 3, 77);
	/* block_start and block_end repeat next's anchor with block_id 0xFFFFFFFF (section 7) */
	ck_assert_uint_eq(ltt_get16(b), LTT_B_BLOCK_START);
	ck_assert_mem_eq(b + 2, next + 2, 20);
	ck_assert_uint_eq(ltt_fmt_mark_block_id(b, LTT_HOST_BE), LTT_SUMMARY_BLOCK_ID);
	ck_assert_uint_eq(ltt_get16(b + 26), LTT_B_BLOCKS_LOST);
	ck_assert_uint_eq(ltt_fmt_time(b + 26, LTT_HOST_BE), 1000);
	ck_assert_uint_eq(ltt_get32(b + 26 + 6), 3);
	ck_assert_uint_eq(ltt_get64(b + 26 + 10), 77);
	ck_assert_uint_eq(ltt_get16(b + e), LTT_B_BLOCK_END);
	ck_assert_mem_eq(b + e + 2, next + 2, 20);
	ck_assert_uint_eq(ltt_fmt_mark_block_id(b + e, LTT_HOST_BE), LTT_SUMMARY_BLOCK_ID);
	ck_assert_uint_eq(ltt_fmt_trailer_get(b, bs, LTT_HOST_BE), e);
	for (uint32_t i = e + LTT_BLOCK_MARK_SIZE; i < bs - 4; i++)
		ck_assert_uint_eq((unsigned char)b[i], 0);
	free(b);
}
END_TEST

START_TEST(byte_order)
{
	static const unsigned char be[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

	ck_assert_uint_eq(ltt_load16(be, 1), 0x0102);
	ck_assert_uint_eq(ltt_load32(be, 1), 0x01020304u);
	ck_assert_uint_eq(ltt_load64(be, 1), 0x0102030405060708ull);
	ck_assert_uint_eq(ltt_load16(be, 0), 0x0201);
	ck_assert_uint_eq(ltt_load32(be, 0), 0x04030201u);
	ck_assert_uint_eq(ltt_load64(be, 0), 0x0807060504030201ull);
}
END_TEST

START_TEST(real_time_of_cycles)
{
	uint32_t s, ns;

	/* 1 GHz from 10 s at cycle 1000: cycle 2500 is 10.0000015 s */
	ltt_fmt_cycles_time(1000, 10000000000ull, 1000000000, 2500, &s, &ns);
	ck_assert_uint_eq(s, 10);
	ck_assert_uint_eq(ns, 1500);
	/* 3 GHz: 3e9 cycles later is one second later; cps 0 reads as 1 GHz */
	ltt_fmt_cycles_time(0, 5000000000ull, 3000000000ull, 3000000000ull, &s, &ns);
	ck_assert_uint_eq(s, 6);
	ck_assert_uint_eq(ns, 0);
	ltt_fmt_cycles_time(0, 0, 0, 1000000001, &s, &ns);
	ck_assert_uint_eq(s, 1);
	ck_assert_uint_eq(ns, 1);
	/* before the Epoch: 0 */
	ltt_fmt_cycles_time(1000000000, 0, 1000000000, 0, &s, &ns);
	ck_assert_uint_eq(s, 0);
	ck_assert_uint_eq(ns, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("common_format");
	TCase *tc = tcase_create("format");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, records_bytes);
	tcase_add_test(tc, lost_records_in_cause_order);
	tcase_add_test(tc, geometry_edges);
	tcase_add_test(tc, summary_and_close);
	tcase_add_test(tc, byte_order);
	tcase_add_test(tc, real_time_of_cycles);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
