/* SPDX-License-Identifier: MIT */
/* The recorder (libltt, discard mode): block structure, exact event accounting under threads,
 * migrations and signal handlers, heartbeats over long gaps and 32-bit wraps (test clock), too-big
 * events, stop while threads record, restart, write failures, fork, control tracefiles. */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/progs/rec_rtest.h"
#include "recorder/clock.h"
#include "recorder/recorder.h"
#include "recorder_decode.h"

#include "core.h"	/* generated: LTT_FACILITY_CORE_CHECKSUM */
#include "test_tmp.h"

extern struct ltt_facility ltt_core_facility;

static char tmpdir[256];

static void setup(void)
{
	test_tmp_make(tmpdir, sizeof(tmpdir), "recorder");
}

/* A leftover temporary directory fails the test (tests/run.sh would too). */
static void teardown(void)
{
	test_tmp_remove(tmpdir);
}

static void start(const char *name, size_t bs, unsigned blocks)
{
	char path[512];
	struct ltt_options o = { .path = path, .mode = LTT_MODE_DISCARD, .block_size = bs, .blocks = blocks };

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	ck_assert_int_eq(ltt_start(&o), 0);
	ck_assert_int_eq(ltt_recording(), 1);
	ck_assert_str_eq(ltt_trace_path(), path);
}

/* The ltt_block_size attribute of the trace's system.xml. */
static uint32_t ltt_cur_block_size(const char *path)
{
	char p[1024], buf[4096];
	size_t n;
	const char *a;
	FILE *f;

	snprintf(p, sizeof(p), "%s/info/system.xml", path);
	f = fopen(p, "r");
	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	a = strstr(buf, "ltt_block_size=\"");
	ck_assert_ptr_nonnull(a);
	return (uint32_t)strtoul(a + 16, NULL, 10);
}

static int file_has(const char *path, const char *rel, const char *text)
{
	char p[1024], buf[8192];
	size_t n;
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", path, rel);
	f = fopen(p, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	return strstr(buf, text) != NULL;
}

/* ---- collecting rtest events ------------------------------------------------------------------ */

#define MAXT 8
struct seen {
	uint64_t n[MAXT];		/* ev events seen per thread */
	uint8_t *got[MAXT];		/* per seq: seen count */
	uint64_t *cyc[MAXT];		/* per seq: cycles */
	uint64_t max;
	uint64_t sig, bad, dup, other_ids;
};

static void seen_init(struct seen *s, uint64_t max)
{
	memset(s, 0, sizeof(*s));
	s->max = max;
	for (int i = 0; i < MAXT; i++) {
		s->got[i] = calloc(max, 1);
		s->cyc[i] = calloc(max, 8);
	}
}

static void seen_free(struct seen *s)
{
	for (int i = 0; i < MAXT; i++) {
		free(s->got[i]);
		free(s->cyc[i]);
	}
}

static void on_event(void *arg, const struct dec_event *e)
{
	struct seen *s = arg;
	uint16_t base = rtest_facility.base_code;

	if (e->id == base) {
		uint32_t th = dec_u32(e->payload);
		uint64_t seq = dec_u64(e->payload + 4), chk = dec_u64(e->payload + 12);

		if (th >= MAXT || seq >= s->max || chk != rtest_check(th, seq)) {
			s->bad++;
			return;
		}
		if (s->got[th][seq]++)
			s->dup++;
		s->cyc[th][seq] = e->cycles;
		s->n[th]++;
	} else if (e->id == base + 1) {
		s->sig++;
	} else if (e->id > 19) {
		s->other_ids++;
	}
}

/* Decodes every cpu/N of the trace at path into s and st. */
static void decode_cpus(const char *path, struct seen *s, struct dec_stats *st)
{
	char p[1024];
	DIR *d;
	struct dirent *de;

	memset(st, 0, sizeof(*st));
	snprintf(p, sizeof(p), "%s/cpu", path);
	d = opendir(p);
	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/cpu/%s", path, de->d_name);
		ck_assert_int_eq(dec_file(p, ltt_cur_block_size(path), ltt_core_facility.base_code,
					  rtest_facility.base_code, on_event, s, st), 0);
		ck_assert_msg(!st->error[0], "%s", st->error);
	}
	closedir(d);
}

static uint64_t total_lost(const struct dec_stats *st)
{
	return st->lost[0] + st->lost[1] + st->lost[2] + st->lost[3] + st->lost[4] + st->blocks_lost_events;
}

