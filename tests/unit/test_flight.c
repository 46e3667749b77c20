/* SPDX-License-Identifier: MIT */
/* test_flight: flight-recorder mode in process: the exact content and accounting of a snapshot after
 * 10 M events, several snapshots in a row, snapshots (by call and by signal) while two threads record,
 * the snapshot at stop, and the settings. Snapshots are read back with the reader library. */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ltt/ltt.h>

#include "flighttest.h"
#include "tests/progs/flight_check.h"
#include "test_tmp.h"

static char tmp[PATH_MAX];

static void make_tmp(void)
{
	test_tmp_make(tmp, sizeof(tmp), "flight");
}

static void remove_tmp(void)
{
	test_tmp_remove(tmp);
}

/* Pins the thread to the CPU it runs on (one of those it may use), so that all its events go to one
 * ring. */
static void pin_cpu(void)
{
	cpu_set_t set;
	int cpu = sched_getcpu();

	ck_assert_int_ge(cpu, 0);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	ck_assert_int_eq(sched_setaffinity(0, sizeof(set), &set), 0);
}

static void start_flight(size_t block_size, unsigned blocks)
{
	char path[PATH_MAX + 16];
	struct ltt_options o = { 0 };

	snprintf(path, sizeof(path), "%s/trace", tmp);
	o.path = path;
	o.mode = LTT_MODE_FLIGHT;
	o.block_size = block_size;
	o.blocks = blocks;
	ck_assert_int_eq(ltt_start(&o), 0);
}

static void check_scan(const char *where, struct fc_result *r)
{
	ck_assert_msg(fc_scan(where, r) == 0, "%s: %s", where, r->err);
	ck_assert_msg(r->problems == 0, "%s: %llu problems, first: %s", where,
		      (unsigned long long)r->problems, r->first_problem);
	ck_assert_uint_eq(r->bad_payloads, 0);
	ck_assert_uint_eq(r->gap_blocks, 0);
	ck_assert_str_eq(r->mode, "flight");
}

#define TEN_M 10000000ull

/* One thread pinned to one CPU writes 10 M ticks through a ring of 8 x 4 KiB; the snapshot holds exactly
 * the last K of them, and the events of the blocks before them are all counted as overwritten. */
START_TEST(ten_million_exact)
{
	char where[PATH_MAX];
	struct fc_result r;
	const char *slash;

	make_tmp();
	pin_cpu();
	ltt_snapshot_at_exit(0);
	start_flight(4096, 8);
	trace_flighttest_config(7, "before");	/* persistent: survives the overwriting */
	for (uint64_t i = 0; i < TEN_M; i++) {
		trace_flighttest_tick(0, i);
		if (i == TEN_M / 2)
			trace_flighttest_config(35, "middle");
	}
	ck_assert_int_eq(ltt_snapshot(where, sizeof(where)), 0);
	ck_assert_int_eq(ltt_stop(), 0);
	slash = strrchr(where, '/');
	ck_assert_str_eq(slash, "/snapshot-0001");
	check_scan(where, &r);
	ck_assert_int_eq(r.snapshot, 1);
	ck_assert_uint_gt(r.th[0].count, 0);
	ck_assert(r.th[0].contiguous);
	ck_assert_uint_eq(r.th[0].duplicates, 0);
	ck_assert_uint_eq(r.th[0].last, TEN_M - 1);
	ck_assert_uint_eq(r.th[0].first, TEN_M - r.th[0].count);
	/* every event not in the snapshot was overwritten, and counted so */
	ck_assert_uint_eq(r.blocks_lost_events, TEN_M - r.th[0].count);
	ck_assert_uint_gt(r.blocks_lost, 0);
	ck_assert_uint_eq(r.summary_blocks, 1);
	/* at most the 8 blocks of the ring, 18-byte events after a 26-byte block_start */
	ck_assert_uint_le(r.th[0].count, 8 * ((4096 - 56) / 18));
	ck_assert_uint_ge(r.th[0].count, 7 * ((4096 - 56 - 22) / 18) - 8);
	ck_assert_uint_eq(r.events_lost[LTT_LOST_BUFFER_FULL], 0);
	ck_assert_uint_ge(r.processes, 1);	/* control data survived 10 M overwritten events */
	ck_assert_uint_eq(r.configs, 2);
	ck_assert_uint_eq(r.config_sum, 7 + 35);
	fc_free(&r);
	remove_tmp();
}
END_TEST

