/* SPDX-License-Identifier: MIT */
/* libltt-reader through its public API, on traces written by tests/progs/mktrace from
 * tests/golden/reader/types.xml and types.script: exact values of every type in both byte orders and
 * two arch_sizes, merge order, filters, lost-data accounting, problems with file and offset. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ltt/reader.h>

static char work[256];

static const char *env(const char *name, const char *def)
{
	const char *v = getenv(name);

	return v && *v ? v : def;
}

/* Writes trace NAME with mktrace; extra options appended. */
static void mktrace(const char *name, const char *opts)
{
	char cmd[2048];
	const char *src = env("SRCDIR", "."), *build = env("BUILD", "build");

	snprintf(cmd, sizeof(cmd), "rm -rf %s/%s && %s/tests/progs/mktrace -o %s/%s -c 2 -b 4096 -f "
		 "%s/tests/golden/reader/types.xml -s %s/tests/golden/reader/types.script %s",
		 work, name, build, work, name, src, src, opts);
	ck_assert_int_eq(system(cmd), 0);
}

static struct ltt_reader *open_one(const char *name, unsigned flags)
{
	struct ltt_reader_options opt = { .flags = flags };
	struct ltt_reader *r;
	char path[512], err[512];
	const char *paths[1] = { path };

	snprintf(path, sizeof(path), "%s/%s", work, name);
	ck_assert_msg(!ltt_reader_open(&r, paths, 1, &opt, err, sizeof(err)), "%s", err);
	return r;
}

static int next_named(struct ltt_reader *r, struct ltt_event *ev, const char *name)
{
	while (ltt_reader_next(r, ev) == 1)
		if (!strcmp(ev->type->name, name))
			return 1;
	return 0;
}

static void field(const struct ltt_value *v, const char *name, struct ltt_value *out)
{
	ck_assert_int_eq(ltt_value_field(v, name, out), 0);
}