/* ---- threads that record --------------------------------------------------------------------- */

struct wargs {
	unsigned idx;
	uint64_t n;
	int migrate;
	uint64_t sig_attempts;
};

static __thread unsigned t_idx;
static __thread uint64_t t_sig;
static uint64_t sig_attempts[MAXT];

static void on_usr1(int sig)
{
	int e = errno;

	(void)sig;
	rtest_sig(t_idx, t_sig++);
	__atomic_store_n(&sig_attempts[t_idx], t_sig, __ATOMIC_RELAXED);
	errno = e;
}

static void *worker(void *p)
{
	struct wargs *a = p;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	sigset_t usr1;

	/* Created with SIGUSR1 blocked (run_stress): a handler run before t_idx is set would trace
	 * and count as thread 0, overwriting sig_attempts[0] with this thread's count (found + lost
	 * then off by a few from emitted, either way). */
	t_idx = a->idx;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	pthread_sigmask(SIG_UNBLOCK, &usr1, NULL);
	for (uint64_t i = 0; i < a->n; i++) {
		rtest_ev(a->idx, i, rtest_check(a->idx, i));
		if (a->migrate && ncpu > 1 && i % 500 == 499) {
			cpu_set_t set;

			CPU_ZERO(&set);
			CPU_SET((int)((i / 500 + a->idx) % (uint64_t)ncpu), &set);
			sched_setaffinity(0, sizeof(set), &set);
		}
	}
	return NULL;
}

/* Records nthreads x n events (migrating, with SIGUSR1 handlers tracing too) and checks the trace:
 * every event intact and at most once, per-thread order kept, found + lost == emitted exactly. */
static void run_stress(const char *name, size_t bs, unsigned blocks, unsigned nthreads, uint64_t n,
		       int expect_loss)
{
	pthread_t t[MAXT];
	struct wargs a[MAXT];
	struct seen s;
	struct dec_stats st;
	char path[1024];
	uint64_t found = 0, sigs = 0;
	sigset_t usr1, old;

	signal(SIGUSR1, on_usr1);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &usr1, &old);	/* inherited by the workers (see worker()) */
	memset(sig_attempts, 0, sizeof(sig_attempts));
	start(name, bs, blocks);
	snprintf(path, sizeof(path), "%s", ltt_trace_path());
	for (unsigned i = 0; i < nthreads; i++) {
		a[i] = (struct wargs){ .idx = i, .n = n, .migrate = 1 };
		ck_assert_int_eq(pthread_create(&t[i], NULL, worker, &a[i]), 0);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	for (int k = 0; k < 50; k++) {
		for (unsigned i = 0; i < nthreads; i++)
			pthread_kill(t[i], SIGUSR1);
		usleep(100);
	}
	for (unsigned i = 0; i < nthreads; i++)
		pthread_join(t[i], NULL);
	ck_assert_int_eq(ltt_stop(), 0);
	ck_assert_int_eq(ltt_recording(), 0);

	seen_init(&s, n);
	decode_cpus(path, &s, &st);
	ck_assert_uint_eq(s.bad, 0);
	ck_assert_uint_eq(s.dup, 0);
	ck_assert_uint_eq(s.other_ids, 0);
	ck_assert_uint_eq(st.id_gaps, 0);
	for (unsigned i = 0; i < nthreads; i++) {
		uint64_t last = 0;

		found += s.n[i];
		sigs += __atomic_load_n(&sig_attempts[i], __ATOMIC_RELAXED);
		for (uint64_t q = 0; q < n; q++) {
			if (!s.got[i][q])
				continue;
			ck_assert_msg(s.cyc[i][q] > last || q == 0, "thread %u seq %llu out of order", i,
				      (unsigned long long)q);
			last = s.cyc[i][q];
		}
	}
	ck_assert_uint_eq(found + s.sig + total_lost(&st), (uint64_t)nthreads * n + sigs);
	if (expect_loss)
		ck_assert_uint_gt(st.lost[0], 0);
	if (!total_lost(&st))
		ck_assert_uint_eq(found, (uint64_t)nthreads * n);
	seen_free(&s);
}

START_TEST(stress_exact)
{
	run_stress("stress", 65536, 64, 4, 100000, 0);
}
END_TEST

START_TEST(small_ring_counts_losses)
{
	run_stress("small", 4096, 2, 4, 100000, 1);
}
END_TEST