/* Three snapshots in a row: numbered 1, 2, 3, each complete and unchanged by the later ones. */
START_TEST(snapshots_in_a_row)
{
	char w[3][PATH_MAX];
	struct fc_result r;

	make_tmp();
	pin_cpu();
	ltt_snapshot_at_exit(0);
	start_flight(4096, 16);
	for (uint64_t i = 0; i < 1000; i++)
		trace_flighttest_tick(1, i);
	ck_assert_int_eq(ltt_snapshot(w[0], sizeof(w[0])), 0);
	for (uint64_t i = 1000; i < 2000; i++)
		trace_flighttest_tick(1, i);
	ck_assert_int_eq(ltt_snapshot(w[1], sizeof(w[1])), 0);
	ck_assert_int_eq(ltt_snapshot(w[2], sizeof(w[2])), 0);
	ck_assert_int_eq(ltt_stop(), 0);
	ck_assert_ptr_nonnull(strstr(w[0], "/snapshot-0001"));
	ck_assert_ptr_nonnull(strstr(w[1], "/snapshot-0002"));
	ck_assert_ptr_nonnull(strstr(w[2], "/snapshot-0003"));
	for (unsigned k = 0; k < 3; k++) {
		uint64_t n = k == 0 ? 1000 : 2000;

		check_scan(w[k], &r);
		ck_assert_int_eq(r.snapshot, (long)k + 1);
		ck_assert_uint_eq(r.th[1].count, n);
		ck_assert_uint_eq(r.th[1].first, 0);
		ck_assert_uint_eq(r.th[1].last, n - 1);
		ck_assert(r.th[1].contiguous);
		ck_assert_uint_eq(r.blocks_lost, 0);
		ck_assert_uint_eq(r.blocks_lost_events, 0);
		fc_free(&r);
	}
	ck_assert_int_eq(ltt_snapshot(w[0], sizeof(w[0])), -ENODEV);	/* not recording any more */
	remove_tmp();
}
END_TEST

/* ---- two threads recording while snapshots are taken ------------------------------------------ */

static int workers_stop;
static uint64_t worker_progress[4];	/* ticks emitted by worker t (indices 2, 3) */

static void *worker(void *arg)
{
	unsigned t = (unsigned)(uintptr_t)arg;
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &set, NULL);	/* the signal snapshot runs on the main thread */
	for (uint64_t i = 0; !__atomic_load_n(&workers_stop, __ATOMIC_RELAXED); i++) {
		trace_flighttest_tick(t, i);
		__atomic_store_n(&worker_progress[t], i + 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static unsigned count_snapshots(const char *trace)
{
	DIR *d = opendir(trace);
	struct dirent *e;
	unsigned n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "snapshot-", 9))
			n++;
	closedir(d);
	return n;
}

