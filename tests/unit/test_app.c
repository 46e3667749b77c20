/* SPDX-License-Identifier: MIT */
/* The app API (<ltt/app.h>) round trip: every call recorded, then read back with libltt-reader and
 * compared field by field (thread id, file, line and every value), and region nesting per thread. */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <ltt/app.h>
#include <ltt/reader.h>
#include "test_tmp.h"

#define MAXREC 256

static char recs[MAXREC][512];	/* the app events read back, rendered "name field=value ..." */
static unsigned nrecs;

static void render_value(char *buf, size_t len, const struct ltt_value *v)
{
	struct ltt_value c;
	size_t n;

	switch (v->type->kind) {
	case LTT_TYPE_STRING:
		snprintf(buf, len, "%s", ltt_value_string(v, NULL));
		break;
	case LTT_TYPE_INT:
		snprintf(buf, len, "%lld", (long long)ltt_value_int(v));
		break;
	case LTT_TYPE_UINT:
		snprintf(buf, len, "%llu", (unsigned long long)ltt_value_uint(v));
		break;
	case LTT_TYPE_SEQUENCE:
		n = (size_t)snprintf(buf, len, "[");
		if (ltt_value_first(v, &c) == 0) {
			do {
				n += (size_t)snprintf(buf + n, len - n, "%s%s", c.index ? "," : "",
						      ltt_value_string(&c, NULL));
			} while (n < len && ltt_value_next(v, &c) == 0);
		}
		if (n < len)
			snprintf(buf + n, len - n, "]");
		break;
	default:
		snprintf(buf, len, "?");
	}
}

static void read_back(const char *path)
{
	const char *paths[1] = { path };
	struct ltt_reader *r;
	struct ltt_event ev;
	char err[256];

	nrecs = 0;
	ck_assert_int_eq(ltt_reader_open(&r, paths, 1, NULL, err, sizeof(err)), 0);
	while (ltt_reader_next(r, &ev) == 1) {
		struct ltt_value body, f;
		size_t n;

		if (strcmp(ev.type->facility, "app"))
			continue;
		ck_assert_uint_lt(nrecs, MAXREC);
		n = (size_t)snprintf(recs[nrecs], sizeof(recs[0]), "%s", ev.type->name);
		ck_assert_int_eq(ltt_event_body(&ev, &body), 0);
		if (ltt_value_first(&body, &f) == 0) {
			do {
				char val[256];

				render_value(val, sizeof(val), &f);
				n += (size_t)snprintf(recs[nrecs] + n, sizeof(recs[0]) - n, " %s=%s", f.name, val);
			} while (ltt_value_next(&body, &f) == 0);
		}
		nrecs++;
	}
	ltt_reader_close(r);
}

/* Index of the first record from `from` equal to want; fails the test when there is none. */
static unsigned expect(unsigned from, const char *want)
{
	for (unsigned i = from; i < nrecs; i++)
		if (!strcmp(recs[i], want))
			return i;
	for (unsigned i = 0; i < nrecs; i++)
		fprintf(stderr, "  [%u] %s\n", i, recs[i]);
	ck_abort_msg("not found after record %u: %s", from, want);
	return 0;
}

static char tmpdir[256];

static void start_trace(const char *name)
{
	struct ltt_options opt = { 0 };
	char path[512];

	test_tmp_make(tmpdir, sizeof(tmpdir), "app");
	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	opt.path = path;
	ck_assert_int_eq(ltt_start(&opt), 0);
}

/* Each test runs in its own process (CK_FORK): the trace directory it made, if any, goes with it. */
static void teardown(void)
{
	if (tmpdir[0])
		test_tmp_remove(tmpdir);
}

static void stop_trace(char *path, size_t len)
{
	snprintf(path, len, "%s", ltt_trace_path());
	ck_assert_int_eq(ltt_stop(), 0);
}

static unsigned my_tid(void)
{
	return (unsigned)syscall(SYS_gettid);
}