/* A block sealed partly filled in a slot that holds an earlier lap's bytes gets its whole zero fill in
 * memory (a recovered ring file or a block written whole copies it), though recorder/ring.c's
 * zero_fill leaves alone the pages that already read as zeros. 64 KiB blocks: 16 pages. */
START_TEST(zero_fill_over_an_earlier_lap)
{
	const struct ltt_region_geom g = { 1, 65536, 2, 0 };
	struct ltt_region *rg;
	struct ltt_ring *r;
	struct ltt_slot sl;
	const char *blk;
	uint32_t end;
	size_t nonzero = 0;

	ck_assert_int_eq(ltt_region_create(&rg, &g, -1), 0);
	r = &rg->rings[1];	/* control/facilities: the locked path, any CPU */
	memset(ltt_ring_block(r, 0), 0xab, 65536);	/* what a full block of the last lap left */
	memset(ltt_ring_block(r, 1) + 8192, 0xcd, 4096);	/* one page of another, the rest zeros */
	for (uint64_t seq = 0; seq < 2; seq++) {
		for (int i = 0; i < 10; i++) {
			ck_assert_int_eq(ltt_ring_reserve(&sl, r, 300, 100, 1), 1);
			memset(sl.payload, 0x11, 100);
			ltt_event_commit(&sl);
		}
		ck_assert_int_eq(ltt_ring_flush(r, 0), 1);
		blk = ltt_ring_block(r, seq);
		memcpy(&end, blk + 65536 - 4, 4);
		ck_assert_uint_eq(end, LTT_BLOCK_MARK_SIZE + 10 * 106);
		for (size_t i = end + LTT_BLOCK_MARK_SIZE; i < 65536 - 4; i++)
			nonzero += blk[i] != 0;
		ck_assert_uint_eq(nonzero, 0);
	}
	ck_assert_int_eq(munmap(rg, rg->size), 0);
}
END_TEST

/* ---- heartbeats with a test clock -------------------------------------------------------------- */

static uint64_t fake_now;

static uint64_t fake_clock(void)
{
	return __atomic_load_n(&fake_now, __ATOMIC_RELAXED);
}

struct hb {
	uint64_t expect[16];
	uint64_t got[16];
	unsigned n;
};

static void on_hb_event(void *arg, const struct dec_event *e)
{
	struct hb *h = arg;

	if (e->id == rtest_facility.base_code) {
		uint64_t seq = dec_u64(e->payload + 4);

		if (seq < 16)
			h->got[seq] = e->cycles;
		h->n++;
	}
}

START_TEST(heartbeats_across_gaps_and_wraps)
{
	static const uint64_t steps[] = {
		1, 1000, (1ull << 31) + 7, 3, 1ull << 32, 1ull << 30, (1ull << 30) - 1, (5ull << 32) + 123,
		(1ull << 31) - 1, 17, 1ull << 33,
	};
	const unsigned nsteps = sizeof(steps) / sizeof(steps[0]);
	struct hb h = { .n = 0 };
	struct dec_stats st;
	char path[1024], p[1100];
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);	/* one tracefile: heartbeats are per tracefile */
	fake_now = (1ull << 32) - 5000;
	ltt_clock_set_test(fake_clock, 1000000000u);
	start("hb", 4096, 4);
	snprintf(path, sizeof(path), "%s", ltt_trace_path());
	for (unsigned i = 0; i < nsteps; i++) {
		__atomic_add_fetch(&fake_now, steps[i], __ATOMIC_RELAXED);
		h.expect[i] = fake_now;
		ck_assert_int_eq(rtest_ev(0, i, rtest_check(0, i)), 1);
	}
	ck_assert_int_eq(ltt_stop(), 0);
	memset(&st, 0, sizeof(st));
	snprintf(p, sizeof(p), "%s/cpu/0", path);
	ck_assert_int_eq(dec_file(p, 4096, ltt_core_facility.base_code, rtest_facility.base_code,
				  on_hb_event, &h, &st), 0);
	ck_assert_msg(!st.error[0], "%s", st.error);
	ck_assert_uint_eq(h.n, nsteps);
	for (unsigned i = 0; i < nsteps; i++)
		ck_assert_uint_eq(h.got[i], h.expect[i]);
	/* gaps of 2^30 cycles or more: steps 2, 4, 5, 7, 8 (2^31 - 1 >= 2^30) and 10 */
	ck_assert_uint_eq(st.heartbeats, 6);
	ltt_clock_set_test(NULL, 0);
}
END_TEST

