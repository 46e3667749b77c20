/* SPDX-License-Identifier: MIT */
/* Generate -> record -> decode: every trace_gentypes_*() of tests/eventdefs/gentypes.xml is called
 * with known values while libltt records, then libltt-reader reads the trace back and every value is
 * compared, field by field. Events are matched by name and occurrence (the merge order of equal times
 * across tracefiles is not what this test is about). */
#include <check.h>
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ltt/ltt.h>
#include <ltt/reader.h>

#include "gentypes.h"

static char tmp[PATH_MAX];
static char trace[PATH_MAX + 16];

static const char *const names2[2] = { "ab", NULL };
static const uint8_t bytes4[4] = { 1, 2, 3, 250 };
static const struct gentypes_point points2[2] = { { -1, 2 }, { 3, -4 } };
static const struct gentypes_arrays_grid grid2[2] = { { { 1, 2, 3 } }, { { -4, -5, -32768 } } };
static const uint32_t vals3[3] = { 7, 8, 0xffffffffu };
static const char *const words2[2] = { "x", "yz" };
static const uint8_t row0[2] = { 9, 10 };
static const struct gentypes_sequences_rows rows2[2] = { { 2, row0 }, { 0, NULL } };
static const char *const tags2[2] = { "t1", "t2" };
static const uint16_t list3[3] = { 1, 2, 65535 };

static void record_all(void)
{
	const struct gentypes_record rec = { 42, "rec", { 7, -7 }, 2, tags2 };
	const struct gentypes_nested_inl inl = { 513, "in" };
	struct gentypes_value v;
	struct gentypes_unions_fixed fx;

	trace_gentypes_noargs();
	trace_gentypes_ints(INT8_MIN, INT16_MIN, INT32_MIN, INT64_MIN, SHRT_MIN, INT_MIN, LONG_MIN,
			    UINT8_MAX, UINT16_MAX, UINT32_MAX, UINT64_MAX, USHRT_MAX, UINT_MAX, ULONG_MAX);
	trace_gentypes_ints(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14);
	trace_gentypes_floats(1.5f, -2.25, FLT_MAX, 1e300);
	trace_gentypes_strings("hello", NULL);
	trace_gentypes_enums(GENTYPES_COLOR_blue, GENTYPES_ENUMS_LEVEL_high);
	trace_gentypes_arrays(bytes4, (const char *const *)names2, points2, grid2);
	trace_gentypes_sequences(3, vals3, 2, words2, 1, points2, 2, rows2);
	trace_gentypes_sequences(0, vals3, 0, NULL, 9, NULL, 0, rows2);
	trace_gentypes_nested(&rec, &inl);

	memset(&v, 0, sizeof(v));
	memset(&fx, 0, sizeof(fx));
	fx.code = 1;
	fx.u.b = 0.5f;
	v.code = 0;
	v.u.i = -9;
	trace_gentypes_unions(&v, &fx);
	v.code = 1;
	v.u.s = "str";
	trace_gentypes_unions(&v, &fx);
	v.code = 2;
	v.u.p.x = 3;
	v.u.p.y = 4;
	trace_gentypes_unions(&v, &fx);
	v.code = 3;
	v.u.list.len = 3;
	v.u.list.data = list3;
	fx.code = 0;
	fx.u.a = 77;
	trace_gentypes_unions(&v, &fx);

	trace_gentypes_keywords(3, 4);
	trace_gentypes_whole(1, NULL, &points2[1], 0, NULL);
}

/* ---- checks on decoded values ---- */

static struct ltt_value field(const struct ltt_value *v, const char *name)
{
	struct ltt_value f;

	ck_assert_msg(ltt_value_field(v, name, &f) == 0, "no field %s", name);
	return f;
}

static struct ltt_value elem(const struct ltt_value *v, uint64_t i)
{
	struct ltt_value e;

	ck_assert_int_eq(ltt_value_element(v, i, &e), 0);
	return e;
}

#define U(v, name) ltt_value_uint((struct ltt_value[]){ field(v, name) })
#define I(v, name) ltt_value_int((struct ltt_value[]){ field(v, name) })
#define F(v, name) ltt_value_float((struct ltt_value[]){ field(v, name) })
#define S(v, name) ltt_value_string((struct ltt_value[]){ field(v, name) }, NULL)

static void check_point(const struct ltt_value *p, int32_t x, int32_t y)
{
	ck_assert_int_eq(I(p, "x"), x);
	ck_assert_int_eq(I(p, "y"), y);
}

