/* SPDX-License-Identifier: MIT */
/* The containers of common/: LTT_GROW (common/grow.h) and the typed hash map (common/hashmap.h), with
 * exact capacities, counts and values. */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/grow.h"
#include "common/hashmap.h"

START_TEST(grow_doubles_and_keeps)
{
	int *v = NULL;
	size_t n = 0, cap = 0;

	for (int i = 0; i < 1000; i++) {
		ck_assert_int_eq(LTT_GROW(v, n + 1, cap), 0);
		v[n++] = i;
	}
	ck_assert_uint_eq(cap, 1024); /* 16, 32, ... 1024 */
	for (int i = 0; i < 1000; i++)
		ck_assert_int_eq(v[i], i);
	ck_assert_int_eq(LTT_GROW(v, 10, cap), 0); /* enough room: nothing changes */
	ck_assert_uint_eq(cap, 1024);
	free(v);
}
END_TEST

START_TEST(grow_zero_and_first)
{
	unsigned *v = NULL, cap = 0;
	uint32_t *w = NULL;
	uint32_t wcap = 0;

	ck_assert_int_eq(LTT_GROW_ZERO(v, 3, cap), 0);
	ck_assert_uint_eq(cap, 16);
	for (unsigned i = 0; i < cap; i++)
		ck_assert_uint_eq(v[i], 0);
	v[15] = 7;
	ck_assert_int_eq(LTT_GROW_ZERO(v, 17, cap), 0);
	ck_assert_uint_eq(cap, 32);
	ck_assert_uint_eq(v[15], 7);
	for (unsigned i = 16; i < cap; i++)
		ck_assert_uint_eq(v[i], 0);
	ck_assert_int_eq(LTT_GROW_FROM(w, 1, wcap, 4096), 0);
	ck_assert_uint_eq(wcap, 4096);
	ck_assert_int_eq(LTT_GROW_FROM(w, 5000, wcap, 4096), 0);
	ck_assert_uint_eq(wcap, 8192);
	free(v);
	free(w);
}
END_TEST

START_TEST(grow_overflow_leaves_array)
{
	uint8_t small_cap = 128;
	char *v = malloc(128);
	uint64_t *big = NULL;
	size_t bcap = 0;

	ck_assert_ptr_nonnull(v);
	/* 256 does not fit a uint8_t capacity */
	ck_assert_int_eq(LTT_GROW(v, 129, small_cap), -ENOMEM);
	ck_assert_uint_eq(small_cap, 128);
	/* more bytes than size_t holds */
	ck_assert_int_eq(LTT_GROW(big, SIZE_MAX / 4, bcap), -ENOMEM);
	ck_assert_ptr_null(big);
	ck_assert_uint_eq(bcap, 0);
	free(v);
}
END_TEST

struct key {
	unsigned trace;
	uint32_t tid;
};

static inline uint64_t key_hash(struct key k)
{
	return ltt_hash64((uint64_t)k.trace << 32 | k.tid);
}

static inline int key_eq(struct key a, struct key b)
{
	return a.trace == b.trace && a.tid == b.tid;
}

LTT_MAP_DEFINE(kmap, struct key, uint64_t, key_hash, key_eq)

static inline uint64_t str_hash(const char *s)
{
	return ltt_hash_str(s);
}

static inline int str_eq(const char *a, const char *b)
{
	return !strcmp(a, b);
}

LTT_MAP_DEFINE(smap, const char *, int, str_hash, str_eq)

START_TEST(map_counts_and_finds)
{
	struct kmap m = { 0 };
	int added;
	uint64_t sum = 0;
	size_t used = 0;

	ck_assert_ptr_null(kmap_find(&m, (struct key){ 0, 1 }));
	/* 2 traces x 5000 tids, each put twice: 10000 keys, values counted */
	for (int round = 0; round < 2; round++)
		for (unsigned t = 0; t < 2; t++)
			for (uint32_t tid = 1; tid <= 5000; tid++) {
				uint64_t *v = kmap_put(&m, (struct key){ t, tid }, &added);

				ck_assert_ptr_nonnull(v);
				ck_assert_int_eq(added, round == 0);
				ck_assert_uint_eq(*v, round ? tid + t : 0);
				*v = tid + t;
			}
	ck_assert_uint_eq(m.count, 10000);
	ck_assert_uint_eq(m.size, 32768); /* at most half full */
	ck_assert_uint_eq(*kmap_find(&m, (struct key){ 1, 4999 }), 5000);
	ck_assert_ptr_null(kmap_find(&m, (struct key){ 2, 1 }));
	ck_assert_ptr_null(kmap_find(&m, (struct key){ 0, 5001 }));
	for (size_t i = 0; i < m.size; i++)
		if (m.slot[i].used) {
			used++;
			sum += m.slot[i].val;
		}
	ck_assert_uint_eq(used, 10000);
	ck_assert_uint_eq(sum, 2 * (5000ull * 5001 / 2) + 5000);
	kmap_clear(&m);
	ck_assert_uint_eq(m.count, 0);
	ck_assert_ptr_null(kmap_find(&m, (struct key){ 1, 4999 }));
	kmap_free(&m);
	ck_assert_ptr_null(m.slot);
	ck_assert_uint_eq(m.size, 0);
}
END_TEST