/* ---- too big ------------------------------------------------------------------------------------ */

struct blobs {
	unsigned n, good;
};

static void on_blob(void *arg, const struct dec_event *e)
{
	struct blobs *b = arg;
	uint32_t len;

	if (e->id != rtest_facility.base_code + 2)
		return;
	b->n++;
	len = dec_u32(e->payload + 4);
	for (uint32_t i = 0; i < len; i++)
		if (e->payload[8 + i] != (unsigned char)((i + dec_u32(e->payload)) & 0xff))
			return;
	b->good++;
}

START_TEST(too_big_counted)
{
	const uint32_t max = 4096 - 128 - 6 - 8;	/* payload: n, length, bytes */
	struct blobs b = { 0, 0 };
	struct dec_stats st;
	char path[1024], p[1100];
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
	start("big", 4096, 4);
	snprintf(path, sizeof(path), "%s", ltt_trace_path());
	ck_assert_int_eq(rtest_blob(1, max), 1);
	ck_assert_int_eq(rtest_blob(2, max + 1), 0);
	ck_assert_int_eq(rtest_blob(3, 100000), 0);
	ck_assert_int_eq(rtest_blob(4, max), 1);
	ck_assert_int_eq(rtest_blob(5, 0), 1);
	ck_assert_int_eq(ltt_stop(), 0);
	memset(&st, 0, sizeof(st));
	snprintf(p, sizeof(p), "%s/cpu/0", path);
	ck_assert_int_eq(dec_file(p, 4096, ltt_core_facility.base_code, rtest_facility.base_code, on_blob,
				  &b, &st), 0);
	ck_assert_msg(!st.error[0], "%s", st.error);
	ck_assert_uint_eq(b.n, 3);
	ck_assert_uint_eq(b.good, 3);
	ck_assert_uint_eq(st.lost[1], 2);
	ck_assert_uint_eq(total_lost(&st), 2);
}
END_TEST

/* ---- stop while threads record, then record again ------------------------------------------------ */

struct busy {
	unsigned idx;
	int *stop;
	uint64_t ok;
};

static void *busy_worker(void *p)
{
	struct busy *b = p;
	uint64_t i = 0;

	while (!__atomic_load_n(b->stop, __ATOMIC_ACQUIRE)) {
		b->ok += (uint64_t)rtest_ev(b->idx, i, rtest_check(b->idx, i));
		i++;
		if (i >= 4000000)
			i = 0, usleep(10);	/* keep seq below the checker's bound */
	}
	return NULL;
}

START_TEST(stop_while_recording_then_restart)
{
	pthread_t t[2];
	struct busy b[2];
	int stop = 0;
	struct seen s;
	struct dec_stats st;
	char path[1024];

	start("busy", 65536, 16);
	snprintf(path, sizeof(path), "%s", ltt_trace_path());
	for (unsigned i = 0; i < 2; i++) {
		b[i] = (struct busy){ .idx = i, .stop = &stop };
		ck_assert_int_eq(pthread_create(&t[i], NULL, busy_worker, &b[i]), 0);
	}
	usleep(30000);
	ck_assert_int_eq(ltt_stop(), 0);
	usleep(5000);
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	for (unsigned i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	seen_init(&s, 4000000);
	decode_cpus(path, &s, &st);
	ck_assert_uint_eq(s.bad, 0);
	/* every event whose reserve succeeded is in the trace (seq numbers restart: count, not set) */
	ck_assert_uint_eq(s.n[0] + s.n[1], b[0].ok + b[1].ok);
	seen_free(&s);

	start("again", 4096, 8);
	snprintf(path, sizeof(path), "%s", ltt_trace_path());
	for (uint64_t i = 0; i < 1000; i++)
		rtest_ev(7, i, rtest_check(7, i));
	ck_assert_int_eq(ltt_stop(), 0);
	seen_init(&s, 1000);
	decode_cpus(path, &s, &st);
	ck_assert_uint_eq(s.n[7] + total_lost(&st), 1000);
	seen_free(&s);
}
END_TEST

/* ---- write failures -------------------------------------------------------------------------------- */

START_TEST(write_failure_program_finishes)
{
	struct rlimit rl = { 3 * 4096, 3 * 4096 };
	struct seen s;
	struct dec_stats st;
	char path[1024], p[1100];
	struct stat sb;

	signal(SIGXFSZ, SIG_IGN);
	start("full", 4096, 4);
	snprintf(path, sizeof(path), "%s", ltt_trace_path());
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &rl), 0);	/* every file stops at 3 blocks: EFBIG */
	for (uint64_t i = 0; i < 50000; i++) {
		rtest_ev(0, i, rtest_check(0, i));
		if (i % 1000 == 0)
			usleep(200);
	}
	ck_assert_int_eq(ltt_stop(), 0);
	seen_init(&s, 50000);
	decode_cpus(path, &s, &st);	/* what reached the files is intact */
	ck_assert_uint_eq(s.bad, 0);
	ck_assert_uint_lt(s.n[0], 50000);
	for (unsigned c = 0; c < 64; c++) {
		snprintf(p, sizeof(p), "%s/cpu/%u", path, c);
		if (!stat(p, &sb))
			ck_assert_int_le(sb.st_size, 3 * 4096);
	}
	seen_free(&s);
}
END_TEST

