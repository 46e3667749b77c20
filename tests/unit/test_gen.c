/* SPDX-License-Identifier: MIT */
/* The code `ltt gen` writes: each trace_gentypes_*() of tests/eventdefs/gentypes.xml is called with
 * known values, encodes through the LTT_GEN_* hooks into a memory buffer, and the bytes are compared
 * with the encoding of doc/format.md section 8 built by hand; the model's ltt_type_encoded_size() must
 * agree with the size the generated code reserved. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <ltt/eventdefs.h>
#include <ltt/ltt.h>

/* ---- the hooks: a recorder that keeps the last event in memory ---- */
static unsigned char payload[1 << 20];
static size_t reserved;
static unsigned last_index, last_flags, reserves, commits, registered;
static const struct ltt_facility *last_fac;
static int recording = 1;

static void (*on_reserve)(void);	/* runs between the size pass and the copy (a string changing) */

static int test_reserve(struct ltt_slot *s, struct ltt_facility *f, unsigned index, size_t len,
			unsigned flags)
{
	if (on_reserve)
		on_reserve();
	reserves++;
	last_fac = f;
	last_index = index;
	last_flags = flags;
	reserved = len;
	memset(payload, 0xa5, sizeof(payload));
	if (len > sizeof(payload))
		return 0;
	s->payload = (char *)payload;
	return 1;
}

static void test_commit(struct ltt_slot *s)
{
	(void)s;
	commits++;
}

static int test_register(struct ltt_facility *f)
{
	(void)f;
	registered++;
	return 0;
}

#define LTT_GEN_IS_RECORDING() (recording)
#define LTT_GEN_RESERVE(s, f, i, l, fl) test_reserve(s, f, i, l, fl)
#define LTT_GEN_COMMIT(s) test_commit(s)
#define LTT_GEN_REGISTER(f) test_register(f)
#include "gentypes.h"

/* ---- expected bytes ---- */
struct expect {
	unsigned char b[1 << 20];
	size_t n;
};

static void put(struct expect *e, const void *p, size_t n)
{
	memcpy(e->b + e->n, p, n);
	e->n += n;
}

#define PUT(e, type, v)                         \
	do {                                    \
		type v_ = (v);                  \
		put(e, &v_, sizeof(v_));        \
	} while (0)

static void put_str(struct expect *e, const char *s)
{
	put(e, s, strlen(s) + 1);
}

static struct ltt_eventdefs *defs;

static void load_model(void)
{
	char path[4096], err[512];
	const char *src = getenv("SRCDIR");

	snprintf(path, sizeof(path), "%s/tests/eventdefs/gentypes.xml", src ? src : ".");
	ck_assert_msg(ltt_eventdefs_parse_file(path, &defs, err, sizeof(err)) == 0, "%s", err);
}

/* The last event is exactly `e`, and the model sizes it as the generated code did. */
static void check_event(const char *name, const struct expect *e)
{
	const struct ltt_facility_desc *fac = ltt_eventdefs_find(defs, "gentypes");
	const struct ltt_event_desc *ev;
	size_t n = 0;
	int big = 0;
	uint16_t one = 1;

	ck_assert_ptr_nonnull(fac);
	ev = ltt_facility_find_event(fac, name);
	ck_assert_ptr_nonnull(ev);
	ck_assert_ptr_eq(last_fac, &ltt_facility_gentypes);
	ck_assert_uint_eq(last_index, ev->index);
	ck_assert_uint_eq(last_flags, ev->persistent ? LTT_EVENT_PERSISTENT : 0);
	ck_assert_uint_eq(reserved, e->n);
	ck_assert_msg(!memcmp(payload, e->b, e->n), "payload of %s differs", name);
	ck_assert_uint_eq(payload[e->n], 0xa5);	/* nothing written past the reservation */
	ck_assert_uint_eq(commits, reserves);
	big = *(unsigned char *)&one == 0;
	if (ev->body) {
		ck_assert_int_eq(ltt_type_encoded_size(ev->body, ltt_arch_size_host(), big, payload,
						       reserved, &n), 0);
		ck_assert_uint_eq(n, reserved);
	} else {
		ck_assert_uint_eq(reserved, 0);
	}
}