START_TEST(snapshot_while_two_threads_record)
{
	char w[6][PATH_MAX + 32], trace[PATH_MAX + 16];
	pthread_t th[2];
	struct fc_result r;

	make_tmp();
	ltt_snapshot_at_exit(0);
	start_flight(4096, 8);
	for (unsigned t = 0; t < 2; t++)
		ck_assert_int_eq(pthread_create(&th[t], NULL, worker, (void *)(uintptr_t)(t + 2)), 0);
	for (unsigned k = 0; k < 6; k++) {
		uint64_t want2 = __atomic_load_n(&worker_progress[2], __ATOMIC_RELAXED) + 1000;
		uint64_t want3 = __atomic_load_n(&worker_progress[3], __ATOMIC_RELAXED) + 1000;

		/* both threads are recording (not a timing assumption: waits for their progress) */
		while (__atomic_load_n(&worker_progress[2], __ATOMIC_RELAXED) < want2 ||
		       __atomic_load_n(&worker_progress[3], __ATOMIC_RELAXED) < want3)
			usleep(100);
		if (k % 2) {
			char done[PATH_MAX + 48];
			struct stat st;

			/* passed on to libltt's flight thread, which takes it: wait for it */
			ck_assert_int_eq(raise(SIGUSR2), 0);
			snprintf(done, sizeof(done), "%s/trace/snapshot-%04u", tmp, k + 1);
			for (int i = 0; i < 20000 && stat(done, &st); i++)
				usleep(1000);
		} else
			ck_assert_int_eq(ltt_snapshot(w[k], sizeof(w[k])), 0);
	}
	__atomic_store_n(&workers_stop, 1, __ATOMIC_RELAXED);
	for (unsigned t = 0; t < 2; t++)
		pthread_join(th[t], NULL);
	snprintf(trace, sizeof(trace), "%s/trace", tmp);
	ck_assert_uint_eq(count_snapshots(trace), 6);
	for (unsigned k = 0; k < 6; k++) {
		snprintf(w[k], sizeof(w[k]), "%s/snapshot-%04u", trace, k + 1);
		check_scan(w[k], &r);
		ck_assert_int_eq(r.snapshot, (long)k + 1);
		ck_assert_uint_gt(r.ticks, 0);
		for (unsigned t = 2; t < 4; t++)
			ck_assert_uint_eq(r.th[t].duplicates, 0);
		ck_assert_uint_eq(r.ticks, r.th[2].count + r.th[3].count);
		ck_assert_uint_ge(r.thread_starts, 2);	/* both threads are named in control data */
		fc_free(&r);
	}
	ck_assert_int_eq(ltt_stop(), 0);
	remove_tmp();
}
END_TEST

/* ltt_stop() takes the snapshot at exit unless told not to. */
START_TEST(snapshot_at_stop)
{
	char p[PATH_MAX + 32];
	struct fc_result r;
	struct stat st;

	make_tmp();
	pin_cpu();
	ltt_snapshot_at_exit(1);
	start_flight(4096, 4);
	for (uint64_t i = 0; i < 300; i++)
		trace_flighttest_tick(5, i);
	ck_assert_int_eq(ltt_stop(), 0);
	snprintf(p, sizeof(p), "%s/trace/snapshot-0001", tmp);
	check_scan(p, &r);
	ck_assert_uint_eq(r.th[5].count, 300);
	ck_assert_uint_eq(r.th[5].last, 299);
	fc_free(&r);
	snprintf(p, sizeof(p), "%s/trace/snapshot-0002", tmp);
	ck_assert_int_ne(stat(p, &st), 0);
	remove_tmp();
}
END_TEST

/* A writer that reserved and has not committed: its block is not copied (never half an event), it is
 * counted in a summary block at the end of cpu/N; once committed, the next snapshot has it all. */