/* ---- control tracefiles, threads, fork --------------------------------------------------------------- */

struct ctl {
	int core_load, rtest_load, main_process, thread_start, thread_name, thread_exit, fork;
	uint32_t tid, child;
	unsigned interrupts;
};

static struct ctl ctl;

static void on_control(void *arg, const struct dec_event *e)
{
	uint16_t core = ltt_core_facility.base_code;

	(void)arg;
	if (e->id == 0) {
		const char *name = (const char *)e->payload;
		size_t n = strlen(name);

		if (!strcmp(name, "core") && dec_u32(e->payload + n + 1) == LTT_FACILITY_CORE_CHECKSUM &&
		    dec_u32(e->payload + n + 5) == 20)
			ctl.core_load++;
		if (!strcmp(name, "rtest") && dec_u32(e->payload + n + 1) == rtest_facility.checksum &&
		    dec_u32(e->payload + n + 5) == rtest_facility.base_code)
			ctl.rtest_load++;
	} else if (e->id == core) {
		size_t n = strlen((const char *)e->payload);

		if (dec_u32(e->payload + n + 1) == (uint32_t)getpid())
			ctl.main_process++;
	} else if (e->id == core + 1) {
		ctl.interrupts++;
	} else if (e->id == core + 2 && dec_u32(e->payload) == ctl.tid && dec_u32(e->payload + 4) == (uint32_t)getpid()) {
		ctl.thread_start++;
	} else if (e->id == core + 3 && dec_u32(e->payload) == ctl.tid) {
		ctl.thread_exit++;
	} else if (e->id == core + 4 && dec_u32(e->payload) == ctl.tid &&
		   !strcmp((const char *)e->payload + 4, "rec-worker")) {
		ctl.thread_name++;
	} else if (e->id == core + 5 && dec_u32(e->payload) == (uint32_t)getpid() &&
		   dec_u32(e->payload + 4) == ctl.child) {
		ctl.fork++;
	}
}

static void *named_thread(void *p)
{
	(void)p;
	__atomic_store_n(&ctl.tid, (uint32_t)gettid(), __ATOMIC_RELEASE);
	pthread_setname_np(pthread_self(), "rec-worker");
	return NULL;
}