static void check_values(const char *name)
{
	struct ltt_reader *r = open_one(name, 0);
	struct ltt_event ev;
	struct ltt_value b, f, e, g;
	size_t len;

	ck_assert(next_named(r, &ev, "scalars"));
	ck_assert_str_eq(ev.type->facility, "types");
	ck_assert_uint_eq(ev.id, 21);
	ck_assert_uint_eq(ev.cycles, 2000);
	ck_assert_uint_eq(ev.time_ns, 1700000000ull * 1000000000ull + 1000);
	ck_assert_str_eq(ev.tracefile->name, "cpu/1");
	ck_assert_int_eq(ltt_event_body(&ev, &b), 0);
	ck_assert_uint_eq(ltt_value_nchildren(&b), 8);
	field(&b, "u8", &f);
	ck_assert_uint_eq(ltt_value_uint(&f), 255);
	field(&b, "i16", &f);
	ck_assert_int_eq(ltt_value_int(&f), -2);
	field(&b, "u32", &f);
	ck_assert_uint_eq(ltt_value_uint(&f), 4000000000u);
	field(&b, "i64", &f);
	ck_assert(ltt_value_int(&f) == -9000000000000000000ll);
	field(&b, "l", &f);
	ck_assert_int_eq(ltt_value_int(&f), -5);
	field(&b, "m", &f);
	ck_assert_uint_eq(ltt_value_uint(&f), 7);
	field(&b, "f", &f);
	ck_assert(ltt_value_float(&f) == 1.5);
	field(&b, "d", &f);
	ck_assert(ltt_value_float(&f) == -0.25);
	ck_assert_int_eq(ltt_value_field(&b, "nope", &f), -ENOENT);

	ck_assert(next_named(r, &ev, "text"));
	ck_assert_int_eq(ltt_event_body(&ev, &b), 0);
	field(&b, "s", &f);
	ck_assert_str_eq(ltt_value_string(&f, &len), "hello \"world\"\n");
	ck_assert_uint_eq(len, 14);
	field(&b, "e", &f);
	ck_assert_str_eq(ltt_value_enum_label(&f), "TEN");
	ck_assert_uint_eq(ltt_value_uint(&f), 10);
	ck_assert(next_named(r, &ev, "text"));
	ck_assert_int_eq(ltt_event_body(&ev, &b), 0);
	field(&b, "e", &f);
	ck_assert_ptr_null(ltt_value_enum_label(&f));
	ck_assert_uint_eq(ltt_value_uint(&f), 3);

	ck_assert(next_named(r, &ev, "nested"));
	ck_assert_int_eq(ltt_event_body(&ev, &b), 0);
	field(&b, "arr", &f);
	ck_assert_uint_eq(ltt_value_nchildren(&f), 3);
	ck_assert_int_eq(ltt_value_element(&f, 1, &e), 0);
	field(&e, "hi", &g);
	ck_assert_int_eq(ltt_value_int(&g), -4);
	ck_assert_int_eq(ltt_value_element(&f, 3, &e), -ERANGE);
	field(&b, "seq", &f);
	ck_assert_uint_eq(ltt_value_nchildren(&f), 2);
	ck_assert_int_eq(ltt_value_element(&f, 1, &e), 0);
	ck_assert_str_eq(ltt_value_string(&e, NULL), "bc");
	field(&b, "u", &f);
	ck_assert_uint_eq(ltt_value_union_code(&f), 1);
	ck_assert_int_eq(ltt_value_first(&f, &e), 0);
	ck_assert_str_eq(e.name, "str");
	ck_assert_str_eq(ltt_value_string(&e, NULL), "union string");
	ck_assert_int_eq(ltt_value_next(&f, &e), -ENOENT);
	field(&b, "inner", &f);
	field(&f, "lo", &g);
	ck_assert_uint_eq(ltt_value_uint(&g), 65535);
	field(&f, "hi", &g);
	ck_assert_int_eq(ltt_value_int(&g), -32768);

	ck_assert(next_named(r, &ev, "nested"));
	ck_assert_int_eq(ltt_event_body(&ev, &b), 0);
	field(&b, "seq", &f);
	ck_assert_uint_eq(ltt_value_nchildren(&f), 0);
	ck_assert_int_eq(ltt_value_first(&f, &e), -ENOENT);
	field(&b, "u", &f);
	field(&f, "num", &g);
	ck_assert_uint_eq(ltt_value_uint(&g), 4294967295u);
	ltt_reader_close(r);
}

START_TEST(values_every_layout)
{
	static const char *const opts[] = { "-e little -a LP64", "-e big -a LP64", "-e little -a ILP32",
					    "-e big -a ILP32", "-e big -a LP32" };

	mktrace("v", opts[_i]);
	check_values("v");
}
END_TEST

START_TEST(merge_order_and_counts)
{
	static const struct { const char *tf; const char *ev; uint64_t cycles; } want[] = {
		{ "control/processes", "text", 1500 }, { "cpu/0", "empty", 2000 }, { "cpu/1", "scalars", 2000 },
		{ "cpu/0", "text", 2100 }, { "cpu/0", "text", 2200 }, { "cpu/1", "nested", 2300 },
		{ "cpu/1", "nested", 2400 }, { "cpu/0", "empty", 3000000000ull },
		{ "cpu/1", "scalars", 3000000001ull },
	};
	struct ltt_reader *r;
	struct ltt_event ev;
	unsigned n = 0;

	mktrace("m", "");
	r = open_one("m", 0);
	while (ltt_reader_next(r, &ev) == 1) {
		ck_assert_uint_lt(n, sizeof(want) / sizeof(want[0]));
		ck_assert_str_eq(ev.tracefile->name, want[n].tf);
		ck_assert_str_eq(ev.type->name, want[n].ev);
		ck_assert_uint_eq(ev.cycles, want[n].cycles);
		/* 1 cycle = 1 ns from 1700000000 s at cycle 1000 */
		ck_assert_uint_eq(ev.time_ns, 1700000000ull * 1000000000ull + want[n].cycles - 1000);
		n++;
	}
	ck_assert_uint_eq(n, 9);
	ck_assert_uint_eq(ltt_reader_problems(r), 0);
	ltt_reader_close(r);

	r = open_one("m", LTT_READ_BUILTIN);
	n = 0;
	while (ltt_reader_next(r, &ev) == 1)
		n++;
	ck_assert_uint_eq(n, 27);
	ltt_reader_close(r);
}
END_TEST

