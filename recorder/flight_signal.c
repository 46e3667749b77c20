/* SPDX-License-Identifier: MIT */
/* recorder/flight_signal.c: the signals of flight-recorder mode (doc/flight-recorder.md): a snapshot on
 * LTT_SNAPSHOT_SIGNAL (SIGUSR2 by default), and a last snapshot on SIGSEGV, SIGBUS, SIGILL, SIGFPE and
 * SIGABRT, after which the signal's previous disposition runs (the default: core dump, exit status
 * unchanged). The handlers only call async-signal-safe code (recorder/snapshot.c). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "env_parse.h"
#include "flight.h"
#include "profile.h"

#define SIGNAL_WAIT_NS	100000000ull	/* a snapshot by signal waits this long for writers */
#define FATAL_WAIT_NS	50000000ull	/* the fatal snapshot: the crashed thread may never commit */
#define FATAL_LOCK_NS	1000000000ull	/* ... and waits this long for another snapshot to end */

static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };
#define NFATAL (sizeof(fatal_signals) / sizeof(fatal_signals[0]))

static struct sigaction old_fatal[NFATAL], old_snap;
static int installed, snap_installed;

int ltt_flight_signal_parse(char *why, size_t whylen)
{
	const char *v = secure_getenv("LTT_SNAPSHOT_SIGNAL");
	int n;

	ltt_fl.snap_signal = SIGUSR2;
	if (!v || !*v)
		return 0;
	if (!strcmp(v, "none")) {
		ltt_fl.snap_signal = 0;
		return 0;
	}
	n = ltt_signal_number(v);
	if (n < 0) {
		ltt_env_why(why, whylen, "LTT_SNAPSHOT_SIGNAL", v, "not a signal name, number or none");
		return -EINVAL;
	}
	for (unsigned i = 0; i < NFATAL; i++)
		if (n == fatal_signals[i]) {
			ltt_env_why(why, whylen, "LTT_SNAPSHOT_SIGNAL", v, "a fatal signal (already a snapshot)");
			return -EINVAL;
		}
	ltt_fl.snap_signal = n;
	return 0;
}

/* The snapshot signal sent to the process (`kill -USR2 PID`) reaches one of the program's threads
 * (the kernel picks one that does not block it): the handler passes it on to libltt's flight thread,
 * which takes the snapshot (recorder/flight_trigger.c), and returns at once: a few microseconds
 * (the interrupted thread may still see EINTR: `ltt snapshot PID` and `ltt record` signal the flight
 * thread alone). Without that thread, or when the program sent it to itself (raise(), kill() of its
 * own pid: it asked for the snapshot there and then, as ltt_snapshot() does), the snapshot is taken
 * here. */
static void on_snapshot_signal(int sig, siginfo_t *si, void *uc)
{
	int saved = errno, tid = ltt_read(&ltt_fl.thread_tid);

	(void)uc;
	if (tid && getpid() == ltt_fl.pid && !(si && si->si_code <= 0 && si->si_pid == ltt_fl.pid)) {
		syscall(SYS_tgkill, ltt_fl.pid, tid, sig);
		errno = saved;
		return;
	}
	if (ltt_read(&ltt_fl.active) && getpid() == ltt_fl.pid && ltt_read(&ltt_rt.region) == ltt_fl.rg) {
		tid = ltt_flight_tid();
		/* busy (another snapshot runs, maybe the one this handler interrupted): skip */
		if (ltt_flight_lock(tid, 0) == 1) {
			if (ltt_read(&ltt_fl.active))
				ltt_snapshot_write(NULL, 0, ltt_fl.scratch[0], SIGNAL_WAIT_NS);
			ltt_flight_unlock();
		}
	}
	errno = saved;
}

/* ---- fatal signals: libltt's handler stays first, the program's is chained --------------------------
 *
 * The program's action for each fatal signal (the one it had at the start, then whatever it installs:
 * libltt's sigaction() keeps it here instead of replacing libltt's handler, recorder/flight_handlers.c)
 * is in prog_act[i][prog_cur[i]]: written into the other slot, then published by one store, so that
 * the handler always reads a whole one. On the signal:
 *   - the program's action is a handler: the crash snapshot is written first, then the handler is
 *     called as the kernel would have (original signo, siginfo and ucontext, its sa_mask blocked,
 *     SA_NODEFER, SA_RESETHAND honoured). What it does next is the program's: re-raise after
 *     restoring SIG_DFL (that signal comes back here and gets the default action, no second
 *     snapshot), abort(), exit(), _exit(), or return. A handler that returns with its action still
 *     installed means the program recovers from that signal (a guard page, a JIT): from then on it
 *     is called first, without a snapshot (one was written for the first), and a snapshot is taken
 *     only when it arranges its death (SIG_DFL and a re-raise, abort()).
 *   - SIG_DFL, or SIG_IGN for a fault: the snapshot, then the default action (core dump, status).
 *   - SIG_IGN for a signal sent: ignored, as before the trace. */