static void check_ints(const struct ltt_value *b, int n)
{
	if (n == 0) {
		ck_assert_int_eq(I(b, "i1"), INT8_MIN);
		ck_assert_int_eq(I(b, "i2"), INT16_MIN);
		ck_assert_int_eq(I(b, "i4"), INT32_MIN);
		ck_assert_int_eq(I(b, "i8"), INT64_MIN);
		ck_assert_int_eq(I(b, "is"), SHRT_MIN);
		ck_assert_int_eq(I(b, "im"), INT_MIN);
		ck_assert_int_eq(I(b, "il"), LONG_MIN);
		ck_assert_uint_eq(U(b, "u1"), UINT8_MAX);
		ck_assert_uint_eq(U(b, "u2"), UINT16_MAX);
		ck_assert_uint_eq(U(b, "u4"), UINT32_MAX);
		ck_assert_uint_eq(U(b, "u8"), UINT64_MAX);
		ck_assert_uint_eq(U(b, "us"), USHRT_MAX);
		ck_assert_uint_eq(U(b, "um"), UINT_MAX);
		ck_assert_uint_eq(U(b, "ul"), ULONG_MAX);
	} else {
		static const char *const f[] = { "i1", "i2", "i4", "i8", "is", "im", "il",
						 "u1", "u2", "u4", "u8", "us", "um", "ul" };

		for (int i = 0; i < 14; i++)
			ck_assert_int_eq(I(b, f[i]), i + 1);
	}
}

static void check_arrays(const struct ltt_value *b)
{
	struct ltt_value a = field(b, "bytes"), g, row;

	ck_assert_uint_eq(ltt_value_nchildren(&a), 4);
	for (int i = 0; i < 4; i++)
		ck_assert_uint_eq(ltt_value_uint((struct ltt_value[]){ elem(&a, i) }), bytes4[i]);
	a = field(b, "names");
	ck_assert_str_eq(ltt_value_string((struct ltt_value[]){ elem(&a, 0) }, NULL), "ab");
	ck_assert_str_eq(ltt_value_string((struct ltt_value[]){ elem(&a, 1) }, NULL), "");
	a = field(b, "points");
	for (int i = 0; i < 2; i++)
		check_point((struct ltt_value[]){ elem(&a, i) }, points2[i].x, points2[i].y);
	g = field(b, "grid");
	ck_assert_uint_eq(ltt_value_nchildren(&g), 2);
	for (int i = 0; i < 2; i++) {
		row = elem(&g, i);
		ck_assert_uint_eq(ltt_value_nchildren(&row), 3);
		for (int j = 0; j < 3; j++)
			ck_assert_int_eq(ltt_value_int((struct ltt_value[]){ elem(&row, j) }), grid2[i].v[j]);
	}
}

static void check_sequences(const struct ltt_value *b, int n)
{
	struct ltt_value s = field(b, "vals"), r;

	if (n == 1) {	/* the call with empty and NULL sequences */
		static const char *const f[] = { "vals", "words", "pts", "rows" };

		for (int i = 0; i < 4; i++)
			ck_assert_uint_eq(ltt_value_nchildren((struct ltt_value[]){ field(b, f[i]) }), 0);
		return;
	}
	ck_assert_uint_eq(ltt_value_nchildren(&s), 3);
	for (int i = 0; i < 3; i++)
		ck_assert_uint_eq(ltt_value_uint((struct ltt_value[]){ elem(&s, i) }), vals3[i]);
	s = field(b, "words");
	ck_assert_uint_eq(ltt_value_nchildren(&s), 2);
	ck_assert_str_eq(ltt_value_string((struct ltt_value[]){ elem(&s, 0) }, NULL), "x");
	ck_assert_str_eq(ltt_value_string((struct ltt_value[]){ elem(&s, 1) }, NULL), "yz");
	s = field(b, "pts");
	ck_assert_uint_eq(ltt_value_nchildren(&s), 1);
	check_point((struct ltt_value[]){ elem(&s, 0) }, -1, 2);
	s = field(b, "rows");
	ck_assert_uint_eq(ltt_value_nchildren(&s), 2);
	r = elem(&s, 0);
	ck_assert_uint_eq(ltt_value_nchildren(&r), 2);
	ck_assert_uint_eq(ltt_value_uint((struct ltt_value[]){ elem(&r, 0) }), 9);
	ck_assert_uint_eq(ltt_value_uint((struct ltt_value[]){ elem(&r, 1) }), 10);
	r = elem(&s, 1);
	ck_assert_uint_eq(ltt_value_nchildren(&r), 0);
}

static void check_record(const struct ltt_value *r, uint64_t id, const char *name, int32_t x, int32_t y,
			 unsigned ntags)
{
	struct ltt_value t = field(r, "tags");

	ck_assert_uint_eq(U(r, "id"), id);
	ck_assert_str_eq(S(r, "name"), name);
	check_point((struct ltt_value[]){ field(r, "where") }, x, y);
	ck_assert_uint_eq(ltt_value_nchildren(&t), ntags);
	for (unsigned i = 0; i < ntags; i++)
		ck_assert_str_eq(ltt_value_string((struct ltt_value[]){ elem(&t, i) }, NULL), tags2[i]);
}