START_TEST(lost_data_accounting)
{
	struct ltt_reader *r;
	struct ltt_event ev;
	const struct ltt_trace_info *t;
	const struct ltt_tracefile_info *c0 = NULL, *c1 = NULL;

	mktrace("l", "");
	r = open_one("l", LTT_READ_UNORDERED);
	while (ltt_reader_next(r, &ev) == 1)
		;
	t = ltt_reader_trace(r, 0);
	ck_assert_uint_eq(t->ntracefiles, 5);
	ck_assert_str_eq(t->tracefiles[0]->name, "control/facilities");
	ck_assert_str_eq(t->tracefiles[1]->name, "control/processes");
	ck_assert_str_eq(t->tracefiles[2]->name, "control/interrupts");
	for (unsigned i = 0; i < t->ntracefiles; i++) {
		if (t->tracefiles[i]->cpu == 0)
			c0 = t->tracefiles[i];
		if (t->tracefiles[i]->cpu == 1)
			c1 = t->tracefiles[i];
	}
	ck_assert_ptr_nonnull(c0);
	ck_assert_ptr_nonnull(c1);
	ck_assert_uint_eq(c0->events_lost[LTT_LOST_BUFFER_FULL], 3);
	ck_assert_uint_eq(c0->events_lost[LTT_LOST_NESTED], 2);
	ck_assert_uint_eq(c0->events_lost[LTT_LOST_TOO_BIG], 0);
	ck_assert_uint_eq(c0->heartbeats, 1);
	ck_assert_uint_eq(c1->blocks_lost, 4);
	ck_assert_uint_eq(c1->blocks_lost_events, 40);
	ck_assert_uint_eq(c1->summary_blocks, 1);
	ck_assert_uint_eq(c1->gap_blocks, 0);
	ck_assert_uint_eq(c1->blocks_read, 3);
	/* records: everything decoded; events: builtin records (block_start, block_end, time_heartbeat,
	 * events_lost, blocks_lost) not counted */
	ck_assert_uint_eq(c1->records, 12);
	ck_assert_uint_eq(c0->records, 9);
	ck_assert_uint_eq(c1->events, 4);
	ck_assert_uint_eq(c0->events, 4);
	{
		struct ltt_counts n;
		uint64_t records = 0;

		for (unsigned i = 0; i < t->ntracefiles; i++)
			records += t->tracefiles[i]->records;
		ltt_trace_counts(t, &n);
		ck_assert_uint_eq(n.lost, 5);
		ck_assert_uint_eq(n.overwritten, 40);
		ck_assert_uint_eq(n.overwritten_blocks, 4);
		ck_assert_uint_eq(n.events + n.builtin_records, records);
	}
	ck_assert_str_eq(ltt_lost_cause_name(LTT_LOST_TORN), "torn");
	ltt_reader_close(r);
}
END_TEST

