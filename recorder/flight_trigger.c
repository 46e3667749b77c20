/* SPDX-License-Identifier: MIT */
/* recorder/flight_trigger.c: libltt's flight thread, `ltt-flight` (doc/flight-recorder.md "Where a
 * snapshot runs"): the snapshots asked for by the snapshot signal sent to it alone, and the snapshot
 * triggers (LTT_SNAPSHOT_ON, doc/flight-recorder.md "Triggers").
 *
 * The event path only raises a flag: ltt_snapshot_trigger(), called by generated code after it
 * committed an event whose enabled flag has LTT_EVENT_TRIGGER (recorder/rules.c), stores the event id
 * and cycle count in ltt_trigger_pending with one compare-and-swap (one load when a request is already
 * raised: a storm of triggers costs that), and the raiser that set it holds every CPU ring from the
 * block before its open one on (ring trig_hold: one store per CPU ring), so that the trigger event is
 * not overwritten before its snapshot is taken (writers drop instead, counted buffer_full). The
 * recorder's own thread polls the flag every POLL_NS, takes the snapshot (at most one per
 * LTT_SNAPSHOT_MIN_INTERVAL_MS; triggers inside the interval are ignored) with the trigger named in
 * its info/system.xml, then ends the request (the holds apply only while it is raised) and removes
 * the oldest snapshots beyond LTT_SNAPSHOT_KEEP.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/grow.h"
#include "clock.h"
#include "env_parse.h"
#include "flight.h"
#include "kernel_int.h"
#include "ring.h"
#include "rules.h"
#include "threads.h"

#define POLL_NS		5000000u	/* the thread looks at the flag this often (triggers armed) */
#define IDLE_NS		1000000000u	/* ... and this often otherwise (a signal wakes it) */
#define LOCK_WAIT_NS	5000000000ull	/* ... and waits this long for another snapshot to end */
#define SNAP_WAIT_NS	200000000ull	/* the snapshot waits this long for writers still committing */
#define LOW48		((1ull << 48) - 1)

/* 0, or event id << 48 | low 48 bits of the trigger's cycle count (ids >= 20: never 0). Raised by
 * ltt_snapshot_trigger(), ended by the thread once the request's snapshot is written (or dropped):
 * triggers meanwhile are part of that request. The CPU rings' trig_hold apply while it is nonzero. */
uint64_t ltt_trigger_pending;
static pthread_t thread;
static int running, stopping, thread_pid, poll_triggers;
static int counted;	/* the thread is counted among the ring file's writers (its first snapshot) */
static int woken;
static void count_writer(void);	/* the next snapshot signal the thread takes is a wake-up from ltt_flight_trigger_start() */
static int refused;	/* the thread could not start: no request may be raised (none would end) */
static unsigned pruned_at;	/* snap_no when the thread last pruned */

int ltt_trigger_raise(uint16_t id)
{
	struct ltt_region *rg;
	uint64_t v;

	if (ltt_read(&ltt_trigger_pending))
		return 0;	/* already raised: the storm costs one load */
	v = (uint64_t)id << 48 | (ltt_clock_now() & LOW48);
	/* Full barrier: pairs with the thread's exchange that ends the request, and with the store
	 * of `refused` before the exchange of a start that failed (either that exchange comes after
	 * this CAS and ends the request, or the load below sees `refused`). */
	if (ltt_cmpxchg(&ltt_trigger_pending, 0, v) != 0)
		return 0;	/* another trigger raised it: its holds are in place or on their way */
	if (ltt_unlikely(ltt_read(&refused))) {
		(void)ltt_cmpxchg(&ltt_trigger_pending, v, 0);	/* no thread would end it */
		return 0;
	}
	/* Acquire: pairs with ltt_start()'s release of the region (never unmapped). */
	if (!(rg = ltt_read(&ltt_rt.region)))
		return 1;
	/* Hold each CPU ring, and each kernel ring (a kernel event or a system call's duration can be
	 * the trigger), from the block before its head on: the trigger event, committed before, is in
	 * the head block, or in the one before if a writer sealed it since (the event's CPU is not
	 * known: the one this thread ran on at its reservation). Plain stores, no pair: an opener that
	 * reads an older value sees an older hold (which protects more blocks, and only while this
	 * request is raised) or none (the window before this store: a block's worth of events). */
	for (uint32_t i = 0; i < rg->nrings; i++) {
		uint64_t head;

		if (i >= rg->ncpu && i < ltt_region_kbase(rg))
			continue;	/* control rings never overwrite */
		head = ltt_ring_head_seq(&rg->rings[i]);
		ltt_set(&rg->rings[i].trig_hold, head ? head : 1);	/* k + 1, k = head - 1 */
	}
	return 1;
}