START_TEST(every_call_round_trips)
{
	static const char *argv[] = { "prog", "--opt", "a b", NULL };
	static const char *alias_argv[] = { "log", "--graph", NULL };
	static const char *child_argv[] = { "git", "gc", "--auto", NULL };
	static const char *exec_argv[] = { "x", "y", NULL };
	struct ltt_stopwatch sw = { 0 };
	struct ltt_child child;
	char path[512], want[512];
	unsigned t = my_tid(), i = 0;
	int l[32], k = 0, exec_id, code;

	start_trace("calls");
	l[k++] = __LINE__ + 1;
	ltt_cmd_start(3, argv);
	l[k++] = __LINE__ + 1;
	ltt_cmd_path("/usr/bin/prog");
	l[k++] = __LINE__ + 1;
	ltt_cmd_name("status");
	l[k++] = __LINE__ + 1;
	ltt_cmd_mode("branch");
	l[k++] = __LINE__ + 1;
	ltt_cmd_alias("l", alias_argv);
	l[k++] = __LINE__ + 1;
	ltt_def_param("core.abbrev", "7");
	l[k++] = __LINE__ + 1;
	ltt_error("bad %s: %d", "thing", 42);
	l[k++] = __LINE__ + 1;
	ltt_child_start(&child, "hook", 1, child_argv);
	l[k++] = __LINE__ + 1;
	ltt_child_exit(&child, 4242, 3);
	l[k++] = __LINE__ + 1;
	exec_id = ltt_exec("git", exec_argv);
	l[k++] = __LINE__ + 1;
	ltt_exec_result(exec_id, 2);
	l[k++] = __LINE__ + 1;
	ltt_region_enter("index", "read");
	l[k++] = __LINE__ + 1;
	ltt_region_enter_printf("dir", "scan", "%s/%d", "sub", 7);
	l[k++] = __LINE__ + 1;
	ltt_data_int("index", "count", -3552);
	l[k++] = __LINE__ + 1;
	ltt_data_string("index", "mode", "fast");
	l[k++] = __LINE__ + 1;
	ltt_data_json("index", "list", "[1,2]");
	l[k++] = __LINE__ + 1;
	ltt_printf("hello %u", 5u);
	l[k++] = __LINE__ + 1;
	ltt_region_leave_printf("dir", "scan", "%s", "done");
	l[k++] = __LINE__ + 1;
	ltt_region_leave("index", "read");
	l[k++] = __LINE__ + 1;
	ltt_signal(13);
	sw.intervals = 3;
	sw.total_ns = 600;
	sw.min_ns = 100;
	sw.max_ns = 300;
	l[k++] = __LINE__ + 1;
	ltt_timer("cat", "tm", &sw);
	l[k++] = __LINE__ + 1;
	ltt_counter("cat", "ctr", -7);
	l[k++] = __LINE__ + 1;
	code = ltt_cmd_exit(9);
	ck_assert_int_eq(code, 9);
	ck_assert_int_eq(exec_id, 0);
	stop_trace(path, sizeof(path));
	read_back(path);

#define F __FILE__
	k = 0;
	snprintf(want, sizeof(want), "version tid=%u file=%s line=%d evt=1 exe=%s", t, F, l[0], LTT_VERSION);
	ck_assert_msg(!strncmp(recs[0], want, strlen(want)), "got %s", recs[0]);
	snprintf(want, sizeof(want), "start tid=%u file=%s line=%d argv=[prog,--opt,a b]", t, F, l[k++]);
	i = expect(i, want);
	snprintf(want, sizeof(want), "cmd_path tid=%u file=%s line=%d path=/usr/bin/prog", t, F, l[k++]);
	i = expect(i, want);
	snprintf(want, sizeof(want), "cmd_name tid=%u file=%s line=%d name=status hierarchy=status", t, F, l[k++]);
	i = expect(i, want);
	snprintf(want, sizeof(want), "cmd_mode tid=%u file=%s line=%d name=branch", t, F, l[k++]);
	i = expect(i, want);
	snprintf(want, sizeof(want), "alias tid=%u file=%s line=%d alias=l argv=[log,--graph]", t, F, l[k++]);
	i = expect(i, want);
	snprintf(want, sizeof(want), "def_param tid=%u file=%s line=%d param=core.abbrev value=7", t, F, l[k++]);
	i = expect(i, want);
	snprintf(want, sizeof(want), "error tid=%u file=%s line=%d msg=bad thing: 42 fmt=bad %%s: %%d", t, F, l[k++]);
	i = expect(i, want);
	snprintf(want, sizeof(want),
		 "child_start tid=%u file=%s line=%d child_id=0 child_class=hook use_shell=1 argv=[git,gc,--auto]",
		 t, F, l[k++]);
	i = expect(i, want);
	snprintf(want, sizeof(want), "child_exit tid=%u file=%s line=%d child_id=0 pid=4242 code=3 elapsed_ns=", t,
		 F, l[k++]);
	ck_assert_msg(!strncmp(recs[i + 1], want, strlen(want)), "got %s", recs[i + 1]);
	i++;
	snprintf(want, sizeof(want), "exec tid=%u file=%s line=%d exec_id=0 exe=git argv=[x,y]", t, F, l[k++]);
	i = expect(i, want);
	snprintf(want, sizeof(want), "exec_result tid=%u file=%s line=%d exec_id=0 code=2", t, F, l[k++]);
	i = expect(i, want);
	snprintf(want, sizeof(want), "region_enter tid=%u file=%s line=%d nesting=0 category=index label=read msg=",
		 t, F, l[k++]);
	i = expect(i, want);
	snprintf(want, sizeof(want), "region_enter tid=%u file=%s line=%d nesting=1 category=dir label=scan msg=sub/7",
		 t, F, l[k++]);
	i = expect(i, want);
	snprintf(want, sizeof(want), "data_int tid=%u file=%s line=%d nesting=2 category=index key=count value=-3552",
		 t, F, l[k++]);
	i = expect(i, want);
	snprintf(want, sizeof(want), "data_string tid=%u file=%s line=%d nesting=2 category=index key=mode value=fast",
		 t, F, l[k++]);
	i = expect(i, want);
	snprintf(want, sizeof(want), "data_json tid=%u file=%s line=%d nesting=2 category=index key=list json=[1,2]",
		 t, F, l[k++]);
	i = expect(i, want);
	snprintf(want, sizeof(want), "printf tid=%u file=%s line=%d nesting=2 msg=hello 5", t, F, l[k++]);
	i = expect(i, want);
	snprintf(want, sizeof(want), "region_leave tid=%u file=%s line=%d nesting=1 category=dir label=scan msg=done",
		 t, F, l[k++]);
	i = expect(i, want);
	snprintf(want, sizeof(want), "region_leave tid=%u file=%s line=%d nesting=0 category=index label=read msg=",
		 t, F, l[k++]);
	i = expect(i, want);
	snprintf(want, sizeof(want), "signal tid=%u file=%s line=%d signo=13", t, F, l[k++]);
	i = expect(i, want);
	snprintf(want, sizeof(want),
		 "timer tid=%u file=%s line=%d category=cat name=tm intervals=3 total_ns=600 min_ns=100 max_ns=300",
		 t, F, l[k++]);
	i = expect(i, want);
	snprintf(want, sizeof(want), "counter tid=%u file=%s line=%d category=cat name=ctr value=-7", t, F, l[k++]);
	i = expect(i, want);
	snprintf(want, sizeof(want), "exit tid=%u file=%s line=%d code=9", t, F, l[k++]);
	i = expect(i, want);
	ck_assert_uint_eq(i, nrecs - 1);	/* exit is the last: atexit comes at process exit */
}
END_TEST