static void setup(void)
{
	load_model();
	recording = 1;
	reserves = commits = 0;
}

static void teardown(void)
{
	ltt_eventdefs_free(defs);
	defs = NULL;
}

START_TEST(facility_object)
{
	struct ltt_eventdefs *back;
	char err[512];

	ck_assert_str_eq(ltt_facility_gentypes.name, "gentypes");
	ck_assert_uint_eq(ltt_facility_gentypes.n_events, 11);
	ck_assert_uint_eq(ltt_facility_gentypes.checksum, defs->facilities[0].checksum);
	ck_assert_uint_eq(LTT_FACILITY_GENTYPES_CHECKSUM, defs->facilities[0].checksum);
	/* the embedded XML parses back to the same facility */
	ck_assert_int_eq(ltt_eventdefs_parse_mem(ltt_facility_gentypes.xml, strlen(ltt_facility_gentypes.xml),
						 "embedded", &back, err, sizeof(err)), 0);
	ck_assert_uint_eq(back->n_facilities, 1);
	ck_assert_uint_eq(back->facilities[0].checksum, ltt_facility_gentypes.checksum);
	ck_assert_uint_eq(back->facilities[0].n_events, 11);
	ck_assert_int_eq(back->facilities[0].events[3].persistent, 1);
	ltt_eventdefs_free(back);
	ck_assert_uint_ge(registered, 1);	/* the constructor ran */
}
END_TEST

START_TEST(not_recording)
{
	recording = 0;
	trace_gentypes_ints(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14);
	trace_gentypes_strings("a", "b");
	ck_assert_uint_eq(reserves, 0);
}
END_TEST

START_TEST(noargs)
{
	struct expect e = { .n = 0 };

	trace_gentypes_noargs();
	check_event("noargs", &e);
}
END_TEST

START_TEST(ints)
{
	struct expect e = { .n = 0 };

	trace_gentypes_ints(-1, -300, -70000, -5000000000LL, -2, -3, -4L, 200, 60000, 4000000000u,
			    0x1122334455667788ULL, 65535, 123456789u, 987654321UL);
	PUT(&e, int8_t, -1);
	PUT(&e, int16_t, -300);
	PUT(&e, int32_t, -70000);
	PUT(&e, int64_t, -5000000000LL);
	PUT(&e, short, -2);
	PUT(&e, int, -3);
	PUT(&e, long, -4L);
	PUT(&e, uint8_t, 200);
	PUT(&e, uint16_t, 60000);
	PUT(&e, uint32_t, 4000000000u);
	PUT(&e, uint64_t, 0x1122334455667788ULL);
	PUT(&e, unsigned short, 65535);
	PUT(&e, unsigned int, 123456789u);
	PUT(&e, unsigned long, 987654321UL);
	check_event("ints", &e);
	ck_assert_uint_eq(e.n, 1 + 2 + 4 + 8 + sizeof(short) + sizeof(int) + sizeof(long) + 1 + 2 + 4 + 8 +
			  sizeof(short) + sizeof(int) + sizeof(long));
}
END_TEST

START_TEST(floats)
{
	struct expect e = { .n = 0 };

	trace_gentypes_floats(1.5f, -2.25, 3.0f, 1e300);
	PUT(&e, float, 1.5f);
	PUT(&e, double, -2.25);
	PUT(&e, float, 3.0f);
	PUT(&e, double, 1e300);
	check_event("floats", &e);
	ck_assert_uint_eq(e.n, 24);
}
END_TEST

START_TEST(strings)
{
	struct expect e = { .n = 0 };

	trace_gentypes_strings("hello", NULL);
	put_str(&e, "hello");
	put_str(&e, "");
	check_event("strings", &e);
	ck_assert_uint_eq(e.n, 7);
	ck_assert_uint_eq(last_flags, LTT_EVENT_PERSISTENT);
}
END_TEST