START_TEST(snapshot_with_uncommitted_event)
{
	char w[2][PATH_MAX];
	struct fc_result r;
	struct ltt_slot slot;
	uint32_t thread = 6;
	uint64_t seq = 100;

	make_tmp();
	pin_cpu();
	ltt_snapshot_at_exit(0);
	start_flight(4096, 8);
	for (uint64_t i = 0; i < 100; i++)
		trace_flighttest_tick(6, i);
	ck_assert_int_eq(ltt_event_reserve(&slot, &ltt_facility_flighttest, 0, 12, 0), 1);
	ck_assert_int_eq(ltt_snapshot(w[0], sizeof(w[0])), 0);	/* waits, then gives up on the block */
	memcpy(slot.payload, &thread, 4);
	memcpy(slot.payload + 4, &seq, 8);
	ltt_event_commit(&slot);
	for (uint64_t i = 101; i < 200; i++)
		trace_flighttest_tick(6, i);
	ck_assert_int_eq(ltt_snapshot(w[1], sizeof(w[1])), 0);
	ck_assert_int_eq(ltt_stop(), 0);
	check_scan(w[0], &r);
	ck_assert_uint_eq(r.ticks, 0);
	ck_assert_uint_eq(r.blocks_lost, 1);
	ck_assert_uint_eq(r.blocks_lost_events, 100);	/* the committed ones; the reserved one is not */
	ck_assert_uint_eq(r.summary_blocks, 1);
	fc_free(&r);
	check_scan(w[1], &r);
	ck_assert_uint_eq(r.th[6].count, 200);
	ck_assert_uint_eq(r.th[6].first, 0);
	ck_assert_uint_eq(r.th[6].last, 199);
	ck_assert(r.th[6].contiguous);
	ck_assert_uint_eq(r.blocks_lost, 0);
	fc_free(&r);
	remove_tmp();
}
END_TEST

/* Events dropped because a slot's block was still incomplete (a writer between reserve and commit) are
 * reported by an events_lost record at the start of the next block opened. When that block is
 * overwritten in its turn, the drops must be counted with it (blocks_lost), like its events: ticks +
 * blocks_lost_events + buffer_full == emitted, exactly (the flight shortfall of `make stress`). */
START_TEST(drops_in_an_overwritten_block)
{
	char w[2][PATH_MAX];
	struct fc_result r;
	struct ltt_slot slot;
	uint32_t thread = 6;
	uint64_t seq = 0, dropped;

	make_tmp();
	pin_cpu();
	ltt_snapshot_at_exit(0);
	start_flight(4096, 2);
	ck_assert_int_eq(ltt_event_reserve(&slot, &ltt_facility_flighttest, 0, 12, 0), 1);
	/* blocks 0 and 1 fill; block 2 needs slot 0, whose block 0 is incomplete: the rest drop */
	for (uint64_t i = 1; i <= 1000; i++)
		trace_flighttest_tick(6, i);
	memcpy(slot.payload, &thread, 4);
	memcpy(slot.payload + 4, &seq, 8);
	ltt_event_commit(&slot);
	ck_assert_int_eq(ltt_snapshot(w[0], sizeof(w[0])), 0);
	/* block 2 opens with the events_lost record, then is overwritten by block 4 */
	for (uint64_t i = 1001; i <= 3000; i++)
		trace_flighttest_tick(6, i);
	ck_assert_int_eq(ltt_snapshot(w[1], sizeof(w[1])), 0);
	ck_assert_int_eq(ltt_stop(), 0);
	check_scan(w[0], &r);
	ck_assert_uint_eq(r.th[6].first, 0);
	ck_assert(r.th[6].contiguous);
	dropped = r.events_lost[LTT_LOST_BUFFER_FULL];
	ck_assert_uint_gt(dropped, 0);
	ck_assert_uint_eq(r.th[6].count + dropped, 1001);
	ck_assert_uint_eq(r.blocks_lost, 0);
	fc_free(&r);
	check_scan(w[1], &r);
	ck_assert_uint_eq(r.th[6].last, 3000);
	ck_assert(r.th[6].contiguous);
	ck_assert_uint_gt(r.blocks_lost, 2);	/* block 2, with the drops' record, among them */
	ck_assert_uint_eq(r.events_lost[LTT_LOST_BUFFER_FULL], 0);
	ck_assert_uint_eq(r.th[6].count + r.blocks_lost_events, 3001);
	fc_free(&r);
	remove_tmp();
}
END_TEST

static unsigned count_prefix(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	unsigned n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, prefix, strlen(prefix)))
			n++;
	closedir(d);
	return n;
}