/* ---- threads: nesting is per thread ------------------------------------------------------------- */

enum { WORKER_LINE = __LINE__ + 6 };	/* the line of the first region_enter below */
static void *worker(void *arg)
{
	const char *name = arg;

	ltt_thread_start(name);
	ltt_region_enter("work", "outer");
	ltt_region_enter("work", "inner");
	ltt_data_int("work", "depth", 2);
	ltt_region_leave("work", "inner");
	ltt_region_leave("work", "outer");
	ltt_thread_exit();
	return (void *)(uintptr_t)syscall(SYS_gettid);
}

START_TEST(nesting_is_per_thread)
{
	pthread_t th[2];
	void *tids[2];
	char path[512], want[256];
	unsigned seen[2] = { 0, 0 };

	start_trace("threads");
	ltt_region_enter("main", "wait");	/* main's depth must not leak into the workers */
	pthread_create(&th[0], NULL, worker, "alpha");
	pthread_create(&th[1], NULL, worker, "beta");
	pthread_join(th[0], &tids[0]);
	pthread_join(th[1], &tids[1]);
	ltt_region_leave("main", "wait");
	stop_trace(path, sizeof(path));
	read_back(path);

	for (int w = 0; w < 2; w++) {
		unsigned tid = (unsigned)(uintptr_t)tids[w];
		unsigned i = 0;

		snprintf(want, sizeof(want), "tid=%u ", tid);
		for (unsigned j = 0; j < nrecs; j++)
			if (strstr(recs[j], want) && !strncmp(recs[j], "thread_start", 12))
				seen[w] = j + 1;
		ck_assert_uint_ne(seen[w], 0);
		i = seen[w] - 1;
		ck_assert_msg(strstr(recs[i], w ? "name=beta" : "name=alpha"), "got %s", recs[i]);
		snprintf(want, sizeof(want), "region_enter tid=%u file=%s line=%d nesting=0 category=work label=outer msg=",
			 tid, __FILE__, WORKER_LINE + 0);
		i = expect(i, want);
		snprintf(want, sizeof(want), "region_enter tid=%u file=%s line=%d nesting=1 category=work label=inner msg=",
			 tid, __FILE__, WORKER_LINE + 1);
		i = expect(i, want);
		snprintf(want, sizeof(want), "data_int tid=%u file=%s line=%d nesting=2 category=work key=depth value=2",
			 tid, __FILE__, WORKER_LINE + 2);
		i = expect(i, want);
		snprintf(want, sizeof(want), "region_leave tid=%u file=%s line=%d nesting=1 category=work label=inner msg=",
			 tid, __FILE__, WORKER_LINE + 3);
		i = expect(i, want);
		snprintf(want, sizeof(want), "region_leave tid=%u file=%s line=%d nesting=0 category=work label=outer msg=",
			 tid, __FILE__, WORKER_LINE + 4);
		i = expect(i, want);
	}
	/* th01 and th02, in the order the threads named themselves */
	ck_assert_msg(strstr(recs[seen[0] - 1], "number=1") || strstr(recs[seen[0] - 1], "number=2"), "%s",
		      recs[seen[0] - 1]);
	ck_assert_msg(strstr(recs[seen[1] - 1], "number=1") || strstr(recs[seen[1] - 1], "number=2"), "%s",
		      recs[seen[1] - 1]);
	ck_assert_str_ne(strstr(recs[seen[0] - 1], "number="), strstr(recs[seen[1] - 1], "number="));
}
END_TEST

