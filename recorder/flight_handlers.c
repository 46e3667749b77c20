/* SPDX-License-Identifier: MIT */
/* recorder/flight_handlers.c: the program's own signal handlers. A program that installs a handler of
 * the snapshot signal or of SIGSEGV (zstd does) after the flight trace started replaces ltt's: its
 * snapshots by signal and its crash snapshot were lost without a word. libltt defines sigaction() and
 * signal() (as it does pthread_create, recorder/threads.c), which tell flight_signal.c before calling
 * the C library's; libltt's own installs go to the C library's directly (ltt_real_sigaction()).
 * Not seen: bsd_signal(), sysv_signal(), sigset() and the raw system call. */
#include <dlfcn.h>
#include <signal.h>
#include <string.h>

#include "flight.h"

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);

int ltt_real_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	static sigaction_fn real;
	/* Relaxed: any thread may store the same pointer (dlsym's answer never changes). */
	sigaction_fn f = __atomic_load_n(&real, __ATOMIC_RELAXED);

	if (!f) {
		f = (sigaction_fn)dlsym(RTLD_NEXT, "sigaction");
		if (!f)
			return -1;
		__atomic_store_n(&real, f, __ATOMIC_RELAXED);
	}
	return f(sig, act, old);
}

__attribute__((visibility("default")))
int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	ltt_flight_handler_check(sig, act);
	return ltt_real_sigaction(sig, act, old);
}

/* glibc's signal(): BSD semantics (SA_RESTART, the handler stays installed). */
__attribute__((visibility("default")))
sighandler_t signal(int sig, sighandler_t handler)
{
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, sig);
	if (sigaction(sig, &sa, &old) < 0)
		return SIG_ERR;
	return old.sa_handler;
}
