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

static void on_snapshot_signal(int sig)
{
	int saved = errno, tid;

	(void)sig;
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

/* The program's own handler of a fatal signal (installed before the trace started): called as the
 * kernel would have, with the original signo, siginfo and ucontext, and its sa_mask blocked. No
 * snapshot: the program handles the fault (a guard page, a JIT, a GC barrier) and goes on. */
static void call_program_handler(int sig, siginfo_t *si, void *uc, const struct sigaction *old)
{
	sigset_t saved;

	if (old->sa_flags & SA_RESETHAND) {
		struct sigaction dfl;

		memset(&dfl, 0, sizeof(dfl));
		dfl.sa_handler = SIG_DFL;
		sigemptyset(&dfl.sa_mask);
		sigaction(sig, &dfl, NULL);	/* one-shot, as the program asked */
	}
	pthread_sigmask(SIG_BLOCK, &old->sa_mask, &saved);
	if (old->sa_flags & SA_SIGINFO)
		old->sa_sigaction(sig, si, uc);
	else
		old->sa_handler(sig);
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
}

static void on_fatal_signal(int sig, siginfo_t *si, void *uc)
{
	int saved = errno, tid, lk;
	const struct sigaction *old = NULL;
	/* si_code > 0: sent by the kernel for a fault of this thread (not by kill(), raise(), abort()) */
	int sync_fault = si && si->si_code > 0 && !(sig == SIGBUS && si->si_code == BUS_MCEERR_AO);

	for (unsigned i = 0; i < NFATAL; i++)
		if (fatal_signals[i] == sig)
			old = &old_fatal[i];
	if (!old)
		return;
	/* sa_handler and sa_sigaction share their storage: SIG_DFL and SIG_IGN read the same through
	 * either, whatever SA_SIGINFO says */
	if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN) {
		errno = saved;
		call_program_handler(sig, si, uc, old);
		return;
	}
	/* SIG_IGN of a signal sent by someone: ignored, as before the trace; our handler stays. A fault
	 * with SIG_IGN kills the process (the kernel forces the default action), so it is a crash. */
	if (old->sa_handler == SIG_IGN && !sync_fault) {
		errno = saved;
		return;
	}
	sigaction(sig, old, NULL);	/* the next one goes where it used to: SIG_DFL (or SIG_IGN) */
	if (ltt_read(&ltt_fl.active) && getpid() == ltt_fl.pid) {
		tid = ltt_flight_tid();
		lk = ltt_flight_lock(tid, FATAL_LOCK_NS);
		/* -EDEADLK: this thread crashed inside a snapshot; 0: another one never ended (take it
		 * anyway, with the other scratch block: the directories differ) */
		if (lk != -EDEADLK)
			ltt_snapshot_write(NULL, 0, ltt_fl.scratch[1], FATAL_WAIT_NS);
		if (lk == 1)
			ltt_flight_unlock();
		/* the default action follows: the process dies, its `ltt snapshot` entry with it (a
		 * file left behind would be met by the next process given this pid) */
		ltt_flight_registry_remove();
	}
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
	for (unsigned i = 0; i < NFATAL; i++)
		ltt_real_sigaction(fatal_signals[i], &sa, &old_fatal[i]);
	if (ltt_fl.snap_signal) {
		memset(&sa, 0, sizeof(sa));
		sigemptyset(&sa.sa_mask);
		sa.sa_handler = on_snapshot_signal;
		sa.sa_flags = SA_RESTART | SA_ONSTACK;
		snap_installed = ltt_real_sigaction(ltt_fl.snap_signal, &sa, &old_snap) == 0;
	}
	installed = 1;
}

void ltt_flight_signals_restore(void)
{
	struct sigaction cur;

	if (!installed)
		return;
	/* Only our own handlers are put back: one the program installed since stays. */
	for (unsigned i = 0; i < NFATAL; i++)
		if (!ltt_real_sigaction(fatal_signals[i], NULL, &cur) && (cur.sa_flags & SA_SIGINFO) &&
		    cur.sa_sigaction == on_fatal_signal)
			ltt_real_sigaction(fatal_signals[i], &old_fatal[i], NULL);
	if (snap_installed && !ltt_real_sigaction(ltt_fl.snap_signal, NULL, &cur) && !(cur.sa_flags & SA_SIGINFO) &&
	    cur.sa_handler == on_snapshot_signal)
		ltt_real_sigaction(ltt_fl.snap_signal, &old_snap, NULL);
	installed = snap_installed = 0;
}

/* A handler the program installs after the start replaces ltt's: no snapshot for that signal any
 * more (doc/flight-recorder.md). Said once per signal, on stderr and in TRACE/info/own-handlers, and
 * for the snapshot signal in the registry entry, so that `ltt snapshot` reports it instead of waiting
 * for a snapshot that never comes. */
void ltt_flight_handler_check(int sig, const struct sigaction *act)
{
	static unsigned long said;	/* one bit per signal said */
	int fatal = -1, own;
	char p[PATH_MAX + 32], line[160];
	const char *name = sigabbrev_np(sig);
	int fd, n;

	if (!act || !installed || !ltt_read(&ltt_fl.active) || getpid() != ltt_fl.pid || sig < 1 || sig > 63)
		return;
	for (unsigned i = 0; i < NFATAL; i++)
		if (fatal_signals[i] == sig)
			fatal = (int)i;
	if (fatal < 0 && !(snap_installed && sig == ltt_fl.snap_signal))
		return;
	own = fatal >= 0 ? (act->sa_flags & SA_SIGINFO) && act->sa_sigaction == on_fatal_signal :
			   !(act->sa_flags & SA_SIGINFO) && act->sa_handler == on_snapshot_signal;
	/* Full barrier: one caller says it (pairs with nothing: a flag read by this function only). */
	if (own || (__atomic_fetch_or(&said, 1ul << sig, __ATOMIC_SEQ_CST) & (1ul << sig)))
		return;
	n = snprintf(line, sizeof(line), "SIG%s: the program installed its own handler: %s\n", name ? name : "?",
		     fatal >= 0 ? "no crash snapshot on it" : "no snapshot by this signal (ltt_snapshot() still takes one)");
	ltt_warn("%s: %.*s", ltt_fl.path, n - 1, line);
	snprintf(p, sizeof(p), "%s/info/own-handlers", ltt_fl.path);
	fd = open(p, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd >= 0) {
		if (write(fd, line, (size_t)n) != n) {
			/* said on stderr already */
		}
		close(fd);
	}
	if (fatal < 0)
		ltt_flight_registry_own_handler();
}
