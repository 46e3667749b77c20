/* recorder/flight_signal.c: the signals of flight-recorder mode (doc/flight-recorder.md): a snapshot on
 * LTT_SNAPSHOT_SIGNAL (SIGUSR2 by default), and a last snapshot on SIGSEGV, SIGBUS, SIGILL, SIGFPE and
 * SIGABRT, after which the signal's previous disposition runs (the default: core dump, exit status
 * unchanged). The handlers only call async-signal-safe code (recorder/snapshot.c). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "flight.h"

#define SIGNAL_WAIT_NS	100000000ull	/* a snapshot by signal waits this long for writers */
#define FATAL_WAIT_NS	50000000ull	/* the fatal snapshot: the crashed thread may never commit */
#define FATAL_LOCK_NS	1000000000ull	/* ... and waits this long for another snapshot to end */

static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };
#define NFATAL (sizeof(fatal_signals) / sizeof(fatal_signals[0]))

static struct sigaction old_fatal[NFATAL], old_snap;
static int installed, snap_installed;

int ltt_flight_signal_parse(char *why, size_t whylen)
{
	const char *v = getenv("LTT_SNAPSHOT_SIGNAL");
	const char *name;
	char *end;
	long n = -1;

	ltt_fl.snap_signal = SIGUSR2;
	if (!v || !*v)
		return 0;
	if (!strcmp(v, "none")) {
		ltt_fl.snap_signal = 0;
		return 0;
	}
	errno = 0;
	n = strtol(v, &end, 10);
	if (errno || *end || end == v) {
		name = !strncmp(v, "SIG", 3) ? v + 3 : v;
		n = -1;
		for (int s = 1; s < NSIG; s++) {
			const char *abbrev = sigabbrev_np(s);

			if (abbrev && !strcmp(abbrev, name)) {
				n = s;
				break;
			}
		}
		if (n < 0 && !strncmp(name, "RTMIN+", 6)) {
			long k = strtol(name + 6, &end, 10);

			if (!*end && k >= 0 && SIGRTMIN + k <= SIGRTMAX)
				n = SIGRTMIN + k;
		}
	}
	if (n <= 0 || n >= NSIG || n == SIGKILL || n == SIGSTOP) {
		snprintf(why, whylen, "LTT_SNAPSHOT_SIGNAL=%s: not a signal name, number or none", v);
		return -EINVAL;
	}
	for (unsigned i = 0; i < NFATAL; i++)
		if (n == fatal_signals[i]) {
			snprintf(why, whylen, "LTT_SNAPSHOT_SIGNAL=%s: a fatal signal (already a snapshot)", v);
			return -EINVAL;
		}
	ltt_fl.snap_signal = (int)n;
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

static void on_fatal_signal(int sig, siginfo_t *si, void *uc)
{
	int saved = errno, tid, lk;

	(void)si;
	(void)uc;
	for (unsigned i = 0; i < NFATAL; i++)
		if (fatal_signals[i] == sig)
			sigaction(sig, &old_fatal[i], NULL);	/* the next one goes where it used to */
	if (ltt_read(&ltt_fl.active) && getpid() == ltt_fl.pid) {
		tid = ltt_flight_tid();
		lk = ltt_flight_lock(tid, FATAL_LOCK_NS);
		/* -EDEADLK: this thread crashed inside a snapshot; 0: another one never ended (take it
		 * anyway, with the other scratch block: the directories differ) */
		if (lk != -EDEADLK)
			ltt_snapshot_write(NULL, 0, ltt_fl.scratch[1], FATAL_WAIT_NS);
		if (lk == 1)
			ltt_flight_unlock();
	}
	errno = saved;
	/* Pending until this handler returns (the signal is blocked in it), then delivered with the
	 * previous disposition; a fault would also recur when the instruction is restarted. */
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
		sigaction(fatal_signals[i], &sa, &old_fatal[i]);
	if (ltt_fl.snap_signal) {
		memset(&sa, 0, sizeof(sa));
		sigemptyset(&sa.sa_mask);
		sa.sa_handler = on_snapshot_signal;
		sa.sa_flags = SA_RESTART | SA_ONSTACK;
		snap_installed = sigaction(ltt_fl.snap_signal, &sa, &old_snap) == 0;
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
		if (!sigaction(fatal_signals[i], NULL, &cur) && (cur.sa_flags & SA_SIGINFO) &&
		    cur.sa_sigaction == on_fatal_signal)
			sigaction(fatal_signals[i], &old_fatal[i], NULL);
	if (snap_installed && !sigaction(ltt_fl.snap_signal, NULL, &cur) && !(cur.sa_flags & SA_SIGINFO) &&
	    cur.sa_handler == on_snapshot_signal)
		sigaction(ltt_fl.snap_signal, &old_snap, NULL);
	installed = snap_installed = 0;
}
