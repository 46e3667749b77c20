/* SPDX-License-Identifier: MIT */
/* The calls, spans and regions models (toolkit/calls.c, toolkit/spans.c, toolkit/regions.c with the
 * Trace2 model's thread names, toolkit/trace2_model.c) on synthetic event sequences: each
 * case is a mktrace script (tests/progs/mktrace.c: events of threads on CPUs, loss records) and the
 * exact answers the model must give: per function, completed calls, the outermost calls' total, the
 * self time, calls cut by a loss, calls left open, exits without their entry; per span, its begin and
 * end, cut or open, and ends without a begin. Table-driven; each case reads a trace of a few events
 * (well under a second). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <ltt/reader.h>

#include "toolkit/calls.h"
#include "toolkit/losses.h"
#include "toolkit/regions.h"
#include "toolkit/spans.h"
#include "test_tmp.h"

#define MAXF 4

struct totals {
	const char *name;	/* "0x1000": the function (no symbols: its address) */
	unsigned calls;		/* completed, not cut */
	uint64_t total_ns;	/* outermost completed calls */
	uint64_t self_ns;
	unsigned cut, unfinished;
};

struct calls_case {
	const char *what;
	const char *script;
	unsigned nfuncs;
	struct totals f[MAXF];
	uint64_t unmatched;
};

static const struct calls_case cases[] = {
	{ "nested: g inside f",
	  "ev 0 1000 func.entry 100 4096\n"
	  "ev 0 1100 func.entry 100 8192\n"
	  "ev 0 1200 func.exit 100 8192\n"
	  "ev 0 2000 func.exit 100 4096\n",
	  2, { { "0x1000", 1, 1000, 900, 0, 0 }, { "0x2000", 1, 100, 100, 0, 0 } }, 0 },
	{ "recursion: only the outermost call counts in the total",
	  "ev 0 1000 func.entry 100 4096\n"
	  "ev 0 1100 func.entry 100 4096\n"
	  "ev 0 1300 func.exit 100 4096\n"
	  "ev 0 2000 func.exit 100 4096\n",
	  1, { { "0x1000", 2, 1000, 1000, 0, 0 } }, 0 },
	{ "two threads interleaved on two CPUs",
	  "ev 0 1000 func.entry 100 4096\n"
	  "ev 1 1050 func.entry 200 4096\n"
	  "ev 0 1400 func.exit 100 4096\n"
	  "ev 1 1850 func.exit 200 4096\n",
	  1, { { "0x1000", 2, 1200, 1200, 0, 0 } }, 0 },
	{ "an exit without its entry, a call left open",
	  "ev 0 1000 func.exit 100 8192\n"
	  "ev 0 1100 func.entry 100 4096\n"
	  "ev 0 1500 func.entry 100 8192\n"
	  "ev 0 1600 func.exit 100 8192\n",
	  2, { { "0x1000", 0, 0, 0, 0, 1 }, { "0x2000", 1, 100, 100, 0, 0 } }, 1 },
	{ "a loss cuts the call open across it, not the one before",
	  "ev 0 1000 func.entry 100 4096\n"
	  "ev 0 1100 func.entry 100 8192\n"
	  "ev 0 1200 func.exit 100 8192\n"
	  "lost 0 1500 10 0\n"
	  "ev 0 2000 func.exit 100 4096\n"
	  "ev 0 3000 func.entry 100 4096\n"
	  "ev 0 3500 func.exit 100 4096\n",
	  2, { { "0x1000", 1, 500, 500, 1, 0 }, { "0x2000", 1, 100, 100, 0, 0 } }, 0 },
};

struct seen {
	const struct calls_model *m;
	struct totals f[MAXF];
	unsigned n;
};

static struct totals *slot(struct seen *s, const char *name)
{
	for (unsigned i = 0; i < s->n; i++)
		if (!strcmp(s->f[i].name, name))
			return &s->f[i];
	ck_assert_uint_lt(s->n, MAXF);
	s->f[s->n].name = strdup(name);
	return &s->f[s->n++];
}

static int on_call(void *arg, const struct call *c)
{
	struct seen *s = arg;
	struct totals *t = slot(s, calls_func_name(s->m, c->func));

	if (c->cut)
		t->cut++;
	else if (c->unfinished)
		t->unfinished++;
	else {
		t->calls++;
		t->self_ns += c->self_ns;
		if (c->outermost)
			t->total_ns += c->dur_ns;
	}
	return 0;
}