/* Strings of every length up to 200 at every alignment, each ending right before a page that is not
 * mapped, with other bytes around it: the inline measure (ltt/static/str.h) reads aligned words only,
 * and the copy takes exactly the bytes measured and the NUL. */
START_TEST(string_lengths)
{
	static struct expect e;
	const size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ck_assert_ptr_ne(m, MAP_FAILED);
	ck_assert_int_eq(mprotect(m + pg, pg, PROT_NONE), 0);
	for (size_t len = 0; len <= 200; len++) {
		for (size_t off = 0; off < 40; off++) {
			char *s = m + pg - 1 - off - len;

			memset(m, 'x', pg);
			for (size_t i = 0; i < len; i++)
				s[i] = (char)('a' + (i + off) % 26);
			s[len] = '\0';
			e.n = 0;
			trace_gentypes_strings(s, "z");
			put_str(&e, s);
			put_str(&e, "z");
			check_event("strings", &e);
			ck_assert_uint_eq(e.n, len + 3);
		}
	}
	ck_assert_int_eq(munmap(m, 2 * pg), 0);
}
END_TEST

START_TEST(enums)
{
	struct expect e = { .n = 0 };

	ck_assert_uint_eq(GENTYPES_COLOR_red, 0);
	ck_assert_uint_eq(GENTYPES_COLOR_green, 5);
	ck_assert_uint_eq(GENTYPES_COLOR_blue, 6);
	ck_assert_uint_eq(GENTYPES_ENUMS_LEVEL_low, 0);
	ck_assert_uint_eq(GENTYPES_ENUMS_LEVEL_medium, 10);
	ck_assert_uint_eq(GENTYPES_ENUMS_LEVEL_high, 11);
	trace_gentypes_enums(GENTYPES_COLOR_blue, GENTYPES_ENUMS_LEVEL_high);
	PUT(&e, uint8_t, 6);
	PUT(&e, uint16_t, 11);
	check_event("enums", &e);
}
END_TEST

START_TEST(arrays)
{
	struct expect e = { .n = 0 };
	const uint8_t bytes[4] = { 1, 2, 3, 250 };
	const char *names[2] = { "ab", NULL };
	const struct gentypes_point points[2] = { { -1, 2 }, { 3, -4 } };
	const struct gentypes_arrays_grid grid[2] = { { { 1, 2, 3 } }, { { -4, -5, -6 } } };

	trace_gentypes_arrays(bytes, names, points, grid);
	put(&e, bytes, 4);
	put_str(&e, "ab");
	put_str(&e, "");
	for (int i = 0; i < 2; i++) {
		PUT(&e, int32_t, points[i].x);
		PUT(&e, int32_t, points[i].y);
	}
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 3; j++)
			PUT(&e, int16_t, grid[i].v[j]);
	check_event("arrays", &e);
	ck_assert_uint_eq(e.n, 4 + 3 + 1 + 16 + 12);

	/* a NULL array records nothing */
	reserves = commits = 0;
	trace_gentypes_arrays(NULL, names, points, grid);
	ck_assert_uint_eq(reserves, 0);
}
END_TEST