START_TEST(nothing_recorded_when_not_recording)
{
	struct ltt_child child;

	ck_assert_int_eq(ltt_recording(), 0);
	ltt_region_enter("a", "b");	/* no trace, no crash, no state change */
	ltt_region_leave("a", "b");
	ltt_child_start(&child, NULL, 0, NULL);
	ck_assert_int_eq(child.id, -1);
	ck_assert_int_eq(ltt_exec("x", NULL), -1);
	ck_assert_int_eq(ltt_cmd_exit(5), 5);
}
END_TEST

START_TEST(stopwatch_accumulates)
{
	struct ltt_stopwatch sw = { 0 };

	ltt_stopwatch_stop(&sw);	/* not started: nothing counted */
	ck_assert_uint_eq(sw.intervals, 0);
	for (int i = 0; i < 3; i++) {
		ltt_stopwatch_start(&sw);
		usleep(1000 * (unsigned)(i + 1));
		ltt_stopwatch_stop(&sw);
	}
	ck_assert_uint_eq(sw.intervals, 3);
	ck_assert_uint_eq(sw.started_ns, 0);
	ck_assert_uint_ge(sw.min_ns, 1000000);	/* usleep sleeps at least that long */
	ck_assert_uint_ge(sw.max_ns, 3000000);
	ck_assert_uint_le(sw.min_ns, sw.max_ns);
	ck_assert_uint_ge(sw.total_ns, sw.min_ns + sw.max_ns + 2000000);
	ck_assert_uint_le(sw.total_ns, 3 * sw.max_ns);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("app");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, every_call_round_trips);
	tcase_add_test(tc, nesting_is_per_thread);
	tcase_add_test(tc, nothing_recorded_when_not_recording);
	tcase_add_test(tc, stopwatch_accumulates);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