/* Writes the case's trace with mktrace into dir/t; returns its path. */
static char *make_trace(const char dir[4096], const char *script, const char *xml)
{
	const char *build = getenv("BUILD"), *src = getenv("SRCDIR");
	char sp[4200], cmd[16384], *out = malloc(4200);
	FILE *f;

	ck_assert_ptr_nonnull(build);
	ck_assert_ptr_nonnull(src);
	ck_assert_ptr_nonnull(out);
	snprintf(sp, sizeof(sp), "%s/script", dir);
	snprintf(out, 4200, "%s/t", dir);
	f = fopen(sp, "w");
	ck_assert_ptr_nonnull(f);
	fputs(script, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "'%s/tests/progs/mktrace' -o '%s' -c 2 -f '%s/%s' -s '%s'", build, out, src, xml, sp);
	ck_assert_int_eq(system(cmd), 0);
	return out;
}

START_TEST(calls_totals)
{
	const struct calls_case *c = &cases[_i];
	char dir[4096], *path, err[256];
	struct ltt_reader_options opt = { .flags = LTT_READ_BUILTIN };
	struct ltt_reader *r;
	struct calls_model m;
	struct ltt_event ev;
	struct seen s = { 0 };
	int ret;

	test_tmp_make(dir, sizeof(dir), "calls");
	path = make_trace(dir, c->script, "eventdefs/func.xml");
	ck_assert_msg(!ltt_reader_open(&r, (const char *const *)&path, 1, &opt, err, sizeof(err)), "%s", err);
	losses_reader(r);
	ck_assert_int_eq(calls_init(&m), 0);
	s.m = &m;
	m.on_call = on_call;
	m.arg = &s;
	while ((ret = ltt_reader_next(r, &ev)) > 0)
		ck_assert_int_ge(calls_event(&m, &ev), 0);
	ck_assert_int_eq(ret, 0);
	ck_assert_int_eq(calls_finish(&m), 0);
	ck_assert_msg(s.n == c->nfuncs, "%s: %u functions, expected %u", c->what, s.n, c->nfuncs);
	for (unsigned i = 0; i < c->nfuncs; i++) {
		const struct totals *want = &c->f[i], *got = slot(&s, want->name);

		ck_assert_msg(got->calls == want->calls && got->total_ns == want->total_ns &&
				      got->self_ns == want->self_ns && got->cut == want->cut &&
				      got->unfinished == want->unfinished,
			      "%s: %s: calls %u total %llu self %llu cut %u open %u, expected %u %llu %llu %u %u",
			      c->what, want->name, got->calls, (unsigned long long)got->total_ns,
			      (unsigned long long)got->self_ns, got->cut, got->unfinished, want->calls,
			      (unsigned long long)want->total_ns, (unsigned long long)want->self_ns, want->cut,
			      want->unfinished);
	}
	ck_assert_msg(m.unmatched == c->unmatched, "%s: %llu exits without entry, expected %llu", c->what,
		      (unsigned long long)m.unmatched, (unsigned long long)c->unmatched);
	for (unsigned i = 0; i < s.n; i++)
		free((char *)s.f[i].name);
	calls_free(&m);
	ltt_reader_close(r);
	free(path);
	test_tmp_remove(dir);
}
END_TEST

/* ---- spans (toolkit/spans.c) ---------------------------------------------------------------------- */

struct spans_case {
	const char *what;
	const char *script;
	/* closed spans "key:begin-end" (cut ones "key:cut") in the order they end, open ones "key:begin" at
	 * the end in the order they began, then the count of ends without a begin */
	const char *closed, *open;
	uint64_t unmatched;
};

static const struct spans_case span_cases[] = {
	{ "pairs by key, across threads and CPUs",
	  "ev 0 1000 spantest.job_begin 100 1 a\n"
	  "ev 1 1100 spantest.job_begin 200 2 b\n"
	  "ev 1 1500 spantest.job_end 200 1 0\n"
	  "ev 0 1700 spantest.job_end 100 2 0\n",
	  "1:1000-1500 2:1100-1700 ", "", 0 },
	{ "the same key nests: an end closes the latest begin of its key",
	  "ev 0 1000 spantest.job_begin 100 7 a\n"
	  "ev 0 1100 spantest.job_begin 100 7 b\n"
	  "ev 0 1200 spantest.job_end 100 7 0\n"
	  "ev 0 1900 spantest.job_end 100 7 0\n",
	  "7:1100-1200 7:1000-1900 ", "", 0 },
	{ "an end without its begin, a begin never ended",
	  "ev 0 1000 spantest.job_end 100 3 0\n"
	  "ev 0 1100 spantest.job_begin 100 4 a\n"
	  "ev 0 1200 spantest.req_open 100 r1\n"
	  "ev 0 1300 spantest.req_close 100 r1\n",
	  "r1:1200-1300 ", "4:1100 ", 1 },
	{ "a loss cuts the span open across it, not the next one",
	  "ev 1 3600 spantest.job_begin 100 1 a\n"
	  "lost 1 3700 5 2\n"
	  "ev 1 3800 spantest.job_end 100 1 0\n"
	  "ev 1 3900 spantest.job_begin 100 2 b\n"
	  "ev 1 4000 spantest.job_end 100 2 0\n",
	  "1:cut 2:3900-4000 ", "", 0 },
};