START_TEST(sequences)
{
	struct expect e = { .n = 0 };
	const uint32_t vals[3] = { 7, 8, 0xffffffffu };
	const char *words[2] = { "x", "yz" };
	const struct gentypes_point pts[1] = { { 5, 6 } };
	const uint8_t r0[2] = { 9, 10 };
	const struct gentypes_sequences_rows rows[2] = { { 2, r0 }, { 0, NULL } };

	trace_gentypes_sequences(3, vals, 2, words, 1, pts, 2, rows);
	PUT(&e, uint16_t, 3);
	put(&e, vals, sizeof(vals));
	PUT(&e, uint8_t, 2);
	put_str(&e, "x");
	put_str(&e, "yz");
	PUT(&e, uint32_t, 1);
	PUT(&e, int32_t, 5);
	PUT(&e, int32_t, 6);
	PUT(&e, uint8_t, 2);
	PUT(&e, uint8_t, 2);
	put(&e, r0, 2);
	PUT(&e, uint8_t, 0);
	check_event("sequences", &e);

	/* NULL data records an empty sequence; a count beyond the length field is clamped */
	{
		static struct expect e2;
		static uint32_t many[70000];
		const char *lots[300];

		for (int i = 0; i < 70000; i++)
			many[i] = (uint32_t)i * 2654435761u;
		for (int i = 0; i < 300; i++)
			lots[i] = i & 1 ? "odd" : NULL;
		trace_gentypes_sequences(70000, many, 300, lots, 5, NULL, 0, NULL);
		e2.n = 0;
		PUT(&e2, uint16_t, 65535);
		put(&e2, many, 65535 * 4);
		PUT(&e2, uint8_t, 255);
		for (int i = 0; i < 255; i++)
			put_str(&e2, i & 1 ? "odd" : "");
		PUT(&e2, uint32_t, 0);
		PUT(&e2, uint8_t, 0);
		check_event("sequences", &e2);
	}
}
END_TEST

/* A string inside a sequence that another thread changes between the size pass and the copy: the
 * copy is bounded by the characters measured (the event never goes past its reservation), a string
 * that grew is cut there (the strings after it share what remains: empty here), and when strings
 * shrank the last one is lengthened with '?' so that the event still fills its reservation exactly
 * (check_event: exact bytes, 0xa5 just past the reservation, the model's size of it). */
static char word0[64];

static void grow_word0(void)
{
	strcpy(word0, "abcdefghijklmnop");
}

static void shrink_word0(void)
{
	strcpy(word0, "a");
}

START_TEST(nested_string_changes)
{
	const uint32_t vals[1] = { 3 };
	const char *words[3] = { word0, "de", NULL };
	struct expect e = { .n = 0 };

	strcpy(word0, "abc");	/* measured: 3 + 2 characters */
	on_reserve = grow_word0;
	trace_gentypes_sequences(1, vals, 3, words, 0, NULL, 0, NULL);
	on_reserve = NULL;
	PUT(&e, uint16_t, 1);
	put(&e, vals, sizeof(vals));
	PUT(&e, uint8_t, 3);
	put_str(&e, "abcde");	/* cut at the 5 characters measured */
	put_str(&e, "");	/* nothing left for "de" */
	put_str(&e, "");
	PUT(&e, uint32_t, 0);
	PUT(&e, uint8_t, 0);
	check_event("sequences", &e);

	strcpy(word0, "abc");
	on_reserve = shrink_word0;
	trace_gentypes_sequences(1, vals, 3, words, 0, NULL, 0, NULL);
	on_reserve = NULL;
	e.n = 0;
	PUT(&e, uint16_t, 1);
	put(&e, vals, sizeof(vals));
	PUT(&e, uint8_t, 3);
	put_str(&e, "a");
	put_str(&e, "de");
	put_str(&e, "??");	/* the last string takes the 2 characters "abc" lost */
	PUT(&e, uint32_t, 0);
	PUT(&e, uint8_t, 0);
	check_event("sequences", &e);

	/* unchanged: exactly the strings */
	strcpy(word0, "abc");
	trace_gentypes_sequences(1, vals, 3, words, 0, NULL, 0, NULL);
	e.n = 0;
	PUT(&e, uint16_t, 1);
	put(&e, vals, sizeof(vals));
	PUT(&e, uint8_t, 3);
	put_str(&e, "abc");
	put_str(&e, "de");
	put_str(&e, "");
	PUT(&e, uint32_t, 0);
	PUT(&e, uint8_t, 0);
	check_event("sequences", &e);
}
END_TEST