static void check_unions(const struct ltt_value *b, int n)
{
	struct ltt_value v = field(b, "v"), fx = field(b, "fixed"), alt, l;

	ck_assert_uint_eq(ltt_value_union_code(&v), (uint64_t)n);
	switch (n) {
	case 0:
		ck_assert_int_eq(I(&v, "i"), -9);
		break;
	case 1:
		ck_assert_str_eq(S(&v, "s"), "str");
		break;
	case 2:
		check_point((struct ltt_value[]){ field(&v, "p") }, 3, 4);
		break;
	default:
		l = field(&v, "list");
		ck_assert_uint_eq(ltt_value_nchildren(&l), 3);
		for (int i = 0; i < 3; i++)
			ck_assert_uint_eq(ltt_value_uint((struct ltt_value[]){ elem(&l, i) }), list3[i]);
		break;
	}
	/* only the selected alternative is there */
	ck_assert_int_eq(ltt_value_field(&v, n == 0 ? "s" : "i", &alt), -ENOENT);
	if (n < 3) {
		ck_assert_uint_eq(ltt_value_union_code(&fx), 1);
		ck_assert(F(&fx, "b") == 0.5);
	} else {
		ck_assert_uint_eq(ltt_value_union_code(&fx), 0);
		ck_assert_uint_eq(U(&fx, "a"), 77);
	}
}

static const char *const event_names[] = {
	"noargs", "ints", "floats", "strings", "enums", "arrays", "sequences", "nested", "unions",
	"keywords", "whole",
};
static const unsigned expected_count[] = { 1, 2, 1, 1, 1, 1, 2, 1, 4, 1, 1 };

START_TEST(round_trip)
{
	struct ltt_options o = { 0 };
	struct ltt_reader *r;
	struct ltt_event ev;
	struct ltt_value b;
	const char *paths[1] = { trace };
	unsigned seen[11] = { 0 }, total = 0;
	char err[512];
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);	/* one cpu/N: events in call order */
	snprintf(trace, sizeof(trace), "%s/trace", tmp);
	o.path = trace;
	ck_assert_int_eq(ltt_start(&o), 0);
	snprintf(trace, sizeof(trace), "%s", ltt_trace_path());
	record_all();
	ck_assert_int_eq(ltt_stop(), 0);

	ck_assert_msg(ltt_reader_open(&r, paths, 1, NULL, err, sizeof(err)) == 0, "%s", err);
	while (ltt_reader_next(r, &ev) == 1) {
		unsigned k;
		int n;

		if (strcmp(ev.type->facility, "gentypes"))
			continue;
		ck_assert_uint_eq(ev.type->checksum, LTT_FACILITY_GENTYPES_CHECKSUM);
		for (k = 0; k < 11 && strcmp(ev.type->name, event_names[k]); k++)
			;
		ck_assert_msg(k < 11, "unexpected event %s", ev.type->name);
		n = (int)seen[k]++;
		total++;
		if (k == 0) {
			ck_assert_int_eq(ltt_event_body(&ev, &b), -ENOENT);
			ck_assert_uint_eq(ev.size, 0);
			continue;
		}
		ck_assert_int_eq(ltt_event_body(&ev, &b), 0);
		switch (k) {
		case 1:
			check_ints(&b, n);
			break;
		case 2:
			ck_assert(F(&b, "f4") == 1.5);
			ck_assert(F(&b, "f8") == -2.25);
			ck_assert(F(&b, "fm") == FLT_MAX);
			ck_assert(F(&b, "fl") == 1e300);
			break;
		case 3:
			ck_assert_str_eq(S(&b, "a"), "hello");
			ck_assert_str_eq(S(&b, "b"), "");
			ck_assert_str_eq(ev.tracefile->name, "control/persistent");
			break;
		case 4:
			ck_assert_uint_eq(U(&b, "color"), 6);
			ck_assert_str_eq(ltt_value_enum_label((struct ltt_value[]){ field(&b, "color") }), "blue");
			ck_assert_uint_eq(U(&b, "level"), 11);
			ck_assert_str_eq(ltt_value_enum_label((struct ltt_value[]){ field(&b, "level") }), "high");
			break;
		case 5:
			check_arrays(&b);
			break;
		case 6:
			check_sequences(&b, n);
			break;
		case 7:
			check_record((struct ltt_value[]){ field(&b, "rec") }, 42, "rec", 7, -7, 2);
			ck_assert_uint_eq(U((struct ltt_value[]){ field(&b, "inl") }, "x"), 513);
			ck_assert_str_eq(S((struct ltt_value[]){ field(&b, "inl") }, "tag"), "in");
			break;
		case 8:
			check_unions(&b, n);
			break;
		case 9:
			ck_assert_uint_eq(U(&b, "class"), 3);
			ck_assert_uint_eq(U(&b, "new"), 4);
			break;
		default:
			check_record(&b, 1, "", 3, -4, 0);
			break;
		}
	}
	for (unsigned k = 0; k < 11; k++)
		ck_assert_msg(seen[k] == expected_count[k], "%s: %u events, expected %u", event_names[k],
			      seen[k], expected_count[k]);
	ck_assert_uint_eq(total, 16);
	ck_assert_uint_eq(ltt_reader_problems(r), 0);
	ltt_reader_close(r);
}
END_TEST

static void setup(void)
{
	snprintf(tmp, sizeof(tmp), "%s/ltt-gen-rt-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(tmp));
}

static void teardown(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmp);
}

int main(void)
{
	Suite *s = suite_create("gen_roundtrip");
	TCase *tc = tcase_create("record_and_read");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, round_trip);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