struct span_seen {
	char closed[512], open[512];
	uint64_t base;
};

static void put_span(char *buf, size_t len, const struct span_ev *sp, uint64_t base, int open)
{
	size_t n = strlen(buf);

	if (open)
		snprintf(buf + n, len - n, "%s:%llu ", sp->key, (unsigned long long)(sp->begin_ns - base));
	else if (sp->cut)
		snprintf(buf + n, len - n, "%s:cut ", sp->key);
	else
		snprintf(buf + n, len - n, "%s:%llu-%llu ", sp->key, (unsigned long long)(sp->begin_ns - base),
			 (unsigned long long)(sp->end_ns - base));
}

static int span_open(void *arg, const struct span_ev *sp)
{
	struct span_seen *s = arg;

	put_span(s->open, sizeof(s->open), sp, s->base, 1);
	return 0;
}

START_TEST(spans_pairs)
{
	const struct spans_case *c = &span_cases[_i];
	char dir[4096], *path, err[256];
	struct ltt_reader_options opt = { .flags = LTT_READ_BUILTIN };
	struct ltt_reader *r;
	struct span_model *m;
	struct ltt_event ev;
	struct losses L = { 0 };
	struct span_seen s = { "", "", 0 };
	int ret;

	test_tmp_make(dir, sizeof(dir), "spans");
	path = make_trace(dir, c->script, "tests/eventdefs/spantest.xml");
	ck_assert_msg(!ltt_reader_open(&r, (const char *const *)&path, 1, &opt, err, sizeof(err)), "%s", err);
	losses_reader(r);
	ck_assert_int_eq(span_model_new(&m), 0);
	/* mktrace anchors the scripts' time 1000 at 1700000000 s (tests/e2e/trust_lossy.sh): the
	 * answers are in the scripts' times */
	s.base = 1700000000000000000ull - 1000;
	while ((ret = ltt_reader_next(r, &ev)) > 0) {
		struct span_ev sp;

		if (losses_event(&L, &ev)) {
			ck_assert_int_eq(span_model_loss(m, ev.trace->index), 0);
			continue;
		}
		ck_assert_int_ge(span_model_event(m, &ev, &sp), 0);
		if (sp.kind == SPAN_END)
			put_span(s.closed, sizeof(s.closed), &sp, s.base, 0);
	}
	ck_assert_int_eq(ret, 0);
	ck_assert_int_eq(span_model_open_each(m, span_open, &s), 0);
	ck_assert_msg(!strcmp(s.closed, c->closed), "%s: closed '%s', expected '%s'", c->what, s.closed, c->closed);
	ck_assert_msg(!strcmp(s.open, c->open), "%s: open '%s', expected '%s'", c->what, s.open, c->open);
	ck_assert_uint_eq(span_model_unmatched(m), c->unmatched);
	span_model_free(m);
	losses_free(&L);
	ltt_reader_close(r);
	free(path);
	test_tmp_remove(dir);
}
END_TEST

/* ---- regions (toolkit/regions.c) and Trace2's thread names (toolkit/trace2_model.c) ------------------ */

#define ENTER(cpu, t, tid, nest, cat, label) "ev " #cpu " " #t " app.region_enter " #tid " r.c 1 " #nest " " cat " " label " \"\"\n"
#define LEAVE(cpu, t, tid, nest, cat, label) "ev " #cpu " " #t " app.region_leave " #tid " r.c 2 " #nest " " cat " " label " \"\"\n"

struct regions_case {
	const char *what;
	const char *script;
	/* one row per region as regions_scan gives them (completed in the order they end, then the open
	 * ones): "THREAD CATEGORY/LABEL dDEPTH #ID^PARENT START+DURATION/SELF" in the script's times, "open"
	 * or "cut" instead of the times */
	const char *rows;
};