static struct sigaction prog_act[NFATAL][2];
static int prog_cur[NFATAL];	/* which slot holds the program's action (atomic) */
static int prog_lock;		/* writers of prog_act (a spin lock: a program's sigaction() calls) */
static int recovers[NFATAL];	/* its handler returned and the program went on (atomic) */
static int crash_taken;		/* a crash snapshot is written and the program did not recover since */

static int fatal_index(int sig)
{
	for (unsigned i = 0; i < NFATAL; i++)
		if (fatal_signals[i] == sig)
			return (int)i;
	return -1;
}

static void prog_set(int i, const struct sigaction *act)
{
	int next;

	while (ltt_cmpxchg(&prog_lock, 0, 1))
		;	/* a few stores long */
	next = !ltt_read(&prog_cur[i]);
	prog_act[i][next] = *act;
	/* Release: the slot is written before it is published (pairs with the handler's load). */
	__atomic_store_n(&prog_cur[i], next, __ATOMIC_RELEASE);
	ltt_set(&prog_lock, 0);
}

static void prog_get(int i, struct sigaction *act)
{
	/* Acquire: pairs with prog_set()'s release. */
	*act = prog_act[i][__atomic_load_n(&prog_cur[i], __ATOMIC_ACQUIRE)];
}

static int is_handler(const struct sigaction *a)
{
	/* sa_handler and sa_sigaction share their storage: SIG_DFL and SIG_IGN read the same through
	 * either, whatever SA_SIGINFO says */
	return a->sa_handler != SIG_DFL && a->sa_handler != SIG_IGN;
}

int ltt_flight_chain(int sig, const struct sigaction *act, struct sigaction *old)
{
	int i = fatal_index(sig);

	if (i < 0 || !ltt_read(&installed))
		return 0;
	if (old)
		prog_get(i, old);
	if (act) {
		prog_set(i, act);
		ltt_set(&recovers[i], 0);	/* a new handler: not known to recover */
	}
	return 1;
}

/* Calls the program's handler as the kernel would have. */
static void call_program_handler(int i, int sig, siginfo_t *si, void *uc, const struct sigaction *act)
{
	sigset_t mask, saved;

	if (act->sa_flags & SA_RESETHAND) {
		struct sigaction dfl;

		memset(&dfl, 0, sizeof(dfl));
		dfl.sa_handler = SIG_DFL;
		sigemptyset(&dfl.sa_mask);
		prog_set(i, &dfl);	/* one-shot, as the program asked */
	}
	mask = act->sa_mask;
	if (!(act->sa_flags & SA_NODEFER))
		sigaddset(&mask, sig);
	pthread_sigmask(SIG_BLOCK, &mask, &saved);
	if (act->sa_flags & SA_NODEFER) {
		sigset_t self;

		sigemptyset(&self);
		sigaddset(&self, sig);
		pthread_sigmask(SIG_UNBLOCK, &self, NULL);
	}
	if (act->sa_flags & SA_SIGINFO)
		act->sa_sigaction(sig, si, uc);
	else
		act->sa_handler(sig);
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
}

/* The crash snapshot, once until the program recovers. */
static void crash_snapshot(void)
{
	int tid, lk;

	if (!ltt_read(&ltt_fl.active) || getpid() != ltt_fl.pid || ltt_xchg(&crash_taken, 1))
		return;
	tid = ltt_flight_tid();
	lk = ltt_flight_lock(tid, FATAL_LOCK_NS);
	/* -EDEADLK: this thread crashed inside a snapshot; 0: another one never ended (take it anyway,
	 * with the other scratch block: the directories differ) */
	if (lk == -EDEADLK || ltt_snapshot_write(NULL, 0, ltt_fl.scratch[1], FATAL_WAIT_NS)) {
		if (ltt_fl.shm_path[0])
			ltt_flight_say_recover();
	} else {
		ltt_flight_crash_written();
	}
	if (lk == 1)
		ltt_flight_unlock();
}