START_TEST(filters)
{
	struct ltt_reader *r;
	struct ltt_event ev;
	const struct ltt_trace_info *t;
	uint64_t first, last, base = 1700000000ull * 1000000000ull;
	unsigned n = 0;

	mktrace("f", "");
	r = open_one("f", 0);
	t = ltt_reader_trace(r, 0);
	for (unsigned i = 0; i < t->nevent_types; i++)
		if (strcmp(t->event_types[i]->name, "nested"))
			ck_assert_int_eq(ltt_reader_hide_event_type(r, t->event_types[i], 1), 0);
	ck_assert_int_eq(ltt_reader_time_bounds(r, &first, &last), 0);
	ck_assert_uint_eq(first, base);
	ck_assert_uint_eq(last, base + 3000000001ull - 1000);
	ck_assert_int_eq(ltt_reader_set_time_range(r, base + 1350, base + 5000), 0);
	while (ltt_reader_next(r, &ev) == 1) {
		ck_assert_str_eq(ev.type->name, "nested");
		ck_assert_uint_eq(ev.cycles, 2400);
		n++;
	}
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(ltt_reader_set_time_range(r, 0, 1), -EBUSY);
	ltt_reader_close(r);

	r = open_one("f", 0);
	t = ltt_reader_trace(r, 0);
	for (unsigned i = 0; i < t->ntracefiles; i++)
		ltt_reader_skip_tracefile(r, t->tracefiles[i], t->tracefiles[i]->cpu != 0);
	n = 0;
	while (ltt_reader_next(r, &ev) == 1) {
		ck_assert_int_eq(ev.tracefile->cpu, 0);
		n++;
	}
	ck_assert_uint_eq(n, 4);
	ltt_reader_close(r);
}
END_TEST

struct seen {
	unsigned n;
	char file[64];
	int64_t offset;
	char what[256];
};

static void on_problem(void *arg, const struct ltt_problem *p)
{
	struct seen *s = arg;

	if (!s->n++) {
		snprintf(s->file, sizeof(s->file), "%s", p->file ? p->file : "");
		s->offset = p->offset;
		snprintf(s->what, sizeof(s->what), "%s", p->what);
	}
}

START_TEST(problems_name_file_and_offset)
{
	struct seen s = { 0 };
	struct ltt_reader_options opt = { .problem = on_problem, .problem_arg = &s };
	struct ltt_reader *r;
	struct ltt_event ev;
	char path[512], cmd[1024], err[512], buf[1024];
	const char *paths[1] = { path };
	struct ltt_problem p = { .trace = "T", .file = "cpu/0", .offset = 32, .what = "bad" };
	unsigned n = 0;

	mktrace("p", "");
	snprintf(path, sizeof(path), "%s/p", work);
	/* an unknown id at offset 32 of cpu/0: the event before it is kept */
	snprintf(cmd, sizeof(cmd), "printf 'ww' | dd of=%s/cpu/0 bs=1 seek=32 conv=notrunc 2>/dev/null", path);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(ltt_reader_open(&r, paths, 1, &opt, err, sizeof(err)), 0);
	while (ltt_reader_next(r, &ev) == 1)
		n++;
	ck_assert_uint_eq(n, 6);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_uint_eq(ltt_reader_problems(r), 1);
	ck_assert_str_eq(s.file, "cpu/0");
	ck_assert_int_eq(s.offset, 32);
	ck_assert_str_eq(s.what, "unknown event id 30583; rest of block skipped");
	ltt_reader_close(r);
	ck_assert_str_eq(ltt_problem_format(&p, buf, sizeof(buf)), "T/cpu/0: offset 32: bad");

	/* a trace that cannot be opened: one line naming the file */
	snprintf(cmd, sizeof(cmd), "rm %s/info/system.xml", path);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(ltt_reader_open(&r, paths, 1, &opt, err, sizeof(err)), -ENOENT);
	ck_assert_ptr_null(r);
	ck_assert(strstr(err, "/p/info/system.xml: missing"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("reader");
	TCase *tc = tcase_create("api");
	SRunner *sr;
	int failed;
	char cmd[300];

	snprintf(work, sizeof(work), "%s/ltt-test-reader-XXXXXX", env("TMPDIR", "/tmp"));
	if (!mkdtemp(work)) {
		perror("mkdtemp");
		return EXIT_FAILURE;
	}
	tcase_add_loop_test(tc, values_every_layout, 0, 5);
	tcase_add_test(tc, merge_order_and_counts);
	tcase_add_test(tc, lost_data_accounting);
	tcase_add_test(tc, filters);
	tcase_add_test(tc, problems_name_file_and_offset);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", work);
	if (system(cmd))
		failed++;
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