static const struct regions_case region_cases[] = {
	{ "nested: the parent's self time is its duration less its child's",
	  ENTER(0, 1000, 100, 0, "load", "outer") ENTER(0, 1100, 100, 1, "load", "inner")
	  LEAVE(0, 1300, 100, 1, "load", "inner") LEAVE(0, 2000, 100, 0, "load", "outer"),
	  "tid:100 load/inner d1 #2^1 1100+200/200\n"
	  "tid:100 load/outer d0 #1^0 1000+1000/800\n" },
	{ "two children: both count in the parent's self time",
	  ENTER(0, 1000, 100, 0, "a", "p") ENTER(0, 1100, 100, 1, "a", "c") LEAVE(0, 1150, 100, 1, "a", "c")
	  ENTER(0, 1500, 100, 1, "a", "c") LEAVE(0, 1700, 100, 1, "a", "c") LEAVE(0, 3000, 100, 0, "a", "p"),
	  "tid:100 a/c d1 #2^1 1100+50/50\n"
	  "tid:100 a/c d1 #3^1 1500+200/200\n"
	  "tid:100 a/p d0 #1^0 1000+2000/1750\n" },
	{ "two threads on two CPUs: regions do not nest across threads",
	  ENTER(0, 1000, 100, 0, "w", "x") ENTER(1, 1050, 200, 0, "w", "y")
	  LEAVE(0, 1400, 100, 0, "w", "x") LEAVE(1, 1850, 200, 0, "w", "y"),
	  "tid:100 w/x d0 #1^0 1000+400/400\n"
	  "tid:200 w/y d0 #2^0 1050+800/800\n" },
	{ "a named thread (app.thread_start): its Trace2 name thNN:NAME",
	  "ev 0 900 app.thread_start 300 r.c 3 1 worker\n"
	  ENTER(0, 1000, 300, 0, "io", "read") LEAVE(0, 1250, 300, 0, "io", "read"),
	  "th01:worker io/read d0 #1^0 1000+250/250\n" },
	{ "still open at the end: completed children first, then the open region",
	  ENTER(0, 1000, 100, 0, "s", "outer") ENTER(0, 1100, 100, 1, "s", "inner")
	  LEAVE(0, 1200, 100, 1, "s", "inner"),
	  "tid:100 s/inner d1 #2^1 1100+100/100\n"
	  "tid:100 s/outer d0 #1^0 open\n" },
	{ "a loss while a region is open cuts it; the region after the loss is whole",
	  ENTER(0, 1000, 100, 0, "l", "a") "lost 0 1500 10 0\n" LEAVE(0, 2000, 100, 0, "l", "a")
	  ENTER(0, 3000, 100, 0, "l", "b") LEAVE(0, 3400, 100, 0, "l", "b"),
	  "tid:100 l/a d0 #1^0 cut\n"
	  "tid:100 l/b d0 #2^0 3000+400/400\n" },
};

struct region_seen {
	char rows[1024];
	uint64_t base;
};

static int region_row(void *arg, const struct region_row *w)
{
	struct region_seen *s = arg;
	size_t n = strlen(s->rows);

	n += (size_t)snprintf(s->rows + n, sizeof(s->rows) - n, "%s %s/%s d%u #%llu^%llu ", w->thread, w->category,
			      w->label, w->depth, (unsigned long long)w->id, (unsigned long long)w->parent_id);
	if (w->open || w->cut)
		snprintf(s->rows + n, sizeof(s->rows) - n, "%s\n", w->open ? "open" : "cut");
	else
		snprintf(s->rows + n, sizeof(s->rows) - n, "%llu+%llu/%llu\n",
			 (unsigned long long)(w->start_ns - s->base), (unsigned long long)w->dur_ns,
			 (unsigned long long)w->self_ns);
	return 0;
}

START_TEST(regions_rows)
{
	const struct regions_case *c = &region_cases[_i];
	char dir[4096], *path, err[256];
	struct ltt_reader_options opt = { .flags = LTT_READ_BUILTIN };
	struct ltt_reader *r;
	struct region_seen s = { "", 1700000000000000000ull - 1000 };	/* as spans_pairs */

	test_tmp_make(dir, sizeof(dir), "regions");
	path = make_trace(dir, c->script, "eventdefs/app.xml");
	ck_assert_msg(!ltt_reader_open(&r, (const char *const *)&path, 1, &opt, err, sizeof(err)), "%s", err);
	ck_assert_int_eq(regions_scan(r, region_row, &s), 0);
	ck_assert_msg(!strcmp(s.rows, c->rows), "%s: rows\n%s, expected\n%s", c->what, s.rows, c->rows);
	ltt_reader_close(r);
	free(path);
	test_tmp_remove(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("models");
	TCase *tc = tcase_create("models");
	SRunner *sr;
	int failed;

	tcase_add_loop_test(tc, calls_totals, 0, (int)(sizeof(cases) / sizeof(cases[0])));
	tcase_add_loop_test(tc, spans_pairs, 0, (int)(sizeof(span_cases) / sizeof(span_cases[0])));
	tcase_add_loop_test(tc, regions_rows, 0, (int)(sizeof(region_cases) / sizeof(region_cases[0])));
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