/* The rings in a file under shm_dir while recording (snapshots work the same), removed by ltt_stop(). */
START_TEST(rings_in_a_file)
{
	char path[PATH_MAX + 16], shm[PATH_MAX + 16], where[PATH_MAX];
	struct ltt_options o = { 0 };
	struct fc_result r;

	make_tmp();
	pin_cpu();
	ltt_snapshot_at_exit(0);
	snprintf(path, sizeof(path), "%s/trace", tmp);
	snprintf(shm, sizeof(shm), "%s/shm", tmp);
	ck_assert_int_eq(mkdir(shm, 0700), 0);
	o.path = path;
	o.mode = LTT_MODE_FLIGHT;
	o.block_size = 4096;
	o.blocks = 4;
	o.shm_dir = shm;
	ck_assert_int_eq(ltt_start(&o), 0);
	ck_assert_uint_eq(count_prefix(shm, "ltt-"), 1);
	for (uint64_t i = 0; i < 5000; i++)
		trace_flighttest_tick(4, i);
	ck_assert_int_eq(ltt_snapshot(where, sizeof(where)), 0);
	ck_assert_int_eq(ltt_stop(), 0);
	ck_assert_uint_eq(count_prefix(shm, "ltt-"), 0);
	check_scan(where, &r);
	ck_assert_uint_eq(r.th[4].last, 4999);
	ck_assert_uint_eq(r.th[4].first, 5000 - r.th[4].count);
	ck_assert_uint_eq(r.blocks_lost_events, r.th[4].first);
	fc_free(&r);
	remove_tmp();
}
END_TEST

/* LTT_SNAPSHOT_SIGNAL: a name, a number, none; a bad value keeps the program untraced. */
START_TEST(snapshot_signal_setting)
{
	char p[PATH_MAX + 64];
	struct stat st;
	struct ltt_options o = { 0 };

	make_tmp();
	ltt_snapshot_at_exit(0);
	snprintf(p, sizeof(p), "%s/trace", tmp);
	o.path = p;
	o.mode = LTT_MODE_FLIGHT;
	o.block_size = 4096;
	o.blocks = 4;
	setenv("LTT_SNAPSHOT_SIGNAL", "NOSUCH", 1);
	ck_assert_int_eq(ltt_start(&o), -EINVAL);
	ck_assert(!ltt_recording());
	setenv("LTT_SNAPSHOT_SIGNAL", "SEGV", 1);
	ck_assert_int_eq(ltt_start(&o), -EINVAL);
	setenv("LTT_SNAPSHOT_SIGNAL", "USR1", 1);
	ck_assert_int_eq(ltt_start(&o), 0);
	/* the failed starts made TRACE already: this trace is a directory beneath it */
	snprintf(p, sizeof(p), "%s/snapshot-0001/info/system.xml", ltt_trace_path());
	trace_flighttest_tick(0, 0);
	ck_assert_int_ne(stat(p, &st), 0);
	ck_assert_int_eq(raise(SIGUSR1), 0);
	ck_assert_int_eq(ltt_stop(), 0);
	ck_assert_int_eq(stat(p, &st), 0);
	setenv("LTT_SNAPSHOT_SIGNAL", "none", 1);
	snprintf(p, sizeof(p), "%s/trace2", tmp);
	ck_assert_int_eq(ltt_start(&o), 0);
	ck_assert_int_eq(ltt_stop(), 0);
	unsetenv("LTT_SNAPSHOT_SIGNAL");
	remove_tmp();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("flight");
	TCase *tc = tcase_create("flight");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, ten_million_exact);
	tcase_add_test(tc, snapshots_in_a_row);
	tcase_add_test(tc, snapshot_while_two_threads_record);
	tcase_add_test(tc, snapshot_at_stop);
	tcase_add_test(tc, snapshot_with_uncommitted_event);
	tcase_add_test(tc, drops_in_an_overwritten_block);
	tcase_add_test(tc, rings_in_a_file);
	tcase_add_test(tc, snapshot_signal_setting);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