START_TEST(map_strings)
{
	struct smap m = { 0 };
	static const char *const words[] = { "read", "write", "openat", "close", "read", "mmap", "close" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		++*smap_put(&m, words[i], NULL);
	ck_assert_uint_eq(m.count, 5);
	ck_assert_int_eq(*smap_find(&m, "read"), 2);
	ck_assert_int_eq(*smap_find(&m, "close"), 2);
	ck_assert_int_eq(*smap_find(&m, "mmap"), 1);
	ck_assert_ptr_null(smap_find(&m, "futex"));
	smap_free(&m);
}
END_TEST

START_TEST(map_reserve)
{
	struct kmap m = { 0 };
	struct kmap_slot *slots;

	ck_assert_int_eq(kmap_reserve(&m, 100), 0);
	ck_assert_uint_eq(m.size, 256);	/* at most half full */
	slots = m.slot;
	for (uint32_t tid = 0; tid < 100; tid++)
		ck_assert_ptr_nonnull(kmap_put(&m, (struct key){ 0, tid }, NULL));
	ck_assert_ptr_eq(m.slot, slots);	/* no allocation within what was reserved */
	ck_assert_uint_eq(m.count, 100);
	ck_assert_int_eq(kmap_reserve(&m, 10), 0);	/* never shrinks */
	ck_assert_uint_eq(m.size, 256);
	kmap_free(&m);
}
END_TEST

LTT_MAP_DEFINE(bmap, struct ltt_bytes_key, int, ltt_bytes_key_hash, ltt_bytes_key_eq)

/* Byte keys: found by content whatever their pointer, told apart by length; an empty key is a key. */
START_TEST(map_bytes_keys)
{
	static const char a[] = "abcabc", b[] = "abcxyz";
	const uint64_t frames[3] = { 7, 8, 9 }, same[3] = { 7, 8, 9 };
	struct bmap m = { 0 };
	int added, *v;

	*bmap_put(&m, ltt_bytes_key(a, 3), &added) = 1;
	ck_assert_int_eq(added, 1);
	bmap_put(&m, ltt_bytes_key(b, 3), &added);	/* "abc" again, at another address */
	ck_assert_int_eq(added, 0);
	*bmap_put(&m, ltt_bytes_key(a, 6), &added) = 2;
	ck_assert_int_eq(added, 1);
	*bmap_put(&m, ltt_bytes_key(a, 0), &added) = 3;
	ck_assert_int_eq(added, 1);
	*bmap_put(&m, ltt_bytes_key(frames, sizeof(frames)), &added) = 4;
	ck_assert_uint_eq(m.count, 4);
	ck_assert_ptr_nonnull(v = bmap_find(&m, ltt_bytes_key(same, sizeof(same))));
	ck_assert_int_eq(*v, 4);
	ck_assert_int_eq(*bmap_find(&m, ltt_bytes_key(b + 3, 0)), 3);
	ck_assert_int_eq(*bmap_find(&m, ltt_bytes_key("abcabc", 6)), 2);
	ck_assert_ptr_null(bmap_find(&m, ltt_bytes_key(b, 6)));
	bmap_free(&m);
}
END_TEST

START_TEST(hash_functions)
{
	/* exact values: a change of the hash is a conscious one */
	ck_assert_uint_eq(ltt_hash64(0), 0);
	ck_assert_uint_eq(ltt_hash64(1), 0x5692161d100b05e5ull);
	ck_assert_uint_ne(ltt_hash_str("ab"), ltt_hash_str("ba"));
	ck_assert_uint_eq(ltt_hash_bytes(0, "abc", 3), ltt_hash_str("abc"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("common_containers");
	TCase *tc = tcase_create("containers");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, grow_doubles_and_keeps);
	tcase_add_test(tc, grow_zero_and_first);
	tcase_add_test(tc, grow_overflow_leaves_array);
	tcase_add_test(tc, map_counts_and_finds);
	tcase_add_test(tc, map_strings);
	tcase_add_test(tc, map_reserve);
	tcase_add_test(tc, map_bytes_keys);
	tcase_add_test(tc, hash_functions);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