static void on_fatal_signal(int sig, siginfo_t *si, void *uc)
{
	int saved = errno, i = fatal_index(sig);
	struct sigaction act, dfl;
	/* si_code > 0: sent by the kernel for a fault of this thread (not by kill(), raise(), abort()) */
	int sync_fault = si && si->si_code > 0 && !(sig == SIGBUS && si->si_code == BUS_MCEERR_AO);

	if (i < 0)
		return;
	prog_get(i, &act);
	if (is_handler(&act)) {
		if (!ltt_read(&recovers[i])) {
			crash_snapshot();
			/* its handler may end the process any way it likes (abort() resets SIGABRT
			 * without telling us): the entry goes now, and comes back if it goes on */
			ltt_flight_registry_remove_keep();
		}
		errno = saved;
		call_program_handler(i, sig, si, uc, &act);
		saved = errno;
		prog_get(i, &act);
		if (is_handler(&act)) {
			/* it returned and keeps handling the signal: the program goes on */
			ltt_set(&recovers[i], 1);
			ltt_set(&crash_taken, 0);
			ltt_flight_registry_restore();
		}
		/* else it restored SIG_DFL (or SIG_IGN): a re-raise is pending, or a fault restarts,
		 * and comes back here for the default action */
		errno = saved;
		return;
	}
	/* SIG_IGN of a signal sent by someone: ignored, as before the trace; our handler stays. A fault
	 * with SIG_IGN kills the process (the kernel forces the default action), so it is a crash. */
	if (act.sa_handler == SIG_IGN && !sync_fault) {
		errno = saved;
		return;
	}
	crash_snapshot();
	/* the default action follows: the process dies, its `ltt snapshot` entry with it (a file left
	 * behind would be met by the next process given this pid) */
	if (getpid() == ltt_fl.pid)
		ltt_flight_registry_remove();
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	ltt_real_sigaction(sig, &dfl, NULL);	/* libltt's own restore: not the program's */
	errno = saved;
	/* A fault of this thread: returning restarts the instruction, which faults again and now gets
	 * the default action with its real siginfo (core dump, status). A signal sent by raise(),
	 * abort() or kill(): sent again, pending until this handler returns (the signal is blocked in
	 * it), then delivered with the default disposition. */
	if (!sync_fault)
		raise(sig);
}

void ltt_flight_signals_install(void)
{
	struct sigaction sa;

	if (installed)
		return;
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_sigaction = on_fatal_signal;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	for (unsigned i = 0; i < NFATAL; i++) {
		ltt_real_sigaction(fatal_signals[i], &sa, &old_fatal[i]);
		prog_set((int)i, &old_fatal[i]);
		ltt_set(&recovers[i], 0);
	}
	ltt_set(&crash_taken, 0);
	if (ltt_fl.snap_signal) {
		memset(&sa, 0, sizeof(sa));
		sigemptyset(&sa.sa_mask);
		sa.sa_sigaction = on_snapshot_signal;
		sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
		snap_installed = ltt_real_sigaction(ltt_fl.snap_signal, &sa, &old_snap) == 0;
	}
	installed = 1;
}

void ltt_flight_signals_restore(void)
{
	struct sigaction cur;

	if (!installed)
		return;
	/* The program's actions (what it had, or installed since) replace ours. */
	for (unsigned i = 0; i < NFATAL; i++)
		if (!ltt_real_sigaction(fatal_signals[i], NULL, &cur) && (cur.sa_flags & SA_SIGINFO) &&
		    cur.sa_sigaction == on_fatal_signal) {
			struct sigaction act;

			prog_get((int)i, &act);
			ltt_real_sigaction(fatal_signals[i], &act, NULL);
		}
	if (snap_installed && !ltt_real_sigaction(ltt_fl.snap_signal, NULL, &cur) && (cur.sa_flags & SA_SIGINFO) &&
	    cur.sa_sigaction == on_snapshot_signal)
		ltt_real_sigaction(ltt_fl.snap_signal, &old_snap, NULL);
	installed = snap_installed = 0;
}

/* A handler of the snapshot signal the program installs after the start replaces libltt's in the
 * kernel: a signal sent to the process goes to the program's handler. With libltt's flight thread
 * running, `ltt snapshot` and `ltt record` signal that thread alone and still get their snapshot;
 * without it, no snapshot by that signal any more. Said once, on stderr and in
 * TRACE/info/own-handlers, and in the registry entry (`ltt snapshot` then reports it instead of
 * waiting for a snapshot that never comes). Fatal signals never come here while libltt's handler is
 * installed: the program's handler is chained (ltt_flight_chain()), nothing is lost. */
void ltt_flight_handler_check(int sig, const struct sigaction *act)
{
	static int said;
	int own, thread = ltt_read(&ltt_fl.thread_tid) != 0;
	char p[PATH_MAX + 32], line[200];
	const char *name = sigabbrev_np(sig);
	int fd, n;

	if (!act || !installed || !ltt_read(&ltt_fl.active) || getpid() != ltt_fl.pid ||
	    !(snap_installed && sig == ltt_fl.snap_signal))
		return;
	own = (act->sa_flags & SA_SIGINFO) && act->sa_sigaction == on_snapshot_signal;
	/* Full barrier: one caller says it (pairs with nothing: a flag read by this function only). */
	if (own || ltt_xchg(&said, 1))
		return;
	n = snprintf(line, sizeof(line), "SIG%s: the program installed its own handler: %s\n", name ? name : "?",
		     thread ? "a signal sent to the process goes to it; `ltt snapshot PID` and `ltt record` still "
			      "take snapshots (libltt's thread)"
			    : "no snapshot by this signal (ltt_snapshot() still takes one)");
	ltt_warn("%s: %.*s", ltt_fl.path, n - 1, line);
	snprintf(p, sizeof(p), "%s/info/own-handlers", ltt_fl.path);
	fd = open(p, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, LTT_TRACE_FILE_MODE & 0644);
	if (fd >= 0) {
		if (write(fd, line, (size_t)n) != n) {
			/* said on stderr already */
		}
		close(fd);
	}
	ltt_flight_registry_own_handler();
}