START_TEST(control_tracefiles)
{
	char path[1024], p[1100];
	struct dec_stats st;
	pthread_t t;
	pid_t child;
	int status;

	start("ctl", 4096, 4);
	snprintf(path, sizeof(path), "%s", ltt_trace_path());
	ck_assert_int_eq(ltt_core_facility.base_code, 20);
	ck_assert_int_eq(pthread_create(&t, NULL, named_thread, NULL), 0);
	pthread_join(t, NULL);
	child = fork();
	if (child == 0) {
		/* the child records nothing and may not touch the parent's trace */
		rtest_ev(0, 0, 0);
		_exit(ltt_recording() || ltt_trace_path() ? 1 : 0);
	}
	ck_assert_int_gt(child, 0);
	ck_assert_int_eq(waitpid(child, &status, 0), child);
	ck_assert_int_eq(status, 0);
	ctl.child = (uint32_t)child;
	ck_assert_int_eq(ltt_stop(), 0);

	static const char *const files[] = { "control/facilities", "control/processes", "control/interrupts" };
	for (unsigned i = 0; i < 3; i++) {
		memset(&st, 0, sizeof(st));
		snprintf(p, sizeof(p), "%s/%s", path, files[i]);
		ck_assert_int_eq(dec_file(p, 4096, ltt_core_facility.base_code, rtest_facility.base_code,
					  on_control, NULL, &st), 0);
		ck_assert_msg(!st.error[0], "%s", st.error);
	}
	ck_assert_int_eq(ctl.core_load, 1);
	ck_assert_int_eq(ctl.rtest_load, 1);
	ck_assert_int_eq(ctl.main_process, 1);
	ck_assert_int_eq(ctl.thread_start, 1);
	ck_assert_int_eq(ctl.thread_name, 1);
	ck_assert_int_eq(ctl.thread_exit, 1);
	ck_assert_int_eq(ctl.fork, 1);
	ck_assert(file_has(path, "info/system.xml", "ltt_block_size=\"4096\""));
	ck_assert(file_has(path, "info/system.xml", "ltt_mode=\"discard\""));
	ck_assert(file_has(path, "info/system.xml", "ltt_major_version=\"2\""));
	ck_assert(file_has(path, "eventdefs/core.xml", "<facility name=\"core\">"));
	ck_assert(file_has(path, "eventdefs/rtest.xml", "<facility name=\"rtest\">"));
	snprintf(p, sizeof(p), "%s/control/persistent", path);
	ck_assert_int_ne(access(p, F_OK), 0);	/* no persistent events of other facilities */
}
END_TEST

/* Writes fail for a while (RLIMIT_FSIZE), then succeed again: the blocks that did not reach the
 * file are announced by a summary block, and every event is accounted for exactly. */
START_TEST(write_failure_then_recovery_summary)
{
	struct rlimit low = { 2 * 4096, RLIM_INFINITY }, high = { RLIM_INFINITY, RLIM_INFINITY };
	struct seen s;
	struct dec_stats st;
	char path[1024];
	cpu_set_t set;
	const uint64_t n = 60000;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
	signal(SIGXFSZ, SIG_IGN);
	start("flaky", 4096, 64);
	snprintf(path, sizeof(path), "%s", ltt_trace_path());
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &low), 0);
	for (uint64_t i = 0; i < n / 2; i++) {
		rtest_ev(0, i, rtest_check(0, i));
		if (i % 500 == 0)
			usleep(500);	/* let the consumer meet the limit while the ring has room */
	}
	/* wait (2 s at most) until the consumer has tried every sealed block, under the limit */
	for (int k = 0; k < 2000; k++) {
		struct ltt_ring *r = &ltt_cur.rg->rings[0];

		if (ltt_read(&r->consumed) >= ltt_ring_head_seq(r))
			break;
		usleep(1000);
	}
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &high), 0);
	for (uint64_t i = n / 2; i < n; i++) {
		rtest_ev(0, i, rtest_check(0, i));
		if (i % 500 == 0)
			usleep(500);
	}
	ck_assert_int_eq(ltt_stop(), 0);
	seen_init(&s, n);
	decode_cpus(path, &s, &st);
	ck_assert_uint_eq(s.bad, 0);
	ck_assert_uint_eq(s.dup, 0);
	ck_assert_uint_ge(st.summary_blocks, 1);
	ck_assert_uint_gt(st.blocks_lost, 0);
	ck_assert_uint_eq(st.id_gaps, 0);	/* every block_id jump is explained */
	ck_assert_uint_eq(s.n[0] + total_lost(&st), n);
	seen_free(&s);
}
END_TEST

/* A facility registered while recording (a library loaded with dlopen) gets its facility_load and
 * eventdefs file then, and the next base code. */
static struct ltt_facility late = { .name = "late", .xml = "<facility name=\"late\"><event name=\"x\"/></facility>\n",
				    .checksum = 0x1234, .n_events = 1 };
static int late_loads;

static void on_late(void *arg, const struct dec_event *e)
{
	(void)arg;
	if (e->id == 0 && !strcmp((const char *)e->payload, "late") &&
	    dec_u32(e->payload + 5) == 0x1234 && dec_u32(e->payload + 9) == late.base_code)
		late_loads++;
}