START_TEST(nested)
{
	struct expect e = { .n = 0 };
	const char *tags[2] = { "t1", "t2" };
	const struct gentypes_record rec = { 42, "rec", { 7, -7 }, 2, tags };
	const struct gentypes_nested_inl inl = { 513, "in" };

	trace_gentypes_nested(&rec, &inl);
	PUT(&e, uint64_t, 42);
	put_str(&e, "rec");
	PUT(&e, int32_t, 7);
	PUT(&e, int32_t, -7);
	PUT(&e, uint8_t, 2);
	put_str(&e, "t1");
	put_str(&e, "t2");
	PUT(&e, uint16_t, 513);
	put_str(&e, "in");
	check_event("nested", &e);

	/* an event whose body is a typeref: one parameter per field of the named struct */
	{
		struct expect w = { .n = 0 };

		trace_gentypes_whole(1, NULL, &rec.where, 0, NULL);
		PUT(&w, uint64_t, 1);
		put_str(&w, "");
		PUT(&w, int32_t, 7);
		PUT(&w, int32_t, -7);
		PUT(&w, uint8_t, 0);
		check_event("whole", &w);
	}
}
END_TEST

START_TEST(unions)
{
	const uint16_t list[3] = { 1, 2, 65535 };
	struct gentypes_value v;
	struct gentypes_unions_fixed fx;
	struct expect e;

	memset(&v, 0, sizeof(v));
	memset(&fx, 0, sizeof(fx));
	fx.code = 1;
	fx.u.b = 0.5f;

	v.code = 0;
	v.u.i = -9;
	e.n = 0;
	trace_gentypes_unions(&v, &fx);
	PUT(&e, uint8_t, 0);
	PUT(&e, int64_t, -9);
	PUT(&e, uint8_t, 1);
	PUT(&e, float, 0.5f);
	check_event("unions", &e);

	v.code = 1;
	v.u.s = "str";
	e.n = 0;
	trace_gentypes_unions(&v, &fx);
	PUT(&e, uint8_t, 1);
	put_str(&e, "str");
	PUT(&e, uint8_t, 1);
	PUT(&e, float, 0.5f);
	check_event("unions", &e);

	v.code = 2;
	v.u.p.x = 3;
	v.u.p.y = 4;
	e.n = 0;
	trace_gentypes_unions(&v, &fx);
	PUT(&e, uint8_t, 2);
	PUT(&e, int32_t, 3);
	PUT(&e, int32_t, 4);
	PUT(&e, uint8_t, 1);
	PUT(&e, float, 0.5f);
	check_event("unions", &e);

	v.code = 3;
	v.u.list.len = 3;
	v.u.list.data = list;
	fx.code = 0;
	fx.u.a = 77;
	e.n = 0;
	trace_gentypes_unions(&v, &fx);
	PUT(&e, uint8_t, 3);
	PUT(&e, uint8_t, 3);
	put(&e, list, sizeof(list));
	PUT(&e, uint8_t, 0);
	PUT(&e, uint32_t, 77);
	check_event("unions", &e);

	/* a code out of range records nothing */
	reserves = commits = 0;
	v.code = 4;
	trace_gentypes_unions(&v, &fx);
	v.code = 0;
	fx.code = 2;
	trace_gentypes_unions(&v, &fx);
	ck_assert_uint_eq(reserves, 0);
}
END_TEST

START_TEST(keywords)
{
	struct expect e = { .n = 0 };

	trace_gentypes_keywords(3, 4);
	PUT(&e, uint8_t, 3);
	PUT(&e, uint8_t, 4);
	check_event("keywords", &e);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("gen");
	TCase *tc = tcase_create("encode");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, facility_object);
	tcase_add_test(tc, not_recording);
	tcase_add_test(tc, noargs);
	tcase_add_test(tc, ints);
	tcase_add_test(tc, floats);
	tcase_add_test(tc, strings);
	tcase_add_test(tc, string_lengths);
	tcase_add_test(tc, enums);
	tcase_add_test(tc, arrays);
	tcase_add_test(tc, sequences);
	tcase_add_test(tc, nested);
	tcase_add_test(tc, nested_string_changes);
	tcase_add_test(tc, unions);
	tcase_add_test(tc, keywords);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