void ltt_snapshot_trigger(const struct ltt_facility *fac, unsigned event_index)
{
	if (ltt_read(&ltt_trigger_pending))
		return;	/* already raised: the storm costs one load */
	(void)ltt_trigger_raise((uint16_t)(ltt_read(&fac->base_code) + event_index));
}

int ltt_flight_trigger_parse(char *why, size_t whylen)
{
	uint64_t v;
	int rc;

	ltt_fl.min_interval_ns = 1000ull * 1000000u;
	ltt_fl.keep = 0;
	if ((rc = ltt_env_get(LTT_ENV_SNAPSHOT_MIN_INTERVAL_MS_ID, &v, why, whylen)) < 0)
		return rc;
	if (rc)
		ltt_fl.min_interval_ns = v * 1000000u;
	if ((rc = ltt_env_get(LTT_ENV_SNAPSHOT_KEEP_ID, &v, why, whylen)) < 0)
		return rc;
	if (rc)
		ltt_fl.keep = (unsigned)v;
	return 0;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return (flag == FTW_DP ? rmdir(path) : unlink(path)) ? -1 : 0;
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

void ltt_flight_prune(void)
{
	unsigned *nos = NULL, n = 0, cap = 0;
	DIR *d;
	struct dirent *e;

	if (!ltt_fl.keep || !(d = opendir(ltt_fl.path)))
		return;
	while ((e = readdir(d))) {
		char *end;
		unsigned long no;

		if (strncmp(e->d_name, "snapshot-", 9))
			continue;
		no = strtoul(e->d_name + 9, &end, 10);
		if (*end || end == e->d_name + 9)
			continue;	/* snapshot-NNNN.part: being written, or left by a crash */
		if (LTT_GROW(nos, n + 1, cap))
			break;
		nos[n++] = (unsigned)no;
	}
	closedir(d);
	if (n)	/* nos is NULL without snapshots: qsort of NULL is undefined even for 0 (UBSan) */
		qsort(nos, n, sizeof(*nos), cmp_uint);
	for (unsigned i = 0; n > ltt_fl.keep && i < n - ltt_fl.keep; i++) {
		char p[PATH_MAX + 32];

		snprintf(p, sizeof(p), "%s/snapshot-%04u", ltt_fl.path, nos[i]);
		if (nftw(p, rm_entry, 16, FTW_DEPTH | FTW_PHYS))
			ltt_warn("LTT_SNAPSHOT_KEEP: %s: cannot remove: %s", p, strerror(errno));
	}
	free(nos);
}

/* Takes the snapshot of request v, naming its trigger in info/system.xml. */
static void take(uint64_t v, int tid)
{
	char name[200], where[PATH_MAX];
	uint64_t now = ltt_clock_now(), c;
	uint32_t sec, nsec;
	int rc;

	c = now - ((now - v) & LOW48);	/* the full cycle count: at most 2^48 cycles ago */
	ltt_clock_anchor(c, &sec, &nsec);
	if ((uint16_t)(v >> 48) == LTT_TRIGGER_DURATION)
		ltt_trigger_duration_read(name, sizeof(name));
	else
		ltt_events_name((uint16_t)(v >> 48), name, sizeof(name));
	if (ltt_flight_lock(tid, LOCK_WAIT_NS) != 1) {
		ltt_warn("LTT_SNAPSHOT_ON: %s: another snapshot did not end; trigger %s ignored", ltt_fl.path, name);
		return;
	}
	count_writer();
	snprintf(ltt_fl.trigger, sizeof(ltt_fl.trigger), "  ltt_trigger=\"%s\" ltt_trigger_time=\"%u.%09u\"\n",
		 name, sec, nsec);
	rc = ltt_read(&ltt_fl.active) ? ltt_snapshot_write(where, sizeof(where), ltt_fl.scratch[0], SNAP_WAIT_NS)
				       : -ENODEV;
	ltt_fl.trigger[0] = 0;
	if (rc && rc != -ENODEV)
		ltt_warn("LTT_SNAPSHOT_ON: snapshot for %s: %s: %s", name, ltt_fl.path, strerror(-rc));
	ltt_flight_prune();
	pruned_at = ltt_read(&ltt_fl.snap_no);
	ltt_flight_unlock();
}

/* Before the thread's first snapshot: it flushes the rings, so it counts among the threads that may
 * have written (recover: recorder/shm_layout.h); not before, so that a program with one thread keeps
 * the exact recovery of one writer. */
static void count_writer(void)
{
	if (!counted) {
		ltt_shm_threads_add(1);
		counted = 1;
	}
}

/* A snapshot asked for by the snapshot signal, taken here, on libltt's thread. */
static void take_signalled(int tid)
{
	if (ltt_read(&ltt_rt.region) != ltt_fl.rg || ltt_flight_lock(tid, LOCK_WAIT_NS) != 1)
		return;
	count_writer();
	if (ltt_read(&ltt_fl.active))
		ltt_snapshot_write(NULL, 0, ltt_fl.scratch[0], SNAP_WAIT_NS);
	ltt_flight_prune();	/* LTT_SNAPSHOT_KEEP, as each snapshot is written */
	pruned_at = ltt_read(&ltt_fl.snap_no);
	ltt_flight_unlock();
}

/* libltt's flight thread, `ltt-flight`: every signal blocked, it waits for the snapshot signal sent
 * to it alone (`ltt snapshot`, `ltt record`'s forwarding: tgkill, so no thread of the program is
 * interrupted; a signal sent to the process reaches a thread of the program, whose handler only
 * passes it on here, recorder/flight_signal.c) and looks at the trigger request every POLL_NS while
 * triggers are armed. */
static void *flight_main(void *arg)
{
	int tid = ltt_flight_tid(), sig = ltt_fl.snap_signal;
	uint64_t last = 0, started = ltt_mono_ns();
	int have_last = 0, checked = 0;
	sigset_t set;

	(void)arg;
	prctl(PR_SET_NAME, "ltt-flight", 0, 0, 0);
	sigemptyset(&set);
	if (sig)
		sigaddset(&set, sig);
	/* Release: the name is set before `ltt snapshot` can read the tid (pairs with nothing in this
	 * process: the registry is written after ltt_flight_thread_start() returns). */
	ltt_set(&ltt_fl.thread_tid, tid);
	while (!ltt_read(&stopping)) {
		uint64_t v;
		long ns = ltt_read(&poll_triggers) ? POLL_NS : IDLE_NS;
		siginfo_t si;
		int got = sigtimedwait(&set, &si, &(struct timespec){ ns / 1000000000, ns % 1000000000 });

		if (ltt_read(&stopping))
			break;
		/* LTT_SNAPSHOT_ON's event rules that match nothing are said once, when the program's
		 * facilities are registered (their constructors run after libltt's) */
		if (!checked && ltt_read(&poll_triggers) && ltt_mono_ns() - started >= 1000000000ull) {
			checked = 1;
			ltt_events_check_triggers();
		}
		if (got == sig && sig && !ltt_xchg(&woken, 0))
			take_signalled(tid);
		/* The request stays raised while its snapshot is taken (the rings hold the trigger's
		 * blocks meanwhile); only ltt_snapshot_trigger()'s CAS from 0 changes it otherwise. */
		v = ltt_read(&ltt_trigger_pending);
		if (v) {
			uint64_t t = ltt_mono_ns();

			if (!have_last || t - last >= ltt_fl.min_interval_ns) {
				take(v, tid);
				last = t;
				have_last = 1;
			}
			/* Full barrier: the snapshot is written before openers see the holds gone
			 * (pairs with the acquire load in ring.c's slot_free()) and before a new
			 * trigger's CAS. */
			(void)ltt_xchg(&ltt_trigger_pending, 0);
		}
		/* snapshots by ltt_snapshot() count against LTT_SNAPSHOT_KEEP too (it prunes itself;
		 * this is for one that could not) */
		if (ltt_fl.keep && ltt_read(&ltt_fl.snap_no) != pruned_at && ltt_flight_lock(tid, 0) == 1) {
			pruned_at = ltt_read(&ltt_fl.snap_no);
			ltt_flight_prune();
			ltt_flight_unlock();
		}
	}
	ltt_set(&ltt_fl.thread_tid, 0);
	return NULL;
}

/* Starts the flight thread once per process (a forked child starts its own if it records). */
static int thread_start(void)
{
	sigset_t all, old;
	int rc;

	if (running && thread_pid == (int)getpid())
		return 0;
	ltt_set(&ltt_trigger_pending, 0);
	ltt_set(&stopping, 0);
	ltt_set(&refused, 0);
	ltt_set(&ltt_fl.thread_tid, 0);
	pruned_at = ltt_read(&ltt_fl.snap_no);
	/* the thread takes no signal of the program's (the snapshot signal only by sigtimedwait) */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	rc = ltt_real_pthread_create(&thread, NULL, flight_main, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc)
		return rc;
	running = 1;
	thread_pid = (int)getpid();
	counted = 0;
	/* its tid, for the registry (`ltt snapshot` signals that thread): a few microseconds, more
	 * on a loaded machine (at most 5 s: then the registry names no thread) */
	for (int i = 0; i < 50000 && !ltt_read(&ltt_fl.thread_tid); i++)
		nanosleep(&(struct timespec){ 0, 100000 }, NULL);
	return 0;
}

void ltt_flight_thread_start(void)
{
	int rc;

	if (!ltt_fl.snap_signal)
		return;	/* no signal to wait for: the thread starts with the first trigger, if any */
	rc = thread_start();
	if (rc)
		ltt_warn("%s: cannot start the recorder's flight thread: %s; snapshots by signal are taken in "
			 "the program's thread the signal reaches", ltt_fl.path, strerror(rc));
}

void ltt_flight_trigger_start(void)
{
	int rc = thread_start();

	if (rc) {
		ltt_warn("LTT_SNAPSHOT_ON: cannot start the recorder's thread: %s; no trigger will take a snapshot",
			 strerror(rc));
		/* a request raised meanwhile would hold the rings for good: refuse them, end it (full
		 * barrier after the store: pairs with the raiser's CAS) */
		ltt_set(&refused, 1);
		(void)ltt_xchg(&ltt_trigger_pending, 0);
		return;
	}
	ltt_set(&poll_triggers, 1);
	if (ltt_trigger_syscall_rules() && !(ltt_k.groups & LTT_KGROUP_SYSCALLS))
		ltt_warn("LTT_SNAPSHOT_ON: %s: a system call's duration needs kernel system calls recorded "
			 "(LTT_KERNEL=syscalls, ltt record --kernel=syscalls): it will never fire", ltt_fl.path);
	/* wakes it so that it polls from now on (full barrier of the exchange: pairs with its own) */
	if (ltt_fl.snap_signal && ltt_read(&ltt_fl.thread_tid)) {
		(void)ltt_xchg(&woken, 1);
		syscall(SYS_tgkill, (int)getpid(), ltt_read(&ltt_fl.thread_tid), ltt_fl.snap_signal);
	}
}

void ltt_flight_trigger_stop(void)
{
	int tid;

	if (!running || thread_pid != (int)getpid()) {
		running = 0;
		return;
	}
	ltt_set(&stopping, 1);
	/* wakes it at once (it blocks the signal: nothing else sees it) */
	if ((tid = ltt_read(&ltt_fl.thread_tid)) && ltt_fl.snap_signal)
		syscall(SYS_tgkill, (int)getpid(), tid, ltt_fl.snap_signal);
	pthread_join(thread, NULL);
	/* a request raised since the thread's last look holds the rings: nothing will serve it */
	ltt_set(&ltt_trigger_pending, 0);
	ltt_set(&ltt_fl.thread_tid, 0);
	ltt_set(&poll_triggers, 0);
	running = 0;
}