START_TEST(facility_registered_while_recording)
{
	char path[1024], p[1100];
	struct dec_stats st;
	unsigned expect = rtest_facility.base_code + rtest_facility.n_events;

	start("late", 4096, 4);
	snprintf(path, sizeof(path), "%s", ltt_trace_path());
	ck_assert_int_eq(ltt_facility_register(&late), 0);
	ck_assert_int_eq(late.base_code, expect);
	ck_assert_int_eq(ltt_facility_register(&late), 0);	/* idempotent */
	ck_assert_int_eq(ltt_stop(), 0);
	memset(&st, 0, sizeof(st));
	snprintf(p, sizeof(p), "%s/control/facilities", path);
	ck_assert_int_eq(dec_file(p, 4096, 0, 0, on_late, NULL, &st), 0);
	ck_assert_msg(!st.error[0], "%s", st.error);
	ck_assert_int_eq(late_loads, 1);
	ck_assert(file_has(path, "eventdefs/late.xml", "<facility name=\"late\">"));
}
END_TEST

/* Without a usable TSC the cycle counter is CLOCK_MONOTONIC in ns, said so in system.xml. */
struct mono {
	uint64_t n, lo, hi, bad;
};

static void on_mono(void *arg, const struct dec_event *e)
{
	struct mono *m = arg;

	if (e->id != rtest_facility.base_code)
		return;
	m->n++;
	if (e->cycles < m->lo || e->cycles > m->hi)
		m->bad++;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

START_TEST(monotonic_clock_fallback)
{
	char path[1024], p[1100];
	struct dec_stats st;
	struct mono m = { 0, 0, 0, 0 };
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
	ltt_clock_force_monotonic(1);
	start("mono", 65536, 4);
	snprintf(path, sizeof(path), "%s", ltt_trace_path());
	m.lo = mono_ns();
	for (uint64_t i = 0; i < 1000; i++)
		ck_assert_int_eq(rtest_ev(0, i, rtest_check(0, i)), 1);
	m.hi = mono_ns();
	ck_assert_int_eq(ltt_stop(), 0);
	ltt_clock_force_monotonic(0);
	ck_assert(file_has(path, "info/system.xml", "ltt_clock=\"monotonic\""));
	ck_assert(file_has(path, "info/system.xml", "ltt_cycles_per_second=\"1000000000\""));
	memset(&st, 0, sizeof(st));
	snprintf(p, sizeof(p), "%s/cpu/0", path);
	ck_assert_int_eq(dec_file(p, 65536, ltt_core_facility.base_code, rtest_facility.base_code, on_mono,
				  &m, &st), 0);
	ck_assert_msg(!st.error[0], "%s", st.error);
	ck_assert_uint_eq(m.n, 1000);
	ck_assert_uint_eq(m.bad, 0);	/* every event's time is between the two clock reads */
}
END_TEST

START_TEST(start_errors)
{
	struct ltt_options o = { .path = "/proc/ltt-cannot-be-here/x", .block_size = 4096 };

	ck_assert_int_lt(ltt_start(&o), 0);
	ck_assert_int_eq(ltt_recording(), 0);
	o.path = tmpdir;
	o.block_size = 3000;
	ck_assert_int_eq(ltt_start(&o), -EINVAL);
	o.block_size = 4096;
	o.blocks = 3;
	ck_assert_int_eq(ltt_start(&o), -EINVAL);
	o.blocks = 2;
	ck_assert_int_eq(ltt_start(&o), 0);	/* an existing directory: a trace beneath it */
	ck_assert_int_eq(ltt_start(&o), -EBUSY);
	ck_assert_int_eq(strncmp(ltt_trace_path(), tmpdir, strlen(tmpdir)), 0);
	ck_assert_int_eq(ltt_trace_path()[strlen(tmpdir)], '/');
	ck_assert_int_eq(ltt_stop(), 0);
	ck_assert_int_eq(ltt_stop(), 0);
	ck_assert_ptr_null(ltt_trace_path());
}
END_TEST

int main(void)
{
	Suite *s = suite_create("recorder");
	TCase *tc = tcase_create("recorder");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, stress_exact);
	tcase_add_test(tc, small_ring_counts_losses);
	tcase_add_test(tc, zero_fill_over_an_earlier_lap);
	tcase_add_test(tc, heartbeats_across_gaps_and_wraps);
	tcase_add_test(tc, too_big_counted);
	tcase_add_test(tc, stop_while_recording_then_restart);
	tcase_add_test(tc, write_failure_program_finishes);
	tcase_add_test(tc, control_tracefiles);
	tcase_add_test(tc, write_failure_then_recovery_summary);
	tcase_add_test(tc, facility_registered_while_recording);
	tcase_add_test(tc, monotonic_clock_fallback);
	tcase_add_test(tc, start_errors);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
